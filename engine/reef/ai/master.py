"""The ``master`` Reef & Ruins policy: the expert's look-ahead with the search its time allows.

The Master level may think for `engine.bots.thinking_budget` seconds a move
(a few in live games, more at slow tables). It never reads a clock: the budget
is turned into a fixed amount of search (`search_for`) by a constant measured
on the bots' machine (`ROUNDS_PER_SECOND`, greedy rounds the look-ahead plays in a
second of CPU), so the same decision is made again on a replay or a faster
machine. The extra search goes to more candidates and more sampled futures (a next
round and the round after it, each of its own: `engine.reef.ai.expert.Search`).
"""

from __future__ import annotations

import random

from engine.base import Game
from engine.bots import thinking_budget
from engine.reef.actions import Act
from engine.reef.ai.expert import EXPERT, Search, searching

#: Greedy rounds the look-ahead plays per second of CPU on the bots' machine, at its heaviest
#: decisions (measured with ``python -m bench.reef_tune``: the expert's 320-round plans, 10
#: candidates x 16 futures x 2 rounds, take up to about 1 s on the loaded 2-core machine).
ROUNDS_PER_SECOND = 320
#: Candidates the master scores (the expert scores `EXPERT.candidates`).
CANDIDATES = 12


def search_for(seconds: float) -> Search:
    """The look-ahead that fits ``seconds`` of thinking: a candidate's share of the rounds goes to
    more sampled futures (each `EXPERT.ahead` rounds long); never less than the expert's."""
    rounds = seconds * ROUNDS_PER_SECOND / CANDIDATES
    samples = max(EXPERT.samples, int(rounds / EXPERT.ahead))
    # the expert's other settings (its depth, its lucky numbers, its last round) stay as they are
    return EXPERT._replace(candidates=CANDIDATES, samples=samples, boon=samples, paths=True)


def master_policy(game: Game, state, seat: int, rng: random.Random) -> Act:
    """The expert's two-round look-ahead, searched as widely as `thinking_budget` allows."""
    return searching(game, state, seat, search_for(thinking_budget()))


__all__ = ["CANDIDATES", "ROUNDS_PER_SECOND", "master_policy", "search_for"]
