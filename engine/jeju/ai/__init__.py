"""Jeju Island's bots: the policies by name (`POLICIES`, read by `engine.bots`) and a hint's why.

Modules, each importing only those above it: `values` (what a move is worth now),
`random`, `greedy` (the best move now), `beginner` (greedy's view, weighed roughly), `playout`
(the expert's own play-out policy: greedy's valuation with self-play-tuned constants),
`expert` (determinized look-ahead over play-outs, playing to win; `master`: the
same search, longer), `hints` (`explain`: one line of why for a suggested move,
`hosting.service.explain`). docs/rules/jeju.md describes
each policy.
"""

from __future__ import annotations

from engine.jeju import actions as A
from engine.jeju.ai.beginner import beginner_policy
from engine.jeju.ai.expert import expert_policy, master_policy
from engine.jeju.ai.greedy import greedy_policy
from engine.jeju.ai.hints import explain
from engine.jeju.ai.playout import playout_policy
from engine.jeju.ai.random import random_policy

__all__ = ["GOOD_PLAYERS", "OPEN_MOVES", "POLICIES", "explain"]

#: The moves `engine.reading` may read a person's level from (every move is made in sight of
#: everyone; "back" only undoes a card's choice).
OPEN_MOVES = (A.PlaceToken, A.PlaceHarubang, A.Travel, A.MoveHarubang, A.TakeCard, A.Pay, A.EndTurn)

#: Cheap policies whose moves `engine.reading` counts as "greedy or better" beside greedy's: the
#: expert's play-out policy plays well (98 % of games against greedy) and often leaves greedy's move,
#: as a strong person does; without it the reader took the expert for a random player.
GOOD_PLAYERS = (playout_policy,)

#: ``policy(game, state, seat, rng) -> action`` by name (see `engine.bots`).
POLICIES = {
    "random": random_policy,
    "beginner": beginner_policy,
    "greedy": greedy_policy,
    "expert": expert_policy,
    "master": master_policy,
}
