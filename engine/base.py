"""The engine contract: one shape for every game.

Every game is a pure, deterministic function of (seats, seed, options, action
log). The Discord layer, bots, benchmarks and outside checks drive all three
games only through the names defined here (see docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, ItemsView, Iterator, KeysView, ValuesView
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
    """Inside the block, events carry their message (``say``) but no English ``text`` at all.

    For bots' search, which plays thousands of moves nobody reads. Outside it the
    English is said only when an event's ``text`` is first read (see `Said`), so
    this block saves little now; `engine.bots.policy` still runs every policy so.
    """
    token = _SEARCHING.set(True)
    try:
        yield
    finally:
        _SEARCHING.reset(token)


class Said(dict):
    """An event whose English ``text`` is said when someone first reads it.

    Saying every event in English is a third of a random play-out's time, and most
    events (a bot's search, a replay to rebuild a state) are never read. Until it
    is read the ``text`` key is absent underneath; every way of reading the event
    (``e["text"]``, ``get``, ``in``, iteration, ``items``, ``len``, ``==``, ``repr``,
    `json`, `copy`, `pickle`, ``dict(e)``, ``{**e}``) says it first, in the key
    order a plain event had (``type``, ``text``, ``say``, then its other fields), so
    nobody can tell it from the plain dict it replaces.
    """

    __slots__ = ()

    def _said(self) -> None:
        # dict's own views read the storage beneath; dict.copy would come back here through keys()
        if not dict.__contains__(self, "text"):
            rest = dict(dict.items(self))
            dict.clear(self)
            dict.__setitem__(self, "type", rest.pop("type"))
            dict.__setitem__(self, "text", i18n.english(rest["say"]))
            dict.update(self, rest)

    def _plain(self) -> dict[str, Any]:
        self._said()
        return dict(dict.items(self))

    def __missing__(self, key: str) -> Any:
        if key == "text" and dict.__contains__(self, "say"):
            self._said()
            return dict.__getitem__(self, "text")
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        return key == "text" or dict.__contains__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        """As `dict.get`, saying the text if that is what is asked for."""
        if key == "text":
            self._said()
        return dict.get(self, key, default)

    def __iter__(self) -> Iterator[str]:
        self._said()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._said()
        return dict.__len__(self)

    def keys(self) -> KeysView[str]:
        """As `dict.keys`, with the text said."""
        self._said()
        return dict.keys(self)

    def values(self) -> ValuesView[Any]:
        """As `dict.values`, with the text said."""
        self._said()
        return dict.values(self)

    def items(self) -> ItemsView[str, Any]:
        """As `dict.items`, with the text said."""
        self._said()
        return dict.items(self)

    def copy(self) -> dict[str, Any]:
        """A plain dict copy, with the text said."""
        return self._plain()

    def pop(self, key: str, *default: Any) -> Any:
        """As `dict.pop`, with the text said."""
        self._said()
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[str, Any]:
        """As `dict.popitem`, with the text said."""
        self._said()
        return dict.popitem(self)

    def setdefault(self, key: str, default: Any = None) -> Any:
        """As `dict.setdefault`, with the text said."""
        self._said()
        return dict.setdefault(self, key, default)

    def __eq__(self, other: object) -> bool:
        self._said()
        if isinstance(other, Said):
            other._said()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment] - mutable, as a dict

    def __repr__(self) -> str:
        self._said()
        return dict.__repr__(self)

    def __or__(self, other: Any) -> dict[str, Any]:
        return self._plain() | other

    def __ror__(self, other: Any) -> dict[str, Any]:
        return dict(other) | self._plain()

    def __reduce_ex__(self, protocol: Any) -> tuple:
        return (dict, (self._plain(),))


def event(kind: str, message: i18n.Msg, **fields: Any) -> Event:
    """An event of type ``kind`` saying ``message`` (made with `i18n.say`), with its other fields.

    Its English ``text`` is said when first read (`Said`); inside `without_text` it has none.
    """
    if _SEARCHING.get():
        return {"type": kind, "say": message, **fields}
    return Said(type=kind, say=message, **fields)


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


def quick_replace(record: type) -> Callable[..., Any]:
    """A ``_replace`` for the named tuple class ``record``, a third faster than its own (which pops
    every field from the keywords): a play-out makes several a move. Set it after the class
    (``Sheet._replace = quick_replace(Sheet)``; `typing.NamedTuple` forbids one in the body)."""
    index = {name: i for i, name in enumerate(record._fields)}
    make = tuple.__new__

    def _replace(self: tuple, **changes: Any) -> Any:
        values = list(self)
        for name, value in changes.items():
            values[index[name]] = value
        return make(record, values)

    return _replace


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

    def advance(self, state: State, seat: int, action: Action) -> State:
        """The state after ``action``, which the caller knows is legal: search play-outs' path.

        The same game as `apply` (tests/engine/test_engine_paths.py replays random games through both
        and compares every state), without what a play-out never reads: events are made
        quietly (no text; see `without_text`) and thrown away, and a game may skip the legality
        check and other work `apply` does for people. An illegal action here is the caller's
        bug, and may not be refused. ``state`` is never changed.
        """
        token = _SEARCHING.set(True)
        try:
            return self.apply(state, seat, action)[0]
        finally:
            _SEARCHING.reset(token)

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
