"""Reef & Ruins solo: the expert (and master) against a two-round look-ahead reference (issue #39).

The reference (`reference_policy`) is built apart from the expert's code: it plays
through the engine contract only (`Game.advance` on a copy of the table), takes its
candidate plans from the greedy level's planner pieces (every opening, each finished
greedily, and each of those with its first die written in each of its best few other
places), and scores each candidate by playing the *real engine* two rounds further with
the greedy policy, over sampled futures: the table's secret seed (which alone decides the
dice to come) is replaced by sampled seeds, so it never sees a die before it is rolled and
the rounds it imagines follow the engine's own rules (boons, rolls, pearls). The leaf is
the public valuation `engine.reef.ai.values.evaluate`. The same samples serve every
candidate (common random numbers). A boon's choice made before the dice are rolled is
searched the same way (this round and the next). It is slow (seconds a round): a yardstick,
not a bot. Solo only (it imagines no other seat).

Usage: ``python -m bench.ref_reef [--games 100] [--first-seed 0] [--policies expert,reference]``
(also ``master``, ``greedy``, ``beginner``; ``--each`` prints every game as it ends). It prints
each policy's mean with a 95 % interval, the share at 175+, CPU per decision p50/p95, and each
policy's paired difference against the reference on the same seeds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import zlib
from collections.abc import Callable
from functools import lru_cache

import engine
from bench.stats import half_interval, percentile, wilson
from engine.bots import policy
from engine.reef.actions import act
from engine.reef.ai import values
from engine.reef.ai.greedy import finish, openings, placements, resolve, run
from engine.reef.components import ROUNDS

GAME = engine.get("reef")
OPTIONS = {"reef": "bewitching-barrier", "tracker": "sunrise"}
GREEDY = policy("reef", "greedy")

#: Sampled futures (secret seeds) per candidate, and the rounds each plays beyond this one.
FUTURES = 16
AHEAD = 2
#: Other first placements tried per opening (beside greedy's own).
FIRST_WRITES = 3
#: Candidates scored (the best by the valuation after this round).
CANDIDATES = 10


def _sampled_seeds(key: object, count: int) -> list[int]:
    """``count`` secret seeds to imagine the dice with, drawn from ``key`` (what the seat sees)."""
    rng = random.Random(zlib.crc32(repr(("reference", key)).encode()))
    return [rng.getrandbits(48) for _ in range(count)]


def _rollout(state, last_round: int) -> float:
    """Play greedy (through `Game.advance`) until round ``last_round`` is over; the sheet's worth."""
    rng = random.Random(0)
    while GAME.to_act(state) and state.round <= last_round:
        state = GAME.advance(state, 0, GREEDY(GAME, state, 0, rng))
    played = min(state.round - 1, last_round) if GAME.to_act(state) else ROUNDS
    return values.evaluate(state.sheets[0], state.reef, ROUNDS - played)


def _score(state, steps: tuple, seeds: list[int], last_round: int) -> float:
    """The mean worth, over ``seeds``, of playing ``steps`` and then greedy to ``last_round``'s end."""
    total = 0.0
    for seed in seeds:
        current = state._replace(seed=seed)
        for step in steps:
            current = GAME.advance(current, 0, step)
        total += _rollout(current, last_round)
    return total / len(seeds)


def _candidates(sheet, reef_key: str, left: int) -> list[tuple]:
    """Whole-round plans: every opening finished greedily, and with other first placements."""
    found: dict = {}
    start_plan: list = []
    start = resolve(sheet, reef_key, left, start_plan)
    for opening in [[], *openings(start)]:
        base = run(start, opening, reef_key) if opening else start
        firsts: list[list] = [[]]
        ranked = sorted(placements(base, reef_key, left), key=lambda item: -item[0])
        firsts += [steps for _, steps in ranked[1 : 1 + FIRST_WRITES]]
        for first in firsts:
            plan = [*start_plan, *opening, *first]
            current = run(base, first, reef_key) if first else base
            current = finish(current, reef_key, left, plan)
            key = current._replace(dice=(), main=0, pick=-1, mode=0)
            worth = values.evaluate(current, reef_key, left)
            if key not in found or worth > found[key][0]:
                found[key] = (worth, (*plan, act("confirm")))
    ranked_plans = sorted(found.values(), key=lambda item: -item[0])
    return [plan for _, plan in ranked_plans[:CANDIDATES]]


