"""Memory stays bounded over many tables (issue #21): caches, locks and discord.py's view store.

40 tables (200 with ``--slow``) of the tiny test game go through SimCord — most started and left to a
bot, some played by their host to the end, some ended, some left waiting — while
the service's state cache and its lock dictionary, the play cog's posting locks
and ping lists, and discord.py's view store are checked against their bounds.
Then the bot restarts, and old boards' buttons still work. The bots' own memos
(Reef & Ruins planners, Jeju Island payments) have a size, and a bot process that
keeps playing holds no more once they are full.
"""

from __future__ import annotations

import asyncio
import gc
import random
import tracemalloc

import pytest

import engine
import renderers
from engine.jeju import rules as jeju_rules
from engine.reef.ai import POLICIES as REEF_POLICIES
from engine.reef.ai import expert as reef_expert
from engine.reef.ai import greedy as reef_greedy
from engine.reef.ai import values as reef_values
from hosting.service import CLOSED_STATE_TABLES, TableService, keyed_lock
from tests.discord.test_play import seat_and_start
from tests.play_helpers import messages, play_panel, said

#: Tables played: the quick setting, and the thorough one (``pytest --slow``) the issue asks for.
TABLES, THOROUGH_TABLES = 40, 200  # 40: more than the open and the closed state caches hold together
STATE_CACHE = 16


# A 1x1 PNG: the test game has no results picture of its own.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


@pytest.fixture(autouse=True)
def results_picture(monkeypatch):
    """The test game's results go out with a stand-in picture (the real games draw their own)."""
    real = renderers.render_results_async

    async def picture(game_key, view, names=None, lang="en"):
        if game_key == "takeaway":
            return renderers.Picture(png=PNG, alt="results", filename="results.png")
        return await real(game_key, view, names, lang)

    monkeypatch.setattr(renderers, "render_results_async", picture)


def latest_board(thread):
    """The newest board message (the test game's panel button is "My panel")."""
    for message in reversed(messages(thread)):
        ids = [getattr(c, "custom_id", "") or "" for row in message.components for c in row.children]
        if any(i.startswith("board:hand:") for i in ids):
            return message
    return None


async def status(bot, thread) -> str:
    """The status of the table playing in the thread (named "… #<table id>")."""
    return (await bot.tables.get(int(thread.name.rsplit("#", 1)[1]))).status


def view_store_size(bot) -> tuple[int, int, int]:
    """(views by message, message-synced views, modals) in discord.py's view store.

    What this file bounds is discord.py's own memory, and discord.py tells its size through no
    public name (`Client.persistent_views` counts only persistent views), so the store is read
    here. discord.py is pinned below 3 (pyproject.toml) and tests/app/test_library_privates.py fails
    by name if a release moves these, so the bound is never checked against nothing."""
    store = bot._connection._view_store
    return len(store._views), len(store._synced_message_views), len(store._modals)


def check_bounds(bot) -> None:
    """Nothing is held for a table nobody is working on; the state cache keeps its size."""
    service: TableService = bot.tables
    play = bot.runner
    assert len(service._states) <= STATE_CACHE
    assert len(service._closed_states) <= CLOSED_STATE_TABLES
    assert service._locks == {}, "a lock is held or kept with nobody waiting"
    assert play._posting == {}, "a posting lock is kept with nobody posting"
    # Nor for a panel: discord.py would keep an ephemeral message's view 15 minutes, with a timeout
    # task, but the bot's views are sent finished (`cogs.common.dynamic_view`).
    timing_out = [t for t in asyncio.all_tasks() if "timeout_task" in t.get_coro().__qualname__]
    assert not timing_out, "a view's timeout task is kept for a message"


async def leave_game(member, thread) -> None:
    asked = await member.click(latest_board(thread), label="Leave")
    await member.click(asked.response, label="Yes, leave")


