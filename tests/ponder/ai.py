"""Ponder's policies: Take-away's, and an expert (and a master) that thinks for ``state.think`` seconds."""

from __future__ import annotations

import time

from engine.base import Game
from engine.bots import thinking_budget


def _greedy(game: Game, state, seat: int, rng):
    """Leave the pile at a multiple of four when possible (Take-away's winning move)."""
    actions = game.legal_actions(state, seat)
    winning = [a for a in actions if (state.pile - a.count) % 4 == 0]
    return (winning or actions)[0]


def _random(game: Game, state, seat: int, rng):
    return rng.choice(game.legal_actions(state, seat))


def _expert(game: Game, state, seat: int, rng):
    """Greedy's move after ``state.think`` seconds (sleeping, so the shared test machine stays free)."""
    time.sleep(state.think)
    return _greedy(game, state, seat, rng)


def _master(game: Game, state, seat: int, rng):
    """The expert given time: it thinks ``state.think`` seconds, or as long as it is told it may
    (`engine.bots.thinking_budget`) if that is shorter, and plays greedy's move."""
    time.sleep(min(state.think, thinking_budget()))
    return _greedy(game, state, seat, rng)


POLICIES = {"random": _random, "beginner": _random, "greedy": _greedy, "expert": _expert, "master": _master}


def explain(game: Game, state, seat: int, action) -> str:
    """One line of why: the expert leaves the pile at a multiple of four."""
    return f"It leaves {state.pile - action.count} stones, a multiple of four, when it can."
