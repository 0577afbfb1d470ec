"""Policies for the tiny test game."""

from __future__ import annotations

from engine.base import Game


def _first(game: Game, state, seat: int, rng):
    return game.legal_actions(state, seat)[0]


def _random(game: Game, state, seat: int, rng):
    return rng.choice(game.legal_actions(state, seat))


POLICIES = {"random": _random, "greedy": _first}
