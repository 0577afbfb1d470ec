"""The daily Reef (issue #38 item 3): everyone plays the same seeded solo game of Reef & Ruins a UTC day.

Played through SimCord as people would: `/daily play` opens a private thread per player, the
players get the same dice, nobody sees another's sheet, the second attempt is refused, the day's
boards order the finished scores (this server and everyone), streaks count days in a row, the
day rolls over at midnight UTC under `advance_time` (then the day's best sheet is shown), a
restart mid-game resumes it, and the store decides the once-a-day claim on PostgreSQL too.
"""

from __future__ import annotations

import asyncio
import random
import re

import pytest
from simcord.backend.errors import SetupError

from hosting import daily
from hosting.daily import DailyReef
from hosting.records import Seat
from hosting.service import TableService
from simtools.ui import panel_button
from tests.hosting.test_store import backend, store  # noqa: F401 (the store fixtures, both backends)
from tests.play_helpers import controls, latest_board, messages, results_message, said, take_turns

LINK = re.compile(r"https://discord\.com/channels/\d+/(\d+)")


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild("Reef Friends")
    channel = guild.create_text_channel("games")
    carol, dan = (guild.add_member(simcord_env.create_user(n)) for n in ("carol", "dan"))
    other = simcord_env.create_guild("Far Reef")
    far = other.create_text_channel("puzzles")
    erin = other.add_member(simcord_env.create_user("erin"))
    return channel, carol, dan, far, erin


async def play_daily(member, channel):
    """Run `/daily play`; return (what the member was told, the private thread of their game or None)."""
    told = said(await member.slash(channel, "daily play"))
    found = LINK.search(told)
    if found is None:
        return told, None
    thread = next((t for t in channel.threads if t.id == int(found.group(1))), None)
    return told, thread


def final_score(results) -> int:
    """The score on a solo game's results message ("🥇 carol: **57**")."""
    return int(re.search(r"\*\*(-?\d+)\*\*", results.embeds[0].description).group(1))


def board_text(result) -> str:
    """The day's board as the member reads it (an ephemeral answer)."""
    return said(result)


def answer(result):
    """The ephemeral message a command answered with (its follow-up, after "thinking…")."""
    return result.followups[0] if result.followups else result.response


async def until_midnight(env) -> None:
    """Move SimCord's clock just past the next midnight UTC."""
    now = env.now().timestamp()
    await env.advance_time(daily.day_end(daily.day_of(now)) - now + 5)


