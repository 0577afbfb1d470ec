"""Jeju Island components (rulebook: Contents), read from ``data/jeju/`` once and validated.

Tiles are small ints: the index of their type in ``data/jeju/tiles.json`` (the
joker, the Haenyeo diver, is the last type). Point cards are `Card` records
keyed by their printed id.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import i18n
from engine.base import DataError, load_data

GAME_KEY = "jeju"
EFFECTS = ("harubang", "refresh", "everlasting")


@dataclass(frozen=True)
class TileType:
    """One of the seven Jeju tile types."""

    index: int
    key: str
    name: str
    count: int


@dataclass(frozen=True)
class Card:
    """One point card: "the type and number of tiles needed for the card, a point value, and
    (on some cards) a special effect".

    ``need`` counts the specific tiles per tile index (a card may ask for two or more
    of one type); ``wild`` is the number of ``?`` spaces ("any tile can be used").
    ``everlasting`` is the tile index an Everlasting card names, else -1.
    """

    id: int
    cost: tuple[str, ...]
    need: tuple[int, ...]
    wild: int
    points: int
    effect: str | None
    everlasting: int
    types: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description, as views show it."""
        return {
            "id": self.id,
            "cost": list(self.cost),
            "points": self.points,
            "effect": self.effect,
            "everlasting": TILES[self.everlasting].key if self.everlasting >= 0 else None,
            "text": card_text(self),
            "say": card_say(self),
        }


def _fail(message: str) -> DataError:
    return DataError(f"data/jeju: {message}")


