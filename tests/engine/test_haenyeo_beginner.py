"""The haenyeo ``beginner`` (the Easy level): a real step between ``random`` and ``greedy`` (issue #39).

A test of order, not of strength: over a few seeded head-to-head games it loses
to greedy most of the time and beats random most of the time, a table of
beginners plays a whole game, and its play is the same for the same rng.
"""

from __future__ import annotations

import random

import engine
from engine.bots import policy
from tests.ladder import play, wins

GAME = engine.get("haenyeo")
SEEDS = range(24)
#: Of the 24 head-to-head games (measured: 5 and 24; an even match would win about 12).
LOSES_TO_GREEDY = 9
BEATS_RANDOM = 19
#: Every seat of a table of beginners scores more than this.
SANE_SCORE = 60


def test_the_beginner_loses_to_greedy_and_beats_random_head_to_head():
    assert wins("haenyeo", 2, "beginner", "greedy", SEEDS) <= LOSES_TO_GREEDY
    assert wins("haenyeo", 2, "beginner", "random", SEEDS) >= BEATS_RANDOM


def test_a_table_of_beginners_plays_a_whole_game():
    for seats in (2, 4):
        state, actions = play("haenyeo", seats, 7, {s: "beginner" for s in range(seats)})
        assert not GAME.to_act(state)
        assert min(GAME.result(state).scores) > SANE_SCORE


def test_the_beginner_is_deterministic_for_a_given_rng():
    first = play("haenyeo", 3, 11, {0: "beginner", 1: "beginner", 2: "greedy"})[1]
    assert play("haenyeo", 3, 11, {0: "beginner", 1: "beginner", 2: "greedy"})[1] == first
    state = GAME.new(2, 4)
    choose = policy("haenyeo", "beginner")
    assert choose(GAME, state, 0, random.Random(1)) == choose(GAME, state, 0, random.Random(1))
