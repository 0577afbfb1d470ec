"""One seeded game of bots, each seat by its level: the game loop the bot benches share."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

import engine
from engine.bots import policy, seated


def play(
    game_key: str, levels: Sequence[str], seed: int, cpu: dict[str, list[float]], tell: bool = True
) -> tuple[list[float], frozenset[int]]:
    """One seeded game with seat ``i`` played by ``levels[i]``, every bot told what plays each seat
    (`engine.bots.seated`, as the hosting tells them; not when ``tell`` is false): (final scores,
    winning seats). Each decision's CPU seconds (``time.process_time``) go to ``cpu`` under its
    level."""
    game = engine.get(game_key)
    chosen = [policy(game_key, level) for level in levels]
    state, rng = game.new(len(levels), seed), random.Random(seed)
    with seated(levels if tell else None):
        while actors := game.to_act(state):
            seat = min(actors)
            began = time.process_time()
            action = chosen[seat](game, state, seat, rng)
            cpu.setdefault(levels[seat], []).append(time.process_time() - began)
            state, _ = game.apply(state, seat, action)
    result = game.result(state)
    return [float(score) for score in result.scores], result.winners
