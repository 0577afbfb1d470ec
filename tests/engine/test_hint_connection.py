"""A hint never recommends a dive that may not score without saying so (issue #41.3).

In Haenyeo a zone is connected only when every zone above it holds a Haenyeo or
a creature. Before the reveal a seat sees only its own cards: when the expert's
dive leaves a gap above among them, the hint's line says plainly which zones
someone else must fill.
"""

from __future__ import annotations

import engine
import i18n
from engine.haenyeo import actions as A
from engine.haenyeo.ai import explain
from engine.haenyeo.components import PEARL_ZONE, creature_mask
from tests.discord.test_haenyeo_hints import MOMENTS

GAME = engine.get("haenyeo")


def gaps(cards: int, zone: int) -> list[int]:
    cover = cards | creature_mask(cards)
    return [z for z in range(1, zone) if not cover >> z & 1]


def test_a_dive_that_needs_others_to_connect_says_so_and_one_that_does_not_never_warns():
    warned = quiet = 0
    for seats, moments in MOMENTS.items():
        for state, seat in moments:
            if state.phase != "select":
                continue
            mine = state.chosen[seat]
            for action in GAME.legal_actions(state, seat):
                if not isinstance(action, A.ToggleCard) or mine >> action.zone & 1:
                    continue
                why = explain(GAME, state, seat, action)
                text = i18n.english(why) if why is not None else ""
                missing = gaps(mine | 1 << action.zone, action.zone) if action.zone < PEARL_ZONE else []
                if missing:
                    assert "Careful: none of your cards is in zone" in text, (seats, action, text)
                    assert f"so zone {action.zone} scores only if someone else dives" in text
                    assert str(missing[-1]) in text.split("Careful:")[1]
                    assert i18n.words("ko").msg(why) != text  # said in Korean too
                    warned += 1
                else:
                    assert "Careful" not in text, (seats, action, text)
                    quiet += 1
    assert warned and quiet  # both cases were met
