"""Jeju Island hints: `ai.hints.explain` gives one true, move-specific line of why, blind to hidden things.

A hint shows under the expert's move ("💡 Suggest"); its why must name what this
move does now (the tiles it collects, the card it takes, the tile it pays), differ
between moves that do different things, never depend on the deck order or on the
tiles under each stack's top, and read in Korean with every placeholder filled.
"""

from __future__ import annotations

import random
import re
import statistics
import time

import pytest

import engine
import i18n
from engine.jeju import actions as A
from engine.jeju import rules
from engine.jeju.ai import expert as expert_module
from engine.jeju.ai import hints
from engine.jeju.components import CARDS, LOCATIONS, NEUTRAL, TILE_LABELS, card_text
from hosting.service import WHY

# The bot_levels fixtures: its make_bot also closes the bot's worker pool, which Suggest starts.
from tests.discord.test_bot_levels import make_bot, settings, world  # noqa: F401
from tests.discord.test_lobby import open_table
from tests.engine.test_jeju_expert import hide_differently
from tests.play_helpers import latest_board, said
from tests.seeded import random_states

GAME = engine.get("jeju")
KO = i18n.words("ko")
EN = i18n.english

#: Seeded random play-outs of every seat count, a dozen moments from each.
CASES = [(seats, seed) for seats in (2, 3, 4) for seed in (1, 2, 3)]


def moments(seats: int, seed: int) -> list:
    return [s for s in random_states("jeju", seats, seed=seed, moments=12) if GAME.to_act(s)]


def choices(state) -> tuple[int, list]:
    seat = min(GAME.to_act(state))
    return seat, [a for a in GAME.legal_actions(state, seat) if type(a) is not A.Back]


def collected(state, seat: int, action: A.Travel) -> list[tuple[int, int]]:
    """(location, tile) of every top tile this seat collects with this Travel."""
    tokens, _ = rules.sow(state.tokens, action.spot, A.DIRECTIONS[action.direction])
    return [
        (spot, state.stacks[spot][-1])
        for spot in range(LOCATIONS)
        if tokens[spot] and tokens[spot][-1] == seat and state.stacks[spot]
    ]


def names_the_move(state, seat: int, action, english: str) -> bool:
    """Whether the English names the move's own object: its card, tiles, location or number."""
    kind = type(action)
    if kind is A.TakeCard:
        return card_text(CARDS[action.card]) in english
    if kind is A.Pay:
        return all(TILE_LABELS[t] in english for t, n in enumerate(action.tiles) if n)
    if kind is A.Travel:
        found = collected(state, seat, action)
        if "ends the game" in english:
            return bool(re.search(r"\d+ points", english))
        if not found:
            return f"locations {(action.spot + A.DIRECTIONS[action.direction]) % LOCATIONS + 1}" in english
        return all(f"the {TILE_LABELS[tile]} at location {spot + 1}" in english for spot, tile in found)
    if kind in (A.MoveHarubang, A.PlaceToken, A.PlaceHarubang):
        return f"location {action.spot + 1}" in english
    return bool(re.search(r"\d", english))


def allowed_silence(state, seat: int, action) -> bool:
    """The moves with nothing specific to say: a Harubang bonus at an empty location, the statue
    placed where the seat is not on top."""
    if type(action) is A.MoveHarubang:
        return not state.stacks[action.spot]
    if type(action) is A.PlaceHarubang:
        tokens = state.tokens[action.spot]
        return not tokens or tokens[-1] in (NEUTRAL, *(s for s in range(state.seats) if s != seat))
    return False


@pytest.mark.parametrize(("seats", "seed"), CASES)
def test_every_move_gets_a_specific_line_that_reads_in_korean(seats, seed):
    kinds = set()
    for state in moments(seats, seed):
        seat, actions = choices(state)
        for action in actions:
            why = hints.explain(GAME, state, seat, action)
            if why is None:
                assert allowed_silence(state, seat, action), action
                continue
            english = EN(why)
            assert names_the_move(state, seat, action, english), (action, english)
            korean = KO.msg(why)
            assert not re.search(r"[{}]", korean) and not re.search(r"[{}]", english), korean
            assert korean != english and re.search("[가-힣]", korean), korean
            kinds.add(why["id"])
    assert len(kinds) >= 5  # several kinds of reason, not one template


