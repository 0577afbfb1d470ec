"""The ``random`` Reef & Ruins policy.

It picks any legal step except the ones that take work back (put a die back,
reset my round), so play-outs always end; it spends shells only now and then,
as a careless player would.
"""

from __future__ import annotations

import random

from engine.base import Game
from engine.reef.actions import UNDO_KINDS, Act


def random_policy(game: Game, state, seat: int, rng: random.Random) -> Act:
    """Any legal move except taking work back; shells are spent only now and then."""
    options = [a for a in game.legal_actions(state, seat) if a.kind not in UNDO_KINDS]
    calm = [a for a in options if a.kind != "shell"]
    if calm and (len(calm) == len(options) or rng.random() < 0.85):
        options = calm
    # rng.randrange(n) is rng._randbelow(n) for n > 0: the same draw, without randrange's checks
    return options[rng._randbelow(len(options))]


__all__ = ["random_policy"]
