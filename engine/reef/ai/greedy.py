"""The ``greedy`` Reef & Ruins policy: plan the whole round from its start, then play the plan.

For every way to search a ruin or cast an enchantment (shells allowed to reach
the number) and for doing neither (`openings`), it places the remaining dice one
at a time where `engine.reef.ai.values.evaluate` gains most (`finish`), and keeps
the best plan (`best_round`). The plan is a pure function of the round-start
sheet (memoised: `plan_round`), so the policy is deterministic; it then plays
the plan's next step, re-planning from the current sheet if the seat has strayed
from it. Every step it returns is taken from ``legal_actions``. The expert
(`engine.reef.ai.expert`) builds on `resolve`, `run`, `finish`, `openings` and
`best_round`; the beginner (`engine.reef.ai.beginner`) plans with the same `best_round`,
given its own `Habits`, its slipping choice and its rng. `follow` plays any planner's
plan, for greedy, the beginner and the expert alike.

Memos: the round plans are an LRU cache of `PLANS_KEPT` entries, beside the
valuations' own (`MEMOS` lists them all; `forget` clears them).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from engine.base import Game
from engine.reef import rules
from engine.reef.actions import UNDO_KINDS, Act, act
from engine.reef.ai.values import (
    PLACE_DELTAS,
    PLACE_REACH,
    SHELL_WORTH,
    barrier_gains,
    best_shape,
    evaluate,
    gains,
    lucky_choice,
    reef_hope,
    ruin_gains,
    ruin_part,
    ruins_worth,
    worth_searching,
)
from engine.reef.components import LUCKY_COINS, ROUNDS, RUINS, SECTIONS, SHELL_PAIRS
from engine.reef.sheet import die_value, value_ok
from engine.reef.state import BARRIER_KEY, Sheet

#: Round plans remembered (~2 KB each, its trail of sheets), re-used by the round's later steps.
PLANS_KEPT = 256

Plan = tuple[Act, ...]

_TRADE = act("trade")


def run(sheet: Sheet, steps: list[Act], reef_key: str) -> Sheet:
    for step in steps:
        sheet, _ = rules.apply(sheet, sheet, 0, step, reef_key)
    return sheet


#: Scored options (worth, steps) -> the steps chosen; ``tolerance`` is how much better a later
#: option must be to displace an earlier one (greedy keeps the first of near-equals).
Choose = Callable[[list[tuple[float, list[Act]]], float], list[Act]]


def first_best(scored: list[tuple[float, list[Act]]], tolerance: float) -> list[Act]:
    """Greedy's choice: the best option, the earliest of those within ``tolerance`` of each other."""
    best = scored[0]
    for option in scored[1:]:
        if option[0] > best[0] + tolerance:
            best = option
    return best[1]


class Habits(NamedTuple):
    """How a planner places its dice: greedy's by default; the beginner's
    (`engine.reef.ai.beginner`) slip now and then, spend fewer shells and sometimes
    forget to search a ruin or cast an enchantment."""

    #: Shell pairs spent on one die at most.
    reach: int = PLACE_REACH
    #: The chance, per round, that it considers searching or casting at all (1: always; below
    #: 1 a draw of the planner's rng decides).
    searches: float = 1.0


GREEDY = Habits()


def resolve(sheet: Sheet, reef_key: str, left: int, plan: list[Act], choose: Choose = first_best) -> Sheet:
    """Choose pending pearls and enchantments, each the best by evaluation (or as ``choose`` picks)."""
    while sheet.pending:
        options = [a for a in rules.legal(sheet, reef_key) if a.kind in ("pearl", "enchant")]
        scored = [(evaluate(run(sheet, [o], reef_key), reef_key, left), [o]) for o in options]
        step = choose(scored, 0.0)
        plan.extend(step)
        sheet = run(sheet, step, reef_key)
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


