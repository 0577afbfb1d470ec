"""Hush: Ponder whose every take is a private event (as a secret choice is until the rules reveal it).

A bot's move there posts no new board, so the board's "is thinking" note must be
taken back from the live board itself (`cogs.runner.TableRunner._unnote`).
"""

from __future__ import annotations

from tests.ponder import Ponder


class Hush(Ponder):
    """Ponder with secret moves."""

    key = "hush"
    title = "Hush (test game)"

    def apply(self, state, seat: int, action) -> tuple[object, list[dict]]:
        new, events = super().apply(state, seat, action)
        return new, [{**event, "private": True} for event in events]


GAME = Hush()
