"""The league service (issue #38): a league from sign-up to its podium, on the store and the tables.

It reads and writes leagues through the store, pairs with the pure rules of
`hosting.league`, and opens each round's tables through `TableService` as
`/play` does (a table row like any other, linked to its round in
``league_tables``). No Discord here: the cog (`cogs/league.py`) creates threads,
posts, and calls back.

Exactly once, across restarts and processes: a round is closed and the next one
paired by one conditional write (`Store.advance_league`), a round's table is
linked to one hosted table (`Store.attach_league_table`), and everything else is
read back from the store, so any process may look at a league at any time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace

import engine
from hosting import timing
from hosting.errors import TableError
from hosting.league import (
    ACTIVE_PLAYER,
    BOT,
    DROPPED_BY_ORGANISER,
    ENDED,
    FINISHED,
    RUNNING,
    SIGNUP,
    History,
    LeaguePlayer,
    LeagueRecord,
    LeagueTable,
    SeatResult,
    apply_results,
    pair_round,
    places,
    standings,
    table_results,
)
from hosting.records import ACTIVE, LOBBY, OPEN_STATUSES, Seat, TableRecord
from hosting.service import BOT_LEVELS, BOT_NAMES, TableService
from i18n import say, term

log = logging.getLogger(__name__)

#: The most rounds a league may have, and players it may take.
MAX_ROUNDS = 12
MAX_CAP = 200
#: Round lengths on offer (hours a round may last before its tables are played out).
ROUND_HOURS = (1, 24, 72, 168)
#: Rounds missed in a row after which a player is dropped from pairing, by default.
DROP_AFTER = 2


@dataclass(frozen=True)
class Closed:
    """A round closed (or the league ended): what the cog posts."""

    league: LeagueRecord
    round: int  # the round that closed (0: the league started)
    players: list[LeaguePlayer]  # in standings order
    dropped: list[LeaguePlayer]  # dropped for missed rounds by this close
    over: bool  # the league is over: final standings and the podium


class LeagueService:
    """Leagues from sign-up to the podium. Raises `TableError` for refusals, in words for the member."""

    def __init__(self, tables: TableService, *, clock: Callable[[], float] | None = None) -> None:
        self.tables = tables
        self.store = tables.store
        self._clock = clock or tables.now

    def now(self) -> float:
        """The service's clock (seconds since the epoch)."""
        return self._clock()

    # ------------------------------------------------------------ sign-up

    async def create(
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
        round_hours: int,
        drop_after: int = DROP_AFTER,
    ) -> LeagueRecord:
        """A new league open for sign-up (the organiser's choices checked)."""
        played = engine.get(game)
        name = " ".join(name.split())[:60]
        if not name:
            raise TableError(say("Give the league a name."))
        if not max(2, played.min_seats) <= seats <= played.max_seats:
            raise TableError(
                say(
                    "{game} seats {low} to {high} players at a league table.",
                    game=term(played.title),
                    low=max(2, played.min_seats),
                    high=played.max_seats,
                )
            )
        if not 1 <= rounds <= MAX_ROUNDS:
            raise TableError(say("A league has 1 to {most} rounds.", most=MAX_ROUNDS))
        if not 2 <= cap <= MAX_CAP:
            raise TableError(say("A league takes 2 to {most} players.", most=MAX_CAP))
        if pace not in timing.PACES.values():
            raise TableError(say("That pace is not on offer."))
        if bot_level not in BOT_LEVELS:
            raise TableError(say("That bot level is not on offer: easy, normal or expert."))
        if round_hours not in ROUND_HOURS:
            raise TableError(say("That round length is not on offer."))
        if not 1 <= drop_after <= MAX_ROUNDS:
            raise TableError(say("Players are dropped after 1 to {most} missed rounds.", most=MAX_ROUNDS))
        return await self.store.create_league(
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=organiser_id,
            name=name,
            game=game,
            seats=seats,
            pace=pace,
            rounds=rounds,
            rated=rated,
            bot_level=bot_level,
            cap=cap,
            drop_after=drop_after,
            round_length=round_hours * 3600.0,
            now=self.now(),
        )

    async def get(self, league_id: int) -> LeagueRecord:
        """The league, or a refusal when there is none."""
        league = await self.store.get_league(league_id)
        if league is None:
            raise TableError(say("There is no league #{league}.", league=league_id))
        return league

    async def join(self, league_id: int, user_id: int, name: str) -> LeagueRecord:
        """Sign a member up (before the league starts, up to its cap)."""
        answer = await self.store.join_league(league_id, user_id, name, self.now())
        if answer == "already":
            raise TableError(say("You are already signed up for this league."))
        if answer == "full":
            raise TableError(say("This league is full."))
        if answer == "closed":
            raise TableError(say("Sign-up for this league is closed."))
        return await self.get(league_id)

    async def leave(self, league_id: int, user_id: int) -> LeagueRecord:
        """Take a member off the league before it starts."""
        league = await self.get(league_id)
        if league.status != SIGNUP:
            raise TableError(say("The league has started: ask its organiser to drop you."))
        if not await self.store.leave_league(league_id, user_id):
            raise TableError(say("You are not signed up for this league."))
        return league

    async def players(self, league: LeagueRecord) -> list[LeaguePlayer]:
        """The league's players in standings order."""
        return standings(await self.store.league_players(league.id, league.game))

    # ------------------------------------------------------------ rounds

    async def start(self, league_id: int) -> Closed | None:
        """Close sign-up and pair the first round (None: another process or click did it first)."""
        league = await self.get(league_id)
        if league.status != SIGNUP:
            raise TableError(say("This league has already started."))
        players = await self.players(league)
        if len(players) < 2:
            raise TableError(say("A league needs at least 2 players to start."))
        tables = pair_round(players, league.seats, History(), 1)
        now = self.now()
        won = await self.store.advance_league(
            league.id,
            0,
            status=RUNNING,
            deadline=now + league.round_length,
            players=[],
            tables=tables,
            now=now,
        )
        return Closed(await self.get(league_id), 0, players, [], over=False) if won else None

    async def round_tables(self, league: LeagueRecord) -> list[LeagueTable]:
        """The current round's tables, with their hosted tables' statuses."""
        return await self.store.league_tables(league.id, league.round)

    async def close_round(self, league_id: int, *, deadline_passed: bool = False) -> Closed | None:
        """Close the current round if every table of it has closed: add its results, drop who
        missed too many rounds, and pair the next round (or end the league after the last).

        None when the round is still being played (or another process closed it first).
        """
        league = await self.get(league_id)
        if league.status != RUNNING:
            return None
        tables = await self.round_tables(league)
        if any(t.table_id is None or t.status in OPEN_STATUSES for t in tables):
            return None
        results: list[SeatResult] = []
        for table in tables:
            results.extend(await self._results_of(table))
        before = await self.store.league_players(league.id, league.game)
        after = apply_results(before, results, league.drop_after)
        dropped_now = [
            p for p, old in zip(after, before, strict=True) if p.dropped != old.dropped and not p.active
        ]
        over = league.round >= league.rounds or sum(p.active for p in after) < 2
        ordered = standings(after)
        now = self.now()
        if over:
            final = [replace(p, place=place) for p, place in zip(ordered, places(ordered), strict=True)]
            won = await self.store.advance_league(
                league.id, league.round, status=FINISHED, deadline=None, players=final, tables=[], now=now
            )
            ordered = final
        else:
            history = History.of(await self.store.league_tables(league.id))
            paired = pair_round(after, league.seats, history, league.round + 1)
            won = await self.store.advance_league(
                league.id,
                league.round,
                status=RUNNING,
                deadline=now + league.round_length,
                players=after,
                tables=paired,
                now=now,
            )
        if not won:
            return None
        return Closed(await self.get(league_id), league.round, ordered, dropped_now, over=over)

    async def _results_of(self, table: LeagueTable) -> list[SeatResult]:
        """What a closed table of the round gives its players; nothing for a table closed without a
        result (ended by a moderator, its thread deleted): documented in docs/LEAGUES.md."""
        if table.table_id is None:
            return []
        hosted = await self.tables.get(table.table_id)
        if hosted.result is None:
            return []
        handed = [
            seat
            for seat, person in enumerate(table.players)
            if person != BOT and not _still_theirs(hosted.seats[seat], person)
        ]
        return table_results(table, hosted.result, handed)

    async def end(self, league_id: int) -> Closed | None:
        """End the league now (its organiser): the standings as they are are final.

        The round's tables still running play on as ordinary tables; they no longer count.
        """
        league = await self.get(league_id)
        if league.status not in (SIGNUP, RUNNING):
            raise TableError(say("This league is already over."))
        ordered = await self.players(league)
        final = [replace(p, place=place) for p, place in zip(ordered, places(ordered), strict=True)]
        won = await self.store.advance_league(
            league.id, league.round, status=ENDED, deadline=None, players=final, tables=[], now=self.now()
        )
        return Closed(await self.get(league_id), league.round, final, [], over=True) if won else None

    async def owe_post(self, league_id: int, not_before: float | None) -> None:
        """The league owes its standings post (tried again from ``not_before``; None: paid)."""
        await self.store.owe_league_post(league_id, not_before)

    async def claim_post(self, league: LeagueRecord, until: float) -> bool:
        """Take the league's owed standings post for this process (False: taken or paid already)."""
        return league.post_owed is not None and await self.store.claim_league_post(
            league.id, league.post_owed, until
        )

    async def standings_now(self, league: LeagueRecord) -> Closed:
        """The standings as the last closed round left them: what an owed standings post shows.

        A newer round's standings supersede an older one's that could not be posted; the players
        dropped by that close show as "(dropped)" in the lines rather than in a note of their own.
        """
        over = league.status in (FINISHED, ENDED)
        closed_round = league.round if over else league.round - 1
        return Closed(league, closed_round, await self.players(league), [], over=over)

    async def drop(self, league_id: int, user_id: int, *, back: bool = False) -> LeagueRecord:
        """The organiser drops a player from pairing (``back``: reinstates them)."""
        league = await self.get(league_id)
        if league.status not in (SIGNUP, RUNNING):
            raise TableError(say("This league is already over."))
        dropped = ACTIVE_PLAYER if back else DROPPED_BY_ORGANISER
        if not await self.store.set_league_dropped(league_id, user_id, dropped):
            raise TableError(say("That member is not in this league."))
        return league

    # ------------------------------------------------------------ the round's tables

    async def table_for(self, league: LeagueRecord, table: LeagueTable) -> TableRecord | None:
        """The hosted table of a round's table: opened now (in its lobby, seated) unless it already
        was; None when another process opened it first (it posts it)."""
        if table.table_id is not None:
            return await self.tables.get(table.table_id)
        players = {p.user_id: p for p in await self.store.league_players(league.id, league.game)}
        policy = BOT_LEVELS[league.bot_level]
        seats: list[Seat] = []
        bots = iter(BOT_NAMES)
        for number, person in enumerate(table.players):
            if person == BOT:
                name = f"{next(bots, 'Bot')} ({league.bot_level})"
                seats.append(Seat(seat=number, name=name, kind="bot", policy=policy))
            else:
                seats.append(Seat(seat=number, name=players[person].name, kind="human", user_id=person))
        host = next(s for s in seats if not s.is_bot)
        now = self.now()
        options = {} if league.rated else {"rated": "no"}
        opened = await self.store.create_table(
            game=league.game,
            guild_id=league.guild_id,
            channel_id=league.channel_id,
            host=replace(host, seat=0),
            options=_with_defaults(league.game, options),
            now=now,
            pace=league.pace,
            wake_at=now + timing.LOBBY_LIFETIME,
        )
        opened = await self.store.update_table(opened.id, opened.version, seats=seats, now=now)
        if not await self.store.attach_league_table(league.id, table.round, table.table_no, opened.id):
            await self.store.update_table(opened.id, opened.version, status="cancelled", now=now)
            return None
        return opened

    async def start_table(self, table: TableRecord) -> TableRecord:
        """Start a league table in its lobby (its first human seat hosts it)."""
        if table.status != LOBBY:
            return table
        return await self.tables.start(table.id, table.host_id)

    async def play_out(self, league: LeagueRecord) -> list[tuple[int, list[dict]]]:
        """The round's deadline passed: every table still running is played to its end by bots
        (each seat's own policy, a person's seat the bots' usual one); (table id, events) of each."""
        played = []
        for table in await self.round_tables(league):
            if table.table_id is not None and table.status == ACTIVE:
                played.append((table.table_id, await self.tables.play_out(table.table_id)))
        return played


def _still_theirs(seat: Seat, person: int) -> bool:
    """True when the player still plays their own seat (not handed to a bot, nor to someone else)."""
    return not seat.is_bot and seat.user_id == person


def _with_defaults(game_key: str, options: dict[str, str]) -> dict[str, str]:
    chosen = dict(options)
    for name, allowed in engine.get(game_key).options.items():
        chosen.setdefault(name, allowed[0])
    return chosen
