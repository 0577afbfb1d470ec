"""Reef & Ruins component data: the shipped files load, and broken files fail with a clear DataError."""

from __future__ import annotations

import copy

import pytest

from engine.base import DataError, load_data
from engine.reef import components

REAL = {
    name: load_data("reef", name)
    for name in ("ruins.json", "enchantments.json", "reefs.json", "pearls.json", "tracker.json", "sheet.json")
}
LOADERS = {
    "ruins.json": components._load_ruins,
    "enchantments.json": components._load_sections,
    "reefs.json": components._load_reefs,
    "pearls.json": components._load_pearls,
    "tracker.json": components._load_tracker,
    "sheet.json": components._load_sheet,
}


def load_with(monkeypatch, name, data):
    monkeypatch.setattr(components, "load_data", lambda _key, _name: data)
    return LOADERS[name]()


def broken(name, change):
    data = copy.deepcopy(REAL[name])
    change(data)
    return data


def test_shipped_data_loads_and_matches_the_rulebook():
    assert [r.rule for r in components.RUINS] == list(components.RULES)
    assert components.RUINS[1].name == "Mariner's Misfortune"  # named in the play example
    pyramid = components.RUINS[5]
    assert pyramid.row_coins[-1] == 18 and pyramid.row_coins[1] == 6  # the rulebook's pyramid example
    mults = {sp.multiplier for sec in components.SECTIONS for sp in sec.spaces}
    assert {2, 3, 4, 5} <= mults  # "x2-x5 End Game Multiplier"
    assert components.ROUNDS == 18
    assert set(components.TRACKER) == {"sunrise", "moonrise"}
    start = components.BARRIER.start
    near = [start - components.BARRIER.cols, start - 1, start + 1, start + components.BARRIER.cols]
    assert sorted(components.BARRIER.values[c] for c in near) == [2, 3, 5, 6]
    kinds = {p.kind for p in components.PEARLS}
    assert kinds == {"die", "coins", "enchantment"}
    assert components.LUCKY_COINS == 2


@pytest.mark.parametrize(
    ("name", "change", "words"),
    [
        ("ruins.json", lambda d: d["ruins"].pop(), "six ruins"),
        ("ruins.json", lambda d: d["ruins"][0].update(rule="odds"), "must use rule"),
        ("ruins.json", lambda d: d["ruins"][5].update(rows=[4, 3, 3, 1]), "shrink by one"),
        ("ruins.json", lambda d: d["ruins"][0].update(row_coins=[0, 9, 4, 15]), "never decrease"),
        ("ruins.json", lambda d: d["ruins"][3].update(column_sums=[4, 7, 6, 10]), "cannot be made"),
        ("ruins.json", lambda d: d["ruins"][2].update(reach_coins=[0, 1]), "entries"),
        ("enchantments.json", lambda d: d["sections"][0]["spaces"][0].update(boon="x9"), "unknown boon"),
        ("enchantments.json", lambda d: d["sections"][1].update(sum=5), "same sum"),
        ("enchantments.json", lambda d: d["sections"][0]["spaces"][0].update(coins=-1), "at least 0"),
        ("reefs.json", lambda d: d["bewitching-barrier"]["values"][0].__setitem__(0, 7), "not 1-6"),
        ("reefs.json", lambda d: d["bewitching-barrier"].update(start=[0, 0]), "Start space"),
        (
            "reefs.json",
            lambda d: d["arcane-atoll"]["textures"].append({"name": "x", "cells": [[0, 1]]}),
            "two textures",
        ),
        (
            "reefs.json",
            lambda d: d["arcane-atoll"]["textures"].append(
                {"name": "huge", "cells": [[3, 0], [3, 1], [4, 0], [4, 1], [3, 2], [2, 2]]}
            ),
            "cannot be covered",
        ),
        ("reefs.json", lambda d: d["arcane-atoll"]["shapes"].pop("6"), "1 to 6"),
        ("pearls.json", lambda d: d["bonuses"].append({"type": "treasure"}), "unknown type"),
        ("tracker.json", lambda d: d["sides"].update(third={"boons": {}}), "two sides"),
        (
            "tracker.json",
            lambda d: d["sides"]["sunrise"]["boons"].update({"2": {"type": "kraken"}}),
            "unknown",
        ),
        (
            "tracker.json",
            lambda d: d["sides"]["sunrise"]["boons"].update({"40": {"type": "pearl"}}),
            "at most",
        ),
        ("sheet.json", lambda d: d["solo_ratings"][1].update(min=105), "must start at"),
        ("sheet.json", lambda d: d["solo_ratings"][-1].update(max=500), "open-ended"),
    ],
)
def test_broken_data_is_refused_with_a_clear_message(monkeypatch, name, change, words):
    with pytest.raises(DataError) as error:
        load_with(monkeypatch, name, broken(name, change))
    assert words in str(error.value)
    assert name in str(error.value)


def test_a_missing_file_is_a_data_error():
    with pytest.raises(DataError):
        load_data("reef", "no-such-file.json")