def _int(value: Any, what: str, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise _fail(f"{what} must be an integer >= {low}, got {value!r}")
    return value


def _load_tiles(raw: Any) -> tuple[tuple[TileType, ...], dict[str, Any]]:
    if not isinstance(raw, dict):
        raise _fail("tiles.json must hold an object")
    types = raw.get("tile_types")
    if not isinstance(types, list) or not types:
        raise _fail("tiles.json needs a non-empty tile_types list")
    tiles = []
    for index, entry in enumerate(types):
        if not isinstance(entry, dict) or not isinstance(entry.get("key"), str) or not entry["key"]:
            raise _fail(f"tile type #{index} needs a key")
        if not isinstance(entry.get("name"), str) or not entry["name"]:
            raise _fail(f"tile type {entry['key']} needs a name")
        count = _int(entry.get("count"), f"tile type {entry['key']} count", 1)
        tiles.append(TileType(index, entry["key"], entry["name"], count))
    keys = [t.key for t in tiles]
    if len(set(keys)) != len(keys) or "?" in keys:
        raise _fail("tile type keys must be unique and not '?'")
    if raw.get("joker") != keys[-1]:
        raise _fail("the joker tile type must be named in 'joker' and listed last")
    board = {
        name: _int(raw.get(name), f"tiles.json {name}", 1)
        for name in (
            "total_tiles",
            "locations",
            "neutral_tokens",
            "tokens_per_seat",
            "setup_spot_limit",
            "display_size",
            "point_cards",
            "leftover_tiles_per_point",
        )
    }
    if sum(t.count for t in tiles) != board["total_tiles"]:
        raise _fail(f"tile counts add up to {sum(t.count for t in tiles)}, not {board['total_tiles']}")
    if board["neutral_tokens"] != board["locations"]:
        raise _fail("there must be one neutral token per location")
    if board["total_tiles"] < board["locations"] * 2:
        raise _fail("too few tiles for the board")
    return tuple(tiles), board


def _load_cards(raw: Any, tiles: tuple[TileType, ...], board: dict[str, int]) -> dict[int, Card]:
    if not isinstance(raw, dict) or not isinstance(raw.get("cards"), list):
        raise _fail("cards.json must hold an object with a cards list")
    index = {t.key: t.index for t in tiles}
    joker = len(tiles) - 1
    cards: dict[int, Card] = {}
    for entry in raw["cards"]:
        if not isinstance(entry, dict):
            raise _fail("every card must be an object")
        card_id = _int(entry.get("id"), "card id", 1)
        if card_id in cards:
            raise _fail(f"card id {card_id} appears twice")
        cost = entry.get("cost")
        if not isinstance(cost, list) or not cost:
            raise _fail(f"card {card_id} needs a non-empty cost list")
        need = [0] * len(tiles)
        wild = 0
        for space in cost:
            if space == "?":
                wild += 1
            elif space in index and index[space] != joker:
                need[index[space]] += 1
            else:
                raise _fail(f"card {card_id} cost names unknown or joker tile {space!r}")
        for tile, count in enumerate(need):
            if count > tiles[tile].count:
                raise _fail(
                    f"card {card_id} needs {count} {tiles[tile].key} tiles but only {tiles[tile].count} exist"
                )
        points = _int(entry.get("points"), f"card {card_id} points")
        effect = entry.get("effect")
        if effect is not None and effect not in EFFECTS:
            raise _fail(f"card {card_id} has unknown effect {effect!r}")
        everlasting = -1
        if effect == "everlasting":
            named = entry.get("everlasting")
            if named not in index or index[named] == joker:
                raise _fail(f"Everlasting card {card_id} must name a non-joker tile type")
            everlasting = index[named]
        elif "everlasting" in entry:
            raise _fail(f"card {card_id} names an everlasting tile but has effect {effect!r}")
        types = tuple(t for t, n in enumerate(need) if n)
        cards[card_id] = Card(card_id, tuple(cost), tuple(need), wild, points, effect, everlasting, types)
    lasting = {c.everlasting for c in cards.values() if c.everlasting >= 0}
    for card in cards.values():
        # Everlasting: "without having to give up one of this particular tile" - one per type.
        paid = card.wild + sum(n - (t in lasting) for t, n in enumerate(card.need) if n)
        if paid < 1:
            raise _fail(f"card {card.id} would cost nothing to a seat holding the Everlasting cards")
    if len(cards) != board["point_cards"]:
        raise _fail(f"cards.json holds {len(cards)} cards, not {board['point_cards']}")
    if len(cards) <= board["display_size"]:
        raise _fail("the deck must hold more cards than the display")
    return cards


#: The short tile words texts use (a tile type's key, capitalized), and "any" for a ``?`` space:
#: marked here for the catalog, said with ``term(...)``/``t(...)``.
TILE_WORDS = (
    i18n.N_("Orange"),
    i18n.N_("Cactus"),
    i18n.N_("Mountain"),
    i18n.N_("Fish"),
    i18n.N_("Pony"),
    i18n.N_("Pig"),
    i18n.N_("Haenyeo"),
    i18n.N_("any"),
)


def tile_word(key: str) -> str:
    """A tile key's short word, as texts use it: ``"orange"`` -> ``"Orange"``, ``"?"`` -> ``"any"``."""
    return "any" if key == "?" else key.capitalize()


def tile_count(count: int, word: str) -> i18n.Msg:
    """``"2 Orange"`` as a message (``word`` a `tile_word`)."""
    return i18n.say("{count} {tile}", count=count, tile=i18n.term(word))


def plus(parts: list) -> i18n.Msg:
    """Messages (or words) joined with " + " ("Orange + 2 Fish"), as one message."""
    said = [part if isinstance(part, dict) else i18n.term(part) for part in parts]
    return i18n.chain(said, i18n.N_("{first} + {rest}"))


def card_say(card: Card) -> i18n.Msg:
    """The card in words as a message: points, cost and effect (`card_text` is its English)."""
    counts: dict[str, int] = {}
    for space in card.cost:
        counts[space] = counts.get(space, 0) + 1
    names = [
        i18n.term(tile_word(space)) if n == 1 else tile_count(n, tile_word(space))
        for space, n in counts.items()
    ]
    text = i18n.say_plural("{count} pt for {cost}", "{count} pts for {cost}", card.points, cost=plus(names))
    if card.effect == "harubang":
        return i18n.say("{card}, Instant Harubang", card=text)
    if card.effect == "refresh":
        return i18n.say("{card}, Card Refresh", card=text)
    if card.effect == "everlasting":
        word = i18n.term(tile_word(TILES[card.everlasting].key))
        return i18n.say("{card}, Everlasting {tile}", card=text, tile=word)
    return text


@lru_cache(maxsize=256)
def card_text(card: Card) -> str:
    """The card in words: points, cost and effect, e.g. "4 pts for 2 Orange + Fish"."""
    return i18n.english(card_say(card))


TILES, BOARD = _load_tiles(load_data(GAME_KEY, "tiles.json"))
TILE_BY_KEY = {t.key: t for t in TILES}
TILE_LABELS = tuple(tile_word(t.key) for t in TILES)
NTYPES = len(TILES)
JOKER = NTYPES - 1
CARDS = _load_cards(load_data(GAME_KEY, "cards.json"), TILES, BOARD)
CARD_IDS = tuple(sorted(CARDS))
LOCATIONS = BOARD["locations"]
NEUTRAL = -1
