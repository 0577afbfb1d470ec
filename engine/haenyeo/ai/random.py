"""The ``random`` seat policy: any legal move, for play-outs and the easiest bot."""

from __future__ import annotations

import random

from engine.base import Game
from engine.haenyeo import actions as A
from engine.haenyeo.state import State


def random_policy(game: Game, state: State, seat: int, rng: random.Random) -> A.Action:
    """Uniform among legal actions, except that it never puts a selected card back (play-outs end)."""
    options = game.legal_actions(state, seat)
    if state.phase == "select":
        if A.CONFIRM in options:
            return A.CONFIRM
        mask = state.chosen[seat]
        options = [a for a in options if not mask >> a.zone & 1]
    return rng.choice(options)
