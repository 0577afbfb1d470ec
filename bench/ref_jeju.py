"""Jeju Island bots against a reference searcher, and the level ladder (issue #39).

Run ``nice -n 10 python -m bench.ref_jeju [--games N] [--first SEED] [--budget B] [--times K] [--ladder N]
[--master N] [--verbose] [--jobs J]`` (``--jobs``: the seeds split into J runs played side by side in
processes, each game the same as in one process).

The reference (`reference_policy`) is a flat Monte Carlo searcher written here, apart
from the expert's code: it sees only its own seat's information (it guesses the deck
order and the tiles under each stack's top afresh for every play-out, from what the
seat sees), plays each of its legal moves out to the end of the game in turn (round
robin, so every move gets the same share) with every seat played by the greedy bot
(or by uniformly random moves, ``--random-playouts``), and takes the move that won
most often (a shared first place counts half). It is given ``--times`` (default 10)
times the expert's play-outs per decision (``--budget``: the expert's search with that many play-outs;
by default `engine.jeju.ai.expert.EXPERT_BUDGET`, the shipped expert's).

It prints, each with n and a 95 % Wilson interval (a shared win counts 1/k):

- the expert against the reference at 2 seats, first player alternating with the seed;
- the expert against greedy (``--ladder`` games), the beginner against greedy (ten times as
  many: they are cheap) and master against the expert (``--master`` games, master thinking
  `engine.bots.LIVE_THINKING`), 2 seats, first player alternating;
- the CPU time (``time.process_time``) of each expert and master decision, p50 and p95.

Game ``g`` uses seed ``g`` and seat rngs ``random.Random(g * 10 + seat)``. Seeds below
1000 are the ones the expert was tuned on; measure from ``--first 1000`` (the default).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import partial

import engine
from bench.stats import percentile, wilson
from engine.base import without_text
from engine.bots import policies, policy
from engine.jeju.ai.expert import EXPERT_BUDGET, search

GAME = engine.get("jeju")
#: What the engine calls a "put the card back" move: never worth searching (it loops).
_BACK = "back"


def guess_hidden(state, rng: random.Random):
    """What the seat cannot see, guessed from what it can: the deck re-shuffled, and the tiles
    under every stack's top dealt again (each stack keeps its size and its top). Both start from
    sorted lists, so the guess depends only on the seat's view and on ``rng``."""
    deck = sorted(state.deck)
    rng.shuffle(deck)
    hidden = sorted(t for stack in state.stacks for t in stack[:-1])
    rng.shuffle(hidden)
    stacks, used = [], 0
    for stack in state.stacks:
        below = max(0, len(stack) - 1)
        stacks.append((*hidden[used : used + below], *stack[-1:]))
        used += below
    return state._replace(deck=tuple(deck), stacks=tuple(stacks))


def _random_move(game, state, seat: int, rng: random.Random):
    moves = [a for a in game.legal_actions(state, seat) if game.dump_action(a)["type"] != _BACK]
    return rng.choice(moves)


def won_share(game, state, seat: int) -> float:
    """The seat's share of the win at the end of a game (a first place shared by k: 1/k)."""
    winners = game.result(state).winners
    return 1.0 / len(winners) if seat in winners else 0.0


def reference_policy(playouts: int, random_playouts: bool = False) -> Callable:
    """A flat Monte Carlo searcher: ``playouts`` play-outs per decision shared evenly (round robin)
    among its legal moves, each on a fresh guess of the hidden information; the most wins wins."""
    greedy = policies("jeju")["greedy"]
    play = _random_move if random_playouts else greedy

    def choose(game, state, seat: int, rng: random.Random):
        moves = [a for a in game.legal_actions(state, seat) if game.dump_action(a)["type"] != _BACK]
        if len(moves) == 1:
            return moves[0]
        wins = [0.0] * len(moves)
        with without_text():
            for n in range(max(playouts, len(moves))):
                index = n % len(moves)
                world = game.advance(guess_hidden(state, rng), seat, moves[index])
                while actors := game.to_act(world):
                    actor = min(actors)
                    world = game.advance(world, actor, play(game, world, actor, rng))
                wins[index] += won_share(game, world, seat)
        return moves[max(range(len(moves)), key=lambda i: wins[i])]

    return choose


def _quiet_search(game, state, seat: int, rng: random.Random, budget: int):
    """The expert's search with ``budget`` play-outs, its events unsaid (as `policy` runs it)."""
    with without_text():
        return search(game, state, seat, rng, budget)


def match(hero: Callable, other: Callable, games: int, first: int, verbose: bool = False) -> dict:
    """``games`` 2-seat games of ``hero`` against ``other``, the hero's seat ``seed % 2``; the hero's
    win rate with its interval and the CPU time of each of the hero's decisions (``verbose``: a
    line per game as it ends)."""
    return summary([_games(hero, other, games, first, verbose)])


