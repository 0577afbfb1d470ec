"""The store: the only code that speaks SQL.

SQLite through aiosqlite, in WAL mode. A table (one hosted game) has a row in
``game_tables``, its seats in ``seats`` and its accepted actions in the
append-only ``actions`` log. Every change to a table bumps its ``version`` in
the same transaction, and a write that names a stale version is refused, so
two racing clicks can never both apply.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from hosting import ratings
from hosting.errors import SchemaTooNew, StaleVersion, TableNotFound
from hosting.ratings import Rating, RatingChange, ScoredGame, Standing

#: Forward migrations, applied in order at start. Index + 1 is the schema version.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE game_tables (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            game TEXT NOT NULL,
            guild_id INTEGER,
            channel_id INTEGER NOT NULL,
            thread_id INTEGER,
            host_id INTEGER NOT NULL,
            status TEXT NOT NULL,
            options TEXT NOT NULL DEFAULT '{}',
            seed INTEGER,
            version INTEGER NOT NULL DEFAULT 1,
            moves INTEGER NOT NULL DEFAULT 0,
            state TEXT,
            result TEXT,
            lobby_message_id INTEGER,
            board_message_id INTEGER,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        )""",
        "CREATE INDEX game_tables_status ON game_tables (status, guild_id)",
        """CREATE TABLE seats (
            table_id INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            user_id INTEGER,
            name TEXT NOT NULL,
            kind TEXT NOT NULL,
            policy TEXT,
            moves INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (table_id, seat)
        )""",
        "CREATE INDEX seats_user ON seats (user_id)",
        """CREATE TABLE actions (
            table_id INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            action TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (table_id, seq)
        )""",
    ),
    (
        # Async play: a per-move deadline (``pace`` seconds, 0 = live), the reminders
        # already sent for the current step, a pause, and ``wake_at``: the next
        # instant the scheduler must look at the table (a reminder, a deadline, or a
        # lobby's expiry). One index over it is all the scheduler needs.
        "ALTER TABLE game_tables ADD COLUMN pace INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE game_tables ADD COLUMN deadline REAL",
        "ALTER TABLE game_tables ADD COLUMN reminders INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE game_tables ADD COLUMN paused_at REAL",
        "ALTER TABLE game_tables ADD COLUMN wake_at REAL",
        "CREATE INDEX game_tables_wake ON game_tables (wake_at) WHERE wake_at IS NOT NULL",
        "ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0",
        """CREATE TABLE players (
            user_id INTEGER PRIMARY KEY,
            dm_reminders INTEGER NOT NULL DEFAULT 0
        )""",
    ),
    (
        # Real Discord: a board or results message the table still owes (a post that
        # failed and is retried by the clock, counted for its back-off), and who held a
        # seat before its current holder (nobody who held a seat is handed another one).
        "ALTER TABLE game_tables ADD COLUMN owed_posts INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE seats ADD COLUMN former TEXT NOT NULL DEFAULT '[]'",
        "CREATE INDEX IF NOT EXISTS game_tables_thread ON game_tables (thread_id)",
        "CREATE INDEX IF NOT EXISTS game_tables_channel ON game_tables (channel_id)",
    ),
    (
        # Ratings (hosting/ratings.py): one openskill rating per player per game, every rated
        # game's change per player (with the server it was played in, for the server boards),
        # and solo scores for the solo boards. All written by the move that finishes a table.
        """CREATE TABLE ratings (
            user_id INTEGER NOT NULL,
            game TEXT NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (user_id, game)
        )""",
        "CREATE INDEX ratings_board ON ratings (game, games)",
        """CREATE TABLE rating_events (
            table_id INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
            user_id INTEGER NOT NULL,
            game TEXT NOT NULL,
            guild_id INTEGER,
            seat INTEGER NOT NULL,
            rank INTEGER NOT NULL,
            mu_before REAL NOT NULL,
            sigma_before REAL NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (table_id, user_id)
        )""",
        "CREATE INDEX rating_events_guild ON rating_events (game, guild_id, user_id)",
        """CREATE TABLE solo_scores (
            table_id INTEGER PRIMARY KEY REFERENCES game_tables (id) ON DELETE CASCADE,
            user_id INTEGER NOT NULL,
            game TEXT NOT NULL,
            guild_id INTEGER,
            score INTEGER NOT NULL,
            created_at REAL NOT NULL
        )""",
        "CREATE INDEX solo_scores_board ON solo_scores (game, guild_id, score)",
    ),
)

