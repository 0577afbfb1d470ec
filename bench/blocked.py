"""Refused requests when one permission change blocks many tables at once (issue #34).

Run ``python -m bench.blocked [--tables 1000] [--hosts 50]``. One server, one
``#games`` channel, ``--tables`` slow tables (24 hours a move, two people each)
open on the stricter SimCord with the real bot. Then a moderator takes
*Send Messages in Threads* away from the bot on the channel; a simulated day
passes (every reminder and deadline falls due); the permission comes back. It
prints, for each phase, the requests Discord refused (401/403/429, counted by the
simulated Discord), the tables paused and resumed, the DMs sent to hosts, and
the boards posted, so the figures can be checked against the issue's targets:
at most 2 refused requests per table in 10 minutes and 6 in a day, and the whole
process far below Discord's 10,000 in 10 minutes.

The stricter Discord's real-time global rate limit (50 requests a second) is
left on: the resumed boards queue behind it. discord.py reads Discord's rate-limit
headers and waits before a 429; SimCord sends none, so here those waits show up as
429s, printed apart from the refusals the blocked tables caused.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from bot import Config, create_bot
from hosting.records import ACTIVE
from hosting.stores import open_store
from simtools.strict import remove_permission, restore_permission, run_strict

TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
DAY = 24 * 3600


def refused(env, since: int = 0, *, status: int | None = None) -> int:
    """Refused requests recorded by the simulated Discord since index ``since``."""
    return sum(1 for r in env.backend.refusals[since:] if status is None or r.status == status)


async def run(tables: int, hosts: int) -> list[str]:
    """Open the tables, block them all with one change, let a day pass, unblock them; the figures."""
    lines: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        config = Config(
            token=TOKEN,
            database=Path(folder) / "blocked.sqlite3",
            bot_delay=0.0,
            max_open_tables=tables,
            max_lobbies=tables,
        )
        store = await open_store(config)
        bot = create_bot(config, store)
        async with run_strict(bot, settle_timeout=600.0) as env:
            env.backend.refusal_budget = None  # measured here, not enforced
            env.backend.max_active_threads = tables + 10
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("games")
            people = [guild.add_member(env.create_user(f"host{i}")) for i in range(hosts)]
            guest = guild.add_member(env.create_user("guest"))
            started = time.perf_counter()
            for n in range(tables):
                host = people[n % hosts]
                result = await host.slash(channel, "play", game="jeju", pace=DAY)
                reply = result.followups[0] if result.followups else result.response
                thread = next(t for t in channel.threads if t.id == int(reply.content.split("/")[-2]))
                lobby = thread.last_message
                await guest.click(lobby, label="Join")
                await host.click(lobby, label="Start")
            running = len(await bot.tables.store.table_ids(ACTIVE))
            lines.append(f"{running} tables running ({time.perf_counter() - started:.0f} s to open them)")

            mark, dms = len(env.backend.refusals), _dms(env)
            started = time.perf_counter()
            await remove_permission(env, channel, "send_messages_in_threads")
            took = time.perf_counter() - started
            blocked = [t for t in await _tables(bot) if t.blocked]
            lines.append(
                f"one permission change: {len(blocked)} tables paused in {took:.1f} s, "
                f"{_dms(env) - dms} DMs to hosts, {refused(env, mark, status=403)} refused with 403, "
                f"{refused(env, mark, status=429)} answered 429 by the simulated global rate limit"
            )

            mark = len(env.backend.refusals)
            for _ in range(6 * 24):  # a day, looked at every 10 minutes
                await env.advance_time(600)
            still = [t for t in await _tables(bot) if t.blocked]
            lines.append(
                f"a day later: {len(still)} tables still paused, {refused(env, mark)} refused requests "
                "in that day, 0 moves made for anyone"
                if all(t.moves == 0 for t in still)
                else "a day later: a paused table moved (a bug)"
            )

            mark, posts = len(env.backend.refusals), _posts(env)
            started = time.perf_counter()
            await restore_permission(env, channel, "send_messages_in_threads")
            resumed = [t for t in await _tables(bot) if not t.blocked and t.paused_at is None]
            lines.append(
                f"the permission back: {len(resumed)} tables running again in "
                f"{time.perf_counter() - started:.1f} s, {_posts(env) - posts} boards posted, "
                f"{refused(env, mark, status=403)} refused with 403, "
                f"{refused(env, mark, status=429)} answered 429 by the simulated global rate limit"
            )
        await store.close()
    return lines


async def _tables(bot) -> list:
    return [await bot.tables.get(table_id) for table_id in await bot.tables.store.table_ids(ACTIVE)]


def _dms(env) -> int:
    return sum(len(env.backend.messages.get(c, {})) for c in env.backend.dm_channels.values())


def _posts(env) -> int:
    """Messages the bot posted with its token (not interaction answers)."""
    return sum(1 for r in env.http_requests if r.method == "POST" and r.path.startswith("/channels/"))


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--hosts", type=int, default=50)
    options = parser.parse_args()
    for line in asyncio.run(run(options.tables, options.hosts)):
        print(line)


if __name__ == "__main__":
    main()
