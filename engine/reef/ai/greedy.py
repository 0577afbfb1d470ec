"""The ``greedy`` Reef & Ruins policy: plan the whole round from its start, then play the plan.

For every way to search a ruin or cast an enchantment (shells allowed to reach
the number) and for doing neither (`openings`), it places the remaining dice one
at a time where `engine.reef.ai.values.evaluate` gains most (`finish`), and keeps
the best plan (`best_round`). The plan is a pure function of the round-start
sheet (memoised: `plan_round`), so the policy is deterministic; it then plays
the plan's next step, re-planning from the current sheet if the seat has strayed
from it. Every step it returns is taken from ``legal_actions``. The expert
(`engine.reef.ai.expert`) builds on `resolve`, `run`, `finish`, `openings` and
`best_round`.

Memos: the round plans are an LRU cache of `PLANS_KEPT` entries, beside the
valuations' own (`MEMOS` lists them all; `forget` clears them).
"""

from __future__ import annotations

import random
from functools import lru_cache

from engine.base import Game
from engine.reef import rules
from engine.reef.actions import UNDO_KINDS, Act, act
from engine.reef.ai.values import (
    PLACE_DELTAS,
    PLACE_REACH,
    SHELL_WORTH,
    best_shape,
    evaluate,
    gains,
    lucky_choice,
    reef_hope,
    ruin_part,
    worth_searching,
)
from engine.reef.components import ROUNDS, RUINS, SECTIONS
from engine.reef.sheet import die_value, value_ok
from engine.reef.state import Sheet

#: Round plans remembered (~2 KB each, its trail of sheets), re-used by the round's later steps.
PLANS_KEPT = 256

Plan = tuple[Act, ...]


def run(sheet: Sheet, steps: list[Act], reef_key: str) -> Sheet:
    for step in steps:
        sheet, _ = rules.apply(sheet, sheet, 0, step, reef_key)
    return sheet


def resolve(sheet: Sheet, reef_key: str, left: int, plan: list[Act]) -> Sheet:
    """Choose pending pearls and enchantments, each the best by evaluation."""
    while sheet.pending:
        options = [a for a in rules.legal(sheet, reef_key) if a.kind in ("pearl", "enchant")]
        best = None
        for option in options:
            after = run(sheet, [option], reef_key)
            score = evaluate(after, reef_key, left)
            if best is None or score > best[0]:
                best = (score, option, after)
        assert best is not None
        plan.append(best[1])
        sheet = best[2]
    return sheet


def adjust(sheet: Sheet, index: int, delta: int) -> list[Act] | None:
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


def best_placement(sheet: Sheet, reef_key: str, left: int) -> tuple[list[Act], Sheet] | None:
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
        rolled = rules.is_rolled(die)
        reach = 0 if rolled else min(PLACE_REACH, sheet.shells)
        for delta in (0, *(d for d in PLACE_DELTAS if abs(d) <= reach)):
            shells = adjust(sheet, i, delta) if delta else []
            if shells is None:
                continue
            for gain, steps in gains(sheet, i, key[0] + delta, reef_key, left):
                score = gain - abs(delta) * shell_cost
                if rolled and score <= 0:
                    continue
                if best is None or score > best[0] + 1e-9:
                    best = (score, shells + steps)
    if best is None:
        assert not rules.must_use(sheet)
        return None
    return best[1], run(sheet, best[1], reef_key)


def finish(sheet: Sheet, reef_key: str, left: int, plan: list[Act]) -> Sheet:
    """Place every remaining die greedily, resolving pearls on the way."""
    sheet = resolve(sheet, reef_key, left, plan)
    while True:
        found = best_placement(sheet, reef_key, left)
        if found is None:
            return sheet
        steps, sheet = found
        plan.extend(steps)
        sheet = resolve(sheet, reef_key, left, plan)


def openings(sheet: Sheet) -> list[list[Act]]:
    """Ways to search a ruin or cast an enchantment this round, shells included (up to two)."""
    if sheet.main != 0:
        return []
    unused = [i for i, d in enumerate(sheet.dice) if not d[3] and not rules.is_rolled(d)]
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
            if kind == "unlock" and not worth_searching(sheet, target - 1, rest, sheet.shells - abs(delta)):
                continue
            shells: list[Act] = []
            if delta:
                # put the shells on one die of the set that can take them
                for i in chosen:
                    steps = adjust(sheet, i, delta)
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
    start = resolve(sheet, reef_key, left, start_plan)
    options = [[], *openings(start)]
    for opening in options:
        plan = list(start_plan)
        current = run(start, opening, reef_key) if opening else start
        plan.extend(opening)
        current = finish(current, reef_key, left, plan)
        score = evaluate(current, reef_key, left)
        if best is None or score > best[0] + 1e-9:
            best = (score, plan)
    assert best is not None
    steps = (*best[1], act("confirm"))
    trail = []
    current = sheet
    for step in steps:
        trail.append(current)
        current, _ = rules.apply(current, current, 0, step, reef_key)
    return steps, tuple(trail)


@lru_cache(maxsize=PLANS_KEPT)
def plan_round(sheet: Sheet, reef_key: str, left: int) -> tuple[Plan, tuple[Sheet, ...]]:
    """`best_round`, remembered: greedy asks again at every step of the round it plays."""
    return best_round(sheet, reef_key, left)


#: Every memo of the greedy planner (`forget` clears them; tests size them).
MEMOS = (ruin_part, reef_hope, best_shape, plan_round)


def forget() -> None:
    """Drop everything the planner remembers, so the next decision is worked out afresh."""
    for memo in MEMOS:
        memo.cache_clear()


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


__all__ = [
    "MEMOS",
    "PLANS_KEPT",
    "Plan",
    "adjust",
    "best_placement",
    "best_round",
    "finish",
    "forget",
    "greedy_policy",
    "openings",
    "plan_round",
    "resolve",
    "run",
]
