"""A Reef & Ruins hint's line of why (`engine.reef.ai.explain`): specific, blind to hidden things, cheap."""

from __future__ import annotations

import random
import re
import time

import pytest

import engine
import i18n
from engine.bots import play_states, policy
from engine.reef.ai import explain
from engine.reef.components import ATOLL, BARRIER, PEARLS, SECTIONS
from engine.reef.sheet import die_value
from tests.discord.test_lobby import open_table
from tests.play_helpers import said

GAME = engine.get("reef")
RANDOM = policy("reef", "random")
GREEDY = policy("reef", "greedy")
EXPERT = policy("reef", "expert")
KO = i18n.words("ko")
HANGUL = re.compile(r"[\uac00-\ud7a3]")
QUIET = {"unpick", "reset"}  # taking work back: no reason to give

#: (seats, seed, reef): seeded random play-outs of several seat counts on both reefs.
GAMES = [
    (1, 3, "bewitching-barrier"),
    (3, 4, "arcane-atoll"),
    (6, 5, "bewitching-barrier"),
    (1, 6, "arcane-atoll"),
]


def moments(seats: int, seed: int, reef: str, every: int) -> list:
    """Every ``every``-th state of one seeded random game."""
    states = list(
        play_states(GAME, GAME.new(seats, seed, {"reef": reef}), lambda _s: RANDOM, random.Random(seed))
    )
    return states[::every]


@pytest.fixture(scope="module")
def states() -> list:
    return [s for seats, seed, reef in GAMES for s in moments(seats, seed, reef, 17)]


def names_the_move(state, seat: int, action, english: str) -> bool:
    """Whether the line names what the move works with: its ruin, die, cell, boon or number."""
    sheet = state.sheets[seat]
    kind = action.kind
    value = die_value(sheet.dice[sheet.pick]) if sheet.pick >= 0 else None
    if kind == "lucky":
        return f" {action.a} " in english if action.a else "Fate" in english
    if kind == "pick":
        return str(die_value(sheet.dice[action.a])) in english
    if kind == "write":
        return f"ruin {action.a} " in english and f"The {value} " in english
    if kind == "mark":
        row, column = divmod(action.a, BARRIER.cols)
        return f"The {value} " in english and f"row {row + 1}, column {column + 1}" in english
    if kind == "place":
        row, column = divmod(action.a, ATOLL.cols)
        return f"row {row + 1}, column {column + 1}" in english
    if kind in ("shape", "singles"):
        return "shape for" in english or "single blocks" in english
    if kind == "trade":
        return f"the {value} " in english.lower()
    if kind == "unlock":
        return f"ruin {action.a} " in english
    if kind in ("cast", "enchant"):
        return f"enchantment {SECTIONS[action.a].total} " in english
    if kind == "pearl":
        return PEARLS[action.a].text() in english
    if kind == "confirm":
        return "coin" in english
    if kind == "shell":
        new = die_value(sheet.dice[action.a]) + action.b
        return f"into a {new}" in english or f"into a {new + action.b}" in english
    return False


def korean(message) -> str:
    text = KO.msg(message)
    assert HANGUL.search(text) and "{" not in text and "}" not in text, text
    return text


def test_every_legal_move_gets_a_specific_line_in_english_and_korean(states):
    said_kinds = set()
    for state in states:
        for seat in sorted(GAME.to_act(state)):
            for action in GAME.legal_actions(state, seat):
                why = explain(GAME, state, seat, action)
                if action.kind in QUIET:
                    assert why is None
                    continue
                if why is None:
                    assert action.kind == "shell", action  # a shell toward nothing in particular
                    continue
                english = i18n.english(why)
                assert names_the_move(state, seat, action, english), (action, english)
                assert "{" not in english
                korean(why)
                said_kinds.add(action.kind)
    assert said_kinds >= {"lucky", "pick", "write", "trade", "unlock", "cast", "confirm", "shell"}
    assert said_kinds & {"mark"} and said_kinds & {"shape", "place"}


def test_the_bots_moves_are_explained_with_several_kinds_of_reasons():
    """Greedy (the expert's own planner) over whole rounds, and the expert itself for a stretch."""
    lines = set()
    for seats, seed, reef in GAMES[:3]:
        state = GAME.new(seats, seed, {"reef": reef})
        rng = random.Random(seed)
        while GAME.to_act(state) and state.round <= 4:
            seat = min(GAME.to_act(state))
            action = GREEDY(GAME, state, seat, rng)
            why = explain(GAME, state, seat, action)
            assert (why is None) == (action.kind in QUIET), action
            if why is not None:
                lines.add(i18n.english(why))
            state, _ = GAME.apply(state, seat, action)
    state = GAME.new(1, 11, {"reef": "bewitching-barrier"})
    rng = random.Random(11)
    while GAME.to_act(state) and state.round <= 1:
        action = EXPERT(GAME, state, 0, rng)
        why = explain(GAME, state, 0, action)
        assert (why is None) == (action.kind in QUIET), action
        if why is not None:
            lines.add(i18n.english(why))
            korean(why)
        state, _ = GAME.apply(state, 0, action)
    text = " | ".join(sorted(lines))
    for reason in ("completes", "brings", "Searching ruin", "Casting enchantment", "lucky number", "worth"):
        assert reason in text, reason