@pytest.mark.simcord(settle_timeout=30.0)
async def test_two_players_same_dice_private_sheets_once_a_day_and_the_boards(world, simcord_bot):
    channel, carol, dan, far, erin = world
    told, carols = await play_daily(carol, channel)
    assert "private thread" in told and carols is not None
    _, dans = await play_daily(dan, channel)
    assert dans is not None and dans.id != carols.id

    # The same seed, reef and tracker side for both: the day's, from the date alone.
    service = simcord_bot.tables
    table_c = await service.store.table_in_channel(carols.id)
    table_d = await service.store.table_in_channel(dans.id)
    assert table_c.seed == table_d.seed == daily.day_seed(daily.day_of(service.now()))
    assert table_c.options == table_d.options

    # Neither sees the other's thread (a private thread: its board, panels and sheet).
    board_c = latest_board(carols)
    assert board_c is not None and board_c.attachments
    with pytest.raises(SetupError):
        carols.history(viewer=dan)
    with pytest.raises(SetupError):
        await dan.click(board_c, custom_id=panel_button(board_c).custom_id)
    # Nor can they look it up by its number.
    peek = await dan.slash(channel, "game board", table=table_c.id)
    assert "There is no table" in said(peek)
    assert not any(f.attachments for f in peek.followups)
    # The board shows no score before anyone finished.
    empty = board_text(await dan.slash(channel, "daily board"))
    assert "Nobody has finished" in empty

    # Both make the same choices: the same dice give them the same game, to the point.
    done_c = await take_turns(carols, {carol.id: carol}, random.Random(5))
    assert done_c is not None
    # Carol is told where she landed, in her thread.
    assert any("your score of the day is on the boards" in m.content for m in messages(carols))
    # Dan still cannot see Carol's finished sheet (the day is running), not even as a replay.
    replay = await dan.slash(channel, "game replay", table=table_c.id)
    assert "There is no table" in said(replay)
    done_d = await take_turns(dans, {dan.id: dan}, random.Random(5))
    assert final_score(done_d) == final_score(done_c)

    # A second attempt the same day is refused, kindly, with the score and the way back.
    again, thread = await play_daily(carol, channel)
    assert thread is None and "You have played today's Reef" in again and "A new game opens" in again

    # Erin plays elsewhere, differently: the server's board has Carol and Dan, everyone's all three.
    _, erins = await play_daily(erin, far)
    done_e = await take_turns(erins, {erin.id: erin}, random.Random(11))
    scores = {carol.id: final_score(done_c), dan.id: final_score(done_d), erin.id: final_score(done_e)}
    here = board_text(await carol.slash(channel, "daily board"))
    assert f"<@{erin.id}>" not in here and "2 players finished" in here
    everyone = board_text(await carol.slash(channel, "daily board", scope="all"))
    assert "3 players finished" in everyone
    shown = [int(uid) for uid in re.findall(r"<@(\d+)>: \*\*", everyone)]
    # Best first; a tie goes to whoever finished first (Carol before Dan).
    expected = sorted(scores, key=lambda uid: (-scores[uid], [carol.id, dan.id, erin.id].index(uid)))
    assert shown == expected
    # Scores only today: the board's picture, and no sheet while the day runs.
    today = await carol.slash(channel, "daily board", scope="all")
    assert [a.filename for a in answer(today).attachments] == ["reef-results.png"]
    assert "best sheet" not in board_text(today)
    assert "Your streak: 1 day." in everyone

    # Midnight UTC: a new day, a new game; yesterday's board now shows its best sheet.
    await until_midnight(carol._env)
    yesterday = await dan.slash(channel, "daily board", day="yesterday", scope="all")
    text = board_text(yesterday)
    assert "(closed)" in text and "The day's best sheet" in text and f"<@{expected[0]}>" in text
    assert len(answer(yesterday).attachments) == 2  # the board's picture and the best sheet
    # Now anybody may replay the closed day's games.
    replayed = await dan.slash(channel, "game replay", table=table_c.id)
    assert not said(replayed).startswith("There is no table")

    told, carols2 = await play_daily(carol, channel)
    assert carols2 is not None and carols2.id != carols.id
    table_c2 = await service.store.table_in_channel(carols2.id)
    assert table_c2.seed != table_c.seed
    assert await take_turns(carols2, {carol.id: carol}, random.Random(2)) is not None
    streaks = board_text(await carol.slash(channel, "daily board"))
    assert "Your streak: 2 days." in streaks
    # Dan played yesterday but not yet today: his streak still stands, until today closes.
    assert "Your streak: 1 day." in board_text(await dan.slash(channel, "daily board"))


@pytest.mark.simcord(settle_timeout=30.0)
async def test_a_restart_mid_game_resumes_it(world, simcord_env, make_bot):
    channel, carol, *_ = world
    _, thread = await play_daily(carol, channel)
    members = {carol.id: carol}
    assert await take_turns(thread, members, random.Random(3), max_turns=3) is None
    await simcord_env.restart_bot(make_bot())
    # /daily play points back to the same game; its old buttons still work.
    told, again = await play_daily(carol, channel)
    assert "waiting for you" in told and again is not None and again.id == thread.id
    assert await take_turns(thread, members, random.Random(3)) is not None
    assert "You have played today's Reef" in (await play_daily(carol, channel))[0]


