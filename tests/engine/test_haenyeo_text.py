"""Haenyeo's text form of a state (`engine.haenyeo.text.describe`, issue #37 item 5): every zone, every
sheet and what is revealed, for logs and failing tests; the secret parts only when asked."""

from __future__ import annotations

import random

import engine
from engine.haenyeo.components import C, slot_text
from engine.haenyeo.rules import rows
from engine.haenyeo.text import describe
from tests.discord.test_haenyeo_hints import hidden_changed
from tests.seeded import random_states

GAME = engine.get("haenyeo")


def states() -> list:
    """States from the start, the middle and the end of seeded games at 2 to 5 seats."""
    found = []
    for seats in (2, 3, 4, 5):
        game_states = random_states("haenyeo", seats, seed=seats, moments=12)
        found.extend([GAME.new(seats, seats), *game_states])
    return found


def test_every_zone_every_sheet_and_the_scores_are_shown():
    for state in states():
        text = describe(state)
        lines = text.splitlines()
        assert lines[0].startswith(f"Haenyeo — round {min(state.round, C.rounds)} of {C.rounds}"), text
        assert C.tiles[state.tile].name in lines[0], text
        sea = rows(state)
        for zone in range(12):
            line = next(line for line in lines if line.startswith(f"  zone {zone:2}:"))
            for slot in sea[zone]:
                assert slot_text(slot) in line, (zone, text)
        for seat in range(state.seats):
            at = lines.index(next(line for line in lines if line.startswith(f"Seat {seat + 1}: ")))
            sheet = "\n".join(lines[at : at + 4])
            assert f"{state.pawns[seat]} Haenyeo" in sheet, sheet
            for kind, have in zip(C.seafood, state.food[seat], strict=True):
                assert f"{kind} {have}/" in sheet, sheet
            assert f"pearls {state.pearls[seat]} " in sheet, sheet
            assert f"(total {sum(state.scores[seat])})" in sheet, sheet
        assert ("NPC: cards used" in text) == state.npc, text


def test_the_divers_after_the_reveal_are_the_views():
    shown = 0
    for state in states():
        if state.phase == "select":
            continue
        view = GAME.view(state, None)
        lines = describe(state).splitlines()
        for zone in view["zones"]:
            line = next(line for line in lines if line.startswith(f"  zone {zone['zone']:2}:"))
            for diver in zone["divers"]:
                assert ("NPC" if diver == "npc" else f"Seat {diver + 1}") in line, line
                shown += 1
            assert ("; divers " in line) == bool(zone["divers"]), line
            for slot in zone["slots"]:
                assert ("[net: " in line) or slot["taken_by"] is None, line
    assert shown > 20


def test_secrets_only_when_asked():
    rng = random.Random(3)
    compared = 0
    for state in states():
        if state.phase == "end":
            continue
        other = hidden_changed(state, 0, rng)  # seat 0's cards stay; what nobody else may see changes
        # The table's text is the same whatever is hidden...
        assert describe(other) == describe(state)
        assert "Secret" not in describe(state) and "(secret)" not in describe(state)
        # ...and the secret text tells them apart.
        secret = describe(state, secrets=True)
        assert f"Secret: seed {state.seed};" in secret
        assert describe(other, secrets=True) != secret
        compared += 1
    assert compared > 30


def test_the_games_text_is_the_description():
    state = random_states("haenyeo", 3, seed=9, moments=2)[1]
    assert GAME.text(state) == describe(state)
