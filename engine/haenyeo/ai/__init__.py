"""Haenyeo's seat policies and hints (see `engine.bots`): the registry only.

``POLICIES``: ``random`` (`engine.haenyeo.ai.random`), ``beginner``
(`engine.haenyeo.ai.beginner`), ``greedy`` (`engine.haenyeo.ai.greedy`), ``expert``
(`engine.haenyeo.ai.expert`) and ``master`` (`engine.haenyeo.ai.master`: the expert's card
search played out to the end, as long as `engine.bots.thinking_budget` allows); ``explain``: the
line under a hint (`engine.haenyeo.ai.hints`).
The modules import one way only: `engine.haenyeo.ai.values` (what things are worth) ←
``greedy`` ← ``beginner``, ``expert`` ← ``master``, and ``hints`` reads ``values``.
"""

from __future__ import annotations

from engine.haenyeo import actions as A
from engine.haenyeo.ai.beginner import beginner_policy
from engine.haenyeo.ai.expert import expert_policy
from engine.haenyeo.ai.greedy import greedy_policy
from engine.haenyeo.ai.hints import explain
from engine.haenyeo.ai.master import master_policy
from engine.haenyeo.ai.random import random_policy

POLICIES = {
    "random": random_policy,
    "beginner": beginner_policy,
    "greedy": greedy_policy,
    "expert": expert_policy,
    "master": master_policy,
}

#: The moves `engine.reading` may read a person's level from: made in sight of everyone, each a
#: whole decision. Not the diving cards (toggles and confirming them): they are secret until
#: the reveal.
OPEN_MOVES = (A.Harvest, A.TakeTrash, A.TakeSeafood, A.GainHaenyeo, A.Exchange, A.Done)

__all__ = ["OPEN_MOVES", "POLICIES", "explain"]
