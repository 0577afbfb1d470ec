"""Haenyeo reference players for issue #39, built apart from the expert's code, and their matches.

Run ``nice python -m bench.ref_haenyeo [--games N] [--start S] [--tables N] [--skip ...]``.

The references (each sees only what its seat may see: the other seats' face-down cards, the
NPC's coming draw and the sea decks beyond this round are re-sampled, never read):

* `Rollout` — the full-game rollout searcher. At each card selection it determinizes what its
  seat cannot see (the other seats' cards drawn from the greedy card choice with fresh noise,
  the NPC's draw and the decks from a fresh seed), and for each candidate card set plays the
  whole game out with the greedy policy for every seat; it picks the set with the best mean
  (wins first, the margin breaking ties). The candidates are the greedy values' best sets,
  narrowed by successive halving. Its size is a fixed number of play-outs per selection
  (``rollouts``), calibrated so its CPU per game is about ``--times`` (10) times the expert's;
  the match prints both CPU figures so the ratio can be checked. Other decisions: greedy.
* `Exploiter` — runs the expert's own code (``engine.haenyeo.ai.expert.choose_cards``) on the
  public position with a seed of its own guessing (it cannot know the table's secret seed),
  takes that as the expert's face-down cards and best-responds to them with the same
  rollouts (the NPC's draw and the decks still re-sampled). ``--exploiter-knows-seed``
  lets it read the real seed instead: the control, showing what predicting the expert is worth.

The matches: 2 seats (with the NPC), the expert against each reference, seats alternated
(game ``g``: the expert in seat ``g % 2``, seed ``g`` for the game and the bots); ``--tables N``:
4-seat tables of experts and of greedy bots (`bench.bots_haenyeo.table_of`); ``--ladder N``:
master against expert and beginner against greedy at 2 seats. Win rates are printed with n and
a 95 % Wilson interval (a shared victory counts 1/k), scores with a 95 % interval, decision CPU
(``time.process_time``) p50/p95. Figures only: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import engine
from bench.bots_haenyeo import table_of
from bench.stats import mean_interval, percentile, wilson
from engine.bots import LIVE_THINKING, policy, seated, thinking_time
from engine.haenyeo import actions as A
from engine.haenyeo.ai.greedy import choose_cards as greedy_cards
from engine.haenyeo.ai.greedy import greedy_policy, toggle_towards
from engine.haenyeo.ai.values import GUESS_TRUST, greedy_zone_values, occupancy
from engine.haenyeo.components import C, creature_mask
from engine.haenyeo.state import State

GAME_KEY = "haenyeo"
#: Candidate card sets kept for the play-outs (the greedy values' best ones).
CANDIDATES = 8
#: Noise of the greedy card choice standing in for another seat's hidden cards.
MODEL_NOISE = 0.8


# ------------------------------------------------------------------ what a seat may know


def determinize(state: State, seat: int, rng: random.Random) -> State:
    """A state with every part ``seat`` cannot see re-drawn: the other seats' unrevealed cards
    blanked (`fill_others` draws them), a fresh seed (the NPC's draw) and the decks beyond this
    round shuffled."""
    info = state.copy()
    info.__dict__.pop("_legal", None)
    if state.phase == "select":
        info.chosen = tuple(state.chosen[s] if s == seat else 0 for s in range(state.seats))
        info.confirmed = tuple(state.confirmed[s] if s == seat else 0 for s in range(state.seats))
    info.seed = rng.randrange(1 << 30)
    r = min(state.round, C.rounds)
    shallow, deep = list(state.shallow[r:]), list(state.deep[r:])
    rng.shuffle(shallow)
    rng.shuffle(deep)
    info.shallow = (*state.shallow[:r], *shallow)
    info.deep = (*state.deep[:r], *deep)
    return info


def public_key(state: State, seat: int) -> tuple:
    """What ``seat`` sees of a selection, apart from its own toggles (memo of one round's choice)."""
    hidden = {"chosen", "confirmed", "seed", "shallow", "deep", "npc_cards", "_legal"}
    return (seat, tuple((k, v) for k, v in sorted(state.__dict__.items()) if k not in hidden))


def candidates(state: State, seat: int, keep: int) -> list[int]:
    """The ``keep`` card sets with the best greedy expected value (crowding and connection rough)."""
    alone, shared = greedy_zone_values(state, seat)
    q = occupancy(state)
    others = sum(state.pawns) - state.pawns[seat] + (C.npc_cards if state.npc else 0)
    lonely = math.exp(-others / 12)
    expect = [lonely * a + (1 - lonely) * s for a, s in zip(alone, shared, strict=True)]
    scored = []
    for combo in combinations(range(12), state.pawns[seat]):
        mask = 0
        for z in combo:
            mask |= 1 << z
        own = mask | creature_mask(mask)
        total = 0.0
        for z in combo:
            chance = 1.0
            for y in range(1, z):
                if not own >> y & 1:
                    chance *= GUESS_TRUST * q + (1 - GUESS_TRUST) * q * 0.5
            total += expect[z] * chance
        scored.append((total, mask))
    scored.sort(reverse=True)
    return [mask for _, mask in scored[:keep]]


# ------------------------------------------------------------------ play-outs


def play_out(game, state: State, seat: int) -> float:
    """Play to the end with greedy everywhere; ``seat``'s outcome: 1 a win (1/k shared), plus the
    margin over the best other seat / 1000 (ties broken by how much)."""
    while to_act := game.to_act(state):
        s = min(to_act)
        state = game.advance(state, s, greedy_policy(game, state, s, None))
    result = game.result(state)
    mine = result.scores[seat]
    best_other = max(v for i, v in enumerate(result.scores) if i != seat)
    won = 1 / len(result.winners) if seat in result.winners else 0.0
    return won + (mine - best_other) / 1000


def with_cards(game, info: State, seat: int, mine: int, others: dict[int, int]) -> State:
    """``info`` with every seat's cards placed and revealed (the last confirm deploys)."""
    state = info.copy()
    state.__dict__.pop("_legal", None)
    chosen = list(state.chosen)
    for s, mask in others.items():
        chosen[s] = mask
    chosen[seat] = mine
    state.chosen = tuple(chosen)
    state.confirmed = tuple(0 if s == seat else 1 for s in range(state.seats))
    return game.advance(state, seat, A.CONFIRM)


def search_cards(
    game,
    state: State,
    seat: int,
    rng: random.Random,
    rollouts: int,
    others_model: Callable[[State, int, random.Random], int],
) -> int:
    """The candidate card set with the best mean play-out, by successive halving over ``rollouts``
    play-outs (each round of halving shares its determinizations among the candidates)."""
    alive = candidates(state, seat, min(CANDIDATES, max(2, rollouts // 2)))
    if len(alive) == 1:
        return alive[0]
    totals = dict.fromkeys(alive, 0.0)
    counts = dict.fromkeys(alive, 0)
    stages = max(1, math.ceil(math.log2(len(alive))))
    left = rollouts
    while len(alive) > 1:
        per = max(1, left // (stages * len(alive)))
        for _ in range(per):
            info = determinize(state, seat, rng)
            others = {s: others_model(info, s, rng) for s in range(state.seats) if s != seat}
            for mask in alive:
                totals[mask] += play_out(game, with_cards(game, info, seat, mask, others), seat)
                counts[mask] += 1
        left -= per * len(alive)
        stages = max(1, stages - 1)
        alive.sort(key=lambda m: totals[m] / counts[m], reverse=True)
        alive = alive[: max(1, len(alive) // 2)]
    return alive[0]


def greedy_guess(info: State, other: int, rng: random.Random) -> int:
    """Another seat's hidden cards: the greedy choice with fresh noise."""
    mask = 0
    for z in greedy_cards(info, other, rng, MODEL_NOISE):
        mask |= 1 << z
    return mask


class Rollout:
    """The full-game rollout searcher (see the module doc), a policy object."""

    def __init__(self, rollouts: int) -> None:
        self.rollouts = rollouts
        self.memo: dict[tuple, int] = {}

    def want(self, game, state: State, seat: int, rng: random.Random) -> int:
        key = public_key(state, seat)
        if key not in self.memo:
            self.memo[key] = search_cards(game, state, seat, rng, self.rollouts, greedy_guess)
        return self.memo[key]

    def __call__(self, game, state: State, seat: int, rng: random.Random) -> A.Action:
        options = game.legal_actions(state, seat)
        if len(options) == 1:
            return options[0]
        if state.phase == "select":
            mask = self.want(game, state, seat, rng)
            return toggle_towards(state, seat, {z for z in range(12) if mask >> z & 1})
        return greedy_policy(game, state, seat, rng)


class Exploiter(Rollout):
    """Predicts the expert's cards with the expert's own code on the public position and a guessed
    seed, and best-responds to them by play-outs (see the module doc)."""

    def __init__(self, rollouts: int, knows_seed: bool = False) -> None:
        super().__init__(rollouts)
        self.knows_seed = knows_seed
        self.hits = 0
        self.predictions = 0
        self.last: int | None = None

    def predict(self, state: State, seat: int, rng: random.Random) -> int:
        from engine.haenyeo.ai.expert import choose_cards  # the expert's own code, as anyone can run

        public = state.copy()
        public.__dict__.pop("_legal", None)
        public.chosen = (0,) * state.seats
        public.confirmed = (0,) * state.seats
        public.npc_cards = 0
        if not self.knows_seed:
            public.seed = rng.randrange(1 << 30)  # its guess: the real one is the table's secret
        mask = 0
        for z in choose_cards(public, seat):
            mask |= 1 << z
        return mask

    def want(self, game, state: State, seat: int, rng: random.Random) -> int:
        key = public_key(state, seat)
        if key not in self.memo:
            expert = 1 - seat
            predicted = self.predict(state, expert, rng)
            self.memo[key] = search_cards(game, state, seat, rng, self.rollouts, lambda i, s, r: predicted)
            self.last = predicted
        return self.memo[key]

    def revealed(self, mask: int) -> None:
        """The expert's cards, revealed: count whether the prediction was right."""
        if self.last is not None:
            self.predictions += 1
            self.hits += mask == self.last
            self.last = None


# ------------------------------------------------------------------ matches


@dataclass
class Duel:
    """What a 2-seat match measured."""

    hero: str
    other: str
    games: int = 0
    wins: float = 0.0
    hero_scores: list[int] = field(default_factory=list)
    other_scores: list[int] = field(default_factory=list)
    hero_cpu: list[float] = field(default_factory=list)
    other_cpu: list[float] = field(default_factory=list)
    hero_game_cpu: list[float] = field(default_factory=list)
    other_game_cpu: list[float] = field(default_factory=list)


def duel(
    hero: str,
    hero_policy,
    other: str,
    other_policy,
    games: int,
    start: int,
    names: tuple[str | None, str | None] | None = None,
) -> Duel:
    """``games`` 2-seat games, ``hero`` in seat ``g % 2`` of game ``g``; ``names``: what the bots are
    told plays (hero, other) (default: their names)."""
    game = engine.get(GAME_KEY)
    told = names or (hero, other)
    match = Duel(hero, other)
    for g in range(start, start + games):
        me = g % 2
        rng = random.Random(g)
        state = game.new(2, seed=g)
        seats = [told[0] if s == me else told[1] for s in range(2)]
        spent = [0.0, 0.0]
        with seated(seats):
            while to_act := game.to_act(state):
                seat = min(to_act)
                chooser = hero_policy if seat == me else other_policy
                began = time.process_time()
                action = chooser(game, state, seat, rng)
                used = time.process_time() - began
                spent[seat] += used
                (match.hero_cpu if seat == me else match.other_cpu).append(used)
                was = state.phase
                state, _ = game.apply(state, seat, action)
                if was == "select" and state.phase != "select" and hasattr(other_policy, "revealed"):
                    other_policy.revealed(state.chosen[me])
        result = game.result(state)
        match.games += 1
        if me in result.winners:
            match.wins += 1 / len(result.winners)
        match.hero_scores.append(result.scores[me])
        match.other_scores.append(result.scores[1 - me])
        match.hero_game_cpu.append(spent[me])
        match.other_game_cpu.append(spent[1 - me])
    return match


def duel_report(match: Duel, target: float | None = None) -> str:
    low, high = wilson(match.wins, match.games)
    rate = match.wins / match.games
    goal = ""
    if target is not None:
        met = "met" if low >= target else "not proven" if rate >= target else "NOT met"
        goal = f"; target ≥ {target:.0%}: {met}"
    ratio = statistics.mean(match.other_game_cpu) / max(1e-9, statistics.mean(match.hero_game_cpu))
    return (
        f"2 seats, {match.hero} vs {match.other}: {match.games} games, {match.hero} wins "
        f"{match.wins:g} = {rate:.0%} (95 % interval {low:.0%}–{high:.0%}{goal}); "
        f"scores {mean_interval(match.hero_scores)} vs {mean_interval(match.other_scores)}; "
        f"CPU per game {statistics.mean(match.hero_game_cpu):.3f} s vs "
        f"{statistics.mean(match.other_game_cpu):.3f} s ({ratio:.1f}×); "
        f"{match.hero} CPU per decision p50 {percentile(match.hero_cpu, 0.5) * 1000:.1f} ms, "
        f"p95 {percentile(match.hero_cpu, 0.95) * 1000:.1f} ms, "
        f"max {max(match.hero_cpu) * 1000:.1f} ms"
    )


def expert_game_cpu(games: int, start: int) -> float:
    """The expert's mean CPU per 2-seat game against greedy (for sizing the rollout searcher)."""
    match = duel("expert", policy(GAME_KEY, "expert"), "greedy", policy(GAME_KEY, "greedy"), games, start)
    return statistics.mean(match.hero_game_cpu)


def rollout_cost(games: int, start: int) -> float:
    """CPU of one play-out from a round's start, averaged over the rounds of ``games`` games."""
    game = engine.get(GAME_KEY)
    costs = []
    for g in range(start, start + games):
        state = game.new(2, seed=g)
        while game.to_act(state):
            if state.phase == "select" and not any(state.chosen):
                rng = random.Random(g)
                info = determinize(state, 0, rng)
                mine = candidates(state, 0, 1)[0]
                began = time.process_time()
                play_out(game, with_cards(game, info, 0, mine, {1: greedy_guess(info, 1, rng)}), 0)
                costs.append(time.process_time() - began)
            seat = min(game.to_act(state))
            state = game.advance(state, seat, greedy_policy(game, state, seat, None))
    return statistics.mean(costs)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="2-seat games per match (default 40)")
    parser.add_argument("--start", type=int, default=1000, help="first seed (default 1000)")
    parser.add_argument("--times", type=float, default=10.0, help="the rollout searcher's CPU multiple")
    parser.add_argument("--rollouts", type=int, default=0, help="play-outs per selection (0: calibrate)")
    parser.add_argument(
        "--exploiter-rollouts",
        type=int,
        default=0,
        help="the exploiter's play-outs (0: the rollout searcher's)",
    )
    parser.add_argument("--exploiter-knows-seed", action="store_true", help="the control")
    parser.add_argument("--tables", type=int, default=0, help="4-seat tables of experts and of greedy")
    parser.add_argument("--master", type=int, default=0, help="master-expert games (3 s a master move)")
    parser.add_argument("--ladder", type=int, default=0, help="beginner-greedy games")
    parser.add_argument("--skip", nargs="*", default=(), choices=("rollout", "exploiter"))
    args = parser.parse_args(argv)
    expert = policy(GAME_KEY, "expert")
    rollouts = args.rollouts
    if not rollouts:
        per_game = expert_game_cpu(6, 900)
        cost = rollout_cost(3, 900)
        rollouts = max(2, round(args.times * per_game / C.rounds / cost))
        print(
            f"calibration (seeds 900-905): expert {per_game:.3f} s CPU per 2-seat game, a play-out "
            f"{cost * 1000:.1f} ms: {rollouts} play-outs per selection for {args.times:g}×",
            flush=True,
        )
    if "rollout" not in args.skip:
        match = duel("expert", expert, f"rollout-{rollouts}", Rollout(rollouts), args.games, args.start)
        print(duel_report(match, 0.45), flush=True)
    if "exploiter" not in args.skip:
        exploiter = Exploiter(args.exploiter_rollouts or rollouts, args.exploiter_knows_seed)
        label = f"exploiter-{exploiter.rollouts}" + (" (knows the seed)" if args.exploiter_knows_seed else "")
        match = duel("expert", expert, label, exploiter, args.games, args.start, names=("expert", None))
        print(duel_report(match, None if args.exploiter_knows_seed else 0.40), flush=True)
        print(
            f"  its predictions of the expert's cards: {exploiter.hits} right of {exploiter.predictions}",
            flush=True,
        )
    if args.tables:
        for level in ("expert", "greedy"):
            scores, cpu = table_of(level, args.tables, args.start)
            p50, p95 = percentile(cpu, 0.5) * 1000, percentile(cpu, 0.95) * 1000
            print(
                f"4 seats, all {level}: {args.tables} games, score per seat {mean_interval(scores)}; "
                f"CPU per decision p50 {p50:.1f} ms, p95 {p95:.1f} ms",
                flush=True,
            )
    if args.master:
        with thinking_time(LIVE_THINKING):
            match = duel("master", policy(GAME_KEY, "master"), "expert", expert, args.master, args.start)
        print(duel_report(match), flush=True)
    if args.ladder:
        greedy = policy(GAME_KEY, "greedy")
        print(
            duel_report(
                duel("beginner", policy(GAME_KEY, "beginner"), "greedy", greedy, args.ladder, args.start)
            )
        )


if __name__ == "__main__":
    main()
