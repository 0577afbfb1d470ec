"""A league's standings and its podium as pictures (issue #38).

The view is plain data the cog builds from the standings:

    {"name": str,                    # the league's name (a user's text: drawn, never obeyed)
     "round": int, "rounds": int,    # the round just closed, of how many
     "final": bool,                  # the final standings: a podium above the table
     "rows": [{"place": int, "name": str, "points": float, "score": float,
               "played": int, "dropped": bool}, ...],   # best first
     "more": int}                    # players below the rows drawn

Drawn 800 px wide with the house style, every text at least `TEXT` px, which
stands 9 px tall on a phone's 400 px (`renderers.common.min_size`).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderers.common import (
    BG,
    INK,
    MAX_ASPECT,
    MUTED,
    PANEL,
    PANEL_LINE,
    TITLE_H,
    WHITE,
    WIDTH,
    Picture,
    RenderError,
    clean_name,
    draw_text,
    ellipsize,
    min_size,
    panel,
    picture,
    words,
)
from renderers.common import canvas as make_canvas

MARGIN = 20
ROW_H = 52
HEAD_H = 44
#: The smallest text: readable on a phone at this width (`common.min_size`).
TEXT = min_size(WIDTH)
BIG = max(TEXT + 8, 30)
#: The most rows one picture shows (the picture stays within `MAX_ASPECT`).
MOST_ROWS = 24
PODIUM_H = 300
GOLD, SILVER, BRONZE = (212, 165, 32), (168, 172, 180), (176, 112, 64)
STRIPE = (236, 232, 222)


def points_text(points: float) -> str:
    """League points as printed: whole numbers plain, halves with one decimal (ties share points)."""
    return f"{points:g}" if points == int(points) else f"{points:.1f}"


def render_league(
    game_key: str, view: dict, names: Sequence[object] | None = None, lang: str = "en"
) -> Picture:
    """The standings (with a podium when ``view["final"]``); ``names`` is unused (names are in rows)."""
    t = words()
    every = list(view.get("rows") or [])
    final = bool(view.get("final"))
    top = TITLE_H + 16 + (PODIUM_H + 16 if final else 0)
    table_top = top + HEAD_H
    # As many rows as fit within the aspect limit, with a line under them for the rest.
    room = (int(WIDTH * MAX_ASPECT) - table_top - 2 * MARGIN) // ROW_H
    shown = len(every) if len(every) <= min(MOST_ROWS, room) else min(MOST_ROWS, room - 1)
    rows = every[:shown]
    more = int(view.get("more") or 0) + len(every) - shown
    height = table_top + ROW_H * (max(1, len(rows)) + (1 if more else 0)) + 2 * MARGIN
    if final:
        subtitle = t("Final standings")
    else:
        subtitle = t("Round {round} of {rounds}", round=view.get("round", 0), rounds=view.get("rounds", 0))
    try:
        image, draw = make_canvas(game_key, height, WIDTH, subtitle=subtitle)
    except RenderError:  # a game without a title bar of its own (the tests' tiny game)
        image = Image.new("RGB", (WIDTH, height), BG)
        draw = ImageDraw.Draw(image)
        draw.rectangle((0, 0, WIDTH, TITLE_H), fill=INK)
        draw_text(draw, (28, TITLE_H / 2), subtitle, "bold", 40, WHITE, anchor="lm")
    name = clean_name(view.get("name"), 48)
    if final:
        _podium(draw, rows[:3], TITLE_H + 16)
    # The table: place, name, points, score, games.
    panel(draw, (MARGIN, top, WIDTH - MARGIN, height - MARGIN), fill=PANEL, outline=PANEL_LINE)
    columns = {"place": MARGIN + 18, "name": MARGIN + 90, "points": 500, "score": 635, "played": 760}
    draw_text(draw, (columns["place"], top + 10), "#", "bold", TEXT, MUTED)
    draw_text(draw, (columns["name"], top + 10), ellipsize(name, "bold", TEXT, 300), "bold", TEXT, MUTED)
    draw_text(draw, (columns["points"], top + 10), t("Points"), "bold", TEXT, MUTED, anchor="ra")
    draw_text(draw, (columns["score"], top + 10), t("Score"), "bold", TEXT, MUTED, anchor="ra")
    draw_text(draw, (columns["played"], top + 10), t("Games"), "bold", TEXT, MUTED, anchor="ra")
    alt = [t("{league}: standings.", league=name)]
    for i, row in enumerate(rows):
        y = table_top + i * ROW_H
        if i % 2 == 0:
            draw.rectangle((MARGIN + 4, y, WIDTH - MARGIN - 4, y + ROW_H - 2), fill=STRIPE)
        mid = y + ROW_H / 2
        place = int(row.get("place", i + 1))
        colour = {1: GOLD, 2: SILVER, 3: BRONZE}.get(place, INK)
        draw_text(draw, (columns["place"], mid), str(place), "bold", BIG, colour, anchor="lm")
        who = clean_name(row.get("name"), 32)
        dropped = bool(row.get("dropped"))
        shown = ellipsize(who, "bold", BIG, 310) if not dropped else ellipsize(who, "regular", BIG, 310)
        draw_text(
            draw,
            (columns["name"], mid),
            shown,
            "regular" if dropped else "bold",
            BIG,
            MUTED if dropped else INK,
            anchor="lm",
        )
        points = points_text(float(row.get("points", 0)))
        draw_text(draw, (columns["points"], mid), points, "bold", BIG, INK, anchor="rm")
        draw_text(
            draw, (columns["score"], mid), f"{float(row.get('score', 0)):g}", "regular", BIG, INK, anchor="rm"
        )
        draw_text(
            draw, (columns["played"], mid), str(int(row.get("played", 0))), "regular", BIG, MUTED, anchor="rm"
        )
        alt.append(
            t(
                "{place}. {name}: {points} points, score {score}.",
                place=place,
                name=who,
                points=points,
                score=f"{float(row.get('score', 0)):g}",
            )
        )
    if more:
        y = table_top + len(rows) * ROW_H + ROW_H / 2
        draw_text(
            draw,
            (columns["name"], y),
            t("… and {count} more.", count=more),
            "regular",
            TEXT,
            MUTED,
            anchor="lm",
        )
    return picture(image, alt, "league-final.png" if final else "league-standings.png")


def _podium(draw: ImageDraw.ImageDraw, rows: list[dict], top: float) -> None:
    """Three steps: second, first, third from the left, each with its name above it."""
    step_w = (WIDTH - 2 * MARGIN - 40) / 3
    heights = {1: 170, 2: 120, 3: 80}
    spots = [(1, 0), (0, 1), (2, 2)]  # (index in rows, column): first in the middle
    bottom = top + PODIUM_H
    for index, column in spots:
        if index >= len(rows):
            continue
        row = rows[index]
        place = index + 1
        x0 = MARGIN + column * (step_w + 20)
        x1 = x0 + step_w
        y0 = bottom - heights[place]
        colour = (GOLD, SILVER, BRONZE)[index]
        panel(draw, (x0, y0, x1, bottom), fill=colour, outline=INK, radius=10)
        draw_text(draw, ((x0 + x1) / 2, y0 + 40), str(place), "bold", 56, (255, 255, 255), anchor="mm")
        who = ellipsize(clean_name(row.get("name"), 32), "bold", BIG, step_w)
        draw_text(draw, ((x0 + x1) / 2, y0 - 46), who, "bold", BIG, INK, anchor="mm")
        draw_text(
            draw,
            ((x0 + x1) / 2, y0 - 14),
            points_text(float(row.get("points", 0))),
            "regular",
            TEXT,
            MUTED,
            anchor="mm",
        )
