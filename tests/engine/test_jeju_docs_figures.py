"""Every figure the Jeju Island docs quote about the components, checked against data/jeju/ (issue #40).

`docs/rules/jeju.md` once said "13–16 of the 32 cards name each type" while the data has 11–13 (13–16
was the count of spaces). Each test reads the sentence as the docs print it, so a change to the
data that the docs do not follow (or the other way round) fails here.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from engine.base import load_data

ROOT = Path(__file__).resolve().parents[2]
DOCS = " ".join((ROOT / "docs" / "rules" / "jeju.md").read_text(encoding="utf-8").split())
RULES = " ".join((ROOT / "data" / "rules" / "jeju.md").read_text(encoding="utf-8").split())
TILES = load_data("jeju", "tiles.json")
CARDS = load_data("jeju", "cards.json")["cards"]
NAMED = [k["key"] for k in TILES["tile_types"] if k["key"] != TILES["joker"]]
WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "thirteen": 13}


def quoted(pattern: str, text: str = DOCS) -> re.Match:
    """The docs' sentence (whitespace folded); fails the test when the docs no longer say it."""
    found = re.search(pattern, text)
    assert found, f"the docs no longer say {pattern!r}"
    return found


def cards_naming(key: str) -> int:
    return sum(1 for card in CARDS if key in card["cost"])


def spaces(key: str) -> int:
    return sum(card["cost"].count(key) for card in CARDS)


def test_how_many_cards_name_each_type():
    found = quoted(r"\((\d+)–(\d+) of the (\d+) cards name each type: ([^;)]*)")
    low, high, total = int(found[1]), int(found[2]), int(found[3])
    counts = {key: cards_naming(key) for key in NAMED}
    assert (low, high, total) == (min(counts.values()), max(counts.values()), len(CARDS))
    assert _listed(found[4]) == counts


def test_how_many_spaces_name_each_type():
    found = quoted(
        r"Over the deck: (.*?), and there are (\d+) `\?` spaces: (\d+) spaces, ([\d.]+) tiles a card"
    )
    listed = _listed(found[1].replace(" is named", "").replace(" times", ""))
    assert listed == {key: spaces(key) for key in NAMED}
    assert int(found[2]) == spaces("?")
    every = sum(len(card["cost"]) for card in CARDS)
    assert int(found[3]) == every and float(found[4]) == every / len(CARDS)


def _listed(text: str) -> dict[str, int]:
    """'orange, mountain and pig 13, fish and cactus 12, pony 11' as {key: number}."""
    out: dict[str, int] = {}
    for part in re.findall(r"([a-z ,]+?) (\d+)(?:,|$)", text):
        for key in re.split(r", | and ", part[0].strip(" ,")):
            out[key.strip()] = int(part[1])
    return out


def _shape(card: dict) -> tuple:
    named = Counter(k for k in card["cost"] if k != "?")
    return (sorted(named.values(), reverse=True), card["cost"].count("?"))


SHAPES = {
    "2 named + `?`": ([1, 1], 1),
    "2 of one type + 1 named": ([2, 1], 0),
    "3 named + `?`": ([1, 1, 1], 1),
    "2 of one type + 2 named": ([2, 1, 1], 0),
    "4 named + `?`": ([1, 1, 1, 1], 1),
}


@pytest.mark.parametrize("cost", list(SHAPES))
def test_the_cost_table_counts_the_plain_cards(cost):
    found = quoted(r"\| " + re.escape(cost) + r" \| (\d+) \| (\d+) \|")
    plain = [c for c in CARDS if not c.get("effect") and _shape(c) == SHAPES[cost]]
    assert int(found[2]) == len(plain) and {c["points"] for c in plain} == {int(found[1])}


