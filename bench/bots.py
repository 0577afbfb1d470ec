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

``--ladder [--games N] [--start S]``: the level ladder instead (issue #39). For each game, the
beginner (Easy) against greedy (Normal) and against random, head to head (2 seats) and one
beginner against three greedy (4 seats; Reef & Ruins: solo means of every level instead), seats
rotated game by game, seeds ``S .. S + N - 1`` (apart from the ones the beginners were tuned on,
100-119), printing the beginner's win rate with its 95 % (Wilson) interval and the mean scores.
Figures only: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bench.stats import half_interval, percentile, wilson

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
            share = row.at_175 / row.games
            met = "met" if row.expert_mean >= 165 and share >= 1 / 3 else "NOT met"
            lines.append(
                f"{row.game} solo: mean ≥ 165 and a third at 175+: {met} "
                f"(mean {row.expert_mean:.1f}, {share:.0%} at 175+)"
            )
    return lines


#: The ladder's match-ups: (game, seats, hero, other).
LADDER = (
    ("haenyeo", 2, "beginner", "greedy"),
    ("haenyeo", 4, "beginner", "greedy"),
    ("haenyeo", 2, "beginner", "random"),
    ("jeju", 2, "beginner", "greedy"),
    ("jeju", 4, "beginner", "greedy"),
    ("jeju", 2, "beginner", "random"),
)
#: Reef & Ruins solo levels the ladder measures (the expert has its own line above).
REEF_LEVELS = ("random", "beginner", "greedy")


def duel(game_key: str, seats: int, hero: str, other: str, games: int, start: int = 0) -> tuple:
    """``games`` seeded games of one ``hero`` seat (seat ``seed % seats``) against ``other`` seats:
    (wins, the hero's scores, the others' mean scores); a shared win counts 1/k."""
    import random

    import engine
    from engine.bots import policy

    game = engine.get(game_key)
    mine, theirs = policy(game_key, hero), policy(game_key, other)
    wins, hero_scores, other_scores = 0.0, [], []
    for seed in range(start, start + games):
        me = seed % seats
        state, rng = game.new(seats, seed), random.Random(seed)
        while actors := game.to_act(state):
            seat = min(actors)
            state, _ = game.apply(state, seat, (mine if seat == me else theirs)(game, state, seat, rng))
        result = game.result(state)
        if me in result.winners:
            wins += 1 / len(result.winners)
        hero_scores.append(float(result.scores[me]))
        other_scores.append(statistics.fmean(s for i, s in enumerate(result.scores) if i != me))
    return wins, hero_scores, other_scores


def ladder_line(item: tuple, games: int, start: int) -> str:
    """One line of the ladder's figures (run in whichever process measures it)."""
    if item[0] == "reef":
        from bench.bots_reef import run

        scores = [float(s) for s in run(item[1], games, 1, REEF_OPTIONS, start)["scores"]]
        return (
            f"Reef & Ruins solo, {item[1]}: mean {statistics.fmean(scores):.1f} "
            f"± {half_interval(scores):.1f} over {games} games, "
            f"{sum(100 <= s <= 125 for s in scores)} in 100-125"
        )
    game_key, seats, hero, other = item
    wins, hero_scores, other_scores = duel(game_key, seats, hero, other, games, start)
    low, high = wilson(wins, games)
    return (
        f"{game_key}, {seats} seats, {hero} vs {other}: {hero} wins {wins:g} of {games} "
        f"({wins / games:.0%}; {low:.0%}–{high:.0%}), mean score {statistics.fmean(hero_scores):.1f} / "
        f"{statistics.fmean(other_scores):.1f}"
    )


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
    parser.add_argument("--games", type=int, default=30, help="games per ladder match-up (default 30)")
    parser.add_argument("--start", type=int, default=0, help="the ladder's first seed (default 0)")
    parser.add_argument(
        "--references",
        action="store_true",
        help="the experts against the reference players kept in bench/ref_*.py (long: hours of CPU)",
    )
    args = parser.parse_args(argv)
    if args.references:
        return references(args.quick)
    if args.ladder:
        items = [*LADDER, *(("reef", level) for level in REEF_LEVELS)]
        with ProcessPoolExecutor(max(1, args.jobs)) as pool:
            lines = pool.map(ladder_line, items, [args.games] * len(items), [args.start] * len(items))
            print("\n".join(lines))
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
