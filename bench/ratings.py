"""Ratings and replay figures: the rating update in the finishing transaction, and a replay step.

Run ``python -m bench.ratings [--games N] [--steps N]``.

1. The finishing transaction (`Store.append_action` with ``scored``) on a fresh
   SQLite file in WAL mode, against the same write without ratings: the
   difference is what rating costs a finishing move (reading the players'
   ratings, openskill's Plackett–Luce update, writing ``ratings`` and
   ``rating_events``). Also openskill's update alone. ``DATABASE_URL`` set: the
   same on that PostgreSQL database (it must be an empty scratch database).
2. A replay step: what `/game replay`'s Previous / Next / Jump do besides Discord,
   the public view of the step's state and its picture (`renderers.render`), for
   whole random games of each game; plus rebuilding a game's steps from its log
   (`engine.replay.steps`, done once per table and then kept).

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

import engine
import renderers
from bench.stats import percentile
from engine import replay
from engine.bots import policy
from hosting import ratings
from hosting.ratings import ScoredGame, ScoredSeat
from hosting.records import Seat
from hosting.store import Store


def summary(name: str, values: list[float]) -> str:
    return (
        f"{name:<44} n={len(values):<5} p50 {percentile(values, 0.5):7.3f} ms   "
        f"p99 {percentile(values, 0.99):7.3f} ms   mean {statistics.fmean(values):7.3f} ms"
    )


async def finishing_writes(store, games: int, players: int, rated: bool, users: int = 40) -> list[float]:
    """Time ``games`` finishing writes of ``players``-seat games (with or without the rating update)."""
    rng = random.Random(players)
    timings = []
    for _ in range(games):
        people = rng.sample(range(1, users + 1), players)
        host = Seat(seat=0, name="p", kind="human", user_id=people[0])
        table = await store.create_table(
            game="jeju", guild_id=1, channel_id=2, host=host, options={}, now=0.0
        )
        seats = [Seat(seat=i, name="p", kind="human", user_id=u) for i, u in enumerate(people)]
        table = await store.update_table(
            table.id, table.version, seats=seats, status="active", seed=1, now=0.0
        )
        ranks = list(range(1, players + 1))
        rng.shuffle(ranks)
        scored = ScoredGame(
            table.id,
            "jeju",
            1,
            tuple(ScoredSeat(i, u, r, 10 * r) for i, (u, r) in enumerate(zip(people, ranks, strict=True))),
        )
        state = {"board": list(range(200))}  # a snapshot of a realistic size
        result = {"scores": [10 * r for r in ranks], "ranking": ranks, "winners": [ranks.index(1)]}
        start = time.perf_counter()
        await store.append_action(
            table.id,
            table.version,
            seat=0,
            action={"buy": 1},
            state=state,
            result=result,
            now=1.0,
            scored=scored if rated else None,
        )
        timings.append((time.perf_counter() - start) * 1000)
    return timings


async def bench_transaction(games: int) -> None:
    print("The finishing transaction (Store.append_action), SQLite WAL on a temporary file:")
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.sqlite3")
        try:
            await report(store, games)
        finally:
            await store.close()
    url = os.environ.get("DATABASE_URL")
    if url:
        from hosting.pg_store import PostgresStore

        print("\nThe same on PostgreSQL (DATABASE_URL):")
        store = await PostgresStore.open(url)
        try:
            await report(store, games)
        finally:
            await store.close()
    alone = []
    for players in (2, 4) * (games // 2):
        seats = tuple(ScoredSeat(i, i + 1, i + 1, 0) for i in range(players))
        start = time.perf_counter()
        ratings.update(ScoredGame(1, "jeju", 1, seats), {})
        alone.append((time.perf_counter() - start) * 1000)
    print(summary("openskill Plackett–Luce update alone (2/4 seats)", alone))


async def report(store, games: int) -> None:
    await finishing_writes(store, 20, 2, True)  # warm up
    for players in (2, 4):
        plain = await finishing_writes(store, games, players, False)
        rated = await finishing_writes(store, games, players, True)
        print(summary(f"{players} seats, finishing move without ratings", plain))
        print(summary(f"{players} seats, finishing move with the rating update", rated))
        extra = percentile(rated, 0.5) - percentile(plain, 0.5)
        print(f"{'':<44} the rating update adds {extra:.3f} ms at the median")


def random_game(key: str, seats: int, seed: int) -> tuple[list[tuple[int, dict]], int]:
    """A whole game played by the random policy: its log as (seat, JSON action)."""
    game = engine.get(key)
    rng = random.Random(seed)
    choose = policy(key, "random")
    state = game.new(seats, seed, {})
    log = []
    while game.result(state) is None:
        seat = min(game.to_act(state))
        action = choose(game, state, seat, rng)
        log.append((seat, game.dump_action(action)))
        state, _ = game.apply(state, seat, action)
    return log, seed


def bench_replay(steps_per_game: int) -> None:
    print("\nA replay step (public view + picture, what Previous / Next / Jump compute):")
    for key, seats in (("haenyeo", 3), ("jeju", 2), ("reef", 2)):
        game = engine.get(key)
        log, seed = random_game(key, seats, 7)
        start = time.perf_counter()
        steps = replay.steps(game, seats, seed, {}, log)
        rebuild = (time.perf_counter() - start) * 1000
        names = [f"Player {i + 1}" for i in range(seats)]
        picks = random.Random(1).choices(range(len(steps)), k=steps_per_game)
        timings = []
        for index in picks:
            start = time.perf_counter()
            renderers.render(key, game.view(steps[index].state, None), names)
            timings.append((time.perf_counter() - start) * 1000)
        print(summary(f"{game.title[:24]} ({len(log)} moves, {len(steps)} steps)", timings))
        print(f"{'':<44} rebuilding all its steps from the log: {rebuild:.1f} ms (once per table)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="finishing writes per case")
    parser.add_argument("--steps", type=int, default=60, help="replay steps drawn per game")
    args = parser.parse_args()
    asyncio.run(bench_transaction(args.games))
    bench_replay(args.steps)


if __name__ == "__main__":
    main()
