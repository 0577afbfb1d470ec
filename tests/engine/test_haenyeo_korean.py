"""Haenyeo in Korean: every event, label, summary and picture word has a Korean translation."""

from __future__ import annotations

import random
import re

import pytest

import engine
import i18n
import renderers
from engine.haenyeo import actions as A
from i18n.catalog import po_path, read
from renderers import common

GAME = engine.get("haenyeo")
KO = i18n.words("ko")
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def korean(text: str) -> bool:
    """Hangul in it and no placeholder left unfilled."""
    return bool(HANGUL.search(text)) and "{" not in text and "}" not in text


def played(seats: int, seed: int):
    """(state before, seat, action, events) for every move of a seeded random game."""
    state = GAME.new(seats, seed)
    rng = random.Random(f"ko:{seats}:{seed}")
    while GAME.to_act(state):
        seat = rng.choice(sorted(GAME.to_act(state)))
        action = rng.choice(GAME.legal_actions(state, seat))
        after, events = GAME.apply(state, seat, action)
        yield state, seat, action, events
        state = after
    yield state, None, None, []


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_every_event_label_and_summary_speaks_korean(seats: int) -> None:
    kinds: set[str] = set()
    for seed in range(2):
        for state, seat, _action, events in played(seats, seed):
            assert korean(GAME.summary(state, lang="ko")), GAME.summary(state, lang="ko")
            if seat is not None:
                for option in GAME.legal_actions(state, seat):
                    label = GAME.action_label(state, seat, option, lang="ko")
                    assert korean(label) and len(label) <= 80, label
                    assert korean(KO(GAME.action_group(state, seat, option)))
            for event in events:
                kinds.add(event["type"])
                assert "say" in event, event
                assert i18n.english(event["say"]) == event["text"]
                said = KO.msg(event["say"], names=lambda n: f"플레이어{n + 1}")
                assert korean(said), (event["text"], said)
                assert korean(KO.msg(event["say"]))  # seats named "n번 자리"
        result = GAME.result(state)
        assert result is not None
        for note in result.notes:
            assert korean(KO.msg(note))
    assert {"confirm", "reveal", "connection", "harvest", "score", "round", "end"} <= kinds


def test_refusals_speak_korean() -> None:
    state = GAME.new(3, 1)
    with pytest.raises(engine.IllegalAction) as error:
        GAME.apply(state, 0, A.CONFIRM)
    assert korean(KO.msg(error.value.say)) and str(error.value) == i18n.english(error.value.say)
    with pytest.raises(engine.IllegalAction) as error:
        GAME.load_action({"type": "nonsense"})
    assert korean(KO.msg(error.value.say))
    with pytest.raises(engine.IllegalAction) as error:
        GAME.new(7, 1)
    assert korean(KO.msg(error.value.say))
    assert KO(GAME.title) != GAME.title


def test_english_stays_as_it_was() -> None:
    state = GAME.new(3, 1)
    assert GAME.action_label(state, 0, A.ToggleCard(3)) == "Dive to zone 3 (sea turtle to zone 2)"
    assert GAME.action_label(state, 0, A.ToggleCard(3), lang="ko") == "3번 구역 잠수 (바다거북: 2번 구역)"
    assert GAME.summary(state).startswith("Round 1 of 8")


def catalog_strings() -> list[str]:
    catalog = read(po_path("ko", "haenyeo"), "ko")
    out = []
    for message in catalog:
        if message.id:
            forms = message.string if isinstance(message.string, tuple | list) else [message.string]
            out.extend(form for form in forms if form)
    return out


def test_the_korean_fonts_draw_every_translation() -> None:
    """Every character of the Haenyeo catalog is in the Korean picture fonts (python -m i18n.fonts)."""
    missing: set[str] = set()
    with common.speaking("ko"):
        for text in catalog_strings():
            for kind in ("regular", "bold"):
                missing.update(c for c in text if not common.has_glyph(kind, c))
    assert not missing, f"rebuild the fonts (python -m i18n.fonts): {sorted(missing)}"


def _moments(seats: int, seed: int) -> list:
    states = [state for state, *_ in played(seats, seed)]
    return [states[len(states) // 3], states[len(states) // 2], states[-1]]


@pytest.mark.parametrize("seats", [2, 4])
def test_korean_pictures_render(seats: int) -> None:
    names = ["해녀", "Jun", "Mina", "Seo"][:seats]
    for state in _moments(seats, 3):
        board = renderers.render("haenyeo", GAME.view(state, None), names, lang="ko")
        assert board.png[:8] == b"\x89PNG\r\n\x1a\n"
        assert board.alt.startswith("해녀 게임판.") and "{" not in board.alt
        own = renderers.render("haenyeo", GAME.view(state, 0), names, lang="ko")
        assert own.alt.startswith("내 해녀 화면") and "{" not in own.alt
        # the English pictures of the same moment are unchanged by the Korean ones (separate caches)
        english = renderers.render("haenyeo", GAME.view(state, None), names)
        assert english.alt.startswith("Haenyeo board.")
        assert english.png != board.png
