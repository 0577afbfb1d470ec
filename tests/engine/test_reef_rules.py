"""Reef & Ruins rule scenarios, each tied to a rulebook section."""

from __future__ import annotations

import random

import pytest

import engine
import i18n
from engine.base import IllegalAction
from engine.reef.actions import act
from engine.reef.components import (
    ATOLL,
    BARRIER,
    LOW_VALUE,
    PEARLS,
    RUINS,
    SECTION_BY_SUM,
    SECTIONS,
    TRACKER,
    rating,
)
from engine.reef.scoring import breakdown, lucky_count, multiplier, ruin_coins
from engine.reef.sheet import atoll_orients, barrier_cells, can_write, legal_slots, turns
from engine.reef.state import EMPTY, Sheet

GAME = engine.get("reef")
E = EMPTY


def with_sheets(state, sheets):
    """``state`` with these sheets as the round's start (what reset returns to) and its work."""
    sheets = tuple(sheets)
    return state._replace(sheets=sheets, bases=sheets, starts=sheets)


def round_state(dice=(1, 2, 5), seats=1, board="bewitching-barrier", **sheet_fields):
    """A state in round 1 where seat 0's sheet has the given dice and fields."""
    state = GAME.new(seats, seed=7, options={"reef": board})
    for seat in range(seats):
        state, _ = GAME.apply(state, seat, act("lucky", seat + 1))
    sheet = state.sheets[0]._replace(dice=tuple((v, "hydra", 0, False) for v in dice), **sheet_fields)
    return with_sheets(state, (sheet, *state.sheets[1:]))


def ruin_slots(number, rows):
    """Flat slots of ruin ``number`` from rows of values (None = empty)."""
    return tuple(E if v is None else v for row in rows for v in row)


def play(state, *steps, seat=0):
    for step in steps:
        state, _ = GAME.apply(state, seat, act(*step))
    return state


# ------------------------------------------------------------------- the six ruins


def test_same_rows_need_one_value_and_score_complete_rows():
    ruin = RUINS[0]
    slots = ruin_slots(1, [[4, 4, None], [None, None, None], [2, 2, 2]])
    assert can_write(ruin, slots, 2, 4)
    assert not can_write(ruin, slots, 2, 5)
    assert can_write(ruin, slots, 3, 5)  # rows are not related to each other
    assert ruin_coins(ruin, slots) == ruin.row_coins[1]
    full = ruin_slots(1, [[4, 4, 4], [1, 1, 1], [2, 2, 2]])
    assert ruin_coins(ruin, full) == ruin.row_coins[3]


def test_different_neighbours_must_differ_and_rows_score():
    ruin = RUINS[1]
    slots = ruin_slots(2, [[3, None, 5, None], [None, None, None, None], [None] * 4])
    assert not can_write(ruin, slots, 1, 3)  # next to the 3
    assert not can_write(ruin, slots, 1, 5)  # next to the 5
    assert can_write(ruin, slots, 1, 4)
    assert not can_write(ruin, slots, 4, 3)  # below the 3
    done = ruin_slots(2, [[3, 4, 5, 6], [None] * 4, [None] * 4])
    assert ruin_coins(ruin, done) == ruin.row_coins[1]


def test_plus_minus_one_left_to_right_with_circled_turns():
    ruin = RUINS[2]
    slots = (3, 4, 5, 4) + (E,) * 6
    assert legal_slots(ruin, slots, 3) == [4]
    assert legal_slots(ruin, slots, 5) == [4]
    assert legal_slots(ruin, slots, 6) == []
    assert not can_write(ruin, slots, 6, 3)  # never skip a space
    assert turns(slots) == [2]  # up, up, then down: one circle after the 5
    assert ruin_coins(ruin, slots) == ruin.reach_coins[4]
    full = (1, 2, 1, 2, 3, 4, 5, 4, 3, 2)
    assert turns(full) == [1, 2, 6]
    assert ruin_coins(ruin, full) == ruin.reach_coins[10] + ruin.turn_bonus[3]


def test_odds_and_evens_parity_and_column_sums():
    odds, evens = RUINS[3], RUINS[4]
    empty = (E,) * odds.size
    assert legal_slots(odds, empty, 4) == []
    assert len(legal_slots(odds, empty, 7)) == odds.size  # 6 + 1 with shells is odd
    assert len(legal_slots(evens, empty, 0)) == evens.size  # 1 - 1 with shells is even
    # the rulebook's example: a 1 and a 3 in the first column add up to 4
    assert odds.column_sums[0] == 4
    slots = list(empty)
    slots[odds.columns[0][0]], slots[odds.columns[0][1]] = 1, 3
    assert ruin_coins(odds, tuple(slots)) == odds.column_coins[0]
    row = (1, 3, 5, 7) + (E,) * 4
    assert ruin_coins(odds, row) == odds.row_coins[1]


