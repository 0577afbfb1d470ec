"""The ``beginner`` Reef & Ruins policy: a player who knows the rules but not yet the game.

It plans its round like greedy (`engine.reef.ai.greedy`) with a beginner's habits:
it places the dice one at a time where they pay now, but now and then writes a die
in its second-best place (`SLIP`), it often forgets to search a ruin or cast an
enchantment (`SEARCHES` is the chance it considers them in a round), and it counts
only what a sheet holds now and what the next `HORIZON` rounds may bring, not the
rest of the game. Its slips come from a digest of the round-start sheet and the
seat (`noise_key`), so a plan is the same at every step of its round and the policy
is deterministic for any rng; it never reads future dice.
"""

from __future__ import annotations

import hashlib
import random
from functools import lru_cache

from engine.base import Game
from engine.reef import rules
from engine.reef.actions import UNDO_KINDS, Act, act
from engine.reef.ai.greedy import Plan, adjust, openings, run
from engine.reef.ai.values import PLACE_DELTAS, PLACE_REACH, SHELL_WORTH, evaluate, gains, lucky_choice
from engine.reef.components import ROUNDS
from engine.reef.sheet import die_value
from engine.reef.state import Sheet

#: The chance a die goes to its second-best place instead of its best.
SLIP = 0.2
#: The chance, per round, that it thinks of searching a ruin or casting an enchantment at all.
SEARCHES = 0.7
#: Rounds ahead it counts hopes over (greedy counts the rest of the game).
HORIZON = 3
#: Shell pairs it spends on one die at most (greedy up to `PLACE_REACH`).
REACH = 1
#: Round plans remembered (like greedy's `PLANS_KEPT`).
PLANS_KEPT = 256


def noise_key(sheet: Sheet, seat: int, left: int) -> str:
    """The seed of a round's slips: the round-start sheet, the seat and the rounds left."""
    return hashlib.sha256(f"{seat}:{left}:{sheet!r}".encode()).hexdigest()


def _pick(scored: list[tuple[float, list[Act]]], rng: random.Random) -> list[Act]:
    """The best option, or now and then the second best."""
    scored.sort(key=lambda pair: -pair[0])
    if len(scored) > 1 and rng.random() < SLIP:
        return scored[1][1]
    return scored[0][1]


def _resolve(sheet: Sheet, reef_key: str, left: int, plan: list[Act], rng: random.Random) -> Sheet:
    """Choose pending pearls and enchantments, by evaluation with slips."""
    while sheet.pending:
        options = [a for a in rules.legal(sheet, reef_key) if a.kind in ("pearl", "enchant")]
        scored = [(evaluate(run(sheet, [o], reef_key), reef_key, left), [o]) for o in options]
        step = _pick(scored, rng)
        plan.extend(step)
        sheet = run(sheet, step, reef_key)
    return sheet


def _placement(sheet: Sheet, reef_key: str, left: int, rng: random.Random) -> list[Act] | None:
    """One die's placement: the best by what it adds now, or now and then the second best."""
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
        reach = 0 if rolled else min(REACH, PLACE_REACH, sheet.shells)
        for delta in (0, *(d for d in PLACE_DELTAS if abs(d) <= reach)):
            shells = adjust(sheet, i, delta) if delta else []
            if shells is None:
                continue
            for gain, steps in gains(sheet, i, key[0] + delta, reef_key, left):
                score = gain - abs(delta) * shell_cost
                if rolled and score <= 0:
                    continue
                scored.append((score, shells + steps))
    if not scored:
        return None
    return _pick(scored, rng)


def _finish(sheet: Sheet, reef_key: str, left: int, plan: list[Act], rng: random.Random) -> Sheet:
    """Place every remaining die one at a time, resolving pearls on the way."""
    sheet = _resolve(sheet, reef_key, left, plan, rng)
    while True:
        steps = _placement(sheet, reef_key, left, rng)
        if steps is None:
            return sheet
        plan.extend(steps)
        sheet = _resolve(run(sheet, steps, reef_key), reef_key, left, plan, rng)


@lru_cache(maxsize=PLANS_KEPT)
def beginner_round(sheet: Sheet, reef_key: str, left: int, key: str) -> tuple[Plan, tuple[Sheet, ...]]:
    """A beginner's whole-round plan from ``sheet`` (slips seeded by ``key``), with the sheet
    before each of its steps."""
    rng = random.Random(key)
    horizon = min(left, HORIZON)
    start_plan: list[Act] = []
    start = _resolve(sheet, reef_key, horizon, start_plan, rng)
    options: list[list[Act]] = [[]]
    if rng.random() < SEARCHES:
        options += openings(start)
    best: tuple[float, list[Act]] | None = None
    for opening in options:
        plan = list(start_plan)
        current = run(start, opening, reef_key) if opening else start
        plan.extend(opening)
        current = _finish(current, reef_key, horizon, plan, rng)
        score = evaluate(current, reef_key, horizon)
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


def beginner_policy(game: Game, state, seat: int, rng: random.Random) -> Act:
    """Plan the round from its start as a beginner would, then play the plan one legal step at a time."""
    legal = game.legal_actions(state, seat)
    if state.phase == "lucky":
        return lucky_choice(legal)
    sheet = state.sheets[seat]
    left = ROUNDS - state.round
    origins = [(state.starts or state.bases)[seat]]
    origins.append(sheet._replace(pick=-1, mode=0) if sheet.pick >= 0 else sheet)
    for origin in origins:
        steps, trail = beginner_round(origin, state.reef, left, noise_key(origin, seat, left))
        for k, before in enumerate(trail):
            if before == sheet and steps[k] in legal:
                return steps[k]
    if act("unpick") in legal:
        return act("unpick")
    forward = [a for a in legal if a.kind not in UNDO_KINDS]
    return forward[0] if forward else legal[0]


__all__ = ["HORIZON", "REACH", "SEARCHES", "SLIP", "beginner_policy", "beginner_round", "noise_key"]
