"""Reef & Ruins speaks Korean: every event is a message, labels and summaries in Korean, Korean pictures."""

from __future__ import annotations

import random
import re

import pytest

import engine
import i18n
import renderers
from engine.base import IllegalAction
from engine.bots import policy
from engine.reef.actions import act
from engine.reef.text import table_text
from i18n.catalog import po_path, read
from renderers import common

GAME = engine.get("reef")
RANDOM = policy("reef", "random")
KO = i18n.words("ko")
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def play(seats: int, seed: int, reef_key: str, tracker: str) -> tuple[list, list]:
    """Every state and every event of one seeded random game."""
    state = GAME.new(seats, seed=seed, options={"reef": reef_key, "tracker": tracker})
    rng = random.Random(seed)
    states, events = [state], []
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        action = RANDOM(GAME, state, seat, rng)
        state, happened = GAME.apply(state, seat, action)
        states.append(state)
        events.extend(happened)
    return states, events


GAMES = [
    (1, 5, "bewitching-barrier", "sunrise"),
    (2, 6, "arcane-atoll", "moonrise"),
    (3, 7, "bewitching-barrier", "moonrise"),
    (4, 8, "arcane-atoll", "sunrise"),
]


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: f"{g[0]}-seats-{g[2]}")
def game(request) -> tuple[list, list]:
    return play(*request.param)


def korean(text: str) -> bool:
    return bool(HANGUL.search(text)) and "{" not in text and "}" not in text


def test_every_event_says_its_text_in_korean(game) -> None:
    _states, events = game
    assert events
    for event in events:
        assert "say" in event, event
        assert i18n.english(event["say"]) == event["text"]
        assert korean(KO.msg(event["say"])), (event["type"], KO.msg(event["say"]))
        assert korean(KO.msg(event["say"], names=lambda seat: f"선수{seat}"))


def test_labels_groups_and_summaries_are_korean(game) -> None:
    states, _events = game
    rng = random.Random(1)
    for state in [states[0], *rng.sample(states, 12), states[-1]]:
        assert korean(GAME.summary(state, lang="ko")), GAME.summary(state, lang="ko")
        assert GAME.summary(state) == GAME.summary(state, lang="en")
        for seat in GAME.to_act(state):
            for action in GAME.legal_actions(state, seat):
                label = GAME.action_label(state, seat, action, lang="ko")
                assert korean(label) and len(label) <= 80, label
                group = GAME.action_group(state, seat, action)
                assert korean(KO(group)), group
        assert korean(table_text(GAME.view(state, None), "ko").splitlines()[0])


def test_result_notes_and_views_say_their_words(game) -> None:
    states, _events = game
    result = GAME.result(states[-1])
    for note in result.notes:
        assert korean(KO.msg(note))
    view = GAME.view(states[-1], 0)
    board = view["board"]
    for item in [
        *board["pearl_bonuses"],
        *board["tracker"],
        *(s for e in board["enchantments"] for s in e["spaces"]),
    ]:
        assert i18n.english(item["say"]) == item["text"]
        assert korean(KO.msg(item["say"]))
    for ruin in board["ruins"]:
        assert korean(KO(ruin["name"])) and korean(KO(ruin["rule_text"]))
    assert korean(KO(view["reef_name"])) and korean(KO(view["tracker_name"]))
    for rating in view["result"]["ratings"]:
        assert korean(KO(rating))


def test_refusals_are_messages() -> None:
    state = GAME.new(2, seed=1)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 1, act("lucky", 3))
    assert str(refused.value) == "Lucky numbers are picked in seat order: Seat 1 picks now."
    assert korean(KO.msg(refused.value.say))
    with pytest.raises(IllegalAction) as refused:
        GAME.load_action({"kind": "fly"})
    assert korean(KO.msg(refused.value.say))


def test_korean_pictures_draw(game) -> None:
    states, _events = game
    for state in (states[0], states[len(states) // 2], states[-1]):
        names = ["민지", "Jun", "서연", "Alex"][: state.seats]
        board = renderers.render("reef", GAME.view(state, None), names, lang="ko")
        sheet = renderers.render("reef", GAME.view(state, 0), names, lang="ko")
        for picture in (board, sheet):
            assert picture.png[:8] == b"\x89PNG\r\n\x1a\n"
            assert HANGUL.search(picture.alt) and "{" not in picture.alt
        english = renderers.render("reef", GAME.view(state, 0), names)
        assert english.alt.startswith("Your Reef & Ruins sheet")


def test_every_korean_word_of_the_catalog_has_a_glyph() -> None:
    catalog = read(po_path("ko", "reef"), "ko")
    missing = set()
    with common.speaking("ko"):
        for message in catalog:
            if not message.id:
                continue
            forms = message.string if isinstance(message.string, tuple | list) else [message.string]
            for form in forms:
                for char in form:
                    for kind in ("regular", "bold"):
                        if not common.has_glyph(kind, char):
                            missing.add((kind, char))
    assert not missing, sorted(missing)
