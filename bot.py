"""The game host's entry point: ``python bot.py`` runs the bot, ``python bot.py <command>`` an
operation (`cli`), ``python bot.py --offline`` the games without Discord (`offline`).

The house, as discord.py's ``examples/advanced_startup.py`` builds one:

- `config`: the settings (`Config`, `load_config`);
- `gamebot`: the bot (`GameBot`), handed its parts by `create_bot`;
- `cli`: the command-line operations;
- here: `run`, the async main that opens the store, builds the bot on it, logs in and
  connects, and closes the bot, its worker pool and the store in that order; and `main`,
  which reads the command line and says in one line why the bot cannot run.

The names of those modules that this one used to hold are imported here too, so
``from bot import Config, create_bot, load_config`` keeps working.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import discord

import cli
from cli import BAD_TOKEN, database_problem, sync_now
from config import (
    DEFAULT_DATABASE,
    DEFAULT_SHUTDOWN_GRACE,
    MISSING_TOKEN_HELP,
    OFFLINE_HELP,
    OFFLINE_MISSING,
    TOKEN_SHAPE,
    Config,
    ConfigError,
    load_config,
    offline_installed,
    parse_hours,
    parse_limit,
    parse_metrics,
    parse_seconds,
    parse_shards,
    read_dotenv,
    token_help,
)
from gamebot import (
    EXTENSIONS,
    GameBot,
    ShardedGameBot,
    create_bot,
    discord_clock,
    freeze_startup_heap,
    gateway_intents,
    one_line,
    quiet_voice,
)
from hosting import backups, logs, ops
from hosting.dblock import DatabaseInUse, DatabaseLock
from hosting.errors import SchemaTooNew
from hosting.stores import DatabaseUnavailable, open_store
from hosting.version import VERSION

__all__ = [
    "BAD_TOKEN",
    "DEFAULT_DATABASE",
    "DEFAULT_SHUTDOWN_GRACE",
    "EXTENSIONS",
    "MISSING_TOKEN_HELP",
    "OFFLINE_HELP",
    "OFFLINE_MISSING",
    "TOKEN_SHAPE",
    "Config",
    "ConfigError",
    "GameBot",
    "ShardedGameBot",
    "create_bot",
    "database_problem",
    "discord_clock",
    "freeze_startup_heap",
    "gateway_intents",
    "load_config",
    "login_with_retry",
    "main",
    "offline_installed",
    "one_line",
    "parse_hours",
    "parse_limit",
    "parse_metrics",
    "parse_seconds",
    "parse_shards",
    "quiet_voice",
    "read_dotenv",
    "run",
    "serve",
    "sync_now",
    "token_help",
]

log = logging.getLogger("seagames")

#: Gateway close codes (Discord's "Gateway Close Event Codes"): authentication failed, and those
#: a reconnect cannot mend (invalid shard, sharding required, invalid API version, invalid or
#: disallowed intents).
GATEWAY_AUTH_FAILED = 4004
GATEWAY_FATAL = frozenset({4010, 4011, 4012, 4013, 4014})

#: Login retries while Discord cannot be reached: the first wait and the longest (seconds).
LOGIN_RETRY_FIRST = 2.0
LOGIN_RETRY_MOST = 60.0


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
            if bot.is_closed() or bot.setup_began or not retryable(error):
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
    """The async main: open the store, build the bot on it, run until Ctrl-C or SIGTERM, then close
    the bot (it finishes the work under way), its worker pool and the store, in that order.

    Discord unreachable at start is waited out (`login_with_retry`); the heartbeat, the
    metrics and the scheduled backups run meanwhile or from the login on.
    """
    from hosting import metrics  # prometheus-client: ~90 ms to import, paid by the bot, not by `health`

    log.info("Sea Games bot %s starting (process %d)", VERSION, os.getpid())
    store = await open_store(config)
    try:
        bot = create_bot(config, store)
        try:
            await serve(config, bot, metrics)
        finally:
            bot.bot_pool.close()
    finally:
        await store.close()


async def serve(config: Config, bot: GameBot, metrics: Any) -> None:
    """Log ``bot`` in and keep it connected until it is closed (SIGTERM, Ctrl-C), with the
    heartbeat, the metrics and the scheduled backups beside it."""
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
    if args and args[0] in cli.COMMANDS:
        return cli.main(args)
    if args:
        print(cli.USAGE, file=sys.stderr)
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
