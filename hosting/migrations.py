"""Every schema version of both stores, side by side: the one list of migrations.

A schema version is one `Migration`: the statements that bring a database from the
version before to this one, in SQLite's SQL (`hosting.store.Store`) and in
PostgreSQL's (`hosting.pg_store.PostgresStore`), so that a version number means the
same tables and columns in both. Each store applies the versions it lacks in order,
each in one transaction of its own, at start. The SQL is written by hand for each
database (types, indexes and triggers differ where the planners differ); nothing
here generates it.

How to add a migration (schema version N + 1):

1. Append ``Migration(N + 1, sqlite=(...), postgres=(...))`` at the end of `MIGRATIONS`
   (never edit a version already released: databases out there have run it). Give
   both texts: `Migration` checks the numbers run 1, 2, 3 ... with no gap.
2. Write each statement for its database: Discord ids are BIGINT on PostgreSQL
   (INTEGER is 64-bit on SQLite); REAL there is DOUBLE PRECISION; a trigger on
   PostgreSQL is a function plus a trigger. A comment says why the version exists,
   once, above its SQLite text; the PostgreSQL text points to it ("see the SQLite twin").
3. A new table goes in `hosting.pg_store.TABLES` too (``integrity_check`` and
   ``copy-to-postgres`` use it); a new SELECT on SQLite goes in `hosting.store.READS`.
4. Run tests/hosting/test_migrations.py (both stores' migrated schemas must have the same
   tables and columns, but for `SQLITE_ONLY_COLUMNS`) and tests/hosting/test_store.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hosting import ratings


@dataclass(frozen=True)
class Migration:
    """One schema version: the same change in each store's SQL, statement by statement."""

    version: int
    sqlite: tuple[str, ...]
    postgres: tuple[str, ...]


#: The leaderboard's order: the ordinal μ − Zσ (hosting.ratings), best first.
_ORDINAL = f"(mu - {ratings.Z!r} * sigma)"

#: Schema 5 fills `player_stats` from the finished tables already there: the same count
#: `/stats` made before it had a table (human seats of finished tables with a result).
_BACKFILL_STATS = """INSERT INTO player_stats (user_id, game, played, wins, score_total)
    SELECT s.user_id, g.game, count(*),
        sum(EXISTS (SELECT 1 FROM json_each(g.result, '$.winners') w WHERE w.value = s.seat)),
        coalesce(sum(json_extract(g.result, '$.scores[' || s.seat || ']')), 0)
    FROM game_tables g JOIN seats s ON s.table_id = g.id
    WHERE g.status = 'finished' AND g.result IS NOT NULL AND g.result NOT IN ('{}', 'null')
        AND s.kind = 'human' AND s.user_id IS NOT NULL
    GROUP BY s.user_id, g.game"""

#: Schema 8 fills `finished_seats` (the history lines) from the finished tables: the seats
#: `player_stats` counts, each with its place, score and win read out of the table's result.
_BACKFILL_FINISHED_SEATS = """INSERT INTO finished_seats (user_id, table_id, game, guild_id, channel_id,
        thread_id, finished_at, seat, players, place, score, won)
    SELECT s.user_id, g.id, g.game, g.guild_id, g.channel_id, g.thread_id, g.updated_at, s.seat,
        (SELECT count(*) FROM seats c WHERE c.table_id = g.id),
        coalesce(json_extract(g.result, '$.ranking[' || s.seat || ']'), 0),
        coalesce(json_extract(g.result, '$.scores[' || s.seat || ']'), 0),
        EXISTS (SELECT 1 FROM json_each(g.result, '$.winners') w WHERE w.value = s.seat)
    FROM game_tables g JOIN seats s ON s.table_id = g.id
    WHERE g.status = 'finished' AND g.result IS NOT NULL AND g.result NOT IN ('{}', 'null')
        AND s.kind = 'human' AND s.user_id IS NOT NULL"""

#: Schema 5 fills `guild_ratings` from the rating events (both stores run this text).
_BACKFILL_GUILD_RATINGS = f"""INSERT INTO guild_ratings (game, guild_id, user_id, games, ordinal)
    SELECT e.game, e.guild_id, e.user_id, count(*),
        (SELECT {_ORDINAL} FROM ratings r WHERE r.user_id = e.user_id AND r.game = e.game)
    FROM rating_events e WHERE e.guild_id IS NOT NULL GROUP BY e.game, e.guild_id, e.user_id"""

#: Schema 5 counts the players on every board by their number of rated games (both stores).
_BACKFILL_BOARD_SIZES = """INSERT INTO board_sizes (board, game, scope, games, players)
    SELECT 'rating', game, 0, games, count(*) FROM ratings GROUP BY game, games
    UNION ALL SELECT 'rating', game, guild_id, games, count(*) FROM guild_ratings
        GROUP BY game, guild_id, games
    UNION ALL SELECT 'solo', game, scope, 0, count(*) FROM solo_best GROUP BY game, scope"""

#: Schema 5 fills `solo_best` from the solo scores (both stores run this text).
_BACKFILL_SOLO_BEST = """INSERT INTO solo_best (game, scope, user_id, best, table_id)
    SELECT game, scope, user_id, best, (SELECT min(table_id) FROM solo_scores o
        WHERE o.game = b.game AND o.user_id = b.user_id AND o.score = b.best
        AND (b.scope = 0 OR o.guild_id = b.scope))
    FROM (SELECT game, 0 AS scope, user_id, max(score) AS best FROM solo_scores GROUP BY game, user_id
        UNION ALL SELECT game, guild_id, user_id, max(score) FROM solo_scores
        WHERE guild_id IS NOT NULL GROUP BY game, guild_id, user_id) b"""


