"""The store and the hosting service: migrations, versions, the log and its replay."""

from __future__ import annotations

import sqlite3

import pytest

import engine
from hosting.errors import SchemaTooNew, StaleVersion, TableError
from hosting.service import TableService
from hosting.store import SCHEMA_VERSION, Store


@pytest.fixture
async def store(db_path):
    opened = await Store.open(db_path)
    yield opened
    await opened.close()


@pytest.fixture
def service(store):
    return TableService(store, clock=lambda: 1_000.0, new_seed=lambda: 42)


async def started_table(service: TableService, game: str = "takeaway", humans: int = 2):
    table = await service.create_table(game_key=game, guild_id=1, channel_id=2, host_id=100, host_name="Ann")
    for user in range(1, humans):
        await service.join(table.id, 100 + user, f"Player {user}")
    return await service.start(table.id, 100)


async def test_migrations_build_an_empty_file(db_path):
    store = await Store.open(db_path)
    assert await store.schema_version() == SCHEMA_VERSION
    assert await store.integrity_check() == "ok"
    await store.close()
    with sqlite3.connect(db_path) as raw:
        names = {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"game_tables", "seats", "actions"} <= names
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_reopening_keeps_tables(db_path):
    store = await Store.open(db_path)
    table = await TableService(store).create_table(
        game_key="takeaway", guild_id=1, channel_id=2, host_id=7, host_name="Ann"
    )
    await store.close()
    store = await Store.open(db_path)
    again = await store.get_table(table.id)
    assert again.seats[0].name == "Ann" and again.status == "lobby"
    await store.close()


async def test_a_database_from_a_newer_bot_is_refused(db_path):
    with sqlite3.connect(db_path) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNew, match="Upgrade the bot"):
        await Store.open(db_path)


async def test_a_stale_version_write_is_refused(service, store):
    table = await started_table(service)
    game = engine.get("takeaway")
    state = service.state_of(table)
    action = game.legal_actions(state, 0)[0]
    await service.submit_action(table.id, 0, action, table.version)
    with pytest.raises(StaleVersion):
        await service.submit_action(table.id, 1, action, table.version)
    with pytest.raises(StaleVersion):
        await store.append_action(table.id, table.version, seat=1, action={"take": 1}, state={}, now=0.0)
    assert [entry.seq for entry in await store.actions(table.id)] == [1]


async def test_replaying_the_log_gives_the_snapshot(service, store):
    table = await started_table(service, humans=3)
    game = engine.get("takeaway")
    while (table := await service.get(table.id)).status == "active":
        seat = min(game.to_act(service.state_of(table)))
        panel = service.panel(table, seat)
        await service.submit(table.id, table.seats[seat].user_id, panel.token, len(panel.choices) - 1)
    assert table.status == "finished" and table.result["winners"]
    replayed = await service.replay(table.id)
    assert game.dump_state(replayed) == table.state
    assert [e.seq for e in await store.actions(table.id)] == list(range(1, table.moves + 1))


async def test_an_old_panel_cannot_pick_a_different_move(service):
    table = await started_table(service)
    panel = service.panel(table, 0)
    await service.submit(table.id, 100, panel.token, 0)
    with pytest.raises(TableError, match="not your move"):
        await service.submit(table.id, 100, panel.token, 0)
    other = service.panel(await service.get(table.id), 1)
    with pytest.raises(StaleVersion):
        await service.submit(table.id, 101, panel.token, 0)
    with pytest.raises(TableError, match="not on offer"):
        await service.submit(table.id, 101, other.token, 99)


async def test_bot_seats_play_themselves(service):
    table = await service.create_table(
        game_key="takeaway", guild_id=1, channel_id=2, host_id=1, host_name="A"
    )
    await service.add_bot(table.id, 1)
    table = await service.start(table.id, 1)
    assert await service.play_bot(table.id) is None  # the human moves first
    panel = service.panel(table, 0)
    await service.submit(table.id, 1, panel.token, 0)
    move = await service.play_bot(table.id)
    assert move is not None and move.seat == 1 and move.events


async def test_every_real_game_starts_and_replays(service):
    for game in engine.games():
        if game.key == "takeaway":
            continue
        table = await started_table(service, game.key, humans=max(game.min_seats, 2))
        assert table.status == "active"
        assert game.dump_state(await service.replay(table.id)) == table.state
