"""Reef & Ruins, issue #40: a die changed by shells has no upper cap, never wraps, never goes below 0.

Rulebook, ODDS: "All values must be odd. (1, 3, 5, 7, etc.)"; EVENS: "(2, 4, 6, 8, etc.)"; Trade in
Shells: "You can use as many as you like each round"; Reference: "You may use multiple shells on a
die, but you cannot add 1 to a 6 to get a 1 or subtract 1 from a 1 to get a 6." The only reading
that keeps every printed sentence true: no cap above (the shells a seat holds are the limit), no
wrap, nothing below 0 ("subtracting one from 1 results in a 0").
"""

from __future__ import annotations

import random

import pytest

import engine
import renderers
from engine.base import DataError, IllegalAction
from engine.reef import components as comp
from engine.reef.actions import act
from engine.reef.ai import POLICIES
from engine.reef.components import RUINS
from engine.reef.sheet import value_ok
from engine.reef.state import EMPTY

GAME = engine.get("reef")
ODDS = 4  # ruin 4, the Wreck of the Odd Anchor
EVENS = 5


def round_state(dice=(6, 1, 3), shells=0, kinds=None, **fields):
    """Round 1 of a solo game where the seat holds these dice and shell pairs."""
    state = GAME.new(1, seed=7)
    state, _ = GAME.apply(state, 0, act("lucky", 2))
    kinds = kinds or ("hydra",) * len(dice)
    sheet = state.sheets[0]._replace(
        dice=tuple((v, k, 0, False) for v, k in zip(dice, kinds, strict=True)),
        shells=shells,
        shells_earned=shells,
        **fields,
    )
    return state._replace(sheets=(sheet,), bases=(sheet,), starts=(sheet,))


def play(state, *steps):
    for step in steps:
        state, _ = GAME.apply(state, 0, act(*step))
    return state


def values(state) -> list[int]:
    return [d["value"] for d in GAME.view(state, 0)["you"]["dice"]]


def test_a_6_with_three_pairs_of_shells_becomes_9_and_goes_into_odds():
    """ODDS "(1, 3, 5, 7, etc.)": the "etc." goes on past 7, so a 9 is an odd value to write."""
    state = round_state(dice=(6, 1, 3), shells=3)
    state = play(state, ("unlock", ODDS, 0b110))  # the 1 and the 3 open ruin 4
    state = play(state, ("shell", 0, 1), ("shell", 0, 1), ("shell", 0, 1))
    assert values(state)[0] == 9 and state.sheets[0].shells == 0
    state = play(state, ("pick", 0))
    legal = GAME.legal_actions(state, 0)
    slots = [a.b for a in legal if a.kind == "write" and a.a == ODDS]
    assert slots == list(range(RUINS[ODDS - 1].size))  # an odd value: any empty space
    state = play(state, ("write", ODDS, 1))
    assert state.sheets[0].ruins[ODDS - 1][1] == 9


def test_evens_take_two_digit_values_and_the_menu_says_them():
    """EVENS "(2, 4, 6, 8, etc.)": a 6 raised by six pairs is a 12, an even value."""
    state = round_state(dice=(6, 1, 4), shells=6)
    state = play(state, ("unlock", EVENS, 0b110))  # 1 + 4 open ruin 5
    for _ in range(5):
        state = play(state, ("shell", 0, 1))
    raise_it = act("shell", 0, 1)
    assert raise_it in GAME.legal_actions(state, 0)
    assert "11" in GAME.action_label(state, 0, raise_it) and "12" in GAME.action_label(state, 0, raise_it)
    state = play(state, ("shell", 0, 1), ("pick", 0), ("write", EVENS, 0))
    assert state.sheets[0].ruins[EVENS - 1][0] == 12


def test_shells_are_the_only_limit_above():
    """ "You can use as many as you like each round": every pair held may go on one die."""
    state = round_state(dice=(6, 2, 3), shells=15)
    for _ in range(15):
        state = play(state, ("shell", 0, 1))
    assert values(state)[0] == 21
    assert not any(a.kind == "shell" for a in GAME.legal_actions(state, 0))  # no pairs left


def test_a_1_cannot_become_6_and_a_0_cannot_go_lower():
    """Reference: "you cannot ... subtract 1 from a 1 to get a 6"; "subtracting one from 1 results
    in a 0", and nothing is printed below 0."""
    state = round_state(dice=(1, 2, 3), shells=4)
    state = play(state, ("shell", 0, -1))
    assert values(state)[0] == 0  # not 6
    assert act("shell", 0, -1) not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, act("shell", 0, -1))
    assert not value_ok(-1) and value_ok(0) and value_ok(9) and value_ok(21)


def test_a_6_plus_one_is_a_7_not_a_1():
    """Reference: "Adding one to a 6 results in a 7" and "you cannot add 1 to a 6 to get a 1"."""
    state = round_state(dice=(6, 2, 3), shells=1)
    assert values(play(state, ("shell", 0, 1)))[0] == 7


def test_the_sheet_data_refuses_a_cap():
    """sheet.json holds the lowest value only; a highest value is refused at load."""
    assert comp.LOW_VALUE == 0
    assert "highest_value" not in comp.load_data("reef", "sheet.json")
    real = comp.load_data

    def capped(game, file):
        raw = real(game, file)
        return {**raw, "highest_value": 8} if file == "sheet.json" else raw

    comp.load_data = capped
    try:
        with pytest.raises(DataError, match="no highest value"):
            comp._load_sheet()
    finally:
        comp.load_data = real


def test_greedy_plans_with_values_above_8():
    """The bots use the lifted cap: with the last ODDS space needing a 9 to finish its row and
    its column (1 + 9 = 10), greedy raises a boon 6 by three pairs and writes the 9."""
    ruins = list(round_state().sheets[0].ruins)
    #  row 1: 1 3 5 7   (columns need 4, 8, 6, 10)
    #  row 2: 3 5 1 _   the last space: 10 - 1 = 9 finishes row 2 and the fourth column
    ruins[ODDS - 1] = (1, 3, 5, 1, 3, 5, 1, EMPTY)
    state = round_state(dice=(6, 6, 6), kinds=("boon", "hydra", "hydra"), shells=3, ruins=tuple(ruins))
    rng = random.Random(0)
    for _ in range(30):
        if not GAME.to_act(state):
            break
        action = POLICIES["greedy"](GAME, state, 0, rng)
        state, _ = GAME.apply(state, 0, action)
        if action.kind == "confirm":
            break
    assert 9 in state.sheets[0].ruins[ODDS - 1]


def test_pictures_draw_two_digit_values():
    """A two-digit value is drawn in its box on the seat's sheet and on the board."""
    ruins = list(round_state().sheets[0].ruins)
    ruins[EVENS - 1] = (10, 12, 14, 20, EMPTY, EMPTY, EMPTY, EMPTY)
    ruins[2] = (8, 9, 10, 11, 12, 13, 14, 15, 16, 17)
    state = round_state(dice=(6, 1, 3), shells=9, ruins=tuple(ruins))
    state = play(state, *[("shell", 0, 1)] * 9)
    you = GAME.view(state, 0)
    assert you["you"]["dice"][0]["value"] == 15
    for view in (you, GAME.view(state, None)):
        picture = renderers.render("reef", view, ["Ann"])
        assert picture.png.startswith(b"\x89PNG")
    assert "15" in " ".join(renderers.render("reef", you, ["Ann"]).alt.split())
