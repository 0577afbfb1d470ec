"""A long soak: weeks of a busy community in one process; memory and latency must stay flat.

Run ``python -m bench.soak`` (the full run: 10,000 boards, hours on two shared cores;
399 boards took 9 minutes at a load of 10) or ``python -m bench.soak --quick`` (250 boards:
a few minutes on a quiet machine; a check that it runs, not a figure); ``--progress`` prints
each sample as it is taken. The real bot runs against the stricter SimCord
(`simtools.strict.run_strict`) on a real SQLite file, with real pictures. Every
simulated day:

* new tables open in ``#games``, the game in turn (Haenyeo, Jeju Island, Reef &
  Ruins), each of one kind: *live* (the host and a bot; the host plays a few turns
  a day through the board and the private panel, then leaves and the bot plays to
  the end: finished), *ended* (played a day, then ``/game end``: the table is
  closed without a result), *paced* (the host and a guest at one hour per move;
  nobody moves, the clock moves for them, hands the seats to bots after three
  deadlines, and the bots finish the game) and *expiring* (a lobby nobody
  starts, cancelled a day later);
* time moves on a day in steps (`env.advance_time`), so deadlines, reminders,
  time-outs and lobby expiries happen as they would.

`tracemalloc` traces the whole run (one frame), so every window pays its cost
alike; ``--no-trace`` runs without it (the tracer slows every click two- to
threefold and adds to the latency's noise), and then the bot's memory is the
process's resident memory. Every ``--every`` boards it samples, after a garbage collection: the
process's resident memory (``/proc/self/statm``), the memory `tracemalloc` finds
held, split into the bot's (everything but the simulated Discord) and SimCord's
own (allocated in ``simcord/`` or ``simtools/``), the click-to-board times of the
window (a panel choice until the new board of that table reaches Discord, as in
`bench.e2e`), the event loop's longest stall in the bot's own steps (the longest
single callback or task step of the bot, `bench.steps`: SimCord's and the soak's
own steps apart, and the soak's sampling and clean-up left out) and what ran in
it, and the tables open. SimCord's storage of finished tables is cleared
as the run goes (their messages, the pictures in its CDN, old interactions and
request logs), as Discord would hold them, not the bot. It prints the slope of
the bot's memory per 1,000 boards after warm-up, by least squares, and the
click-to-board p50 and p99 of the first window after warm-up against the last
(and of the first quarter of the clicks after warm-up against the last quarter:
more clicks, less noise). The top growth sites are `tracemalloc`'s comparison of
the end with the end of warm-up.

Targets (issue #21): after warm-up the bot's memory grows by less than 1 MB per
1,000 boards, and the click-to-board p99 at the end is within 10 % of the start.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

from bench.memory import rss_mb, slope
from bench.simdiscord import prune_simulator
from bench.stats import percentile
from bench.steps import LoopSteps
from bot import Config, create_bot
from engine.reef.ai import expert as reef_expert
from engine.reef.ai import greedy as reef_greedy
from hosting.botpool import WORKER_NICENESS as BOT_NICENESS
from hosting.records import ACTIVE, LOBBY
from hosting.stores import open_store
from simtools.strict import run_strict
from simtools.ui import PANEL_BUTTONS, awaited, controls, latest_board, prefer

TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
GAMES = ("haenyeo", "jeju", "reef")
HOUR = 3600
#: Issue #21: the bot's memory after warm-up, MB per 1,000 boards; the end's p99 against the start's.
TARGET_MB_PER_1000_BOARDS = 1.0
TARGET_P99_RATIO = 1.10
#: The kinds of table opened each day, in turn.
KINDS = ("live", "paced", "live", "ended", "expiring", "live", "paced", "live")
#: How long a live table plays before its host leaves (days), and turns played per day.
LIVE_DAYS = 2
TURNS_PER_DAY = 3
#: Where SimCord's own allocations happen (measured apart from the bot's).
SIMULATOR_FILES = ("/simcord/", "/simtools/", "/bench/soak.py", "tracemalloc")
#: The Reef & Ruins planners' memos (bounded LRUs; their entries are sampled).
REEF_MEMOS = (*reef_greedy.MEMOS, reef_expert.plan_dice, reef_expert.plan_boon)


def descendants(root: int) -> list[int]:
    """Every process under ``root`` (the picture and bot pools' workers, their fork server)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        parents.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def workers_mb() -> tuple[int, float, float]:
    """How many worker processes the bot runs, their resident memory in all, and the bot workers'
    share (MB): the pools are told apart by their priority (`hosting.botpool.WORKER_NICENESS`)."""
    pids = descendants(os.getpid())
    bots = os.nice(0) + BOT_NICENESS
    total = bot_part = 0.0
    for pid in pids:
        mb = rss_mb(pid)
        total += mb
        try:
            with open(f"/proc/{pid}/stat") as stat:
                nice = int(stat.read().rsplit(")", 1)[1].split()[16])
        except (OSError, ValueError, IndexError):
            continue
        bot_part += mb if nice == bots else 0.0
    return len(pids), total, bot_part


def is_board(message) -> bool:
    """A board message: the bot's public message with a ``board:`` button."""
    return any(
        str(item.get("custom_id", "")).startswith("board:")
        for row in message.components or []
        for item in row.get("components", [])
    )


class Meter:
    """Counts what reaches SimCord's Discord and times it; measures the event loop's stalls."""

    def __init__(self, env) -> None:
        self.boards = 0
        self.panels = 0
        self.messages = 0
        self.last_post: dict[int, float] = {}
        # Every loop step timed, the bot's apart from SimCord's and the soak's own (`bench.steps`).
        self.steps = LoopSteps().install()
        self.aside = self.steps.aside
        backend = env.backend
        commit = backend.commit_message

        def counted(message, **kwargs):
            stored = commit(message, **kwargs)
            self.messages += 1
            if stored.is_ephemeral:
                self.panels += stored.attachments != [] and bool(stored.components)
            elif is_board(stored):
                self.boards += 1
                self.last_post[stored.channel_id] = time.perf_counter()
            return stored

        backend.commit_message = counted
        edit = backend.edit_message

        def edited(channel_id, message_id, fields):
            stored = edit(channel_id, message_id, fields)
            if stored.is_ephemeral and stored.attachments and stored.components:
                self.panels += 1
            return stored

        backend.edit_message = edited

    def close(self) -> None:
        self.steps.uninstall()


@dataclass
class Table:
    kind: str
    game: str
    thread: object
    people: dict[int, object]
    table_id: int
    opened_day: int
    closed: bool = False


@dataclass
class Sample:
    boards: int
    panels: int
    day: int
    rss_mb: float
    workers: int
    workers_mb: float
    bot_workers_mb: float
    bot_mb: float
    simulator_mb: float
    p50_ms: float
    p99_ms: float
    clicks: int
    stall_ms: float
    stalled_in: str = ""
    open_tables: int = 0
    memo_entries: int = 0
    states: int | None = None
    locks: int | None = None


@dataclass
class Soak:
    boards: int
    every: int
    warmup: int
    seed: int = 1
    samples: list[Sample] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    window: list[float] = field(default_factory=list)
    tables_opened: dict[str, int] = field(default_factory=dict)
    growth: list[str] = field(default_factory=list)
    warm_clicks: int = 0  # clicks timed before the end of warm-up
    progress: bool = False
    trace: bool = True  # False: memory by RSS only, and no tracer slowing the clicks it times
    days: int = 0
    seconds: float = 0.0


async def open_table(soak: Soak, channel, host, game: str, kind: str, guest=None, day: int = 0) -> Table:
    """/play, then (unless it is to expire) seat the guest or a bot and start."""
    options = {"game": game}
    if kind == "paced":
        options["pace"] = HOUR
    result = await host.slash(channel, "play", **options)
    reply = result.followups[0] if result.followups else result.response
    thread_id = int(reply.content.split("/")[-2])
    thread = next(t for t in channel.threads if t.id == thread_id)
    lobby = thread.last_message
    table_id = int(lobby.embeds[0].title.rsplit("#", 1)[1])
    people = {host.id: host}
    if kind != "expiring":
        if guest is not None:
            await guest.click(lobby, label="Join")
            people[guest.id] = guest
        else:
            await host.click(lobby, label="Add bot")
        await host.click(lobby, label="Start")
    soak.tables_opened[kind] = soak.tables_opened.get(kind, 0) + 1
    return Table(kind, game, thread, people, table_id, day)


async def play_turn(soak: Soak, meter: Meter, table: Table, rng: random.Random) -> bool:
    """The awaited person opens their panel from the board and plays it until they confirm."""
    board = latest_board(table.thread)
    if board is None:
        return False
    waiting = [uid for uid in awaited(board) if uid in table.people]
    if not waiting:
        return False
    member = table.people[waiting[0]]
    label = next(c.label for row in board.components for c in row.children if c.label in PANEL_BUTTONS)
    opened = await member.click(board, label=label)
    panel = opened.followups[0] if opened.followups else opened.response
    for _ in range(12):
        buttons, selects = controls(panel)
        if not buttons and not selects:
            break
        kind, choice = prefer(buttons, selects, rng)
        started = time.perf_counter()
        if kind == "button":
            await member.click(panel, custom_id=choice["custom_id"])
        else:
            select, option = choice
            await member.select(panel, [option["value"]], custom_id=select["custom_id"])
        posted = meter.last_post.get(table.thread.id, 0.0)
        if posted >= started:
            soak.window.append((posted - started) * 1000)
        if kind == "button" and choice.get("label", "").startswith("Confirm"):
            break
    return True


async def leave(table: Table) -> None:
    """The host leaves from the board (and says yes): a bot plays their seat to the end."""
    board = latest_board(table.thread)
    if board is None:
        return
    host = next(iter(table.people.values()))
    asked = await host.click(board, label="Leave")
    if asked.response is not None and asked.response.components:
        await host.click(asked.response, label="Yes, leave")


def sample(soak: Soak, meter: Meter, bot, day: int, open_tables: int = 0) -> tracemalloc.Snapshot | None:
    """One row of figures; returns the snapshot it took (None when not tracing)."""
    gc.collect()
    snapshot = tracemalloc.take_snapshot() if tracemalloc.is_tracing() else None
    sim = bot_part = 0
    for stat in snapshot.statistics("filename") if snapshot else []:
        name = stat.traceback[0].filename
        if any(part in name for part in SIMULATOR_FILES):
            sim += stat.size
        else:
            bot_part += stat.size
    service = getattr(bot, "tables", None)
    window = soak.window
    steps = meter.steps.figures()
    workers, workers_rss, bot_workers_rss = workers_mb()
    soak.samples.append(
        Sample(
            boards=meter.boards,
            panels=meter.panels,
            day=day,
            rss_mb=rss_mb(),
            workers=workers,
            workers_mb=workers_rss,
            bot_workers_mb=bot_workers_rss,
            bot_mb=bot_part / 2**20,
            simulator_mb=sim / 2**20,
            p50_ms=statistics.median(window) if window else float("nan"),
            p99_ms=percentile(window, 0.99),
            clicks=len(window),
            stall_ms=steps.bot_longest * 1000,
            stalled_in=steps.longest[0][1] if steps.longest else "",
            open_tables=open_tables,
            memo_entries=sum(memo.cache_info().currsize for memo in REEF_MEMOS),  # in this process
            states=len(getattr(service, "_states", {})) if service else None,
            locks=len(getattr(service, "_locks", {})) if service else None,
        )
    )
    soak.latencies.extend(window)
    if soak.progress:  # a long run shows its rows as it goes
        print(row(soak.samples[-1]), flush=True)
    soak.window = []
    meter.steps.reset()
    return snapshot


async def table_status(bot, table: Table) -> str:
    return (await bot.tables.get(table.table_id)).status


async def run(soak: Soak, folder: Path, per_day: int) -> None:
    rng = random.Random(soak.seed)
    started = time.perf_counter()
    # Traced from the start, so the first windows pay tracemalloc's cost as the last do.
    if soak.trace:
        tracemalloc.start(1)
    config = Config(token=TOKEN, database=folder / "soak.sqlite3", bot_delay=0.0)
    store = await open_store(config)
    bot = create_bot(config, store)
    # A loaded machine can take more than SimCord's default 5 s (real) to settle a simulated day.
    async with run_strict(bot, settle_timeout=300.0) as env:
        meter = Meter(env)
        guild = env.create_guild("Busy community")
        channel = guild.create_text_channel("games")
        members = [guild.add_member(env.create_user(f"player{i}")) for i in range(60)]
        open_tables: list[Table] = []
        closed_channels: set[int] = set()
        next_sample = soak.every
        warm_snapshot: tracemalloc.Snapshot | None = None
        warmed = False
        with meter.aside():
            sample(soak, meter, bot, 0)  # the start: the bot ready, no table yet
        day = 0
        host_turn = 0
        try:
            while meter.boards < soak.boards:
                day += 1
                for n in range(per_day):
                    kind = KINDS[(day * per_day + n) % len(KINDS)]
                    game = GAMES[(day + n) % len(GAMES)]
                    host = members[host_turn % len(members)]
                    guest = members[(host_turn + 1) % len(members)] if kind == "paced" else None
                    host_turn += 2
                    open_tables.append(await open_table(soak, channel, host, game, kind, guest, day))
                for table in list(open_tables):
                    if table.kind in ("live", "ended"):
                        for _ in range(TURNS_PER_DAY):
                            if not await play_turn(soak, meter, table, rng):
                                break
                    if table.kind == "ended" and day > table.opened_day:
                        await next(iter(table.people.values())).slash(table.thread, "game end")
                    elif table.kind == "live" and day - table.opened_day >= LIVE_DAYS:
                        await leave(table)
                for _ in range(24):  # the day goes by, an hour at a time: deadlines, reminders, expiries
                    await env.advance_time(HOUR)
                for table in list(open_tables):
                    if await table_status(bot, table) not in (LOBBY, ACTIVE):
                        open_tables.remove(table)
                        closed_channels.add(table.thread.id)
                with meter.aside():
                    prune_simulator(env, closed_channels)
                if meter.boards >= next_sample:
                    with meter.aside():
                        snapshot = sample(soak, meter, bot, day, len(open_tables))
                    if not warmed and meter.boards >= soak.warmup:
                        warmed = True
                        warm_snapshot = snapshot  # the growth sites are the end against this
                        soak.warm_clicks = len(soak.latencies)
                    next_sample = (meter.boards // soak.every + 1) * soak.every
            with meter.aside():
                if not soak.samples or soak.samples[-1].boards != meter.boards:
                    sample(soak, meter, bot, day, len(open_tables))
                if warm_snapshot is not None:  # traced runs only
                    soak.growth = growth_sites(warm_snapshot, tracemalloc.take_snapshot())
        finally:
            meter.close()
            tracemalloc.stop()
    soak.days = day
    soak.seconds = time.perf_counter() - started
    await store.close()


def growth_sites(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, top: int = 8) -> list[str]:
    """The lines whose allocations grew most between the two snapshots (the bot's, then SimCord's)."""
    stats = after.compare_to(before, "lineno")
    bot, sim = [], []
    for stat in stats:
        if stat.size_diff <= 0:
            continue
        frame = stat.traceback[0]
        where = f"{frame.filename.split('site-packages/')[-1].replace(os.getcwd() + '/', '')}:{frame.lineno}"
        line = f"{stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks  {where}"
        (sim if any(p in frame.filename for p in SIMULATOR_FILES) else bot).append(line)
    return [*(f"bot  {line}" for line in bot[:top]), *(f"sim  {line}" for line in sim[:3])]


#: The full run (the issue's "10,000 or more board messages") and the quick check.
FULL_BOARDS = 10_000
QUICK_BOARDS = 250


def figures(
    boards: int = FULL_BOARDS,
    every: int | None = None,
    per_day: int = 8,
    seed: int = 1,
    warmup: int | None = None,
    progress: bool = False,
    trace: bool = True,
) -> Soak:
    """Run the soak; the samples and the run's totals (``progress``: print each sample as it is taken;
    ``trace=False``: no `tracemalloc`, the bot's memory is the process's resident memory)."""
    every = every or max(boards // 20, 50)
    warmup = warmup if warmup is not None else max(boards // 5, every)
    soak = Soak(boards=boards, every=every, warmup=warmup, seed=seed, progress=progress, trace=trace)
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(soak, Path(folder), per_day))
    return soak


def results(soak: Soak) -> dict:
    """The headline figures: memory at start, after warm-up, at the end; the slopes; latency ends."""
    after = [s for s in soak.samples if s.boards >= soak.warmup]
    warm = after[0] if after else soak.samples[-1]
    first, last = soak.samples[0], soak.samples[-1]
    xs = [s.boards / 1000 for s in after]
    start_window = next((s for s in after if s.clicks >= 20), warm)
    timed = soak.latencies[soak.warm_clicks :]
    quarter = max(1, len(timed) // 4)
    stalls = [s for s in soak.samples if s.stall_ms == max(x.stall_ms for x in soak.samples)]
    return {
        "boards": last.boards,
        "panels": last.panels,
        "days": soak.days,
        "seconds": soak.seconds,
        "tables": dict(soak.tables_opened),
        "first": first,
        "warm": warm,
        "last": last,
        # Untraced, the bot's memory is the whole process's (SimCord's storage is cleared as it goes).
        "bot_mb_per_1000": slope(xs, [s.bot_mb if soak.trace else s.rss_mb for s in after]),
        "rss_mb_per_1000": slope(xs, [s.rss_mb for s in after]),
        "workers_mb_per_1000": slope(xs, [s.workers_mb for s in after]),
        "bot_workers_mb_per_1000": slope(xs, [s.bot_workers_mb for s in after]),
        "sim_mb_per_1000": slope(xs, [s.simulator_mb for s in after]),
        "start_p99": start_window.p99_ms,
        "start_p50": start_window.p50_ms,
        "end_p99": last.p99_ms,
        "end_p50": last.p50_ms,
        "first_quarter_p50": statistics.median(timed[:quarter]) if timed else float("nan"),
        "first_quarter_p99": percentile(timed[:quarter], 0.99),
        "last_quarter_p50": statistics.median(timed[-quarter:]) if timed else float("nan"),
        "last_quarter_p99": percentile(timed[-quarter:], 0.99),
        "quarter_clicks": quarter if timed else 0,
        "longest_stall_ms": stalls[0].stall_ms,
        "longest_stall_in": stalls[0].stalled_in,
        "longest_stall_boards": stalls[0].boards,
    }


def row(s: Sample) -> str:
    """One sample as a line of the table."""
    return (
        f"{s.boards:7d} {s.panels:7d} {s.day:4d} {s.rss_mb:7.1f} {s.workers:2d} {s.workers_mb:6.1f} MB "
        f"{s.bot_mb:7.2f} {s.simulator_mb:7.2f} "
        f"{s.clicks:6d} {s.p50_ms:7.1f} {s.p99_ms:7.1f} {s.stall_ms:8.1f} {s.open_tables:4d} "
        f"{s.memo_entries:6d} "
        f"{s.states if s.states is not None else '-':>6} {s.locks if s.locks is not None else '-':>5}"
        + (f"  stall in {s.stalled_in}" if s.stalled_in else "")
    )


def report(soak: Soak) -> list[str]:
    """The figures as printed lines."""
    found = results(soak)
    tables = ", ".join(f"{n} {kind}" for kind, n in sorted(found["tables"].items()))
    lines = [
        f"{found['boards']:,} boards, {found['panels']:,} private panels, {found['days']} simulated days, "
        f"tables opened: {tables}; {found['seconds']:.0f} s",
        f"samples every {soak.every} boards; warm-up {soak.warmup} boards; memory after gc; "
        "bot MB / sim MB: held, traced by tracemalloc since the start, outside / inside simcord and "
        "simtools; workers: the picture and bot pools' processes (RSS); open: tables open; "
        "memo: Reef & Ruins planner memo entries in this process (pooled bots keep theirs in workers)",
        "",
        f"{'boards':>7} {'panels':>7} {'day':>4} {'RSS MB':>7} {'workers':>11} {'bot MB':>7} {'sim MB':>7} "
        f"{'clicks':>6} {'p50 ms':>7} {'p99 ms':>7} {'stall ms':>8} {'open':>4} {'memo':>6} "
        f"{'states':>6} {'locks':>5}",
    ]
    lines += [row(s) for s in soak.samples]
    met_memory = found["bot_mb_per_1000"] < TARGET_MB_PER_1000_BOARDS
    met_latency = found["end_p99"] <= found["start_p99"] * TARGET_P99_RATIO
    met_quarters = found["last_quarter_p99"] <= found["first_quarter_p99"] * TARGET_P99_RATIO
    lines += [
        "",
        f"memory: RSS start {found['first'].rss_mb:.1f} MB, after warm-up {found['warm'].rss_mb:.1f} MB "
        f"({found['warm'].boards} boards), end {found['last'].rss_mb:.1f} MB "
        f"({found['last'].boards} boards); workers' RSS {found['first'].workers_mb:.1f} / "
        f"{found['warm'].workers_mb:.1f} / {found['last'].workers_mb:.1f} MB "
        f"({found['last'].workers} processes; the bot workers' {found['warm'].bot_workers_mb:.1f} / "
        f"{found['last'].bot_workers_mb:.1f} MB); held (tracemalloc): bot {found['first'].bot_mb:.2f} / "
        f"{found['warm'].bot_mb:.2f} / {found['last'].bot_mb:.2f} MB, "
        f"SimCord {found['first'].simulator_mb:.2f} / {found['warm'].simulator_mb:.2f} / "
        f"{found['last'].simulator_mb:.2f} MB",
        f"growth after warm-up, per 1,000 boards: bot ({'tracemalloc' if soak.trace else 'RSS'}) "
        f"{found['bot_mb_per_1000']:+.3f} MB "
        f"(target < {TARGET_MB_PER_1000_BOARDS} MB: {'met' if met_memory else 'NOT MET'}), "
        f"RSS {found['rss_mb_per_1000']:+.3f} MB, workers' RSS {found['workers_mb_per_1000']:+.3f} MB "
        f"(the bot workers' {found['bot_workers_mb_per_1000']:+.3f} MB), "
        f"SimCord {found['sim_mb_per_1000']:+.3f} MB",
        f"click-to-board: start p50 {found['start_p50']:.0f} ms p99 {found['start_p99']:.0f} ms; "
        f"end p50 {found['end_p50']:.0f} ms p99 {found['end_p99']:.0f} ms "
        f"(target: end p99 within {TARGET_P99_RATIO - 1:.0%} of start: "
        f"{'met' if met_latency else 'NOT MET'})",
        f"click-to-board, first quarter of the clicks after warm-up against the last "
        f"({found['quarter_clicks']} clicks each): p50 {found['first_quarter_p50']:.0f} -> "
        f"{found['last_quarter_p50']:.0f} ms, p99 {found['first_quarter_p99']:.0f} -> "
        f"{found['last_quarter_p99']:.0f} ms ({'within' if met_quarters else 'NOT within'} "
        f"{TARGET_P99_RATIO - 1:.0%})",
        f"the bot's longest event-loop step: {found['longest_stall_ms']:.0f} ms (in the window ending at "
        f"{found['longest_stall_boards']} boards; {found['longest_stall_in'] or '?'})",
        "",
        "top growth sites after warm-up (tracemalloc, end against end of warm-up):",
        *soak.growth,
    ]
    return lines


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--boards", type=int, default=FULL_BOARDS, help="run until this many boards were posted"
    )
    parser.add_argument("--every", type=int, default=None, help="sample every this many boards")
    parser.add_argument("--per-day", type=int, default=8, help="tables opened per simulated day")
    parser.add_argument("--warmup", type=int, default=None, help="boards of warm-up (default: a fifth)")
    parser.add_argument("--progress", action="store_true", help="print each sample as it is taken")
    parser.add_argument(
        "--no-trace", action="store_true", help="no tracemalloc: memory by RSS, clicks timed untraced"
    )
    parser.add_argument(
        "--quick", action="store_true", help=f"{QUICK_BOARDS} boards (a few minutes): a check, not a figure"
    )
    args = parser.parse_args()
    boards = QUICK_BOARDS if args.quick else args.boards
    soak = figures(
        boards, args.every, args.per_day, warmup=args.warmup, progress=args.progress, trace=not args.no_trace
    )
    print("\n".join(report(soak)))
