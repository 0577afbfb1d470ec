"""The hosting service: runs hosted games for the Discord layer.

It is the only code that calls the store and the engines together. It owns the
lobby rules (who may join, start, cancel), applies actions with one writer per
table at a time, plays bot seats, and returns plain records the Discord layer
turns into messages. No Discord imports here.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import json
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import engine
import i18n
from engine import replay as replays
from engine.base import Event, Game, IllegalAction, State
from engine.bots import LIVE_THINKING, SLOW_THINKING, policies
from hosting import counts, daily, ratings, timing
from hosting.botpool import FALLBACK, BotPool, Decision, PoolBusy, runs_in_process
from hosting.errors import StaleVersion, TableError
from hosting.languages import Languages
from hosting.readings import PlayReadings
from hosting.records import (
    ABANDONED,
    ACTIVE,
    BLOCKED,
    CANCELLED,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    FinishedGame,
    Seat,
    TableRecord,
)
from hosting.store_api import TableStore
from i18n import N_, Msg, say, say_plural, term

log = logging.getLogger(__name__)

#: The policy bot seats play with by default, and the one a timed-out player's seat is handed to.
BOT_POLICY = "greedy"
#: The policy a Suggest button asks (hints, on casual tables).
HINT_POLICY = "expert"
#: Table options of the hosting, not of the game (never passed to the engine): name -> values.
#: ``hints``: "off" (absent), "on" (the host offers Suggest), "used" (someone asked for one).
#: ``daily``: the day a daily Reef table is the game of (`hosting.daily`); never set in a lobby.
#: ``rated``: "no" for a table of an unrated league (`hosting.leagues`); never set in a lobby.
HOST_OPTIONS = {"hints": ("off", "on", "used"), "daily": (), "rated": ("yes", "no")}
#: How often `play_bot` thinks again when the table changed under a decision, before giving up for now.
BOT_RETHINKS = 3
#: How many seats `add_bot(fill=True)` fills a table to (at most the game's maximum).
FULL_TABLE = 4
#: Bot levels a host may seat (shown on the seat as "Bot Dol (expert)"): level -> policy.
#: Easy is a beginner who knows the rules (``random`` flails: issue #39); seats stored before
#: then keep ``random`` (`OLD_LEVEL_POLICIES` reads them as Easy).
#: Master is the expert given more time to think (`thinking_for`).
BOT_LEVELS = {"easy": "beginner", "normal": "greedy", "expert": "expert", "master": "master"}
#: Policies stored for a level before it changed: policy -> level.
OLD_LEVEL_POLICIES = {"random": "easy"}
#: The words for each bot level, as players read them.
LEVEL_WORDS = {"easy": N_("easy"), "normal": N_("normal"), "expert": N_("expert"), "master": N_("master")}
#: A seat's name with what plays it: the suffix stored in the name (English) -> its message.
#: The stored name stays English ("Bot Dol (expert)"); `seat_name` says it in a reader's language.
NAME_SUFFIXES = {
    " (easy)": N_("{name} (easy)"),
    " (normal)": N_("{name} (normal)"),
    " (expert)": N_("{name} (expert)"),
    " (master)": N_("{name} (master)"),
    " (bot)": N_("{name} (bot)"),
}
#: Policies as a hint's note shows them ("A quick look (normal): ..."): by the level that plays
#: them, the same words as everywhere else (the lobby, seat names).
POLICY_WORDS = {policy: LEVEL_WORDS[level] for level, policy in BOT_LEVELS.items()}
#: Policies that think as long as `thinking_for` allows (`engine.bots.thinking_time`).
THINKING_POLICIES = frozenset({"master"})
#: The policies whose search models the other seats, so is told what plays them (`seat_models`).
MODELLING_POLICIES = frozenset({"expert", "master"})
BOT_NAMES = ("Bot Dol", "Bot Haru", "Bot Bada", "Bot Somi", "Bot Nuri", "Bot Jeju")
#: Hint answers kept by (table, moves, seat): a second Suggest click reuses the first one's search.
HINTS_KEPT = 256
#: New hint searches one member may start per `HINT_WINDOW` seconds (a known answer is free).
HINTS_PER_MEMBER = 6
HINT_WINDOW = 60.0
#: How many lobbies, and how many open tables in all, one member may host at once (abuse limits).
MAX_LOBBIES_PER_HOST = 3
MAX_OPEN_TABLES_PER_HOST = 25
#: A member's lobbies closed unstarted (cancelled or expired) this recently count against their
#: lobby cap too, so `/play` then Cancel, repeated, opens at most that many threads in this window.
CLOSED_LOBBY_WINDOW = 15 * 60.0
#: How long a rematch lobby keeps its seats for the players of the game before others may join (s).
REMATCH_SEATS_KEPT = 10 * 60.0
#: A message the table owes is retried after this many seconds, doubling per failure up to the longest.
POST_RETRY_FIRST = 30.0
POST_RETRY_LONGEST = 3600.0
#: Deserialised game states kept in memory, for this many tables (the most recently used).
#: A table not in the cache is loaded from its stored snapshot on its next click.
STATE_CACHE_TABLES = 256
#: Closed tables whose state is kept too (a finished game's results read it right after its last move).
CLOSED_STATE_TABLES = 16


@dataclass(frozen=True)
class Move:
    """One accepted action and what it did."""

    table: TableRecord
    seat: int
    events: list[Event]
    finished: bool
    new_step: bool = False  # the move started a new step (the clock restarted)
    hurried: bool = False  # a bot seat's search ran out of time: the cheap policy moved instead


@dataclass(frozen=True)
class Reminder:
    """The scheduler owes the awaited players of a table a reminder (``last``: shortly before)."""

    table: TableRecord
    seats: list[int]
    last: bool


@dataclass(frozen=True)
class Timeout:
    """Time ran out: bot moves were made for ``timed_out`` seats; ``handed`` seats are bots for good."""

    table: TableRecord
    events: list[Event]
    timed_out: list[int]
    handed: list[int]


@dataclass(frozen=True)
class PostOwed:
    """A board or results message failed to post earlier; the clock retries it now."""

    table: TableRecord


@dataclass(frozen=True)
class LobbyExpired:
    """A lobby nobody started was cancelled."""

    table: TableRecord


@dataclass(frozen=True)
class Rematch:
    """What a Rematch click got: the rematch lobby, who to invite, and whether to ping them.

    ``opened`` is False when the finished table's rematch lobby was already open (a second
    click, or two at once): nothing new was made. ``ping`` is True once per finished table.
    """

    table: TableRecord
    invited: list[int]
    opened: bool
    ping: bool


@dataclass(frozen=True)
class MyTable:
    """One of a player's open tables, and whether it waits for them."""

    table: TableRecord
    awaited: bool


@dataclass(frozen=True)
class GameStats:
    """A player's record in one game."""

    game: str
    played: int
    wins: int
    average: float


@dataclass(frozen=True)
class Choice:
    """One legal action as the UI offers it: its index, label and menu group, and its English label
    (what picks a button's colour in every language: "Confirm …" is green)."""

    index: int
    label: str
    group: str
    english: str


@dataclass(frozen=True)
class Suggestion:
    """The move the expert would pick for a seat now: its panel label and one line of why."""

    label: str
    why: Msg | str  # a message (`i18n.say`): say it with ``t.msg``
    moves: int = -1  # how many moves the table had (a panel after another move shows other choices)


@dataclass(frozen=True)
class Panel:
    """What one seat may do now: its choices and the token that keeps them fresh."""

    seat: int
    token: str
    choices: list[Choice]


def _freshness_token(seat: Seat, actions: list[dict[str, Any]]) -> str:
    """Short token naming exactly the list of choices a seat was shown.

    It changes when the seat acts (its move count) or when its legal actions
    change, so an index from an old panel can never pick a different action.
    """
    shown = json.dumps([seat.seat, actions], sort_keys=True).encode()
    digest = hashlib.blake2s(shown, digest_size=4).hexdigest()
    return f"{seat.moves}.{digest}"


