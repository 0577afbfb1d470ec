"""Jeju Island's ``greedy`` policy: the move that gains the most now (see `engine.jeju.ai.values`).

It looks only at top tiles and tile counts, never at the deck order or the tiles
under a top; ties are broken by the given rng. docs/rules/jeju.md describes it.
"""

from __future__ import annotations

import random

from engine.jeju import actions as A
from engine.jeju import state as st
from engine.jeju.ai.values import card_gain, card_key, tile_use, travel_gain, travel_tiles
from engine.jeju.components import JOKER


def best_travel(state: st.JejuState, seat: int, travels: list, rng: random.Random) -> A.Travel:
    """Greedy's Travel: the most tiles collected now, fewest for the others, then the rng."""
    scored = []
    for action in travels:
        mine, others = travel_tiles(state, seat, action)
        scored.append(((mine, -others, rng.random()), action))
    return max(scored, key=lambda pair: pair[0])[1]


def greedy_policy(game, state, seat: int, rng: random.Random):
    """The move that gains the most now: the best card if it beats the richest Travel, else that Travel."""
    actions = game.legal_actions(state, seat)
    phase = state.phase
    if phase in (st.TURN, st.BUYING):
        cards = [a for a in actions if type(a) is A.TakeCard]
        travels = [a for a in actions if type(a) is A.Travel]
        best = max(cards, key=lambda a: (card_gain(state, seat, a.card), card_key(a.card)), default=None)
        if phase == st.BUYING:
            if best is not None and card_gain(state, seat, best.card) > 0:
                return best
            return next(a for a in actions if type(a) is A.EndTurn)
        travel = best_travel(state, seat, travels, rng)
        if best is not None and card_gain(state, seat, best.card) >= travel_gain(state, seat, travel):
            return best
        return travel
    if phase == st.PAY:
        hand = state.hands[seat]
        pays = [a for a in actions if type(a) is A.Pay]
        return min(pays, key=lambda a: (a.tiles[JOKER], -sum(n * hand[t] for t, n in enumerate(a.tiles))))
    if phase == st.HARUBANG:
        scored = []
        for action in actions:
            stack = state.stacks[action.spot]
            value = tile_use(state, seat, stack[-1]) if stack else 0.0
            scored.append(((value, action.spot == state.harubang, rng.random()), action))
        return max(scored, key=lambda pair: pair[0])[1]
    if phase == st.SETUP_TOKENS:
        return min(actions, key=lambda a: (len(state.tokens[a.spot]), rng.random()))
    if phase == st.SETUP_HARUBANG:
        mine = [a for a in actions if state.tokens[a.spot][-1] == seat]
        return rng.choice(mine or actions)
    return rng.choice(actions)
