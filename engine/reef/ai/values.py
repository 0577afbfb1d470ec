"""What the Reef & Ruins bots and hints count a sheet and a move as worth (public valuations).

`evaluate` is a sheet's worth: its score now plus what its progress should still
bring (`ruin_part` per ruin, `reef_hope` for the reef, shells, dice and pearls
still to use). `gains` lists every way to place one die with what it adds to
`evaluate`, worked out from the parts it changes; `worth_searching` says whether
a ruin is worth searching with the dice left; `lucky_choice` is the lucky
number the bots prefer. The greedy planner (`engine.reef.ai.greedy`), the expert
(`engine.reef.ai.expert`) and the hints' lines of why (`engine.reef.ai.hints`)
all count with these, so a hint's reason is the bots' own.

Memos: a ruin's worth, the reef's hope and the best Atoll shape are LRU caches of
a fixed size (``*_KEPT`` below), so a bot that plays for months holds a few MB at
most (issue #21). A forgotten entry is only worked out again: every memo is a
pure function of its key, so the sizes change speed, never a decision.
"""

from __future__ import annotations

from functools import lru_cache

from engine.reef.actions import Act, act
from engine.reef.components import (
    ATOLL,
    BARRIER,
    LUCKY_COINS,
    RUINS,
    SECTION_COINS,
    SECTION_MULT,
    SECTIONS,
    SHELL_PAIRS,
    Placement,
    Ruin,
)
from engine.reef.scoring import ruin_coins
from engine.reef.sheet import atoll_singles, barrier_cells, completed_lines, legal_slots, value_ok
from engine.reef.state import ATOLL_KEY, BARRIER_KEY, EMPTY, Sheet

PEARL_WORTH = 4.0
SHELL_WORTH = 1.3
DIE_WORTH = 2.5
#: Shell pairs a placement may spend on one die. Three reach past 8 from a 6 (a 9 for ODDS):
#: no cap stops a changed die (issue #40), the pairs held are the limit.
PLACE_REACH = 3
#: The shell moves a placement tries, smallest first (ties keep the cheaper one).
PLACE_DELTAS = tuple(d for k in range(1, PLACE_REACH + 1) for d in (k, -k))

#: Entries each memo keeps (least recently used forgotten first). One greedy round adds
#: about 100 ruin parts and an expert decision up to 1,500, all re-used within the decision.
RUIN_PARTS_KEPT = 8192
REEF_HOPES_KEPT = 4096
SHAPES_KEPT = 4096
#: `gains`' parts remembered: one ruin's slots for one value (the Barrier's cells for one value:
#: `REEF_GAINS_KEPT`). Small: a planner asks about the same few again and again (an expert
#: game misses as often with these sizes as with 8,192 each), and a bot's memos stay full
#: after a game or two (issue #21).
GAINS_KEPT = 2048
REEF_GAINS_KEPT = 256
#: Sheets' ruins and enchantments valued (`ruins_worth`).
RUINS_WORTH_KEPT = 512


def row_credit(ruin: Ruin, slots: tuple[int, ...], hope: float) -> float:
    """Partial credit for rows under way (SAME, DIFFERENT, ODDS, EVENS)."""
    complete = 0
    partial = 0.0
    for row in ruin.rows:
        filled = sum(1 for x in row if slots[x] != EMPTY)
        if filled == len(row):
            complete += 1
        elif filled:
            partial += (filled / len(row)) ** 1.5
    if complete >= len(ruin.rows):
        return 0.0
    step = ruin.row_coins[complete + 1] - ruin.row_coins[complete]
    return hope * step * partial


