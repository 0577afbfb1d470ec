"""SIGTERM finishes what it started (issue #36, item 2): a shutdown in the middle of a bot's move.

`GameBot.close` (what the SIGTERM and Ctrl-C handlers call) lets moves, bot
chains and posts under way finish within `Config.shutdown_grace`, refuses
people's moves meanwhile ("not taken"), records what a table still owes when
the grace runs out, then closes the database. After a restart nothing
acknowledged is missing and nothing is doubled.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time

import pytest

from hosting.errors import TableError
from offline import Background
from tests.discord.test_bot_levels import (
    boards,
    live_board,
    lobby_for,
    make_bot,
    settings,
    table_id,
    take,
    world,
)

__all__ = ["make_bot", "settings", "world"]  # the fixtures of tests.discord.test_bot_levels, used here


async def mid_thought(simcord_env, alice, channel):
    """Alice and an Expert that thinks 2 s; Alice moves; the bot's chain runs on outside the click."""
    lobby, thread = await lobby_for(channel, alice, think="2", pile="normal", bots=1)
    await alice.click(lobby, label="Start")
    work = Background()
    runner = asyncio.ensure_future(work.run())
    work.install(simcord_env.bot.runner)
    await take(alice, thread, random.Random(2))
    return lobby, thread, work, runner


def logged_seats(actions) -> list[int]:
    return [entry.seat for entry in actions]


@pytest.mark.simcord(settle_timeout=30.0)
@pytest.mark.parametrize("settings", [{"bot_deadline": 30.0, "shutdown_grace": 10.0}])
async def test_sigterm_mid_chain_lets_the_bots_move_finish_and_its_board_go_out(world, simcord_env, make_bot):
    channel, alice, _ = world
    lobby, thread, work, runner = await mid_thought(simcord_env, alice, channel)
    old = simcord_env.bot
    table = table_id(lobby)
    before = await old.tables.get(table)
    assert work.alive, "the bot's move is under way"
    await old.close()  # what SIGTERM does: the 10 s grace covers the expert's 2 s
    runner.cancel()
    # The bot is closed and its table work stopped; the database it was handed stays open for its
    # owner, who closes it after the bot (`bot.run`; here the test's `make_bot`, which the next bot shares).
    assert old.is_closed() and old.tables.closing
    await simcord_env.restart_bot(make_bot())
    now = await simcord_env.bot.tables.get(table)
    assert now.moves > before.moves  # the bot's move was made before the process ended
    assert now.owed_posts == 0  # and its board went out: nothing owed
    assert live_board(thread).id == now.board_message_id
    actions = await simcord_env.bot.tables.store.actions(table)
    assert len(actions) == now.moves  # nothing doubled: one log entry per move
    assert [a.seq for a in actions] == list(range(1, len(actions) + 1))


@pytest.mark.simcord(settle_timeout=30.0)
@pytest.mark.parametrize("settings", [{"bot_deadline": 30.0, "shutdown_grace": 0.2}])
async def test_a_chain_cut_by_the_grace_is_owed_and_the_next_start_finishes_it_once(
    world, simcord_env, make_bot, caplog
):
    channel, alice, _ = world
    lobby, thread, work, runner = await mid_thought(simcord_env, alice, channel)
    old = simcord_env.bot
    table = table_id(lobby)
    before = await old.tables.get(table)
    posted = len(boards(thread))
    # While shutting down, a person's move is answered as not taken.
    closing = asyncio.ensure_future(old.close())
    await asyncio.sleep(0)
    with pytest.raises(TableError, match="not taken"):
        await old.tables.submit(table, alice.id, "any", 0)
    with caplog.at_level(logging.INFO, logger="seagames"):
        await closing
    assert f"tables [{table}] owe their board" in caplog.text  # the expert's 2 s outlast the grace
    runner.cancel()
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(120)  # the owed board's retry
    now = await simcord_env.bot.tables.get(table)
    assert now.moves > before.moves  # the resumed decision was played, once
    actions = await simcord_env.bot.tables.store.actions(table)
    assert len(actions) == now.moves
    seats = logged_seats(actions)
    assert seats.count(0) == logged_seats(actions[: before.moves]).count(0)  # Alice's moves: as before
    assert len(boards(thread)) > posted and now.owed_posts == 0


@pytest.mark.parametrize("settings", [{"shutdown_grace": 10.0}])
async def test_a_persons_move_under_way_when_sigterm_comes_is_committed_before_the_store_closes(
    world, simcord_env, make_bot
):
    channel, alice, bob = world
    lobby, thread = await lobby_for(channel, alice, think="0", pile="normal", bots=0)
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    old = simcord_env.bot
    table = await old.tables.get(table_id(lobby))
    mover = next(s for s in table.seats if old.tables.panel(table, s.seat).choices)
    token = old.tables.panel(table, mover.seat).token

    async def busy_table() -> None:  # another write holds the table a moment (real time)
        async with old.tables.lock(table.id):
            await asyncio.to_thread(time.sleep, 0.3)

    holding = asyncio.ensure_future(busy_table())
    await asyncio.sleep(0)
    # The click was acknowledged (deferred) and its move waits its turn at the table ...
    moving = asyncio.ensure_future(old.tables.submit(table.id, mover.user_id, token, 0))
    await asyncio.sleep(0)
    await old.close()  # ... when SIGTERM comes: the shutdown lets it commit, then closes the store
    await holding
    move = await moving
    await simcord_env.restart_bot(make_bot())
    actions = await simcord_env.bot.tables.store.actions(table.id)
    assert len(actions) == move.table.moves == table.moves + 1  # the acknowledged move is there, once
