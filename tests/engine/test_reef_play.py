"""Reef & Ruins property tests: random play-outs with invariants, determinism, JSON, secrecy."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.bots import play_out, play_states
from engine.reef.ai import POLICIES
from engine.reef.components import (
    ATOLL,
    BARRIER,
    LOW_VALUE,
    PEARLS,
    REEFS,
    ROUNDS,
    RUINS,
    SECTIONS,
    SHELL_PAIRS,
    SIDES,
    texture_ok,
)
from engine.reef.state import EMPTY, Sheet
from engine.reef.text import state_text, table_text

GAME = engine.get("reef")
RANDOM = POLICIES["random"]
GREEDY = POLICIES["greedy"]

_TEXTURES: list[set[int]] = []
for _cell, _t in enumerate(ATOLL.texture_of):
    if _t >= 0:
        while len(_TEXTURES) <= _t:
            _TEXTURES.append(set())
        _TEXTURES[_t].add(_cell)


def check_ruins(sheet: Sheet) -> None:
    """Every written value obeys its ruin's writing rule."""
    for ruin, slots in zip(RUINS, sheet.ruins, strict=True):
        assert len(slots) == ruin.size
        for slot, value in enumerate(slots):
            if value == EMPTY:
                continue
            assert value >= LOW_VALUE  # no upper cap (issue #40)
            if ruin.rule == "same":
                row = [slots[x] for x in ruin.rows[ruin.row_of[slot]] if slots[x] != EMPTY]
                assert set(row) == {value}
            elif ruin.rule == "different":
                assert all(slots[x] != value for x in ruin.neighbours[slot])
            elif ruin.rule == "plus-minus-one":
                assert all(slots[x] != EMPTY for x in range(slot))
                if slot:
                    assert abs(slots[slot - 1] - value) == 1
            elif ruin.rule == "odds":
                assert value % 2 == 1
            elif ruin.rule == "evens":
                assert value % 2 == 0
            else:  # each written value at most each written value it is balanced on
                assert all(slots[x] == EMPTY or value <= slots[x] for x in ruin.supports[slot])


def check_reef(sheet: Sheet, reef: str) -> None:
    if reef == "bewitching-barrier":
        assert sheet.reef >> BARRIER.start & 1
        # every marked space is connected to Start through marked spaces
        seen, todo = {BARRIER.start}, [BARRIER.start]
        while todo:
            cell = todo.pop()
            for other in range(BARRIER.rows * BARRIER.cols):
                if BARRIER.neighbours[cell] >> other & 1 and sheet.reef >> other & 1 and other not in seen:
                    seen.add(other)
                    todo.append(other)
        assert sum(1 << c for c in seen) == sheet.reef
    else:
        covered = 0
        for value, single, cells in sheet.shapes:
            mask = sum(1 << c for c in cells)
            assert not covered & mask, "shapes overlap"
            covered |= mask
            assert texture_ok(cells, ATOLL.texture_of, _TEXTURES)
            if single:
                assert len(cells) == 1
            else:
                assert len(cells) == len(ATOLL.shapes[value][0])
        assert covered == sheet.reef


def check_state(state) -> None:
    """Invariants that hold after every step; a broken one shows the table as text (`state_text`)."""
    try:
        _check_state(state)
    except AssertionError as failure:
        raise AssertionError(f"{failure}\n\nThe table:\n{state_text(state)}") from failure


