"""Jeju Island's ``beginner`` policy: greedy's one-move view (`engine.jeju.ai.values`), weighed roughly.

It knows the rules and takes what pays now, but weighs it roughly: each move's
worth gets noise (`NOISE` points), a card's effect counts for nothing (only its
printed points against the tiles it costs), a Travel counts only the tiles it
collects (not what it hands the others), and now and then (`SLIP`) it takes its
second-best move. Payments and the Harubang and setup steps are greedy's. Every
draw comes from the given rng, so it is deterministic for a given rng; it reads
only what greedy reads (top tiles, counts, the cards in sight).
"""

from __future__ import annotations

import random

from engine.jeju import actions as A
from engine.jeju import state as st
from engine.jeju.ai.greedy import greedy_policy
from engine.jeju.ai.values import TILE_WORTH, travel_tiles
from engine.jeju.components import CARDS
from engine.jeju.rules import seat_payments

#: Noise on every move's worth, in points (uniform, ± half of it).
NOISE = 1.0
#: The chance it takes its second-best move instead of its best (0.15: it loses to greedy about
#: four games in five at 2 seats, 21 % wins on seeds 0-299; it was 0.25, 14 %).
SLIP = 0.15


def _card_worth(state: st.JejuState, seat: int, card_id: int) -> float:
    """A card's printed points less what its cheapest payment's tiles would score (effects ignored)."""
    pays = seat_payments(state, seat, card_id)
    return CARDS[card_id].points - min(sum(p) for p in pays) * TILE_WORTH


def beginner_policy(game, state, seat: int, rng: random.Random):
    """Take what pays now, weighed roughly: noisy worths, effects ignored, sometimes the second best."""
    if state.phase not in (st.TURN, st.BUYING):
        return greedy_policy(game, state, seat, rng)
    actions = game.legal_actions(state, seat)
    scored: list[tuple[float, int, object]] = []
    for index, action in enumerate(actions):
        kind = type(action)
        if kind is A.TakeCard:
            worth = _card_worth(state, seat, action.card)
        elif kind is A.Travel:
            worth = travel_tiles(state, seat, action)[0] * TILE_WORTH
        elif kind is A.EndTurn:
            worth = 0.0
        else:  # Back, and anything else that takes no step forward
            continue
        scored.append((worth + NOISE * (rng.random() - 0.5), -index, action))
    if not scored:
        return greedy_policy(game, state, seat, rng)
    scored.sort(key=lambda entry: entry[:2], reverse=True)
    if len(scored) > 1 and rng.random() < SLIP:
        return scored[1][2]
    return scored[0][2]
