"""Seeded random games for tests that need states from the middle and the end of a game."""

from __future__ import annotations

import random

import engine
from engine.bots import play_states, policy


def random_states(game_key: str, seats: int, seed: int, moments: int) -> list:
    """``moments`` states from one seeded random game (evenly spread), then its final state."""
    game = engine.get(game_key)
    choose = policy(game_key, "random")
    history = list(play_states(game, game.new(seats, seed=seed), lambda _seat: choose, random.Random(seed)))
    state = history[-1]
    step = max(1, len(history) // (moments + 1))
    return [*history[step:-1:step][:moments], state]
