"""Pure game rules behind one contract (see `engine.base`).

``engine.get(key)`` returns a game; ``engine.games()`` lists them all. The
registry below names each game's package; a game's package exposes ``GAME``
(its `Game` instance) and, in its ``ai`` package, ``POLICIES``.
"""

from __future__ import annotations

import importlib

from engine.base import Action, DataError, Event, Game, IllegalAction, Result, State

__all__ = [
    "Action",
    "DataError",
    "Event",
    "Game",
    "IllegalAction",
    "Result",
    "State",
    "games",
    "get",
]

#: Game key -> the package that implements it, in the order /play offers them.
GAME_PACKAGES: dict[str, str] = {
    "haenyeo": "engine.haenyeo",
    "jeju": "engine.jeju",
    "reef": "engine.reef",
}

_loaded: dict[str, Game] = {}


def get(key: str) -> Game:
    """The game registered under ``key``; `KeyError` names the known keys."""
    if key not in GAME_PACKAGES:
        raise KeyError(f"unknown game {key!r}; known: {', '.join(GAME_PACKAGES)}")
    if key not in _loaded:
        _loaded[key] = importlib.import_module(GAME_PACKAGES[key]).GAME
    return _loaded[key]


def games() -> list[Game]:
    """Every registered game, in /play order."""
    return [get(key) for key in GAME_PACKAGES]
