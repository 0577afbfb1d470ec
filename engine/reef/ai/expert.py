"""The ``expert`` Reef & Ruins policy: greedy's round planner with a four-round look-ahead over sampled dice.

Each round it builds candidate plans for the dice it has (every way to search a
ruin or cast an enchantment, and neither, each finished greedily, and each of
those again with its first die written in one of its next-best places instead),
keeps the best few by `engine.reef.ai.values.evaluate`, and scores each by what
the *next four* rounds should bring: for a fixed set of sampled futures (hydra rolls
of each round, with its tracker boon, which is printed and public, each future a
path of its own: `Search.paths`, `Search.ahead`) it plans each round greedily and
evaluates the sheet it ends with. The round's plan is the candidate with the best
average (the same futures serve every candidate). Near the end, where the game cuts
the paths short, it samples more of them (`Search.late`); in the last round, where
the evaluation is the score, it tries more first placements (`Search.last_firsts`).
How much it samples is a `Search`; the ``master`` (`engine.reef.ai.master`) searches
more. A tracker boon's choice, made "before the Hydra dice are rolled", is scored
over sampled rolls of this round and the next. The lucky number is the first free one
of its book (`engine.reef.ai.values.LUCKY_BOOK`: sampled greedy games on each reef and tracker side, worked
out once), or `lucky_search`'s when a `Search` asks for it.

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
from typing import NamedTuple

from engine.base import Game
from engine.reef import rules
from engine.reef.actions import Act, act
from engine.reef.ai import greedy
from engine.reef.ai.greedy import (
    Plan,
    best_round,
    finish,
    follow,
    openings,
    placements,
    resolve,
    run,
    trail_of,
)
from engine.reef.ai.values import LUCKY_BOOK, LUCKY_CHOICES, evaluate, lucky_choice
from engine.reef.components import ROUNDS, TRACKER
from engine.reef.scoring import breakdown
from engine.reef.state import Sheet, empty_sheet, work_done


class Search(NamedTuple):
    """How much the look-ahead searches (the expert's `EXPERT`, the master's sized by its time)."""

    #: Candidate plans kept for the look-ahead.
    candidates: int
    #: Sampled rolls of the next round, per candidate (the same for every candidate).
    samples: int
    #: Sampled rolls of the round after, per sample of the next round (0: look one round ahead).
    deeper: int
    #: Sampled rolls when a boon's choice is made before this round's dice are rolled.
    boon: int
    #: Other first placements tried per opening, beside greedy's own (0: greedy's only).
    firsts: int = 0
    #: Sampled greedy games per lucky number it is chosen by (`lucky_search`; 0: greedy's order).
    lucky: int = 0
    #: Whether each sampled next round has rolls of the round after of its own (``deeper`` each),
    #: rather than one set of ``deeper`` rolls shared by all: more futures for the same work.
    paths: bool = False
    #: Sampled rolls of the next round per sampled roll of this one at the boon step (0: the boon's
    #: choice is scored over this round alone).
    boon_deeper: int = 0
    #: Rounds looked ahead beyond this one when each future is a path of its own (``paths``).
    ahead: int = 2
    #: Whether the futures cut short by the game's end are sampled more, so that a decision
    #: near the end plays about as many rounds as one in mid-game (the same work, less noise).
    late: bool = False
    #: Other first placements tried per opening in the last round (0: ``firsts``), where the
    #: end sheet's evaluation is its score and no future is sampled.
    last_firsts: int = 0
    #: Whether the lucky number comes from `LUCKY_BOOK` (before ``lucky``'s sampled games).
    lucky_book: bool = False


#: The expert: four rounds ahead over 16 sampled futures (each a path of rounds of its own, more
#: of them where the game's end cuts them short), 10 candidate plans, the boon's choice scored
#: two rounds ahead, the lucky number from its book. Session 18, tuning seeds 100-129 (paired,
#: all with the book): two rounds ahead 182.1, three 183.7, four 190.3 (+8.2 +- 9.8 on two);
#: p95 660 ms of CPU a decision on the loaded machine.
# lucky=0: no sampled games at the lucky step. Six sampled games a number proved too few to tell
# the numbers apart and cost seconds, also for the hint; `LUCKY_BOOK` holds 150 a number.
EXPERT = Search(
    candidates=10,
    samples=16,
    deeper=1,
    boon=16,
    firsts=3,
    lucky=0,
    paths=True,
    boon_deeper=1,
    ahead=4,
    late=True,
    last_firsts=12,
    lucky_book=True,
)
#: Lucky-number searches remembered (one per reef, tracker side and game count).
LUCKY_KEPT = 16
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


def _future(sheet: Sheet, reef_key: str, side: str, number: int, samples: list, deeper: list[list]) -> float:
    """The mean worth of ``sheet`` (settled after round ``number``) after greedy rounds
    ``number + 1`` (one per sample) and, when ``deeper`` holds samples (a list per sample),
    ``number + 2`` too."""
    left = ROUNDS - number
    if left <= 0:
        return evaluate(sheet, reef_key, 0)
    settled = _settled(sheet)
    total = 0.0
    for k, (dice, roll) in enumerate(samples):
        start = _with_boon(settled, side, number + 1, roll)
        _, trail = best_round(_with_dice(start, dice), reef_key, left - 1)
        if deeper and left > 1:
            total += _future(trail[-1], reef_key, side, number + 1, deeper[k], [])
        else:
            total += evaluate(trail[-1], reef_key, left - 1)
    return total / len(samples)


def _path_value(sheet: Sheet, reef_key: str, side: str, number: int, path: list) -> float:
    """The worth of ``sheet`` (after round ``number``) once the rounds of ``path`` (sampled rolls
    of rounds ``number + 1`` on, as far as the game goes) are each played greedily."""
    played = number
    for dice, roll in path:
        if played >= ROUNDS:
            break
        played += 1
        start = _with_boon(_settled(sheet), side, played, roll)
        _, trail = best_round(_with_dice(start, dice), reef_key, ROUNDS - played)
        sheet = trail[-1]
    return evaluate(sheet, reef_key, ROUNDS - played)


def _paths(key: tuple, search: Search, left: int) -> list[list]:
    """The sampled futures of `plan_dice_with` when each is a path of its own (``search.paths``):
    ``search.samples`` of them (more near the end when ``search.late``), each ``search.ahead``
    rounds long (the first two rounds as `_samples` and `_deeper` draw them)."""
    length = min(search.ahead, left)
    count = search.samples
    if search.late and 0 < length < search.ahead:
        count = search.samples * search.ahead // length
    firsts = _samples(key, count)
    if length <= 1:
        return [[first] for first in firsts]
    number, root = key
    return [[first, *_samples((number, "deeper", root, k), length - 1)] for k, first in enumerate(firsts)]


def _deeper(key: object, search: Search, count: int, samples: int) -> list[list]:
    """The sampled rolls of the round after, for each of ``samples`` sampled next rounds: a set
    of ``count`` each (``search.paths``) or one set shared by all."""
    if not count:
        return []
    if search.paths:
        return [_samples((*key, k), count) for k in range(samples)]
    shared = _samples(key, count)
    return [shared] * samples


def _candidates(
    sheet: Sheet, reef_key: str, left: int, firsts: int = 0
) -> list[tuple[float, list[Act], Sheet]]:
    """Every opening (search, cast, neither) finished greedily, and with each of its ``firsts``
    next-best first placements instead of the best: (evaluation, steps, end sheet), best first."""
    start_plan: list[Act] = []
    start = resolve(sheet, reef_key, left, start_plan)
    found: dict[Sheet, tuple[float, list[Act], Sheet]] = {}
    for opening in [[], *openings(start)]:
        base = run(start, opening, reef_key) if opening else start
        starts: list[list[Act]] = [[]]
        if firsts:
            ranked = sorted(placements(base, reef_key, left), key=lambda item: -item[0])
            starts += [steps for _, steps in ranked[1 : 1 + firsts]]
        for first in starts:
            plan = [*start_plan, *opening, *first]
            current = run(base, first, reef_key) if first else base
            current = finish(current, reef_key, left, plan)
            score = evaluate(current, reef_key, left)
            key = _settled(current)
            if key not in found or score > found[key][0]:
                found[key] = (score, plan, current)
    return sorted(found.values(), key=lambda item: -item[0])


def plan_dice_with(
    sheet: Sheet, reef_key: str, side: str, number: int, search: Search
) -> tuple[Plan, tuple[Sheet, ...]]:
    """The plan for round ``number`` once its dice are rolled, searched as ``search`` says: the
    best few candidates, each scored over sampled next rounds (and the rounds after those)."""
    left = ROUNDS - number
    firsts = search.last_firsts if left == 0 and search.last_firsts else search.firsts
    options = _candidates(sheet, reef_key, left, firsts)
    if left > 0 and len(options) > 1 and search.paths and (search.ahead != 2 or search.late):
        root = _settled(sheet)
        paths = _paths((number, root), search, left)
        scored = [
            (sum(_path_value(end, reef_key, side, number, path) for path in paths) / len(paths), plan)
            for _, plan, end in options[: search.candidates]
        ]
        best = max(scored, key=lambda item: item[0])[1]
    elif left > 0 and len(options) > 1:
        root = _settled(sheet)
        samples = _samples((number, root), search.samples)
        count = search.deeper if left > 1 else 0
        deeper = _deeper((number, "deeper", root), search, count, len(samples))
        scored = [
            (_future(end, reef_key, side, number, samples, deeper), plan)
            for _, plan, end in options[: search.candidates]
        ]
        best = max(scored, key=lambda item: item[0])[1]
    else:
        best = options[0][1]
    steps = (*best, act("confirm"))
    return steps, trail_of(sheet, steps, reef_key)


def plan_boon_with(
    sheet: Sheet, reef_key: str, side: str, number: int, search: Search
) -> tuple[Plan, tuple[Sheet, ...]]:
    """The boon step: each way to make the boon's choices, scored over sampled rolls of this round."""
    left = ROUNDS - number
    samples = _samples((number, "boon", sheet), search.boon)
    count = search.boon_deeper if left > 0 else 0
    later = _deeper((number, "boon-next", sheet), search, count, len(samples))
    best: tuple[float, list[Act]] | None = None
    options = [a for a in rules.legal(sheet, reef_key) if a.kind in ("pearl", "enchant")]
    for option in options:
        after = run(sheet, [option], reef_key)
        plan = [option]
        after = resolve(after, reef_key, left, plan)
        if later:
            total = 0.0
            for k, (dice, _) in enumerate(samples):
                _, trail = best_round(_with_dice(after, dice), reef_key, left)
                total += _future(trail[-1], reef_key, side, number, later[k], [])
            value = total / len(samples)
        else:
            value = sum(_round_value(after, reef_key, left, dice) for dice, _ in samples) / len(samples)
        if best is None or value > best[0] + 1e-9:
            best = (value, plan)
    steps: Plan = tuple(best[1]) if best is not None else ()
    return steps, trail_of(sheet, steps, reef_key)


