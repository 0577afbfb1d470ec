"""Random play-outs to the end with invariants at every step; determinism, JSON round trips, secrecy."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.haenyeo import actions as A
from engine.haenyeo import rules
from engine.haenyeo.ai import POLICIES
from engine.haenyeo.components import FREE, NPC, PEARL_ZONE, C
from engine.haenyeo.rules import PEND_HARVEST, PEND_ZONE0
from engine.haenyeo.text import describe

GAME = engine.get("haenyeo")
SEEDS = range(100)


class RoundBook:
    """What one round's events said: who dived where, how far the connection reached, which slots went."""

    def __init__(self) -> None:
        self.dives: dict[int, int] = {}
        self.reach = -1
        self.taken: dict[int, set[int]] = defaultdict(set)
        self.pickers: dict[int, list[int]] = defaultdict(list)
        self.left: dict[int, set[int]] = {}


def check_sheet(state) -> None:
    for seat in range(state.seats):
        for count, track in zip(state.food[seat], C.tracks, strict=True):
            assert 0 <= count <= track
        assert 0 <= state.eggs_used[seat] <= state.eggs[seat] <= C.egg_spaces
        assert 0 <= state.pearls[seat] <= len(C.pearl_points)
        assert rules.check_trash_mask(state.trash[seat])
        assert state.pawns[seat] == C.start_pawns + state.third[seat]
        scored = sum(1 for r in C.scoring_rounds if r < state.round or state.phase == "end")
        assert len(state.scores[seat]) == scored


def check_monotonic(before, after) -> None:
    for seat in range(before.seats):
        assert all(b <= a for b, a in zip(before.food[seat], after.food[seat], strict=True))
        assert before.eggs[seat] <= after.eggs[seat]
        assert before.eggs_used[seat] <= after.eggs_used[seat]
        assert before.pearls[seat] <= after.pearls[seat]
        assert before.trash[seat] & after.trash[seat] == before.trash[seat]


def check_state(state) -> None:
    check_sheet(state)
    sea = rules.rows(state)
    assert len(state.taken) == 12 and not sea[0] and not sea[PEARL_ZONE]
    for zone, owners in enumerate(state.taken):
        assert len(owners) == len(sea[zone])
        assert all(owner in (FREE, NPC) or 0 <= owner < state.seats for owner in owners)
        if state.phase == "actions" and zone > state.reach:
            assert all(owner == FREE for owner in owners), "nobody harvests a disconnected zone"
    if state.phase == "select":
        for seat in range(state.seats):
            assert state.chosen[seat].bit_count() <= state.pawns[seat]
            if state.confirmed[seat]:
                assert state.chosen[seat].bit_count() == state.pawns[seat]
    to_act = GAME.to_act(state)
    if state.phase == "actions":
        assert len(to_act) == 1
        (seat,) = to_act
        kind = state.pending[0]
        assert len(GAME.legal_actions(state, seat)) >= 2, "a single option is taken by the engine"
        if kind == PEND_HARVEST:
            assert 1 <= state.zone <= 10 and state.zone <= state.reach
            assert state.chosen[seat] >> state.zone & 1
        if kind == PEND_ZONE0:
            assert state.zone == 0 and state.chosen[seat] & 1
    if state.phase == "end":
        assert not to_act and GAME.result(state) is not None
    for seat in to_act:
        groups: dict[str, int] = defaultdict(int)
        for action in GAME.legal_actions(state, seat):
            groups[GAME.action_group(state, seat, action)] += 1
            assert len(GAME.action_label(state, seat, action)) <= 80
        assert all(count <= 25 for count in groups.values()), "a select holds 25 options"


