"""Every bot level a host may seat is a policy every game offers (issue #39's ladder).

A level whose policy a game lacks would fail only when someone seats it there: at a
table, in a league's bot seats, or in a rematch that keeps the old table's bots.
"""

from __future__ import annotations

import pytest

from engine import GAME_PACKAGES
from engine.bots import policies
from hosting.service import BOT_LEVELS, OLD_LEVEL_POLICIES, THINKING_POLICIES

GAMES = ("haenyeo", "jeju", "reef")


@pytest.mark.parametrize("game", GAMES)
def test_every_level_and_every_stored_policy_is_offered_by_the_game(game):
    assert game in GAME_PACKAGES
    offered = policies(game)
    for level, name in BOT_LEVELS.items():
        assert name in offered, f"{game} has no {name!r} policy for the {level} level"
    for name in OLD_LEVEL_POLICIES:
        assert name in offered, f"{game} lost {name!r}, which tables stored before still seat"
    assert set(BOT_LEVELS.values()) >= THINKING_POLICIES
