"""Jeju Island state: compact immutable data with a lossless JSON form (the actions: `engine.jeju.actions`).

Locations and spots are numbered 0..5 around the ring (players see 1..6);
"right" moves to the next higher number, "left" to the next lower, both wrapping.
Token stacks and tile stacks are tuples listed bottom to top; a token is the
owning seat, or -1 for a neutral token. A hand is a tuple of tile counts, one per
tile type in ``data/jeju/tiles.json`` order (the Haenyeo joker last).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from engine.base import quick_replace

# Phases, in the order a game goes through them.
SETUP_TOKENS = "setup_tokens"
SETUP_HARUBANG = "setup_harubang"
TURN = "turn"
PAY = "pay"
BUYING = "buying"
HARUBANG = "harubang"
FINISHED = "finished"
PHASES = (SETUP_TOKENS, SETUP_HARUBANG, TURN, PAY, BUYING, HARUBANG, FINISHED)


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


# Every move replaces a field or two; NamedTuple forbids defining _replace in the class body.
JejuState._replace = quick_replace(JejuState)  # type: ignore[method-assign]


def replacer(*names: str) -> Callable[..., JejuState]:
    """``JejuState._replace`` for these fields, taking their new values in this order.

    The rules' busiest moves each replace the same few fields; a function written for
    them builds the new tuple in one go, several times faster than ``_replace`` with its
    keywords (`bench.engine`, issue #39). ``replacer("phase", "turn")(state, TURN, 3)`` is
    ``state._replace(phase=TURN, turn=3)``.
    """
    unknown = set(names) - set(JejuState._fields)
    if unknown or len(set(names)) != len(names):
        raise ValueError(f"not a set of JejuState fields: {names}")
    parts = [name if name in names else f"state[{index}]" for index, name in enumerate(JejuState._fields)]
    source = f"def replace(state, {', '.join(names)}):\n    return _new(_State, ({', '.join(parts)}))\n"
    space: dict[str, Any] = {"_new": tuple.__new__, "_State": JejuState}
    exec(source, space)  # built from the field names above, nothing from outside
    return space["replace"]


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
