"""The game host itself: `GameBot`, handed what it works with, and `create_bot`, which builds those.

As discord.py's ``examples/advanced_startup.py`` does, the bot opens nothing itself: the
store is opened before it (``bot.run``, the tests' fixtures, offline mode), `create_bot`
builds the table service on it, the bot seats' worker pool and the picture pool and hands
them to `GameBot`, and whoever opened the store closes it after the bot. So every part
the cogs read (``bot.tables``, ``bot.runner``) exists from the bot's first moment on.
"""

from __future__ import annotations

import gc
import importlib
import logging
from typing import Any

import aiohttp
import discord
from discord.ext import commands

import renderers
from cogs.common import Mentions
from cogs.delivery import RefusalBudget
from cogs.host import HostBot
from cogs.language import CatalogTranslator
from cogs.runner import TableRunner
from config import Config
from hosting import ops
from hosting.botpool import BotPool
from hosting.looplag import LoopLag
from hosting.service import TableService
from hosting.stores import AnyStore, describe
from renderers.pool import PicturePool

log = logging.getLogger("seagames")

#: The bot's cogs, loaded in this order at start: the one list of them.
EXTENSIONS = (
    "cogs.lobby",
    "cogs.play",
    "cogs.rules",
    "cogs.clock",
    "cogs.players",
    "cogs.leaderboard",
    "cogs.settings",
    "cogs.daily",
    "cogs.league",
    "cogs.live",
)


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


class GameBot(HostBot):
    """The game host. It is handed its parts (`create_bot` builds them): the open store, the table
    service on it, the pool where bot seats think and the picture pool. Its table runner it makes
    itself: the runner posts through this client. It closes only what it started; the store and
    the pools are closed by whoever opened them, after the bot (``bot.run``)."""

    def __init__(
        self,
        config: Config,
        *,
        store: AnyStore,
        tables: TableService,
        bot_pool: BotPool,
        pictures: PicturePool,
        **options: Any,
    ) -> None:
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
        self.store: AnyStore = store
        self.tables: TableService = tables
        #: Where bot seats think: worker processes, started at the first decision that needs one.
        self.bot_pool: BotPool = bot_pool
        #: Where pictures are drawn (`renderers.PICTURES`, process-wide; `create_bot` starts it).
        self.pictures: PicturePool = pictures
        #: A table's life after a move, and every post it owes (`cogs.runner`).
        self.runner: TableRunner = TableRunner(
            self,
            tables,
            bot_delay=config.bot_delay,
            budget=RefusalBudget(tables.now, config.refusal_threshold),
        )
        #: The table clock's scheduler (`cogs.clock.Clock`), set when its extension loads.
        self.clock = None
        #: Whether the gateway is connected, for the health check (`ops.is_connected`).
        self.gateway = ops.GatewayWatch().attach(self)
        #: Send the slash commands at start even when they look unchanged (``python bot.py sync``).
        self.force_sync = False
        #: What the last `sync_commands` sent: (number of commands, where), or None.
        self.synced: tuple[int, str] | None = None
        #: How late the event loop wakes (`hosting.looplag`); started in `setup_hook`.
        self.loop_lag = LoopLag()
        #: Why Discord cannot be reached while the start-up retries the login (`login_with_retry`), or None.
        self.waiting_for_discord: str | None = None
        #: Whether `setup_hook` has begun: it runs once, so a login failing after it is not retried.
        self.setup_began = False

    async def setup_hook(self) -> None:
        """Load the cogs and sync the slash commands."""
        self.setup_began = True
        log.info("tables are kept in the %s", describe(self.config))
        self.loop_lag.start()
        await self.tree.set_translator(CatalogTranslator())  # slash commands in each user's language
        for extension in EXTENSIONS:
            # Each cog module's ``setup`` adds its cog and buttons, as `load_extension` would, but
            # the module is imported once per process: `load_extension` executes it afresh for
            # every bot, and tests and offline mode build hundreds of bots in one process.
            await importlib.import_module(extension).setup(self)
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
        payload = await tree_payload(self.tree, guild)  # translated once: 32 locales per string
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
        """Finish the work under way (within `Config.shutdown_grace`), then stop. What a table still
        owes is recorded, so the next start posts it. The store and the pools stay open for their
        owner to close (``bot.run``)."""
        if self.setup_began and not self.tables.closing:
            owed = await self.runner.drain(self.config.shutdown_grace)
            if owed:
                log.info("shutting down: tables %s owe their board; the next start posts it", owed)
        await super().close()
        self.runner.stop()
        self.loop_lag.stop()

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

    def __init__(self, config: Config, **parts: Any) -> None:
        super().__init__(
            config,
            shard_count=config.shard_count,
            shard_ids=None if config.shard_ids is None else list(config.shard_ids),
            **parts,
        )


async def tree_payload(
    tree: discord.app_commands.CommandTree, guild: discord.abc.Snowflake | None
) -> list[dict]:
    """The JSON `CommandTree.sync` sends for ``guild`` (None: global), in a stable order,
    with the translator's localizations as `CommandTree.sync` adds them."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is not None:
        payload = [await command.get_translated_payload(tree, translator) for command in commands]
    else:
        payload = [command.to_dict(tree) for command in commands]
    return sorted(payload, key=lambda command: (command.get("type", 1), command["name"]))


def discord_clock() -> float:
    """Now, in seconds since the epoch, from discord.py's clock (which SimCord moves in tests)."""
    return discord.utils.utcnow().timestamp()


def create_bot(config: Config, store: AnyStore, *, pictures: PicturePool | None = None) -> GameBot:
    """Build the bot on an open ``store``: its table service, the pool its bot seats think in and the
    picture pool (started now, so the first boards do not wait; process-wide, `renderers.PICTURES`,
    unless ``pictures`` is given) are made here and handed to it.

    ``bot.run`` and the tests build it the same way. With ``SHARD_COUNT`` set it is an
    `AutoShardedBot` running this process's ``SHARD_IDS``. The caller closes ``bot.bot_pool``
    and the store after the bot.
    """
    bot_pool = BotPool(workers=config.bot_workers, deadline=config.bot_deadline)
    tables = TableService(
        store,
        clock=discord_clock,
        max_lobbies=config.max_lobbies,
        max_open_tables=config.max_open_tables,
        bots=bot_pool,
    )
    pictures = renderers.PICTURES if pictures is None else pictures
    pictures.start(config.picture_cache_mb)
    kind = ShardedGameBot if config.sharded else GameBot
    return kind(config, store=store, tables=tables, bot_pool=bot_pool, pictures=pictures)


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
