"""Play the real bot without Discord: ``python bot.py --offline``.

The unchanged bot (`gamebot.create_bot`) runs against SimCord's simulated Discord:
one server with a ``#games`` channel and four local players. SimCord's preview
serves that channel as a page on loopback (127.0.0.1 only), where one person
runs ``/play``, switches between the players and clicks the real buttons,
selects and panels. Tables live in a real SQLite file (``var/offline.sqlite3``
by default, never the online bot's database), so they survive a restart.

Two things differ from a real server, both from the simulation, not the bot:

- The preview shows one channel, so the bot is not allowed to open threads
  there; it then plays each table in the channel itself (its own fallback for
  channels without thread permission).
- The simulated channel's messages live in memory. The server, channel and
  players get the same ids on every run, so stored tables still belong to them;
  on start every open table gets a fresh lobby or board message.

The simulation's clock starts at a fixed instant (that is what keeps the ids
the same); once the server is built it is moved to the real time and kept
there (`keep_clock_true`), so message times and deadlines (``<t:…:R>``) read
as they would on Discord.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import webbrowser
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord

from cogs.common import table_channel_id
from config import Config
from gamebot import GameBot, create_bot
from hosting.errors import SchemaTooNew
from hosting.records import ACTIVE, LOBBY
from hosting.stores import open_store

log = logging.getLogger("seagames.offline")

DEFAULT_OFFLINE_DATABASE = Path("var") / "offline.sqlite3"
#: Never sent anywhere: the simulated Discord accepts any token.
#: Offline, nobody else waits on the bots: a decision may take this long before the cheap one plays.
OFFLINE_BOT_DEADLINE = 120.0
PLACEHOLDER_TOKEN = "offline-placeholder-token"
#: Fixed, so tables stored by an earlier run still belong to this server.
GUILD_ID = 1_300_000_000_000_000_001
GUILD_NAME = "Sea Games (offline)"
CHANNEL_NAME = "games"
PLAYERS = ("Alice", "Bob", "Carol", "Dan")
#: The bot's name on the page (SimCord names its bot user "TestBot").
BOT_NAME = "Sea Games"
INSTALL_HINT = (
    "Offline mode needs SimCord's preview: pip install -e '.[offline]' "
    '(or pip install "simcord[preview]==3.2.*").'
)


class OfflineUnavailable(Exception):
    """The preview's packages are missing; the message says what to install."""


@dataclass
class OfflineWorld:
    """The running offline session: the simulation, its server, and the page."""

    env: Any  # simcord.Env
    bot: GameBot
    guild: Any
    channel: Any
    players: list[Any]
    preview: Any
    background: Background

    @property
    def url(self) -> str:
        """The page's address (it carries the session's secret; loopback only)."""
        return self.preview.url


def _simcord():
    # SimCord says what its preview lacks only through a private check (pinned: simcord==3.2.*;
    # tests/app/test_library_privates.py fails by name if a release moves it), as with `_pages` and
    # `_markdown` below; each is read only, and offline mode is never run in production.
    try:
        import simcord
        from simcord.preview import _require_preview_runtime

        _require_preview_runtime()
    except Exception as error:  # ImportError, or SimCord's own SetupError naming the module
        raise OfflineUnavailable(f"{INSTALL_HINT}\n({error})") from error
    return simcord


def offline_config(database: Path = DEFAULT_OFFLINE_DATABASE, bot_delay: float = 1.5) -> Config:
    """The bot's configuration offline: a real SQLite file and a placeholder token.

    ``resume_at_start`` is off: bot moves and the clock start only once the
    page's channel exists again and its boards are posted (`_build_server`).
    """
    return Config(
        token=PLACEHOLDER_TOKEN,
        database=Path(database),
        bot_delay=bot_delay,
        resume_at_start=False,
        bot_deadline=OFFLINE_BOT_DEADLINE,
    )


class Background:
    """Table work a click starts (bot moves, boards) runs here, outside the click.

    SimCord settles a click only when all the bot work it started is done, so a
    person's confirm waited for every bot move after it (1.5 s apart) and a
    long chain ran past the 30 s limit. `Play.spawn` hands its coroutine to
    this runner, which starts it from its own task: work SimCord does not count
    as the click's, so the click comes back at once and the bots play on.
    """

    def __init__(self) -> None:
        self.alive: set[asyncio.Task] = set()
        self.finished = 0  # background tasks done so far
        self._queue: asyncio.Queue = asyncio.Queue()

    def install(self, play: Any) -> None:
        start = play.spawn  # keeps the runner's bookkeeping and failure logging

        def spawn(coroutine) -> None:
            self._queue.put_nowait((start, coroutine))

        play.spawn = spawn

    async def run(self) -> None:
        """The runner's side: a task outside the bot's work, so what it starts is not the click's."""
        while True:
            start, coroutine = await self._queue.get()
            start(coroutine)
            task = next(iter(t for t in asyncio.all_tasks() if t.get_coro() is coroutine), None)
            if task is not None:
                self.alive.add(task)
                task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self.alive.discard(task)
        self.finished += 1

    async def idle(self) -> None:
        """Wait until no background work is queued or running (tests)."""
        while self.alive or not self._queue.empty():
            await asyncio.sleep(0.05)


