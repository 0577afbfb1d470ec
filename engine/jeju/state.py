"""Jeju Island state and actions: compact immutable data with lossless JSON forms.

Locations and spots are numbered 0..5 around the ring (players see 1..6);
"right" moves to the next higher number, "left" to the next lower, both wrapping.
Token stacks and tile stacks are tuples listed bottom to top; a token is the
owning seat, or -1 for a neutral token. A hand is a tuple of tile counts, one per
tile type in ``data/jeju/tiles.json`` order (the Haenyeo joker last).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, NamedTuple

import i18n
from engine.base import IllegalAction
from engine.jeju.components import NTYPES

# Phases, in the order a game goes through them.
SETUP_TOKENS = "setup_tokens"
SETUP_HARUBANG = "setup_harubang"
TURN = "turn"
PAY = "pay"
BUYING = "buying"
HARUBANG = "harubang"
FINISHED = "finished"
PHASES = (SETUP_TOKENS, SETUP_HARUBANG, TURN, PAY, BUYING, HARUBANG, FINISHED)

DIRECTIONS = {"right": 1, "left": -1}


class JejuState(NamedTuple):
    """Everything about one game of Jeju Island (a named tuple: immutable, cheap to copy).

    ``current`` is the seat whose turn it is (during setup: the seat placing).
    ``bonus_seat`` owes the Harubang bonus in the ``harubang`` phase, and
    ``bonus_reason`` says why ("collect" after Travel, "card" after Instant Harubang).
    ``pending_card`` is the card being paid for in the ``pay`` phase. ``bought``
    counts cards taken this turn. ``placed`` lists the spots the current seat has
    put tokens on this setup round. ``deck[0]`` is the next card drawn.
    ``last_travel`` is ``(seat, spot, step, tokens)`` of the latest Travel, or empty.
    """

    seats: int
    seed: int
    phase: str
    current: int
    turn: int
    tokens: tuple[tuple[int, ...], ...]
    stacks: tuple[tuple[int, ...], ...]
    harubang: int
    hands: tuple[tuple[int, ...], ...]
    owned: tuple[tuple[int, ...], ...]
    display: tuple[int, ...]
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    spent: tuple[int, ...]
    placed: tuple[int, ...] = ()
    pending_card: int = -1
    bonus_seat: int = -1
    bonus_reason: str = ""
    bought: int = 0
    end_reason: str = ""
    last_travel: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PlaceToken:
    """Setup: put one of your tokens on top of a spot."""

    spot: int


@dataclass(frozen=True, slots=True)
class PlaceHarubang:
    """Setup (last seat): put the Harubang statue by a location."""

    spot: int


@dataclass(frozen=True, slots=True)
class Travel:
    """Pick up the stack at ``spot`` (it holds one of your tokens) and sow it ``direction``."""

    spot: int
    direction: str


@dataclass(frozen=True, slots=True)
class MoveHarubang:
    """Harubang bonus: put the statue at ``spot`` (its own spot = leave it) and take the top tile."""

    spot: int


@dataclass(frozen=True, slots=True)
class TakeCard:
    """Choose a face-up point card to take."""

    card: int


@dataclass(frozen=True, slots=True)
class Pay:
    """Pay for the chosen card with these tiles: one count per tile type (joker last)."""

    tiles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Back:
    """Put the chosen card back and choose again."""


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Take no more point cards this turn."""


ACTION_TYPES: dict[str, type] = {
    "place_token": PlaceToken,
    "place_harubang": PlaceHarubang,
    "travel": Travel,
    "move_harubang": MoveHarubang,
    "take_card": TakeCard,
    "pay": Pay,
    "back": Back,
    "end_turn": EndTurn,
}
ACTION_NAMES = {cls: name for name, cls in ACTION_TYPES.items()}


def dump_action(action: Any) -> dict:
    """JSON form: ``{"type": name, ...fields}``."""
    name = ACTION_NAMES.get(type(action))
    if name is None:
        raise IllegalAction(i18n.say("That is not a Jeju Island action."))
    data: dict[str, Any] = {"type": name}
    for f in fields(action):
        value = getattr(action, f.name)
        data[f.name] = list(value) if isinstance(value, tuple) else value
    return data


def _small_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -1 <= value < 1000


def load_action(data: Any) -> Any:
    """Inverse of `dump_action`; malformed data raises `IllegalAction`."""
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("type"), str)
        or data["type"] not in ACTION_TYPES
    ):
        raise IllegalAction(i18n.say("That is not a Jeju Island action."))
    cls = ACTION_TYPES[data["type"]]
    names = [f.name for f in fields(cls)]
    if set(data) != {"type", *names}:
        wanted = ", ".join(names) or "none"
        raise IllegalAction(
            i18n.say(
                "A {kind} action needs exactly these fields: {fields}.", kind=data["type"], fields=wanted
            )
        )
    values: dict[str, Any] = {}
    for name in names:
        value = data[name]
        if name == "direction":
            if not isinstance(value, str) or value not in DIRECTIONS:
                raise IllegalAction(i18n.say("The direction must be left or right."))
        elif name == "tiles":
            if not isinstance(value, list) or len(value) != NTYPES:
                raise IllegalAction(i18n.say("A payment must list {count} tile counts.", count=NTYPES))
            if not all(_small_int(v) and v >= 0 for v in value):
                raise IllegalAction(i18n.say("A payment must be a list of tile counts."))
            value = tuple(value)
        elif not _small_int(value):
            raise IllegalAction(
                i18n.say(
                    "The {field} of a {kind} action must be a small integer.", field=name, kind=data["type"]
                )
            )
        values[name] = value
    return cls(**values)


_NESTED = {"tokens", "stacks", "hands", "owned"}
_FLAT = {"display", "deck", "discard", "spent", "placed", "last_travel"}


def dump_state(state: JejuState) -> dict:
    """Lossless JSON form of a state."""
    data: dict[str, Any] = {}
    for name, value in zip(JejuState._fields, state, strict=True):
        if name in _NESTED:
            value = [list(inner) for inner in value]
        elif name in _FLAT:
            value = list(value)
        data[name] = value
    return data


def load_state(data: dict) -> JejuState:
    """Inverse of `dump_state`."""
    values: dict[str, Any] = {}
    for name in JejuState._fields:
        if name not in data:
            raise ValueError(f"Jeju Island state is missing {name!r}")
        value = data[name]
        if name in _NESTED:
            value = tuple(tuple(inner) for inner in value)
        elif name in _FLAT:
            value = tuple(value)
        values[name] = value
    if values["phase"] not in PHASES:
        raise ValueError(f"unknown Jeju Island phase {values['phase']!r}")
    return JejuState(**values)