@pytest.mark.simcord(settle_timeout=60.0)  # a shared, loaded machine can take more than 5 s to settle
async def test_many_tables_stay_within_bounds_and_survive_a_restart(simcord_env, make_bot, request):
    guild = simcord_env.create_guild("Busy")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(simcord_env.create_user(f"p{i}")) for i in range(40)]
    bot = simcord_env.bot
    bot.tables.state_cache_tables = STATE_CACHE
    rng = random.Random(3)
    waiting = []  # (thread, host, guest): tables left running for after the restart
    sizes = None
    tables = THOROUGH_TABLES if request.config.getoption("--slow") else TABLES
    for n in range(tables):
        host, guest = people[n % 40], people[(n + 1) % 40]
        if n % 20 == 0:  # a host and a guest, left running
            thread = await seat_and_start(channel, host, [guest], 0, "takeaway")
            waiting.append((thread, host, guest))
        elif n % 10 == 5:  # played by its host to the end, against a bot
            thread = await seat_and_start(channel, host, [], 1, "takeaway")
            while await status(bot, thread) == "active":
                board = latest_board(thread)
                opened = await host.click(board, label="My panel")
                await play_panel(host, opened.followups[0] if opened.followups else opened.response, rng)
        elif n % 10 == 7:  # ended by its host
            thread = await seat_and_start(channel, host, [], 1, "takeaway")
            assert "is ended" in said(await host.slash(thread, "game end"))
        else:  # the host leaves at once: the bots play it to the end
            thread = await seat_and_start(channel, host, [], 1, "takeaway")
            await leave_game(host, thread)
            assert await status(bot, thread) == "finished"
        check_bounds(bot)
        if n % 10 == 9:
            # Time goes by: private answers' 15-minute views expire, as they do on Discord.
            await simcord_env.advance_time(16 * 60)
        if n == 20:
            sizes = view_store_size(bot)
    # Every component is a DynamicItem: sending boards and panels stores no view per message.
    assert view_store_size(bot) == sizes
    assert sizes[:2] == (0, 0)
    # Only running tables keep a ping list, and only while they run.
    assert set(bot.runner._pinged) <= {1 + n for n in range(0, tables, 20)}

    await simcord_env.restart_bot(make_bot())
    bot = simcord_env.bot
    for thread, host, guest in waiting[:3]:
        board = latest_board(thread)
        opened = await host.click(board, label="My panel")  # the board from before the restart
        assert opened.ephemeral and (opened.followups or opened.response)
        panel = opened.followups[0] if opened.followups else opened.response
        await play_panel(host, panel, rng)
        assert latest_board(thread).id != board.id  # the move posted a new board
        assert f"Waiting for {guest.mention}" in latest_board(thread).content
        check_bounds(bot)


async def test_a_table_lock_is_shared_by_its_waiters_and_dropped_by_the_last():
    locks: dict = {}
    order: list[str] = []
    first_in = asyncio.Event()
    release = asyncio.Event()

    async def hold(name: str, wait_for: asyncio.Event | None = None) -> None:
        async with keyed_lock(locks, 7):
            order.append(f"{name} in")
            if name == "a":
                first_in.set()
                await release.wait()
            order.append(f"{name} out")

    a = asyncio.create_task(hold("a"))
    await first_in.wait()
    b = asyncio.create_task(hold("b"))
    c = asyncio.create_task(hold("c"))
    await asyncio.sleep(0)
    assert list(locks) == [7] and locks[7].users == 3  # one lock, held once, waited for twice
    release.set()
    await asyncio.gather(a, b, c)
    assert order == ["a in", "a out", "b in", "b out", "c in", "c out"]  # one at a time
    assert locks == {}


async def test_a_cancelled_waiter_leaves_no_lock_behind():
    locks: dict = {}
    async with keyed_lock(locks, 1):
        waiter = asyncio.create_task(keyed_lock(locks, 1).__aenter__())
        await asyncio.sleep(0)
        assert locks[1].users == 2
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)
        assert locks[1].users == 1
    assert locks == {}


def test_the_state_cache_keeps_the_most_recently_used_tables():
    from engine import get
    from hosting.records import Seat, TableRecord

    service = TableService(store=None, state_cache_tables=3)  # type: ignore[arg-type]
    game = get("takeaway")

    def table(table_id: int) -> TableRecord:
        state = game.dump_state(game.new(2, table_id, {}))
        seats = tuple(Seat(seat=i, name=f"s{i}", kind="human", user_id=i + 1) for i in range(2))
        return TableRecord(
            id=table_id, game="takeaway", guild_id=1, channel_id=1, thread_id=None, host_id=1,
            status="active", options={}, seed=table_id, version=1, moves=0, state=state, result=None,
            lobby_message_id=None, board_message_id=None, created_at=0.0, updated_at=0.0, seats=seats,
        )  # fmt: skip

    tables = {i: table(i) for i in range(1, 6)}
    for i in (1, 2, 3):
        service.state_of(tables[i])
    service.state_of(tables[1])  # used again: 2 is now the oldest
    service.state_of(tables[4])
    assert list(service._states) == [3, 1, 4]
    assert service.state_of(tables[1]) is service.state_of(tables[1])  # a hit returns the same state


