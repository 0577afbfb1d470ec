"""The store and the hosting service: migrations, versions, the log and its replay.

Every test here runs twice: on SQLite (`hosting.store.Store`) and on a real
PostgreSQL server (`hosting.pg_store.PostgresStore`, see `simtools/pg_server.py`).
The PostgreSQL half skips, saying why, only where no server can be started.
"""

from __future__ import annotations

import asyncio
import inspect
import sqlite3
from pathlib import Path

import pytest

import engine
from hosting import pg_store
from hosting.errors import SchemaTooNew, StaleVersion, TableError, TableNotFound
from hosting.migrations import MIGRATIONS, SCHEMA_VERSION
from hosting.pg_store import PostgresStore
from hosting.records import Seat
from hosting.service import TableService
from hosting.store import Store
from simtools import pg_server


class Backend:
    """One kind of database for a test: how to open it and how to poke at it raw."""

    name = ""

    async def open(self) -> Store | PostgresStore:
        raise NotImplementedError

    async def set_schema_version(self, version: int) -> None:
        raise NotImplementedError

    async def table_names(self) -> set[str]:
        raise NotImplementedError


class SQLiteBackend(Backend):
    name = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path

    async def open(self) -> Store:
        return await Store.open(self.path)

    async def set_schema_version(self, version: int) -> None:
        with sqlite3.connect(self.path) as raw:
            raw.execute(f"PRAGMA user_version = {version}")

    async def table_names(self) -> set[str]:
        with sqlite3.connect(self.path) as raw:
            assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            return {row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


class PostgresBackend(Backend):
    name = "postgres"

    def __init__(self, url: str) -> None:
        self.url = url

    async def open(self) -> PostgresStore:
        return await PostgresStore.open(self.url, max_size=4)

    async def set_schema_version(self, version: int) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(f"CREATE TABLE IF NOT EXISTS {pg_store.VERSION_TABLE} (version INTEGER)")
            await conn.execute(f"DELETE FROM {pg_store.VERSION_TABLE}")
            await conn.execute(f"INSERT INTO {pg_store.VERSION_TABLE} VALUES ($1)", version)
        finally:
            await conn.close()

    async def table_names(self) -> set[str]:
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            rows = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        finally:
            await conn.close()
        return {row[0] for row in rows}


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request, db_path):
    """An empty database of each kind; the PostgreSQL one is created and dropped per test."""
    if request.param == "sqlite":
        yield SQLiteBackend(db_path)
        return
    async with pg_server.scratch_database() as url:
        yield PostgresBackend(url)


@pytest.fixture
async def store(backend):
    opened = await backend.open()
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


def test_both_stores_have_the_same_interface():
    """Every public method of the SQLite store exists on the PostgreSQL one with the same parameters."""

    def public(cls: type) -> dict[str, inspect.Signature]:
        return {
            name: inspect.signature(getattr(cls, name))
            for name, member in vars(cls).items()
            if not name.startswith("_") and callable(getattr(cls, name))
        }

    sqlite_api, postgres_api = public(Store), public(PostgresStore)
    missing = sorted(set(sqlite_api) - set(postgres_api))
    assert not missing, f"PostgresStore lacks {missing}: add them to hosting/pg_store.py"
    for name, signature in sqlite_api.items():
        if name == "open":  # a file path on SQLite, a URL (and pool size) on PostgreSQL
            continue
        assert list(postgres_api[name].parameters) == list(signature.parameters), name
    twinless = [m.version for m in MIGRATIONS if not (m.sqlite and m.postgres)]
    assert not twinless, f"schema versions {twinless} lack a SQLite or PostgreSQL text: hosting/migrations.py"


async def test_migrations_build_an_empty_database(backend):
    store = await backend.open()
    assert await store.schema_version() == SCHEMA_VERSION
    assert await store.integrity_check() == "ok"
    await store.close()
    assert {"game_tables", "seats", "actions", "players"} <= await backend.table_names()


async def test_reopening_keeps_tables(backend):
    store = await backend.open()
    table = await TableService(store).create_table(
        game_key="takeaway", guild_id=1, channel_id=2, host_id=7, host_name="Ann"
    )
    await store.close()
    store = await backend.open()
    again = await store.get_table(table.id)
    assert again.seats[0].name == "Ann" and again.status == "lobby"
    assert await store.schema_version() == SCHEMA_VERSION
    await store.close()


async def test_a_database_from_a_newer_bot_is_refused(backend):
    await (await backend.open()).close()
    await backend.set_schema_version(SCHEMA_VERSION + 1)
    with pytest.raises(SchemaTooNew, match="Upgrade the bot"):
        await backend.open()


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
    with pytest.raises(StaleVersion):
        await store.update_table(table.id, table.version, status="cancelled", now=0.0)
    assert [entry.seq for entry in await store.actions(table.id)] == [1]


async def test_a_missing_table_is_named(store):
    with pytest.raises(TableNotFound):
        await store.get_table(999)
    with pytest.raises(TableNotFound):
        await store.update_table(999, 1, status="cancelled", now=0.0)
    with pytest.raises(TableNotFound):
        await store.append_action(999, 1, seat=0, action={}, state={}, now=0.0)


