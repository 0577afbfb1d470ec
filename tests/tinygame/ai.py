"""Policies for the tiny test game."""

from __future__ import annotations

from engine.base import Game


def _first(game: Game, state, seat: int, rng):
    return game.legal_actions(state, seat)[0]


def _random(game: Game, state, seat: int, rng):
    return rng.choice(game.legal_actions(state, seat))


# Every bot level's policy (`hosting.service.BOT_LEVELS`), as the real games offer them.
POLICIES = {"random": _random, "beginner": _random, "greedy": _first, "master": _first}
