"""The store on PostgreSQL (asyncpg), for several bot processes sharing one database.

`PostgresStore` has exactly the interface and the semantics of the SQLite
`hosting.store.Store`, method for method and in the same order (both satisfy
`hosting.store_api.TableStore`), and returns the same records (`hosting.records`).
Its schema is the PostgreSQL half of `hosting.migrations`. What differs is how
the guarantees hold across processes:

- every write that names a version is one conditional ``UPDATE ... WHERE
  version = $n`` inside a transaction; PostgreSQL makes a second writer of the
  same row wait for the first to commit and then re-checks its ``WHERE`` on the
  new row, so of two racing writers exactly one matches and the other gets
  `StaleVersion`, whichever process each runs in;
- `claim_reminder` is the same compare-and-set, so one caller in the whole
  cluster wins a reminder or a deadline;
- migrations take a transaction-scoped advisory lock, so processes starting at
  once do not migrate twice.

Connections come from an asyncpg pool; coroutines of one process run their
transactions in parallel on separate connections (no process-wide lock as
SQLite needs).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

import asyncpg

from hosting import ratings, seasons
from hosting.errors import SchemaTooNew, StaleVersion, TableNotFound
from hosting.league import (
    DROPPED_BY_ORGANISER,
    LEAGUE_COLUMNS,
    RUNNING,
    SIGNUP,
    LeaguePlayer,
    LeagueRecord,
    LeagueResult,
    LeagueTable,
)
from hosting.migrations import MIGRATIONS, SCHEMA_VERSION
from hosting.ratings import Rating, RatingChange, ScoredGame, Standing
from hosting.records import (
    ACTIVE,
    CANCELLED,
    LOBBY,
    OPEN_STATUSES,
    STUCK_AFTER,
    FinishedGame,
    LoggedAction,
    PlayerStats,
    Seat,
    TableRecord,
)
from hosting.rows import (
    CHANGE_COLUMNS,
    FINISHED_COLUMNS,
    change_row,
    check_min_games,
    finished_game,
    finished_rows,
    from_json,
    message_columns,
    move_columns,
    moved_down,
    moved_up,
    ordinal_of,
    rating_row,
    season_event_row,
    season_row,
    seat_from_row,
    seat_row,
    solo_best_rows,
    solo_row,
    stat_rows,
    table_columns,
    to_json,
)

#: The one-row table holding the schema version (SQLite keeps it in ``user_version``).
VERSION_TABLE = "seagames_schema"
#: Key of the advisory lock that serialises migrations across processes ("seagames" in ASCII).
MIGRATION_LOCK = int.from_bytes(b"seagames", "big")

#: Key of the advisory lock a finishing move takes before it changes a game's boards (with the
#: game's hash as the second key): `board_steps`' triggers then never deadlock.
BOARD_LOCK = int.from_bytes(b"rank", "big")

#: Every table the schema has; `integrity_check` looks for each. All but `DERIVED` are copied.
TABLES = (
    "game_tables",
    "seats",
    "actions",
    "players",
    "ratings",
    "rating_events",
    "solo_scores",
    "player_stats",
    "guild_ratings",
    "solo_best",
    "board_sizes",
    "guild_settings",
    "board_steps",
    "finished_seats",
    "rematches",
    "voided_games",
    "daily_games",
    "leagues",
    "league_players",
    "league_tables",
    "season_ratings",
    "guild_seasons",
    "season_events",
)
#: Tables the schema's triggers fill from the others (`copy-to-postgres` leaves them to the triggers).
DERIVED = ("board_steps",)

#: A table's seats as one JSON array, beside a row of ``game_tables`` called ``g``.
_SEAT_ROWS = (
    "(SELECT coalesce(json_agg(json_build_array(s.seat, s.name, s.kind, s.user_id, s.policy, s.moves, "
    "s.timeouts, s.former) ORDER BY s.seat), '[]') FROM seats s WHERE s.table_id = g.id)"
)

#: The columns a write hands back: every one but the snapshot, which the writer already has.
_RETURNED = (
    "id, game, guild_id, channel_id, thread_id, host_id, status, options, seed, version, moves, "
    "result, lobby_message_id, board_message_id, created_at, updated_at, "
    "pace, deadline, reminders, paused_at, wake_at, owed_posts"
)

# The table's columns and its seats as one JSON array, in one statement: one round
# trip per table and a consistent snapshot of both.
_SELECT_TABLE = (
    "SELECT id, game, guild_id, channel_id, thread_id, host_id, status, options, seed, version, moves, "
    "state, result, lobby_message_id, board_message_id, created_at, updated_at, "
    f"pace, deadline, reminders, paused_at, wake_at, owed_posts, {_SEAT_ROWS} AS seat_rows "
    "FROM game_tables g"
)


class DatabaseUnavailable(Exception):
    """PostgreSQL cannot be reached or refuses the login; the message says what to check."""


def redact(url: str) -> str:
    """The URL with its password replaced by ``***``, fit for logs and error messages."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    credentials, _, host = rest.rpartition("@")
    user, colon, _ = credentials.partition(":")
    return f"{scheme}://{user}{':***' if colon else ''}@{host}"


