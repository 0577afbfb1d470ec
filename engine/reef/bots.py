"""Seat policies for Reef & Ruins: ``random``, ``greedy`` and ``expert`` (in `engine.reef.expert`).

``random`` picks any legal step except the ones that take work back (put a die
back, reset my round), so play-outs always end; it spends shells only now and
then, as a careless player would.

``greedy`` plans its whole round from the sheet it had at the start of the
round: for every way to search a ruin or cast an enchantment (shells allowed
to reach the number) and for doing neither, it places the remaining dice one
at a time where a sheet evaluation gains most, and keeps the best plan. The
plan is a pure function of the round-start sheet (memoised), so the policy is
deterministic; it then plays the plan's next step, re-planning from the
current sheet if the seat has strayed from it. Every step it returns is taken
from ``legal_actions``.

Memos: the evaluation's parts and the round plans are LRU caches
of a fixed size (``*_KEPT`` below), so a bot that plays for months holds a few
MB at most (issue #21). A forgotten entry is only worked out again: every memo
is a pure function of its key, so the sizes change speed, never a decision.
"""

from __future__ import annotations

import random
from functools import lru_cache

from engine.base import Game
from engine.reef import turn
from engine.reef.actions import UNDO_KINDS, Act, act
from engine.reef.components import (
    ATOLL,
    BARRIER,
    LUCKY_COINS,
    ROUNDS,
    RUINS,
    SECTION_COINS,
    SECTION_MULT,
    SECTIONS,
    SHELL_PAIRS,
    Placement,
    Ruin,
)
from engine.reef.scoring import ruin_coins
from engine.reef.sheet import (
    EMPTY,
    Sheet,
    atoll_singles,
    barrier_cells,
    completed_lines,
    die_value,
    legal_slots,
    value_ok,
)


def random_policy(game: Game, state, seat: int, rng: random.Random) -> Act:
    """Any legal move except taking work back; shells are spent only now and then."""
    options = [a for a in game.legal_actions(state, seat) if a.kind not in UNDO_KINDS]
    calm = [a for a in options if a.kind != "shell"]
    if calm and (len(calm) == len(options) or rng.random() < 0.85):
        options = calm
    return options[rng.randrange(len(options))]


# ------------------------------------------------------------------ evaluation

PEARL_WORTH = 4.0
SHELL_WORTH = 1.3
DIE_WORTH = 2.5
#: Shell pairs a placement may spend on one die. Three reach past 8 from a 6 (a 9 for ODDS):
#: no cap stops a changed die (issue #40), the pairs held are the limit.
PLACE_REACH = 3
#: The shell moves a placement tries, smallest first (ties keep the cheaper one).
PLACE_DELTAS = tuple(d for k in range(1, PLACE_REACH + 1) for d in (k, -k))

#: Entries each memo keeps (least recently used forgotten first). One greedy round adds
#: about 100 ruin parts and an expert decision up to 1,500, all re-used within the decision;
#: a round plan (~2 KB, its trail of sheets) is re-used by the round's later steps.
RUIN_PARTS_KEPT = 8192
REEF_HOPES_KEPT = 4096
SHAPES_KEPT = 4096
PLANS_KEPT = 256


def _row_credit(ruin: Ruin, slots: tuple[int, ...], hope: float) -> float:
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


