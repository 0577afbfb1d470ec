"""The whole game state: a flat record of ints and tuples, copied (never mutated) by each move.

Per-seat values are tuples indexed by seat. Zones are bits of an int mask
(bit ``z`` = zone ``z``) wherever a set of zones is stored. ``apply`` works on
``state.copy()`` and replaces whole tuples, so an old state never changes.
"""

from __future__ import annotations

from typing import Any

from engine.base import DataError

#: Field name -> how it is stored in JSON ("int", "str", "bool", "ints" = tuple of ints, ...).
FIELDS: dict[str, str] = {
    "seats": "int",
    "seed": "int",
    "npc": "bool",
    "tile": "int",
    "shallow": "ints",
    "deep": "ints",
    "round": "int",
    "first": "int",
    "passes": "bool",
    "phase": "str",
    "pawns": "ints",
    "third": "ints",
    "chosen": "ints",
    "confirmed": "ints",
    "npc_cards": "int",
    "npc_used": "int",
    "occupied": "int",
    "reach": "int",
    "taken": "intss",
    "food": "intss",
    "eggs": "ints",
    "eggs_used": "ints",
    "pearls": "ints",
    "trash": "ints",
    "scores": "intss",
    "zone": "int",
    "actors": "ints",
    "turn": "int",
    "pending": "ints",
    "bonus": "intss",
    "visit": "int",
}


#: Fields a state stored before they existed lacks, and the value it was played with.
#: ``passes``: before issue #40 the marker always passed clockwise.
OLD_DEFAULTS: dict[str, Any] = {"passes": True}


class State:
    """One moment of a Haenyeo game.

    Setup and round: ``seats``, ``seed``, ``npc`` (2-player NPC present), ``tile``
    (score tile index), ``shallow``/``deep`` (deck orders of card indices; the
    card of round r is at r-1), ``round`` (1..8), ``first`` (First Player seat),
    ``passes`` (the house rule: the First Player marker passes clockwise each round),
    ``phase`` ("select", "actions" or "end").

    Per seat: ``pawns`` (active Haenyeo), ``third`` (1 once the 3rd is gained),
    ``chosen`` (diving cards as a zone mask: toggled while selecting, placed
    after the reveal), ``confirmed`` (1/0), ``food`` (marks per seafood track),
    ``eggs`` (egg circles drawn), ``eggs_used`` (circles crossed out), ``pearls``,
    ``trash`` (mask of trash types), ``scores`` (points of each scoring round so far).

    NPC: ``npc_cards`` (cards it plays this round, mask), ``npc_used`` (cards
    drawn since the last reshuffle, mask).

    Sea: ``taken`` (per zone, the owner of each slot: FREE, NPC or a seat),
    ``occupied`` (zones with a Haenyeo or creature, mask), ``reach`` (deepest
    connected zone; everything from 1 to reach is connected).

    Action cursor: ``zone`` being resolved, ``actors`` (seats acting there, in
    order; NPC first), ``turn`` (whose pick, counted from 0), ``pending`` (the
    decision awaited: ``(kind, seat)`` or ``()``), ``bonus`` (queued pearl-track
    bonuses ``(seat, kind)``), ``visit`` (zone 0: bit 1 = 3rd Haenyeo gained this
    visit, bit 2 = an exchange made).
    """

    __slots__ = ("__dict__",)

    seats: int
    seed: int
    npc: bool
    tile: int
    shallow: tuple[int, ...]
    deep: tuple[int, ...]
    round: int
    first: int
    passes: bool
    phase: str
    pawns: tuple[int, ...]
    third: tuple[int, ...]
    chosen: tuple[int, ...]
    confirmed: tuple[int, ...]
    npc_cards: int
    npc_used: int
    occupied: int
    reach: int
    taken: tuple[tuple[int, ...], ...]
    food: tuple[tuple[int, ...], ...]
    eggs: tuple[int, ...]
    eggs_used: tuple[int, ...]
    pearls: tuple[int, ...]
    trash: tuple[int, ...]
    scores: tuple[tuple[int, ...], ...]
    zone: int
    actors: tuple[int, ...]
    turn: int
    pending: tuple[int, ...]
    bonus: tuple[tuple[int, ...], ...]
    visit: int

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)

    def copy(self) -> State:
        """A shallow copy (every nested value is an immutable tuple) without cached answers."""
        new = State.__new__(State)
        data = self.__dict__.copy()
        data.pop("_legal", None)
        new.__dict__ = data
        return new

    def data(self) -> dict[str, Any]:
        """The fields only (no caches)."""
        return {name: self.__dict__[name] for name in FIELDS}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.data() == other.data()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"State(round={self.round}, phase={self.phase!r}, zone={self.zone}, pending={self.pending})"


def dump(state: State) -> dict[str, Any]:
    """Lossless JSON form."""
    out: dict[str, Any] = {}
    for name, kind in FIELDS.items():
        value = state.__dict__[name]
        if kind == "ints":
            out[name] = list(value)
        elif kind == "intss":
            out[name] = [list(v) for v in value]
        else:
            out[name] = value
    return out


def load(data: dict[str, Any]) -> State:
    """Inverse of `dump`."""
    values: dict[str, Any] = {}
    try:
        for name, kind in FIELDS.items():
            value = data.get(name, OLD_DEFAULTS[name]) if name in OLD_DEFAULTS else data[name]
            if kind == "int":
                values[name] = int(value)
            elif kind == "bool":
                values[name] = bool(value)
            elif kind == "str":
                values[name] = str(value)
            elif kind == "ints":
                values[name] = tuple(int(v) for v in value)
            else:
                values[name] = tuple(tuple(int(x) for x in v) for v in value)
    except (KeyError, TypeError, ValueError) as error:
        raise DataError(f"not a Haenyeo state: {error!r}") from error
    return State(**values)