def test_pyramid_rests_on_lower_values_and_scores_from_the_bottom():
    ruin = RUINS[5]
    base = (5, 3, 6, 4) + (E,) * 6
    second = ruin.rows[1]
    assert can_write(ruin, base, second[0], 3)
    assert not can_write(ruin, base, second[0], 4)  # above 3
    assert can_write(ruin, base, second[1], 3)
    # the rulebook: all filled is 18 coins; one missing on the second row leaves only 6
    full = (5, 3, 6, 4, 3, 3, 4, 2, 3, 1)
    assert ruin_coins(ruin, full) == 18
    assert ruin_coins(ruin, (5, 3, 6, 4, 3, E, 4, E, E, E)) == 6


# ----------------------------------------------------------------------- shells


def test_shells_make_seven_and_zero_but_never_wrap():
    state = round_state(dice=(6, 1, 3), shells=5)
    labels = GAME.legal_actions(state, 0)
    assert act("shell", 0, 1) in labels and act("shell", 1, -1) in labels
    state = play(state, ("shell", 0, 1), ("shell", 1, -1))
    dice = GAME.view(state, 0)["you"]["dice"]
    assert [d["value"] for d in dice] == [7, 0, 3]
    assert act("shell", 1, -1) not in GAME.legal_actions(state, 0)  # no -1 below 0, no wrap to 6
    state = play(state, ("shell", 0, 1))
    assert act("shell", 0, 1) in GAME.legal_actions(state, 0)  # 8 is no cap (issue #40): on to 9
    assert state.sheets[0].shells == 2


def test_no_shells_no_adjusting():
    state = round_state(dice=(6, 1, 3), shells=0)
    assert not [a for a in GAME.legal_actions(state, 0) if a.kind == "shell"]
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, act("shell", 0, -1))


def test_shells_earned_this_round_can_be_spent_this_round():
    state = round_state(dice=(3, 2, 6), shells=0)
    state = play(state, ("pick", 1), ("trade",))
    assert state.sheets[0].shells == 1
    assert act("shell", 0, 1) in GAME.legal_actions(state, 0)


# --------------------------------------------------------------- searching a ruin


def test_search_with_a_die_a_changed_die_or_a_sum():
    state = round_state(dice=(1, 2, 5), shells=1)
    legal = GAME.legal_actions(state, 0)
    assert act("unlock", 2, 0b010) in legal  # a die equal to the ruin
    assert act("unlock", 3, 0b011) in legal  # 1 + 2
    assert act("unlock", 6, 0b101) in legal  # 1 + 5 (María's example)
    assert not [a for a in legal if a.kind == "unlock" and a.a == 4]
    state = play(state, ("shell", 2, -1))  # the 5 becomes a 4
    assert act("unlock", 4, 0b100) in GAME.legal_actions(state, 0)


def test_hydra_dice_go_only_into_the_searched_ruin():
    state = round_state(dice=(1, 2, 5))
    state = play(state, ("unlock", 2, 0b010), ("pick", 0))
    writes = {a.a for a in GAME.legal_actions(state, 0) if a.kind == "write"}
    assert writes == {2}
    # Finley's example: ruin 2, a 1 written there, the 5 crossed out in the reef
    state = play(state, ("write", 2, 0), ("pick", 2))
    five = [a for a in GAME.legal_actions(state, 0) if a.kind == "mark"]
    assert five  # the 5 next to Start
    state = play(state, ("mark", five[0].a), ("confirm",))
    assert state.round == 2
    assert state.bases[0].ruins[1][0] == 1


def test_one_search_or_cast_per_round():
    state = round_state(dice=(3, 3, 3))
    state = play(state, ("unlock", 3, 0b001))
    assert not [a for a in GAME.legal_actions(state, 0) if a.kind in ("unlock", "cast")]


def test_boon_dice_are_written_straight_into_any_ruin():
    state = round_state(dice=(1, 2, 5))
    sheet = state.sheets[0]._replace(dice=(*state.sheets[0].dice, (4, "boon", 0, False)))
    state = with_sheets(state, (sheet,))
    state = play(state, ("pick", 3))
    writes = {a.a for a in GAME.legal_actions(state, 0) if a.kind == "write"}
    assert writes == {1, 2, 3, 5, 6}  # every ruin that takes a 4 (ODDS does not)


# ----------------------------------------------------------------- enchantments


def test_enchantment_needs_two_dice_never_one_die_and_shells():
    section = next(s for s, sec in enumerate(SECTIONS) if sec.total == 6)
    state = round_state(dice=(5, 1, 2), shells=3)
    state = play(state, ("shell", 0, 1))  # the 5 becomes a 6: still only one die
    assert not [a for a in GAME.legal_actions(state, 0) if a.kind == "cast" and a.a == section]
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, act("cast", section, 0b001))
    state = round_state(dice=(5, 1, 2))
    assert act("cast", section, 0b011) in GAME.legal_actions(state, 0)


