"""The records the hosting keeps: a table, its seats, its log, a player's history and stats.

Plain frozen dataclasses and the table statuses, the same whichever store
(`hosting.store.Store` on SQLite, `hosting.pg_store.PostgresStore` on PostgreSQL)
wrote them; the service, the cogs and the tools import them from here, never
from a store module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Statuses of a table's life. Lobby and active tables are "open".
LOBBY, ACTIVE, FINISHED, CANCELLED = "lobby", "active", "finished", "cancelled"
#: A table whose thread, channel or server is gone: closed without a result.
ABANDONED = "abandoned"
OPEN_STATUSES = (LOBBY, ACTIVE)
#: ``owed_posts`` of a table whose channel Discord refuses to the bot (`TableRecord.blocked`).
BLOCKED = -1

#: A running table this many seconds past its deadline (and not paused) is stuck: the clock acts
#: on a deadline within seconds of it.
STUCK_AFTER = 300.0


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
    #: Failed attempts at a board or results message still owed (0: none); `BLOCKED` while Discord
    #: refuses the table's channel to the bot (a missing permission, a locked thread): the table is
    #: paused and owes its post until the cause is gone.
    owed_posts: int = 0

    @property
    def blocked(self) -> bool:
        """True while Discord refuses the table's channel to the bot (the table waits, paused)."""
        return self.owed_posts == BLOCKED

    def held_by(self, user_id: int) -> bool:
        """True when this user holds or ever held a seat here (a bot now plays a seat they left)."""
        return any(s.user_id == user_id or user_id in s.former for s in self.seats)

    def seat_of(self, user_id: int) -> Seat | None:
        """The human seat this user holds, if any."""
        return next((s for s in self.seats if s.user_id == user_id and not s.is_bot), None)


@dataclass(frozen=True)
class FinishedGame:
    """One line of a player's history: a finished table and how their seat ended it."""

    id: int  # the table's
    game: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    finished_at: float
    seat: int
    players: int  # seats at the table
    place: int
    score: int | float
    won: bool


@dataclass(frozen=True)
class LoggedAction:
    """One entry of a table's action log."""

    seq: int
    seat: int
    action: dict[str, Any]
    created_at: float


@dataclass(frozen=True)
class PlayerStats:
    """A player's finished games of one game, as the finishing moves kept them (`/stats`)."""

    game: str
    played: int
    wins: int
    score_total: float

    @property
    def average(self) -> float:
        """The average score over the finished games."""
        return self.score_total / self.played if self.played else 0.0
