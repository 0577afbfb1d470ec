"""Haenyeo's and Jeju Island's ``beginner`` (the Easy level): a real step between ``random`` and
``greedy`` (issue #39). Reef & Ruins, a solo game first, has its own (`test_reef_beginner.py`).

A test of order, not of strength: over a few seeded head-to-head games it loses
to greedy most of the time and beats random most of the time, a table of
beginners plays a whole game, and its play is the same for the same rng.
"""

from __future__ import annotations

import random
from typing import NamedTuple

import pytest

import engine
from engine.bots import policy
from tests.ladder import play, wins

SEEDS = range(24)


class Bounds(NamedTuple):
    """What a game's beginner must show over the 24 seeded head-to-head games (an even match would
    win about 12), and the least score of every seat at a table of beginners."""

    loses_to_greedy: int
    beats_random: int
    sane_score: int


#: Measured: Haenyeo wins 5 against greedy and 24 against random, Jeju Island 2 and 21.
BOUNDS = {"haenyeo": Bounds(9, 19, 60), "jeju": Bounds(8, 17, 5)}


@pytest.mark.parametrize("game_key", BOUNDS)
def test_the_beginner_loses_to_greedy_and_beats_random_head_to_head(game_key: str):
    bounds = BOUNDS[game_key]
    assert wins(game_key, 2, "beginner", "greedy", SEEDS) <= bounds.loses_to_greedy
    assert wins(game_key, 2, "beginner", "random", SEEDS) >= bounds.beats_random


@pytest.mark.parametrize("game_key", BOUNDS)
def test_a_table_of_beginners_plays_a_whole_game(game_key: str):
    game = engine.get(game_key)
    for seats in (2, 4):
        state, _ = play(game_key, seats, 7, {s: "beginner" for s in range(seats)})
        assert not game.to_act(state)
        assert min(game.result(state).scores) > BOUNDS[game_key].sane_score


@pytest.mark.parametrize("game_key", BOUNDS)
def test_the_beginner_is_deterministic_for_a_given_rng(game_key: str):
    levels = {0: "beginner", 1: "beginner", 2: "greedy"}
    assert play(game_key, 3, 11, levels)[1] == play(game_key, 3, 11, levels)[1]
    game = engine.get(game_key)
    state = game.new(2, 4)
    choose = policy(game_key, "beginner")
    assert choose(game, state, 0, random.Random(1)) == choose(game, state, 0, random.Random(1))
