"""Jeju Island's text form of a table (`engine.jeju.text`, issue #37 item 5): for logs and test failures.

It shows the board and every seat's public holdings, keeps the secrets (the deck's
order, the tiles under each top) unless asked for them, and says its words in the
reader's language.
"""

from __future__ import annotations

import re

import engine
from engine.jeju import scoring
from engine.jeju.components import CARDS, TILE_LABELS, card_text
from engine.jeju.text import describe, view_text
from tests.engine.test_jeju_expert import hide_differently
from tests.seeded import random_states

GAME = engine.get("jeju")
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def test_the_text_shows_the_board_and_every_seats_holdings():
    checked = 0
    for seats, seed in ((2, 1), (3, 2), (4, 3)):
        for state in random_states("jeju", seats, seed=seed, moments=4):
            text = describe(state)
            lines = text.splitlines()
            assert lines[0].startswith("Jeju Island — ")
            assert f"{sum(map(len, state.stacks))} tile" in lines[1]
            for spot, stack in enumerate(state.stacks):
                line = next(line for line in lines if line.startswith(f"  {spot + 1}: tokens "))
                if stack:
                    assert f"{TILE_LABELS[stack[-1]]} on top of {len(stack)}" in line, text
                assert line.endswith(", Harubang") == (spot == state.harubang), text
            for card in state.display:
                assert card_text(CARDS[card]) in text
            for seat in range(seats):
                head = next(i for i, line in enumerate(lines) if line.startswith(f"Seat {seat + 1}: "))
                points = scoring.score(state, seat)
                assert lines[head].startswith(f"Seat {seat + 1}: {points} point"), text
                for tile, count in enumerate(state.hands[seat]):
                    if count:
                        assert f"{count} {TILE_LABELS[tile]}" in lines[head + 1], text
                for card in state.owned[seat]:
                    assert card_text(CARDS[card]) in lines[head + 2], text
            checked += 1
    assert checked == 15


def test_the_secrets_show_only_when_asked():
    """The deck order and the tiles under each top are hidden from every seat; a log may ask."""
    for state in random_states("jeju", 3, seed=5, moments=3)[:-1]:
        other = hide_differently(state, 7)
        assert other != state
        assert describe(other) == describe(state)
        assert "Hidden" not in describe(state)
        secret = describe(state, secrets=True)
        assert secret.startswith(describe(state))
        assert secret != describe(other, secrets=True)
        assert f"Hidden, the deck (next card first): {card_text(CARDS[state.deck[0]])};" in secret
        below = ", ".join(TILE_LABELS[t] for t in state.stacks[0])
        assert f"Hidden, location 1 (bottom to top): {below}" in secret


def test_the_text_reads_only_the_view():
    final = random_states("jeju", 2, seed=4, moments=1)[-1]
    assert view_text(GAME.view(final, None)) == describe(final)
    assert view_text(GAME.view(final, 0)) == describe(final)  # a seat's own options are not shown
    assert "Game over (" in describe(final).splitlines()[0]


def test_the_text_speaks_korean():
    state = random_states("jeju", 3, seed=6, moments=2)[0]
    text = describe(state, secrets=True, lang="ko")
    assert text.startswith("제주도 — ")
    for line in text.splitlines():
        assert HANGUL.search(line), line
        assert not re.search(r"\b(Seat|tokens|Hidden|points?|tiles in hand|cards taken)\b", line), line
