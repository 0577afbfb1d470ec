"""The game host's entry point: configuration, the bot, and startup.

``create_bot(config)`` builds the bot with its dependencies handed in, so the
tests and ``main()`` build it the same way. Run ``python bot.py``.
"""

from __future__ import annotations

import asyncio
import gc
import ipaddress
import logging
import os
import random
import re
import signal
import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord.ext import commands

import engine
import renderers
from cogs.common import Mentions
from cogs.delivery import DEFAULT_THRESHOLD as DEFAULT_REFUSAL_THRESHOLD
from cogs.delivery import RefusalBudget
from cogs.language import CatalogTranslator
from cogs.runner import TableRunner
from hosting import backups, logs, ops
from hosting.botpool import DEFAULT_DEADLINE, BotPool
from hosting.dblock import DatabaseInUse, DatabaseLock
from hosting.errors import SchemaTooNew
from hosting.looplag import LoopLag
from hosting.service import MAX_LOBBIES_PER_HOST, MAX_OPEN_TABLES_PER_HOST, TableService
from hosting.stores import AnyStore, DatabaseUnavailable, describe, is_postgres_url, open_store
from hosting.version import VERSION
from renderers.memo import DEFAULT_BUDGET_MB as DEFAULT_PICTURE_CACHE_MB

log = logging.getLogger("seagames")

EXTENSIONS = (
    "cogs.lobby",
    "cogs.play",
    "cogs.rules",
    "cogs.clock",
    "cogs.players",
    "cogs.leaderboard",
    "cogs.settings",
    "cogs.live",
)
DEFAULT_DATABASE = Path("var") / "seagames.sqlite3"
#: Seconds a shutdown waits for the work under way: inside Docker's 10 s before it kills the process.
DEFAULT_SHUTDOWN_GRACE = 8.0
# Three base64url parts separated by dots; Discord's token shape.
TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")

MISSING_TOKEN_HELP = """\
The bot needs a Discord bot token and none was found{detail}.
Set DISCORD_TOKEN in the environment or in a .env file next to bot.py, for example:
    DISCORD_TOKEN=your-token-here
Get a token at https://discord.com/developers/applications: create an application,
open its Bot page and press "Reset Token". The README explains the whole set-up.
{offline}"""

OFFLINE_HELP = "To try the games first without Discord, run: python bot.py --offline"
OFFLINE_MISSING = (
    "Offline mode (python bot.py --offline) is not installed here: it needs the offline extra, "
    "pip install -e '.[offline]', in a checkout of the code. The container image leaves it out "
    "to stay small; run it on your own machine instead."
)

#: The one thing said when Discord refuses the token (status 401): nothing else is wrong.
BAD_TOKEN = (
    "Discord refused DISCORD_TOKEN: the token is wrong, or it was reset. Copy the bot's current token "
    "(Developer Portal -> your application -> Bot -> Reset Token) into DISCORD_TOKEN."
)

#: Gateway close codes (Discord's "Gateway Close Event Codes"): authentication failed, and those
#: a reconnect cannot mend (invalid shard, sharding required, invalid API version, invalid or
#: disallowed intents).
GATEWAY_AUTH_FAILED = 4004
GATEWAY_FATAL = frozenset({4010, 4011, 4012, 4013, 4014})

#: Login retries while Discord cannot be reached: the first wait and the longest (seconds).
LOGIN_RETRY_FIRST = 2.0
LOGIN_RETRY_MOST = 60.0


def offline_installed() -> bool:
    """Whether offline mode can run here: offline.py beside this file and SimCord installed
    (neither is in the container image)."""
    import importlib.util

    beside = Path(__file__).with_name("offline.py").is_file()
    return beside and importlib.util.find_spec("simcord") is not None


def token_help(detail: str = "") -> str:
    """The no-token help, with the offline line that works where the bot runs."""
    return MISSING_TOKEN_HELP.format(
        detail=detail, offline=OFFLINE_HELP if offline_installed() else OFFLINE_MISSING
    )


class ConfigError(Exception):
    """The configuration cannot work; the message says what to set."""


