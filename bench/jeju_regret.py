"""Jeju Island: how far each player's choices fall short of a far larger search (issue #39).

Run ``nice -n 10 python -m bench.jeju_regret [--games N] [--first SEED] [--per-game K]
[--truth N] [--repeats R] [--jobs J]``.

Whole games against the reference (`bench.ref_jeju`) cost a minute of CPU each and mix every
kind of mistake together. This asks one question cheaply: does the expert's search choose as
well as a far larger search with the same model of the game would? The positions come from
games of the expert's play-out policy against itself (``--per-game`` of each game's decisions
with more than one candidate, after the setup, seeds from ``--first``). At each, every candidate
move of the expert (`engine.jeju.ai.expert`) is played out ``--truth`` times on the same guesses
of the hidden tiles, every seat by the play-out policy, and its win share is taken as its worth
(a shared first place counts 1/k). A choice's **regret** is the best candidate's worth less the
chosen one's, in points of win chance.

It prints the mean regret (with its 95 % interval) of the expert's choice (``--repeats`` times
a position, each with its own rng), of the reference's (10x the expert's play-outs, its own
greedy play-outs), of the play-out policy's and of greedy's, over all positions and by seat.
The worths have noise of their own (about 1.6 points at 1,000 play-outs), so a regret near that
size means "as good as this yardstick can tell".
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor

from bench.ref_jeju import GAME, reference_policy, won_share
from bench.stats import mean_interval
from engine.base import without_text
from engine.bots import Policy, play_out, play_states
from engine.jeju import state as st
from engine.jeju.ai import expert
from engine.jeju.ai.greedy import greedy_policy
from engine.jeju.ai.playout import playout_policy

#: The players whose choices are weighed, in the printed order.
PLAYERS = ("expert", "reference", "play-out policy", "greedy")
#: The expert's play-outs a decision (the reference gets ten times as many).
BUDGET = expert.EXPERT_BUDGET


def everyone(seat: int) -> Policy:
    """The expert's model of the game: every seat played by its play-out policy."""
    return playout_policy


def positions(seed: int, per_game: int) -> list[tuple[st.JejuState, int]]:
    """``per_game`` decisions (state, seat to move) drawn from the play-out policy's self-play game
    of ``seed``, each after the setup and with more than one candidate."""
    with without_text():
        states = list(play_states(GAME, GAME.new(2, seed), everyone, random.Random(seed)))
    found = []
    for state in states[:-1]:
        if state.phase in (st.SETUP_TOKENS, st.SETUP_HARUBANG):
            continue
        seat = min(GAME.to_act(state))
        if len(expert._candidates(GAME, state, seat, random.Random(0))) > 1:
            found.append((state, seat))
    random.Random(seed).shuffle(found)
    return found[:per_game]


def worths(state: st.JejuState, seat: int, truth: int) -> tuple[list, list[float]]:
    """The expert's candidates and each one's win share over ``truth`` play-outs, every candidate
    on the same guesses of the hidden tiles with the same play-out seeds."""
    rng = random.Random(truth)
    candidates = expert._candidates(GAME, state, seat, random.Random(0))
    worlds = [(expert.determinize(state, rng), rng.random()) for _ in range(truth)]
    found = []
    for action in candidates:
        won = 0.0
        for world, seed in worlds:
            final = play_out(GAME, GAME.advance(world, seat, action), everyone, random.Random(seed))
            won += won_share(GAME, final, seat)
        found.append(won / truth)
    return candidates, found


def regrets(seed: int, per_game: int, truth: int, repeats: int) -> list[tuple[int, str, float]]:
    """(seat, player, regret) for every weighed choice at the positions of ``seed``."""
    others = {
        "reference": reference_policy(BUDGET * 10),
        "play-out policy": playout_policy,
        "greedy": greedy_policy,
    }
    rows = []
    with without_text():
        for state, seat in positions(seed, per_game):
            candidates, worth = worths(state, seat, truth)
            best = max(worth)
            chosen = [
                ("expert", expert.search(GAME, state, seat, random.Random(seed * 100 + repeat), BUDGET))
                for repeat in range(repeats)
            ]
            chosen += [
                (name, choose(GAME, state, seat, random.Random(seed))) for name, choose in others.items()
            ]
            # A payment the expert does not search (beyond its `PAYMENTS`) has no worth here.
            rows += [
                (seat, name, best - worth[candidates.index(action)])
                for name, action in chosen
                if action in candidates
            ]
    return rows


def main(argv: list[str] | None = None) -> int:
    """Print each player's mean regret (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="self-play games the positions come from")
    parser.add_argument("--first", type=int, default=50000, help="the first seed")
    parser.add_argument("--per-game", type=int, default=4, help="positions taken from each game")
    parser.add_argument("--truth", type=int, default=1000, help="play-outs a candidate for its worth")
    parser.add_argument("--repeats", type=int, default=4, help="expert's choices a position (own rngs)")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    args = parser.parse_args(argv)
    seeds = range(args.first, args.first + args.games)
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        parts = pool.map(
            regrets,
            seeds,
            [args.per_game] * len(seeds),
            [args.truth] * len(seeds),
            [args.repeats] * len(seeds),
        )
        rows = [row for part in parts for row in part]
    print(f"regret in points of win chance against {args.truth} play-outs a candidate ({args.games} games):")
    for name in PLAYERS:
        mine = [row for row in rows if row[1] == name]
        by_seat = ", ".join(
            f"seat {seat} {mean_interval([100 * r[2] for r in mine if r[0] == seat])}"
            for seat in (0, 1)
            if any(r[0] == seat for r in mine)
        )
        print(f"  {name}: {mean_interval([100 * r[2] for r in mine])} (n = {len(mine)}; {by_seat})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