def placements(
    sheet: Sheet, reef_key: str, left: int, reach: int = PLACE_REACH
) -> list[tuple[float, list[Act]]]:
    """Every next die placement (with up to ``reach`` shell pairs) and what it gains; a rolled
    die (it may stay unwritten) only where it gains something."""
    unused = [i for i, d in enumerate(sheet.dice) if not d[3]]
    scored: list[tuple[float, list[Act]]] = []
    seen: set[tuple[int, str]] = set()
    shell_cost = SHELL_WORTH * min(1.0, left / 4)
    for i in unused:
        die = sheet.dice[i]
        key = (die_value(die), die[1])
        if key in seen:
            continue
        seen.add(key)
        rolled = rules.is_rolled(die)
        most = 0 if rolled else min(reach, sheet.shells)
        for delta in (0, *(d for d in PLACE_DELTAS if abs(d) <= most)):
            shells = adjust(sheet, i, delta) if delta else []
            if shells is None:
                continue
            for gain, steps in gains(sheet, i, key[0] + delta, reef_key, left):
                score = gain - abs(delta) * shell_cost
                if rolled and score <= 0:
                    continue
                scored.append((score, shells + steps))
    return scored


def best_placement(
    sheet: Sheet, reef_key: str, left: int, choose: Choose = first_best, reach: int = PLACE_REACH
) -> tuple[list[Act], Sheet] | None:
    """The single best next die placement (with up to `PLACE_REACH` shells), or None when every
    die that must be used is used and no rolled die is worth writing (it may stay unwritten)."""
    if choose is first_best and reef_key == BARRIER_KEY:
        steps = _first_best_placement(sheet, left, reach)
    else:
        scored = placements(sheet, reef_key, left, reach)
        steps = choose(scored, 1e-9) if scored else None
    if steps is None:
        assert not rules.must_use(sheet)
        return None
    return steps, run(sheet, steps, reef_key)


def _first_best_placement(sheet: Sheet, left: int, reach: int) -> list[Act] | None:
    """`first_best` of `placements` on the Bewitching Barrier, without building every option's
    steps: the same options in the same order with the same scores, only the best kept."""
    dice = sheet.dice
    shells = sheet.shells
    lucky = sheet.lucky
    reef = sheet.reef
    all_ruins = sheet.ruins
    ench = sheet.ench
    main = sheet.main
    shell_cost = SHELL_WORTH * min(1.0, left / 4)
    trade_worth = SHELL_WORTH * min(1.0, left / 4) if shells < SHELL_PAIRS else 0.0
    best_score = 0.0
    best: tuple[int, int, Act] | None = None  # (die, delta, placing step)
    seen: set[tuple[int, str]] = set()
    for i, die in enumerate(dice):
        if die[3]:
            continue
        kind = die[1]
        value = die[0] + die[2]
        key = (value, kind)
        if key in seen:
            continue
        seen.add(key)
        rolled = kind == "roll"
        most = 0 if rolled else min(reach, shells)
        if kind != "hydra":
            ruins: range | tuple[int, ...] = range(len(RUINS))
        else:
            ruins = (main - 1,) if main > 0 else ()
        for delta in (0, *(d for d in PLACE_DELTAS if abs(d) <= most)):
            if delta and (abs(delta) > shells or not value_ok(value + delta) or die[2] * delta < 0):
                continue  # `adjust` finds no shells for it
            shown = value + delta
            cost = abs(delta) * shell_cost
            bonus = LUCKY_COINS if lucky and shown == lucky else 0
            for r in ruins:
                for gain, step in ruin_gains(r, all_ruins[r], ench[r], left, shown):
                    score = gain + bonus - cost
                    if rolled and score <= 0:
                        continue
                    if best is None or score > best_score + 1e-9:
                        best_score, best = score, (i, delta, step)
            for gain, step in barrier_gains(reef, shown, left):
                score = gain + bonus - cost
                if rolled and score <= 0:
                    continue
                if best is None or score > best_score + 1e-9:
                    best_score, best = score, (i, delta, step)
            if not rolled:
                score = trade_worth - cost
                if best is None or score > best_score + 1e-9:
                    best_score, best = score, (i, delta, _TRADE)
    if best is None:
        return None
    i, delta, step = best
    shell_steps = adjust(sheet, i, delta) if delta else []
    assert shell_steps is not None
    return [*shell_steps, act("pick", i), step]


def finish(
    sheet: Sheet,
    reef_key: str,
    left: int,
    plan: list[Act],
    choose: Choose = first_best,
    reach: int = PLACE_REACH,
) -> Sheet:
    """Place every remaining die one at a time, resolving pearls on the way."""
    sheet = resolve(sheet, reef_key, left, plan, choose)
    while True:
        found = best_placement(sheet, reef_key, left, choose, reach)
        if found is None:
            return sheet
        steps, sheet = found
        plan.extend(steps)
        sheet = resolve(sheet, reef_key, left, plan, choose)


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