SCHEMA_VERSION = len(MIGRATIONS)

#: Statuses of a table's life. Lobby and active tables are "open".
LOBBY, ACTIVE, FINISHED, CANCELLED = "lobby", "active", "finished", "cancelled"
#: A table whose thread, channel or server is gone: closed without a result.
ABANDONED = "abandoned"
OPEN_STATUSES = (LOBBY, ACTIVE)


@dataclass(frozen=True)
class Seat:
    """One seat at a table: a Discord member or a bot."""

    seat: int
    name: str
    kind: str  # "human" or "bot"
    user_id: int | None = None
    policy: str | None = None
    moves: int = 0  # actions this seat has made; part of its panels' freshness token
    timeouts: int = 0  # deadlines this seat has missed in a row
    former: tuple[int, ...] = ()  # users who held this seat before its current holder

    @property
    def is_bot(self) -> bool:
        """True for a seat played by a policy."""
        return self.kind == "bot"


@dataclass(frozen=True)
class TableRecord:
    """One hosted game as stored."""

    id: int
    game: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    host_id: int
    status: str
    options: dict[str, Any]
    seed: int | None
    version: int
    moves: int
    state: dict[str, Any] | None
    result: dict[str, Any] | None
    lobby_message_id: int | None
    board_message_id: int | None
    created_at: float
    updated_at: float
    seats: tuple[Seat, ...] = field(default_factory=tuple)
    pace: int = 0  # seconds per move; 0 = live, no deadline
    deadline: float | None = None  # when the current step's time runs out
    reminders: int = 0  # reminders already sent for the current step
    paused_at: float | None = None  # set while the host has paused the table
    wake_at: float | None = None  # next instant the scheduler looks at this table
    owed_posts: int = 0  # failed attempts at a board or results message still owed (0: none)

    def held_by(self, user_id: int) -> bool:
        """True when this user holds or ever held a seat here (a bot now plays a seat they left)."""
        return any(s.user_id == user_id or user_id in s.former for s in self.seats)

    def seat_of(self, user_id: int) -> Seat | None:
        """The human seat this user holds, if any."""
        return next((s for s in self.seats if s.user_id == user_id and not s.is_bot), None)


@dataclass(frozen=True)
class LoggedAction:
    """One entry of a table's action log."""

    seq: int
    seat: int
    action: dict[str, Any]
    created_at: float


_TABLE_COLUMNS = (
    "id, game, guild_id, channel_id, thread_id, host_id, status, options, seed, version, moves, "
    "state, result, lobby_message_id, board_message_id, created_at, updated_at, "
    "pace, deadline, reminders, paused_at, wake_at, owed_posts"
)

#: Columns that `update_table` and `append_action` may set for the clock.
TIMING_COLUMNS = frozenset({"deadline", "reminders", "paused_at", "wake_at"})


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _seat(row: Sequence[Any]) -> Seat:
    """A seat from its stored columns (``former`` is a JSON list)."""
    *columns, former = row
    return Seat(*columns, former=tuple(json.loads(former) if isinstance(former, str) else former or ()))


def _seat_row(table_id: int, seat: Seat) -> tuple[Any, ...]:
    """A seat's stored columns (both stores)."""
    return (
        table_id,
        seat.seat,
        seat.name,
        seat.kind,
        seat.user_id,
        seat.policy,
        seat.moves,
        seat.timeouts,
        _dumps(list(seat.former)),
    )


def _timing(timing: dict[str, Any] | None) -> dict[str, Any]:
    """Clock columns to set, refusing any other name (they become SQL identifiers)."""
    if not timing:
        return {}
    unknown = set(timing) - TIMING_COLUMNS
    if unknown:
        raise ValueError(f"not clock columns: {sorted(unknown)}")
    return dict(timing)


