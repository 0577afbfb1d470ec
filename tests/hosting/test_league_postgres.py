"""Two bot processes' worth of league services on one PostgreSQL database pair each round once (#38).

Each "process" is a `TableService` and a `LeagueService` on a store of its own (its own pool of
sessions), as two processes of a cluster have (`tests/hosting/test_store_postgres_race.py`). Both start
the league, open the round's tables and close each round at the same moment, several times over:
the store's claims decide, so every round is paired once and every table of it opened once.
"""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from hosting.league import BOT, FINISHED, RUNNING, placement_points
from hosting.leagues import LeagueService
from hosting.pg_store import PostgresStore
from hosting.records import CANCELLED
from hosting.service import TableService
from simtools import pg_server

PLAYERS = range(101, 108)  # seven members


@pytest.fixture
async def cluster():
    """Two processes' league services over the same fresh database."""
    async with pg_server.scratch_database() as url:
        stores = [await PostgresStore.open(url, max_size=4) for _ in range(2)]
        seeds = iter(range(1, 10_000))
        services = []
        for store in stores:
            tables = TableService(store, clock=lambda: 1_000.0, new_seed=lambda: next(seeds))
            services.append(LeagueService(tables))
        yield services
        for store in stores:
            await store.close()


async def test_two_processes_pair_each_round_once(cluster):
    first, second = cluster
    league = await first.create(
        guild_id=1,
        channel_id=2,
        organiser_id=100,
        name="Cluster League",
        game="takeaway",
        seats=4,
        pace=0,
        rounds=3,
        rated=False,
        bot_level="easy",
        cap=7,
        round_hours=24,
    )
    # Sign-up from both processes at once: the cap holds across them.
    joined = await asyncio.gather(
        *(service.join(league.id, user, f"p{user}") for user in PLAYERS for service in (first, second)),
        return_exceptions=True,
    )
    assert sum(not isinstance(j, Exception) for j in joined) == 7  # each member once

    started = await asyncio.gather(
        *(service.start(league.id) for service in (first, second, first, second)), return_exceptions=True
    )
    assert sum(s is not None and not isinstance(s, Exception) for s in started) == 1

    for round_no in (1, 2, 3):
        current = await first.get(league.id)
        assert (current.status, current.round) == (RUNNING, round_no)
        paired = await first.round_tables(current)
        assert len(paired) == 2  # seven players at four seats: two tables, paired once
        # Both processes open every table of the round at once: one hosted table each.
        opened = await asyncio.gather(
            *(service.table_for(current, table) for table in paired for service in (first, second))
        )
        hosted = [t for t in opened if t is not None]
        linked = {t.table_id for t in await first.round_tables(current)}
        assert len(linked) == 2 and None not in linked
        for extra in (t for t in hosted if t.id not in linked):  # a loser's table: cancelled
            assert (await first.tables.get(extra.id)).status == CANCELLED
        for table_id in linked:
            await first.start_table(await first.tables.get(table_id))
        await first.play_out(current)  # bots play every seat to the end (as at the deadline)
        closes = await asyncio.gather(
            *(service.close_round(league.id) for service in (first, second, first, second))
        )
        assert sum(c is not None for c in closes) == 1, f"round {round_no} closed {closes}"

    done = await second.get(league.id)
    assert done.status == FINISHED
    rounds = Counter(t.round for t in await second.store.league_tables(league.id))
    assert rounds == {1: 2, 2: 2, 3: 2}  # three rounds, two tables each, never paired twice
    # The standings are the recount of the finished tables, and the unrated league rated nobody
    # (its first table of each round seats four people and no bot: only `rated` keeps it unrated).
    recount: Counter[int] = Counter()
    for paired in await second.store.league_tables(league.id):
        table = await second.tables.get(paired.table_id)
        assert table.status == "finished" and await second.tables.rating_changes(table.id) == []
        for seat, points in enumerate(placement_points(table.result["ranking"])):
            if paired.players[seat] != BOT:
                recount[paired.players[seat]] += points
    players = await second.players(done)
    assert {p.user_id: p.points for p in players} == dict(recount)
    assert all(p.played == 3 for p in players)
    assert [p.place for p in players] == sorted(p.place for p in players) and players[0].place == 1