def test_point3_the_play_example_step_by_step():
    """The rulebook's Play Example and its continuation, move by move, every number as printed.

    Three players (Finley, Deirdre, María) on the Bewitching Barrier, Sunrise side; seed 19
    rolls 1, 2 and 5 in round 1."""
    finley, deirdre, maria = 0, 1, 2
    state = GAME.new(3, seed=19, options={"reef": "bewitching-barrier", "tracker": "sunrise"})
    for seat in (finley, deirdre, maria):
        state, _ = GAME.apply(state, seat, act("lucky", 0))  # lucky numbers left to fate

    # "The Dice Roller advances the Otter Token one space on the round tracker. All players
    # gains the boon shown; in this case two shells to be marked by a circle"
    assert state.round == 1
    assert TRACKER["sunrise"][1].kind == "shells"
    assert [s.shells for s in state.sheets] == [1, 1, 1]  # one circled pair: two shells each

    # "1, 2, and 5 are rolled."
    assert state.dice == (1, 2, 5)
    one, two, five = 0, 1, 2  # the dice by position

    # "Finley chooses Ruin 2 (Mariner's Misfortune Ruins), writes a 1 in that Ruin, then
    # crosses 5 out in the Reef."
    assert GAME.action_label(state, finley, act("unlock", 2, 1 << two)) == (
        "Search ruin 2 (Mariner's Misfortune) with 2"
    )
    five_cell = BARRIER.start + 1  # the 5 right of Start
    assert BARRIER.values[five_cell] == 5
    state = play(state, ("unlock", 2, 1 << two), ("pick", one), ("write", 2, 0), seat=finley)
    state = play(state, ("pick", five), ("mark", five_cell), ("confirm",), seat=finley)

    # "Deirdre adds all three dice to get 8, crosses off the next 8 enchantment and gains
    # 2 shells by circling them."
    eight = SECTION_BY_SUM[8]
    assert SECTIONS[eight].total == 1 + 2 + 5
    state = play(state, ("cast", eight, 0b111), seat=deirdre)
    assert state.sheets[deirdre].ench[eight] == 1  # the first (leftmost) 8 enchantment
    assert state.sheets[deirdre].shells == 2  # the round's pair and the enchantment's pair
    state = play(state, ("confirm",), seat=deirdre)

    # "María adds 1 and 5 to access Ruin 6 and writes a 2 in Ruin 6."
    assert GAME.action_label(state, maria, act("unlock", 6, 1 << one | 1 << five)) == (
        "Search ruin 6 (Pyramid of the Deep) with 1 + 5"
    )
    state = play(state, ("unlock", 6, 1 << one | 1 << five), ("pick", two), ("write", 6, 0), seat=maria)
    state = play(state, ("confirm",), seat=maria)

    # The round is over and every sheet shows exactly that.
    assert state.round == 2
    sheets = GAME.view(state, None)["sheets"]
    assert sheets[finley]["ruins"][1]["rows"][0] == [1, None, None, None]
    assert sheets[finley]["reef"]["marked"][BARRIER.start // BARRIER.cols][BARRIER.start % BARRIER.cols + 1]
    assert sheets[finley]["changed"]["reef"] == [
        [BARRIER.start // BARRIER.cols, BARRIER.start % BARRIER.cols + 1]
    ]
    assert sheets[deirdre]["enchantments"][eight]["crossed"] == 1 and sheets[deirdre]["shells"] == 2
    assert sheets[maria]["ruins"][5]["rows"][0] == [2, None, None, None]
    assert [s["shells"] for s in sheets] == [1, 2, 1]


def test_cast_crosses_the_leftmost_space_and_gains_its_boon_at_once():
    """Rulebook: "Cross off the leftmost avaliable enchantment in the matching section, then get any
    listed boon immediately." (The Play Example's own cast is replayed in
    test_point3_the_play_example_step_by_step.)"""
    six = next(s for s, sec in enumerate(SECTIONS) if sec.total == 6)
    state = round_state(dice=(1, 5, 3), ench=tuple(1 if s == six else 0 for s in range(6)))
    state = play(state, ("cast", six, 0b011))
    sheet = state.sheets[0]
    assert sheet.ench[six] == 2  # the second space, the leftmost still free
    assert SECTIONS[six].spaces[1].boon == "die"
    assert sheet.dice[-1] == (SECTIONS[six].spaces[1].value, "boon", 0, False)  # gained at once


def test_highest_multiplier_counts():
    spaces = SECTIONS[0].spaces
    x2 = next(i for i, sp in enumerate(spaces) if sp.multiplier == 2)
    top = max(sp.multiplier for sp in spaces)
    assert multiplier((x2 + 1, 0, 0, 0, 0, 0), 0) == 2
    assert multiplier((len(spaces), 0, 0, 0, 0, 0), 0) == top
    sheet = Sheet(lucky=0, ruins=(ruin_slots(1, [[4, 4, 4], [None] * 3, [None] * 3]), *Sheet().ruins[1:]))
    plain = breakdown(sheet, "bewitching-barrier")["ruins"]
    boosted = breakdown(sheet._replace(ench=(len(spaces), 0, 0, 0, 0, 0)), "bewitching-barrier")["ruins"]
    assert boosted == plain * top


# ---------------------------------------------------------------- pearl bonuses


def test_pearl_bonus_choices_die_coins_enchantment():
    state = round_state(dice=(1, 2, 5), pending=("pearl",))
    legal = GAME.legal_actions(state, 0)
    assert {a.kind for a in legal} == {"pearl", "reset"}
    die_box = next(i for i, p in enumerate(PEARLS) if p.kind == "die")
    coin_box = next(i for i, p in enumerate(PEARLS) if p.kind == "coins")
    ench_box = next(i for i, p in enumerate(PEARLS) if p.kind == "enchantment")
    after = play(state, ("pearl", die_box))
    assert after.sheets[0].dice[-1] == (PEARLS[die_box].value, "boon", 0, False)
    after = play(state, ("pearl", coin_box))
    assert after.sheets[0].coins == PEARLS[coin_box].value
    after = play(state, ("pearl", ench_box))
    assert after.sheets[0].pending == ("enchant",)
    after = play(after, ("enchant", 3))
    assert after.sheets[0].ench[3] == 1
    assert act("pearl", ench_box) not in GAME.legal_actions(
        play(state, ("pearl", ench_box), ("enchant", 3)), 0
    )


def test_pearl_is_lost_when_every_box_is_crossed_off():
    state = round_state(dice=(1, 2, 5), bonuses=(1 << len(PEARLS)) - 1)
    from engine.reef import rules

    sheet = rules.settle(rules.earn_pearls(state.sheets[0], 1), 0, [])
    assert sheet.pending == () and sheet.pearls_lost == 1


# ----------------------------------------------------------------- the two reefs


def test_barrier_starts_next_to_start_with_2_3_5_6():
    start = BARRIER.start | 0
    reef = 1 << start
    options = {BARRIER.values[c] for v in range(1, 7) for c in barrier_cells(reef, v)}
    assert options == {2, 3, 5, 6}
    assert barrier_cells(reef, 1) == [] and barrier_cells(reef, 4) == []


def test_barrier_marks_spread_from_marked_spaces_and_pay_pearls():
    highlight = min(BARRIER.highlighted, key=lambda c: abs(c - BARRIER.start))
    # mark a path from Start to the highlighted space, then mark it
    state = round_state(dice=(BARRIER.values[highlight], 1, 1))
    r, c = divmod(highlight, BARRIER.cols)
    sr, sc = divmod(BARRIER.start, BARRIER.cols)
    path = [(rr, sc) for rr in range(min(r, sr), max(r, sr) + 1)] + [
        (r, cc) for cc in range(min(c, sc), max(c, sc) + 1)
    ]
    reef = state.sheets[0].reef
    for rr, cc in path:
        cell = rr * BARRIER.cols + cc
        if cell != highlight:
            reef |= 1 << cell
    sheet = state.sheets[0]._replace(reef=reef)
    state = with_sheets(state, (sheet,))
    state = play(state, ("pick", 0), ("mark", highlight))
    assert state.sheets[0].pearls >= BARRIER.pearls_highlight
    assert state.sheets[0].pending == ("pearl",) * state.sheets[0].pearls


def test_barrier_complete_row_pays_a_pearl():
    row = BARRIER.start // BARRIER.cols
    last = row * BARRIER.cols
    reef = BARRIER.row_masks[row] & ~(1 << last)
    state = round_state(dice=(BARRIER.values[last], 1, 1), reef=reef)
    state = play(state, ("pick", 0), ("mark", last))
    assert state.sheets[0].pearls == BARRIER.pearls_row + (
        BARRIER.pearls_highlight if last in BARRIER.highlighted else 0
    )


def test_atoll_shapes_rotate_and_mirror():
    counts = {v: len(o) for v, o in ATOLL.shapes.items()}
    assert counts == {1: 2, 2: 2, 3: 4, 4: 1, 5: 4, 6: 8}


def test_atoll_texture_is_covered_whole_or_not_at_all():
    from engine.reef.components import texture_ok

    cols = ATOLL.cols
    cells = {}
    for cell, t in enumerate(ATOLL.texture_of):
        if t >= 0:
            cells.setdefault(t, []).append(cell)
    groups = [set(v) for _, v in sorted(cells.items())]
    kelp = sorted(cells[ATOLL.texture_names.index("kelp")])  # (0,1), (0,2)
    assert not texture_ok((kelp[0],), ATOLL.texture_of, groups)  # part of a texture
    assert texture_ok(tuple(kelp), ATOLL.texture_of, groups)  # all of it
    assert texture_ok((*kelp, kelp[1] + 1), ATOLL.texture_of, groups)  # overflow to plain reef
    sand = sorted(cells[ATOLL.texture_names.index("sand")])
    assert texture_ok(tuple(sand), ATOLL.texture_of, groups)
    assert not texture_ok((*kelp, sand[0]), ATOLL.texture_of, groups)  # two textures
    # the engine only offers legal placements
    for placements in ATOLL.placements.values():
        for p in placements:
            assert texture_ok(p.cells, ATOLL.texture_of, groups)
    assert cols == 8


def test_atoll_two_step_shape_then_anchor_and_lucky_only_for_shapes():
    state = round_state(dice=(3, 3, 3), board="arcane-atoll")
    state = play(state, ("pick", 0))
    legal = GAME.legal_actions(state, 0)
    shapes = [a for a in legal if a.kind == "shape"]
    assert shapes and act("singles") in legal
    state = play(state, ("shape", shapes[0].a))
    anchors = [a for a in GAME.legal_actions(state, 0) if a.kind == "place"]
    assert anchors
    for a in GAME.legal_actions(state, 0):
        assert len(GAME.action_label(state, 0, a)) <= 80
    groups = {}
    for a in GAME.legal_actions(state, 0):
        groups.setdefault(GAME.action_group(state, 0, a), []).append(a)
    assert max(len(v) for v in groups.values()) <= 25
    state = play(state, ("place", anchors[0].a))
    sheet = state.sheets[0]
    assert sheet.shapes[-1][0] == 3 and not sheet.shapes[-1][1]
    # two single blocks from the next 3: they do not count for the lucky number
    state = play(state, ("pick", 1), ("singles",))
    first = next(a for a in GAME.legal_actions(state, 0) if a.kind == "place")
    state = play(state, ("place", first.a))
    second = next(a for a in GAME.legal_actions(state, 0) if a.kind == "place")
    state = play(state, ("place", second.a))
    sheet = state.sheets[0]._replace(lucky=3)
    assert [s[1] for s in sheet.shapes] == [False, True, True]
    assert lucky_count(sheet, "arcane-atoll") == 1


def test_atoll_complete_row_pays_a_pearl():
    row_mask = ATOLL.row_masks[7]  # bottom row holds the anemone texture (7,3)-(7,5)
    reef = row_mask & ~(0b11 << (7 * ATOLL.cols))  # all but the first two cells
    state = round_state(dice=(1, 2, 2), board="arcane-atoll")
    sheet = state.sheets[0]._replace(reef=reef)
    state = with_sheets(state, (sheet,))
    orients = atoll_orients(reef, 1)
    assert orients
    state = play(state, ("pick", 0))
    flat = next(o for o in orients if ATOLL.shapes[1][o] == ((0, 0), (0, 1)))
    state = play(state, ("shape", flat), ("place", 7 * ATOLL.cols))
    assert state.sheets[0].pearls == ATOLL.pearls_row


# ------------------------------------------------------------------ lucky numbers


def test_lucky_numbers_count_two_coins_in_ruins_and_reef():
    ruins = list(Sheet().ruins)
    ruins[0] = ruin_slots(1, [[5, 5, None], [None] * 3, [None] * 3])
    five = BARRIER.cells_of_value[5][0]
    sheet = Sheet(lucky=5, ruins=tuple(ruins), reef=(1 << BARRIER.start) | (1 << five))
    assert lucky_count(sheet, "bewitching-barrier") == 3
    assert breakdown(sheet, "bewitching-barrier")["lucky"] == 6


# ------------------------------------------------------------- the round itself


def test_confirm_needs_every_die_and_reset_restores_the_round():
    state = round_state(dice=(1, 2, 5))
    assert act("confirm") not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, act("confirm"))
    worked = play(state, ("unlock", 2, 0b010), ("pick", 0), ("write", 2, 0))
    reset = play(worked, ("reset",))
    assert reset.sheets[0] == state.bases[0]


def test_round_ends_only_when_every_seat_confirms_and_work_stays_private():
    state = round_state(dice=(1, 2, 5), seats=2)
    sheet1 = state.sheets[1]._replace(dice=state.sheets[0].dice)
    state = with_sheets(state, (state.sheets[0], sheet1))
    before_other = GAME.view(state, 1)
    before_public = GAME.view(state, None)
    state, events = GAME.apply(state, 0, act("unlock", 2, 0b010))
    assert all(e.get("private") and e["seat"] == 0 for e in events)
    assert GAME.view(state, 1) == before_other
    assert GAME.view(state, None) == before_public
    state = play(state, ("pick", 0), ("write", 2, 0), ("pick", 2), ("trade",), ("confirm",))
    assert state.round == 1 and GAME.to_act(state) == frozenset({1})
    assert GAME.view(state, 1)["sheets"][0]["ruins"][1]["rows"][0][0] is None
    state = play(
        state, ("pick", 0), ("trade",), ("pick", 1), ("trade",), ("pick", 2), ("trade",), ("confirm",), seat=1
    )
    assert state.round == 2
    public = GAME.view(state, None)
    assert public["sheets"][0]["ruins"][1]["rows"][0][0] == 1
    assert public["sheets"][0]["changed"]["ruins"] == [[2, 0]]


def test_not_your_turn_and_garbage_actions_are_refused():
    state = round_state(dice=(1, 2, 5))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 3, act("confirm"))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, act("write", 4, 0))
    with pytest.raises(IllegalAction):
        GAME.load_action({"kind": "explode"})
    with pytest.raises(IllegalAction):
        GAME.load_action({"kind": "pick", "a": "one"})
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, "pick")


