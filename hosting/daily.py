"""The daily Reef (issue #38, docs/DAILY.md): one seeded solo game of Reef & Ruins per UTC day.

Everyone who plays on a day gets the same game: its seed, reef and round-tracker side
come from the date alone (`day_seed`, `day_options`), so the dice, the reef and the
tracker are the same for everyone, worldwide. A player's game of the day is an ordinary
solo Reef table (moves, panels, boards, restarts and the runner work as for `/play`)
marked with the host option ``daily`` = the day, and recorded in the store's
``daily_games`` (one row per player and day: the store decides that a player plays the
day's game once, across processes). Its score is the table's solo score; the day's
board counts the games finished before the day closed. No Discord imports here.
"""

from __future__ import annotations

import datetime
import hashlib
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

import engine
from hosting.errors import TableError
from hosting.records import ACTIVE, LOBBY, Seat, TableRecord
from i18n import say

if TYPE_CHECKING:  # the service imports this module (`refuse_closed`)
    from hosting.service import TableService

#: The game the daily challenge is played in.
GAME = "reef"
#: The table option that marks a daily table (its value: the day, ``YYYY-MM-DD``).
DAILY = "daily"
#: The days a streak looks back over at most.
STREAK_DAYS = 400
#: A salt for the day's seed: another salt would give another series of daily games.
SEED_SALT = "seagames daily reef"


def day_of(now: float) -> str:
    """The UTC day of an instant, as ``YYYY-MM-DD`` (the daily game changes at midnight UTC)."""
    return datetime.datetime.fromtimestamp(now, datetime.UTC).date().isoformat()


def day_start(day: str) -> float:
    """Midnight UTC at the start of ``day`` (seconds since the epoch)."""
    date = datetime.date.fromisoformat(day)
    return datetime.datetime(date.year, date.month, date.day, tzinfo=datetime.UTC).timestamp()


def day_end(day: str) -> float:
    """Midnight UTC at the end of ``day``: when its game closes and the next one opens."""
    return day_start(day) + 86400.0


def day_before(day: str) -> str:
    """The day before ``day``."""
    return (datetime.date.fromisoformat(day) - datetime.timedelta(days=1)).isoformat()


