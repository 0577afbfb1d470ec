"""Leagues in the store (issue #38), on SQLite and on PostgreSQL: sign-up, the round claim, drops.

Every test runs on both stores (the fixtures of `tests/hosting/test_store.py`).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from hosting.league import BOT, DROPPED_BY_ORGANISER, DROPPED_MISSED, FINISHED, RUNNING, LeagueTable
from tests.hosting import test_store

# The fixtures of tests/hosting/test_store.py: an empty database of each kind, and its store.
backend = test_store.backend
store = test_store.store


async def new_league(store, cap: int = 8):
    return await store.create_league(
        guild_id=1,
        channel_id=2,
        organiser_id=3,
        name="Winter league",
        game="haenyeo",
        seats=4,
        pace=0,
        rounds=3,
        rated=True,
        bot_level="normal",
        cap=cap,
        drop_after=2,
        round_length=86400.0,
        now=1.0,
    )


async def test_sign_up_keeps_to_the_cap_and_closes_when_the_league_starts(store):
    league = await new_league(store, cap=3)
    assert league.status == "signup" and league.round == 0
    answers = [await store.join_league(league.id, user, f"p{user}", 2.0) for user in (10, 11, 12, 13)]
    assert answers == ["joined", "joined", "joined", "full"]
    assert await store.join_league(league.id, 10, "again", 2.0) == "already"
    assert await store.leave_league(league.id, 12) and not await store.leave_league(league.id, 12)
    assert await store.join_league(league.id, 13, "p13", 3.0) == "joined"
    first = [LeagueTable(1, 1, (10, 11, 13, BOT))]
    assert await store.advance_league(
        league.id, 0, status=RUNNING, deadline=50.0, players=[], tables=first, now=4.0
    )
    assert await store.join_league(league.id, 14, "late", 5.0) == "closed"
    assert not await store.leave_league(league.id, 10)  # a started league keeps its players
    assert sorted(p.user_id for p in await store.league_players(league.id, "haenyeo")) == [10, 11, 13]
    assert await store.league_tables(league.id, 1) == first
    assert await store.due_leagues(49.0) == [] and await store.due_leagues(50.0) == [league.id]
    assert await store.next_league_deadline() == 50.0


async def test_a_round_is_closed_and_paired_once_even_by_two_stores_at_once(backend, store):
    league = await new_league(store)
    for user in (10, 11, 12, 13):
        await store.join_league(league.id, user, f"p{user}", 2.0)
    other = await backend.open()  # a second connection (pool): as a second process would have
    try:
        table = [LeagueTable(1, 1, (10, 11, 12, 13))]
        both = await asyncio.gather(
            *(
                s.advance_league(
                    league.id, 0, status=RUNNING, deadline=9.0, players=[], tables=table, now=3.0
                )
                for s in (store, other)
            )
        )
        assert sorted(both) == [False, True]
        assert len(await store.league_tables(league.id)) == 1
        # The hosted table is attached once too.
        attached = await asyncio.gather(
            store.attach_league_table(league.id, 1, 1, 501), other.attach_league_table(league.id, 1, 1, 502)
        )
        assert sorted(attached) == [False, True]
        assert (await store.league_tables(league.id, 1))[0].table_id in (501, 502)
        winner = 501 if attached[0] else 502
        assert await store.league_of_table(winner) == (league.id, 1)
        assert await store.league_of_table(503) is None
    finally:
        await other.close()


async def test_totals_drops_and_the_final_places(store):
    league = await new_league(store)
    for user in (10, 11, 12):
        await store.join_league(league.id, user, f"p{user}", 2.0)
    await store.advance_league(
        league.id,
        0,
        status=RUNNING,
        deadline=9.0,
        players=[],
        tables=[LeagueTable(1, 1, (10, 11, 12, 0))],
        now=3,
    )
    players = {p.user_id: p for p in await store.league_players(league.id, "haenyeo")}
    # The organiser drops 12 while the round is closing: the drop stands.
    assert await store.set_league_dropped(league.id, 12, DROPPED_BY_ORGANISER)
    after = [
        replace(players[10], points=3, score=80, played=1),
        replace(players[11], points=2, score=70, played=1, missed=1, dropped=DROPPED_MISSED),
        replace(players[12], points=1, score=60, played=1),
    ]
    assert await store.advance_league(
        league.id,
        1,
        status=RUNNING,
        deadline=19.0,
        players=after,
        tables=[LeagueTable(2, 1, (10, 0, 0, 0))],
        now=10,
    )
    got = {p.user_id: p for p in await store.league_players(league.id, "haenyeo")}
    assert (got[10].points, got[10].score, got[10].played, got[10].dropped) == (3, 80, 1, 0)
    assert (got[11].missed, got[11].dropped) == (1, DROPPED_MISSED)
    assert got[12].dropped == DROPPED_BY_ORGANISER
    assert await store.set_league_dropped(league.id, 11, 0)  # reinstated, misses forgotten
    got = {p.user_id: p for p in await store.league_players(league.id, "haenyeo")}
    assert (got[11].missed, got[11].dropped) == (0, 0)
    final = [replace(got[u], place=place) for place, u in enumerate((10, 11, 12), start=1)]
    assert await store.advance_league(
        league.id, 2, status=FINISHED, deadline=None, players=final, tables=[], now=30
    )
    assert not await store.advance_league(
        league.id, 2, status=FINISHED, deadline=None, players=final, tables=[], now=31
    )
    done = await store.get_league(league.id)
    assert done.status == FINISHED and done.deadline is None and await store.open_league_ids() == []
    results = await store.league_results_of(11)
    assert [(r.league_id, r.name, r.place, r.players, r.points) for r in results] == [
        (league.id, "Winter league", 2, 3, 2)
    ]
    assert [lg.id for lg in await store.leagues_in(1)] == [league.id] and await store.leagues_in(2) == []
    assert await store.get_league(league.id + 1) is None


async def test_an_owed_standings_post_is_due_once_and_taken_by_one_store(backend, store):
    league = await new_league(store)
    assert (await store.get_league(league.id)).post_owed is None
    await store.owe_league_post(league.id, 70.0)
    assert (await store.get_league(league.id)).post_owed == 70.0
    assert await store.due_leagues(69.0) == [] and await store.due_leagues(70.0) == [league.id]
    assert await store.next_league_deadline() == 70.0
    # Two processes see it due at once: one takes it (its next try, should it die, at 670).
    other = await backend.open()
    try:
        taken = await asyncio.gather(
            store.claim_league_post(league.id, 70.0, 670.0), other.claim_league_post(league.id, 70.0, 670.0)
        )
    finally:
        await other.close()
    assert sorted(taken) == [False, True]
    assert await store.due_leagues(100.0) == []
    await store.owe_league_post(league.id, None)  # posted: nothing owed
    assert await store.next_league_deadline() is None
    assert not await store.claim_league_post(league.id, 670.0, 1270.0)