# -------------------------------------------------------------------- game end


def _finished(scores):
    state = GAME.new(len(scores), seed=1)
    sheets = tuple(Sheet(lucky=1, coins=s) for s in scores)
    return with_sheets(state, sheets)._replace(phase="finished", lucky=(1,) * len(scores))


def test_hydra_tie_rule_everyone_not_tied_for_the_top_wins():
    result = GAME.result(_finished([30, 30, 12, 20]))
    assert result.winners == frozenset({2, 3})
    assert result.ranking[3] == 1 and result.ranking[2] == 2
    assert GAME.result(_finished([40, 30, 30])).winners == frozenset({0})
    # every seat tied: see test_point6_when_everyone_ties_no_one_wins


@pytest.mark.parametrize(
    ("score", "title"),
    [
        (0, "Hydra Hatchling"),
        (100, "Hydra Hatchling"),
        (101, "Coral Crawler"),
        (125, "Coral Crawler"),
        (126, "Seashell Seeker"),
        (150, "Seashell Seeker"),
        (151, "Reef Ranger"),
        (175, "Reef Ranger"),
        (176, "Wave Whisperer"),
        (400, "Wave Whisperer"),
    ],
)
def test_solo_ratings(score, title):
    assert rating(score).title == title


def test_solo_result_carries_the_rating():
    result = GAME.result(_finished([130]))
    assert result.winners == frozenset({0})
    assert "Seashell Seeker" in i18n.english(result.notes[0])
    view = GAME.view(_finished([130]), None)
    assert view["result"]["ratings"] == ["Seashell Seeker"]


