"""A drawing process's memory over many pictures (issue #21): flat once its caches are full.

Run ``python -m bench.render_memory [--pictures N] [--every N] [--warmup N] [--budget MB]``.
One process draws as a picture worker does (`renderers.render` and `render_results`):
boards, private pictures and results of all three games at every seat count, from seeded
random play, a quarter of them in Korean. The seats' names are drawn from a pool that keeps
growing (a new name every few pictures, as a community's players come and go), so the text
caches never stop seeing new words: the worst case for a cache bounded by entries.

Every ``--every`` pictures it prints the process's resident memory, what the cached parts
hold (`renderers.memo`) and the drawing time's median, and at the end the growth of the
resident memory per 1,000 pictures after ``--warmup``. Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import engine
import renderers
from bench.memory import rss_mb, slope
from bench.render import collect_views
from renderers import memo

#: The seat counts drawn, per game.
SEATS = {"haenyeo": (2, 3, 4, 5), "jeju": (2, 3, 4), "reef": (1, 2, 3, 4)}
#: A new name joins the pool once in this many pictures.
NEW_NAME_EVERY = 4
#: Share of pictures drawn in Korean.
KOREAN = 0.25


def pictures_to_draw(seed: int) -> list[tuple[str, str, int, dict]]:
    """(game, kind, seats, view) for every game and seat count, from a few random games each."""
    drawn = []
    for key, counts in SEATS.items():
        for seats in counts:
            if not engine.get(key).min_seats <= seats <= engine.get(key).max_seats:
                continue
            views = collect_views(key, seats, games=3, per_game=6)
            drawn += [(key, kind, seats, view) for kind, kind_views in views.items() for view in kind_views]
    random.Random(seed).shuffle(drawn)
    return drawn


def main() -> None:
    """Draw, sample, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pictures", type=int, default=6000, help="pictures to draw")
    parser.add_argument("--every", type=int, default=500, help="print a sample every N pictures")
    parser.add_argument("--warmup", type=int, default=1500, help="pictures before the growth is measured")
    parser.add_argument(
        "--budget", type=int, default=0, help="the cached parts' budget in MB (default: the bot's)"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.budget:
        memo.set_budget(args.budget * 1024 * 1024)
    pictures = pictures_to_draw(args.seed)
    rng = random.Random(args.seed)
    names = [f"player{i}" for i in range(8)]
    print(
        f"render memory: {len(pictures)} views cycled, {args.pictures} pictures, "
        f"budget {memo.budget() / 2**20:.0f} MB, start {rss_mb():.1f} MB resident"
    )
    print(f"{'pictures':>8} {'resident MB':>11} {'cached MB':>9} {'entries':>7} {'median ms':>9}")
    after_warmup: list[tuple[float, float]] = []  # (thousands of pictures, MB)
    times: list[float] = []
    for count in range(1, args.pictures + 1):
        if count % NEW_NAME_EVERY == 0:
            names.append(f"{rng.choice(('sea', 'reef', 'wave', '해녀', 'jeju'))}{len(names)}")
        key, kind, seats, view = pictures[count % len(pictures)]
        seated = rng.sample(names, seats)
        lang = "ko" if rng.random() < KOREAN else "en"
        started = time.perf_counter()
        if kind == "results":
            renderers.render_results(key, view, seated, lang)
        else:
            renderers.render(key, view, seated, lang)
        times.append((time.perf_counter() - started) * 1000)
        if count % args.every == 0:
            resident = rss_mb()
            entries, held = memo.held()
            print(
                f"{count:>8} {resident:>11.1f} {held / 2**20:>9.1f} {entries:>7} "
                f"{statistics.median(times):>9.1f}",
                flush=True,
            )
            times.clear()
            if count >= args.warmup:
                after_warmup.append((count / 1000, resident))
    if after_warmup:
        thousands, resident = zip(*after_warmup, strict=True)
        print(
            f"resident after warm-up {resident[0]:.1f} MB, at the end {resident[-1]:.1f} MB: "
            f"{slope(list(thousands), list(resident)):+.2f} MB per 1,000 pictures"
        )


if __name__ == "__main__":
    main()