@lru_cache(maxsize=DECISIONS_KEPT)
def plan_dice(
    sheet: Sheet, reef_key: str, side: str, number: int, search: Search = EXPERT
) -> tuple[Plan, tuple[Sheet, ...]]:
    """`plan_dice_with`, remembered: the later steps of the round ask again."""
    return plan_dice_with(sheet, reef_key, side, number, search)


@lru_cache(maxsize=DECISIONS_KEPT)
def plan_boon(
    sheet: Sheet, reef_key: str, side: str, number: int, search: Search = EXPERT
) -> tuple[Plan, tuple[Sheet, ...]]:
    """`plan_boon_with`, remembered."""
    return plan_boon_with(sheet, reef_key, side, number, search)


@lru_cache(maxsize=LUCKY_KEPT)
def lucky_scores(reef_key: str, side: str, games: int) -> tuple[float, ...]:
    """The mean final score of ``games`` sampled greedy games on this reef and tracker side with
    each lucky number 1-6 (index ``v`` for number ``v``; index 0 unused). The same sampled dice
    serve every number, drawn from seeds of public facts only."""
    scores = [0.0] * 7
    for value in range(1, 7):
        for k in range(games):
            samples = _samples(("lucky", reef_key, side, k), ROUNDS)
            sheet = empty_sheet(reef_key)._replace(lucky=value)
            for number, (dice, roll) in enumerate(samples, start=1):
                start = _with_boon(_settled(sheet), side, number, roll)
                _, trail = best_round(_with_dice(start, dice), reef_key, ROUNDS - number)
                sheet = trail[-1]
            scores[value] += sum(breakdown(_settled(sheet), reef_key).values()) / games
    return tuple(scores)


