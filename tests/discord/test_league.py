"""A league played through Discord as its organiser and players would (issue #38).

Seven members, tables of four: sign-up with the card's buttons, three rounds paired
(repeat opponents only where unavoidable, the seventh seat a bot's), a player who
leaves their table missing the round and being dropped, a restart in the middle of a
round, a round decided by its deadline, the standings equal to a recount from the
finished tables, the podium at the end, and each player's result in `/history`.
The tables play Take-away (`tests/tinygame`), so a round is a few clicks.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter

import discord
import pytest

from hosting.league import BOT, History, LeagueTable, placement_points, repeats
from simtools.strict import remove_permission, restore_permission
from simtools.ui import panel_button
from tests.discord.test_delivery import dms_to
from tests.discord.test_reliability_hostile import button, send_together
from tests.play_helpers import MENTION, awaited, latest_board, messages, play_panel, results_message, said

HOUR = 3600
DAY = 24 * HOUR
NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gus")


@pytest.fixture
def league_world(simcord_env):
    """A server with #league, an organiser who may manage it, and seven members."""
    guild = simcord_env.create_guild("Sea League")
    channel = guild.create_text_channel("league")
    moderators = guild.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    organiser = guild.add_member(simcord_env.create_user("orla"), roles=[moderators])
    players = [guild.add_member(simcord_env.create_user(name)) for name in NAMES]
    return guild, channel, organiser, players


def card_of(channel, message_id):
    """The league's sign-up card as it stands now."""
    return next(m for m in channel.history() if m.id == message_id)


def round_threads(channel, round_no: int) -> list:
    """The threads of a round's tables, table 1 first."""
    found = [t for t in channel.threads if f"· R{round_no} T" in t.name]
    return sorted(found, key=lambda t: t.name)


async def round_tables(member, channel, round_no: int) -> list[LeagueTable]:
    """The round's tables as `/league round` lists them: who sits where (a bot as `BOT`)."""
    listed = said(await member.slash(channel, "league round"))
    assert f"round {round_no} of 3" in listed.splitlines()[0], listed
    tables = []
    for line in listed.splitlines()[1:]:
        number = int(re.match(r"Table (\d+):", line).group(1))
        seats = line.split(":", 1)[1].split(" — ")[0].split(", ")
        tables.append(
            LeagueTable(
                round_no,
                number,
                tuple(BOT if s.strip() == "🤖" else int(MENTION.findall(s)[0]) for s in seats),
            )
        )
    return tables


def fewest_repeats(players: list[int], sizes: list[int], history: History) -> int:
    """The fewest repeat meetings any split of ``players`` into two tables of ``sizes`` allows."""
    best = None
    for first in itertools.combinations(players, sizes[0]):
        rest = tuple(p for p in players if p not in first)
        cost = repeats([LeagueTable(0, 1, first), LeagueTable(0, 2, rest)], history)
        best = cost if best is None else min(best, cost)
    return best


def sent(env, channel_id: int, words: str) -> dict:
    """The JSON body of the bot's message into ``channel_id`` whose content has ``words``."""
    return next(
        e.json
        for e in env.http_requests
        if e.method == "POST"
        and e.path.endswith(f"/channels/{channel_id}/messages")
        and isinstance(e.json, dict)
        and words in (e.json.get("content") or "")
    )


def channel_texts(channel) -> list[str]:
    return [m.content for m in sorted(channel.history(), key=lambda m: m.id)]


async def play_table(thread, people: dict[int, object], rng: random.Random):
    """Play every awaited player's moves at a table until its results (`take_turns`, for a game
    whose panels have no picture); the results message."""
    for _ in range(200):
        if (done := results_message(thread)) is not None:
            return done
        board = latest_board(thread)
        member = people[next(uid for uid in awaited(board) if uid in people)]
        opened = await member.click(board, custom_id=panel_button(board).custom_id)
        await play_panel(member, opened.followups[0] if opened.followups else opened.response, rng)
    return results_message(thread)


async def play_round(threads, people: dict[int, object], seed: int) -> None:
    for number, thread in enumerate(threads):
        assert await play_table(thread, people, random.Random(seed + number)) is not None


