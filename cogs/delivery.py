"""What Discord's answer to a table's post means, and a budget for the answers that refuse.

Every post a table owes (board, results, lobby, notes, reminders) goes through
the table runner (`cogs.runner`), which asks this module one question when a
post fails: is it *transient* (try again later), *blocked* (the table's channel
is refused to the bot: pause the table and tell its host), or *gone* (the
channel or the server is gone: close the table)?

Discord bans, for a while, an IP address whose requests are answered 401, 403
or 429 more than 10,000 times in 10 minutes ("Invalid Request Limit",
https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit),
so every server on that host loses the bot. `RefusalBudget` counts the bot's
own refused requests: each table may make at most `TABLE_LIMITS` of them, and
near `Config.refusal_threshold` for the whole process the bot drops optional
traffic (retries, DM reminders) before essential traffic.
"""

from __future__ import annotations

import enum
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable

import discord

from cogs.common import (
    CANNOT_DM,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    THREAD_LOCKED,
    UNKNOWN_CHANNEL,
    bot_permissions,
)
from hosting import counts

log = logging.getLogger(__name__)

#: HTTP statuses Discord counts as invalid requests.
REFUSED_STATUSES = (401, 403, 429)
#: Discord's window for invalid requests, and its limit per IP address.
DISCORD_WINDOW = 600.0
DISCORD_LIMIT = 10_000
#: Per table: (seconds, refused requests at most) — 2 in 10 minutes, 6 in a day.
TABLE_LIMITS = ((600.0, 2), (86_400.0, 6))
#: By default, optional traffic stops at this many refused requests in 10 minutes (a tenth of Discord's).
DEFAULT_THRESHOLD = 1_000
#: Tables whose refused requests are remembered (the oldest forgotten first; a forgotten table
#: starts afresh, which costs at most one more refusal in its window).
TABLES_KEPT = 100_000
#: While the process is near its refusal threshold, a transient failure's retry waits at least this long.
STRAINED_RETRY = 600.0
#: Players whose closed DMs are remembered until they use the bot again.
CLOSED_DMS_KEPT = 100_000


class Verdict(enum.Enum):
    """What a failed post means for the table."""

    TRANSIENT = "transient"  # 5xx, a timeout, 429, anything else: try again later
    BLOCKED = "blocked"  # the channel is refused to the bot: pause and tell the host
    GONE = "gone"  # the channel, or the bot's place in the server, is gone: close the table


def verdict(error: BaseException, *, in_server: bool = True) -> Verdict:
    """Read Discord's answer to a table's post.

    ``in_server`` says whether the bot is still in the table's server (a server
    that removed the bot answers 403 Missing Access on all its channels).
    """
    if not isinstance(error, discord.HTTPException):
        return Verdict.TRANSIENT
    if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:
        return Verdict.GONE
    if error.status == 403 and error.code == MISSING_ACCESS:
        return Verdict.BLOCKED if in_server else Verdict.GONE
    if error.status == 403 and error.code in (MISSING_PERMISSIONS, THREAD_LOCKED):
        return Verdict.BLOCKED
    return Verdict.TRANSIENT


def missing_to_post(channel: discord.abc.Messageable, *, in_thread: bool = False) -> list[str] | None:
    """The permissions the bot lacks to post here at all, from discord.py's cache (None: it cannot tell).

    A thread needs Send Messages in Threads, a channel Send Messages; both View
    Channel. ``in_thread``: ``channel`` is the parent of the thread to post in (discord.py
    dropped the archived thread; threads take their parent's permissions). Attach Files
    and Embed Links are not listed: without them a post goes out in words.
    """
    perms = bot_permissions(channel)
    if perms is None:
        return None
    threaded = in_thread or isinstance(channel, discord.Thread)
    needed = ("view_channel", "send_messages_in_threads" if threaded else "send_messages")
    return [name for name in needed if not getattr(perms, name)]


def thread_locked(channel: discord.abc.Messageable) -> bool:
    """True when the channel is a thread a moderator locked (the bot cannot post there)."""
    return isinstance(channel, discord.Thread) and bool(channel.locked)


