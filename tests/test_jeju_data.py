"""Jeju Island component data: every number in data/jeju/ is checked when it loads."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from engine.base import DataError, load_data
from engine.jeju import components

TILES_RAW = load_data("jeju", "tiles.json")
CARDS_RAW = load_data("jeju", "cards.json")


def load(tiles=None, cards=None):
    """Validate (possibly edited) copies of the two data files."""
    tile_types, board = components._load_tiles(copy.deepcopy(tiles or TILES_RAW))
    return components._load_cards(copy.deepcopy(cards or CARDS_RAW), tile_types, board)


def test_the_shipped_data_loads_and_matches_the_rulebook_contents():
    cards = load()
    assert len(cards) == 32
    assert sum(t.count for t in components.TILES) == 80
    assert components.TILES[components.JOKER].key == "haenyeo"
    effects = Counter(c.effect for c in cards.values())
    assert effects == {None: 19, "everlasting": 6, "harubang": 4, "refresh": 3}
    # Each non-joker tile type is named by exactly one Everlasting card.
    assert sorted(c.everlasting for c in cards.values() if c.effect == "everlasting") == list(range(6))
    assert all(c.points >= 1 and 2 <= len(c.cost) <= 5 and c.wild <= 1 for c in cards.values())


def edited(source, change):
    data = copy.deepcopy(source)
    change(data)
    return data


@pytest.mark.parametrize(
    ("tiles", "message"),
    [
        (edited(TILES_RAW, lambda d: d["tile_types"][0].update(count=12)), "add up to 81"),
        (edited(TILES_RAW, lambda d: d.update(joker="orange")), "joker"),
        (edited(TILES_RAW, lambda d: d["tile_types"][1].update(key="orange")), "unique"),
        (edited(TILES_RAW, lambda d: d.update(display_size=0)), "display_size"),
        (edited(TILES_RAW, lambda d: d.update(neutral_tokens=5)), "neutral token per location"),
        (edited(TILES_RAW, lambda d: d["tile_types"][2].update(count="11")), "count"),
    ],
)
def test_bad_tile_data_is_refused_with_a_clear_message(tiles, message):
    with pytest.raises(DataError, match=message):
        load(tiles=tiles)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (edited(CARDS_RAW, lambda d: d["cards"].pop()), "31 cards"),
        (edited(CARDS_RAW, lambda d: d["cards"][1].update(id=1)), "twice"),
        (edited(CARDS_RAW, lambda d: d["cards"][0].update(cost=["orange", "kimchi"])), "unknown"),
        (edited(CARDS_RAW, lambda d: d["cards"][0].update(cost=["haenyeo", "orange"])), "joker"),
        (edited(CARDS_RAW, lambda d: d["cards"][0].update(cost=["orange", "orange"])), "twice"),
        (edited(CARDS_RAW, lambda d: d["cards"][0].update(cost=[])), "cost"),
        (edited(CARDS_RAW, lambda d: d["cards"][0].update(points=-1)), "points"),
        (edited(CARDS_RAW, lambda d: d["cards"][0].update(effect="teleport")), "effect"),
        (edited(CARDS_RAW, lambda d: d["cards"][19].pop("everlasting")), "Everlasting"),
        (edited(CARDS_RAW, lambda d: d["cards"][0].update(everlasting="pig")), "everlasting"),
    ],
)
def test_bad_card_data_is_refused_with_a_clear_message(cards, message):
    with pytest.raises(DataError, match=message):
        load(cards=cards)
