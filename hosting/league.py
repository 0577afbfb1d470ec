"""A league's rules as pure functions: table sizes, Swiss pairing, points, standings (issue #38).

No Discord, no database, no clock: `hosting.leagues.LeagueService` reads the
store, calls these, and writes what they decided. The rules, and why, are in
docs/LEAGUES.md.

- **Tables.** A round seats the players in ``ceil(n / seats)`` tables whose
  numbers of people differ by at most one (the larger tables first, for the top
  of the standings); every table is then filled to ``seats`` with bots, so
  every table plays the same game. Seven players at four seats: a table of
  four people and a table of three people and a bot.
- **Pairing** (Swiss). Players in standings order (the first round: by
  rating); each table takes the best-placed player left and then, from the
  next `WINDOW` players, the one who met the table's players least often
  before (the best-placed on a tie). Then players are swapped between
  tables at most `REACH` apart while a swap lowers the repeat meetings.
  Nearby tables only: the standings stay close, and a thousand players
  pair in milliseconds.
- **Seats** rotate: at each table, whoever sat furthest back so far sits first.
- **Points** by placement at the table, bots included: at a table of ``s``
  seats, place ``p`` earns ``s - p``; players tied share the points of the
  places they cover (two tied firsts at four seats: (3 + 2) / 2 = 2.5 each).
- **Standings**: points, then total score, then rating (μ − 3σ), then who
  joined first (the user id, so the order is total).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

#: How far down the standings a table looks for a player it has not met (pairing).
WINDOW = 12
#: How many tables apart two players may be swapped (pairing).
REACH = 8
#: Passes of swaps between neighbouring tables (each pass stops early when nothing improves).
SWAP_PASSES = 4
#: A player's state in a league.
ACTIVE_PLAYER, DROPPED_MISSED, DROPPED_BY_ORGANISER = 0, 1, 2
#: A league's life: sign-up, running rounds, then finished (all rounds) or ended (by its organiser).
SIGNUP, RUNNING, FINISHED, ENDED = "signup", "running", "finished", "ended"
OPEN_LEAGUE = (SIGNUP, RUNNING)
#: A seat of a pairing that a bot plays (league table player lists hold user ids, and this).
BOT = 0

#: A league's columns in the stores, in `LeagueRecord`'s order.
LEAGUE_COLUMNS = (
    "id, guild_id, channel_id, organiser_id, name, game, seats, pace, rounds, rated, bot_level, cap, "
    "drop_after, round_length, status, round, deadline, message_id, created_at, updated_at, post_owed"
)


@dataclass(frozen=True)
class LeagueRecord:
    """One league as stored."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    game: str
    seats: int
    pace: int
    rounds: int
    rated: bool
    bot_level: str
    cap: int
    drop_after: int
    round_length: float  # seconds a round may last before its tables are played out
    status: str
    round: int  # the round being played; 0 before the first
    deadline: float | None  # when the current round ends at the latest
    message_id: int | None  # the sign-up message
    created_at: float
    updated_at: float
    post_owed: float | None = None  # a refused standings post is tried again from then on


@dataclass(frozen=True)
class LeaguePlayer:
    """A player's line in a league: what the closed rounds gave them."""

    user_id: int
    name: str
    points: float = 0.0
    score: float = 0.0
    played: int = 0
    missed: int = 0  # rounds missed in a row (their seat was handed to a bot)
    dropped: int = ACTIVE_PLAYER
    rating: float = 0.0  # μ − 3σ in the league's game (0 for a new player)
    place: int | None = None  # the final place, once the league is over

    @property
    def active(self) -> bool:
        """True while the player is paired in the coming rounds."""
        return self.dropped == ACTIVE_PLAYER


@dataclass(frozen=True)
class LeagueTable:
    """One table of a round: who sits where (`BOT` for a bot seat), and the hosted table once opened."""

    round: int
    table_no: int
    players: tuple[int, ...]
    table_id: int | None = None
    status: str | None = None  # the hosted table's status (None: not opened yet)


@dataclass(frozen=True)
class LeagueResult:
    """A player's result in a league that is over (a line of their `/history`)."""

    league_id: int
    name: str
    game: str
    guild_id: int
    channel_id: int
    place: int
    players: int
    points: float
    finished_at: float


@dataclass(frozen=True)
class SeatResult:
    """What one player's seat at a closed table gives them."""

    user_id: int
    points: float
    score: float
    missed: bool


@dataclass
class History:
    """What earlier rounds say about the players: whom each met, and where each sat."""

    met: dict[int, Counter[int]] = field(default_factory=dict)
    seats: dict[int, list[int]] = field(default_factory=dict)

    @classmethod
    def of(cls, tables: Iterable[LeagueTable]) -> History:
        """The history of these tables (earlier rounds)."""
        found = cls()
        for table in tables:
            people = [p for p in table.players if p != BOT]
            for seat, person in enumerate(table.players):
                if person == BOT:
                    continue
                found.seats.setdefault(person, []).append(seat)
                meets = found.met.setdefault(person, Counter())
                for other in people:
                    if other != person:
                        meets[other] += 1
        return found

    def meetings(self, person: int, others: Iterable[int]) -> int:
        """How many times ``person`` met these players before."""
        meets = self.met.get(person)
        return sum(meets[o] for o in others) if meets else 0


