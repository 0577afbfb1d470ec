"""End-to-end figures: many tables at once through the stricter SimCord, the real bot, a real SQLite file.

Run ``python -m bench.e2e [--tables 50] [--turns 4] [--envs 5] [--experts] [--rate N]``. It opens ``--tables``
tables of mixed games (two humans and a bot each; with ``--experts`` the bot is
an Expert, whose decisions run in the bot's worker processes), then plays ``--turns``
rounds of turns across all of them, interleaved, the way people would: open
the panel from the board, choose, confirm. Per kind of interaction it reports
p50, p99 and max of:

* the *handling time*: from the click until the bot has answered it and
  finished everything it started (board posts with their pictures, the bot
  seats' follow-up moves and their boards). SimCord acknowledges only what the
  bot acknowledges, so this is an upper bound on the time to acknowledge;
* for a choice that posts a new board, also the *board-posting time*: from the
  click until the new board message, picture included, reaches Discord (the
  moment SimCord stores the bot's message). This is what the player sees.

It also prints the event loop's longest stall and p99 during the run, from the
bot's own loop-lag monitor (`hosting.looplag`; target: under 10 ms, experts seated too),
and where the CPU went, by layer (`bench.layers`: engine, render, store, hosting,
cogs, discord.py, apart from SimCord's own), with the picture and bot workers' CPU
as their pools count it.

SimCord's own cost per click grows with the tables one simulated Discord holds
(its settlement looks at every pending view timer on every wait), so the tables
are spread over ``--envs`` simulated Discords, played one after another, each
with its own bot and database: the figures then show the bot, not the simulator.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

import renderers
from bench import layers
from bench.simdiscord import prune_simulator
from bench.stats import percentile
from bench.steps import LoopSteps
from bot import Config, create_bot
from hosting.stores import open_store
from simtools.strict import run_strict
from simtools.ui import PANEL_BUTTONS, awaited, controls, latest_board, prefer

TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
GAMES = ("haenyeo", "jeju", "reef")
#: p99 target for a click that posts a new board with its picture (issue #7), and for any acknowledgement.
TARGET_BOARD_P99_MS = 300.0
#: Issue #17: the same p99 with 1,000 tables playing at once.
TARGET_BOARD_P99_MS_ACTIVE = 150.0
#: Issue #17's setting: tables playing at once in one process, one simulated Discord.
ACTIVE_TABLES = 1_000
TARGET_ACK_MS = 1000.0
#: The longest the event loop may stall (expert bots seated too).
TARGET_STALL_MS = 10.0
#: Issue #17: the bot's own CPU per board-posting click.
TARGET_BOT_CPU_MS = 30.0

BOARD_POSTED = "choice → new board posted"
BOARD_SETTLED = "choice that posts a new board (all settled)"


class PostClock:
    """When each public message reached SimCord's Discord, per channel (perf_counter seconds)."""

    def __init__(self, env) -> None:
        self.posted: dict[int, list[float]] = {}
        backend = env.backend
        commit = backend.commit_message

        def timed(message, **kwargs):
            stored = commit(message, **kwargs)
            if not stored.is_ephemeral:
                self.posted.setdefault(stored.channel_id, []).append(time.perf_counter())
            return stored

        backend.commit_message = timed

    def first_after(self, channel_id: int, started: float) -> float | None:
        later = [t for t in self.posted.get(channel_id, []) if t >= started]
        return min(later) if later else None


class Pace:
    """The players' clicks, at most ``rate`` a second in all (real time); None: each at once.

    Clicking as fast as the bot answers sends Discord more than its 50 requests a second
    (each click is several), and the stricter Discord answers with 429s that discord.py
    waits out: a paced stream measures the bot at a load it may carry.
    """

    def __init__(self, rate: float | None = None) -> None:
        self.gap = 1.0 / rate if rate else 0.0
        self.due = 0.0

    async def wait(self) -> None:
        now = time.perf_counter()
        if now < self.due:
            await asyncio.sleep(self.due - now)
        self.due = max(now, self.due) + self.gap


