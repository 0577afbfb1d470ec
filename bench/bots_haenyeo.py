"""Haenyeo bot figures: the ``expert`` policy against ``greedy`` (issue #18).

Run ``nice python -m bench.bots_haenyeo [--games N] [--duel-games N] [--start S]``. It plays,
on this one process:

* 4 seats, one ``expert`` against three ``greedy``, the expert's seat rotated
  game by game (seat ``g % 4``), target: the expert wins at least 50 %;
* 2 seats (with the NPC), ``expert`` against ``greedy``, seats alternated,
  target: at least 75 %;

and prints, per match-up, the games played, the expert's win rate with its 95 %
(Wilson) interval — a shared victory counts as 1/k of a win — the mean scores
and the CPU time per expert decision (p50 / p95 / max, ``time.process_time``,
every call of the policy, the toggles and single-option moves included; target
p95 ≤ 1 s), and the same for the card searches alone (the first toggle of each
round, where the search runs; the later toggles reuse its answer). Games are
numbered from ``--start``; game ``g`` uses seed ``g`` for the game and the bots. The bots are
told what plays each seat (`engine.bots.seated`), as the hosting tells them.

``--tables N`` (issue #39): N games at 4 seats of one level each — experts told that experts
sit there, experts not told (they take the others for greedy players), greedy — printing the
mean score per seat with its 95 % interval and the expert's CPU per decision.
Figures only: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import engine
from bench.play import play
from bench.stats import half_interval, percentile, wilson
from engine.bots import policy, seated

GAME_KEY = "haenyeo"


@dataclass
class Match:
    """What one match-up measured."""

    seats: int
    hero: str
    other: str
    games: int = 0
    wins: float = 0.0
    hero_scores: list[int] = field(default_factory=list)
    other_scores: list[int] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    searches: list[float] = field(default_factory=list)


def play_match(seats: int, hero: str, other: str, games: int, start: int = 0) -> Match:
    """``games`` games, ``hero`` in seat ``g % seats`` of game ``g``, every other seat ``other``."""
    game = engine.get(GAME_KEY)
    hero_policy, other_policy = policy(GAME_KEY, hero), policy(GAME_KEY, other)
    match = Match(seats, hero, other)
    for g in range(start, start + games):
        seat_of_hero = g % seats
        rng = random.Random(g)
        state = game.new(seats, seed=g)
        names = [hero if s == seat_of_hero else other for s in range(seats)]
        with seated(names):
            play_game(game, state, seat_of_hero, hero_policy, other_policy, rng, match)
    return match


def play_game(game, state, seat_of_hero: int, hero_policy, other_policy, rng, match: Match) -> None:
    """Play one game of `play_match` to its end and count it in ``match``."""
    while to_act := game.to_act(state):
        seat = min(to_act)
        if seat == seat_of_hero:
            search = state.phase == "select" and not state.chosen[seat]
            began = time.process_time()
            action = hero_policy(game, state, seat, rng)
            spent = time.process_time() - began
            match.cpu.append(spent)
            if search:
                match.searches.append(spent)
        else:
            action = other_policy(game, state, seat, rng)
        state, _ = game.apply(state, seat, action)
    result = game.result(state)
    assert result is not None
    match.games += 1
    if seat_of_hero in result.winners:
        match.wins += 1 / len(result.winners)
    match.hero_scores.append(result.scores[seat_of_hero])
    match.other_scores.extend(s for i, s in enumerate(result.scores) if i != seat_of_hero)


def table_of(level: str, games: int, start: int = 0, tell: bool = True) -> tuple[list[int], list[float]]:
    """``games`` 4-seat games with every seat ``level`` (told so when ``tell``): every seat's score,
    and the CPU seconds of every decision."""
    scores: list[int] = []
    cpu: dict[str, list[float]] = {}
    for g in range(start, start + games):
        found, _winners = play(GAME_KEY, [level] * 4, g, cpu, tell)
        scores.extend(round(score) for score in found)
    return scores, cpu.get(level, [])


def tables_report(games: int, start: int) -> list[str]:
    """Mean score per seat of an all-expert table (told, not told) and an all-greedy one."""
    lines = []
    for label, level, tell in (
        ("4 experts, told that experts sit there", "expert", True),
        ("4 experts, not told (each takes the others for greedy players)", "expert", False),
        ("4 greedy", "greedy", True),
    ):
        scores, cpu = table_of(level, games, start, tell)
        half = half_interval(scores)
        lines.append(
            f"{label}: {games} games, mean score per seat {statistics.mean(scores):.1f} ± {half:.1f} "
            f"(95 % interval); CPU per decision p50 {percentile(cpu, 0.5) * 1000:.1f} ms, "
            f"p95 {percentile(cpu, 0.95) * 1000:.1f} ms, max {max(cpu) * 1000:.1f} ms"
        )
    return lines


def report(match: Match, target: float) -> str:
    low, high = wilson(match.wins, match.games)
    rate = match.wins / match.games if match.games else 0.0
    met = "met" if low >= target else "not proven" if rate >= target else "NOT met"
    opponents = match.seats - 1
    return (
        f"{match.seats} seats, 1 {match.hero} vs {opponents} {match.other}: "
        f"{match.games} games, {match.hero} wins {match.wins:g} = {rate:.0%} "
        f"(95 % interval {low:.0%}–{high:.0%}; target ≥ {target:.0%}: {met}); "
        f"mean score {statistics.mean(match.hero_scores):.0f} vs {statistics.mean(match.other_scores):.0f}; "
        f"CPU per decision p50 {percentile(match.cpu, 0.5) * 1000:.1f} ms, "
        f"p95 {percentile(match.cpu, 0.95) * 1000:.1f} ms, max {max(match.cpu, default=0) * 1000:.1f} ms "
        f"({len(match.cpu)} decisions); card searches (first toggle of a round) "
        f"p50 {percentile(match.searches, 0.5) * 1000:.1f} ms, "
        f"p95 {percentile(match.searches, 0.95) * 1000:.1f} ms, "
        f"max {max(match.searches, default=0) * 1000:.1f} ms ({len(match.searches)})"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=60, help="4-seat games (default 60)")
    parser.add_argument("--duel-games", type=int, default=60, help="2-seat games (default 60)")
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--tables", type=int, default=0, help="4-seat tables of one level (issue #39)")
    args = parser.parse_args(argv)
    if args.tables:
        print("\n".join(tables_report(args.tables, args.start)), flush=True)
    for seats, games, target in ((4, args.games, 0.5), (2, args.duel_games, 0.75)):
        if games > 0:
            print(report(play_match(seats, "expert", "greedy", games, args.start), target), flush=True)


if __name__ == "__main__":
    main()
