"""Jeju Island in Korean: every event, refusal, label and picture word has a Korean form (issue #20)."""

from __future__ import annotations

import random
import re

import pytest

import engine
import i18n
import renderers
from engine.base import IllegalAction
from engine.bots import policy
from engine.jeju import actions as A
from engine.jeju import rules
from i18n.catalog import po_path, read
from renderers import common
from renderers import jeju as jeju_pictures

GAME = engine.get("jeju")
RANDOM = policy("jeju", "random")
KO = i18n.words("ko")
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def korean(text: str) -> bool:
    return bool(HANGUL.search(text)) and "{" not in text and "}" not in text


def games(seats: int, seeds: range) -> list[tuple[list, list]]:
    """Seeded random games: per game, the states met (before each move) and every event."""
    played = []
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.new(seats, seed=seed)
        states, events = [], []
        while GAME.to_act(state):
            states.append(state)
            seat = min(GAME.to_act(state))
            state, happened = GAME.apply(state, seat, RANDOM(GAME, state, seat, rng))
            events.extend(happened)
        states.append(state)
        played.append((states, events))
    return played


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_event_says_its_text_in_english_and_korean(seats: int) -> None:
    kinds = set()
    for _states, events in games(seats, range(3)):
        for event in events:
            assert "say" in event, event
            assert i18n.english(event["say"]) == event["text"]
            said = KO.msg(event["say"])
            assert korean(said), (event["text"], said)
            named = KO.msg(event["say"], names=lambda seat: f"Name{seat}")
            assert "{" not in named
            kinds.add(event["type"])
    assert {"place_token", "place_harubang", "travel", "collect", "take_card", "game_over"} <= kinds


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_labels_and_summaries_in_korean(seats: int) -> None:
    for states, _events in games(seats, range(2)):
        for state in [*states[:: max(1, len(states) // 25)], states[-1]]:
            assert korean(GAME.summary(state, lang="ko"))
            assert GAME.summary(state) == GAME.summary(state, lang="en")
            for seat in GAME.to_act(state):
                for action in GAME.legal_actions(state, seat):
                    label = GAME.action_label(state, seat, action, lang="ko")
                    assert korean(label) and len(label) <= 80, label
                    assert GAME.action_label(state, seat, action) == GAME.action_label(
                        state, seat, action, lang="en"
                    )
                    assert korean(KO(GAME.action_group(state, seat, action)))


def test_refusals_and_results_are_messages() -> None:
    state = GAME.new(2, seed=1)
    for action in (A.EndTurn(), A.Travel(0, "left"), A.TakeCard(99), A.MoveHarubang(1)):
        with pytest.raises(IllegalAction) as error:
            GAME.apply(state, 0, action)
        assert i18n.english(error.value.say) == str(error.value)
        assert korean(KO.msg(error.value.say))
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, 1, A.PlaceToken(0))
    assert korean(KO.msg(error.value.say))
    for data in (
        {"type": "nope"},
        {"type": "travel", "spot": 1},
        {"type": "travel", "spot": 1, "direction": "up"},
    ):
        with pytest.raises(IllegalAction) as error:
            GAME.load_action(data)
        assert korean(KO.msg(error.value.say))
    states, _ = games(3, range(1))[0]
    result = GAME.result(states[-1])
    for note in result.notes:
        assert korean(KO.msg(note)) and i18n.english(note)
    assert korean(KO.msg(rules.explain_illegal(states[-1], 0, A.EndTurn())))
    assert korean(KO(GAME.title)) and korean(GAME.breakdown_label("cards", lang="ko"))


def test_card_texts_have_korean_messages() -> None:
    view = GAME.view(GAME.new(2, seed=3), None)
    for card in view["display"]:
        assert i18n.english(card["say"]) == card["text"]
        assert korean(KO.msg(card["say"]))


def test_every_korean_word_of_the_catalog_has_a_glyph() -> None:
    catalog = read(po_path("ko", "jeju"), "ko")
    chars = set()
    for message in catalog:
        if message.id:
            forms = message.string if isinstance(message.string, tuple | list) else [message.string]
            for form in forms:
                chars.update(form)
    with common.speaking("ko"):
        missing = sorted(
            c for c in chars if not (common.has_glyph("regular", c) and common.has_glyph("bold", c))
        )
    assert not missing, f"run python -m i18n.fonts: no glyph for {''.join(missing)}"


def test_korean_pictures_draw_every_character(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Korean board and a seat's picture: nothing the fonts lack is drawn (no "?" boxes)."""
    lacking: list[str] = []
    drawable = common.drawable

    def spy(text: str, kind: str = "regular", missing: str = "?") -> str:
        out = drawable(text, kind, missing)
        if out != text:
            lacking.append(text)
        return out

    for module in (common, jeju_pictures):
        for value in vars(module).values():
            if hasattr(value, "cache_clear"):
                value.cache_clear()
    monkeypatch.setattr(common, "drawable", spy)
    for states, _events in games(3, range(2)):
        for state in [*states[:: max(1, len(states) // 6)], states[-1]]:
            board = renderers.render("jeju", GAME.view(state, None), None, lang="ko")
            assert HANGUL.search(board.alt) and "{" not in board.alt
            for seat in range(3):
                own = renderers.render("jeju", GAME.view(state, seat), None, lang="ko")
                assert HANGUL.search(own.alt) and "{" not in own.alt
    assert not lacking, lacking[:5]
