"""The drawn parts a drawing process keeps, under one budget in bytes (issue #21).

A renderer caches what it draws again and again: fonts, backgrounds, sprites, text blocks.
Bounding each cache by entries did not bound the process: new names, numbers and languages
kept filling caches whose entries weigh from a few hundred bytes to several MB, and a
picture worker grew for weeks. `cached` is `functools.lru_cache` with one difference: the
entries of every cached function count against one budget in bytes for the whole process
(`budget`; the bot's ``PICTURE_CACHE_MB`` setting), and the least recently used entry of any of them goes
first when a new one would not fit. A drawing process then holds at most that much in
cached parts, whatever comes up.

Caches of small values (a bool per glyph, a font's digit height, a text's fitted size)
stay ``lru_cache`` with their entry counts: their full size is well under a megabyte.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import NamedTuple, ParamSpec, TypeVar

from PIL import Image, ImageFont

#: The cached parts one process keeps, in MB (the bot's ``PICTURE_CACHE_MB`` setting, at start).
DEFAULT_BUDGET_MB = 128
#: What a loaded font face holds (FreeType's face and glyph caches): ~180 KB measured at 10–40 px.
FONT_BYTES = 256 * 1024
#: What an entry costs beside its value: its key, the dictionary's slot, the order's link.
ENTRY_BYTES = 256
#: Bytes per pixel of Pillow's modes (every other mode keeps 4).
_PIXEL_BYTES = {"1": 1, "L": 1, "P": 1, "I;16": 2, "I;16B": 2, "I;16L": 2}
#: Pillow's core image (``Image.im``), which some caches keep to paste without the wrapper.
_CORE_IMAGE = type(Image.new("L", (1, 1)).im)

P = ParamSpec("P")
R = TypeVar("R")


class CacheInfo(NamedTuple):
    """One cached function's figures (as `functools.lru_cache`'s, with its bytes)."""

    hits: int
    misses: int
    currsize: int
    bytes: int


def size_of(value: object) -> int:
    """About how many bytes ``value`` holds: pixels for images, a face for fonts, parts summed."""
    if isinstance(value, (Image.Image, _CORE_IMAGE)):
        width, height = value.size
        return width * height * _PIXEL_BYTES.get(value.mode, 4) + 1024
    if isinstance(value, ImageFont.FreeTypeFont):
        return FONT_BYTES
    if isinstance(value, (tuple, list, set, frozenset)):
        return sys.getsizeof(value) + sum(size_of(item) for item in value)
    if isinstance(value, dict):
        return sys.getsizeof(value) + sum(size_of(k) + size_of(v) for k, v in value.items())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return sys.getsizeof(value) + sum(size_of(getattr(value, f.name)) for f in dataclasses.fields(value))
    slots = getattr(type(value), "__slots__", ())
    if slots:
        return sys.getsizeof(value) + sum(size_of(getattr(value, name, None)) for name in slots)
    return sys.getsizeof(value)


class _Store:
    """Every cached function's entries in one order of use, and the bytes they hold."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.held = 0
        self.entries: OrderedDict[tuple, tuple[object, int]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple) -> tuple[bool, object]:
        with self.lock:
            entry = self.entries.get(key)
            if entry is None:
                return False, None
            self.entries.move_to_end(key)
            return True, entry[0]

    def put(self, key: tuple, value: object) -> None:
        weight = size_of(value) + ENTRY_BYTES
        with self.lock:
            if key in self.entries or weight > self.budget:
                return  # drawn meanwhile (a nested call), or too big to keep at all
            self.entries[key] = (value, weight)
            self.held += weight
            self._fit()

    def resize(self, budget: int) -> None:
        with self.lock:
            self.budget = budget
            self._fit()

    def _fit(self) -> None:
        """Drop the least recently used entries until the rest fit the budget (lock held)."""
        while self.held > self.budget and self.entries:
            _, (_, dropped) = self.entries.popitem(last=False)
            self.held -= dropped

    def drop(self, owner: object) -> None:
        with self.lock:
            for key in [key for key in self.entries if key[0] is owner]:
                self.held -= self.entries.pop(key)[1]

    def figures(self, owner: object) -> tuple[int, int]:
        with self.lock:
            weights = [weight for key, (_, weight) in self.entries.items() if key[0] is owner]
        return len(weights), sum(weights)


_STORE = _Store(DEFAULT_BUDGET_MB * 1024 * 1024)


def cached(function: Callable[P, R]) -> Callable[P, R]:
    """``function``'s results kept under the process's budget (arguments hashable, as for lru_cache).

    The wrapper has ``cache_clear()`` and ``cache_info()`` as an ``lru_cache`` wrapper does.
    """
    owner = object()  # this function's mark in the shared keys
    counts = {"hits": 0, "misses": 0}

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        key = (owner, args, tuple(sorted(kwargs.items()))) if kwargs else (owner, args)
        found, value = _STORE.get(key)
        if found:
            counts["hits"] += 1
            return value  # type: ignore[return-value]
        counts["misses"] += 1
        value = function(*args, **kwargs)
        _STORE.put(key, value)
        return value

    def cache_info() -> CacheInfo:
        entries, weight = _STORE.figures(owner)
        return CacheInfo(counts["hits"], counts["misses"], entries, weight)

    wrapper.cache_clear = lambda: _STORE.drop(owner)  # type: ignore[attr-defined]
    wrapper.cache_info = cache_info  # type: ignore[attr-defined]
    return wrapper


class Shelf:
    """A cache keyed by hand (``get``/``put``) whose entries count against the same budget."""

    def __init__(self) -> None:
        self._owner = object()

    def get(self, key: object) -> object | None:
        """The value kept for ``key``, or None (it counts as just used)."""
        return _STORE.get((self._owner, key))[1]

    def put(self, key: object, value: object) -> None:
        """Keep ``value`` for ``key`` (the least recently used parts go when over budget)."""
        _STORE.put((self._owner, key), value)


def held() -> tuple[int, int]:
    """How many entries and bytes the process's cached parts hold now."""
    with _STORE.lock:
        return len(_STORE.entries), _STORE.held


def budget() -> int:
    """The process's budget in bytes."""
    return _STORE.budget


def set_budget(size: int) -> None:
    """Set the budget in bytes, dropping the least recently used parts now over it."""
    _STORE.resize(size)
