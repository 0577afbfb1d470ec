"""The engine contract: one shape for every game.

Every game is a pure, deterministic function of (seats, seed, options, action
log). The Discord layer, bots, benchmarks and outside checks drive all three
games only through the names defined here (see docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

#: Where component tables live. Engines read them through `load_data`.
DATA_DIR = Path(__file__).resolve().parent.parent / "data"

State = Any
"""A game's own state object (each game defines its dataclass)."""

Action = Any
"""A game's own action object: plain, hashable data (usually a frozen dataclass)."""

Event = dict[str, Any]
"""What happened, as plain JSON data. Every event has ``type`` and ``text``
(one sentence a player can read). An event with ``"seat": n`` and
``"private": True`` is shown only to seat ``n``; every other event is public."""


class IllegalAction(Exception):
    """An action the rules do not allow now. ``str(error)`` is written for the player."""


class DataError(Exception):
    """A data file under data/ is missing or fails validation."""


@dataclass(frozen=True)
class Result:
    """The end of a game.

    ``scores`` has one int per seat; ``ranking`` lists places per seat, 1 being
    first (tied seats share a place); ``winners`` are the seats that won under
    the game's own tie rules; ``breakdown`` is, per seat, points by category.
    """

    scores: tuple[int, ...]
    ranking: tuple[int, ...]
    winners: frozenset[int]
    breakdown: tuple[dict[str, int], ...]
    notes: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "scores": list(self.scores),
            "ranking": list(self.ranking),
            "winners": sorted(self.winners),
            "breakdown": [dict(b) for b in self.breakdown],
            "notes": list(self.notes),
        }


def places_from_scores(keys: list[tuple]) -> tuple[int, ...]:
    """Competition ranking (1, 2, 2, 4) from one comparable key per seat, higher is better."""
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


def load_data(game_key: str, name: str) -> Any:
    """Read ``data/<game_key>/<name>`` (JSON). Validation is the caller's job."""
    path = DATA_DIR / game_key / name
    try:
        with path.open(encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError as error:
        raise DataError(f"missing data file {path}") from error
    except json.JSONDecodeError as error:
        raise DataError(f"{path} is not valid JSON: {error}") from error


class Game(ABC):
    """One game's rules behind the shared contract.

    Subclasses set the class attributes and implement every abstract method.
    States are never mutated by ``apply``: it returns a new one.
    """

    key: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    #: Table options offered at /play: name -> allowed values, the first is the default.
    options: ClassVar[dict[str, tuple[str, ...]]] = {}

    @abstractmethod
    def new(self, seats: int, seed: int, options: dict | None = None) -> State:
        """A new game for ``seats`` players; all randomness comes from ``seed``."""

    @abstractmethod
    def to_act(self, state: State) -> frozenset[int]:
        """Seats that owe a decision now (empty when the game is finished)."""

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every legal action for ``seat`` now; empty when it owes nothing."""

    @abstractmethod
    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """Apply one action; raise `IllegalAction` for anything not legal now."""

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict:
        """JSON-ready view for one audience: ``None`` is the public view."""

    @abstractmethod
    def result(self, state: State) -> Result | None:
        """Final result, or ``None`` while the game is running."""

    @abstractmethod
    def dump_state(self, state: State) -> dict:
        """Lossless JSON form of a state."""

    @abstractmethod
    def load_state(self, data: dict) -> State:
        """Inverse of `dump_state`."""

    @abstractmethod
    def dump_action(self, action: Action) -> dict:
        """Lossless JSON form of an action."""

    @abstractmethod
    def load_action(self, data: dict) -> Action:
        """Inverse of `dump_action`; raise `IllegalAction` for malformed data."""

    @abstractmethod
    def action_label(self, state: State, seat: int, action: Action) -> str:
        """A short label for a button or select option (at most 80 characters)."""

    def action_group(self, state: State, seat: int, action: Action) -> str:
        """Which menu an action belongs in (the UI groups actions by this)."""
        return ""

    def summary(self, state: State) -> str:
        """One or two lines on where the game stands, for board messages."""
        return ""
