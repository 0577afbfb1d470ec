"""Replays: a game rebuilt from its seed and action log, step by step, and exported games checked.

A game is a pure function of (seats, seed, options, action log), so a finished
table can be written down as a small JSON *record* and replayed anywhere:

    python -m engine.replay FILE

replays the record in FILE, prints the result, and exits with 1 when the
replayed result differs from the recorded one, and with 2, saying in one line
what is wrong, when the record cannot be replayed at all: not JSON, an unknown
game or option, a seat count the game is not played by, seats or actions that
are not objects, a seed that is not a whole number below 2**64, an action that
is not legal or not one of the game's.

What the check proves: the recorded result follows from the seed, options and
actions by the game's rules. It does not prove that those actions were the
ones played at the table: a record whose moves were swapped for other legal
moves, with its result recomputed, replays cleanly. The table's own log (and
its `/game replay`) is the authority for what was played.

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


#: The largest seed a record may carry: the bot draws 62 bits; 64 leaves room and no more.
SEED_LIMIT = 2**64
#: The longest record `main` reads (bytes) and the most actions it replays: the longest real games
#: have a few hundred actions, so a file past these is not a game record.
MAX_BYTES = 8 * 1024 * 1024
MAX_ACTIONS = 20_000


def _whole(value: Any) -> bool:
    """A JSON whole number (not a boolean, which Python counts as an int)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _parts(data: Any) -> tuple[Game, int, int, dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """The record's game, seat count, seed, options and actions, each checked; `BadRecord` says
    what is wrong with the first field that is (one line)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadRecord(f"not a {FORMAT} record")
    if data.get("version") != VERSION or not _whole(data.get("version")):
        raise BadRecord(f"record version {data.get('version')!r}; this replayer reads version {VERSION}")
    key = data.get("game")
    if not isinstance(key, str) or key not in engine.GAME_PACKAGES:
        raise BadRecord(f"unknown game {key!r}; known: {', '.join(engine.GAME_PACKAGES)}")
    game = engine.get(key)
    seats = data.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, dict) for s in seats):
        raise BadRecord("seats must be a list of objects")
    if not game.min_seats <= len(seats) <= game.max_seats:
        raise BadRecord(f"{len(seats)} seats: {key} is played by {game.min_seats} to {game.max_seats}")
    for index, seat in enumerate(seats):
        if "name" in seat and not isinstance(seat["name"], str):
            raise BadRecord(f"seat {index + 1}: its name must be text")
    seed = data.get("seed")
    if not _whole(seed) or not 0 <= seed < SEED_LIMIT:
        shown = repr(seed) if len(repr(seed)) <= 40 else f"a number of {len(str(seed))} characters"
        raise BadRecord(f"the seed must be a whole number from 0 to 2**64 - 1, not {shown}")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise BadRecord("options must be an object")
    for name, value in options.items():
        if name not in game.options:
            raise BadRecord(
                f"unknown option {name!r} for {key}; its options: {', '.join(game.options) or 'none'}"
            )
        if value not in game.options[name]:
            raise BadRecord(
                f"option {name!r} cannot be {value!r}; it is one of {', '.join(game.options[name])}"
            )
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise BadRecord("actions must be a list")
    if len(actions) > MAX_ACTIONS:
        raise BadRecord(f"{len(actions)} actions: more than any game has ({MAX_ACTIONS})")
    logged = []
    for index, entry in enumerate(actions, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("action"), dict):
            raise BadRecord(f"action {index} must be an object with a seat and an action object")
        seat = entry.get("seat")
        if not _whole(seat) or not 0 <= seat < len(seats):
            raise BadRecord(
                f"action {index}: seat {seat!r} is not one of the {len(seats)} seats (0 to {len(seats) - 1})"
            )
        logged.append((seat, entry["action"]))
    result = data.get("result")
    if result is not None and not (
        isinstance(result, dict) and all(isinstance(result.get(k, []), list) for k in CHECKED)
    ):
        raise BadRecord(f"result must be null or an object whose {', '.join(CHECKED)} are lists")
    return game, len(seats), seed, dict(options), logged


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
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            # Not even an action of this game (a field missing or of the wrong kind).
            raise BadRecord(
                f"action {index} (seat {seat + 1}) is not an action of {game.key}: {error!r}"
            ) from error
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
        if args.file.stat().st_size > MAX_BYTES:
            raise BadRecord(f"the file is larger than {MAX_BYTES // 1024 // 1024} MiB: not a game record")
        data = json.loads(args.file.read_text(encoding="utf-8"))
        _, result = replay(data)
    except (OSError, ValueError, RecursionError, BadRecord) as error:
        # Every record that cannot be replayed, one line each: the file, the JSON (a number of more
        # than 4,300 digits is a ValueError of Python's own), or a field (`_parts`).
        why = " ".join(str(error).split()) or type(error).__name__
        if isinstance(error, ValueError) and "integer string conversion" in why:
            why = "a number in it has more than 4,300 digits (a seed is a whole number below 2**64)"
        print(f"cannot replay {args.file}: {why}", file=sys.stderr)
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
