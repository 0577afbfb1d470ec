"""The view's documented shape (engine/haenyeo/view.py) in every phase, and the words the UI shows."""

from __future__ import annotations

import json
import random

import engine
from engine.haenyeo import actions as A
from engine.haenyeo.ai import POLICIES

GAME = engine.get("haenyeo")

TOP = {
    "game", "phase", "to_act", "seats", "round", "rounds", "scoring_rounds", "first_player", "npc",
    "first_player_passes",
    "score_tile", "pearl_track", "pearls_per_haenyeo", "third_cost", "sea_cards", "revealed", "reach",
    "zones", "current", "players",
    "progression", "progression_labels", "npc_player", "trash_types", "seafood_types", "you",
}  # fmt: skip
ZONE = {"zone", "part", "slots", "divers", "creatures", "occupied", "connected"}
PLAYER = {
    "seat", "confirmed", "pawns", "third_gained", "dives", "seafood", "tracks", "turtle_eggs",
    "turtle_eggs_used", "turtle_egg_spaces", "trash", "pearls", "pearl_points", "round_scores",
    "score_so_far",
}  # fmt: skip


def check_shape(view: dict, seat: int | None) -> None:
    assert set(view) == TOP | ({"result"} if view["phase"] == "end" else set())
    json.dumps(view)
    assert len(view["zones"]) == 12 and all(set(z) == ZONE for z in view["zones"])
    assert [z["part"] for z in view["zones"]] == ["surface"] + ["shallow"] * 4 + ["deep"] * 6 + ["pearl"]
    assert all(set(p) == PLAYER for p in view["players"])
    assert len(view["players"]) == view["seats"]
    assert (view["you"] is None) == (seat is None)
    assert (view["current"] is None) == (view["phase"] != "actions")
    assert view["revealed"] == (view["phase"] != "select")
    for row, player in zip(view["progression"], view["players"], strict=True):
        assert len(row) == len(player["round_scores"]) == len(view["progression_labels"])


def test_the_view_has_the_documented_shape_in_every_phase():
    rng = random.Random(2)
    for seats in (2, 4):
        state = GAME.new(seats, 2)
        phases = set()
        while True:
            phases.add(state.phase)
            for seat in (None, *range(seats)):
                check_shape(GAME.view(state, seat), seat)
            if not GAME.to_act(state):
                break
            seat = min(GAME.to_act(state))
            state, _ = GAME.apply(state, seat, POLICIES["greedy"](GAME, state, seat, rng))
        assert phases == {"select", "actions", "end"}
        final = GAME.view(state, None)
        assert final["progression_labels"] == ["Round 3", "Round 6", "Round 8"]
        assert final["result"]["scores"] == list(GAME.result(state).scores)
        assert (final["npc_player"] is not None) == (seats == 2)


def test_labels_and_groups_read_like_the_rulebook():
    state = GAME.new(3, 1)
    assert GAME.action_label(state, 0, A.ToggleCard(3)) == "Dive to zone 3 (sea turtle to zone 2)"
    assert GAME.action_label(state, 0, A.ToggleCard(0)) == "Dive to zone 0"
    assert GAME.action_group(state, 0, A.ToggleCard(0)) == "Diving cards"
    state, _ = GAME.apply(state, 0, A.ToggleCard(3))
    assert GAME.action_label(state, 0, A.ToggleCard(3)) == "Put back card 3"
    assert GAME.action_label(state, 0, A.CONFIRM) == "Confirm my 2 diving cards"
    assert GAME.action_label(state, 0, A.Exchange(3)) == "Spend 3 turtle eggs: 1 pearl"
    assert GAME.action_label(state, 0, A.Exchange(2, (0, 3))) == "Spend 2 turtle eggs: conch + sea urchin"
    assert GAME.action_label(state, 0, A.GAIN) == "Spend 2 turtle eggs: gain a 3rd Haenyeo"
    assert GAME.action_group(state, 0, A.DONE) == "Turtle eggs"
    assert GAME.action_label(state, 0, A.TakeSeafood((1, 1))) == "Pearl bonus: abalone + abalone"
    assert "Round 1 of 8" in GAME.summary(state) and "waiting for" in GAME.summary(state)


def test_haenyeo_sheet_one_per_player_open_to_all():
    """Rulebook, Components: "Haenyeo sheet | 1 | Shared scoring/tracking sheet (with pencil)";
    Setup: "Each player takes 1 Haenyeo sheet and a pencil."

    Decision (docs/rules/haenyeo.md): each player keeps their own sheet, and every sheet is open.
    """
    state = GAME.new(3, 5).copy()
    state.food = ((1, 0, 0, 0, 0), (0, 2, 0, 0, 0), (0, 0, 0, 0, 3))
    state.eggs = (1, 2, 3)
    state.pearls = (0, 4, 5)
    for viewer in (None, 0, 1, 2):
        players = GAME.view(state, viewer)["players"]
        assert [p["seafood"]["conch"] for p in players] == [1, 0, 0]
        assert [p["seafood"]["abalone"] for p in players] == [0, 2, 0]
        assert [p["seafood"]["octopus"] for p in players] == [0, 0, 3]
        assert [p["turtle_eggs"] for p in players] == [1, 2, 3]
        assert [p["pearl_points"] for p in players] == [0, 15, 30]
