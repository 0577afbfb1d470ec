"""The generic end-of-game picture, drawn from a finished view's ``"result"``.

``result`` is `engine.base.Result.to_dict()`: ``scores`` (one per seat), ``ranking``
(place per seat, 1 first, ties share a place), ``winners``, ``breakdown`` (per
seat, points by category) and ``notes`` (tie-breaks and the like).

The picture lists seats by place — place, token, name, total — each with a
stacked horizontal bar of its points by category, followed by the category
legend. Categories are named by ``result["labels"]`` (the engine's words for its
keys), else by `humanize`. A game adds sections below it: a view with
``"progression"`` (per seat, scores at a few moments, e.g. Haenyeo's rounds 3, 6
and 8) gets a small line chart, labelled by ``"progression_labels"`` when the
view has them; when the last moment is not the final score (Haenyeo's end
bonuses come after round 8), the chart gets a last "+ end bonuses" point at the
final score, so it ends where the ranking does.

Every word is drawn in the picture's language (`renderers.common.words`): the
category names and moments are English message ids translated as they are drawn,
and a note may be a message made with `i18n.say`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import ImageDraw

import i18n
from renderers.common import (
    BG,
    INK,
    MAX_ASPECT,
    MUTED,
    PANEL,
    PANEL_LINE,
    PLAYERS,
    TITLE_H,
    Picture,
    RenderError,
    draw_text,
    drawn_name,
    font,
    ink_on,
    min_size,
    panel,
    picture,
    player,
    seat_label,
    seat_letter,
    seat_name,
    shape,
    text_in_box,
    text_width,
    title_text,
    token,
    words,
    wrap,
)
from renderers.common import canvas as make_canvas

WIDTH = 800
MARGIN = 20
#: A seat's row: the head line (place, name, total), then its bar of points by category.
HEAD_H, BAR_H = 50, 44
ROW_H = HEAD_H + BAR_H + 26
ROW_GAP = 10
LEGEND_LINE = 42
NOTE_LINE = 34
#: The smallest text: readable on a phone (`common.min_size`) at this width.
TEXT = min_size(WIDTH)
GOLD = (191, 144, 0)
#: Room for the place ("1st") between the winner's star and the seat's token.
PLACE_W = 62

#: Places as words: "1st", "2nd", "3rd", "4th" (by the English suffix).
ORDINALS = {
    "st": i18n.N_("{place}st"),
    "nd": i18n.N_("{place}nd"),
    "rd": i18n.N_("{place}rd"),
    "th": i18n.N_("{place}th"),
}

#: Category colours: Paul Tol's muted qualitative scheme (colour-blind safe), then extras.
CATEGORY_COLOURS: tuple[tuple[int, int, int], ...] = (
    (51, 34, 136),
    (136, 204, 238),
    (68, 170, 153),
    (17, 119, 51),
    (153, 153, 51),
    (221, 204, 119),
    (204, 102, 119),
    (136, 34, 85),
    (170, 68, 153),
    (221, 221, 221),
    (120, 120, 120),
    (60, 60, 60),
)


@dataclass(frozen=True)
class Section:
    """An extra block under the chart: its height, how to draw it in its box, and its alt text."""

    height: int
    draw: Callable[[ImageDraw.ImageDraw, tuple[float, float, float, float]], None]
    alt: str = ""


def humanize(key: str) -> str:
    """``"turtle_eggs"`` -> ``"Turtle eggs"``, ``"round3"`` -> ``"Round 3"``."""
    text = re.sub(r"(?<=[A-Za-z])(?=\d)", " ", str(key)).replace("_", " ").replace("-", " ").strip()
    return text[:1].upper() + text[1:] if text else "?"


_ROUND_KEY = re.compile(r"^round[ _-]?(\d+)$", re.IGNORECASE)


def rounds_progression(breakdown: Sequence[dict]) -> tuple[list[list[int]], list[str]] | None:
    """Running totals per seat when every seat's breakdown has points per scoring round
    (``"round3"``, ``"round6"``, ``"round8"`` as Haenyeo's does); None otherwise."""
    keys = sorted(
        {k for entry in breakdown for k in entry if _ROUND_KEY.match(str(k))},
        key=lambda k: int(_ROUND_KEY.match(str(k)).group(1)),
    )
    if len(keys) < 2 or not breakdown:
        return None
    series = []
    for entry in breakdown:
        total, row = 0, []
        for key in keys:
            total += int(entry.get(key, 0) or 0)
            row.append(total)
        series.append(row)
    return series, [f"Round {_ROUND_KEY.match(str(k)).group(1)}" for k in keys]


def place_words(place: int) -> str:
    """1st, 2nd, 3rd, 4th… in the picture's language."""
    t = words()
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return t(ORDINALS[suffix], place=place)


_NUMBERED = re.compile(r"^(Round|Step) (\d+)$")


def moment_words(label: str) -> str:
    """A chart moment ("Round 3", "Step 2", "+ end bonuses", a game's words) in the picture's language."""
    t = words()
    if match := _NUMBERED.fullmatch(label):
        number = int(match.group(2))
        return (
            t("Round {number}", number=number)
            if match.group(1) == "Round"
            else t("Step {number}", number=number)
        )
    return t(label)


def _result(view: dict) -> dict:
    result = view.get("result") if isinstance(view, dict) else None
    if not isinstance(result, dict) or not result.get("scores"):
        raise RenderError("this view has no final result to draw (the game is not finished)")
    return result


def _categories(breakdown: Sequence[dict]) -> list[str]:
    """Categories in first-seen order, leaving out those where every seat scored 0."""
    seen: list[str] = []
    for entry in breakdown:
        for key in entry:
            if key not in seen:
                seen.append(key)
    if len(seen) > 1:  # a "total" beside real categories is a sum, not a category
        seen = [key for key in seen if str(key).lower() != "total"]
    return [key for key in seen if any(int(entry.get(key, 0) or 0) for entry in breakdown)]


def render_results(
    game_key: str,
    view: dict,
    names: Sequence[object] | None = None,
    sections: Sequence[Section] = (),
) -> Picture:
    """The results picture of a finished view; ``sections`` are a game's extra blocks."""
    t = words()
    title = title_text(game_key)
    result = _result(view)
    scores = [int(s) for s in result["scores"]]
    seats = len(scores)
    if seats > len(PLAYERS):
        raise RenderError(f"{seats} seats: at most {len(PLAYERS)} can be drawn")
    ranking = [int(p) for p in result.get("ranking") or []] or [
        1 + sum(1 for o in scores if o > s) for s in scores
    ]
    winners = {int(w) for w in result.get("winners") or [s for s in range(seats) if ranking[s] == 1]}
    breakdown = list(result.get("breakdown") or [])
    if len(breakdown) != seats or not _categories(breakdown):
        breakdown = [{"total": score} for score in scores]
    categories = _categories(breakdown) or ["total"]
    category_words = result.get("labels") if isinstance(result.get("labels"), dict) else {}

    def named(seat: int) -> str:
        return seat_name(seat, names) or t("Player {letter}", letter=seat_letter(seat))

    notes = [t.msg(n, names=named) if isinstance(n, dict) else t(str(n)) for n in result.get("notes") or []]

    def word(cat: str) -> str:
        return moment_words(str(category_words.get(cat) or humanize(cat)))

    extra = list(sections)
    progression = view.get("progression")
    if isinstance(progression, list) and len(progression) == seats and all(progression):
        labels = view.get("progression_labels")
        extra.append(progression_section(*_to_final(progression, labels, scores), names))
    elif seats > 1 and (derived := rounds_progression(breakdown)):
        extra.append(progression_section(*_to_final(derived[0], derived[1], scores), names))

    order = sorted(range(seats), key=lambda s: (ranking[s], -scores[s], s))
    colours = {cat: CATEGORY_COLOURS[i % len(CATEGORY_COLOURS)] for i, cat in enumerate(categories)}

    # Layout, top to bottom: a row per seat (place, name, total; under it the bar),
    # the category legend, the game's sections, the notes. Narrow, for phones.
    rows_top = TITLE_H + 18
    rows_h = seats * (ROW_H + ROW_GAP)
    legend_lines = _legend_lines(categories, WIDTH - 2 * MARGIN, word)
    legend_top = rows_top + rows_h + 6
    legend_h = LEGEND_LINE * len(legend_lines) + 8
    note_lines: list[str] = []
    for note in notes[:3]:
        note_lines += wrap(note, "regular", TEXT, WIDTH - 2 * MARGIN, max_lines=2)
    note_lines = note_lines[:4]
    y = legend_top + legend_h + 12
    section_boxes = []
    for section in extra:
        section_boxes.append((section, (MARGIN, y, WIDTH - MARGIN, y + section.height)))
        y += section.height + 16
    while note_lines and y + NOTE_LINE * len(note_lines) + 22 >= WIDTH * MAX_ASPECT:
        note_lines.pop()
    notes_top = y - 4
    height = max(y + (NOTE_LINE * len(note_lines) + 10 if note_lines else 0) + 12, 320)
    width = WIDTH

    image, draw = make_canvas(game_key, height, width, subtitle=t("Results"))

    # Score scale shared by every bar: negatives go left of the zero line.
    pos = [sum(max(0, int(b.get(c, 0) or 0)) for c in categories) for b in breakdown]
    neg = [sum(min(0, int(b.get(c, 0) or 0)) for c in categories) for b in breakdown]
    bar_x0, bar_x1 = MARGIN + 16, width - MARGIN - 16
    span = max(1, max(pos) - min(neg))
    # A segment too narrow for its number shows it on a chip of its colour right of the bar:
    # the bars give up the room the widest row of chips needs (two rounds: narrower bars may
    # leave more segments without room).
    reserve = 0.0
    for _ in range(2):
        scale = (bar_x1 - reserve - bar_x0) / span
        reserve = max(_chips_width(_narrow(b, categories, scale)) for b in breakdown)
    scale = (bar_x1 - reserve - bar_x0) / span
    zero_x = bar_x0 + (-min(neg)) * scale

    for row, seat in enumerate(order):
        top = rows_top + row * (ROW_H + ROW_GAP)
        box = (MARGIN, top, width - MARGIN, top + ROW_H)
        style = player(seat)
        is_winner = seat in winners
        panel(
            draw,
            box,
            fill=style.light,
            outline=GOLD if is_winner else PANEL_LINE,
            radius=16,
            width=5 if is_winner else 2,
        )
        mid = top + HEAD_H / 2 + 4
        if is_winner:
            shape(draw, "star", (MARGIN + 30, mid), 20, (255, 214, 64), INK, 2)
        place = place_words(ranking[seat])
        if text_width(place, "bold", 32) <= PLACE_W:
            draw_text(draw, (MARGIN + 56, mid), place, "bold", 32, INK, "lm")
        else:  # a longer word for the place than "12th": shrunk to fit before the token
            box = (MARGIN + 48, top, MARGIN + 56 + PLACE_W + 8, top + HEAD_H + 8)
            text_in_box(draw, box, place, "bold", 32, TEXT, INK, "left")
        token(draw, seat, (MARGIN + 150, mid), 28)
        total = str(scores[seat])
        total_w = text_width(total, "bold", 44)
        label = drawn_name(seat, names)
        name_box = (MARGIN + 182, top, width - MARGIN - total_w - 30, top + HEAD_H + 8)
        text_in_box(draw, name_box, label, "bold", 32, TEXT, INK, "left")
        draw_text(draw, (width - MARGIN - 18, mid), total, "bold", 44, INK, "rm")
        bar_top = top + HEAD_H + 8
        _bar(draw, breakdown[seat], categories, colours, zero_x, scale, bar_top, top + ROW_H - 10)
    if min(neg) < 0:
        for row in range(seats):
            top = rows_top + row * (ROW_H + ROW_GAP) + HEAD_H + 4
            draw.line((zero_x, top, zero_x, top + BAR_H + 8), fill=INK, width=3)

    # Category legend: swatches in the bars' left-to-right order.
    for i, line in enumerate(legend_lines):
        x = MARGIN
        ly = legend_top + LEGEND_LINE / 2 + LEGEND_LINE * i
        for cat in line:
            draw.rounded_rectangle(
                (x, ly - 15, x + 30, ly + 15), radius=6, fill=colours[cat], outline=INK, width=2
            )
            x += 40 + draw_text(draw, (x + 40, ly), word(cat), "regular", TEXT, INK, "lm") + 28

    for section, box in section_boxes:
        section.draw(draw, box)

    ny = notes_top
    for line in note_lines:
        draw_text(draw, (MARGIN, ny + NOTE_LINE / 2), line, "regular", TEXT, MUTED, "lm")
        ny += NOTE_LINE

    # Alt text, most important first (Discord keeps 1024 characters): places and scores,
    # the notes (tie-breaks, ratings), then points by category, then the extra sections.
    alt = [t("{game}: final results.", game=t(title.english))]
    for seat in order:
        place, who, points = place_words(ranking[seat]), seat_label(seat, names), points_words(scores[seat])
        if seat in winners:
            alt.append(t("{place}: {player}, {points}, winner.", place=place, player=who, points=points))
        else:
            alt.append(t("{place}: {player}, {points}.", place=place, player=who, points=points))
    alt += notes
    if categories != ["total"]:
        details = []
        for seat in order:
            parts = [
                f"{word(cat).lower()} {int(breakdown[seat].get(cat, 0) or 0)}"
                for cat in categories
                if int(breakdown[seat].get(cat, 0) or 0)
            ]
            listed = ", ".join(parts) or t("none")
            details.append(f"{seat_letter(seat)}: {listed}")
        alt.append(t("Points by category: {details}.", details="; ".join(details)))
    alt += [section.alt for section in extra]
    return picture(image, alt, f"{game_key}-results.png")


def points_words(count: int) -> str:
    """``"1 point"``, ``"2 points"`` (in the picture's language)."""
    t = words()
    return t.plural("{count} point", "{count} points", count)


def _to_final(
    series: Sequence[Sequence[int]], labels: Sequence[str] | None, scores: Sequence[int]
) -> tuple[list[list[int]], list[str] | None]:
    """The chart's points, with a last "+ end bonuses" point when the series stops short of
    the final scores (points scored after the last moment, such as Haenyeo's end bonuses)."""
    rows = [[int(v) for v in row] for row in series]
    if all(row and row[-1] == score for row, score in zip(rows, scores, strict=True)):
        return rows, list(labels) if labels is not None else None
    names = list(labels) if labels is not None and len(labels) == len(rows[0]) else None
    if names is None and len(rows[0]) == 3:
        names = [f"Round {r}" for r in (3, 6, 8)]
    if names is None:
        names = [f"Step {i + 1}" for i in range(len(rows[0]))]
    bonuses = i18n.N_("+ end bonuses")  # drawn translated (`moment_words`)
    return [[*row, int(score)] for row, score in zip(rows, scores, strict=True)], [*names, bonuses]


def _legend_lines(
    categories: Sequence[str], max_width: float, word: Callable[[str], str] = humanize
) -> list[list[str]]:
    """``categories`` in lines of swatches and words (``word(cat)``) that fit ``max_width``."""
    lines: list[list[str]] = [[]]
    x = 0.0
    for cat in categories:
        width = 40 + text_width(word(cat), "regular", TEXT) + 28
        if lines[-1] and x + width > max_width:
            lines.append([])
            x = 0.0
        lines[-1].append(cat)
        x += width
    return lines


#: Room between a bar and its first number chip, and between two chips.
CHIP_GAP = 6


def _fits(value: int, scale: float) -> bool:
    """Whether a segment of ``value`` points is wide enough to carry its number."""
    return abs(value) * scale >= text_width(str(value), "bold", TEXT) + 8


def _narrow(points: dict, categories: Sequence[str], scale: float) -> list[tuple[str, int]]:
    """The (category, value) segments of one bar too narrow for their number, in bar order."""
    found = []
    for cat in categories:
        value = int(points.get(cat, 0) or 0)
        if value and not _fits(value, scale):
            found.append((cat, value))
    return found


def _chips_width(chips: list[tuple[str, int]]) -> float:
    """Room the number chips of one bar take right of it (0 without any)."""
    return sum(CHIP_GAP + text_width(str(value), "bold", TEXT) + 12 for _, value in chips)


def _bar(
    draw: ImageDraw.ImageDraw,
    points: dict,
    categories: Sequence[str],
    colours: dict[str, tuple[int, int, int]],
    zero_x: float,
    scale: float,
    y0: float,
    y1: float,
) -> None:
    """One seat's stacked bar: positive categories rightwards from zero, negative leftwards.

    A segment too narrow for its number gets it on a chip of the segment's colour, right
    of the bar, so every segment's points can be read.
    """
    right = left = zero_x
    for cat in categories:
        value = int(points.get(cat, 0) or 0)
        if not value:
            continue
        if value > 0:
            x0, x1 = right, right + value * scale
            right = x1
        else:
            x0, x1 = left + value * scale, left
            left = x0
        draw.rectangle((x0, y0, x1, y1), fill=colours[cat], outline=BG, width=2)
        if _fits(value, scale):
            draw.text(
                ((x0 + x1) / 2, (y0 + y1) / 2),
                str(value),
                font=font("bold", TEXT),
                fill=ink_on(colours[cat]),
                anchor="mm",
            )
    x = right
    for cat, value in _narrow(points, categories, scale):
        label = str(value)
        chip = text_width(label, "bold", TEXT) + 12
        x += CHIP_GAP
        draw.rounded_rectangle((x, y0, x + chip, y1), radius=6, fill=colours[cat], outline=INK, width=2)
        draw.text(
            (x + chip / 2, (y0 + y1) / 2),
            label,
            font=font("bold", TEXT),
            fill=ink_on(colours[cat]),
            anchor="mm",
        )
        x += chip


def _short_moment(label: str) -> str:
    """A chart label short enough for a narrow chart: "Round 3" -> "R3", "+ end bonuses" -> "End"
    (in the picture's language)."""
    t = words()
    if match := re.fullmatch(r"Round (\d+)", label):
        return t("R{number}", number=int(match.group(1)))
    return t("End") if "bonus" in label else moment_words(label)


def nice_ticks(low: int, high: int, most: int = 4) -> list[int]:
    """Round tick values (steps of 1, 2 or 5 times a power of ten) within [low, high], at most ``most``+1."""
    span = max(1, high - low)
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            step = factor * magnitude
            if span / step <= most:
                first = -(-low // step) * step
                return list(range(first, high + 1, step))
        magnitude *= 10


def progression_section(
    progression: Sequence[Sequence[int]],
    labels: Sequence[str] | None = None,
    names: Sequence[object] | None = None,
    height: int = 300,
    title: str | None = None,
) -> Section:
    """A line chart of each seat's score at a few moments (Haenyeo: after rounds 3, 6 and 8).

    ``labels`` are English moments ("Round 3"), drawn in the picture's language; ``title``
    is already in it (default: "Score over the game").
    """
    t = words()
    title = title or t("Score over the game")
    series = [[int(v) for v in row] for row in progression]
    points = max(len(row) for row in series)
    if labels is None or len(labels) != points:
        labels = (
            [f"Round {r}" for r in (3, 6, 8)] if points == 3 else [f"Step {i + 1}" for i in range(points)]
        )
    labels = [str(label) for label in labels]

    def draw_chart(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
        x0, y0, x1, y1 = box
        panel(draw, box, fill=PANEL, outline=PANEL_LINE)
        draw_text(draw, (x0 + 20, y0 + 26), title, "bold", 28, INK, "lm")
        cx0, cx1 = x0 + 84, x1 - 120
        cy0, cy1 = y0 + 60, y1 - 52
        top = max(1, max(max(row) for row in series))
        low = min(0, min(min(row) for row in series))

        def sy(v: float) -> float:
            return cy1 - (v - low) / (top - low) * (cy1 - cy0)

        def sx(i: int) -> float:
            return cx0 + (cx1 - cx0) * (i / max(1, points - 1))

        for v in nice_ticks(low, top):
            draw.line((cx0, sy(v), cx1, sy(v)), fill=(225, 221, 212), width=2)
            draw_text(draw, (cx0 - 12, sy(v)), str(v), "regular", TEXT, MUTED, "rm")
        for i, label in enumerate(labels):
            short = _short_moment(label) if len(labels) > 3 else moment_words(label)
            draw_text(draw, (sx(i), cy1 + 26), short, "regular", TEXT, INK, "mm")
        ends = []
        for seat, row in enumerate(series):
            style = player(seat)
            xy = [(sx(i), sy(v)) for i, v in enumerate(row)]
            if len(xy) > 1:
                draw.line(xy, fill=style.colour, width=6, joint="curve")
            for p in xy:
                shape(draw, style.shape, p, 11, style.colour, INK, 2)
            ends.append([xy[-1][1], seat, row[-1]])
        # End labels, pushed apart so they never overlap.
        ends.sort()
        for i in range(1, len(ends)):
            ends[i][0] = max(ends[i][0], ends[i - 1][0] + 36)
        for y, seat, value in ends:
            token(draw, seat, (cx1 + 30, y), 16, letter=False)
            draw_text(draw, (cx1 + 52, y), f"{value}", "bold", 26, INK, "lm")

    alt = (
        f"{title}: "
        + "; ".join(
            f"{seat_label(seat, names)} "
            + ", ".join(f"{moment_words(labels[i]).lower()} {v}" for i, v in enumerate(row))
            for seat, row in enumerate(series)
        )
        + "."
    )
    return Section(height=height, draw=draw_chart, alt=alt)


__all__ = ["CATEGORY_COLOURS", "Section", "humanize", "progression_section", "render_results"]