async def test_a_league_of_seven_from_sign_up_to_the_podium(league_world, simcord_env, make_bot):
    guild, channel, orla, players = league_world
    ann, ben, cat, dan, eve, fay, gus = players
    by_id = {p.id: p for p in players}

    # Only an organiser creates a league.
    refused = await ann.slash(channel, "league create", name="Ann's league", game="takeaway")
    assert refused.ephemeral and "can create a league" in said(refused)
    created = await orla.slash(
        channel,
        "league create",
        name="Winter League",
        game="takeaway",
        seats=4,
        rounds=3,
        pace=0,
        round_length=24,
        cap=7,
        drop_after=1,
    )
    assert not created.ephemeral
    card = created.response
    assert card.embeds[0].title.startswith("🏆 Winter League — league #")
    labels = [c.label for row in card_of(channel, card.id).components for c in row.children]
    assert labels == ["Join", "Leave", "Start the league"]

    # Sign-up: seven join, one leaves and comes back, the cap holds, only the organiser starts.
    for member in players:
        await member.click(card_of(channel, card.id), label="Join")
    assert (
        said(await ann.click(card_of(channel, card.id), label="Join"))
        == "You are already signed up for this league."
    )
    assert said(await orla.click(card_of(channel, card.id), label="Join")) == "This league is full."
    await gus.click(card_of(channel, card.id), label="Leave")
    assert gus.mention not in card_of(channel, card.id).embeds[0].description
    await gus.click(card_of(channel, card.id), label="Join")
    assert all(p.mention in card_of(channel, card.id).embeds[0].description for p in players)
    assert "7 of 7 signed up" in card_of(channel, card.id).embeds[0].footer.text
    assert said(await ann.click(card_of(channel, card.id), label="Start the league")) == (
        "Only the league's organiser can start it."
    )
    await orla.click(card_of(channel, card.id), label="Start the league")
    assert card_of(channel, card.id).components == []  # sign-up is closed

    # Round 1: two tables of four seats in their own threads, the seventh seat a bot's; each
    # table's first message pings exactly its players.
    first = round_threads(channel, 1)
    assert len(first) == 2
    tables = [await round_tables(ann, channel, 1)][0]
    assert sorted(len([p for p in t.players if p != BOT]) for t in tables) == [3, 4]
    assert sorted(p for t in tables for p in t.players if p != BOT) == sorted(by_id)
    for thread, table in zip(first, tables, strict=True):
        hello = sent(simcord_env, thread.id, "Good luck")
        people = sorted(str(p) for p in table.players if p != BOT)
        assert hello["allowed_mentions"] == {"users": people, "parse": []}  # exactly its players
        assert latest_board(thread) is not None
    history = tables

    # Gus leaves his table: a bot plays his seat; he misses the round and, at one miss, is dropped.
    gus_thread = next(th for th, t in zip(first, tables, strict=True) if gus.id in t.players)
    assert "bot" in said(await gus.slash(gus_thread, "game leave")).lower()
    await play_round(first, {p.id: p for p in players if p is not gus}, 1)

    # The round closed: standings (a picture) in the channel; round 2 paired without gus.
    posted = sorted(channel.history(), key=lambda m: m.id)
    standings = next(m for m in posted if "standings after round 1 of 3" in m.content)
    assert standings.attachments and standings.attachments[0].filename == "league-standings.png"
    assert f"<@{gus.id}> missed 1 round and is no longer paired" in standings.content
    assert sent(simcord_env, channel.id, "after round 1")["allowed_mentions"] == {"parse": []}  # nobody
    second = round_threads(channel, 2)
    tables = await round_tables(ann, channel, 2)
    seated = sorted(p for t in tables for p in t.players if p != BOT)
    assert seated == sorted(p.id for p in players if p is not gus)
    assert [len([p for p in t.players if p != BOT]) for t in tables] == [3, 3]
    before = History.of(history)
    assert repeats(tables, before) == fewest_repeats(seated, [3, 3], before)
    history += tables

    # Round 2: one table finishes, the bot restarts, the other table finishes afterwards.
    active = {p.id: p for p in players if p is not gus}
    assert await play_table(second[0], active, random.Random(20)) is not None
    await simcord_env.restart_bot(make_bot())
    assert round_threads(channel, 3) == []  # the round waits for its other table
    assert await play_table(second[1], active, random.Random(21)) is not None
    third = round_threads(channel, 3)
    assert len(third) == 2 and any("standings after round 2 of 3" in t for t in channel_texts(channel))
    tables = await round_tables(ann, channel, 3)
    before = History.of(history)
    assert repeats(tables, before) == fewest_repeats(sorted(active), [3, 3], before)
    history += tables

    # Round 3: nobody moves; the round's deadline passes and bots play its tables to the end.
    await simcord_env.advance_time(24 * HOUR + 60)
    for thread in third:
        assert any("time is up" in m.content for m in messages(thread))
    final = next(m for m in sorted(channel.history(), key=lambda m: m.id) if "is over!" in m.content)
    assert final.attachments[0].filename == "league-final.png"  # the podium and the final standings
    assert final.attachments[0].description.startswith("Winter League: standings. 1. ")

    # The standings equal a recount from the finished tables.
    recount: Counter[int] = Counter()
    for paired in history:
        table = await simcord_env.bot.store.get_table(
            next(
                t.table_id
                for t in await simcord_env.bot.store.league_tables(1, paired.round)
                if t.table_no == paired.table_no
            )
        )
        assert table.status == "finished"
        points = placement_points(table.result["ranking"])
        for seat, person in enumerate(paired.players):
            if person != BOT:
                recount[person] += points[seat]
    shown = said(await ann.slash(channel, "league standings"))
    lines = shown.splitlines()[1:]
    assert len(lines) == 7
    for line in lines:
        name, points = re.match(r"\d+\. (\w+) — ([\d.]+) points", line).groups()
        person = next(p for p in players if p.name == name)
        assert float(points) == recount[person.id], (name, points, recount[person.id])
    ranked = [re.match(r"\d+\. (\w+)", line).group(1) for line in lines]
    assert [recount[next(p.id for p in players if p.name == n)] for n in ranked] == sorted(
        recount.values(), reverse=True
    )

    # Each player's league result is in /history.
    mine = said(await ann.slash(channel, "history"))
    assert "Winter League" in mine and "of 7" in mine