#: How often the runner looks whether the page should be published again (seconds).
PUBLISH_EVERY = 0.25


def keep_clock_true(env: Any) -> float:
    """Move the simulation's clock up to the real time (never back); the seconds it moved.

    SimCord's clock starts at a fixed instant and moves only as the bot's timers
    fire, so every message read "1/1/26, 12:00 AM" while the bot's deadlines,
    taken from the real clock, lay months ahead. The bot's own times are real
    (its clock is ``time.time``): the page's follow them. Called once the
    server's ids are made (they come from the clock) and then as the page runs.
    """
    behind = (datetime.now(UTC) - env.now()).total_seconds()
    if behind <= 0:
        return 0.0
    env.backend.advance_clock(behind)  # SimCord's public backend: the clock every message reads
    return behind


async def keep_page_current(env: Any, preview: Any, work: Background) -> None:
    """Publish the page again after background work posted, or when an action left it stale.

    The page shows what was published at the end of an action; bot moves made
    in the background post later. And after a failed or timed-out action
    SimCord marks the page stale and refuses its controls until it is published
    again (that is what wedged the page: every later click "was not completed").
    So when background work has posted and the bot's requests have stopped
    changing, or a page is stale, and no action runs, `preview.refresh()`
    republishes every page.
    """
    from simcord import SetupError

    published = changed = len(env.http_requests)
    seen = work.finished
    while True:
        await asyncio.sleep(PUBLISH_EVERY)
        keep_clock_true(env)
        count = len(env.http_requests)
        # SimCord 3.2 keeps each open page's status on `Preview._pages`; read only.
        pages = list(getattr(preview, "_pages", {}).values())
        stale = any(getattr(page, "status", "current") == "stale" for page in pages)
        if count != changed:
            changed = count  # the bot is still posting: look again next time
            continue
        background = bool(work.alive) or work.finished != seen
        if not stale and not (background and count != published):
            continue
        finished = work.finished
        try:
            await preview.refresh()
        except SetupError:
            continue  # an action is running; it publishes the page itself
        except TimeoutError:
            log.warning("the page could not be refreshed: the bot did not settle", exc_info=True)
            continue
        except Exception:
            log.exception("the page could not be refreshed")
            continue
        published, seen = count, finished


@contextlib.asynccontextmanager
async def offline_world(
    database: Path = DEFAULT_OFFLINE_DATABASE, *, port: int = 0, bot_delay: float = 1.5
) -> AsyncIterator[OfflineWorld]:
    """Run the real bot in a simulated server and serve its games channel on loopback."""
    simcord = _simcord()
    from cogs import common

    config = offline_config(database, bot_delay)
    store = await open_store(config)
    bot = create_bot(config, store)
    runner: list[asyncio.Task] = []
    try:
        with mentions_in_embeds():
            async with simcord.run(bot, check_errors=False, settle_timeout=30.0) as env:
                work = Background()
                runner.append(asyncio.ensure_future(work.run()))
                if bot_delay > 0:  # without pauses (tests), each click settles with its own bot moves
                    work.install(bot.runner)
                env.backend.edit_bot_profile(BOT_NAME)  # SimCord's bot user is "TestBot"
                await env.settle()
                channel, players = await _build_server(env, bot)
                async with env.preview(channel, viewers=players, layout="channel", port=port) as preview:
                    common.LINK_BASE = preview.url  # links in messages open this page, not discord.com
                    runner.append(asyncio.ensure_future(keep_page_current(env, preview, work)))
                    # Only now, with the channel and its boards back: bots play, the clock runs.
                    await bot.runner.resume_bots()
                    bot.clock.start()
                    await env.settle()
                    await preview.refresh()
                    yield OfflineWorld(env, bot, channel.guild, channel, players, preview, work)
    finally:
        common.LINK_BASE = None
        for task in runner:
            task.cancel()
        # The simulation detaches the bot without closing it; what it was handed is closed here.
        bot.bot_pool.close()
        await store.close()