def ruin_hope(ruin: Ruin, slots: tuple[int, ...], left: int) -> float:
    """Coins a ruin may still add by the end, weighted by how likely they are.

    Not memoised itself: only `ruin_part` (memoised on the same key) asks."""
    hope = min(1.0, left / 8) * 0.8
    rule = ruin.rule
    value = 0.0
    if rule in ("same", "different"):
        value = row_credit(ruin, slots, hope)
        if rule == "same":
            # a row already started with a value nobody rolls often is harder to finish
            value *= 1.0
    elif rule in ("odds", "evens"):
        value = row_credit(ruin, slots, hope)
        for c, column in enumerate(ruin.columns):
            values = [slots[x] for x in column]
            written = [v for v in values if v != EMPTY]
            if written and len(written) < len(values):
                rest = ruin.column_sums[c] - sum(written)
                low, high = (1, 7) if rule == "odds" else (0, 8)
                if low <= rest <= high and rest % 2 == (1 if rule == "odds" else 0):
                    value += hope * ruin.column_coins[c] * 0.5
    elif rule == "plus-minus-one":
        filled = ruin.size - slots.count(EMPTY)
        if filled < ruin.size:
            ahead = min(ruin.size, filled + max(0, left // 2))
            value = hope * 0.5 * (ruin.reach_coins[ahead] - ruin.reach_coins[filled])
            last = slots[filled - 1] if filled else 3
            if last in (0, 8) or last in (1, 7):
                value *= 0.8
    else:  # pyramid
        done = 0
        for row in ruin.rows:
            if any(slots[x] == EMPTY for x in row):
                break
            done += 1
        if done < len(ruin.rows):
            row = ruin.rows[done]
            filled = sum(1 for x in row if slots[x] != EMPTY)
            step = ruin.row_coins[done + 1] - ruin.row_coins[done]
            value = hope * step * (filled / len(row)) ** 1.5
            # a high base keeps the upper rows open
            if done == 0 and filled:
                value += hope * 0.15 * sum(slots[x] for x in row if slots[x] != EMPTY)
    return value


@lru_cache(maxsize=REEF_HOPES_KEPT)
def reef_hope(reef_key: str, reef: int, left: int) -> float:
    """Pearls the reef may still give, from rows and columns under way."""
    board = BARRIER if reef_key == BARRIER_KEY else ATOLL
    hope = min(1.0, left / 8)
    value = 0.0
    size = board.cols
    for mask in board.row_masks + board.col_masks:
        filled = (reef & mask).bit_count()
        if filled < size:
            value += hope * PEARL_WORTH * (filled / size) ** 3
    if reef_key == BARRIER_KEY:
        frontier = 0
        reach = 0
        for c in range(board.rows * board.cols):
            if not reef >> c & 1 and BARRIER.neighbours[c] & reef:
                frontier |= 1 << BARRIER.values[c]
                if c in BARRIER.highlighted:
                    reach += 1
        value += hope * (0.4 * frontier.bit_count() + 1.2 * reach)
    return value


MAX_COINS = tuple(
    (r.reach_coins[-1] + r.turn_bonus[-1] // 2)
    if r.rule == "plus-minus-one"
    else r.row_coins[-1] + sum(r.column_coins)
    for r in RUINS
)
NEXT_MULT = tuple(
    tuple(
        next(
            ((k - n + 1, sp.multiplier) for k, sp in enumerate(sec.spaces) if k >= n and sp.multiplier > 1),
            (0, 1),
        )
        for n in range(len(sec.spaces) + 1)
    )
    for sec in SECTIONS
)
FOCUS = 0.5


@lru_cache(maxsize=RUIN_PARTS_KEPT)
def ruin_part(i: int, slots: tuple[int, ...], crossed: int, left: int) -> float:
    """One ruin's worth: (coins + hoped-for coins) x multiplier, plus what a multiplier
    earned (or on its way) should add to the coins this ruin can still gain."""
    ruin = RUINS[i]
    mult = SECTION_MULT[i][crossed]
    coins = ruin_coins(ruin, slots)
    hope = ruin_hope(ruin, slots, left)
    future = max(0.0, min(MAX_COINS[i] - coins - hope, 1.6 * left)) * FOCUS
    value = (coins + hope) * mult + (mult - 1) * future
    distance, later = NEXT_MULT[i][crossed]
    if later > mult and left > 1:
        value += (later - mult) * (coins + hope + future) * 0.5 / distance * min(1.0, left / 8)
    return value


def lucky_reef(sheet: Sheet, reef_key: str) -> int:
    lucky = sheet.lucky
    if not lucky:
        return 0
    if reef_key == BARRIER_KEY:
        return sum(1 for c in BARRIER.cells_of_value[lucky] if sheet.reef >> c & 1)
    return sum(1 for v, single, _ in sheet.shapes if v == lucky and not single)


@lru_cache(maxsize=RUINS_WORTH_KEPT)
def ruins_worth(ruins: tuple[tuple[int, ...], ...], ench: tuple[int, ...], left: int) -> float:
    """`evaluate`'s ruins and enchantments: every `ruin_part` and section's coins, added in order
    (remembered: a planner evaluates many sheets that differ only in the reef or the dice)."""
    total = 0.0
    for i, slots in enumerate(ruins):
        total += ruin_part(i, slots, ench[i], left)
        total += SECTION_COINS[i][ench[i]]
    return total


def evaluate(sheet: Sheet, reef_key: str, left: int) -> float:
    """What a sheet is worth: its score now plus what its progress should still bring."""
    total = ruins_worth(sheet.ruins, sheet.ench, left)
    lucky = sheet.lucky
    if lucky:
        count = sum(slots.count(lucky) for slots in sheet.ruins) + lucky_reef(sheet, reef_key)
        total += LUCKY_COINS * count
    total += sheet.coins
    total += reef_hope(reef_key, sheet.reef, left)
    total += sheet.shells * SHELL_WORTH * min(1.0, left / 4)
    total += sum(DIE_WORTH for d in sheet.dice if not d[3] and d[1] != "roll")
    total += len(sheet.pending) * PEARL_WORTH
    return total


def atoll_score(reef: int, mask: int, value: int, lucky: int, left: int) -> float:
    """Quick worth of drawing a shape: reef hope, pearls from completed lines, the lucky number."""
    after = reef | mask
    lines = sum(1 for m in ATOLL.row_masks + ATOLL.col_masks if after & m == m and reef & m != m)
    return reef_hope(ATOLL_KEY, after, left) + lines * PEARL_WORTH + (LUCKY_COINS if value == lucky else 0)


@lru_cache(maxsize=SHAPES_KEPT)
def best_shape(reef: int, value: int, lucky: int, left: int) -> Placement | None:
    """The Atoll placement of the shape for ``value`` that the quick reef score likes best."""
    best = None
    for p in ATOLL.placements.get(value, ()):
        if not p.mask & reef:
            score = atoll_score(reef, p.mask, value, lucky, left)
            if best is None or score > best[0]:
                best = (score, p)
    return best[1] if best is not None else None


_WRITES = {(r, slot): act("write", r + 1, slot) for r, ruin in enumerate(RUINS) for slot in range(ruin.size)}
_PICK_STEPS = tuple(act("pick", i) for i in range(16))


@lru_cache(maxsize=GAINS_KEPT)
def ruin_gains(r: int, slots: tuple[int, ...], crossed: int, left: int, value: int) -> tuple:
    """(what writing ``value`` in the slot adds to ruin ``r``'s `ruin_part`, the write step) for
    every slot it may go in: `gains`' ruin part, remembered (the planners ask it again and again)."""
    now = ruin_part(r, slots, crossed, left)
    out = []
    for slot in legal_slots(RUINS[r], slots, value):
        after = (*slots[:slot], value, *slots[slot + 1 :])
        out.append((ruin_part(r, after, crossed, left) - now, _WRITES[(r, slot)]))
    return tuple(out)


@lru_cache(maxsize=REEF_GAINS_KEPT)
def barrier_gains(reef: int, value: int, left: int) -> tuple:
    """(what marking the cell adds to the reef's hope and pearls, the mark step) for every
    Bewitching Barrier cell ``value`` may mark: `gains`' reef part, remembered."""
    reef_now = reef_hope(BARRIER_KEY, reef, left)
    out = []
    for cell in barrier_cells(reef, value):
        after = reef | 1 << cell
        pearls = sum(completed_lines(reef, after, BARRIER.row_masks, BARRIER.col_masks))
        if cell in BARRIER.highlighted:
            pearls += BARRIER.pearls_highlight
        out.append((reef_hope(BARRIER_KEY, after, left) - reef_now + pearls * PEARL_WORTH, act("mark", cell)))
    return tuple(out)


def gains(sheet: Sheet, index: int, value: int, reef_key: str, left: int) -> list[tuple[float, list[Act]]]:
    """Every way to place die ``index`` showing ``value``, with what it adds to `evaluate`.

    The gains are worked out from the parts of `evaluate` a placement changes
    (one ruin, the reef, the lucky number, shells), so no sheet is built; the ruin's
    and the Barrier's parts are remembered (`ruin_gains`, `barrier_gains`)."""
    die = sheet.dice[index]
    lucky_bonus = LUCKY_COINS if sheet.lucky and value == sheet.lucky else 0
    out: list[tuple[float, list[Act]]] = []
    pick = _PICK_STEPS[index] if index < len(_PICK_STEPS) else act("pick", index)
    if die[1] != "hydra":
        ruins: range | tuple[int, ...] = range(len(RUINS))
    else:
        ruins = (sheet.main - 1,) if sheet.main > 0 else ()
    all_ruins = sheet.ruins
    ench = sheet.ench
    for r in ruins:
        for gain, step in ruin_gains(r, all_ruins[r], ench[r], left, value):
            out.append((gain + lucky_bonus, [pick, step]))
    if reef_key == BARRIER_KEY:
        for gain, step in barrier_gains(sheet.reef, value, left):
            out.append((gain + lucky_bonus, [pick, step]))
    else:
        reef_now = reef_hope(reef_key, sheet.reef, left)
        placement = best_shape(sheet.reef, value, sheet.lucky, left)
        if placement is not None:
            gain = atoll_score(sheet.reef, placement.mask, value, sheet.lucky, left) - reef_now
            out.append((gain, [pick, act("shape", placement.orient), act("place", placement.anchor)]))
        singles = atoll_singles(sheet.reef)
        if len(singles) >= 2:
            mask = 1 << singles[0] | 1 << singles[1]
            gain = atoll_score(sheet.reef, mask, 0, sheet.lucky, left) - reef_now
            out.append((gain, [pick, act("singles"), act("place", singles[0]), act("place", singles[1])]))
    if die[1] != "roll":  # a rolled die is never traded
        trade = SHELL_WORTH * min(1.0, left / 4) if sheet.shells < SHELL_PAIRS else 0.0
        out.append((trade, [pick, act("trade")]))
    return out


def worth_searching(sheet: Sheet, r: int, rest: list[int], shells: int) -> bool:
    """A ruin is worth searching only if a remaining die (with a shell or so) can be written in it."""
    ruin = RUINS[r]
    slots = sheet.ruins[r]
    reach = min(shells, 1)
    return any(
        legal_slots(ruin, slots, v + d) for v in rest for d in range(-reach, reach + 1) if value_ok(v + d)
    )


#: Lucky numbers in the order greedy prefers them; it takes the first one still free
#: (seats pick in seat order, "if possible … a different lucky number").
LUCKY_CHOICES = (3, 5, 1, 4, 2, 6)


#: The expert's lucky numbers, best first, for each reef and tracker side: the mean final score
#: of 150 sampled greedy games a number, the same dice for every number (`engine.reef.ai.expert.
#: lucky_scores`; ``python -m bench.reef_tune --lucky 150`` prints these lines; the comments:
#: each number's mean, 1-6), worked out once because it takes seconds. Greedy keeps its own
#: order (`LUCKY_CHOICES`), whose 3 scores about 4 points less than 1 on the Bewitching
#: Barrier's Sunrise side. The expert chooses by the book, and the hints say so.
LUCKY_BOOK: dict[tuple[str, str], tuple[int, ...]] = {
    ("bewitching-barrier", "sunrise"): (1, 3, 4, 2, 6, 5),  # 157.2 152.0 152.9 152.8 150.7 151.8
    ("bewitching-barrier", "moonrise"): (2, 1, 5, 4, 6, 3),  # 151.8 152.8 148.3 150.8 151.1 150.7
    ("arcane-atoll", "sunrise"): (2, 1, 3, 5, 6, 4),  # 161.5 162.0 158.2 155.5 157.6 156.2
    ("arcane-atoll", "moonrise"): (2, 5, 6, 1, 4, 3),  # 156.3 159.9 155.0 155.4 158.1 156.3
}


def lucky_choice(legal: list[Act]) -> Act:
    """The most preferred lucky number still free (LUCKY_CHOICES order)."""
    for number in LUCKY_CHOICES:
        choice = act("lucky", number)
        if choice in legal:
            return choice
    return legal[0]


__all__ = [
    "DIE_WORTH",
    "FOCUS",
    "GAINS_KEPT",
    "LUCKY_BOOK",
    "LUCKY_CHOICES",
    "MAX_COINS",
    "NEXT_MULT",
    "PEARL_WORTH",
    "PLACE_DELTAS",
    "PLACE_REACH",
    "REEF_GAINS_KEPT",
    "REEF_HOPES_KEPT",
    "RUINS_WORTH_KEPT",
    "RUIN_PARTS_KEPT",
    "SHAPES_KEPT",
    "SHELL_WORTH",
    "atoll_score",
    "barrier_gains",
    "best_shape",
    "evaluate",
    "gains",
    "lucky_choice",
    "lucky_reef",
    "reef_hope",
    "row_credit",
    "ruin_gains",
    "ruin_hope",
    "ruin_part",
    "ruins_worth",
    "worth_searching",
]
