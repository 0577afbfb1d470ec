"""Engine figures: random actions and games per second, and bot score spreads.

Run ``python -m bench.engine [game ...] [--seconds N] [--games N] [--speed-only]``. It
plays on one core (this process) and prints, per game: random actions per second
through the engine contract beside OpenSpiel's pure-Python tic-tac-toe and liar's
poker measured in the same run (interleaved, so the machine's load falls on both
alike; skipped with a note when ``open_spiel`` is not installed: it is no dependency
of ours), random games per second at the issue's reference seat count, and the
mean / min / max final score of random and greedy seats.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import engine
from engine.bots import play_out, policy

#: The seat count each game's figures are quoted at (the issues' targets).
REFERENCE_SEATS = {"haenyeo": 4, "jeju": 4, "reef": 1}
#: Random complete games per second on one core, per game (the game issues' target).
TARGET_GAMES_PER_SECOND = 300
#: OpenSpiel's games written in pure Python that the action rates are compared with (issue #39).
OPENSPIEL_GAMES = ("python_tic_tac_toe", "python_liars_poker")
#: Issue #39: every engine at least this many times OpenSpiel's pure-Python games' rate.
TARGET_OPENSPIEL_RATIO = 1.5


def random_actions(game_key: str, seats: int, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Random play through the contract (``policy`` then ``apply``, events and all) for about
    ``seconds`` of this process's CPU time; return (actions played, CPU seconds)."""
    game = engine.get(game_key)
    rand = policy(game_key, "random")
    rng = random.Random(seed)
    actions = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        state = game.new(seats, seed=seed + actions)
        while seats_to_act := game.to_act(state):
            seat = min(seats_to_act)
            state, _ = game.apply(state, seat, rand(game, state, seat, rng))
            actions += 1
    return actions, time.process_time() - started


def openspiel_actions(name: str, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Random play of one of OpenSpiel's Python games for about ``seconds`` of CPU time; return
    (players' actions, CPU seconds). Chance outcomes (liar's poker's deal) take time but are not
    counted: our engines deal and roll inside ``apply`` too. Needs ``open_spiel`` installed."""
    import pyspiel
    from open_spiel.python import games as _registered  # noqa: F401 - registers the Python games

    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    actions = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
    return actions, time.process_time() - started


def openspiel_available() -> bool:
    """Whether OpenSpiel's Python games can be loaded here."""
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python import games  # noqa: F401
    except ImportError:
        return False
    return True


def action_rates(games: list[str] | None = None, seconds: float = 5.0, rounds: int = 5) -> dict[str, float]:
    """Random actions per CPU second for each game (ours at the reference seats, and OpenSpiel's
    Python games when installed), measured in ``rounds`` interleaved turns of ``seconds / rounds``."""
    keys = games or list(engine.GAME_PACKAGES)
    runs: dict[str, Callable[[float, int], tuple[int, float]]] = {
        key: (lambda s, seed, key=key: random_actions(key, REFERENCE_SEATS.get(key, 2), s, seed))
        for key in keys
    }
    if openspiel_available():
        runs.update(
            {name: (lambda s, seed, name=name: openspiel_actions(name, s, seed)) for name in OPENSPIEL_GAMES}
        )
    done = dict.fromkeys(runs, (0, 0.0))
    for turn in range(rounds):
        for name, run in runs.items():
            actions, spent = run(seconds / rounds, turn * 100_003)
            done[name] = (done[name][0] + actions, done[name][1] + spent)
    return {name: actions / spent for name, (actions, spent) in done.items()}


def rate_report(rates: dict[str, float]) -> list[str]:
    """The action rates as printed lines, each of ours with its ratio to OpenSpiel's games."""
    theirs = {name: rates[name] for name in OPENSPIEL_GAMES if name in rates}
    lines = [
        f"{name}: {rate:,.0f} random actions/s (OpenSpiel, pure Python; deals not counted)"
        for name, rate in theirs.items()
    ]
    for key, rate in rates.items():
        if key in OPENSPIEL_GAMES:
            continue
        seats = REFERENCE_SEATS.get(key, 2)
        line = f"{key}: {rate:,.0f} random actions/s through the contract ({seats} seats, events included)"
        if theirs:
            ratios = ", ".join(f"{rate / other:.2f}x {name}" for name, other in theirs.items())
            worst = min(rate / other for other in theirs.values())
            verdict = "ok" if worst >= TARGET_OPENSPIEL_RATIO else "below"
            line += f"; {ratios} (target >= {TARGET_OPENSPIEL_RATIO}x: {verdict})"
        lines.append(line)
    if not theirs:
        lines.append("OpenSpiel is not installed (pip install open_spiel): no comparison, our figures alone")
    return lines


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
    parser.add_argument(
        "--speed-only", action="store_true", help="only the action rates and OpenSpiel ratios"
    )
    args = parser.parse_args()
    print("\n".join(rate_report(action_rates(args.games, args.seconds))), flush=True)
    if not args.speed_only:
        print("\n".join(report(figures(args.games, args.seconds, args.count))))


if __name__ == "__main__":
    main()