def _check_state(state) -> None:
    assert state.phase in ("lucky", "round", "finished")
    assert 0 <= state.round <= ROUNDS
    for sheet in (*state.sheets, *state.bases):
        assert 0 <= sheet.shells <= SHELL_PAIRS
        assert sheet.shells <= sheet.shells_earned
        assert all(0 <= n <= len(sec.spaces) for n, sec in zip(sheet.ench, SECTIONS, strict=True))
        used_boxes = bin(sheet.bonuses).count("1")
        assert used_boxes <= len(PEARLS)
        assert sheet.pearls >= sheet.pearls_lost + sheet.pending.count("pearl")
        check_ruins(sheet)
        check_reef(sheet, state.reef)
        for value, kind, adj, _used in sheet.dice:
            assert kind in ("hydra", "roll", "boon")
            # no wrap, nothing below 0; above, only the pairs earned can have moved it
            assert LOW_VALUE <= value + adj <= value + sheet.shells_earned
    if state.phase == "round":
        assert len(state.dice) in (0, 3) and all(1 <= v <= 6 for v in state.dice)
        if not state.dice:  # the boon step: only the boon's choices, before the dice are rolled
            assert all(not s.dice or all(d[1] != "hydra" for d in s.dice) for s in state.sheets)
            assert GAME.to_act(state) == {i for i, s in enumerate(state.sheets) if s.pending}
    if state.phase in ("round", "finished"):
        lucky = [s.lucky for s in state.sheets]
        assert len(set(lucky)) == min(len(lucky), 6), "lucky numbers differ when possible"
    if state.phase == "finished":
        assert GAME.to_act(state) == frozenset()
        assert GAME.result(state) is not None


def check_menus(state, seat: int) -> None:
    legal = GAME.legal_actions(state, seat)
    assert legal, "a seat that must act has no move"
    groups: dict[str, int] = {}
    for action in legal:
        label = GAME.action_label(state, seat, action)
        assert 0 < len(label) <= 80
        group = GAME.action_group(state, seat, action)
        groups[group] = groups.get(group, 0) + 1
        assert GAME.load_action(json.loads(json.dumps(GAME.dump_action(action)))) == action
    assert max(groups.values()) <= 25, groups
    assert len(groups) <= 12


def random_game(seats: int, seed: int, options: dict, *, menus_every: int = 7, views: bool = False):
    """Play a random game to the end, checking invariants; return (final state, action log)."""
    rng = random.Random(seed)
    state = GAME.new(seats, seed, options)
    log = []
    step = 0
    while True:
        to_act = GAME.to_act(state)
        if not to_act:
            break
        check_state(state)
        seat = min(to_act)
        for other in range(seats):
            if other not in to_act:
                assert GAME.legal_actions(state, other) == []
        if step % menus_every == 0:
            check_menus(state, seat)
        action = RANDOM(GAME, state, seat, rng)
        if views:
            others = {o: GAME.view(state, o) for o in range(seats) if o != seat}
            public = GAME.view(state, None)
        new, events = GAME.apply(state, seat, action)
        for event in events:
            assert event["type"] and event["text"]
            json.dumps(event)
        if views:
            # public moments: a round ends, the dice are rolled, a lucky number is picked (in public)
            ended_round = (
                new.round != state.round or new.phase != state.phase or new.dice != state.dice
            ) or state.phase == "lucky"
            for other, before in others.items():
                after = GAME.view(new, other)
                if not ended_round:
                    ignore = ("to_act", "confirmed")
                    assert {k: v for k, v in after.items() if k not in ignore} == {
                        k: v for k, v in before.items() if k not in ignore
                    }, "another seat's unconfirmed work leaked"
            if not ended_round:
                after_public = GAME.view(new, None)
                for key in public:
                    if key not in ("to_act", "confirmed"):
                        assert after_public[key] == public[key]
            for event in events:
                if event.get("private"):
                    assert event["seat"] == seat
        log.append((seat, action))
        state = new
        step += 1
    check_state(state)
    return state, log


@pytest.mark.parametrize("reef", REEFS)
@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("seed", range(20))
def test_random_solo_games_finish_with_invariants(reef, side, seed):
    state, _ = random_game(1, seed, {"reef": reef, "tracker": side})
    assert state.phase == "finished" and state.round == ROUNDS
    result = GAME.result(state)
    assert result.winners == frozenset({0})
    assert sum(result.breakdown[0].values()) == result.scores[0]


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("reef", REEFS)
@pytest.mark.parametrize("seed", range(5))
def test_random_multiplayer_games_finish_with_invariants(seats, reef, seed):
    state, _ = random_game(seats, 100 * seed + seats, {"reef": reef}, menus_every=23)
    result = GAME.result(state)
    assert len(result.scores) == seats
    assert result.winners or len(set(result.scores)) == 1
    json.dumps(GAME.view(state, None))


