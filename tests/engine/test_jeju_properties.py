"""Jeju Island properties: play-outs to the end with invariants, determinism, JSON round trips."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

import engine
from engine.base import IllegalAction
from engine.bots import play_out, policy
from engine.jeju import rules
from engine.jeju.actions import (
    Back,
    EndTurn,
    MoveHarubang,
    Pay,
    PlaceHarubang,
    PlaceToken,
    TakeCard,
    Travel,
)
from engine.jeju.components import CARD_IDS, CARDS, JOKER, NEUTRAL, TILE_BY_KEY
from engine.jeju.state import (
    FINISHED,
    HARUBANG,
    PAY,
)
from engine.jeju.text import describe

GAME = engine.get("jeju")
SEEDS = range(30)

#: Every action that could ever be offered, to check that illegal ones are refused.
UNIVERSE = (
    [PlaceToken(s) for s in range(6)]
    + [PlaceHarubang(s) for s in range(6)]
    + [MoveHarubang(s) for s in range(6)]
    + [Travel(s, d) for s in range(6) for d in ("left", "right")]
    + [TakeCard(c) for c in CARD_IDS]
    + [Back(), EndTurn(), Pay((1, 1, 0, 0, 0, 0, 0))]
)


def check_invariants(state) -> None:
    """What must hold after every step of any game; a failure shows the whole table, secrets too."""
    try:
        _invariants(state)
    except AssertionError as failure:
        raise AssertionError(f"{failure}\n{describe(state, secrets=True)}") from failure


def _invariants(state) -> None:
    tiles = sum(len(s) for s in state.stacks) + sum(sum(h) for h in state.hands) + sum(state.spent)
    assert tiles == 80
    per_type = [
        sum(s.count(t) for s in state.stacks) + sum(h[t] for h in state.hands) + state.spent[t]
        for t in range(7)
    ]
    assert per_type == [11] * 6 + [14]
    assert all(n >= 0 for h in state.hands for n in h)
    cards = list(state.display) + list(state.deck) + list(state.discard) + [c for o in state.owned for c in o]
    assert sorted(cards) == list(CARD_IDS)
    tokens = Counter(t for stack in state.tokens for t in stack)
    assert tokens[NEUTRAL] == 6
    placed = sum(tokens[s] for s in range(state.seats))
    assert sum(tokens.values()) == 6 + placed
    if state.turn >= 1:
        assert all(tokens[s] == 2 for s in range(state.seats))
        assert 0 <= state.harubang < 6
    if state.phase == FINISHED:
        assert not any(state.stacks) or not state.deck
        assert GAME.to_act(state) == frozenset()
    elif state.phase == HARUBANG:
        # A bonus is never asked once the last tiles are gone; an Instant Harubang bought
        # with the last deck card still resolves.
        assert any(state.stacks) and (state.deck or state.bonus_reason == "card")
    else:
        assert any(state.stacks) and state.deck


def check_step(state, seat) -> list:
    """Per-step contract checks; returns the legal actions."""
    assert GAME.to_act(state) == {seat}
    actions = GAME.legal_actions(state, seat)
    assert actions and len(set(actions)) == len(actions)
    groups = Counter(GAME.action_group(state, seat, a) for a in actions)
    assert max(groups.values()) <= 25 and len(groups) <= 5
    for action in actions:
        label = GAME.action_label(state, seat, action)
        assert 0 < len(label) <= 80
        assert GAME.load_action(json.loads(json.dumps(GAME.dump_action(action)))) == action
    if state.phase != PAY:
        assert len(actions) > 1, "a one-option decision should have been taken by the engine"
    for other in range(state.seats):
        if other != seat:
            assert GAME.legal_actions(state, other) == []
    return actions


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_play_out_keeps_every_invariant(seats, seed):
    rng = random.Random(seed)
    state = GAME.new(seats, seed)
    check_invariants(state)
    steps = 0
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        actions = check_step(state, seat)
        for bad in UNIVERSE:
            if bad not in actions and rng.random() < 0.1:
                with pytest.raises(IllegalAction):
                    GAME.apply(state, seat, bad)
        action = rng.choice([a for a in actions if not isinstance(a, Back)])
        before = GAME.dump_state(state)
        new, events = GAME.apply(state, seat, action)
        assert GAME.dump_state(state) == before  # apply never mutates
        assert events and all(isinstance(e["type"], str) and e["text"] for e in events)
        json.dumps(events)
        state = new
        check_invariants(state)
        if steps % 7 == 0:
            data = json.loads(json.dumps(GAME.dump_state(state)))
            assert GAME.load_state(data) == state
            json.dumps(GAME.view(state, None))
            json.dumps(GAME.view(state, seat))
        steps += 1
        assert steps < 1000
    result = GAME.result(state)
    assert result is not None and len(result.scores) == seats
    assert min(result.ranking) == 1 and result.winners
    json.dumps(GAME.view(state, None))
    assert GAME.view(state, None)["result"] == result.to_dict()


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_greedy_play_outs_finish_with_sensible_scores(seats):
    greedy = policy("jeju", "greedy")
    for seed in range(6):
        state = play_out(GAME, GAME.new(seats, seed), lambda _seat: greedy, random.Random(seed))
        check_invariants(state)
        result = GAME.result(state)
        assert max(result.scores) > 5
        assert seats * 5 <= state.turn <= 200


def test_greedy_beats_random_more_often_than_not():
    greedy, rand = policy("jeju", "greedy"), policy("jeju", "random")
    wins = 0
    for seed in range(30):
        state = play_out(
            GAME,
            GAME.new(2, seed),
            lambda seat, mine=seed % 2: greedy if seat == mine else rand,
            random.Random(seed),
        )
        wins += seed % 2 in GAME.result(state).winners
    assert wins > 15


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_policies_are_deterministic_and_choose_legal_actions(name):
    chosen = policy("jeju", name)
    logs = []
    for _ in range(2):
        state, rng, log = GAME.new(3, 5), random.Random(5), []
        while GAME.to_act(state):
            seat = min(GAME.to_act(state))
            action = chosen(GAME, state, seat, rng)
            assert action in GAME.legal_actions(state, seat)
            assert not isinstance(action, Back)
            log.append(action)
            state, _ = GAME.apply(state, seat, action)
        logs.append((log, GAME.dump_state(state)))
    assert logs[0] == logs[1]


def test_same_seed_and_actions_give_the_same_game_and_replays_match():
    rng = random.Random(3)
    state = GAME.new(4, 99)
    log = []
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        action = rng.choice([a for a in GAME.legal_actions(state, seat) if not isinstance(a, Back)])
        log.append((seat, GAME.dump_action(action)))
        state, _ = GAME.apply(state, seat, action)
    replay = GAME.new(4, 99)
    for seat, data in log:
        replay, _ = GAME.apply(replay, seat, GAME.load_action(data))
    assert replay == state
    assert GAME.new(4, 99) == GAME.new(4, 99)
    assert GAME.new(4, 99) != GAME.new(4, 100)


def test_the_public_view_shows_no_deck_order_and_a_seat_view_only_adds_its_own_options():
    state = GAME.new(3, 4)
    rng = random.Random(4)
    for _ in range(40):
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        public = GAME.view(state, None)
        assert "deck" not in public and public["deck_size"] == len(state.deck)
        assert {"phase", "to_act", "seats"} <= set(public)
        for other in range(3):
            own = GAME.view(state, other)
            extra = set(own) - set(public)
            assert extra <= {"you", "affordable", "payments"}
            assert {k: v for k, v in own.items() if k not in extra} == public
            if "payments" in own:
                assert other in public["to_act"]


def test_view_describes_the_board_for_a_picture():
    state = GAME.new(2, 8)
    for action in (PlaceToken(0), PlaceToken(1)):
        state, _ = GAME.apply(state, 0, action)
    for action in (PlaceToken(1), PlaceToken(2)):
        state, _ = GAME.apply(state, 1, action)
    state, _ = GAME.apply(state, 1, PlaceHarubang(3))
    view = GAME.view(state, None)
    assert view["phase"] == "turn" and view["to_act"] == [0] and view["seats"] == 2
    assert [loc["tokens"] for loc in view["locations"]] == [[-1, 0], [-1, 0, 1], [-1, 1], [-1], [-1], [-1]]
    assert [loc["top_owner"] for loc in view["locations"]] == [0, 1, 1, None, None, None]
    assert view["harubang"] == 3 and view["locations"][3]["harubang"]
    assert sum(loc["tiles_left"] for loc in view["locations"]) == 80 == view["tiles_on_board"]
    assert len(view["display"]) == 5 and view["deck_size"] == 27
    card = view["display"][0]
    assert set(card) == {"id", "cost", "points", "effect", "everlasting", "text", "say"}
    assert view["players"][0]["tiles"]["haenyeo"] == 0
    assert "result" not in view
    assert "Seat 1" in GAME.summary(state)


@given(
    data=hs.one_of(
        hs.none(),
        hs.integers(),
        hs.text(max_size=5),
        hs.dictionaries(
            hs.sampled_from(["type", "spot", "card", "direction", "tiles", "x"]),
            hs.one_of(hs.none(), hs.integers(-5, 2000), hs.text(max_size=6), hs.lists(hs.integers(-2, 3))),
            max_size=4,
        ),
    )
)
@settings(max_examples=150, deadline=None)
def test_load_action_accepts_only_well_formed_actions(data):
    try:
        action = GAME.load_action(data)
    except IllegalAction:
        return
    assert GAME.dump_action(action) == data


def test_load_action_refuses_malformed_data_with_a_readable_message():
    for bad in (
        {"type": "travel", "spot": 1},
        {"type": "travel", "spot": 1, "direction": "up"},
        {"type": "take_card", "card": "7"},
        {"type": "take_card", "card": True},
        {"type": "pay", "tiles": "all"},
        {"type": "fly"},
        [],
    ):
        with pytest.raises(IllegalAction):
            GAME.load_action(bad)
    assert GAME.load_action({"type": "end_turn"}) == EndTurn()


def test_new_refuses_bad_seat_counts_and_unknown_options():
    with pytest.raises(ValueError):
        GAME.new(1, 0)
    with pytest.raises(ValueError):
        GAME.new(5, 0)
    with pytest.raises(ValueError):
        GAME.new(2, 0, {"variant": "x"})


def test_payment_lists_are_complete_and_distinct():
    # Brute force: every tile each space may take, kept when the hand holds them all.
    rng = random.Random(11)
    for _ in range(200):
        hand = tuple(rng.randint(0, 2) for _ in range(7))
        card = rng.choice(CARD_IDS)
        waive = rules.waivers(())
        got = rules.payments(card, hand, waive)
        spaces = [range(7) if s == "?" else (TILE_BY_KEY[s].index, JOKER) for s in CARDS[card].cost]
        want = set()
        for chosen in product(*spaces):
            counts = tuple(chosen.count(t) for t in range(7))
            if all(c <= h for c, h in zip(counts, hand, strict=True)):
                want.add(counts)
        assert set(got) == want and len(got) == len(want)
        assert bool(got) == rules.can_afford(card, hand, waive)


VIEW_KEYS = set(
    [
        "game",
        "phase",
        "to_act",
        "seats",
        "current",
        "turn",
        "locations",
        "harubang",
        "tile_types",
        "display",
        "deck_size",
        "discarded",
        "removed",
        "tiles_on_board",
        "tiles_spent",
        "players",
        "last_travel",
        "pending",
        "end_reason",
    ]
)
LOCATION_KEYS = {"index", "tokens", "top_owner", "tiles_left", "top_tile", "harubang"}
PLAYER_KEYS = {"seat", "tiles", "tile_count", "cards", "card_points", "tile_points", "score", "everlasting"}


def test_every_view_has_exactly_the_documented_keys_in_every_phase():
    seen_phases = set()
    for seed in range(6):
        state, rng = GAME.new(2 + seed % 3, seed), random.Random(seed)
        while True:
            public = GAME.view(state, None)
            seen_phases.add(public["phase"])
            finished = public["phase"] == FINISHED
            assert set(public) == VIEW_KEYS | ({"result"} if finished else set())
            assert all(set(loc) == LOCATION_KEYS for loc in public["locations"])
            assert all(set(p) == PLAYER_KEYS for p in public["players"])
            if public["pending"] is not None:
                assert public["phase"] in (PAY, HARUBANG)
            if public["last_travel"] is not None:
                assert set(public["last_travel"]) == {"seat", "from", "direction", "path"}
            for seat in range(state.seats):
                own = GAME.view(state, seat)
                paying = public["phase"] == PAY and seat in public["to_act"]
                assert set(own) - set(public) == {"you", "affordable"} | ({"payments"} if paying else set())
            if finished:
                break
            seat = min(GAME.to_act(state))
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    assert seen_phases == {"setup_tokens", "setup_harubang", "turn", "pay", "buying", "harubang", "finished"}