def lucky_search(legal: list[Act], reef_key: str, side: str, games: int) -> Act:
    """The free lucky number whose sampled greedy games score best (`lucky_scores`); ties go to
    greedy's order (`lucky_choice`)."""
    free = [a for a in legal if a.kind == "lucky" and a.a]
    if not free or games <= 0:
        return lucky_choice(legal)
    scores = lucky_scores(reef_key, side, games)
    order = {number: k for k, number in enumerate(LUCKY_CHOICES)}
    return max(free, key=lambda a: (round(scores[a.a], 6), -order.get(a.a, 9)))


def lucky_from(legal: list[Act], order: tuple[int, ...]) -> Act:
    """The first free lucky number of ``order`` (greedy's choice when none is free)."""
    for number in order:
        choice = act("lucky", number)
        if choice in legal:
            return choice
    return lucky_choice(legal)


def forget() -> None:
    """Drop every decision (and greedy memo) remembered, so the next is worked out afresh."""
    plan_dice.cache_clear()
    plan_boon.cache_clear()
    lucky_scores.cache_clear()
    greedy.forget()


def searching(game: Game, state, seat: int, search: Search) -> Act:
    """Plan the round (or the boon's choice) with the look-ahead ``search`` sizes, then play the
    plan step by step (`engine.reef.ai.greedy.follow`)."""
    if state.phase == "lucky" and search.lucky_book and (state.reef, state.side) in LUCKY_BOOK:
        return lucky_from(game.legal_actions(state, seat), LUCKY_BOOK[state.reef, state.side])
    if state.phase == "lucky":
        return lucky_search(game.legal_actions(state, seat), state.reef, state.side, search.lucky)
    planner = plan_boon if not state.dice else plan_dice
    return follow(
        game, state, seat, lambda origin, _left: planner(origin, state.reef, state.side, state.round, search)
    )


def expert_policy(game: Game, state, seat: int, rng: random.Random) -> Act:
    """Plan the round (or the boon's choice) with the two-round look-ahead, then play the plan
    step by step.

    If the seat has strayed from the plan (a player started the round, then a
    bot took over), it re-plans from where the sheet stands; a die already
    picked is put back first when the new plan does not place it next."""
    return searching(game, state, seat, EXPERT)


__all__ = [
    "EXPERT",
    "Search",
    "expert_policy",
    "forget",
    "plan_boon",
    "plan_boon_with",
    "plan_dice",
    "plan_dice_with",
    "searching",
]