def test_a_closed_table_leaves_the_open_tables_state_cache():
    """A finished, cancelled or abandoned table is kept only among the last few closed ones."""
    from dataclasses import replace

    from engine import get
    from hosting.records import Seat, TableRecord

    service = TableService(store=None, state_cache_tables=3)  # type: ignore[arg-type]
    game = get("takeaway")
    seats = tuple(Seat(seat=i, name=f"s{i}", kind="human", user_id=i + 1) for i in range(2))
    table = TableRecord(
        id=1, game="takeaway", guild_id=1, channel_id=1, thread_id=None, host_id=1, status="active",
        options={}, seed=1, version=1, moves=0, state=game.dump_state(game.new(2, 1, {})), result=None,
        lobby_message_id=None, board_message_id=None, created_at=0.0, updated_at=0.0, seats=seats,
    )  # fmt: skip
    service.state_of(table)
    assert list(service._states) == [1]
    finished = replace(table, status="finished", version=2)
    state = service.state_of(finished)
    assert list(service._states) == [] and list(service._closed_states) == [1]
    assert service.state_of(finished) is state  # the results read it again: a hit
    for n in range(2, CLOSED_STATE_TABLES + 3):
        service.state_of(replace(finished, id=n))
    assert len(service._closed_states) == CLOSED_STATE_TABLES and 1 not in service._closed_states


#: The bots' memos: every one a bounded LRU (a bot process plays for months).
BOT_MEMOS = (*reef_greedy.MEMOS, reef_expert.plan_dice, reef_expert.plan_boon, jeju_rules.payments)
#: The most entries any of them may keep.
MOST_ENTRIES = 8192
#: What three more games may add once the ruin parts are full: the round plans and reef hopes
#: are still filling towards their sizes (~0.6 MB measured); an unbounded ruin-part memo alone
#: would add ~1.2 MB more (5,500 entries of ~210 bytes).
FLAT_BYTES = 1024 * 1024


def play_reef(seeds: range) -> None:
    """Whole one-seat Reef & Ruins games of greedy, both reefs, as a bot worker plays them."""
    game = engine.get("reef")
    greedy = REEF_POLICIES["greedy"]
    for seed in seeds:
        state = game.new(1, seed, {"reef": ("bewitching-barrier", "arcane-atoll")[seed % 2]})
        rng = random.Random(seed)
        while to_act := game.to_act(state):
            seat = min(to_act)
            state, _ = game.apply(state, seat, greedy(game, state, seat, rng))


def test_the_bots_memos_have_a_size():
    for memo in BOT_MEMOS:
        size = memo.cache_info().maxsize
        assert size is not None and size <= MOST_ENTRIES, f"{memo.__qualname__} keeps {size} entries"


def test_a_reef_bot_that_keeps_playing_holds_no_more_once_its_memos_are_full(request):
    """The memos fill, then stay full: more games add (almost) nothing to the memory held.

    Thorough setting only (``--slow``): filling every memo under tracemalloc takes ~20 s of CPU."""
    if not request.config.getoption("--slow"):
        pytest.skip("fills the bots' memos under tracemalloc: run with --slow")
    reef_expert.forget()
    later = 3
    tracemalloc.start()  # from the start, so entries the memos forget count as freed
    try:
        seed = 0
        while reef_values.ruin_part.cache_info().currsize < reef_values.RUIN_PARTS_KEPT and seed < 12:
            play_reef(range(seed, seed + 1))
            seed += 1
        assert reef_values.ruin_part.cache_info().currsize == reef_values.RUIN_PARTS_KEPT
        gc.collect()
        full = tracemalloc.get_traced_memory()[0]
        play_reef(range(seed, seed + later))
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - full
    finally:
        tracemalloc.stop()
        reef_expert.forget()
    for memo in reef_greedy.MEMOS:
        info = memo.cache_info()
        assert info.currsize <= info.maxsize
    assert grown < FLAT_BYTES, f"{later} more games kept {grown / 1024:.0f} KiB"
