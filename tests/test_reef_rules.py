"""Reef & Ruins rule scenarios, each tied to a rulebook section."""

from __future__ import annotations

import pytest

import engine
from engine.base import IllegalAction
from engine.reef.actions import act
from engine.reef.components import ATOLL, BARRIER, PEARLS, RUINS, SECTIONS, rating
from engine.reef.scoring import breakdown, lucky_count, multiplier, ruin_coins
from engine.reef.sheet import EMPTY, Sheet, atoll_orients, barrier_cells, can_write, legal_slots, turns

GAME = engine.get("reef")
E = EMPTY


def round_state(dice=(1, 2, 5), seats=1, board="bewitching-barrier", **sheet_fields):
    """A state in round 1 where seat 0's sheet has the given dice and fields."""
    state = GAME.new(seats, seed=7, options={"reef": board})
    for seat in range(seats):
        state, _ = GAME.apply(state, seat, act("lucky", seat + 1))
    sheet = state.sheets[0]._replace(dice=tuple((v, "hydra", 0, False) for v in dice), **sheet_fields)
    sheets = (sheet, *state.sheets[1:])
    return state._replace(sheets=sheets, bases=sheets)


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
    assert not can_write(ruin, (E,) * 10, second[0], 1)  # nothing to rest on yet
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
    assert act("shell", 0, 1) not in GAME.legal_actions(state, 0)  # 8 is the highest value
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
    state = state._replace(sheets=(sheet,), bases=(sheet,))
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


def test_cast_crosses_the_leftmost_space_and_gains_its_boon_at_once():
    # Deirdre adds all three dice to get 8 and crosses off the next 8 enchantment.
    eight = next(s for s, sec in enumerate(SECTIONS) if sec.total == 8)
    state = round_state(dice=(1, 2, 5), ench=tuple(1 if s == eight else 0 for s in range(6)))
    shells_before = state.sheets[0].shells
    state = play(state, ("cast", eight, 0b111))
    sheet = state.sheets[0]
    assert sheet.ench[eight] == 2
    space = SECTIONS[eight].spaces[1]
    if space.boon == "shells":
        assert sheet.shells == shells_before + 1
    assert act("confirm") in GAME.legal_actions(state, 0)


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
    from engine.reef import turn

    sheet = turn.settle(turn.earn_pearls(state.sheets[0], 1), 0, [])
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
    state = state._replace(sheets=(sheet,), bases=(sheet,))
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
    state = state._replace(sheets=(sheet,), bases=(sheet,))
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


def test_lucky_choice_is_secret_and_fate_avoids_taken_numbers():
    state = GAME.new(3, seed=11)
    state, events = GAME.apply(state, 0, act("lucky", 4))
    assert all(e.get("private") for e in events if "4" in e["text"])
    assert GAME.view(state, None)["sheets"][0]["lucky"] is None
    assert GAME.view(state, 1)["sheets"][0]["lucky"] is None
    assert GAME.view(state, 0)["sheets"][0]["lucky"] == 4
    state, _ = GAME.apply(state, 1, act("lucky", 0))
    state, _ = GAME.apply(state, 2, act("lucky", 0))
    lucky = [s.lucky for s in state.sheets]
    assert lucky[0] == 4 and len(set(lucky)) == 3
    assert state.phase == "round"


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
    state = state._replace(sheets=(state.sheets[0], sheet1), bases=(state.bases[0], sheet1))
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
    return state._replace(phase="finished", sheets=sheets, bases=sheets, lucky=(1,) * len(scores))


def test_hydra_tie_rule_everyone_not_tied_for_the_top_wins():
    result = GAME.result(_finished([30, 30, 12, 20]))
    assert result.winners == frozenset({2, 3})
    assert result.ranking[3] == 1 and result.ranking[2] == 2
    assert GAME.result(_finished([40, 30, 30])).winners == frozenset({0})
    assert GAME.result(_finished([25, 25])).winners == frozenset({0, 1})


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
    assert "Seashell Seeker" in result.notes[0]
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
