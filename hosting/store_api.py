"""The store's interface, defined once: what the service, the cogs and the tools may ask a store.

`TableStore` is a `typing.Protocol`: `hosting.store.Store` (SQLite) and
`hosting.pg_store.PostgresStore` (PostgreSQL) satisfy it without naming it, and
everything above the stores (`hosting.service.TableService`, `hosting.stores.open_store`,
the bot) is typed with it, so nothing there knows which database it has.
tests/hosting/test_store_interface.py runs mypy to check that both stores still satisfy it
(and tests/hosting/test_store.py runs the same behaviour tests on both).

A new store method goes in both stores and here, with the same signature; opening
a store is each store's own classmethod (a file path or a URL), so it is not here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from hosting import ratings, seasons
from hosting.league import LeaguePlayer, LeagueRecord, LeagueResult, LeagueTable
from hosting.ratings import Rating, RatingChange, ScoredGame, Standing
from hosting.records import OPEN_STATUSES, FinishedGame, LoggedAction, PlayerStats, Seat, TableRecord


class TableStore(Protocol):
    """Tables, seats, the action log, ratings and players' settings, in some database.

    Every write that names ``expected_version`` raises `hosting.errors.StaleVersion`
    when the table changed since, and `hosting.errors.TableNotFound` when it is gone.
    """

    async def close(self) -> None:
        """Close the database connections; closing again does nothing."""
        ...

    async def schema_version(self) -> int:
        """The schema version the database holds (0 for an empty one)."""
        ...

    async def get_table(self, table_id: int) -> TableRecord:
        """The table with that id; `TableNotFound` when there is none."""
        ...

    async def tables_of_user(
        self,
        user_id: int,
        *,
        statuses: Iterable[str] = OPEN_STATUSES,
        guild_id: int | None = None,
    ) -> list[TableRecord]:
        """Tables where the user holds a seat or is the host, newest first."""
        ...

    async def finished_games(self, user_id: int, *, limit: int) -> list[FinishedGame]:
        """The newest ``limit`` finished tables where the user held a seat to the end, newest first."""
        ...

    async def table_ids(self, status: str, *, with_bots: bool = False) -> list[int]:
        """Ids of every table with this status (only those with a bot seat if ``with_bots``), oldest first."""
        ...

    async def table_in_channel(self, channel_id: int) -> TableRecord | None:
        """The newest table whose thread (or channel, where it has no thread) is this channel."""
        ...

    async def open_tables_in(self, channel_id: int) -> list[TableRecord]:
        """Open tables (lobby or running) in this thread or channel, or in a thread of it, newest first."""
        ...

    async def open_tables_here(self, channel_id: int) -> list[TableRecord]:
        """Open tables playing in this thread, or in this channel without a thread of theirs, newest first."""
        ...

    async def open_tables_in_guild(self, guild_id: int) -> list[TableRecord]:
        """Open tables (lobby or running) of one server, newest first."""
        ...

    async def open_guild_ids(self) -> list[int]:
        """The servers that have an open table (lobby or running)."""
        ...

    async def actions(self, table_id: int, after: int = 0) -> list[LoggedAction]:
        """A table's action log, in order: the whole of it, or only the entries after seq ``after``
        (seqs count a table's moves from 1)."""
        ...

    async def ratings_of(self, user_id: int) -> list[Rating]:
        """A player's rating in every game they have a rated game of, by game."""
        ...

    async def rating_changes(self, table_id: int) -> list[RatingChange]:
        """What a finished table did to its players' ratings, by seat (empty when it was not rated)."""
        ...

    async def player_stats(self, user_id: int) -> list[PlayerStats]:
        """A player's finished games per game (kept by the finishing moves), by game."""
        ...

    async def leaderboard(
        self, game: str, *, guild_id: int | None = None, min_games: int = 1, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[Standing]]:
        """(how many players are on the board, one page of it), best rating (μ − 3σ) first."""
        ...

    async def standing(
        self, game: str, user_id: int, *, guild_id: int | None = None, min_games: int = 1
    ) -> Standing | None:
        """A player's place on a rating board; None when they are not on it."""
        ...

    async def solo_board(
        self, game: str, *, guild_id: int | None = None, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[Standing]]:
        """(how many players, one page) of the best solo scores, best first."""
        ...

    async def solo_standing(self, game: str, user_id: int, *, guild_id: int | None = None) -> Standing | None:
        """A player's place on a solo board; None when they have no solo score there."""
        ...

    async def create_table(
        self,
        *,
        game: str,
        guild_id: int | None,
        channel_id: int,
        host: Seat,
        options: dict[str, Any],
        now: float,
        pace: int = 0,
        wake_at: float | None = None,
    ) -> TableRecord:
        """A new table in the lobby, its host in seat 0; ``wake_at`` is when the lobby expires."""
        ...

    async def update_table(
        self,
        table_id: int,
        expected_version: int,
        *,
        now: float,
        seats: Sequence[Seat] | None = None,
        status: str | None = None,
        seed: int | None = None,
        state: dict[str, Any] | None = None,
        timing: dict[str, Any] | None = None,
        options: dict[str, Any] | None = None,
    ) -> TableRecord:
        """Change a table outside the action log (lobby, start, cancel, clock), bumping its version."""
        ...

    async def append_action(
        self,
        table_id: int,
        expected_version: int,
        *,
        seat: int,
        action: dict[str, Any],
        state: dict[str, Any],
        now: float,
        result: dict[str, Any] | None = None,
        timing: dict[str, Any] | None = None,
        reset_timeouts: bool = False,
        scored: ScoredGame | None = None,
    ) -> TableRecord:
        """Log one accepted action with the new snapshot, in one transaction; return the table after it."""
        ...

    async def set_messages(
        self,
        table_id: int,
        *,
        thread_id: int | None = None,
        lobby_message_id: int | None = None,
        board_message_id: int | None = None,
    ) -> None:
        """Remember where the table lives in Discord (no version bump: the game did not change)."""
        ...

    async def set_host(self, table_id: int, user_id: int) -> None:
        """Hand the host role to another member."""
        ...

    async def set_owed(self, table_id: int, owed_posts: int, wake_at: float | None) -> None:
        """Record a message the table still owes (``owed_posts`` failed attempts; 0: paid), next look."""
        ...

    async def claim_reminder(self, table_id: int, version: int, *, sent: int, wake_at: float | None) -> bool:
        """Record that reminder number ``sent`` goes out now; False when another caller already did."""
        ...

    async def set_wake(self, table_id: int, version: int, wake_at: float | None) -> None:
        """Move the scheduler's next look at a table (when nothing else about it changed)."""
        ...

    async def due_tables(self, now: float, limit: int = 100) -> list[int]:
        """Ids of open tables whose ``wake_at`` has come, earliest first."""
        ...

    async def next_wake(self) -> float | None:
        """The earliest ``wake_at`` of any table (None when no table waits for the clock)."""
        ...

    async def dm_reminders(self, user_id: int) -> bool:
        """Whether this user asked for reminders by direct message."""
        ...

    async def set_dm_reminders(self, user_id: int, on: bool) -> None:
        """Turn a user's direct-message reminders on or off."""
        ...

    async def player_language(self, user_id: int) -> tuple[str | None, str | None]:
        """A player's chosen language (None: their Discord client's) and the client locale last seen."""
        ...

    async def set_player_language(self, user_id: int, language: str | None) -> None:
        """Set (or, with None, clear) the language of a player's own panels and DMs."""
        ...

    async def note_locale(self, user_id: int, locale: str) -> None:
        """Remember the Discord client locale a player was last seen with."""
        ...

    async def guild_language(self, guild_id: int) -> str | None:
        """The language a server chose for its public messages (None: Discord's server setting)."""
        ...

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Set (or, with None, clear) a server's language."""
        ...

    async def claim_rematch(self, table_id: int, lobby_id: int, now: float) -> int:
        """Record ``lobby_id`` as the closed table's rematch lobby unless one is open; the one recorded."""
        ...

    async def rematch(self, table_id: int) -> tuple[int, bool] | None:
        """The closed table's rematch lobby and whether its former players were pinged (None: none yet)."""
        ...

    async def rematch_of(self, lobby_id: int) -> tuple[int, float] | None:
        """(the closed table, when its rematch lobby was recorded) for a rematch lobby; None otherwise."""
        ...

    async def claim_rematch_ping(self, table_id: int) -> bool:
        """True once per closed table: the caller pings its former players; False ever after."""
        ...

    async def closed_lobbies(self, host_id: int, since: float) -> list[float]:
        """When each lobby this member hosted was closed unstarted (cancelled or expired) since ``since``."""
        ...

    async def finished_games_in(self, user_id: int, guild_id: int, *, limit: int) -> list[FinishedGame]:
        """`finished_games` of one server only (what another member may see of a player's history)."""
        ...

    async def player_stats_in(self, user_id: int, guild_id: int) -> list[PlayerStats]:
        """A player's finished games per game in one server, counted from their history lines."""
        ...

    async def leave_guild_boards(self, guild_id: int, user_id: int, games: Sequence[str]) -> list[str]:
        """Take a player off this server's rating and solo boards of ``games``; the games they were on."""
        ...

    async def void_ratings(self, table_id: int, by: int, now: float) -> list[int]:
        """Undo what a finished table did to its players' ratings and boards, and mark it voided."""
        ...

    async def voided(self, table_id: int) -> tuple[int, float] | None:
        """(who voided it, when) for a game voided from the ratings; None otherwise."""
        ...

    async def integrity_check(self) -> str:
        """``ok`` when the database is healthy, else what is wrong with it."""
        ...

    async def status_counts(self) -> dict[str, int]:
        """How many tables have each status, for the metrics."""
        ...

    # --- The daily Reef (docs/DAILY.md) ---

    async def daily_claim(
        self, day: str, user_id: int, table_id: int, *, guild_id: int | None, now: float, closes_at: float
    ) -> int:
        """Claim ``day``'s game for a player with ``table_id``; the table that holds the day."""
        ...

    async def daily_entry(
        self, day: str, user_id: int
    ) -> tuple[int, int | None, int | None, float | None] | None:
        """(table, server, score, finished at) of a player's game of ``day``; None when they have none."""
        ...

    async def daily_board(
        self, day: str, *, guild_id: int | None = None, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[tuple[int, int, int, float]]]:
        """(how many finished ``day``'s game, one page of (player, score, table, finished at)), best first."""
        ...

    async def daily_place(
        self, day: str, user_id: int, score: int, finished_at: float, *, guild_id: int | None = None
    ) -> int:
        """A finished player's place on ``day``'s board (1 = best)."""
        ...

    async def daily_days(self, user_id: int, *, limit: int = 400) -> list[str]:
        """The days (newest first) a player finished the day's game in time."""
        ...

    # --- Leagues (docs/LEAGUES.md) ---

    async def league_role(self, guild_id: int) -> int | None:
        """The role whose members may organise leagues in the server (None: Manage Server only)."""
        ...

    async def set_league_role(self, guild_id: int, role_id: int | None) -> None:
        """Name the role that may organise leagues in the server (None: Manage Server only)."""
        ...

    async def create_league(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        game: str,
        seats: int,
        pace: int,
        rounds: int,
        rated: bool,
        bot_level: str,
        cap: int,
        drop_after: int,
        round_length: float,
        now: float,
    ) -> LeagueRecord:
        """A new league, open for sign-up."""
        ...

    async def get_league(self, league_id: int) -> LeagueRecord | None:
        """The league as stored (None: no such league)."""
        ...

    async def leagues_in(self, guild_id: int, *, limit: int = 25) -> list[LeagueRecord]:
        """A server's newest leagues, newest first."""
        ...

    async def open_league_ids(self) -> list[int]:
        """Every league in sign-up or running (what a start resumes)."""
        ...

    async def set_league_message(self, league_id: int, message_id: int) -> None:
        """Record the league's sign-up message."""
        ...

    async def join_league(self, league_id: int, user_id: int, name: str, now: float) -> str:
        """Sign a member up: ``joined``, or why not (``already``, ``full``, ``closed``); one transaction."""
        ...

    async def leave_league(self, league_id: int, user_id: int) -> bool:
        """Take a member off a league still in sign-up; False when they were not on it (or it started)."""
        ...

    async def league_players(self, league_id: int, game: str) -> list[LeaguePlayer]:
        """A league's players with their totals and their rating in ``game`` (unordered)."""
        ...

    async def league_tables(self, league_id: int, round_no: int | None = None) -> list[LeagueTable]:
        """A league's tables (of one round, or all), with each hosted table's status."""
        ...

    async def league_of_table(self, table_id: int) -> tuple[int, int] | None:
        """(league, round) of a league's table; None for any other table."""
        ...

    async def advance_league(
        self,
        league_id: int,
        from_round: int,
        *,
        status: str,
        deadline: float | None,
        players: Sequence[LeaguePlayer],
        tables: Sequence[LeagueTable],
        now: float,
    ) -> bool:
        """Close round ``from_round`` and pair the next, in one transaction; False when it was done."""
        ...

    async def attach_league_table(self, league_id: int, round_no: int, table_no: int, table_id: int) -> bool:
        """Record the hosted table of a round's table, unless one already is (then False)."""
        ...

    async def set_league_dropped(self, league_id: int, user_id: int, dropped: int) -> bool:
        """Drop a player from pairing (or reinstate them: 0, their misses forgotten); False if not there."""
        ...

    async def owe_league_post(self, league_id: int, not_before: float | None) -> None:
        """Record that the league owes its standings post, to be tried from ``not_before`` on
        (None: nothing is owed)."""
        ...

    async def claim_league_post(self, league_id: int, seen: float, until: float) -> bool:
        """Take the owed standings post seen due at ``seen`` for this process (the next try, should
        this one fail silently, at ``until``); False when another process took it or it was paid."""
        ...

    async def due_leagues(self, now: float) -> list[int]:
        """Leagues whose round deadline has come, or whose owed standings post is due."""
        ...

    async def next_league_deadline(self) -> float | None:
        """The earliest round deadline or owed post's retry of any league (None: none)."""
        ...

    async def league_results_of(self, user_id: int, *, limit: int = 10) -> list[LeagueResult]:
        """A player's results in leagues that are over, newest first."""
        ...

    # --- Live tables, rating history and seasons (docs/RATINGS.md) ---

    async def running_tables(
        self, guild_id: int, *, now: float, stuck_only: bool = False, offset: int = 0, limit: int = 10
    ) -> tuple[int, int, list[TableRecord]]:
        """(running tables of the server, how many of them are stuck, one page of them or of the stuck
        ones only), newest first: one call."""
        ...

    async def rating_history(self, user_id: int, *, guild_id: int | None = None) -> list[ratings.RatingPoint]:
        """A player's rating after each of their rated games (those of one server only, if given), by
        game, oldest first."""
        ...

    async def head_to_head(
        self, user_id: int, other_id: int, *, guild_id: int | None = None
    ) -> list[ratings.HeadToHead]:
        """Per game, the finished games both players held a seat at to the end (of one server only, if
        given), and who placed higher."""
        ...

    async def finished_games_page(
        self, user_id: int, *, offset: int, limit: int, guild_id: int | None = None
    ) -> list[FinishedGame]:
        """`finished_games` from the ``offset``-th newest on (one server's only, if given)."""
        ...

    async def season_settings(self, guild_id: int) -> seasons.SeasonSettings:
        """A server's season length and manual season number."""
        ...

    async def set_season(
        self, guild_id: int, length: str | None, *, new: bool = False
    ) -> seasons.SeasonSettings:
        """Set a server's season length (None: no seasons); ``new`` starts the next manual season."""
        ...

    async def seasons(self, guild_id: int) -> list[str]:
        """The seasons a server has had rated games in, oldest first."""
        ...

    async def season_board(
        self, guild_id: int, season: str, game: str, *, min_games: int = 1, offset: int = 0, limit: int = 10
    ) -> tuple[int, list[Standing]]:
        """(players on a season board, one page of it), best season rating (μ − 3σ) first."""
        ...

    async def season_standing(
        self, guild_id: int, season: str, game: str, user_id: int, *, min_games: int = 1
    ) -> Standing | None:
        """A player's place on a season board; None when they are not on it."""
        ...
