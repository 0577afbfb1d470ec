"""Jeju Island's ``expert`` policy: determinized look-ahead that plays to win, and ``master``.

Its seat cannot see the deck order or the tiles under each stack's top, so every
look-ahead starts from `determinize`, a guess drawn only from what the seat sees;
each candidate move is then played out to the end with every seat played as what
plays it at the table (`engine.bots.seated`: a random, beginner or greedy bot as
itself; anyone else — a person, an expert bot, or when nobody said — by the expert's
own play-out policy, `engine.jeju.ai.playout`: greedy's valuation with constants tuned
by self-play, which beats greedy 49 games in 50).

The play-outs are shared out by successive halving (`search`): every candidate is
played out on the same few guesses, the worse half is dropped, and the survivors get
more play-outs on further guesses, so the moves that might be best get most of the
budget. A play-out is worth its win (a shared first place: its share) plus a small
term for the margin (`MARGIN`), so the search plays to win and still prefers the
bigger lead among moves that win alike. ``master`` is the same search with more
play-outs, sized from `engine.bots.thinking_budget` by a fixed rate (`MASTER_RATE`),
never a clock. docs/rules/jeju.md describes both and their figures.
"""

from __future__ import annotations

import math
import random
from operator import mul

from engine.bots import seat_policies, thinking_budget
from engine.jeju import actions as A
from engine.jeju import state as st
from engine.jeju.ai.beginner import beginner_policy
from engine.jeju.ai.greedy import greedy_policy
from engine.jeju.ai.playout import playout_policy
from engine.jeju.ai.random import random_policy
from engine.jeju.components import JOKER

#: Play-outs per decision, shared among the candidate moves by successive halving (p95 about
#: 0.4 s of CPU on the 2-core development machine, under load).
EXPERT_BUDGET = 300
#: The payments of a card searched (greedy's favourites; the rest are seldom better).
PAYMENTS = 4
#: The fewest play-outs a surviving candidate gets in a round.
EXPERT_MIN = 1
#: A play-out's worth: its win share plus this much per point of final margin (capped at
#: `MARGIN_CAP` points either way), so winning comes first and the margin breaks ties.
MARGIN = 0.01
MARGIN_CAP = 30
#: Master's play-outs per second of thinking time (`engine.bots.thinking_budget`), measured on
#: the machine the figures come from (a fixed rate, so a replay makes the same decision).
MASTER_RATE = 800
#: Master never searches less than the expert.
MASTER_MIN = EXPERT_BUDGET * 2


def determinize(state: st.JejuState, rng: random.Random) -> st.JejuState:
    """One guess at what the seat cannot see, drawn from what it can.

    Hidden are the order of the point card deck and the tiles under each stack's
    top. Their contents are public (every card and tile not in sight), so the deck
    is re-shuffled and the hidden tiles dealt again under the same tops, each stack
    keeping its size. Both start from a sorted list, so the guess depends only on
    what the seat may see and on ``rng``.
    """
    deck = sorted(state.deck)
    rng.shuffle(deck)
    pool = sorted(t for stack in state.stacks for t in stack[:-1])
    rng.shuffle(pool)
    stacks = []
    for stack in state.stacks:
        if not stack:
            stacks.append(())
            continue
        below = len(stack) - 1
        stacks.append((*pool[:below], stack[-1]))
        pool = pool[below:]
    return state._replace(deck=tuple(deck), stacks=tuple(stacks))


def _evaluate(game, state: st.JejuState, seat: int) -> float:
    """The win share (1, or 1/k for a first place shared by k) plus a small margin term."""
    result = game.result(state)
    mine = result.scores[seat]
    best = max(s for i, s in enumerate(result.scores) if i != seat)
    won = 1.0 / len(result.winners) if seat in result.winners else 0.0
    return won + MARGIN * max(-MARGIN_CAP, min(MARGIN_CAP, mine - best))


