"""Issue #35, item 7: a doctored game record gets a clear answer from ``python -m engine.replay``.

Every malformed record exits with status 2 and one line saying what is wrong;
status 1 is kept for a well-formed record whose replayed result differs.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine import replay

ROOT = Path(__file__).resolve().parents[2]


def a_record(seed: int = 5) -> dict:
    """A whole two-seat Jeju Island game played with random legal moves, as `/game export` writes it."""
    game = engine.get("jeju")
    rng = random.Random(seed)
    state = game.new(2, seed, {})
    actions = []
    while game.result(state) is None:
        seat = min(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        actions.append((seat, game.dump_action(action)))
        state, _ = game.apply(state, seat, action)
    return replay.record(
        game="jeju",
        seed=seed,
        options={},
        seats=[{"seat": i, "name": n, "kind": "human"} for i, n in enumerate(("Ana", "Bo"))],
        actions=actions,
        result=game.result(state).to_dict(),
        table_id=7,
    )


def doctored(change) -> dict:
    record = copy.deepcopy(a_record())
    change(record)
    return record


def _set(key, value):
    return lambda r: r.__setitem__(key, value)


MALFORMED = {
    "ten seats": (
        _set("seats", [{"seat": i, "name": f"P{i}", "kind": "human"} for i in range(10)]),
        "10 seats",
    ),
    "no seats": (_set("seats", []), "0 seats"),
    "seats not objects": (_set("seats", ["Ana", "Bo"]), "seats must be a list of objects"),
    "seats not a list": (_set("seats", 2), "seats must be a list of objects"),
    "a seat's name a number": (lambda r: r["seats"][0].__setitem__("name", 5), "its name must be text"),
    "actions not objects": (_set("actions", [1, 2, 3]), "action 1 must be an object"),
    "action not an object": (lambda r: r["actions"][0].__setitem__("action", "dive"), "action 1 must be"),
    "actions not a list": (_set("actions", {"seat": 0}), "actions must be a list"),
    "seat out of range": (
        lambda r: r["actions"][0].__setitem__("seat", 9),
        "seat 9 is not one of the 2 seats",
    ),
    "seat a boolean": (lambda r: r["actions"][0].__setitem__("seat", True), "seat True is not one of"),
    "unknown option": (_set("options", {"turbo": "yes"}), "unknown option 'turbo'"),
    "options not an object": (_set("options", ["a"]), "options must be an object"),
    "seed of 5,000 digits": (_set("seed", "SEED"), "a number in it has more than 4,300 digits"),
    "seed negative": (_set("seed", -1), "the seed must be a whole number"),
    "seed a string": (_set("seed", "12"), "the seed must be a whole number"),
    "seed a float": (_set("seed", 1.5), "the seed must be a whole number"),
    "unknown game": (_set("game", "chess"), "unknown game 'chess'"),
    "game not text": (_set("game", ["jeju"]), "unknown game"),
    "not a record": (lambda r: r.clear(), "not a seagames-game record"),
    "result a list": (_set("result", [1, 2]), "result must be null or an object"),
    "an action of another game": (
        lambda r: r["actions"].__setitem__(0, {"seat": 0, "action": {"nonsense": [1]}}),
        "action 1 (seat 1)",
    ),
}


@pytest.mark.parametrize("case", MALFORMED)
def test_a_malformed_record_exits_2_with_one_line(case, tmp_path, capsys):
    change, expected = MALFORMED[case]
    record = doctored(change)
    path = tmp_path / "record.json"
    # A seed of 5,000 digits is written as JSON can (Python's own int() refuses more than 4,300).
    path.write_text(json.dumps(record).replace('"SEED"', "7" * 5000), encoding="utf-8")
    status = replay.main([str(path)])
    err = capsys.readouterr().err
    assert status == 2, (case, err)  # before issue #35: tracebacks, or 1 ("the result differs")
    assert err.count("\n") == 1 and err.startswith(f"cannot replay {path}: "), err
    assert expected in err, err


def test_not_json_and_deep_nesting_exit_2(tmp_path, capsys):
    for text in ("{not json", "[" * 100_000 + "]" * 100_000, "\udcff"):
        path = tmp_path / "bad.json"
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        assert replay.main([str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("cannot replay")


def test_a_well_formed_record_whose_result_differs_exits_1_and_a_true_one_0(tmp_path, capsys):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(a_record()), encoding="utf-8")
    assert replay.main([str(path)]) == 0
    forged = a_record()
    forged["result"]["scores"] = [s + 1 for s in forged["result"]["scores"]]
    path.write_text(json.dumps(forged), encoding="utf-8")
    assert replay.main([str(path)]) == 1
    assert "differs" in capsys.readouterr().err


def test_the_command_line_says_it_without_a_traceback(tmp_path):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(doctored(_set("seats", ["a"] * 10))), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "engine.replay", str(path)], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "seats must be a list of objects" in done.stderr
