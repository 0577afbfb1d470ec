"""The ``master`` Reef & Ruins policy: the expert's look-ahead with the search its time allows.

The Master level may think for `engine.bots.thinking_budget` seconds a move
(a few in live games, more at slow tables). It never reads a clock: the budget
is turned into a fixed amount of search (`search_for`) by a constant measured
on the bots' machine (`ROUNDS_PER_SECOND`, greedy rounds the look-ahead plays in a
second of CPU), so the same decision is made again on a replay or a faster
machine. The extra search goes to more candidates and more sampled rolls of the
next round and of the round after it (`engine.reef.ai.expert.Search`).
"""

from __future__ import annotations

import random

from engine.base import Game
from engine.bots import thinking_budget
from engine.reef.actions import Act
from engine.reef.ai.expert import EXPERT, Search, searching

#: Greedy rounds the look-ahead plays per second of CPU on the bots' machine (measured with
#: ``python -m bench.ref_reef --policies master``: its heaviest decisions take about the budget).
ROUNDS_PER_SECOND = 180
#: Candidates the master scores (the expert scores `EXPERT.candidates`).
CANDIDATES = 8


def search_for(seconds: float) -> Search:
    """The look-ahead that fits ``seconds`` of thinking: a candidate's share of the rounds split
    between sampled next rounds and sampled rounds after each; never less than the expert's."""
    rounds = seconds * ROUNDS_PER_SECOND / CANDIDATES
    # samples x (1 + deeper) rounds per candidate, with deeper about half of samples
    samples = max(EXPERT.samples, int((2 * rounds) ** 0.5))
    deeper = max(EXPERT.deeper, int(rounds / samples) - 1)
    return Search(
        candidates=CANDIDATES,
        samples=samples,
        deeper=deeper,
        boon=max(EXPERT.boon, 2 * samples),
        firsts=EXPERT.firsts,
        lucky=EXPERT.lucky,
    )


def master_policy(game: Game, state, seat: int, rng: random.Random) -> Act:
    """The expert's two-round look-ahead, searched as widely as `thinking_budget` allows."""
    return searching(game, state, seat, search_for(thinking_budget()))


__all__ = ["CANDIDATES", "ROUNDS_PER_SECOND", "master_policy", "search_for"]
