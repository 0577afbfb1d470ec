"""Racing clicks: many submissions for the same table and step land at once.

Every step of whole games of every game is attacked with a burst of concurrent
submissions: each awaited player double- and triple-clicks the same choice,
also clicks a different one, every awaited player's choice lands at the same
moment, and a "timeout" (`TableService.submit_action` / `play_bot` for an
awaited seat at the version it read) fires among them. Each seat gets at most
one move applied per burst, at least one move is applied, every other
submission is refused with a clear `TableError`, and the log stays gapless and
replays to the snapshot. The same double-click is also made through SimCord.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace

import pytest

import engine
from hosting.errors import TableError
from hosting.records import ACTIVE
from hosting.service import Move, TableService
from hosting.store import Store
from tests.discord.test_play import seat_and_start
from tests.discord.test_reliability_hostile import button, select, send_raw
from tests.play_helpers import controls, latest_board

HUMANS = 3


@pytest.fixture
async def service(db_path):
    store = await Store.open(db_path)
    yield TableService(store, new_seed=lambda: 4242)
    await store.close()


async def start(service: TableService, game_key: str) -> int:
    table = await service.create_table(
        game_key=game_key, guild_id=1, channel_id=1, host_id=100, host_name="host"
    )
    for n in range(1, HUMANS):
        await service.join(table.id, 100 + n, f"p{n}")
    await service.start(table.id, 100)
    return table.id


async def burst(service: TableService, table_id: int, rng: random.Random) -> list[tuple[int, object]]:
    """Fire every racing submission for the current step at once; return (seat, outcome) pairs."""
    table = await service.get(table_id)
    game = engine.get(table.game)
    state = service.state_of(table)
    awaited = sorted(game.to_act(state))
    calls: list[tuple[int, object]] = []
    for seat in awaited:
        panel = service.panel(table, seat)
        user = table.seats[seat].user_id
        index = rng.randrange(len(panel.choices))
        other = rng.randrange(len(panel.choices))
        for chosen in (index, index, index, other):  # a double (triple) click, then another choice
            calls.append((seat, service.submit(table_id, user, panel.token, chosen)))
    timed_out = rng.choice(awaited)
    action = rng.choice(game.legal_actions(state, timed_out))
    calls.append((timed_out, service.submit_action(table_id, timed_out, action, table.version)))
    rng.shuffle(calls)
    outcomes = await asyncio.gather(*(call for _, call in calls), return_exceptions=True)
    return [(seat, outcome) for (seat, _), outcome in zip(calls, outcomes, strict=True)]


async def check_log(service: TableService, table_id: int) -> int:
    table = await service.get(table_id)
    log = await service.store.actions(table_id)
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    assert table.moves == len(log)
    game = engine.get(table.game)
    assert game.dump_state(await service.replay(table_id)) == table.state
    return len(log)


@pytest.mark.parametrize("game_key", ["haenyeo", "jeju", "reef"])
async def test_racing_submissions_apply_each_move_once(service, game_key, pytestconfig):
    rng = random.Random(game_key)
    table_id = await start(service, game_key)
    bursts = 0 if pytestconfig.getoption("--slow") else 60  # quick: the first 60 steps; thorough: all
    refusals: set[str] = set()
    while (await service.get(table_id)).status == ACTIVE:
        before = len(await service.store.actions(table_id))
        results = await burst(service, table_id, rng)
        applied = [(seat, r) for seat, r in results if isinstance(r, Move)]
        refused = [r for _, r in results if not isinstance(r, Move)]
        for error in refused:
            assert isinstance(error, TableError), repr(error)  # no unexpected exception
            assert str(error).strip(), "a refusal must say why"
            refusals.add(str(error))
        seats = [seat for seat, _ in applied]
        assert applied, "one submission of the burst must win"
        assert len(seats) == len(set(seats)), f"a seat moved twice in one step: {seats}"
        assert await check_log(service, table_id) == before + len(applied)
        log = (await service.store.actions(table_id))[before:]
        assert sorted(e.seat for e in log) == sorted(seats)
        bursts -= 1
        if bursts == 0:
            break
    assert refusals, "the races produced no refusal at all"
    assert all(
        "out of date" in text or "not your move" in text or "table has moved on" in text for text in refusals
    ), refusals


async def test_timeout_racing_a_bot_and_the_player(service):
    """The deadline's bot move (`play_bot`) and the player's own click race: exactly one applies."""
    table_id = await start(service, "reef")
    for _ in range(30):
        table = await service.get(table_id)
        if table.status != ACTIVE:
            break
        game = engine.get(table.game)
        seat = min(game.to_act(service.state_of(table)))
        panel = service.panel(table, seat)
        user = table.seats[seat].user_id
        # The timeout hands the seat to a bot at this moment (as a deadline would).
        seats = [replace(s, kind="bot", policy="random") if s.seat == seat else s for s in table.seats]
        table = await service.store.update_table(table_id, table.version, seats=seats, now=0.0)
        outcomes = await asyncio.gather(
            service.submit(table_id, user, panel.token, 0), service.play_bot(table_id), return_exceptions=True
        )
        moved = [o for o in outcomes if isinstance(o, Move) and o.seat == seat]
        assert len(moved) <= 1 and any(isinstance(o, Move) for o in outcomes), outcomes
        assert all(isinstance(o, (Move, TableError)) or o is None for o in outcomes), outcomes
        seats = [replace(s, kind="human", policy=None) if s.seat == seat else s for s in table.seats]
        table = await service.get(table_id)
        await service.store.update_table(table_id, table.version, seats=seats, now=0.0)
        await check_log(service, table_id)


async def test_double_click_through_discord(simcord_env):
    """The same player clicks the same panel button twice at once: one move, one clear refusal."""
    guild = simcord_env.create_guild("Racing")
    channel = guild.create_text_channel("games")
    alice, bob = (guild.add_member(simcord_env.create_user(n)) for n in ("alice", "bob"))
    thread = await seat_and_start(channel, alice, [bob], 0, "reef")
    board = latest_board(thread)
    opened = await alice.click(board, label="My sheet")
    panel = opened.followups[0] if opened.followups else opened.response
    buttons, selects = controls(panel)
    if buttons:
        data = button(buttons[0]["custom_id"])
    else:
        data = select(selects[0]["custom_id"], [selects[0]["options"][0]["value"]])
    table = await simcord_env.bot.tables.store.table_in_channel(thread.id)
    before = table.moves
    results = await send_raw(alice, panel, [data] * 3)  # three clicks land at once
    assert all(r.acknowledged for r in results)
    table = await simcord_env.bot.tables.store.get_table(table.id)
    assert table.moves == before + 1
    refusals = [f for r in results for f in r.followups if "choose below" not in f.content]
    assert len(refusals) == 2 and all(f.ephemeral for f in refusals), [f.content for f in refusals]
    assert all("not your move" in f.content or "out of date" in f.content for f in refusals)
