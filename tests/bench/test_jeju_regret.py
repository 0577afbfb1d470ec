"""The yardstick `bench.jeju_regret` weighs the Jeju Island players' choices with."""

from __future__ import annotations

import random

from bench.jeju_regret import GAME, positions, worths
from engine.jeju import state as st
from engine.jeju.ai import expert


def test_positions_are_real_choices_after_the_setup_and_the_same_every_time():
    found = positions(50000, 4)
    assert len(found) == 4
    for state, seat in found:
        assert state.phase not in (st.SETUP_TOKENS, st.SETUP_HARUBANG)
        assert seat == min(GAME.to_act(state))
        assert len(expert._candidates(GAME, state, seat, random.Random(0))) > 1
    assert positions(50000, 4) == found


def test_every_candidate_gets_a_win_share_from_the_same_play_outs():
    """Each of the expert's candidates is worth its share of wins (between 0 and 1), and asking
    again gives the same worths: the guesses and play-out seeds are shared and fixed."""
    state, seat = positions(50001, 1)[0]
    candidates, worth = worths(state, seat, 6)
    assert candidates == expert._candidates(GAME, state, seat, random.Random(0))
    assert len(worth) == len(candidates)
    assert all(0.0 <= w <= 1.0 for w in worth)
    assert worths(state, seat, 6) == (candidates, worth)
