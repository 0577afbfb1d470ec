"""Stats as data (issue #17): `player_stats` agrees with the finished tables, on both stores.

Games are played to the end through the real `TableService` (people, bot seats,
a seat handed to a bot, a solo game), then each player's stats row is compared
with a recomputation from their finished tables — the count `/stats` made before
it had a table of its own. Schema 5 builds the same rows (and the server and solo
boards) from a database written before it: the migration is checked against what
the finishing moves wrote.
"""

from __future__ import annotations

import random
import sqlite3

import pytest

import engine
from hosting import pg_store
from hosting.migrations import SCHEMA_VERSION
from hosting.records import ACTIVE, FINISHED, PlayerStats
from hosting.service import TableService
from tests.hosting.test_store import PostgresBackend, SQLiteBackend, backend, store  # noqa: F401 (fixtures)

USERS = (100, 101, 102, 103)


async def play_out(service: TableService, table_id: int, rng: random.Random) -> None:
    """Random legal moves by the people (bots play their own seats) until the game ends."""
    while (table := await service.get(table_id)).status == ACTIVE:
        game = engine.get(table.game)
        state = service.state_of(table)
        people = [s for s in sorted(game.to_act(state)) if not table.seats[s].is_bot]
        if not people:
            await service.play_bot(table_id)
            continue
        seat = rng.choice(people)
        await service.submit_action(
            table_id, seat, rng.choice(game.legal_actions(state, seat)), table.version
        )


async def finished_games(service: TableService, rng: random.Random) -> None:
    """Several games to the end: rated ones in two servers, one with a bot, one left to a bot, a solo one."""
    for n in range(8):
        players = rng.sample(USERS, rng.choice((2, 3)))
        table = await service.create_table(
            game_key="takeaway", guild_id=1 + n % 2, channel_id=5, host_id=players[0], host_name="host"
        )
        for user in players[1:]:
            await service.join(table.id, user, f"p{user}")
        if n == 3:
            await service.add_bot(table.id, players[0])
        await service.start(table.id, players[0])
        if n == 5:  # a player leaves: a bot takes the seat, which then counts for nobody
            await service.hand_to_bot(table.id, players[-1])
        await play_out(service, table.id, rng)
    solo = await service.create_table(
        game_key="reef", guild_id=1, channel_id=6, host_id=USERS[0], host_name="s"
    )
    await service.start(solo.id, USERS[0])
    await play_out(service, solo.id, rng)


async def recomputed(service: TableService, user_id: int) -> list[PlayerStats]:
    """The user's stats counted from every finished table they hold a seat at."""
    per_game: dict[str, list[tuple[bool, float]]] = {}
    for table in await service.store.tables_of_user(user_id, statuses=(FINISHED,)):
        seat = table.seat_of(user_id)
        if seat is None or not table.result:
            continue
        won = seat.seat in table.result["winners"]
        per_game.setdefault(table.game, []).append((won, table.result["scores"][seat.seat]))
    return [
        PlayerStats(game, len(games), sum(won for won, _ in games), float(sum(score for _, score in games)))
        for game, games in sorted(per_game.items())
    ]


@pytest.fixture
def service(store):  # noqa: F811 (the store fixture)
    seeds = iter(range(1, 10_000))
    return TableService(store, clock=lambda: 1_000.0, new_seed=lambda: next(seeds))


async def test_stats_agree_with_the_finished_tables(service):
    await finished_games(service, random.Random(5))
    for user in USERS:
        assert await service.store.player_stats(user) == await recomputed(service, user), user
    every = [s for user in USERS for s in await service.store.player_stats(user)]
    assert any(s.played >= 3 for s in every) and any(s.wins for s in every)
    stats = await service.stats(USERS[0])
    assert {s.game for s in stats} == {"takeaway", "reef"}


async def test_history_lines_agree_with_the_finished_tables(service):
    await finished_games(service, random.Random(6))
    for user in USERS:
        expected = []
        for table in await service.store.tables_of_user(user, statuses=(FINISHED,)):
            seat = table.seat_of(user)
            if seat is None or not table.result:
                continue  # a seat a bot took over is no longer theirs
            result, mine = table.result, seat.seat
            place, score, won = result["ranking"][mine], result["scores"][mine], mine in result["winners"]
            expected.append(
                (table.id, table.game, mine, len(table.seats), place, score, won, table.updated_at)
            )
        lines = await service.finished_games(user, limit=100)
        found = [(g.id, g.game, g.seat, g.players, g.place, g.score, g.won, g.finished_at) for g in lines]
        assert found == expected, user
        assert len(found) == sum(s.played for s in await service.store.player_stats(user))
        assert await service.finished_games(user, limit=2) == lines[:2]
    every = [g for user in USERS for g in await service.finished_games(user, limit=100)]
    assert any(g.won for g in every) and any(not g.won for g in every)
    assert any(g.players == 1 for g in every) and any(g.players == 3 for g in every)


