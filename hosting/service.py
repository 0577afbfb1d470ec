"""The hosting service: runs hosted games for the Discord layer.

It is the only code that calls the store and the engines together. It owns the
lobby rules (who may join, start, cancel), applies actions with one writer per
table at a time, plays bot seats, and returns plain records the Discord layer
turns into messages. No Discord imports here.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import engine
from engine.base import Event, Game, IllegalAction, State
from engine.bots import policy
from hosting.errors import StaleVersion, TableError
from hosting.store import ACTIVE, CANCELLED, LOBBY, Seat, Store, TableRecord

#: The policy bot seats play with.
BOT_POLICY = "greedy"
BOT_NAMES = ("Bot Dol", "Bot Haru", "Bot Bada", "Bot Somi", "Bot Nuri", "Bot Jeju")


@dataclass(frozen=True)
class Move:
    """One accepted action and what it did."""

    table: TableRecord
    seat: int
    events: list[Event]
    finished: bool


@dataclass(frozen=True)
class Choice:
    """One legal action as the UI offers it: its index, label and menu group."""

    index: int
    label: str
    group: str


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
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        new_seed: Callable[[], int] = lambda: secrets.randbits(62),
    ) -> None:
        self.store = store
        self._clock = clock
        self._new_seed = new_seed
        self._locks: dict[int, asyncio.Lock] = {}
        # Deserialised states by (table id, version): loading JSON on every click is wasteful.
        self._states: dict[int, tuple[int, State]] = {}

    def lock(self, table_id: int) -> asyncio.Lock:
        """The lock that makes this process the table's only writer at a time."""
        return self._locks.setdefault(table_id, asyncio.Lock())

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
    ) -> TableRecord:
        """Open a lobby for ``game_key`` with the host in the first seat."""
        game = engine.get(game_key)
        chosen = dict(options or {})
        for name, value in chosen.items():
            allowed = game.options.get(name)
            if allowed is None or value not in allowed:
                raise TableError(f"{game.title} has no option {name}={value}.")
        for name, allowed in game.options.items():
            chosen.setdefault(name, allowed[0])
        return await self.store.create_table(
            game=game_key,
            guild_id=guild_id,
            channel_id=channel_id,
            host=Seat(seat=0, name=host_name, kind="human", user_id=host_id),
            options=chosen,
            now=self._clock(),
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
        """Seat a member at a table in its lobby."""
        async with self.lock(table_id):
            table, game = await self._lobby(table_id)
            if table.seat_of(user_id):
                raise TableError("You are already seated at this table.")
            if len(table.seats) >= game.max_seats:
                raise TableError(f"This table is full ({game.max_seats} seats).")
            seats = [*table.seats, Seat(seat=len(table.seats), name=name, kind="human", user_id=user_id)]
            return await self.store.update_table(table_id, table.version, seats=seats, now=self._clock())

    async def leave(self, table_id: int, user_id: int) -> TableRecord:
        """Leave a lobby. When the host leaves, the next seated member hosts; an empty table is cancelled."""
        async with self.lock(table_id):
            table, _ = await self._lobby(table_id)
            mine = table.seat_of(user_id)
            if mine is None:
                raise TableError("You are not seated at this table.")
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

    async def add_bot(self, table_id: int, user_id: int) -> TableRecord:
        """Add a bot seat; any seated member may."""
        async with self.lock(table_id):
            table, game = await self._lobby(table_id)
            if table.seat_of(user_id) is None:
                raise TableError("Only players seated at this table can add a bot.")
            if len(table.seats) >= game.max_seats:
                raise TableError(f"This table is full ({game.max_seats} seats).")
            taken = {s.name for s in table.seats}
            name = next(n for n in (*BOT_NAMES, *(f"Bot {i}" for i in range(7, 99))) if n not in taken)
            bot = Seat(seat=len(table.seats), name=name, kind="bot", policy=BOT_POLICY)
            return await self.store.update_table(
                table_id, table.version, seats=[*table.seats, bot], now=self._clock()
            )

    async def start(self, table_id: int, user_id: int) -> TableRecord:
        """Start the game (host only): the seed is chosen and stored with the first state."""
        async with self.lock(table_id):
            table, game = await self._lobby(table_id)
            if user_id != table.host_id:
                raise TableError("Only the host can start the game.")
            if len(table.seats) < game.min_seats:
                need = game.min_seats - len(table.seats)
                raise TableError(f"{game.title} needs {need} more player{'s' if need > 1 else ''} to start.")
            seed = self._new_seed()
            state = game.new(len(table.seats), seed, table.options)
            return await self.store.update_table(
                table_id,
                table.version,
                status=ACTIVE,
                seed=seed,
                state=game.dump_state(state),
                now=self._clock(),
            )

    async def cancel(self, table_id: int, user_id: int, *, can_manage: bool) -> TableRecord:
        """Cancel a lobby or a running game: its host, or a member who can manage the server."""
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table.status not in (LOBBY, ACTIVE):
                raise TableError(_not_in_lobby(table))
            if user_id != table.host_id and not can_manage:
                raise TableError("Only the host or a member with Manage Server can cancel this table.")
            return await self.store.update_table(table_id, table.version, status=CANCELLED, now=self._clock())

    async def tables_of(self, user_id: int, guild_id: int | None = None) -> list[TableRecord]:
        """Open tables (lobby or running) where the user is seated or hosts."""
        return await self.store.tables_of_user(user_id, guild_id=guild_id)

    # ------------------------------------------------------------------ games

    def state_of(self, table: TableRecord) -> State:
        """The table's current game state (cached per version)."""
        cached = self._states.get(table.id)
        if cached and cached[0] == table.version:
            return cached[1]
        if table.state is None:
            raise TableError("This table has not started yet.")
        state = engine.get(table.game).load_state(table.state)
        self._states[table.id] = (table.version, state)
        return state

    def panel(self, table: TableRecord, seat: int) -> Panel:
        """What a seat may do now, as indexed choices."""
        game = engine.get(table.game)
        state = self.state_of(table)
        actions = game.legal_actions(state, seat) if table.status == ACTIVE else []
        choices = [
            Choice(index, game.action_label(state, seat, action), game.action_group(state, seat, action))
            for index, action in enumerate(actions)
        ]
        token = _freshness_token(table.seats[seat], [game.dump_action(a) for a in actions])
        return Panel(seat=seat, token=token, choices=choices)

    async def submit(self, table_id: int, user_id: int, token: str, index: int) -> Move:
        """Apply the ``index``-th choice of the panel ``token`` names, for the user's seat."""
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table.status != ACTIVE:
                raise TableError(_not_running(table))
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("You are not seated at this table.")
            panel = self.panel(table, seat.seat)
            if not panel.choices:
                raise TableError("It is not your move right now.")
            if token != panel.token:
                raise StaleVersion(
                    "Those choices are out of date: open your panel again for the current ones."
                )
            if not 0 <= index < len(panel.choices):
                raise TableError("That choice is not on offer.")
            game = engine.get(table.game)
            action = game.legal_actions(self.state_of(table), seat.seat)[index]
            return await self._apply(table, game, seat.seat, action)

    async def submit_action(self, table_id: int, seat: int, action: Any, expected_version: int) -> Move:
        """Apply an engine action for a seat at a known version (bots, timeouts, tests)."""
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table.status != ACTIVE:
                raise TableError(_not_running(table))
            if table.version != expected_version:
                raise StaleVersion()
            return await self._apply(table, engine.get(table.game), seat, action)

    async def _apply(self, table: TableRecord, game: Game, seat: int, action: Any) -> Move:
        try:
            state, events = game.apply(self.state_of(table), seat, action)
        except IllegalAction as error:
            raise TableError(str(error)) from error
        result = game.result(state)
        dumped = game.dump_state(state)
        await self.store.append_action(
            table.id,
            table.version,
            seat=seat,
            action=game.dump_action(action),
            state=dumped,
            result=None if result is None else result.to_dict(),
            now=self._clock(),
        )
        updated = await self.store.get_table(table.id)
        self._states[table.id] = (updated.version, state)
        return Move(table=updated, seat=seat, events=events, finished=result is not None)

    async def play_bot(self, table_id: int) -> Move | None:
        """Let one bot seat that owes a move make it; ``None`` when no bot is to act."""
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table.status != ACTIVE:
                return None
            game = engine.get(table.game)
            state = self.state_of(table)
            bots = sorted(s.seat for s in table.seats if s.is_bot and s.seat in game.to_act(state))
            if not bots:
                return None
            seat = table.seats[bots[0]]
            rng = random.Random(f"{table.seed}:{table.moves}:{seat.seat}")
            action = policy(table.game, seat.policy or BOT_POLICY)(game, state, seat.seat, rng)
            return await self._apply(table, game, seat.seat, action)

    async def hand_to_bot(self, table_id: int, user_id: int) -> TableRecord:
        """A player leaves a running game: a bot plays their seat from now on (the results say so)."""
        async with self.lock(table_id):
            table = await self.store.get_table(table_id)
            if table.status != ACTIVE:
                raise TableError(_not_running(table))
            mine = table.seat_of(user_id)
            if mine is None:
                raise TableError("You are not seated at this table.")
            seats = [
                replace(s, kind="bot", policy=BOT_POLICY, name=f"{s.name} (bot)")
                if s.seat == mine.seat
                else s
                for s in table.seats
            ]
            return await self.store.update_table(table_id, table.version, seats=seats, now=self._clock())

    async def public_events(self, table_id: int, last: int = 15) -> list[Event]:
        """The table's most recent public events, rebuilt from its log."""
        table = await self.store.get_table(table_id)
        if table.seed is None:
            return []
        game = engine.get(table.game)
        state = game.new(len(table.seats), table.seed, table.options)
        events: list[Event] = []
        for logged in await self.store.actions(table_id):
            state, new = game.apply(state, logged.seat, game.load_action(logged.action))
            events.extend(e for e in new if not e.get("private"))
        return events[-last:]

    async def replay(self, table_id: int) -> State:
        """Rebuild a table's state from its seed and action log (the log is the game)."""
        table = await self.store.get_table(table_id)
        game = engine.get(table.game)
        if table.seed is None:
            raise TableError("This table has not started yet.")
        state = game.new(len(table.seats), table.seed, table.options)
        for logged in await self.store.actions(table_id):
            state, _ = game.apply(state, logged.seat, game.load_action(logged.action))
        return state


def _not_in_lobby(table: TableRecord) -> str:
    if table.status == ACTIVE:
        return "This game has already started."
    return f"This table is {table.status}."


def _not_running(table: TableRecord) -> str:
    if table.status == LOBBY:
        return "This game has not started yet."
    return f"This table is {table.status}: no more moves."
