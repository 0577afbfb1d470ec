"""The ``beginner`` seat policy: greedy's view of the sea (`engine.haenyeo.ai.greedy`), weighed roughly.

A player who knows the rules but not yet the game: it picks its diving cards by
greedy's zone values but with a much rougher idea of what each is worth (`NOISE`
against greedy's 0.4) and without guessing where the others dive; it harvests
the slot with the most items, not the items its sets need, and now and then
(`SLIP`) the second-most (or the second-best pair of seafood a pearl step marks);
zone 0 it plays as greedy does.
Its card noise is drawn from the game's seed, the round and the seat, so the
toggles of one selection agree; the rest comes from the given rng, so it is
deterministic for a given rng. It reads only what greedy reads.
"""

from __future__ import annotations

import random

from engine.base import Game
from engine.haenyeo import actions as A
from engine.haenyeo.ai.greedy import greedy_policy, toggle_towards
from engine.haenyeo.ai.values import best_zones, greedy_item_values, greedy_zone_values, occupancy
from engine.haenyeo.components import FREE, C
from engine.haenyeo.rules import rows
from engine.haenyeo.state import State

#: Noise on the zone values of its card choice (greedy's is 0.4).
NOISE = 6.0
#: The chance it harvests its second-best slot or seafood instead of its best.
SLIP = 0.6


def _pick(scored: list[tuple[float, int, A.Action]], rng: random.Random) -> A.Action:
    """The best option (the most items; ties: the leftmost), or now and then the second best."""
    scored.sort(key=lambda entry: entry[:2], reverse=True)
    if len(scored) > 1 and rng.random() < SLIP:
        return scored[1][2]
    return scored[0][2]


def choose_cards(state: State, seat: int, rng: random.Random) -> frozenset[int]:
    """The diving cards a beginner picks: where the items look richest (with `NOISE`), counting on
    the zones above being filled only as often as a crowded sea fills them (greedy's first, naive
    guess) and on the others spreading evenly: it does not guess where each of them dives."""
    others = sum(state.pawns) / state.seats * (state.seats - 1) + (C.npc_cards if state.npc else 0)
    alone, shared = greedy_zone_values(state, seat)
    factors = [1 + NOISE * (rng.random() - 0.5) for _ in range(12)]
    noisy = (
        [v * n for v, n in zip(alone, factors, strict=True)],
        [v * n for v, n in zip(shared, factors, strict=True)],
    )
    chance = [occupancy(state)] * 12
    return frozenset(best_zones(state.pawns[seat], noisy, chance, [others / 12] * 12))


def beginner_policy(game: Game, state: State, seat: int, rng: random.Random) -> A.Action:
    """Greedy's choices with rough values and slips (see the module doc)."""
    options = game.legal_actions(state, seat)
    if len(options) == 1:
        return options[0]
    if state.phase == "select":
        noise = random.Random(f"{state.seed}:{state.round}:{seat}:beginner")
        return toggle_towards(state, seat, choose_cards(state, seat, noise))
    first = options[0]
    if isinstance(first, A.Harvest):
        row = rows(state)[state.zone]
        taken = state.taken[state.zone]
        scored = [(len(row[a.slot]), -a.slot, a) for a in options if taken[a.slot] == FREE]
        return _pick(scored, rng)
    if isinstance(first, A.TakeSeafood):
        values = greedy_item_values(state, seat)  # marking two seafood: what its sets need
        return _pick([(sum(values[k] for k in a.seafood), -i, a) for i, a in enumerate(options)], rng)
    return greedy_policy(game, state, seat, rng)
