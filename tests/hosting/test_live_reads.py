"""Issue #38's store reads agree with a recount, on both stores.

A server's running tables (and the stuck ones: blocked, owing a post, past their
deadline), a player's rating after each rated game, two players' head-to-head and
the later pages of a history are compared with what the finished and running
tables themselves say, played through the real `TableService`.
"""

from __future__ import annotations

import random

from hosting import ratings
from hosting.records import ACTIVE, BLOCKED, FINISHED, STUCK_AFTER
from hosting.service import TableService
from tests.hosting.test_stats_table import play_out
from tests.hosting.test_store import PostgresBackend, SQLiteBackend, backend, store  # noqa: F401 (fixtures)

USERS = (100, 101, 102, 103)
NOW = 1_000_000.0


def service_on(store) -> TableService:  # noqa: F811
    seeds = iter(range(1, 10_000))
    return TableService(store, clock=lambda: NOW, new_seed=lambda: next(seeds))


async def test_running_tables_page_newest_first_with_the_stuck_ones_counted(store):  # noqa: F811
    service = service_on(store)
    running = []
    for n in range(7):
        table = await service.create_table(
            game_key="takeaway", guild_id=1, channel_id=5, host_id=USERS[n % 2], host_name="h", pace=3600
        )
        await service.join(table.id, USERS[2 + n % 2], "p")
        running.append((await service.start(table.id, USERS[n % 2])).id)
    elsewhere = await service.create_table(
        game_key="takeaway", guild_id=2, channel_id=6, host_id=100, host_name="h"
    )
    await service.join(elsewhere.id, 101, "p")
    await service.start(elsewhere.id, 100)
    await service.create_table(
        game_key="takeaway", guild_id=1, channel_id=5, host_id=102, host_name="h"
    )  # a lobby
    # One table blocked, one owing a post, one past its deadline (written as the runner and clock do).
    await store.set_owed(running[1], BLOCKED, None)
    await store.set_owed(running[3], 2, NOW + 60)
    late = await store.get_table(running[5])
    await store.update_table(late.id, late.version, timing={"deadline": NOW - STUCK_AFTER - 1}, now=NOW)
    newest_first = sorted(running, reverse=True)

    total, stuck, page = await store.running_tables(1, now=NOW, offset=0, limit=4)
    assert (total, stuck) == (7, 3) and [t.id for t in page] == newest_first[:4]
    assert all(t.status == ACTIVE and t.guild_id == 1 and len(t.seats) == 2 for t in page)
    _, _, rest = await store.running_tables(1, now=NOW, offset=4, limit=4)
    assert [t.id for t in rest] == newest_first[4:]
    _, _, only = await store.running_tables(1, now=NOW, stuck_only=True)
    assert [t.id for t in only] == [running[5], running[3], running[1]]
    assert await store.running_tables(1, now=NOW, offset=20) == (7, 3, [])
    assert await store.running_tables(3, now=NOW) == (0, 0, [])
    # Not yet late enough: the clock still has time to act on it.
    total, stuck, _ = await store.running_tables(1, now=NOW - 2)
    assert stuck == 2


async def rated_games(service: TableService, rng: random.Random, count: int) -> None:
    for n in range(count):
        players = rng.sample(USERS, rng.choice((2, 3)))
        table = await service.create_table(
            game_key="takeaway", guild_id=1 + n % 2, channel_id=5, host_id=players[0], host_name="h"
        )
        for user in players[1:]:
            await service.join(table.id, user, f"p{user}")
        await service.start(table.id, players[0])
        await play_out(service, table.id, rng)


async def test_rating_history_head_to_head_and_history_pages_agree_with_a_recount(store):  # noqa: F811
    service = service_on(store)
    await rated_games(service, random.Random(11), 30)
    finished = {t.id: t for user in USERS for t in await store.tables_of_user(user, statuses=(FINISHED,))}
    for user in USERS:
        for guild in (None, 1):
            # The rating changes of every finished table, this player's, oldest first.
            expected = [
                c
                for table_id in sorted(finished)
                for c in await store.rating_changes(table_id)
                if c.user_id == user and (guild is None or c.guild_id == guild)
            ]
            points = await store.rating_history(user, guild_id=guild)
            assert [(p.table_id, p.mu, p.sigma, p.games, p.rank) for p in points] == [
                (c.table_id, c.mu, c.sigma, c.games, c.rank) for c in expected
            ]
        (mine,) = await service.ratings_of(user)
        every = await store.rating_history(user)
        assert every[-1].shown == mine.shown and every[-1].games == mine.games
        assert ratings.best_shown(every) == max(ratings.shown(c.mu, c.sigma) for c in every)
        streak = 0
        for p in reversed(every):
            if p.rank != 1:
                break
            streak += 1
        assert ratings.win_streak(every) == streak
        # Head-to-head against each other player, counted from the finished tables.
        for other in USERS:
            if other == user:
                continue
            for guild in (None, 2):
                games = [
                    t
                    for t in finished.values()
                    if t.seat_of(user) and t.seat_of(other) and (guild is None or t.guild_id == guild)
                ]
                ranking = [t.result["ranking"] for t in games]
                mine_at = [r[t.seat_of(user).seat] for r, t in zip(ranking, games, strict=True)]
                theirs = [r[t.seat_of(other).seat] for r, t in zip(ranking, games, strict=True)]
                want = (
                    [
                        ratings.HeadToHead(
                            "takeaway",
                            len(games),
                            sum(a < b for a, b in zip(mine_at, theirs, strict=True)),
                            sum(a > b for a, b in zip(mine_at, theirs, strict=True)),
                        )
                    ]
                    if games
                    else []
                )
                assert await store.head_to_head(user, other, guild_id=guild) == want
        # History pages: the same lines as one long read, page by page.
        whole = await store.finished_games(user, limit=100)
        assert len(whole) >= 10
        paged = []
        for offset in range(0, len(whole) + 4, 4):
            paged += await store.finished_games_page(user, offset=offset, limit=4)
        assert paged == whole
        here = await store.finished_games_page(user, offset=2, limit=100, guild_id=2)
        assert here == [g for g in whole if g.guild_id == 2][2:]
    streaks = [ratings.win_streak(await store.rating_history(u)) for u in USERS]
    assert any(streaks)  # the recount above was of a real streak, not only of zeros


