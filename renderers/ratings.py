"""The rating-history picture of `/stats` (issue #38): each game's rating over a player's rated games.

Drawn from a plain view (no store, no Discord), so it renders in the picture workers
like the boards::

    {"name": "alice",
     "games": [{"game": "jeju", "title": "Jeju Island",
                "points": [0, 12, 31, ...],   # shown rating before the first game, then after each
                "best": 31}, ...]}

One panel per game: the shown rating (μ − 3σ, ×10) after each rated game as a line,
the best one starred, the latest one labelled. Every text is at least
`common.min_size` at this width, so it stays readable at `common.PHONE_WIDTH`.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderers.common import (
    BG,
    INK,
    MUTED,
    PANEL,
    PANEL_LINE,
    TITLE_H,
    WHITE,
    Picture,
    RenderError,
    clean_name,
    draw_text,
    fit,
    font,
    min_size,
    panel,
    picture,
    shape,
    words,
)
from renderers.results import nice_ticks

WIDTH = 800
MARGIN = 20
PANEL_H = 330
GAP = 16
#: The smallest text: readable on a phone at this width.
TEXT = min_size(WIDTH)
LINE = (14, 58, 98)
GOLD = (191, 144, 0)
GRID = (225, 221, 212)
TITLE_BAR = (40, 46, 58)
#: At most this many games get a panel (a message holds one picture; `/stats` lists the rest).
MOST_GAMES = 4


def _ticks_x(count: int) -> list[int]:
    """Game numbers to label under a chart of ``count`` games: round steps, the last game included."""
    if count <= 1:
        return [count]
    ticks = [t for t in nice_ticks(0, count, 5) if 0 <= t <= count]
    if count not in ticks:
        if ticks and count - ticks[-1] < max(1, count // 8):
            ticks.pop()
        ticks.append(count)
    return ticks


def _draw_game(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], game: dict) -> None:
    """One game's panel: its title, now and best, and the chart."""
    t = words()
    x0, y0, x1, y1 = box
    points: list[int] = [int(v) for v in game["points"]]
    best = int(game["best"])
    panel(draw, box, fill=PANEL, outline=PANEL_LINE)
    title, size = fit(t(game["title"]), "bold", (x1 - x0) * 0.5, 30, TEXT)
    draw.text((x0 + 20, y0 + 28), title, font=font("bold", size), fill=INK, anchor="lm")
    summary = t("now {rating} · best {best}", rating=points[-1], best=best)
    draw_text(draw, (x1 - 20, y0 + 28), summary, "bold", max(TEXT, 24), INK, "rm")
    cx0, cx1 = x0 + 84, x1 - 70
    cy0, cy1 = y0 + 70, y1 - 76
    low, high = min(0, min(points)), max(1, max(points))
    ticks = nice_ticks(low, high)
    if len(ticks) > 1:  # the grid closes above the highest point and below the lowest
        step = ticks[1] - ticks[0]
        ticks = list(range((low // step) * step, -(-high // step) * step + 1, step))
    low, high = min(low, ticks[0]), max(high, ticks[-1])
    count = len(points) - 1  # the first point is the rating before any game

    def sx(i: float) -> float:
        return cx0 + (cx1 - cx0) * (i / max(1, count))

    def sy(v: float) -> float:
        return cy1 - (v - low) / max(1, high - low) * (cy1 - cy0)

    for v in ticks:
        draw.line((cx0, sy(v), cx1, sy(v)), fill=GRID, width=2)
        draw_text(draw, (cx0 - 12, sy(v)), str(v), "regular", TEXT, MUTED, "rm")
    for i in _ticks_x(count):
        draw.line((sx(i), cy1, sx(i), cy1 + 8), fill=MUTED, width=2)
        draw_text(draw, (sx(i), cy1 + 24), str(i), "regular", TEXT, INK, "mm")
    draw_text(draw, ((cx0 + cx1) / 2, y1 - 12), t("rated games"), "regular", TEXT, MUTED, "mb")
    xy = [(sx(i), sy(v)) for i, v in enumerate(points)]
    if len(xy) > 1:
        draw.line(xy, fill=LINE, width=5, joint="curve")
    dots = len(xy) <= 40  # a dot per game while they stay apart
    for p in xy if dots else ():
        draw.ellipse((p[0] - 5, p[1] - 5, p[0] + 5, p[1] + 5), fill=LINE)
    # The best rating after a game (the start is no game), the latest time it was reached.
    top = max(range(1, len(points)) or [0], key=lambda i: (points[i], i))
    shape(draw, "star", xy[top], 16, GOLD, INK, 2)
    last = xy[-1]
    draw.ellipse((last[0] - 9, last[1] - 9, last[0] + 9, last[1] + 9), fill=LINE, outline=INK, width=2)
    draw_text(draw, (last[0] + 14, last[1]), str(points[-1]), "bold", max(TEXT, 24), INK, "lm")


def render_history(view: dict) -> Picture:
    """The rating-history picture of a view (see the module's docstring)."""
    t = words()
    games: Sequence[dict] = view.get("games") or []
    games = [g for g in games if g.get("points")][:MOST_GAMES]
    if not games:
        raise RenderError("a rating history needs at least one game with rated games")
    height = TITLE_H + MARGIN + len(games) * (PANEL_H + GAP) + MARGIN - GAP
    image = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, TITLE_H), fill=TITLE_BAR)
    name = clean_name(view.get("name"))
    heading, size = fit(t("Rating history: {name}", name=name), "bold", WIDTH - 56, 40, 28)
    draw.text((28, TITLE_H / 2), heading, font=font("bold", size), fill=WHITE, anchor="lm")
    y = TITLE_H + MARGIN
    alt = [t("Rating history of {name}.", name=name)]
    for game in games:
        _draw_game(draw, (MARGIN, y, WIDTH - MARGIN, y + PANEL_H), game)
        y += PANEL_H + GAP
        points = [int(v) for v in game["points"]]
        alt.append(
            t.plural(
                "{game}: {count} rated game, from {first} to {now}, best {best}.",
                "{game}: {count} rated games, from {first} to {now}, best {best}.",
                len(points) - 1,
                game=t(game["title"]),
                first=points[0],
                now=points[-1],
                best=int(game["best"]),
            )
        )
    return picture(image, alt, "rating-history.png")
