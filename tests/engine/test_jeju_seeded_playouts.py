"""Jeju Island's seeded bots play move for move as recorded (issue #37: the AI move changes no move).

`tests/seeded/jeju_playouts.json` holds, recorded on the code before the bots moved
into `engine/jeju/ai/`:

- whole games of ``random`` and ``greedy`` seats, alone and mixed, at 2, 3 and 4
  seats: every move, a digest of every event (its type, English text and fields)
  and the final scores;
- the ends of seeded greedy games played on with ``expert`` seats (mixed with greedy,
  and expert against expert), recorded the same way;
- hints at states from the middle of seeded games: the expert's suggestion and the
  line of why (`hosting.service.explain`) for every move a player could pick there;
- the line of why of every legal move at every state of seeded random games (every
  phase, setup included), one digest per state.

Everything goes through the public contract (`engine.get`, `engine.bots.policy`,
`hosting.service.explain`), so the recording holds whatever the modules behind it are
called. Regenerate only on purpose (a change meant to change how the bots play):
``python -m tests.engine.test_jeju_seeded_playouts``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

import engine
import i18n
from engine.bots import play_states, policy
from hosting.service import explain

GAME = engine.get("jeju")
RECORDING = Path(__file__).resolve().parents[1] / "seeded" / "jeju_playouts.json"

#: Whole games: (seats' policies, seed).
GAMES: list[tuple[tuple[str, ...], int]] = [
    (names, seed)
    for names in (
        ("random", "random"),
        ("greedy", "greedy"),
        ("random", "greedy"),
        ("greedy", "random", "random"),
        ("greedy", "greedy", "greedy"),
        ("random", "random", "random", "random"),
        ("greedy", "greedy", "greedy", "greedy"),
        ("greedy", "random", "greedy", "random"),
    )
    for seed in (1, 2, 3)
]
#: Expert games: (seats' policies, seed, moves before the end of the seeded greedy game to start from).
#: (Shorter since the expert searches 300 play-outs a move, not 96: the test takes as long as before.)
ENDGAMES: list[tuple[tuple[str, ...], int, int]] = [
    (("expert", "greedy"), 4, 12),
    (("greedy", "expert"), 5, 10),
    (("expert", "expert"), 6, 8),
    (("greedy", "expert", "greedy"), 7, 12),
    (("expert", "greedy", "random", "greedy"), 8, 12),
]
#: Hints: (seats, seed, moments) — states from a seeded greedy game, from its middle on.
HINTS: list[tuple[int, int, tuple[float, ...]]] = [
    (2, 9, (0.55, 0.8)),
    (3, 10, (0.7, 0.85)),
    (4, 11, (0.75, 0.9)),
]

#: Why sweeps: (seats, seed) of seeded random games.
SWEEPS: list[tuple[int, int]] = [(2, 12), (3, 13), (4, 14)]


def _chooser(names: tuple[str, ...]):
    chosen = [policy("jeju", name) for name in names]
    return lambda seat: chosen[seat]


def _digest(events: list[dict]) -> str:
    plain = [{key: value for key, value in event.items() if key != "say"} for event in events]
    return hashlib.sha256(json.dumps(plain, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _move(seat: int, action) -> str:
    """A move as one short line of the recording: "1 travel direction=right spot=5" (its JSON form)."""
    data = GAME.dump_action(action)
    fields = [
        f"{name}={','.join(map(str, value)) if isinstance(value, list) else value}"
        for name, value in sorted(data.items())
        if name != "type"
    ]
    return " ".join([str(seat), data["type"], *fields])


def _play(names: tuple[str, ...], state, rng: random.Random) -> dict:
    """Play ``state`` out with these seats' policies: the moves, an events digest and the scores."""
    choose = _chooser(names)
    moves, events = [], []
    while seats := GAME.to_act(state):
        seat = min(seats)
        action = choose(seat)(GAME, state, seat, rng)
        moves.append(_move(seat, action))
        state, said = GAME.apply(state, seat, action)
        events.extend(said)
    return {"moves": moves, "events": _digest(events), "scores": list(GAME.result(state).scores)}


def _greedy_history(seats: int, seed: int) -> list:
    return list(play_states(GAME, GAME.new(seats, seed), _chooser(("greedy",) * seats), random.Random(seed)))


def play_game(names: tuple[str, ...], seed: int) -> dict:
    return _play(names, GAME.new(len(names), seed), random.Random(seed))


def play_endgame(names: tuple[str, ...], seed: int, back: int) -> dict:
    history = _greedy_history(len(names), seed)
    return _play(names, history[-back], random.Random(seed))


def hints_at(seats: int, seed: int, moments: tuple[float, ...]) -> list[dict]:
    """At each moment of a seeded greedy game: the expert's suggestion and every move's why."""
    history = _greedy_history(seats, seed)
    expert = policy("jeju", "expert")
    found = []
    for moment in moments:
        index = int(len(history) * moment)
        state = history[index]
        seat = min(GAME.to_act(state))
        suggestion = expert(GAME, state, seat, random.Random(seed * 100 + index))
        found.append(
            {
                "moment": index,
                "seat": seat,
                "suggestion": _move(seat, suggestion),
                "why": _whys(state, seat),
            }
        )
    return found