def _floor(x: str) -> str:
    """SQL for the floor of ``x`` (SQLite 3.40 may be built without its math functions)."""
    return f"(CAST({x} AS INTEGER) - ({x} < CAST({x} AS INTEGER)))"


def _step_keys(floor: Callable[[str], str], least: str) -> dict[str, Callable[[str], str]]:
    """Each board row's key in `board_steps` (board, game, scope, step, games), of a row called ``r``,
    in a store's SQL (its floor, its two-argument minimum). A rating row's step is its quarter
    point of ordinal and its games are counted up to the cap; a solo row's step is its best score."""

    def rating(r: str, scope: str) -> str:
        step = floor(f"{r}.ordinal * {ratings.BOARD_STEPS_PER_POINT}")
        return f"'rating', {r}.game, {scope}, {step}, {least}({r}.games, {ratings.BOARD_GAMES_MAX})"

    return {
        "ratings": lambda r: rating(r, "0"),
        "guild_ratings": lambda r: rating(r, f"{r}.guild_id"),
        "solo_best": lambda r: f"'solo', {r}.game, {r}.scope, {r}.best, 0",
    }


#: Each board row's key in `board_steps`, in SQLite's SQL and in PostgreSQL's.
_SQLITE_STEP_KEYS = _step_keys(_floor, "min")
_POSTGRES_STEP_KEYS = _step_keys(lambda x: f"floor({x})", "least")
#: The columns whose change moves a board row to another step.
_STEP_COLUMNS = {"ratings": "ordinal, games", "guild_ratings": "ordinal, games", "solo_best": "best"}


def _board_steps_sqlite() -> tuple[str, ...]:
    """Schema 7: `board_steps`, its backfill, and the triggers that keep it (every write path)."""
    statements = [
        # How many players each board has in each step (a rating board: per quarter point of
        # ordinal and by rated games up to BOARD_GAMES_MAX; a solo board: per best score), so a
        # place on a board is a sum of the steps above plus a count inside one step.
        """CREATE TABLE board_steps (
            board TEXT NOT NULL,
            game TEXT NOT NULL,
            scope INTEGER NOT NULL,
            step INTEGER NOT NULL,
            games INTEGER NOT NULL,
            players INTEGER NOT NULL,
            PRIMARY KEY (board, game, scope, step, games)
        )"""
    ]
    for table, key in _SQLITE_STEP_KEYS.items():
        add = (
            f"INSERT INTO board_steps (board, game, scope, step, games, players) VALUES ({key('NEW')}, 1) "
            "ON CONFLICT (board, game, scope, step, games) DO UPDATE SET players = players + 1;"
        )
        remove = (
            "UPDATE board_steps SET players = players - 1 "
            f"WHERE (board, game, scope, step, games) = ({key('OLD')});"
        )
        statements += [
            f"INSERT INTO board_steps SELECT {key('r')}, count(*) FROM {table} r GROUP BY 1, 2, 3, 4, 5",
            f"CREATE TRIGGER {table}_step_insert AFTER INSERT ON {table} BEGIN {add} END",
            f"CREATE TRIGGER {table}_step_update AFTER UPDATE OF {_STEP_COLUMNS[table]} ON {table} "
            f"BEGIN {remove} {add} END",
            f"CREATE TRIGGER {table}_step_delete AFTER DELETE ON {table} BEGIN {remove} END",
        ]
    return tuple(statements)


def _board_steps_postgres() -> tuple[str, ...]:
    """Schema 7: `board_steps`, its backfill, and the triggers that keep it (every write path).

    Writers of one game's boards take `hosting.pg_store.BOARD_LOCK` first (`_record_scored`): the
    triggers move step rows in whatever order the rows change, and two finishing moves must not
    deadlock.
    """
    statements = [
        """CREATE TABLE board_steps (
            board TEXT NOT NULL,
            game TEXT NOT NULL,
            scope BIGINT NOT NULL,
            step BIGINT NOT NULL,
            games INTEGER NOT NULL,
            players INTEGER NOT NULL,
            PRIMARY KEY (board, game, scope, step, games)
        )"""
    ]
    for table, key in _POSTGRES_STEP_KEYS.items():
        keys = "(board, game, scope, step, games)"
        statements += [
            f"INSERT INTO board_steps SELECT {key('r')}, count(*) FROM {table} r GROUP BY 1, 2, 3, 4, 5",
            f"""CREATE FUNCTION {table}_steps() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP IN ('UPDATE', 'DELETE') THEN
                    UPDATE board_steps SET players = players - 1 WHERE {keys} = ({key("OLD")});
                END IF;
                IF TG_OP IN ('INSERT', 'UPDATE') THEN
                    INSERT INTO board_steps AS b VALUES ({key("NEW")}, 1)
                    ON CONFLICT {keys} DO UPDATE SET players = b.players + 1;
                END IF;
                RETURN NULL;
            END $$""",
            f"CREATE TRIGGER {table}_steps AFTER INSERT OR DELETE OR UPDATE OF {_STEP_COLUMNS[table]} "
            f"ON {table} FOR EACH ROW EXECUTE FUNCTION {table}_steps()",
        ]
    return tuple(statements)


