"""Seeded matches between bot levels, for the tests that the level ladder climbs (issue #39)."""

from __future__ import annotations

import random

import engine
from engine.bots import policy


def play(game_key: str, seats: int, seed: int, levels: dict[int, str], options: dict | None = None):
    """One seeded game, seat ``s`` played by policy ``levels[s]``; the final state and its actions."""
    game = engine.get(game_key)
    chosen = {seat: policy(game_key, name) for seat, name in levels.items()}
    state = game.new(seats, seed, options) if options else game.new(seats, seed)
    rng = random.Random(seed)
    actions = []
    while actors := game.to_act(state):
        seat = min(actors)
        action = chosen[seat](game, state, seat, rng)
        assert action in game.legal_actions(state, seat)
        actions.append(action)
        assert len(actions) < 5000, "the game does not end"
        state, _ = game.apply(state, seat, action)
    return state, actions


def wins(game_key: str, seats: int, hero: str, other: str, seeds: range) -> float:
    """How many of the seeded games one ``hero`` seat (seat ``seed % seats``) wins against ``other``
    seats (a shared win counts 1/k)."""
    game = engine.get(game_key)
    total = 0.0
    for seed in seeds:
        me = seed % seats
        state, _ = play(game_key, seats, seed, {s: hero if s == me else other for s in range(seats)})
        winners = game.result(state).winners
        if me in winners:
            total += 1 / len(winners)
    return total