def _ruin_hope(ruin: Ruin, slots: tuple[int, ...], left: int) -> float:
    """Coins a ruin may still add by the end, weighted by how likely they are.

    Not memoised itself: only `_ruin_part` (memoised on the same key) asks."""
    hope = min(1.0, left / 8) * 0.8
    rule = ruin.rule
    value = 0.0
    if rule in ("same", "different"):
        value = _row_credit(ruin, slots, hope)
        if rule == "same":
            # a row already started with a value nobody rolls often is harder to finish
            value *= 1.0
    elif rule in ("odds", "evens"):
        value = _row_credit(ruin, slots, hope)
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
def _reef_hope(reef_key: str, reef: int, left: int) -> float:
    """Pearls the reef may still give, from rows and columns under way."""
    board = BARRIER if reef_key == turn.BARRIER_KEY else ATOLL
    hope = min(1.0, left / 8)
    value = 0.0
    size = board.cols
    for mask in board.row_masks + board.col_masks:
        filled = (reef & mask).bit_count()
        if filled < size:
            value += hope * PEARL_WORTH * (filled / size) ** 3
    if reef_key == turn.BARRIER_KEY:
        frontier = 0
        reach = 0
        for c in range(board.rows * board.cols):
            if not reef >> c & 1 and BARRIER.neighbours[c] & reef:
                frontier |= 1 << BARRIER.values[c]
                if c in BARRIER.highlighted:
                    reach += 1
        value += hope * (0.4 * frontier.bit_count() + 1.2 * reach)
    return value


