"""Ratings: the openskill wrapper, and which finished games count.

Every finished game between people updates one rating per player per game
with openskill's Plackett–Luce model (a Weng–Lin Bayesian rating: each player
has a skill estimate ``mu`` and its uncertainty ``sigma``). The store calls
`update` inside the transaction that finishes the table, so a result and the
ratings it moves are written together or not at all.

Players see the *ordinal* μ − 3σ (a skill the player is very likely above),
scaled by `DISPLAY_SCALE` and rounded: everyone starts at 0 and climbs as the
uncertainty shrinks, and the change a game made is the difference of two such
numbers (+12, −8). The first `PROVISIONAL_GAMES` games are "provisional".

Not every game counts (`unrated_reason` says why in words for the results):
a seat played by a bot, a seat that changed hands, a solo game (it goes on its
solo board instead), games in which hints were used (the hook:
`hints_used`), and of course tables that never finished (abandoned or ended:
they never reach the finishing move).

Pure: no SQL, no Discord. The records here are what both stores return.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

import i18n

#: The rating model; its defaults are openskill's (μ = 25, σ = 25/3, β = 25/6).
MODEL = PlackettLuce()
#: How many standard deviations the shown rating stays below μ.
Z = 3.0
#: Shown rating = round(DISPLAY_SCALE × (μ − Z·σ)).
DISPLAY_SCALE = 10.0
#: A rating is "provisional" until the player has this many rated games of that game.
PROVISIONAL_GAMES = 5
#: A board's rule may ask for at most this many rated games: the stores count the players of
#: each board step by 1, 2, … up to this many games ("or more"), and no further.
BOARD_GAMES_MAX = 3
#: A rating board's steps per point of ordinal: a player's place is the players of the
#: steps above theirs (a sum of a few rows) plus those above them in their own step.
BOARD_STEPS_PER_POINT = 4


def board_step(ordinal: float) -> tuple[int, float]:
    """The step of the rating boards an ordinal falls in, and the next step's lowest ordinal
    (both exact: × 4 and ÷ 4 only move the binary point)."""
    step = math.floor(ordinal * BOARD_STEPS_PER_POINT)
    return step, (step + 1) / BOARD_STEPS_PER_POINT


@dataclass(frozen=True)
class Rating:
    """One player's rating in one game."""

    user_id: int
    game: str
    mu: float
    sigma: float
    games: int = 0  # rated games played

    @property
    def ordinal(self) -> float:
        """μ − Zσ, openskill's ordinal."""
        return MODEL.create_rating([self.mu, self.sigma]).ordinal(z=Z)

    @property
    def shown(self) -> int:
        """The number players see."""
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        """True for the first few games, while the rating says little."""
        return self.games < PROVISIONAL_GAMES

    def label(self, *, t: i18n.Words | None = None) -> str:
        """The rating and one σ of uncertainty in the shown scale: ``312 (±41, provisional)``."""
        t = t or i18n.words(i18n.SOURCE)
        sigma = round(DISPLAY_SCALE * self.sigma)
        if self.provisional:
            return t("{rating} (±{sigma}, provisional)", rating=self.shown, sigma=sigma)
        return t("{rating} (±{sigma})", rating=self.shown, sigma=sigma)


def shown(mu: float, sigma: float) -> int:
    """The rating players see for (μ, σ)."""
    return round(DISPLAY_SCALE * MODEL.create_rating([mu, sigma]).ordinal(z=Z))


#: A searching bot models a person by their record (issue #39: opponents modelled as what they
#: are): a settled rating's μ this far above a new player's is modelled as an expert bot, this
#: far below as the beginner; between them, or while provisional, as the search's own default
#: (a casual, greedy-like player). Openskill's new player has μ 25, σ 25/3.
MODEL_MARGIN_MU = 5.0


def observed_level(rating: Rating | None) -> str | None:
    """The bot level a searching bot models a person as, from their rating at this game: "expert",
    "beginner", or None (nothing to go on, or an ordinary record)."""
    if rating is None or rating.provisional:
        return None
    new = MODEL.rating().mu
    if rating.mu >= new + MODEL_MARGIN_MU:
        return "expert"
    if rating.mu <= new - MODEL_MARGIN_MU:
        return "beginner"
    return None


def initial(user_id: int, game: str) -> Rating:
    """A new player's rating: openskill's default μ and σ."""
    fresh = MODEL.rating()
    return Rating(user_id, game, fresh.mu, fresh.sigma, 0)


@dataclass(frozen=True)
class ScoredSeat:
    """A person's place and score in a finished game."""

    seat: int
    user_id: int
    rank: int  # 1 is first; tied seats share a rank
    score: int


@dataclass(frozen=True)
class ScoredGame:
    """A finished game that counts: rated between people, or a solo score."""

    table_id: int
    game: str
    guild_id: int | None
    seats: tuple[ScoredSeat, ...]

    @property
    def solo(self) -> bool:
        """A one-person game: it goes on the solo board and moves no rating."""
        return len(self.seats) == 1


@dataclass(frozen=True)
class RatingChange:
    """What one finished game did to one player's rating."""

    table_id: int
    user_id: int
    game: str
    guild_id: int | None
    seat: int
    rank: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    games: int  # rated games after this one

    @property
    def after(self) -> Rating:
        """The rating after the game."""
        return Rating(self.user_id, self.game, self.mu, self.sigma, self.games)

    @property
    def delta(self) -> int:
        """Change of the shown rating (+12, −8)."""
        return shown(self.mu, self.sigma) - shown(self.mu_before, self.sigma_before)