@settings(max_examples=8, deadline=None)
@given(seats=st.integers(1, 8), seed=st.integers(0, 2**31), reef=st.sampled_from(REEFS))
def test_any_seed_any_table_plays_to_the_end(seats, seed, reef):
    state = GAME.new(seats, seed, {"reef": reef})
    state = play_out(GAME, state, lambda _seat: RANDOM, random.Random(seed))
    check_state(state)
    assert GAME.result(state) is not None


def test_one_seats_work_never_reaches_another_seats_view():
    for reef in REEFS:
        random_game(3, 5, {"reef": reef}, menus_every=50, views=True)


def test_same_seed_same_actions_same_state_and_json_round_trips():
    options = {"reef": "arcane-atoll", "tracker": "moonrise"}
    final, log = random_game(2, 9, options, menus_every=50)
    state = GAME.new(2, 9, options)
    for step, (seat, action) in enumerate(log):
        if step % 5 == 0:
            dumped = json.loads(json.dumps(GAME.dump_state(state)))
            assert GAME.load_state(dumped) == state
            json.dumps(GAME.view(state, seat))
        state, _ = GAME.apply(state, seat, action)
    assert state == final
    assert GAME.dump_state(state) == GAME.dump_state(final)
    assert GAME.load_state(json.loads(json.dumps(GAME.dump_state(final)))) == final
    again, _ = random_game(2, 9, options, menus_every=50)
    assert again == final


def test_apply_never_mutates_the_old_state():
    state = GAME.new(1, 3)
    rng = random.Random(3)
    for _ in range(60):
        seat = min(GAME.to_act(state))
        before = json.dumps(GAME.dump_state(state))
        new, _ = GAME.apply(state, seat, RANDOM(GAME, state, seat, rng))
        assert json.dumps(GAME.dump_state(state)) == before
        state = new


def test_dice_come_from_the_seed():
    def first_roll(seed):
        state = GAME.new(1, seed)
        return GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])[0].dice

    assert first_roll(42) == first_roll(42)
    assert len({first_roll(seed) for seed in range(10)}) > 1


@pytest.mark.parametrize("reef", REEFS)
def test_greedy_plays_legal_deterministic_games_and_beats_random(reef):
    options = {"reef": reef}
    greedy = [
        GAME.result(
            play_out(GAME, GAME.new(1, seed, options), lambda _s: GREEDY, random.Random(seed))
        ).scores[0]
        for seed in range(2)
    ]
    again = GAME.result(play_out(GAME, GAME.new(1, 0, options), lambda _s: GREEDY, random.Random(0))).scores[
        0
    ]
    assert again == greedy[0]
    rand = [
        GAME.result(
            play_out(GAME, GAME.new(1, seed, options), lambda _s: RANDOM, random.Random(seed))
        ).scores[0]
        for seed in range(2)
    ]
    assert min(greedy) > max(rand)
    assert max(rand) <= 100  # random play rates Hydra Hatchling


@pytest.mark.parametrize("reef", REEFS)
def test_greedy_takes_over_a_half_played_round(reef):
    rng = random.Random(4)
    for seed in range(6):
        state = GAME.new(1, seed, {"reef": reef})
        for _ in range(3 + seed):  # the lucky number, then a few random steps of round 1
            state, _ = GAME.apply(state, 0, RANDOM(GAME, state, 0, rng))
        for _ in range(60):
            if state.round > 1:
                break
            action = GREEDY(GAME, state, 0, rng)
            assert action in GAME.legal_actions(state, 0)
            state, _ = GAME.apply(state, 0, action)
        assert state.round == 2, "greedy could not finish a round someone else started"


def test_greedy_and_random_share_a_table():
    state = GAME.new(3, 77, {"reef": "arcane-atoll"})
    policies = {0: GREEDY, 1: RANDOM, 2: GREEDY}
    state = play_out(GAME, state, lambda seat: policies[seat], random.Random(77))
    check_state(state)
    result = GAME.result(state)
    assert result.scores[0] > result.scores[1] and result.scores[2] > result.scores[1]