class TableService:
    """Tables from lobby to result. Every method raises `TableError` for refusals."""

    def __init__(
        self,
        store: TableStore,
        *,
        clock: Callable[[], float] = time.time,
        new_seed: Callable[[], int] = lambda: secrets.randbits(62),
        max_lobbies: int = MAX_LOBBIES_PER_HOST,
        max_open_tables: int = MAX_OPEN_TABLES_PER_HOST,
        state_cache_tables: int = STATE_CACHE_TABLES,
        bots: BotPool | None = None,
    ) -> None:
        self.store = store
        #: Which language each server and player reads (their choices, cached).
        self.languages = Languages(store)
        #: Where bot decisions run (worker processes with a deadline).
        self.bots = bots or BotPool()
        #: What the people at each table play like, read from their moves (`seat_models`).
        self.readings = PlayReadings(store)
        self._clock = clock
        self._new_seed = new_seed
        self.max_lobbies = max_lobbies
        self.max_open_tables = max_open_tables
        #: Set while the bot shuts down (`stop_taking_moves`): a person's move is refused, not half-taken.
        self.closing = False
        # People's moves under way (`submit`): a shutdown lets them commit before the store closes.
        self._moving = 0
        self._still = asyncio.Event()
        self._still.set()
        #: Called with a table's new wake-up instant, so a scheduler can wake sooner.
        self.on_wake: Callable[[float], None] | None = None
        # A table's lock exists only while someone holds it or waits for it (`lock`).
        self._locks: dict[int, _TableLock] = {}
        # Deserialised states by (table id, version): loading JSON on every click is wasteful.
        # An LRU of at most ``state_cache_tables`` open tables (`STATE_CACHE_TABLES`); a table
        # that finishes, is cancelled or abandoned leaves it for the last `CLOSED_STATE_TABLES`
        # closed ones (their results are drawn once; afterwards they are rarely read).
        self._states: OrderedDict[int, tuple[int, State]] = OrderedDict()
        self._closed_states: OrderedDict[int, tuple[int, State]] = OrderedDict()
        self.state_cache_tables = max(1, state_cache_tables)
        # Replays of closed tables, most recently used last (`replay_steps`).
        self._replays: dict[int, list[replays.Step]] = {}
        # Hint searches by (table, moves, seat), running or done (`suggest`), most recent last;
        # and when each member last started one (the rate limit).
        self._hints: OrderedDict[tuple[int, int, int], asyncio.Future[Decision]] = OrderedDict()
        self._hint_times: dict[int, deque[float]] = {}

    def now(self) -> float:
        """The service's clock (seconds since the epoch)."""
        return self._clock()

    def _woken(self, wake_at: float | None) -> None:
        if wake_at is not None and self.on_wake is not None:
            self.on_wake(wake_at)

    def lock(self, table_id: int) -> _Held:
        """The lock that makes this process the table's only writer at a time (``async with``).

        The table's `asyncio.Lock` is made by the first who asks and dropped by the
        last who leaves: everyone holding or waiting shares one lock, and an idle
        table costs nothing.
        """
        return _Held(self._locks, table_id)

    # ------------------------------------------------------------------ lobby

    async def create_table(
        self,
        *,
        game_key: str,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, str] | None = None,
        pace: int = 0,
    ) -> TableRecord:
        """Open a lobby for ``game_key`` with the host in the first seat.

        ``pace`` is the per-move deadline in seconds (0: live). The lobby expires
        after `timing.LOBBY_LIFETIME` unless it starts.
        """
        game = engine.get(game_key)
        chosen = dict(options or {})
        if chosen.get("hints") == "used":
            chosen["hints"] = "on"  # a rematch offers hints again; none were used yet
        chosen.pop("daily", None)  # a rematch of a daily game is an ordinary game (a new seed)
        for name, value in chosen.items():
            allowed = game.options.get(name) or HOST_OPTIONS.get(name)
            if allowed is None or value not in allowed:
                raise TableError(_no_option(game, name, value))
        for name, allowed in game.options.items():
            chosen.setdefault(name, allowed[0])
        if pace not in timing.PACES.values():
            raise TableError(say("That pace is not on offer."))
        await self.check_room(host_id)
        now = self._clock()
        table = await self.store.create_table(
            game=game_key,
            guild_id=guild_id,
            channel_id=channel_id,
            host=Seat(seat=0, name=host_name, kind="human", user_id=host_id),
            options=chosen,
            now=now,
            pace=pace,
            wake_at=now + timing.LOBBY_LIFETIME,
        )
        self._woken(table.wake_at)
        return table

    async def check_room(self, host_id: int) -> None:
        """Refuse (`TableError`) when this member may not open another lobby now.

        At most `max_lobbies` open lobbies, counting those closed unstarted in the last
        `CLOSED_LOBBY_WINDOW` (issue #35: otherwise `/play` then Cancel in a loop opens a
        public thread a round), and at most `max_open_tables` open tables hosted.
        """
        hosted = [mine for mine in await self.store.tables_of_user(host_id) if mine.host_id == host_id]
        lobbies = sum(mine.status == LOBBY for mine in hosted)
        now = self._clock()
        if lobbies < self.max_lobbies:
            # Lobbies closed unstarted lately count too (issue #35): otherwise /play then Cancel
            # in a loop opens a public thread a round. Oldest first.
            closed = await self.store.closed_lobbies(host_id, now - CLOSED_LOBBY_WINDOW)
            if lobbies + len(closed) >= self.max_lobbies:
                # The closed lobby whose ageing out frees a place under the cap.
                freed = closed[lobbies + len(closed) - self.max_lobbies] + CLOSED_LOBBY_WINDOW
                raise TableError(
                    say_plural(
                        "You opened and closed {count} lobby in the last few minutes. "
                        "You can open another {when}.",
                        "You opened and closed {count} lobbies in the last few minutes. "
                        "You can open another {when}.",
                        len(closed),
                        when=f"<t:{int(freed) + 1}:R>",
                    )
                )
        if lobbies >= self.max_lobbies:
            raise TableError(
                say_plural(
                    "You already have {count} open lobby. Start or cancel it first (`/games` lists it).",
                    "You already have {count} open lobbies. Start or cancel one of them first "
                    "(`/games` lists them).",
                    lobbies,
                )
            )
        if len(hosted) >= self.max_open_tables:
            raise TableError(
                say_plural(
                    "You already host {count} open table, the most one member may. "
                    "Finish or end it first (`/games` lists it).",
                    "You already host {count} open tables, the most one member may. "
                    "Finish or end one first (`/games` lists them).",
                    len(hosted),
                )
            )

    async def get(self, table_id: int) -> TableRecord:
        """The table as stored now."""
        return await self.store.get_table(table_id)

    async def attach(
        self,
        table_id: int,
        *,
        thread_id: int | None = None,
        lobby_message_id: int | None = None,
        board_message_id: int | None = None,
    ) -> None:
        """Record the thread and messages the table lives in."""
        await self.store.set_messages(
            table_id,
            thread_id=thread_id,
            lobby_message_id=lobby_message_id,
            board_message_id=board_message_id,
        )

    async def _lobby(self, table_id: int) -> tuple[TableRecord, Game]:
        table = await self.store.get_table(table_id)
        if table.status != LOBBY:
            raise TableError(_not_in_lobby(table))
        return table, engine.get(table.game)

    async def join(self, table_id: int, user_id: int, name: str) -> TableRecord:
        """Seat a member at a table in its lobby (a rematch lobby: first only the game's players)."""
        async with self.lock(table_id):
            table, game = await self._lobby(table_id)
            if table.seat_of(user_id):
                raise TableError(say("You are already seated at this table."))
            kept = await self.seats_kept(table)
            if kept is not None and not (await self.store.get_table(kept[0])).held_by(user_id):
                raise TableError(
                    say(
                        "This rematch keeps its seats for the players of table #{table} until {when}; "
                        "then anyone may join.",
                        table=kept[0],
                        when=f"<t:{int(kept[1])}:R>",
                    )
                )
            if len(table.seats) >= game.max_seats:
                raise TableError(_full(game))
            seats = [*table.seats, Seat(seat=len(table.seats), name=name, kind="human", user_id=user_id)]
            return await self.store.update_table(table_id, table.version, seats=seats, now=self._clock())

    async def leave(self, table_id: int, user_id: int) -> TableRecord:
        """Leave a lobby. When the host leaves, the next seated member hosts; an empty table is cancelled."""
        async with self.lock(table_id):
            table, _ = await self._lobby(table_id)
            mine = table.seat_of(user_id)
            if mine is None:
                raise TableError(say("You are not seated at this table."))
            rest = [s for s in table.seats if s.seat != mine.seat]
            humans = [s for s in rest if not s.is_bot]
            if not humans:
                return await self.store.update_table(
                    table_id, table.version, seats=[], status=CANCELLED, now=self._clock()
                )
            seats = [replace(s, seat=i) for i, s in enumerate(rest)]
            table = await self.store.update_table(table_id, table.version, seats=seats, now=self._clock())
            if table.host_id == user_id:
                await self.store.set_host(table_id, humans[0].user_id)
                table = await self.store.get_table(table_id)
            return table

    async def add_bot(
        self, table_id: int, user_id: int, level: str = "normal", *, fill: bool = False
    ) -> TableRecord:
        """Add a bot seat of a level (`BOT_LEVELS`); any seated member may.

        ``fill`` seats bots up to a full table of `FULL_TABLE` seats (fewer where the
        game has fewer), so one person can play a whole game against bots.
        """
        if level not in BOT_LEVELS:
            raise TableError(say("That bot level is not on offer: easy, normal or expert."))
        async with self.lock(table_id):
            table, game = await self._lobby(table_id)
            if table.seat_of(user_id) is None:
                raise TableError(say("Only players seated at this table can add a bot."))
            if len(table.seats) >= game.max_seats:
                raise TableError(_full(game))
            seats = list(table.seats)
            target = min(game.max_seats, max(game.min_seats, FULL_TABLE)) if fill else len(seats) + 1
            while len(seats) < max(target, len(table.seats) + 1):
                taken = {s.name.split(" (")[0] for s in seats}
                name = next(n for n in (*BOT_NAMES, *(f"Bot {i}" for i in range(7, 99))) if n not in taken)
                label = f"{name} ({level})"  # every level shown the same way (a Normal bot too)
                seats.append(Seat(seat=len(seats), name=label, kind="bot", policy=BOT_LEVELS[level]))
            return await self.store.update_table(table_id, table.version, seats=seats, now=self._clock())

    async def remove_bot(self, table_id: int, user_id: int) -> TableRecord:
        """Take the last bot seat away again; any seated member may."""
        async with self.lock(table_id):
            table, _ = await self._lobby(table_id)
            if table.seat_of(user_id) is None:
                raise TableError(say("Only players seated at this table can remove a bot."))
            bots = [s for s in table.seats if s.is_bot]
            if not bots:
                raise TableError(say("There is no bot at this table to remove."))
            rest = [s for s in table.seats if s.seat != bots[-1].seat]
            seats = [replace(s, seat=i) for i, s in enumerate(rest)]
            return await self.store.update_table(table_id, table.version, seats=seats, now=self._clock())

    async def set_option(self, table_id: int, user_id: int, name: str, value: str) -> TableRecord:
        """The host sets one of the game's options in the lobby (a score tile, a reef side…)."""
        async with self.lock(table_id):
            table, game = await self._lobby(table_id)
            if user_id != table.host_id:
                raise TableError(say("Only the host can set the table up."))
            if value not in game.options.get(name, ()) and value not in HOST_OPTIONS.get(name, ())[:2]:
                raise TableError(_no_option(game, name, value))
            options = {**table.options, name: value}
            if options.get("hints") == "off":
                del options["hints"]  # off is the default: absent, as on every other table
            return await self.store.update_table(table_id, table.version, options=options, now=self._clock())

    async def start(self, table_id: int, user_id: int, *, seed: int | None = None) -> TableRecord:
        """Start the game (host only): the seed is chosen and stored with the first state.

        ``seed``: this seed instead of a random one (the daily Reef's, `hosting.daily.day_seed`).
        """
        async with self.lock(table_id):
            table, game = await self._lobby(table_id)
            if user_id != table.host_id:
                raise TableError(say("Only the host can start the game."))
            if len(table.seats) < game.min_seats:
                need = game.min_seats - len(table.seats)
                raise TableError(
                    say_plural(
                        "{game} needs {count} more player to start.",
                        "{game} needs {count} more players to start.",
                        need,
                        game=term(game.title),
                    )
                )
            seed = self._new_seed() if seed is None else seed
            state = game.new(len(table.seats), seed, game_options(table.options))
            now = self._clock()
            clock = timing.after_move(
                pace=table.pace, deadline=None, reminders=0, new_step=True, finished=False, now=now
            )
            started = await self.store.update_table(
                table_id,
                table.version,
                status=ACTIVE,
                seed=seed,
                state=game.dump_state(state),
                timing=clock,
                now=now,
            )
            self._woken(started.wake_at)
            return started

    async def cancel(self, table_id: int, user_id: int, *, can_manage: bool) -> TableRecord:
        """Cancel a lobby or a running game: its host, or a member who can manage the server."""
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table.status not in (LOBBY, ACTIVE):
                raise TableError(_not_in_lobby(table))
            if user_id != table.host_id and not can_manage:
                raise TableError(say("Only the host or a member with Manage Server can cancel this table."))
            self._states.pop(table_id, None)
            return await self.store.update_table(
                table_id, table.version, status=CANCELLED, timing=_STOPPED, now=self._clock()
            )

    async def tables_of(self, user_id: int, guild_id: int | None = None) -> list[TableRecord]:
        """Open tables (lobby or running) where the user is seated or hosts."""
        return await self.store.tables_of_user(user_id, guild_id=guild_id)

    # ------------------------------------------------------------------ games

    def state_of(self, table: TableRecord) -> State:
        """The table's current game state (cached per version)."""
        cache = self._states if table.status in OPEN_STATUSES else self._closed_states
        cached = cache.get(table.id)
        if cached and cached[0] == table.version:
            cache.move_to_end(table.id)
            return cached[1]
        if table.state is None:
            raise TableError(say("This table has not started yet."))
        state = engine.get(table.game).load_state(table.state)
        self._cache_state(table.id, table.version, state, open=table.status in OPEN_STATUSES)
        return state

    def public_view(self, table: TableRecord, state: State | None = None) -> dict[str, Any]:
        """What everyone may see of the table now (or of ``state``, a step of its replay): boards, results."""
        game = engine.get(table.game)
        return game.view(self.state_of(table) if state is None else state, None)

    def seat_view(self, table: TableRecord, seat: int) -> dict[str, Any]:
        """What one seat may see of the table now, its own secrets too: that player's panel only."""
        return engine.get(table.game).view(self.state_of(table), seat)

    def _cache_state(self, table_id: int, version: int, state: State, *, open: bool = True) -> None:
        """Remember a table's state at a version; the least recently used table goes past the limit."""
        cache, limit = (
            (self._states, self.state_cache_tables) if open else (self._closed_states, CLOSED_STATE_TABLES)
        )
        if not open:
            self._states.pop(table_id, None)
        cache[table_id] = (version, state)
        cache.move_to_end(table_id)
        while len(cache) > limit:
            cache.popitem(last=False)

    def panel(self, table: TableRecord, seat: int, lang: str = i18n.SOURCE) -> Panel:
        """What a seat may do now, as indexed choices (their labels in ``lang``).

        The token does not depend on ``lang``: a panel read in one language stays
        good for a click made in another. A seat the game does not wait for has no
        choices, even where its engine would take one: a Haenyeo player who confirmed
        their diving cards is done ("can't be changed"), not offered Put back.
        """
        game = engine.get(table.game)
        state = self.state_of(table)
        running = table.status == ACTIVE and table.paused_at is None and seat in game.to_act(state)
        actions = game.legal_actions(state, seat) if running else []
        choices = []
        for index, action in enumerate(actions):
            english = game.action_label(state, seat, action)
            label = english if lang == i18n.SOURCE else game.action_label(state, seat, action, lang=lang)
            choices.append(Choice(index, label, game.action_group(state, seat, action), english))
        token = _freshness_token(table.seats[seat], [game.dump_action(a) for a in actions])
        return Panel(seat=seat, token=token, choices=choices)

    def stop_taking_moves(self) -> None:
        """The bot is shutting down: people's moves are refused from now on (bot seats finish theirs)."""
        self.closing = True

    async def moves_done(self) -> None:
        """Wait until no person's move is under way (a shutdown, before the store closes)."""
        await self._still.wait()

    async def submit(self, table_id: int, user_id: int, token: str, index: int) -> Move:
        """Apply the ``index``-th choice of the panel ``token`` names, for the user's seat.

        A click is acknowledged (deferred) before this runs; so that an acknowledged move
        is never lost to a shutdown, the shutdown waits for it (`moves_done`), and a move
        asked for once the shutdown began is refused as not taken.
        """
        if self.closing:
            raise TableError(say("The bot is restarting: your move was not taken. Try again in a minute."))
        self._moving += 1
        self._still.clear()
        try:
            return await self._submit(table_id, user_id, token, index)
        finally:
            self._moving -= 1
            if not self._moving:
                self._still.set()

    async def _submit(self, table_id: int, user_id: int, token: str, index: int) -> Move:
        async with self.lock(table_id):
            table = await self._running(table_id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError(say("You are not seated at this table."))
            if table.paused_at is not None:
                raise TableError(say(_PAUSED))
            if daily.closed_for(table, self._clock()):
                # The day's best sheet is public now: its game is over, not to be finished from it.
                self._states.pop(table_id, None)
                await self.store.update_table(
                    table_id, table.version, status=CANCELLED, timing=_STOPPED, now=self._clock()
                )
                daily.refuse_closed(table, self._clock())
            panel = self.panel(table, seat.seat)
            if not panel.choices:
                raise TableError(say("It is not your move right now."))
            if token != panel.token:
                raise StaleVersion(
                    say("Those choices are out of date: open your panel again for the current ones.")
                )
            if not 0 <= index < len(panel.choices):
                raise TableError(say("That choice is not on offer."))
            game = engine.get(table.game)
            action = game.legal_actions(self.state_of(table), seat.seat)[index]
            return await self._apply(table, game, seat.seat, action, by_player=True)

    async def submit_action(self, table_id: int, seat: int, action: Any, expected_version: int) -> Move:
        """Apply an engine action for a seat at a known version (bots, timeouts, tests)."""
        async with self.lock(table_id):
            table = await self._running(table_id)
            if table.version != expected_version:
                raise StaleVersion()
            return await self._apply(table, engine.get(table.game), seat, action)

    async def _apply(
        self, table: TableRecord, game: Game, seat: int, action: Any, *, by_player: bool = False
    ) -> Move:
        """Apply, log and snapshot one action, restarting the clock when a new step begins."""
        before = self.state_of(table)
        try:
            state, events = game.apply(before, seat, action)
        except IllegalAction as error:
            raise TableError(getattr(error, "say", None) or str(error)) from error
        result = game.result(state)
        now = self._clock()
        new_step = timing.is_new_step(
            frozenset(game.to_act(before)),
            frozenset(game.to_act(state)),
            public=any(not e.get("private") for e in events),
        )
        clock = timing.after_move(
            pace=table.pace,
            deadline=table.deadline,
            reminders=table.reminders,
            new_step=new_step,
            finished=result is not None,
            now=now,
        )
        # The finishing move updates the ratings (or the solo board) in its own transaction.
        scored = None if result is None else ratings.scored_game(table, result.to_dict())
        # The store hands back the table as the move left it: no second read.
        updated = await self.store.append_action(
            table.id,
            table.version,
            seat=seat,
            action=game.dump_action(action),
            state=game.dump_state(state),
            result=None if result is None else result.to_dict(),
            timing=clock,
            reset_timeouts=by_player,
            now=now,
            scored=scored,
        )
        counts.moved(table.game)
        # A finished game's state moves to the small cache of closed tables (read for its results).
        self._cache_state(table.id, updated.version, state, open=result is None)
        if clock["wake_at"] != table.wake_at:
            self._woken(clock["wake_at"])
        return Move(table=updated, seat=seat, events=events, finished=result is not None, new_step=new_step)

    async def _bot_action(self, table: TableRecord, game: Game, seat: Seat) -> Any:
        """The action a seat's bot policy picks now (seeded by the table, so replays agree).

        The policy runs in a worker process with a deadline (`hosting.botpool`): a
        search never holds the event loop, and a late one gives way to greedy.
        """
        return (await self._decide(table, seat.seat, seat.policy or BOT_POLICY)).action

    async def _decide(self, table: TableRecord, seat: int, name: str) -> Decision:
        """Ask policy ``name`` for ``seat``'s move at the table as read (its rng seeded by the table)."""
        seed = f"{table.seed}:{table.moves}:{seat}"
        state = self.state_of(table)
        seats = await self.seat_models(table, name)
        return await self.bots.decide(
            table.game, state, seat, name, seed, seats=seats, thinking=thinking_for(table, name)
        )

    async def seat_models(self, table: TableRecord, name: str) -> tuple[str | None, ...]:
        """What plays each seat, as policy ``name``'s search should model it (issue #39): a bot
        seat as its policy; a person as their moves at this table read (`hosting.readings`), and
        where those name no weaker level, by their record at this game (`ratings.observed_level`).
        Only the searching policies look (`MODELLING_POLICIES`); the others are told `played_by`."""
        found = list(played_by(table))
        if name not in MODELLING_POLICIES:
            return tuple(found)
        game = engine.get(table.game)
        read = await self.readings.levels(
            table, lambda: game.new(len(table.seats), table.seed, game_options(table.options))
        )
        for seat in table.seats:
            if not seat.is_bot and seat.user_id is not None and 0 <= seat.seat < len(found):
                held = await self.store.ratings_of(seat.user_id)
                found[seat.seat] = read.get(seat.seat) or ratings.observed_level(
                    next((r for r in held if r.game == table.game), None)
                )
        return tuple(found)

    def next_bot(self, table: TableRecord) -> Seat | None:
        """The bot seat that moves next at a running table (the lowest awaited one), or None."""
        if table.status != ACTIVE or table.paused_at is not None:
            return None
        awaited = engine.get(table.game).to_act(self.state_of(table))
        bots = sorted(s.seat for s in table.seats if s.is_bot and s.seat in awaited)
        return table.seats[bots[0]] if bots else None

    def thinks_long(self, seat: Seat, game_key: str) -> bool:
        """Whether a bot seat's policy runs in a worker (it may take long enough to say so)."""
        return not runs_in_process(game_key, seat.policy or BOT_POLICY)

    async def play_bot(self, table_id: int, table: TableRecord | None = None) -> Move | None:
        """Let one bot seat that owes a move make it; ``None`` when no bot is to act.

        The bot thinks without holding the table's lock, so players' clicks at the
        same table are not held up by a search. Its move is applied only if what
        its seat can see did not change meanwhile (otherwise it thinks again).
        ``table`` is the table as the caller just read it (saves a read: the
        decision is checked against the stored table under the lock anyway).
        """
        for _ in range(BOT_RETHINKS):
            if table is None:
                table = await self.store.get_table(table_id)
            seat = self.next_bot(table)
            if seat is None:
                return None
            decision = await self._decide(table, seat.seat, seat.policy or BOT_POLICY)
            action = decision.action
            async with self.lock(table_id):
                now = await self.store.get_table(table_id)
                if self._still_valid(table, now, seat, action):
                    move = await self._apply(now, engine.get(now.game), seat.seat, action)
                    return replace(move, hurried=decision.late)
            table = None  # think again on the table as it is now
        return None  # the table keeps changing: the next move there starts the bot again

    def _still_valid(self, before: TableRecord, now: TableRecord, seat: Seat, action: Any) -> bool:
        """Whether a decision made on ``before`` may be applied to ``now`` (read under the lock)."""
        if now.version == before.version:
            return True
        current = self.next_bot(now)
        if current is None or current.seat != seat.seat or current.policy != seat.policy:
            return False
        game = engine.get(now.game)
        then_state, now_state = self.state_of(before), self.state_of(now)
        # Another seat's hidden move changes nothing this seat can see: the decision stands.
        return game.view(then_state, seat.seat) == game.view(now_state, seat.seat) and action in (
            game.legal_actions(now_state, seat.seat)
        )

    async def suggest(self, table_id: int, user_id: int, lang: str = i18n.SOURCE) -> Suggestion:
        """The move the expert would pick for the user's seat (a hint; the host turned hints on).

        Its label is in ``lang``; its ``why`` is a message (`i18n.say`) or a plain string.

        The expert sees only what the seat sees. The first hint marks the table
        (option ``hints`` = "used"), so its results say so and it moves no rating.
        """
        table = await self._running(table_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError(say("You are not seated at this table."))
        if table.options.get("hints", "off") == "off":
            raise TableError(say("Hints are off at this table: the host can turn them on in the lobby."))
        game = engine.get(table.game)
        if not game.legal_actions(self.state_of(table), seat.seat):
            raise TableError(say("It is not your move right now."))
        # The game's version: its moves (the table's own version also counts option changes,
        # such as the "hints used" mark this very method makes).
        key = (table.id, table.moves, seat.seat)
        search = self._hints.get(key)
        if search is None:
            self._count_hint(user_id)
            search = asyncio.ensure_future(self._hint(table, seat.seat))
            self._hints[key] = search
            search.add_done_callback(lambda done: self._hint_done(key, done))
            while len(self._hints) > HINTS_KEPT:
                self._hints.popitem(last=False)
        else:
            self._hints.move_to_end(key)  # the same question: the same search's answer
        try:
            decision = await asyncio.shield(search)  # a click given up on leaves the search to others
        except PoolBusy:
            raise TableError(
                say("Many players are asking for hints right now: try again in a moment.")
            ) from None
        state = self.state_of(table)
        label = game.action_label(state, seat.seat, decision.action, lang=lang)
        why = explain(table.game, game, state, seat.seat, decision.action)
        if decision.late:
            why = say(
                "A quick look ({policy}): the expert took too long this time. {why}",
                policy=term(POLICY_WORDS.get(FALLBACK, FALLBACK)),
                why=why,
            )
        await self._mark_hints_used(table_id)
        return Suggestion(label=label, why=why, moves=table.moves)

    async def _hint(self, table: TableRecord, seat: int) -> Decision:
        """The expert's decision for a hint (a share of the pool, `BotPool.hint`)."""
        # A game without an expert (the test games) hints with its greedy bot.
        name = HINT_POLICY if HINT_POLICY in policies(table.game) else BOT_POLICY
        seed = f"{table.seed}:{table.moves}:{seat}"
        seats = await self.seat_models(table, name)
        return await self.bots.hint(table.game, self.state_of(table), seat, name, seed, seats)

    def _hint_done(self, key: tuple[int, int, int], search: asyncio.Future[Decision]) -> None:
        """Keep a good answer for the next click; forget a failed or hurried one (ask again later)."""
        failed = search.cancelled() or search.exception() is not None
        if (failed or search.result().late) and self._hints.get(key) is search:
            del self._hints[key]

    def _count_hint(self, user_id: int) -> None:
        """Count a new hint search for a member; refuse past `HINTS_PER_MEMBER` a `HINT_WINDOW`."""
        now = self._clock()
        times = self._hint_times.setdefault(user_id, deque())
        while times and now - times[0] >= HINT_WINDOW:
            times.popleft()
        if len(times) >= HINTS_PER_MEMBER:
            raise TableError(say("You have asked for a lot of hints just now: try again in a minute."))
        times.append(now)
        if len(self._hint_times) > 4096:  # forget members who have not asked for a while
            for member in [m for m, at in self._hint_times.items() if not at or now - at[-1] >= HINT_WINDOW]:
                del self._hint_times[member]

    async def _mark_hints_used(self, table_id: int) -> None:
        """Record on the table that a hint was asked for (once)."""
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table.options.get("hints") == "on":
                options = {**table.options, "hints": "used"}
                await self.store.update_table(table_id, table.version, options=options, now=self._clock())

    async def hand_to_bot(self, table_id: int, user_id: int) -> TableRecord:
        """A player leaves a running game: a bot plays their seat from now on (the results say so)."""
        async with self.lock(table_id):
            table = await self._running(table_id)
            mine = table.seat_of(user_id)
            if mine is None:
                raise TableError(say("You are not seated at this table."))
            seats = [_as_bot(s) if s.seat == mine.seat else s for s in table.seats]
            return await self.store.update_table(table_id, table.version, seats=seats, now=self._clock())

    async def replace_seat(
        self,
        table_id: int,
        actor_id: int,
        seat: int,
        *,
        can_manage: bool,
        by: tuple[int, str] | None = None,
    ) -> tuple[TableRecord, Seat]:
        """Give a seat of a running game to a bot (``by`` None) or to another member (``by`` = id, name).

        The host or a member with Manage Server may, and a player may hand their
        own seat on. A seat goes to another member only when its owner left, timed
        out for good, or hands it over themselves, and never to anyone who holds
        or held a seat at this table: they would see two seats' hidden choices.
        Returns the table and the seat as it was.
        """
        async with self.lock(table_id):
            table = await self._running(table_id)
            if not 0 <= seat < len(table.seats):
                raise TableError(say("This table has seats 1 to {last}.", last=len(table.seats)))
            old = table.seats[seat]
            own_seat = not old.is_bot and old.user_id == actor_id
            if actor_id != table.host_id and not can_manage and not own_seat:
                raise TableError(say("Only the host or a member with Manage Server can replace a player."))
            if by is None:
                if old.is_bot:
                    raise TableError(say("Seat {number} is already played by a bot.", number=seat + 1))
                new = _as_bot(old)
            else:
                user_id, name = by
                if table.held_by(user_id):
                    raise TableError(
                        say(
                            "That member holds or held a seat at this table, so they cannot take another "
                            "one: they would see two seats' hidden choices."
                        )
                    )
                if not old.is_bot and not own_seat:
                    raise TableError(
                        say(
                            "Seat {number} is still played by its owner. It goes to another member only "
                            "when they leave (`/game leave`), time out for good, or hand it over themselves.",
                            number=seat + 1,
                        )
                    )
                former = old.former + ((old.user_id,) if old.user_id is not None else ())
                new = Seat(
                    seat=old.seat, name=name, kind="human", user_id=user_id, moves=old.moves, former=former
                )
            seats = [new if s.seat == seat else s for s in table.seats]
            updated = await self.store.update_table(table_id, table.version, seats=seats, now=self._clock())
            return updated, old

    async def pause(self, table_id: int, user_id: int, *, can_manage: bool) -> TableRecord:
        """Stop the table's clock and its moves until `resume` (host or Manage Server)."""
        async with self.lock(table_id):
            table = await self._running_for_host(
                table_id,
                user_id,
                can_manage,
                say("Only the host or a member with Manage Server can pause this table."),
            )
            if table.paused_at is not None:
                raise TableError(say("This table is already paused."))
            return await self._pause(table)

    async def _pause(self, table: TableRecord) -> TableRecord:
        """Stop the clock and the moves of a table read under its lock."""
        now = self._clock()
        return await self.store.update_table(
            table.id, table.version, timing={"paused_at": now, "wake_at": None}, now=now
        )

    async def resume(self, table_id: int, user_id: int, *, can_manage: bool) -> TableRecord:
        """Restart a paused table: its deadline moves on by as long as the pause lasted.

        A table the bot paused because Discord refused its channel runs again too,
        and owes its board (the caller posts it).
        """
        async with self.lock(table_id):
            table = await self._running_for_host(
                table_id,
                user_id,
                can_manage,
                say("Only the host or a member with Manage Server can resume this table."),
            )
            if table.paused_at is None:
                raise TableError(say("This table is not paused."))
            resumed = await self._unpause(table)
            if table.blocked:
                await self.store.set_owed(table_id, 1, resumed.wake_at)
                resumed = replace(resumed, owed_posts=1)
            return resumed

    async def _unpause(self, table: TableRecord) -> TableRecord:
        """Restart the clock of a paused table read under its lock, its deadline moved on by the pause."""
        now = self._clock()
        assert table.paused_at is not None
        deadline = None if table.deadline is None else table.deadline + (now - table.paused_at)
        wake = timing.wake_at(deadline, table.pace, table.reminders)
        resumed = await self.store.update_table(
            table.id,
            table.version,
            timing={"paused_at": None, "deadline": deadline, "wake_at": wake},
            now=now,
        )
        self._woken(wake)
        return resumed

    async def _running(self, table_id: int) -> TableRecord:
        """The table, which must be running."""
        table = await self.store.get_table(table_id)
        if table.status != ACTIVE:
            raise TableError(_not_running(table))
        return table

    async def abandon(self, table_id: int) -> TableRecord | None:
        """Close an open table whose thread, channel or server is gone; None when it was not open."""
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table.status not in OPEN_STATUSES:
                return None
            self._states.pop(table_id, None)
            return await self.store.update_table(
                table_id, table.version, status=ABANDONED, timing=_STOPPED, now=self._clock()
            )

    async def hand_seat_to_bot(self, table_id: int, seat: int) -> TableRecord | None:
        """A bot plays this seat from now on (its player left the server); None when it already does."""
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table.status != ACTIVE or table.seats[seat].is_bot:
                return None
            seats = [_as_bot(s) if s.seat == seat else s for s in table.seats]
            return await self.store.update_table(table_id, table.version, seats=seats, now=self._clock())

    # ------------------------------------------------------------ owed posts

    def _clock_wake(self, table: TableRecord) -> float | None:
        """When the table's own clock needs the scheduler (its deadline, reminders or lobby expiry)."""
        if table.status == LOBBY:
            return table.created_at + timing.LOBBY_LIFETIME
        if table.status == ACTIVE and table.paused_at is None:
            return timing.wake_at(table.deadline, table.pace, table.reminders)
        return None

    async def owe_post(self, table_id: int, *, not_before: float = 0.0) -> float:
        """A board or results message failed for a passing reason: remember it and when to try again.

        The retry backs off from `POST_RETRY_FIRST` to `POST_RETRY_LONGEST`, and is never
        earlier than ``not_before`` (when the table may risk another refused request) nor
        in the past: the clock looks at the table at that instant and no sooner, whatever
        its own deadline or reminders (they wait for the board, which shows them).
        Returns the instant of the retry.
        """
        table = await self.store.get_table(table_id)
        attempts = max(table.owed_posts, 0) + 1
        retry = max(self._clock() + _post_retry_after(attempts), not_before)
        await self.store.set_owed(table_id, attempts, retry)
        self._woken(retry)
        return retry

    async def post_paid(self, table_id: int) -> None:
        """The table's owed message went out: nothing is owed any more."""
        table = await self.store.get_table(table_id)
        if table.owed_posts:
            await self.store.set_owed(table_id, 0, self._clock_wake(table))

    async def block(self, table_id: int) -> TableRecord | None:
        """Discord refuses the table's channel to the bot: pause it until the cause is gone.

        Its clock stops (nobody is timed out, no reminder goes out, bot seats wait)
        and it owes its post. None when it was already blocked or is closed.
        """
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table.blocked or table.status not in (ACTIVE, FINISHED):
                return None
            if table.status == ACTIVE and table.paused_at is None:
                table = await self._pause(table)
            await self.store.set_owed(table_id, BLOCKED, None)
            return replace(table, owed_posts=BLOCKED, wake_at=None)

    async def unblock(self, table_id: int) -> TableRecord | None:
        """The cause is gone: a blocked table runs again and owes its post; None when it was not blocked.

        The deadline moves on by as long as the table was blocked, as after a pause.
        """
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if not table.blocked:
                return None
            if table.status == ACTIVE and table.paused_at is not None:
                table = await self._unpause(table)
            await self.store.set_owed(table_id, 1, table.wake_at)
            return replace(table, owed_posts=1)

    async def _running_for_host(
        self, table_id: int, user_id: int, can_manage: bool, refusal: Msg
    ) -> TableRecord:
        """The running table, if the user hosts it or may manage the server (else ``refusal``)."""
        table = await self._running(table_id)
        if user_id != table.host_id and not can_manage:
            raise TableError(refusal)
        return table

    # ------------------------------------------------------------------ clock

    async def tick(self, table_id: int) -> Reminder | Timeout | LobbyExpired | PostOwed | None:
        """Do what a table's clock owes now: expire its lobby, remind its players, or move for them.

        Called by the scheduler when the table's ``wake_at`` has come. Every
        outcome is claimed in the database first (the version check, or the
        reminder compare-and-set), so it happens once even if two schedulers
        call at once or the bot restarts; ``None`` when nothing was owed.
        """
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            now = self._clock()
            if table.wake_at is None or table.wake_at > now:
                return None
            if table.owed_posts > 0 and table.status in (ACTIVE, FINISHED):
                # Claimed: should the post not even be tried, the clock comes back later, not at once.
                later = now + _post_retry_after(table.owed_posts + 1)
                await self.store.set_owed(table_id, table.owed_posts, later)
                return PostOwed(table)
            if table.status == LOBBY:
                cancelled = await self.store.update_table(
                    table_id, table.version, status=CANCELLED, timing=_STOPPED, now=now
                )
                return LobbyExpired(cancelled)
            if table.status != ACTIVE or table.paused_at is not None or table.deadline is None:
                await self.store.set_wake(table_id, table.version, None)
                return None
            if now >= table.deadline:
                return await self._time_out(table)
            due = timing.reminders_due(table.deadline, table.pace, now)
            wake = timing.wake_at(table.deadline, table.pace, due)
            if due <= table.reminders or not await self.store.claim_reminder(
                table_id, table.version, sent=due, wake_at=wake
            ):
                await self.store.set_wake(
                    table_id, table.version, timing.wake_at(table.deadline, table.pace, table.reminders)
                )
                return None
            self._woken(wake)
            game = engine.get(table.game)
            awaited = sorted(s for s in game.to_act(self.state_of(table)) if not table.seats[s].is_bot)
            return Reminder(await self.store.get_table(table_id), awaited, last=due >= 2)

    async def _time_out(self, table: TableRecord) -> Timeout:
        """Make the awaited seats' moves with their bot policy; hand repeat offenders to a bot."""
        game = engine.get(table.game)
        events: list[Event] = []
        timed_out: list[int] = []
        for seat in sorted(game.to_act(self.state_of(table))):
            # Finish this seat's part of the step, and no more: a new step has its own clock.
            for _ in range(_MOST_ACTIONS_PER_TIMEOUT):
                if table.status != ACTIVE or seat not in game.to_act(self.state_of(table)):
                    break
                action = await self._bot_action(table, game, table.seats[seat])
                move = await self._apply(table, game, seat, action)
                table = move.table
                events.extend(move.events)
                if move.new_step:
                    break
            if not table.seats[seat].is_bot:
                timed_out.append(seat)
        now = self._clock()
        if table.status == ACTIVE and (table.deadline is None or table.deadline <= now):
            # The step outlived its moves (should not happen): give it a fresh clock rather than spin.
            clock = {"deadline": now + table.pace, "reminders": 0, "wake_at": now + table.pace}
            table = await self.store.update_table(table.id, table.version, timing=clock, now=now)
        handed = [s for s in timed_out if table.seats[s].timeouts + 1 >= timing.TIMEOUTS_BEFORE_HANDOVER]
        if timed_out:
            seats = [
                _as_bot(replace(s, timeouts=s.timeouts + 1))
                if s.seat in handed
                else replace(s, timeouts=s.timeouts + 1)
                if s.seat in timed_out
                else s
                for s in table.seats
            ]
            table = await self.store.update_table(table.id, table.version, seats=seats, now=self._clock())
        return Timeout(table, events, timed_out, handed)

    async def play_out(self, table_id: int) -> list[Event]:
        """Play a running table to its end by bots (a league round's deadline, issue #38): each
        awaited seat's own policy, a person's seat the timed-out seats' one (`BOT_POLICY`).

        One move at a time under the table's lock, each through the version check like any
        move, so a click or another process racing it simply takes a turn in between.
        """
        events: list[Event] = []
        for _ in range(_MOST_ACTIONS_PER_TIMEOUT * 10):
            async with self.lock(table_id):
                table = await self.store.get_table(table_id)
                if table.status != ACTIVE:
                    break
                game = engine.get(table.game)
                awaited = sorted(game.to_act(self.state_of(table)))
                if not awaited:
                    break
                seat = table.seats[awaited[0]]
                action = await self._bot_action(table, game, seat)
                try:
                    events.extend((await self._apply(table, game, seat.seat, action)).events)
                except StaleVersion:
                    continue  # another process moved first: read the table again
        return events

    async def my_tables(self, user_id: int) -> list[MyTable]:
        """A player's open tables in every server: those awaiting them first, soonest deadline first."""
        found: list[MyTable] = []
        for table in await self.store.tables_of_user(user_id):
            seat = table.seat_of(user_id)
            awaited = (
                table.status == ACTIVE
                and seat is not None
                and seat.seat in engine.get(table.game).to_act(self.state_of(table))
            )
            found.append(MyTable(table, awaited))
        never = float("inf")
        found.sort(key=lambda mine: (not mine.awaited, mine.table.deadline or never, -mine.table.id))
        return found

    async def stats(self, user_id: int) -> list[GameStats]:
        """A player's finished games per game: how many, how many won, the average score.

        The finishing moves keep them (`Store.player_stats`); nothing is recomputed here.
        """
        return [
            GameStats(game=s.game, played=s.played, wins=s.wins, average=s.average)
            for s in await self.store.player_stats(user_id)
        ]

    async def dm_reminders(self, user_id: int) -> bool:
        """Whether the player wants their reminders by direct message."""
        return await self.store.dm_reminders(user_id)

    async def set_dm_reminders(self, user_id: int, on: bool) -> None:
        """Turn a player's direct-message reminders on or off."""
        await self.store.set_dm_reminders(user_id, on)

    async def public_events(self, table_id: int, last: int = 15) -> list[Event]:
        """The table's most recent public events, rebuilt from its log in a worker thread.

        A long game's log takes tens of milliseconds to play again: never on the event loop.
        """
        table = await self.store.get_table(table_id)
        if table.seed is None:
            return []
        logged = await self.store.actions(table_id)
        _, events = await asyncio.to_thread(_play_log, table, logged)
        return [e for e in events if not e.get("private")][-last:]

    async def replay(self, table_id: int) -> State:
        """Rebuild a table's state from its seed and action log (the log is the game), in a worker thread."""
        table = await self.store.get_table(table_id)
        if table.seed is None:
            raise TableError(say("This table has not started yet."))
        state, _ = await asyncio.to_thread(_play_log, table, await self.store.actions(table_id))
        return state

    # ------------------------------------------- ratings, history, replays, rematch

    async def ratings_of(self, user_id: int) -> list[ratings.Rating]:
        """A player's ratings, one per game they have rated games of."""
        return await self.store.ratings_of(user_id)

    async def rating_changes(self, table_id: int) -> list[ratings.RatingChange]:
        """What a finished table did to its players' ratings (empty when it was not rated)."""
        return await self.store.rating_changes(table_id)

    async def finished_games(self, user_id: int, *, limit: int) -> list[FinishedGame]:
        """A player's newest ``limit`` finished games, where they held a seat to the end (the games
        `/stats` counts), as history lines: a list on screen shows a page, not hundreds."""
        return await self.store.finished_games(user_id, limit=limit)

    async def replay_steps(self, table_id: int) -> tuple[TableRecord, list[replays.Step]]:
        """A closed table's replay, step by step (`engine.replay.steps`), rebuilt in a worker thread.

        Only closed tables (finished, ended, abandoned) replay: their log no longer
        changes, so the steps are kept for the next click (a few tables at a time).
        """
        table = await self.store.get_table(table_id)
        if table.status in OPEN_STATUSES or table.seed is None:
            raise TableError(say("Only a finished game can be replayed; this one is still open."))
        cached = self._replays.pop(table_id, None)
        if cached is None:
            log = [(a.seat, a.action) for a in await self.store.actions(table_id)]
            game = engine.get(table.game)
            cached = await asyncio.to_thread(
                replays.steps, game, len(table.seats), table.seed, game_options(table.options), log
            )
        self._replays[table_id] = cached  # most recently used last
        while len(self._replays) > _REPLAYS_KEPT:
            self._replays.pop(next(iter(self._replays)))
        return table, cached

    async def export(self, table_id: int) -> dict[str, Any]:
        """A finished table as a JSON record (`engine.replay.record`), for `python -m engine.replay`."""
        table = await self.store.get_table(table_id)
        if table.status != FINISHED or table.seed is None:
            raise TableError(say("Only a finished game can be exported."))
        return replays.record(
            game=table.game,
            seed=table.seed,
            options=game_options(table.options),
            seats=[{"seat": s.seat, "name": s.name, "kind": s.kind} for s in table.seats],
            actions=[(a.seat, a.action) for a in await self.store.actions(table_id)],
            result=table.result,
            table_id=table.id,
        )

    async def seats_kept(self, table: TableRecord) -> tuple[int, float] | None:
        """(the finished table, until when) while a rematch lobby keeps its seats for that table's
        players (`REMATCH_SEATS_KEPT`); None for any other table, or once that time has passed."""
        if table.status != LOBBY:
            return None
        found = await self.store.rematch_of(table.id)
        if found is None:
            return None
        old_id, since = found
        until = max(since, table.created_at) + REMATCH_SEATS_KEPT
        return (old_id, until) if self._clock() < until else None

    async def rematch(self, table_id: int, user_id: int, name: str) -> Rematch:
        """A new lobby like a closed table: same game, options, pace, place and bots; the caller hosts.

        Only someone who held a seat may ask. A closed table has at most one rematch
        lobby at a time: a click while it is open gets that lobby back (``opened``
        False). The table's lock serialises this process's clicks, and the store's
        ``rematches`` row (`Store.claim_rematch`) decides between processes, and
        across restarts. The other people who held a seat are invited, in seat
        order, and pinged only the first time (``ping``), whatever became of the lobby.
        """
        old = await self.store.get_table(table_id)
        if old.status in OPEN_STATUSES:
            raise TableError(say("This game is still open: a rematch comes after it ends."))
        if not old.held_by(user_id):
            raise TableError(say("Only the players of this game can ask for a rematch."))
        people: list[int] = []
        for seat in old.seats:
            for person in (*seat.former, seat.user_id):
                if person is not None and person != user_id and person not in people:
                    people.append(person)
        async with self.lock(table_id):  # the closed table's lock: nothing else writes it now
            found = await self.store.rematch(table_id)
            if found is not None:
                lobby = await self.store.get_table(found[0])
                if lobby.status == LOBBY:
                    return Rematch(lobby, people, opened=False, ping=False)
            table = await self._new_rematch(old, user_id, name)
            won = await self.store.claim_rematch(table_id, table.id, self._clock())
            if won != table.id:  # another process's click was first: keep its lobby, drop ours
                await self.cancel(table.id, user_id, can_manage=True)
                return Rematch(await self.store.get_table(won), people, opened=False, ping=False)
            ping = await self.store.claim_rematch_ping(table_id)
        return Rematch(table, people, opened=True, ping=ping)

    async def _new_rematch(self, old: TableRecord, user_id: int, name: str) -> TableRecord:
        """The rematch lobby of ``old``: its game, options, pace and place, and its bots at their levels."""
        table = await self.create_table(
            game_key=old.game,
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            host_id=user_id,
            host_name=name,
            # A rematch of a league's table is an ordinary table: the league's "rated" stays behind.
            options={k: v for k, v in old.options.items() if k != "rated"},
            pace=old.pace,
        )
        levels = {**OLD_LEVEL_POLICIES, **{policy: level for level, policy in BOT_LEVELS.items()}}
        for seat in old.seats:
            if seat.is_bot and seat.user_id is None and not seat.former:  # a bot from the start, same level
                table = await self.add_bot(table.id, user_id, levels.get(seat.policy or "", "normal"))
        return table


def thinking_for(table: TableRecord, policy: str) -> float | None:
    """Seconds the policy may think about a move at this table: the Master level's a few seconds
    at a live table, more at a slow one where nobody waits at the screen; None for the other
    levels (they think as long as they always do, within the bot deadline)."""
    if policy not in THINKING_POLICIES:
        return None
    return LIVE_THINKING if table.pace == 0 else SLOW_THINKING


def played_by(table: TableRecord) -> tuple[str | None, ...]:
    """What plays each seat, by seat: a bot seat's policy, None for a person (the expert's search
    models the other seats as what they are: issue #39)."""
    found: list[str | None] = [None] * len(table.seats)
    for seat in table.seats:
        if seat.is_bot and 0 <= seat.seat < len(found):
            found[seat.seat] = seat.policy or BOT_POLICY
    return tuple(found)


def _play_log(table: TableRecord, log: list[Any]) -> tuple[State, list[Event]]:
    """A started table's state after its logged actions, and every event they made."""
    game = engine.get(table.game)
    state = game.new(len(table.seats), table.seed, game_options(table.options))
    events: list[Event] = []
    for logged in log:
        state, new = game.apply(state, logged.seat, game.load_action(logged.action))
        events.extend(new)
    return state, events


def game_options(options: dict[str, str]) -> dict[str, str]:
    """A table's options as its game knows them: without the hosting's own (`HOST_OPTIONS`)."""
    return {k: v for k, v in options.items() if k not in HOST_OPTIONS}


#: Why a hint chose its move, when the game's ai package cannot say (no ``explain``): per game.
WHY = {
    "haenyeo": N_(
        "The expert tried these cards against many guesses of the others' face-down cards; "
        "they scored best on average."
    ),
    "jeju": N_(
        "The expert played each move out to the end over reshuffled decks; this one won most often, "
        "and by the most."
    ),
    "reef": N_(
        "The expert tried this over sampled rolls of the next four rounds; it left your sheet the "
        "strongest on average."
    ),
}
GENERIC_WHY = N_("The expert looks ahead over what your seat cannot see; this move did best on average.")


def explain(game_key: str, game: Game, state: State, seat: int, action: Any) -> Msg | str:
    """One line of why the expert picks ``action`` (the game's ``ai.explain`` if it has one).

    A message (`i18n.say`; the game's own may also be a plain string): say it with ``t.msg``.
    """
    module = importlib.import_module(f"{engine.GAME_PACKAGES[game_key]}.ai")
    why = getattr(module, "explain", None)
    generic = say(WHY.get(game_key, GENERIC_WHY))
    if why is None:
        return generic
    try:
        return why(game, state, seat, action) or generic
    except Exception:  # a hint without its reason is still a hint
        log.warning("%s: explain failed", game_key, exc_info=True)
        return generic


def keyed_lock(locks: dict[int, _TableLock], key: int) -> _Held:
    """``async with keyed_lock(locks, key)``: one lock per key, kept in ``locks`` only while in use.

    The lock is made by the first who asks for ``key`` and dropped by the last who
    leaves (holding or waiting), so ``locks`` holds only the keys in use now.
    """
    return _Held(locks, key)


class _TableLock:
    """A table's lock and how many hold or wait for it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class _Held:
    """``async with service.lock(table_id)``: one table's lock, made on entry and dropped by the last out."""

    __slots__ = ("_entry", "_locks", "_table_id")

    def __init__(self, locks: dict[int, _TableLock], table_id: int) -> None:
        self._locks = locks
        self._table_id = table_id
        self._entry: _TableLock | None = None

    async def __aenter__(self) -> None:
        entry = self._locks.get(self._table_id)
        if entry is None:
            entry = self._locks[self._table_id] = _TableLock()
        entry.users += 1  # counted before waiting, so the lock outlives every waiter
        try:
            await entry.lock.acquire()
        except BaseException:
            self._leave(entry)
            raise
        self._entry = entry

    async def __aexit__(self, *exc: object) -> None:
        entry, self._entry = self._entry, None
        assert entry is not None
        entry.lock.release()
        self._leave(entry)

    def _leave(self, entry: _TableLock) -> None:
        entry.users -= 1
        if entry.users == 0 and self._locks.get(self._table_id) is entry:
            del self._locks[self._table_id]

    def locked(self) -> bool:
        """Whether someone holds the table's lock now."""
        entry = self._locks.get(self._table_id)
        return entry is not None and entry.lock.locked()


def _post_retry_after(attempts: int) -> float:
    """Seconds before the next try at a post that failed ``attempts`` times: doubling, at most an hour."""
    return min(POST_RETRY_FIRST * 2 ** (attempts - 1), POST_RETRY_LONGEST)


def _as_bot(seat: Seat) -> Seat:
    """The seat, played by the bot policy from now on; its name says so in the results."""
    return replace(seat, kind="bot", policy=BOT_POLICY, name=f"{seat.name} (bot)")


#: Clock columns of a table that no longer runs.
_STOPPED = {"deadline": None, "wake_at": None, "paused_at": None}
_PAUSED = N_("This table is paused; the host can resume it with `/game resume`.")
#: A timed-out seat's bot finishes its part of a step within this many actions.
_MOST_ACTIONS_PER_TIMEOUT = 500
#: How many closed tables' replays `TableService.replay_steps` keeps in memory.
_REPLAYS_KEPT = 8


#: "This table is <status>." for each status a table can be in (English is the status's own word).
_STATUS_IS = {
    ACTIVE: N_("This table is active."),
    FINISHED: N_("This table is finished."),
    CANCELLED: N_("This table is cancelled."),
    ABANDONED: N_("This table is abandoned."),
}
#: "This table is <status>: no more moves." for each closed status.
_NO_MORE_MOVES = {
    FINISHED: N_("This table is finished: no more moves."),
    CANCELLED: N_("This table is cancelled: no more moves."),
    ABANDONED: N_("This table is abandoned: no more moves."),
}


def status_sentence(table: TableRecord) -> Msg:
    """ "This table is finished." (or its other status), as a message."""
    known = _STATUS_IS.get(table.status)
    return say(known) if known else say("This table is {status}.", status=table.status)


def _not_in_lobby(table: TableRecord) -> Msg:
    if table.status == ACTIVE:
        return say("This game has already started.")
    return status_sentence(table)


def _not_running(table: TableRecord) -> Msg:
    if table.status == LOBBY:
        return say("This game has not started yet.")
    known = _NO_MORE_MOVES.get(table.status)
    return say(known) if known else say("This table is {status}: no more moves.", status=table.status)


def _no_option(game: Game, name: str, value: str) -> Msg:
    """The refusal of an option a game does not have."""
    return say("{game} has no option {name}={value}.", game=term(game.title), name=name, value=value)


def _full(game: Game) -> Msg:
    """The refusal of a seat at a full table."""
    return say_plural(
        "This table is full ({count} seat).", "This table is full ({count} seats).", game.max_seats
    )


def seat_name(name: str, lang: str = i18n.SOURCE) -> str:
    """A seat's stored name as a reader reads it: "Bot Dol (expert)" -> "Bot Dol (고수)" in Korean.

    Names stay as they are; only the level (or "bot", for a seat a bot took over) is translated.
    """
    for suffix, message in NAME_SUFFIXES.items():
        if name.endswith(suffix) and len(name) > len(suffix):
            return i18n.words(lang)(message, name=seat_name(name[: -len(suffix)], lang))
    return name
