"""Records to columns and columns to records: the conversions both stores share.

A record (`hosting.records`) becomes the values of a row the same way on SQLite and
on PostgreSQL, and a row read back becomes the same record; the SQL that writes and
reads them stays in each store. JSON is stored as text, canonical (`to_json`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hosting import ratings
from hosting.ratings import RatingChange, ScoredGame
from hosting.records import FINISHED, FinishedGame, Seat, TableRecord

#: Columns that `update_table` and `append_action` may set for the clock.
TIMING_COLUMNS = frozenset({"deadline", "reminders", "paused_at", "wake_at"})


def from_json(text: str | None) -> Any:
    """The value of a stored JSON text (None stays None)."""
    return None if text is None else json.loads(text)


def to_json(value: Any) -> str:
    """A value as the store writes it: compact JSON with sorted keys (the same text on both stores)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def seat_from_row(row: Sequence[Any]) -> Seat:
    """A seat from its stored columns (``former`` is a JSON list)."""
    *columns, former = row
    return Seat(*columns, former=tuple(json.loads(former) if isinstance(former, str) else former or ()))


def seat_row(table_id: int, seat: Seat) -> tuple[Any, ...]:
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
        to_json(list(seat.former)),
    )


def timing_columns(timing: dict[str, Any] | None) -> dict[str, Any]:
    """Clock columns to set, refusing any other name (they become SQL identifiers)."""
    if not timing:
        return {}
    unknown = set(timing) - TIMING_COLUMNS
    if unknown:
        raise ValueError(f"not clock columns: {sorted(unknown)}")
    return dict(timing)