def test_the_view_shape_in_every_phase():
    state = GAME.new(2, 1)
    for phase_view in (GAME.view(state, None), GAME.view(state, 0)):
        assert phase_view["phase"] == "lucky" and phase_view["seats"] == 2 and phase_view["to_act"] == [0]
    assert GAME.view(state, 0)["you"] == {"lucky_choice": None}
    state = play_out(GAME, state, lambda _s: RANDOM, random.Random(1))
    view = GAME.view(state, None)
    assert view["phase"] == "finished" and view["to_act"] == [] and "result" in view
    state = GAME.new(1, 2, {"reef": "arcane-atoll"})
    state, _ = GAME.apply(state, 0, GAME.legal_actions(state, 0)[1])
    view = GAME.view(state, 0)
    for key in ("dice", "boon", "sheets", "board", "you", "round", "rounds", "reef", "tracker"):
        assert key in view
    sheet = view["sheets"][0]
    for key in ("lucky", "shells", "pearls", "ruins", "enchantments", "reef", "score", "changed"):
        assert key in sheet
    assert "shapes" in sheet["reef"] and "textures" in view["board"]["reef"]
    assert "you" not in GAME.view(state, None)
    assert GAME.summary(state)


def test_a_state_reads_as_text_and_a_broken_one_shows_it():
    """The state's text form is its view's, for the audience asked (the public by default, so a log
    line never shows a seat's work in progress); a failed invariant prints it."""
    states = play_states(GAME, GAME.new(2, 8, {"reef": "arcane-atoll"}), lambda _s: RANDOM, random.Random(8))
    state = next(s for s in states if s.phase == "round" and s.dice and s.sheets[1].pick >= 0)
    assert state_text(state) == table_text(GAME.view(state, None))
    assert state_text(state, 1) == table_text(GAME.view(state, 1))
    assert state_text(state, 1, "ko") == table_text(GAME.view(state, 1), "ko")
    broken = state._replace(sheets=(state.sheets[0]._replace(shells=SHELL_PAIRS + 1), *state.sheets[1:]))
    with pytest.raises(AssertionError) as failure:
        check_state(broken)
    assert f"The table:\n{state_text(broken)}" in str(failure.value)
    assert "Reef & Ruins — round, round" in str(failure.value)


def test_text_form_reads_from_views_only():
    state = GAME.new(2, 8, {"reef": "arcane-atoll"})
    state = play_out(GAME, state, lambda _s: RANDOM, random.Random(8))
    text = table_text(GAME.view(state, None))
    assert "Seat 2" in text and "Arcane Atoll" in text and "Ruin 6 Pyramid of the Deep" in text


def test_view_keys_match_the_documented_shape():
    top = {
        "game", "title", "phase", "to_act", "seats", "viewer", "round", "rounds", "reef", "reef_name",
        "tracker", "tracker_name", "dice", "boon", "confirmed", "sheets", "board",
    }  # fmt: skip
    sheet_keys = {
        "seat", "lucky", "shells", "shells_earned", "shells_spent", "pearls", "pearls_lost",
        "pearl_bonuses", "pearl_coins", "ruins", "enchantments", "reef", "score", "changed",
    }  # fmt: skip
    you = {"confirmed", "dice", "searched", "cast", "picked", "placing", "orientation", "pending"}
    state = GAME.new(2, 4)
    assert set(GAME.view(state, None)) == top
    assert set(GAME.view(state, 1)) == top | {"you"}
    state = play_out(GAME, state, lambda _s: RANDOM, random.Random(4))
    assert set(GAME.view(state, None)) == top | {"result"}
    for reef in REEFS:
        state = GAME.new(1, 4, {"reef": reef})
        state, _ = GAME.apply(state, 0, GAME.legal_actions(state, 0)[2])
        view = GAME.view(state, 0)
        assert set(view["you"]) == you
        assert set(view["sheets"][0]) == sheet_keys
        assert set(view["board"]) == {
            "ruins",
            "enchantments",
            "pearl_bonuses",
            "reef",
            "tracker",
            "lucky_coins",
            "shell_pairs",
        }
        assert set(view["sheets"][0]["changed"]) == {
            "ruins",
            "reef",
            "enchantments",
            "pearl_bonuses",
            "shells",
        }
