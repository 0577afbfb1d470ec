"""Engine figures: complete random games per second, and bot score spreads.

Run ``python -m bench.engine [game ...] [--seconds N] [--games N]``. It plays on
one core (this process) and prints, per game: random games per second at the
issue's reference seat count, and the mean / min / max final score of random
and greedy seats.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import engine
from engine.bots import play_out, policy

#: The seat count each game's figures are quoted at (the issues' targets).
REFERENCE_SEATS = {"haenyeo": 4, "jeju": 4, "reef": 1}
#: Random complete games per second on one core, per game (the game issues' target).
TARGET_GAMES_PER_SECOND = 300


def games_per_second(game_key: str, seats: int, seconds: float) -> tuple[float, int]:
    """Play complete random games for about ``seconds``; return (games/s, games played)."""
    game = engine.get(game_key)
    rand = policy(game_key, "random")
    started = time.perf_counter()
    played = 0
    while time.perf_counter() - started < seconds:
        state = game.new(seats, seed=played)
        play_out(game, state, lambda _seat: rand, random.Random(played))
        played += 1
    return played / (time.perf_counter() - started), played


def score_spread(game_key: str, seats: int, policy_name: str, count: int) -> list[int]:
    """Final scores of every seat over ``count`` games where all seats use one policy."""
    game = engine.get(game_key)
    chosen = policy(game_key, policy_name)
    scores: list[int] = []
    for seed in range(count):
        state = play_out(game, game.new(seats, seed=seed), lambda _seat: chosen, random.Random(seed))
        scores.extend(game.result(state).scores)
    return scores


def figures(games: list[str] | None = None, seconds: float = 5.0, count: int = 200) -> list[dict]:
    """Per game: reference seats, random games per second, and score spreads per policy."""
    rows = []
    for key in games or list(engine.GAME_PACKAGES):
        seats = REFERENCE_SEATS.get(key, engine.get(key).min_seats)
        rate, played = games_per_second(key, seats, seconds)
        spreads = {}
        for name in ("random", "greedy"):
            scores = score_spread(key, seats, name, count)
            spreads[name] = {
                "mean": statistics.mean(scores),
                "stdev": statistics.pstdev(scores),
                "min": min(scores),
                "max": max(scores),
                "games": count,
            }
        rows.append({"game": key, "seats": seats, "games_per_s": rate, "played": played, "scores": spreads})
    return rows


def report(rows: list[dict]) -> list[str]:
    """The figures as printed lines."""
    lines = []
    for row in rows:
        key, seats = row["game"], row["seats"]
        lines.append(
            f"{key}: {int(row['games_per_s'])} random {seats}-seat games/s ({row['played']} games, one core)"
        )
        for name, spread in row["scores"].items():
            lines.append(
                f"{key}: {name} score mean {spread['mean']:.1f}, stdev {spread['stdev']:.1f}, "
                f"min {spread['min']}, max {spread['max']} ({spread['games']} games, {seats} seats)"
            )
    return lines


def main() -> None:
    """Print the figures for the chosen games (all registered games by default)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", help="game keys (default: all)")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per speed figure")
    parser.add_argument("--games", dest="count", type=int, default=200, help="games per score spread")
    args = parser.parse_args()
    print("\n".join(report(figures(args.games, args.seconds, args.count))))


if __name__ == "__main__":
    main()