async def test_racing_writes_on_one_store_apply_once(service, store):
    """Writes at the same version at once: exactly one applies, the others are stale."""
    table = await started_table(service)
    outcomes = await asyncio.gather(
        *(
            store.append_action(table.id, table.version, seat=0, action={"n": n}, state={"n": n}, now=1.0)
            for n in range(5)
        ),
        return_exceptions=True,
    )
    # append_action returns the table as the move left it.
    assert sum(getattr(outcome, "version", None) == table.version + 1 for outcome in outcomes) == 1
    assert sum(isinstance(outcome, StaleVersion) for outcome in outcomes) == 4
    assert [entry.seq for entry in await store.actions(table.id)] == [1]
    assert (await store.get_table(table.id)).moves == 1


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
    log = await store.actions(table.id)
    assert [e.seq for e in log] == list(range(1, table.moves + 1))
    assert sum(seat.moves for seat in table.seats) == table.moves
    # Only what came after a move already read, as a reading asks for it (hosting.readings).
    assert await store.actions(table.id, after=2) == log[2:]
    assert await store.actions(table.id, after=table.moves) == []


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


async def test_lookups_by_user_channel_and_status(store):
    big = 1_234_567_890_123_456_789  # Discord ids are 64-bit
    host = Seat(seat=0, name="Ann", kind="human", user_id=big)
    first = await store.create_table(
        game="takeaway", guild_id=big, channel_id=big + 1, host=host, options={"pile": "short"}, now=5.0
    )
    second = await store.create_table(
        game="takeaway", guild_id=7, channel_id=big + 1, host=host, options={}, now=6.0
    )
    assert first.guild_id == big and first.seats[0].user_id == big and first.options == {"pile": "short"}
    assert first.created_at == first.updated_at == 5.0 and first.version == 1 and first.moves == 0
    assert [t.id for t in await store.tables_of_user(big)] == [second.id, first.id]
    assert [t.id for t in await store.tables_of_user(big, guild_id=big)] == [first.id]
    assert await store.tables_of_user(big, statuses=("finished",)) == []
    assert (await store.table_in_channel(big + 1)).id == second.id
    await store.set_messages(second.id, thread_id=555, board_message_id=big + 2)
    await store.set_messages(second.id)  # nothing to set: a no-op
    moved = await store.get_table(second.id)
    assert moved.thread_id == 555 and moved.board_message_id == big + 2 and moved.version == 1
    assert (await store.table_in_channel(big + 1)).id == first.id  # the second now lives in its thread
    assert (await store.table_in_channel(555)).id == second.id
    assert await store.table_in_channel(1) is None
    guest = Seat(seat=1, name="Bo", kind="human", user_id=42)
    robot = Seat(seat=2, name="Bot Dol", kind="bot", policy="greedy")
    updated = await store.update_table(
        first.id, 1, seats=[host, guest, robot], status="active", seed=2**62, now=9.0
    )
    assert updated.version == 2 and updated.seed == 2**62 and updated.updated_at == 9.0
    assert [s.name for s in updated.seats] == ["Ann", "Bo", "Bot Dol"] and updated.seats[2].is_bot
    assert [t.id for t in await store.tables_of_user(42)] == [first.id]
    assert await store.table_ids("active") == [first.id]
    assert await store.table_ids("lobby") == [second.id]
    assert await store.table_ids("active", with_bots=True) == [first.id]  # it has Bot Dol
    assert await store.table_ids("lobby", with_bots=True) == []
    await store.set_host(first.id, 42)
    assert (await store.get_table(first.id)).host_id == 42


async def test_the_clock_columns_and_the_scheduler_queries(service, store):
    table = await started_table(service)
    other = await started_table(service)
    assert await store.next_wake() is None and await store.due_tables(10_000.0) == []
    table = await store.update_table(
        table.id, table.version, timing={"deadline": 2_000.0, "wake_at": 1_500.0}, now=1_000.0
    )
    other = await store.update_table(other.id, other.version, timing={"wake_at": 1_200.0}, now=1_000.0)
    assert table.deadline == 2_000.0 and table.wake_at == 1_500.0 and table.reminders == 0
    assert await store.next_wake() == 1_200.0
    assert await store.due_tables(1_400.0) == [other.id]
    assert await store.due_tables(1_600.0) == [other.id, table.id]
    assert await store.due_tables(1_600.0, limit=1) == [other.id]
    await store.set_wake(other.id, other.version - 1, None)  # a stale version changes nothing
    assert (await store.get_table(other.id)).wake_at == 1_200.0
    await store.set_wake(other.id, other.version, None)
    assert await store.due_tables(1_600.0) == [table.id]
    with pytest.raises(ValueError, match="not clock columns"):
        await store.update_table(table.id, table.version, timing={"status": "x"}, now=0.0)
    moved = await store.append_action(
        table.id,
        table.version,
        seat=0,
        action={"count": 1},
        state=table.state,
        timing={"deadline": None, "wake_at": None},
        reset_timeouts=True,
        now=1_100.0,
    )
    table = await store.get_table(table.id)
    assert moved == table and table.deadline is None and table.wake_at is None
    assert table.seats[0].moves == 1 and table.moves == 1