@dataclass(frozen=True)
class SoloScore:
    """A solo game's score, as the solo board keeps it."""

    table_id: int
    user_id: int
    game: str
    guild_id: int | None
    score: int
    created_at: float


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard: a place and either a rating or a best solo score."""

    rank: int
    user_id: int
    rating: Rating | None = None
    best: int | None = None  # solo boards: the best score
    table_id: int | None = None  # solo boards: the table of the best score
    games_here: int | None = None  # a server's rating board: the rated games it counts (in that server)


def signed(delta: int) -> str:
    """+12, −8, ±0 (with a real minus sign)."""
    if delta > 0:
        return f"+{delta}"
    if delta < 0:
        return f"−{-delta}"
    return "±0"


# ------------------------------------------------------------- which games count


def hints_used(table: Any, result: Mapping[str, Any]) -> bool:
    """The hook for hints: True when the game used hints, so it moves no rating.

    No game offers hints yet. When one does, its result (``"hints_used": true``)
    or a table option ``hints`` other than ``"off"`` marks the game, and this is
    the one place that reads it.
    """
    return bool(result.get("hints_used")) or table.options.get("hints", "off") != "off"


def unrated_reason(
    table: Any, result: Mapping[str, Any] | None, *, t: i18n.Words | None = None, hints_said: bool = False
) -> str | None:
    """Why a finished table moves no rating, in words for the results (``t``'s language); None when rated.

    ``hints_said``: the results already say the table is not rated for its hints, so that reason
    is not given again (None).
    """
    t = t or i18n.words(i18n.SOURCE)
    if result is None:
        return t("Not rated: the game did not finish.")
    if len(table.seats) == 1:
        return t("Solo game: not rated; the score goes on the solo board (`/leaderboard`).")
    if table.options.get("rated") == "no":  # a league its organiser made unrated (issue #38)
        return t("Not rated: this league is not rated.")
    if any(s.is_bot for s in table.seats):
        return t("Not rated: a bot played a seat.")
    if any(s.former for s in table.seats):
        return t("Not rated: a seat changed hands during the game.")
    if hints_used(table, result):
        return None if hints_said else t("Not rated: hints were used.")
    return None


def scored_game(table: Any, result: Mapping[str, Any]) -> ScoredGame | None:
    """What the finishing move records: the rated game, a solo score, or nothing (None)."""
    reason = unrated_reason(table, result)
    solo = len(table.seats) == 1 and not table.seats[0].is_bot and not hints_used(table, result)
    if reason is not None and not solo:
        return None
    seats = tuple(
        ScoredSeat(s.seat, s.user_id, int(result["ranking"][s.seat]), int(result["scores"][s.seat]))
        for s in table.seats
    )
    return ScoredGame(table.id, table.game, table.guild_id, seats)


def update(game: ScoredGame, current: Mapping[int, Rating]) -> list[RatingChange]:
    """The new ratings after a rated game (openskill Plackett–Luce, ranks with ties).

    ``current`` maps each player's user id to their rating before the game
    (missing: a new player).
    """
    before = [current.get(s.user_id) or initial(s.user_id, game.game) for s in game.seats]
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in before]
    rated = MODEL.rate(teams, ranks=[s.rank for s in game.seats])
    return [
        RatingChange(
            table_id=game.table_id,
            user_id=s.user_id,
            game=game.game,
            guild_id=game.guild_id,
            seat=s.seat,
            rank=s.rank,
            mu_before=old.mu,
            sigma_before=old.sigma,
            mu=team[0].mu,
            sigma=team[0].sigma,
            games=old.games + 1,
        )
        for s, old, team in zip(game.seats, before, rated, strict=True)
    ]


def ordered(standings: Sequence[Rating]) -> list[Rating]:
    """Ratings best first (ordinal, then the user id for a stable order)."""
    return sorted(standings, key=lambda r: (-(r.mu - Z * r.sigma), r.user_id))


def change_text(change: RatingChange, *, t: i18n.Words | None = None) -> str:
    """A seat's rating on the results: "rating 34 (+34, provisional)" (in ``t``'s language)."""
    t = t or i18n.words(i18n.SOURCE)
    after = change.after
    if after.provisional:
        return t("rating {rating} ({change}, provisional)", rating=after.shown, change=signed(change.delta))
    return t("rating {rating} ({change})", rating=after.shown, change=signed(change.delta))


# ------------------------------------------------------------- rating history (issue #38)


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating in one game right after one of their rated games (a rating-change row)."""

    game: str
    table_id: int
    guild_id: int | None
    rank: int  # their place at that table (1 first; tied seats share a place)
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    games: int  # rated games of that game after this one
    at: float  # when the game finished

    @property
    def shown(self) -> int:
        """The rating players saw after this game."""
        return shown(self.mu, self.sigma)


@dataclass(frozen=True)
class HeadToHead:
    """Two players' finished games together, of one game: how many, and who placed higher."""

    game: str
    together: int
    higher: int  # games the first player placed above the second
    lower: int  # games the second placed above the first (the rest were shared places)


def best_shown(points: Sequence[RatingPoint]) -> int | None:
    """The best rating shown after any of these games (None without games)."""
    return max((p.shown for p in points), default=None)


def win_streak(points: Sequence[RatingPoint]) -> int:
    """The current streak: the newest rated games in a row (of one game, oldest first) finished in
    first place, a shared first place included; 0 when the newest was not a win."""
    streak = 0
    for point in reversed(points):
        if point.rank != 1:
            break
        streak += 1
    return streak