def test_end_game_breakdown_categories():
    ruins = list(Sheet().ruins)
    ruins[5] = (5, 3, 6, 4, 3, 3, 4, 2, 3, 1)
    ench = [0] * 6
    ench[5] = len(SECTIONS[5].spaces)
    sheet = Sheet(lucky=6, ruins=tuple(ruins), ench=tuple(ench), coins=7)
    parts = breakdown(sheet, "bewitching-barrier")
    assert parts["ruins"] == 18 * max(sp.multiplier for sp in SECTIONS[5].spaces)
    assert parts["enchantments"] == sum(sp.coins for sp in SECTIONS[5].spaces)
    assert parts["lucky"] == 2
    assert parts["pearls"] == 7


# ------------------------------------------------- rules fidelity (issue #16), point by point


def test_point1_the_tracker_gives_only_the_four_listed_boons(monkeypatch):
    """Boons: "Roll a die", "Boon Die Value", "2 shells", "Enchantment". "Pearl bonuses are
    gained from the Reef or Enchantments" — never from the round tracker."""
    from engine.base import DataError, load_data
    from engine.reef import components

    for boons in TRACKER.values():
        assert {b.kind for b in boons.values()} <= {"roll", "die", "shells", "enchantment"}
    assert TRACKER["sunrise"][7].kind == "enchantment" and TRACKER["sunrise"][17].kind == "die"
    assert TRACKER["moonrise"][6].kind == "enchantment" and TRACKER["moonrise"][18].kind == "die"
    data = load_data("reef", "tracker.json")
    data["sides"]["sunrise"]["boons"]["7"] = {"type": "pearl"}
    monkeypatch.setattr(components, "load_data", lambda _key, _name: data)
    with pytest.raises(DataError, match="gives no pearls"):
        components._load_tracker()