_MAX_COINS = tuple(
    (r.reach_coins[-1] + r.turn_bonus[-1] // 2)
    if r.rule == "plus-minus-one"
    else r.row_coins[-1] + sum(r.column_coins)
    for r in RUINS
)
_NEXT_MULT = tuple(
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
def _ruin_part(i: int, slots: tuple[int, ...], crossed: int, left: int) -> float:
    """One ruin's worth: (coins + hoped-for coins) x multiplier, plus what a multiplier
    earned (or on its way) should add to the coins this ruin can still gain."""
    ruin = RUINS[i]
    mult = SECTION_MULT[i][crossed]
    coins = ruin_coins(ruin, slots)
    hope = _ruin_hope(ruin, slots, left)
    future = max(0.0, min(_MAX_COINS[i] - coins - hope, 1.6 * left)) * FOCUS
    value = (coins + hope) * mult + (mult - 1) * future
    distance, later = _NEXT_MULT[i][crossed]
    if later > mult and left > 1:
        value += (later - mult) * (coins + hope + future) * 0.5 / distance * min(1.0, left / 8)
    return value


def _lucky_reef(sheet: Sheet, reef_key: str) -> int:
    lucky = sheet.lucky
    if not lucky:
        return 0
    if reef_key == turn.BARRIER_KEY:
        return sum(1 for c in BARRIER.cells_of_value[lucky] if sheet.reef >> c & 1)
    return sum(1 for v, single, _ in sheet.shapes if v == lucky and not single)


def evaluate(sheet: Sheet, reef_key: str, left: int) -> float:
    """What a sheet is worth: its score now plus what its progress should still bring."""
    ench = sheet.ench
    total = 0.0
    for i, slots in enumerate(sheet.ruins):
        total += _ruin_part(i, slots, ench[i], left)
        total += SECTION_COINS[i][ench[i]]
    lucky = sheet.lucky
    if lucky:
        count = sum(slots.count(lucky) for slots in sheet.ruins) + _lucky_reef(sheet, reef_key)
        total += LUCKY_COINS * count
    total += sheet.coins
    total += _reef_hope(reef_key, sheet.reef, left)
    total += sheet.shells * SHELL_WORTH * min(1.0, left / 4)
    total += sum(DIE_WORTH for d in sheet.dice if not d[3] and not turn.is_rolled(d))
    total += len(sheet.pending) * PEARL_WORTH
    return total


def _atoll_score(reef: int, mask: int, value: int, lucky: int, left: int) -> float:
    """Quick worth of drawing a shape: reef hope, pearls from completed lines, the lucky number."""
    after = reef | mask
    lines = sum(1 for m in ATOLL.row_masks + ATOLL.col_masks if after & m == m and reef & m != m)
    return (
        _reef_hope(turn.ATOLL_KEY, after, left) + lines * PEARL_WORTH + (LUCKY_COINS if value == lucky else 0)
    )


# --------------------------------------------------------------------- planning

Plan = tuple[Act, ...]


def _run(sheet: Sheet, steps: list[Act], reef_key: str) -> Sheet:
    for step in steps:
        sheet, _ = turn.apply(sheet, sheet, 0, step, reef_key)
    return sheet


def _resolve(sheet: Sheet, reef_key: str, left: int, plan: list[Act]) -> Sheet:
    """Choose pending pearls and enchantments, each the best by evaluation."""
    while sheet.pending:
        options = [a for a in turn.legal(sheet, reef_key) if a.kind in ("pearl", "enchant")]
        best = None
        for option in options:
            after = _run(sheet, [option], reef_key)
            score = evaluate(after, reef_key, left)
            if best is None or score > best[0]:
                best = (score, option, after)
        assert best is not None
        plan.append(best[1])
        sheet = best[2]
    return sheet


def _adjust(sheet: Sheet, index: int, delta: int) -> list[Act] | None:
    """Shell steps moving one die by ``delta`` (None if not affordable or out of range)."""
    if abs(delta) > sheet.shells:
        return None
    value = die_value(sheet.dice[index])
    if not value_ok(value + delta):
        return None
    if sheet.dice[index][2] * delta < 0:
        return None
    step = 1 if delta > 0 else -1
    return [act("shell", index, step)] * abs(delta)


@lru_cache(maxsize=SHAPES_KEPT)
def _best_shape(reef: int, value: int, lucky: int, left: int) -> Placement | None:
    """The Atoll placement of the shape for ``value`` that the quick reef score likes best."""
    best = None
    for p in ATOLL.placements.get(value, ()):
        if not p.mask & reef:
            score = _atoll_score(reef, p.mask, value, lucky, left)
            if best is None or score > best[0]:
                best = (score, p)
    return best[1] if best is not None else None


def _gains(sheet: Sheet, index: int, value: int, reef_key: str, left: int) -> list[tuple[float, list[Act]]]:
    """Every way to place die ``index`` showing ``value``, with what it adds to `evaluate`.

    The gains are worked out from the parts of `evaluate` a placement changes
    (one ruin, the reef, the lucky number, shells), so no sheet is built."""
    die = sheet.dice[index]
    lucky_bonus = LUCKY_COINS if sheet.lucky and value == sheet.lucky else 0
    out: list[tuple[float, list[Act]]] = []
    pick = act("pick", index)
    ruins = range(len(RUINS)) if die[1] != "hydra" else ([sheet.main - 1] if sheet.main > 0 else [])
    for r in ruins:
        slots = sheet.ruins[r]
        crossed = sheet.ench[r]
        now = _ruin_part(r, slots, crossed, left)
        for slot in legal_slots(RUINS[r], slots, value):
            after = (*slots[:slot], value, *slots[slot + 1 :])
            gain = _ruin_part(r, after, crossed, left) - now + lucky_bonus
            out.append((gain, [pick, act("write", r + 1, slot)]))
    reef_now = _reef_hope(reef_key, sheet.reef, left)
    if reef_key == turn.BARRIER_KEY:
        for cell in barrier_cells(sheet.reef, value):
            after = sheet.reef | 1 << cell
            pearls = sum(completed_lines(sheet.reef, after, BARRIER.row_masks, BARRIER.col_masks))
            if cell in BARRIER.highlighted:
                pearls += BARRIER.pearls_highlight
            gain = _reef_hope(reef_key, after, left) - reef_now + pearls * PEARL_WORTH + lucky_bonus
            out.append((gain, [pick, act("mark", cell)]))
    else:
        placement = _best_shape(sheet.reef, value, sheet.lucky, left)
        if placement is not None:
            gain = _atoll_score(sheet.reef, placement.mask, value, sheet.lucky, left) - reef_now
            out.append((gain, [pick, act("shape", placement.orient), act("place", placement.anchor)]))
        singles = atoll_singles(sheet.reef)
        if len(singles) >= 2:
            mask = 1 << singles[0] | 1 << singles[1]
            gain = _atoll_score(sheet.reef, mask, 0, sheet.lucky, left) - reef_now
            out.append((gain, [pick, act("singles"), act("place", singles[0]), act("place", singles[1])]))
    if not turn.is_rolled(die):  # a rolled die is never traded
        trade = SHELL_WORTH * min(1.0, left / 4) if sheet.shells < SHELL_PAIRS else 0.0
        out.append((trade, [pick, act("trade")]))
    return out


def _best_placement(sheet: Sheet, reef_key: str, left: int) -> tuple[list[Act], Sheet] | None:
    """The single best next die placement (with up to `PLACE_REACH` shells), or None when every
    die that must be used is used and no rolled die is worth writing (it may stay unwritten)."""
    unused = [i for i, d in enumerate(sheet.dice) if not d[3]]
    if not unused:
        return None
    best: tuple[float, list[Act]] | None = None
    seen: set[tuple[int, str]] = set()
    shell_cost = SHELL_WORTH * min(1.0, left / 4)
    for i in unused:
        die = sheet.dice[i]
        key = (die_value(die), die[1])
        if key in seen:
            continue
        seen.add(key)
        rolled = turn.is_rolled(die)
        reach = 0 if rolled else min(PLACE_REACH, sheet.shells)
        for delta in (0, *(d for d in PLACE_DELTAS if abs(d) <= reach)):
            shells = _adjust(sheet, i, delta) if delta else []
            if shells is None:
                continue
            for gain, steps in _gains(sheet, i, key[0] + delta, reef_key, left):
                score = gain - abs(delta) * shell_cost
                if rolled and score <= 0:
                    continue
                if best is None or score > best[0] + 1e-9:
                    best = (score, shells + steps)
    if best is None:
        assert not turn.must_use(sheet)
        return None
    return best[1], _run(sheet, best[1], reef_key)


def _finish(sheet: Sheet, reef_key: str, left: int, plan: list[Act]) -> Sheet:
    """Place every remaining die greedily, resolving pearls on the way."""
    sheet = _resolve(sheet, reef_key, left, plan)
    while True:
        found = _best_placement(sheet, reef_key, left)
        if found is None:
            return sheet
        steps, sheet = found
        plan.extend(steps)
        sheet = _resolve(sheet, reef_key, left, plan)


def _worth_searching(sheet: Sheet, r: int, rest: list[int], shells: int) -> bool:
    """A ruin is worth searching only if a remaining die (with a shell or so) can be written in it."""
    ruin = RUINS[r]
    slots = sheet.ruins[r]
    reach = min(shells, 1)
    return any(
        legal_slots(ruin, slots, v + d) for v in rest for d in range(-reach, reach + 1) if value_ok(v + d)
    )


def _openings(sheet: Sheet) -> list[list[Act]]:
    """Ways to search a ruin or cast an enchantment this round, shells included (up to two)."""
    if sheet.main != 0:
        return []
    unused = [i for i, d in enumerate(sheet.dice) if not d[3] and not turn.is_rolled(d)]
    out: list[list[Act]] = []
    seen: set[tuple] = set()
    count = len(unused)
    for bits in range(1, 1 << count):
        chosen = [unused[j] for j in range(count) if bits >> j & 1]
        values = sorted((die_value(sheet.dice[i]), sheet.dice[i][1] == "hydra") for i in chosen)
        signature = tuple(values)
        if signature in seen:
            continue
        seen.add(signature)
        total = sum(v for v, _ in values)
        mask = sum(1 << i for i in chosen)
        goals: list[tuple[str, int, int]] = [("unlock", r, r) for r in range(1, len(RUINS) + 1)]
        if len(chosen) >= 2:
            goals += [
                ("cast", s, sec.total) for s, sec in enumerate(SECTIONS) if sheet.ench[s] < len(sec.spaces)
            ]
        rest = [die_value(sheet.dice[i]) for i in unused if i not in chosen]
        for kind, target, need in goals:
            delta = need - total
            if abs(delta) > min(2, sheet.shells):
                continue
            if kind == "unlock" and not _worth_searching(sheet, target - 1, rest, sheet.shells - abs(delta)):
                continue
            shells: list[Act] = []
            if delta:
                # put the shells on one die of the set that can take them
                for i in chosen:
                    steps = _adjust(sheet, i, delta)
                    if steps is not None:
                        shells = steps
                        break
                else:
                    continue
            out.append([*shells, act(kind, target, mask)])
    return out


def best_round(sheet: Sheet, reef_key: str, left: int) -> tuple[Plan, tuple[Sheet, ...]]:
    """The best whole-round plan from ``sheet`` and the sheet before each of its steps (not memoised:
    the expert's look-ahead plans rounds it never plays, so it does not fill `plan_round`'s memo)."""
    best: tuple[float, list[Act]] | None = None
    start_plan: list[Act] = []
    start = _resolve(sheet, reef_key, left, start_plan)
    options = [[], *_openings(start)]
    for opening in options:
        plan = list(start_plan)
        current = _run(start, opening, reef_key) if opening else start
        plan.extend(opening)
        current = _finish(current, reef_key, left, plan)
        score = evaluate(current, reef_key, left)
        if best is None or score > best[0] + 1e-9:
            best = (score, plan)
    assert best is not None
    steps = (*best[1], act("confirm"))
    trail = []
    current = sheet
    for step in steps:
        trail.append(current)
        current, _ = turn.apply(current, current, 0, step, reef_key)
    return steps, tuple(trail)


@lru_cache(maxsize=PLANS_KEPT)
def plan_round(sheet: Sheet, reef_key: str, left: int) -> tuple[Plan, tuple[Sheet, ...]]:
    """`best_round`, remembered: greedy asks again at every step of the round it plays."""
    return best_round(sheet, reef_key, left)


#: Every memo of the greedy planner (`forget` clears them; tests size them).
MEMOS = (_ruin_part, _reef_hope, _best_shape, plan_round)


def forget() -> None:
    """Drop everything the planner remembers, so the next decision is worked out afresh."""
    for memo in MEMOS:
        memo.cache_clear()


#: Lucky numbers in the order greedy prefers them; it takes the first one still free
#: (seats pick in seat order, "if possible … a different lucky number").
LUCKY_CHOICES = (3, 5, 1, 4, 2, 6)


def lucky_choice(legal: list[Act]) -> Act:
    """The most preferred lucky number still free (LUCKY_CHOICES order)."""
    for number in LUCKY_CHOICES:
        choice = act("lucky", number)
        if choice in legal:
            return choice
    return legal[0]


def greedy_policy(game: Game, state, seat: int, rng: random.Random) -> Act:
    """Plan the round from its start, then play the plan one legal step at a time.

    If the seat has strayed from the plan (a player started the round, then a
    bot took over), it re-plans from where the sheet stands; a die already
    picked is kept when the new plan places it first, and put back otherwise."""
    legal = game.legal_actions(state, seat)
    if state.phase == "lucky":
        return lucky_choice(legal)
    sheet = state.sheets[seat]
    left = ROUNDS - state.round
    origins = [(state.starts or state.bases)[seat]]
    if sheet.pick >= 0:
        origins.append(sheet._replace(pick=-1, mode=0))
    else:
        origins.append(sheet)
    for origin in origins:
        steps, trail = plan_round(origin, state.reef, left)
        for k, before in enumerate(trail):
            if before == sheet and steps[k] in legal:
                return steps[k]
    if act("unpick") in legal:
        return act("unpick")
    forward = [a for a in legal if a.kind not in UNDO_KINDS]
    return forward[0] if forward else legal[0]


def expert_policy(game: Game, state, seat: int, rng: random.Random) -> Act:
    """Greedy's planner with a look-ahead over sampled dice (`engine.reef.expert`)."""
    from engine.reef.expert import expert_policy as expert

    return expert(game, state, seat, rng)


def explain(game: Game, state, seat: int, action: Act) -> dict | None:
    """One line of why ``action`` suits ``seat`` now (a hint's reason; `engine.reef.hints`), or None."""
    from engine.reef.hints import explain as why

    return why(game, state, seat, action)


POLICIES = {"random": random_policy, "greedy": greedy_policy, "expert": expert_policy}

__all__ = [
    "MEMOS",
    "POLICIES",
    "best_round",
    "evaluate",
    "expert_policy",
    "explain",
    "forget",
    "greedy_policy",
    "plan_round",
    "random_policy",
]
