"""Seasons (issue #38): a server's boards start afresh each month, and the all-time boards stay.

An organiser turns monthly seasons on with `/settings`; members finish rated Jeju Island
games in January (played to the end through the real table service, as the busy-history
tests do), the month rolls over under `advance_time`, and others play in February. The
server's board then shows February's season by default, January's a click back, and the
all-time board a click away; each board's players and game counts equal a recount from
the finished tables of that month.
"""

from __future__ import annotations

import random
import re

import discord
import pytest

from hosting import seasons
from hosting.records import FINISHED
from tests.hosting.test_stats_table import play_out
from tests.play_helpers import said

DAY = 86_400


@pytest.fixture
def server(simcord_env):
    guild = simcord_env.create_guild("Jeju Friends")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol")]
    organisers = guild.create_role("Organisers", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[organisers])
    return guild, channel, people, mod


async def jeju(service, guild, channel, host, guest, rng) -> int:
    table = await service.create_table(
        game_key="jeju", guild_id=guild.id, channel_id=channel.id, host_id=host.id, host_name=host.name
    )
    await service.join(table.id, guest.id, guest.name)
    await service.start(table.id, host.id)
    await play_out(service, table.id, rng)
    return table.id


def board_games(text: str, people) -> dict[str, int]:
    """Who is on a board page and with how many games: {name: games}."""
    names = {f"<@{p.id}>": p.name for p in people}
    found = {}
    for mention, games in re.findall(r"\*\*\d+\.\*\* (<@\d+>) — \*\*[^*]+\*\* · (\d+) games?", text):
        found[names[mention]] = int(games)
    return found


async def recount(store, people, guild_id: int, month: str) -> dict[str, int]:
    """Rated Jeju Island games per player in that server and month, from the finished tables."""
    counted: dict[str, int] = {}
    for person in people:
        for table in await store.tables_of_user(person.id, statuses=(FINISHED,), guild_id=guild_id):
            if (
                table.game == "jeju"
                and seasons.key(seasons.SeasonSettings("month"), table.updated_at) == month
            ):
                counted[person.name] = counted.get(person.name, 0) + 1
    return counted


async def test_a_month_rolls_over_and_the_boards_split(server, simcord_env):
    guild, channel, (alice, bob, carol), mod = server
    service, store = simcord_env.bot.tables, simcord_env.bot.tables.store
    rng = random.Random(8)
    january = seasons.key(seasons.SeasonSettings("month"), service.now())
    turned_on = said(await mod.slash(channel, "settings", season="month"))
    assert f"Seasons last a calendar month (UTC); this one is {january}." == turned_on
    for host, guest in ((alice, bob), (bob, alice), (alice, bob), (carol, alice)):
        await jeju(service, guild, channel, host, guest, rng)

    text = said(await alice.slash(channel, "leaderboard", game="jeju"))
    assert f"{january}, this server" in text and "current season" in text
    assert board_games(text, (alice, bob, carol)) == await recount(
        store, (alice, bob, carol), guild.id, january
    )
    assert board_games(text, (alice, bob, carol)) == {"alice": 4, "bob": 3, "carol": 1}

    # The month rolls over: February's first games start February's season.
    await simcord_env.advance_time(32 * DAY)
    february = seasons.key(seasons.SeasonSettings("month"), service.now())
    assert february != january
    for host, guest in ((bob, carol), (carol, bob)):
        await jeju(service, guild, channel, host, guest, rng)
    now = await bob.slash(channel, "leaderboard", game="jeju")
    text = said(now)
    assert f"{february}, this server" in text and "current season" in text
    assert board_games(text, (alice, bob, carol)) == {"bob": 2, "carol": 2}  # alice has not played yet
    assert "You: **#" in text
    before = await bob.click(now.response, label="◀ Earlier season")
    text = before.response.content
    assert f"{january}, this server" in text and "current season" not in text
    assert board_games(text, (alice, bob, carol)) == await recount(
        store, (alice, bob, carol), guild.id, january
    )
    # The all-time board stays, with every game of both months (3 rated games to be on it).
    alltime = await bob.click(before.response, label="All-time")
    text = alltime.response.content
    assert "ratings, this server" in text
    assert board_games(text, (alice, bob, carol)) == {"alice": 4, "bob": 5, "carol": 3}
    back = await bob.click(alltime.response, label="This season")
    assert f"{february}, this server" in back.response.content
    # The board across servers has no seasons.
    assert "all servers" in said(await bob.slash(channel, "leaderboard", game="jeju", scope="all"))

    # By hand: a new season now, empty until its first game; the months stay as past seasons.
    manual = said(await mod.slash(channel, "settings", season="new"))
    assert "Season 1" in manual
    text = said(await alice.slash(channel, "leaderboard", game="jeju"))
    assert "Season 1, this server" in text and "Nobody is on this board yet." in text
    await jeju(service, guild, channel, alice, carol, rng)
    result = await alice.slash(channel, "leaderboard", game="jeju")
    assert board_games(said(result), (alice, bob, carol)) == {"alice": 1, "carol": 1}
    earlier = await alice.click(result.response, label="◀ Earlier season")
    assert f"{february}, this server" in earlier.response.content
    # Seasons off: the all-time board again, by default.
    await mod.slash(channel, "settings", season="off")
    assert "ratings, this server" in said(await alice.slash(channel, "leaderboard", game="jeju"))
