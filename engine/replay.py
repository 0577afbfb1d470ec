"""Replays: a game rebuilt from its seed and action log, step by step, and exported games checked.

A game is a pure function of (seats, seed, options, action log), so a finished
table can be written down as a small JSON *record* and replayed anywhere:

    python -m engine.replay FILE

replays the record in FILE, prints the result, and exits with 1 when the
replayed result differs from the recorded one (2 when the record cannot be
replayed at all: an unknown game, an illegal action, a malformed file).

`steps` cuts a replay into the steps people saw in the thread: a new step after
every action that produced a public event (the moments a board was posted).
Each step keeps only the public events; a hidden choice never makes a step of
its own, so a replay shows what the table showed, when it showed it.

Pure: no Discord, no database, no clock.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from engine.base import Event, Game, IllegalAction, State, event
from i18n import say

#: The record's ``format`` field and version.
FORMAT = "seagames-game"
VERSION = 1
#: The result fields a replay must reproduce exactly.
CHECKED = ("scores", "ranking", "winners")


@dataclass(frozen=True)
class Step:
    """One step of a replay: the state after ``moves`` actions and the public events that led to it."""

    index: int
    moves: int
    events: tuple[Event, ...]
    state: State


def record(
    *,
    game: str,
    seed: int,
    options: dict[str, Any],
    seats: Sequence[dict[str, Any]],
    actions: Iterable[tuple[int, dict[str, Any]]],
    result: dict[str, Any] | None,
    table_id: int | None = None,
) -> dict[str, Any]:
    """A game's JSON record: what `replay` needs, and the result to check against.

    ``seats`` are plain dicts (``seat``, ``name``, ``kind``); ``actions`` are
    (seat, the game's JSON action) in log order.
    """
    return {
        "format": FORMAT,
        "version": VERSION,
        "table": table_id,
        "game": game,
        "seed": seed,
        "options": dict(options),
        "seats": [dict(s) for s in seats],
        "actions": [{"seat": seat, "action": action} for seat, action in actions],
        "result": result,
    }


class BadRecord(Exception):
    """The record cannot be replayed; the message says why."""


def _parts(data: dict[str, Any]) -> tuple[Game, int, int, dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadRecord(f"not a {FORMAT} record")
    if data.get("version") != VERSION:
        raise BadRecord(f"record version {data.get('version')!r}; this replayer reads version {VERSION}")
    try:
        game = engine.get(data["game"])
        seats = len(data["seats"])
        seed = int(data["seed"])
        options = dict(data.get("options") or {})
        actions = [(int(a["seat"]), dict(a["action"])) for a in data["actions"]]
    except (KeyError, TypeError, ValueError) as error:
        raise BadRecord(f"malformed record: {error}") from error
    return game, seats, seed, options, actions


def steps(
    game: Game, seats: int, seed: int, options: dict[str, Any], actions: Iterable[tuple[int, dict[str, Any]]]
) -> list[Step]:
    """The replay's steps: the start, then one after each action with a public event (and the end)."""
    state = game.new(seats, seed, options)
    found = [Step(0, 0, (event("start", say("The game begins!")),), state)]
    pending: list[Event] = []
    moves = 0
    for moves, (seat, data) in enumerate(actions, start=1):
        state, events = game.apply(state, seat, game.load_action(data))
        pending.extend(e for e in events if not e.get("private"))
        if pending:
            found.append(Step(len(found), moves, tuple(pending), state))
            pending = []
    if found[-1].moves != moves:  # the last actions told nobody anything: the end is still a step
        found.append(Step(len(found), moves, (), state))
    return found


def replay(data: dict[str, Any]) -> tuple[State, dict[str, Any] | None]:
    """Replay a record: (the final state, its result as JSON or None while unfinished)."""
    game, seats, seed, options, actions = _parts(data)
    state = game.new(seats, seed, options)
    for index, (seat, action) in enumerate(actions, start=1):
        try:
            state, _ = game.apply(state, seat, game.load_action(action))
        except IllegalAction as error:
            raise BadRecord(f"action {index} (seat {seat + 1}) is not legal: {error}") from error
    result = game.result(state)
    return state, None if result is None else result.to_dict()


def differences(recorded: dict[str, Any] | None, replayed: dict[str, Any] | None) -> list[str]:
    """Where the replayed result differs from the recorded one (empty: they agree)."""
    if recorded is None or replayed is None:
        return [] if recorded == replayed else [f"result: recorded {recorded!r}, replayed {replayed!r}"]
    return [
        f"{key}: recorded {recorded.get(key)!r}, replayed {replayed.get(key)!r}"
        for key in CHECKED
        if list(recorded.get(key) or []) != list(replayed.get(key) or [])
    ]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m engine.replay FILE``: replay, print the result, exit 1 when it differs."""
    parser = argparse.ArgumentParser(prog="python -m engine.replay", description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="a game record exported with /game export")
    args = parser.parse_args(argv)
    try:
        data = json.loads(args.file.read_text(encoding="utf-8"))
        _, result = replay(data)
    except (OSError, json.JSONDecodeError, BadRecord, KeyError) as error:
        print(f"cannot replay {args.file}: {error}", file=sys.stderr)
        return 2
    names = [s.get("name") or f"Seat {i + 1}" for i, s in enumerate(data["seats"])]
    print(f"{engine.get(data['game']).title}: {len(data['actions'])} actions replayed")
    if result is None:
        print("the game is unfinished")
    else:
        for seat in sorted(range(len(names)), key=lambda s: (result["ranking"][s], s)):
            won = " (wins)" if seat in result["winners"] else ""
            print(f"  {result['ranking'][seat]}. {names[seat]}: {result['scores'][seat]}{won}")
    found = differences(data.get("result"), result)
    if found:
        print("the replayed result differs from the recorded one:", *found, sep="\n  ", file=sys.stderr)
        return 1
    print("the result matches the record")
    return 0


if __name__ == "__main__":
    sys.exit(main())
