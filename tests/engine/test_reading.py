"""A person's level read from their moves at a table (`engine.reading`, issue #39).

Bots stand in for people: a player who makes any move at all reads as random, one
who takes what pays now but roughly as a beginner, and greedy's and the expert's
moves as "greedy or better". Haenyeo's diving cards, secret until the reveal, are
never read.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.base import without_text
from engine.bots import policy
from engine.haenyeo import actions as HA
from engine.reading import MIN_MOVES, Reading, read_move

JEJU = engine.get("jeju")


def read_a_game(person: str, seed: int) -> Reading:
    """A 2-seat Jeju Island game of ``person`` (seat 0) against greedy, seat 0's moves read."""
    players = [policy("jeju", person), policy("jeju", "greedy")]
    state, rng, reading = JEJU.new(2, seed), random.Random(seed), Reading()
    with without_text():
        while actors := JEJU.to_act(state):
            seat = min(actors)
            action = players[seat](JEJU, state, seat, rng)
            if seat == 0:
                read_move("jeju", JEJU, state, seat, action, reading)
            state, _ = JEJU.apply(state, seat, action)
    return reading


@pytest.mark.parametrize(
    ("person", "seed", "read_as"), [("random", 3001, "random"), ("beginner", 3000, "beginner")]
)
def test_a_weak_players_moves_read_as_their_level(person, seed, read_as):
    reading = read_a_game(person, seed)
    assert reading.moves >= MIN_MOVES
    assert reading.level() == read_as


@pytest.mark.parametrize("person", ["greedy", "expert"])
def test_a_good_players_moves_are_not_read_as_weak(person):
    reading = read_a_game(person, 3000)
    assert reading.moves >= MIN_MOVES
    assert reading.level() is None
    assert reading.weights["greedy"] > reading.weights["random"]


def test_a_few_moves_say_nothing_yet():
    reading = Reading()
    state, rng = JEJU.new(2, 3002), random.Random(1)
    while reading.moves < MIN_MOVES - 1:
        seat = min(JEJU.to_act(state))
        action = rng.choice(JEJU.legal_actions(state, seat))
        if seat == 0:
            read_move("jeju", JEJU, state, seat, action, reading)
        state, _ = JEJU.apply(state, seat, action)
    assert reading.weights["random"] > reading.weights["greedy"]
    assert reading.level() is None


def test_haenyeo_diving_cards_are_never_read():
    game = engine.get("haenyeo")
    state = game.new(2, 5)
    seat = min(game.to_act(state))
    toggle = next(a for a in game.legal_actions(state, seat) if isinstance(a, HA.ToggleCard))
    reading = Reading()
    read_move("haenyeo", game, state, seat, toggle, reading)
    after, _ = game.apply(state, seat, toggle)
    read_move("haenyeo", game, after, seat, HA.CONFIRM, reading)
    assert reading.moves == 0
    assert set(reading.weights.values()) == {0.0}