def test_the_cost_table_counts_the_effect_cards():
    by = Counter(c.get("effect") for c in CARDS)
    found = quoted(
        r"\| Everlasting: 2 of its own type \+ 1 named \+ `\?` \| (\d+) \| (\d+) \(one per tile type\) \|"
    )
    ever = [c for c in CARDS if c.get("effect") == "everlasting"]
    assert int(found[2]) == by["everlasting"] == len(NAMED) and {c["points"] for c in ever} == {int(found[1])}
    assert all(_shape(c) == ([2, 1], 1) and c["cost"].count(c["everlasting"]) == 2 for c in ever)
    found = quoted(
        r"\| Instant Harubang: 2 named \+ `\?` / 3 named \+ `\?` \| (\d+) / (\d+) \| (\d+) / (\d+) \|"
    )
    harubang = Counter(_shape(c)[0].__len__() for c in CARDS if c.get("effect") == "harubang")
    assert (harubang[2], harubang[3]) == (int(found[3]), int(found[4]))
    points = {len(_shape(c)[0]): c["points"] for c in CARDS if c.get("effect") == "harubang"}
    assert (points[2], points[3]) == (int(found[1]), int(found[2]))
    found = quoted(r"\| Card Refresh: 2 named \+ `\?` \| (\d+) \| (\d+) \|")
    refresh = [c for c in CARDS if c.get("effect") == "refresh"]
    assert len(refresh) == int(found[2]) and {c["points"] for c in refresh} == {int(found[1])}
    assert all(_shape(c) == ([1, 1], 1) for c in refresh)


def test_cards_asking_for_two_of_a_type_and_the_deck_clock():
    found = quoted(r"(\w+) cards do, among them all (\w+) Everlasting cards")
    assert WORDS[found[1].lower()] == sum(
        1 for c in CARDS if max(Counter(c["cost"]).values()) >= 2 and c["cost"].count("?") < 2
    )
    assert WORDS[found[2].lower()] == sum(1 for c in CARDS if c.get("effect") == "everlasting")
    found = quoted(r"more of a type than exist \((\d+)\)")
    assert {t["count"] for t in TILES["tile_types"] if t["key"] != TILES["joker"]} == {int(found[1])}
    found = quoted(r"the (\d+) cards of the deck are the clock")
    assert int(found[1]) == TILES["point_cards"] - TILES["display_size"]
    assert all(c["cost"].count("?") <= 1 for c in CARDS)  # "at most one `?` a card"


def test_stacks_and_the_summary_page():
    found = quoted(
        r"(\d+) tiles on (\d+) locations.*?locations 1 and 2 hold (\d+) tiles and locations 3–6 hold (\d+)"
    )
    total, where = TILES["total_tiles"], TILES["locations"]
    assert (
        (int(found[1]), int(found[2])) == (total, where) == (sum(t["count"] for t in TILES["tile_types"]), 6)
    )
    assert (int(found[3]), int(found[4])) == (-(-total // where), total // where)
    assert sum(int(found[3]) if i < total % where else int(found[4]) for i in range(where)) == total
    found = quoted(
        r"The (\d+) cards\*\* cost (\d+) to (\d+) tiles and are worth (\d+) to (\d+) points.*?"
        r"(\d+) Everlasting cards \(one per tile type but Haenyeo, (\d+) points each, costing (\d+) of their "
        r"own tile\), (\d+) Instant Harubang and (\d+) Card Refresh",
        RULES,
    )
    sizes = [len(c["cost"]) for c in CARDS]
    worth = [c["points"] for c in CARDS]
    effect = Counter(c.get("effect") for c in CARDS)
    ever = [c for c in CARDS if c.get("effect") == "everlasting"]
    assert [int(x) for x in found.groups()] == [
        len(CARDS),
        min(sizes),
        max(sizes),
        min(worth),
        max(worth),
        effect["everlasting"],
        *{c["points"] for c in ever},
        *{c["cost"].count(c["everlasting"]) for c in ever},
        effect["harubang"],
        effect["refresh"],
    ]