def _with_dice(state, *dice):
    sheet = state.sheets[0]._replace(dice=(*state.sheets[0].dice, *dice))
    return with_sheets(state, (sheet, *state.sheets[1:]))


def test_point2_roll_a_die_is_written_only_a_boon_die_value_does_more():
    """Rulebook: "Roll a die: Players may write that value directly into any ship Ruin or into their
    Reef." A "Boon Die Value" can be "placed directly into a Ruin, Reef, or turned into shells"
    and "used as you would a Hydra die value"."""
    state = _with_dice(round_state(dice=(1, 2, 5), shells=3), (4, "roll", 0, False))
    rolled = 3
    legal = GAME.legal_actions(state, 0)
    # it opens no ruin and counts toward no enchantment (1 + 4 would open nothing, 4 + 5 = 9 would cast)
    assert not [a for a in legal if a.kind in ("unlock", "cast") and a.b >> rolled & 1]
    assert [a for a in legal if a.kind == "cast" and a.b == 0b101]  # 1 + 5 = 6 with hydra dice only
    assert act("shell", rolled, 1) not in legal and act("shell", rolled, -1) not in legal  # "that value"
    after = play(state, ("pick", rolled))
    placing = GAME.legal_actions(after, 0)
    assert act("trade") not in placing  # never turned into shells
    assert {a.a for a in placing if a.kind == "write"} == {1, 2, 3, 5, 6}  # any ruin that takes a 4
    with pytest.raises(IllegalAction, match="never traded"):
        GAME.apply(after, 0, act("trade"))
    # "may": once the hydra dice are used, the seat may confirm with the rolled die unwritten
    done = play(state, ("pick", 0), ("trade",), ("pick", 1), ("trade",), ("pick", 2), ("trade",))
    assert act("confirm") in GAME.legal_actions(done, 0)
    assert GAME.action_label(done, 0, act("confirm")) == "Confirm my round (leave the rolled 4 unwritten)"
    done = play(done, ("confirm",))
    assert done.round == 2 and done.bases[0].ruins == state.bases[0].ruins
    # a boon die value of 4 does everything a hydra die does, and more
    state = _with_dice(round_state(dice=(1, 2, 5), shells=3), (4, "boon", 0, False))
    legal = GAME.legal_actions(state, 0)
    assert act("unlock", 4, 1 << 3) in legal and act("cast", SECTION_BY_SUM[9], 1 << 2 | 1 << 3) in legal
    assert act("shell", 3, 1) in legal
    assert act("trade") in GAME.legal_actions(play(state, ("pick", 3)), 0)