async def test_organisers_drops_and_ending_a_league_early(league_world, simcord_env):
    guild, channel, orla, players = league_world
    ann, ben, cat, *_ = players
    # The server names a role that may organise leagues (Manage Server names it).
    organisers = guild.create_role("Organisers")
    ivy = guild.add_member(simcord_env.create_user("ivy"), roles=[organisers])
    refused = await ivy.slash(channel, "league create", name="Spring", game="takeaway")
    assert "can create a league" in said(refused)
    assert "may organise leagues now" in said(await orla.slash(channel, "settings", league_role=organisers))
    created = await ivy.slash(channel, "league create", name="Spring", game="takeaway", seats=2, rounds=2)
    card = created.response
    for member in (ann, ben, cat):
        await member.click(card_of(channel, card.id), label="Join")
    await ivy.click(card_of(channel, card.id), label="Start the league")
    assert len(round_threads(channel, 1)) == 2  # three players at two seats: two tables, one bot

    # Only the organiser (or Manage Server) drops, reinstates and ends.
    assert "Only the league's organiser" in said(await ann.slash(channel, "league drop", player=ben))
    dropped = await ivy.slash(channel, "league drop", player=cat)
    assert "is no longer paired" in said(dropped)
    assert "(dropped)" in said(await ann.slash(channel, "league standings"))
    assert "is paired again" in said(await ivy.slash(channel, "league reinstate", player=cat))
    assert "(dropped)" not in said(await ann.slash(channel, "league standings"))
    assert "not in this league" in said(await ivy.slash(channel, "league drop", player=orla))
    assert said(await ann.slash(channel, "league end")) == "Only the league's organiser can end it."

    ended = await ivy.slash(channel, "league end")
    assert "is over" in said(ended)
    final = next(m for m in sorted(channel.history(), key=lambda m: m.id) if "is over!" in m.content)
    assert final.attachments[0].filename == "league-final.png"
    assert "over" in card_of(channel, card.id).embeds[0].footer.text
    assert said(await ivy.slash(channel, "league end")) == "This league is already over."
    mine = said(await ann.slash(channel, "history"))
    assert "**Spring**" in mine and "of 3" in mine  # a result in /history, though no game finished


