"""Bot policies for Jeju Island: ``random`` and ``greedy`` (see `engine.bots`).

Both choose only from ``game.legal_actions`` and are deterministic for a given
``rng``. Neither ever chooses "back", so play-outs always end.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.jeju import rules
from engine.jeju import state as st
from engine.jeju.components import CARDS, JOKER, LOCATIONS, NEUTRAL

#: ``policy(game, state, seat, rng) -> action``.
Policy = Callable[[Any, st.JejuState, int, random.Random], Any]


def random_policy(game, state, seat: int, rng: random.Random):
    """Any legal action but "back", uniformly."""
    actions = [a for a in game.legal_actions(state, seat) if type(a) is not st.Back]
    return rng.choice(actions)


def _travel_gain(state: st.JejuState, seat: int, action: st.Travel) -> tuple[int, int]:
    """(tiles this seat collects, tiles the others collect) if it makes this Travel."""
    tokens, _ = rules.sow(state.tokens, action.spot, st.DIRECTIONS[action.direction])
    mine = others = 0
    for spot in range(LOCATIONS):
        if not tokens[spot] or not state.stacks[spot]:
            continue
        owner = tokens[spot][-1]
        if owner == NEUTRAL:
            continue
        gain = 2 if spot == state.harubang else 1
        if owner == seat:
            mine += gain
        else:
            others += gain
    return mine, others


def card_key(card_id: int) -> tuple[int, int]:
    """Greedy's order of preference among cards: most points, then fewest tiles."""
    card = CARDS[card_id]
    return card.points, -len(card.cost)


def _tile_use(state: st.JejuState, seat: int, tile: int) -> float:
    """How much one more tile of this type helps this seat now."""
    if tile == JOKER:
        return 0.9
    hand = state.hands[seat]
    waive = rules.waivers(state.owned[seat])
    for card_id in state.display:
        need = CARDS[card_id].need
        if need[tile] > waive[tile] + hand[tile] and not rules.can_afford(card_id, hand, waive):
            return 1.0
    return 0.5


def best_travel(state: st.JejuState, seat: int, travels: list, rng: random.Random) -> st.Travel:
    """Greedy's Travel: the most tiles collected now, fewest for the others, then the rng."""
    scored = []
    for action in travels:
        mine, others = _travel_gain(state, seat, action)
        scored.append(((mine, -others, rng.random()), action))
    return max(scored, key=lambda pair: pair[0])[1]


#: What greedy counts a tile in hand as worth: "every 2 tiles are worth 1 point"; a
#: Haenyeo scores nothing but pays for any space, so it is kept a little dearer.
TILE_WORTH = 0.5
JOKER_WORTH = 0.7
#: What greedy counts an effect as worth, in points, on top of the card's points.
EFFECT_WORTH = {"everlasting": 1.5, "harubang": 0.8, "refresh": 0.0, None: 0.0}


def card_gain(state: st.JejuState, seat: int, card_id: int) -> float:
    """Points a card adds now, less what the tiles it costs would have scored (cheapest payment)."""
    card = CARDS[card_id]
    pays = rules.seat_payments(state, seat, card_id)
    cost = min(p[JOKER] * JOKER_WORTH + (sum(p) - p[JOKER]) * TILE_WORTH for p in pays)
    return card.points + EFFECT_WORTH[card.effect] - cost


def travel_gain(state: st.JejuState, seat: int, action: st.Travel) -> float:
    """What a Travel's collecting is worth to this seat now (a tile under the Harubang counts double)."""
    return _travel_gain(state, seat, action)[0] * TILE_WORTH


def greedy_policy(game, state, seat: int, rng: random.Random):
    """The move that gains the most now: the best card if it beats the richest Travel, else that Travel."""
    actions = game.legal_actions(state, seat)
    phase = state.phase
    if phase in (st.TURN, st.BUYING):
        cards = [a for a in actions if type(a) is st.TakeCard]
        travels = [a for a in actions if type(a) is st.Travel]
        best = max(cards, key=lambda a: (card_gain(state, seat, a.card), card_key(a.card)), default=None)
        if phase == st.BUYING:
            if best is not None and card_gain(state, seat, best.card) > 0:
                return best
            return next(a for a in actions if type(a) is st.EndTurn)
        travel = best_travel(state, seat, travels, rng)
        if best is not None and card_gain(state, seat, best.card) >= travel_gain(state, seat, travel):
            return best
        return travel
    if phase == st.PAY:
        hand = state.hands[seat]
        pays = [a for a in actions if type(a) is st.Pay]
        return min(pays, key=lambda a: (a.tiles[JOKER], -sum(n * hand[t] for t, n in enumerate(a.tiles))))
    if phase == st.HARUBANG:
        scored = []
        for action in actions:
            stack = state.stacks[action.spot]
            value = _tile_use(state, seat, stack[-1]) if stack else 0.0
            scored.append(((value, action.spot == state.harubang, rng.random()), action))
        return max(scored, key=lambda pair: pair[0])[1]
    if phase == st.SETUP_TOKENS:
        return min(actions, key=lambda a: (len(state.tokens[a.spot]), rng.random()))
    if phase == st.SETUP_HARUBANG:
        mine = [a for a in actions if state.tokens[a.spot][-1] == seat]
        return rng.choice(mine or actions)
    return rng.choice(actions)


POLICIES = {"random": random_policy, "greedy": greedy_policy}