async def test_a_reminder_is_claimed_once(service, store):
    table = await started_table(service)
    assert await store.claim_reminder(table.id, table.version, sent=1, wake_at=1_800.0)
    assert not await store.claim_reminder(table.id, table.version, sent=1, wake_at=1_800.0)
    claimed = await store.get_table(table.id)
    assert claimed.reminders == 1 and claimed.wake_at == 1_800.0 and claimed.version == table.version
    assert not await store.claim_reminder(table.id, table.version - 1, sent=2, wake_at=None)  # stale
    assert await store.claim_reminder(table.id, table.version, sent=2, wake_at=None)
    assert not await store.claim_reminder(999, 1, sent=1, wake_at=None)


async def test_racing_claims_on_one_store_have_one_winner(service, store):
    table = await started_table(service)
    wins = await asyncio.gather(
        *(store.claim_reminder(table.id, table.version, sent=1, wake_at=None) for _ in range(8))
    )
    assert wins.count(True) == 1


async def test_dm_reminder_choice(store):
    assert not await store.dm_reminders(7)
    await store.set_dm_reminders(7, True)
    assert await store.dm_reminders(7) and not await store.dm_reminders(8)
    await store.set_dm_reminders(7, False)
    assert not await store.dm_reminders(7)


async def test_a_finishing_move_rates_its_players_in_the_same_write(service, store):
    """Ratings, rating changes and the boards (hosting/ratings.py), written by `append_action`."""
    from hosting import ratings
    from hosting.ratings import ScoredGame, ScoredSeat

    def finish(table, ranks, guild=1):
        seats = tuple(ScoredSeat(i, 100 + i, rank, 10 - rank) for i, rank in enumerate(ranks))
        return ScoredGame(table.id, "takeaway", guild, seats)

    table = await started_table(service, humans=3)
    scored = finish(table, (2, 1, 3))
    with pytest.raises(StaleVersion):  # a refused write rates nobody
        await store.append_action(
            table.id, table.version - 1, seat=0, action={}, state={}, now=5.0, result={}, scored=scored
        )
    assert await store.ratings_of(100) == [] and await store.rating_changes(table.id) == []
    await store.append_action(
        table.id, table.version, seat=0, action={}, state={}, now=5.0, result={}, scored=scored
    )
    expected = ratings.update(scored, {})
    changes = await store.rating_changes(table.id)
    assert changes == expected and [c.seat for c in changes] == [0, 1, 2]
    assert changes[1].delta > changes[0].delta > changes[2].delta  # first, second, third
    assert await store.ratings_of(101) == [expected[1].after]

    # A second game, in another server: the rating moves on from the first.
    second = await started_table(service, humans=2)
    again = finish(second, (1, 2), guild=2)
    await store.append_action(
        second.id, second.version, seat=0, action={}, state={}, now=6.0, result={}, scored=again
    )
    current = {c.user_id: c.after for c in expected}
    (alice, bob) = ratings.update(again, current)
    assert (await store.ratings_of(100))[0] == alice.after and alice.after.games == 2
    assert (await store.ratings_of(101))[0] == bob.after

    board = ratings.ordered([alice.after, bob.after, expected[2].after])
    total, page = await store.leaderboard("takeaway")
    assert total == 3 and [s.user_id for s in page] == [r.user_id for r in board]
    assert [s.rank for s in page] == [1, 2, 3]
    total, page = await store.leaderboard("takeaway", offset=1, limit=1)
    assert total == 3 and [(s.rank, s.user_id) for s in page] == [(2, board[1].user_id)]
    assert (await store.standing("takeaway", board[2].user_id)).rank == 3
    assert (await store.leaderboard("takeaway", min_games=2))[0] == 2  # two played twice
    # Server 2 saw only the second game; server 1 saw all three players once.
    assert {s.user_id for s in (await store.leaderboard("takeaway", guild_id=2))[1]} == {100, 101}
    assert (await store.leaderboard("takeaway", guild_id=1, min_games=2))[0] == 0
    assert await store.standing("takeaway", 102, guild_id=2) is None
    assert await store.standing("takeaway", 999) is None

    # Solo games go on the solo board, best score per player.
    for user, score in ((100, 120), (100, 150), (101, 130)):
        solo = await started_table(service)  # the store records what it is given
        await store.append_action(
            solo.id,
            solo.version,
            seat=0,
            action={},
            state={},
            now=7.0,
            result={},
            scored=ScoredGame(solo.id, "takeaway", 1, (ScoredSeat(0, user, 1, score),)),
        )
        if score == 150:
            best_table = solo.id
    total, page = await store.solo_board("takeaway")
    assert total == 2 and [(s.rank, s.user_id, s.best) for s in page] == [(1, 100, 150), (2, 101, 130)]
    assert page[0].table_id == best_table
    assert (await store.solo_standing("takeaway", 101, guild_id=1)).rank == 2
    assert await store.solo_standing("takeaway", 101, guild_id=2) is None
    assert (await store.ratings_of(100))[0].games == 2  # solo games move no rating
