"""The ``master`` Haenyeo policy (issue #39's Master level): the expert with more search.

It plays legal whole games, chooses the same for the same table and rng (its amount of search
comes from `engine.bots.thinking_time` by a fixed conversion, never from a clock), searches more
when it may think longer, and is as blind as the expert to what its seat cannot see.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.bots import policy, seated, thinking_time
from engine.haenyeo import actions as A
from engine.haenyeo.ai import master
from tests.ladder import play, wins

GAME = engine.get("haenyeo")
#: The smallest budget: the fewest play-outs (`master.MIN_DRAWS` per candidate), for quick tests.
QUICK = 0.0


def _select_state(seats: int, seed: int, round_no: int):
    rng = random.Random(seed)
    state = GAME.new(seats, seed)
    greedy = policy("haenyeo", "greedy")
    while not (state.phase == "select" and state.round == round_no and not any(state.chosen)):
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, greedy(GAME, state, seat, rng))
    return state


def test_master_plays_a_whole_legal_game():
    with thinking_time(QUICK), seated(["master", "expert"]):
        state, _ = play("haenyeo", 2, 31, {0: "master", 1: "expert"})
    assert GAME.result(state) is not None and min(GAME.result(state).scores) > 0


def test_master_is_deterministic_for_a_given_table():
    state = _select_state(2, seed=8, round_no=3)
    choose = policy("haenyeo", "master")
    with thinking_time(QUICK):
        master._MEMO.clear()
        first = choose(GAME, state, 0, random.Random(1))
        cards = master.choose_cards(GAME, state, 0, QUICK)
        master._MEMO.clear()
        assert master.choose_cards(GAME, state.copy(), 0, QUICK) == cards
        assert choose(GAME, state, 0, random.Random(2)) == first
    assert first == A.ToggleCard(min(cards))


def test_the_budget_buys_search_by_a_fixed_conversion():
    state = _select_state(2, seed=3, round_no=1)
    late = _select_state(2, seed=3, round_no=7)
    assert master.draws_for(state, 0.0) == master.MIN_DRAWS
    assert master.draws_for(state, 10.0) > master.draws_for(state, 3.0) > master.MIN_DRAWS
    assert master.draws_for(late, 3.0) > master.draws_for(state, 3.0)  # shorter play-outs, more of them


def test_masters_cards_ignore_another_seats_hidden_choice():
    base = _select_state(2, seed=5, round_no=2)
    choices = set()
    for zones in ((2, 7), (0, 11)):
        state = base
        for zone in zones:
            state, _ = GAME.apply(state, 1, A.ToggleCard(zone))
        master._MEMO.clear()
        choices.add(master.choose_cards(GAME, state, 0, QUICK))
    assert len(choices) == 1


@pytest.mark.slow
def test_master_at_least_holds_its_own_against_the_expert():
    """Order, not strength: with a second a move, over 10 seeded 2-seat games."""
    with thinking_time(1.0):
        assert wins("haenyeo", 2, "master", "expert", range(10)) >= 5
