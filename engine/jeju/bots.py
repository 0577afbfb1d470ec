"""Bot policies for Jeju Island: ``random``, ``greedy`` and ``expert`` (see `engine.bots`).

All choose only from ``game.legal_actions`` and are deterministic for a given
``rng``; none ever chooses "back", so play-outs always end. None reads what its
seat cannot see (the deck order, the tiles under each stack's top): greedy looks
only at top tiles and tile counts, and expert re-samples the hidden parts
(`determinize`). docs/rules/jeju.md describes each policy and its figures.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import i18n
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


# --- expert: determinized sampled look-ahead ------------------------------------------

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


def _rollout(game, state: st.JejuState, seat: int, rng: random.Random) -> float:
    """Play the game out with every seat on greedy and evaluate it for ``seat``."""
    while True:
        actors = game.to_act(state)
        if not actors:
            return _evaluate(game, state, seat)
        actor = min(actors)
        state, _ = game.apply(state, actor, greedy_policy(game, state, actor, rng))


def _candidates(game, state: st.JejuState, seat: int, rng: random.Random) -> list:
    """The moves worth looking ahead from (a payment is chosen as greedy would)."""
    actions = [a for a in game.legal_actions(state, seat) if type(a) is not st.Back]
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
    best, best_value = candidates[0], float("-inf")
    for action in candidates:
        total = 0.0
        for world, seed in worlds:
            after, _ = game.apply(world, seat, action)
            total += _rollout(game, after, seat, random.Random(seed))
        if total > best_value:
            best, best_value = action, total
    return best


POLICIES["expert"] = expert_policy


def explain(game, state: st.JejuState, seat: int, action: Any) -> i18n.Msg | None:
    """One line of why ``action`` is good for ``seat`` now (a hint's reason); see `engine.jeju.hints`."""
    from engine.jeju import hints  # hints builds on this module's numbers: imported when first asked

    return hints.explain(game, state, seat, action)