async def test_seasons_split_the_server_board_and_start_from_the_all_time_rating(store):  # noqa: F811
    from hosting import seasons

    clock = [1_796_083_200.0]  # 2026-12-01 00:00 UTC
    seeds = iter(range(1, 10_000))
    service = TableService(store, clock=lambda: clock[0], new_seed=lambda: next(seeds))
    rng = random.Random(4)
    await rated_games(service, rng, 4)  # before seasons: all-time only
    assert await store.seasons(1) == []
    unseasoned = max([t.id for u in USERS for t in await store.tables_of_user(u, statuses=(FINISHED,))])
    assert await store.set_season(1, "month") == seasons.SeasonSettings("month", 0)
    await rated_games(service, rng, 6)  # December, in servers 1 and 2 (2 has no seasons)
    clock[0] += 31 * 86_400  # January
    before_january = {u: {r.game: r for r in await store.ratings_of(u)} for u in USERS}
    await rated_games(service, rng, 1)  # the first game of January, in server 1
    finished = [t for u in USERS for t in await store.tables_of_user(u, statuses=(FINISHED,))]
    first = max(finished, key=lambda t: t.id)
    assert first.guild_id == 1 and first.updated_at >= clock[0]
    scored = ratings.scored_game(first, first.result)
    # Its players' season ratings began from their all-time ratings before it, σ widened.
    begun = {
        s.user_id: seasons.start(
            before_january[s.user_id].get("takeaway") or ratings.initial(s.user_id, "takeaway")
        )
        for s in scored.seats
    }
    assert all(begun[u].sigma > (before_january[u].get("takeaway") or begun[u]).sigma - 1e-9 for u in begun)
    expected = {c.user_id: (c.mu, c.sigma, 1) for c in ratings.update(scored, begun)}
    _, board = await store.season_board(1, "2027-01", "takeaway")
    assert {s.user_id: (s.rating.mu, s.rating.sigma, s.rating.games) for s in board} == expected
    await rated_games(service, rng, 3)
    assert await store.seasons(1) == ["2026-12", "2027-01"] and await store.seasons(2) == []
    for season in ("2026-12", "2027-01"):
        total, board = await store.season_board(1, season, "takeaway", limit=10)
        # The recount: each player's games of that season in server 1, from the finished tables.
        played: dict[int, int] = {}
        for user in USERS:
            for table in await store.tables_of_user(user, statuses=(FINISHED,), guild_id=1):
                when = seasons.key(seasons.SeasonSettings("month"), table.updated_at)
                if when == season and table.id > unseasoned and table.seat_of(user):
                    played[user] = played.get(user, 0) + 1
        assert {s.user_id: s.rating.games for s in board} == played and total == len(played)
        ordinals = [s.rating.mu - 3 * s.rating.sigma for s in board]
        assert ordinals == sorted(ordinals, reverse=True)
        for s in board:
            assert await store.season_standing(1, season, "takeaway", s.user_id) == s
    # Manual seasons: chosen, then a new one asked for.
    assert await store.set_season(1, "manual") == seasons.SeasonSettings("manual", 1)
    assert await store.set_season(1, "manual", new=True) == seasons.SeasonSettings("manual", 2)
    assert await store.season_settings(1) == seasons.SeasonSettings("manual", 2)
    await rated_games(service, rng, 2)
    assert (await store.seasons(1))[-1] == "m0002"
    # A player taken off the server's boards is off its season boards too.
    _, board = await store.season_board(1, "2026-12", "takeaway")
    gone = board[0].user_id
    await store.leave_guild_boards(1, gone, ["takeaway"])
    assert gone not in [s.user_id for s in (await store.season_board(1, "2026-12", "takeaway"))[1]]


async def test_voiding_a_game_undoes_its_season_ratings(store):  # noqa: F811
    clock = [1_796_083_200.0]
    seeds = iter(range(1, 10_000))
    service = TableService(store, clock=lambda: clock[0], new_seed=lambda: next(seeds))
    await store.set_season(1, "quarter")
    rng = random.Random(5)
    await rated_games(service, rng, 6)
    (season,) = await store.seasons(1)
    before = await store.season_board(1, season, "takeaway")
    # One more game in server 1 (rated_games puts its first game there), then voided.
    await rated_games(service, rng, 1)
    last = max(
        [t for u in USERS for t in await store.tables_of_user(u, statuses=(FINISHED,))], key=lambda t: t.id
    )
    assert last.guild_id == 1 and await store.season_board(1, season, "takeaway") != before
    assert await store.void_ratings(last.id, 999, clock[0]) == []
    assert await store.season_board(1, season, "takeaway") == before
