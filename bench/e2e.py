"""End-to-end figures: many tables at once through SimCord, the real bot, a real SQLite file.

Run ``python -m bench.e2e [--tables 50] [--turns 6]``. It opens ``--tables``
tables of mixed games (two humans and a bot each), then plays ``--turns``
rounds of turns across all of them, interleaved, the way people would: open
the panel from the board, choose, confirm. It prints the handling time of each
kind of interaction (p50, p99, max): the time from the click until the bot has
answered it and finished what it started (board posts with their pictures,
bot moves). SimCord acknowledges only what the bot acknowledges, so a handling
time is an upper bound on the time to acknowledge.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from simcord import run

from bot import Config, create_bot
from tests.play_helpers import PANEL_BUTTONS, awaited, controls, latest_board, prefer

TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
GAMES = ("haenyeo", "jeju", "reef")


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of the sorted values lie."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def timed(times: dict[str, list[float]], kind: str, action):
    """Await an actor verb and record how long the bot took to handle it."""
    started = time.perf_counter()
    result = await action
    times.setdefault(kind, []).append((time.perf_counter() - started) * 1000)
    return result


async def main(tables: int, turns: int) -> None:
    """Open the tables, play interleaved turns, print the figures."""
    rng = random.Random(1)
    times: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(Config(token=TOKEN, database=Path(folder) / "e2e.sqlite3", bot_delay=0.0))
        async with run(bot) as env:
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("games")
            members = [guild.add_member(env.create_user(f"player{i}")) for i in range(2 * tables)]
            threads = []
            for n in range(tables):
                host, guest = members[2 * n], members[2 * n + 1]
                result = await timed(times, "/play", host.slash(channel, "play", game=GAMES[n % 3]))
                reply = result.followups[0] if result.followups else result.response
                thread = next(t for t in channel.threads if t.id == int(reply.content.split("/")[-2]))
                lobby = thread.last_message
                await timed(times, "lobby button", guest.click(lobby, label="Join"))
                await timed(times, "lobby button", host.click(lobby, label="Add bot"))
                await timed(times, "start (posts the first board)", host.click(lobby, label="Start"))
                threads.append((thread, {host.id: host, guest.id: guest}))
            for _ in range(turns):
                for thread, people in threads:
                    board = latest_board(thread)
                    if board is None:
                        continue
                    waiting = [uid for uid in awaited(board) if uid in people]
                    if not waiting:
                        continue
                    member = people[waiting[0]]
                    label = next(
                        c.label for row in board.components for c in row.children if c.label in PANEL_BUTTONS
                    )
                    opened = await timed(
                        times, "open panel (private picture)", member.click(board, label=label)
                    )
                    panel = opened.followups[0] if opened.followups else opened.response
                    for _ in range(12):
                        buttons, selects = controls(panel)
                        if not buttons and not selects:
                            break
                        kind, choice = prefer(buttons, selects, rng)
                        before = latest_board(thread).id
                        if kind == "button":
                            action = member.click(panel, custom_id=choice["custom_id"])
                        else:
                            select, option = choice
                            action = member.select(panel, [option["value"]], custom_id=select["custom_id"])
                        started = time.perf_counter()
                        await action
                        elapsed = (time.perf_counter() - started) * 1000
                        posted = latest_board(thread).id != before
                        key = "choice that posts a new board" if posted else "choice (panel only)"
                        times.setdefault(key, []).append(elapsed)
                        if kind == "button" and choice.get("label", "").startswith("Confirm"):
                            break
    print(f"{tables} tables ({', '.join(GAMES)} in turn), {turns} turns each, one process, SQLite WAL")
    for kind, values in times.items():
        print(
            f"{kind:32} n={len(values):5}  p50 {statistics.median(values):6.1f} ms  "
            f"p99 {percentile(values, 0.99):6.1f} ms  max {max(values):6.1f} ms"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--turns", type=int, default=6)
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.turns))
