"""Reef & Ruins: the roll-and-write rules engine (both reefs, solo and multiplayer).

``GAME`` is the `engine.base.Game` instance; ``ai.POLICIES`` the seat policies.
Where each part of the rulebook lives is in `engine.reef.game`'s docstring; the
view's shape is documented in `engine.reef.view`; the rulebook's gaps and the
decisions taken are in docs/rules/reef.md.
"""

from __future__ import annotations

from engine.reef.game import GAME, ReefGame, ReefState

__all__ = ["GAME", "ReefGame", "ReefState"]