def test_point2_a_rolled_die_nowhere_to_go_is_not_offered():
    """A rolled die that no ruin and no reef space can take stays unwritten ("may write")."""
    full = tuple(tuple(0 if v == EMPTY else v for v in ruin) for ruin in Sheet().ruins)
    state = round_state(dice=(1, 2, 5), ruins=full)
    state = _with_dice(state, (4, "roll", 0, False))
    assert BARRIER.values[BARRIER.start + 1] != 4 and 4 not in {
        BARRIER.values[c] for c in barrier_cells(state.sheets[0].reef, 4)
    }
    assert act("pick", 3) not in GAME.legal_actions(state, 0)


def _round_opening(seats: int, side: str, number: int, seed: int = 3):
    """The state at the start of round ``number`` of a random game (before anyone acts in it)."""
    import random

    from engine.bots import play_states
    from engine.reef.ai import POLICIES

    for state in play_states(
        GAME, GAME.new(seats, seed, {"tracker": side}), lambda _s: POLICIES["random"], random.Random(seed)
    ):
        if state.round == number:
            return state
    raise AssertionError("round not reached")


def test_point4_the_tracker_boon_is_gained_before_the_hydra_dice_are_rolled():
    """Rulebook: "If there's a Boon next to that round number, everyone gains that Boon before the
    Hydra dice are rolled." A tracker enchantment is chosen with no dice shown."""
    import random

    import renderers

    assert TRACKER["sunrise"][7].kind == "enchantment"
    state = _round_opening(2, "sunrise", 7)
    assert state.dice == () and GAME.to_act(state) == {0, 1}
    for viewer in (None, 0, 1):
        view = GAME.view(state, viewer)
        assert view["dice"] == [] and view["boon"]["type"] == "enchantment"
        if viewer is not None:
            assert all(d["kind"] != "hydra" for d in view["you"]["dice"])
    assert {a.kind for a in GAME.legal_actions(state, 0)} == {"enchant", "reset"}
    board = renderers.render("reef", GAME.view(state, None))
    assert "before the hydra dice are rolled" in board.alt and "Dice " not in board.alt
    own = renderers.render("reef", GAME.view(state, 0))
    assert "not rolled yet" in own.alt
    # seat 1 chooses: the dice stay hidden while seat 0 has not chosen
    rng = random.Random(1)
    while 1 in GAME.to_act(state):
        options = [a for a in GAME.legal_actions(state, 1) if a.kind != "reset"]
        state, events = GAME.apply(state, 1, rng.choice(options))
        assert not [e for e in events if e["type"] == "roll"]
    assert state.dice == () and GAME.legal_actions(state, 1) == [] and GAME.to_act(state) == {0}
    with pytest.raises(IllegalAction):
        GAME.apply(state, 1, act("confirm"))
    crossed = state.sheets[0].ench
    while not state.dice:
        options = [a for a in GAME.legal_actions(state, 0) if a.kind != "reset"]
        state, events = GAME.apply(state, 0, options[0])
    assert events[-1]["type"] == "roll" and list(state.dice) == events[-1]["dice"]
    chosen = state.sheets[0].ench
    assert sum(chosen) == sum(crossed) + 1 or state.sheets[0].pearls
    # the dice are rolled now; resetting the round never takes back a choice made before the roll
    assert play(state, ("reset",)).sheets[0].ench == chosen
    assert GAME.to_act(state) == {0, 1}