def day_seed(day: str) -> int:
    """The day's seed: from the date only, the same in every process and server (62 bits)."""
    digest = hashlib.blake2b(f"{SEED_SALT} {day}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 2


def day_options(day: str) -> dict[str, str]:
    """The day's reef and round-tracker side, drawn from its seed (the same for everyone)."""
    rng = random.Random(day_seed(day))
    game = engine.get(GAME)
    return {name: rng.choice(values) for name, values in sorted(game.options.items())}


def daily_day(table: TableRecord) -> str | None:
    """The day a table is the daily game of; None for any other table."""
    day = table.options.get(DAILY)
    return day if isinstance(day, str) else None


def hidden_from(table: TableRecord, user_id: int, now: float) -> bool:
    """Whether ``user_id`` may not look at this table (`/game board`, replay, export) now.

    A daily game's sheet shows the day's dice: until the day closes, only its player sees it.
    """
    day = daily_day(table)
    return day is not None and now < day_end(day) and not table.held_by(user_id)


def closed_for(table: TableRecord, now: float) -> bool:
    """Whether a daily table's day has closed (no more moves: the day's best sheet is public)."""
    day = daily_day(table)
    return day is not None and now >= day_end(day)


@dataclass(frozen=True)
class Entry:
    """A player's game of a day: its table, and its score once finished in time."""

    day: str
    table_id: int
    guild_id: int | None
    score: int | None
    finished_at: float | None

    @property
    def finished(self) -> bool:
        """True once the game finished before the day closed (it is on the day's board)."""
        return self.score is not None


@dataclass(frozen=True)
class Line:
    """One line of a day's board."""

    place: int
    user_id: int
    score: int
    table_id: int


@dataclass(frozen=True)
class Opened:
    """What `/daily play` got: the player's table of the day, whether this call opened it, and
    whether this call started it (its first board is still to post)."""

    table: TableRecord
    new: bool
    started: bool = False


class DailyReef:
    """The day's game for each player, and the day's boards and streaks, over the table service."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.store = service.store

    def today(self) -> str:
        """The UTC day now (by the service's clock, which SimCord moves in tests)."""
        return day_of(self.service.now())

    async def entry(self, user_id: int, day: str | None = None) -> Entry | None:
        """A player's game of ``day`` (today by default); None when they have not played it."""
        day = day or self.today()
        row = await self.store.daily_entry(day, user_id)
        if row is None:
            return None
        table_id, guild_id, score, finished_at = row
        return Entry(day, table_id, guild_id, score, finished_at)

    async def open(
        self, *, user_id: int, name: str, guild_id: int | None, channel_id: int, thread_id: int | None
    ) -> Opened:
        """Open today's game for a player in ``thread_id`` (a private thread), or find the one they have.

        The table is created (with its thread attached before anything is posted), then the
        day is claimed for the player; a player who already holds the day (an earlier
        `/daily`, or another process a moment ago) gets that table back and this one is
        cancelled unseen. A claimed table that never started (a restart in between) starts now.
        """
        day = self.today()
        held = await self.entry(user_id, day)
        if held is not None:
            return await self._held(held.table_id, user_id, day)
        now = self.service.now()
        table = await self.store.create_table(
            game=GAME,
            guild_id=guild_id,
            channel_id=channel_id,
            host=Seat(seat=0, name=name, kind="human", user_id=user_id),
            options={**day_options(day), DAILY: day},
            now=now,
            pace=0,
            wake_at=None,  # no lobby expiry: it starts at once (or at the next /daily after a restart)
        )
        if thread_id is not None:
            await self.store.set_messages(table.id, thread_id=thread_id)
        claimed = await self.store.daily_claim(
            day, user_id, table.id, guild_id=guild_id, now=now, closes_at=day_end(day)
        )
        if claimed != table.id:
            await self.service.cancel(table.id, user_id, can_manage=True)
            return await self._held(claimed, user_id, day)
        return await self._start(table.id, user_id, day, new=True)

    async def _held(self, table_id: int, user_id: int, day: str) -> Opened:
        """The day's table a player holds, started with the day's seed if it is still in its lobby."""
        table = await self.service.get(table_id)
        if table.status != LOBBY:
            return Opened(table, new=False)
        return await self._start(table_id, user_id, day, new=False)

    async def _start(self, table_id: int, user_id: int, day: str, *, new: bool) -> Opened:
        """Start the day's table with the day's seed. Two `/daily play` at once in two processes
        both find it in its lobby and both start it; the one that comes second gets the table as
        the first left it (that one posts its first board)."""
        try:
            started = await self.service.start(table_id, user_id, seed=day_seed(day))
        except TableError:  # a stale version, or no longer in its lobby: started a moment ago
            table = await self.service.get(table_id)
            if table.status == LOBBY:
                raise
            return Opened(table, new=new)
        return Opened(started, new=new, started=True)

    async def board(
        self, day: str, *, guild_id: int | None = None, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[Line]]:
        """(how many finished ``day``'s game, one page of its board), best score first.

        Ties go to who finished first. ``guild_id``: the games started in that server; None: everyone's.
        """
        count, rows = await self.store.daily_board(day, guild_id=guild_id, offset=offset, limit=limit)
        return count, [
            Line(offset + i + 1, user, score, table) for i, (user, score, table, _) in enumerate(rows)
        ]

    async def place(self, entry: Entry, user_id: int, *, guild_id: int | None = None) -> int | None:
        """A player's place on their day's board (this server's with ``guild_id``); None unfinished."""
        if entry.score is None or entry.finished_at is None:
            return None
        return await self.store.daily_place(
            entry.day, user_id, entry.score, entry.finished_at, guild_id=guild_id
        )

    async def streak(self, user_id: int) -> int:
        """How many days in a row, up to today (or yesterday, while today's is still to play), the
        player finished the day's game before the day closed."""
        days = await self.store.daily_days(user_id, limit=STREAK_DAYS)
        today = self.today()
        expected = today if days and days[0] == today else day_before(today)
        count = 0
        for day in days:
            if day != expected:
                break
            count += 1
            expected = day_before(day)
        return count

    async def best(self, day: str) -> TableRecord | None:
        """The best finished table of a closed day (None while the day runs, or when nobody finished)."""
        if self.service.now() < day_end(day):
            return None
        _, lines = await self.board(day, limit=1)
        return await self.service.get(lines[0].table_id) if lines else None


def refuse_closed(table: TableRecord, now: float) -> None:
    """Refuse a move at a daily table whose day has closed (`TableError`)."""
    if table.status == ACTIVE and closed_for(table, now):
        raise TableError(
            say(
                "This daily game closed at midnight UTC, before it was finished: "
                "it does not go on the day's board. `/daily play` opens today's."
            )
        )
