"""Jeju Island's ``greedy`` policy: the move that gains the most now (see `engine.jeju.ai.values`).

It looks only at top tiles and tile counts, never at the deck order or the tiles
under a top; ties are broken by the given rng. docs/rules/jeju.md describes it.
"""

from __future__ import annotations

import random
from operator import mul

from engine.jeju import actions as A
from engine.jeju import state as st
from engine.jeju.ai.values import TILE_WORTH, best_travel, card_gain, card_key, tile_use
from engine.jeju.components import JOKER


def greedy_policy(game, state, seat: int, rng: random.Random):
    """The move that gains the most now: the best card if it beats the richest Travel, else that Travel."""
    actions = game.legal_actions(state, seat)
    phase = state.phase
    if phase in (st.TURN, st.BUYING):
        best, best_key, travels = None, None, []
        for action in actions:
            kind = type(action)
            if kind is A.TakeCard:
                key = (card_gain(state, seat, action.card), card_key(action.card))
                if best is None or key > best_key:  # the first of equals, as max() takes it
                    best, best_key = action, key
            elif kind is A.Travel:
                travels.append(action)
        if phase == st.BUYING:
            if best is not None and best_key[0] > 0:
                return best
            return next(a for a in actions if type(a) is A.EndTurn)
        travel, mine = best_travel(state, seat, travels, rng)  # the most tiles, fewest for the others
        if best is not None and best_key[0] >= mine * TILE_WORTH:
            return best
        return travel
    if phase == st.PAY:
        hand = state.hands[seat]
        # Fewest jokers first (payments come so ordered), then keep the tiles held fewest of.
        pays = [a for a in actions if type(a) is A.Pay]
        fewest = pays[0].tiles[JOKER]
        best, best_key = None, None
        for action in pays:
            if action.tiles[JOKER] != fewest:
                break
            key = -sum(map(mul, action.tiles, hand))
            if best is None or key < best_key:  # the first of equals, as min() takes it
                best, best_key = action, key
        return best
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
