"""What a player can do in Jeju Island: small frozen dataclasses, each with a lossless JSON form.

- Game Setup steps 6-7: `PlaceToken`, `PlaceHarubang`.
- Play 1, Travel: `Travel` (a spot and a direction: "right" to the next higher
  location number, "left" to the next lower, both wrapping); the Harubang bonus:
  `MoveHarubang`.
- Play 2, Taking Point Cards: `TakeCard`, then `Pay` (or `Back`), and `EndTurn`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import i18n
from engine.base import IllegalAction
from engine.jeju.components import NTYPES

DIRECTIONS = {"right": 1, "left": -1}


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
