"""What a player can do: small frozen dataclasses, each with a lossless JSON form.

- ① selection: `ToggleCard` (pick or put back one diving card), `Confirm`.
- ③ zone 0: `GainHaenyeo`, `Exchange` (turtle eggs for seafood or a pearl), `Done`.
- ③ zones 1-10: `Harvest` (one slot of the zone's row).
- ③ pearl-track bonuses (zone 11, or a pearl bought with eggs): `TakeTrash`, `TakeSeafood`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.base import IllegalAction
from engine.haenyeo.components import N_SEAFOOD, N_TRASH, SEAFOOD
from engine.haenyeo.components import C as _C
from i18n import say


@dataclass(frozen=True, slots=True)
class ToggleCard:
    """Select (or put back) the diving card for ``zone``."""

    zone: int

    def __eq__(self, other: object) -> bool:
        # The dataclass's own ``__eq__`` answers NotImplemented for another action, so Python
        # asks the other action too before it says False: a seat's legal toggles are compared
        # with the Confirm at every random move (`Confirm() in options`). Same answers, one call.
        if other.__class__ is ToggleCard:
            return self.zone == other.zone  # type: ignore[attr-defined]
        return False if other.__class__ in _ACTION_TYPES else NotImplemented


@dataclass(frozen=True, slots=True)
class Confirm:
    """Lock in the selected diving cards."""


@dataclass(frozen=True, slots=True)
class GainHaenyeo:
    """Zone 0: spend turtle eggs for the 3rd Haenyeo (once per game)."""


@dataclass(frozen=True, slots=True)
class Exchange:
    """Zone 0: spend ``eggs`` turtle eggs for the listed seafood (indices), or for a pearl when empty."""

    eggs: int
    seafood: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Done:
    """Zone 0: stop using turtle eggs this round."""


@dataclass(frozen=True, slots=True)
class Harvest:
    """Zones 1-10: harvest slot ``slot`` (0 = leftmost) of the current zone."""

    slot: int


@dataclass(frozen=True, slots=True)
class TakeTrash:
    """Pearl-track bonus: mark trash type ``kind`` (index)."""

    kind: int


@dataclass(frozen=True, slots=True)
class TakeSeafood:
    """Pearl-track bonus: mark two seafood of your choice (indices, sorted)."""

    seafood: tuple[int, int]


Action = ToggleCard | Confirm | GainHaenyeo | Exchange | Done | Harvest | TakeTrash | TakeSeafood
#: Every kind of Haenyeo action: none equals an action of another kind.
_ACTION_TYPES = frozenset((ToggleCard, Confirm, GainHaenyeo, Exchange, Done, Harvest, TakeTrash, TakeSeafood))

CONFIRM = Confirm()
GAIN = GainHaenyeo()
DONE = Done()
TOGGLES = tuple(ToggleCard(z) for z in range(12))
HARVESTS = tuple(Harvest(i) for i in range(8))
TRASH_PICKS = tuple(TakeTrash(k) for k in range(N_TRASH))
PAIRS = tuple((a, b) for a in range(N_SEAFOOD) for b in range(a, N_SEAFOOD))
SEAFOOD_PICKS = {pair: TakeSeafood(pair) for pair in PAIRS}
EXCHANGES: dict[tuple[int, tuple[int, ...]], Exchange] = {}
for _eggs, _food, _pearls in _C.exchanges:
    if _pearls:
        EXCHANGES[(_eggs, ())] = Exchange(_eggs, ())
    elif _food == 1:
        for _a in range(N_SEAFOOD):
            EXCHANGES[(_eggs, (_a,))] = Exchange(_eggs, (_a,))
    else:
        for _pair in PAIRS:
            EXCHANGES[(_eggs, _pair)] = Exchange(_eggs, _pair)

_NAMES = {
    ToggleCard: "toggle",
    Confirm: "confirm",
    GainHaenyeo: "gain_haenyeo",
    Exchange: "exchange",
    Done: "done",
    Harvest: "harvest",
    TakeTrash: "take_trash",
    TakeSeafood: "take_seafood",
}


def dump(action: Action) -> dict:
    """JSON form: {"type": ..., fields...}; seafood and trash by their data keys."""
    kind = _NAMES.get(type(action))
    if kind is None:
        raise TypeError(f"not a Haenyeo action: {action!r}")
    if isinstance(action, ToggleCard):
        return {"type": kind, "zone": action.zone}
    if isinstance(action, Harvest):
        return {"type": kind, "slot": action.slot}
    if isinstance(action, Exchange):
        return {"type": kind, "eggs": action.eggs, "seafood": [SEAFOOD[i] for i in action.seafood]}
    if isinstance(action, TakeTrash):
        return {"type": kind, "trash": _C.trash[action.kind]}
    if isinstance(action, TakeSeafood):
        return {"type": kind, "seafood": [SEAFOOD[i] for i in action.seafood]}
    return {"type": kind}


def _small_int(data: dict, key: str, high: int) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < high:
        raise IllegalAction(
            say(
                "That move is malformed: {key} must be a number from 0 to {high}.",
                key=repr(key),
                high=high - 1,
            )
        )
    return value


def _seafood_list(data: dict) -> tuple[int, ...]:
    names = data.get("seafood")
    if not isinstance(names, list) or any(n not in SEAFOOD for n in names):
        raise IllegalAction(say("That move is malformed: 'seafood' must list seafood names."))
    return tuple(sorted(SEAFOOD.index(n) for n in names))


def load(data: dict) -> Action:
    """Inverse of `dump`; malformed data raises `IllegalAction`."""
    if not isinstance(data, dict):
        raise IllegalAction(say("That move is malformed: expected an object."))
    kind = data.get("type")
    if kind == "toggle":
        return TOGGLES[_small_int(data, "zone", 12)]
    if kind == "confirm":
        return CONFIRM
    if kind == "gain_haenyeo":
        return GAIN
    if kind == "done":
        return DONE
    if kind == "harvest":
        return HARVESTS[_small_int(data, "slot", len(HARVESTS))]
    if kind == "exchange":
        eggs = data.get("eggs")
        found = EXCHANGES.get((eggs, _seafood_list(data))) if isinstance(eggs, int) else None
        if found is None:
            raise IllegalAction(say("That move is malformed: no such turtle-egg exchange."))
        return found
    if kind == "take_trash":
        name = data.get("trash")
        if name not in _C.trash:
            raise IllegalAction(say("That move is malformed: unknown trash type."))
        return TRASH_PICKS[_C.trash.index(name)]
    if kind == "take_seafood":
        pair = _seafood_list(data)
        if pair not in SEAFOOD_PICKS:
            raise IllegalAction(say("That move is malformed: choose exactly two seafood."))
        return SEAFOOD_PICKS[pair]  # type: ignore[index]
    raise IllegalAction(say("That move is malformed: unknown move type {kind}.", kind=repr(kind)))
