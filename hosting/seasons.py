"""Seasons (issue #38): a server's rating boards that start afresh every month, quarter, or when
its organisers say, beside the all-time boards (docs/RATINGS.md, "Seasons").

A season is named by a key: ``2026-12`` (a calendar month, UTC), ``2026-Q4`` (a quarter,
UTC) or ``m0003`` (the third season an organiser started by hand). A rated game played in
a server with seasons counts for the season its finishing move falls in: nothing has to
happen at midnight, the first game of a new month simply starts that month's season.

A player's season rating starts, at their first rated game of the season in that server,
from their all-time rating just before it with σ widened (`start`): the season is a new
race, but a strong player is not thrown back to the start.

Pure: no SQL, no Discord. Both stores call `changes` inside the finishing transaction.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from dataclasses import dataclass

import i18n
from hosting import ratings
from hosting.ratings import Rating, RatingChange, ScoredGame

#: How long a server's seasons last ("manual": until an organiser starts the next one).
LENGTHS = ("month", "quarter", "manual")
#: σ added (in quadrature) to a player's all-time σ when their season rating starts: half of
#: a new player's σ (openskill's 25/3), never more than a new player's.
WIDEN = ratings.initial(0, "").sigma / 2
#: Rated games of the season (in that server) a player needs to be on a season board.
MIN_GAMES = 1


@dataclass(frozen=True)
class SeasonSettings:
    """A server's season length (None: no seasons) and the number of its manual season."""

    length: str | None = None
    number: int = 0


def key(settings: SeasonSettings, now: float) -> str | None:
    """The season a moment falls in for a server (None without seasons)."""
    if settings.length is None:
        return None
    when = dt.datetime.fromtimestamp(now, dt.UTC)
    if settings.length == "month":
        return f"{when.year}-{when.month:02d}"
    if settings.length == "quarter":
        return f"{when.year}-Q{(when.month - 1) // 3 + 1}"
    return f"m{settings.number:04d}"


def label(season: str, t: i18n.Words | None = None) -> str:
    """A season's name for people: "2026-12", "2026 Q4", "Season 3"."""
    t = t or i18n.words(i18n.SOURCE)
    if season.startswith("m") and season[1:].isdigit():
        return t("Season {number}", number=int(season[1:]))
    if "-Q" in season:
        year, quarter = season.split("-Q")
        return t("{year} Q{quarter}", year=year, quarter=quarter)
    return season


def start(alltime: Rating) -> Rating:
    """A player's season rating before their first rated game of the season: their all-time μ, and
    σ widened to √(σ² + `WIDEN`²), at most a new player's σ; no games yet."""
    fresh = ratings.initial(alltime.user_id, alltime.game).sigma
    sigma = min(fresh, math.sqrt(alltime.sigma**2 + WIDEN**2))
    return Rating(alltime.user_id, alltime.game, alltime.mu, sigma, 0)


def changes(
    scored: ScoredGame, season: Mapping[int, Rating], alltime_before: Mapping[int, Rating]
) -> list[RatingChange]:
    """The players' season ratings after a rated game: from their season rating, or (their first
    game of the season) from `start` of their all-time rating before this game."""
    current = {}
    for seat in scored.seats:
        user = seat.user_id
        current[user] = season.get(user) or start(
            alltime_before.get(user) or ratings.initial(user, scored.game)
        )
    return ratings.update(scored, current)