async def boards(store) -> dict[str, object]:  # noqa: F811
    """Everything the stats and board reads answer, for comparing two databases."""
    found: dict[str, object] = {}
    for user in USERS:
        found[f"stats {user}"] = await store.player_stats(user)
        found[f"history {user}"] = await store.finished_games(user, limit=100)
        for guild in (None, 1, 2):
            found[f"standing {user} {guild}"] = await store.standing("takeaway", user, guild_id=guild)
            found[f"solo {user} {guild}"] = await store.solo_standing("reef", user, guild_id=guild)
    for guild in (None, 1, 2):
        found[f"board {guild}"] = await store.leaderboard("takeaway", guild_id=guild)
        found[f"solo board {guild}"] = await store.solo_board("reef", guild_id=guild)
    return found


#: Schema 5's additions, undone: what a database written by the schema-4 bot looks like.
BACK_TO_4 = (
    # schema 13 (a league's owed post: its column goes with the leagues table), 12 (issue #38: the
    # rating history index and seasons; guild_settings' new columns go with it below), 11 (leagues),
    # 10 (the daily Reef), 9 (rematches, closed lobbies, voided games: issue #35), 8 (history lines),
    # 7 (board steps; each store drops its own triggers first), schema 6 (languages), then 5
    "DROP TABLE guild_seasons",
    "DROP TABLE season_events",
    "DROP TABLE season_ratings",
    "DROP INDEX rating_events_user",
    "DROP TABLE league_tables",
    "DROP TABLE league_players",
    "DROP TABLE leagues",
    "DROP TABLE daily_games",
    "DROP TABLE rematches",
    "DROP TABLE voided_games",
    "DROP INDEX game_tables_host_closed",
    "DROP TABLE finished_seats",
    "DROP TABLE board_steps",
    "DROP TABLE guild_settings",
    "ALTER TABLE players DROP COLUMN language",
    "ALTER TABLE players DROP COLUMN seen_locale",
    "DROP TABLE player_stats",
    "DROP TABLE guild_ratings",
    "DROP TABLE solo_best",
    "DROP TABLE board_sizes",
    "DROP INDEX game_tables_host",
    "DROP INDEX game_tables_channel_open",
    "DROP INDEX seats_user",
    "CREATE INDEX seats_user ON seats (user_id)",
    "DROP INDEX game_tables_channel_thread",
    "DROP INDEX ratings_ordinal",
    "ALTER TABLE ratings DROP COLUMN ordinal",
    "CREATE INDEX ratings_board ON ratings (game, games)",
    "CREATE INDEX game_tables_channel ON game_tables (channel_id)",
)

#: Where each store keeps `board_steps` from (schema 7): SQLite's triggers, PostgreSQL's functions.
STEPS_KEPT_BY = ("ratings", "guild_ratings", "solo_best")

#: The SQLite store's own part of schemas 7 and 5 (triggers, a seat's ``open``), undone first.
SQLITE_BACK_TO_4 = (
    *(f"DROP TRIGGER {table}_step_{op}" for table in STEPS_KEPT_BY for op in ("insert", "update", "delete")),
    "DROP TRIGGER seats_open_on_status",
    "DROP TRIGGER seats_open_on_insert",
    "DROP INDEX seats_user",
    "ALTER TABLE seats DROP COLUMN open",
    "CREATE INDEX seats_user ON seats (user_id, kind, table_id)",
)


async def back_to_schema_4(backend) -> None:  # noqa: F811
    if isinstance(backend, SQLiteBackend):
        with sqlite3.connect(backend.path) as raw:
            for statement in (*SQLITE_BACK_TO_4, *BACK_TO_4):
                raw.execute(statement)
        await backend.set_schema_version(4)
        return
    assert isinstance(backend, PostgresBackend)
    import asyncpg

    conn = await asyncpg.connect(backend.url)
    try:
        for statement in (*(f"DROP FUNCTION {table}_steps() CASCADE" for table in STEPS_KEPT_BY), *BACK_TO_4):
            await conn.execute(statement)
        await conn.execute(f"UPDATE {pg_store.VERSION_TABLE} SET version = 4")
    finally:
        await conn.close()


