"""Issue #35 in both stores: one rematch lobby per finished table across processes, a voided game
and a player taken off a server's board leave the boards' counts right."""

from __future__ import annotations

import asyncio
import random

import engine
from hosting.service import TableService
from tests.hosting.test_store import PostgresBackend, SQLiteBackend, backend, store  # noqa: F401 (fixtures)


async def finished(service: TableService, guild: int, first: int, second: int, seed: int = 0) -> int:
    """A rated two-person game of the test game, played to its end; its table id."""
    table = await service.create_table(
        game_key="takeaway", guild_id=guild, channel_id=2, host_id=first, host_name=f"p{first}"
    )
    await service.join(table.id, second, f"p{second}")
    table = await service.start(table.id, first)
    game, rng = engine.get("takeaway"), random.Random(seed)
    while table.status == "active":
        state = service.state_of(table)
        (seat,) = game.to_act(state)
        table = (
            await service.submit_action(
                table.id, seat, rng.choice(game.legal_actions(state, seat)), table.version
            )
        ).table
    return table.id


async def test_two_processes_clicking_rematch_at_once_make_one_lobby(backend):  # noqa: F811
    first, second = await backend.open(), await backend.open()  # two bot processes, one database
    try:
        one = TableService(first, clock=lambda: 1_000.0)
        other = TableService(second, clock=lambda: 1_000.0)  # its own locks: only the store decides
        old = await finished(one, 1, 10, 11)
        asked = await asyncio.gather(one.rematch(old, 10, "p10"), other.rematch(old, 11, "p11"))
        assert sorted(a.opened for a in asked) == [False, True]
        assert asked[0].table.id == asked[1].table.id  # both answers point to the one lobby
        assert sum(a.ping for a in asked) == 1
        lobbies = [t for t in await first.open_tables_in(2) if t.status == "lobby"]
        assert [t.id for t in lobbies] == [asked[0].table.id]
    finally:
        await first.close()
        await second.close()


async def test_a_voided_game_and_a_player_taken_off_keep_the_boards_counts_right(store):  # noqa: F811
    service = TableService(store, clock=lambda: 1_000.0)
    await finished(service, 1, 10, 11, seed=1)
    await finished(service, 1, 12, 13, seed=2)
    last = await finished(service, 1, 10, 12, seed=3)
    before = await store.leaderboard("takeaway", guild_id=1, limit=100)
    assert before[0] == 4
    assert await store.void_ratings(last, 99, 2_000.0) == []
    assert await store.voided(last) == (99, 2_000.0)
    for guild in (None, 1):
        total, page = await store.leaderboard("takeaway", guild_id=guild, limit=100)
        assert total == len(page) == 4
        assert {s.user_id: s.rating.games for s in page} == {10: 1, 11: 1, 12: 1, 13: 1}
        for line in page:
            assert await store.standing("takeaway", line.user_id, guild_id=guild) == line
    # An earlier game, built on by another since: refused, nothing changed.
    await finished(service, 1, 11, 13, seed=4)
    first = (await store.rating_changes(last - 2))[0].table_id
    assert sorted(await store.void_ratings(first, 99, 2_000.0)) == [11]

    assert await store.leave_guild_boards(1, 13, ["takeaway", "reef"]) == ["takeaway"]
    total, page = await store.leaderboard("takeaway", guild_id=1, limit=100)
    assert total == len(page) == 3 and 13 not in {s.user_id for s in page}
    assert await store.standing("takeaway", 13, guild_id=1) is None
    assert (await store.leaderboard("takeaway", limit=100))[0] == 4  # still on the board across servers


async def test_one_servers_history_and_stats_and_a_hosts_closed_lobbies(store):  # noqa: F811
    service = TableService(store, clock=lambda: 1_000.0)
    here = await finished(service, 1, 10, 11, seed=1)
    await finished(service, 2, 10, 12, seed=2)  # another server
    assert [g.id for g in await store.finished_games_in(10, 1, limit=25)] == [here]
    assert len(await store.finished_games(10, limit=25)) == 2
    (stats,) = await store.player_stats_in(10, 1)
    mine = {s.game: s for s in await store.player_stats(10)}["takeaway"]
    assert (stats.game, stats.played) == ("takeaway", 1) and mine.played == 2
    assert 0 <= stats.wins <= 1 and isinstance(stats.score_total, float)

    lobby = await service.create_table(
        game_key="takeaway", guild_id=1, channel_id=2, host_id=10, host_name="p"
    )
    await service.cancel(lobby.id, 10, can_manage=False)
    assert await store.closed_lobbies(10, 999.0) == [1_000.0]
    assert await store.closed_lobbies(10, 1_001.0) == []
    assert await store.rematch(here) is None and await store.rematch_of(lobby.id) is None
    assert await store.claim_rematch(here, lobby.id, 1_000.0) == lobby.id
    assert await store.rematch_of(lobby.id) == (here, 1_000.0)
    assert await store.claim_rematch_ping(here) and not await store.claim_rematch_ping(here)
    assert await store.rematch(here) == (lobby.id, True)