#: The last run's pace (`measure` sets it).
PACE = Pace()
#: Tables per simulated server: Discord caps a server's active threads at 1,000.
TABLES_PER_GUILD = 500


class BotCPU:
    """The bot's own CPU seconds: its loop steps (`bench.steps`), its threads and its worker pools.

    The players click one at a time and each click is awaited until SimCord has
    settled everything it started, so the bot's CPU between a click and its
    settling is that click's (the table clock's background passes aside).
    """

    def __init__(self, bot, steps: LoopSteps, sampler: layers.LayerSampler) -> None:
        self.bot, self.steps, self.sampler = bot, steps, sampler

    def _threads(self) -> dict[int, float]:
        """CPU seconds of each thread but the loop's and the sampler's."""
        skip = {threading.main_thread().ident, self.sampler.ident}
        found = {}
        for thread in threading.enumerate():
            if thread.ident in skip or thread.ident is None:
                continue
            try:
                found[thread.ident] = time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
            except (OSError, OverflowError):  # it ended meanwhile
                continue
        return found

    def _outside_threads(self) -> float:
        return self.steps.bot_cpu + renderers.PICTURES.cpu + self.bot.bot_pool.cpu

    @contextlib.contextmanager
    def charged(self, kind: str):
        """Record the bot's CPU (ms) inside the block as one click of ``kind`` (``charge["kind"]``
        of the dict it yields: the block may name the kind once it knows it)."""
        charge = {"kind": kind}
        threads, rest = self._threads(), self._outside_threads()
        try:
            yield charge
        finally:
            # Per thread, so a thread that ends inside the block takes nothing back.
            later = self._threads()
            used = self._outside_threads() - rest
            used += sum(cpu - threads.get(ident, 0.0) for ident, cpu in later.items())
            CLICK_CPU.setdefault(charge["kind"], []).append(1000 * used)


#: The bot's CPU per click of each kind in the last run (ms; `BotCPU`).
CLICK_CPU: dict[str, list[float]] = {}
#: The running simulated Discord's bot, as `BotCPU` (`measure_one` sets it).
OWN: BotCPU | None = None


async def timed(times: dict[str, list[float]], kind: str, action):
    """Await an actor verb (after its turn in the pace) and record how long the bot took to handle it."""
    await PACE.wait()
    started = time.perf_counter()
    with OWN.charged(kind):
        result = await action
    times.setdefault(kind, []).append((time.perf_counter() - started) * 1000)
    return result


#: Requests the stricter Discord answered with 429 in the last run (discord.py's retries waited them out).
RATE_LIMITED: list[int] = []
#: The event loop's lateness in each simulated Discord of the last run (`hosting.looplag.LagFigures`).
LOOP_LAG: list = []
#: CPU seconds of the last run: sampled per layer in this process, and the worker pools' own.
CPU: dict[str, float] = {}
#: The loop's steps in each simulated Discord of the last run, the bot's apart (`bench.steps.StepFigures`).
STEPS: list = []


async def measure(
    tables: int,
    turns: int,
    experts: bool = False,
    envs: int = 1,
    rate: float | None = None,
    by_layer: bool = True,
) -> dict[str, list[float]]:
    """The tables spread over ``envs`` simulated Discords, one after another, the players clicking
    at most ``rate`` times a second (``by_layer``: the CPU sampled by layer too); milliseconds per kind."""
    global PACE
    PACE = Pace(rate)
    times: dict[str, list[float]] = {}
    CLICK_CPU.clear()
    RATE_LIMITED[:] = []
    LOOP_LAG[:] = []
    STEPS[:] = []
    CPU.clear()
    sampler = layers.LayerSampler(enabled=by_layer)
    pictures = renderers.PICTURES.cpu
    envs = max(1, min(envs, tables))
    with LoopSteps() as steps:
        for index in range(envs):
            share = tables // envs + (1 if index < tables % envs else 0)
            await measure_one(share, turns, experts, times, sampler, steps, random.Random(index + 1))
    CPU.update(sampler.seconds())
    CPU["render (picture workers)"] = renderers.PICTURES.cpu - pictures
    return times