async def inspect(url: str) -> tuple[int, int]:
    """(schema version, number of tables) of the database at ``url``, read-only: nothing is migrated.

    For ``python bot.py check``. Raises `DatabaseUnavailable` when it cannot connect.
    """
    try:
        conn = await asyncpg.connect(url, timeout=10)
    except (OSError, TimeoutError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise DatabaseUnavailable(_unavailable(url, error)) from error
    try:
        async with conn.transaction(readonly=True):
            version = await PostgresStore._version(conn)
            exists = await conn.fetchval("SELECT to_regclass('game_tables') IS NOT NULL")
            tables = await conn.fetchval("SELECT count(*) FROM game_tables") if exists else 0
    finally:
        await conn.close()
    return version, int(tables)


def _unavailable(url: str, error: BaseException) -> str:
    return (
        f"Cannot connect to the PostgreSQL database at {redact(url)} (DATABASE_URL): "
        f"{str(error) or type(error).__name__}. Check that the server runs, and the host, port, "
        "user, password and database name."
    )


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The pool's reset of a released connection: nothing to reset (see `PostgresStore.open`)."""


def _count(status: str) -> int:
    """Rows touched, from asyncpg's command tag ("UPDATE 1", "INSERT 0 1", ...)."""
    return int(status.rsplit(" ", 1)[-1])


async def _missing_or_stale(conn: asyncpg.Connection | asyncpg.Pool, table_id: int) -> None:
    """A conditional write matched no row: say whether the table is gone or the version stale."""
    if await conn.fetchval("SELECT 1 FROM game_tables WHERE id = $1", table_id) is None:
        raise TableNotFound()
    raise StaleVersion()


async def _resize(conn: asyncpg.Connection, sizes: Sequence[tuple[Any, ...]]) -> None:
    """Apply `board_sizes` changes: (board, game, scope, games, +1 or -1), in one order for every writer."""
    if sizes:
        await conn.executemany(
            "INSERT INTO board_sizes AS z (board, game, scope, games, players) VALUES ($1, $2, $3, $4, $5) "
            "ON CONFLICT (board, game, scope, games) DO UPDATE SET players = z.players + excluded.players",
            sorted(sizes),
        )


def _record(row: asyncpg.Record) -> TableRecord:
    seats = tuple(seat_from_row(seat) for seat in json.loads(row["seat_rows"] or "[]"))
    return TableRecord(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        host_id=row["host_id"],
        status=row["status"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        version=row["version"],
        moves=row["moves"],
        state=from_json(row["state"]),
        result=from_json(row["result"]),
        lobby_message_id=row["lobby_message_id"],
        board_message_id=row["board_message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        seats=seats,
        pace=row["pace"],
        deadline=row["deadline"],
        reminders=row["reminders"],
        paused_at=row["paused_at"],
        wake_at=row["wake_at"],
        owed_posts=row["owed_posts"],
    )


class PostgresStore:
    """Tables, seats and the action log in a PostgreSQL database shared by several processes."""

    def __init__(self, pool: asyncpg.Pool, shards: tuple[int, Sequence[int]] | None = None) -> None:
        self._pool = pool
        # (shard count, this process's shard ids) when other processes run the other shards:
        # the scheduler queries then see only this process's servers, whose threads it can post in.
        self._shards = None if shards is None else (shards[0], list(shards[1]))

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        shards: tuple[int, Sequence[int]] | None = None,
    ) -> PostgresStore:
        """Connect to ``url`` (``postgresql://user:password@host:port/database``) and migrate.

        ``shards`` = (``SHARD_COUNT``, ``SHARD_IDS``) makes `due_tables` and `next_wake`
        answer only for the servers of those shards (Discord's rule: shard =
        (guild id >> 22) % count; tables outside a server belong to shard 0).

        Raises `SchemaTooNew` when the database was written by a newer bot, and
        `DatabaseUnavailable` when the server cannot be reached or refuses the login.
        """
        try:
            # The store sets no session state (no SET, LISTEN or session locks; migrations take a
            # transaction's lock), so a released connection needs no reset query: that saves a
            # round trip on every call. asyncpg still rolls back a transaction left open.
            pool = await asyncpg.create_pool(
                url, min_size=min_size, max_size=max_size, timeout=10, reset=_keep_session
            )
        except (OSError, TimeoutError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise DatabaseUnavailable(_unavailable(url, error)) from error
        store = cls(pool, shards)
        try:
            await store._migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        """Close every connection of the pool (waiting for running queries)."""
        await self._pool.close()

    async def schema_version(self) -> int:
        """The schema version stored in the database (0 for an empty one)."""
        async with self._pool.acquire() as conn:
            return await self._version(conn)

    @staticmethod
    async def _version(conn: asyncpg.Connection) -> int:
        exists = await conn.fetchval("SELECT to_regclass($1) IS NOT NULL", VERSION_TABLE)
        if not exists:
            return 0
        return int(await conn.fetchval(f"SELECT coalesce(max(version), 0) FROM {VERSION_TABLE}"))

    async def _migrate(self) -> None:
        async with self._pool.acquire() as conn:
            while True:  # one transaction per migration, as on SQLite
                async with conn.transaction():
                    # Processes starting together wait here, then find the schema migrated.
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    current = await self._version(conn)
                    if current > SCHEMA_VERSION:
                        raise SchemaTooNew(
                            f"The database has schema version {current}, but this bot knows only up to "
                            f"{SCHEMA_VERSION}. Upgrade the bot, or point it at another database."
                        )
                    if current == SCHEMA_VERSION:
                        return
                    await conn.execute(
                        f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} (version INTEGER NOT NULL)"
                    )
                    for statement in MIGRATIONS[current].postgres:
                        await conn.execute(statement)
                    await conn.execute(f"DELETE FROM {VERSION_TABLE}")
                    await conn.execute(f"INSERT INTO {VERSION_TABLE} (version) VALUES ($1)", current + 1)

    # ------------------------------------------------------------------ reads

    async def get_table(self, table_id: int) -> TableRecord:
        """The table with that id; `TableNotFound` when there is none."""
        row = await self._pool.fetchrow(f"{_SELECT_TABLE} WHERE id = $1", table_id)
        if row is None:
            raise TableNotFound()
        return _record(row)

    async def tables_of_user(
        self,
        user_id: int,
        *,
        statuses: Iterable[str] = OPEN_STATUSES,
        guild_id: int | None = None,
    ) -> list[TableRecord]:
        """Tables where the user holds a seat or is the host, newest first."""
        # The host's tables and the seated player's tables each come from an index (see the SQLite twin).
        query = (
            f"{_SELECT_TABLE} WHERE id IN (SELECT id FROM game_tables WHERE host_id = $2 "
            "AND status = ANY($1::text[]) "
            "UNION SELECT table_id FROM seats WHERE user_id = $2 AND kind = 'human') "
            "AND status = ANY($1::text[])"
        )
        params: list[Any] = [list(statuses), user_id]
        if guild_id is not None:
            query += " AND guild_id = $3"
            params.append(guild_id)
        query += " ORDER BY id DESC"
        return [_record(row) for row in await self._pool.fetch(query, *params)]

    async def finished_games(self, user_id: int, *, limit: int) -> list[FinishedGame]:
        """The newest ``limit`` finished tables where the user held a seat to the end (the games
        `player_stats` counts for them), newest first, as history lines."""
        rows = await self._pool.fetch(
            f"SELECT {FINISHED_COLUMNS} FROM finished_seats WHERE user_id = $1 "
            "ORDER BY table_id DESC LIMIT $2",
            user_id,
            limit,
        )
        return [finished_game(tuple(row)) for row in rows]

    async def table_ids(self, status: str, *, with_bots: bool = False) -> list[int]:
        """Ids of every table with this status (only those with a bot seat if ``with_bots``), oldest first."""
        query = "SELECT id FROM game_tables g WHERE status = $1"
        if with_bots:
            query += " AND EXISTS (SELECT 1 FROM seats s WHERE s.table_id = g.id AND s.kind = 'bot')"
        rows = await self._pool.fetch(query + " ORDER BY id", status)
        return [row[0] for row in rows]

    async def table_in_channel(self, channel_id: int) -> TableRecord | None:
        """The newest table whose thread (or channel, where it has no thread) is this channel."""
        row = await self._pool.fetchrow(
            f"{_SELECT_TABLE} WHERE id = (SELECT max(id) FROM ("
            "SELECT max(id) AS id FROM game_tables WHERE thread_id = $1 UNION ALL "
            "SELECT max(id) FROM game_tables WHERE channel_id = $1 AND thread_id IS NULL) c)",
            channel_id,
        )
        return None if row is None else _record(row)

    async def open_tables_in(self, channel_id: int) -> list[TableRecord]:
        """Open tables (lobby or running) in this thread or channel, or in a thread of it, newest first."""
        rows = await self._pool.fetch(
            f"{_SELECT_TABLE} WHERE id IN (SELECT id FROM game_tables WHERE thread_id = $1 "
            "AND status = ANY($2::text[]) UNION "
            "SELECT id FROM game_tables WHERE channel_id = $1 AND status = ANY($2::text[])) ORDER BY id DESC",
            channel_id,
            list(OPEN_STATUSES),
        )
        return [_record(row) for row in rows]

    async def open_tables_here(self, channel_id: int) -> list[TableRecord]:
        """Open tables playing in this thread, or in this channel without a thread of theirs, newest first."""
        rows = await self._pool.fetch(
            f"{_SELECT_TABLE} WHERE id IN (SELECT id FROM game_tables WHERE thread_id = $1 "
            "AND status = ANY($2::text[]) UNION SELECT id FROM game_tables WHERE channel_id = $1 "
            "AND status = ANY($2::text[]) AND thread_id IS NULL) ORDER BY id DESC",
            channel_id,
            list(OPEN_STATUSES),
        )
        return [_record(row) for row in rows]

    async def open_tables_in_guild(self, guild_id: int) -> list[TableRecord]:
        """Open tables (lobby or running) of one server, newest first."""
        rows = await self._pool.fetch(
            f"{_SELECT_TABLE} WHERE guild_id = $1 AND status = ANY($2::text[]) ORDER BY id DESC",
            guild_id,
            list(OPEN_STATUSES),
        )
        return [_record(row) for row in rows]

    async def open_guild_ids(self) -> list[int]:
        """The servers that have an open table (lobby or running)."""
        rows = await self._pool.fetch(
            "SELECT DISTINCT guild_id FROM game_tables "
            "WHERE status = ANY($1::text[]) AND guild_id IS NOT NULL ORDER BY guild_id",
            list(OPEN_STATUSES),
        )
        return [row[0] for row in rows]

    async def actions(self, table_id: int, after: int = 0) -> list[LoggedAction]:
        """A table's action log, in order: the whole of it, or only the entries after seq ``after``."""
        rows = await self._pool.fetch(
            "SELECT seq, seat, action, created_at FROM actions WHERE table_id = $1 AND seq > $2 ORDER BY seq",
            table_id,
            after,
        )
        return [LoggedAction(seq, seat, json.loads(action), at) for seq, seat, action, at in rows]

    async def ratings_of(self, user_id: int) -> list[Rating]:
        """A player's rating in every game they have a rated game of, by game."""
        rows = await self._pool.fetch(
            "SELECT user_id, game, mu, sigma, games FROM ratings WHERE user_id = $1 ORDER BY game", user_id
        )
        return [Rating(*row) for row in rows]

    async def rating_changes(self, table_id: int) -> list[RatingChange]:
        """What a finished table did to its players' ratings, by seat (empty when it was not rated)."""
        rows = await self._pool.fetch(
            f"SELECT {CHANGE_COLUMNS} FROM rating_events WHERE table_id = $1 ORDER BY seat", table_id
        )
        return [RatingChange(*row) for row in rows]

    async def player_stats(self, user_id: int) -> list[PlayerStats]:
        """A player's finished games per game (kept by the finishing moves), by game."""
        rows = await self._pool.fetch(
            "SELECT game, played, wins, score_total FROM player_stats WHERE user_id = $1 ORDER BY game",
            user_id,
        )
        return [PlayerStats(*row) for row in rows]

    @staticmethod
    def _board(game: str, guild_id: int | None, min_games: int) -> tuple[str, str, list[Any]]:
        """(rows of the board, their order, parameters $1, $2, …): ratings in the board's index order.

        Across servers the ratings themselves, walked by the ``ratings_ordinal`` index; in a server
        its `guild_ratings` (players with ``min_games`` rated games there) joined to their ratings.
        """
        if guild_id is None:
            return (
                "SELECT user_id, game, mu, sigma, games, "
                "ordinal FROM ratings WHERE game = $1 AND games >= $2",
                "ordinal DESC, user_id",
                [game, min_games],
            )
        return (
            "SELECT r.user_id, r.game, r.mu, r.sigma, r.games, g.ordinal, g.games AS here "
            "FROM guild_ratings g JOIN ratings r ON r.user_id = g.user_id AND r.game = g.game "
            "WHERE g.game = $1 AND g.games >= $2 AND g.guild_id = $3",
            "g.ordinal DESC, g.user_id",
            [game, min_games, guild_id],
        )

    async def leaderboard(
        self, game: str, *, guild_id: int | None = None, min_games: int = 1, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[Standing]]:
        """(how many players are on the board, one page of it), best rating (μ − 3σ) first.

        ``guild_id`` None is the board across all servers.
        """
        board, order, params = self._board(game, guild_id, min_games)
        n = len(params)
        async with self._pool.acquire() as conn:  # no BEGIN/COMMIT: two round trips fewer
            total = await conn.fetchval(
                "SELECT coalesce(sum(players), 0) FROM board_sizes WHERE board = 'rating' AND game = $1 "
                "AND scope = $3 AND games >= $2",
                game,
                min_games,
                guild_id or 0,
            )
            rows = await conn.fetch(
                f"{board} ORDER BY {order} LIMIT ${n + 1} OFFSET ${n + 2}", *params, limit, offset
            )
        # A server's board also gives the rated games counted on it (guild_ratings.games).
        here = guild_id is not None
        return total, [
            Standing(offset + i + 1, row[0], Rating(*row[:5]), games_here=row["here"] if here else None)
            for i, row in enumerate(rows)
        ]

    async def standing(
        self, game: str, user_id: int, *, guild_id: int | None = None, min_games: int = 1
    ) -> Standing | None:
        """A player's place on a rating board; None when they are not on it.

        ``min_games`` is at most `ratings.BOARD_GAMES_MAX` (the steps count games no further).
        """
        check_min_games(min_games)
        board, _, params = self._board(game, guild_id, min_games)
        n = len(params)
        rows = "ratings WHERE game = $1"
        if guild_id is not None:
            rows = "guild_ratings WHERE game = $1 AND guild_id = $3"
        async with self._pool.acquire() as conn:  # no BEGIN/COMMIT: two round trips fewer
            row = await conn.fetchrow(f"SELECT * FROM ({board}) b WHERE user_id = ${n + 1}", *params, user_id)
            if row is None:
                return None
            # The players of the steps above, then those above in the same step (see the SQLite twin).
            step, upper = ratings.board_step(row["ordinal"])
            ahead = await conn.fetchval(
                "SELECT (SELECT coalesce(sum(players), 0) FROM board_steps WHERE board = 'rating' "
                f"AND game = $1 AND scope = ${n + 1} AND step > ${n + 2} AND games >= $2) "
                f"+ (SELECT count(*) FROM {rows} AND ordinal >= ${n + 3} AND ordinal < ${n + 4} "
                f"AND (ordinal > ${n + 3} OR user_id < ${n + 5}) AND games >= $2)",
                *params,
                guild_id or 0,
                step,
                row["ordinal"],
                upper,
                user_id,
            )
        return Standing(ahead + 1, user_id, Rating(*row[:5]), games_here=row["here"] if guild_id else None)

    async def solo_board(
        self, game: str, *, guild_id: int | None = None, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[Standing]]:
        """(how many players, one page) of the best solo scores, best first."""
        scope = guild_id or 0
        async with self._pool.acquire() as conn:  # no BEGIN/COMMIT: two round trips fewer
            total = await conn.fetchval(
                "SELECT coalesce(sum(players), 0) FROM board_sizes "
                "WHERE board = 'solo' AND game = $1 AND scope = $2",
                game,
                scope,
            )
            rows = await conn.fetch(
                "SELECT user_id, best, table_id FROM solo_best WHERE game = $1 AND scope = $2 "
                "ORDER BY best DESC, user_id LIMIT $3 OFFSET $4",
                game,
                scope,
                limit,
                offset,
            )
        return total, [
            Standing(offset + i + 1, user, best=best, table_id=table)
            for i, (user, best, table) in enumerate(rows)
        ]

    async def solo_standing(self, game: str, user_id: int, *, guild_id: int | None = None) -> Standing | None:
        """A player's place on a solo board; None when they have no solo score there."""
        scope = guild_id or 0
        async with self._pool.acquire() as conn:  # no BEGIN/COMMIT: two round trips fewer
            row = await conn.fetchrow(
                "SELECT best, table_id FROM solo_best WHERE game = $1 AND scope = $2 AND user_id = $3",
                game,
                scope,
                user_id,
            )
            if row is None:
                return None
            ahead = await conn.fetchval(
                "SELECT (SELECT coalesce(sum(players), 0) FROM board_steps WHERE board = 'solo' "
                "AND game = $1 AND scope = $2 AND step > $3) + (SELECT count(*) FROM solo_best "
                "WHERE game = $1 AND scope = $2 AND best = $3 AND user_id < $4)",
                game,
                scope,
                row[0],
                user_id,
            )
        return Standing(ahead + 1, user_id, best=row[0], table_id=row[1])

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
        # One statement (so one round trip, atomic by itself): the table, its host's seat, the row.
        row = await self._pool.fetchrow(
            "WITH t AS (INSERT INTO game_tables (game, guild_id, channel_id, host_id, status, options, "
            "created_at, updated_at, pace, wake_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9) "
            f"RETURNING {_RETURNED}), "
            "s AS (INSERT INTO seats (table_id, seat, name, kind, user_id, policy, moves, timeouts, former) "
            "SELECT id, $10, $11, $12, $13, $14, $15, $16, $17 FROM t) "
            "SELECT *, NULL AS state, NULL AS seat_rows FROM t",
            game,
            guild_id,
            channel_id,
            host.user_id,
            LOBBY,
            to_json(options),
            now,
            pace,
            wake_at,
            *seat_row(0, host)[1:],
        )
        return replace(_record(row), seats=(host,))

    @staticmethod
    async def _write_seats(conn: asyncpg.Connection, table_id: int, seats: Sequence[Seat]) -> None:
        await conn.execute("DELETE FROM seats WHERE table_id = $1", table_id)
        if seats:
            await conn.executemany(
                "INSERT INTO seats (table_id, seat, name, kind, user_id, policy, moves, timeouts, former) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                [seat_row(table_id, s) for s in seats],
            )

    @staticmethod
    async def _bump(
        conn: asyncpg.Connection | asyncpg.Pool,
        table_id: int,
        expected_version: int,
        now: float,
        columns: dict[str, Any],
    ) -> TableRecord:
        """Bump the version if it is still ``expected_version`` and set ``columns``; the row after.

        One statement: the conditional UPDATE returns the new row, its seats read
        beside it. A concurrent writer of the same row makes this wait for its
        commit, then PostgreSQL re-checks ``version = $n`` on the row it wrote:
        the loser matches nothing and gets `StaleVersion`, in any process.
        """
        names = list(columns)
        sets = "".join(f", {name} = ${i}" for i, name in enumerate(names, start=4))
        row = await conn.fetchrow(
            f"WITH g AS (UPDATE game_tables SET version = version + 1, updated_at = $1{sets} "
            f"WHERE id = $2 AND version = $3 RETURNING *) SELECT *, {_SEAT_ROWS} AS seat_rows FROM g",
            now,
            table_id,
            expected_version,
            *(columns[name] for name in names),
        )
        if row is None:
            await _missing_or_stale(conn, table_id)
        return _record(row)

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
        Returns the table as written.
        """
        columns = table_columns(status=status, seed=seed, state=state, timing=timing, options=options)
        if seats is None:  # one statement, atomic by itself
            return await self._bump(self._pool, table_id, expected_version, now, columns)
        async with self._pool.acquire() as conn, conn.transaction():
            table = await self._bump(conn, table_id, expected_version, now, columns)
            await self._write_seats(conn, table_id, seats)
        return replace(table, seats=tuple(sorted(seats, key=lambda s: s.seat)))

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
    ) -> TableRecord:
        """Log one accepted action with the new snapshot, in one transaction; return the table after it.

        A finished game (``result`` given) is marked finished in the same write, and
        its players' stats (`player_stats`) move with it. ``timing`` sets the clock
        columns; ``reset_timeouts`` clears the seat's missed-deadline count (the
        player moved by themselves). ``scored`` (with the finishing move) updates
        the players' ratings, or records a solo score, in the same transaction.
        """
        columns = move_columns(state=state, result=result, timing=timing)
        if not result and scored is None:  # an ordinary move: one statement, one round trip
            table = await self._move(
                self._pool, table_id, expected_version, seat, action, now, columns, reset_timeouts
            )
            return replace(table, state=state)
        async with self._pool.acquire() as conn, conn.transaction():
            table = await self._move(
                conn, table_id, expected_version, seat, action, now, columns, reset_timeouts
            )
            if result:
                await self._record_finished(conn, table, result)
            if scored is not None:
                await self._record_scored(conn, scored, now)
        return replace(table, state=state)

    @staticmethod
    async def _move(
        conn: asyncpg.Connection | asyncpg.Pool,
        table_id: int,
        expected_version: int,
        seat: int,
        action: dict[str, Any],
        now: float,
        columns: dict[str, Any],
        reset_timeouts: bool,
    ) -> TableRecord:
        """The move as one statement: bump and check the version, log the action, count the seat's move.

        The move number comes from the same conditional UPDATE that checks the
        version, so it cannot be read from a row another process is changing. Every
        part of a data-modifying WITH sees the same snapshot, so the returned seats
        take the moving seat's counts from the seats UPDATE itself. The snapshot is
        not sent back (the caller has it).
        """
        names = list(columns)
        sets = "".join(f", {name} = ${i}" for i, name in enumerate(names, start=6))
        timeouts = ", timeouts = 0" if reset_timeouts else ""
        row = await conn.fetchrow(
            "WITH g AS (UPDATE game_tables SET version = version + 1, moves = moves + 1, "
            f"updated_at = $1{sets} WHERE id = $2 AND version = $3 RETURNING {_RETURNED}), "
            "logged AS (INSERT INTO actions (table_id, seq, seat, action, created_at) "
            "SELECT id, moves, $4, $5, $1 FROM g), "
            f"moved AS (UPDATE seats SET moves = moves + 1{timeouts} WHERE table_id = $2 AND seat = $4 "
            "AND EXISTS (SELECT 1 FROM g) RETURNING seat, moves, timeouts) "
            "SELECT *, NULL AS state, (SELECT coalesce(json_agg(json_build_array(s.seat, s.name, s.kind, "
            "s.user_id, s.policy, coalesce(m.moves, s.moves), coalesce(m.timeouts, s.timeouts), s.former) "
            "ORDER BY s.seat), '[]') FROM seats s LEFT JOIN moved m ON m.seat = s.seat "
            "WHERE s.table_id = $2) AS seat_rows FROM g",
            now,
            table_id,
            expected_version,
            seat,
            to_json(action),
            *(columns[name] for name in names),
        )
        if row is None:
            await _missing_or_stale(conn, table_id)
        return _record(row)

    @staticmethod
    async def _record_finished(conn: asyncpg.Connection, table: TableRecord, result: dict[str, Any]) -> None:
        """Inside the finishing transaction: every seated person's game count, wins and score total,
        and their history line."""
        rows = [(user, table.game, won, score) for user, won, score in stat_rows(table.seats, result)]
        if rows:
            await conn.executemany(
                "INSERT INTO player_stats AS p (user_id, game, played, wins, score_total) "
                "VALUES ($1, $2, 1, $3, $4) ON CONFLICT (user_id, game) DO UPDATE SET "
                "played = p.played + 1, wins = p.wins + excluded.wins, "
                "score_total = p.score_total + excluded.score_total",
                rows,
            )
            await conn.executemany(
                f"INSERT INTO finished_seats (user_id, {FINISHED_COLUMNS}) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                [(*row[:-1], bool(row[-1])) for row in finished_rows(table, result)],
            )

    @staticmethod
    async def _record_scored(conn: asyncpg.Connection, scored: ScoredGame, now: float) -> None:
        """Inside the finishing transaction: the solo score and best, or every player's new rating.

        The players' rating rows are created if missing and then locked (``FOR UPDATE``)
        before they are read, so two tables finishing at once in two processes with a
        player in common apply one after the other: neither update is lost.
        """
        await conn.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", BOARD_LOCK, scored.game)
        if scored.solo:
            await conn.execute(
                "INSERT INTO solo_scores (table_id, user_id, game, guild_id, score, created_at) "
                "VALUES ($1, $2, $3, $4, $5, $6)",
                *solo_row(scored, now),
            )
            sizes = []
            for row in solo_best_rows(scored):
                added = await conn.execute(
                    "INSERT INTO solo_best (game, scope, user_id, best, table_id) "
                    "VALUES ($1, $2, $3, $4, $5) "
                    "ON CONFLICT (game, scope, user_id) DO NOTHING",
                    *row,
                )
                if _count(added):
                    sizes.append(("solo", row[0], row[1], 0, 1))  # a new player on this solo board
                else:
                    await conn.execute(
                        "UPDATE solo_best SET best = $4, table_id = $5 WHERE game = $1 AND scope = $2 "
                        "AND user_id = $3 AND ($4 > best OR ($4 = best AND $5 < table_id))",
                        *row,
                    )
            await _resize(conn, sizes)
            return
        users = sorted(s.user_id for s in scored.seats)  # one lock order for every writer
        fresh = ratings.initial(0, scored.game)
        await conn.executemany(
            "INSERT INTO ratings (user_id, game, mu, sigma, games) VALUES ($1, $2, $3, $4, 0) "
            "ON CONFLICT (user_id, game) DO NOTHING",
            [(user, scored.game, fresh.mu, fresh.sigma) for user in users],
        )
        rows = await conn.fetch(
            "SELECT user_id, game, mu, sigma, games FROM ratings "
            "WHERE game = $1 AND user_id = ANY($2::bigint[]) ORDER BY user_id FOR UPDATE",
            scored.game,
            users,
        )
        changes = ratings.update(scored, {row[0]: Rating(*row) for row in rows})
        await conn.executemany(
            "UPDATE ratings SET mu = $3, sigma = $4, games = $5, ordinal = $6 "
            "WHERE user_id = $1 AND game = $2",
            [rating_row(c) for c in changes],
        )
        await conn.executemany(
            f"INSERT INTO rating_events ({CHANGE_COLUMNS}, created_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            [change_row(c, now) for c in changes],
        )
        ordinals = [(c.user_id, c.game, ordinal_of(c)) for c in changes]
        await conn.executemany(
            "UPDATE guild_ratings SET ordinal = $3 WHERE user_id = $1 AND game = $2", ordinals
        )
        sizes = [delta for c in changes for delta in moved_up(c.game, 0, c.games)]
        if scored.guild_id is not None:
            for row in ordinals:
                games = await conn.fetchval(
                    "INSERT INTO guild_ratings AS g (game, guild_id, user_id, games, ordinal) "
                    "VALUES ($2, $4, $1, 1, $3) "
                    "ON CONFLICT (game, guild_id, user_id) DO UPDATE SET games = g.games + 1 RETURNING games",
                    *row,
                    scored.guild_id,
                )
                sizes.extend(moved_up(scored.game, scored.guild_id, games))
        await _resize(conn, sizes)
        await PostgresStore._record_season(conn, scored, {row[0]: Rating(*row) for row in rows}, now)

    async def set_messages(
        self,
        table_id: int,
        *,
        thread_id: int | None = None,
        lobby_message_id: int | None = None,
        board_message_id: int | None = None,
    ) -> None:
        """Remember where the table lives in Discord (no version bump: the game did not change)."""
        columns = message_columns(
            thread_id=thread_id, lobby_message_id=lobby_message_id, board_message_id=board_message_id
        )
        if not columns:
            return
        sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(columns, start=2))
        await self._pool.execute(f"UPDATE game_tables SET {sets} WHERE id = $1", table_id, *columns.values())

    async def set_host(self, table_id: int, user_id: int) -> None:
        """Hand the host role to another member."""
        await self._pool.execute("UPDATE game_tables SET host_id = $1 WHERE id = $2", user_id, table_id)

    async def set_owed(self, table_id: int, owed_posts: int, wake_at: float | None) -> None:
        """Record a message the table still owes (``owed_posts`` failed attempts; 0: paid) and its next look.

        No version bump: the game did not change.
        """
        await self._pool.execute(
            "UPDATE game_tables SET owed_posts = $1, wake_at = $2 WHERE id = $3",
            owed_posts,
            wake_at,
            table_id,
        )

    async def claim_reminder(self, table_id: int, version: int, *, sent: int, wake_at: float | None) -> bool:
        """Record that reminder number ``sent`` goes out now; False when another caller already did.

        A compare-and-set on the version and the reminder count: a racing caller
        in another process waits for the winner's commit, re-checks
        ``reminders < $sent`` on the new row and matches nothing.
        """
        status = await self._pool.execute(
            "UPDATE game_tables SET reminders = $1, wake_at = $2 "
            "WHERE id = $3 AND version = $4 AND reminders < $1",
            sent,
            wake_at,
            table_id,
            version,
        )
        return _count(status) == 1

    async def set_wake(self, table_id: int, version: int, wake_at: float | None) -> None:
        """Move the scheduler's next look at a table (when nothing else about it changed)."""
        await self._pool.execute(
            "UPDATE game_tables SET wake_at = $1 WHERE id = $2 AND version = $3", wake_at, table_id, version
        )

    def _my_shards(self, first: int) -> tuple[str, list[Any]]:
        """SQL condition (numbered from ``$first``) and parameters keeping this process's servers only."""
        if self._shards is None:
            return "", []
        count, ids = self._shards
        return (
            f" AND (CASE WHEN guild_id IS NULL THEN 0 ELSE (guild_id >> 22) % ${first} END)"
            f" = ANY(${first + 1}::int[])",
            [count, ids],
        )

    async def due_tables(self, now: float, limit: int = 100) -> list[int]:
        """Ids of open tables whose ``wake_at`` has come, earliest first."""
        mine, params = self._my_shards(3)
        rows = await self._pool.fetch(
            f"SELECT id FROM game_tables WHERE wake_at IS NOT NULL AND wake_at <= $1{mine} "
            "ORDER BY wake_at LIMIT $2",
            now,
            limit,
            *params,
        )
        return [row[0] for row in rows]

    async def next_wake(self) -> float | None:
        """The earliest ``wake_at`` of any table (None when no table waits for the clock)."""
        mine, params = self._my_shards(1)
        return await self._pool.fetchval(
            f"SELECT min(wake_at) FROM game_tables WHERE wake_at IS NOT NULL{mine}", *params
        )

    async def dm_reminders(self, user_id: int) -> bool:
        """Whether this user asked for reminders by direct message."""
        value = await self._pool.fetchval("SELECT dm_reminders FROM players WHERE user_id = $1", user_id)
        return bool(value)

    async def set_dm_reminders(self, user_id: int, on: bool) -> None:
        """Turn a user's direct-message reminders on or off."""
        await self._pool.execute(
            "INSERT INTO players (user_id, dm_reminders) VALUES ($1, $2) "
            "ON CONFLICT (user_id) DO UPDATE SET dm_reminders = excluded.dm_reminders",
            user_id,
            int(on),
        )

    async def player_language(self, user_id: int) -> tuple[str | None, str | None]:
        """A player's chosen language (None: their Discord client's) and the client locale last seen."""
        row = await self._pool.fetchrow(
            "SELECT language, seen_locale FROM players WHERE user_id = $1", user_id
        )
        return (row[0], row[1]) if row else (None, None)

    async def set_player_language(self, user_id: int, language: str | None) -> None:
        """Set (or, with None, clear) the language of a player's own panels and DMs."""
        await self._pool.execute(
            "INSERT INTO players (user_id, language) VALUES ($1, $2) "
            "ON CONFLICT (user_id) DO UPDATE SET language = excluded.language",
            user_id,
            language,
        )

    async def note_locale(self, user_id: int, locale: str) -> None:
        """Remember the Discord client locale a player was last seen with."""
        await self._pool.execute(
            "INSERT INTO players (user_id, seen_locale) VALUES ($1, $2) "
            "ON CONFLICT (user_id) DO UPDATE SET seen_locale = excluded.seen_locale",
            user_id,
            locale,
        )

    async def guild_language(self, guild_id: int) -> str | None:
        """The language a server chose for its public messages (None: Discord's server setting)."""
        return await self._pool.fetchval("SELECT language FROM guild_settings WHERE guild_id = $1", guild_id)

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Set (or, with None, clear) a server's language."""
        await self._pool.execute(
            "INSERT INTO guild_settings (guild_id, language) VALUES ($1, $2) "
            "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
            guild_id,
            language,
        )

    # ------------------------------------------------------------ issue #35

    async def claim_rematch(self, table_id: int, lobby_id: int, now: float) -> int:
        """Record ``lobby_id`` as the rematch lobby of the closed table ``table_id``, unless another
        rematch lobby of it is still in its lobby; the rematch lobby recorded afterwards.

        The ``rematches`` row's primary key makes a second writer wait for the first and
        re-check the condition, so of two racing claims in any processes one lobby wins.
        """
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO rematches AS m (table_id, lobby_id, created_at) VALUES ($1, $2, $3) "
                "ON CONFLICT (table_id) DO UPDATE SET lobby_id = excluded.lobby_id, "
                "created_at = excluded.created_at "
                "WHERE (SELECT status FROM game_tables WHERE id = m.lobby_id) IS DISTINCT FROM $4",
                table_id,
                lobby_id,
                now,
                LOBBY,
            )
            return int(await conn.fetchval("SELECT lobby_id FROM rematches WHERE table_id = $1", table_id))

    async def rematch(self, table_id: int) -> tuple[int, bool] | None:
        """The closed table's rematch lobby and whether its former players were pinged (None: none yet)."""
        row = await self._pool.fetchrow(
            "SELECT lobby_id, pinged FROM rematches WHERE table_id = $1", table_id
        )
        return None if row is None else (int(row[0]), bool(row[1]))

    async def rematch_of(self, lobby_id: int) -> tuple[int, float] | None:
        """(the closed table, when its rematch lobby was recorded) for a rematch lobby; None otherwise."""
        row = await self._pool.fetchrow(
            "SELECT table_id, created_at FROM rematches WHERE lobby_id = $1", lobby_id
        )
        return None if row is None else (int(row[0]), float(row[1]))

    async def claim_rematch_ping(self, table_id: int) -> bool:
        """True once per closed table: the caller pings its former players; False ever after."""
        status = await self._pool.execute(
            "UPDATE rematches SET pinged = true WHERE table_id = $1 AND NOT pinged", table_id
        )
        return _count(status) == 1

    async def closed_lobbies(self, host_id: int, since: float) -> list[float]:
        """When each lobby this member hosted was closed unstarted (cancelled or expired) since ``since``."""
        rows = await self._pool.fetch(
            "SELECT updated_at FROM game_tables WHERE host_id = $1 AND status = $2 AND updated_at >= $3 "
            "AND seed IS NULL ORDER BY updated_at",
            host_id,
            CANCELLED,
            since,
        )
        return [float(row[0]) for row in rows]

    async def finished_games_in(self, user_id: int, guild_id: int, *, limit: int) -> list[FinishedGame]:
        """`finished_games` of one server only (what another member may see of a player's history)."""
        rows = await self._pool.fetch(
            f"SELECT {FINISHED_COLUMNS} FROM finished_seats WHERE user_id = $1 AND guild_id = $3 "
            "ORDER BY table_id DESC LIMIT $2",
            user_id,
            limit,
            guild_id,
        )
        return [finished_game(tuple(row)) for row in rows]

    async def player_stats_in(self, user_id: int, guild_id: int) -> list[PlayerStats]:
        """A player's finished games per game in one server, counted from their history lines."""
        rows = await self._pool.fetch(
            "SELECT game, count(*), sum(won::int), sum(score) FROM finished_seats "
            "WHERE user_id = $1 AND guild_id = $2 GROUP BY game ORDER BY game",
            user_id,
            guild_id,
        )
        return [PlayerStats(game, played, wins, float(total)) for game, played, wins, total in rows]

    async def leave_guild_boards(self, guild_id: int, user_id: int, games: Sequence[str]) -> list[str]:
        """Take a player off this server's rating and solo boards of ``games``; the games they were on."""
        gone, sizes = [], []
        async with self._pool.acquire() as conn, conn.transaction():
            for game in sorted(games):
                await conn.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", BOARD_LOCK, game)
                games_here = await conn.fetchval(
                    "DELETE FROM guild_ratings WHERE game = $1 AND guild_id = $2 AND user_id = $3 "
                    "RETURNING games",
                    game,
                    guild_id,
                    user_id,
                )
                if games_here is not None:
                    sizes.append(("rating", game, guild_id, games_here, -1))
                solo = await conn.fetchval(
                    "DELETE FROM solo_best WHERE game = $1 AND scope = $2 AND user_id = $3 RETURNING best",
                    game,
                    guild_id,
                    user_id,
                )
                if solo is not None:
                    sizes.append(("solo", game, guild_id, 0, -1))
                if games_here is not None or solo is not None:
                    gone.append(game)
                await conn.execute(  # and off its season boards (issue #38)
                    "DELETE FROM season_ratings WHERE user_id = $1 AND guild_id = $2 AND game = $3",
                    user_id,
                    guild_id,
                    game,
                )
            await _resize(conn, sizes)
        return gone

    async def void_ratings(self, table_id: int, by: int, now: float) -> list[int]:
        """Undo what a finished table did to its players' ratings and boards, and mark it voided
        (see the SQLite twin); the players who played a rated game of it since, or []."""
        async with self._pool.acquire() as conn, conn.transaction():
            rows = await conn.fetch(
                f"SELECT {CHANGE_COLUMNS} FROM rating_events WHERE table_id = $1 ORDER BY seat", table_id
            )
            changes = [RatingChange(*row) for row in rows]
            if not changes:
                return []
            game = changes[0].game
            await conn.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", BOARD_LOCK, game)
            users = [c.user_id for c in changes]
            current = {
                row[0]: row[1]
                for row in await conn.fetch(
                    "SELECT user_id, games FROM ratings WHERE game = $1 AND user_id = ANY($2::bigint[]) "
                    "ORDER BY user_id FOR UPDATE",
                    game,
                    users,
                )
            }
            later = [c.user_id for c in changes if current.get(c.user_id) != c.games]
            if later:
                return later
            sizes: list[tuple[Any, ...]] = []
            for c in changes:
                ordinal = c.mu_before - ratings.Z * c.sigma_before
                if c.games == 1:
                    await conn.execute(
                        "DELETE FROM ratings WHERE user_id = $1 AND game = $2", c.user_id, game
                    )
                else:
                    await conn.execute(
                        "UPDATE ratings SET mu = $1, sigma = $2, games = games - 1, ordinal = $3 "
                        "WHERE user_id = $4 AND game = $5",
                        c.mu_before,
                        c.sigma_before,
                        ordinal,
                        c.user_id,
                        game,
                    )
                await conn.execute(
                    "UPDATE guild_ratings SET ordinal = $3 WHERE user_id = $1 AND game = $2",
                    c.user_id,
                    game,
                    ordinal,
                )
                sizes.extend(moved_down(game, 0, c.games))
                if c.guild_id is not None:
                    here = await conn.fetchval(
                        "UPDATE guild_ratings SET games = games - 1 WHERE game = $1 AND guild_id = $2 "
                        "AND user_id = $3 RETURNING games",
                        game,
                        c.guild_id,
                        c.user_id,
                    )
                    if here is not None:
                        sizes.extend(moved_down(game, c.guild_id, here + 1))
                        if here == 0:
                            await conn.execute(
                                "DELETE FROM guild_ratings "
                                "WHERE game = $1 AND guild_id = $2 AND user_id = $3",
                                game,
                                c.guild_id,
                                c.user_id,
                            )
            await conn.execute("DELETE FROM rating_events WHERE table_id = $1", table_id)
            await self._void_season(conn, table_id)
            await conn.execute(
                "INSERT INTO voided_games (table_id, voided_by, created_at) VALUES ($1, $2, $3)",
                table_id,
                by,
                now,
            )
            await _resize(conn, sizes)
        return []

    async def voided(self, table_id: int) -> tuple[int, float] | None:
        """(who voided it, when) for a game voided from the ratings; None otherwise."""
        row = await self._pool.fetchrow(
            "SELECT voided_by, created_at FROM voided_games WHERE table_id = $1", table_id
        )
        return None if row is None else (int(row[0]), float(row[1]))

    async def integrity_check(self) -> str:
        """``ok`` when the server answers and every table of the schema is there, else what is wrong.

        PostgreSQL checks its own pages; this is the store-level counterpart of
        SQLite's ``PRAGMA integrity_check``.
        """
        missing = [
            name
            for name in TABLES
            if not await self._pool.fetchval("SELECT to_regclass($1) IS NOT NULL", name)
        ]
        return "ok" if not missing else f"missing tables: {', '.join(missing)}"

    async def status_counts(self) -> dict[str, int]:
        """How many tables have each status (every shard's), for the metrics."""
        rows = await self._pool.fetch("SELECT status, count(*) FROM game_tables GROUP BY status")
        return {str(row[0]): int(row[1]) for row in rows}

    # --- The daily Reef ---
    # Issue #38 item 3: the twin of the SQLite store's block (same reads, PostgreSQL's placeholders).
    # The claim is one INSERT ... ON CONFLICT DO NOTHING: of two processes claiming a player's day
    # at once, PostgreSQL lets one row in and the other reads the winner's table.

    _DAILY_SCORED = "JOIN solo_scores s ON s.table_id = d.table_id AND s.created_at < d.closes_at"
    _DAILY_WHERE = "d.day = $1 AND ($2::bigint IS NULL OR d.guild_id = $2)"

    async def daily_claim(
        self, day: str, user_id: int, table_id: int, *, guild_id: int | None, now: float, closes_at: float
    ) -> int:
        """Claim ``day``'s game for a player with ``table_id``; the table that holds the day."""
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO daily_games (day, user_id, table_id, guild_id, created_at, closes_at) "
                "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (day, user_id) DO NOTHING",
                day,
                user_id,
                table_id,
                guild_id,
                now,
                closes_at,
            )
            return int(
                await conn.fetchval(
                    "SELECT table_id FROM daily_games WHERE day = $1 AND user_id = $2", day, user_id
                )
            )

    async def daily_entry(
        self, day: str, user_id: int
    ) -> tuple[int, int | None, int | None, float | None] | None:
        """(table, server, score, finished at) of a player's game of ``day``; None when they have none."""
        row = await self._pool.fetchrow(
            "SELECT d.table_id, d.guild_id, s.score, s.created_at FROM daily_games d "
            "LEFT JOIN solo_scores s ON s.table_id = d.table_id AND s.created_at < d.closes_at "
            "WHERE d.day = $1 AND d.user_id = $2",
            day,
            user_id,
        )
        return None if row is None else (int(row[0]), row[1], row[2], row[3])

    async def daily_board(
        self, day: str, *, guild_id: int | None = None, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[tuple[int, int, int, float]]]:
        """(how many finished ``day``'s game, one page of (player, score, table, finished at)), best first."""
        async with self._pool.acquire() as conn:
            count = await conn.fetchval(
                f"SELECT count(*) FROM daily_games d {self._DAILY_SCORED} WHERE {self._DAILY_WHERE}",
                day,
                guild_id,
            )
            rows = await conn.fetch(
                "SELECT d.user_id, s.score, d.table_id, s.created_at "
                f"FROM daily_games d {self._DAILY_SCORED} WHERE {self._DAILY_WHERE} "
                "ORDER BY s.score DESC, s.created_at, d.user_id LIMIT $3 OFFSET $4",
                day,
                guild_id,
                limit,
                offset,
            )
        return int(count), [(int(r[0]), int(r[1]), int(r[2]), float(r[3])) for r in rows]

    async def daily_place(
        self, day: str, user_id: int, score: int, finished_at: float, *, guild_id: int | None = None
    ) -> int:
        """A finished player's place on ``day``'s board (1 = best); a tie goes to who finished first."""
        ahead = await self._pool.fetchval(
            f"SELECT count(*) FROM daily_games d {self._DAILY_SCORED} WHERE {self._DAILY_WHERE} "
            "AND (s.score > $3 OR (s.score = $3 AND (s.created_at < $4 OR (s.created_at = $4 "
            "AND d.user_id < $5))))",
            day,
            guild_id,
            score,
            finished_at,
            user_id,
        )
        return 1 + int(ahead)

    async def daily_days(self, user_id: int, *, limit: int = 400) -> list[str]:
        """The days (newest first, at most ``limit``) a player finished the day's game in time."""
        rows = await self._pool.fetch(
            f"SELECT d.day FROM daily_games d {self._DAILY_SCORED} WHERE d.user_id = $1 "
            "ORDER BY d.day DESC LIMIT $2",
            user_id,
            limit,
        )
        return [str(row[0]) for row in rows]

    # --- Leagues (issue #38): a league, its players' totals, its rounds' tables (schema 11) ---

    async def league_role(self, guild_id: int) -> int | None:
        """The role whose members may organise leagues in the server (None: Manage Server only)."""
        found = await self._pool.fetchval(
            "SELECT league_role FROM guild_settings WHERE guild_id = $1", guild_id
        )
        return None if found is None else int(found)

    async def set_league_role(self, guild_id: int, role_id: int | None) -> None:
        """Name the role that may organise leagues in the server (None: Manage Server only)."""
        await self._pool.execute(
            "INSERT INTO guild_settings (guild_id, league_role) VALUES ($1, $2) "
            "ON CONFLICT (guild_id) DO UPDATE SET league_role = excluded.league_role",
            guild_id,
            role_id,
        )

    async def create_league(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        game: str,
        seats: int,
        pace: int,
        rounds: int,
        rated: bool,
        bot_level: str,
        cap: int,
        drop_after: int,
        round_length: float,
        now: float,
    ) -> LeagueRecord:
        """A new league, open for sign-up."""
        row = await self._pool.fetchrow(
            "INSERT INTO leagues (guild_id, channel_id, organiser_id, name, game, seats, pace, rounds, "
            "rated, bot_level, cap, drop_after, round_length, status, created_at, updated_at) "
            f"VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15) "
            f"RETURNING {LEAGUE_COLUMNS}",
            guild_id,
            channel_id,
            organiser_id,
            name,
            game,
            seats,
            pace,
            rounds,
            rated,
            bot_level,
            cap,
            drop_after,
            round_length,
            SIGNUP,
            now,
        )
        return _league(row)

    async def get_league(self, league_id: int) -> LeagueRecord | None:
        """The league as stored (None: no such league)."""
        row = await self._pool.fetchrow(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = $1", league_id)
        return None if row is None else _league(row)

    async def leagues_in(self, guild_id: int, *, limit: int = 25) -> list[LeagueRecord]:
        """A server's newest leagues, newest first."""
        rows = await self._pool.fetch(
            f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild_id = $1 ORDER BY id DESC LIMIT $2",
            guild_id,
            limit,
        )
        return [_league(row) for row in rows]

    async def open_league_ids(self) -> list[int]:
        """Every league in sign-up or running (what a start resumes)."""
        rows = await self._pool.fetch(
            "SELECT id FROM leagues WHERE status IN ($1, $2) ORDER BY id", SIGNUP, RUNNING
        )
        return [int(row[0]) for row in rows]

    async def set_league_message(self, league_id: int, message_id: int) -> None:
        """Record the league's sign-up message."""
        await self._pool.execute("UPDATE leagues SET message_id = $1 WHERE id = $2", message_id, league_id)

    async def join_league(self, league_id: int, user_id: int, name: str, now: float) -> str:
        """Sign a member up: ``joined``, or why not (``already``, ``full``, ``closed``); one transaction.

        The league's row is locked first, so two members joining at once in two
        processes cannot both take the last place.
        """
        async with self._pool.acquire() as conn, conn.transaction():
            row = await conn.fetchrow("SELECT status, cap FROM leagues WHERE id = $1 FOR UPDATE", league_id)
            if row is None or row[0] != SIGNUP:
                return "closed"
            if await conn.fetchval(
                "SELECT 1 FROM league_players WHERE league_id = $1 AND user_id = $2", league_id, user_id
            ):
                return "already"
            count = "SELECT count(*) FROM league_players WHERE league_id = $1"
            joined = await conn.fetchval(count, league_id)
            if joined >= row[1]:
                return "full"
            await conn.execute(
                "INSERT INTO league_players (league_id, user_id, name, joined_at) VALUES ($1, $2, $3, $4)",
                league_id,
                user_id,
                name,
                now,
            )
            return "joined"

    async def leave_league(self, league_id: int, user_id: int) -> bool:
        """Take a member off a league still in sign-up; False when they were not on it (or it started)."""
        status = await self._pool.execute(
            "DELETE FROM league_players WHERE league_id = $1 AND user_id = $2 "
            "AND (SELECT status FROM leagues WHERE id = $1) = $3",
            league_id,
            user_id,
            SIGNUP,
        )
        return _count(status) == 1

    async def league_players(self, league_id: int, game: str) -> list[LeaguePlayer]:
        """A league's players with their totals and their rating in ``game`` (unordered)."""
        rows = await self._pool.fetch(
            "SELECT p.user_id, p.name, p.points, p.score, p.played, p.missed, p.dropped, "
            f"coalesce(r.mu - {ratings.Z!r} * r.sigma, 0), p.place FROM league_players p "
            "LEFT JOIN ratings r ON r.user_id = p.user_id AND r.game = $2 WHERE p.league_id = $1",
            league_id,
            game,
        )
        return [_league_player(row) for row in rows]

    async def league_tables(self, league_id: int, round_no: int | None = None) -> list[LeagueTable]:
        """A league's tables (of one round, or all), with each hosted table's status."""
        rows = await self._pool.fetch(
            "SELECT l.round, l.table_no, l.players, l.table_id, g.status FROM league_tables l "
            "LEFT JOIN game_tables g ON g.id = l.table_id WHERE l.league_id = $1 "
            "AND ($2::integer IS NULL OR l.round = $2) ORDER BY l.round, l.table_no",
            league_id,
            round_no,
        )
        return [LeagueTable(r[0], r[1], tuple(json.loads(r[2])), r[3], r[4]) for r in rows]

    async def league_of_table(self, table_id: int) -> tuple[int, int] | None:
        """(league, round) of a league's table; None for any other table."""
        row = await self._pool.fetchrow(
            "SELECT league_id, round FROM league_tables WHERE table_id = $1", table_id
        )
        return None if row is None else (int(row[0]), int(row[1]))

    async def advance_league(
        self,
        league_id: int,
        from_round: int,
        *,
        status: str,
        deadline: float | None,
        players: Sequence[LeaguePlayer],
        tables: Sequence[LeagueTable],
        now: float,
    ) -> bool:
        """Close round ``from_round`` and pair the next, in one transaction; False when it was done.

        The claim is a conditional ``UPDATE`` of ``leagues.round``: a second process closing the
        same round waits for the first to commit, re-checks the ``WHERE`` on the new row, and
        changes nothing.
        """
        next_round = from_round + 1 if tables else from_round
        async with self._pool.acquire() as conn, conn.transaction():
            won = await conn.execute(
                "UPDATE leagues SET round = $1, status = $2, deadline = $3, updated_at = $4 "
                "WHERE id = $5 AND round = $6 AND status IN ($7, $8)",
                next_round,
                status,
                deadline,
                now,
                league_id,
                from_round,
                SIGNUP,
                RUNNING,
            )
            if _count(won) != 1:
                return False
            await conn.executemany(
                "UPDATE league_players SET points = $1, score = $2, played = $3, missed = $4, place = $5, "
                "dropped = CASE WHEN dropped = $6 THEN dropped ELSE $7 END "
                "WHERE league_id = $8 AND user_id = $9",
                [
                    (
                        p.points,
                        p.score,
                        p.played,
                        p.missed,
                        p.place,
                        DROPPED_BY_ORGANISER,
                        p.dropped,
                        league_id,
                        p.user_id,
                    )
                    for p in players
                ],
            )
            await conn.executemany(
                "INSERT INTO league_tables (league_id, round, table_no, players) VALUES ($1, $2, $3, $4)",
                [(league_id, t.round, t.table_no, json.dumps(list(t.players))) for t in tables],
            )
            return True

    async def attach_league_table(self, league_id: int, round_no: int, table_no: int, table_id: int) -> bool:
        """Record the hosted table of a round's table, unless one already is (then False)."""
        status = await self._pool.execute(
            "UPDATE league_tables SET table_id = $1 WHERE league_id = $2 AND round = $3 AND table_no = $4 "
            "AND table_id IS NULL",
            table_id,
            league_id,
            round_no,
            table_no,
        )
        return _count(status) == 1

    async def set_league_dropped(self, league_id: int, user_id: int, dropped: int) -> bool:
        """Drop a player from pairing (or reinstate them: 0, their misses forgotten); False if not there."""
        status = await self._pool.execute(
            "UPDATE league_players SET dropped = $1, missed = CASE WHEN $1 = 0 THEN 0 ELSE missed END "
            "WHERE league_id = $2 AND user_id = $3",
            dropped,
            league_id,
            user_id,
        )
        return _count(status) == 1

    async def owe_league_post(self, league_id: int, not_before: float | None) -> None:
        """Record that the league owes its standings post, to be tried from ``not_before`` on
        (None: nothing is owed)."""
        await self._pool.execute("UPDATE leagues SET post_owed = $1 WHERE id = $2", not_before, league_id)

    async def claim_league_post(self, league_id: int, seen: float, until: float) -> bool:
        """Take the owed standings post seen due at ``seen`` for this process (the next try, should
        this one fail silently, at ``until``); False when another process took it or it was paid."""
        done = await self._pool.execute(
            "UPDATE leagues SET post_owed = $1 WHERE id = $2 AND post_owed = $3", until, league_id, seen
        )
        return done.endswith(" 1")

    async def due_leagues(self, now: float) -> list[int]:
        """Leagues whose round deadline has come, or whose owed standings post is due."""
        rows = await self._pool.fetch(
            "SELECT id FROM leagues WHERE deadline IS NOT NULL AND deadline <= $1 UNION "
            "SELECT id FROM leagues WHERE post_owed IS NOT NULL AND post_owed <= $1",
            now,
        )
        return [int(row[0]) for row in rows]

    async def next_league_deadline(self) -> float | None:
        """The earliest round deadline or owed post's retry of any league (None: none)."""
        row = await self._pool.fetchrow(
            "SELECT (SELECT min(deadline) FROM leagues), (SELECT min(post_owed) FROM leagues)"
        )
        times = [float(t) for t in row or () if t is not None]
        return min(times, default=None)

    async def league_results_of(self, user_id: int, *, limit: int = 10) -> list[LeagueResult]:
        """A player's results in leagues that are over, newest first."""
        rows = await self._pool.fetch(
            "SELECT l.id, l.name, l.game, l.guild_id, l.channel_id, p.place, "
            "(SELECT count(*) FROM league_players c WHERE c.league_id = l.id), p.points, l.updated_at "
            "FROM league_players p JOIN leagues l ON l.id = p.league_id "
            "WHERE p.user_id = $1 AND p.place IS NOT NULL ORDER BY p.league_id DESC LIMIT $2",
            user_id,
            limit,
        )
        return [LeagueResult(*row) for row in rows]

    # --- Live tables and rating history ---
    # (issue #38; the SQLite twins and their plans are in hosting/store.py's `LIVE_READS`.)

    async def running_tables(
        self, guild_id: int, *, now: float, stuck_only: bool = False, offset: int = 0, limit: int = 10
    ) -> tuple[int, int, list[TableRecord]]:
        """(running tables of the server, how many are stuck, one page of them or of the stuck ones
        only), newest first, in one statement (see the SQLite twin)."""
        stuck = "(owed_posts <> 0 OR (deadline < $3 AND paused_at IS NULL))"
        counts = (
            f"SELECT count(*) AS total, count(*) FILTER (WHERE {stuck}) AS stuck FROM game_tables "
            "WHERE status = $2 AND guild_id = $1"
        )
        page = f"{_SELECT_TABLE} WHERE status = $2 AND guild_id = $1"
        if stuck_only:
            page += f" AND {stuck}"
        # The counts ride on every row of the page, and on one row of NULLs when the page is empty.
        rows = await self._pool.fetch(
            f"WITH c AS ({counts}), p AS ({page} ORDER BY id DESC LIMIT $4 OFFSET $5) "
            "SELECT c.total, c.stuck, p.* FROM c LEFT JOIN p ON true ORDER BY p.id DESC",
            guild_id,
            ACTIVE,
            now - STUCK_AFTER,
            limit,
            offset,
        )
        total, stuck_count = int(rows[0]["total"]), int(rows[0]["stuck"])
        return total, stuck_count, [_record(row) for row in rows if row["id"] is not None]

    async def rating_history(self, user_id: int, *, guild_id: int | None = None) -> list[ratings.RatingPoint]:
        """A player's rating after each of their rated games (those of one server only, if given),
        by game, oldest first."""
        rows = await self._pool.fetch(
            "SELECT game, table_id, guild_id, rank, mu_before, sigma_before, mu, sigma, games, created_at "
            "FROM rating_events "
            "WHERE user_id = $1 AND ($2::bigint IS NULL OR guild_id = $2) ORDER BY game, table_id",
            user_id,
            guild_id,
        )
        return [ratings.RatingPoint(*row) for row in rows]

    async def head_to_head(
        self, user_id: int, other_id: int, *, guild_id: int | None = None
    ) -> list[ratings.HeadToHead]:
        """Per game, the finished games both players held a seat at to the end (of one server only,
        if given), and who placed higher."""
        rows = await self._pool.fetch(
            "SELECT a.game, count(*), count(*) FILTER (WHERE a.place < b.place), "
            "count(*) FILTER (WHERE a.place > b.place) FROM finished_seats a JOIN finished_seats b "
            "ON b.user_id = $2 AND b.table_id = a.table_id "
            "WHERE a.user_id = $1 AND ($3::bigint IS NULL OR a.guild_id = $3) "
            "GROUP BY a.game ORDER BY a.game",
            user_id,
            other_id,
            guild_id,
        )
        return [ratings.HeadToHead(game, n, higher, lower) for game, n, higher, lower in rows]

    async def finished_games_page(
        self, user_id: int, *, offset: int, limit: int, guild_id: int | None = None
    ) -> list[FinishedGame]:
        """`finished_games` from the ``offset``-th newest on (one server's only, if given)."""
        rows = await self._pool.fetch(
            f"SELECT {FINISHED_COLUMNS} FROM finished_seats WHERE user_id = $1 "
            "AND ($4::bigint IS NULL OR guild_id = $4) ORDER BY table_id DESC LIMIT $2 OFFSET $3",
            user_id,
            limit,
            offset,
            guild_id,
        )
        return [finished_game(tuple(row)) for row in rows]

    # --- Seasons ---
    # (issue #38; see the SQLite twins. `_record_scored` and `leave_guild_boards` call in here.)

    @staticmethod
    async def _season_settings_in(
        conn: asyncpg.Connection | asyncpg.Pool, guild_id: int
    ) -> seasons.SeasonSettings:
        row = await conn.fetchrow(
            "SELECT season_length, season_number FROM guild_settings WHERE guild_id = $1", guild_id
        )
        return seasons.SeasonSettings(row[0], row[1]) if row else seasons.SeasonSettings()

    @staticmethod
    async def _record_season(
        conn: asyncpg.Connection, scored: ScoredGame, alltime_before: dict[int, Rating], now: float
    ) -> None:
        """Inside the finishing transaction (under the game's board lock): the season ratings."""
        if scored.guild_id is None:
            return
        season = seasons.key(await PostgresStore._season_settings_in(conn, scored.guild_id), now)
        if season is None:
            return
        rows = await conn.fetch(
            "SELECT user_id, game, mu, sigma, games FROM season_ratings WHERE guild_id = $1 AND season = $2 "
            "AND game = $3 AND user_id = ANY($4::bigint[])",
            scored.guild_id,
            season,
            scored.game,
            [s.user_id for s in scored.seats],
        )
        changes = seasons.changes(scored, {row[0]: Rating(*row) for row in rows}, alltime_before)
        await conn.executemany(
            "INSERT INTO season_ratings (guild_id, season, game, user_id, mu, sigma, games, ordinal) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (guild_id, season, game, user_id) "
            "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
            "ordinal = excluded.ordinal",
            [season_row(scored.guild_id, season, c) for c in changes],
        )
        await conn.execute(
            "INSERT INTO guild_seasons (guild_id, season, started_at) VALUES ($1, $2, $3) "
            "ON CONFLICT (guild_id, season) DO NOTHING",
            scored.guild_id,
            season,
            now,
        )
        await conn.executemany(
            "INSERT INTO season_events (table_id, user_id, guild_id, season, game, mu_before, sigma_before, "
            "games_before) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            [season_event_row(scored.guild_id, season, c) for c in changes],
        )

    @staticmethod
    async def _void_season(conn: asyncpg.Connection, table_id: int) -> None:
        """Inside `void_ratings`: the game's players' season ratings as before it (see the SQLite twin)."""
        rows = await conn.fetch(
            "DELETE FROM season_events WHERE table_id = $1 "
            "RETURNING user_id, guild_id, season, game, mu_before, sigma_before, games_before",
            table_id,
        )
        for user, guild, season, game, mu, sigma, games in rows:
            if games == 0:
                await conn.execute(
                    "DELETE FROM season_ratings WHERE guild_id = $1 AND season = $2 AND game = $3 "
                    "AND user_id = $4",
                    guild,
                    season,
                    game,
                    user,
                )
            else:
                await conn.execute(
                    "UPDATE season_ratings SET mu = $5, sigma = $6, games = $7, ordinal = $8 "
                    "WHERE guild_id = $1 AND season = $2 AND game = $3 AND user_id = $4",
                    guild,
                    season,
                    game,
                    user,
                    mu,
                    sigma,
                    games,
                    mu - ratings.Z * sigma,
                )

    async def season_settings(self, guild_id: int) -> seasons.SeasonSettings:
        """A server's season length and manual season number."""
        return await self._season_settings_in(self._pool, guild_id)

    async def set_season(
        self, guild_id: int, length: str | None, *, new: bool = False
    ) -> seasons.SeasonSettings:
        """Set a server's season length (None: no seasons); ``new`` starts the next manual season."""
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO guild_settings (guild_id) VALUES ($1) ON CONFLICT (guild_id) DO NOTHING",
                guild_id,
            )
            row = await conn.fetchrow(
                "SELECT season_length, season_number FROM guild_settings WHERE guild_id = $1 FOR UPDATE",
                guild_id,
            )
            number = row[1] + (length == "manual" and (new or row[0] != "manual"))
            await conn.execute(
                "UPDATE guild_settings SET season_length = $2, season_number = $3 WHERE guild_id = $1",
                guild_id,
                length,
                number,
            )
        return seasons.SeasonSettings(length, number)

    async def seasons(self, guild_id: int) -> list[str]:
        """The seasons a server has had rated games in, oldest first."""
        rows = await self._pool.fetch(
            "SELECT season FROM guild_seasons WHERE guild_id = $1 ORDER BY started_at, season", guild_id
        )
        return [row[0] for row in rows]

    async def season_board(
        self, guild_id: int, season: str, game: str, *, min_games: int = 1, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[Standing]]:
        """(players on a season board, one page of it), best season rating (μ − 3σ) first."""
        rows = await self._pool.fetch(
            "WITH c AS (SELECT count(*) AS total FROM season_ratings WHERE guild_id = $1 AND season = $2 "
            "AND game = $3 AND games >= $4), p AS (SELECT user_id, game, mu, sigma, games, ordinal "
            "FROM season_ratings WHERE guild_id = $1 AND season = $2 AND game = $3 AND games >= $4 "
            "ORDER BY ordinal DESC, user_id LIMIT $5 OFFSET $6) "
            "SELECT c.total, p.user_id, p.game, p.mu, p.sigma, p.games FROM c LEFT JOIN p ON true "
            "ORDER BY p.ordinal DESC, p.user_id",
            guild_id,
            season,
            game,
            min_games,
            limit,
            offset,
        )
        found = [row for row in rows if row["user_id"] is not None]
        return int(rows[0]["total"]), [
            Standing(offset + i + 1, row[1], Rating(*tuple(row)[1:])) for i, row in enumerate(found)
        ]

    async def season_standing(
        self, guild_id: int, season: str, game: str, user_id: int, *, min_games: int = 1
    ) -> Standing | None:
        """A player's place on a season board; None when they are not on it."""
        row = await self._pool.fetchrow(
            "SELECT m.user_id, m.game, m.mu, m.sigma, m.games, (SELECT count(*) FROM season_ratings s "
            "WHERE s.guild_id = $1 AND s.season = $2 AND s.game = $3 AND s.games >= $4 "
            "AND (s.ordinal > m.ordinal OR (s.ordinal = m.ordinal AND s.user_id < m.user_id))) AS ahead "
            "FROM season_ratings m WHERE m.guild_id = $1 AND m.season = $2 AND m.game = $3 "
            "AND m.user_id = $5 AND m.games >= $4",
            guild_id,
            season,
            game,
            min_games,
            user_id,
        )
        if row is None:
            return None
        return Standing(row["ahead"] + 1, user_id, Rating(*tuple(row)[:5]))


def _league(row: Sequence[Any]) -> LeagueRecord:
    return LeagueRecord(*row)


def _league_player(row: Sequence[Any]) -> LeaguePlayer:
    return LeaguePlayer(row[0], row[1], row[2], row[3], row[4], row[5], row[6], float(row[7]), row[8])
