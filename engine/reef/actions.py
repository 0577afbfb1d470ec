"""The small actions a seat takes: choose a lucky number, then, each round, use its dice.

One frozen dataclass, `Act`, with a ``kind`` and up to two numbers:

==========  ==================================  =====================================
kind        a                                   b
==========  ==================================  =====================================
lucky       lucky number 1-6, 0 = leave to fate
shell       die index                           +1 or -1 (spend one pair of shells)
unlock      ruin 1-6                            bit mask of the dice that unlock it
cast        enchantment section 0-5             bit mask of the dice summed (two or more)
pick        die index (choose a die to place)
unpick      (put the chosen die back)
write       ruin 1-6                            slot in that ruin
mark        Bewitching Barrier cell (row * cols + column)
shape       Arcane Atoll orientation index
singles     (Arcane Atoll: two single blocks instead of the shape)
place       Arcane Atoll cell (anchor of the shape, or a single block)
trade       (trade the chosen die for a pair of shells)
pearl       pearl bonus box index
enchant     enchantment section 0-5 (a gained enchantment)
reset       (reset my round)
confirm     (confirm my round)
==========  ==================================  =====================================
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.base import IllegalAction
from i18n import say

KINDS = (
    "lucky",
    "shell",
    "unlock",
    "cast",
    "pick",
    "unpick",
    "write",
    "mark",
    "shape",
    "singles",
    "place",
    "trade",
    "pearl",
    "enchant",
    "reset",
    "confirm",
)

#: Kinds that only take back work (the random policy never picks them).
UNDO_KINDS = frozenset({"unpick", "reset"})


@dataclass(frozen=True, slots=True)
class Act:
    """One small step of a seat's round (see the module table)."""

    kind: str
    a: int = 0
    b: int = 0


_CACHE: dict[tuple[str, int, int], Act] = {}


def act(kind: str, a: int = 0, b: int = 0) -> Act:
    """The shared `Act` instance for these fields (legal-action lists reuse them)."""
    key = (kind, a, b)
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = Act(kind, a, b)
    return found


def dump(action: Act) -> dict:
    """JSON form of an action."""
    return {"kind": action.kind, "a": action.a, "b": action.b}


def load(data: dict) -> Act:
    """Inverse of `dump`; `IllegalAction` for anything malformed."""
    if not isinstance(data, dict):
        raise IllegalAction(say("That action is not readable."))
    kind = data.get("kind")
    a = data.get("a", 0)
    b = data.get("b", 0)
    if kind not in KINDS:
        raise IllegalAction(say("Unknown action {kind}.", kind=repr(kind)))
    for number in (a, b):
        if not isinstance(number, int) or isinstance(number, bool) or not -64 <= number <= 1 << 16:
            raise IllegalAction(say("That action's numbers are not valid."))
    return act(kind, a, b)
