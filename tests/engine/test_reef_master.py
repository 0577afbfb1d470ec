"""The Reef & Ruins ``master`` (issue #39): the expert's look-ahead sized by its thinking time.

Its search is a fixed function of `engine.bots.thinking_budget` (never a clock), so a
decision replays identically; more time never searches less than the expert.
"""

from __future__ import annotations

import random

import engine
from engine.bots import play_states, thinking_time
from engine.reef.ai import POLICIES, expert, master

GAME = engine.get("reef")
MASTER = POLICIES["master"]


def reach(seed: int, stop) -> object:
    """The first state of a random solo game for which ``stop(state)`` holds."""
    start = GAME.new(1, seed, {"reef": "bewitching-barrier", "tracker": "sunrise"})
    for state in play_states(GAME, start, lambda _s: POLICIES["random"], random.Random(seed)):
        if stop(state):
            return state
    raise AssertionError("never reached")


def test_the_masters_search_grows_with_its_time_and_never_falls_below_the_experts():
    small, live, slow = (master.search_for(s) for s in (0.1, 3.0, 10.0))
    for search in (small, live, slow):
        assert search.candidates >= expert.EXPERT.candidates
        assert search.samples >= expert.EXPERT.samples and search.deeper >= expert.EXPERT.deeper
    assert small.samples * (1 + small.deeper) < live.samples * (1 + live.deeper)
    assert live.samples * (1 + live.deeper) < slow.samples * (1 + slow.deeper)


def test_the_master_plays_a_round_the_same_for_any_rng_and_only_legal_moves():
    state = reach(3, lambda s: s.round == 17 and s.dice)
    played = []
    for rng in (random.Random(1), random.Random(2)):
        expert.forget()
        current, moves = state, []
        with thinking_time(0.2):
            while GAME.to_act(current) and current.round == 17:
                action = MASTER(GAME, current, 0, rng)
                assert action in GAME.legal_actions(current, 0)
                moves.append(action)
                current, _ = GAME.apply(current, 0, action)
        played.append(moves)
    assert played[0] == played[1] and played[0][-1].kind == "confirm"