def effect(state, seat: int, action) -> tuple | None:
    """What a move does, coarsely: moves with different effects must be explained differently."""
    sheet = state.sheets[seat]
    kind = action.kind
    if kind == "pick":
        return (kind, die_value(sheet.dice[action.a]))
    if kind == "write":
        return (kind, action.a)
    if kind in ("mark", "unlock", "cast", "enchant", "place"):
        return (kind, action.a, action.b)
    if kind == "pearl":
        return (kind, PEARLS[action.a].kind, PEARLS[action.a].value)
    return None


def test_different_moves_at_one_moment_get_different_lines(states):
    compared = 0
    for state in states:
        for seat in sorted(GAME.to_act(state)):
            seen: dict[str, tuple] = {}
            for action in GAME.legal_actions(state, seat):
                key = effect(state, seat, action)
                why = explain(GAME, state, seat, action)
                if key is None or why is None:
                    continue
                english = i18n.english(why)
                if english in seen and seen[english][0] == key[0]:
                    assert seen[english] == key, (english, seen[english], key)
                    continue
                seen[english] = key
                compared += 1
    assert compared > 200


def test_the_line_never_reads_what_the_seat_cannot_see():
    """Other seats' unconfirmed work and the dice to come (the seed) change no explanation."""
    checked = 0
    for state in moments(3, 12, "bewitching-barrier", 11) + moments(3, 13, "arcane-atoll", 11):
        if state.phase != "round":
            continue
        rng = random.Random(state.round)
        other = state._replace(seed=state.seed + 7919)  # every later roll differs
        for seat in range(state.seats):
            others = [s for s in GAME.to_act(other) if s != seat]
            if others and state.dice:  # another seat does part of its (hidden) round
                mover = others[0]
                moves = [a for a in GAME.legal_actions(other, mover) if a.kind not in QUIET]
                if moves:
                    other, _ = GAME.apply(other, mover, rng.choice(moves))
            if GAME.view(other, seat) != GAME.view(state, seat):
                continue  # the move ended the round: the seat sees that
            for action in GAME.legal_actions(state, seat):
                assert explain(GAME, state, seat, action) == explain(GAME, other, seat, action), action
                checked += 1
    assert checked > 100


def test_an_explanation_costs_a_few_milliseconds(states):
    """It runs on the bot's event loop: no search, no play-out (the bound only catches a search).

    CPU time of this thread, as the other games' tests measure: wall time on a busy machine
    counts the moments another process had the core."""
    took = []
    for state in states:
        for seat in sorted(GAME.to_act(state)):
            for action in GAME.legal_actions(state, seat):
                start = time.thread_time()
                explain(GAME, state, seat, action)
                took.append(time.thread_time() - start)
    took.sort()
    assert took[len(took) // 2] < 0.002
    assert took[int(len(took) * 0.99)] < 0.025


# ------------------------------------------------------------------ through the table


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild("Reef Friends")
    channel = guild.create_text_channel("games")
    return channel, guild.add_member(simcord_env.create_user("alice"))


@pytest.mark.simcord(settle_timeout=60.0)  # the board's pictures on a shared, loaded machine
async def test_a_hint_at_the_table_says_reefs_own_line_of_why(world):
    channel, alice = world
    _, lobby, thread = await open_table(channel, alice, game="reef")
    await alice.click(lobby, label="Hints: off")
    await alice.click(next(m for m in thread.history() if m.id == lobby.id), label="Start")
    board = next(
        m for m in reversed(sorted(thread.history(), key=lambda m: m.id)) if "Waiting for" in m.content
    )
    opened = await alice.click(board, label="My sheet")
    panel = opened.followups[0] if opened.followups else opened.response
    hint = await alice.click(panel, label="Suggest")
    answer = said(hint)
    assert answer.startswith("💡 The expert would pick **Lucky number 1**")  # its book (`LUCKY_BOOK`)
    assert "the expert prefers 1 to the other free numbers" in answer  # reef's own line, not the generic one
    assert "sampled rolls" not in answer