@dataclass(frozen=True)
class Config:
    """Everything the bot is configured with."""

    token: str = ""
    database: Path = DEFAULT_DATABASE
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    log_format: str = "plain"  # or "json": one JSON object per line (hosting/logs.py)
    application_id: int | None = None  # for the invite URL; None derives it from the token
    health_file: Path | None = None  # touched while connected, for `bot.py health`
    games: tuple[str, ...] | None = None  # the games /play and /rules offer; None: every game
    bot_delay: float = 1.5  # seconds a bot seat waits before its move, so people can follow
    resume_at_start: bool = True  # on_ready resumes bot moves and the clock; offline.py does it itself
    database_url: str | None = None  # postgresql://...: PostgreSQL instead of the SQLite file
    shard_count: int | None = None  # shards across every process; None: not sharded
    shard_ids: tuple[int, ...] | None = None  # this process's shards; None: all of them
    max_lobbies: int = MAX_LOBBIES_PER_HOST  # open lobbies one member may host at once
    max_open_tables: int = MAX_OPEN_TABLES_PER_HOST  # open tables (lobbies and games) one member may host
    bot_deadline: float = DEFAULT_DEADLINE  # seconds a bot's decision may take before greedy plays instead
    bot_workers: int | None = None  # processes for bot decisions; None: one per CPU
    picture_cache_mb: int = DEFAULT_PICTURE_CACHE_MB  # MB of drawn parts each picture process keeps
    #: Seconds a shutdown (SIGTERM, Ctrl-C) waits for moves, bot chains and posts under way (Docker: 10 s).
    shutdown_grace: float = DEFAULT_SHUTDOWN_GRACE
    #: Refused Discord requests (401/403/429) in 10 minutes at which optional posts stop (cogs.delivery).
    refusal_threshold: int = DEFAULT_REFUSAL_THRESHOLD
    metrics_port: int | None = None  # METRICS_PORT: serve Prometheus' /metrics there; None: off
    metrics_address: str = "127.0.0.1"  # METRICS_ADDRESS: where the endpoint listens
    backup_hours: float = 24.0  # BACKUP_HOURS between scheduled SQLite backups; 0: none
    backup_keep: int = 7  # BACKUP_KEEP: scheduled backups kept (the oldest go)
    backup_dir: Path | None = None  # BACKUP_DIR; None: "backups" beside the database

    @property
    def backup_folder(self) -> Path:
        """Where scheduled backups go: ``BACKUP_DIR``, or ``backups`` beside the database."""
        return self.backup_dir if self.backup_dir is not None else Path(self.database).parent / "backups"

    @property
    def sharded(self) -> bool:
        """True when the bot runs as an `AutoShardedBot` (``SHARD_COUNT`` is set)."""
        return self.shard_count is not None

    @property
    def syncs_commands(self) -> bool:
        """True for the one process that syncs slash commands at start: the one running shard 0.

        The commands belong to the application, not to a shard, so one process
        sending them is enough; every other process leaves them alone.
        """
        return self.shard_ids is None or 0 in self.shard_ids