def table_columns(
    *,
    status: str | None,
    seed: int | None,
    state: dict[str, Any] | None,
    timing: dict[str, Any] | None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``game_tables`` columns `update_table` sets (both stores)."""
    columns = timing_columns(timing)
    if options is not None:
        columns["options"] = to_json(options)
    if status is not None:
        columns["status"] = status
    if seed is not None:
        columns["seed"] = seed
    if state is not None:
        columns["state"] = to_json(state)
    return columns


def move_columns(
    *, state: dict[str, Any], result: dict[str, Any] | None, timing: dict[str, Any] | None
) -> dict[str, Any]:
    """The ``game_tables`` columns an accepted move sets (both stores); a result finishes the game."""
    columns: dict[str, Any] = {"state": to_json(state), **timing_columns(timing)}
    if result is not None:
        columns.update(status=FINISHED, result=to_json(result))
    return columns


def message_columns(**ids: int | None) -> dict[str, int]:
    """The Discord message columns `set_messages` was given (both stores)."""
    return {name: value for name, value in ids.items() if value is not None}


CHANGE_COLUMNS = "table_id, user_id, game, guild_id, seat, rank, mu_before, sigma_before, mu, sigma, games"


def rating_row(change: RatingChange) -> tuple[Any, ...]:
    """A player's new ``ratings`` row after a rated game (both stores); last, the ordinal μ − 3σ."""
    return (change.user_id, change.game, change.mu, change.sigma, change.games, ordinal_of(change))


def ordinal_of(change: RatingChange) -> float:
    """The board's order key after a rated game (`hosting.migrations._ORDINAL` of the new rating)."""
    return change.mu - ratings.Z * change.sigma


def change_row(change: RatingChange, now: float) -> tuple[Any, ...]:
    """A ``rating_events`` row (both stores), in `CHANGE_COLUMNS` order, then ``created_at``."""
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


def solo_row(scored: ScoredGame, now: float) -> tuple[Any, ...]:
    """A ``solo_scores`` row (both stores)."""
    (seat,) = scored.seats
    return (scored.table_id, seat.user_id, scored.game, scored.guild_id, seat.score, now)


def stat_rows(seats: Sequence[Seat], result: dict[str, Any]) -> list[tuple[int, int, float]]:
    """(user, won, score) of every person seated at a finished table (both stores).

    The same games `/stats` always counted: the human seats of a finished table with a
    result; a seat a bot took over counts for nobody.
    """
    winners = set(result.get("winners", ()))
    scores = result.get("scores") or []
    return [
        (s.user_id, int(s.seat in winners), float(scores[s.seat]) if s.seat < len(scores) else 0.0)
        for s in seats
        if not s.is_bot and s.user_id is not None
    ]


#: A history line's columns, as `FinishedGame` takes them (both stores).
FINISHED_COLUMNS = (
    "table_id, game, guild_id, channel_id, thread_id, finished_at, seat, players, place, score, won"
)


def finished_rows(table: TableRecord, result: dict[str, Any]) -> list[tuple[Any, ...]]:
    """`finished_seats` rows of a table just finished (both stores): (user, then `FINISHED_COLUMNS`),
    for the same seats as `stat_rows`."""
    winners = set(result.get("winners", ()))
    scores, ranking = result.get("scores") or [], result.get("ranking") or []

    def at(values: list, seat: int) -> Any:
        return values[seat] if seat < len(values) else 0

    where = (table.id, table.game, table.guild_id, table.channel_id, table.thread_id, table.updated_at)
    return [
        (
            s.user_id,
            *where,
            s.seat,
            len(table.seats),
            at(ranking, s.seat),
            at(scores, s.seat),
            int(s.seat in winners),
        )
        for s in table.seats
        if not s.is_bot and s.user_id is not None
    ]


def finished_game(row: Sequence[Any]) -> FinishedGame:
    """A history line from its `FINISHED_COLUMNS` (a whole score as an int, as the result had it)."""
    *columns, score, won = row
    score = int(score) if float(score).is_integer() else float(score)
    return FinishedGame(*columns, score=score, won=bool(won))


def solo_scopes(scored: ScoredGame) -> list[int]:
    """The solo boards a solo score goes on: across servers (0), and its server's."""
    return [0] if scored.guild_id is None else [0, scored.guild_id]


def moved_up(game: str, scope: int, games: int) -> list[tuple[Any, ...]]:
    """`board_sizes` changes for a player who now has ``games`` rated games on a board (both stores)."""
    moved = [("rating", game, scope, games, 1)]
    if games > 1:
        moved.append(("rating", game, scope, games - 1, -1))
    return moved


def solo_best_rows(scored: ScoredGame) -> list[tuple[Any, ...]]:
    """`solo_best` rows of a solo score (both stores): (game, scope, user, best, table)."""
    (seat,) = scored.seats
    return [(scored.game, scope, seat.user_id, seat.score, scored.table_id) for scope in solo_scopes(scored)]


def moved_down(game: str, scope: int, games: int) -> list[tuple[Any, ...]]:
    """`board_sizes` changes for a player whose ``games`` rated games on a board become one fewer
    (a voided game; both stores)."""
    moved = [("rating", game, scope, games, -1)]
    if games > 1:
        moved.append(("rating", game, scope, games - 1, 1))
    return moved


def check_min_games(min_games: int) -> None:
    """A place on a board is counted from `board_steps`, which count rated games up to a cap."""
    if not 1 <= min_games <= ratings.BOARD_GAMES_MAX:
        raise ValueError(f"places count 1 to {ratings.BOARD_GAMES_MAX} rated games, not {min_games}")


def season_event_row(guild_id: int, season: str, change: RatingChange) -> tuple[Any, ...]:
    """A ``season_events`` row: the season rating before a rated game (both stores)."""
    before = (change.mu_before, change.sigma_before, change.games - 1)
    return (change.table_id, change.user_id, guild_id, season, change.game, *before)


def season_row(guild_id: int, season: str, change: RatingChange) -> tuple[Any, ...]:
    """A ``season_ratings`` row after a rated game (both stores)."""
    return (
        guild_id,
        season,
        change.game,
        change.user_id,
        change.mu,
        change.sigma,
        change.games,
        ordinal_of(change),
    )
