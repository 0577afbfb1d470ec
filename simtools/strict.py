"""A stricter Discord for the tests: SimCord made to answer the way Discord documents.

SimCord runs the real discord.py against an in-memory Discord, but it is more
lenient than Discord in ways that matter to a game host: threads never archive,
a restart sees archived threads, permissions that Discord enforces on sends are
not checked, there is no active-thread cap, no rate limit, and the 3-second
interaction window is counted in virtual time only (which stands still). This
module closes those gaps without touching the bot:

* :class:`StrictBackend` subclasses SimCord's ``Backend`` (the in-memory Discord)
  and overrides its public operations (``create_thread``, ``prepare_message``,
  ``commit_message``, ``edit_message``, ``edit_channel``, ``emit``,
  ``new_interaction``) and the two resource-deadline hooks the env's clock calls
  (``next_poll_deadline`` / ``expire_due_polls``), so an auto-archive happens at
  the exact virtual instant during ``env.advance_time``.
* :class:`StrictHTTPClient` / :class:`StrictWebhookAdapter` subclass SimCord's
  two fake transports to add what only a transport can do: the real-time rate
  limits (with discord.py's own retry emulated, see :meth:`StrictHTTPClient.request`)
  and the real-time 3-second interaction window.
* :class:`StrictEnv` is a SimCord ``Env`` with the strict backend and transports.

Each rule, with the Discord documentation it comes from, is tabled in
docs/RELIABILITY.md, "The stricter Discord in the tests".

Helpers act as a moderator/admin would (archive or lock a thread, delete a
channel, take a permission away from the bot, remove the bot from the guild);
each is async and lets the bot react before it returns.
"""

from __future__ import annotations

import asyncio
import datetime
import fnmatch
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any

import discord

# SimCord has no public setting for the transports its attach step builds, so `_strict_transports`
# swaps them on its private `_runtime` module (pinned: simcord==3.2.* in pyproject.toml;
# tests/app/test_library_privates.py fails by name if a release moves them).
from simcord import _runtime
from simcord.backend import Backend
from simcord.backend.errors import BackendError
from simcord.backend.models import Message, Overwrite
from simcord.backend.permissions import flag
from simcord.enums import OverwriteType
from simcord.env import Env
from simcord.http.client import FakeHTTPClient, FakeWebhookAdapter

__all__ = [
    "DISCORD_MAX_ACTIVE_THREADS",
    "GLOBAL_RATE_LIMIT",
    "INTERACTION_RESPONSE_WINDOW",
    "OBSERVED_CHANNEL_MESSAGE_LIMIT",
    "REFUSAL_BUDGET",
    "CommandUnavailable",
    "RateLimitHit",
    "Refusal",
    "RefusalBudgetExceeded",
    "StrictBackend",
    "StrictEnv",
    "StrictHTTPClient",
    "StrictWebhookAdapter",
    "archive_thread",
    "bot_removed_from_guild",
    "bot_removed_while_down",
    "close_dms",
    "delete_channel",
    "remove_permission",
    "restore_permission",
    "run_strict",
    "set_guild_locale",
    "set_locale",
    "unarchive_thread",
]

#: Discord: "guilds are capped at a certain number of active threads"; the cap is 1,000.
DISCORD_MAX_ACTIVE_THREADS = 1000
#: Discord: "All bots can make up to 50 requests per second to our API."
GLOBAL_RATE_LIMIT = (50, 1.0)
#: Not documented by Discord (which says limits "should not be hard coded"); the
#: bucket Discord's headers report for POST /channels/{id}/messages is 5 per 5 s.
#: Off by default; a test opts in with
#: ``env.backend.route_rate_limits[("POST", "/channels/*/messages")] = OBSERVED_CHANNEL_MESSAGE_LIMIT``.
OBSERVED_CHANNEL_MESSAGE_LIMIT = (5, 5.0)
#: Rule 9: refused requests (401, 403, 429) a test's bot may make in 10 virtual minutes. Discord bans
#: an IP at 10,000 ("Invalid Request Limit"); a bot that loops on a refusal passes any budget soon.
REFUSAL_BUDGET = (100, 600.0)
#: "you must send an initial response within 3 seconds of receiving the event".
INTERACTION_RESPONSE_WINDOW = 3.0
#: discord.py's HTTPClient.request tries a rate-limited request this many times.
DPY_TRIES = 5

