"""The store: the only code that speaks SQL.

SQLite in WAL mode, on one connection owned by one worker thread (see `Store`).
A table (one hosted game) has a row in ``game_tables``, its seats in ``seats``
and its accepted actions in the append-only ``actions`` log. Every change to a
table bumps its ``version`` in the same transaction, and a write that names a
stale version is refused, so two racing clicks can never both apply. Every read
the bot makes is one of `READS`, each answered from an index (issue #17).

The records it returns are `hosting.records`; the conversions it shares with the
PostgreSQL store are `hosting.rows`; its schema is the SQLite half of
`hosting.migrations`.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import aiosqlite

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
from hosting.private import private_database
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

T = TypeVar("T")

_TABLE_COLUMNS = (
    "id, game, guild_id, channel_id, thread_id, host_id, status, options, seed, version, moves, "
    "state, result, lobby_message_id, board_message_id, created_at, updated_at, "
    "pace, deadline, reminders, paused_at, wake_at, owed_posts"
)

# ------------------------------------------------------------------ every read, in one place
#
# Every SELECT the SQLite store runs is here, by name, and runs through `_fetch`, which takes
# nothing else: tests/hosting/test_store_plans.py asks SQLite's planner about each of them (none may scan
# a table that grows with the tables) and traces a whole game to check that no other SELECT ran.

_SEAT_COLUMNS = "seat, name, kind, user_id, policy, moves, timeouts, former"

#: A player's tables (?1 the player; ?2: a JSON list of statuses; ?3: a server or NULL). The host's
#: and the seated player's tables each come from an index; OR-ing them in one WHERE would scan.
_OF_USER = (
    "id IN (SELECT id FROM game_tables WHERE host_id = ?1 AND status IN (SELECT value FROM json_each(?2)) "
    "UNION SELECT table_id FROM seats WHERE user_id = ?1 AND kind = 'human' AND (?4 IS NULL OR open = ?4)) "
    "AND status IN (SELECT value FROM json_each(?2)) AND (?3 IS NULL OR guild_id = ?3) ORDER BY id DESC"
)
#: `_TABLE_COLUMNS` with NULL for the snapshot, where it is known or not wanted.
_WITHOUT_STATE = _TABLE_COLUMNS.replace("state,", "NULL,")

READS: dict[str, str] = {
    "table": f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE id = ?1",
    "table_exists": "SELECT 1 FROM game_tables WHERE id = ?1",
    # After a move: the snapshot just written is known, so it is not read back and parsed again.
    "table_moved": f"SELECT {_WITHOUT_STATE} FROM game_tables WHERE id = ?1",
    # The seats of several tables at once (?1: a JSON list of table ids).
    "seats": f"SELECT table_id, {_SEAT_COLUMNS} FROM seats "
    "WHERE table_id IN (SELECT value FROM json_each(?1)) ORDER BY table_id, seat",
    # A player's tables (?2: a JSON list of statuses; ?3: a server or NULL). The host's and the
    # seated player's tables each come from an index; OR-ing them in one WHERE would scan.
    "user_tables": f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE {_OF_USER}",
    # A player's newest finished games (?2 of them) where they held a seat to the end: their seats
    # walked newest first in the index, each table looked up until enough are found.
    "user_finished": f"SELECT {FINISHED_COLUMNS} FROM finished_seats WHERE user_id = ?1 "
    "ORDER BY table_id DESC LIMIT ?2",
    "table_ids": "SELECT id FROM game_tables WHERE status = ?1 ORDER BY id",
    "table_ids_with_bots": "SELECT id FROM game_tables g WHERE status = ?1 AND EXISTS "
    "(SELECT 1 FROM seats s WHERE s.table_id = g.id AND s.kind = 'bot') ORDER BY id",
    # The newest table of a thread, or of a channel where it has no thread: two index seeks.
    "table_in_channel": f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE id = (SELECT max(id) FROM ("
    "SELECT max(id) AS id FROM game_tables WHERE thread_id = ?1 UNION ALL "
    "SELECT max(id) FROM game_tables WHERE channel_id = ?1 AND thread_id IS NULL))",
    # The status is checked inside each branch: outside, the planner walks every open table.
    "open_tables_in": f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE id IN ("
    "SELECT id FROM game_tables WHERE thread_id = ?1 AND status IN (?2, ?3) UNION "
    "SELECT id FROM game_tables WHERE channel_id = ?1 AND status IN (?2, ?3)) ORDER BY id DESC",
    # The open tables playing in this very thread or channel (not in a thread of it): what every
    # `/game` command asks. Two seeks of exactly those rows (game_tables_channel_open ends in thread_id).
    "open_tables_here": f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE id IN ("
    "SELECT id FROM game_tables WHERE thread_id = ?1 AND status IN (?2, ?3) UNION "
    "SELECT id FROM game_tables WHERE channel_id = ?1 AND status IN (?2, ?3) AND thread_id IS NULL) "
    "ORDER BY id DESC",
    # The servers with an open table (READY checks the bot is still in each): the status index only.
    "open_guild_ids": "SELECT DISTINCT guild_id FROM game_tables "
    "WHERE status IN (?1, ?2) AND guild_id IS NOT NULL ORDER BY guild_id",
    "open_tables_in_guild": f"SELECT {_TABLE_COLUMNS} FROM game_tables "
    "WHERE status IN (?2, ?3) AND guild_id = ?1 ORDER BY id DESC",
    "actions": "SELECT seq, seat, action, created_at FROM actions "
    "WHERE table_id = ?1 AND seq > ?2 ORDER BY seq",
    "ratings_of": "SELECT user_id, game, mu, sigma, games FROM ratings WHERE user_id = ?1 ORDER BY game",
    "ratings_in": "SELECT user_id, game, mu, sigma, games FROM ratings "
    "WHERE game = ?1 AND user_id IN (SELECT value FROM json_each(?2))",
    "rating_changes": f"SELECT {CHANGE_COLUMNS} FROM rating_events WHERE table_id = ?1 ORDER BY seat",
    "player_stats": "SELECT game, played, wins, score_total FROM player_stats "
    "WHERE user_id = ?1 ORDER BY game",
    # Rating boards (?1 game, ?2 min games; server boards ?3 the server): pages walk the index.
    "board_count": "SELECT coalesce(sum(players), 0) FROM board_sizes "
    "WHERE board = 'rating' AND game = ?1 AND scope = 0 AND games >= ?2",
    "board_page": "SELECT user_id, game, mu, sigma, games FROM ratings WHERE game = ?1 AND games >= ?2 "
    "ORDER BY ordinal DESC, user_id LIMIT ?3 OFFSET ?4",
    "board_mine": "SELECT user_id, game, mu, sigma, games, ordinal FROM ratings "
    "WHERE game = ?1 AND games >= ?2 AND user_id = ?3",
    # A place on a board (?3 the ordinal, ?4 the player, ?5 its step, ?6 the next step's lowest
    # ordinal): the players of the steps above, then those above in the same step, by index.
    "board_ahead": "SELECT (SELECT coalesce(sum(players), 0) FROM board_steps WHERE board = 'rating' "
    "AND game = ?1 AND scope = 0 AND step > ?5 AND games >= ?2) + (SELECT count(*) FROM ratings "
    "WHERE game = ?1 AND ordinal >= ?3 AND ordinal < ?6 AND (ordinal > ?3 OR user_id < ?4) AND games >= ?2)",
    "guild_board_count": "SELECT coalesce(sum(players), 0) FROM board_sizes "
    "WHERE board = 'rating' AND game = ?1 AND scope = ?3 AND games >= ?2",
    "guild_board_page": "SELECT r.user_id, r.game, r.mu, r.sigma, r.games, g.games FROM guild_ratings g "
    "JOIN ratings r ON r.user_id = g.user_id AND r.game = g.game "
    "WHERE g.game = ?1 AND g.guild_id = ?3 AND g.games >= ?2 "
    "ORDER BY g.ordinal DESC, g.user_id LIMIT ?4 OFFSET ?5",
    "guild_board_mine": "SELECT r.user_id, r.game, r.mu, r.sigma, r.games, g.games, g.ordinal "
    "FROM guild_ratings g "
    "JOIN ratings r ON r.user_id = g.user_id AND r.game = g.game "
    "WHERE g.game = ?1 AND g.guild_id = ?3 AND g.games >= ?2 AND g.user_id = ?4",
    "guild_board_ahead": "SELECT (SELECT coalesce(sum(players), 0) FROM board_steps WHERE board = 'rating' "
    "AND game = ?1 AND scope = ?3 AND step > ?6 AND games >= ?2) + (SELECT count(*) FROM guild_ratings "
    "WHERE game = ?1 AND guild_id = ?3 AND ordinal >= ?4 AND ordinal < ?7 AND (ordinal > ?4 OR user_id < ?5) "
    "AND games >= ?2)",
    # Solo boards (?2: the server, or 0 across servers).
    "solo_count": "SELECT coalesce(sum(players), 0) FROM board_sizes "
    "WHERE board = 'solo' AND game = ?1 AND scope = ?2",
    "solo_page": "SELECT user_id, best, table_id FROM solo_best WHERE game = ?1 AND scope = ?2 "
    "ORDER BY best DESC, user_id LIMIT ?3 OFFSET ?4",
    "solo_mine": "SELECT user_id, best, table_id FROM solo_best "
    "WHERE game = ?1 AND scope = ?2 AND user_id = ?3",
    "solo_ahead": "SELECT (SELECT coalesce(sum(players), 0) FROM board_steps WHERE board = 'solo' "
    "AND game = ?1 AND scope = ?2 AND step > ?3) "
    "+ (SELECT count(*) FROM solo_best WHERE game = ?1 AND scope = ?2 AND best = ?3 AND user_id < ?4)",
    "due_tables": "SELECT id FROM game_tables WHERE wake_at IS NOT NULL AND wake_at <= ?1 "
    "ORDER BY wake_at LIMIT ?2",
    "next_wake": "SELECT min(wake_at) FROM game_tables WHERE wake_at IS NOT NULL",
    "dm_reminders": "SELECT dm_reminders FROM players WHERE user_id = ?1",
    "player_language": "SELECT language, seen_locale FROM players WHERE user_id = ?1",
    "guild_language": "SELECT language FROM guild_settings WHERE guild_id = ?1",
    # Issue #35. A finished table's rematch lobby, and the finished table a lobby is the rematch of.
    "rematch": "SELECT lobby_id, pinged FROM rematches WHERE table_id = ?1",
    "rematch_of": "SELECT table_id, created_at FROM rematches WHERE lobby_id = ?1",
    # A host's lobbies closed unstarted since ?3 (?2: the cancelled status), by game_tables_host_closed.
    "host_closed_lobbies": "SELECT updated_at FROM game_tables WHERE host_id = ?1 AND status = ?2 "
    "AND updated_at >= ?3 AND seed IS NULL ORDER BY updated_at",
    # Someone else's history and stats, in one server only (?3): their lines walked newest first.
    "user_finished_in": f"SELECT {FINISHED_COLUMNS} FROM finished_seats WHERE user_id = ?1 "
    "AND guild_id = ?3 ORDER BY table_id DESC LIMIT ?2",
    "player_stats_in": "SELECT game, count(*), sum(won), sum(score) FROM finished_seats "
    "WHERE user_id = ?1 AND guild_id = ?2 GROUP BY game ORDER BY game",
    # A game voided from the ratings.
    "voided": "SELECT voided_by, created_at FROM voided_games WHERE table_id = ?1",
}


def _fetch(conn: sqlite3.Connection, name: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Rows of the read ``name`` of `READS` (the only way the store runs a SELECT)."""
    return conn.execute(READS[name], params).fetchall()


