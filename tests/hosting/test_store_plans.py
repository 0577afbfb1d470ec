"""Every read the SQLite store makes is answered from an index (issue #17).

The store runs each SELECT through one place (`hosting.store.READS`, by name, via
`_fetch`). Here SQLite's planner is asked about each of them: none may scan a
table, since every table grows with the tables (or the players) the bot hosts.
Then a whole session — lobbies, bots, games to the end, rated and solo, every
lookup the cogs make — runs with SQLite's statement trace on, and every SELECT
it ran must be one of `READS`: a new query cannot slip by without being checked.
"""

from __future__ import annotations

import random
import re
import sqlite3

import pytest

import engine
from hosting.daily import DailyReef
from hosting.errors import StaleVersion
from hosting.leagues import LeagueService
from hosting.ratings import ScoredGame, ScoredSeat
from hosting.records import ACTIVE, FINISHED
from hosting.service import TableService
from hosting.store import READS, Store


def placeholders(sql: str) -> int:
    """How many parameters a read takes (its highest ``?N``)."""
    return max((int(n) for n in re.findall(r"\?(\d+)", sql)), default=0)


def plan(conn: sqlite3.Connection, sql: str) -> list[str]:
    """SQLite's query plan, one detail line per step."""
    return [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", [None] * placeholders(sql))]


def scans(conn: sqlite3.Connection, sql: str) -> list[str]:
    """The plan's steps that read a whole stored table (or a whole index of one)."""
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    found = []
    for step in plan(conn, sql):
        match = re.match(r"SCAN (\w+)", step)
        if match and (match.group(1) in tables or step.split()[1] in tables):
            found.append(step)
    return found


@pytest.fixture
async def raw(db_path):
    """The store's schema, opened by the store itself, then read with a plain connection."""
    await (await Store.open(db_path)).close()
    conn = sqlite3.connect(db_path)
    yield conn
    conn.close()


def test_every_read_uses_an_index(raw):
    problems = {name: found for name, sql in READS.items() if (found := scans(raw, sql))}
    assert not problems, "reads that scan a table (add an index or change the query):\n" + "\n".join(
        f"{name}: {steps}" for name, steps in problems.items()
    )


def test_the_plan_check_sees_a_scan(raw):
    """The check itself: a query without an index for its WHERE is caught."""
    assert scans(raw, "SELECT id FROM game_tables WHERE options = ?1")
    assert scans(raw, "SELECT table_id FROM seats WHERE kind = ?1")
    assert not scans(raw, READS["table"])


# ------------------------------------------------------- no SELECT outside READS

_LITERAL = r"(?:NULL|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|'(?:[^']|'')*'|x'[0-9a-fA-F]*')"


def pattern(sql: str) -> re.Pattern[str]:
    """A traced (parameters expanded) statement of the read ``sql``."""
    parts = re.split(r"\?\d+", sql)
    return re.compile(_LITERAL.join(re.escape(part) for part in parts) + r"\Z", re.DOTALL)


async def play_out(service: TableService, table_id: int, rng: random.Random) -> None:
    """Random legal moves (bots play their own seats) until the game ends."""
    while (table := await service.get(table_id)).status == ACTIVE:
        game = engine.get(table.game)
        state = service.state_of(table)
        humans = [s for s in sorted(game.to_act(state)) if not table.seats[s].is_bot]
        if not humans:
            assert await service.play_bot(table_id) is not None
            continue
        seat = rng.choice(humans)
        await service.submit_action(
            table_id, seat, rng.choice(game.legal_actions(state, seat)), table.version
        )


async def session(service: TableService, store: Store) -> None:
    """Everything the bot asks the store, once at least."""
    rng = random.Random(3)
    await store.set_season(1, "month")  # issue #38: the rated games below count for a season too
    # A rated two-person game in a thread, a game with a bot, and a solo game.
    rated = await service.create_table(
        game_key="takeaway", guild_id=1, channel_id=2, host_id=10, host_name="A"
    )
    await service.attach(rated.id, thread_id=20, lobby_message_id=30)
    await service.join(rated.id, 11, "B")
    await service.start(rated.id, 10)
    botted = await service.create_table(game_key="jeju", guild_id=1, channel_id=2, host_id=10, host_name="A")
    await service.add_bot(botted.id, 10)
    await service.start(botted.id, 10)
    solo = await service.create_table(game_key="reef", guild_id=1, channel_id=3, host_id=11, host_name="B")
    await service.start(solo.id, 11)
    for table in (rated, botted, solo):
        await play_out(service, table.id, rng)
    # A finishing move with a score and a rating from the store's own write path, and a stale write.
    extra = await service.create_table(
        game_key="takeaway", guild_id=1, channel_id=2, host_id=12, host_name="C"
    )
    await service.join(extra.id, 13, "D")
    extra = await service.start(extra.id, 12)
    scored = ScoredGame(extra.id, "takeaway", 1, (ScoredSeat(0, 12, 1, 5), ScoredSeat(1, 13, 2, 3)))
    result = {"scores": [5, 3], "ranking": [1, 2], "winners": [0]}
    await store.append_action(
        extra.id, extra.version, seat=0, action={}, state={}, result=result, scored=scored, now=1.0
    )
    with pytest.raises(StaleVersion):
        await store.append_action(extra.id, extra.version, seat=0, action={}, state={}, now=2.0)
    await service.create_table(game_key="takeaway", guild_id=1, channel_id=4, host_id=10, host_name="A")
    # Every read the cogs and the clock make.
    for user in (10, 11, 12):
        await service.my_tables(user)
        await service.stats(user)
        await service.finished_games(user, limit=25)
        await service.ratings_of(user)
        await store.tables_of_user(user, guild_id=1)
        await service.dm_reminders(user)
        await service.languages.personal(user, "ko")
    await service.languages.public(1, "en-US")
    for game, guild in (("takeaway", None), ("takeaway", 1)):
        await store.leaderboard(game, guild_id=guild)
        await store.standing(game, 12, guild_id=guild)
    for guild in (None, 1):
        await store.solo_board("reef", guild_id=guild)
        await store.solo_standing("reef", 11, guild_id=guild)
    await service.rating_changes(rated.id)
    await store.table_in_channel(20)
    await store.table_in_channel(2)
    await store.open_tables_in(2)
    await store.open_tables_here(2)
    await store.open_tables_here(20)
    await store.open_tables_in_guild(1)
    assert await store.open_guild_ids() == [1]
    await store.table_ids(ACTIVE, with_bots=True)
    await store.table_ids(FINISHED)
    await store.due_tables(10**12)
    await store.next_wake()
    await service.replay(rated.id)
    await store.get_table(solo.id)
    await store.set_messages(solo.id, board_message_id=5)
    await store.set_host(solo.id, 11)
    await store.set_dm_reminders(10, True)
    await store.set_player_language(10, "ko")
    await store.set_guild_language(1, "en")
    # Issue #35: rematches, a host's closed lobbies, one server's history and stats, voiding.
    lobby = await service.create_table(
        game_key="takeaway", guild_id=1, channel_id=4, host_id=11, host_name="B"
    )
    assert await store.claim_rematch(rated.id, lobby.id, 1_000.0) == lobby.id
    await store.rematch(rated.id)
    await store.rematch_of(lobby.id)
    await store.claim_rematch_ping(rated.id)
    await store.closed_lobbies(10, 0.0)
    await store.finished_games_in(11, 1, limit=25)
    await store.player_stats_in(11, 1)
    await store.void_ratings(extra.id, 10, 1_000.0)
    await store.voided(extra.id)
    await store.leave_guild_boards(1, 12, ["takeaway", "reef"])
    # Issue #38: the daily Reef (a claim, its game played out, the day's boards and a streak).
    reef = DailyReef(service)
    opened = await reef.open(user_id=14, name="E", guild_id=1, channel_id=2, thread_id=21)
    await play_out(service, opened.table.id, rng)
    entry = await reef.entry(14)
    assert entry is not None and entry.finished
    for guild in (None, 1):
        await reef.board(entry.day, guild_id=guild)
        await reef.place(entry, 14, guild_id=guild)
    await reef.streak(14)
    # Issue #38: a server's running tables (all, and the stuck ones), rating history, head-to-head.
    await store.running_tables(1, now=1_000.0)
    await store.running_tables(1, now=1_000.0, stuck_only=True, offset=10)
    for guild in (None, 1):
        await store.rating_history(10, guild_id=guild)
        await store.head_to_head(10, 11, guild_id=guild)
        await store.finished_games_page(11, offset=25, limit=25, guild_id=guild)
    (season,) = await store.seasons(1)
    await store.season_board(1, season, "takeaway")
    await store.season_standing(1, season, "takeaway", 10)
    await store.integrity_check()
    await league_session(service)


async def league_session(service: TableService) -> None:
    """Issue #38: a league from sign-up to its end, through its service, every league read made."""
    leagues = LeagueService(service)
    store = service.store
    league = await leagues.create(
        guild_id=1,
        channel_id=2,
        organiser_id=10,
        name="L",
        game="takeaway",
        seats=2,
        pace=0,
        rounds=1,
        rated=True,
        bot_level="easy",
        cap=4,
        round_hours=24,
    )
    for user in (10, 11, 12):
        await leagues.join(league.id, user, f"P{user}")
    await leagues.leave(league.id, 12)
    await store.set_league_message(league.id, 99)
    await leagues.start(league.id)
    league = await leagues.get(league.id)
    for paired in await leagues.round_tables(league):
        await leagues.start_table(await leagues.table_for(league, paired))
        assert await store.league_of_table((await leagues.round_tables(league))[0].table_id)
    await store.due_leagues(10**12)
    await store.next_league_deadline()
    await store.leagues_in(1)
    await store.league_role(1)
    await store.set_league_role(1, 5)
    await leagues.play_out(league)
    assert (await leagues.close_round(league.id)).over
    assert await store.league_results_of(10)
    assert await store.open_league_ids() == []


async def test_every_select_the_bot_runs_is_a_checked_read(db_path):
    store = await Store.open(db_path)
    traced: list[str] = []
    # Both connections: the database thread's, and the event loop's read-only one (`Store._read`).
    on_loop: list[str] = []
    await store._call(sqlite3.Connection.set_trace_callback, traced.append)
    store._reader.set_trace_callback(on_loop.append)
    try:
        await session(TableService(store, clock=lambda: 1_000.0, new_seed=lambda: 7), store)
    finally:
        await store._call(sqlite3.Connection.set_trace_callback, None)
        await store.close()
    assert on_loop and all(re.match(r"\s*SELECT\b", s, re.IGNORECASE) for s in on_loop), on_loop
    on_thread = list(traced)
    traced += on_loop
    with sqlite3.connect(db_path) as raw:  # the triggers kept every seat's ``open`` right
        wrong = raw.execute(
            "SELECT count(*) FROM seats s JOIN game_tables g ON g.id = s.table_id "
            "WHERE s.open != (g.status IN ('lobby', 'active'))"
        ).fetchone()[0]
        statuses = {row[0] for row in raw.execute("SELECT DISTINCT status FROM game_tables")}
    assert wrong == 0 and {"lobby", "finished"} <= statuses
    patterns = {name: pattern(sql) for name, sql in READS.items()}
    selects = [s for s in traced if re.match(r"\s*(SELECT|WITH)\b", s, re.IGNORECASE)]
    unknown = [s for s in selects if not any(p.match(s) for p in patterns.values())]
    assert not unknown, "SELECTs that are not in hosting.store.READS (so never plan-checked):\n" + "\n".join(
        unknown
    )
    for name in ("user_tables", "player_stats", "user_finished", "due_tables"):  # no hop to the thread
        assert any(patterns[name].match(s) for s in on_loop)
        assert not any(patterns[name].match(s) for s in on_thread)
    unused = sorted(name for name, p in patterns.items() if not any(p.match(s) for s in selects))
    assert not unused, f"reads the session never ran (exercise them here, or drop them): {unused}"
