"""Jeju Island: the rules engine behind the shared contract (`engine.base`).

Modules: `components` (data/jeju/ loaded and validated), `state` (the state and
its JSON form), `actions` (what a seat can do, and their JSON forms), `setup` (Game
Setup), `rules` (Play and End of the Game), `scoring` (Counting Up Your Score),
`view` (what each audience sees; its docstring gives the exact view shape), `text`
(a table in words, for logs and test failures), `game` (the `Game` subclass), and
`ai/` (the bots: `POLICIES` and a hint's why).
"""

from __future__ import annotations

from engine.jeju.game import GAME, JejuGame

__all__ = ["GAME", "JejuGame"]