def test_point5_lucky_numbers_differ_when_possible():
    """Rulebook: "Everyone picks their own lucky number between 1 and 6 (or roll for it if you'd rather
    leave it to fate!) … If possible, each player should have a different lucky number."
    Picked in public, in seat order, from the numbers nobody has yet."""
    state = GAME.new(6, seed=4)
    assert GAME.to_act(state) == {0}
    with pytest.raises(IllegalAction, match="seat order"):
        GAME.apply(state, 1, act("lucky", 2))
    state, events = GAME.apply(state, 0, act("lucky", 3))
    public = [e for e in events if not e.get("private")]
    assert public and public[0]["text"] == "Seat 1 picks lucky number 3."
    assert GAME.view(state, None)["sheets"][0]["lucky"] == 3  # nothing about it is secret
    assert act("lucky", 3) not in GAME.legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="nobody has yet"):
        GAME.apply(state, 1, act("lucky", 3))
    for seat in range(1, 6):
        state, _ = GAME.apply(state, seat, act("lucky", 0))  # fate rolls among the free numbers
    assert sorted(s.lucky for s in state.sheets) == [1, 2, 3, 4, 5, 6]
    assert state.phase == "round"
    # more than six seats: not possible, so numbers repeat as little as they can
    state = GAME.new(8, seed=4)
    for seat in range(8):
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])
    lucky = [s.lucky for s in state.sheets]
    assert sorted(lucky[:6]) == [1, 2, 3, 4, 5, 6] and lucky[6] != lucky[7]


def test_point6_when_everyone_ties_no_one_wins():
    """Rulebook: "If two or more players are tied for the highest score, everyone else not tied for the
    highest score wins." With every player tied there is no one else, so no one wins."""
    for scores in ([25, 25], [40, 40, 40]):
        state = _finished(scores)
        result = GAME.result(state)
        assert result.winners == frozenset()
        assert result.ranking == (1,) * len(scores)
        assert "no one wins" in i18n.english(result.notes[0])
        assert GAME.view(state, None)["result"]["winners"] == []
        assert "no one wins" in GAME.summary(state)
    assert GAME.result(_finished([30, 30, 12])).winners == frozenset({2})


def test_point7_a_changed_die_never_wraps_nor_goes_below_0():
    """Rulebook: "Adding one to a 6 results in a 7 and subtracting one from 1 results in a 0"; "you
    cannot add 1 to a 6 to get a 1". A 0 cannot go lower; above 8 see tests/engine/test_reef_shells.py."""
    assert LOW_VALUE == 0
    state = round_state(dice=(6, 1, 3), shells=5)
    state = play(state, ("shell", 0, 1), ("shell", 0, 1), ("shell", 1, -1))
    assert [d["value"] for d in GAME.view(state, 0)["you"]["dice"]] == [8, 0, 3]
    legal = GAME.legal_actions(state, 0)
    assert act("shell", 0, 1) in legal and act("shell", 1, -1) not in legal


def test_point7_a_pair_of_shells_moves_a_die_by_one():
    """Rulebook: "Shells always come in pairs (two). Circle a pair when they are earned and cross them
    off when you use them to adjust dice up or down by 1." """
    state = round_state(dice=(2, 1, 3), shells=2)
    state = play(state, ("shell", 0, 1))
    assert state.sheets[0].shells == 1 and state.sheets[0].dice[0][0] + state.sheets[0].dice[0][2] == 3
    state = play(state, ("pick", 1), ("trade",))  # "2 shells": one more pair
    assert state.sheets[0].shells == 2


def test_point7_the_pyramid_example_can_happen():
    """Rulebook: "If all values but one on the second row are filled in, only 6 coins are gained."
    With "values can be written in the Ruins in any order", each value is at most the written
    values it is balanced on and at least the written values balanced on it."""
    ruin = RUINS[5]
    base, second, third, top = ruin.rows
    slots = [E] * ruin.size
    for slot, value in [(top[0], 1), (third[0], 2), (third[1], 2), *zip(base, (5, 6, 4, 6), strict=True)]:
        assert slot in legal_slots(ruin, tuple(slots), value)
        slots[slot] = value
    for slot, value in [(second[0], 3), (second[2], 4)]:
        assert slot in legal_slots(ruin, tuple(slots), value)
        slots[slot] = value
    assert ruin_coins(ruin, tuple(slots)) == 6  # every value but one on the second row
    assert not can_write(ruin, tuple(slots), second[1], 1)  # below the 2s above it
    assert not can_write(ruin, tuple(slots), second[1], 5)  # above the 4 below it
    assert can_write(ruin, tuple(slots), second[1], 3)
    slots[second[1]] = 3
    assert ruin_coins(ruin, tuple(slots)) == 18  # "if all values are filled in, then 18 coins"


def test_every_ruins_open_slots_are_the_slots_its_writing_rule_allows():
    """Search a Ship Ruin: the slots legal moves offer for a value, worked out rule by rule for
    every slot at once, are exactly the slots where `can_write` (rules 1-6, slot by slot) lets
    that value be written, on many half-written ruins (+/- ONE fills from the left)."""
    rng = random.Random(39)
    for ruin in RUINS:
        for _ in range(400):
            if ruin.rule == "plus-minus-one":
                filled = rng.randint(0, ruin.size)
                slots = tuple(rng.randint(0, 9) if slot < filled else E for slot in range(ruin.size))
            else:
                slots = tuple(rng.choice((E, E, *range(10))) for _ in range(ruin.size))
            for value in range(LOW_VALUE, 13):
                expected = [slot for slot in range(ruin.size) if can_write(ruin, slots, slot, value)]
                assert legal_slots(ruin, slots, value) == expected, (ruin.rule, slots, value)
