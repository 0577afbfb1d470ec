"""Writing on one player's pad: what a die is worth, where it may be written, what it completes.

Rulebook: "Search a Ship Ruin" (the six ruins' writing rules: `can_write`,
`legal_slots`, the +/- ONE `turns`), "Explore the Reef" (both reefs:
`barrier_cells`, `atoll_orients`, `atoll_anchors`, `atoll_singles`, and the lines
a mark completes, `completed_lines`) and "Trade in Shells" with its Reference
(a die's value after shells, `die_value`, `value_ok`). The pad itself, a `Sheet`,
is a record in `engine.reef.state`; the round that writes on it is `engine.reef.rules`.
"""

from __future__ import annotations

from engine.reef.components import ATOLL, BARRIER, LOW_VALUE, Ruin
from engine.reef.state import EMPTY, Die


def die_value(die: Die) -> int:
    """A die's value after shells."""
    return die[0] + die[2]


# ------------------------------------------------------------------ ruin writing rules


def can_write(ruin: Ruin, slots: tuple[int, ...], slot: int, value: int) -> bool:
    """May ``value`` be written in ``slot`` of ``ruin`` now (Search a Ship Ruin, rules 1-6)?"""
    if slots[slot] != EMPTY:
        return False
    rule = ruin.rule
    if rule == "same":
        return all(slots[x] == EMPTY or slots[x] == value for x in ruin.rows[ruin.row_of[slot]])
    if rule == "different":
        return all(slots[x] != value for x in ruin.neighbours[slot])
    if rule == "plus-minus-one":
        if slot != 0 and slots[slot - 1] == EMPTY:
            return False
        if slot + 1 < ruin.size and slots[slot + 1] != EMPTY:
            return False
        return slot == 0 or abs(slots[slot - 1] - value) == 1
    if rule == "odds":
        return value % 2 == 1
    if rule == "evens":
        return value % 2 == 0
    # PYRAMID, written in any order ("Unless specified, values can be written in the Ruins
    # in any order"): "Each value on a higher row must be equal to or lower than each of
    # the two values that it is balanced on" holds between every two written values, so a
    # value is at most the written values below it and at least the written values above.
    return all(slots[x] == EMPTY or value <= slots[x] for x in ruin.supports[slot]) and all(
        slots[y] == EMPTY or slots[y] <= value for y in ruin.above[slot]
    )


#: `legal_slots` answers per ruin (kept alive beside its answers, so its id stays its own).
_SLOTS_SEEN: dict[int, tuple[Ruin, dict[tuple[tuple[int, ...], int], tuple[int, ...]]]] = {}
_SLOTS_KEPT = 8192


def legal_slots(ruin: Ruin, slots: tuple[int, ...], value: int) -> list[int]:
    """Every slot of ``ruin`` where ``value`` may be written now (remembered: legal moves, hints
    and the bots' values ask about the same ruins again and again)."""
    seen = _SLOTS_SEEN.get(id(ruin))
    if seen is None:
        seen = _SLOTS_SEEN[id(ruin)] = (ruin, {})
    answers = seen[1]
    found = answers.get((slots, value))
    if found is None:
        if len(answers) >= _SLOTS_KEPT:
            answers.clear()
        found = answers[(slots, value)] = open_slots(ruin, slots, value)
    return list(found)


