"""The ``greedy`` seat policy: the best immediate gain by the greedy values (`engine.haenyeo.ai.values`).

It chooses diving cards by each zone's value weighed by the chance it is connected and the
chance of being alone there (alone it harvests ALL items, shared only one slot), harvests
the best slot, gains the 3rd Haenyeo early and makes an egg exchange only when it beats
keeping the eggs.
"""

from __future__ import annotations

import random

from engine.base import Game
from engine.haenyeo import actions as A
from engine.haenyeo.ai.values import (
    GREEDY_EGG_KEEP,
    GUESS_TRUST,
    best_zones,
    greedy_item_values,
    greedy_pearl_value,
    greedy_zone_values,
    occupancy,
)
from engine.haenyeo.components import FREE, C, creature_mask
from engine.haenyeo.rules import rows
from engine.haenyeo.state import State

#: Noise on the zone values of greedy's own card choice (identical bots do not all dive alike).
NOISE = 0.4


def choose_cards(state: State, seat: int, rng: random.Random, noise: float = NOISE) -> frozenset[int]:
    """The diving cards with the highest expected value this round.

    First a naive guess of every other seat's cards (uniform crowding and
    connection), then this seat's best answer to those guesses; a little noise
    from ``rng`` keeps identical bots from all diving to the same zones (``noise``: its size;
    the beginner's is larger).
    """
    others = sum(state.pawns) / state.seats * (state.seats - 1) + (C.npc_cards if state.npc else 0)
    q = occupancy(state)
    flat = [q] * 12
    crowd0 = [others / 12] * 12
    guess_divers = [0.0] * 12
    guess_cover = 0
    for other in range(state.seats):
        if other == seat:
            continue
        picks = best_zones(state.pawns[other], greedy_zone_values(state, other), flat, crowd0)
        mask = 0
        for z in picks:
            mask |= 1 << z
            guess_divers[z] += 1
        guess_cover |= mask | creature_mask(mask)
    chance = [GUESS_TRUST if guess_cover >> y & 1 else q * 0.5 for y in range(12)]
    crowd = [GUESS_TRUST * guess_divers[z] + (C.npc_cards / 12 if state.npc else 0) for z in range(12)]
    alone, shared = greedy_zone_values(state, seat)
    factors = [1 + noise * (rng.random() - 0.5) for _ in range(12)]
    noisy = (
        [v * n for v, n in zip(alone, factors, strict=True)],
        [v * n for v, n in zip(shared, factors, strict=True)],
    )
    return frozenset(best_zones(state.pawns[seat], noisy, chance, crowd))


def toggle_towards(state: State, seat: int, want: set[int]) -> A.Action:
    """The next toggle that turns a seat's chosen diving cards into ``want``; confirm once they are."""
    mask = state.chosen[seat]
    have = {z for z in range(12) if mask >> z & 1}
    extra = sorted(have - want)
    if extra:
        return A.TOGGLES[extra[0]]
    missing = sorted(want - have)
    if missing:
        return A.TOGGLES[missing[0]]
    return A.CONFIRM


def greedy_policy(game: Game, state: State, seat: int, rng: random.Random) -> A.Action:
    """Best immediate gain, with a look at the scoring rounds ahead."""
    options = game.legal_actions(state, seat)
    if len(options) == 1:
        return options[0]
    if state.phase == "select":
        # Noise drawn from the game's seed keeps the wanted cards stable across this seat's toggles.
        want = choose_cards(state, seat, random.Random(f"{state.seed}:{state.round}:{seat}:greedy"))
        return toggle_towards(state, seat, want)
    values = greedy_item_values(state, seat)
    first = options[0]
    if isinstance(first, A.Harvest):
        row = rows(state)[state.zone]
        taken = state.taken[state.zone]
        scored = [(sum(values[i] for i in row[a.slot]), -a.slot, a) for a in options if taken[a.slot] == FREE]
        return max(scored, key=lambda entry: (entry[0], entry[1]))[2]
    if isinstance(first, A.TakeTrash):
        return first
    if isinstance(first, A.TakeSeafood):
        return max(options, key=lambda a: sum(values[k] for k in a.seafood))
    # Zone 0: the 3rd Haenyeo first (while it has rounds to pay off), then the best exchange.
    if A.GAIN in options and state.round <= 6:
        return A.GAIN
    best: tuple[float, A.Action] = (0.0, A.DONE)
    for action in options:
        if isinstance(action, A.Exchange):
            if action.seafood:
                gain = sum(values[k] for k in action.seafood)
            else:
                gain = greedy_pearl_value(state, seat)
            net = gain - action.eggs * GREEDY_EGG_KEEP
            if net > best[0]:
                best = (net, action)
    return best[1]
