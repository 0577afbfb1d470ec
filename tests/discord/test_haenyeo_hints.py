"""Haenyeo's hint line (`engine.haenyeo.ai.explain`): specific, blind to what the seat may not see, cheap.

A table whose host turned hints on offers 💡 Suggest; the reason under the expert's move is the
game's own line ("marks the move the expert would pick, with one line of why when the policy can
say it"). The line names the move's zone, slot, items or eggs, says it from the seat's point of
view, and reads only what the seat may see: "Place selected cards face-down in front of you"
(other seats' cards before the reveal), "randomly draw 3 NPC diving cards" (drawn from the seed),
and the sea decks' face-down cards.
"""

from __future__ import annotations

import random
import re
import time

import pytest

import engine
import i18n
from engine.haenyeo import actions as A
from engine.haenyeo.ai import POLICIES, explain
from engine.haenyeo.ai.values import Values
from engine.haenyeo.components import C, slot_text
from engine.haenyeo.rules import rows, zones_text
from engine.haenyeo.state import State
from engine.haenyeo.text import describe
from hosting import botpool
from tests.discord import test_bot_levels
from tests.discord.test_discord_limits import click_id
from tests.discord.test_lobby import open_table

GAME = engine.get("haenyeo")
#: The bot fixtures of tests/discord/test_bot_levels.py (its ``make_bot`` closes the bot's workers too).
make_bot, settings, world = test_bot_levels.make_bot, test_bot_levels.settings, test_bot_levels.world
KO = i18n.words("ko")
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def moments(seats: int, seed: int, every: int = 3) -> list[tuple[State, int]]:
    """(state, seat) at every ``every``-th decision of a seeded game (random and greedy seats mixed),
    and at every decision of the actions phase (harvests, zone 0, pearl bonuses are rarer)."""
    rng = random.Random(f"hints:{seats}:{seed}")
    state = GAME.new(seats, seed)
    found = []
    count = 0
    while GAME.to_act(state):
        seat = rng.choice(sorted(GAME.to_act(state)))
        count += 1
        if state.phase != "select" or count % every == 0:
            found.append((state, seat))
        policy = POLICIES["greedy" if seat % 2 else "random"]
        state, _ = GAME.apply(state, seat, policy(GAME, state, seat, rng))
    return found


MOMENTS = {seats: [m for seed in range(2) for m in moments(seats, seed)] for seats in (2, 3, 4, 5)}


def names_its_move(state: State, seat: int, action: A.Action, text: str) -> bool:
    """The English line names the move's own object: its zone, slot items, eggs, trash or seafood."""
    if isinstance(action, A.ToggleCard):
        return re.search(rf"\b(Zone|zone|Card) {action.zone}\b", text) is not None
    if isinstance(action, A.Confirm):
        return zones_text(state.chosen[seat]) in text
    if isinstance(action, A.Harvest):
        return slot_text(rows(state)[state.zone][action.slot]) in text
    if isinstance(action, A.Exchange):
        return (slot_text(action.seafood) if action.seafood else "pearl") in text
    if isinstance(action, A.TakeTrash):
        return C.trash_names[action.kind] in text
    if isinstance(action, A.TakeSeafood):
        return slot_text(action.seafood) in text
    if isinstance(action, A.GainHaenyeo):
        return "3rd Haenyeo" in text
    return f"{state.eggs[seat] - state.eggs_used[seat]} turtle egg" in text  # Done


def effect(state: State, action: A.Action) -> object:
    """What a move does (two harvests of slots showing the same items do the same)."""
    if isinstance(action, A.Harvest):
        return ("harvest", rows(state)[state.zone][action.slot])
    return action


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_every_move_gets_its_own_line_in_english_and_korean(seats):
    said = 0
    kinds = set()
    for state, seat in MOMENTS[seats]:
        lines: dict[object, str] = {}
        for action in GAME.legal_actions(state, seat):
            msg = explain(GAME, state, seat, action)
            if msg is None:
                continue
            said += 1
            kinds.add(msg["id"])
            text = i18n.english(msg)
            assert "{" not in text and "}" not in text, text
            assert names_its_move(state, seat, action, text), (action, text)
            korean = KO.msg(msg)
            assert HANGUL.search(korean) and "{" not in korean and "}" not in korean, korean
            # Moves that do different things at one moment are explained differently.
            key = effect(state, action)
            for other, line in lines.items():
                assert other == key or line != text, (key, other, text)
            lines[key] = text
    assert said > 200
    assert len(kinds) >= 12  # many kinds of reason, not one template


def test_the_experts_own_moves_are_explained():
    rng = random.Random(11)
    asked = explained = 0
    for seats in (2, 3, 4, 5):
        for state, seat in MOMENTS[seats][::12]:
            action = POLICIES["expert"](GAME, state, seat, rng)
            asked += 1
            msg = explain(GAME, state, seat, action)
            if msg is not None:
                explained += 1
                assert names_its_move(state, seat, action, i18n.english(msg))
    assert asked >= 15 and explained >= 0.8 * asked, (explained, asked)