# SimCord replaces time.monotonic with its virtual clock while a bot is attached;
# perf_counter is monotonic too and stays real.
_REAL_CLOCK: Callable[[], float] = time.perf_counter

_EPHEMERAL = 1 << 6
_APPLICATION_COMMAND = 2


def _thread_locked() -> BackendError:
    return BackendError(403, 160005, "Thread is locked")


def _thread_archived() -> BackendError:
    # The code is documented; the status and message are what Discord answers
    # (e.g. {"message": "Thread is archived", "code": 50083} with 400).
    return BackendError(400, 50083, "Thread is archived")


def _max_active_threads() -> BackendError:
    return BackendError(400, 160006, "Maximum number of active threads reached")


def _missing_permissions() -> BackendError:
    return BackendError(403, 50013, "Missing Permissions")


def _empty_message() -> BackendError:
    return BackendError(400, 50006, "Cannot send an empty message")


def _cannot_dm() -> BackendError:
    return BackendError(403, 50007, "Cannot send messages to this user")


class CommandUnavailable(Exception):
    """A test ran a slash command where Discord offers none (an archived thread)."""


class RefusalBudgetExceeded(BaseException):
    """The bot made more refused requests than the test's budget: Discord would ban its IP.

    A `BaseException`, so the bot's own ``except Exception`` cannot swallow it and
    spin on: the task that made the request stops, and the test fails at shutdown.
    """


@dataclass
class Refusal:
    """One request Discord answered 401, 403 or 429 (rule 9)."""

    at: float  # virtual seconds since the epoch
    method: str
    path: str
    status: int
    code: int


@dataclass
class RateLimitHit:
    """One 429 the strict layer answered."""

    method: str
    path: str
    retry_after: float
    is_global: bool
    bucket: str

    def to_json(self) -> dict[str, Any]:
        return {
            "message": "You are being rate limited.",
            "retry_after": round(self.retry_after, 3),
            "global": self.is_global,
        }


class _Window:
    """A sliding window of admitted request instants (real seconds)."""

    def __init__(self) -> None:
        self.times: deque[float] = deque()

    def retry_after(self, now: float, limit: int, per: float) -> float:
        while self.times and self.times[0] <= now - per:
            self.times.popleft()
        if len(self.times) < limit:
            return 0.0
        return max(self.times[0] + per - now, 0.001)


