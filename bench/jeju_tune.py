"""Jeju Island expert tuning: a variant of the expert against the 10x reference, or its decision CPU.

Run ``nice -n 10 python -m bench.jeju_tune [--budget N] [--times K] [--games N] [--first SEED]
[--cpu N] [--master N] [--playout SECONDS [--against greedy|playout] [--seed N]]``.

``--budget`` sets the expert's play-outs a decision (default `EXPERT_BUDGET`); the reference
(`bench.ref_jeju.reference_policy`) gets ``--times`` (default 10) times as many, so a larger
expert budget raises the reference's too. ``--cpu N`` instead plays N 2-seat games of the
expert against greedy and prints the expert's decision CPU (p50 / p95 / max), to size the
budget against the 1 s p95 limit; ``--master N`` plays N games of master (the live 3 s of thinking)
against the expert, first player alternating, with master's decision CPU. Seeds below 1000 are
for tuning (see `bench.ref_jeju`).

``--playout SECONDS`` tunes the expert's play-out policy (`engine.jeju.ai.playout`): a hill climb
from its `WEIGHTS` (``--from greedy``: from greedy's constants) for that long, each step a random
nudge to one to three constants, kept when it wins a larger share of 800 games (seeds 0-399,
both seats) against ``--against`` (greedy, or the play-out policy as shipped); the best is then
played on seeds 500-899, which the climb never saw.
"""

from __future__ import annotations

import argparse
import random
import time

from bench.bots import cpu_text
from bench.ref_jeju import GAME, match, reference_policy
from bench.stats import percentile, wilson
from engine.base import without_text
from engine.bots import policy
from engine.jeju.ai import expert, playout
from engine.jeju.ai.greedy import greedy_policy

#: The hill climb's nudge to each play-out constant (a Gaussian's spread).
NUDGE = {
    "tile": 0.15,
    "joker": 0.2,
    "everlasting": 0.5,
    "harubang": 0.4,
    "refresh": 0.4,
    "collect": 0.15,
    "others": 0.15,
    "again": 0.3,
}


def playout_share(weights: dict, seeds, other) -> tuple[float, float]:
    """The play-out policy with ``weights`` against ``other``, 2 seats, each seed played from both
    seats: (its win share, its mean margin)."""

    def hero(game, state, seat: int, rng: random.Random):
        return playout.playout_policy(game, state, seat, rng, weights)

    won = margin = 0.0
    games = 0
    with without_text():
        for seed in seeds:
            for me in (0, 1):
                state = GAME.new(2, seed)
                rngs = [random.Random(seed * 10 + seat) for seat in range(2)]
                while actors := GAME.to_act(state):
                    seat = min(actors)
                    chooser = hero if seat == me else other
                    state = GAME.advance(state, seat, chooser(GAME, state, seat, rngs[seat]))
                result = GAME.result(state)
                won += 1 / len(result.winners) if me in result.winners else 0.0
                margin += result.scores[me] - result.scores[1 - me]
                games += 1
    return won / games, margin / games


def tune_playout(seconds: float, against: str, start: str, seed: int) -> dict:
    """Hill-climb the play-out constants for ``seconds`` (see the module docstring); the best found."""
    other = greedy_policy if against == "greedy" else playout.playout_policy
    rng = random.Random(seed)
    best = dict(playout.GREEDY if start == "greedy" else playout.WEIGHTS)
    score = playout_share(best, range(400), other)
    print(f"start: {score[0]:.1%}, margin {score[1]:+.2f}: {best}", flush=True)
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        trial = dict(best)
        for name in rng.sample(sorted(NUDGE), rng.choice((1, 2, 3))):
            trial[name] = round(trial[name] + rng.gauss(0, NUDGE[name]), 3)
        tried = playout_share(trial, range(400), other)
        if tried[0] > score[0]:
            best, score = trial, tried
            print(f"better: {score[0]:.1%}, margin {score[1]:+.2f}: {best}", flush=True)
    held = playout_share(best, range(500, 900), other)
    print(f"best on seeds 500-899 (not climbed on): {held[0]:.1%}, margin {held[1]:+.2f}", flush=True)
    return best