def read_dotenv(path: Path) -> dict[str, str]:
    """Read KEY=VALUE lines from a .env file (comments and blank lines skipped)."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        values[key.strip().removeprefix("export ").strip()] = value.strip().strip("'\"")
    return values


def parse_limit(name: str, text: str, default: int) -> int:
    """A per-member limit such as ``MAX_LOBBIES``: a whole number, 1 or more; ``default`` when unset."""
    text = text.strip()
    if not text:
        return default
    if not text.isdigit() or int(text) < 1:
        raise ConfigError(f"{name} must be a whole number, 1 or more, not {text!r}.")
    return int(text)


def parse_shards(count_text: str, ids_text: str) -> tuple[int | None, tuple[int, ...] | None]:
    """``SHARD_COUNT`` and ``SHARD_IDS`` as (count, this process's ids); (None, None) when unset.

    ``SHARD_IDS`` is comma-separated shard numbers or ranges (``0,1`` or ``0-3``).
    Raises `ConfigError` for anything else.
    """
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise ConfigError(
                "SHARD_IDS needs SHARD_COUNT: the number of shards across all processes, "
                "e.g. SHARD_COUNT=4 with SHARD_IDS=0,1 here and SHARD_IDS=2,3 on the other process."
            )
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError(f"SHARD_COUNT must be a whole number of shards, 1 or more, not {count_text!r}.")
    count = int(count_text)
    if not ids_text:
        return count, None  # every shard in this process
    ids: list[int] = []
    for part in (p.strip() for p in ids_text.split(",")):
        first, dash, last = part.partition("-")
        if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
            ids = []
            break
        ids.extend(range(int(first), int(last) + 1) if dash else [int(first)])
    if not ids or len(set(ids)) != len(ids) or any(i >= count for i in ids):
        raise ConfigError(
            f"SHARD_IDS must list this process's shards, each once, from 0 to {count - 1} "
            f"(SHARD_COUNT={count}), e.g. SHARD_IDS=0,1 or SHARD_IDS=0-1; not {ids_text!r}."
        )
    return count, tuple(ids)


def load_config(
    environ: dict[str, str] | None = None, dotenv: Path | None = Path(".env"), *, require_token: bool = True
) -> Config:
    """Configuration from the environment, falling back to a .env file.

    Raises `ConfigError` with a message for the admin when something is missing or malformed.
    """
    values = read_dotenv(dotenv) if dotenv else {}
    values.update(os.environ if environ is None else environ)
    token = values.get("DISCORD_TOKEN", "").strip()
    if not token and require_token:
        raise ConfigError(token_help())
    if token and not TOKEN_SHAPE.match(token):
        raise ConfigError(token_help(" (DISCORD_TOKEN is set, but it is not a bot token)"))
    guild = values.get("DEV_GUILD_ID", "").strip()
    if guild and not guild.isdigit():
        raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), not {guild!r}.")
    level = values.get("LOG_LEVEL", "INFO").strip().upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise ConfigError(f"LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}.")
    log_format = values.get("LOG_FORMAT", "plain").strip().lower()
    if log_format not in logs.FORMATS:
        raise ConfigError(f"LOG_FORMAT must be plain or json, not {log_format!r}.")
    app_id = values.get("DISCORD_APPLICATION_ID", "").strip()
    if app_id and not app_id.isdigit():
        raise ConfigError(
            f"DISCORD_APPLICATION_ID must be the application's id (digits only), not {app_id!r}."
        )
    health_file = values.get("HEALTH_FILE", "").strip()
    games = tuple(key.strip().lower() for key in values.get("GAMES", "").split(",") if key.strip())
    unknown = [key for key in games if key not in engine.GAME_PACKAGES]
    if unknown:
        raise ConfigError(f"GAMES names unknown games {unknown}; known: {', '.join(engine.GAME_PACKAGES)}.")
    database_url = values.get("DATABASE_URL", "").strip()
    if database_url and not is_postgres_url(database_url):
        raise ConfigError(
            "DATABASE_URL must be a PostgreSQL URL such as postgresql://user:password@host:5432/seagames. "
            "For the SQLite file, leave DATABASE_URL empty and set DATABASE_PATH."
        )
    shard_count, shard_ids = parse_shards(values.get("SHARD_COUNT", ""), values.get("SHARD_IDS", ""))
    max_lobbies = parse_limit("MAX_LOBBIES", values.get("MAX_LOBBIES", ""), MAX_LOBBIES_PER_HOST)
    max_open_tables = parse_limit(
        "MAX_OPEN_TABLES", values.get("MAX_OPEN_TABLES", ""), MAX_OPEN_TABLES_PER_HOST
    )
    bot_deadline = parse_seconds("BOT_DEADLINE", values.get("BOT_DEADLINE", ""), DEFAULT_DEADLINE)
    workers = values.get("BOT_WORKERS", "").strip()
    bot_workers = parse_limit("BOT_WORKERS", workers, 1) if workers else None
    picture_cache_mb = parse_limit(
        "PICTURE_CACHE_MB", values.get("PICTURE_CACHE_MB", ""), DEFAULT_PICTURE_CACHE_MB
    )
    shutdown_grace = parse_seconds("SHUTDOWN_GRACE", values.get("SHUTDOWN_GRACE", ""), DEFAULT_SHUTDOWN_GRACE)
    refusal_threshold = parse_limit(
        "REFUSAL_THRESHOLD", values.get("REFUSAL_THRESHOLD", ""), DEFAULT_REFUSAL_THRESHOLD
    )
    metrics_port, metrics_address = parse_metrics(
        values.get("METRICS_PORT", ""), values.get("METRICS_ADDRESS", "")
    )
    backup_hours = parse_hours("BACKUP_HOURS", values.get("BACKUP_HOURS", ""), 24.0)
    backup_keep = parse_limit("BACKUP_KEEP", values.get("BACKUP_KEEP", ""), 7)
    backup_dir = values.get("BACKUP_DIR", "").strip()
    return Config(
        token=token,
        database=Path(values.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE),
        dev_guild_id=int(guild) if guild else None,
        log_level=level,
        log_format=log_format,
        application_id=int(app_id) if app_id else None,
        health_file=Path(health_file) if health_file else None,
        games=games or None,
        database_url=database_url or None,
        shard_count=shard_count,
        shard_ids=shard_ids,
        max_lobbies=max_lobbies,
        max_open_tables=max_open_tables,
        bot_deadline=bot_deadline,
        bot_workers=bot_workers,
        picture_cache_mb=picture_cache_mb,
        refusal_threshold=refusal_threshold,
        shutdown_grace=shutdown_grace,
        metrics_port=metrics_port,
        metrics_address=metrics_address,
        backup_hours=backup_hours,
        backup_keep=backup_keep,
        backup_dir=Path(backup_dir) if backup_dir else None,
    )


def parse_metrics(port_text: str, address_text: str) -> tuple[int | None, str]:
    """``METRICS_PORT`` (1-65535; unset: no endpoint) and ``METRICS_ADDRESS`` (an IP address or
    ``localhost``; unset: 127.0.0.1, so nothing outside the machine reads the figures)."""
    port_text, address = port_text.strip(), address_text.strip() or "127.0.0.1"
    if address != "localhost":
        try:
            ipaddress.ip_address(address)
        except ValueError:
            raise ConfigError(
                f"METRICS_ADDRESS must be an IP address to listen on, such as 127.0.0.1 (this machine "
                f"only) or 0.0.0.0 (every interface, e.g. in a container), not {address!r}."
            ) from None
    if not port_text:
        return None, address
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ConfigError(
            f"METRICS_PORT must be a port number from 1 to 65535, such as 9464, not {port_text!r}."
        )
    return int(port_text), address


def parse_hours(name: str, text: str, default: float) -> float:
    """A number of hours such as ``BACKUP_HOURS``: 0 (off) or more, up to a year; ``default`` when unset."""
    text = text.strip()
    if not text:
        return default
    try:
        hours = float(text)
    except ValueError:
        hours = -1.0
    if not 0 <= hours <= 24 * 366:
        raise ConfigError(f"{name} must be a number of hours (such as 24, or 0 for none), not {text!r}.")
    return hours


def parse_seconds(name: str, text: str, default: float) -> float:
    """A duration such as ``BOT_DEADLINE``: seconds, 0 or more (``2.5``); ``default`` when unset."""
    text = text.strip()
    if not text:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < 3600:
        raise ConfigError(f"{name} must be a number of seconds (such as 4 or 2.5), not {text!r}.")
    return seconds


def gateway_intents() -> discord.Intents:
    """The gateway events the bot subscribes to: ``guilds`` alone (docs/HOSTING.md, "Intents").

    Everything players do arrives as interactions (slash commands, buttons,
    selects), which need no intent. ``guilds`` keeps the cache of servers,
    channels and threads the bot posts in (``get_channel``, ``get_guild``) and
    brings their create, update and delete events (threads and channels
    removed, the bot removed from a server). No privileged intent: no member
    list, no presences, no message content.
    """
    return discord.Intents(guilds=True)


_heap_frozen = False


def freeze_startup_heap() -> None:
    """Keep what start-up loaded (modules, the games' data, catalogs, fonts) out of the cyclic
    collector's sight, once per process.

    It lives as long as the process, yet every full collection would walk all of it again:
    100-150 ms during which every table waits (bench.e2e measured it as the loop's longest
    stall). Collected first, so no garbage is frozen; once, so a process that starts several
    bots (the tests) never freezes a later bot's garbage.
    """
    global _heap_frozen
    if not _heap_frozen:
        _heap_frozen = True
        gc.collect()
        gc.freeze()


class GameBot(commands.Bot):
    """The game host: the database and the table service are its dependencies."""

    def __init__(self, config: Config, **options: Any) -> None:
        quiet_voice()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=gateway_intents(),
            allowed_mentions=Mentions.none(),  # ids as strings, as Discord documents (cogs.common)
            help_command=None,
            # discord.py's caches, bounded on purpose (docs/HOSTING.md, "Memory over months"):
            max_messages=None,  # no message cache: the bot never reads one (clicks carry their message)
            member_cache_flags=discord.MemberCacheFlags.none(),  # no member cache (no members intent)
            chunk_guilds_at_startup=False,  # never download member lists
            **options,
        )
        self.config = config
        self.store: AnyStore | None = None
        self.tables: TableService | None = None
        #: A table's life after a move, and every post it owes (`cogs.runner`); built in `setup_hook`.
        self.runner: TableRunner | None = None
        #: The table clock's scheduler (`cogs.clock.Clock`), set when its extension loads.
        self.clock: Any = None
        #: Whether the gateway is connected, for the health check (`ops.is_connected`).
        self.gateway = ops.GatewayWatch().attach(self)
        #: Send the slash commands at start even when they look unchanged (``python bot.py sync``).
        self.force_sync = False
        #: What the last `sync_commands` sent: (number of commands, where), or None.
        self.synced: tuple[int, str] | None = None
        #: Where bot seats think: worker processes, started at the first decision that needs one.
        self.bot_pool = BotPool(workers=config.bot_workers, deadline=config.bot_deadline)
        #: How late the event loop wakes (`hosting.looplag`); started in `setup_hook`.
        self.loop_lag = LoopLag()
        #: Why Discord cannot be reached while the start-up retries the login (`login_with_retry`), or None.
        self.waiting_for_discord: str | None = None

    async def setup_hook(self) -> None:
        """Open the database, load the cogs and sync the slash commands."""
        self.store = await open_store(self.config)
        log.info("tables are kept in the %s", describe(self.config))
        self.tables = TableService(
            self.store,
            clock=discord_clock,
            max_lobbies=self.config.max_lobbies,
            max_open_tables=self.config.max_open_tables,
            bots=self.bot_pool,
        )
        self.runner = TableRunner(
            self,
            self.tables,
            bot_delay=self.config.bot_delay,
            budget=RefusalBudget(self.tables.now, self.config.refusal_threshold),
        )
        self.loop_lag.start()
        # The picture workers start now, not at the first board.
        renderers.PICTURES.start(self.config.picture_cache_mb)
        await self.tree.set_translator(CatalogTranslator())  # slash commands in each user's language
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        try:
            await self.sync_commands(force=self.force_sync)
        except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
            if self.force_sync:  # `bot.py sync` says why it failed
                raise
            # Discord went away between the login and the sync: the commands Discord has still work,
            # and nothing was recorded, so the next start sends them.
            log.warning("slash commands not synced (%s); the next start tries again", one_line(error))
        freeze_startup_heap()

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Send the slash commands to Discord if they changed since the last sync (or ``force``).

        The tree's JSON is hashed (`ops.tree_digest`) and compared with the hash
        recorded after the last sync, in a file beside the database
        (`ops.SyncRecord`); when it matches, one read of the commands Discord has
        confirms they are still there (a wiped application, or SimCord's fresh
        simulated Discord in offline mode, gets them again). So an ordinary
        restart sends nothing and spends none of Discord's daily command-update
        limit. Only the process running shard 0 syncs at start
        (`Config.syncs_commands`). With ``DEV_GUILD_ID`` the commands go to that
        one server. Returns True when they were sent.
        """
        guild = discord.Object(self.config.dev_guild_id) if self.config.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        where = "globally" if guild is None else f"to server {guild.id} (DEV_GUILD_ID)"
        if not force and not self.config.syncs_commands:
            log.info("slash commands: left to the process that runs shard 0")
            return False
        record = ops.SyncRecord(ops.sync_record_path(self.config.database))
        key = ops.sync_key(self.application_id, None if guild is None else guild.id)
        payload = await ops.tree_payload(self.tree, guild)  # translated once: 32 locales per string
        digest = ops.tree_digest(payload)
        if (
            not force
            and record.get(key) == digest
            and await self._registered(guild) == ops.command_names(payload)
        ):
            log.info("slash commands unchanged since the last sync %s; not sent again", where)
            return False
        synced = await self.tree.sync(guild=guild)
        self.synced = (len(synced), where)
        log.info("synced %d slash commands %s", len(synced), where)
        try:
            record.put(key, digest)
        except OSError as error:
            log.warning("could not record the sync in %s (%s); next start syncs again", record.path, error)
        return True

    async def _registered(self, guild: discord.abc.Snowflake | None) -> set[tuple[str, int]] | None:
        """(name, type) of each command Discord has for the bot (in ``guild``); None when it cannot say."""
        try:
            found = await self.tree.fetch_commands(guild=guild)
        except discord.HTTPException:
            return None
        return {(command.name, command.type.value) for command in found}

    async def close(self) -> None:
        """Finish the work under way (within `Config.shutdown_grace`), stop, then close the workers
        and the database. What a table still owes is recorded, so the next start posts it."""
        if self.runner is not None and not self.runner.service.closing:
            owed = await self.runner.drain(self.config.shutdown_grace)
            if owed:
                log.info("shutting down: tables %s owe their board; the next start posts it", owed)
        await super().close()
        if self.runner is not None:
            self.runner.stop()
        self.bot_pool.close()
        self.loop_lag.stop()
        if self.store is not None:
            await self.store.close()
            self.store = None

    async def on_ready(self) -> None:
        """Log where the bot is."""
        if self.shard_count is not None and isinstance(self, commands.AutoShardedBot):
            shards = ", ".join(str(shard) for shard in sorted(self.shards))
            log.info(
                "logged in as %s in %d servers (shards %s of %d)",
                self.user,
                len(self.guilds),
                shards,
                self.shard_count,
            )
        else:
            log.info("logged in as %s in %d servers", self.user, len(self.guilds))


class ShardedGameBot(GameBot, commands.AutoShardedBot):
    """The game host as several shards (``SHARD_COUNT``), this process running ``SHARD_IDS``.

    Other processes run the other shards; they share the tables through PostgreSQL.
    """

    def __init__(self, config: Config) -> None:
        super().__init__(
            config,
            shard_count=config.shard_count,
            shard_ids=None if config.shard_ids is None else list(config.shard_ids),
        )


def discord_clock() -> float:
    """Now, in seconds since the epoch, from discord.py's clock (which SimCord moves in tests)."""
    return discord.utils.utcnow().timestamp()


def create_bot(config: Config) -> GameBot:
    """Build the bot for a configuration (tests pass one with a temporary database).

    With ``SHARD_COUNT`` set it is an `AutoShardedBot` running this process's ``SHARD_IDS``.
    """
    return ShardedGameBot(config) if config.sharded else GameBot(config)


def quiet_voice() -> None:
    """No voice warnings at start: the bot never joins a voice channel, so discord.py need not
    say that PyNaCl and davey (voice encryption) are missing. Its `VoiceClient` warns once per
    process while these flags are set; clearing them is the switch discord.py reads."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def one_line(error: BaseException) -> str:
    """An error as one short line (its type and message), for a log line without a traceback."""
    text = " ".join(str(error).split()) or "no details"
    return f"{type(error).__name__}: {text}"[:300]


class OneLineReconnects(logging.Filter):
    """discord.py logs each gateway reconnect with a full traceback; a dropped connection is
    ordinary weather, so the line keeps the error's type and message and drops the traceback
    (one line per record in plain and JSON logs alike). Other records pass unchanged."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Fold a reconnect record's exception into its message."""
        if record.exc_info and str(record.msg).startswith(("Attempting a reconnect", "Failed to connect")):
            error = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({one_line(error) if error else 'no details'})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"  # retried: not an error yet
        return True


def quiet_reconnects() -> None:
    """Install `OneLineReconnects` on discord.py's client and shard loggers (once)."""
    for name in ("discord.client", "discord.shard"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, OneLineReconnects) for f in logger.filters):
            logger.addFilter(OneLineReconnects())


def retryable(error: BaseException) -> bool:
    """Whether a login failure may mend by itself: no network, DNS, a timeout, Discord's own
    server errors (5xx) or a rate limit. An invalid token (401), a refused request (4xx) or a
    bug are not."""
    if isinstance(error, discord.LoginFailure):
        return False
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429
    return isinstance(error, OSError | aiohttp.ClientError | asyncio.TimeoutError | discord.GatewayNotFound)


async def login_with_retry(
    bot: GameBot, token: str, *, first: float = LOGIN_RETRY_FIRST, most: float = LOGIN_RETRY_MOST
) -> bool:
    """Log in, retrying with back-off while Discord cannot be reached; one log line per try.

    True once logged in (``setup_hook`` has run); False when the bot was closed meanwhile
    (SIGTERM). Raises `discord.LoginFailure` for a refused token and anything a retry
    cannot mend. While it waits, ``bot.waiting_for_discord`` says why, for the heartbeat
    (`ops.readiness`: alive, not ready).
    """
    attempt, since = 0, time.strftime("%H:%M:%S", time.gmtime())
    while not bot.is_closed():
        attempt += 1
        try:
            await bot.login(token)
        except Exception as error:
            # Only a failure before setup_hook began is retried: setup_hook runs once.
            if bot.is_closed() or bot.store is not None or not retryable(error):
                if bot.is_closed():
                    return False
                raise
            delay = min(most, first * 2 ** (attempt - 1)) * random.uniform(0.8, 1.0)
            bot.waiting_for_discord = (
                f"cannot reach Discord since {since} UTC ({attempt} tries; last: {one_line(error)}); retrying"
            )
            log.warning(
                "cannot reach Discord (%s); trying again in %.0f s (attempt %d)",
                one_line(error),
                delay,
                attempt,
            )
            # The failed login's HTTP session is closed before the next try opens another;
            # its connector goes with it, so discord.py is told to make a new one.
            await bot.http.close()
            bot.http.connector = discord.utils.MISSING
            deadline = time.monotonic() + delay
            while not bot.is_closed() and time.monotonic() < deadline:
                await asyncio.sleep(min(0.5, deadline - time.monotonic()))
        else:
            if attempt > 1:
                log.info("reached Discord after %d tries", attempt)
            bot.waiting_for_discord = None
            return True
    return False


async def connect_with_retry(
    bot: GameBot, *, first: float = LOGIN_RETRY_FIRST, most: float = LOGIN_RETRY_MOST
) -> None:
    """Open the gateway connection and keep it (discord.py reconnects it once it has been up).

    discord.py 2.7 cannot retry a first connection that failed: its retry reads the
    connection it never made (``self.ws.sequence``) and raises AttributeError
    (Rapptz/discord.py#10520), so a gateway unreachable at start is retried here, with
    back-off and one log line a try, until the first connection opens.
    """
    attempt, since = 0, time.strftime("%H:%M:%S", time.gmtime())
    while not bot.is_closed():
        try:
            await bot.connect(reconnect=True)
            return
        except Exception as error:
            first_connection = getattr(bot, "ws", None) is None
            cause = error.__context__ if isinstance(error, AttributeError) else error
            if bot.is_closed() or not first_connection or cause is None or not retryable(cause):
                if bot.is_closed():
                    return
                raise
            attempt += 1
            delay = min(most, first * 2 ** (attempt - 1)) * random.uniform(0.8, 1.0)
            last = one_line(cause)
            bot.waiting_for_discord = (
                f"cannot reach Discord's gateway since {since} UTC ({attempt} tries; last: {last}); retrying"
            )
            log.warning(
                "cannot reach Discord's gateway (%s); trying again in %.0f s (attempt %d)",
                one_line(cause),
                delay,
                attempt,
            )
            deadline = time.monotonic() + delay
            while not bot.is_closed() and time.monotonic() < deadline:
                await asyncio.sleep(min(0.5, deadline - time.monotonic()))
    bot.waiting_for_discord = None


async def run(config: Config) -> None:
    """Run until Ctrl-C or SIGTERM, then shut down cleanly.

    Discord unreachable at start is waited out (`login_with_retry`); the heartbeat, the
    metrics and the scheduled backups run meanwhile or from the login on.
    """
    from hosting import metrics  # prometheus-client: ~90 ms to import, paid by the bot, not by `health`

    log.info("Sea Games bot %s starting (process %d)", VERSION, os.getpid())
    bot = create_bot(config)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    if config.health_file is not None:
        beat = asyncio.create_task(ops.heartbeat(bot, config.health_file))
        beat.add_done_callback(lambda _: config.health_file.unlink(missing_ok=True))
    monitor = metrics.Monitor(bot, database=None if config.database_url else Path(config.database))
    schedule = None
    if config.backup_hours and not config.database_url and str(config.database) != ":memory:":
        schedule = backups.BackupSchedule(
            Path(config.database), config.backup_folder, hours=config.backup_hours, keep=config.backup_keep
        )
    async with bot:
        if not await login_with_retry(bot, config.token):
            return
        monitor.start()
        if schedule is not None:
            schedule.start()
        try:
            await connect_with_retry(bot)
        finally:
            await monitor.stop()
            if schedule is not None:
                await schedule.stop()


def database_problem(config: Config) -> str | None:
    """Why the configured SQLite file cannot work (made and opened for real), or None.

    Run before logging in to Discord, so a wrong ``DATABASE_PATH`` is said plainly
    at once. PostgreSQL (``DATABASE_URL``) is checked when the store connects.
    """
    return None if config.database_url else ops.database_path_problem(config.database, create=True)


async def sync_now(config: Config) -> str:
    """Log in over HTTP (no gateway), send the slash commands whatever was synced before, say what.

    Raises `ops.OpsError` with a message for the admin when it cannot.
    """
    problem = database_problem(config)
    if problem:
        raise ops.OpsError(problem)
    bot = create_bot(config)
    bot.force_sync = True
    try:
        async with bot:
            await bot.login(config.token)  # runs setup_hook, which syncs
    except discord.LoginFailure as error:
        raise ops.OpsError(BAD_TOKEN) from error
    except discord.HTTPException as error:
        raise ops.OpsError(f"Discord refused the commands: {error}") from error
    except (SchemaTooNew, DatabaseUnavailable) as error:
        raise ops.OpsError(str(error)) from error
    count, where = bot.synced or (0, "nowhere")
    later = "" if config.dev_guild_id else "; Discord may take a while to show them everywhere"
    return f"Synced {count} slash commands {where}{later}."


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit status.

    0: stopped as asked (SIGTERM, Ctrl-C). 2: a setting or a file that a restart cannot mend
    (said in one line: a process manager should not restart it). 1: an unexpected error.
    """
    args = sys.argv[1:] if argv is None else list(argv)
    if args[:1] in (["--version"], ["version"]):
        print(f"seagames-bot {VERSION}")
        return 0
    if "--offline" in args:  # a simulated server in a local page, never a real one (offline.py)
        if not offline_installed():
            print(OFFLINE_MISSING, file=sys.stderr)
            return 2
        import offline

        return offline.main([arg for arg in args if arg != "--offline"])
    if args and args[0] in ops.COMMANDS:
        return ops.main(args, load_config, ConfigError, sync=lambda config: asyncio.run(sync_now(config)))
    if args:
        print(ops.USAGE, file=sys.stderr)
        return 2
    try:
        config = load_config()
    except ConfigError as error:
        print(error, file=sys.stderr)
        return 2
    logs.setup(config.log_level, config.log_format)
    quiet_reconnects()
    # Everything a restart cannot mend is found before logging in to Discord, in the words of `check`.
    problems = ops.startup_problems(config)
    for problem in problems:
        log.error("%s", problem)
    if problems:
        return 2
    note = ops.upgrade_note(ops.database_version(config))
    if note:
        log.warning("%s", note)
    lock = None
    server = None
    try:
        if not config.database_url and str(config.database) != ":memory:":
            lock = DatabaseLock(Path(config.database)).acquire()
        if config.metrics_port is not None:
            from hosting import metrics

            try:
                server = metrics.serve(config.metrics_port, config.metrics_address)
            except OSError as error:
                log.error(
                    "METRICS_PORT is %s, but the bot cannot listen on %s:%s (%s); choose another port",
                    config.metrics_port,
                    config.metrics_address,
                    config.metrics_port,
                    error.strerror or error,
                )
                return 2
            log.info("metrics at http://%s:%s/metrics", config.metrics_address, config.metrics_port)
        asyncio.run(run(config))
    except DatabaseInUse as error:
        log.error("%s", error)
        return 2
    except discord.LoginFailure:
        log.error("%s", BAD_TOKEN)
        return 2
    except discord.PrivilegedIntentsRequired as error:
        log.error("%s", one_line(error))
        return 2
    except discord.ConnectionClosed as error:
        if error.code == GATEWAY_AUTH_FAILED:  # the gateway's own word for a refused token
            log.error("%s", BAD_TOKEN)
            return 2
        if error.code in GATEWAY_FATAL:  # a setting (shards, intents) a restart cannot mend
            log.error("Discord's gateway closed the connection for good: %s", one_line(error))
            return 2
        log.exception("the bot stopped on an unexpected error")
        return 1
    except (SchemaTooNew, DatabaseUnavailable) as error:
        log.error("%s", error)
        return 2
    except sqlite3.Error as error:  # the file changed under us between the check above and opening it
        log.error("DATABASE_PATH is %s, but SQLite cannot use it: %s", config.database, error)
        return 2
    except KeyboardInterrupt:
        return 0
    except Exception:
        log.exception("the bot stopped on an unexpected error")
        return 1
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
        if lock is not None:
            lock.release()
    return 0


if __name__ == "__main__":
    sys.exit(main())
