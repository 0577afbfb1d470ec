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
    assert all(c.points >= 1 and 3 <= len(c.cost) <= 5 and c.wild <= 2 for c in cards.values())
    # Some cards ask for two tiles of one type (point 4 of issue #16).
    assert sum(1 for c in cards.values() if max(c.need) == 2) >= 4


def test_no_card_text_is_the_start_of_another():
    """Texts name the cards in events and labels; the secrecy audit looks for a deck card's text."""
    texts = [components.card_text(c) for c in load().values()]
    assert len(set(texts)) == len(texts)
    assert not [(a, b) for a in texts for b in texts if a != b and b.startswith(a)]


def test_every_payment_list_fits_the_pay_menus():
    """However rich the hand, a card's distinct payments fit in four menus of 25 (one more for Back)."""
    from engine.jeju import rules
    from engine.jeju.game import payment_groups

    for rich in ((3, 3, 3, 3, 3, 3, 4), (2, 2, 2, 2, 2, 2, 6), (4, 4, 4, 4, 4, 4, 3)):
        for card_id in load():
            options = rules.payments(card_id, rich, (0,) * 7)
            groups = payment_groups(options)
            assert options and len(options) <= 100 and len(set(groups.values())) <= 4
            assert all(list(groups.values()).count(name) <= 25 for name in groups.values())


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
        (edited(CARDS_RAW, lambda d: d["cards"][0].update(cost=["orange"] * 12)), "only 11"),
        (edited(CARDS_RAW, lambda d: d["cards"][0].update(cost=["orange", "cactus"])), "cost nothing"),
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
