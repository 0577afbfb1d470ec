"""Ponder: Take-away whose expert bot thinks as long as the table's option says.

A test game for bot decisions that are slow *by configuration*: the host picks
the ``think`` option (seconds), and the ``expert`` policy (`tests.ponder.ai`)
waits that long in its worker before it plays greedy's move. So the pool's
deadline, the board's "is thinking" note and a restart in the middle of a
decision can be tested without mocking any of the bot's code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from tests.tinygame import State as TakeState
from tests.tinygame import TakeAway


@dataclass(frozen=True)
class State(TakeState):
    """Take-away's state and how long the expert thinks per move (seconds)."""

    think: float = 0.0


class Ponder(TakeAway):
    """Take-away with a thoughtful expert."""

    key = "ponder"
    title = "Ponder (test game)"
    options: ClassVar[dict[str, tuple[str, ...]]] = {"pile": ("normal", "short"), "think": ("0", "2", "4")}

    def new(self, seats: int, seed: int, options: dict | None = None) -> State:
        base = super().new(seats, seed, {"pile": (options or {}).get("pile", "normal")})
        think = float((options or {}).get("think", "0"))
        return State(base.seats, base.pile, base.turn, base.taken, base.winner, think)

    def dump_state(self, state: State) -> dict:
        return {**super().dump_state(state), "think": state.think}

    def load_state(self, data: dict) -> State:
        base = super().load_state(data)
        return State(base.seats, base.pile, base.turn, base.taken, base.winner, float(data["think"]))


GAME = Ponder()
