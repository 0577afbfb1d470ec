"""The Scoring Reference, the pearl track, the trash table and the end-of-game ranking."""

from __future__ import annotations

import random

import pytest

import engine
import i18n
from engine.haenyeo.components import C
from engine.haenyeo.scoring import (
    egg_points,
    final_breakdown,
    pearl_points,
    round_rules,
    rule_points,
    score_round,
    trash_points,
)

GAME = engine.get("haenyeo")
CONCH, ABALONE, MUSTARD, URCHIN, OCTOPUS = range(5)


def sheet(conch=0, abalone=0, mustard=0, urchin=0, octopus=0) -> tuple[int, ...]:
    return (conch, abalone, mustard, urchin, octopus)


def points(rule: str, mine, *others) -> int:
    return rule_points(C.rules[rule], mine, [mine, *others])


def test_conch_shells_three_points_each():
    assert points("conch_each", sheet(conch=5)) == 15
    assert points("conch_each", sheet()) == 0


def test_abalone_and_sea_urchin_sets_six_points_per_set():
    assert points("abalone_urchin_sets", sheet(abalone=3, urchin=5)) == 18
    assert points("abalone_urchin_sets", sheet(abalone=4)) == 0


def test_sea_mustard_times_abalone():
    assert points("mustard_times_abalone", sheet(mustard=4, abalone=3)) == 12
    assert points("mustard_times_abalone", sheet(mustard=4)) == 0


def test_most_sea_urchins_fifteen_shared_if_tied():
    a, b, c = sheet(urchin=4), sheet(urchin=4), sheet(urchin=2)
    assert [points("most_urchin", x, *[y for y in (a, b, c) if y is not x]) for x in (a, b, c)] == [15, 15, 0]
    # Nobody has "the most" sea urchins with none at all.
    assert points("most_urchin", sheet(), sheet()) == 0


def test_fewest_conch_and_sea_mustard_sets_shared_if_tied():
    a, b, c = sheet(conch=3, mustard=1), sheet(conch=1, mustard=5), sheet(conch=2, mustard=2)
    everyone = [a, b, c]
    assert [rule_points(C.rules["fewest_conch_mustard_sets"], x, everyone) for x in everyone] == [15, 15, 0]


def test_fewest_octopus_shared_if_tied_and_zero_counts():
    everyone = [sheet(octopus=0), sheet(octopus=0), sheet(octopus=1)]
    assert [rule_points(C.rules["fewest_octopus"], x, everyone) for x in everyone] == [15, 15, 0]


@pytest.mark.parametrize(("sets", "expected"), [(0, 0), (1, 10), (2, 20), (3, 30), (4, 40), (7, 40)])
def test_sets_of_mustard_conch_abalone_octopus(sets, expected):
    mine = sheet(conch=sets, abalone=sets + 1, mustard=sets, octopus=sets + 3)
    assert points("four_kind_sets", mine) == expected


@pytest.mark.parametrize(
    ("conch", "expected"), [(0, 0), (1, 0), (2, 5), (3, 5), (4, 10), (5, 10), (6, 15), (8, 25), (12, 25)]
)
def test_conch_sets_by_count(conch, expected):
    assert points("conch_ladder", sheet(conch=conch)) == expected


def test_every_score_tile_scores_after_rounds_3_6_and_8_with_each_rule_at_least_once():
    for tile in C.tiles:
        assert sorted(tile.rounds) == [3, 6, 8]
        used = {key for keys in tile.rounds.values() for key in keys}
        assert used == set(C.rules)


def test_round_scoring_sums_the_tiles_rules():
    tile = C.tiles[0]  # Spring Tide: round 3 = conch each, most urchins, fewest octopus, conch sets
    food = [sheet(conch=2, urchin=3, octopus=1), sheet(conch=1, urchin=1, octopus=0)]
    result = score_round(tile, 3, food)
    assert [sum(p for _, p in lines) for lines in result] == [6 + 15 + 0 + 5, 3 + 0 + 15 + 0]
    assert score_round(tile, 4, food) == [[], []]


def test_round_scoring_gives_every_seat_what_its_rules_give_it_among_the_table():
    """`score_round` finds the table's most and fewest once per rule: every seat still scores
    exactly `rule_points` of its own sheet among everyone's, at tables of one to five."""
    rng = random.Random(39)
    for tile in C.tiles:
        for round_no in C.scoring_rounds:
            for _ in range(200):
                food = [tuple(rng.choice((0, 0, 1, 2, rng.randint(0, track))) for track in C.tracks)]
                others = rng.randint(0, 4)
                food += [
                    rng.choice(food) if rng.random() < 0.3 else sheet(*rng.choices(range(4), k=5))
                    for _ in range(others)
                ]
                expected = [
                    [(rule.key, rule_points(rule, mine, food)) for rule in round_rules(tile, round_no)]
                    for mine in food
                ]
                assert score_round(tile, round_no, food) == expected


