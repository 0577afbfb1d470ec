"""Digest of bot moves on seeded solo games (a check that speed work changes no move).

``python -m bench.reef_check [--expert-games N]`` prints one digest line per policy."""

from __future__ import annotations

import argparse
import hashlib
import random
import time

import engine
from engine.bots import policy

GAME = engine.get("reef")


def digest(name: str, seeds: range, options: dict) -> tuple[str, float, list[int]]:
    """The sha1 of every move ``name`` plays on ``seeds``, the CPU it took, and the scores."""
    chosen = policy("reef", name)
    h = hashlib.sha1()
    scores = []
    started = time.process_time()
    for seed in seeds:
        state = GAME.new(1, seed, options)
        rng = random.Random(seed)
        while GAME.to_act(state):
            action = chosen(GAME, state, 0, rng)
            h.update(repr(action).encode())
            state, _ = GAME.apply(state, 0, action)
        scores.append(GAME.result(state).scores[0])
    return h.hexdigest()[:12], time.process_time() - started, scores


def main() -> None:
    """Print the digests."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--expert-games", type=int, default=1)
    parser.add_argument("--policies", default="random,greedy,beginner,expert")
    args = parser.parse_args()
    options = {"reef": "bewitching-barrier", "tracker": "sunrise"}
    counts = {"random": 40, "greedy": 20, "beginner": 20, "expert": args.expert_games, "master": 1}
    for name in args.policies.split(","):
        for opts in (options, {"reef": "arcane-atoll", "tracker": "moonrise"}):
            n = counts[name] if opts is options else max(1, counts[name] // 4)
            if name in ("expert", "master") and opts is not options:
                continue
            code, cpu, scores = digest(name, range(500, 500 + n), opts)
            mean = sum(scores) / n
            print(f"{name} {opts['reef'][:6]} n={n}: {code} cpu {cpu:.2f}s mean {mean:.1f}", flush=True)


if __name__ == "__main__":
    main()