@contextlib.contextmanager
def mentions_in_embeds():
    """Show ``<@id>`` in an embed's text as the member's name, as Discord does.

    SimCord 3.2's preview renders mentions in message text only, so the lobby's
    seat list read as raw ids on the page. The bot's messages are unchanged.
    """
    try:
        from simcord.preview import _markdown

        policies = _markdown._FIELD_POLICIES
        saved = {field: policies[field]["mentions"] for field in ("embed_description", "embed_field_value")}
    except (ImportError, AttributeError, KeyError):  # another SimCord: leave its rendering alone
        yield
        return
    try:
        for field in saved:
            policies[field]["mentions"] = True
        yield
    finally:
        for field, value in saved.items():
            policies[field]["mentions"] = value


async def _build_server(env: Any, bot: GameBot) -> tuple[Any, list[Any]]:
    """The simulated server: its #games channel and the local players, open tables reposted."""
    # Built in the same order on every run, so the ids are the same on every run
    # (SimCord's clock and id allocator start from the same instant).
    guild = env.create_guild(GUILD_NAME, id=GUILD_ID)
    players = [guild.add_member(env.create_user(name.lower(), global_name=name)) for name in PLAYERS]
    channel = guild.create_text_channel(
        CHANNEL_NAME,
        topic="Run /play to open a table. Switch players with the viewer menu.",
        # The page shows this one channel, so tables play here, not in threads.
        overwrites={
            bot.user: discord.PermissionOverwrite(create_public_threads=False, create_private_threads=False)
        },
    )
    await env.settle()
    keep_clock_true(env)  # the ids are made: from here on the page tells the real time
    await reopen_tables(env, bot, channel.id)
    return channel, players


async def reopen_tables(env: Any, bot: GameBot, channel_id: int) -> int:
    """Post a fresh lobby or board for every open table stored for this channel.

    The simulated channel starts empty on each run; the tables (seats, moves,
    state) are in SQLite. Returns how many tables were reopened.
    """
    from cogs.common import NO_PINGS
    from cogs.lobby import lobby_embed, lobby_view

    store, service = bot.store, bot.tables
    channel = bot.get_channel(channel_id)
    reopened = 0
    for status in (LOBBY, ACTIVE):
        for table_id in await store.table_ids(status):
            table = await service.get(table_id)
            if table_channel_id(table) != channel_id:
                log.warning(
                    "table %s belongs to channel %s, not this one; skipped", table.id, table.channel_id
                )
                continue
            if status == LOBBY:
                message = await channel.send(
                    embed=lobby_embed(table), view=lobby_view(table), allowed_mentions=NO_PINGS
                )
                await service.attach(table.id, lobby_message_id=message.id)
            else:
                # Only the board: bots owing a move play once every table is back (`offline_world`).
                await bot.runner.post_board(
                    table, [{"type": "resume", "text": "The table is back after a restart."}]
                )
            reopened += 1
    await env.settle()
    return reopened


def _graphical_session() -> bool:
    """Whether opening a browser shows a window (and never a text browser taking over the terminal)."""
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


async def serve(database: Path, *, port: int = 0, open_browser: bool = True) -> None:
    """Run until the page's "End preview session", Ctrl-C or SIGTERM."""
    async with offline_world(database, port=port) as world:
        print(f"Sea Games offline: open {world.url}", flush=True)
        print(
            f"Players: {', '.join(PLAYERS)} (switch on the page). Tables are saved in {database}. "
            "Ctrl-C stops.",
            flush=True,
        )
        if open_browser and _graphical_session():
            with contextlib.suppress(Exception):
                webbrowser.open(world.url)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        closed = asyncio.ensure_future(world.preview.wait_closed())
        stopped = asyncio.ensure_future(stop.wait())
        try:
            await asyncio.wait({closed, stopped}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            closed.cancel()
            stopped.cancel()


def main(argv: list[str] | None = None) -> int:
    """``python bot.py --offline [--database PATH] [--port N] [--no-browser]``."""
    parser = argparse.ArgumentParser(
        prog="python bot.py --offline", description="Play the bot in a local page, without Discord."
    )
    parser.add_argument("--database", type=Path, default=DEFAULT_OFFLINE_DATABASE, help="the SQLite file")
    parser.add_argument("--port", type=int, default=0, help="loopback port for the page (default: any free)")
    parser.add_argument("--no-browser", action="store_true", help="only print the page's address")
    parser.add_argument("--log-level", default="WARNING", choices=("DEBUG", "INFO", "WARNING", "ERROR"))
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(serve(args.database, port=args.port, open_browser=not args.no_browser))
    except (OfflineUnavailable, SchemaTooNew) as error:
        print(error, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