#: Every schema version, oldest first: forward migrations, applied in order at start.
#: ``MIGRATIONS[n - 1]`` brings a database from version n - 1 to version n.
MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        sqlite=(
            """CREATE TABLE game_tables (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                game TEXT NOT NULL,
                guild_id INTEGER,
                channel_id INTEGER NOT NULL,
                thread_id INTEGER,
                host_id INTEGER NOT NULL,
                status TEXT NOT NULL,
                options TEXT NOT NULL DEFAULT '{}',
                seed INTEGER,
                version INTEGER NOT NULL DEFAULT 1,
                moves INTEGER NOT NULL DEFAULT 0,
                state TEXT,
                result TEXT,
                lobby_message_id INTEGER,
                board_message_id INTEGER,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL
            )""",
            "CREATE INDEX game_tables_status ON game_tables (status, guild_id)",
            """CREATE TABLE seats (
                table_id INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
                seat INTEGER NOT NULL,
                user_id INTEGER,
                name TEXT NOT NULL,
                kind TEXT NOT NULL,
                policy TEXT,
                moves INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (table_id, seat)
            )""",
            "CREATE INDEX seats_user ON seats (user_id)",
            """CREATE TABLE actions (
                table_id INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
                seq INTEGER NOT NULL,
                seat INTEGER NOT NULL,
                action TEXT NOT NULL,
                created_at REAL NOT NULL,
                PRIMARY KEY (table_id, seq)
            )""",
        ),
        postgres=(
            # Discord ids are 64-bit (BIGINT); JSON is kept as the exact text the store wrote.
            """CREATE TABLE game_tables (
                id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                game TEXT NOT NULL,
                guild_id BIGINT,
                channel_id BIGINT NOT NULL,
                thread_id BIGINT,
                host_id BIGINT NOT NULL,
                status TEXT NOT NULL,
                options TEXT NOT NULL DEFAULT '{}',
                seed BIGINT,
                version INTEGER NOT NULL DEFAULT 1,
                moves INTEGER NOT NULL DEFAULT 0,
                state TEXT,
                result TEXT,
                lobby_message_id BIGINT,
                board_message_id BIGINT,
                created_at DOUBLE PRECISION NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL
            )""",
            "CREATE INDEX game_tables_status ON game_tables (status, guild_id)",
            # Looking a table up by its thread or channel (every interaction in a thread does).
            "CREATE INDEX game_tables_thread ON game_tables (thread_id)",
            "CREATE INDEX game_tables_channel ON game_tables (channel_id)",
            """CREATE TABLE seats (
                table_id BIGINT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
                seat INTEGER NOT NULL,
                user_id BIGINT,
                name TEXT NOT NULL,
                kind TEXT NOT NULL,
                policy TEXT,
                moves INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (table_id, seat)
            )""",
            "CREATE INDEX seats_user ON seats (user_id)",
            """CREATE TABLE actions (
                table_id BIGINT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
                seq INTEGER NOT NULL,
                seat INTEGER NOT NULL,
                action TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (table_id, seq)
            )""",
        ),
    ),
    Migration(
        2,
        sqlite=(
            # Async play: a per-move deadline (``pace`` seconds, 0 = live), the reminders
            # already sent for the current step, a pause, and ``wake_at``: the next
            # instant the scheduler must look at the table (a reminder, a deadline, or a
            # lobby's expiry). One index over it is all the scheduler needs.
            "ALTER TABLE game_tables ADD COLUMN pace INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE game_tables ADD COLUMN deadline REAL",
            "ALTER TABLE game_tables ADD COLUMN reminders INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE game_tables ADD COLUMN paused_at REAL",
            "ALTER TABLE game_tables ADD COLUMN wake_at REAL",
            "CREATE INDEX game_tables_wake ON game_tables (wake_at) WHERE wake_at IS NOT NULL",
            "ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0",
            """CREATE TABLE players (
                user_id INTEGER PRIMARY KEY,
                dm_reminders INTEGER NOT NULL DEFAULT 0
            )""",
        ),
        postgres=(
            # Async play (see the SQLite twin): pace, deadline, reminders, pause, wake_at.
            "ALTER TABLE game_tables ADD COLUMN pace INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE game_tables ADD COLUMN deadline DOUBLE PRECISION",
            "ALTER TABLE game_tables ADD COLUMN reminders INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE game_tables ADD COLUMN paused_at DOUBLE PRECISION",
            "ALTER TABLE game_tables ADD COLUMN wake_at DOUBLE PRECISION",
            "CREATE INDEX game_tables_wake ON game_tables (wake_at) WHERE wake_at IS NOT NULL",
            "ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0",
            """CREATE TABLE players (
                user_id BIGINT PRIMARY KEY,
                dm_reminders INTEGER NOT NULL DEFAULT 0
            )""",
        ),
    ),
    Migration(
        3,
        sqlite=(
            # Real Discord: a board or results message the table still owes (a post that
            # failed and is retried by the clock, counted for its back-off), and who held a
            # seat before its current holder (nobody who held a seat is handed another one).
            "ALTER TABLE game_tables ADD COLUMN owed_posts INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE seats ADD COLUMN former TEXT NOT NULL DEFAULT '[]'",
            "CREATE INDEX IF NOT EXISTS game_tables_thread ON game_tables (thread_id)",
            "CREATE INDEX IF NOT EXISTS game_tables_channel ON game_tables (channel_id)",
        ),
        postgres=(
            # Real Discord (see the SQLite twin): owed posts and former seat holders.
            "ALTER TABLE game_tables ADD COLUMN owed_posts INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE seats ADD COLUMN former TEXT NOT NULL DEFAULT '[]'",
        ),
    ),
    Migration(
        4,
        sqlite=(
            # Ratings (hosting/ratings.py): one openskill rating per player per game, every rated
            # game's change per player (with the server it was played in, for the server boards),
            # and solo scores for the solo boards. All written by the move that finishes a table.
            """CREATE TABLE ratings (
                user_id INTEGER NOT NULL,
                game TEXT NOT NULL,
                mu REAL NOT NULL,
                sigma REAL NOT NULL,
                games INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (user_id, game)
            )""",
            "CREATE INDEX ratings_board ON ratings (game, games)",
            """CREATE TABLE rating_events (
                table_id INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL,
                game TEXT NOT NULL,
                guild_id INTEGER,
                seat INTEGER NOT NULL,
                rank INTEGER NOT NULL,
                mu_before REAL NOT NULL,
                sigma_before REAL NOT NULL,
                mu REAL NOT NULL,
                sigma REAL NOT NULL,
                games INTEGER NOT NULL,
                created_at REAL NOT NULL,
                PRIMARY KEY (table_id, user_id)
            )""",
            "CREATE INDEX rating_events_guild ON rating_events (game, guild_id, user_id)",
            """CREATE TABLE solo_scores (
                table_id INTEGER PRIMARY KEY REFERENCES game_tables (id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL,
                game TEXT NOT NULL,
                guild_id INTEGER,
                score INTEGER NOT NULL,
                created_at REAL NOT NULL
            )""",
            "CREATE INDEX solo_scores_board ON solo_scores (game, guild_id, score)",
        ),
        postgres=(
            # Ratings (see the SQLite twin): ratings, rating_events, solo_scores.
            """CREATE TABLE ratings (
                user_id BIGINT NOT NULL,
                game TEXT NOT NULL,
                mu DOUBLE PRECISION NOT NULL,
                sigma DOUBLE PRECISION NOT NULL,
                games INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (user_id, game)
            )""",
            "CREATE INDEX ratings_board ON ratings (game, games)",
            """CREATE TABLE rating_events (
                table_id BIGINT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
                user_id BIGINT NOT NULL,
                game TEXT NOT NULL,
                guild_id BIGINT,
                seat INTEGER NOT NULL,
                rank INTEGER NOT NULL,
                mu_before DOUBLE PRECISION NOT NULL,
                sigma_before DOUBLE PRECISION NOT NULL,
                mu DOUBLE PRECISION NOT NULL,
                sigma DOUBLE PRECISION NOT NULL,
                games INTEGER NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (table_id, user_id)
            )""",
            "CREATE INDEX rating_events_guild ON rating_events (game, guild_id, user_id)",
            """CREATE TABLE solo_scores (
                table_id BIGINT PRIMARY KEY REFERENCES game_tables (id) ON DELETE CASCADE,
                user_id BIGINT NOT NULL,
                game TEXT NOT NULL,
                guild_id BIGINT,
                score INTEGER NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )""",
            "CREATE INDEX solo_scores_board ON solo_scores (game, guild_id, score)",
        ),
    ),
    Migration(
        5,
        sqlite=(
            # Scale (issue #17): every read the bot makes answers from an index, whatever the number
            # of tables. A host's tables, a channel's open tables and the newest table of a channel
            # have their own indexes (the plain channel index is a prefix of two of them).
            "DROP INDEX IF EXISTS game_tables_channel",
            "CREATE INDEX game_tables_host ON game_tables (host_id, status)",
            "CREATE INDEX game_tables_channel_open ON game_tables (channel_id, status, thread_id)",
            # A player's tables from their seats without reading a seat row, and their open tables
            # without looking at every table they ever sat at: a seat knows whether its table is open,
            # kept by triggers, so that no path that changes a status or writes a seat can forget it.
            "ALTER TABLE seats ADD COLUMN open INTEGER NOT NULL DEFAULT 0",
            "UPDATE seats SET open = 1 "
            "WHERE table_id IN (SELECT id FROM game_tables WHERE status IN ('lobby', 'active'))",
            """CREATE TRIGGER seats_open_on_status AFTER UPDATE OF status ON game_tables BEGIN
                UPDATE seats SET open = (NEW.status IN ('lobby', 'active')) WHERE table_id = NEW.id;
            END""",
            """CREATE TRIGGER seats_open_on_insert AFTER INSERT ON seats BEGIN
                UPDATE seats SET open = (
                    SELECT status IN ('lobby', 'active') FROM game_tables WHERE id = NEW.table_id
                ) WHERE rowid = NEW.rowid;
            END""",
            "DROP INDEX IF EXISTS seats_user",
            "CREATE INDEX seats_user ON seats (user_id, kind, open, table_id)",
            "CREATE INDEX game_tables_channel_thread ON game_tables (channel_id, thread_id)",
            # The board across servers walks the ratings in their order: μ − 3σ kept as a column (an
            # index on the expression is not covering before SQLite 3.41, so a place on the board
            # would read a row per player above), ``games`` riding along.
            "DROP INDEX IF EXISTS ratings_board",
            "ALTER TABLE ratings ADD COLUMN ordinal REAL NOT NULL DEFAULT 0",
            f"UPDATE ratings SET ordinal = {_ORDINAL}",
            "CREATE INDEX ratings_ordinal ON ratings (game, ordinal DESC, user_id, games)",
            # Stats as data: a player's finished games per game, kept by the finishing move
            # (`/stats` reads one row per game instead of every finished table).
            """CREATE TABLE player_stats (
                user_id INTEGER NOT NULL,
                game TEXT NOT NULL,
                played INTEGER NOT NULL DEFAULT 0,
                wins INTEGER NOT NULL DEFAULT 0,
                score_total REAL NOT NULL DEFAULT 0,
                PRIMARY KEY (user_id, game)
            )""",
            _BACKFILL_STATS,
            # A server's rating board: each player's rated games in that server, and their rating's
            # ordinal copied here (kept by every rated game) so the board is walked in index order.
            """CREATE TABLE guild_ratings (
                game TEXT NOT NULL,
                guild_id INTEGER NOT NULL,
                user_id INTEGER NOT NULL,
                games INTEGER NOT NULL,
                ordinal REAL NOT NULL,
                PRIMARY KEY (game, guild_id, user_id)
            )""",
            "CREATE INDEX guild_ratings_board "
            "ON guild_ratings (game, guild_id, ordinal DESC, user_id, games)",
            "CREATE INDEX guild_ratings_user ON guild_ratings (user_id, game)",
            _BACKFILL_GUILD_RATINGS,
            # The solo boards: each player's best solo score (the earliest table on a tie), per server
            # (``scope`` = the server's id) and across servers (``scope`` 0: no Discord id is 0).
            """CREATE TABLE solo_best (
                game TEXT NOT NULL,
                scope INTEGER NOT NULL,
                user_id INTEGER NOT NULL,
                best INTEGER NOT NULL,
                table_id INTEGER NOT NULL,
                PRIMARY KEY (game, scope, user_id)
            )""",
            "CREATE INDEX solo_best_board ON solo_best (game, scope, best DESC, user_id)",
            _BACKFILL_SOLO_BEST,
            # How many players each board has, by their rated games on it (solo boards: 0), so a
            # board's size is a sum of a few rows, not a count of its players.
            """CREATE TABLE board_sizes (
                board TEXT NOT NULL,
                game TEXT NOT NULL,
                scope INTEGER NOT NULL,
                games INTEGER NOT NULL,
                players INTEGER NOT NULL,
                PRIMARY KEY (board, game, scope, games)
            )""",
            _BACKFILL_BOARD_SIZES,
        ),
        postgres=(
            # Scale (see the SQLite twin): indexes for a host's tables, a channel's open tables and
            # the newest table of a channel; the board's order as an index; player_stats,
            # guild_ratings and solo_best, filled from the rows already there.
            "DROP INDEX IF EXISTS game_tables_channel",
            "CREATE INDEX game_tables_host ON game_tables (host_id, status)",
            "CREATE INDEX game_tables_channel_open ON game_tables (channel_id, status, thread_id)",
            "DROP INDEX IF EXISTS seats_user",
            "CREATE INDEX seats_user ON seats (user_id, kind, table_id)",
            "CREATE INDEX game_tables_channel_thread ON game_tables (channel_id, thread_id)",
            "DROP INDEX IF EXISTS ratings_board",
            "ALTER TABLE ratings ADD COLUMN ordinal DOUBLE PRECISION NOT NULL DEFAULT 0",
            f"UPDATE ratings SET ordinal = {_ORDINAL}",
            "CREATE INDEX ratings_ordinal ON ratings (game, ordinal DESC, user_id, games)",
            """CREATE TABLE player_stats (
                user_id BIGINT NOT NULL,
                game TEXT NOT NULL,
                played INTEGER NOT NULL DEFAULT 0,
                wins INTEGER NOT NULL DEFAULT 0,
                score_total DOUBLE PRECISION NOT NULL DEFAULT 0,
                PRIMARY KEY (user_id, game)
            )""",
            """INSERT INTO player_stats (user_id, game, played, wins, score_total)
                SELECT s.user_id, g.game, count(*),
                    sum(CASE WHEN (g.result::jsonb -> 'winners') @> to_jsonb(s.seat) THEN 1 ELSE 0 END),
                    coalesce(sum((g.result::jsonb -> 'scores' ->> s.seat)::double precision), 0)
                FROM game_tables g JOIN seats s ON s.table_id = g.id
                WHERE g.status = 'finished' AND g.result IS NOT NULL AND g.result NOT IN ('{}', 'null')
                    AND s.kind = 'human' AND s.user_id IS NOT NULL
                GROUP BY s.user_id, g.game""",
            """CREATE TABLE guild_ratings (
                game TEXT NOT NULL,
                guild_id BIGINT NOT NULL,
                user_id BIGINT NOT NULL,
                games INTEGER NOT NULL,
                ordinal DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (game, guild_id, user_id)
            )""",
            "CREATE INDEX guild_ratings_board "
            "ON guild_ratings (game, guild_id, ordinal DESC, user_id, games)",
            "CREATE INDEX guild_ratings_user ON guild_ratings (user_id, game)",
            _BACKFILL_GUILD_RATINGS,
            """CREATE TABLE solo_best (
                game TEXT NOT NULL,
                scope BIGINT NOT NULL,
                user_id BIGINT NOT NULL,
                best INTEGER NOT NULL,
                table_id BIGINT NOT NULL,
                PRIMARY KEY (game, scope, user_id)
            )""",
            "CREATE INDEX solo_best_board ON solo_best (game, scope, best DESC, user_id)",
            _BACKFILL_SOLO_BEST,
            """CREATE TABLE board_sizes (
                board TEXT NOT NULL,
                game TEXT NOT NULL,
                scope BIGINT NOT NULL,
                games INTEGER NOT NULL,
                players INTEGER NOT NULL,
                PRIMARY KEY (board, game, scope, games)
            )""",
            _BACKFILL_BOARD_SIZES,
        ),
    ),
    Migration(
        6,
        sqlite=(
            # Languages (issue #20): a player's own choice for their panels and DMs, the last
            # Discord client language they were seen with (for DMs, which have no interaction),
            # and a server's choice for its public messages (NULL: follow Discord's setting).
            "ALTER TABLE players ADD COLUMN language TEXT",
            "ALTER TABLE players ADD COLUMN seen_locale TEXT",
            """CREATE TABLE guild_settings (
                guild_id INTEGER PRIMARY KEY,
                language TEXT
            )""",
        ),
        postgres=(
            "ALTER TABLE players ADD COLUMN language TEXT",
            "ALTER TABLE players ADD COLUMN seen_locale TEXT",
            """CREATE TABLE guild_settings (
                guild_id BIGINT PRIMARY KEY,
                language TEXT
            )""",
        ),
    ),
    Migration(
        7,
        sqlite=_board_steps_sqlite(),
        postgres=_board_steps_postgres(),
    ),
    Migration(
        8,
        sqlite=(
            # History as data (issue #17): a line per person seated at a finished table, written by the
            # finishing move, clustered by player newest first: `/history`'s page is one range of one
            # index (a page or two), not 25 tables scattered over the file.
            """CREATE TABLE finished_seats (
                user_id INTEGER NOT NULL,
                table_id INTEGER NOT NULL,
                game TEXT NOT NULL,
                guild_id INTEGER,
                channel_id INTEGER NOT NULL,
                thread_id INTEGER,
                finished_at REAL NOT NULL,
                seat INTEGER NOT NULL,
                players INTEGER NOT NULL,
                place INTEGER NOT NULL,
                score NUMERIC NOT NULL,
                won INTEGER NOT NULL,
                PRIMARY KEY (user_id, table_id DESC)
            ) WITHOUT ROWID""",
            _BACKFILL_FINISHED_SEATS,
        ),
        postgres=(
            # History as data (see the SQLite twin): a line per person seated at a finished table.
            """CREATE TABLE finished_seats (
                user_id BIGINT NOT NULL,
                table_id BIGINT NOT NULL,
                game TEXT NOT NULL,
                guild_id BIGINT,
                channel_id BIGINT NOT NULL,
                thread_id BIGINT,
                finished_at DOUBLE PRECISION NOT NULL,
                seat INTEGER NOT NULL,
                players INTEGER NOT NULL,
                place INTEGER NOT NULL,
                score DOUBLE PRECISION NOT NULL,
                won BOOLEAN NOT NULL,
                PRIMARY KEY (user_id, table_id)
            )""",
            """INSERT INTO finished_seats (user_id, table_id, game, guild_id, channel_id, thread_id,
                    finished_at, seat, players, place, score, won)
                SELECT s.user_id, g.id, g.game, g.guild_id, g.channel_id, g.thread_id, g.updated_at, s.seat,
                    (SELECT count(*) FROM seats c WHERE c.table_id = g.id),
                    coalesce((g.result::jsonb -> 'ranking' ->> s.seat)::integer, 0),
                    coalesce((g.result::jsonb -> 'scores' ->> s.seat)::double precision, 0),
                    coalesce((g.result::jsonb -> 'winners') @> to_jsonb(s.seat), false)
                FROM game_tables g JOIN seats s ON s.table_id = g.id
                WHERE g.status = 'finished' AND g.result IS NOT NULL AND g.result NOT IN ('{}', 'null')
                    AND s.kind = 'human' AND s.user_id IS NOT NULL""",
        ),
    ),
    Migration(
        9,
        sqlite=(
            # Issue #35. A finished table's rematch (one row per finished table): the lobby it opened
            # (replaced only once that lobby has closed) and whether the former players were pinged,
            # so two clicks at once open one lobby and the players are pinged once, across restarts.
            """CREATE TABLE rematches (
                table_id INTEGER PRIMARY KEY,
                lobby_id INTEGER NOT NULL,
                pinged INTEGER NOT NULL DEFAULT 0,
                created_at REAL NOT NULL
            )""",
            "CREATE INDEX rematches_lobby ON rematches (lobby_id)",
            # A member's recently closed lobbies (`/play` then Cancel, repeated) count against their cap.
            "CREATE INDEX game_tables_host_closed ON game_tables (host_id, status, updated_at)",
            # Games a server's organiser voided from the ratings (`/ratings void`).
            """CREATE TABLE voided_games (
                table_id INTEGER PRIMARY KEY,
                voided_by INTEGER NOT NULL,
                created_at REAL NOT NULL
            )""",
        ),
        postgres=(
            # Issue #35 (see the SQLite twin): rematches, a host's closed lobbies, voided games.
            """CREATE TABLE rematches (
                table_id BIGINT PRIMARY KEY,
                lobby_id BIGINT NOT NULL,
                pinged BOOLEAN NOT NULL DEFAULT false,
                created_at DOUBLE PRECISION NOT NULL
            )""",
            "CREATE INDEX rematches_lobby ON rematches (lobby_id)",
            "CREATE INDEX game_tables_host_closed ON game_tables (host_id, status, updated_at)",
            """CREATE TABLE voided_games (
                table_id BIGINT PRIMARY KEY,
                voided_by BIGINT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )""",
        ),
    ),
    Migration(
        10,
        sqlite=(
            # The daily Reef (issue #38, docs/DAILY.md): each player's game of a UTC day, one row per
            # (day, player) so the primary key decides who played the day's game, across processes.
            # Its score is the table's solo score (`solo_scores`, written by the finishing move);
            # ``closes_at`` is the day's end: a game finished later is not on the day's board.
            """CREATE TABLE daily_games (
                day TEXT NOT NULL,
                user_id INTEGER NOT NULL,
                table_id INTEGER NOT NULL,
                guild_id INTEGER,
                created_at REAL NOT NULL,
                closes_at REAL NOT NULL,
                PRIMARY KEY (day, user_id)
            )""",
            "CREATE INDEX daily_games_user ON daily_games (user_id, day)",
            "CREATE INDEX daily_games_table ON daily_games (table_id)",
        ),
        postgres=(
            # The daily Reef (see the SQLite twin): each player's game of a UTC day, one row per player.
            """CREATE TABLE daily_games (
                day TEXT NOT NULL,
                user_id BIGINT NOT NULL,
                table_id BIGINT NOT NULL,
                guild_id BIGINT,
                created_at DOUBLE PRECISION NOT NULL,
                closes_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (day, user_id)
            )""",
            "CREATE INDEX daily_games_user ON daily_games (user_id, day)",
            "CREATE INDEX daily_games_table ON daily_games (table_id)",
        ),
    ),
    Migration(
        11,
        sqlite=(
            # Leagues (issue #38, docs/LEAGUES.md): a league (``leagues``), its players and their totals
            # over the closed rounds (``league_players``), and each round's tables (``league_tables``:
            # who sits where, 0 a bot seat, and the hosted table once opened; both clustered by their
            # keys, so a league's standings or round are one range). ``leagues.round`` is the round
            # being played: advancing it is the claim that pairs a round exactly once
            # (`Store.advance_league`).
            """CREATE TABLE leagues (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            channel_id INTEGER NOT NULL,
            organiser_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            game TEXT NOT NULL,
            seats INTEGER NOT NULL,
            pace INTEGER NOT NULL,
            rounds INTEGER NOT NULL,
            rated INTEGER NOT NULL,
            bot_level TEXT NOT NULL,
            cap INTEGER NOT NULL,
            drop_after INTEGER NOT NULL,
            round_length REAL NOT NULL,
            status TEXT NOT NULL,
            round INTEGER NOT NULL DEFAULT 0,
            deadline REAL,
            message_id INTEGER,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        )""",
            "CREATE INDEX leagues_guild ON leagues (guild_id, id)",
            "CREATE INDEX leagues_status ON leagues (status, id)",
            "CREATE INDEX leagues_deadline ON leagues (deadline)",
            """CREATE TABLE league_players (
            league_id INTEGER NOT NULL,
            user_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            joined_at REAL NOT NULL,
            points REAL NOT NULL DEFAULT 0,
            score REAL NOT NULL DEFAULT 0,
            played INTEGER NOT NULL DEFAULT 0,
            missed INTEGER NOT NULL DEFAULT 0,
            dropped INTEGER NOT NULL DEFAULT 0,
            place INTEGER,
            PRIMARY KEY (league_id, user_id)
        ) WITHOUT ROWID""",
            "CREATE INDEX league_players_user ON league_players (user_id, league_id)",
            """CREATE TABLE league_tables (
            league_id INTEGER NOT NULL,
            round INTEGER NOT NULL,
            table_no INTEGER NOT NULL,
            players TEXT NOT NULL,
            table_id INTEGER,
            PRIMARY KEY (league_id, round, table_no)
        ) WITHOUT ROWID""",
            "CREATE UNIQUE INDEX league_tables_table ON league_tables (table_id)",
            # The role whose members may organise leagues in a server (besides Manage Server).
            "ALTER TABLE guild_settings ADD COLUMN league_role INTEGER",
        ),
        postgres=(
            # Leagues (see the SQLite twin).
            """CREATE TABLE leagues (
            id BIGSERIAL PRIMARY KEY,
            guild_id BIGINT NOT NULL,
            channel_id BIGINT NOT NULL,
            organiser_id BIGINT NOT NULL,
            name TEXT NOT NULL,
            game TEXT NOT NULL,
            seats INTEGER NOT NULL,
            pace INTEGER NOT NULL,
            rounds INTEGER NOT NULL,
            rated BOOLEAN NOT NULL,
            bot_level TEXT NOT NULL,
            cap INTEGER NOT NULL,
            drop_after INTEGER NOT NULL,
            round_length DOUBLE PRECISION NOT NULL,
            status TEXT NOT NULL,
            round INTEGER NOT NULL DEFAULT 0,
            deadline DOUBLE PRECISION,
            message_id BIGINT,
            created_at DOUBLE PRECISION NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL
        )""",
            "CREATE INDEX leagues_guild ON leagues (guild_id, id)",
            "CREATE INDEX leagues_status ON leagues (status, id)",
            "CREATE INDEX leagues_deadline ON leagues (deadline)",
            """CREATE TABLE league_players (
            league_id BIGINT NOT NULL,
            user_id BIGINT NOT NULL,
            name TEXT NOT NULL,
            joined_at DOUBLE PRECISION NOT NULL,
            points DOUBLE PRECISION NOT NULL DEFAULT 0,
            score DOUBLE PRECISION NOT NULL DEFAULT 0,
            played INTEGER NOT NULL DEFAULT 0,
            missed INTEGER NOT NULL DEFAULT 0,
            dropped INTEGER NOT NULL DEFAULT 0,
            place INTEGER,
            PRIMARY KEY (league_id, user_id)
        )""",
            "CREATE INDEX league_players_user ON league_players (user_id, league_id)",
            """CREATE TABLE league_tables (
            league_id BIGINT NOT NULL,
            round INTEGER NOT NULL,
            table_no INTEGER NOT NULL,
            players TEXT NOT NULL,
            table_id BIGINT UNIQUE,
            PRIMARY KEY (league_id, round, table_no)
        )""",
            "ALTER TABLE guild_settings ADD COLUMN league_role BIGINT",
        ),
    ),
    Migration(
        12,
        sqlite=(
            # Issue #38 (live tables, rating history, seasons). A player's rating changes, game by game in
            # order: `/stats`' rating plot is one range of one index (the primary key starts with the
            # table, the board index with the game).
            "CREATE INDEX rating_events_user ON rating_events (user_id, game, table_id)",
            # Seasons (hosting/seasons.py): a server's season length and its manual season's number,
            # each player's season rating per server, season and game (the board walks its index, as
            # the server boards do), and the seasons a server has had, in the order they began.
            "ALTER TABLE guild_settings ADD COLUMN season_length TEXT",
            "ALTER TABLE guild_settings ADD COLUMN season_number INTEGER NOT NULL DEFAULT 0",
            """CREATE TABLE season_ratings (
                guild_id INTEGER NOT NULL,
                season TEXT NOT NULL,
                game TEXT NOT NULL,
                user_id INTEGER NOT NULL,
                mu REAL NOT NULL,
                sigma REAL NOT NULL,
                games INTEGER NOT NULL,
                ordinal REAL NOT NULL,
                PRIMARY KEY (guild_id, season, game, user_id)
            )""",
            "CREATE INDEX season_ratings_board "
            "ON season_ratings (guild_id, season, game, ordinal DESC, user_id, games)",
            "CREATE INDEX season_ratings_user ON season_ratings (user_id, guild_id, game)",
            """CREATE TABLE guild_seasons (
                guild_id INTEGER NOT NULL,
                season TEXT NOT NULL,
                started_at REAL NOT NULL,
                PRIMARY KEY (guild_id, season)
            )""",
            "CREATE INDEX guild_seasons_order ON guild_seasons (guild_id, started_at, season)",
            # What each rated game did to its players' season ratings, so `/ratings void` undoes it too.
            """CREATE TABLE season_events (
                table_id INTEGER NOT NULL,
                user_id INTEGER NOT NULL,
                guild_id INTEGER NOT NULL,
                season TEXT NOT NULL,
                game TEXT NOT NULL,
                mu_before REAL NOT NULL,
                sigma_before REAL NOT NULL,
                games_before INTEGER NOT NULL,
                PRIMARY KEY (table_id, user_id)
            )""",
        ),
        postgres=(
            # Issue #38 (see the SQLite twin): a player's rating changes, game by game in order.
            "CREATE INDEX rating_events_user ON rating_events (user_id, game, table_id)",
            # Seasons (see the SQLite twin).
            "ALTER TABLE guild_settings ADD COLUMN season_length TEXT",
            "ALTER TABLE guild_settings ADD COLUMN season_number INTEGER NOT NULL DEFAULT 0",
            """CREATE TABLE season_ratings (
                guild_id BIGINT NOT NULL,
                season TEXT NOT NULL,
                game TEXT NOT NULL,
                user_id BIGINT NOT NULL,
                mu DOUBLE PRECISION NOT NULL,
                sigma DOUBLE PRECISION NOT NULL,
                games INTEGER NOT NULL,
                ordinal DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (guild_id, season, game, user_id)
            )""",
            "CREATE INDEX season_ratings_board "
            "ON season_ratings (guild_id, season, game, ordinal DESC, user_id, games)",
            "CREATE INDEX season_ratings_user ON season_ratings (user_id, guild_id, game)",
            """CREATE TABLE guild_seasons (
                guild_id BIGINT NOT NULL,
                season TEXT NOT NULL,
                started_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (guild_id, season)
            )""",
            "CREATE INDEX guild_seasons_order ON guild_seasons (guild_id, started_at, season)",
            """CREATE TABLE season_events (
                table_id BIGINT NOT NULL,
                user_id BIGINT NOT NULL,
                guild_id BIGINT NOT NULL,
                season TEXT NOT NULL,
                game TEXT NOT NULL,
                mu_before DOUBLE PRECISION NOT NULL,
                sigma_before DOUBLE PRECISION NOT NULL,
                games_before INTEGER NOT NULL,
                PRIMARY KEY (table_id, user_id)
            )""",
        ),
    ),
    Migration(
        13,
        sqlite=(
            # A league's standings (or podium) post that Discord refused: when to try it again. The
            # deadline keeper reads it beside the round deadlines (cogs/league.py, docs/LEAGUES.md).
            "ALTER TABLE leagues ADD COLUMN post_owed REAL",
            "CREATE INDEX leagues_post_owed ON leagues (post_owed)",
        ),
        postgres=(
            "ALTER TABLE leagues ADD COLUMN post_owed DOUBLE PRECISION",
            "CREATE INDEX leagues_post_owed ON leagues (post_owed)",
        ),
    ),
)

#: The schema version this bot writes: the newest migration's.
SCHEMA_VERSION = len(MIGRATIONS)

#: The only columns one store's schema has and the other's lacks, and why (tests/hosting/test_migrations.py
#: checks that the two migrated schemas differ by exactly these).
SQLITE_ONLY_COLUMNS = {
    # Schema 5: SQLite's triggers keep whether a seat's table is open, so that a player's open tables
    # come from one index; PostgreSQL's `tables_of_user` reads the tables' status instead.
    ("seats", "open"): "a player's open tables from one SQLite index",
}

if [m.version for m in MIGRATIONS] != list(range(1, SCHEMA_VERSION + 1)):
    raise AssertionError("MIGRATIONS must be numbered 1, 2, 3 ... in order")