def check_events(before, after, events, book: RoundBook) -> RoundBook:
    for event in events:
        assert event["type"] and event["text"]
        kind = event["type"]
        if kind == "reveal":
            player = event["actor"]
            need = C.npc_cards if player == NPC else before.pawns[player]
            assert event["zones"].bit_count() == need, "as many Haenyeo as cards chosen"
            book.dives[player] = event["zones"]
        elif kind == "connection":
            book.reach = event["reach"]
        elif kind in ("harvest", "harvest_all"):
            zone = event["zone"]
            assert 1 <= zone <= book.reach, "only connected Haenyeo act"
            assert book.dives[event["actor"]] >> zone & 1
            if kind == "harvest":
                assert event["slot"] not in book.taken[zone], "a slot is harvested once"
                book.taken[zone].add(event["slot"])
                book.pickers[zone].append(event["actor"])
            else:
                book.taken[zone] = set(range(len(rules.rows(before)[zone])))
        elif kind == "unharvested":
            book.left[event["zone"]] = set(event["slots"])
        elif kind == "round" or kind == "end":
            sea = rules.rows(before)
            for zone in range(1, PEARL_ZONE):
                slots = set(range(len(sea[zone])))
                divers = [p for p, mask in book.dives.items() if mask >> zone & 1]
                if divers and zone <= book.reach:
                    if len(divers) == 1:
                        assert book.taken[zone] == slots, "a lone Haenyeo harvests ALL items"
                    else:
                        # One slot per Haenyeo (NPC first, then clockwise from the First
                        # Player) until the slots or the Haenyeo run out; the rest stays.
                        order = [NPC] if NPC in divers else []
                        order += [s for s in rules.turn_order(before) if s in divers]
                        assert book.pickers[zone] == order[: len(slots)], "each Haenyeo takes one slot"
                        assert book.left.get(zone, set()) == slots - book.taken[zone]
                else:
                    assert not book.taken[zone]
            book = RoundBook()
    return book


@contextmanager
def at(state) -> Iterator[None]:
    """A failed check inside says the state it was checking (secrets too: this is a test)."""
    try:
        yield
    except AssertionError as error:
        raise AssertionError(f"{error}\nat\n{describe(state, secrets=True)}") from error


def play(seats: int, seed: int, policy: str = "random", check: bool = True):
    """Play one game; return (final state, action log)."""
    rng = random.Random(seed)
    state = GAME.new(seats, seed)
    log = []
    book = RoundBook()
    while True:
        if check:
            with at(state):
                check_state(state)
        to_act = GAME.to_act(state)
        if not to_act:
            return state, log
        seat = min(to_act)
        action = POLICIES[policy](GAME, state, seat, rng)
        assert action in GAME.legal_actions(state, seat), f"{action} at\n{describe(state, secrets=True)}"
        after, events = GAME.apply(state, seat, action)
        if check:
            with at(after):
                check_monotonic(state, after)
                book = check_events(state, after, events, book)
        log.append((seat, action))
        state = after


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_random_play_outs_keep_every_invariant(seats):
    for seed in SEEDS:
        state, _log = play(seats, seed)
        assert state.phase == "end" and state.round == C.rounds
        result = GAME.result(state)
        assert len(result.scores) == seats and min(result.ranking) == 1
        assert all(b["total"] == s for b, s in zip(result.breakdown, result.scores, strict=True))


@pytest.mark.parametrize("seats", [2, 4])
def test_greedy_play_outs_keep_every_invariant(seats):
    for seed in range(2):
        state, _ = play(seats, seed, "greedy")
        assert state.phase == "end"


def test_greedy_beats_random_on_average():
    def mean(policy):
        scores = [s for seed in range(6) for s in GAME.result(play(4, seed, policy, check=False)[0]).scores]
        return sum(scores) / len(scores)

    assert mean("greedy") > mean("random") + 30


def test_same_seed_and_actions_give_the_same_state():
    state, log = play(3, 42, check=False)
    again = GAME.new(3, 42)
    for seat, action in log:
        again, _ = GAME.apply(again, seat, GAME.load_action(json.loads(json.dumps(GAME.dump_action(action)))))
    assert again == state
    assert GAME.dump_state(again) == GAME.dump_state(state)
    assert play(3, 42, check=False)[1] == log


def test_policies_are_deterministic_for_a_given_rng():
    for policy in ("random", "greedy"):
        assert play(2, 5, policy, check=False)[1] == play(2, 5, policy, check=False)[1]