def hidden_changed(state: State, seat: int, rng: random.Random) -> State:
    """The same moment with everything ``seat`` may not see changed: other seats' face-down cards
    (before the reveal), the seed (the NPC's draw) and the face-down sea decks."""
    other = state.copy()
    if state.phase == "select":
        chosen = []
        for s in range(state.seats):
            if s == seat:
                chosen.append(state.chosen[s])
                continue
            mask = 0
            for z in rng.sample(range(12), rng.randint(0, state.pawns[s])):
                mask |= 1 << z
            chosen.append(mask)
        other.chosen = tuple(chosen)
        other.npc_cards = rng.randrange(1 << 12)
    other.seed = state.seed + 1 + rng.randrange(1000)
    r = min(state.round, C.rounds)
    shallow, deep = list(state.shallow[r:]), list(state.deep[r:])
    rng.shuffle(shallow)
    rng.shuffle(deep)
    other.shallow = (*state.shallow[:r], *shallow)
    other.deep = (*state.deep[:r], *deep)
    assert GAME.view(other, seat) == GAME.view(state, seat)  # nothing the seat sees has changed
    return other


def test_nothing_hidden_changes_the_line():
    rng = random.Random(5)
    compared = 0
    for seats in (2, 3, 4, 5):
        for state, seat in MOMENTS[seats][::4]:
            other = hidden_changed(state, seat, rng)
            for action in GAME.legal_actions(state, seat):
                assert explain(GAME, other, seat, action) == explain(GAME, state, seat, action), (
                    f"{action} for Seat {seat + 1} at\n{describe(state, secrets=True)}"
                )
                compared += 1
    assert compared > 300


def test_the_numbers_are_the_experts_and_the_rulebooks():
    """A seafood's worth is the expert's `Values`; a trash step is the score tile's table."""
    checked = set()
    for seats in (2, 3, 4, 5):
        for state, seat in MOMENTS[seats]:
            if state.phase == "select":
                continue
            for action in GAME.legal_actions(state, seat):
                msg = explain(GAME, state, seat, action)
                if msg is None:
                    continue
                if msg["id"].startswith("For you, {what} is worth"):
                    items = rows(state)[state.zone][action.slot] if isinstance(action, A.Harvest) else None
                    items = items or action.seafood
                    assert msg["n"] == round(sum(Values(state, seat).seafood[k] for k in items))
                    checked.add("seafood")
                if msg["id"].startswith("A new trash type for you: with"):
                    table = C.tiles[state.tile].trash
                    have = state.trash[seat].bit_count()
                    assert (msg["args"]["before"], msg["args"]["after"]) == (table[have], table[have + 1])
                    checked.add("trash")
    assert checked == {"seafood", "trash"}


def test_a_line_costs_well_under_a_few_milliseconds():
    spent = []
    for seats in (2, 3, 4, 5):
        for state, seat in MOMENTS[seats][::3]:
            for action in GAME.legal_actions(state, seat):
                start = time.thread_time()
                explain(GAME, state, seat, action)
                spent.append(time.thread_time() - start)
    spent.sort()
    assert spent[len(spent) // 2] < 0.002 and spent[int(len(spent) * 0.99)] < 0.005, spent[-5:]


def test_nothing_to_say_is_none():
    state, seat = next((s, seat) for s, seat in MOMENTS[3] if s.phase == "select")
    assert explain(GAME, state, (seat + 1) % 3 + 7, A.CONFIRM) is None  # not a seat
    assert explain(GAME, state, seat, A.DONE) is None  # not a move of this phase


# ------------------------------------------------------------------ through the table service


def latest_board(thread):
    for message in sorted(thread.history(), key=lambda m: m.id, reverse=True):
        ids = [getattr(c, "custom_id", "") or "" for row in message.components for c in row.children]
        if any(i.startswith("board:hand:") for i in ids):
            return message
    raise AssertionError("no board")


@pytest.mark.simcord(settle_timeout=30.0)  # the board's pictures on a busy machine
async def test_a_hint_at_a_haenyeo_table_gives_the_games_own_reason(world, simcord_bot, monkeypatch):
    # The expert decides in the bot's process here (its first card choice takes milliseconds): no
    # worker processes to start; tests/discord/test_bot_levels.py covers hints through the workers.
    monkeypatch.setattr(botpool, "IN_PROCESS", botpool.IN_PROCESS | {"expert"})
    channel, alice, bob = world
    _, lobby, thread = await open_table(channel, alice, game="haenyeo")
    await alice.click(lobby, label="Hints: off")
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    opened = await alice.click(latest_board(thread), custom_id=click_id(latest_board(thread), "board:hand:"))
    panel = opened.followups[0] if opened.followups else opened.response
    hint = await alice.click(panel, custom_id=click_id(panel, "hint:"))
    answer = (hint.followups[0] if hint.followups else hint.response).content
    move = answer.split("**")[1]
    service = simcord_bot.tables
    table_id = int(click_id(panel, "hint:").split(":")[1])
    table = await service.store.get_table(table_id)
    state, seat = service.state_of(table), table.seat_of(alice.id).seat
    action = next(a for a in GAME.legal_actions(state, seat) if GAME.action_label(state, seat, a) == move)
    why = explain(GAME, state, seat, action)
    assert why is not None and i18n.english(why) in answer
    assert "guesses of the others' face-down cards" not in answer  # not the generic line