class StrictBackend(Backend):
    """SimCord's in-memory Discord with the documented rules SimCord leaves out."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: Rule 5: the active-thread cap per guild (a test may lower it).
        self.max_active_threads = DISCORD_MAX_ACTIVE_THREADS
        #: Rule 6: (requests, seconds) for every bot-token request; None turns it off.
        self.global_rate_limit: tuple[int, float] | None = GLOBAL_RATE_LIMIT
        #: Rule 6: per-route limits, {(method, fnmatch path pattern): (requests, seconds)},
        #: counted per top-level resource (``/channels/{id}``) as Discord does.
        self.route_rate_limits: dict[tuple[str, str], tuple[int, float]] = {}
        #: Rule 6: every 429 answered, in order.
        self.rate_limited: list[RateLimitHit] = []
        #: Rule 7: real seconds the bot has for an interaction's initial response.
        self.interaction_response_window = INTERACTION_RESPONSE_WINDOW
        #: The real clock the rate limits and the interaction window read.
        self.real_clock: Callable[[], float] = _REAL_CLOCK
        self._windows: dict[str, _Window] = {}
        self._thread_activity: dict[int, datetime.datetime] = {}
        self._interaction_born: dict[int, float] = {}
        #: Rule 8: each user's Discord client language (``set_locale``); unset users use en-US.
        self.user_locales: dict[int, str] = {}
        #: Rule 9: every refused request, and the budget (count, virtual seconds); None turns it off.
        self.refusals: list[Refusal] = []
        self.refusal_budget: tuple[int, float] | None = REFUSAL_BUDGET
        self.refusal_budget_exceeded: str | None = None
        #: Rule 10: servers that removed the bot while it was down: no GUILD_CREATE, and 403 50001.
        self.left_while_down: set[int] = set()
        #: Rule 11: users who closed their DMs to the bot (50007).
        self.closed_dms: set[int] = set()

    # ---------------------------------------------------------------- helpers

    def _now(self) -> datetime.datetime:
        return datetime.datetime.fromisoformat(self.now_iso())

    def _has(self, guild_id: int | None, user_id: int, channel_id: int, name: str) -> bool:
        if guild_id is None:
            return True
        return bool(self.compute_permissions(guild_id, user_id, channel_id) & flag(name))

    def _bot_channel_message(self, author_id: int, **fields: Any) -> bool:
        """A message the bot sends with its token (not an interaction response, webhook or system message)."""
        return (
            author_id == self.bot_user.id
            and fields.get("interaction_metadata") is None
            and fields.get("webhook_id") is None
            and fields.get("system_metadata") is None
            and fields.get("message_type") is None
        )

    # --------------------------------------------- rule 1: auto-archive threads

    def archive_deadline(self, thread_id: int) -> datetime.datetime | None:
        """When the thread auto-archives if nothing happens in it (None if archived)."""
        thread = self.channels.get(thread_id)
        if thread is None or thread.thread_metadata is None or thread.thread_metadata.archived:
            return None
        last = self._thread_activity.get(thread_id)
        if last is None:
            last = datetime.datetime.fromisoformat(thread.thread_metadata.archive_timestamp or self.now_iso())
        return last + datetime.timedelta(minutes=thread.thread_metadata.auto_archive_duration)

    def _touch_thread(self, thread_id: int) -> None:
        self._thread_activity[thread_id] = self._now()

    def _next_archive(self) -> datetime.datetime | None:
        deadlines = [self.archive_deadline(tid) for guild in self.guilds.values() for tid in guild.thread_ids]
        return min((d for d in deadlines if d is not None), default=None)

    def archive_due_threads(self) -> list[int]:
        """Archive every thread whose inactivity period has run out (THREAD_UPDATE archived=true)."""
        now = self._now()
        due = [
            tid
            for guild in self.guilds.values()
            for tid in guild.thread_ids
            if (deadline := self.archive_deadline(tid)) is not None and deadline <= now
        ]
        for thread_id in due:
            self.edit_channel(thread_id, {}, thread_metadata={"archived": True})
        return due

    def next_poll_deadline(self) -> datetime.datetime | None:
        # Env._next_resource_deadline asks this; adding the next auto-archive makes
        # advance_time stop at that exact instant.
        deadlines = [d for d in (super().next_poll_deadline(), self._next_archive()) if d is not None]
        return min(deadlines, default=None)

    def expire_due_polls(self) -> None:
        # Env._process_resource_deadlines calls this after every clock move.
        super().expire_due_polls()
        self.archive_due_threads()

    def edit_channel(
        self,
        channel_id: int,
        changes: Mapping[str, Any],
        *,
        overwrites: list[Overwrite] | None = None,
        thread_metadata: Mapping[str, Any] | None = None,
    ) -> Any:
        channel = self.get_channel(channel_id)
        meta = channel.thread_metadata
        if meta is not None and thread_metadata:
            thread_metadata = dict(thread_metadata)
            unarchived = meta.archived and thread_metadata.get("archived") is False
            archived = not meta.archived and thread_metadata.get("archived") is True
            duration = thread_metadata.get("auto_archive_duration")
            new_duration = duration is not None and int(duration) != meta.auto_archive_duration
            if unarchived or archived or new_duration:
                # "archive_timestamp is changed when creating, archiving, or unarchiving
                # a thread, and when changing the auto_archive_duration field."
                thread_metadata.setdefault("archive_timestamp", self.now_iso())
            if unarchived or new_duration:
                # "Activity" is "sending a message, unarchiving a thread, or changing
                # the auto-archive time".
                self._touch_thread(channel_id)
        return super().edit_channel(
            channel_id, changes, overwrites=overwrites, thread_metadata=thread_metadata
        )

    # ---------------------------------- rule 2: GUILD_CREATE has active threads only

    def emit(self, event: str, payload: Mapping[str, Any]) -> None:
        if event == "GUILD_CREATE" and int(payload.get("id", 0)) in self.left_while_down:
            return  # rule 10: READY does not list a server that removed the bot while it was down
        if event == "GUILD_CREATE" and "threads" in payload:
            payload = dict(payload)
            payload["threads"] = [
                t for t in payload["threads"] if not (t.get("thread_metadata") or {}).get("archived")
            ]
        if event == "INTERACTION_CREATE":
            payload = self._with_locales(payload)
        super().emit(event, payload)

    # ------------------------------- rule 8: an interaction carries the user's and the server's language

    def _with_locales(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """Discord sends ``locale``, "the selected language of the invoking user", and, in a
        server, ``guild_locale``, "the guild's preferred locale"; SimCord sends en-US for both."""
        payload = dict(payload)
        user = (payload.get("member") or {}).get("user") or payload.get("user") or {}
        if user.get("id") is not None:
            payload["locale"] = self.user_locales.get(int(user["id"]), "en-US")
        if payload.get("guild_id") is not None:
            payload["guild_locale"] = self.get_guild(int(payload["guild_id"])).preferred_locale
        return payload

    # ------------------------------------- rule 5: the active-thread cap (and rule 1)

    def create_thread(self, parent_id: int, name: str, owner_id: int, **kwargs: Any) -> Any:
        parent = self.get_channel(parent_id)
        if (
            parent.guild_id is not None
            and len(self.active_threads(parent.guild_id)) >= self.max_active_threads
        ):
            raise _max_active_threads()
        thread = super().create_thread(parent_id, name, owner_id, **kwargs)
        self._touch_thread(thread.id)
        return thread

    # ------------------------- rules 3 and 4: sends and edits, archived threads, permissions

    def prepare_message(
        self, channel_id: int, author_id: int, content: str | None = "", **fields: Any
    ) -> Message:
        channel = self.get_channel(channel_id)
        if channel.guild_id is None and author_id == self.bot_user.id and not self._may_dm(channel):
            raise _cannot_dm()
        meta = channel.thread_metadata
        ephemeral = bool(int(fields.get("flags") or 0) & _EPHEMERAL)
        system = fields.get("system_metadata") is not None
        if (
            meta is not None
            and meta.locked
            and not ephemeral
            and not system
            and not self._has(channel.guild_id, author_id, channel_id, "manage_threads")
        ):
            if fields.get("interaction_metadata") is not None and meta.archived:
                # An interaction answered in a locked, archived thread fails with
                # "Thread is archived" (discord/discord-api-docs#5517).
                raise _thread_archived()
            # "Users won't be able to create or update messages in locked threads";
            # "Sending a message will automatically unarchive the thread, unless the
            # thread has been locked by a moderator."
            raise _thread_locked()
        if self._bot_channel_message(author_id, **fields) and channel.guild_id is not None:
            if fields.get("attachments") and not self._has(
                channel.guild_id, author_id, channel_id, "attach_files"
            ):
                raise _missing_permissions()
            if fields.get("embeds") and not self._has(channel.guild_id, author_id, channel_id, "embed_links"):
                fields["embeds"] = []
                if not (
                    content
                    or fields.get("components")
                    or fields.get("attachments")
                    or fields.get("stickers")
                    or fields.get("poll")
                ):
                    # Embeds were all the message had: Discord refuses it with
                    # Missing Permissions (discord/discord-api-docs#2601).
                    raise _missing_permissions()
        return super().prepare_message(channel_id, author_id, content, **fields)

    def commit_message(self, message: Message, *, broadcast: bool = True) -> Message:
        channel = self.get_channel(message.channel_id)
        meta = channel.thread_metadata
        counts = meta is not None and not message.is_ephemeral and message.system_metadata is None
        if counts and meta.archived:
            # "Sending a message will automatically unarchive the thread" (THREAD_UPDATE
            # archived=false before the MESSAGE_CREATE). Locked threads were refused in
            # prepare_message unless the author has Manage Threads.
            self.edit_channel(channel.id, {}, thread_metadata={"archived": False})
        committed = super().commit_message(message, broadcast=broadcast)
        if counts and committed.id in self.messages.get(channel.id, {}):
            self._touch_thread(channel.id)
        return committed

    def edit_message(self, channel_id: int, message_id: int, fields: dict[str, Any]) -> Message:
        channel = self.get_channel(channel_id)
        message = self.get_message(channel_id, message_id)
        meta = channel.thread_metadata
        if meta is not None and not message.is_ephemeral:
            if meta.archived:
                # "Users cannot edit messages ... in archived threads"; 50083 "Tried to
                # perform an operation on an archived thread, such as editing a message".
                raise _thread_archived()
            if meta.locked and not self._has(
                channel.guild_id, self.bot_user.id, channel_id, "manage_threads"
            ):
                raise _thread_locked()
        bot_token_edit = (
            message.author_id == self.bot_user.id
            and message.interaction_metadata is None
            and message.webhook_id is None
        )
        if (
            bot_token_edit
            and channel.guild_id is not None
            and fields.get("embeds")
            and not self._has(channel.guild_id, self.bot_user.id, channel_id, "embed_links")
        ):
            # Without Embed Links the embeds of an edit are ignored (discord/discord-api-docs#5648).
            fields = {**fields, "embeds": []}
        return super().edit_message(channel_id, message_id, fields)

    # ---------------------------------------------------- rule 11: closed DMs

    def _may_dm(self, channel: Any) -> bool:
        """Discord refuses a DM (50007) to a user who closed their DMs or shares no server with the bot."""
        for user_id in getattr(channel, "recipient_ids", ()) or ():
            if user_id == self.bot_user.id or self.users[user_id].bot:
                continue
            if user_id in self.closed_dms:
                return False
            shared = any(
                user_id in guild.members and self.bot_user.id in guild.members
                for guild in self.guilds.values()
            )
            if not shared:
                return False
        return True

    # ---------------------------------------- rule 9: refused requests, on a budget

    def record_refusal(self, method: str, path: str, status: int, code: int) -> None:
        """Count a 401/403/429 answer; past the budget, the bot is banned (every request fails)."""
        at = self._now().timestamp()
        self.refusals.append(Refusal(at, method, path, status, code))
        if self.refusal_budget is None or self.refusal_budget_exceeded is not None:
            return
        limit, window = self.refusal_budget
        recent = [r for r in self.refusals if r.at > at - window]
        if len(recent) > limit:
            paths: dict[str, int] = {}
            for refusal in recent:
                key = f"{refusal.method} {refusal.path} -> {refusal.status} {refusal.code}"
                paths[key] = paths.get(key, 0) + 1
            worst = sorted(paths.items(), key=lambda item: -item[1])[:5]
            self.refusal_budget_exceeded = (
                f"the bot made {len(recent)} refused requests (401/403/429) within {window:.0f} virtual "
                f"seconds, over the test's budget of {limit} (Discord bans an IP at 10,000 in 10 minutes); "
                "most: " + "; ".join(f"{count}× {key}" for key, count in worst)
            )

    def refusals_for(
        self, channel_id: int, *, since: float | None = None, window: float | None = None
    ) -> int:
        """Refused requests about one channel (its path names it), optionally in a virtual time window."""
        now = self._now().timestamp()
        return sum(
            1
            for r in self.refusals
            if f"/{channel_id}" in r.path
            and (since is None or r.at >= since)
            and (window is None or r.at > now - window)
        )

    # ------------------------------------------------ rule 6: rate limits (real time)

    def check_rate_limit(self, method: str, path: str) -> RateLimitHit | None:
        """Admit one bot-token request now, or say how long to wait (a 429)."""
        now = self.real_clock()
        checks: list[tuple[str, int, float, bool]] = []
        if self.global_rate_limit is not None:
            checks.append(("global", *self.global_rate_limit, True))
        top = "/".join(path.split("/")[:3])
        for (route_method, pattern), (limit, per) in self.route_rate_limits.items():
            if route_method in (method, "*") and fnmatch.fnmatch(path, pattern):
                checks.append((f"{route_method} {pattern} {top}", limit, per, False))
        for bucket, limit, per, is_global in checks:
            wait = self._windows.setdefault(bucket, _Window()).retry_after(now, limit, per)
            if wait > 0:
                hit = RateLimitHit(method, path, wait, is_global, bucket)
                self.rate_limited.append(hit)
                self.transcript.append(("HTTP", f"{method} {path} -> 429", hit.to_json()))
                return hit
        for bucket, *_ in checks:
            self._windows[bucket].times.append(now)
        return None

    # -------------------------------------- rule 7: the 3-second window, in real time

    def new_interaction(self, type: int, channel_id: int, user_id: int, guild_id: int | None) -> Any:
        channel = self.channels.get(channel_id)
        meta = getattr(channel, "thread_metadata", None)
        if type == _APPLICATION_COMMAND and meta is not None and meta.archived:
            # Rule 12: Discord's client offers no slash commands in an archived thread.
            raise CommandUnavailable("Discord offers no application commands in an archived thread")
        record = super().new_interaction(type, channel_id, user_id, guild_id)
        self._interaction_born[record.id] = self.real_clock()
        return record

    def expire_slow_interactions(self) -> None:
        """Invalidate every unanswered interaction older than the window in real time.

        Setting SimCord's own (virtual) deadline to now makes its routes answer as
        Discord does: the callback 404s with 10062 Unknown interaction, and the token
        is invalid for follow-ups ("If the 3 second deadline is exceeded, the token
        will be invalidated").
        """
        now = self.real_clock()
        for interaction_id, born in list(self._interaction_born.items()):
            record = self.interactions.get(interaction_id)
            if record is None or record.responded:
                self._interaction_born.pop(interaction_id, None)
                continue
            if now - born > self.interaction_response_window:
                record.initial_response_deadline = self.now_iso()
                self._interaction_born.pop(interaction_id, None)


class _RateLimitedResponse:
    """Just enough of an aiohttp response for discord.HTTPException."""

    status = 429
    reason = "Too Many Requests"

    def __init__(self, hit: RateLimitHit) -> None:
        self.headers = {"Retry-After": str(hit.retry_after)}
        if hit.is_global:
            self.headers["X-RateLimit-Global"] = "true"


async def _real_sleep(seconds: float) -> None:
    """Wait ``seconds`` of real time while staying runnable.

    discord.py sleeps ``retry_after`` with ``asyncio.sleep``; under SimCord that
    timer is virtual and ``env.settle()`` would treat the task as parked, leaving
    the message unsent when the test looks. Yielding to the loop in short real
    sleeps keeps the request in flight, so settle waits for it (up to its
    ``settle_timeout``), and the virtual clock does not move.
    """
    until = _REAL_CLOCK() + seconds
    while (left := until - _REAL_CLOCK()) > 0:
        time.sleep(min(left, 0.002))
        await asyncio.sleep(0)


def _path_of(url: str) -> str:
    """A routed URL's API path (``/channels/1/messages``): without discord.py's `Route.BASE` and
    the query string."""
    return url.split("?", 1)[0].removeprefix(discord.http.Route.BASE)


class StrictHTTPClient(FakeHTTPClient):
    """SimCord's fake HTTPClient with Discord's global and per-route rate limits.

    SimCord replaces discord.py's ``HTTPClient.request`` wholesale, so discord.py's
    own 429 handling never runs. On real Discord a 429 does not reach the bot's
    code: discord.py sleeps ``retry_after`` and tries again, up to 5 tries, then
    raises ``HTTPException`` (status 429); with ``max_ratelimit_timeout`` set and a
    longer ``retry_after`` it raises ``RateLimited`` at once. Emulating exactly that
    here is what makes the test faithful: the bot sees a delay, or after 5 tries the
    same exception it would get in production -- not a raw 429 it would never see.
    """

    async def request(self, route: Any, **kwargs: Any) -> Any:
        backend = self.backend
        if not isinstance(backend, StrictBackend):
            return await super().request(route, **kwargs)
        path = _path_of(route.url)
        hit = None
        for _ in range(DPY_TRIES):
            if backend.refusal_budget_exceeded is not None:
                raise RefusalBudgetExceeded(backend.refusal_budget_exceeded)
            hit = backend.check_rate_limit(route.method, path)
            if hit is None:
                try:
                    return await super().request(route, **kwargs)
                except discord.HTTPException as error:
                    if error.status in (401, 403, 429):
                        backend.record_refusal(route.method, path, error.status, error.code)
                    raise
            backend.record_refusal(route.method, path, 429, 0)
            if self.max_ratelimit_timeout and hit.retry_after > self.max_ratelimit_timeout:
                raise discord.RateLimited(hit.retry_after)
            await _real_sleep(hit.retry_after)
        assert hit is not None
        raise discord.HTTPException(_RateLimitedResponse(hit), hit.to_json())  # type: ignore[arg-type]


class StrictWebhookAdapter(FakeWebhookAdapter):
    """SimCord's fake webhook adapter (interaction responses) with the real-time window.

    Interaction endpoints are not bound by the global rate limit, so none is applied.
    """

    async def request(self, route: Any, session: Any, **kwargs: Any) -> Any:
        backend = self.backend
        if isinstance(backend, StrictBackend):
            backend.expire_slow_interactions()
        return await super().request(route, session, **kwargs)


@contextmanager
def _strict_transports() -> Iterator[None]:
    """Have SimCord's attach step build the strict transports (one Env per loop, so this is safe)."""
    saved = (_runtime.FakeHTTPClient, _runtime.FakeWebhookAdapter)
    _runtime.FakeHTTPClient, _runtime.FakeWebhookAdapter = StrictHTTPClient, StrictWebhookAdapter  # type: ignore[misc]
    try:
        yield
    finally:
        _runtime.FakeHTTPClient, _runtime.FakeWebhookAdapter = saved  # type: ignore[misc]


class StrictEnv(Env):
    """A SimCord Env whose Discord is :class:`StrictBackend`, reached through the strict transports."""

    backend: StrictBackend

    def __init__(self, bot: discord.Client, **options: Any) -> None:
        super().__init__(bot, **options)
        self.backend = StrictBackend()

    async def start(self) -> None:
        with _strict_transports():
            await super().start()

    async def restart_bot(self, bot: discord.Client | None = None) -> None:
        with _strict_transports():
            await super().restart_bot(bot)

    async def shutdown(self) -> None:
        """Stop, then fail the test if its bot went over the refused-request budget (rule 9)."""
        await super().shutdown()
        if self.backend.refusal_budget_exceeded is not None:
            raise AssertionError(self.backend.refusal_budget_exceeded)


@asynccontextmanager
async def run_strict(bot: discord.Client, **options: Any) -> AsyncIterator[StrictEnv]:
    """``async with run_strict(bot) as env``: SimCord's ``simcord.run`` on the stricter Discord."""
    env = StrictEnv(bot, **options)
    await env.start()
    try:
        yield env
    finally:
        await env.shutdown()


# ------------------------------------------------- moderator / admin helpers


def _id(thing: Any) -> int:
    return thing if isinstance(thing, int) else thing.id


async def archive_thread(env: Env, thread: Any, *, locked: bool = False) -> None:
    """A moderator archives (and with ``locked=True`` also locks) the thread."""
    env.backend.edit_channel(_id(thread), {}, thread_metadata={"archived": True, "locked": locked})
    await env.settle()


async def unarchive_thread(env: Env, thread: Any, *, unlock: bool = True) -> None:
    """A moderator reopens the thread (and unlocks it unless ``unlock=False``)."""
    metadata: dict[str, Any] = {"archived": False}
    if unlock:
        metadata["locked"] = False
    env.backend.edit_channel(_id(thread), {}, thread_metadata=metadata)
    await env.settle()


async def delete_channel(env: Env, channel: Any) -> None:
    """An admin deletes the channel or thread (CHANNEL_DELETE / THREAD_DELETE)."""
    env.backend.delete_channel(_id(channel))
    await env.settle()


async def remove_permission(env: Env, channel: Any, *names: str) -> None:
    """An admin adds a channel overwrite denying the bot ``names`` (e.g. ``"attach_files"``).

    For a thread, pass its parent channel: threads take their parent's overwrites.
    """
    backend = env.backend
    channel_id = _id(channel)
    bot_id = backend.bot_user.id
    existing = next((o for o in backend.get_channel(channel_id).overwrites if o.target_id == bot_id), None)
    denied = 0
    for name in names:
        denied |= flag(name)
    backend.set_overwrite(
        channel_id,
        Overwrite(
            target_id=bot_id,
            type=OverwriteType.MEMBER,
            allow=(existing.allow if existing else 0) & ~denied,
            deny=(existing.deny if existing else 0) | denied,
        ),
    )
    await env.settle()


def set_locale(env: Env, user: Any, locale: str) -> None:
    """The user's Discord client is set to ``locale`` (``"ko"``, ``"en-US"``): their interactions say so."""
    env.backend.user_locales[_id(user)] = locale


async def set_guild_locale(env: Env, guild: Any, locale: str) -> None:
    """A server admin changes the server's language in Discord's settings (GUILD_UPDATE)."""
    env.backend.edit_guild(_id(guild), {"preferred_locale": locale})
    await env.settle()


async def bot_removed_from_guild(env: Env, guild: Any) -> None:
    """The bot is kicked from (or leaves) the guild: GUILD_DELETE, and the guild is gone."""
    env.backend.remove_guild(_id(guild))
    await env.settle()


async def restore_permission(env: Env, channel: Any, *names: str) -> None:
    """An admin gives back ``names`` that `remove_permission` took (CHANNEL_UPDATE)."""
    backend = env.backend
    channel_id = _id(channel)
    bot_id = backend.bot_user.id
    existing = next((o for o in backend.get_channel(channel_id).overwrites if o.target_id == bot_id), None)
    if existing is None:
        return
    restored = 0
    for name in names:
        restored |= flag(name)
    deny = existing.deny & ~restored
    if deny or existing.allow:
        backend.set_overwrite(
            channel_id,
            Overwrite(target_id=bot_id, type=OverwriteType.MEMBER, allow=existing.allow, deny=deny),
        )
    else:
        backend.delete_overwrite(channel_id, bot_id)
    await env.settle()


async def bot_removed_while_down(env: Env, guild: Any, bot: discord.Client) -> None:
    """An admin removes the bot from the server while it restarts: the restarted ``bot`` gets no
    GUILD_CREATE (nor a GUILD_DELETE) for it, and every request there answers 403 Missing Access."""
    backend = env.backend
    guild_id = _id(guild)
    backend.left_while_down.add(guild_id)
    backend.get_guild(guild_id).members.pop(backend.bot_user.id, None)
    await env.restart_bot(bot)


def close_dms(env: Env, user: Any) -> None:
    """The user closes their DMs to the bot (Discord answers 50007 to the bot's DMs)."""
    env.backend.closed_dms.add(_id(user))
