"""Reef & Ruins bots play seeded games move for move as recorded, and hints say the recorded lines.

The recording (tests/seeded/reef_playouts.json) was made on the code before the
bots moved into `engine.reef.ai` (issue #37): the same seeds must give the same
moves, the same events and the same hint lines afterwards, or the move changed
behaviour. Everything goes through the public contract: `engine.get`,
`engine.bots.policy` and the hint's line of why as the hosting asks for it
(`hosting.service.explain`).

The expert is slow (a whole game takes seconds), so it plays a few rounds from
the start, from the middle and at the end of games instead of whole games.

After a deliberate change of a bot's play, record again and say why in the commit:
``python -m tests.engine.test_reef_seeded_playouts --record`` (every scenario), or
``--record NAME ...`` for only the scenarios of the policy you changed (the others keep
their recording, so they still prove the other bots play as before).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import engine
import i18n
from engine.bots import policy
from engine.reef.text import state_text
from hosting.service import explain

GAME = engine.get("reef")
RECORDING = Path(__file__).resolve().parents[1] / "seeded" / "reef_playouts.json"

#: name -> (seats' policies, seed, options, random play until (round, picked die?), expert rounds after).
#: ``until`` is None for a bot game from the start; ``rounds`` None plays to the end.
SCENARIOS: dict[str, dict[str, Any]] = {
    "random-solo-barrier": {"seats": ["random"], "seed": 11, "options": {}},
    "random-4-atoll-moonrise": {
        "seats": ["random"] * 4,
        "seed": 12,
        "options": {"reef": "arcane-atoll", "tracker": "moonrise"},
    },
    "greedy-solo-barrier": {"seats": ["greedy"], "seed": 13, "options": {}},
    "greedy-solo-atoll-moonrise": {
        "seats": ["greedy"],
        "seed": 14,
        "options": {"reef": "arcane-atoll", "tracker": "moonrise"},
    },
    "greedy-3-barrier-moonrise": {"seats": ["greedy"] * 3, "seed": 15, "options": {"tracker": "moonrise"}},
    "random-greedy-atoll": {"seats": ["random", "greedy"], "seed": 16, "options": {"reef": "arcane-atoll"}},
    "beginner-solo-barrier-sunrise": {
        "seats": ["beginner"],
        "seed": 21,
        "options": {"reef": "bewitching-barrier", "tracker": "sunrise"},
    },
    "beginner-greedy-atoll-moonrise": {
        "seats": ["beginner", "greedy"],
        "seed": 22,
        "options": {"reef": "arcane-atoll", "tracker": "moonrise"},
    },
    "expert-solo-barrier-opening": {"seats": ["expert"], "seed": 17, "options": {}, "rounds": 3},
    "expert-greedy-random-atoll-opening": {
        "seats": ["expert", "greedy", "random"],
        "seed": 18,
        "options": {"reef": "arcane-atoll"},
        "rounds": 2,
    },
    # random seats play to round 9 with a die picked, then the experts take over for two rounds
    "expert-2-barrier-moonrise-takeover": {
        "seats": ["expert", "expert"],
        "seed": 19,
        "options": {"tracker": "moonrise"},
        "until": 9,
        "rounds": 10,
    },
    "expert-solo-atoll-endgame": {
        "seats": ["expert"],
        "seed": 20,
        "options": {"reef": "arcane-atoll", "tracker": "moonrise"},
        "until": 17,
    },
}

#: The game whose states get every legal move's line of why, and how often.
HINTED = "random-greedy-atoll"
HINT_EVERY = 23


def move_text(seat: int, action: Any) -> str:
    """One move as a short stable string: ``seat kind a b``."""
    dumped = GAME.dump_action(action)
    return " ".join([str(seat), *(str(dumped[key]) for key in sorted(dumped))])


def why(state: Any, seat: int, action: Any) -> str:
    """The hint's line of why ``action`` suits ``seat``, in English, as the hosting asks for it."""
    return i18n.english(explain("reef", GAME, state, seat, action))


