"""Jeju Island's ``expert`` policy: determinized sampled look-ahead, greedy play-outs.

Its seat cannot see the deck order or the tiles under each stack's top, so every
look-ahead starts from `determinize`, a guess drawn only from what the seat sees;
each candidate move is then played out to the end with every seat played as what
plays it at the table (`engine.bots.seated`: a random or beginner bot as itself;
greedy for anyone else — a person, a greedy or expert bot, or when nobody said;
`engine.jeju.ai.greedy`). docs/rules/jeju.md describes it and its figures.
"""

from __future__ import annotations

import random

from engine.bots import seat_policies
from engine.jeju import actions as A
from engine.jeju import state as st
from engine.jeju.ai.beginner import beginner_policy
from engine.jeju.ai.greedy import greedy_policy
from engine.jeju.ai.random import random_policy

#: Play-outs per decision, shared among the candidate moves (at least EXPERT_MIN each).
EXPERT_BUDGET = 96
EXPERT_MIN = 4
#: A win is worth this many points of margin in the evaluation.
WIN_BONUS = 4.0


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
    """Final margin over the best other seat, plus a bonus for winning."""
    result = game.result(state)
    mine = result.scores[seat]
    best = max(s for i, s in enumerate(result.scores) if i != seat)
    return mine - best + (WIN_BONUS if seat in result.winners else 0.0)


#: The policies a play-out plays a seat with, by what plays it (anyone else: greedy).
PLAYED_AS = {"random": random_policy, "beginner": beginner_policy}


def _players(seats: int) -> list:
    """The policy each seat's play-outs use: a random or beginner bot as itself, else greedy (a
    person, a greedy bot, an expert: its own search is too dear to run in a play-out)."""
    told = seat_policies()
    if told is None or len(told) != seats:
        return [greedy_policy] * seats
    return [PLAYED_AS.get(name or "", greedy_policy) for name in told]


def _rollout(game, state: st.JejuState, seat: int, rng: random.Random, players: list | None = None) -> float:
    """Play the game out (each seat by ``players``, greedy by default) and evaluate it for ``seat``."""
    players = players or [greedy_policy] * len(state.hands)
    while True:
        actors = game.to_act(state)
        if not actors:
            return _evaluate(game, state, seat)
        actor = min(actors)
        state = game.advance(state, actor, players[actor](game, state, actor, rng))


def _candidates(game, state: st.JejuState, seat: int, rng: random.Random) -> list:
    """The moves worth looking ahead from (a payment is chosen as greedy would)."""
    actions = [a for a in game.legal_actions(state, seat) if type(a) is not A.Back]
    if state.phase in (st.PAY, st.SETUP_TOKENS, st.SETUP_HARUBANG):
        return [greedy_policy(game, state, seat, rng)]
    return actions


def expert_policy(game, state, seat: int, rng: random.Random):
    """Determinized look-ahead: each candidate move is played out on sampled hidden information.

    It never reads the deck order or the tiles under a stack's top: every play-out
    starts from `determinize`. The same guesses and play-out seeds are used for every
    candidate (common random numbers), and the move with the best mean margin wins.
    """
    candidates = _candidates(game, state, seat, rng)
    if len(candidates) == 1:
        return candidates[0]
    samples = max(EXPERT_MIN, EXPERT_BUDGET // len(candidates))
    worlds = [(determinize(state, rng), rng.random()) for _ in range(samples)]
    players = _players(len(state.hands))
    best, best_value = candidates[0], float("-inf")
    for action in candidates:
        total = 0.0
        for world, seed in worlds:
            after = game.advance(world, seat, action)
            total += _rollout(game, after, seat, random.Random(seed), players)
        if total > best_value:
            best, best_value = action, total
    return best