def expert_with(budget: int):
    """The expert's search with ``budget`` play-outs a decision."""

    def choose(game, state, seat: int, rng: random.Random):
        with without_text():
            return expert.search(game, state, seat, rng, budget)

    return choose


def cpu_profile(budget: int, games: int, first: int) -> dict:
    """Decision CPU of the expert (``budget`` play-outs) against greedy over ``games`` 2-seat games."""
    hero = expert_with(budget)
    cpu: list[float] = []
    for seed in range(first, first + games):
        me = seed % 2
        state = GAME.new(2, seed)
        rng = random.Random(seed)
        while actors := GAME.to_act(state):
            seat = min(actors)
            if seat == me:
                started = time.process_time()
                action = hero(GAME, state, seat, rng)
                cpu.append(time.process_time() - started)
            else:
                action = greedy_policy(GAME, state, seat, rng)
            state, _ = GAME.apply(state, seat, action)
    return {
        "n": len(cpu),
        "p50": percentile(cpu, 0.5),
        "p95": percentile(cpu, 0.95),
        "max": max(cpu),
    }


def running(title: str, hero, other, first: int, games: int, verbose: bool) -> None:
    """2-seat games of ``hero`` against ``other`` from seed ``first``, one at a time, printing the
    win rate so far with its interval and the hero's decision CPU after each."""
    wins, cpu = 0.0, []
    for n, seed in enumerate(range(first, first + games), 1):
        wins += match(timed(hero, cpu), other, 1, seed, verbose)["wins"]
        low, high = wilson(wins, n)
        print(
            f"{title}, seeds {first}-{seed}: {wins:g}/{n} = {wins / n:.0%} [95% {low:.0%}-{high:.0%}]; "
            f"hero {cpu_text(cpu)}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    """Print the chosen figure (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=expert.EXPERT_BUDGET, help="expert play-outs")
    parser.add_argument("--times", type=float, default=10.0, help="the reference's play-outs per expert's")
    parser.add_argument("--games", type=int, default=10, help="games against the reference")
    parser.add_argument("--first", type=int, default=500, help="the first seed")
    parser.add_argument("--cpu", type=int, default=0, help="games against greedy to time decisions")
    parser.add_argument("--verbose", action="store_true", help="a line per game")
    parser.add_argument("--master", type=int, default=0, help="games of master (3 s) against the expert")
    parser.add_argument("--playout", type=float, default=0, help="seconds to tune the play-out policy")
    parser.add_argument("--against", choices=("greedy", "playout"), default="greedy", help="tune against")
    parser.add_argument("--from", dest="start", choices=("greedy", "playout"), default="playout")
    parser.add_argument("--seed", type=int, default=1, help="the hill climb's rng seed")
    args = parser.parse_args(argv)
    if args.playout:
        tune_playout(args.playout, args.against, args.start, args.seed)
        return 0
    if args.master:
        title = f"master ({expert.master_budget()} play-outs) vs expert ({expert.EXPERT_BUDGET})"
        running(
            title, policy("jeju", "master"), policy("jeju", "expert"), args.first, args.master, args.verbose
        )
        return 0
    if args.cpu:
        row = cpu_profile(args.budget, args.cpu, args.first)
        print(
            f"expert {args.budget} play-outs: {row['n']} decisions, CPU p50 {row['p50'] * 1000:.0f} ms, "
            f"p95 {row['p95'] * 1000:.0f} ms, max {row['max'] * 1000:.0f} ms",
            flush=True,
        )
        return 0
    budget = round(args.budget * args.times)
    title = f"expert {args.budget} vs reference {budget} ({args.times:g}x)"
    running(title, expert_with(args.budget), reference_policy(budget), args.first, args.games, args.verbose)
    return 0


def timed(policy, cpu: list[float]):
    """``policy``, appending the CPU time of each decision to ``cpu``."""

    def choose(game, state, seat: int, rng: random.Random):
        started = time.process_time()
        action = policy(game, state, seat, rng)
        cpu.append(time.process_time() - started)
        return action

    return choose


if __name__ == "__main__":
    raise SystemExit(main())
