"""Simple Jeju Island plans against the greedy bot, at 2, 3 and 4 seats (docs/rules/jeju.md).

Run ``python -m bench.jeju_plans [--games N] [--seats 2 3 4] [--plans NAME ...]``.

Each plan is a policy that differs from ``greedy`` (engine/jeju/ai/greedy.py) only in
which face-up point card it takes, or whether it takes one at all; it travels,
pays and moves the Harubang as greedy does, and a plan with nothing to say about
a decision leaves it to greedy. One seat plays the plan and every
other seat plays greedy; the plan's seat goes round the table with the seed
(seat ``seed % seats``), so first-player advantage is shared out. Game ``g`` at
``n`` seats uses seed ``g`` and ``random.Random(g)`` whatever the plan, so plans
meet the same deals.

It prints, per seat count: the all-greedy figures (mean score, mean game length
in turns, how games ended) and, per plan, its win rate with a 95 % Wilson
interval, its mean score and its mean margin over the best greedy seat. A plan
"dominates" when its win rate is well above the fair share 1/n.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable

import engine
from bench.stats import wilson
from engine.bots import Policy, play_out
from engine.jeju import actions as A
from engine.jeju import state as st
from engine.jeju.ai import values
from engine.jeju.ai.greedy import greedy_policy
from engine.jeju.ai.values import best_travel
from engine.jeju.components import CARDS

GAME = engine.get("jeju")

#: Returned by a plan that leaves this decision to greedy.
GREEDY = -1

#: A plan: (state, seat, affordable face-up cards) -> the card to take, None to take
#: none now (travel, or end the turn), or GREEDY to do what greedy would.
Chooser = Callable[[st.JejuState, int, list[int]], int | None]


def _best(cards: list[int], key: Callable[[int], tuple]) -> int | None:
    return max(cards, key=key) if cards else None


def _points(card_id: int) -> tuple[int, int]:
    card = CARDS[card_id]
    return card.points, -len(card.cost)


def greedy_itself(state: st.JejuState, seat: int, cards: list[int]) -> int | None:
    """Greedy as it is (the control: its win rate against greedy is the fair share)."""
    return GREEDY


def everlasting_first(state: st.JejuState, seat: int, cards: list[int]) -> int | None:
    """Take every Everlasting card the moment it can be paid; otherwise play greedy."""
    lasting = [c for c in cards if CARDS[c].effect == "everlasting"]
    return _best(lasting, _points) if lasting else GREEDY


def effects_first(state: st.JejuState, seat: int, cards: list[int]) -> int | None:
    """Take every Instant Harubang and Card Refresh card the moment it can; otherwise greedy."""
    special = [c for c in cards if CARDS[c].effect in ("harubang", "refresh")]
    return _best(special, _points) if special else GREEDY


def most_points_first(state: st.JejuState, seat: int, cards: list[int]) -> int | None:
    """Take the face-up card worth the most points whenever it can be paid; otherwise greedy."""
    top = max((_points(c)[0] for c in state.display), default=0)
    wanted = [c for c in cards if CARDS[c].points == top]
    return _best(wanted, _points) if wanted else GREEDY


def save_for_the_best(state: st.JejuState, seat: int, cards: list[int]) -> int | None:
    """Take only the face-up card worth the most points, saving tiles until it can be paid."""
    top = max((_points(c)[0] for c in state.display), default=0)
    wanted = [c for c in cards if CARDS[c].points == top]
    return _best(wanted, _points)


def cheapest_first(state: st.JejuState, seat: int, cards: list[int]) -> int | None:
    """Take a card whenever one can be paid: the one needing the fewest tiles, most points first."""
    return _best(cards, lambda c: (-len(CARDS[c].cost), CARDS[c].points))


def always_buy(state: st.JejuState, seat: int, cards: list[int]) -> int | None:
    """Take a card whenever one can be paid, the most points first (the greedy bot before re-tuning)."""
    return _best(cards, values.card_key)


def hoard(state: st.JejuState, seat: int, cards: list[int]) -> int | None:
    """Take no card at all: score by leftover tiles only."""
    return None


PLANS: dict[str, Chooser] = {
    "greedy": greedy_itself,
    "everlasting-first": everlasting_first,
    "effects-first": effects_first,
    "most-points-first": most_points_first,
    "save-for-the-best": save_for_the_best,
    "cheapest-first": cheapest_first,
    "always-buy": always_buy,
    "hoard": hoard,
}


def plan_policy(choose: Chooser) -> Policy:
    """Greedy, with the choice of point cards (and whether to take one) made by ``choose``."""

    def policy(game, state: st.JejuState, seat: int, rng: random.Random):
        if state.phase in (st.TURN, st.BUYING):
            actions = game.legal_actions(state, seat)
            cards = [a.card for a in actions if type(a) is A.TakeCard]
            chosen = choose(state, seat, cards)
            if chosen == GREEDY:
                return greedy_policy(game, state, seat, rng)
            if chosen is not None:
                return A.TakeCard(chosen)
            if state.phase == st.BUYING:
                return A.EndTurn()
            travels = [a for a in actions if type(a) is A.Travel]
            return best_travel(state, seat, travels, rng)[0]
        return greedy_policy(game, state, seat, rng)

    return policy


def all_greedy(seats: int, games: int) -> dict:
    """Every seat greedy: mean score, mean game length (turns), how the games ended."""
    greedy = greedy_policy
    scores, turns, ends = [], [], {"deck": 0, "tiles": 0}
    for seed in range(games):
        final = play_out(GAME, GAME.new(seats, seed), lambda _s: greedy, random.Random(seed))
        scores.extend(GAME.result(final).scores)
        turns.append(final.turn)
        ends[final.end_reason] += 1
    return {
        "seats": seats,
        "games": games,
        "mean_score": statistics.mean(scores),
        "mean_turns": statistics.mean(turns),
        "turns_per_seat": statistics.mean(turns) / seats,
        "ends": ends,
    }


def match(plan: str, seats: int, games: int) -> dict:
    """One seat on ``plan``, the others greedy; the plan's seat rotates with the seed."""
    mine = plan_policy(PLANS[plan])
    wins = 0.0
    own, margin = [], []
    for seed in range(games):
        seat = seed % seats
        final = play_out(
            GAME,
            GAME.new(seats, seed),
            lambda s, seat=seat: mine if s == seat else greedy_policy,
            random.Random(seed),
        )
        res = GAME.result(final)
        if seat in res.winners:
            wins += 1 / len(res.winners)
        own.append(res.scores[seat])
        margin.append(res.scores[seat] - max(x for s, x in enumerate(res.scores) if s != seat))
    low, high = wilson(wins, games)
    return {
        "plan": plan,
        "seats": seats,
        "games": games,
        "win_rate": wins / games,
        "low": low,
        "high": high,
        "mean_score": statistics.mean(own),
        "margin": statistics.mean(margin),
    }


def main(argv: list[str] | None = None) -> int:
    """Print the all-greedy figures and each plan's record against greedy."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per plan and seat count")
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--plans", nargs="+", default=list(PLANS), choices=list(PLANS))
    args = parser.parse_args(argv)
    for seats in args.seats:
        base = all_greedy(seats, args.games)
        print(
            f"{seats} seats, all greedy ({base['games']} games): mean score {base['mean_score']:.1f}, "
            f"{base['mean_turns']:.1f} turns ({base['turns_per_seat']:.1f} per seat), "
            f"ended by deck {base['ends']['deck']} / tiles {base['ends']['tiles']}"
        )
        print(f"  fair share {1 / seats:.0%}")
        for plan in args.plans:
            row = match(plan, seats, args.games)
            print(
                f"  {plan:18} win {row['win_rate']:5.1%} [{row['low']:.0%}-{row['high']:.0%}] "
                f"of {row['games']}, score {row['mean_score']:.1f}, margin {row['margin']:+.1f}"
            )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