def test_state_and_action_json_round_trips_at_every_step():
    rng = random.Random(3)
    state = GAME.new(2, 3)
    seen_types = set()
    while GAME.to_act(state):
        data = json.loads(json.dumps(GAME.dump_state(state)))
        loaded = GAME.load_state(data)
        assert loaded == state
        assert GAME.legal_actions(loaded, min(GAME.to_act(state))) == GAME.legal_actions(
            state, min(GAME.to_act(state))
        )
        json.dumps(GAME.view(state, None))
        for seat in GAME.to_act(state):
            json.dumps(GAME.view(state, seat))
            for action in GAME.legal_actions(state, seat):
                seen_types.add(type(action))
                assert GAME.load_action(json.loads(json.dumps(GAME.dump_action(action)))) == action
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, POLICIES["random"](GAME, state, seat, rng))
    assert {A.ToggleCard, A.Confirm, A.Harvest} <= seen_types
    for action in [A.GAIN, A.DONE, A.Exchange(3), A.Exchange(1, (2,)), A.Exchange(2, (0, 4))]:
        assert GAME.load_action(GAME.dump_action(action)) == action
    for action in [A.TakeTrash(3), A.TakeSeafood((1, 1))]:
        assert GAME.load_action(GAME.dump_action(action)) == action
    assert GAME.view(state, None)["result"] == GAME.result(state).to_dict()


def test_apply_never_changes_the_old_state():
    rng = random.Random(8)
    state = GAME.new(4, 8)
    while GAME.to_act(state):
        snapshot = GAME.dump_state(state)
        seat = min(GAME.to_act(state))
        new, _ = GAME.apply(state, seat, POLICIES["random"](GAME, state, seat, rng))
        assert GAME.dump_state(state) == snapshot
        state = new


# ------------------------------------------------------------------ secrecy


def public_events(events):
    return [e for e in events if not e.get("private")]


@settings(max_examples=40, deadline=None)
@given(
    seats=st.integers(2, 5),
    seed=st.integers(0, 1000),
    first=st.sets(st.integers(0, 11), min_size=1, max_size=2),
    second=st.sets(st.integers(0, 11), min_size=1, max_size=2),
    confirm=st.booleans(),
)
def test_a_secret_selection_is_invisible_to_everyone_else(seats, seed, first, second, confirm):
    base = GAME.new(seats, seed)
    confirm = confirm and seats > 2  # with 2 players, seat 0's confirm would be the reveal itself
    # Another seat has already confirmed (the reveal waits for seat 0 and, with 3+ players, seat 1).
    for zone in (4, 7):
        base, _ = GAME.apply(base, seats - 1, A.ToggleCard(zone))
    base, _ = GAME.apply(base, seats - 1, A.CONFIRM)
    if seats > 2:
        assert GAME.to_act(base) >= {0, 1}
    outcomes = []
    for picks in (first, second):
        state, seen = base, []
        for zone in sorted(picks):
            state, events = GAME.apply(state, 0, A.ToggleCard(zone))
            seen.extend(events)
        if confirm and len(picks) == state.pawns[0]:
            state, events = GAME.apply(state, 0, A.CONFIRM)
            seen.extend(events)
        outcomes.append((state, seen, confirm and len(picks) == state.pawns[0]))
    (a, events_a, confirmed_a), (b, events_b, confirmed_b) = outcomes
    if confirmed_a != confirmed_b:
        return  # whether a seat has confirmed is public
    assert a.phase == b.phase == "select"
    for viewer in [None, *range(1, seats)]:
        assert GAME.view(a, viewer) == GAME.view(b, viewer)
    assert public_events(events_a) == public_events(events_b)
    assert all(e["seat"] == 0 for e in events_a if e.get("private"))
    assert GAME.view(a, 0)["you"]["selected"] == sorted(first)
    assert GAME.summary(a) == GAME.summary(b)


def test_public_view_hides_every_selection_until_the_reveal():
    state = GAME.new(3, 4)
    state, _ = GAME.apply(state, 0, A.ToggleCard(3))
    view = GAME.view(state, None)
    assert view["you"] is None
    assert all(p["dives"] is None for p in view["players"])
    assert all(not z["divers"] and not z["creatures"] for z in view["zones"])
    assert GAME.view(state, 1)["you"]["selected"] == []
    assert GAME.view(state, 0)["you"]["selected"] == [3]