def _one(conn: sqlite3.Connection, name: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
    rows = _fetch(conn, name, params)
    return rows[0] if rows else None


def _records(conn: sqlite3.Connection, rows: Sequence[Sequence[Any]]) -> list[TableRecord]:
    """Table records for ``rows`` of `_TABLE_COLUMNS`, their seats read in one query."""
    if not rows:
        return []
    seats: dict[int, list[Seat]] = {}
    for table_id, *columns in _fetch(conn, "seats", (json.dumps([row[0] for row in rows]),)):
        seats.setdefault(table_id, []).append(seat_from_row(columns))
    return [_table_record(row, tuple(seats.get(row[0], ()))) for row in rows]


def _table_record(row: Sequence[Any], seats: tuple[Seat, ...]) -> TableRecord:
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
        state=from_json(row[11]),
        result=from_json(row[12]),
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


def _get(conn: sqlite3.Connection, table_id: int) -> TableRecord:
    row = _one(conn, "table", (table_id,))
    if row is None:
        raise TableNotFound()
    return _records(conn, [row])[0]


def _transaction(conn: sqlite3.Connection, body: Callable[..., T], *args: Any) -> T:
    """Run ``body(conn, *args)`` in one write transaction, rolled back on any error."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = body(conn, *args)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return result


def _bump(
    conn: sqlite3.Connection,
    table_id: int,
    expected_version: int,
    now: float,
    columns: dict[str, Any],
    *,
    next_move: bool = False,
) -> int:
    """Bump the version if it is still ``expected_version`` and set ``columns``; the moves after.

    ``next_move`` also counts one more move: the new move number comes from the
    same conditional UPDATE that checks the version (RETURNING, SQLite 3.35).
    """
    sets = ", moves = moves + 1" if next_move else ""
    sets += "".join(f", {name} = ?" for name in columns)
    row = conn.execute(
        f"UPDATE game_tables SET version = version + 1, updated_at = ?{sets} "
        "WHERE id = ? AND version = ? RETURNING moves",
        (now, *columns.values(), table_id, expected_version),
    ).fetchone()
    if row is None:
        if _one(conn, "table_exists", (table_id,)) is None:
            raise TableNotFound()
        raise StaleVersion()
    return row[0]


def _write_seats(conn: sqlite3.Connection, table_id: int, seats: Sequence[Seat]) -> None:
    conn.execute("DELETE FROM seats WHERE table_id = ?", (table_id,))
    conn.executemany(
        "INSERT INTO seats (table_id, seat, name, kind, user_id, policy, moves, timeouts, former) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [seat_row(table_id, s) for s in seats],
    )


def _create(conn: sqlite3.Connection, values: tuple[Any, ...], host: Seat) -> TableRecord:
    table_id = conn.execute(
        "INSERT INTO game_tables (game, guild_id, channel_id, host_id, status, options, "
        "created_at, updated_at, pace, wake_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        values,
    ).lastrowid
    _write_seats(conn, table_id, [host])
    return _get(conn, table_id)


def _update(
    conn: sqlite3.Connection,
    table_id: int,
    expected_version: int,
    now: float,
    columns: dict[str, Any],
    seats: Sequence[Seat] | None,
) -> TableRecord:
    _bump(conn, table_id, expected_version, now, columns)
    if seats is not None:
        _write_seats(conn, table_id, seats)
    return _get(conn, table_id)


def _append(
    conn: sqlite3.Connection,
    table_id: int,
    expected_version: int,
    move: tuple[int, str, float, bool, dict[str, Any]],
    columns: dict[str, Any],
    result: dict[str, Any] | None,
    scored: ScoredGame | None,
) -> TableRecord:
    """The accepted move's transaction body; the table as it is after the move."""
    seat, action, now, reset_timeouts, state = move
    seq = _bump(conn, table_id, expected_version, now, columns, next_move=True)
    conn.execute(
        "INSERT INTO actions (table_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
        (table_id, seq, seat, action, now),
    )
    conn.execute(
        "UPDATE seats SET moves = moves + 1"
        + (", timeouts = 0" if reset_timeouts else "")
        + " WHERE table_id = ? AND seat = ?",
        (table_id, seat),
    )
    # The row as written, read on this thread in this transaction (no extra round trip); the
    # snapshot is the caller's own, not a parse of the text just stored.
    (table,) = _records(conn, _fetch(conn, "table_moved", (table_id,)))
    table = replace(table, state=state)
    if result:
        _record_finished(conn, table, result)
    if scored is not None:
        _record_scored(conn, scored, now)
    return table


def _record_finished(conn: sqlite3.Connection, table: TableRecord, result: dict[str, Any]) -> None:
    """Inside the finishing transaction: every seated person's game count, wins and score total,
    and their history line."""
    conn.executemany(
        "INSERT INTO player_stats (user_id, game, played, wins, score_total) VALUES (?, ?, 1, ?, ?) "
        "ON CONFLICT (user_id, game) DO UPDATE SET played = played + 1, wins = wins + excluded.wins, "
        "score_total = score_total + excluded.score_total",
        [(user, table.game, won, score) for user, won, score in stat_rows(table.seats, result)],
    )
    conn.executemany(
        f"INSERT INTO finished_seats (user_id, {FINISHED_COLUMNS}) VALUES ({', '.join('?' * 12)})",
        finished_rows(table, result),
    )


def _record_scored(conn: sqlite3.Connection, scored: ScoredGame, now: float) -> None:
    """Inside the finishing transaction: the solo score and best, or every player's new rating."""
    if scored.solo:
        conn.execute(
            "INSERT INTO solo_scores (table_id, user_id, game, guild_id, score, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            solo_row(scored, now),
        )
        sizes = []
        for game, scope, user, best, table_id in solo_best_rows(scored):
            added = conn.execute(
                "INSERT INTO solo_best (game, scope, user_id, best, table_id) VALUES (?1, ?2, ?3, ?4, ?5) "
                "ON CONFLICT (game, scope, user_id) DO NOTHING",
                (game, scope, user, best, table_id),
            ).rowcount
            if added:
                sizes.append(("solo", game, scope, 0, 1))  # a new player on this solo board
            else:
                conn.execute(
                    "UPDATE solo_best SET best = ?4, table_id = ?5 WHERE game = ?1 AND scope = ?2 "
                    "AND user_id = ?3 AND (?4 > best OR (?4 = best AND ?5 < table_id))",
                    (game, scope, user, best, table_id),
                )
        _resize(conn, sizes)
        return
    users = json.dumps([s.user_id for s in scored.seats])
    current = {row[0]: Rating(*row) for row in _fetch(conn, "ratings_in", (scored.game, users))}
    changes = ratings.update(scored, current)
    conn.executemany(
        "INSERT INTO ratings (user_id, game, mu, sigma, games, ordinal) VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (user_id, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
        "games = excluded.games, ordinal = excluded.ordinal",
        [rating_row(c) for c in changes],
    )
    conn.executemany(
        f"INSERT INTO rating_events ({CHANGE_COLUMNS}, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [change_row(c, now) for c in changes],
    )
    _record_guild_ratings(conn, scored, changes)
    _record_season(conn, scored, current, now)


def _record_guild_ratings(
    conn: sqlite3.Connection, scored: ScoredGame, changes: Sequence[RatingChange]
) -> None:
    """One more rated game in this server, and the players' new ordinal on every server board."""
    rows = [(c.user_id, c.game, ordinal_of(c)) for c in changes]
    conn.executemany("UPDATE guild_ratings SET ordinal = ?3 WHERE user_id = ?1 AND game = ?2", rows)
    sizes = [delta for c in changes for delta in moved_up(c.game, 0, c.games)]
    if scored.guild_id is not None:
        for row in rows:
            (games,) = conn.execute(
                "INSERT INTO guild_ratings (game, guild_id, user_id, games, ordinal) "
                "VALUES (?2, ?4, ?1, 1, ?3) "
                "ON CONFLICT (game, guild_id, user_id) DO UPDATE SET games = games + 1 RETURNING games",
                (*row, scored.guild_id),
            ).fetchone()
            sizes.extend(moved_up(scored.game, scored.guild_id, games))
    _resize(conn, sizes)


def _resize(conn: sqlite3.Connection, sizes: Sequence[tuple[Any, ...]]) -> None:
    """Apply `board_sizes` changes: (board, game, scope, games, +1 or -1)."""
    conn.executemany(
        "INSERT INTO board_sizes (board, game, scope, games, players) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (board, game, scope, games) DO UPDATE SET players = players + excluded.players",
        sizes,
    )


def _claim_rematch(conn: sqlite3.Connection, table_id: int, lobby_id: int, now: float) -> int:
    """`Store.claim_rematch`'s transaction: record ``lobby_id`` unless a rematch lobby is still open."""
    conn.execute(
        "INSERT INTO rematches (table_id, lobby_id, created_at) VALUES (?1, ?2, ?3) "
        "ON CONFLICT (table_id) DO UPDATE SET lobby_id = excluded.lobby_id, created_at = excluded.created_at "
        "WHERE (SELECT status FROM game_tables WHERE id = rematches.lobby_id) IS NOT ?4",
        (table_id, lobby_id, now, LOBBY),
    )
    row = _one(conn, "rematch", (table_id,))
    assert row is not None
    return int(row[0])


def _leave_boards(conn: sqlite3.Connection, guild_id: int, user_id: int, games: Sequence[str]) -> list[str]:
    """`Store.leave_guild_boards`'s transaction: the player's rows on this server's boards, deleted."""
    gone, sizes = [], []
    for game in games:
        row = conn.execute(
            "DELETE FROM guild_ratings WHERE game = ? AND guild_id = ? AND user_id = ? RETURNING games",
            (game, guild_id, user_id),
        ).fetchone()
        if row is not None:
            sizes.append(("rating", game, guild_id, row[0], -1))
        solo = conn.execute(
            "DELETE FROM solo_best WHERE game = ? AND scope = ? AND user_id = ? RETURNING best",
            (game, guild_id, user_id),
        ).fetchone()
        if solo is not None:
            sizes.append(("solo", game, guild_id, 0, -1))
        if row is not None or solo is not None:
            gone.append(game)
    _leave_seasons(conn, guild_id, user_id, games)
    _resize(conn, sizes)
    return gone


def _void(conn: sqlite3.Connection, table_id: int, by: int, now: float) -> list[int]:
    """`Store.void_ratings`'s transaction; the players who played a rated game of it since (then
    nothing changed), or [] when the game's rating changes were undone."""
    changes = [RatingChange(*row) for row in _fetch(conn, "rating_changes", (table_id,))]
    if not changes:
        return []
    users = json.dumps([c.user_id for c in changes])
    current = {row[0]: Rating(*row) for row in _fetch(conn, "ratings_in", (changes[0].game, users))}
    later = [c.user_id for c in changes if current[c.user_id].games != c.games]
    if later:
        return later
    sizes = []
    for c in changes:
        ordinal = c.mu_before - ratings.Z * c.sigma_before
        if c.games == 1:  # their only rated game: no rating at all
            conn.execute("DELETE FROM ratings WHERE user_id = ? AND game = ?", (c.user_id, c.game))
        else:
            conn.execute(
                "UPDATE ratings SET mu = ?, sigma = ?, games = games - 1, ordinal = ? "
                "WHERE user_id = ? AND game = ?",
                (c.mu_before, c.sigma_before, ordinal, c.user_id, c.game),
            )
        conn.execute(
            "UPDATE guild_ratings SET ordinal = ?3 WHERE user_id = ?1 AND game = ?2",
            (c.user_id, c.game, ordinal),
        )
        sizes.extend(moved_down(c.game, 0, c.games))
        if c.guild_id is not None:
            (here,) = conn.execute(
                "UPDATE guild_ratings SET games = games - 1 WHERE game = ? AND guild_id = ? AND user_id = ? "
                "RETURNING games",
                (c.game, c.guild_id, c.user_id),
            ).fetchone() or (None,)
            if here is not None:
                sizes.extend(moved_down(c.game, c.guild_id, here + 1))
                if here == 0:
                    conn.execute(
                        "DELETE FROM guild_ratings WHERE game = ? AND guild_id = ? AND user_id = ?",
                        (c.game, c.guild_id, c.user_id),
                    )
    conn.execute("DELETE FROM rating_events WHERE table_id = ?", (table_id,))
    _void_season(conn, table_id)
    conn.execute(
        "INSERT INTO voided_games (table_id, voided_by, created_at) VALUES (?, ?, ?)", (table_id, by, now)
    )
    _resize(conn, sizes)
    return []


def _execute_one(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> int:
    """One write statement in its own transaction (autocommit); the rows it changed."""
    return conn.execute(sql, params).rowcount


def _board_names(guild_id: int | None) -> str:
    return "board" if guild_id is None else "guild_board"


class Store:
    """Tables, seats and the action log in one SQLite file.

    One aiosqlite connection, whose own thread owns the `sqlite3` connection.
    Each public method is one call to that thread (`_call`): a whole transaction,
    or a read with everything it needs, runs there as one synchronous function,
    so a move costs one hop between the event loop and the database instead of
    one per statement and cursor (it was 13). aiosqlite queues such a function
    with `Connection._execute`, which its own public methods are built on but
    which it does not document (it has no public way to run a function on its
    thread); `_call` is the one place that uses it and `Connection._conn`.
    pyproject.toml pins aiosqlite to the releases tests/hosting/test_aiosqlite_private.py
    checks still have both, with the behaviour relied on.

    Because the thread runs one call at a time, transactions cannot interleave
    and need no lock of their own.

    Short reads (`_read`: one table, a player's rows, one page of a board, all
    by index) run on a second, read-only connection on the event loop's own
    thread instead, where the file allows (WAL lets it read while the thread
    writes). Their SQL takes a few hundredths of a millisecond; the hop to the
    thread and back took up to ten times that on a busy machine, waiting for the
    thread, the GIL and then the loop. Whole action logs and lists of every
    table stay on the thread.
    """

    def __init__(self, db: aiosqlite.Connection, checkpointer: _Checkpointer | None = None) -> None:
        self._db = db
        self._checkpointer = checkpointer
        self._reader: sqlite3.Connection | None = None  # `_read`'s connection; `open` makes it
        self._closed = False
        #: Seconds spent in database calls and how many, for the metrics (`hosting.metrics`).
        self.db_seconds = 0.0
        self.db_calls = 0

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """Open (creating if needed) the database and bring its schema up to date.

        Raises `SchemaTooNew` when the file was written by a newer bot.
        """
        private_database(path)  # its folder 0700 and its files 0600, whatever the umask (issue #35)
        in_file = str(path) != ":memory:"
        db = await aiosqlite.connect(str(path), isolation_level=None)  # autocommit; transactions are explicit
        store = cls(db, _Checkpointer(str(path)) if in_file else None)
        try:
            await store._call(_configure, in_file)
            await store._call(_migrate)
            if in_file:
                store._reader = _open_reader(str(path))
        except BaseException:
            await store.close()
            raise
        return store

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(connection, *args)`` on the database thread: one round trip."""
        began = time.perf_counter()
        try:
            # aiosqlite's private names, on purpose: its public methods cost a hop per statement,
            # and it has no public "run this function on your thread" (see the class docstring).
            return await self._db._execute(fn, self._db._conn, *args)
        finally:
            self.db_seconds += time.perf_counter() - began
            self.db_calls += 1

    async def _read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run the short read ``fn(connection, *args)`` on the loop's read-only connection
        (the database thread's, for an in-memory database, which has no second connection)."""
        if self._reader is None:
            return await self._call(fn, *args)
        began = time.perf_counter()
        try:
            return fn(self._reader, *args)
        finally:
            self.db_seconds += time.perf_counter() - began
            self.db_calls += 1

    async def close(self) -> None:
        """Close the connections (checkpointing the WAL) and stop their threads; again is a no-op."""
        if self._closed:
            return
        self._closed = True
        if self._reader is not None:
            self._reader.close()
        if self._checkpointer is not None:
            await asyncio.to_thread(self._checkpointer.stop)
        await self._db.close()

    async def schema_version(self) -> int:
        """The schema version stored in the file (SQLite's user_version)."""
        return await self._call(_user_version)

    # ------------------------------------------------------------------ reads

    async def get_table(self, table_id: int) -> TableRecord:
        """The table with that id; `TableNotFound` when there is none."""
        return await self._read(_get, table_id)

    async def _tables(self, name: str, *params: Any) -> list[TableRecord]:
        """The tables the read ``name`` finds, with their seats, in one call (`_read`)."""

        def run(conn: sqlite3.Connection) -> list[TableRecord]:
            return _records(conn, _fetch(conn, name, params))

        return await self._read(run)

    async def tables_of_user(
        self,
        user_id: int,
        *,
        statuses: Iterable[str] = OPEN_STATUSES,
        guild_id: int | None = None,
    ) -> list[TableRecord]:
        """Tables where the user holds a seat or is the host, newest first."""
        wanted = set(statuses)
        # Only open tables, or only closed ones: the seats say which without reading the tables.
        open_ = 1 if wanted <= set(OPEN_STATUSES) else 0 if not wanted & set(OPEN_STATUSES) else None
        return await self._tables("user_tables", user_id, json.dumps(sorted(wanted)), guild_id, open_)

    async def finished_games(self, user_id: int, *, limit: int) -> list[FinishedGame]:
        """The newest ``limit`` finished tables where the user held a seat to the end (the games
        `player_stats` counts for them), newest first, as history lines."""
        return [finished_game(row) for row in await self._read(_fetch, "user_finished", (user_id, limit))]

    async def table_ids(self, status: str, *, with_bots: bool = False) -> list[int]:
        """Ids of every table with this status (only those with a bot seat if ``with_bots``), oldest first."""
        rows = await self._call(_fetch, "table_ids_with_bots" if with_bots else "table_ids", (status,))
        return [row[0] for row in rows]

    async def table_in_channel(self, channel_id: int) -> TableRecord | None:
        """The newest table whose thread (or channel, where it has no thread) is this channel."""
        found = await self._tables("table_in_channel", channel_id)
        return found[0] if found else None

    async def open_tables_in(self, channel_id: int) -> list[TableRecord]:
        """Open tables (lobby or running) in this thread or channel, or in a thread of it, newest first."""
        return await self._tables("open_tables_in", channel_id, *OPEN_STATUSES)

    async def open_tables_here(self, channel_id: int) -> list[TableRecord]:
        """Open tables playing in this thread, or in this channel without a thread of theirs, newest first."""
        return await self._tables("open_tables_here", channel_id, *OPEN_STATUSES)

    async def open_tables_in_guild(self, guild_id: int) -> list[TableRecord]:
        """Open tables (lobby or running) of one server, newest first."""
        return await self._tables("open_tables_in_guild", guild_id, *OPEN_STATUSES)

    async def open_guild_ids(self) -> list[int]:
        """The servers that have an open table (lobby or running)."""
        return [row[0] for row in await self._call(_fetch, "open_guild_ids", OPEN_STATUSES)]

    async def actions(self, table_id: int, after: int = 0) -> list[LoggedAction]:
        """A table's action log, in order: the whole of it, or only the entries after seq ``after``."""
        rows = await self._call(_fetch, "actions", (table_id, after))
        return [LoggedAction(seq, seat, json.loads(action), at) for seq, seat, action, at in rows]

    async def ratings_of(self, user_id: int) -> list[Rating]:
        """A player's rating in every game they have a rated game of, by game."""
        return [Rating(*row) for row in await self._read(_fetch, "ratings_of", (user_id,))]

    async def rating_changes(self, table_id: int) -> list[RatingChange]:
        """What a finished table did to its players' ratings, by seat (empty when it was not rated)."""
        return [RatingChange(*row) for row in await self._read(_fetch, "rating_changes", (table_id,))]

    async def player_stats(self, user_id: int) -> list[PlayerStats]:
        """A player's finished games per game (kept by the finishing moves), by game."""
        return [PlayerStats(*row) for row in await self._read(_fetch, "player_stats", (user_id,))]

    async def leaderboard(
        self, game: str, *, guild_id: int | None = None, min_games: int = 1, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[Standing]]:
        """(how many players are on the board, one page of it), best rating (μ − 3σ) first.

        ``guild_id`` None is the board across all servers; a server's board has the
        players with ``min_games`` rated games there.
        """
        board = _board_names(guild_id)
        scope = (game, min_games) if guild_id is None else (game, min_games, guild_id)

        def run(conn: sqlite3.Connection) -> tuple[int, list[tuple[Any, ...]]]:
            total = _fetch(conn, f"{board}_count", scope)[0][0]
            return total, _fetch(conn, f"{board}_page", (*scope, limit, offset))

        total, rows = await self._read(run)
        # A server's board also gives the rated games counted on it (its sixth column).
        return total, [
            Standing(offset + i + 1, row[0], Rating(*row[:5]), games_here=row[5] if len(row) > 5 else None)
            for i, row in enumerate(rows)
        ]

    async def standing(
        self, game: str, user_id: int, *, guild_id: int | None = None, min_games: int = 1
    ) -> Standing | None:
        """A player's place on a rating board; None when they are not on it.

        ``min_games`` is at most `ratings.BOARD_GAMES_MAX` (the steps count games no further).
        """
        check_min_games(min_games)
        board = _board_names(guild_id)
        scope = (game, min_games) if guild_id is None else (game, min_games, guild_id)

        def run(conn: sqlite3.Connection) -> Standing | None:
            row = _one(conn, f"{board}_mine", (*scope, user_id))
            if row is None:
                return None
            *mine, ordinal = row  # the board's own ordinal column, which the steps were cut from
            step, upper = ratings.board_step(ordinal)
            ahead = _fetch(conn, f"{board}_ahead", (*scope, ordinal, user_id, step, upper))[0][0]
            # A server's board: its own count of rated games, before the ordinal.
            here = mine[5] if len(mine) > 5 else None
            return Standing(ahead + 1, user_id, Rating(*mine[:5]), games_here=here)

        return await self._read(run)

    async def solo_board(
        self, game: str, *, guild_id: int | None = None, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[Standing]]:
        """(how many players, one page) of the best solo scores, best first."""
        scope = (game, guild_id or 0)

        def run(conn: sqlite3.Connection) -> tuple[int, list[tuple[Any, ...]]]:
            return _fetch(conn, "solo_count", scope)[0][0], _fetch(conn, "solo_page", (*scope, limit, offset))

        total, rows = await self._read(run)
        return total, [
            Standing(offset + i + 1, user, best=best, table_id=table)
            for i, (user, best, table) in enumerate(rows)
        ]

    async def solo_standing(self, game: str, user_id: int, *, guild_id: int | None = None) -> Standing | None:
        """A player's place on a solo board; None when they have no solo score there."""
        scope = (game, guild_id or 0)

        def run(conn: sqlite3.Connection) -> Standing | None:
            row = _one(conn, "solo_mine", (*scope, user_id))
            if row is None:
                return None
            ahead = _fetch(conn, "solo_ahead", (*scope, row[1], user_id))[0][0]
            return Standing(ahead + 1, user_id, best=row[1], table_id=row[2])

        return await self._read(run)

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
        values = (game, guild_id, channel_id, host.user_id, LOBBY, to_json(options), now, now, pace, wake_at)
        return await self._call(_transaction, _create, values, host)

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
        Returns the table as written (read in the same transaction).
        """
        columns = table_columns(status=status, seed=seed, state=state, timing=timing, options=options)
        return await self._call(_transaction, _update, table_id, expected_version, now, columns, seats)

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
        move = (seat, to_json(action), now, reset_timeouts, state)
        return await self._call(
            _transaction, _append, table_id, expected_version, move, columns, result, scored
        )

    async def _write(self, sql: str, *params: Any) -> int:
        """One statement, its own transaction (autocommit); the number of rows it changed."""
        return await self._call(_execute_one, sql, params)

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
        sets = ", ".join(f"{name} = ?" for name in columns)
        await self._write(f"UPDATE game_tables SET {sets} WHERE id = ?", *columns.values(), table_id)

    async def set_host(self, table_id: int, user_id: int) -> None:
        """Hand the host role to another member."""
        await self._write("UPDATE game_tables SET host_id = ? WHERE id = ?", user_id, table_id)

    async def set_owed(self, table_id: int, owed_posts: int, wake_at: float | None) -> None:
        """Record a message the table still owes (``owed_posts`` failed attempts; 0: paid) and its next look.

        No version bump: the game did not change.
        """
        await self._write(
            "UPDATE game_tables SET owed_posts = ?, wake_at = ? WHERE id = ?", owed_posts, wake_at, table_id
        )

    async def claim_reminder(self, table_id: int, version: int, *, sent: int, wake_at: float | None) -> bool:
        """Record that reminder number ``sent`` goes out now; False when another caller already did.

        A compare-and-set on the version and the reminder count, so that a
        reminder is sent at most once even with several schedulers.
        """
        changed = await self._write(
            "UPDATE game_tables SET reminders = ?, wake_at = ? "
            "WHERE id = ? AND version = ? AND reminders < ?",
            sent,
            wake_at,
            table_id,
            version,
            sent,
        )
        return changed == 1

    async def set_wake(self, table_id: int, version: int, wake_at: float | None) -> None:
        """Move the scheduler's next look at a table (when nothing else about it changed)."""
        await self._write(
            "UPDATE game_tables SET wake_at = ? WHERE id = ? AND version = ?", wake_at, table_id, version
        )

    async def due_tables(self, now: float, limit: int = 100) -> list[int]:
        """Ids of open tables whose ``wake_at`` has come, earliest first."""
        return [row[0] for row in await self._read(_fetch, "due_tables", (now, limit))]

    async def next_wake(self) -> float | None:
        """The earliest ``wake_at`` of any table (None when no table waits for the clock)."""
        row = await self._read(_one, "next_wake")
        return None if row is None else row[0]

    async def dm_reminders(self, user_id: int) -> bool:
        """Whether this user asked for reminders by direct message."""
        row = await self._read(_one, "dm_reminders", (user_id,))
        return bool(row and row[0])

    async def set_dm_reminders(self, user_id: int, on: bool) -> None:
        """Turn a user's direct-message reminders on or off."""
        await self._write(
            "INSERT INTO players (user_id, dm_reminders) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET dm_reminders = excluded.dm_reminders",
            user_id,
            int(on),
        )

    async def player_language(self, user_id: int) -> tuple[str | None, str | None]:
        """A player's chosen language (None: their Discord client's) and the client locale last seen."""
        row = await self._read(_one, "player_language", (user_id,))
        return (row[0], row[1]) if row else (None, None)

    async def set_player_language(self, user_id: int, language: str | None) -> None:
        """Set (or, with None, clear) the language of a player's own panels and DMs."""
        await self._write(
            "INSERT INTO players (user_id, language) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET language = excluded.language",
            user_id,
            language,
        )

    async def note_locale(self, user_id: int, locale: str) -> None:
        """Remember the Discord client locale a player was last seen with."""
        await self._write(
            "INSERT INTO players (user_id, seen_locale) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET seen_locale = excluded.seen_locale",
            user_id,
            locale,
        )

    async def guild_language(self, guild_id: int) -> str | None:
        """The language a server chose for its public messages (None: Discord's server setting)."""
        row = await self._read(_one, "guild_language", (guild_id,))
        return row[0] if row else None

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Set (or, with None, clear) a server's language."""
        await self._write(
            "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
            guild_id,
            language,
        )

    # ------------------------------------------------------------ issue #35

    async def claim_rematch(self, table_id: int, lobby_id: int, now: float) -> int:
        """Record ``lobby_id`` as the rematch lobby of the closed table ``table_id``, unless another
        rematch lobby of it is still in its lobby; the rematch lobby recorded afterwards.

        One transaction against the ``rematches`` row (its primary key is the finished
        table): of two racing claims, in one process or several, one lobby wins.
        """
        return await self._call(_transaction, _claim_rematch, table_id, lobby_id, now)

    async def rematch(self, table_id: int) -> tuple[int, bool] | None:
        """The closed table's rematch lobby and whether its former players were pinged (None: none yet)."""
        row = await self._read(_one, "rematch", (table_id,))
        return None if row is None else (int(row[0]), bool(row[1]))

    async def rematch_of(self, lobby_id: int) -> tuple[int, float] | None:
        """(the closed table, when its rematch lobby was recorded) for a rematch lobby; None otherwise."""
        row = await self._read(_one, "rematch_of", (lobby_id,))
        return None if row is None else (int(row[0]), float(row[1]))

    async def claim_rematch_ping(self, table_id: int) -> bool:
        """True once per closed table: the caller pings its former players; False ever after."""
        return (
            await self._write("UPDATE rematches SET pinged = 1 WHERE table_id = ? AND pinged = 0", table_id)
            == 1
        )

    async def closed_lobbies(self, host_id: int, since: float) -> list[float]:
        """When each lobby this member hosted was closed unstarted (cancelled or expired) since ``since``."""
        rows = await self._read(_fetch, "host_closed_lobbies", (host_id, CANCELLED, since))
        return [float(row[0]) for row in rows]

    async def finished_games_in(self, user_id: int, guild_id: int, *, limit: int) -> list[FinishedGame]:
        """`finished_games` of one server only (what another member may see of a player's history)."""
        rows = await self._read(_fetch, "user_finished_in", (user_id, limit, guild_id))
        return [finished_game(row) for row in rows]

    async def player_stats_in(self, user_id: int, guild_id: int) -> list[PlayerStats]:
        """A player's finished games per game in one server, counted from their history lines."""
        rows = await self._read(_fetch, "player_stats_in", (user_id, guild_id))
        return [PlayerStats(game, played, wins, float(total)) for game, played, wins, total in rows]

    async def leave_guild_boards(self, guild_id: int, user_id: int, games: Sequence[str]) -> list[str]:
        """Take a player off this server's rating and solo boards of ``games``; the games they were on.

        Their ratings and their other servers' boards stay; a rated game here later puts them back.
        """
        return await self._call(_transaction, _leave_boards, guild_id, user_id, list(games))

    async def void_ratings(self, table_id: int, by: int, now: float) -> list[int]:
        """Undo what a finished table did to its players' ratings and boards, and mark it voided.

        Exact only while the game is each player's latest rated game of its kind: when
        some played another since, nothing changes and their ids are returned.
        """
        return await self._call(_transaction, _void, table_id, by, now)

    async def voided(self, table_id: int) -> tuple[int, float] | None:
        """(who voided it, when) for a game voided from the ratings; None otherwise."""
        row = await self._read(_one, "voided", (table_id,))
        return None if row is None else (int(row[0]), float(row[1]))

    async def integrity_check(self) -> str:
        """SQLite's ``PRAGMA integrity_check`` answer ("ok" when healthy)."""
        return await self._call(_integrity)

    async def status_counts(self) -> dict[str, int]:
        """How many tables have each status, for the metrics: one pass over the status index
        (no table row is read), on the database thread, so the loop never waits for it."""
        rows = await self._call(
            lambda conn: conn.execute("SELECT status, count(*) FROM game_tables GROUP BY status").fetchall()
        )
        return {str(status): int(count) for status, count in rows}

    # --- The daily Reef ---
    # Issue #38 item 3 (docs/DAILY.md, hosting/daily.py). A row of ``daily_games`` (schema 10) per
    # player and UTC day names the table of their day's game; its primary key decides that a
    # player plays the day's game once, whichever process asks. The score is the table's solo
    # score (``solo_scores``, written by the finishing move), counted when it came before the
    # day closed (``closes_at``). ``?N IS NULL OR d.guild_id = ?N``: one read for the board of a
    # server and of everyone (the day's rows are found by the primary key either way).

    #: The daily Reef's reads (registered in `READS` below the class, so the plan checks see them).
    _DAILY_SCORED = "JOIN solo_scores s ON s.table_id = d.table_id AND s.created_at < d.closes_at"
    DAILY_READS: ClassVar[dict[str, str]] = {
        "daily_claimed": "SELECT table_id FROM daily_games WHERE day = ?1 AND user_id = ?2",
        "daily_entry": "SELECT d.table_id, d.guild_id, s.score, s.created_at FROM daily_games d "
        "LEFT JOIN solo_scores s ON s.table_id = d.table_id AND s.created_at < d.closes_at "
        "WHERE d.day = ?1 AND d.user_id = ?2",
        "daily_count": f"SELECT count(*) FROM daily_games d {_DAILY_SCORED} "
        "WHERE d.day = ?1 AND (?2 IS NULL OR d.guild_id = ?2)",
        "daily_page": "SELECT d.user_id, s.score, d.table_id, s.created_at "
        f"FROM daily_games d {_DAILY_SCORED} "
        "WHERE d.day = ?1 AND (?2 IS NULL OR d.guild_id = ?2) "
        "ORDER BY s.score DESC, s.created_at, d.user_id LIMIT ?3 OFFSET ?4",
        # Players ahead of a score (?3) finished at ?4 by player ?5: higher, or equal and sooner.
        "daily_ahead": f"SELECT count(*) FROM daily_games d {_DAILY_SCORED} "
        "WHERE d.day = ?1 AND (?2 IS NULL OR d.guild_id = ?2) AND (s.score > ?3 OR (s.score = ?3 "
        "AND (s.created_at < ?4 OR (s.created_at = ?4 AND d.user_id < ?5))))",
        # The days a player finished the day's game in time, newest first (their streak).
        "daily_days": f"SELECT d.day FROM daily_games d {_DAILY_SCORED} WHERE d.user_id = ?1 "
        "ORDER BY d.day DESC LIMIT ?2",
    }

    async def daily_claim(
        self, day: str, user_id: int, table_id: int, *, guild_id: int | None, now: float, closes_at: float
    ) -> int:
        """Claim ``day``'s game for a player with ``table_id``; the table that holds the day.

        That is ``table_id`` when this call won, or the table an earlier (or racing) claim
        recorded: the primary key lets one claim per player and day in.
        """

        def run(conn: sqlite3.Connection) -> int:
            conn.execute(
                "INSERT INTO daily_games (day, user_id, table_id, guild_id, created_at, closes_at) "
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (day, user_id) DO NOTHING",
                (day, user_id, table_id, guild_id, now, closes_at),
            )
            return int(_fetch(conn, "daily_claimed", (day, user_id))[0][0])

        return await self._call(_transaction, run)

    async def daily_entry(
        self, day: str, user_id: int
    ) -> tuple[int, int | None, int | None, float | None] | None:
        """(table, server, score, finished at) of a player's game of ``day``; None when they have none.

        The score and its time are None until the game finished (or when it finished after the day).
        """
        row = await self._read(lambda conn: _one(conn, "daily_entry", (day, user_id)))
        return None if row is None else (int(row[0]), row[1], row[2], row[3])

    async def daily_board(
        self, day: str, *, guild_id: int | None = None, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[tuple[int, int, int, float]]]:
        """(how many finished ``day``'s game, one page of (player, score, table, finished at)), best first.

        A server's board (``guild_id``) holds the games started there; None: everyone's.
        """

        def run(conn: sqlite3.Connection) -> tuple[int, list[tuple[int, int, int, float]]]:
            count = _fetch(conn, "daily_count", (day, guild_id))[0][0]
            rows = _fetch(conn, "daily_page", (day, guild_id, limit, offset))
            return int(count), [(int(u), int(sc), int(t), float(at)) for u, sc, t, at in rows]

        return await self._read(run)

    async def daily_place(
        self, day: str, user_id: int, score: int, finished_at: float, *, guild_id: int | None = None
    ) -> int:
        """A finished player's place on ``day``'s board (1 = best); a tie goes to who finished first."""
        params = (day, guild_id, score, finished_at, user_id)
        return 1 + int(await self._read(lambda conn: _fetch(conn, "daily_ahead", params)[0][0]))

    async def daily_days(self, user_id: int, *, limit: int = 400) -> list[str]:
        """The days (newest first, at most ``limit``) a player finished the day's game in time."""
        rows = await self._read(lambda conn: _fetch(conn, "daily_days", (user_id, limit)))
        return [str(row[0]) for row in rows]

    # --- Leagues (issue #38): a league, its players' totals, its rounds' tables (schema 11) ---
    # Every read is one of `LEAGUE_READS` (added to `READS`, so each is checked for an index).

    LEAGUE_READS: ClassVar[dict[str, str]] = {
        "league": f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = ?1",
        "leagues_in": f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ?1 ORDER BY id DESC LIMIT ?2",
        "open_league_ids": "SELECT id FROM leagues WHERE status IN (?1, ?2) ORDER BY id",
        "league_count": "SELECT count(*) FROM league_players WHERE league_id = ?1",
        "league_member": "SELECT 1 FROM league_players WHERE league_id = ?1 AND user_id = ?2",
        # The players with their rating in the league's game (?2): the standings' tie-break.
        "league_players": "SELECT p.user_id, p.name, p.points, p.score, p.played, p.missed, p.dropped, "
        "coalesce(r.ordinal, 0), p.place FROM league_players p "
        "LEFT JOIN ratings r ON r.user_id = p.user_id AND r.game = ?2 WHERE p.league_id = ?1",
        "league_tables": "SELECT l.round, l.table_no, l.players, l.table_id, g.status FROM league_tables l "
        "LEFT JOIN game_tables g ON g.id = l.table_id WHERE l.league_id = ?1 "
        "AND (?2 IS NULL OR l.round = ?2) ORDER BY l.round, l.table_no",
        "league_of_table": "SELECT league_id, round FROM league_tables WHERE table_id = ?1",
        "due_leagues": "SELECT id FROM leagues WHERE deadline IS NOT NULL AND deadline <= ?1 UNION "
        "SELECT id FROM leagues WHERE post_owed IS NOT NULL AND post_owed <= ?1",
        "next_league_deadline": "SELECT (SELECT min(deadline) FROM leagues), "
        "(SELECT min(post_owed) FROM leagues)",
        "league_results_of": "SELECT l.id, l.name, l.game, l.guild_id, l.channel_id, p.place, "
        "(SELECT count(*) FROM league_players c WHERE c.league_id = l.id), p.points, l.updated_at "
        "FROM league_players p JOIN leagues l ON l.id = p.league_id "
        "WHERE p.user_id = ?1 AND p.place IS NOT NULL ORDER BY p.league_id DESC LIMIT ?2",
        "league_role": "SELECT league_role FROM guild_settings WHERE guild_id = ?1",
    }

    async def league_role(self, guild_id: int) -> int | None:
        """The role whose members may organise leagues in the server (None: Manage Server only)."""
        row = await self._read(_one, "league_role", (guild_id,))
        return None if row is None or row[0] is None else int(row[0])

    async def set_league_role(self, guild_id: int, role_id: int | None) -> None:
        """Name the role that may organise leagues in the server (None: Manage Server only)."""
        await self._write(
            "INSERT INTO guild_settings (guild_id, league_role) VALUES (?1, ?2) "
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
        values = (guild_id, channel_id, organiser_id, name, game, seats, pace, rounds, int(rated))
        values += (bot_level, cap, drop_after, round_length, SIGNUP, now, now)

        def run(conn: sqlite3.Connection) -> LeagueRecord:
            league_id = conn.execute(
                "INSERT INTO leagues (guild_id, channel_id, organiser_id, name, game, seats, pace, rounds, "
                "rated, bot_level, cap, drop_after, round_length, status, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                values,
            ).lastrowid
            return _league(_one(conn, "league", (league_id,)))  # type: ignore[arg-type]

        return await self._call(_transaction, run)

    async def get_league(self, league_id: int) -> LeagueRecord | None:
        """The league as stored (None: no such league)."""
        row = await self._read(_one, "league", (league_id,))
        return None if row is None else _league(row)

    async def leagues_in(self, guild_id: int, *, limit: int = 25) -> list[LeagueRecord]:
        """A server's newest leagues, newest first."""
        return [_league(row) for row in await self._read(_fetch, "leagues_in", (guild_id, limit))]

    async def open_league_ids(self) -> list[int]:
        """Every league in sign-up or running (what a start resumes)."""
        return [int(row[0]) for row in await self._call(_fetch, "open_league_ids", (SIGNUP, RUNNING))]

    async def set_league_message(self, league_id: int, message_id: int) -> None:
        """Record the league's sign-up message."""
        await self._write("UPDATE leagues SET message_id = ? WHERE id = ?", message_id, league_id)

    async def join_league(self, league_id: int, user_id: int, name: str, now: float) -> str:
        """Sign a member up: ``joined``, or why not (``already``, ``full``, ``closed``); one transaction."""

        def run(conn: sqlite3.Connection) -> str:
            row = _one(conn, "league", (league_id,))
            if row is None or _league(row).status != SIGNUP:
                return "closed"
            if _one(conn, "league_member", (league_id, user_id)):
                return "already"
            if _one(conn, "league_count", (league_id,))[0] >= _league(row).cap:  # type: ignore[index]
                return "full"
            conn.execute(
                "INSERT INTO league_players (league_id, user_id, name, joined_at) VALUES (?, ?, ?, ?)",
                (league_id, user_id, name, now),
            )
            return "joined"

        return await self._call(_transaction, run)

    async def leave_league(self, league_id: int, user_id: int) -> bool:
        """Take a member off a league still in sign-up; False when they were not on it (or it started)."""
        return (
            await self._write(
                "DELETE FROM league_players WHERE league_id = ?1 AND user_id = ?2 "
                "AND (SELECT status FROM leagues WHERE id = ?1) = ?3",
                league_id,
                user_id,
                SIGNUP,
            )
            == 1
        )

    async def league_players(self, league_id: int, game: str) -> list[LeaguePlayer]:
        """A league's players with their totals and their rating in ``game`` (unordered)."""
        return [_league_player(row) for row in await self._read(_fetch, "league_players", (league_id, game))]

    async def league_tables(self, league_id: int, round_no: int | None = None) -> list[LeagueTable]:
        """A league's tables (of one round, or all), with each hosted table's status."""
        rows = await self._read(_fetch, "league_tables", (league_id, round_no))
        return [LeagueTable(r[0], r[1], tuple(json.loads(r[2])), r[3], r[4]) for r in rows]

    async def league_of_table(self, table_id: int) -> tuple[int, int] | None:
        """(league, round) of a league's table; None for any other table."""
        row = await self._read(_one, "league_of_table", (table_id,))
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

        The claim is the conditional update of ``leagues.round`` (from ``from_round`` to the
        next, or the league's end, ``status``): of two processes (or a restart) closing the
        same round, one wins and writes the players' new totals (``players``: absolute values;
        a drop by the organiser meanwhile stands) and the next round's ``tables``.
        """
        next_round = from_round + 1 if tables else from_round

        def run(conn: sqlite3.Connection) -> bool:
            won = conn.execute(
                "UPDATE leagues SET round = ?, status = ?, deadline = ?, updated_at = ? "
                "WHERE id = ? AND round = ? AND status IN (?, ?)",
                (next_round, status, deadline, now, league_id, from_round, SIGNUP, RUNNING),
            ).rowcount
            if not won:
                return False
            conn.executemany(
                "UPDATE league_players SET points = ?, score = ?, played = ?, missed = ?, place = ?, "
                "dropped = CASE WHEN dropped = ? THEN dropped ELSE ? END WHERE league_id = ? AND user_id = ?",
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
            conn.executemany(
                "INSERT INTO league_tables (league_id, round, table_no, players) VALUES (?, ?, ?, ?)",
                [(league_id, t.round, t.table_no, json.dumps(list(t.players))) for t in tables],
            )
            return True

        return await self._call(_transaction, run)

    async def attach_league_table(self, league_id: int, round_no: int, table_no: int, table_id: int) -> bool:
        """Record the hosted table of a round's table, unless one already is (then False)."""
        changed = await self._write(
            "UPDATE league_tables SET table_id = ? WHERE league_id = ? AND round = ? AND table_no = ? "
            "AND table_id IS NULL",
            table_id,
            league_id,
            round_no,
            table_no,
        )
        return changed == 1

    async def set_league_dropped(self, league_id: int, user_id: int, dropped: int) -> bool:
        """Drop a player from pairing (or reinstate them: 0, their misses forgotten); False if not there."""
        changed = await self._write(
            "UPDATE league_players SET dropped = ?, missed = CASE WHEN ? = 0 THEN 0 ELSE missed END "
            "WHERE league_id = ? AND user_id = ?",
            dropped,
            dropped,
            league_id,
            user_id,
        )
        return changed == 1

    async def owe_league_post(self, league_id: int, not_before: float | None) -> None:
        """Record that the league owes its standings post, to be tried from ``not_before`` on
        (None: nothing is owed)."""
        await self._write("UPDATE leagues SET post_owed = ? WHERE id = ?", not_before, league_id)

    async def claim_league_post(self, league_id: int, seen: float, until: float) -> bool:
        """Take the owed standings post seen due at ``seen`` for this process (the next try, should
        this one fail silently, at ``until``); False when another process took it or it was paid."""
        taken = await self._write(
            "UPDATE leagues SET post_owed = ? WHERE id = ? AND post_owed = ?", until, league_id, seen
        )
        return taken == 1

    async def due_leagues(self, now: float) -> list[int]:
        """Leagues whose round deadline has come, or whose owed standings post is due."""
        return [int(row[0]) for row in await self._read(_fetch, "due_leagues", (now,))]

    async def next_league_deadline(self) -> float | None:
        """The earliest round deadline or owed post's retry of any league (None: none)."""
        row = await self._read(_one, "next_league_deadline")
        times = [float(t) for t in row or () if t is not None]
        return min(times, default=None)

    async def league_results_of(self, user_id: int, *, limit: int = 10) -> list[LeagueResult]:
        """A player's results in leagues that are over, newest first."""
        rows = await self._read(_fetch, "league_results_of", (user_id, limit))
        return [LeagueResult(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]) for r in rows]

    # --- Live tables and rating history ---
    # (issue #38; their SQL is `LIVE_READS`, just below the class, merged into `READS`.)

    async def running_tables(
        self, guild_id: int, *, now: float, stuck_only: bool = False, offset: int = 0, limit: int = 10
    ) -> tuple[int, int, list[TableRecord]]:
        """(running tables of the server, how many of them are stuck, one page of them or of the
        stuck ones only), newest first: one call.

        Stuck: blocked (Discord refuses its channel), owing a post, or past its deadline while
        not paused (`STUCK_AFTER` seconds late: the clock should have acted by then).
        """
        late = now - STUCK_AFTER

        def run(conn: sqlite3.Connection) -> tuple[int, int, list[TableRecord]]:
            total, stuck = _fetch(conn, "guild_running_count", (guild_id, ACTIVE, late))[0]
            page = (guild_id, ACTIVE, limit, offset)
            if stuck_only:
                rows = _fetch(conn, "guild_stuck_page", (*page, late))
            else:
                rows = _fetch(conn, "guild_running_page", page)
            return int(total), int(stuck), _records(conn, rows)

        return await self._read(run)

    async def rating_history(self, user_id: int, *, guild_id: int | None = None) -> list[ratings.RatingPoint]:
        """A player's rating after each of their rated games (those of one server only, if given),
        by game, oldest first."""
        rows = await self._read(_fetch, "rating_history", (user_id, guild_id))
        return [ratings.RatingPoint(*row) for row in rows]

    async def head_to_head(
        self, user_id: int, other_id: int, *, guild_id: int | None = None
    ) -> list[ratings.HeadToHead]:
        """Per game, the finished games both players held a seat at to the end (of one server only,
        if given), and who placed higher."""
        rows = await self._read(_fetch, "head_to_head", (user_id, other_id, guild_id))
        return [ratings.HeadToHead(game, n, int(higher), int(lower)) for game, n, higher, lower in rows]

    async def finished_games_page(
        self, user_id: int, *, offset: int, limit: int, guild_id: int | None = None
    ) -> list[FinishedGame]:
        """`finished_games` from the ``offset``-th newest on (one server's only, if given)."""
        rows = await self._read(_fetch, "user_finished_page", (user_id, limit, offset, guild_id))
        return [finished_game(row) for row in rows]

    # --- Seasons ---
    # (issue #38; their SQL is `SEASON_READS` and the functions beside it, below the class.)

    async def season_settings(self, guild_id: int) -> seasons.SeasonSettings:
        """A server's season length and manual season number."""
        return await self._read(_season_settings, guild_id)

    async def set_season(
        self, guild_id: int, length: str | None, *, new: bool = False
    ) -> seasons.SeasonSettings:
        """Set a server's season length (None: no seasons); ``new`` starts the next manual season."""
        return await self._call(_transaction, _set_season, guild_id, length, new)

    async def seasons(self, guild_id: int) -> list[str]:
        """The seasons a server has had rated games in, oldest first."""
        return [row[0] for row in await self._read(_fetch, "guild_seasons", (guild_id,))]

    async def season_board(
        self, guild_id: int, season: str, game: str, *, min_games: int = 1, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[Standing]]:
        """(players on a season board, one page of it), best season rating (μ − 3σ) first."""
        scope = (guild_id, season, game, min_games)

        def run(conn: sqlite3.Connection) -> tuple[int, list[tuple[Any, ...]]]:
            total = _fetch(conn, "season_board_count", scope)[0][0]
            return total, _fetch(conn, "season_board_page", (*scope, limit, offset))

        total, rows = await self._read(run)
        return total, [Standing(offset + i + 1, row[0], Rating(*row)) for i, row in enumerate(rows)]

    async def season_standing(
        self, guild_id: int, season: str, game: str, user_id: int, *, min_games: int = 1
    ) -> Standing | None:
        """A player's place on a season board; None when they are not on it."""
        scope = (guild_id, season, game, min_games)

        def run(conn: sqlite3.Connection) -> Standing | None:
            row = _one(conn, "season_board_mine", (*scope, user_id))
            if row is None:
                return None
            ahead = _fetch(conn, "season_board_ahead", (*scope, row[5], user_id))[0][0]
            return Standing(ahead + 1, user_id, Rating(*row[:5]))

        return await self._read(run)


READS.update(Store.DAILY_READS)  # the daily Reef's reads, kept beside its methods above
READS.update(Store.LEAGUE_READS)  # the leagues' reads, likewise


def _league(row: Sequence[Any]) -> LeagueRecord:
    values = list(row)
    values[9] = bool(values[9])
    return LeagueRecord(*values)


def _league_player(row: Sequence[Any]) -> LeaguePlayer:
    return LeaguePlayer(row[0], row[1], row[2], row[3], row[4], row[5], row[6], float(row[7]), row[8])


#: What a stuck table is, over ``game_tables`` (?5: the latest deadline that is not yet late).
_STUCK = "(owed_posts != 0 OR (deadline < ?5 AND paused_at IS NULL))"

#: The reads of the block above (issue #38), each from an index like every read.
LIVE_READS: dict[str, str] = {
    # A server's running tables (?1 the server, ?2 the running status) by game_tables_status, with
    # how many are stuck (?3: the latest deadline not yet late): bounded by the server's tables.
    "guild_running_count": "SELECT count(*), coalesce(sum(owed_posts != 0 OR (deadline < ?3 "
    "AND paused_at IS NULL)), 0) FROM game_tables WHERE status = ?2 AND guild_id = ?1",
    "guild_running_page": f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE status = ?2 AND guild_id = ?1 "
    "ORDER BY id DESC LIMIT ?3 OFFSET ?4",
    "guild_stuck_page": f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE status = ?2 AND guild_id = ?1 "
    f"AND {_STUCK} ORDER BY id DESC LIMIT ?3 OFFSET ?4",
    # A player's rating after each rated game (?2: one server, or NULL), by rating_events_user.
    "rating_history": "SELECT game, table_id, guild_id, rank, mu_before, sigma_before, mu, sigma, games, "
    "created_at FROM rating_events WHERE user_id = ?1 AND (?2 IS NULL OR guild_id = ?2) "
    "ORDER BY game, table_id",
    # Two players' finished games together: the first one's history lines, each looked up in the
    # second one's by primary key.
    "head_to_head": "SELECT a.game, count(*), sum(a.place < b.place), sum(a.place > b.place) "
    "FROM finished_seats a JOIN finished_seats b ON b.user_id = ?2 AND b.table_id = a.table_id "
    "WHERE a.user_id = ?1 AND (?3 IS NULL OR a.guild_id = ?3) GROUP BY a.game ORDER BY a.game",
    # `/history`'s later pages (?4: one server, or NULL): the player's lines walked newest first.
    "user_finished_page": f"SELECT {FINISHED_COLUMNS} FROM finished_seats WHERE user_id = ?1 "
    "AND (?4 IS NULL OR guild_id = ?4) ORDER BY table_id DESC LIMIT ?2 OFFSET ?3",
}
READS.update(LIVE_READS)


# --- Seasons ---
# (issue #38; hosting/seasons.py says what a season is. The finishing move's `_record_scored` and
# `_leave_boards` call the two functions here; `Store`'s season methods sit at the end of the class.)

SEASON_READS: dict[str, str] = {
    "season_settings": "SELECT season_length, season_number FROM guild_settings WHERE guild_id = ?1",
    # The players' season ratings before a rated game (?4: a JSON list of user ids), by primary key.
    "season_ratings_in": "SELECT user_id, game, mu, sigma, games FROM season_ratings "
    "WHERE guild_id = ?1 AND season = ?2 AND game = ?3 AND user_id IN (SELECT value FROM json_each(?4))",
    # A season board (?4 min games) walks season_ratings_board; its size and a place count one
    # server's season players, not every rating.
    "season_board_count": "SELECT count(*) FROM season_ratings "
    "WHERE guild_id = ?1 AND season = ?2 AND game = ?3 AND games >= ?4",
    "season_board_page": "SELECT user_id, game, mu, sigma, games FROM season_ratings "
    "WHERE guild_id = ?1 AND season = ?2 AND game = ?3 AND games >= ?4 "
    "ORDER BY ordinal DESC, user_id LIMIT ?5 OFFSET ?6",
    "season_board_mine": "SELECT user_id, game, mu, sigma, games, ordinal FROM season_ratings "
    "WHERE guild_id = ?1 AND season = ?2 AND game = ?3 AND user_id = ?5 AND games >= ?4",
    "season_board_ahead": "SELECT count(*) FROM season_ratings WHERE guild_id = ?1 AND season = ?2 "
    "AND game = ?3 AND ordinal >= ?5 AND (ordinal > ?5 OR user_id < ?6) AND games >= ?4",
    # What a rated game did to its players' season ratings (`/ratings void`).
    "season_events": "SELECT user_id, guild_id, season, game, mu_before, sigma_before, games_before "
    "FROM season_events WHERE table_id = ?1",
    # The seasons a server has had, in the order they began.
    "guild_seasons": "SELECT season FROM guild_seasons WHERE guild_id = ?1 ORDER BY started_at, season",
}
READS.update(SEASON_READS)


def _season_settings(conn: sqlite3.Connection, guild_id: int) -> seasons.SeasonSettings:
    row = _one(conn, "season_settings", (guild_id,))
    return seasons.SeasonSettings(row[0], row[1]) if row else seasons.SeasonSettings()


def _record_season(
    conn: sqlite3.Connection, scored: ScoredGame, alltime_before: dict[int, Rating], now: float
) -> None:
    """Inside the finishing transaction: the players' season ratings, in a server with seasons."""
    if scored.guild_id is None:
        return
    season = seasons.key(_season_settings(conn, scored.guild_id), now)
    if season is None:
        return
    users = json.dumps([s.user_id for s in scored.seats])
    have = {
        row[0]: Rating(*row)
        for row in _fetch(conn, "season_ratings_in", (scored.guild_id, season, scored.game, users))
    }
    changes = seasons.changes(scored, have, alltime_before)
    conn.executemany(
        "INSERT INTO season_ratings (guild_id, season, game, user_id, mu, sigma, games, ordinal) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, season, game, user_id) DO UPDATE SET "
        "mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, ordinal = excluded.ordinal",
        [season_row(scored.guild_id, season, c) for c in changes],
    )
    conn.execute(
        "INSERT INTO guild_seasons (guild_id, season, started_at) VALUES (?, ?, ?) "
        "ON CONFLICT (guild_id, season) DO NOTHING",
        (scored.guild_id, season, now),
    )
    conn.executemany(
        "INSERT INTO season_events (table_id, user_id, guild_id, season, game, mu_before, sigma_before, "
        "games_before) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [season_event_row(scored.guild_id, season, c) for c in changes],
    )


def _void_season(conn: sqlite3.Connection, table_id: int) -> None:
    """Inside `_void`: the game's players' season ratings as they were before it (its last game:
    the rating of a player who had no other game that season goes)."""
    for user, guild, season, game, mu, sigma, games in _fetch(conn, "season_events", (table_id,)):
        if games == 0:
            conn.execute(
                "DELETE FROM season_ratings WHERE guild_id = ? AND season = ? AND game = ? AND user_id = ?",
                (guild, season, game, user),
            )
        else:
            conn.execute(
                "UPDATE season_ratings SET mu = ?, sigma = ?, games = ?, ordinal = ? "
                "WHERE guild_id = ? AND season = ? AND game = ? AND user_id = ?",
                (mu, sigma, games, mu - ratings.Z * sigma, guild, season, game, user),
            )
    conn.execute("DELETE FROM season_events WHERE table_id = ?", (table_id,))


def _leave_seasons(conn: sqlite3.Connection, guild_id: int, user_id: int, games: Sequence[str]) -> None:
    """A player taken off a server's boards is taken off its season boards too."""
    conn.executemany(
        "DELETE FROM season_ratings WHERE user_id = ? AND guild_id = ? AND game = ?",
        [(user_id, guild_id, game) for game in games],
    )


def _set_season(
    conn: sqlite3.Connection, guild_id: int, length: str | None, new: bool
) -> seasons.SeasonSettings:
    """`Store.set_season`'s transaction: a manual season gets the next number when it is chosen (from
    another length) or when a new one is asked for."""
    before = _season_settings(conn, guild_id)
    number = before.number + (length == "manual" and (new or before.length != "manual"))
    conn.execute(
        "INSERT INTO guild_settings (guild_id, season_length, season_number) VALUES (?1, ?2, ?3) "
        "ON CONFLICT (guild_id) DO UPDATE SET season_length = ?2, season_number = ?3",
        (guild_id, length, number),
    )
    return seasons.SeasonSettings(length, number)


#: SQLite's page cache per connection (KiB). Its default, 2 MiB, does not hold the indexes' upper
#: levels of a database of 100,000 tables, so most reads went to the file for them (and to the disk,
#: when the machine had reclaimed its own cache); 64 MiB holds them and the running tables' rows.
CACHE_KIB = 64 * 1024


def _configure(conn: sqlite3.Connection, checkpointed: bool = False) -> None:
    """The store connection's settings, on the database thread.

    ``checkpointed``: a `_Checkpointer` copies the WAL into the file, so this
    connection's commits never do (SQLite's automatic checkpoint runs inside the
    commit that crosses 1,000 pages, fsync included: the slowest moves were those).
    """
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
    # Wait at most 1 s for another connection's write lock (a backup, `check`), then fail:
    # interactive paths must answer within Discord's 3 s, and our own writes are ~1 ms.
    conn.execute("PRAGMA busy_timeout=1000")
    if checkpointed:
        conn.execute("PRAGMA wal_autocheckpoint=0")


def _open_reader(path: str) -> sqlite3.Connection:
    """The read-only connection `Store._read` uses on the event loop's thread.

    ``timeout=0``: it never waits for a lock, which would stall the loop. In WAL
    mode a reader finds the file locked only while another program holds it in
    exclusive mode, which it cannot get while the store is open. Its page cache
    starts empty whenever another connection has committed (before nearly every
    read), so it keeps SQLite's default size; memory-mapping the file made the
    slowest reads slower (SQLite unmaps it at every such change).
    """
    conn = sqlite3.connect(path, timeout=0, isolation_level=None)
    conn.execute("PRAGMA query_only=ON")
    return conn


#: How often the checkpointer copies the WAL into the database file (seconds).
CHECKPOINT_EVERY = 0.5


class _Checkpointer:
    """Copies the WAL into the database file from a thread and a connection of its own.

    A PASSIVE checkpoint never waits for the store's connection and never makes it
    wait: commits append to the WAL while the pages before them are copied, and the
    next commit after a complete checkpoint starts the WAL over, so it stays small.
    """

    def __init__(self, path: str) -> None:
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(path,), name="sqlite-checkpoint", daemon=True)
        self._thread.start()

    def _run(self, path: str) -> None:
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            conn.execute("PRAGMA busy_timeout=1000")
            while not self._stopping.wait(CHECKPOINT_EVERY):
                try:
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:
                    continue  # busy or interrupted: the next round copies what this one did not
        finally:
            conn.close()

    def stop(self) -> None:
        """Stop after the round in progress (the store's close checkpoints the rest)."""
        self._stopping.set()
        self._thread.join()


def _user_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _integrity(conn: sqlite3.Connection) -> str:
    return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


def _migrate(conn: sqlite3.Connection) -> None:
    """Bring the schema up to date, one transaction per version."""
    current = _user_version(conn)
    if current > SCHEMA_VERSION:
        raise SchemaTooNew(
            f"The database has schema version {current}, but this bot knows only up to "
            f"{SCHEMA_VERSION}. Upgrade the bot, or point it at another database."
        )
    for version in range(current + 1, SCHEMA_VERSION + 1):

        def step(conn: sqlite3.Connection, version: int = version) -> None:
            for statement in MIGRATIONS[version - 1].sqlite:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version}")

        _transaction(conn, step)
