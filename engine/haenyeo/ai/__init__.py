"""Haenyeo's seat policies and hints (see `engine.bots`): the registry, which moves
`engine.reading` may read a person's level from (``OPEN_MOVES``; ``SECRET_MOVES`` once ``shown``)
and how likely the expert was to make one (``expert_chance``).

``POLICIES``: ``random`` (`engine.haenyeo.ai.random`), ``beginner``
(`engine.haenyeo.ai.beginner`), ``greedy`` (`engine.haenyeo.ai.greedy`), ``expert``
(`engine.haenyeo.ai.expert`) and ``master`` (`engine.haenyeo.ai.master`: the expert's card
search played out to the end, as long as `engine.bots.thinking_budget` allows); ``explain``: the
line under a hint (`engine.haenyeo.ai.hints`).
The modules import one way only: `engine.haenyeo.ai.values` (what things are worth) ←
``greedy`` ← ``beginner``, ``expert`` ← ``master``, and ``hints`` reads ``values``.
"""

from __future__ import annotations

from random import Random  # `random` here is this package's random policy module

from engine.base import Game
from engine.haenyeo import actions as A
from engine.haenyeo.ai.beginner import beginner_policy
from engine.haenyeo.ai.expert import card_chances, expert_policy
from engine.haenyeo.ai.greedy import greedy_policy
from engine.haenyeo.ai.hints import explain
from engine.haenyeo.ai.master import master_policy
from engine.haenyeo.ai.random import random_policy
from engine.haenyeo.state import State

POLICIES = {
    "random": random_policy,
    "beginner": beginner_policy,
    "greedy": greedy_policy,
    "expert": expert_policy,
    "master": master_policy,
}

#: The moves `engine.reading` reads a person's level from as they are made: in sight of
#: everyone, each a whole decision.
OPEN_MOVES = (A.Harvest, A.TakeTrash, A.TakeSeafood, A.GainHaenyeo, A.Exchange, A.Done)
#: ... and once `shown`: confirming the diving cards (the choice is the cards toggled before it;
#: a toggle alone is only a step of it).
SECRET_MOVES = (A.Confirm,)


def shown(then: State, now: State) -> bool:
    """Whether diving cards confirmed at ``then`` are revealed at ``now``: every seat has confirmed
    (the round's actions have begun) or a later round has."""
    return now.phase != "select" or now.round != then.round


def expert_chance(game: Game, state: State, seat: int, action: A.Action) -> float:
    """How likely the expert, told nothing of the table, was to make ``action`` at ``state``, for
    `engine.reading` (is this player an expert?): confirmed diving cards by the share of its mixed
    card choice that was these cards (`card_chances`), any other move by whether it is the expert's."""
    if type(action) is A.Confirm:
        return card_chances(state, seat).get(state.chosen[seat], 0.0)
    return 1.0 if expert_policy(game, state, seat, Random(0)) == action else 0.0


__all__ = ["OPEN_MOVES", "POLICIES", "SECRET_MOVES", "expert_chance", "explain", "shown"]
