"""Reef & Ruins quick paths (issue #39): the same answers as the plain ones they stand in for.

The engine's round roller seeds the twister without `random.Random`'s Python layers, and
the greedy planner finds its best next placement on the Barrier without building every
option; both must give exactly what the plain code gives, or a seeded game would change.
"""

from __future__ import annotations

import random

import engine
from engine.bots import play_states
from engine.reef import rules
from engine.reef.ai import POLICIES
from engine.reef.ai.greedy import _first_best_placement, first_best, placements
from engine.reef.ai.values import PLACE_REACH
from engine.reef.components import ROUNDS

GAME = engine.get("reef")


def test_the_round_roller_throws_what_random_random_of_its_text_throws():
    for seed in [*range(40), 2**48 - 1, -3]:
        for number in range(1, ROUNDS + 1):
            rng = random.Random(f"{seed}:{number}:dice")
            assert rules._roller.__wrapped__(seed, number) == tuple(rng.randint(1, 6) for _ in range(4))


def sheets_of_random_games(seeds: range) -> list:
    """Every sheet of seat 0 with dice to place, from random solo games on the Barrier."""
    found = []
    for seed in seeds:
        start = GAME.new(1, seed, {"reef": "bewitching-barrier"})
        for state in play_states(GAME, start, lambda _s: POLICIES["random"], random.Random(seed)):
            sheet = state.sheets[0] if state.phase == "round" else None
            if sheet is not None and sheet.dice and sheet.pick < 0 and not sheet.pending:
                found.append((sheet, ROUNDS - state.round))
    return found


def test_the_quick_best_placement_is_first_best_of_every_placement():
    checked = 0
    for sheet, left in sheets_of_random_games(range(12)):
        for reach in (PLACE_REACH, 1):
            scored = placements(sheet, "bewitching-barrier", left, reach)
            expected = first_best(scored, 1e-9) if scored else None
            assert _first_best_placement(sheet, left, reach) == expected
            checked += 1
    assert checked > 300
