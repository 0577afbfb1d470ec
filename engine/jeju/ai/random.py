"""Jeju Island's ``random`` policy: any legal action but "back", uniformly (so play-outs end)."""

from __future__ import annotations

import random

from engine.jeju.actions import Back


def random_policy(game, state, seat: int, rng: random.Random):
    """Any legal action but "back", uniformly."""
    actions = [a for a in game.legal_actions(state, seat) if type(a) is not Back]
    return rng.choice(actions)
