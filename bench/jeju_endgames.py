"""Jeju Island endings: the expert against the reference searcher from the same late positions (issue #39).

Run ``nice -n 10 python -m bench.jeju_endgames [--positions N] [--first SEED] [--moves K]
[--budget B] [--times T] [--jobs J]``.

A whole game against the reference (`bench.ref_jeju`) costs about a minute of CPU, most of it
the reference's; an ending costs a few seconds, so endings tell cheaply whether the expert
plays the end of a game as well as the reference does. The positions come from games of the
expert's play-out policy against itself, one per seed from ``--first`` on, kept only when that
game ended within `CLOSE` points (an ending still to be fought over): the state ``--moves``
moves before its end (back to the start of a turn). Each position is played to the end twice,
the expert in each seat, against the reference with ``--times`` its play-outs. It prints the
expert's wins (a shared first place counts 1/k) with n and a 95 % Wilson interval, by seat and
in all, and the margins of the close endings.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import engine
from bench.ref_jeju import player, won_share
from bench.stats import wilson
from engine.base import without_text
from engine.bots import play_states
from engine.jeju import state as st
from engine.jeju.ai.expert import EXPERT_BUDGET
from engine.jeju.ai.playout import playout_policy

GAME = engine.get("jeju")
#: A position is kept only when the self-play game it comes from ended within this many points.
CLOSE = 3


def position(seed: int, moves: int) -> st.JejuState | None:
    """The start of the turn ``moves`` moves before the end of the self-play game of ``seed``,
    or None when that game was not close."""
    with without_text():
        states = list(play_states(GAME, GAME.new(2, seed), lambda seat: playout_policy, random.Random(seed)))
    scores = GAME.result(states[-1]).scores
    if abs(scores[0] - scores[1]) > CLOSE:
        return None
    index = max(0, len(states) - 1 - moves)
    while states[index].phase != st.TURN:
        index -= 1
    return states[index]


def endings(seeds: list[int], moves: int, hero: tuple, other: tuple) -> list[tuple]:
    """Each close position of ``seeds`` played out twice, ``hero`` in seat 0 then in seat 1:
    (seed, hero's seat, its win share, its margin)."""
    players = [player(hero), player(other)]
    rows = []
    with without_text():
        for seed in seeds:
            start = position(seed, moves)
            if start is None:
                continue
            for me in (0, 1):
                state = start
                rngs = [random.Random(seed * 10 + seat + 100 * me) for seat in range(2)]
                while actors := GAME.to_act(state):
                    seat = min(actors)
                    chosen = players[0] if seat == me else players[1]
                    state = GAME.advance(state, seat, chosen(GAME, state, seat, rngs[seat]))
                scores = GAME.result(state).scores
                rows.append((seed, me, won_share(GAME, state, me), scores[me] - scores[1 - me]))
    return rows


def rate(rows: list[tuple]) -> str:
    """Wins of n with the 95 % Wilson interval."""
    wins = sum(row[2] for row in rows)
    low, high = wilson(wins, len(rows))
    return f"{wins:g}/{len(rows)} = {wins / len(rows):.0%} [95% {low:.0%}-{high:.0%}]"


def main(argv: list[str] | None = None) -> int:
    """Play the endings and print the expert's record (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=450, help="seeds tried (about 1 in 5 is close)")
    parser.add_argument("--first", type=int, default=30000, help="the first seed")
    parser.add_argument("--moves", type=int, default=20, help="moves before the end of the game")
    parser.add_argument("--budget", type=int, default=EXPERT_BUDGET, help="the expert's play-outs a decision")
    parser.add_argument("--times", type=float, default=10.0, help="the reference's play-outs per expert's")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    args = parser.parse_args(argv)
    seeds = list(range(args.first, args.first + args.positions))
    jobs = max(1, args.jobs)
    hero = ("expert", args.budget)
    other = ("reference", round(args.budget * args.times), False)
    with ProcessPoolExecutor(jobs) as pool:
        parts = pool.map(
            endings, [seeds[i::jobs] for i in range(jobs)], [args.moves] * jobs, [hero] * jobs, [other] * jobs
        )
        rows = sorted(row for part in parts for row in part)
    print(f"expert ({args.budget}) vs reference ({other[1]}), {args.moves} moves from the end:")
    for me in (0, 1):
        print(f"  expert in seat {me}: {rate([row for row in rows if row[1] == me])}")
    print(f"  in all: {rate(rows)}")
    close = Counter(row[3] for row in rows if abs(row[3]) <= CLOSE)
    print("  margins within", CLOSE, "points:", ", ".join(f"{m:+d}: {close[m]}" for m in sorted(close)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