def table_sizes(players: int, seats: int) -> list[int]:
    """How many people sit at each table of a round: as even as possible, the larger tables first."""
    if players <= 0:
        return []
    count = -(-players // seats)
    base, extra = divmod(players, count)
    return [base + 1] * extra + [base] * (count - extra)


def standings(players: Iterable[LeaguePlayer]) -> list[LeaguePlayer]:
    """Players best first: points, then total score, then rating, then user id."""
    return sorted(players, key=lambda p: (-p.points, -p.score, -p.rating, p.user_id))


def places(ordered: Sequence[LeaguePlayer]) -> list[int]:
    """Each player's place in `standings` order; players equal in points, score and rating share one."""
    found: list[int] = []
    for i, player in enumerate(ordered):
        before = ordered[i - 1] if i else None
        same = before is not None and (before.points, before.score, before.rating) == (
            player.points,
            player.score,
            player.rating,
        )
        found.append(found[-1] if same else i + 1)
    return found


def placement_points(ranking: Sequence[int]) -> list[float]:
    """League points per seat from a table's ranking (``ranking[seat]`` is the place, 1 first).

    Place ``p`` of ``s`` seats earns ``s - p``; tied seats share the points of the places
    they cover.
    """
    seats = len(ranking)
    tied = Counter(ranking)
    return [seats - place - (tied[place] - 1) / 2 for place in ranking]


def table_results(
    table: LeagueTable, result: Mapping[str, Any], bot_seats: Iterable[int] = ()
) -> list[SeatResult]:
    """What a finished table gives each player: points by placement, the score, and whether they
    missed the round (their seat ended up played by a bot: ``bot_seats``)."""
    points = placement_points([int(r) for r in result["ranking"]])
    handed = set(bot_seats)
    return [
        SeatResult(person, points[seat], float(result["scores"][seat]), seat in handed)
        for seat, person in enumerate(table.players)
        if person != BOT
    ]


def apply_results(
    players: Sequence[LeaguePlayer], results: Iterable[SeatResult], drop_after: int
) -> list[LeaguePlayer]:
    """The players after a round: points and score added, misses counted, and who is dropped.

    A player who missed ``drop_after`` rounds in a row is dropped from pairing
    (`DROPPED_MISSED`); one who played resets their count.
    """
    by_user = {r.user_id: r for r in results}
    after = []
    for player in players:
        got = by_user.get(player.user_id)
        if got is None:
            after.append(player)
            continue
        missed = player.missed + 1 if got.missed else 0
        dropped = player.dropped
        if dropped == ACTIVE_PLAYER and missed >= drop_after:
            dropped = DROPPED_MISSED
        after.append(
            replace(
                player,
                points=player.points + got.points,
                score=player.score + got.score,
                played=player.played + 1,
                missed=missed,
                dropped=dropped,
            )
        )
    return after


def pair_round(
    players: Sequence[LeaguePlayer], seats: int, history: History, round_no: int
) -> list[LeagueTable]:
    """The tables of round ``round_no`` for the active players (Swiss; see the module's docstring)."""
    active = [p for p in players if p.active]
    if round_no == 1:  # nothing played yet: by rating
        order = [p.user_id for p in sorted(active, key=lambda p: (-p.rating, p.user_id))]
    else:
        order = [p.user_id for p in standings(active)]
    groups = _greedy(order, table_sizes(len(order), seats), history)
    _swap_neighbours(groups, history)
    rank = {person: i for i, person in enumerate(order)}
    tables = []
    for number, group in enumerate(groups, start=1):
        seated = _seat_order(group, history, rank)
        tables.append(LeagueTable(round_no, number, tuple(seated) + (BOT,) * (seats - len(seated))))
    return tables


def repeats(tables: Iterable[LeagueTable], history: History) -> int:
    """How many pairs of players at these tables had met before (counted once per meeting)."""
    total = 0
    for table in tables:
        people = [p for p in table.players if p != BOT]
        total += sum(history.meetings(p, people[i + 1 :]) for i, p in enumerate(people))
    return total


def _greedy(order: list[int], sizes: list[int], history: History) -> list[list[int]]:
    left = list(order)
    groups = []
    for size in sizes:
        group = [left.pop(0)]
        while len(group) < size:
            window = left[:WINDOW]
            best = min(range(len(window)), key=lambda i: (history.meetings(window[i], group), i))
            group.append(left.pop(best))
        groups.append(group)
    return groups


def _cost(group: list[int], history: History) -> int:
    return sum(history.meetings(p, group[i + 1 :]) for i, p in enumerate(group))


def _swap_neighbours(groups: list[list[int]], history: History) -> None:
    """Swap players between tables at most `REACH` apart while a swap lowers the repeat meetings."""
    for _ in range(SWAP_PASSES):
        improved = False
        pairs = [(a, b) for step in range(1, REACH + 1) for a, b in zip(groups, groups[step:], strict=False)]
        for a, b in pairs:
            if _cost(a, history) + _cost(b, history) == 0:
                continue
            for i in range(len(a)):
                for j in range(len(b)):
                    before = _cost(a, history) + _cost(b, history)
                    a[i], b[j] = b[j], a[i]
                    if _cost(a, history) + _cost(b, history) < before:
                        improved = True
                    else:
                        a[i], b[j] = b[j], a[i]
        if not improved:
            return


def _seat_order(group: list[int], history: History, rank: Mapping[int, int]) -> list[int]:
    """Rotate seats: who sat furthest back so far sits first (then by standings)."""

    def sat(person: int) -> float:
        earlier = history.seats.get(person, [])
        return sum(earlier) / len(earlier) if earlier else 0.0

    return sorted(group, key=lambda person: (-sat(person), rank[person]))