async def test_schemas_5_to_9_build_the_stats_boards_and_history_the_finishing_moves_keep(backend):  # noqa: F811
    opened = await backend.open()
    service = TableService(opened, clock=lambda: 1_000.0, new_seed=iter(range(1, 10_000)).__next__)
    await finished_games(service, random.Random(9))
    kept = await boards(opened)
    assert kept["board 1"][0] and kept["board 2"][0] and kept["solo board 1"][0] == 1  # not empty
    await opened.close()
    await back_to_schema_4(backend)
    migrated = await backend.open()
    try:
        assert await migrated.schema_version() == SCHEMA_VERSION == 13
        assert await boards(migrated) == kept
    finally:
        await migrated.close()


async def raw_writes(backend, statements: list[tuple[str, tuple]]) -> None:  # noqa: F811
    """Write rows as any path could (SQL with ``?`` parameters), beside the store: the triggers keep up."""
    if isinstance(backend, SQLiteBackend):
        with sqlite3.connect(backend.path) as raw:
            for sql, params in statements:
                raw.execute(sql, params)
        return
    import asyncpg

    conn = await asyncpg.connect(backend.url)
    try:
        for sql, params in statements:
            numbered = sql
            for n in range(1, sql.count("?") + 1):
                numbered = numbered.replace("?", f"${n}", 1)
            await conn.execute(numbered, *params)
    finally:
        await conn.close()


async def places_agree_with_the_boards(store) -> int:  # noqa: F811
    """Every player's place (`standing`, from the steps) is their line on the whole board, paged by index."""
    checked = 0
    for guild in (None, 1):
        for need in (1, 2, 3):
            _, board = await store.leaderboard("takeaway", guild_id=guild, min_games=need, limit=10_000)
            for line in board:
                assert await store.standing("takeaway", line.user_id, guild_id=guild, min_games=need) == line
                checked += 1
        _, solo = await store.solo_board("reef", guild_id=guild, limit=10_000)
        for line in solo:
            assert await store.solo_standing("reef", line.user_id, guild_id=guild) == line
            checked += 1
    return checked


async def test_a_place_on_every_board_is_the_players_above_it(backend):  # noqa: F811
    opened = await backend.open()
    try:
        service = TableService(opened, clock=lambda: 1_000.0, new_seed=iter(range(1, 10_000)).__next__)
        await finished_games(service, random.Random(4))  # real finishing moves first
        # Then hundreds of players, many sharing a step or tying exactly, on both rating boards and
        # the solo boards; some move to other steps, some leave.
        rng = random.Random(8)
        ordinals = [-1.0, -0.25, 0.0, 0.1, 0.24, 0.25, 3.75, 3.9, 12.5]
        writes: list[tuple[str, tuple]] = []
        for user in range(1_000, 1_300):
            sigma, games = rng.choice((2.0, 4.5)), rng.randint(1, 6)
            ordinal = rng.choice(ordinals)
            mu = ordinal + 3.0 * sigma
            writes.append(
                (
                    "INSERT INTO ratings (user_id, game, mu, sigma, games, ordinal) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (user, "takeaway", mu, sigma, games, mu - 3.0 * sigma),
                )
            )
            if user % 2:
                writes.append(
                    (
                        "INSERT INTO guild_ratings (game, guild_id, user_id, games, ordinal) "
                        "VALUES (?, ?, ?, ?, ?)",
                        ("takeaway", 1, user, rng.randint(1, games), mu - 3.0 * sigma),
                    )
                )
            for scope in (0, 1):
                writes.append(
                    (
                        "INSERT INTO solo_best (game, scope, user_id, best, table_id) VALUES (?, ?, ?, ?, ?)",
                        ("reef", scope, user, rng.choice((150, 160, 161, 175)), user),
                    )
                )
        for user in range(1_000, 1_300, 7):
            mu = rng.choice(ordinals) + 6.0
            writes += [
                (
                    "UPDATE ratings SET mu = ?, sigma = 2.0, ordinal = ?, games = games + 1 "
                    "WHERE user_id = ?",
                    (mu, mu - 6.0, user),
                ),
                ("UPDATE guild_ratings SET ordinal = ? WHERE user_id = ?", (mu - 6.0, user)),
                ("UPDATE solo_best SET best = best + 1 WHERE user_id = ?", (user,)),
            ]
        for user in range(1_001, 1_300, 11):
            writes += [
                ("DELETE FROM ratings WHERE user_id = ?", (user,)),
                ("DELETE FROM guild_ratings WHERE user_id = ?", (user,)),
                ("DELETE FROM solo_best WHERE user_id = ? AND scope = 1", (user,)),
            ]
        await raw_writes(backend, writes)
        assert await places_agree_with_the_boards(opened) > 1_500
        with pytest.raises(ValueError):  # the steps count rated games up to BOARD_GAMES_MAX only
            await opened.standing("takeaway", 1_000, min_games=4)
    finally:
        await opened.close()
