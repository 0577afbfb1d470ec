"""Reef & Ruins bots and hints: the registry of seat policies, by name (`engine.bots.policies`).

Layout, each module importing only the ones above it:

* `engine.reef.ai.values`: what a sheet and a move are worth (the valuations);
* `engine.reef.ai.random`: ``random``, any forward step;
* `engine.reef.ai.greedy`: ``greedy``, a whole round planned from its start;
* `engine.reef.ai.beginner`: ``beginner``, greedy's planner with a beginner's slips and short sight;
* `engine.reef.ai.expert`: ``expert``, greedy's planner with a two-round look-ahead over sampled dice;
* `engine.reef.ai.master`: ``master``, the expert's look-ahead sized by its thinking time;
* `engine.reef.ai.hints`: `explain`, a hint's line of why a move suits a seat.
"""

from __future__ import annotations

from engine.reef.ai.beginner import beginner_policy
from engine.reef.ai.expert import expert_policy
from engine.reef.ai.greedy import greedy_policy
from engine.reef.ai.hints import explain
from engine.reef.ai.master import master_policy
from engine.reef.ai.random import random_policy

POLICIES = {
    "random": random_policy,
    "beginner": beginner_policy,
    "greedy": greedy_policy,
    "expert": expert_policy,
    "master": master_policy,
}

__all__ = ["POLICIES", "explain"]