def _whys(state, seat: int) -> dict[str, str]:
    """The line of why of every legal move, by the move's JSON form."""
    return {
        json.dumps(GAME.dump_action(action), sort_keys=True): i18n.english(
            explain("jeju", GAME, state, seat, action)
        )
        for action in GAME.legal_actions(state, seat)
    }


def why_sweep(seats: int, seed: int) -> list[str]:
    """For every state of a seeded random game, a digest of every legal move's line of why."""
    history = play_states(GAME, GAME.new(seats, seed), _chooser(("random",) * seats), random.Random(seed))
    found = []
    for state in history:
        if GAME.to_act(state):
            text = json.dumps(_whys(state, min(GAME.to_act(state))), sort_keys=True)
            found.append(hashlib.sha256(text.encode()).hexdigest()[:12])
    return found


def _key(names: tuple[str, ...], seed: int, *more: int) -> str:
    return " ".join(["-".join(names), str(seed), *map(str, more)])


def record() -> dict:
    """Everything the recording holds, played now."""
    return {
        "games": {_key(names, seed): play_game(names, seed) for names, seed in GAMES},
        "endgames": {
            _key(names, seed, back): play_endgame(names, seed, back) for names, seed, back in ENDGAMES
        },
        "hints": {
            _key((str(seats),), seed): hints_at(seats, seed, moments) for seats, seed, moments in HINTS
        },
        "whys": {_key((str(seats),), seed): why_sweep(seats, seed) for seats, seed in SWEEPS},
    }


@pytest.fixture(scope="module")
def recorded() -> dict:
    return json.loads(RECORDING.read_text(encoding="utf-8"))


def _same_play(played: dict, wanted: dict, where: str) -> None:
    """The moves as recorded, naming the first that differs; then the events and scores."""
    for index, (move, expected) in enumerate(zip(played["moves"], wanted["moves"], strict=False)):
        assert move == expected, f"{where}: move {index} differs: {move} instead of {expected}"
    assert len(played["moves"]) == len(wanted["moves"]), f"{where}: the game's length differs"
    assert played["events"] == wanted["events"], f"{where}: same moves, different events"
    assert played["scores"] == wanted["scores"], f"{where}: same moves, different scores"


@pytest.mark.parametrize(("names", "seed"), GAMES, ids=[_key(n, s) for n, s in GAMES])
def test_random_and_greedy_games_play_as_recorded(recorded, names, seed):
    key = _key(names, seed)
    _same_play(play_game(names, seed), recorded["games"][key], key)


@pytest.mark.parametrize(("names", "seed", "back"), ENDGAMES, ids=[_key(n, s, b) for n, s, b in ENDGAMES])
def test_expert_endgames_play_as_recorded(recorded, names, seed, back):
    key = _key(names, seed, back)
    played = play_endgame(names, seed, back)
    expert = names.index("expert")
    assert any(move.split()[0] == str(expert) for move in played["moves"])  # the expert did play
    _same_play(played, recorded["endgames"][key], key)


@pytest.mark.parametrize(("seats", "seed", "moments"), HINTS, ids=[_key((str(s),), d) for s, d, _m in HINTS])
def test_hints_suggest_and_explain_as_recorded(recorded, seats, seed, moments):
    key = _key((str(seats),), seed)
    wanted = recorded["hints"][key]
    for found, expected in zip(hints_at(seats, seed, moments), wanted, strict=True):
        assert found["suggestion"] == expected["suggestion"], f"{key} at move {found['moment']}"
        assert found["why"] == expected["why"], f"{key} at move {found['moment']}"


@pytest.mark.parametrize(("seats", "seed"), SWEEPS, ids=[_key((str(s),), d) for s, d in SWEEPS])
def test_every_line_of_why_in_random_games_is_as_recorded(recorded, seats, seed):
    key = _key((str(seats),), seed)
    wanted = recorded["whys"][key]
    found = why_sweep(seats, seed)
    for index, (digest, expected) in enumerate(zip(found, wanted, strict=False)):
        assert digest == expected, f"{key}: the lines of why differ at the {index}th state that owes a move"
    assert len(found) == len(wanted), f"{key}: the game's length differs"


def test_the_recording_covers_every_policy_and_seat_count(recorded):
    """The recording cannot quietly shrink: every game above is in it, and it plays real games."""
    assert set(recorded["games"]) == {_key(n, s) for n, s in GAMES}
    assert set(recorded["endgames"]) == {_key(n, s, b) for n, s, b in ENDGAMES}
    assert set(recorded["whys"]) == {_key((str(s),), d) for s, d in SWEEPS}
    used = {name for names, *_rest in GAMES + ENDGAMES for name in names}
    assert used == {"random", "greedy", "expert"}
    assert {len(names) for names, _seed in GAMES} == {2, 3, 4}
    assert all(len(game["moves"]) > 40 for game in recorded["games"].values())
    assert sum(len(h["why"]) for hints in recorded["hints"].values() for h in hints) > 20


if __name__ == "__main__":  # python -m tests.engine.test_jeju_seeded_playouts: record again, on purpose
    RECORDING.parent.mkdir(exist_ok=True)
    RECORDING.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    sys.stdout.write(f"wrote {RECORDING}\n")
