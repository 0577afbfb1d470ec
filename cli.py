"""``python bot.py <command>``: the operations an admin runs from the command line.

- ``invite-url``: the OAuth2 URL that adds the bot with exactly the permissions it needs.
- ``check``: configuration, database, data files and fonts, without connecting to Discord.
- ``sync``: send the slash commands to Discord now, even when they look unchanged.
- ``backup PATH``: a consistent copy of the database, safe while the bot runs.
- ``health [--ready]``: exit 0 while the running bot's heartbeat file is fresh (the container
  health check); with ``--ready``, only while it is also connected to Discord.
- ``copy-to-postgres``: every table of the SQLite file into an empty PostgreSQL database.
- ``restore FILE``: put a backup in place of the SQLite database (the bot stopped).
- ``status``: the running bot's figures once (`hosting.metrics`), or what the database says.

Each returns the process exit status: 0 when all is well, 2 with a message on stderr when
not. ``bot.main`` dispatches here. The work itself is in `hosting.ops` (and `hosting.backups`,
`hosting.metrics`); this module adds what needs discord.py, the renderers or the bot.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path
from typing import Any, TextIO

import discord

import engine
from config import Config, ConfigError, load_config
from gamebot import create_bot
from hosting import backups, ops
from hosting.dblock import DatabaseInUse
from hosting.errors import SchemaTooNew
from hosting.ops import OpsError
from hosting.stores import DatabaseUnavailable, open_store
from renderers import common

COMMANDS = ("invite-url", "check", "sync", "backup", "health", "copy-to-postgres", "restore", "status")

USAGE = """\
usage: python bot.py [command]
  (no command)   run the bot
  invite-url     print the URL that adds the bot to a server
  check          check configuration, database and data files (no network)
  sync           send the slash commands to Discord now (the bot does it at start
                 only when they changed)
  backup PATH    copy the database to PATH, safely while the bot runs
  restore FILE   put the backup FILE in place of the database (stop the bot first)
  health         exit 0 while the bot runs (container health check); prints whether it is
                 connected to Discord. health --ready: exit 0 only while connected
  status         the running bot's figures (tables, moves, latency...) once
  copy-to-postgres  copy the SQLite tables (DATABASE_PATH) into the empty PostgreSQL
                    database at DATABASE_URL; stop the bot first
  --version      print the bot's version"""

#: The bot's permissions, one per row of the README's table.
PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    create_public_threads=True,
    create_private_threads=True,  # the daily Reef: each player's game in a private thread
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)
SCOPES = ("bot", "applications.commands")

#: The one thing said when Discord refuses the token (status 401): nothing else is wrong.
BAD_TOKEN = (
    "Discord refused DISCORD_TOKEN: the token is wrong, or it was reset. Copy the bot's current token "
    "(Developer Portal -> your application -> Bot -> Reset Token) into DISCORD_TOKEN."
)


# ----------------------------------------------------------------- invite-url


def invite_url(application_id: int) -> str:
    """The OAuth2 URL adding the bot with its permissions and slash commands."""
    return discord.utils.oauth_url(application_id, permissions=PERMISSIONS, scopes=SCOPES)


# ---------------------------------------------------------------------- check


def data_report() -> list[tuple[bool, str]]:
    """(good, what) for every game's data files and every font."""
    found: list[tuple[bool, str]] = []
    for key in engine.GAME_PACKAGES:
        try:
            game = engine.get(key)
        except Exception as error:  # a data file that fails validation, or a broken package
            found.append((False, f"game {key}: its data does not load: {error}"))
        else:
            found.append((True, f"game {key}: {game.title}, data loaded"))
    for kind, name in common.FONT_FILES.items():
        try:
            common.font(kind, 12)
        except OSError as error:
            found.append((False, f"font {kind}: {common.FONT_DIR / name} does not load: {error}"))
        else:
            found.append((True, f"font {kind}: {name}"))
    return found


def check(config: Any, out: TextIO) -> int:
    """Print one line per check (`hosting.ops.check`, then the game data and the fonts); 0 when
    everything is good, 2 otherwise."""
    return ops.check(config, out, data_report())


# ----------------------------------------------------------------------- sync


def database_problem(config: Config) -> str | None:
    """Why the configured SQLite file cannot work (made and opened for real), or None.

    Run before logging in to Discord, so a wrong ``DATABASE_PATH`` is said plainly
    at once. PostgreSQL (``DATABASE_URL``) is checked when the store connects.
    """
    return None if config.database_url else ops.database_path_problem(config.database, create=True)


async def sync_now(config: Config) -> str:
    """Log in over HTTP (no gateway), send the slash commands whatever was synced before, say what.

    Raises `OpsError` with a message for the admin when it cannot.
    """
    problem = database_problem(config)
    if problem:
        raise OpsError(problem)
    try:
        store = await open_store(config)
    except (SchemaTooNew, DatabaseUnavailable) as error:
        raise OpsError(str(error)) from error
    bot = create_bot(config, store)
    bot.force_sync = True
    try:
        async with bot:
            await bot.login(config.token)  # runs setup_hook, which syncs
    except discord.LoginFailure as error:
        raise OpsError(BAD_TOKEN) from error
    except discord.HTTPException as error:
        raise OpsError(f"Discord refused the commands: {error}") from error
    finally:
        bot.bot_pool.close()
        await store.close()
    count, where = bot.synced or (0, "nowhere")
    later = "" if config.dev_guild_id else "; Discord may take a while to show them everywhere"
    return f"Synced {count} slash commands {where}{later}."


# ------------------------------------------------------------------- dispatch


def main(args: list[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run the command ``args[0]`` (one of `COMMANDS`) with its arguments; the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    command, rest = args[0], args[1:]
    want_ready = command == "health" and rest == ["--ready"]
    expected = 1 if command in ("backup", "restore") else 0
    if len(rest) != expected and not want_ready:
        print(USAGE, file=err)
        return 2
    try:
        config = load_config(require_token=command in ("check", "sync"))
        if command == "invite-url":
            app_id = config.application_id or ops.application_id_from_token(config.token)
            if not app_id:
                raise OpsError(
                    "The invite URL needs the application id: set DISCORD_APPLICATION_ID (the number on "
                    "the application's General Information page) or DISCORD_TOKEN."
                )
            print(invite_url(app_id), file=out)
            return 0
        if command == "check":
            return check(config, out)
        if command == "sync":
            print(asyncio.run(sync_now(config)), file=out)
            return 0
        if command == "backup":
            if getattr(config, "database_url", None):
                raise OpsError(ops.PG_BACKUP_HELP)
            tables = ops.backup(Path(config.database), Path(rest[0]))
            print(f"Backed up {config.database} to {rest[0]} ({tables} tables).", file=out)
            return 0
        if command == "copy-to-postgres":
            return ops.copy_to_postgres(config, out)
        if command == "restore":
            if getattr(config, "database_url", None):
                raise OpsError(ops.PG_BACKUP_HELP)
            print(backups.restore(Path(rest[0]), Path(config.database)), file=out)
            return 0
        if command == "status":
            from hosting import metrics  # prometheus-client: ~90 ms to import, not paid by `health`

            return metrics.status(config, out)
        good, line = ops.health(config.health_file, ready=want_ready)
        print(line, file=out if good else err)
        return 0 if good else 2
    except (ConfigError, OpsError, sqlite3.Error, DatabaseInUse) as error:
        print(f"{command}: {error}" if command != "check" else f"FAIL {error}", file=err)
        return 2
