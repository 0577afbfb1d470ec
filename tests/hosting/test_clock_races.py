"""A deadline firing while the player submits: exactly one of the two moves the seat.

The service's clock is a number the test sets, so the deadline has passed at the
moment both land; `asyncio.gather` lets them race on the event loop in both orders.
"""

from __future__ import annotations

import asyncio

import pytest

import engine
from hosting.errors import TableError
from hosting.service import TableService, Timeout
from hosting.store import Store
from hosting.timing import PACES, TIMEOUTS_BEFORE_HANDOVER


@pytest.fixture
async def timed(db_path):
    store = await Store.open(db_path)
    now = [1_000_000.0]
    service = TableService(store, clock=lambda: now[0], new_seed=lambda: 99)
    yield service, now
    await store.close()


@pytest.mark.parametrize("game_key", ["jeju", "haenyeo", "reef"])
@pytest.mark.parametrize("player_first", [True, False])
async def test_a_timeout_and_the_players_own_choice_never_both_apply(timed, game_key, player_first):
    service, now = timed
    pace = PACES["1 hour"]
    table = await service.create_table(
        game_key=game_key, guild_id=1, channel_id=1, host_id=1, host_name="a", pace=pace
    )
    await service.join(table.id, 2, "b")
    table = await service.start(table.id, 1)
    game = engine.get(game_key)
    # Steps in a row, each with the race (stopping before missed deadlines hand a seat to a bot).
    for _ in range(TIMEOUTS_BEFORE_HANDOVER - 1):
        table = await service.get(table.id)
        seat = min(game.to_act(service.state_of(table)))
        user = table.seats[seat].user_id
        panel = service.panel(table, seat)
        now[0] = table.deadline + 1
        before = len(await service.store.actions(table.id))
        submit = service.submit(table.id, user, panel.token, 0)
        tick = service.tick(table.id)
        first, second = (submit, tick) if player_first else (tick, submit)
        outcomes = await asyncio.gather(first, second, return_exceptions=True)
        submitted, ticked = outcomes if player_first else outcomes[::-1]
        # Whichever lands first wins; the other is answered, not applied on top.
        log = await service.store.actions(table.id)
        if player_first:
            assert not isinstance(submitted, BaseException), submitted
            chosen = game.dump_action(game.legal_actions(service.state_of(table), seat)[0])
            assert (log[before].seat, log[before].action) == (seat, chosen)
            if game_key == "jeju":  # the turn passed: nothing is overdue any more
                assert ticked is None
        else:
            assert isinstance(ticked, Timeout) and seat in ticked.timed_out
            assert isinstance(submitted, TableError)  # the panel is out of date now
        assert [a.seq for a in log] == list(range(1, len(log) + 1))  # gapless
        assert len(log) > before
        table = await service.get(table.id)
        assert game.dump_state(await service.replay(table.id)) == table.state
        assert table.deadline is None or table.deadline > now[0]  # the new step has a fresh clock