def trail_of(sheet: Sheet, steps: Plan, reef_key: str) -> tuple[Sheet, ...]:
    """The sheet before each of ``steps``."""
    trail = []
    current = sheet
    for step in steps:
        trail.append(current)
        current, _ = rules.apply(current, current, 0, step, reef_key)
    return tuple(trail)


def best_round(
    sheet: Sheet,
    reef_key: str,
    left: int,
    habits: Habits = GREEDY,
    rng: random.Random | None = None,
    choose: Choose = first_best,
) -> tuple[Plan, tuple[Sheet, ...]]:
    """The best whole-round plan from ``sheet`` and the sheet before each of its steps (not memoised:
    the expert's look-ahead plans rounds it never plays, so it does not fill `plan_round`'s memo).

    The one round planner of greedy and the beginner: ``choose`` picks among scored options
    (greedy: `first_best`), ``habits`` says how far shells reach and how often openings are
    thought of, ``rng`` draws that chance (only when ``habits.searches`` is below 1)."""
    best: tuple[float, list[Act]] | None = None
    start_plan: list[Act] = []
    start = resolve(sheet, reef_key, left, start_plan, choose)
    options: list[list[Act]] = [[]]
    if habits.searches >= 1 or (rng is not None and rng.random() < habits.searches):
        options += openings(start)
    for opening in options:
        plan = list(start_plan)
        current = run(start, opening, reef_key) if opening else start
        plan.extend(opening)
        current = finish(current, reef_key, left, plan, choose, habits.reach)
        score = evaluate(current, reef_key, left)
        if best is None or score > best[0] + 1e-9:
            best = (score, plan)
    assert best is not None
    steps = (*best[1], act("confirm"))
    return steps, trail_of(sheet, steps, reef_key)


@lru_cache(maxsize=PLANS_KEPT)
def plan_round(sheet: Sheet, reef_key: str, left: int) -> tuple[Plan, tuple[Sheet, ...]]:
    """`best_round`, remembered: greedy asks again at every step of the round it plays."""
    return best_round(sheet, reef_key, left)


#: Every memo of the greedy planner (`forget` clears them; tests size them).
MEMOS = (ruin_part, ruins_worth, reef_hope, best_shape, ruin_gains, barrier_gains, plan_round)


def forget() -> None:
    """Drop everything the planner remembers, so the next decision is worked out afresh."""
    for memo in MEMOS:
        memo.cache_clear()


Planner = Callable[[Sheet, int], tuple[Plan, tuple[Sheet, ...]]]


def follow(game: Game, state, seat: int, planner: Planner) -> Act:
    """Play ``planner``'s plan (``planner(origin, left)``) one legal step at a time.

    The plan is made from the round's start; if the seat has strayed from it (a
    player started the round, then a bot took over), from where the sheet stands.
    A die already picked is kept when the new plan places it first, and put back
    otherwise. The lucky number is `lucky_choice`'s."""
    legal = game.legal_actions(state, seat)
    if state.phase == "lucky":
        return lucky_choice(legal)
    sheet = state.sheets[seat]
    left = ROUNDS - state.round
    origins = [(state.starts or state.bases)[seat]]
    origins.append(sheet._replace(pick=-1, mode=0) if sheet.pick >= 0 else sheet)
    for origin in origins:
        steps, trail = planner(origin, left)
        for k, before in enumerate(trail):
            if before == sheet and steps[k] in legal:
                return steps[k]
    if act("unpick") in legal:
        return act("unpick")
    forward = [a for a in legal if a.kind not in UNDO_KINDS]
    return forward[0] if forward else legal[0]


def greedy_policy(game: Game, state, seat: int, rng: random.Random) -> Act:
    """Plan the round from its start (`plan_round`), then play the plan one legal step at a time."""
    return follow(game, state, seat, lambda origin, left: plan_round(origin, state.reef, left))


__all__ = [
    "GREEDY",
    "MEMOS",
    "PLANS_KEPT",
    "Choose",
    "Habits",
    "Plan",
    "Planner",
    "adjust",
    "best_placement",
    "best_round",
    "finish",
    "first_best",
    "follow",
    "forget",
    "greedy_policy",
    "openings",
    "placements",
    "plan_round",
    "resolve",
    "run",
    "trail_of",
]
