"""A process that applies random legal moves to tables forever; the crash test kills it.

Run ``python -m tests.crash_worker <database> <seed>``. It opens the store,
keeps a few tables of every game running (starting new ones as games end or
resuming the ones a previous run left), and applies random legal moves through
`TableService.submit_action`. After each accepted move it prints
``ACK <table id> <moves>`` and flushes, so a line on stdout means the move's
transaction had committed before the line was written.
"""

from __future__ import annotations

import asyncio
import random
import sys

import engine
from hosting.errors import TableError
from hosting.records import ACTIVE, LOBBY
from hosting.service import TableService
from hosting.store import Store

#: One host per running table; the game rotates with the host.
HOSTS = {1001: "haenyeo", 1002: "jeju", 1003: "reef", 1004: "haenyeo", 1005: "jeju", 1006: "reef"}


async def ensure_table(service: TableService, host: int, game_key: str, rng: random.Random):
    """The host's running table, starting (or finishing the setup of) one when there is none."""
    open_tables = await service.tables_of(host)
    table = next((t for t in open_tables if t.status == ACTIVE), None)
    if table is not None:
        return table
    table = next((t for t in open_tables if t.status == LOBBY), None)
    game = engine.get(game_key)
    if table is None:
        table = await service.create_table(
            game_key=game_key, guild_id=1, channel_id=host, host_id=host, host_name=f"host {host}"
        )
    want = rng.randint(game.min_seats, min(game.max_seats, 4))
    for n in range(1, want):
        if len(table.seats) >= want:
            break
        try:
            table = await service.join(table.id, host + 100 * n, f"player {host + 100 * n}")
        except TableError:
            table = await service.get(table.id)
    return await service.start(table.id, host)


async def main(path: str, seed: int) -> None:
    rng = random.Random(seed)
    store = await Store.open(path)
    service = TableService(store, new_seed=lambda: rng.randrange(2**62))
    print("READY", flush=True)
    while True:
        host = rng.choice(list(HOSTS))
        table = await ensure_table(service, host, HOSTS[host], rng)
        game = engine.get(table.game)
        state = service.state_of(table)
        seat = rng.choice(sorted(game.to_act(state)))
        action = rng.choice(game.legal_actions(state, seat))
        move = await service.submit_action(table.id, seat, action, table.version)
        sys.stdout.write(f"ACK {table.id} {move.table.moves}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