#: The policies a play-out plays a seat with, by what plays it (anyone else: `playout_policy`,
#: greedy's valuation with constants tuned by self-play, which beats greedy 49 games in 50).
PLAYED_AS = {"random": random_policy, "beginner": beginner_policy, "greedy": greedy_policy}


def _players(seats: int) -> list:
    """The policy each seat's play-outs use: a random, beginner or greedy bot as itself, else the
    play-out policy (a person, an expert: its own search is too dear to run in a play-out)."""
    told = seat_policies()
    if told is None or len(told) != seats:
        return [playout_policy] * seats
    return [PLAYED_AS.get(name or "", playout_policy) for name in told]


def _rollout(game, state: st.JejuState, seat: int, rng: random.Random, players: list | None = None) -> float:
    """Play the game out (each seat by ``players``, the play-out policy by default) and evaluate it
    for ``seat``."""
    players = players or [playout_policy] * len(state.hands)
    while True:
        actors = game.to_act(state)
        if not actors:
            return _evaluate(game, state, seat)
        actor = min(actors)
        state = game.advance(state, actor, players[actor](game, state, actor, rng))


def _candidates(game, state: st.JejuState, seat: int, rng: random.Random) -> list:
    """The moves worth looking ahead from: every move but "back"; of a card's payments, the
    `PAYMENTS` that greedy likes best (fewest jokers, then the tiles held most of: a card can have
    dozens of ways, and which tiles it keeps decides the next card it can pay for)."""
    actions = [a for a in game.legal_actions(state, seat) if type(a) is not A.Back]
    if state.phase == st.PAY:
        hand = state.hands[seat]
        actions.sort(key=lambda a: (a.tiles[JOKER], -sum(map(mul, a.tiles, hand))))  # stable: ties keep order
        return actions[:PAYMENTS]
    return actions


def search(game, state: st.JejuState, seat: int, rng: random.Random, budget: int):
    """The candidate with the best mean play-out worth, the play-outs shared by successive halving.

    Round by round the surviving candidates are played out on the same guesses of the
    hidden information with the same play-out seeds (common random numbers), then the
    worse half is dropped; each round spends about ``budget / rounds`` play-outs.
    """
    candidates = _candidates(game, state, seat, rng)
    if len(candidates) == 1:
        return candidates[0]
    players = _players(len(state.hands))
    rounds = max(1, math.ceil(math.log2(len(candidates))))
    per_round = budget / rounds
    worlds: list[tuple[st.JejuState, float]] = []
    totals = [0.0] * len(candidates)
    alive = list(range(len(candidates)))
    done = 0  # play-outs each survivor has had, on worlds[:done]
    while len(alive) > 1:
        more = max(EXPERT_MIN, int(per_round // len(alive)))
        while len(worlds) < done + more:
            worlds.append((determinize(state, rng), rng.random()))
        for index in alive:
            action = candidates[index]
            for world, seed in worlds[done : done + more]:
                after = game.advance(world, seat, action)
                totals[index] += _rollout(game, after, seat, random.Random(seed), players)
        done += more
        alive.sort(key=lambda i: (-totals[i], i))
        alive = alive[: (len(alive) + 1) // 2]
    return candidates[alive[0]]


def expert_policy(game, state, seat: int, rng: random.Random):
    """Determinized look-ahead with `EXPERT_BUDGET` play-outs, shared by successive halving.

    It never reads the deck order or the tiles under a stack's top: every play-out
    starts from `determinize`.
    """
    return search(game, state, seat, rng, EXPERT_BUDGET)


def master_budget() -> int:
    """Master's play-outs per decision: the thinking time told (`engine.bots.thinking_budget`) at
    the fixed `MASTER_RATE`, and never fewer than `MASTER_MIN`."""
    return max(MASTER_MIN, round(thinking_budget() * MASTER_RATE))


def master_policy(game, state, seat: int, rng: random.Random):
    """The expert's search with the play-outs the thinking time allows (`master_budget`)."""
    return search(game, state, seat, rng, master_budget())
