"""Haenyeo, issue #40: the First Player marker stays put by the rulebook; passing it is a house rule.

Rulebook, ④ Prepare Next Round: "Retrieve all Haenyeo pawns and diving cards … Reveal the next
shallow and deep sea cards … After rounds 3, 6 and 8, score" — passing the First Player marker is
not among its steps, so the marker stays where it is. Tables may choose the house rule "passes
clockwise" in the lobby. A table stored before the option existed was played with the marker
passing, so its options without ``first_player`` still mean that.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.base import IllegalAction
from engine.bots import play_states
from engine.haenyeo.ai import POLICIES
from engine.haenyeo.setup import FIRST_OPTION
from engine.haenyeo.state import dump, load
from tests.discord.test_lobby import fetch, open_table
from tests.play_helpers import latest_board, messages

GAME = engine.get("haenyeo")
DEFAULTS = {name: values[0] for name, values in GAME.options.items()}


def first_players(seats: int, seed: int, options: dict | None) -> list[int]:
    """The First Player of each round of a seeded greedy game."""
    greedy = POLICIES["greedy"]
    seen: dict[int, int] = {}
    for state in play_states(GAME, GAME.new(seats, seed, options), lambda _s: greedy, random.Random(seed)):
        seen.setdefault(state.round, state.first)
        assert seen[state.round] == state.first  # the marker moves only between rounds
    assert sorted(seen) == list(range(1, 9))
    return [seen[r] for r in range(1, 9)]


def test_the_option_is_declared_with_the_rulebook_first():
    assert GAME.options["first_player"] == FIRST_OPTION == ("stays", "clockwise")
    assert GAME.option_label("first_player") == "First Player marker"
    assert GAME.option_label("first_player", "stays") == "Stays (rulebook)"
    assert GAME.option_label("first_player", "clockwise") == "Passes clockwise (house rule)"


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_with_the_default_options_the_marker_does_not_move(seats):
    """④ Prepare Next Round does not pass the First Player marker."""
    for options in (DEFAULTS, None, {"first_player": "stays"}):
        order = first_players(seats, 11, options)
        assert order == [order[0]] * 8


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_with_the_house_rule_the_marker_passes_clockwise(seats):
    order = first_players(seats, 11, {**DEFAULTS, "first_player": "clockwise"})
    assert order == [(order[0] + r) % seats for r in range(8)]


def test_the_board_and_the_round_event_say_the_house_rule():
    plain = GAME.new(3, 2, DEFAULTS)
    house = GAME.new(3, 2, {**DEFAULTS, "first_player": "clockwise"})
    assert "house rule" not in GAME.summary(plain)
    assert "house rule: the marker passes clockwise" in GAME.summary(house)
    assert GAME.view(plain, None)["first_player_passes"] is False
    assert GAME.view(house, None)["first_player_passes"] is True
    assert "(규칙 변형:" in GAME.summary(house, lang="ko")


def test_an_unknown_choice_is_refused():
    with pytest.raises(IllegalAction, match="Unknown First Player rule"):
        GAME.new(3, 1, {"first_player": "anticlockwise"})


def test_a_table_stored_before_the_option_still_replays_identically():
    """Its options name the score tile only (the service stores every declared option), and its
    moves were played with the marker passing: a replay must pass it too, move for move."""
    old = {"score_tile": "random"}
    greedy = POLICIES["greedy"]
    played = list(play_states(GAME, GAME.new(3, 5, old), lambda _s: greedy, random.Random(5)))
    same = list(
        play_states(
            GAME, GAME.new(3, 5, {**old, "first_player": "clockwise"}), lambda _s: greedy, random.Random(5)
        )
    )
    assert [dump(s) for s in played] == [dump(s) for s in same]
    assert len({s.first for s in played}) == 3
    # a running table's stored state, saved before the field existed, keeps passing the marker
    saved = dump(played[10])
    del saved["passes"]
    assert load(saved).passes is True
    assert load(dump(GAME.new(3, 5, DEFAULTS))).passes is False


@pytest.mark.simcord(settle_timeout=60.0)  # the first board's pictures on a shared, loaded machine
async def test_the_host_chooses_the_house_rule_in_the_lobby_and_the_board_says_it(simcord_env):
    guild = simcord_env.create_guild("Jeju Friends")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    _, lobby, thread = await open_table(channel, alice, game="haenyeo")
    options = fetch(thread, lobby.id).embeds[0].fields[0].value
    assert "First Player marker: Stays (rulebook)" in options
    await alice.select(fetch(thread, lobby.id), ["clockwise"], custom_id="lobbyset:first_player:1")
    options = fetch(thread, lobby.id).embeds[0].fields[0].value
    assert "First Player marker: Passes clockwise (house rule)" in options
    await alice.select(fetch(thread, lobby.id), ["normal"], custom_id="lobbyset:level:1")
    await alice.click(fetch(thread, lobby.id), label="Start")
    table = await simcord_env.bot.tables.get(1)
    assert table.options["first_player"] == "clockwise"
    assert simcord_env.bot.tables.state_of(table).passes
    board = latest_board(thread)
    assert board is not None and "house rule: the marker passes clockwise" in board.content
    assert any("house rule" in m.content for m in messages(thread))


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_random_play_outs_under_the_house_rule_keep_every_invariant(seats):
    """The property suite's invariants (tests/engine/test_haenyeo_properties.py) hold with the marker
    passing."""
    from tests.engine.test_haenyeo_properties import RoundBook, check_events, check_monotonic, check_state

    for seed in range(3):
        rng = random.Random(seed)
        state, book = GAME.new(seats, seed, {"first_player": "clockwise"}), RoundBook()
        while to_act := GAME.to_act(state):
            check_state(state)
            seat = min(to_act)
            after, events = GAME.apply(state, seat, POLICIES["random"](GAME, state, seat, rng))
            check_monotonic(state, after)
            book = check_events(state, after, events, book)
            if after.round != state.round:
                assert after.first == (state.first + 1) % seats
            state = after
        assert state.phase == "end" and GAME.result(state).winners
