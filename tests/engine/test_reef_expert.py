"""The Reef & Ruins ``expert`` policy: legal moves only, deterministic, and blind to the dice to come."""

from __future__ import annotations

import random

import pytest

import engine
from engine.bots import play_states
from engine.reef import rules
from engine.reef.actions import act
from engine.reef.ai import POLICIES, expert, values
from tests.engine.test_reef_play import check_state

GAME = engine.get("reef")
EXPERT = POLICIES["expert"]
RANDOM = POLICIES["random"]


def forget() -> None:
    """Drop every plan the bots remember, so a decision is worked out afresh."""
    expert.forget()


def reach(seats: int, seed: int, options: dict, stop) -> object:
    """The first state of a random game for which ``stop(state)`` holds."""
    for state in play_states(GAME, GAME.new(seats, seed, options), lambda _s: RANDOM, random.Random(seed)):
        if stop(state):
            return state
    raise AssertionError("never reached")


@pytest.mark.slow  # a whole game of two-round look-ahead: ~10 s of CPU per reef
@pytest.mark.parametrize("reef", ["bewitching-barrier", "arcane-atoll"])
def test_expert_plays_only_legal_actions_to_the_end(reef):
    state = GAME.new(1, 5, {"reef": reef})
    rng = random.Random(5)
    while to_act := GAME.to_act(state):
        seat = min(to_act)
        action = EXPERT(GAME, state, seat, rng)
        assert action in GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, seat, action)
        check_state(state)
    assert GAME.result(state).scores[0] > 0


def test_expert_shares_a_table_and_takes_over_a_half_played_round():
    state = reach(2, 8, {"tracker": "moonrise"}, lambda s: s.round == 3 and s.dice and s.sheets[1].pick >= 0)
    rng = random.Random(8)
    for _ in range(200):
        if state.round > 3:
            break
        seat = min(GAME.to_act(state))
        action = EXPERT(GAME, state, seat, rng)
        assert action in GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, seat, action)
    assert state.round == 4, "the expert could not finish a round someone else started"


def _round_actions(state, seat: int, rng: random.Random) -> list:
    """The expert's actions for the rest of the round (or the boon step), worked out afresh."""
    forget()
    actions = []
    number, rolled = state.round, bool(state.dice)
    while seat in GAME.to_act(state) and state.round == number and bool(state.dice) == rolled:
        action = EXPERT(GAME, state, seat, rng)
        actions.append(action)
        state, _ = GAME.apply(state, seat, action)
    return actions


def test_expert_decisions_do_not_change_when_the_future_dice_do():
    """The table's seed decides every roll to come; the expert's round must not depend on it."""
    state = reach(1, 21, {}, lambda s: s.round == 9 and s.dice and not s.sheets[0].main)
    other = state._replace(seed=state.seed + 1000)  # same sheet and dice now, other rolls later
    later = [rules.roll(s._replace(round=10), [])[0].dice for s in (state, other)]
    assert later[0] != later[1]
    mine = _round_actions(state, 0, random.Random(1))
    assert mine == _round_actions(other, 0, random.Random(1))
    assert mine == _round_actions(state, 0, random.Random(99))  # and whatever the rng
    assert mine[-1].kind == "confirm"


def test_expert_chooses_the_tracker_enchantment_without_this_rounds_dice():
    """Rulebook: "Everyone gains that Boon before the Hydra dice are rolled": the choice cannot see them."""
    state = reach(1, 4, {"tracker": "sunrise"}, lambda s: s.round == 7)
    assert not state.dice and state.sheets[0].pending
    rolled = rules.roll(state, [])[0].dice
    other = next(
        s
        for s in (state._replace(seed=state.seed + k) for k in range(1, 50))
        if rules.roll(s, [])[0].dice != rolled  # the dice about to be rolled differ
    )
    assert _round_actions(state, 0, random.Random(2)) == _round_actions(other, 0, random.Random(3))


def test_expert_is_deterministic_for_a_given_rng():
    state = reach(1, 13, {"reef": "arcane-atoll"}, lambda s: s.round == 5 and s.dice)
    forget()
    first = EXPERT(GAME, state, 0, random.Random(0))
    forget()
    assert EXPERT(GAME, state, 0, random.Random(0)) == first


def test_a_lucky_number_search_picks_the_same_whatever_the_secret_seed():
    """`lucky_search` (a `Search` with ``lucky`` games) samples greedy games seeded by public facts
    only, so the same table gives the same pick for any rng and any secret seed; a free number."""
    picks = set()
    small = expert.EXPERT._replace(lucky=1)  # the expert's search with one sampled game a number
    for seed in (1, 2):
        state = GAME.new(1, seed, {"reef": "bewitching-barrier", "tracker": "sunrise"})
        action = expert.searching(GAME, state, 0, small)
        assert action in GAME.legal_actions(state, 0) and action.a > 0
        picks.add(action)
    assert len(picks) == 1


def test_a_table_of_experts_plays_a_sane_last_stretch():
    """Two experts take over a random game at its last round (18) and finish it: legal moves, sane scores."""
    state = reach(2, 6, {"tracker": "moonrise"}, lambda s: s.round == 18 and s.dice)
    rng = random.Random(6)
    while to_act := GAME.to_act(state):
        seat = min(to_act)
        action = EXPERT(GAME, state, seat, rng)
        assert action in GAME.legal_actions(state, seat)
        state, _ = GAME.apply(state, seat, action)
    scores = GAME.result(state).scores
    assert len(scores) == 2 and all(0 < s < 400 for s in scores)
    assert state.phase == "finished"


def test_the_expert_takes_the_best_free_lucky_number_of_its_book():
    """The expert's lucky number is its book's (`values.LUCKY_BOOK`, sampled greedy games worked
    out once): on the Barrier's Sunrise side 1, not greedy's 3; a number taken goes to the next."""
    options = {"reef": "bewitching-barrier", "tracker": "sunrise"}
    assert values.LUCKY_BOOK["bewitching-barrier", "sunrise"][:2] == (1, 3)
    state = GAME.new(2, 4, options)
    assert EXPERT(GAME, state, 0, random.Random(0)) == act("lucky", 1)
    state, _ = GAME.apply(state, 0, act("lucky", 1))
    assert EXPERT(GAME, state, 1, random.Random(0)) == act("lucky", 3)
    assert POLICIES["greedy"](GAME, GAME.new(1, 4, options), 0, random.Random(0)) == act("lucky", 3)


def test_the_look_ahead_samples_more_futures_where_the_game_cuts_them_short():
    """Each future is ``ahead`` rounds of its own; near the end (``late``) there are more of them,
    so a decision there plays about as many rounds as one in mid-game, and none past round 18."""
    search = expert.EXPERT._replace(ahead=3, late=True)
    for left, count, length in ((10, 16, 3), (2, 24, 2), (1, 48, 1)):
        paths = expert._paths((18 - left, "root"), search, left)
        assert len(paths) == count and {len(p) for p in paths} == {length}
    # the first rounds of a path are the two-round search's own samples, so it only adds rounds
    two = expert._paths((5, "root"), search._replace(ahead=2), 13)
    assert [p[:2] for p in expert._paths((5, "root"), search, 13)] == two
