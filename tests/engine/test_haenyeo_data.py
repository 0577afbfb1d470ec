"""The component data (data/haenyeo/*.json) loads, and broken data fails with a clear message."""

from __future__ import annotations

import copy

import pytest

from engine.base import DataError, load_data
from engine.haenyeo.components import C, build

RAW = {name: load_data("haenyeo", f"{name}.json") for name in ("components", "sea_cards", "score_tiles")}


def broken(**changes):
    """Build the components after ``changes[name](raw)`` edits a copy of each raw file."""
    raw = copy.deepcopy(RAW)
    for name, change in changes.items():
        change(raw[name])
    return build(raw["components"], raw["sea_cards"], raw["score_tiles"])


def test_the_shipped_data_is_valid_and_complete():
    assert build(RAW["components"], RAW["sea_cards"], RAW["score_tiles"]) == C
    assert len(C.shallow_cards) == len(C.deep_cards) == 9
    assert len(C.tiles) == 4 and len(C.rules) == 8
    assert len(C.creatures) == 12 and C.creatures[3] == "turtle"
    assert C.pearl_points[-1] == 90 and len(C.trash) + 1 == len(C.tiles[0].trash)


def test_every_zone_has_several_slots_and_deep_zones_pay_better():
    def items(cards):
        return [sum(len(slot) for slot in row) for _, card in cards for row in card.values()]

    for _, card in (*C.shallow_cards, *C.deep_cards):
        assert all(2 <= len(row) <= C.max_slots for row in card.values())
    shallow, deep = items(C.shallow_cards), items(C.deep_cards)
    assert sum(deep) / len(deep) > 1.5 * sum(shallow) / len(shallow)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"sea_cards": lambda r: r["shallow"][0]["zones"].__setitem__("1", [["conch"]])}, "2 to 4 slots"),
        ({"sea_cards": lambda r: r["deep"][2]["zones"]["7"].__setitem__(0, ["pearl"])}, "unknown item"),
        ({"sea_cards": lambda r: r["deep"][2]["zones"]["7"].__setitem__(0, ["egg", "conch"])}, "2 seafood"),
        ({"sea_cards": lambda r: r.__setitem__("shallow", r["shallow"][:7])}, "at least 8 cards"),
        ({"sea_cards": lambda r: r["deep"][0]["zones"].pop("5")}, "zones 5-10"),
        ({"components": lambda r: r["pearl_track"].reverse()}, "must not decrease"),
        ({"components": lambda r: r.__setitem__("pearl_track", [])}, "1 to 20 spaces"),
        ({"components": lambda r: r["pearl_track"][0].__setitem__("points", -15)}, "whole number"),
        ({"components": lambda r: r["pearl_track"][4].__setitem__("bonus", "pearl")}, "unknown pearl bonus"),
        ({"components": lambda r: r["seafood"][0].__setitem__("track", 0)}, "whole number"),
        ({"components": lambda r: r["diving_cards"].pop()}, "12 diving cards"),
        ({"components": lambda r: r["diving_cards"][1].__setitem__("creature", "turtle")}, "creature"),
        ({"components": lambda r: r["npc"].__setitem__("reshuffle_after", [6])}, "runs out"),
        ({"components": lambda r: r.pop("rounds")}, "missing or malformed"),
        ({"score_tiles": lambda r: r["tiles"].pop()}, "4 score tiles"),
        ({"score_tiles": lambda r: r["tiles"][0]["rounds"]["3"].append("most_pearls")}, "unknown rule"),
        ({"score_tiles": lambda r: r["tiles"][1]["trash"].pop()}, "trash table"),
        ({"score_tiles": lambda r: r["rules"]["conch_each"].__setitem__("kind", "bonus")}, "unknown kind"),
    ],
)
def test_broken_data_is_refused_with_a_clear_message(changes, message):
    with pytest.raises(DataError, match=message) as error:
        broken(**changes)
    assert "data/haenyeo/" in str(error.value)
