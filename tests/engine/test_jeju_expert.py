"""Jeju Island expert policy (#18): legal, deterministic, and blind to what its seat cannot see.

Hidden from every seat: the order of the point card deck and the tiles under each
stack's top ("the player ... takes the top Jeju tile next to it"). The expert must
re-sample both, so changing them must not change its decision.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.bots import policy
from engine.jeju.actions import Back
from engine.jeju.ai import POLICIES, expert
from tests.ladder import play, wins
from tests.seeded import random_states

GAME = engine.get("jeju")
EXPERT = policy("jeju", "expert")
RANDOM = policy("jeju", "random")
#: Every seat of a table of experts scores at least this (two greedy seats: about 20 to 50).
SANE_SCORE = 12


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small look-ahead budget: the rules checks do not need the full strength."""
    monkeypatch.setattr(expert, "EXPERT_BUDGET", 8)


def hide_differently(state, seed: int):
    """The same state with the deck re-ordered and the tiles under every top shuffled among stacks."""
    rng = random.Random(seed)
    deck = list(state.deck)
    rng.shuffle(deck)
    pool = [t for stack in state.stacks for t in stack[:-1]]
    rng.shuffle(pool)
    stacks = []
    for stack in state.stacks:
        below = max(0, len(stack) - 1)
        stacks.append((*pool[:below], *stack[-1:]))
        pool = pool[below:]
    return state._replace(deck=tuple(deck), stacks=tuple(stacks))


def test_expert_is_one_of_the_policies():
    assert set(POLICIES) >= {"random", "greedy", "expert"}
    assert EXPERT.__wrapped__ is expert.expert_policy  # run by engine.bots.policy without event text


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_expert_chooses_only_legal_actions_in_play_outs(quick, seats):
    state, rng = GAME.new(seats, seats), random.Random(seats)
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        chooser = EXPERT if seat == 0 else RANDOM
        action = chooser(GAME, state, seat, rng)
        assert action in GAME.legal_actions(state, seat)
        assert not isinstance(action, Back)
        state, _ = GAME.apply(state, seat, action)
    assert GAME.result(state) is not None


def test_expert_is_deterministic_for_a_given_rng(quick):
    for state in random_states("jeju", 3, seed=2, moments=4)[:-1]:
        seat = min(GAME.to_act(state))
        first = EXPERT(GAME, state, seat, random.Random(5))
        assert EXPERT(GAME, state, seat, random.Random(5)) == first


def test_expert_decision_ignores_the_deck_order_and_the_tiles_under_each_top(monkeypatch: pytest.MonkeyPatch):
    """ "Shuffle the Point cards and place the deck face-down"; only the top tile of a stack shows."""
    monkeypatch.setattr(expert, "EXPERT_BUDGET", 96)  # the same code with a smaller search: quicker
    checked = 0
    for seats, seed in ((2, 3), (4, 6)):
        for state in random_states("jeju", seats, seed=seed, moments=3)[:-1]:
            seat = min(GAME.to_act(state))
            if len(GAME.legal_actions(state, seat)) < 2:
                continue
            other = hide_differently(state, seed)
            assert other != state or len(state.deck) < 2
            assert GAME.view(other, seat) == GAME.view(state, seat)
            assert EXPERT(GAME, state, seat, random.Random(1)) == EXPERT(GAME, other, seat, random.Random(1))
            checked += 1
    assert checked >= 3


def test_determinize_keeps_everything_the_seat_can_see():
    state = random_states("jeju", 3, seed=8, moments=2)[0]
    guess = expert.determinize(state, random.Random(0))
    assert sorted(guess.deck) == sorted(state.deck)
    assert [len(s) for s in guess.stacks] == [len(s) for s in state.stacks]
    assert [s[-1:] for s in guess.stacks] == [s[-1:] for s in state.stacks]
    assert sorted(t for s in guess.stacks for t in s) == sorted(t for s in state.stacks for t in s)
    assert GAME.view(guess, None) == GAME.view(state, None)


def test_a_table_of_experts_plays_a_whole_game_with_sane_scores(monkeypatch: pytest.MonkeyPatch):
    """Two experts (a smaller search, the same code) play a real game: both buy cards and score."""
    monkeypatch.setattr(expert, "EXPERT_BUDGET", 12)
    state, _actions = play("jeju", 2, 21, {0: "expert", 1: "expert"})
    result = GAME.result(state)
    assert min(result.scores) >= SANE_SCORE
    assert all(len(owned) >= 3 for owned in state.owned)


def test_the_expert_searches_by_successive_halving_within_its_budget(monkeypatch: pytest.MonkeyPatch):
    """Every decision plays out at most `EXPERT_BUDGET` games (a round gives each survivor one more
    at least), and the moves dropped early get fewer play-outs than the one chosen."""
    counted = []
    real = expert._rollout

    def counting(game, state, seat, rng, players=None):
        counted.append(state)
        return real(game, state, seat, rng, players)

    monkeypatch.setattr(expert, "_rollout", counting)
    for state in random_states("jeju", 2, seed=4, moments=4)[:-1]:
        seat = min(GAME.to_act(state))
        candidates = expert._candidates(GAME, state, seat, random.Random(0))
        counted.clear()
        expert.expert_policy(GAME, state, seat, random.Random(3))
        if len(candidates) > 1:
            assert len(candidates) <= len(counted) <= expert.EXPERT_BUDGET


@pytest.mark.slow
def test_the_expert_beats_greedy_in_a_seeded_match():
    """A test of order, not of strength: 6 seeded 2-seat games, first player alternating."""
    assert wins("jeju", 2, "expert", "greedy", range(6)) >= 4


def test_the_expert_searches_greedys_favourite_payments(quick):
    """Paying for a card with several ways to pay, the expert weighs greedy's `PAYMENTS` favourite
    ways (greedy's own first) and pays one of them."""
    greedy = policy("jeju", "greedy")
    checked = 0
    for seed in range(40):
        state = GAME.new(2, seed)
        rng = random.Random(seed)
        while (seats := GAME.to_act(state)) and checked < 3:
            seat = min(seats)
            if state.phase == "pay" and len(GAME.legal_actions(state, seat)) > 3:
                candidates = expert._candidates(GAME, state, seat, random.Random(0))
                assert 1 < len(candidates) <= expert.PAYMENTS
                assert candidates[0] == greedy(GAME, state, seat, random.Random(0))
                assert EXPERT(GAME, state, seat, random.Random(1)) in candidates
                checked += 1
            state, _ = GAME.apply(state, seat, RANDOM(GAME, state, seat, rng))
        if checked >= 3:
            break
    assert checked >= 3