@pytest.mark.parametrize(("seats", "seed"), CASES)
def test_moves_that_do_different_things_get_different_lines(seats, seed):
    for state in moments(seats, seed):
        seat, actions = choices(state)
        said_for: dict[object, str] = {}
        for action in actions:
            why = hints.explain(GAME, state, seat, action)
            if why is None:
                continue
            english = EN(why)
            if type(action) is A.Travel:
                if "ends the game" in english:
                    continue  # every game-ending Travel says the same final score
                what = ("travel", tuple(collected(state, seat, action)) or (action.spot, action.direction))
            elif type(action) is A.TakeCard:
                what = ("card", card_text(CARDS[action.card]))
            elif type(action) is A.Pay:
                what = ("pay", action.tiles)
            else:
                what = (type(action).__name__, getattr(action, "spot", None))
            said_for.setdefault(what, english)
        texts = list(said_for.values())
        assert len(set(texts)) == len(texts), texts


def test_the_line_ignores_the_deck_order_and_the_tiles_under_each_top():
    """Only a stack's top tile shows and the deck is face down: changing them changes nothing said."""
    checked = 0
    for seats, seed in CASES:
        for state in moments(seats, seed):
            seat, actions = choices(state)
            other = hide_differently(state, seed + 7)
            assert other.stacks != state.stacks or other.deck != state.deck or len(state.deck) < 2
            for action in actions:
                assert hints.explain(GAME, other, seat, action) == hints.explain(GAME, state, seat, action)
                checked += 1
    assert checked > 300


def test_the_line_for_the_experts_own_choice(monkeypatch):
    """The move Suggest shows is the expert's; its line is specific too (a small look-ahead budget)."""
    monkeypatch.setattr(expert_module, "EXPERT_BUDGET", 8)
    monkeypatch.setattr(expert_module, "EXPERT_MIN", 1)
    expert = engine.bots.policy("jeju", "expert")
    for seats, seed in ((2, 4), (3, 5), (4, 6)):
        for state in moments(seats, seed)[::3]:
            seat = min(GAME.to_act(state))
            action = expert(GAME, state, seat, random.Random(seed))
            why = hints.explain(GAME, state, seat, action)
            if why is None:
                assert allowed_silence(state, seat, action)
                continue
            assert names_the_move(state, seat, action, EN(why)), (action, EN(why))


def test_a_hint_costs_a_few_milliseconds():
    """It runs on the bot's event loop: no search, no play-out. Counted in CPU time: the machine
    running the tests may be busy with other work."""
    costs = []
    for seats, seed in CASES:
        for state in moments(seats, seed):
            seat, actions = choices(state)
            for action in actions:
                start = time.thread_time()
                hints.explain(GAME, state, seat, action)
                costs.append(time.thread_time() - start)
    costs.sort()
    p99 = costs[int(len(costs) * 0.99)]
    assert p99 < 0.005, f"p50 {statistics.median(costs) * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms"


def test_public_keeps_what_the_seat_sees():
    """`hints.public` keeps every top tile, stack size and the deck's contents."""
    state = moments(3, 2)[3]
    seen = hints.public(state)
    assert [s[-1:] for s in seen.stacks] == [s[-1:] for s in state.stacks]
    assert [len(s) for s in seen.stacks] == [len(s) for s in state.stacks]
    assert sorted(seen.deck) == sorted(state.deck) and seen.hands == state.hands
    assert GAME.view(seen, 0) == GAME.view(state, 0)


@pytest.mark.simcord(settle_timeout=60.0)  # a shared, loaded machine can take more than 5 s to settle
@pytest.mark.parametrize("settings", [{"bot_workers": 1}])  # one decision: one worker to start
async def test_suggest_at_a_jeju_table_gives_the_games_own_line(world):  # noqa: F811 - a fixture
    channel, alice, bob = world
    _, lobby, thread = await open_table(channel, alice, game="jeju")
    await alice.click(lobby, label="Hints: off")
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    board = latest_board(thread)
    hand = next(
        c.custom_id for row in board.components for c in row.children if c.custom_id.startswith("board:hand:")
    )
    opened = await alice.click(board, custom_id=hand)
    panel = opened.followups[0] if opened.followups else opened.response
    answer = said(await alice.click(panel, label="Suggest"))
    assert answer.startswith("💡 The expert would pick **Place a token at ")
    spot = answer.split("**")[1].split(" at ")[1].split(" ")[0]
    assert f"Puts your token on top at location {spot}," in answer  # the move's own line
    assert i18n.english(i18n.say(WHY["jeju"])) not in answer, answer
