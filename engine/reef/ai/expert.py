"""The ``expert`` Reef & Ruins policy: greedy's round planner with a look-ahead over sampled dice.

Each round it builds candidate plans for the dice it has (every way to search a
ruin or cast an enchantment, and neither, each finished greedily), keeps the
best few by `engine.reef.ai.values.evaluate`, and scores each by what the *next*
round should bring: for a fixed set of sampled hydra rolls (and the next
round's tracker boon, which is printed and public) it plans that round
greedily and evaluates the sheet it ends with. The round's plan is the
candidate with the best average. A tracker boon's choice, made "before the
Hydra dice are rolled", is scored the same way over sampled rolls of this
round's dice.

It never reads the dice to come: the samples come from a generator seeded by
the round number and the sheet (never by the table's seed), so the decision
is a pure function of what the seat can see, deterministic whatever ``rng``
is, and unchanged when the future dice are. Every step it returns is one of
``legal_actions``.
"""

from __future__ import annotations

import random
import zlib
from functools import lru_cache

from engine.base import Game
from engine.reef import rules
from engine.reef.actions import UNDO_KINDS, Act, act
from engine.reef.ai import greedy
from engine.reef.ai.greedy import Plan, best_round, finish, openings, resolve, run
from engine.reef.ai.values import evaluate, lucky_choice
from engine.reef.components import ROUNDS, TRACKER
from engine.reef.state import Sheet, work_done

#: Candidate plans kept for the look-ahead, and sampled rolls per candidate.
CANDIDATES = 6
SAMPLES = 10
#: Sampled rolls when a boon's choice is made before this round's dice are rolled.
BOON_SAMPLES = 8
#: Decisions remembered (each ~2 KB, re-used by the later steps of its round; issue #21).
DECISIONS_KEPT = 256


def _settled(sheet: Sheet) -> Sheet:
    """A sheet with the round's work cleared, as it starts the next round."""
    return work_done(sheet)


def _samples(key: object, count: int) -> list[tuple[tuple[int, int, int], int]]:
    """``count`` sampled hydra rolls (and a "roll a die" value each), from a seed of ``key`` only."""
    rng = random.Random(zlib.crc32(repr(key).encode()))
    return [
        ((rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)), rng.randint(1, 6)) for _ in range(count)
    ]


def _with_boon(sheet: Sheet, side: str, number: int, roll: int) -> Sheet:
    """Gameplay: "everyone gains that Boon before the Hydra dice are rolled" (round ``number``)."""
    boon = TRACKER[side].get(number)
    if boon is None:
        return sheet
    if boon.kind == "shells":
        return rules.gain_shells(sheet)
    if boon.kind == "roll":
        return rules.add_die(sheet, roll, "roll")
    if boon.kind == "die":
        return rules.add_die(sheet, boon.value)
    return rules.settle(sheet._replace(pending=("enchant",)), 0, [])


def _with_dice(sheet: Sheet, dice: tuple[int, int, int]) -> Sheet:
    """The hydra dice join the pool in front of the boon dice, as the engine deals them."""
    return sheet._replace(dice=(*((v, "hydra", 0, False) for v in dice), *sheet.dice))


def _round_value(sheet: Sheet, reef_key: str, left: int, dice: tuple[int, int, int]) -> float:
    """What a sheet is worth after greedily playing one round with these dice."""
    _, trail = best_round(_with_dice(sheet, dice), reef_key, left)
    return evaluate(trail[-1], reef_key, left)


def _future(sheet: Sheet, reef_key: str, side: str, number: int, samples: list) -> float:
    """The mean worth of ``sheet`` (settled after round ``number``) after a greedy round ``number + 1``."""
    left = ROUNDS - number
    if left <= 0:
        return evaluate(sheet, reef_key, 0)
    settled = _settled(sheet)
    total = 0.0
    for dice, roll in samples:
        start = _with_boon(settled, side, number + 1, roll)
        total += _round_value(start, reef_key, left - 1, dice)
    return total / len(samples)