class RefusalBudget:
    """The bot's refused requests (401, 403, 429): per table, and for the whole process.

    ``clock`` is the bot's clock in seconds (virtual under SimCord).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic, threshold: int = DEFAULT_THRESHOLD):
        self.clock = clock
        self.threshold = threshold
        self._process: deque[float] = deque()
        #: Per table id (or another key a post is owed under, such as ``("league", id)``).
        self._tables: OrderedDict[Hashable, deque[float]] = OrderedDict()
        #: Every refusal since start, for the logs and the health check.
        self.total = 0

    def record(self, status: int | None, table_id: Hashable | None = None) -> bool:
        """Count one answer; True when it was a refusal (401, 403 or 429)."""
        if status not in REFUSED_STATUSES:
            return False
        now = self.clock()
        self.total += 1
        counts.discord_refused(status)
        self._process.append(now)
        self._trim(self._process, now, DISCORD_WINDOW)
        if table_id is not None:
            times = self._tables.setdefault(table_id, deque())
            self._tables.move_to_end(table_id)
            times.append(now)
            self._trim(times, now, TABLE_LIMITS[-1][0])
            while len(self._tables) > TABLES_KEPT:
                self._tables.popitem(last=False)
        if len(self._process) == self.threshold:
            log.warning(
                "%d refused Discord requests in the last 10 minutes: optional posts (retries, "
                "DM reminders) stop until it falls (Discord bans an IP at %d)",
                len(self._process),
                DISCORD_LIMIT,
            )
        return True

    def recent(self) -> int:
        """Refused requests of the whole process in the last 10 minutes."""
        self._trim(self._process, self.clock(), DISCORD_WINDOW)
        return len(self._process)

    def strained(self) -> bool:
        """True near the threshold: optional traffic (retries, DM reminders) waits."""
        return self.recent() >= self.threshold

    def table_count(self, table_id: Hashable, window: float) -> int:
        """A table's refused requests in the last ``window`` seconds."""
        now = self.clock()
        return sum(1 for at in self._tables.get(table_id, ()) if at > now - window)

    def table_wait(self, table_id: Hashable) -> float:
        """Seconds until the table may risk another refused request (0: now)."""
        times = self._tables.get(table_id)
        if not times:
            return 0.0
        now = self.clock()
        wait = 0.0
        for window, limit in TABLE_LIMITS:
            inside = [at for at in times if at > now - window]
            if len(inside) >= limit:
                # Wait until the oldest refusal that fills the window has left it (a second past).
                wait = max(wait, inside[len(inside) - limit] + window + 1.0 - now)
        return wait

    def retry_wait(self, table_id: Hashable, at_least: float = 0.0) -> float:
        """Seconds before a post owed under ``table_id`` is tried again: at least ``at_least``, no
        sooner than its own budget allows, and `STRAINED_RETRY` while the process is strained."""
        wait = max(at_least, self.table_wait(table_id))
        return max(wait, STRAINED_RETRY) if self.strained() else wait

    @staticmethod
    def _trim(times: deque[float], now: float, window: float) -> None:
        while times and times[0] <= now - window:
            times.popleft()


class ClosedDMs:
    """Players whose DMs refused the bot (50007): reminders go to the thread until they use the bot again."""

    def __init__(self, kept: int = CLOSED_DMS_KEPT) -> None:
        self._users: OrderedDict[int, None] = OrderedDict()
        self._kept = kept

    def __contains__(self, user_id: int) -> bool:
        return user_id in self._users

    def close(self, user_id: int) -> None:
        """Discord refused a DM to this player."""
        self._users[user_id] = None
        self._users.move_to_end(user_id)
        while len(self._users) > self._kept:
            self._users.popitem(last=False)

    def reopen(self, user_id: int) -> None:
        """The player used the bot: their DMs may be open again."""
        self._users.pop(user_id, None)


def refused_dm(error: discord.HTTPException) -> bool:
    """True when Discord refuses DMs to that user (closed DMs, or no server in common)."""
    return error.code == CANNOT_DM