@lru_cache(maxsize=64)
def _plan(state) -> tuple:
    """The reference's steps from ``state`` (a round's or a boon step's start) to its end."""
    sheet = state.sheets[0]
    left = ROUNDS - state.round
    seeds = _sampled_seeds((state.round, bool(state.dice), sheet), FUTURES)
    if state.dice:
        options = _candidates(sheet, state.reef, left)
        last = state.round + AHEAD
    else:  # the boon step: each way to make the boon's choices
        options = [(a,) for a in GAME.legal_actions(state, 0)]
        last = state.round + AHEAD - 1
    if len(options) == 1 or left == 0:
        return options[0]
    return max(options, key=lambda steps: _score(state, steps, seeds, last))


def reference_policy(game, state, seat: int, rng: random.Random):
    """The two-round look-ahead reference (solo): search at a round's (or boon step's) start,
    then follow the plan; greedy's move where it has none (the lucky number, a strayed plan)."""
    if state.phase == "round" and state.seats == 1:
        start = state._replace(seed=0, sheets=(state.starts or state.bases), prev=())
        steps = _plan(start)
        current = start
        for step in steps:
            if current.sheets[0] == state.sheets[0]:
                if step in game.legal_actions(state, seat):
                    return step
                break
            current = GAME.advance(current, 0, step)
    return GREEDY(game, state, seat, rng)


def play(choose: Callable, seed: int) -> tuple[int, list[float]]:
    """One seeded solo game (`OPTIONS`): its score and the CPU seconds of each decision."""
    state = GAME.new(1, seed, OPTIONS)
    rng = random.Random(seed)
    cpu: list[float] = []
    while GAME.to_act(state):
        start = time.process_time()
        action = choose(GAME, state, 0, rng)
        cpu.append(time.process_time() - start)
        state, _ = GAME.apply(state, 0, action)
    result = GAME.result(state)
    assert result is not None
    return result.scores[0], cpu


def chooser(name: str) -> Callable:
    """A policy by name: ``reference`` or any of `engine.reef.ai.POLICIES`."""
    return reference_policy if name == "reference" else policy("reef", name)


def main(argv: list[str] | None = None) -> None:
    """Play each named policy on the seeds and print its mean, share at 175+ and decision CPU."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--policies", default="expert,reference")
    parser.add_argument("--each", action="store_true", help="print every game's score as it ends")
    parser.add_argument("--cpu-log", help="append each game's decision CPU seconds to this file")
    args = parser.parse_args(argv)
    seeds = range(args.first_seed, args.first_seed + args.games)
    names = args.policies.split(",")
    scores: dict[str, list[float]] = {}
    print(f"Reef & Ruins solo, Bewitching Barrier, Sunrise, seeds {seeds.start}-{seeds.stop - 1}")
    for name in names:
        choose = chooser(name)
        cpu: list[float] = []
        scores[name] = []
        for seed in seeds:
            score, spent = play(choose, seed)
            scores[name].append(score)
            cpu.extend(spent)
            if args.each:
                print(f"  {name} seed {seed}: {score} (CPU {sum(spent):.1f} s)", flush=True)
            if args.cpu_log:
                with open(args.cpu_log, "a", encoding="utf-8") as log:
                    log.write(f"{name} {seed} {' '.join(f'{t:.4f}' for t in spent)}\n")
        got = scores[name]
        high = sum(s >= 175 for s in got)
        low_share, high_share = wilson(high, len(got))
        print(
            f"{name}: mean {statistics.fmean(got):.1f} ± {half_interval(got):.1f} over {len(got)} games; "
            f"{high} at 175+ ({100 * high / len(got):.0f} %, "
            f"95 % {100 * low_share:.0f}-{100 * high_share:.0f} %); "
            f"CPU per decision p50 {1000 * percentile(cpu, 0.5):.1f} ms, "
            f"p95 {1000 * percentile(cpu, 0.95):.1f} ms, max {1000 * max(cpu):.0f} ms",
            flush=True,
        )
    if "reference" in scores:
        for name in names:
            if name != "reference":
                diff = [a - b for a, b in zip(scores[name], scores["reference"], strict=True)]
                print(
                    f"{name} - reference (paired, same seeds): {statistics.fmean(diff):+.1f} "
                    f"± {half_interval(diff):.1f}"
                )


if __name__ == "__main__":
    main()
