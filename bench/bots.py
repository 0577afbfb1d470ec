"""All the bot figures in one table: ``python -m bench.bots [--quick] [--jobs N]``.

Per game and seat count: the expert's win rate against greedy with the number
of games and a 95 % (Wilson) interval, the mean scores, and the CPU time of
each expert decision (p50 / p95 / max, ``time.process_time`` around every call
of the policy). For Reef & Ruins solo: the expert's mean score with its 95 %
interval, the share at 175 or more and the spread over the rulebook's rating
bands, beside greedy's mean. The games are played by the three per-game
benches' own functions (`bench.bots_haenyeo.play_match`, `bench.bots_jeju.match`,
`bench.bots_reef.run`), the match-ups side by side in ``--jobs`` processes.
``--quick`` plays a handful of games of each (a smoke run: the intervals are wide);
``--scale 0.25`` a quarter of the full counts.

``--references [--quick]``: the experts against the reference players of `bench.ref_haenyeo`,
`bench.ref_jeju` and `bench.ref_reef` (issue #39; hours of CPU in full).

``--ladder [--games N] [--master-games M] [--start S]``: the level ladder instead (issue #39).
Haenyeo and Jeju Island: each level against the one below it (beginner vs random, greedy vs
beginner, expert vs greedy, master vs expert), head to head at 2 seats, first seat alternating,
seeds ``S .. S + N - 1`` (``M`` games for master, whose moves take seconds; default N / 5),
printing the upper level's win rate with its 95 % (Wilson) interval, the mean scores and its
decision CPU p50 / p95. Reef & Ruins solo: every level's mean with its interval, its share at 175+
and in the rulebook's second band (100-125), its decision CPU. The beginners were tuned on seeds
100-119 and 4000-6399, the experts on 100-199 and 5000-5023: measure apart from those.

``--tables [--games N] [--start S]``: tables of four of one level at Haenyeo and Jeju Island, all
greedy and all expert (told that experts sit there, as the hosting tells them) on the same seeds:
the mean score per seat of each, their paired difference, the expert's decision CPU.

Figures only: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bench.play import play
from bench.stats import half_interval, mean_interval, percentile, wilson

#: Games per match-up: (full run, --quick).
GAMES = {
    "haenyeo-4": (40, 6),
    "haenyeo-2": (60, 6),
    "jeju-2": (30, 4),
    "jeju-4": (16, 3),
    "reef-1": (50, 4),
}
#: The issue's targets: the expert's win rate (and Reef & Ruins solo: mean and share at 175+).
TARGETS = {"haenyeo-4": 0.50, "haenyeo-2": 0.75, "jeju-2": 0.75, "jeju-4": 0.50}
REEF_OPTIONS = {"reef": "bewitching-barrier", "tracker": "sunrise"}


@dataclass(frozen=True)
class Row:
    """One line of the table: a match-up and what it measured."""

    key: str  # "jeju-4"
    game: str
    seats: int
    table: str
    games: int
    wins: float | None  # the expert's (shared wins count 1/k); None for solo
    expert_mean: float
    expert_half: float  # half the 95 % interval of the expert's mean score
    greedy_mean: float
    cpu: tuple[float, float, float]  # p50, p95, max seconds per expert decision
    decisions: int
    bands: tuple[tuple[str, int], ...] = ()  # Reef & Ruins solo: (band, games)
    at_175: int = 0


def cpu_figures(cpu: list[float]) -> tuple[float, float, float]:
    """p50, p95 and max of CPU seconds per decision (nearest rank)."""
    return percentile(cpu, 0.5), percentile(cpu, 0.95), max(cpu, default=math.nan)


def haenyeo(seats: int, games: int) -> Row:
    """One expert against greedy at Haenyeo (seats rotated), by `bench.bots_haenyeo.play_match`."""
    from bench.bots_haenyeo import play_match

    match = play_match(seats, "expert", "greedy", games)
    table = "1 expert vs 3 greedy, seats rotated" if seats == 4 else "expert vs greedy (with the NPC)"
    scores = [float(s) for s in match.hero_scores]
    return Row(
        f"haenyeo-{seats}",
        "Haenyeo",
        seats,
        table,
        match.games,
        match.wins,
        statistics.fmean(scores),
        half_interval(scores),
        statistics.fmean(match.other_scores),
        cpu_figures(match.cpu),
        len(match.cpu),
    )


def jeju(seats: int, games: int) -> Row:
    """One expert against greedy at Jeju Island (seat rotating), by `bench.bots_jeju.match`."""
    from bench.bots_jeju import match

    found = match(seats, games)
    table = "expert vs greedy, first player alternating" if seats == 2 else "1 expert vs 3 greedy"
    return Row(
        f"jeju-{seats}",
        "Jeju Island",
        seats,
        table,
        found["games"],
        found["win_rate"] * found["games"],
        found["expert_score"],
        0.0,  # the per-game bench keeps only the means
        found["greedy_score"],
        (found["p50"], found["p95"], found["max"]),
        found["decisions"],
    )


def reef_solo(games: int) -> Row:
    """Reef & Ruins solo, expert and greedy on the same seeds, by `bench.bots_reef.run`."""
    from bench.bots_reef import run
    from engine.reef.components import RATINGS, rating

    expert = run("expert", games, 1, REEF_OPTIONS)
    greedy = run("greedy", games, 1, REEF_OPTIONS)
    scores = [float(s) for s in expert["scores"]]
    bands = tuple((band.title, sum(1 for s in expert["scores"] if rating(s) is band)) for band in RATINGS)
    return Row(
        "reef-1",
        "Reef & Ruins",
        1,
        "solo, Bewitching Barrier, Sunrise",
        games,
        None,
        statistics.fmean(scores),
        half_interval(scores),
        statistics.fmean(greedy["scores"]),
        cpu_figures(expert["cpu"]),
        len(expert["cpu"]),
        tuple(b for b in bands if b[1]),
        sum(s >= 175 for s in expert["scores"]),
    )


def measure(key: str, games: int) -> Row:
    """One match-up by its key (``"jeju-4"``), in whichever process runs it."""
    game, seats = key.split("-")
    if game == "haenyeo":
        return haenyeo(int(seats), games)
    if game == "jeju":
        return jeju(int(seats), games)
    return reef_solo(games)


def table(rows: list[Row]) -> list[str]:
    """The figures as a Markdown table (docs/BOTS.md takes it as it is), then Reef's bands."""
    lines = [
        "| game | seats | table | games | expert wins (95 % interval) | mean score expert / greedy "
        "| CPU per expert decision p50 / p95 / max |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        p50, p95, top = (1000 * t for t in row.cpu)
        cpu = f"{p50:.1f} / {p95:.0f} / {top:.0f} ms ({row.decisions})"
        mean = f"{row.expert_mean:.1f}" + (f" ± {row.expert_half:.1f}" if row.expert_half else "")
        if row.wins is None:
            won = f"{row.at_175} of {row.games} at 175 or more"
        else:
            low, high = wilson(row.wins, row.games)
            won = f"{row.wins:g} ({row.wins / row.games:.0%}; {low:.0%}–{high:.0%})"
        lines.append(
            f"| {row.game} | {row.seats} | {row.table} | {row.games} | {won} | "
            f"{mean} / {row.greedy_mean:.1f} | {cpu} |"
        )
    for row in rows:
        if row.bands:
            spread = ", ".join(f"{count} {title}" for title, count in row.bands)
            lines.append("")
            lines.append(f"{row.game} solo rating bands (expert, {row.games} games): {spread}")
    return lines


def targets(rows: list[Row]) -> list[str]:
    """Each target, and whether the interval's low end (or the mean) meets it."""
    lines = []
    for row in rows:
        if row.wins is not None:
            low, _ = wilson(row.wins, row.games)
            rate, aim = row.wins / row.games, TARGETS[row.key]
            met = "met" if low >= aim else "not proven (the interval is wide)" if rate >= aim else "NOT met"
            lines.append(f"{row.game}, {row.seats} seats: win rate ≥ {aim:.0%}: {met}")
        else:
            share, low = row.at_175 / row.games, row.expert_mean - row.expert_half
            met = (
                "met"
                if low >= 180 and share >= 0.5
                else "not proven (the interval is wide)"
                if row.expert_mean >= 180 and share >= 0.5
                else "NOT met"
            )
            lines.append(
                f"{row.game} solo: mean ≥ 180 (the low end of its interval) and half at 175+ (issue #39): "
                f"{met} (mean {row.expert_mean:.1f} ± {row.expert_half:.1f}, {share:.0%} at 175+)"
            )
    return lines


#: The levels a table offers, lowest first (docs/BOTS.md: Easy is ``beginner``, Normal ``greedy``).
LEVELS = ("random", "beginner", "greedy", "expert", "master")
#: Each level against the one below it, head to head (2 seats, first seat alternating).
STEPS = tuple(zip(LEVELS[1:], LEVELS[:-1], strict=True))
#: The games whose ladder is played head to head (Reef & Ruins is solo: every level's own score).
DUEL_GAMES = ("haenyeo", "jeju")
#: The games whose 4-seat tables of one level are compared (`--tables`).
TABLE_GAMES = ("haenyeo", "jeju")


def duel(game_key: str, seats: int, hero: str, other: str, games: int, start: int = 0) -> tuple:
    """``games`` seeded games of one ``hero`` seat (seat ``seed % seats``) against ``other`` seats:
    (wins, the hero's scores, the others' mean scores, the hero's decision CPU seconds); a shared
    win counts 1/k."""
    wins, hero_scores, other_scores, cpu = 0.0, [], [], {}
    for seed in range(start, start + games):
        me = seed % seats
        scores, winners = play(game_key, [hero if seat == me else other for seat in range(seats)], seed, cpu)
        if me in winners:
            wins += 1 / len(winners)
        hero_scores.append(scores[me])
        other_scores.append(statistics.fmean(s for i, s in enumerate(scores) if i != me))
    return wins, hero_scores, other_scores, cpu.get(hero, [])


def cpu_text(cpu: Sequence[float]) -> str:
    """Decision CPU p50 / p95 in milliseconds, with the number of decisions."""
    p50, p95 = (percentile(cpu, share) * 1000 for share in (0.5, 0.95))
    return f"CPU p50 {p50:.1f} ms, p95 {p95:.1f} ms ({len(cpu)})"


def ladder_line(item: tuple, games: int, start: int) -> str:
    """One line of the ladder (run in whichever process measures it): a level against the one
    below it, or a Reef & Ruins level's solo scores."""
    if item[0] == "reef":
        from bench.bots_reef import run

        figures = run(item[1], games, 1, REEF_OPTIONS, start)
        scores = [float(s) for s in figures["scores"]]
        top = sum(s >= 175 for s in scores)
        low, high = wilson(top, games)
        return (
            f"Reef & Ruins solo, {item[1]}: mean {mean_interval(scores)} over {games} games; "
            f"{top} at 175+ ({top / games:.0%}; {low:.0%}–{high:.0%}), "
            f"{sum(100 <= s <= 125 for s in scores)} in 100–125; {cpu_text(figures['cpu'])}"
        )
    game_key, hero, other = item
    wins, hero_scores, other_scores, cpu = duel(game_key, 2, hero, other, games, start)
    low, high = wilson(wins, games)
    return (
        f"{game_key}, 2 seats, {hero} vs {other}: {hero} wins {wins:g} of {games} "
        f"({wins / games:.0%}; {low:.0%}–{high:.0%}), mean score {statistics.fmean(hero_scores):.1f} / "
        f"{statistics.fmean(other_scores):.1f}; {hero} {cpu_text(cpu)}"
    )


def ladder(games: int, master_games: int, start: int, jobs: int) -> list[str]:
    """The ladder's lines: every level against the one below it in each game played head to head,
    and every Reef & Ruins level's solo scores. Master (seconds a move) plays ``master_games``."""
    items = [
        *((game, hero, other) for game in DUEL_GAMES for hero, other in STEPS),
        *(("reef", level) for level in LEVELS),
    ]
    counts = [master_games if "master" in item else games for item in items]
    # The master's lines first: they take longest, so the processes finish together.
    order = sorted(range(len(items)), key=lambda i: "master" not in items[i])
    with ProcessPoolExecutor(max(1, jobs)) as pool:
        lines = list(
            pool.map(ladder_line, [items[i] for i in order], [counts[i] for i in order], [start] * len(items))
        )
    found = dict(zip(order, lines, strict=True))
    return [found[i] for i in range(len(items))]


def tables(game_key: str, games: int, start: int) -> list[str]:
    """4-seat tables of one level, all greedy and all expert (told that experts sit there), on the
    same seeds: the mean score per seat, the paired difference per seed, the expert's CPU."""
    per_seat: dict[str, list[float]] = {"greedy": [], "expert": []}
    cpu: dict[str, list[float]] = {}
    for seed in range(start, start + games):
        for level, scores in per_seat.items():
            scores.append(statistics.fmean(play(game_key, [level] * 4, seed, cpu)[0]))
    diff = [e - g for e, g in zip(per_seat["expert"], per_seat["greedy"], strict=True)]
    return [
        f"{game_key}, 4 seats, seeds {start}–{start + games - 1}: per seat, all greedy "
        f"{mean_interval(per_seat['greedy'])}, all expert {mean_interval(per_seat['expert'])}; "
        f"expert − greedy (paired by seed) {mean_interval(diff)}; expert {cpu_text(cpu['expert'])}"
    ]


def references(quick: bool) -> int:
    """Issue #39's figures against the reference players, one game after another (their own
    benches print them): Haenyeo's rollout searcher with 10x the expert's CPU and the exploiter,
    Jeju Island's Monte Carlo searcher with 10x its play-outs, Reef & Ruins' two-round look-ahead;
    with the master and the ladder where the benches play them. ``quick``: a few games each."""
    from bench import ref_haenyeo, ref_jeju, ref_reef

    games = ["--games", "4"] if quick else []
    ref_haenyeo.main([*games, "--start", "3000", "--master", "2" if quick else "10"])
    ref_jeju.main([*games, "--first", "1000"])
    ref_reef.main([*games, "--policies", "beginner,greedy,expert,reference,master"])
    return 0


def main(argv: list[str] | None = None) -> int:
    """Play every match-up (side by side in ``--jobs`` processes) and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a handful of games each (a smoke run)")
    parser.add_argument(
        "--scale", type=float, default=1.0, help="play this share of the full game counts (e.g. 0.25)"
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: CPUs)")
    parser.add_argument("--ladder", action="store_true", help="the level ladder's figures instead")
    parser.add_argument(
        "--games", type=int, default=30, help="games per ladder match-up or table (default 30)"
    )
    parser.add_argument(
        "--master-games", type=int, help="games of the ladder's master lines (default: a fifth of --games)"
    )
    parser.add_argument("--start", type=int, default=0, help="the ladder's or tables' first seed (default 0)")
    parser.add_argument("--tables", action="store_true", help="all-expert against all-greedy 4-seat tables")
    parser.add_argument(
        "--references",
        action="store_true",
        help="the experts against the reference players kept in bench/ref_*.py (long: hours of CPU)",
    )
    args = parser.parse_args(argv)
    if args.references:
        return references(args.quick)
    if args.ladder:
        master_games = args.master_games if args.master_games is not None else max(2, args.games // 5)
        print("\n".join(ladder(args.games, master_games, args.start, args.jobs)))
        return 0
    if args.tables:
        with ProcessPoolExecutor(max(1, args.jobs)) as pool:
            found = pool.map(
                tables, TABLE_GAMES, [args.games] * len(TABLE_GAMES), [args.start] * len(TABLE_GAMES)
            )
            print("\n".join(line for lines in found for line in lines))
        return 0
    plan = [
        (key, counts[1] if args.quick else max(1, round(counts[0] * args.scale)))
        for key, counts in GAMES.items()
    ]
    # The longest match-ups first, so the processes finish together.
    order = sorted(plan, key=lambda item: item[0].startswith("haenyeo"))
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        done = list(pool.map(measure, [key for key, _ in order], [games for _, games in order]))
    found = {row.key: row for row in done}
    rows = [found[key] for key, _ in plan]
    print("\n".join(table(rows)))
    print()
    print("\n".join(targets(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
