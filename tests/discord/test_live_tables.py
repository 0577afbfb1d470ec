"""/tables (issue #38): a server's running tables, for anyone who wants to watch.

Played as people would: a busy server with a dozen tables (and another server with
its own), a member pages through the list, a moderator takes a permission away from
the bot on one channel and an organiser sees those tables as stuck (and lists only
them), while the member sees no such thing. Names are printed, never pinged.
"""

from __future__ import annotations

import re

import discord
import pytest

import engine
from simtools.strict import remove_permission
from tests.discord.test_play import seat_and_start
from tests.play_helpers import said

DAY = 24 * 3600


@pytest.fixture
def server(simcord_env):
    guild = simcord_env.create_guild("Jeju Friends")
    games = guild.create_text_channel("games")
    quiet = guild.create_text_channel("quiet")
    names = ("alice", "bob", "carol", "**dan** @everyone")
    people = [guild.add_member(simcord_env.create_user(name)) for name in names]
    organisers = guild.create_role("Organisers", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[organisers])
    return guild, games, quiet, people, mod


def table_ids(text: str) -> list[int]:
    """The table numbers a /tables page lists, in its order."""
    return [int(n) for n in re.findall(r"\*\* #(\d+) —", text)]


def buttons(message) -> dict[str, dict]:
    return {c["label"]: c for row in message.components for c in row["components"]}


async def test_members_page_through_the_running_tables_and_organisers_see_the_stuck_ones(server, simcord_env):
    guild, games, quiet, (alice, bob, carol, dan), mod = server
    store = simcord_env.bot.tables.store
    # Another server's table: never listed here.
    elsewhere = simcord_env.create_guild("Elsewhere")
    lounge = elsewhere.create_text_channel("lounge")
    erin, finn = (elsewhere.add_member(simcord_env.create_user(n)) for n in ("erin", "finn"))
    other_thread = await seat_and_start(lounge, erin, [finn], 0, "takeaway", pace=DAY)
    other = await store.table_in_channel(other_thread.id)
    # Eleven tables in #games and two in #quiet, hosted in turn; one table is only a lobby.
    pairs = [(alice, bob), (carol, dan), (bob, carol), (dan, alice)]
    threads = []
    for n in range(11):
        host, guest = pairs[n % len(pairs)]
        threads.append(await seat_and_start(games, host, [guest], 0, "takeaway", pace=DAY))
    quiet_threads = [await seat_and_start(quiet, alice, [dan], 0, "takeaway", pace=DAY) for _ in range(2)]
    await alice.slash(games, "play", game="takeaway")  # a lobby is not a running table
    running = [await store.table_in_channel(t.id) for t in (*threads, *quiet_threads)]
    assert all(t.status == "active" for t in running)
    newest_first = sorted((t.id for t in running), reverse=True)

    # A member: thirteen running tables, ten a page, newest first; nothing about stuck tables.
    first = await carol.slash(games, "tables")
    text = said(first)
    assert "**Running tables in this server** (13)" in text and "Tables 1–10 of 13" in text
    assert table_ids(text) == newest_first[:10]
    assert other.id not in table_ids(text) and "stuck" not in text
    assert "Only stuck tables" not in " ".join(buttons(first.response))
    newest = running[-1]
    line = next(ln for ln in text.splitlines() if f"#{newest.id} —" in ln)
    assert "**Take-away (test game)**" in line and "alice" in line
    assert f"<t:{int(newest.deadline)}:R>" in line  # the deadline, in each reader's own time zone
    assert f"/{guild.id}/{newest.thread_id}" in line  # a link to the table's thread
    to_act = engine.get("takeaway").to_act(simcord_env.bot.tables.state_of(newest))
    awaited = [s.name for s in newest.seats if s.seat in to_act]
    assert f"waiting for {awaited[0]}" in line
    # Names are text: no markdown, no pings (dan's name tries both).
    assert "**dan**" not in text and "@everyone" not in text and "\\*\\*dan\\*\\*" in text
    assert "<@" not in text
    sent = [e.json for e in simcord_env.http_requests if e.json and "Running tables" in str(e.json)]
    assert sent and all(body["data"]["allowed_mentions"] == {"parse": []} for body in sent)

    second = await carol.click(first.response, label="Next ▶")
    page_two = second.response.content
    assert table_ids(page_two) == newest_first[10:] and "Tables 11–13 of 13" in page_two
    assert buttons(second.response)["Next ▶"].get("disabled")
    back = await carol.click(second.response, label="◀ Previous")
    assert table_ids(back.response.content) == newest_first[:10]

    # A moderator takes a permission away from the bot on #quiet: its two tables are blocked.
    await remove_permission(simcord_env, quiet, "send_messages_in_threads")
    blocked = [await store.table_in_channel(t.id) for t in quiet_threads]
    assert all(t.blocked for t in blocked)

    # The organiser sees them marked, and may list only them; the member still sees none of it.
    organiser = await mod.slash(games, "tables")
    text = said(organiser)
    assert "⚠️ 2 stuck" in text
    marked = [int(n) for n in re.findall(r"#(\d+) —[^\n]*\n  ⚠️ blocked", text)]
    assert sorted(marked) == sorted(t.id for t in blocked)
    stuck = await mod.click(organiser.response, label="Only stuck tables (2)")
    assert "**Stuck tables in this server** (2)" in stuck.response.content
    assert table_ids(stuck.response.content) == sorted((t.id for t in blocked), reverse=True)
    # The organiser's pages are longer (the notes): a page holds fewer, and none is skipped.
    everything = await mod.click(stuck.response, label="All running tables")
    listed = table_ids(everything.response.content)
    while not buttons(everything.response)["Next ▶"].get("disabled"):
        everything = await mod.click(everything.response, label="Next ▶")
        listed += table_ids(everything.response.content)
    assert listed == newest_first
    member = said(await carol.slash(games, "tables"))
    assert "⚠️" not in member and "stuck" not in member and table_ids(member) == newest_first[:10]


async def test_a_server_without_running_tables_says_how_to_start_one(server):
    guild, games, quiet, (alice, *_), mod = server
    text = said(await alice.slash(games, "tables"))
    assert "(0)" in text and "`/play`" in text
