"""Haenyeo's seeded bots play move for move as recorded (issue #37: proof that the AI's move changed nothing).

Every table in ``tests/seeded/haenyeo_playouts.json`` is replayed through the public
contract only (`engine.get`, `engine.bots.policy`, and the hint's line as the service says
it, `hosting.service.explain`): the same seats and policies, the same seed for the game
and the bots, must give the same moves, the same events, the same final scores, and at
the recorded moments the same expert suggestion with the same reasons for every legal
move. The recording was made on the code before the AI moved to ``engine/haenyeo/ai/``;
re-record (``python -m tests.engine.test_haenyeo_seeded_playouts``) only for a change that is
meant to make the bots play differently, and say so in its commit.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import engine
import i18n
from engine.bots import policy
from engine.haenyeo.text import describe
from hosting.service import explain

GAME_KEY = "haenyeo"
RECORDING = Path(__file__).resolve().parents[1] / "seeded" / "haenyeo_playouts.json"
#: A hint is recorded at every this many-th state of a game (for each seat that owes a move).
HINT_EVERY = 29

#: (policy per seat, seed, options): every policy alone at 2 to 5 seats, then mixed tables.
TABLES: list[tuple[list[str], int, dict[str, str]]] = [
    *(
        ([name] * seats, seed, {})
        for name in ("random", "greedy", "expert")
        for seats in (2, 3, 4, 5)
        for seed in (1,)
    ),
    (["expert", "greedy"], 3, {}),
    (["greedy", "expert"], 4, {"first_player": "clockwise"}),
    (["random", "expert"], 5, {}),
    (["greedy", "expert", "random"], 6, {}),
    (["expert", "random", "greedy"], 7, {"score_tile": "random", "first_player": "clockwise"}),
    (["random", "greedy", "expert", "expert"], 8, {}),
    (["expert", "greedy", "greedy", "random"], 9, {"first_player": "stays"}),
    (["greedy", "random", "expert", "greedy", "expert"], 10, {}),
]


def label(policies: list[str], seed: int, options: dict[str, str]) -> str:
    """A table's name in the recording and in a failing test's id."""
    extra = "".join(f",{k}={v}" for k, v in sorted(options.items()))
    return f"{'+'.join(policies)}@{seed}{extra}"


def hint(game: Any, state: Any, seat: int, seed: str, every_line: bool) -> dict[str, Any]:
    """The expert's suggestion for ``seat`` and its reason in English (and, if asked, every legal move's)."""
    chosen = policy(GAME_KEY, "expert")(game, state, seat, random.Random(seed))
    said = {
        "seat": seat,
        "suggests": game.dump_action(chosen),
        "why": i18n.english(explain(GAME_KEY, game, state, seat, chosen)),
    }
    if every_line:
        said["lines"] = [
            [game.dump_action(action), i18n.english(explain(GAME_KEY, game, state, seat, action))]
            for action in game.legal_actions(state, seat)
        ]
    return said


def play(policies: list[str], seed: int, options: dict[str, str]) -> tuple[dict[str, Any], list[Any]]:
    """One seeded table played to the end: (what the recording holds, every state on the way)."""
    game = engine.get(GAME_KEY)
    chosen = [policy(GAME_KEY, name) for name in policies]
    rng = random.Random(seed)
    state = game.new(len(policies), seed, options)
    states = [state]
    moves: list[list[Any]] = []
    hints: list[dict[str, Any]] = []
    digest = hashlib.sha256()
    while seats := game.to_act(state):
        if len(states) % HINT_EVERY == 1:
            hints.extend(
                {"at": len(moves), **hint(game, state, s, f"{seed}:{len(moves)}:{s}", s == min(seats))}
                for s in sorted(seats)
            )
        seat = min(seats)  # as `engine.bots.play_states` does
        action = chosen[seat](game, state, seat, rng)
        moves.append([seat, game.dump_action(action)])
        state, events = game.apply(state, seat, action)
        digest.update(json.dumps(events, sort_keys=True, default=str).encode())
        states.append(state)
    result = game.result(state)
    assert result is not None
    record = {
        "moves": moves,
        "events_sha256": digest.hexdigest(),
        "scores": list(result.scores),
        "hints": hints,
    }
    return record, states


def recording() -> dict[str, Any]:
    return json.loads(RECORDING.read_text(encoding="utf-8"))


def test_the_recording_covers_every_policy_and_table_size():
    tables = recording()["tables"]
    assert set(tables) == {label(*table) for table in TABLES}
    for name in ("random", "greedy", "expert"):
        assert {len(t["policies"]) for t in tables.values() if name in t["policies"]} == {2, 3, 4, 5}
    assert sum(len(t["hints"]) for t in tables.values()) >= 100


@pytest.mark.parametrize("table", TABLES, ids=[label(*table) for table in TABLES])
def test_seeded_bots_play_as_recorded(table):
    policies, seed, options = table
    want = recording()["tables"][label(*table)]
    got, states = play(policies, seed, options)
    moves = want["moves"]
    for index, (mine, theirs) in enumerate(zip(got["moves"], moves, strict=False)):
        # The first move that differs, with the state it was chosen in (secrets shown: it is a test).
        assert mine == theirs, f"move {index}: {mine} != {theirs} in\n{describe(states[index], secrets=True)}"
    assert len(got["moves"]) == len(moves)
    assert got["events_sha256"] == want["events_sha256"]
    assert got["scores"] == want["scores"]
    for mine, theirs in zip(got["hints"], want["hints"], strict=True):
        assert mine == theirs, f"hint at move {theirs['at']}:\n{describe(states[theirs['at']], secrets=True)}"


def record() -> None:
    """Write the recording from the code as it is now (see the module's docstring for when)."""
    tables = {}
    for policies, seed, options in TABLES:
        played, _ = play(policies, seed, options)
        tables[label(policies, seed, options)] = {
            "policies": policies,
            "seed": seed,
            "options": options,
            **played,
        }
    data = {"game": GAME_KEY, "hint_every": HINT_EVERY, "tables": tables}
    RECORDING.parent.mkdir(exist_ok=True)
    RECORDING.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


if __name__ == "__main__":
    record()
    sys.exit(0)
