"""The engine contract: one shape for every game.

Every game is a pure, deterministic function of (seats, seed, options, action
log). The Discord layer, bots, benchmarks and outside checks drive all three
games only through the names defined here (see docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

import i18n

#: Where component tables live. Engines read them through `load_data`.
DATA_DIR = Path(__file__).resolve().parent.parent / "data"

State = Any
"""A game's own state object (each game defines its dataclass)."""

Action = Any
"""A game's own action object: plain, hashable data (usually a frozen dataclass)."""

Event = dict[str, Any]
"""What happened, as plain JSON data. Every event has ``type`` and ``text``
(one sentence a player can read, in English) and ``say``, the same sentence as
an `i18n` message (``{"id", "args"}``) that the bot says in each reader's
language; build both with `event`. An event with ``"seat": n`` and
``"private": True`` is shown only to seat ``n``; every other event is public."""


_SEARCHING: ContextVar[bool] = ContextVar("events_without_text", default=False)


@contextmanager
def without_text() -> Iterator[None]:
    """Inside the block, events carry their message (``say``) but no English ``text``.

    For bots' search, which plays thousands of moves nobody reads: saying each event
    in English would be a third of a play-out's time. `engine.bots.policy` runs every
    policy so.
    """
    token = _SEARCHING.set(True)
    try:
        yield
    finally:
        _SEARCHING.reset(token)


def event(kind: str, message: i18n.Msg, **fields: Any) -> Event:
    """An event of type ``kind`` saying ``message`` (made with `i18n.say`), with its other fields."""
    if _SEARCHING.get():
        return {"type": kind, "say": message, **fields}
    return {"type": kind, "text": i18n.english(message), "say": message, **fields}


class IllegalAction(Exception):
    """An action the rules do not allow now, written for the player.

    Raise it with an `i18n.say` message (``IllegalAction(say("…", n=2))``) so the
    player reads it in their language; ``str(error)`` is the English.
    """

    def __init__(self, message: i18n.Msg | str = "That move is not allowed now.") -> None:
        self.say: i18n.Msg | str = message
        super().__init__(i18n.english(message))


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
    #: Sentences about the result: English strings or `i18n.say` messages.
    notes: tuple[str | dict, ...] = field(default_factory=tuple)
    #: Words for the breakdown's category keys (``"turtle_eggs"`` -> ``"Turtle eggs"``).
    labels: dict[str, str] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "scores": list(self.scores),
            "ranking": list(self.ranking),
            "winners": sorted(self.winners),
            "breakdown": [dict(b) for b in self.breakdown],
            "notes": list(self.notes),
            "labels": dict(self.labels),
        }


def plural(count: int, word: str, many: str | None = None) -> str:
    """``"1 point"``, ``"2 points"``; ``many`` for irregular plurals (``plural(2, "die", "dice")``)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def article(word: str) -> str:
    """``"a Cactus"``, ``"an Orange"``: the indefinite article by the word's first letter."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def listing(items: list[str] | tuple[str, ...], last: str = "and") -> str:
    """``"A"``, ``"A and B"``, ``"A, B and C"``."""
    items = [str(item) for item in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def key_words(key: str) -> str:
    """A fallback for an internal key without a label: ``"turtle_eggs"`` -> ``"Turtle eggs"``,
    ``"round3"`` -> ``"Round 3"``, ``"arcane-atoll"`` -> ``"Arcane atoll"``."""
    text = re.sub(r"(?<=[A-Za-z])(?=\d)", " ", str(key)).replace("_", " ").replace("-", " ").strip()
    return text[:1].upper() + text[1:] if text else "?"


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


def load_labels(game_key: str, name: str = "labels.json") -> dict[str, dict[str, str]]:
    """``data/<game_key>/labels.json``: words for internal keys, checked (sections of key -> words)."""
    raw = load_data(game_key, name)
    sections = ("breakdown", "options", "values")
    if not isinstance(raw, dict) or set(raw) - set(sections):
        raise DataError(f"data/{game_key}/{name}: expected only the sections {', '.join(sections)}")
    labels: dict[str, dict[str, str]] = {}
    for section in sections:
        words = raw.get(section, {})
        if not isinstance(words, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in words.items()
        ):
            raise DataError(f"data/{game_key}/{name}: {section} must map keys to non-empty words")
        labels[section] = dict(words)
    return labels


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
    def action_label(self, state: State, seat: int, action: Action, lang: str = i18n.SOURCE) -> str:
        """A short label for a button or select option (at most 80 characters), in ``lang``."""

    def action_group(self, state: State, seat: int, action: Action) -> str:
        """Which menu an action belongs in (the UI groups actions by this).

        An English phrase marked with `i18n.N_`; the UI shows it translated (``t(group)``).
        """
        return ""

    def summary(self, state: State, lang: str = i18n.SOURCE) -> str:
        """One or two lines on where the game stands, for board messages, in ``lang``."""
        return ""

    #: Words for internal keys, usually read from ``data/<game>/labels.json``:
    #: ``{"breakdown": {key: words}, "options": {name: words}, "values": {value: words}}``.
    labels: ClassVar[dict[str, dict[str, str]]] = {}

    def breakdown_label(self, key: str, lang: str = i18n.SOURCE) -> str:
        """Words for a result breakdown category (``"turtle_eggs"`` -> ``"Turtle eggs"``), in ``lang``."""
        t = i18n.words(lang)
        return t(self.labels.get("breakdown", {}).get(key) or key_words(key))

    def option_label(self, name: str, value: str | None = None, lang: str = i18n.SOURCE) -> str:
        """Words for a table option (``value`` None) or for one of its values, in ``lang``."""
        t = i18n.words(lang)
        if value is None:
            return t(self.labels.get("options", {}).get(name) or key_words(name))
        return t(self.labels.get("values", {}).get(str(value)) or key_words(str(value)))

    def labelled(self, result: Result) -> Result:
        """``result`` with words for each of its breakdown categories (what `result` returns)."""
        keys = dict.fromkeys(k for entry in result.breakdown for k in entry)
        return replace(result, labels={k: self.breakdown_label(k) for k in keys})