async def measure_one(
    tables: int,
    turns: int,
    experts: bool,
    times: dict[str, list[float]],
    sampler: layers.LayerSampler,
    steps: LoopSteps,
    rng: random.Random,
) -> None:
    """One simulated Discord with its own bot and database: open the tables, play interleaved turns."""
    global OWN
    # The previous simulated Discord and its bot are garbage now: collected here, before this
    # run is timed, not by a full collection inside one of its loop steps (a bot runs alone).
    gc.collect()
    with tempfile.TemporaryDirectory() as folder:
        config = Config(token=TOKEN, database=Path(folder) / "e2e.sqlite3", bot_delay=0.0)
        store = await open_store(config)
        bot = create_bot(config, store)
        # An expert's chain of decisions can outlast SimCord's 5 s settle on a busy machine.
        async with run_strict(bot, settle_timeout=120.0) as env:  # Discord as it documents itself
            if experts:  # a bot process starts its workers once in its life: not timed per Discord
                await bot.bot_pool.start()
            bot.loop_lag.reset()  # the run, not the start-up (imports, command sync)
            steps.reset()
            sampler.start()
            OWN = BotCPU(bot, steps, sampler)
            clock = PostClock(env)
            guilds = [env.create_guild(f"Bench {k + 1}") for k in range(-(-tables // TABLES_PER_GUILD))]
            channels = [guild.create_text_channel("games") for guild in guilds]
            members = [
                guilds[i // (2 * TABLES_PER_GUILD)].add_member(env.create_user(f"player{i}"))
                for i in range(2 * tables)
            ]
            threads = []
            for n in range(tables):
                channel = channels[n // TABLES_PER_GUILD]
                host, guest = members[2 * n], members[2 * n + 1]
                result = await timed(times, "/play", host.slash(channel, "play", game=GAMES[n % 3]))
                reply = result.followups[0] if result.followups else result.response
                thread = next(t for t in channel.threads if t.id == int(reply.content.split("/")[-2]))
                lobby = thread.last_message
                await timed(times, "lobby button", guest.click(lobby, label="Join"))
                if experts:
                    table = int(lobby.embeds[0].title.rsplit("#", 1)[1])
                    level = host.select(lobby, ["expert"], custom_id=f"lobbyset:level:{table}")
                    await timed(times, "lobby menu (expert bot)", level)
                else:
                    await timed(times, "lobby button", host.click(lobby, label="Add bot"))
                await timed(times, "start (posts the first board)", host.click(lobby, label="Start"))
                threads.append((thread, {host.id: host, guest.id: guest}))
            limited = 0
            for _ in range(turns):
                for thread, people in threads:
                    await play_turn(thread, people, rng, times, clock)
                # Every click of the round has settled: SimCord forgets what Discord would keep on
                # its side, so later full collections walk the bot's heap, not the simulator's log.
                limited += len(env.backend.rate_limited)
                with steps.aside():
                    prune_simulator(env, closed_channels=set())
            sampler.stop()
        RATE_LIMITED.append(limited + len(env.backend.rate_limited))
        LOOP_LAG.append(bot.loop_lag.figures())
        STEPS.append(steps.figures())
        CPU["bots (bot workers)"] = CPU.get("bots (bot workers)", 0.0) + bot.bot_pool.cpu
        # Nothing of this Discord outlives the run: a later benchmark in the same process (`python -m
        # bench` times the store next) would otherwise pay full collections walking its heap.
        OWN = None
        bot.loop_lag.stop()
        bot.bot_pool.close()
        await store.close()


async def play_turn(thread, people, rng: random.Random, times: dict[str, list[float]], clock: PostClock):
    """One awaited player opens their panel and plays it until they confirm."""
    board = latest_board(thread)
    if board is None:
        return
    waiting = [uid for uid in awaited(board) if uid in people]
    if not waiting:
        return
    member = people[waiting[0]]
    label = next(c.label for row in board.components for c in row.children if c.label in PANEL_BUTTONS)
    opened = await timed(times, "open panel (private picture)", member.click(board, label=label))
    panel = opened.followups[0] if opened.followups else opened.response
    for _ in range(12):
        buttons, selects = controls(panel)
        if not buttons and not selects:
            break
        kind, choice = prefer(buttons, selects, rng)
        if kind == "button":
            action = member.click(panel, custom_id=choice["custom_id"])
        else:
            select, option = choice
            action = member.select(panel, [option["value"]], custom_id=select["custom_id"])
        await PACE.wait()
        started = time.perf_counter()
        with OWN.charged("choice (panel only)") as charge:
            await action
            elapsed = (time.perf_counter() - started) * 1000
            posted = clock.first_after(thread.id, started)
            if posted is not None:
                charge["kind"] = BOARD_POSTED
        if posted is None:
            times.setdefault("choice (panel only)", []).append(elapsed)
        else:
            times.setdefault(BOARD_POSTED, []).append((posted - started) * 1000)
            times.setdefault(BOARD_SETTLED, []).append(elapsed)
        if kind == "button" and choice.get("label", "").startswith("Confirm"):
            break


def summarize(times: dict[str, list[float]]) -> list[dict]:
    """n, p50, p99 and max per kind of interaction."""
    return [
        {
            "kind": kind,
            "n": len(values),
            "p50_ms": statistics.median(values),
            "p99_ms": percentile(values, 0.99),
            "max_ms": max(values),
        }
        for kind, values in times.items()
    ]


def figures(
    tables: int = 50,
    turns: int = 4,
    experts: bool = False,
    envs: int = 5,
    rate: float | None = None,
    by_layer: bool = True,
) -> dict:
    """Run the benchmark; the setting, one summary row per kind of interaction, the loop's stalls, CPU.

    ``by_layer`` False leaves out the CPU by layer (`layers.LayerSampler`, unsafe in long runs);
    the bot's own CPU per click is measured either way."""
    times = asyncio.run(measure(tables, turns, experts, envs, rate, by_layer))
    clicks = sum(len(values) for kind, values in times.items() if kind != BOARD_SETTLED)
    return {
        "tables": tables,
        "turns": turns,
        "experts": experts,
        "envs": len(LOOP_LAG),
        "rate": rate,
        "rows": summarize(times),
        "rate_limited": sum(RATE_LIMITED),
        # Per simulated Discord the monitor keeps the longest stall and a p99: the worst of each.
        "longest_stall_ms": max(lag.longest for lag in LOOP_LAG) * 1000,
        "stall_p99_ms": max(lag.p99 for lag in LOOP_LAG) * 1000,
        "loop_wakeups": sum(lag.wakeups for lag in LOOP_LAG),
        "bot_longest_step_ms": max(step.bot_longest for step in STEPS) * 1000,
        "bot_step_p99_ms": max(step.bot_p99 for step in STEPS) * 1000,
        "bot_steps": sum(step.bot_steps for step in STEPS),
        "simulator_longest_step_ms": max(step.simulator_longest for step in STEPS) * 1000,
        "bot_longest_clean_step_ms": max(step.bot_longest_without_full_collection for step in STEPS) * 1000,
        "full_collections_ms": sorted(t * 1000 for step in STEPS for t in step.full_collections),
        "longest_bot_steps": sorted((s for step in STEPS for s in step.longest), reverse=True)[:8],
        "cpu": dict(CPU) if by_layer else {},
        "clicks": clicks,
        "board_clicks": len(times.get(BOARD_POSTED, [])),
        "click_cpu": [
            {**row, "mean_ms": statistics.fmean(CLICK_CPU[row["kind"]])} for row in summarize(CLICK_CPU)
        ],
        # The loop thread's CPU seconds: in the bot's steps, the simulator's, and asyncio's in between.
        "loop_thread_cpu": {
            "the bot's steps": sum(step.bot_cpu for step in STEPS),
            "the simulator's steps": sum(step.simulator_cpu for step in STEPS),
            "asyncio between steps": sum(step.loop_cpu for step in STEPS),
        },
    }


def bot_cpu_ms(found: dict) -> float | None:
    """The bot's own CPU per board-posting click, measured click by click (mean ms; None: none)."""
    row = next((row for row in found.get("click_cpu", []) if row["kind"] == BOARD_POSTED), None)
    return row["mean_ms"] if row else None


def report(found: dict) -> list[str]:
    """The figures as printed lines."""
    bots = "an expert bot" if found.get("experts") else "a normal bot"
    lines = [
        f"{found['tables']} tables ({', '.join(GAMES)} in turn; two players and {bots} each), "
        f"{found['turns']} turns each, over {found.get('envs', 1)} simulated Discords played one after "
        "another (one process, a bot and a SQLite WAL file each), on the stricter Discord (simtools.strict)"
        + (f"; the players click {found['rate']:g} times a second in all" if found.get("rate") else ""),
        f"requests Discord answered with 429 (discord.py waited and retried): {found.get('rate_limited', 0)}",
    ]
    for row in found["rows"]:
        lines.append(
            f"{row['kind']:44} n={row['n']:5}  p50 {row['p50_ms']:6.1f} ms  "
            f"p99 {row['p99_ms']:6.1f} ms  max {row['max_ms']:6.1f} ms"
        )
    if "longest_stall_ms" in found:
        lines.append(
            f"event loop: longest stall {found['longest_stall_ms']:.1f} ms, "
            f"p99 {found['stall_p99_ms']:.1f} ms over {found['loop_wakeups']} wake-ups "
            "(the loop-lag monitor: whatever held the loop, SimCord's Discord and the players included)"
        )
    if "bot_longest_step_ms" in found:
        lines.append(
            f"the bot's own loop steps: longest {found['bot_longest_step_ms']:.1f} ms, "
            f"p99 {found['bot_step_p99_ms']:.2f} ms over {found['bot_steps']} steps "
            f"(target: under {TARGET_STALL_MS:.0f} ms); SimCord's and the players' longest step "
            f"{found['simulator_longest_step_ms']:.1f} ms (bench.steps)"
        )
        full = found["full_collections_ms"]
        lines.append(
            f"    without a full collection of the cyclic garbage collector in it: longest "
            f"{found['bot_longest_clean_step_ms']:.1f} ms; full collections: {len(full)}"
            + (f", longest {full[-1]:.1f} ms, median {statistics.median(full):.1f} ms" if full else "")
            + " (they walk everything the process holds, SimCord's Discord included)"
        )
        lines += [f"    {took * 1000:7.1f} ms  {what}" for took, what in found["longest_bot_steps"]]
    if found.get("cpu"):
        lines += layers.report(found["cpu"], found["clicks"])
        loop = found["loop_thread_cpu"]
        lines.append(
            "the event loop's thread: "
            + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in loop.items())
            + " (bench.steps: each step's own CPU clock)"
        )
    if found.get("click_cpu"):
        lines.append(
            "the bot's own CPU per click, from the click until everything it started settled "
            "(its loop steps, its threads, its picture and bot workers):"
        )
        for row in found["click_cpu"]:
            lines.append(
                f"  {row['kind']:42} n={row['n']:5}  mean {row['mean_ms']:5.1f} ms  "
                f"p50 {row['p50_ms']:5.1f} ms  p99 {row['p99_ms']:5.1f} ms"
            )
        own = bot_cpu_ms(found)
        if own is not None:
            lines.append(
                f"the bot's own CPU per board-posting click: mean {own:.1f} ms "
                f"(target: ≤ {TARGET_BOT_CPU_MS:.0f} ms)"
            )
    return lines


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--turns", type=int, default=4)
    parser.add_argument("--envs", type=int, default=5, help="simulated Discords the tables are spread over")
    parser.add_argument("--experts", action="store_true", help="seat an expert bot at every table")
    parser.add_argument("--rate", type=float, help="clicks a second in all (default: each when answered)")
    parser.add_argument("--no-layers", action="store_true", help="no CPU by layer (its sampler is unsafe)")
    args = parser.parse_args()
    found = figures(args.tables, args.turns, args.experts, args.envs, args.rate, not args.no_layers)
    print("\n".join(report(found)))
