"""The ``beginner`` Reef & Ruins policy: a player who knows the rules but not yet the game.

It plans its round with greedy's planner (`engine.reef.ai.greedy.best_round`) and a beginner's habits:
it places the dice one at a time where they pay now, but now and then writes a die
in its second-best place (`SLIP`), it often forgets to search a ruin or cast an
enchantment (`SEARCHES` is the chance it considers them in a round), and it counts
only what a sheet holds now and what the next `HORIZON` rounds may bring, not the
rest of the game. Its slips come from a digest of the round-start sheet and the
seat (`noise_key`), so a plan is the same at every step of its round and the policy
is deterministic for any rng; it never reads future dice.
"""

from __future__ import annotations

import hashlib
import random
from functools import lru_cache

from engine.base import Game
from engine.reef.actions import Act
from engine.reef.ai.greedy import Choose, Habits, Plan, best_round, follow
from engine.reef.state import Sheet

#: The chance a die goes to its second-best place instead of its best.
SLIP = 0.2
#: The chance, per round, that it thinks of searching a ruin or casting an enchantment at all.
SEARCHES = 0.7
#: Rounds ahead it counts hopes over (greedy counts the rest of the game).
HORIZON = 3
#: Shell pairs it spends on one die at most (greedy up to `PLACE_REACH`).
REACH = 1
#: Round plans remembered (like greedy's `PLANS_KEPT`).
PLANS_KEPT = 256


def noise_key(sheet: Sheet, seat: int, left: int) -> str:
    """The seed of a round's slips: the round-start sheet, the seat and the rounds left."""
    return hashlib.sha256(f"{seat}:{left}:{sheet!r}".encode()).hexdigest()


def slipping(rng: random.Random) -> Choose:
    """The beginner's choice: the best option, or now and then (`SLIP`) the second best."""

    def choose(scored: list[tuple[float, list[Act]]], _tolerance: float) -> list[Act]:
        scored.sort(key=lambda pair: -pair[0])
        if len(scored) > 1 and rng.random() < SLIP:
            return scored[1][1]
        return scored[0][1]

    return choose


#: How the beginner plans: greedy's planner with fewer shells per die and openings forgotten.
HABITS = Habits(reach=REACH, searches=SEARCHES)


@lru_cache(maxsize=PLANS_KEPT)
def beginner_round(sheet: Sheet, reef_key: str, left: int, key: str) -> tuple[Plan, tuple[Sheet, ...]]:
    """A beginner's whole-round plan from ``sheet`` (slips seeded by ``key``), with the sheet
    before each of its steps: greedy's planner (`best_round`) with the beginner's habits,
    counting only `HORIZON` rounds ahead."""
    rng = random.Random(key)
    return best_round(sheet, reef_key, min(left, HORIZON), HABITS, rng, slipping(rng))


def beginner_policy(game: Game, state, seat: int, rng: random.Random) -> Act:
    """Plan the round from its start as a beginner would, then play the plan one legal step at a time."""
    return follow(
        game,
        state,
        seat,
        lambda origin, left: beginner_round(origin, state.reef, left, noise_key(origin, seat, left)),
    )


__all__ = [
    "HABITS",
    "HORIZON",
    "REACH",
    "SEARCHES",
    "SLIP",
    "beginner_policy",
    "beginner_round",
    "noise_key",
    "slipping",
]