def _games(hero: Callable, other: Callable, games: int, first: int, verbose: bool) -> tuple:
    """Play seeds ``first .. first + games - 1``: (hero's wins, games, its decision CPU, margins)."""
    wins, cpu, margins = 0.0, [], []
    for seed in range(first, first + games):
        me = seed % 2
        state = GAME.new(2, seed)
        rngs = [random.Random(seed * 10 + seat) for seat in range(2)]
        while actors := GAME.to_act(state):
            seat = min(actors)
            if seat == me:
                started = time.process_time()
                action = hero(GAME, state, seat, rngs[seat])
                cpu.append(time.process_time() - started)
            else:
                action = other(GAME, state, seat, rngs[seat])
            state, _ = GAME.apply(state, seat, action)
        share = won_share(GAME, state, me)
        wins += share
        scores = GAME.result(state).scores
        margins.append(scores[me] - scores[1 - me])
        if verbose:
            print(f"  seed {seed}, hero seat {me}: scores {scores}, won {share:g}", flush=True)
    return wins, games, cpu, margins


def summary(parts: list[tuple]) -> dict:
    """One row from the parts `_games` played (in one process or several)."""
    wins = sum(part[0] for part in parts)
    games = sum(part[1] for part in parts)
    cpu = [c for part in parts for c in part[2]]
    margins = [m for part in parts for m in part[3]]
    low, high = wilson(wins, games)
    return {
        "games": games,
        "wins": wins,
        "rate": wins / games,
        "low": low,
        "high": high,
        "margin": sum(margins) / games,
        "p50": percentile(cpu, 0.5),
        "p95": percentile(cpu, 0.95),
    }


def player(spec: tuple) -> Callable:
    """A player from a picklable description: ``("policy", name)``, ``("expert", play-outs)`` (the
    expert's search with that budget) or ``("reference", play-outs, random play-outs?)``."""
    if spec[0] == "reference":
        return reference_policy(spec[1], spec[2])
    if spec[0] == "expert":
        return partial(_quiet_search, budget=spec[1])
    return policy("jeju", spec[1])


def _part(hero: tuple, other: tuple, games: int, first: int, verbose: bool) -> tuple:
    """`_games` in a worker process, the players made there from their descriptions."""
    return _games(player(hero), player(other), games, first, verbose)


def match_in(jobs: int, hero: tuple, other: tuple, games: int, first: int, verbose: bool = False) -> dict:
    """`match` of two described players (`player`), the seeds split into ``jobs`` runs of
    consecutive seeds played side by side in processes (each game is the same as in one process)."""
    jobs = max(1, min(jobs, games))
    if jobs == 1:
        return match(player(hero), player(other), games, first, verbose)
    sizes = [games // jobs + (1 if index < games % jobs else 0) for index in range(jobs)]
    starts = [first + sum(sizes[:index]) for index in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_part, [hero] * jobs, [other] * jobs, sizes, starts, [verbose] * jobs))
    return summary(parts)


def line(title: str, row: dict) -> str:
    """One printed figure: the win rate with n and interval, the mean margin, the hero's CPU."""
    return (
        f"{title}: {row['wins']:g}/{row['games']} = {row['rate']:.0%} "
        f"[95% {row['low']:.0%}-{row['high']:.0%}], mean margin {row['margin']:+.1f}; "
        f"CPU per decision p50 {row['p50'] * 1000:.0f} ms, p95 {row['p95'] * 1000:.0f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    """Print the expert against the 10x reference, then the ladder (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games against the reference")
    parser.add_argument("--first", type=int, default=1000, help="the first seed (below 1000: tuning)")
    parser.add_argument("--budget", type=int, default=EXPERT_BUDGET, help="the expert's play-outs a decision")
    parser.add_argument("--times", type=float, default=10.0, help="the reference's play-outs per expert's")
    parser.add_argument("--random-playouts", action="store_true", help="the reference plays out randomly")
    parser.add_argument("--ladder", type=int, default=20, help="games per ladder match (0: none)")
    parser.add_argument("--master", type=int, default=6, help="games of master against the expert")
    parser.add_argument("--verbose", action="store_true", help="a line per game against the reference")
    parser.add_argument("--jobs", type=int, default=1, help="processes, each playing a run of the seeds")
    args = parser.parse_args(argv)
    if args.games > 0:
        budget = round(args.budget * args.times)
        reference = ("reference", budget, args.random_playouts)
        kind = "random" if args.random_playouts else "greedy"
        title = f"expert ({args.budget}) vs reference ({budget} {kind} play-outs a decision, {args.times:g}x)"
        expert = ("expert", args.budget)
        row = match_in(args.jobs, expert, reference, args.games, args.first, args.verbose)
        print(line(title, row), flush=True)
    pairs = (("expert", "greedy", args.ladder), ("beginner", "greedy", args.ladder * 10))
    for hero, other, games in (*pairs, ("master", "expert", args.master)):
        if games > 0:
            row = match_in(args.jobs, ("policy", hero), ("policy", other), games, args.first)
            print(line(f"{hero} vs {other}", row), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