def _table_columns(
    *,
    status: str | None,
    seed: int | None,
    state: dict[str, Any] | None,
    timing: dict[str, Any] | None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``game_tables`` columns `update_table` sets (both stores)."""
    columns = _timing(timing)
    if options is not None:
        columns["options"] = _dumps(options)
    if status is not None:
        columns["status"] = status
    if seed is not None:
        columns["seed"] = seed
    if state is not None:
        columns["state"] = _dumps(state)
    return columns


def _move_columns(
    *, state: dict[str, Any], result: dict[str, Any] | None, timing: dict[str, Any] | None
) -> dict[str, Any]:
    """The ``game_tables`` columns an accepted move sets (both stores); a result finishes the game."""
    columns: dict[str, Any] = {"state": _dumps(state), **_timing(timing)}
    if result is not None:
        columns.update(status=FINISHED, result=_dumps(result))
    return columns


def _message_columns(**ids: int | None) -> dict[str, int]:
    """The Discord message columns `set_messages` was given (both stores)."""
    return {name: value for name, value in ids.items() if value is not None}


#: The leaderboard's order: the ordinal μ − Zσ (hosting.ratings), best first.
_ORDINAL = f"(mu - {ratings.Z!r} * sigma)"
_CHANGE_COLUMNS = "table_id, user_id, game, guild_id, seat, rank, mu_before, sigma_before, mu, sigma, games"


def _rating_row(change: RatingChange) -> tuple[Any, ...]:
    """A player's new ``ratings`` row after a rated game (both stores)."""
    return (change.user_id, change.game, change.mu, change.sigma, change.games)


def _change_row(change: RatingChange, now: float) -> tuple[Any, ...]:
    """A ``rating_events`` row (both stores), in `_CHANGE_COLUMNS` order, then ``created_at``."""
    return (
        change.table_id,
        change.user_id,
        change.game,
        change.guild_id,
        change.seat,
        change.rank,
        change.mu_before,
        change.sigma_before,
        change.mu,
        change.sigma,
        change.games,
        now,
    )


def _solo_row(scored: ScoredGame, now: float) -> tuple[Any, ...]:
    """A ``solo_scores`` row (both stores)."""
    (seat,) = scored.seats
    return (scored.table_id, seat.user_id, scored.game, scored.guild_id, seat.score, now)


class Store:
    """Tables, seats and the action log in one SQLite file."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        # One connection serves every coroutine: transactions must not interleave.
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """Open (creating if needed) the database and bring its schema up to date.

        Raises `SchemaTooNew` when the file was written by a newer bot.
        """
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            await (await db.execute("PRAGMA journal_mode=WAL")).close()
            await (await db.execute("PRAGMA synchronous=NORMAL")).close()
            await (await db.execute("PRAGMA foreign_keys=ON")).close()
            # Wait at most 1 s for another connection's write lock (a backup, `check`), then fail:
            # interactive paths must answer within Discord's 3 s, and our own writes are ~1 ms.
            await (await db.execute("PRAGMA busy_timeout=1000")).close()
            store = cls(db)
            await store._migrate()
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connection (checkpointing the WAL)."""
        await self._db.close()

    async def schema_version(self) -> int:
        """The schema version stored in the file (SQLite's user_version)."""
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0])

    async def _migrate(self) -> None:
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise SchemaTooNew(
                f"The database has schema version {current}, but this bot knows only up to "
                f"{SCHEMA_VERSION}. Upgrade the bot, or point it at another database."
            )
        for version in range(current + 1, SCHEMA_VERSION + 1):
            async with self._transaction():
                for statement in MIGRATIONS[version - 1]:
                    await self._run(statement)
                await self._run(f"PRAGMA user_version = {version}")

    async def _run(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, int | None]:
        """Execute one statement and close its cursor; return (rowcount, lastrowid)."""
        cursor = await self._db.execute(sql, params)
        try:
            return cursor.rowcount, cursor.lastrowid
        finally:
            await cursor.close()

    @asynccontextmanager
    async def _transaction(self):
        async with self._lock:
            await self._run("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                await self._run("ROLLBACK")
                raise
            await self._run("COMMIT")

    # ------------------------------------------------------------------ reads

    async def get_table(self, table_id: int) -> TableRecord:
        """The table with that id; `TableNotFound` when there is none."""
        async with self._db.execute(
            f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE id = ?", (table_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            raise TableNotFound()
        return await self._record(row)

    async def _record(self, row: Sequence[Any]) -> TableRecord:
        async with self._db.execute(
            "SELECT seat, name, kind, user_id, policy, moves, timeouts, former FROM seats "
            "WHERE table_id = ? ORDER BY seat",
            (row[0],),
        ) as cursor:
            seats = tuple(_seat(seat_row) for seat_row in await cursor.fetchall())
        return TableRecord(
            id=row[0],
            game=row[1],
            guild_id=row[2],
            channel_id=row[3],
            thread_id=row[4],
            host_id=row[5],
            status=row[6],
            options=json.loads(row[7]),
            seed=row[8],
            version=row[9],
            moves=row[10],
            state=_loads(row[11]),
            result=_loads(row[12]),
            lobby_message_id=row[13],
            board_message_id=row[14],
            created_at=row[15],
            updated_at=row[16],
            seats=seats,
            pace=row[17],
            deadline=row[18],
            reminders=row[19],
            paused_at=row[20],
            wake_at=row[21],
            owed_posts=row[22],
        )

    async def tables_of_user(
        self, user_id: int, *, statuses: Iterable[str] = OPEN_STATUSES, guild_id: int | None = None
    ) -> list[TableRecord]:
        """Tables where the user holds a seat or is the host, newest first."""
        status_list = list(statuses)
        marks = ",".join("?" * len(status_list))
        query = (
            f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE status IN ({marks}) AND "
            "(host_id = ? OR id IN (SELECT table_id FROM seats WHERE user_id = ? AND kind = 'human'))"
        )
        params: list[Any] = [*status_list, user_id, user_id]
        if guild_id is not None:
            query += " AND guild_id = ?"
            params.append(guild_id)
        query += " ORDER BY id DESC"
        async with self._db.execute(query, params) as cursor:
            rows = await cursor.fetchall()
        return [await self._record(row) for row in rows]

    async def table_ids(self, status: str, *, with_bots: bool = False) -> list[int]:
        """Ids of every table with this status (only those with a bot seat if ``with_bots``), oldest first."""
        query = "SELECT id FROM game_tables WHERE status = ?"
        if with_bots:
            query += " AND id IN (SELECT table_id FROM seats WHERE kind = 'bot')"
        async with self._db.execute(query + " ORDER BY id", (status,)) as cursor:
            return [row[0] for row in await cursor.fetchall()]

    async def table_in_channel(self, channel_id: int) -> TableRecord | None:
        """The newest table whose thread (or channel, where it has no thread) is this channel."""
        async with self._db.execute(
            f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE thread_id = ? "
            "OR (thread_id IS NULL AND channel_id = ?) ORDER BY id DESC LIMIT 1",
            (channel_id, channel_id),
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else await self._record(row)

    async def open_tables_in(self, channel_id: int) -> list[TableRecord]:
        """Open tables (lobby or running) in this thread or channel, or in a thread of it, newest first."""
        async with self._db.execute(
            f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE (thread_id = ? OR channel_id = ?) "
            "AND status IN (?, ?) ORDER BY id DESC",
            (channel_id, channel_id, *OPEN_STATUSES),
        ) as cursor:
            rows = await cursor.fetchall()
        return [await self._record(row) for row in rows]

    async def open_tables_in_guild(self, guild_id: int) -> list[TableRecord]:
        """Open tables (lobby or running) of one server, newest first."""
        async with self._db.execute(
            f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE guild_id = ? AND status IN (?, ?) "
            "ORDER BY id DESC",
            (guild_id, *OPEN_STATUSES),
        ) as cursor:
            rows = await cursor.fetchall()
        return [await self._record(row) for row in rows]

    async def actions(self, table_id: int) -> list[LoggedAction]:
        """A table's whole action log, in order."""
        async with self._db.execute(
            "SELECT seq, seat, action, created_at FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
        ) as cursor:
            rows = await cursor.fetchall()
        return [LoggedAction(seq, seat, json.loads(action), at) for seq, seat, action, at in rows]

    async def ratings_of(self, user_id: int) -> list[Rating]:
        """A player's rating in every game they have a rated game of, by game."""
        async with self._db.execute(
            "SELECT user_id, game, mu, sigma, games FROM ratings WHERE user_id = ? ORDER BY game", (user_id,)
        ) as cursor:
            return [Rating(*row) for row in await cursor.fetchall()]

    async def rating_changes(self, table_id: int) -> list[RatingChange]:
        """What a finished table did to its players' ratings, by seat (empty when it was not rated)."""
        async with self._db.execute(
            f"SELECT {_CHANGE_COLUMNS} FROM rating_events WHERE table_id = ? ORDER BY seat", (table_id,)
        ) as cursor:
            return [RatingChange(*row) for row in await cursor.fetchall()]

    def _board(self, game: str, guild_id: int | None, min_games: int) -> tuple[str, list[Any]]:
        """The ratings on a board: in a server, players with ``min_games`` rated games there."""
        if guild_id is None:
            return "SELECT user_id, game, mu, sigma, games FROM ratings WHERE game = ? AND games >= ?", [
                game,
                min_games,
            ]
        return (
            "SELECT user_id, game, mu, sigma, games FROM ratings WHERE game = ? AND user_id IN "
            "(SELECT user_id FROM rating_events WHERE game = ? AND guild_id = ? "
            "GROUP BY user_id HAVING count(*) >= ?)",
            [game, game, guild_id, min_games],
        )

    async def leaderboard(
        self, game: str, *, guild_id: int | None = None, min_games: int = 1, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[Standing]]:
        """(how many players are on the board, one page of it), best rating (μ − 3σ) first.

        ``guild_id`` None is the board across all servers.
        """
        board, params = self._board(game, guild_id, min_games)
        async with self._db.execute(f"SELECT count(*) FROM ({board})", params) as cursor:
            total = (await cursor.fetchone())[0]
        async with self._db.execute(
            f"{board} ORDER BY {_ORDINAL} DESC, user_id LIMIT ? OFFSET ?", [*params, limit, offset]
        ) as cursor:
            rows = await cursor.fetchall()
        return total, [Standing(offset + i + 1, row[0], Rating(*row)) for i, row in enumerate(rows)]

    async def standing(
        self, game: str, user_id: int, *, guild_id: int | None = None, min_games: int = 1
    ) -> Standing | None:
        """A player's place on a rating board; None when they are not on it."""
        board, params = self._board(game, guild_id, min_games)
        async with self._db.execute(f"SELECT * FROM ({board}) WHERE user_id = ?", [*params, user_id]) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        mine = Rating(*row)
        async with self._db.execute(
            f"SELECT count(*) FROM ({board}) WHERE {_ORDINAL} > ? OR ({_ORDINAL} = ? AND user_id < ?)",
            [*params, *(mine.mu - ratings.Z * mine.sigma,) * 2, user_id],
        ) as cursor:
            ahead = (await cursor.fetchone())[0]
        return Standing(ahead + 1, user_id, mine)

    def _solo(self, game: str, guild_id: int | None) -> tuple[str, list[Any]]:
        """Each player's best solo score (and its table) on a solo board."""
        where, params = "game = ?", [game]
        if guild_id is not None:
            where, params = where + " AND guild_id = ?", [*params, guild_id]
        # SQLite takes the bare table_id from the row holding the max (the earliest on a tie: min id first).
        return (
            f"SELECT user_id, max(score) AS best, table_id FROM (SELECT * FROM solo_scores WHERE {where} "
            "ORDER BY table_id) GROUP BY user_id",
            params,
        )

    async def solo_board(
        self, game: str, *, guild_id: int | None = None, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[Standing]]:
        """(how many players, one page) of the best solo scores, best first."""
        board, params = self._solo(game, guild_id)
        async with self._db.execute(f"SELECT count(*) FROM ({board})", params) as cursor:
            total = (await cursor.fetchone())[0]
        async with self._db.execute(
            f"{board} ORDER BY best DESC, user_id LIMIT ? OFFSET ?", [*params, limit, offset]
        ) as cursor:
            rows = await cursor.fetchall()
        return total, [
            Standing(offset + i + 1, user, best=best, table_id=table)
            for i, (user, best, table) in enumerate(rows)
        ]

    async def solo_standing(self, game: str, user_id: int, *, guild_id: int | None = None) -> Standing | None:
        """A player's place on a solo board; None when they have no solo score there."""
        board, params = self._solo(game, guild_id)
        async with self._db.execute(f"SELECT * FROM ({board}) WHERE user_id = ?", [*params, user_id]) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        async with self._db.execute(
            f"SELECT count(*) FROM ({board}) WHERE best > ? OR (best = ? AND user_id < ?)",
            [*params, row[1], row[1], user_id],
        ) as cursor:
            ahead = (await cursor.fetchone())[0]
        return Standing(ahead + 1, user_id, best=row[1], table_id=row[2])

    # ----------------------------------------------------------------- writes

    async def create_table(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        host: Seat,
        options: dict[str, Any],
        now: float,
        pace: int = 0,
        wake_at: float | None = None,
    ) -> TableRecord:
        """A new table in the lobby, its host in seat 0; ``wake_at`` is when the lobby expires."""
        async with self._transaction():
            _, table_id = await self._run(
                "INSERT INTO game_tables (game, guild_id, channel_id, host_id, status, options, "
                "created_at, updated_at, pace, wake_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game, guild_id, channel_id, host.user_id, LOBBY, _dumps(options), now, now, pace, wake_at),
            )
            await self._write_seats(table_id, [host])
        return await self.get_table(table_id)

    async def _write_seats(self, table_id: int, seats: Sequence[Seat]) -> None:
        await self._run("DELETE FROM seats WHERE table_id = ?", (table_id,))
        await (
            await self._db.executemany(
                "INSERT INTO seats (table_id, seat, name, kind, user_id, policy, moves, timeouts, former) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [_seat_row(table_id, s) for s in seats],
            )
        ).close()

    async def _bump(self, table_id: int, expected_version: int, now: float, **columns: Any) -> None:
        """Bump the version if it is still ``expected_version`` and set ``columns``."""
        sets = "".join(f", {name} = ?" for name in columns)
        rowcount, _ = await self._run(
            f"UPDATE game_tables SET version = version + 1, updated_at = ?{sets} "
            "WHERE id = ? AND version = ?",
            (now, *columns.values(), table_id, expected_version),
        )
        if rowcount != 1:
            async with self._db.execute("SELECT 1 FROM game_tables WHERE id = ?", (table_id,)) as check:
                if await check.fetchone() is None:
                    raise TableNotFound()
            raise StaleVersion()

    async def update_table(
        self,
        table_id: int,
        expected_version: int,
        *,
        now: float,
        seats: Sequence[Seat] | None = None,
        status: str | None = None,
        seed: int | None = None,
        state: dict[str, Any] | None = None,
        timing: dict[str, Any] | None = None,
        options: dict[str, Any] | None = None,
    ) -> TableRecord:
        """Change a table outside the action log (lobby, start, cancel, clock), bumping its version.

        ``timing`` sets clock columns (`TIMING_COLUMNS`); ``None`` values clear them.
        """
        columns = _table_columns(status=status, seed=seed, state=state, timing=timing, options=options)
        async with self._transaction():
            await self._bump(table_id, expected_version, now, **columns)
            if seats is not None:
                await self._write_seats(table_id, seats)
        return await self.get_table(table_id)

    async def append_action(
        self,
        table_id: int,
        expected_version: int,
        *,
        seat: int,
        action: dict[str, Any],
        state: dict[str, Any],
        now: float,
        result: dict[str, Any] | None = None,
        timing: dict[str, Any] | None = None,
        reset_timeouts: bool = False,
        scored: ScoredGame | None = None,
    ) -> int:
        """Log one accepted action with the new snapshot, in one transaction; return the new version.

        A finished game (``result`` given) is marked finished in the same write.
        ``timing`` sets the clock columns; ``reset_timeouts`` clears the seat's
        missed-deadline count (the player moved by themselves). ``scored`` (with
        the finishing move) updates the players' ratings, or records a solo score,
        in the same transaction.
        """
        columns = _move_columns(state=state, result=result, timing=timing)
        async with self._transaction():
            async with self._db.execute("SELECT moves FROM game_tables WHERE id = ?", (table_id,)) as cursor:
                row = await cursor.fetchone()
            if row is None:
                raise TableNotFound()
            seq = row[0] + 1
            columns["moves"] = seq
            await self._bump(table_id, expected_version, now, **columns)
            await self._run(
                "INSERT INTO actions (table_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
                (table_id, seq, seat, _dumps(action), now),
            )
            await self._run(
                "UPDATE seats SET moves = moves + 1"
                + (", timeouts = 0" if reset_timeouts else "")
                + " WHERE table_id = ? AND seat = ?",
                (table_id, seat),
            )
            if scored is not None:
                await self._record_scored(scored, now)
        return expected_version + 1

    async def _record_scored(self, scored: ScoredGame, now: float) -> None:
        """Inside the finishing transaction: the solo score, or every player's new rating."""
        if scored.solo:
            await self._run(
                "INSERT INTO solo_scores (table_id, user_id, game, guild_id, score, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                _solo_row(scored, now),
            )
            return
        users = [s.user_id for s in scored.seats]
        async with self._db.execute(
            f"SELECT user_id, game, mu, sigma, games FROM ratings WHERE game = ? "
            f"AND user_id IN ({','.join('?' * len(users))})",
            (scored.game, *users),
        ) as cursor:
            current = {row[0]: Rating(*row) for row in await cursor.fetchall()}
        changes = ratings.update(scored, current)
        await (
            await self._db.executemany(
                "INSERT INTO ratings (user_id, game, mu, sigma, games) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (user_id, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                "games = excluded.games",
                [_rating_row(c) for c in changes],
            )
        ).close()
        await (
            await self._db.executemany(
                f"INSERT INTO rating_events ({_CHANGE_COLUMNS}, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [_change_row(c, now) for c in changes],
            )
        ).close()

    async def set_messages(
        self,
        table_id: int,
        *,
        thread_id: int | None = None,
        lobby_message_id: int | None = None,
        board_message_id: int | None = None,
    ) -> None:
        """Remember where the table lives in Discord (no version bump: the game did not change)."""
        columns = _message_columns(
            thread_id=thread_id, lobby_message_id=lobby_message_id, board_message_id=board_message_id
        )
        if not columns:
            return
        sets = ", ".join(f"{name} = ?" for name in columns)
        async with self._transaction():
            await self._run(f"UPDATE game_tables SET {sets} WHERE id = ?", (*columns.values(), table_id))

    async def set_host(self, table_id: int, user_id: int) -> None:
        """Hand the host role to another member."""
        async with self._transaction():
            await self._run("UPDATE game_tables SET host_id = ? WHERE id = ?", (user_id, table_id))

    async def set_owed(self, table_id: int, owed_posts: int, wake_at: float | None) -> None:
        """Record a message the table still owes (``owed_posts`` failed attempts; 0: paid) and its next look.

        No version bump: the game did not change.
        """
        async with self._transaction():
            await self._run(
                "UPDATE game_tables SET owed_posts = ?, wake_at = ? WHERE id = ?",
                (owed_posts, wake_at, table_id),
            )

    async def claim_reminder(self, table_id: int, version: int, *, sent: int, wake_at: float | None) -> bool:
        """Record that reminder number ``sent`` goes out now; False when another caller already did.

        A compare-and-set on the version and the reminder count, so that a
        reminder is sent at most once even with several schedulers.
        """
        async with self._transaction():
            rowcount, _ = await self._run(
                "UPDATE game_tables SET reminders = ?, wake_at = ? "
                "WHERE id = ? AND version = ? AND reminders < ?",
                (sent, wake_at, table_id, version, sent),
            )
        return rowcount == 1

    async def set_wake(self, table_id: int, version: int, wake_at: float | None) -> None:
        """Move the scheduler's next look at a table (when nothing else about it changed)."""
        async with self._transaction():
            await self._run(
                "UPDATE game_tables SET wake_at = ? WHERE id = ? AND version = ?",
                (wake_at, table_id, version),
            )

    async def due_tables(self, now: float, limit: int = 100) -> list[int]:
        """Ids of open tables whose ``wake_at`` has come, earliest first."""
        async with self._db.execute(
            "SELECT id FROM game_tables WHERE wake_at IS NOT NULL AND wake_at <= ? ORDER BY wake_at LIMIT ?",
            (now, limit),
        ) as cursor:
            return [row[0] for row in await cursor.fetchall()]

    async def next_wake(self) -> float | None:
        """The earliest ``wake_at`` of any table (None when no table waits for the clock)."""
        async with self._db.execute(
            "SELECT MIN(wake_at) FROM game_tables WHERE wake_at IS NOT NULL"
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else row[0]

    async def dm_reminders(self, user_id: int) -> bool:
        """Whether this user asked for reminders by direct message."""
        async with self._db.execute(
            "SELECT dm_reminders FROM players WHERE user_id = ?", (user_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return bool(row and row[0])

    async def set_dm_reminders(self, user_id: int, on: bool) -> None:
        """Turn a user's direct-message reminders on or off."""
        async with self._transaction():
            await self._run(
                "INSERT INTO players (user_id, dm_reminders) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET dm_reminders = excluded.dm_reminders",
                (user_id, int(on)),
            )

    async def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` answer ("ok" when healthy)."""
        async with self._db.execute("PRAGMA integrity_check") as cursor:
            row = await cursor.fetchone()
        return str(row[0])
