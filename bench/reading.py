"""How well `engine.reading` reads a player's level from their moves (issue #39).

Run ``nice -n 10 python -m bench.reading [--games N] [--first SEED] [--game haenyeo,jeju]``.

For each game that reads moves and each bot level standing in for a person
(random, beginner, greedy, expert), it plays ``--games`` 2-seat games of that level
against greedy (the "person" in seat ``seed % 2``), reads the person's moves as the
hosting does, and prints what they read as halfway through the game and at its
end (random / beginner / expert, where the game reads experts / none: greedy or
better), with the CPU the reading took
per move of the game (a person's read, the others' looked at for the cards they reveal).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

import engine
from engine.base import without_text
from engine.bots import policy
from engine.reading import TableReading, reads

PEOPLE = ("random", "beginner", "greedy", "expert")


def read_games(
    game_key: str, person: str, games: int, first: int
) -> tuple[Counter, Counter, list[float], list[float]]:
    """(readings halfway, readings at the end, CPU seconds per move, each game's final margin of
    the likelier weaker model over greedy-or-better in log-likelihood) over ``games`` games."""
    game = engine.get(game_key)
    players = {name: policy(game_key, name) for name in {person, "greedy"}}
    halfway, end, cpu, margins = Counter(), Counter(), [], []
    for seed in range(first, first + games):
        me = seed % 2
        state = game.new(2, seed)
        rng = random.Random(seed)
        steps = []
        with without_text():
            while actors := game.to_act(state):
                seat = min(actors)
                action = players[person if seat == me else "greedy"](game, state, seat, rng)
                after, _ = game.apply(state, seat, action)
                steps.append((state, seat, action, after))
                state = after
        table = TableReading.of(2)
        reading = table.readings[me]
        for index, (before, seat, action, after) in enumerate(steps):
            if index == len(steps) // 2:
                halfway[reading.level() or "none"] += 1
            started = time.process_time()
            if seat == me:
                table.see(game_key, game, before, seat, action)
            table.reveal(game_key, game, after)
            cpu.append(time.process_time() - started)
        end[reading.level() or "none"] += 1
        weights = reading.weights
        margins.append(max(weights["random"], weights["beginner"]) - weights["greedy"])
    return halfway, end, cpu, margins


def main(argv: list[str] | None = None) -> int:
    """Print, per game and level, what its moves read as (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=3000)
    parser.add_argument("--game", default="haenyeo,jeju")
    args = parser.parse_args(argv)
    for game_key in args.game.split(","):
        if not reads(game_key):
            print(f"{game_key}: reads no moves")
            continue
        for person in PEOPLE:
            halfway, end, cpu, margins = read_games(game_key, person, args.games, args.first)
            show = lambda c: ", ".join(f"{k} {c[k]}" for k in ("random", "beginner", "expert", "none"))  # noqa: E731
            mean_ms = 1000 * sum(cpu) / max(1, len(cpu))
            print(
                f"{game_key} {person:8} ({args.games} games) halfway: {show(halfway)}; "
                f"at the end: {show(end)}; weaker model's margin over greedy-or-better "
                f"{min(margins):+.1f} to {max(margins):+.1f} (log); {mean_ms:.2f} ms a move",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