def test_pearl_track_is_not_cumulative():
    """Rulebook: "Pearl points do NOT accumulate. Only the score at your rightmost marked space counts."

    Spaces 1-3 score nothing (see test_pearl_track_makes_every_printed_figure_true).
    """
    assert [pearl_points(n) for n in range(10)] == [0, 0, 0, 0, 15, 30, 45, 60, 75, 90]


def test_pearl_track_makes_every_printed_figure_true():
    """Rulebook: "Pearl track: 15 · 30 (trash bonus) · 45 · 60 (×2 seafood) · 75 (trash bonus) · ...
    Pearl scoring: 5 pearls = 30 pts · 9+ pearls = 90 pts".

    15 points a space from the 4th pearl; the first three spaces are blank (0 points, no bonus).
    """
    # 5 pearls = 30 pts; 9+ pearls = 90 pts (a 10th pearl marks nothing: the track has 9 spaces).
    assert pearl_points(5) == 30 and pearl_points(9) == 90 and len(C.pearl_points) == 9
    # The listing 15 · 30 · 45 · 60 · 75 · ... is the track from the 4th space on.
    assert C.pearl_points[3:8] == (15, 30, 45, 60, 75)
    assert C.pearl_points[:3] == (0, 0, 0)
    assert C.pearl_bonus == (None, None, None, None, "trash", None, "seafood2", "trash", None)


def test_trash_by_number_of_types():
    table = {0: 0, 1: 0, 2: 10, 3: 15, 4: 20, 5: 30, 6: 40, 7: 55, 8: 70, 9: 90, 10: 90}
    for count, expected in table.items():
        assert trash_points(C.tiles[0], (1 << count) - 1) == expected


def test_unused_turtle_eggs_one_point_each():
    assert egg_points(5, 3) == 2


def test_the_rulebooks_score_example_adds_up_to_260():
    """Rulebook: "Round 3: 35 + Round 6: 45 + Round 8: 78 + Turtle eggs: 2 + Trash: 55 + Pearls: 45 = 260".

    Trash 55 = 7 types; Pearls 45 = 6 pearls on the track (45 is the 6th space).
    """
    seven_types = (1 << 7) - 1
    breakdown = final_breakdown(C.tiles[0], (35, 45, 78), eggs=4, used=2, pearls=6, trash_mask=seven_types)
    assert breakdown == {
        "round3": 35,
        "round6": 45,
        "round8": 78,
        "turtle_eggs": 2,
        "trash": 55,
        "pearls": 45,
        "total": 260,
    }


def ended(scores, trash_masks):
    state = GAME.new(len(scores), 3).copy()
    state.phase = "end"
    state.round = 8
    state.scores = tuple(scores)
    state.trash = tuple(trash_masks)
    return state


def test_highest_total_wins():
    result = GAME.result(ended([(10, 20, 30), (5, 5, 5), (0, 0, 0)], [0, 0, 0]))
    assert result.scores == (60, 15, 0)
    assert result.ranking == (1, 2, 3) and result.winners == {0}


def test_tie_goes_to_the_higher_trash_score():
    # 40 + trash 10 (2 types) against 35 + trash 15 (3 types): both 50.
    result = GAME.result(ended([(10, 10, 20), (10, 10, 15)], [0b11, 0b111]))
    assert result.scores == (50, 50)
    assert result.winners == {1} and result.ranking == (2, 1)
    assert i18n.english(result.notes[0]) == "Tied on points: the higher trash score wins."


def test_still_tied_the_victory_is_shared():
    result = GAME.result(ended([(10, 10, 20), (10, 10, 20), (1, 1, 1)], [0b11, 0b1100, 0]))
    assert result.winners == {0, 1} and result.ranking == (1, 1, 3)
    notes = tuple(i18n.english(n) for n in result.notes)
    assert notes[0] == "Tied on points and trash: the victory is shared."  # then what the table decided
    assert GAME.view(ended([(1, 1, 1), (2, 2, 2)], [0, 0]), None)["result"]["winners"] == [1]


def test_no_result_while_the_game_runs():
    assert GAME.result(GAME.new(3, 1)) is None
