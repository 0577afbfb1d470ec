"""The Reef & Ruins ``beginner`` (the Easy level): a real step between ``random`` and ``greedy`` (issue #39).

A test of order, not of strength: on a few seeded solo games its mean lies
between random's and greedy's, it loses to greedy at a shared table, two
beginners play a whole game, and its play is the same for any rng (its slips
are seeded by the round-start sheet, never by future dice).
"""

from __future__ import annotations

import random
import statistics

import engine
from engine.reef.ai import POLICIES
from tests.ladder import play, wins

GAME = engine.get("reef")
SEEDS = range(4)
OPTIONS = {"reef": "bewitching-barrier", "tracker": "sunrise"}


def solo_mean(level: str) -> float:
    """The mean solo score of ``level`` over `SEEDS`."""
    return statistics.fmean(
        GAME.result(play("reef", 1, seed, {0: level}, OPTIONS)[0]).scores[0] for seed in SEEDS
    )


def test_the_beginner_scores_between_random_and_greedy_solo():
    rand, beginner, greedy = (solo_mean(level) for level in ("random", "beginner", "greedy"))
    # measured: about 20, 115 and 150 (the rulebook's bands: below 100 is its lowest)
    assert rand + 40 < beginner < greedy
    assert 90 <= beginner <= 135


def test_the_beginner_loses_to_greedy_at_a_shared_table():
    assert wins("reef", 2, "beginner", "greedy", range(4)) <= 1


def test_two_beginners_play_a_whole_game_on_either_reef():
    for reef in ("bewitching-barrier", "arcane-atoll"):
        state, _ = play("reef", 2, 9, {0: "beginner", 1: "beginner"}, {"reef": reef})
        assert not GAME.to_act(state)
        assert min(GAME.result(state).scores) > 60


def test_the_beginner_plays_the_same_for_any_rng():
    state = GAME.new(1, 3, OPTIONS)
    choose = POLICIES["beginner"]
    moves = []
    for rng in (random.Random(1), random.Random(2)):
        current, made = state, []
        while GAME.to_act(current) and len(made) < 40:
            action = choose(GAME, current, 0, rng)
            made.append(action)
            current, _ = GAME.apply(current, 0, action)
        moves.append(made)
    assert moves[0] == moves[1]
