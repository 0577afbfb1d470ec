"""Render figures: time and PNG size per game and picture kind.

Run ``python -m bench.render [game ...] [--games N] [--per-game N] [--seats N] [--lang ko]``.
It plays seeded random games (``engine.bots.policy(key, "random")``), keeps views
at random mid-game moments and at the end, then renders on one core (the process
is pinned to one CPU where the OS allows) and prints, per game and kind:

* ``board``   — ``renderers.render(key, view(state, None))``, target median ≤ 40 ms;
* ``private`` — ``renderers.render(key, view(state, seat))``, target median ≤ 30 ms;
* ``results`` — ``renderers.render_results(key, final public view)``;

with the median and p95 CPU time, the median and largest PNG (target ≤ 300 KB), and
the median cost over the picture's own PNG encoding (target ≤ 1.3×, issue #17).
A game whose engine is not there yet is skipped, saying so; one without its
renderer module yet gets only the (generic) results figures.
Figures only: nothing here asserts a time.

``--samples DIR`` instead writes one sample picture of each kind per game
(``<game>-board.png``, ``<game>-private.png``, ``<game>-results.png``) from a
seeded game, for docs/images/, each also as a phone shows it, 400 px wide
(``<game>-board-400.png`` …).

``--phone`` instead prints, per game and kind, the smallest text over the views:
how tall its digits stand when the picture is shown 400 px wide (target ≥ 9 px).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import io
import math
import os
import random
import statistics
import time
from collections.abc import Callable

from PIL import Image

import engine
import renderers
from engine.bots import play_states, policies, policy
from renderers import common, phone

#: Seat counts the figures are quoted at (as in bench.engine).
REFERENCE_SEATS = {"haenyeo": 4, "jeju": 4, "reef": 1}
#: Median time targets in ms per picture kind; every picture at most 300 KB.
TARGET_MS = {"board": 40.0, "private": 30.0, "results": None}
TARGET_BYTES = 300_000
#: Issue #17: a picture costs at most this many times its own PNG encoding (the floor).
TARGET_RATIO = 1.3


def pin_one_core() -> str:
    """Pin this process to one CPU; returns a note of what happened."""
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    except (AttributeError, OSError):
        return "not pinned (no sched_setaffinity); single-threaded anyway"


def available(game_key: str) -> tuple[str | None, str | None]:
    """(why the engine cannot be used, why the game's renderer module cannot), None meaning it can."""
    try:
        engine.get(game_key)
        policies(game_key)
    except (ImportError, AttributeError) as error:
        return f"engine not there yet ({error})", "no engine"
    try:
        importlib.import_module(f"renderers.{game_key}")
    except ModuleNotFoundError as error:
        if error.name == f"renderers.{game_key}":
            return None, f"renderer not there yet (renderers/{game_key}.py)"
        raise
    return None, None


def collect_views(game_key: str, seats: int, games: int, per_game: int) -> dict[str, list]:
    """Public and private views at random mid-game moments, and final views, from seeded random play."""
    game = engine.get(game_key)
    chooser = policy(game_key, "random")
    views: dict[str, list] = {"board": [], "private": [], "results": []}
    for seed in range(games):
        rng = random.Random(seed)
        history = list(play_states(game, game.new(seats, seed=seed), lambda _seat: chooser, rng))
        state = history[-1]
        picks = sorted(rng.sample(range(len(history) - 1), min(per_game, len(history) - 1)))
        for index in picks:
            mid = history[index]
            views["board"].append(game.view(mid, None))
            views["private"].append(game.view(mid, rng.randrange(seats)))
        views["board"].append(game.view(state, None))
        views["private"].append(game.view(state, rng.randrange(seats)))
        views["results"].append(game.view(state, None))
    return views


def measure(
    draw: Callable[[dict], renderers.Picture], views: list[dict]
) -> tuple[list[float], list[int], list[float]]:
    """Per view: CPU milliseconds, PNG bytes, and the cost over its own PNG encoding (the floor).

    Times are this thread's CPU (`time.thread_time`), so other work on a shared machine does
    not inflate them. The floor is the finished picture mapped to its own palette and saved
    again: the encoding every picture pays, whatever was drawn. A short warm-up first fills
    fonts and cached layers.
    """
    for view in views[:3]:
        draw(view)
    times, sizes, ratios = [], [], []
    for view in views:
        started = time.thread_time()
        picture = draw(view)
        spent = time.thread_time() - started
        times.append(spent * 1000)
        sizes.append(len(picture.png))
        ratios.append(spent / max(1e-6, encoding_floor(picture.png)))
    return times, sizes, ratios


def encoding_floor(png: bytes) -> float:
    """CPU seconds to encode the same picture again: RGB mapped to its palette, then saved (best of 3)."""
    decoded = Image.open(io.BytesIO(png))
    decoded.load()
    palette = Image.new("P", (1, 1))
    palette.putpalette(decoded.getpalette() or [])
    rgb = decoded.convert("RGB")
    best = math.inf
    for _ in range(3):
        started = time.thread_time()
        common.encode_png(rgb, palette=palette)
        best = min(best, time.thread_time() - started)
    return best


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


SAMPLE_NAMES = ["Minji", "Tomás", "Aiko", "Jean-Baptiste", "Olu", "Sven"]


def write_samples(game_key: str, seats: int, directory: str, seed: int = 7, boards: bool = True) -> list[str]:
    """A board, a private and a results picture from a seeded game (only results when not
    ``boards``: the game has no renderer module yet); returns the paths written."""
    game = engine.get(game_key)
    chooser = policy(game_key, "greedy")
    rng = random.Random(seed)
    history = list(play_states(game, game.new(seats, seed=seed), lambda _seat: chooser, rng))
    state = history[-1]
    mid = history[len(history) * 3 // 5]
    acting = sorted(game.to_act(mid)) or [0]
    names = SAMPLE_NAMES[:seats]
    pictures = {"results": renderers.render_results(game_key, game.view(state, None), names)}
    if boards:
        pictures["board"] = renderers.render(game_key, game.view(mid, None), names)
        pictures["private"] = renderers.render(game_key, game.view(mid, acting[0]), names)
    os.makedirs(directory, exist_ok=True)
    paths = []
    for kind, picture in pictures.items():
        path = os.path.join(directory, f"{game_key}-{kind}.png")
        with open(path, "wb") as handle:
            handle.write(picture.png)
        small = os.path.join(directory, f"{game_key}-{kind}-400.png")
        phone.at_phone_width(picture).save(small, optimize=True)
        paths += [path, small]
    return paths


def phone_figures(games: list[str] | None = None, count: int = 3, per_game: int = 4) -> list[str]:
    """Per game and kind: the picture's size and its smallest text's height at phone width."""
    lines = [
        f"| game | picture | drawn at | smallest text at {common.PHONE_WIDTH} px wide "
        f"(target ≥ {common.PHONE_MIN_TEXT:g} px) | that text |",
        "| --- | --- | --- | --- | --- |",
    ]
    for key in games or list(engine.GAME_PACKAGES):
        seats = REFERENCE_SEATS.get(key, engine.get(key).min_seats)
        views = collect_views(key, seats, count, per_game)
        for kind in ("board", "private", "results"):
            draw = renderers.render_results if kind == "results" else renderers.render
            sizes = [phone.measure(functools.partial(draw, key, view)) for view in views[kind]]
            lines.append(_phone_row(key, kind, sizes))
    return lines


def _phone_row(key: str, kind: str, sizes: list[phone.TextSizes]) -> str:
    worst = min(sizes, key=lambda size: size.smallest.phone_px)
    smallest = worst.smallest
    return (
        f"| {key} | {kind} | {worst.width}×{worst.height} | {smallest.phone_px:.1f} px "
        f"({smallest.size} px font) | {smallest.text[:30]!r} |"
    )


def figures(
    games: list[str] | None = None, count: int = 12, per_game: int = 8, seats: int = 0, lang: str = "en"
) -> list[dict]:
    """One row per game and picture kind: times and sizes (``skipped`` says why a game has none),
    the pictures drawn in ``lang``."""
    rows: list[dict] = []
    for key in games or list(engine.GAME_PACKAGES):
        no_engine, no_renderer = available(key)
        if no_engine:
            rows.append({"game": key, "skipped": no_engine})
            continue
        table_seats = seats or REFERENCE_SEATS.get(key, engine.get(key).min_seats)
        views = collect_views(key, table_seats, count, per_game)
        kinds: dict[str, Callable[[dict], renderers.Picture]] = {}
        if no_renderer:
            rows.append({"game": key, "skipped": f"board, private: {no_renderer}"})
        else:
            kinds["board"] = lambda v, key=key: renderers.render(key, v, lang=lang)
            kinds["private"] = lambda v, key=key: renderers.render(key, v, lang=lang)
        kinds["results"] = lambda v, key=key: renderers.render_results(key, v, lang=lang)
        for kind, draw in kinds.items():
            times, sizes, ratios = measure(draw, views[kind])
            rows.append(
                {
                    "game": key,
                    "kind": kind,
                    "seats": table_seats,
                    "n": len(times),
                    "median_ms": statistics.median(times),
                    "p95_ms": p95(times),
                    "median_kb": statistics.median(sizes) / 1000,
                    "max_kb": max(sizes) / 1000,
                    "ratio": statistics.median(ratios),
                    "target_ms": TARGET_MS[kind],
                }
            )
    return rows


def verdict(row: dict) -> str:
    """Whether one row meets its targets, in words."""
    verdicts = []
    if row["target_ms"] is not None:
        met = row["median_ms"] <= row["target_ms"]
        verdicts.append(f"median ≤ {row['target_ms']:.0f} ms {'ok' if met else 'MISSED'}")
    verdicts.append(f"≤ 300 KB {'ok' if row['max_kb'] * 1000 <= TARGET_BYTES else 'MISSED'}")
    if row["kind"] != "results":  # the target is for boards and private pictures
        verdicts.append(f"≤ {TARGET_RATIO:g} × PNG {'ok' if row['ratio'] <= TARGET_RATIO else 'MISSED'}")
    return "; ".join(verdicts)


def report(rows: list[dict]) -> list[str]:
    """The figures as a printed table."""
    columns = ("n", 4), ("median ms", 10), ("p95 ms", 8), ("median KB", 10), ("max KB", 7), ("× PNG", 6)
    header = f"{'game':8} {'kind':8} " + " ".join(f"{name:>{width}}" for name, width in columns) + "  target"
    lines = [header, "-" * len(header)]
    for row in rows:
        if "skipped" in row:
            lines.append(f"{row['game']:8} skipped: {row['skipped']}")
            continue
        lines.append(
            f"{row['game']:8} {row['kind']:8} {row['n']:>4} {row['median_ms']:>10.1f} {row['p95_ms']:>8.1f} "
            f"{row['median_kb']:>10.1f} {row['max_kb']:>7.1f} {row['ratio']:>6.2f}  "
            f"{verdict(row)} ({row['seats']} seats)"
        )
    return lines


def main() -> None:
    """Print the figures for the chosen games (all registered games by default)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", help="game keys (default: all)")
    parser.add_argument("--games", type=int, default=12, dest="count", help="random games per game key")
    parser.add_argument("--per-game", type=int, default=8, help="mid-game moments kept per game")
    parser.add_argument("--seats", type=int, default=0, help="seat count (default: the reference count)")
    parser.add_argument("--samples", metavar="DIR", help="write sample pictures to DIR instead")
    parser.add_argument("--phone", action="store_true", help="print the smallest text at phone width instead")
    parser.add_argument("--lang", default="en", help="the pictures' language (en, ko)")
    args = parser.parse_args()
    if args.phone:
        print("\n".join(phone_figures(args.games or None)))
        return
    if args.samples:
        for key in args.games or list(engine.GAME_PACKAGES):
            no_engine, no_renderer = available(key)
            if no_engine:
                print(f"{key}: skipped: {no_engine}")
                continue
            if no_renderer:
                print(f"{key}: results picture only: {no_renderer}")
            seats = args.seats or REFERENCE_SEATS.get(key, engine.get(key).min_seats)
            for path in write_samples(key, seats, args.samples, boards=not no_renderer):
                print(f"wrote {path}")
        return
    print(f"render benchmark ({args.lang}): {pin_one_core()}")
    print("\n".join(report(figures(args.games, args.count, args.per_game, args.seats, args.lang))))


if __name__ == "__main__":
    main()
