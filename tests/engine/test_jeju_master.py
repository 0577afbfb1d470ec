"""Jeju Island's ``master`` policy (issue #39): the expert's search with the play-outs the thinking
time allows, turned into a fixed number (never a clock), so a replay makes the same move."""

from __future__ import annotations

import random

import engine
from engine.bots import policy, thinking_time
from engine.jeju.ai import POLICIES, expert
from tests.seeded import random_states

GAME = engine.get("jeju")
MASTER = policy("jeju", "master")


def test_master_is_one_of_the_policies():
    assert POLICIES["master"] is expert.master_policy
    assert MASTER.__wrapped__ is expert.master_policy


def test_master_searches_more_the_longer_it_may_think():
    assert expert.master_budget() > expert.EXPERT_BUDGET  # the default live thinking time
    with thinking_time(0.01):
        assert expert.master_budget() == expert.MASTER_MIN  # never less than twice the expert
    with thinking_time(10):
        slow = expert.master_budget()
    with thinking_time(3):
        assert expert.master_budget() < slow


def test_master_is_deterministic_for_a_given_rng_and_thinking_time(monkeypatch):
    monkeypatch.setattr(expert, "MASTER_MIN", 24)  # a small search: the test needs determinism, not strength
    with thinking_time(0.01):
        for state in random_states("jeju", 2, seed=3, moments=3)[:-1]:
            seat = min(GAME.to_act(state))
            first = MASTER(GAME, state, seat, random.Random(7))
            assert first in GAME.legal_actions(state, seat)
            assert MASTER(GAME, state, seat, random.Random(7)) == first
