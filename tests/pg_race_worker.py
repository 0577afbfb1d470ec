"""One bot process's worth of hosting service, for `tests/hosting/test_store_postgres_race.py`.

``python -m tests.pg_race_worker URL NUMBER TABLE_ID...``: opens its own
`PostgresStore` on URL, prints ``ready``, waits for a line on stdin (so that
every worker starts at once), then plays random legal moves on the tables until
each is finished and claims reminders 1 to 3 on each, and prints one JSON line:
the moves it applied (table, version, action), how many of its writes were
stale, and the reminders it won.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys

import engine
from hosting.errors import StaleVersion, TableError
from hosting.pg_store import PostgresStore
from hosting.records import ACTIVE
from hosting.service import TableService

engine.GAME_PACKAGES.setdefault("takeaway", "tests.tinygame")


async def main(url: str, number: int, table_ids: list[int]) -> None:
    store = await PostgresStore.open(url, max_size=4)
    service = TableService(store, clock=lambda: 1_000.0)
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    applied: list[tuple[int, int, dict]] = []
    stale = 0
    rng = random.Random(number)

    async def play(table_id: int) -> None:
        nonlocal stale
        while (table := await service.get(table_id)).status == ACTIVE:
            game = engine.get(table.game)
            state = service.state_of(table)
            seat = rng.choice(sorted(game.to_act(state)))
            action = rng.choice(game.legal_actions(state, seat))
            try:
                await service.submit_action(table_id, seat, action, table.version)
            except StaleVersion:
                stale += 1
                continue
            except TableError:
                continue
            applied.append((table_id, table.version, game.dump_action(action)))

    await asyncio.gather(*(play(table_id) for table_id in table_ids))
    won = []
    for table_id in table_ids:
        version = (await store.get_table(table_id)).version
        for sent in (1, 2, 3):
            if await store.claim_reminder(table_id, version, sent=sent, wake_at=None):
                won.append((table_id, sent))
    await store.close()
    print(json.dumps({"applied": applied, "stale": stale, "won": won}), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), [int(arg) for arg in sys.argv[3:]]))