def play(name: str) -> Iterator[tuple[Any, int, Any, list[dict], str, Any]]:
    """(state before, seat, action, events, policy name, state after) for every bot move of a scenario.

    Seats that owe a move act in seat order (as `engine.bots.play_states`), one
    generator seeded by the scenario drives every seat. Before ``until`` every
    seat plays ``random``; those moves are played but not yielded."""
    spec = SCENARIOS[name]
    names: list[str] = spec["seats"]
    choosers: dict[str, Callable] = {n: policy("reef", n) for n in {*names, "random"}}
    state = GAME.new(len(names), spec["seed"], spec["options"])
    rng = random.Random(spec["seed"])
    until: int | None = spec.get("until")
    if until is not None:
        while GAME.to_act(state) and not (
            state.round == until and state.dice and any(s.pick >= 0 for s in state.sheets)
        ):
            seat = min(GAME.to_act(state))
            state, _ = GAME.apply(state, seat, choosers["random"](GAME, state, seat, rng))
    last = spec.get("rounds")
    while (seats := GAME.to_act(state)) and (last is None or state.round <= last):
        seat = min(seats)
        action = choosers[names[seat]](GAME, state, seat, rng)
        after, events = GAME.apply(state, seat, action)
        yield state, seat, action, events, names[seat], after
        state = after


def events_digest(events: list[dict]) -> str:
    """A short fingerprint of a move's events: their types, English texts and fields."""
    return hashlib.sha256(json.dumps(events, sort_keys=True, default=str).encode()).hexdigest()[:16]


def record(name: str) -> dict[str, Any]:
    """What a scenario does now: its moves, each move's events, the expert's hint lines, the end."""
    moves: list[str] = []
    events: list[str] = []
    hints: list[list[str]] = []
    state = None
    for count, (before, seat, action, said, chooser, after) in enumerate(play(name)):
        moves.append(move_text(seat, action))
        events.append(events_digest(said))
        if chooser == "expert":
            hints.append([str(count), why(before, seat, action)])
        elif name == HINTED and count % HINT_EVERY == 0:
            for option in GAME.legal_actions(before, seat):
                hints.append([str(count), move_text(seat, option), why(before, seat, option)])
        state = after
    assert state is not None
    result = GAME.result(state)
    return {
        "moves": moves,
        "events": events,
        "hints": hints,
        "round": state.round,
        "scores": list(result.scores) if result else None,
        "state": hashlib.sha256(json.dumps(GAME.dump_state(state), sort_keys=True).encode()).hexdigest()[:16],
    }


@pytest.fixture(scope="module")
def recorded() -> dict[str, Any]:
    return json.loads(RECORDING.read_text(encoding="utf-8"))


def test_the_recording_covers_every_scenario(recorded):
    assert sorted(recorded) == sorted(SCENARIOS)
    assert all(recorded[name]["moves"] for name in SCENARIOS)
    assert any(len(h) == 3 for h in recorded[HINTED]["hints"]), "no legal move's line was recorded"


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_seeded_bots_play_as_recorded(name, recorded):
    """Move for move, event for event, hint line for hint line; a difference names the first move
    that differs and shows the table as its seat saw it before it."""
    wanted = recorded[name]
    now = record(name)
    for k, (old, new) in enumerate(zip(wanted["moves"], now["moves"], strict=False)):
        if old != new or wanted["events"][k] != now["events"][k]:
            before, seat = list(play(name))[k][:2]
            pytest.fail(
                f"{name}: move {k} was {old!r}, is {new!r} (events {wanted['events'][k]} -> "
                f"{now['events'][k]}); the table before it:\n{state_text(before, seat)}"
            )
    assert now["moves"] == wanted["moves"]
    assert now["hints"] == wanted["hints"]
    assert (now["round"], now["scores"], now["state"]) == (wanted["round"], wanted["scores"], wanted["state"])


def main(argv: list[str]) -> int:
    if not argv or argv[0] != "--record" or not set(argv[1:]) <= set(SCENARIOS):
        print(__doc__)
        return 2
    RECORDING.parent.mkdir(parents=True, exist_ok=True)
    names = argv[1:] or list(SCENARIOS)
    data = json.loads(RECORDING.read_text(encoding="utf-8")) if RECORDING.exists() else {}
    data.update({name: record(name) for name in names})
    data = {name: data[name] for name in SCENARIOS}
    RECORDING.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