def _candidates(sheet: Sheet, reef_key: str, left: int) -> list[tuple[float, list[Act], Sheet]]:
    """Every opening (search, cast, neither) finished greedily: (evaluation, steps, end sheet)."""
    start_plan: list[Act] = []
    start = resolve(sheet, reef_key, left, start_plan)
    found: dict[Sheet, tuple[float, list[Act], Sheet]] = {}
    for opening in [[], *openings(start)]:
        plan = [*start_plan, *opening]
        current = run(start, opening, reef_key) if opening else start
        current = finish(current, reef_key, left, plan)
        score = evaluate(current, reef_key, left)
        key = _settled(current)
        if key not in found or score > found[key][0]:
            found[key] = (score, plan, current)
    return sorted(found.values(), key=lambda item: -item[0])


def _trail(sheet: Sheet, steps: Plan, reef_key: str) -> tuple[Sheet, ...]:
    trail = []
    current = sheet
    for step in steps:
        trail.append(current)
        current, _ = rules.apply(current, current, 0, step, reef_key)
    return tuple(trail)


@lru_cache(maxsize=DECISIONS_KEPT)
def plan_dice(sheet: Sheet, reef_key: str, side: str, number: int) -> tuple[Plan, tuple[Sheet, ...]]:
    """The expert's plan for round ``number`` once its dice are rolled, with the sheet before each step."""
    left = ROUNDS - number
    options = _candidates(sheet, reef_key, left)
    if left > 0 and len(options) > 1:
        samples = _samples((number, _settled(sheet)), SAMPLES)
        scored = [
            (_future(end, reef_key, side, number, samples), plan) for _, plan, end in options[:CANDIDATES]
        ]
        best = max(scored, key=lambda item: item[0])[1]
    else:
        best = options[0][1]
    steps = (*best, act("confirm"))
    return steps, _trail(sheet, steps, reef_key)


@lru_cache(maxsize=DECISIONS_KEPT)
def plan_boon(sheet: Sheet, reef_key: str, side: str, number: int) -> tuple[Plan, tuple[Sheet, ...]]:
    """The boon step: each way to make the boon's choices, scored over sampled rolls of this round."""
    left = ROUNDS - number
    samples = _samples((number, "boon", sheet), BOON_SAMPLES)
    best: tuple[float, list[Act]] | None = None
    options = [a for a in rules.legal(sheet, reef_key) if a.kind in ("pearl", "enchant")]
    for option in options:
        after = run(sheet, [option], reef_key)
        plan = [option]
        after = resolve(after, reef_key, left, plan)
        value = sum(_round_value(after, reef_key, left, dice) for dice, _ in samples) / len(samples)
        if best is None or value > best[0] + 1e-9:
            best = (value, plan)
    steps: Plan = tuple(best[1]) if best is not None else ()
    return steps, _trail(sheet, steps, reef_key)


def forget() -> None:
    """Drop every decision (and greedy memo) remembered, so the next is worked out afresh."""
    plan_dice.cache_clear()
    plan_boon.cache_clear()
    greedy.forget()


def expert_policy(game: Game, state, seat: int, rng: random.Random) -> Act:
    """Plan the round (or the boon's choice) with the look-ahead, then play the plan step by step.

    If the seat has strayed from the plan (a player started the round, then a
    bot took over), it re-plans from where the sheet stands; a die already
    picked is put back first when the new plan does not place it next."""
    legal = game.legal_actions(state, seat)
    if state.phase == "lucky":
        return lucky_choice(legal)
    sheet = state.sheets[seat]
    number = state.round
    planner = plan_boon if not state.dice else plan_dice
    origins = [(state.starts or state.bases)[seat]]
    origins.append(sheet._replace(pick=-1, mode=0) if sheet.pick >= 0 else sheet)
    for origin in origins:
        steps, trail = planner(origin, state.reef, state.side, number)
        for k, before in enumerate(trail):
            if before == sheet and steps[k] in legal:
                return steps[k]
    if act("unpick") in legal:
        return act("unpick")
    forward = [a for a in legal if a.kind not in UNDO_KINDS]
    return forward[0] if forward else legal[0]


__all__ = ["expert_policy", "forget", "plan_boon", "plan_dice"]