async def test_refused_standings_are_owed_and_posted_once_discord_lets_the_bot(league_world, simcord_env):
    guild, channel, orla, players = league_world
    ann, ben, cat, *_ = players
    created = await orla.slash(channel, "league create", name="Autumn", game="takeaway", seats=2, rounds=2)
    card = created.response
    for member in (ann, ben, cat):
        await member.click(card_of(channel, card.id), label="Join")

    await orla.click(card_of(channel, card.id), label="Start the league")
    people = {m.id: m for m in (ann, ben, cat)}

    # Discord answers the round's standings in #league with a 503: the next round is paired all
    # the same, and the standings are posted a minute later, once.
    simcord_env.inject_error("POST", f"/channels/{channel.id}/messages", status=503, times=1)
    await play_round(round_threads(channel, 1), people, seed=5)
    assert len(round_threads(channel, 2)) == 2
    assert not any("standings after round 1" in text for text in channel_texts(channel))
    await simcord_env.advance_time(2 * 60)
    assert sum("standings after round 1" in text for text in channel_texts(channel)) == 1

    # A moderator takes Send Messages from the bot in #league; the organiser ends the league.
    await remove_permission(simcord_env, channel, "send_messages")
    before = len(simcord_env.http_requests)
    ended = await orla.slash(channel, "league end")
    assert "refused its final standings for now" in said(ended)
    told = dms_to(simcord_env, orla)
    assert len(told) == 1 and "may not post in" in told[0] and "**Autumn**" in told[0]
    # The podium is owed: tried hourly, never in a loop (a table's refusal budget), its
    # organiser told once.
    await simcord_env.advance_time(DAY)
    tried = [
        e
        for e in simcord_env.http_requests[before:]
        if e.method == "POST" and e.path == f"/channels/{channel.id}/messages"
    ]
    assert 2 <= len(tried) <= 6  # tried again, but at most six times in the day (a table's budget)
    assert len(dms_to(simcord_env, orla)) == 1
    assert not any("is over!" in text for text in channel_texts(channel))
    # The permission is back: the final standings go out, once, with the podium.
    await restore_permission(simcord_env, channel, "send_messages")
    await simcord_env.advance_time(2 * HOUR)
    final = [m for m in channel.history() if "is over!" in m.content]
    assert len(final) == 1 and final[0].attachments[0].filename == "league-final.png"
    await simcord_env.advance_time(DAY)
    assert sum("is over!" in text for text in channel_texts(channel)) == 1


async def test_ten_sign_ups_at_once_and_a_double_clicked_start(league_world, simcord_env):
    guild, channel, orla, players = league_world
    members = players + [guild.add_member(simcord_env.create_user(f"late{i}")) for i in range(3)]
    created = await orla.slash(channel, "league create", name="Rush", game="takeaway", seats=2, rounds=1)
    league_id = int(created.response.embeds[0].title.rsplit("#", 1)[1])
    card = card_of(channel, created.response.id)
    # Ten members press Join before the bot handles any of the clicks.
    await send_together(simcord_env, card, [(m, button(f"league:join:{league_id}")) for m in members])
    signed = await simcord_env.bot.tables.store.league_players(league_id, "takeaway")
    assert sorted(p.user_id for p in signed) == sorted(m.id for m in members)
    listed = card_of(channel, card.id).embeds[0].description
    assert sorted(int(uid) for uid in MENTION.findall(listed)) == sorted(m.id for m in members)
    # The organiser's Start, double-clicked: one round of five tables, and one answer says so.
    answers = await send_together(simcord_env, card, [(orla, button(f"league:start:{league_id}"))] * 2)
    assert len(round_threads(channel, 1)) == 5
    assert sum("already started" in said(a) for a in answers) == 1