def open_slots(ruin: Ruin, slots: tuple[int, ...], value: int) -> tuple[int, ...]:
    """`legal_slots` worked out afresh, not remembered: `can_write` for every slot at once,
    rule by rule (the same answers, a few times quicker)."""
    rule = ruin.rule
    if rule == "plus-minus-one":
        filled = ruin.size - slots.count(EMPTY)
        if filled >= ruin.size:
            return ()
        return (filled,) if filled == 0 or abs(slots[filled - 1] - value) == 1 else ()
    if rule == "odds" or rule == "evens":
        if value % 2 != (rule == "odds"):
            return ()
        return tuple([slot for slot, written in enumerate(slots) if written == EMPTY])
    out: list[int] = []
    if rule == "same":  # a row takes the value while every value written in it is that value
        for row in ruin.rows:
            written = {slots[x] for x in row}
            written.discard(EMPTY)
            if not written or written == {value}:
                out.extend([x for x in row if slots[x] == EMPTY])
        return tuple(out)
    if rule == "different":  # no slot next to one holding the value
        blocked: set[int] = set()
        for slot, written in enumerate(slots):
            if written == value:
                blocked.update(ruin.neighbours[slot])
        return tuple([slot for slot, written in enumerate(slots) if written == EMPTY and slot not in blocked])
    # PYRAMID (see `can_write`): at most each written value it rests on, at least each above it
    supports, above = ruin.supports, ruin.above
    for slot, written in enumerate(slots):
        if written != EMPTY:
            continue
        fits = True
        for x in supports[slot]:
            if slots[x] != EMPTY and value > slots[x]:
                fits = False
                break
        if fits:
            for y in above[slot]:
                if slots[y] != EMPTY and slots[y] > value:
                    fits = False
                    break
        if fits:
            out.append(slot)
    return tuple(out)


def turns(slots: tuple[int, ...]) -> list[int]:
    """+/- ONE: slots ``i`` where the direction changes between (i-1, i) and (i, i+1) (a circle)."""
    out = []
    for i in range(1, len(slots) - 1):
        a, b, c = slots[i - 1], slots[i], slots[i + 1]
        if EMPTY in (a, b, c):
            break
        if (b - a) != (c - b):
            out.append(i)
    return out


# ------------------------------------------------------------------------- the reefs


def barrier_cells(reef: int, value: int) -> list[int]:
    """Bewitching Barrier: unmarked spaces showing ``value`` next to Start or a marked space."""
    if not 0 <= value < len(BARRIER.cells_of_value):
        return []
    neighbours = BARRIER.neighbours
    return [c for c in BARRIER.cells_of_value[value] if not reef >> c & 1 and neighbours[c] & reef]


def atoll_orients(reef: int, value: int) -> list[int]:
    """Arcane Atoll: orientations of the shape for ``value`` that fit somewhere now."""
    if value not in ATOLL.shapes:
        return []
    out = []
    for o in range(len(ATOLL.shapes[value])):
        for p in ATOLL.by_orient[(value, o)]:
            if not p.mask & reef:
                out.append(o)
                break
    return out


def atoll_anchors(reef: int, value: int, orient: int) -> list[int]:
    """Arcane Atoll: anchor cells (top-left of the bounding box) where that orientation fits."""
    return [p.anchor for p in ATOLL.by_orient.get((value, orient), ()) if not p.mask & reef]


def atoll_singles(reef: int) -> list[int]:
    """Arcane Atoll: empty cells a single block may cover (untextured or a one-cell texture)."""
    return [c for c in ATOLL.singles if not reef >> c & 1]


def completed_lines(
    before: int, after: int, row_masks: tuple[int, ...], col_masks: tuple[int, ...]
) -> tuple[int, int]:
    """How many rows and how many columns ``after`` completes that ``before`` had not."""
    rows = sum(1 for m in row_masks if after & m == m and before & m != m)
    cols = sum(1 for m in col_masks if after & m == m and before & m != m)
    return rows, cols


def value_ok(value: int) -> bool:
    """May a die show ``value`` after shells? Nothing below 0 and no wrap; no upper cap.

    Reference: "you cannot add 1 to a 6 to get a 1 or subtract 1 from a 1 to get a 6";
    ODDS "(1, 3, 5, 7, etc.)" and EVENS "(2, 4, 6, 8, etc.)" go on past 8, so the only
    limit above is the shells a seat holds (docs/rules/reef.md, issue #40)."""
    return value >= LOW_VALUE
