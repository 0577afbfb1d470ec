"""What the Jeju Island bots count a move as worth now: the valuations greedy, expert and hints share.

Every number here reads only what a seat may see: top tiles, tile counts, hands,
cards face up and cards taken (never the deck order or the tiles under a top).
docs/rules/jeju.md says how greedy uses them.
"""

from __future__ import annotations

import random

from engine.jeju import rules
from engine.jeju import state as st
from engine.jeju.actions import DIRECTIONS, Travel
from engine.jeju.components import CARDS, JOKER, LOCATIONS, NEUTRAL

#: What greedy counts a tile in hand as worth: "every 2 tiles are worth 1 point"; a
#: Haenyeo scores nothing but pays for any space, so it is kept a little dearer.
TILE_WORTH = 0.5
JOKER_WORTH = 0.7
#: What greedy counts an effect as worth, in points, on top of the card's points.
EFFECT_WORTH = {"everlasting": 1.5, "harubang": 0.8, "refresh": 0.0, None: 0.0}


def travels_tiles(state: st.JejuState, seat: int, travels: list) -> list[tuple[int, int]]:
    """(tiles this seat collects, tiles the others collect) for each of these Travels, in order.

    A tile under the Harubang counts double (its collector earns the bonus tile).
    """
    # Only the tops matter: `rules.sow`'s drops, without building the stacks; read once for all.
    tops = [stack[-1] if stack else NEUTRAL for stack in state.tokens]
    stacks, harubang, tokens = state.stacks, state.harubang, state.tokens
    counts = []
    for action in travels:
        after = tops.copy()
        after[action.spot] = NEUTRAL
        step = DIRECTIONS[action.direction]
        position = action.spot
        for token in tokens[action.spot]:
            position = (position + step) % LOCATIONS
            after[position] = token
        mine = others = 0
        for spot, owner in enumerate(after):
            if owner == NEUTRAL or not stacks[spot]:
                continue
            if owner == seat:
                mine += 2 if spot == harubang else 1
            else:
                others += 2 if spot == harubang else 1
        counts.append((mine, others))
    return counts


def travel_tiles(state: st.JejuState, seat: int, action: Travel) -> tuple[int, int]:
    """(tiles this seat collects, tiles the others collect) if it makes this Travel (`travels_tiles`)."""
    return travels_tiles(state, seat, [action])[0]


def card_key(card_id: int) -> tuple[int, int]:
    """Greedy's order of preference among cards: most points, then fewest tiles."""
    card = CARDS[card_id]
    return card.points, -len(card.cost)


def tile_use(state: st.JejuState, seat: int, tile: int) -> float:
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


def card_gain(state: st.JejuState, seat: int, card_id: int) -> float:
    """Points a card adds now, less what the tiles it costs would have scored (cheapest payment)."""
    card = CARDS[card_id]
    # Every payment gives up the same number of tiles, so the cheapest uses the fewest jokers.
    waive = rules.waivers(state.owned[seat])
    jokers = rules.fewest_jokers(card_id, state.hands[seat], waive)
    spaces = rules.payment_caps(card_id, waive)[JOKER]
    cost = jokers * JOKER_WORTH + (spaces - jokers) * TILE_WORTH
    return card.points + EFFECT_WORTH[card.effect] - cost


def best_travel(
    state: st.JejuState, seat: int, travels: list, rng: random.Random, others_weight: float = 0.0
) -> tuple[Travel | None, int]:
    """The Travel collecting most for this seat less ``others_weight`` a tile the others collect
    (greedy: 0), then the fewest for the others, then the rng; and the tiles it collects for this seat."""
    best, best_key, best_mine = None, None, 0
    for action, (mine, others) in zip(travels, travels_tiles(state, seat, travels), strict=True):
        key = (mine - others_weight * others, -others, rng.random())
        if best is None or key > best_key:  # the first of equals, as max() takes it
            best, best_key, best_mine = action, key, mine
    return best, best_mine
