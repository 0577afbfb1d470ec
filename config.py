"""The bot's configuration: `Config`, read from the environment and a ``.env`` file by `load_config`.

Every setting an admin can make is here, checked at load, so a wrong one is said plainly
before anything starts (`ConfigError`). ``bot`` re-exports these names.
"""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass
from pathlib import Path

import engine
from cogs.delivery import DEFAULT_THRESHOLD as DEFAULT_REFUSAL_THRESHOLD
from hosting import logs
from hosting.botpool import DEFAULT_DEADLINE
from hosting.service import MAX_LOBBIES_PER_HOST, MAX_OPEN_TABLES_PER_HOST
from hosting.stores import is_postgres_url
from renderers.memo import DEFAULT_BUDGET_MB as DEFAULT_PICTURE_CACHE_MB

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