@pytest.mark.simcord(settle_timeout=30.0)
async def test_a_game_unfinished_at_midnight_closes_and_the_next_day_opens(world, simcord_env):
    channel, carol, *_ = world
    _, thread = await play_daily(carol, channel)
    board = latest_board(thread)
    await until_midnight(simcord_env)
    opened = await carol.click(board, custom_id=panel_button(board).custom_id)
    panel = opened.followups[0] if opened.followups else opened.response
    # The panel still shows the choices drawn before midnight; choosing one is refused.
    buttons, selects = controls(panel)
    assert buttons or selects
    if buttons:
        moved = await carol.click(panel, custom_id=buttons[0]["custom_id"])
    else:
        moved = await carol.select(
            panel, [selects[0]["options"][0]["value"]], custom_id=selects[0]["custom_id"]
        )
    assert any("closed at midnight UTC" in f.content for f in moved.followups)
    assert results_message(thread) is None
    told, today = await play_daily(carol, channel)
    assert today is not None and today.id != thread.id
    assert "Your streak: 0 days." in board_text(await carol.slash(channel, "daily board"))


async def test_the_store_lets_one_claim_a_day_in_on_both_backends(backend):  # noqa: F811
    """Two processes (two stores on one database) open a player's day at once: one table holds it."""
    first, second = await backend.open(), await backend.open()
    try:
        clock = lambda: 1_800_000_000.0  # noqa: E731
        a, b = (DailyReef(TableService(s, clock=clock)) for s in (first, second))
        opened = await asyncio.gather(
            *(
                reef.open(user_id=7, name="Gil", guild_id=1, channel_id=2, thread_id=3 + i)
                for i, reef in enumerate((a, b))
            )
        )
        assert opened[0].table.id == opened[1].table.id
        assert sorted(o.new for o in opened) == [False, True]
        again = await b.open(user_id=7, name="Gil", guild_id=1, channel_id=2, thread_id=9)
        assert again.table.id == opened[0].table.id and not again.new
        entry = await a.entry(7)
        assert entry is not None and entry.table_id == opened[0].table.id and not entry.finished
        assert opened[0].table.seed == daily.day_seed(daily.day_of(clock()))
        # A rematch of a daily table (its options copied into a new lobby) is an ordinary game.
        lobby = await a.service.create_table(
            game_key="reef",
            guild_id=1,
            channel_id=2,
            host_id=7,
            host_name="Gil",
            options=opened[0].table.options,
        )
        assert daily.daily_day(lobby) is None and lobby.options["reef"] == opened[0].table.options["reef"]
    finally:
        await first.close()
        await second.close()


async def test_two_processes_starting_a_claimed_day_start_it_once(backend):  # noqa: F811
    """A day claimed but never started (a restart came in between) is asked for by two processes
    at once: both may find it in its lobby; one starts it, the other gets it as started."""
    first, second = await backend.open(), await backend.open()
    try:
        clock = lambda: 1_800_000_000.0  # noqa: E731
        a, b = (DailyReef(TableService(s, clock=clock)) for s in (first, second))
        day = daily.day_of(clock())
        table = await first.create_table(
            game=daily.GAME,
            guild_id=1,
            channel_id=2,
            host=Seat(seat=0, name="Gil", kind="human", user_id=7),
            options={**daily.day_options(day), daily.DAILY: day},
            now=clock(),
            pace=0,
            wake_at=None,
        )
        await first.daily_claim(day, 7, table.id, guild_id=1, now=clock(), closes_at=daily.day_end(day))
        opened = await asyncio.gather(
            *(reef.open(user_id=7, name="Gil", guild_id=1, channel_id=2, thread_id=3) for reef in (a, b))
        )
        assert {o.table.id for o in opened} == {table.id}
        assert all(o.table.status == "active" and not o.new for o in opened)
        assert [o.started for o in opened].count(True) == 1  # one posts the first board
    finally:
        await first.close()
        await second.close()
