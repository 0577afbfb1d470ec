"""League figures (issue #38): pairing a big round, the standings reads, the pictures' cost.

Run ``python -m bench.league [--players 1000] [--tables 100000] [--reads 2000]``:

1. **Pairing**: `hosting.league.pair_round` for ``--players`` players at tables of four,
   rounds 1 to 4 (each with the earlier rounds' history), timed (target: under 1 s).
2. **Standings reads**: a SQLite database of ``--tables`` tables (`bench.scale.build`: mostly
   finished, with their ratings), then a league of 32 players and one of ``--players``, their
   tables of three rounds linked; `Store.league_players` (the standings' one read) and
   `Store.league_tables` (a round) timed ``--reads`` times each (target: p99 ≤ 1 ms, like the
   bot's other reads).
3. **Pictures**: the standings (7 and 24 rows) and the final podium, next to a Haenyeo board
   and results picture, drawn in this process (ms per picture).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

import engine
import renderers
from bench.scale import build
from bench.stats import percentile
from engine.bots import play_states, policy
from hosting.league import BOT, History, LeaguePlayer, LeagueTable, pair_round
from hosting.store import Store

TARGET_PAIRING_S = 1.0
TARGET_READ_P99_MS = 1.0


def pairing(players: int, rounds: int = 4) -> list[float]:
    """Seconds to pair each of ``rounds`` rounds of ``players`` players (the results random)."""
    rng = random.Random(1)
    people = [LeaguePlayer(user_id=10_000 + i, name=f"p{i}", rating=rng.random()) for i in range(players)]
    played: list[LeagueTable] = []
    took = []
    for round_no in range(1, rounds + 1):
        started = time.perf_counter()
        history = History.of(played)
        tables = pair_round(people, 4, history, round_no)
        took.append(time.perf_counter() - started)
        played += tables
        points = {p.user_id: p.points + rng.choice((0, 1, 2, 3)) for p in people}
        people = [LeaguePlayer(p.user_id, p.name, points=points[p.user_id], rating=p.rating) for p in people]
    return took


def add_league(path: Path, league_id: int, players: list[int], rounds: int = 3) -> None:
    """A running league of these players, with three rounds of tables linked to finished tables."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    conn.execute(
        "INSERT INTO leagues (id, guild_id, channel_id, organiser_id, name, game, seats, pace, rounds, "
        "rated, bot_level, cap, drop_after, round_length, status, round, deadline, created_at, updated_at) "
        "VALUES (?, 1, 2, 3, 'Bench', 'haenyeo', 4, 0, 12, 1, 'normal', 200, 2, 86400, 'running', ?, 0, 0, "
        "0)",
        (league_id, rounds),
    )
    conn.executemany(
        "INSERT INTO league_players (league_id, user_id, name, joined_at, points, score, played) "
        "VALUES (?, ?, ?, 0, ?, ?, ?)",
        [(league_id, user, f"p{user}", i % 7, 100 + i, rounds) for i, user in enumerate(players)],
    )
    finished = [
        row[0] for row in conn.execute("SELECT id FROM game_tables WHERE status = 'finished' LIMIT 5000")
    ]
    taken = 0
    for round_no in range(1, rounds + 1):
        for number, first in enumerate(range(0, len(players), 4), start=1):
            seated = players[first : first + 4] + [BOT] * max(0, 4 - len(players[first : first + 4]))
            table_id = finished[league_id * 1000 + taken]  # each league table its own finished table
            conn.execute(
                "INSERT INTO league_tables (league_id, round, table_no, players, table_id) "
                "VALUES (?, ?, ?, ?, ?)",
                (league_id, round_no, number, json.dumps(seated), table_id),
            )
            taken += 1
    conn.execute("COMMIT")
    conn.close()


async def reads(path: Path, leagues: dict[str, int], n: int) -> dict[str, list[float]]:
    """Milliseconds of each standings read, ``n`` times per league."""
    store = await Store.open(path)
    found: dict[str, list[float]] = {}
    try:
        for name, league_id in leagues.items():
            for what, call in (
                ("standings", lambda league_id=league_id: store.league_players(league_id, "haenyeo")),
                ("a round's tables", lambda league_id=league_id: store.league_tables(league_id, 2)),
            ):
                timings = found.setdefault(f"{what}, {name}", [])
                for _ in range(n):
                    started = time.perf_counter()
                    await call()
                    timings.append((time.perf_counter() - started) * 1000)
    finally:
        await store.close()
    return found


def pictures(repeat: int = 5) -> dict[str, float]:
    """Milliseconds per picture, drawn here (the median of ``repeat``)."""
    game = engine.get("haenyeo")
    # A seeded random game: a board from its middle and its final state.
    choose = policy("haenyeo", "random")
    states = list(play_states(game, game.new(4, seed=4), lambda _seat: choose, random.Random(4)))
    board = game.view(states[len(states) // 2], None)
    final = game.view(states[-1], None)
    names = ["Mi-rae", "Jun", "Seo-yeon", "Oliver"]

    def standings(rows: int, final: bool) -> dict:
        return {
            "name": "Winter League",
            "round": 2,
            "rounds": 3,
            "final": final,
            "rows": [
                {"place": i + 1, "name": f"Player {i}", "points": 9 - i / 2, "score": 200 - i, "played": 3}
                for i in range(rows)
            ],
        }

    cases = {
        "standings, 7 players": lambda: renderers.render_league("haenyeo", standings(7, False)),
        "standings, 24 players": lambda: renderers.render_league("haenyeo", standings(24, False)),
        "final standings and podium, 7": lambda: renderers.render_league("haenyeo", standings(7, True)),
        "Haenyeo board, 4 seats": lambda: renderers.render("haenyeo", board, names),
        "Haenyeo results, 4 seats": lambda: renderers.render_results("haenyeo", final, names),
    }
    out = {}
    for name, draw in cases.items():
        draw()  # fonts and layers loaded once
        took = []
        for _ in range(repeat):
            started = time.perf_counter()
            draw()
            took.append((time.perf_counter() - started) * 1000)
        out[name] = statistics.median(took)
    return out


def main(argv: list[str] | None = None) -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--tables", type=int, default=100_000)
    parser.add_argument("--reads", type=int, default=2000)
    args = parser.parse_args(argv)
    took = pairing(args.players)
    print(
        f"pairing {args.players} players at tables of 4, rounds 1–4: "
        + ", ".join(f"{t * 1000:.0f} ms" for t in took)
        + f" (worst {max(took):.3f} s; target < {TARGET_PAIRING_S:g} s)"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        built = build(path, args.tables, 1000, random.Random(3))
        print(f"built {args.tables} tables in {built.seconds:.0f} s")
        add_league(path, 1, built.users[:32])
        add_league(path, 2, built.users[: args.players])
        found = asyncio.run(reads(path, {"32 players": 1, f"{args.players} players": 2}, args.reads))
    for name, timings in found.items():
        print(f"{name}: p50 {percentile(timings, 0.5):.3f} ms, p99 {percentile(timings, 0.99):.3f} ms")
    for name, ms in pictures().items():
        print(f"picture {name}: {ms:.0f} ms")


if __name__ == "__main__":
    main()
