"""Reef & Ruins pictures: the public table and a seat's own sheet, from `engine.reef.view`
views (its module docstring is the view shape).

Public table (1400 wide, 600–1344 high with the seat count): the round, the three
hydra dice and this round's boon, who has confirmed; then one compact card per
seat, three to a row (up to 8 seats), each as it stood at the start of the round
(the public view hides unconfirmed work): the six ruins — each with its written
values, its coins and multiplier, and the crossed spaces of its linked
enchantment section — the reef in miniature, the lucky number, shells and
pearls, and the score as it would end now. What the last round changed is
highlighted in yellow.

A seat's picture (1400x956): its dice pool (used dice ticked, boon dice gold)
and what remains of its round work; then its whole live sheet, large: the six
ruins with the values written in a handwriting-like pen, the six enchantment
sections, the pearl bonuses, the shells, the chosen reef, the lucky number and
the score. This round's work is highlighted in yellow.

Reef & Ruins has no title in another script: the plain English title is drawn.
Static layers (the printed sheets) are drawn once per reef and cached.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL_LINE,
    TITLE_H,
    WHITE,
    Picture,
    RenderError,
    canvas,
    draw_text,
    drawn_name,
    font,
    panel,
    paste_centred,
    picture,
    player,
    seat_label,
    text_in_box,
    text_width,
    token_image,
    wrap,
)
from renderers.reef_sprites import (
    GOLD,
    MULT,
    PEN,
    boon_icon,
    coin_image,
    cross_image,
    die_image,
    pearl_image,
    ring_image,
    shell_image,
    star_image,
    tick_image,
    written,
)

GAME = "reef"
WIDTH = 1400
PAPER = (252, 249, 240)
CELL_LINE = (120, 128, 140)
GREEN = (196, 230, 186)
LIGHT_PEN = (214, 224, 246)
RULE_WORDS = {
    "same": "SAME",
    "different": "DIFFERENT",
    "plus-minus-one": "+/- ONE",
    "odds": "ODDS",
    "evens": "EVENS",
    "pyramid": "PYRAMID",
}
#: Atoll textures: a pale tint each (their outlines and names carry them too).
TEXTURE_TINTS = (
    (188, 222, 170),
    (232, 226, 246),
    (236, 200, 220),
    (248, 196, 176),
    (240, 226, 184),
    (226, 214, 196),
    (200, 232, 206),
    (250, 214, 170),
    (214, 204, 240),
)


# --------------------------------------------------------------------------- words


def _s(count: int) -> str:
    return "" if count == 1 else "s"


def _who(seat: int, names: Sequence[object] | None) -> str:
    return seat_label(seat, names)


def _round_words(view: dict) -> str:
    phase = view.get("phase")
    if phase == "lucky":
        return "Choosing lucky numbers"
    if phase == "finished":
        return "Game over"
    return f"Round {view.get('round', 0)} of {view.get('rounds', 18)}"


def _short_round(view: dict) -> str:
    phase = view.get("phase")
    if phase == "lucky":
        return "lucky numbers"
    if phase == "finished":
        return "game over"
    return f"round {view.get('round', 0)}/{view.get('rounds', 18)}"


def _boon_words(view: dict) -> str:
    boon = view.get("boon")
    if not isinstance(boon, dict):
        return ""
    if boon.get("type") == "roll":
        return f"Boon: a rolled {boon.get('value', '?')} for everyone"
    return f"Boon: {boon.get('text', '')}"


def _boon_step(view: dict) -> bool:
    """The round's boon is being gained: "before the Hydra dice are rolled" (no dice yet)."""
    return view.get("phase") == "round" and not view.get("dice")


def _winner_words(winners: list[str]) -> str:
    if not winners:
        return "No winner: everyone tied for the highest score"
    return ("Winner: " if len(winners) == 1 else "Winners: ") + ", ".join(winners)


def _die_word(die: dict) -> str:
    kind = die.get("kind")
    return "" if kind == "hydra" else (" rolled" if kind == "roll" else " boon")


def _score(view: dict, seat: int, sheet: dict) -> int:
    result = view.get("result")
    if isinstance(result, dict):
        scores = result.get("scores") or []
        if 0 <= seat < len(scores):
            return int(scores[seat])
    return int((sheet.get("score") or {}).get("total", 0))


def _lucky_text(sheet: dict) -> str:
    lucky = sheet.get("lucky")
    if lucky is None:
        return "?"
    return "fate" if lucky == 0 else str(lucky)


def _sheet_words(sheet: dict) -> str:
    score = sheet.get("score") or {}
    ruins = []
    for ruin in sheet.get("ruins") or []:
        filled = sum(v is not None for row in ruin.get("rows") or [] for v in row)
        mult = f" x{ruin['multiplier']}" if ruin.get("multiplier", 1) > 1 else ""
        ruins.append(f"{ruin.get('number')}: {filled} written, {ruin.get('coins', 0)} coins{mult}")
    ench = ", ".join(f"{e.get('sum')}: {e.get('crossed', 0)}" for e in sheet.get("enchantments") or [])
    return (
        f"lucky number {_lucky_text(sheet)}, "
        f"{sheet.get('shells', 0)} shell pair{_s(sheet.get('shells', 0))}, "
        f"{sheet.get('pearls', 0)} pearl{_s(sheet.get('pearls', 0))}; score {score.get('total', 0)} "
        f"(ruins {score.get('ruins', 0)}, enchantments {score.get('enchantments', 0)}, lucky "
        f"{score.get('lucky', 0)}, pearls {score.get('pearls', 0)}); ruins {'; '.join(ruins)}; "
        f"enchantments crossed {ench}"
    )


def _changed_words(changed: dict) -> str:
    bits = []
    if changed.get("ruins"):
        bits.append(f"{len(changed['ruins'])} value{_s(len(changed['ruins']))} in ruins")
    if changed.get("reef"):
        bits.append(f"{len(changed['reef'])} reef space{_s(len(changed['reef']))}")
    if changed.get("enchantments"):
        bits.append("enchantment " + ", ".join(str(s + 1) for s in changed["enchantments"]))
    if changed.get("pearl_bonuses"):
        bits.append(
            f"{len(changed['pearl_bonuses'])} pearl bonus{'es' if len(changed['pearl_bonuses']) > 1 else ''}"
        )
    shells = int(changed.get("shells", 0) or 0)
    if shells:
        bits.append(f"shells {shells:+d}")
    return ", ".join(bits)


# --------------------------------------------------------------------------- shared drawing


def _board_key(view: dict) -> str:
    """The printed components as a cache key (they are static per reef and tracker side)."""
    return json.dumps(view.get("board") or {}, sort_keys=True)


def _paste(image: Image.Image, sprite: Image.Image | None, centre: tuple[float, float]) -> None:
    if sprite is not None:
        paste_centred(image, sprite, centre)


def _dice_row(
    image: Image.Image, dice: list[tuple[int, bool, bool]], x: float, cy: float, size: int, gap: int = 14
) -> float:
    """Dice (value, boon, used) left to right from ``x``; a used die is faded and ticked.

    Returns the x after the last die."""
    for value, boon, used in dice:
        paste_centred(image, die_image(int(value), size, boon, used), (x + size / 2, cy))
        if used:
            paste_centred(image, tick_image(int(size * 0.8)), (x + size / 2, cy))
        x += size + gap
    return x


def _lengths(rows: list) -> list[int]:
    """Row lengths from the board's lengths or a sheet's rows of values."""
    return [int(r) if isinstance(r, int) else len(r) for r in rows]


def _ruin_layout(rows: list, rule: str) -> list[list[tuple[float, int]]]:
    """Per printed row (top row first as drawn), the (column offset in cells, slot index) of each space.

    The pyramid's base is row 0 in the view; it is drawn at the bottom, each row above
    shifted half a cell in."""
    slots: list[list[tuple[float, int]]] = []
    index = 0
    for r, length in enumerate(_lengths(rows)):
        shift = r / 2 if rule == "pyramid" else 0.0
        slots.append([(shift + c, index + c) for c in range(length)])
        index += length
    if rule == "pyramid":
        slots.reverse()
    return slots


def _rows_in_draw_order(ruin_rows: list[list], rule: str) -> list[list]:
    return list(reversed(ruin_rows)) if rule == "pyramid" else list(ruin_rows)


# --------------------------------------------------------------------------- a seat's picture: geometry

BAR_TOP = TITLE_H + 12
BAR_H = 100
SHEET_TOP = BAR_TOP + BAR_H + 12
PITCH = 54
CELL = 48
RUINS_X0, RUINS_X1 = 24, 700
MID_X0, MID_X1 = 712, 1040
RIGHT_X0, RIGHT_X1 = 1052, WIDTH - 24
HEAD_H = 64  # the rule in capitals, then the ruin's name
ROW_COINS_H = 26  # "full rows → 6/13/21" above a ruin's footer


def ruin_coins_words(ruin: dict) -> str:
    """The coins a ruin pays per completed row, as printed under it ("full rows → 6/13/21")."""
    coins = [int(c) for c in (ruin.get("row_coins") or [])[1:]]
    return f"full rows → {'/'.join(map(str, coins))}" if coins else ""


def _ruin_boxes() -> dict[int, tuple[int, int, int, int]]:
    """Tile box per ruin number on the private sheet."""
    y0 = SHEET_TOP
    h1 = HEAD_H + 4 * PITCH + ROW_COINS_H + 46
    w3, w4 = 3 * PITCH + 24, 4 * PITCH + 24
    x = RUINS_X0
    boxes = {1: (x, y0, x + w3, y0 + h1)}
    x += w3 + 5
    boxes[2] = (x, y0, x + w4, y0 + h1)
    boxes[6] = (RUINS_X1 - w4, y0, RUINS_X1, y0 + h1)
    y1 = y0 + h1 + 10
    h2 = HEAD_H + 2 * PITCH + 62 + ROW_COINS_H + 46
    boxes[4] = (RUINS_X0, y1, RUINS_X0 + w4, y1 + h2)
    boxes[5] = (RUINS_X0 + w4 + 5, y1, RUINS_X0 + 2 * w4 + 5, y1 + h2)
    y2 = y1 + h2 + 10
    boxes[3] = (RUINS_X0, y2, RUINS_X1, y2 + HEAD_H + 28 + PITCH + 14)
    return boxes


RUIN_BOXES = _ruin_boxes()
PRIVATE_H = RUIN_BOXES[3][3] + 14
LUCKY_BOX = (RUIN_BOXES[5][2] + 10, RUIN_BOXES[5][1], RUINS_X1, RUIN_BOXES[5][3])
ENCH_TOP = SHEET_TOP
ENCH_ROW = 54
ENCH_BOX = (MID_X0, ENCH_TOP, MID_X1, ENCH_TOP + 48 + 6 * ENCH_ROW + 8)
PEARL_BOX = (MID_X0, ENCH_BOX[3] + 10, MID_X1, ENCH_BOX[3] + 10 + 48 + 2 * 54 + 8)
SHELL_BOX = (MID_X0, PEARL_BOX[3] + 10, MID_X1, RUIN_BOXES[3][3])
REEF_BOX = (RIGHT_X0, SHEET_TOP, RIGHT_X1, SHEET_TOP + 48 + 8 * 38 + 14 + 36)
SCORE_BOX = (RIGHT_X0, REEF_BOX[3] + 10, RIGHT_X1, RUIN_BOXES[3][3])


def _grid_origin(number: int, rows: list, rule: str) -> tuple[float, float]:
    x0, y0, x1, _ = RUIN_BOXES[number]
    cols = max(_lengths(rows)) if rows else 1
    if number == 3:
        return x0 + 14, y0 + HEAD_H + 28
    return (x0 + x1) / 2 - cols * PITCH / 2, y0 + HEAD_H


def _slot_centres(ruin: dict, number: int) -> dict[int, tuple[float, float]]:
    rows = list(ruin.get("rows") or [])
    rule = str(ruin.get("rule", ""))
    gx, gy = _grid_origin(number, rows, rule)
    centres = {}
    for r, row in enumerate(_ruin_layout(rows, rule)):
        for col, slot in row:
            centres[slot] = (gx + col * PITCH + PITCH / 2, gy + r * PITCH + PITCH / 2)
    return centres


def _enchant_space(section: int, space: int) -> tuple[float, float, float, float]:
    y = ENCH_TOP + 48 + section * ENCH_ROW
    x = MID_X0 + 74 + space * 48
    return x, y + 3, x + 45, y + ENCH_ROW - 3


def _pearl_box(index: int) -> tuple[float, float, float, float]:
    x = MID_X0 + 12 + (index % 6) * 51
    y = PEARL_BOX[1] + 48 + (index // 6) * 54
    return x, y, x + 47, y + 50


def _shell_centre(index: int) -> tuple[float, float]:
    return SHELL_BOX[0] + 30 + (index % 8) * 38, SHELL_BOX[1] + 66 + (index // 8) * 40


def _reef_geometry(reef: dict) -> tuple[float, float, float]:
    rows, cols = int(reef.get("rows", 7)), int(reef.get("cols", 7))
    pitch = min(44, (RIGHT_X1 - RIGHT_X0 - 20) // cols, (8 * 38) // rows)
    x = (RIGHT_X0 + RIGHT_X1) / 2 - cols * pitch / 2
    return x, REEF_BOX[1] + 48, pitch


@lru_cache(maxsize=8)
def _private_background(board_key: str) -> Image.Image:
    """The printed sheet: ruins, enchantments, pearl bonuses, shells, the reef (drawn once per board)."""
    board = json.loads(board_key)
    image, draw = canvas(GAME, PRIVATE_H, WIDTH)
    panel(draw, (24, BAR_TOP, WIDTH - 24, BAR_TOP + BAR_H), fill=(230, 242, 244))
    # ruins
    for ruin in board.get("ruins") or []:
        number = int(ruin.get("number", 0))
        if number not in RUIN_BOXES:
            continue
        x0, y0, x1, y1 = RUIN_BOXES[number]
        panel(draw, (x0, y0, x1, y1), fill=PAPER, radius=14)
        draw.ellipse((x0 + 8, y0 + 6, x0 + 38, y0 + 36), fill=INK)
        draw.text((x0 + 23, y0 + 21), str(number), font=font("bold", 22), fill=WHITE, anchor="mm")
        rule = str(ruin.get("rule", ""))
        word = RULE_WORDS.get(rule, rule.upper())
        text_in_box(draw, (x0 + 40, y0 + 4, x1 - 4, y0 + 38), word, "bold", 26, 18, INK, "left", pad=4)
        text_in_box(
            draw, (x0 + 4, y0 + 36, x1 - 4, y0 + 62), str(ruin.get("name", "")), "bold", 20, 15, MUTED, "left"
        )
        words = ruin_coins_words(ruin)
        spare = len(ruin.get("rows") or []) < 4 and number in (1, 2)  # a free row under the grid
        if words and spare and text_width(words, "bold", 21) > x1 - x0 - 12:
            head, tail = words.split("→", 1)
            y = y1 - 46 - ROW_COINS_H
            draw_text(draw, ((x0 + x1) / 2, y - 14), head.strip() + " →", "bold", 21, GOLD, "mm")
            draw_text(draw, ((x0 + x1) / 2, y + 12), tail.strip(), "bold", 21, GOLD, "mm")
        elif words:
            box = (x0 + 4, y1 - 46 - ROW_COINS_H, x1 - 4, y1 - 46)
            text_in_box(draw, box, words, "bold", 21, 15, GOLD, "center")
        centres = _slot_centres(ruin, number)
        for cx, cy in centres.values():
            draw.rectangle(
                (cx - CELL / 2, cy - CELL / 2, cx + CELL / 2, cy + CELL / 2),
                fill=WHITE,
                outline=CELL_LINE,
                width=2,
            )
        if rule in ("odds", "evens"):
            sums = ruin.get("column_sums") or []
            coins = ruin.get("column_coins") or []
            gx, gy = _grid_origin(number, list(ruin.get("rows") or []), rule)
            y = gy + len(ruin.get("rows") or []) * PITCH + 17
            for c, total in enumerate(sums):
                cx = gx + c * PITCH + PITCH / 2
                draw.text((cx, y), f"={total}", font=font("bold", 22), fill=MUTED, anchor="mm")
                if c < len(coins):
                    paste_centred(image, coin_image(int(coins[c]), 24), (cx, y + 28))
        if rule == "plus-minus-one":
            reach = list(ruin.get("reach_coins") or [])[1:]
            for slot, (cx, cy) in sorted(centres.items()):
                if slot < len(reach):
                    draw.text(
                        (cx, cy - PITCH / 2 - 13),
                        str(reach[slot]),
                        font=font("bold", 20),
                        fill=GOLD,
                        anchor="mm",
                    )
    # lucky number box
    panel(draw, LUCKY_BOX, fill=PAPER, radius=14)
    draw_text(draw, ((LUCKY_BOX[0] + LUCKY_BOX[2]) / 2, LUCKY_BOX[1] + 24), "Lucky", "bold", 26, INK, "mm")
    draw_text(draw, ((LUCKY_BOX[0] + LUCKY_BOX[2]) / 2, LUCKY_BOX[1] + 52), "number", "bold", 26, INK, "mm")
    cx, cy = (LUCKY_BOX[0] + LUCKY_BOX[2]) / 2, LUCKY_BOX[1] + 130
    draw.ellipse((cx - 46, cy - 46, cx + 46, cy + 46), fill=WHITE, outline=INK, width=3)
    # enchantments
    panel(draw, ENCH_BOX, fill=PAPER, radius=14)
    draw_text(draw, (MID_X0 + 14, ENCH_TOP + 24), "Enchantments", "bold", 28, INK, "lm")
    for section in board.get("enchantments") or []:
        s = int(section.get("section", 0))
        if not 0 <= s < 6:
            continue
        y = ENCH_TOP + 48 + s * ENCH_ROW
        draw.rounded_rectangle((MID_X0 + 10, y + 6, MID_X0 + 44, y + ENCH_ROW - 6), radius=8, fill=INK)
        draw.text(
            (MID_X0 + 27, y + ENCH_ROW / 2),
            str(section.get("sum")),
            font=font("bold", 24),
            fill=WHITE,
            anchor="mm",
        )
        draw.text(
            (MID_X0 + 59, y + ENCH_ROW / 2),
            f"→{section.get('ruin')}",
            font=font("bold", 18),
            fill=MUTED,
            anchor="mm",
        )
        for k, space in enumerate((section.get("spaces") or [])[:5]):
            x0, y0, x1, y1 = _enchant_space(s, k)
            draw.rounded_rectangle((x0, y0, x1, y1), radius=6, fill=WHITE, outline=CELL_LINE, width=2)
            paste_centred(image, coin_image(int(space.get("coins", 0)), 22), (x0 + 13, y0 + 13))
            icon = boon_icon(space.get("boon"), int(space.get("value", 0)), 22)
            _paste(image, icon, (x1 - 13, y1 - 13))
    # pearl bonuses
    panel(draw, PEARL_BOX, fill=PAPER, radius=14)
    paste_centred(image, pearl_image(28), (MID_X0 + 26, PEARL_BOX[1] + 24))
    for i, bonus in enumerate((board.get("pearl_bonuses") or [])[:12]):
        x0, y0, x1, y1 = _pearl_box(i)
        draw.rounded_rectangle((x0, y0, x1, y1), radius=6, fill=WHITE, outline=CELL_LINE, width=2)
        kind = bonus.get("type")
        if kind == "coins":
            icon = coin_image(int(bonus.get("value", 0)), 34)
        else:
            icon = boon_icon(kind, int(bonus.get("value", 0)), 32)
        _paste(image, icon, ((x0 + x1) / 2, (y0 + y1) / 2))
    # shells
    panel(draw, SHELL_BOX, fill=PAPER, radius=14)
    paste_centred(image, shell_image(28), (MID_X0 + 26, SHELL_BOX[1] + 24))
    for i in range(int(board.get("shell_pairs", 15))):
        cx, cy = _shell_centre(i)
        draw.ellipse((cx - 6, cy - 6, cx - 0, cy + 6), outline=CELL_LINE, width=2)
        draw.ellipse((cx + 1, cy - 6, cx + 7, cy + 6), outline=CELL_LINE, width=2)
    # reef
    reef = board.get("reef") or {}
    panel(draw, REEF_BOX, fill=PAPER, radius=14)
    x, y, pitch = _reef_geometry(reef)
    rows, cols = int(reef.get("rows", 7)), int(reef.get("cols", 7))
    if "values" in reef:
        highlighted = {tuple(p) for p in reef.get("highlighted") or []}
        for r, row in enumerate(reef.get("values") or []):
            for c, value in enumerate(row):
                box = (x + c * pitch, y + r * pitch, x + (c + 1) * pitch, y + (r + 1) * pitch)
                draw.rectangle(
                    box, fill=GREEN if (r, c) in highlighted else WHITE, outline=CELL_LINE, width=2
                )
                label = "S" if value == 0 else str(value)
                draw.text(
                    ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
                    label,
                    font=font("bold", 24),
                    fill=INK,
                    anchor="mm",
                )
        legend = "Pearls: green spaces, full lines"
    else:
        for r in range(rows):
            for c in range(cols):
                box = (x + c * pitch, y + r * pitch, x + (c + 1) * pitch, y + (r + 1) * pitch)
                draw.rectangle(box, fill=WHITE, outline=CELL_LINE, width=1)
        for t, texture in enumerate(reef.get("textures") or []):
            tint = TEXTURE_TINTS[t % len(TEXTURE_TINTS)]
            cells = {tuple(p) for p in texture.get("cells") or []}
            for r, c in cells:
                draw.rectangle(
                    (x + c * pitch + 1, y + r * pitch + 1, x + (c + 1) * pitch - 1, y + (r + 1) * pitch - 1),
                    fill=tint,
                )
            _outline(draw, cells, x, y, pitch, INK, 3)
        legend = "Pearls: full rows and columns"
    draw.rectangle((x, y, x + cols * pitch, y + rows * pitch), outline=INK, width=3)
    text_in_box(
        draw,
        (RIGHT_X0 + 4, REEF_BOX[3] - 40, RIGHT_X1 - 4, REEF_BOX[3] - 4),
        legend,
        "regular",
        22,
        16,
        MUTED,
    )
    # score
    panel(draw, SCORE_BOX, fill=PAPER, radius=14)
    return image


def _outline(
    draw: ImageDraw.ImageDraw,
    cells: set[tuple[int, int]],
    x: float,
    y: float,
    pitch: float,
    colour: tuple[int, int, int],
    width: int,
) -> None:
    """The outer edges of a group of grid cells."""
    for r, c in cells:
        left, top = x + c * pitch, y + r * pitch
        if (r - 1, c) not in cells:
            draw.line((left, top, left + pitch, top), fill=colour, width=width)
        if (r + 1, c) not in cells:
            draw.line((left, top + pitch, left + pitch, top + pitch), fill=colour, width=width)
        if (r, c - 1) not in cells:
            draw.line((left, top, left, top + pitch), fill=colour, width=width)
        if (r, c + 1) not in cells:
            draw.line((left + pitch, top, left + pitch, top + pitch), fill=colour, width=width)


# --------------------------------------------------------------------------- a seat's picture: drawing


def _draw_ruins(image: Image.Image, draw: ImageDraw.ImageDraw, sheet: dict, changed: set) -> None:
    lucky = sheet.get("lucky")
    for ruin in sheet.get("ruins") or []:
        number = int(ruin.get("number", 0))
        if number not in RUIN_BOXES:
            continue
        x0, y0, x1, y1 = RUIN_BOXES[number]
        centres = _slot_centres(ruin, number)
        values = [v for row in ruin.get("rows") or [] for v in row]
        for slot, value in enumerate(values):
            if slot not in centres:
                continue
            cx, cy = centres[slot]
            if (number, slot) in changed:
                draw.rectangle(
                    (cx - CELL / 2 + 2, cy - CELL / 2 + 2, cx + CELL / 2 - 2, cy + CELL / 2 - 2),
                    fill=HIGHLIGHT,
                )
            if value is not None:
                paste_centred(image, written(str(value), 36), (cx, cy + 1))
                if lucky and value == lucky:
                    paste_centred(image, star_image(14, GOLD), (cx + CELL / 2 - 8, cy - CELL / 2 + 8))
        for slot in ruin.get("turns") or []:
            if slot in centres and slot + 1 in centres:
                cx = (centres[slot][0] + centres[slot + 1][0]) / 2
                paste_centred(image, ring_image(22), (cx, centres[slot][1] + CELL / 2 + 4))
        coins, mult = int(ruin.get("coins", 0)), int(ruin.get("multiplier", 1))
        if number == 3:
            fx, fy = x1 - 64, (y0 + y1) / 2 + 12
        else:
            fx, fy = (x0 + x1) / 2, y1 - 24
        paste_centred(image, coin_image(coins, 38) if coins < 100 else written(str(coins), 30), (fx - 24, fy))
        mult_text = f"×{mult}" if mult > 1 else "×1"
        paste_centred(image, written(mult_text, 30, MULT if mult > 1 else MUTED), (fx + 24, fy))


def _draw_enchantments(image: Image.Image, draw: ImageDraw.ImageDraw, sheet: dict, changed: set) -> None:
    for section in sheet.get("enchantments") or []:
        s = int(section.get("section", 0))
        if not 0 <= s < 6:
            continue
        crossed = int(section.get("crossed", 0))
        for k in range(min(crossed, 5)):
            x0, y0, x1, y1 = _enchant_space(s, k)
            if s in changed and k == crossed - 1:
                draw.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=6, outline=HIGHLIGHT, width=5)
            paste_centred(image, cross_image(40), ((x0 + x1) / 2, (y0 + y1) / 2))


def _draw_pearls(image: Image.Image, draw: ImageDraw.ImageDraw, sheet: dict, changed: set) -> None:
    pearls, lost = int(sheet.get("pearls", 0)), int(sheet.get("pearls_lost", 0))
    head = f"Pearls: {pearls}" + (f", {lost} lost" if lost else "")
    text_in_box(
        draw,
        (MID_X0 + 44, PEARL_BOX[1] + 4, MID_X1 - 6, PEARL_BOX[1] + 44),
        head,
        "bold",
        26,
        18,
        INK,
        "left",
    )
    for i, crossed in enumerate((sheet.get("pearl_bonuses") or [])[:12]):
        if crossed:
            x0, y0, x1, y1 = _pearl_box(i)
            if i in changed:
                draw.rounded_rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=6, outline=HIGHLIGHT, width=5)
            paste_centred(image, cross_image(42), ((x0 + x1) / 2, (y0 + y1) / 2))


def _draw_shells(image: Image.Image, draw: ImageDraw.ImageDraw, sheet: dict, change: int) -> None:
    shells, earned = int(sheet.get("shells", 0)), int(sheet.get("shells_earned", 0))
    spent = earned - shells
    head = f"Shells: {shells} pair{_s(shells)}"
    if change:
        head += f" ({change:+d})"
    box = (MID_X0 + 44, SHELL_BOX[1] + 4, MID_X1 - 6, SHELL_BOX[1] + 44)
    if change:
        draw.rounded_rectangle((box[0], box[1] + 2, box[2], box[3] - 2), radius=8, fill=HIGHLIGHT)
    text_in_box(draw, box, head, "bold", 26, 18, INK, "left")
    for i in range(min(earned, 15)):
        cx, cy = _shell_centre(i)
        paste_centred(image, ring_image(30), (cx, cy))
        if i < spent:
            paste_centred(image, cross_image(26), (cx, cy))


def _draw_reef(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, sheet: dict, changed: set) -> None:
    board_reef = (view.get("board") or {}).get("reef") or {}
    reef = sheet.get("reef") or {}
    x, y, pitch = _reef_geometry(board_reef)
    lucky = sheet.get("lucky")
    draw_text(
        draw, (RIGHT_X0 + 14, REEF_BOX[1] + 24), str(view.get("reef_name", "Reef")), "bold", 28, INK, "lm"
    )
    if "marked" in reef:
        values = board_reef.get("values") or []
        for r, row in enumerate(reef.get("marked") or []):
            for c, mark in enumerate(row):
                cx, cy = x + (c + 0.5) * pitch, y + (r + 0.5) * pitch
                if (r, c) in changed:
                    draw.rectangle(
                        (cx - pitch / 2 + 3, cy - pitch / 2 + 3, cx + pitch / 2 - 3, cy + pitch / 2 - 3),
                        fill=HIGHLIGHT,
                    )
                    value = values[r][c] if r < len(values) and c < len(values[r]) else 0
                    draw.text(
                        (cx, cy),
                        "S" if value == 0 else str(value),
                        font=font("bold", 24),
                        fill=INK,
                        anchor="mm",
                    )
                if mark:
                    paste_centred(image, ring_image(int(pitch) - 4), (cx, cy))
                    value = values[r][c] if r < len(values) and c < len(values[r]) else 0
                    if lucky and value == lucky:
                        paste_centred(image, star_image(14, GOLD), (cx + pitch / 2 - 8, cy - pitch / 2 + 8))
        return
    shapes = reef.get("shapes") or []
    for shp in shapes:
        cells = {tuple(p) for p in shp.get("cells") or []}
        for r, c in cells:
            fill = HIGHLIGHT if (r, c) in changed else LIGHT_PEN
            draw.rectangle(
                (x + c * pitch + 2, y + r * pitch + 2, x + (c + 1) * pitch - 2, y + (r + 1) * pitch - 2),
                fill=fill,
            )
        _outline(draw, cells, x + 0, y + 0, pitch, PEN, 4)
        if cells:
            r, c = min(cells)
            label = "·" if shp.get("single") else str(shp.get("value", ""))
            paste_centred(image, written(label, 28), (x + (c + 0.5) * pitch, y + (r + 0.5) * pitch))
            if shp.get("lucky"):
                paste_centred(image, star_image(14, GOLD), (x + (c + 1) * pitch - 8, y + r * pitch + 8))


def _draw_score(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, sheet: dict, seat: int) -> None:
    x0, y0, x1, _ = SCORE_BOX
    score = sheet.get("score") or {}
    total = _score(view, seat, sheet)
    head = "Final score" if isinstance(view.get("result"), dict) else "Score if it ended now"
    text_in_box(draw, (x0 + 6, y0 + 4, x1 - 6, y0 + 44), head, "bold", 26, 18, INK, "left")
    lines = (
        ("Ruins", score.get("ruins", 0)),
        ("Enchantments", score.get("enchantments", 0)),
        ("Lucky numbers", score.get("lucky", 0)),
        ("Pearl coins", score.get("pearls", 0)),
    )
    y = y0 + 70
    for label, value in lines:
        draw_text(draw, (x0 + 16, y), label, "regular", 26, INK, "lm")
        paste_centred(image, written(str(value), 30), (x1 - 40, y))
        y += 36
    draw.line((x0 + 16, y - 14, x1 - 16, y - 14), fill=INK, width=2)
    draw_text(draw, (x0 + 16, y + 14), "Total", "bold", 30, INK, "lm")
    paste_centred(image, written(str(total), 44), (x1 - 48, y + 14))


def _status_words(view: dict, you: dict) -> tuple[str, bool]:
    """What remains of the seat's round work, and whether it is the seat's move."""
    phase = view.get("phase")
    if phase == "lucky":
        choice = you.get("lucky_choice")
        if choice is None:
            return "Choose your lucky number (1–6, or fate)", True
        return f"Lucky number {choice}; waiting for the others", False
    if phase != "round":
        return _final_words(view, int(view.get("viewer") or 0)), False
    if _boon_step(view):
        if you.get("pending"):
            what = " and ".join("a pearl bonus" if p == "pearl" else "an enchantment" for p in you["pending"])
            return f"Choose {what} before the dice are rolled", True
        return "Boon gained; the dice are rolled once everyone has chosen", False
    if you.get("confirmed"):
        waiting = [s for s in view.get("to_act") or []]
        return (
            "Confirmed; waiting for " + f"{len(waiting)} seat{_s(len(waiting))}"
        ) if waiting else "Confirmed", False
    bits = []
    pending = list(you.get("pending") or [])
    if pending:
        bits.append(
            "choose " + " and ".join("a pearl bonus" if p == "pearl" else "an enchantment" for p in pending)
        )
    if you.get("searched") is not None:
        bits.append(f"searching ruin {you['searched']}")
    elif you.get("cast") is not None:
        bits.append(f"cast enchantment {int(you['cast']) + 1}")
    left = sum(1 for d in you.get("dice") or [] if not d.get("used") and d.get("kind") != "roll")
    rolled = [d for d in you.get("dice") or [] if not d.get("used") and d.get("kind") == "roll"]
    picked = _picked_value(you)
    if you.get("placing") == "shape":
        bits.append(f"place the shape of the {picked}")
    elif you.get("placing") in ("singles", "second-single"):
        bits.append("place a single block")
    elif picked is not None:
        bits.append(f"place the {picked}")
    if left:
        bits.append(f"{left} di{'e' if left == 1 else 'ce'} to use")
    else:
        bits.append("all dice used: confirm")
    if rolled:
        bits.append(f"the rolled {rolled[0].get('value')} may be written or left")
    return "; ".join(bits).capitalize(), True


def _picked_value(you: dict) -> int | None:
    picked = you.get("picked")
    dice = you.get("dice") or []
    if isinstance(picked, int) and 0 <= picked < len(dice):
        return int(dice[picked].get("value", 0))
    return None


def _final_words(view: dict, seat: int) -> str:
    sheets = view.get("sheets") or []
    if not 0 <= seat < len(sheets):
        return "Game over"
    result = view.get("result") or {}
    words = f"Final score {_score(view, seat, sheets[seat])}"
    ratings = result.get("ratings") or []
    if len(sheets) == 1 and ratings:
        return f"{words}, {ratings[0]}"
    if seat in (result.get("winners") or []):
        return f"{words}, you win"
    return words


def _draw_bar(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, you: dict) -> None:
    y0, y1 = BAR_TOP, BAR_TOP + BAR_H
    cy = (y0 + y1) / 2
    draw_text(draw, (44, cy - 18), _round_words(view), "bold", 32, INK, "lm")
    draw_text(draw, (44, cy + 22), str(view.get("tracker_name", "")), "regular", 22, MUTED, "lm")
    x = 330
    dice = you.get("dice") or []
    if dice:
        row = [(int(d.get("value", 0)), d.get("kind") != "hydra", bool(d.get("used"))) for d in dice]
        picked = you.get("picked")
        if isinstance(picked, int) and 0 <= picked < len(dice):
            px = x + picked * 76
            draw.rounded_rectangle(
                (px - 6, cy - 44, px + 70, cy + 32), radius=12, fill=HIGHLIGHT, outline=INK, width=2
            )
        end = _dice_row(image, row, x, cy - 6, 64, 12)
        for d in dice:
            if d.get("shells"):
                sx = x + int(d.get("index", 0)) * 76 + 32
                paste_centred(image, written(f"{int(d['shells']):+d}", 22, PEN), (sx, y1 - 10))
            elif d.get("kind") != "hydra":
                sx = x + int(d.get("index", 0)) * 76 + 32
                draw.text((sx, y1 - 9), _die_word(d).strip(), font=font("bold", 20), fill=GOLD, anchor="mm")
        x = end + 8
    elif view.get("dice"):
        x = _dice_row(image, [(int(v), False, False) for v in view["dice"]], x, cy, 64, 12) + 8
    if _boon_step(view):
        draw_text(draw, (x, cy), "Dice not rolled yet", "regular", 24, MUTED, "lm")
        x += 240
    status, mine = _status_words(view, you)
    box = (max(x, 620), y0 + 10, WIDTH - 40, y1 - 10)
    boon = _boon_words(view)
    if mine:
        draw.rounded_rectangle(box, radius=10, fill=HIGHLIGHT, outline=INK, width=2)
    if boon and view.get("phase") == "round":
        mid = (box[1] + box[3]) / 2
        text_in_box(draw, (box[0], box[1], box[2], mid), status, "bold", 26, 18, INK, "left", pad=10)
        text_in_box(draw, (box[0], mid, box[2], box[3]), boon, "regular", 24, 18, INK, "left", pad=10)
    else:
        text_in_box(draw, box, status, "bold", 28, 18, INK, "left", pad=10)


def _changed_sets(changed: dict) -> tuple[set, set, set, set]:
    ruins = {(int(n), int(s)) for n, s in changed.get("ruins") or []}
    reef = {(int(r), int(c)) for r, c in changed.get("reef") or []}
    return ruins, reef, set(changed.get("enchantments") or []), set(changed.get("pearl_bonuses") or [])


def render_private(view: dict, names: Sequence[object] | None = None) -> Picture:
    """One seat's picture: its dice and round work, its whole live sheet (this round's work highlighted)."""
    seat = int(view["viewer"])
    sheets = view.get("sheets") or []
    if not 0 <= seat < len(sheets):
        raise RenderError(f"seat {seat} is not at this table")
    sheet = sheets[seat]
    you = view.get("you") or {}
    image = _private_background(_board_key(view)).copy()
    draw = ImageDraw.Draw(image)
    label = drawn_name(seat, names)
    text_in_box(
        draw, (380, 0, WIDTH - 70, TITLE_H), f"{label} · {_short_round(view)}", "bold", 32, 20, WHITE, "right"
    )
    paste_centred(image, token_image(seat, 20), (WIDTH - 42, TITLE_H / 2))
    changed = sheet.get("changed") or {}
    ruins, reef, ench, pearls = _changed_sets(changed)
    _draw_bar(image, draw, view, you)
    searched, cast = you.get("searched"), you.get("cast")
    if isinstance(searched, int) and searched in RUIN_BOXES:
        draw.rounded_rectangle(RUIN_BOXES[searched], radius=14, outline=HIGHLIGHT, width=6)
    if isinstance(cast, int) and 0 <= cast < 6:
        y = ENCH_TOP + 48 + cast * ENCH_ROW
        draw.rounded_rectangle(
            (MID_X0 + 4, y, MID_X1 - 4, y + ENCH_ROW), radius=10, outline=HIGHLIGHT, width=5
        )
    _draw_ruins(image, draw, sheet, ruins)
    lucky = sheet.get("lucky")
    cx, cy = (LUCKY_BOX[0] + LUCKY_BOX[2]) / 2, LUCKY_BOX[1] + 130
    if lucky is None:
        draw_text(draw, (cx, cy), "?", "bold", 48, MUTED, "mm")
    elif lucky == 0:
        draw_text(draw, (cx, cy), "fate", "hand_bold", 34, PEN, "mm")
    else:
        paste_centred(image, written(str(lucky), 64), (cx, cy))
    draw_text(draw, (cx, LUCKY_BOX[3] - 26), "2 coins each", "regular", 20, MUTED, "mm")
    _draw_enchantments(image, draw, sheet, ench)
    _draw_pearls(image, draw, sheet, pearls)
    _draw_shells(image, draw, sheet, int(changed.get("shells", 0) or 0))
    _draw_reef(image, draw, view, sheet, reef)
    _draw_score(image, draw, view, sheet, seat)
    return picture(image, private_alt(view, names), f"reef-seat-{player(seat).letter}.png")


def private_alt(view: dict, names: Sequence[object] | None) -> list[str]:
    seat = int(view["viewer"])
    sheet = view["sheets"][seat]
    you = view.get("you") or {}
    parts = [
        f"Your Reef & Ruins sheet, {_who(seat, names)}. {_round_words(view)}, {view.get('reef_name', '')}."
    ]
    dice = you.get("dice") or []
    if dice:
        words = [f"{d.get('value')}" + _die_word(d) + (" used" if d.get("used") else "") for d in dice]
        parts.append("Your dice: " + ", ".join(words) + ".")
    boon = _boon_words(view)
    if boon:
        parts.append(boon + ".")
    if _boon_step(view):
        parts.append("The hydra dice are not rolled yet.")
    parts.append(_status_words(view, you)[0] + ".")
    changed = _changed_words(sheet.get("changed") or {})
    if changed:
        parts.append(("This round: " if view.get("phase") == "round" else "Last round: ") + changed + ".")
    parts.append(f"Score {_score(view, seat, sheet)}. Your sheet: {_sheet_words(sheet)}.")
    return parts


# --------------------------------------------------------------------------- the public table

TOP_Y = TITLE_H + 12
TOP_H = 112
CARDS_Y = TOP_Y + TOP_H + 12
CARD_W, CARD_H, CARD_GAP = 440, 356, 16
TILE_W, TILE_H = 136, 108


#: The board's key line: what the five small squares under each ruin are.
MINI_KEY_H = 40
MINI_KEY = "under each ruin: its enchantments crossed off (of 5), ×multiplier beside its coins"


def board_height(seats: int) -> int:
    rows = max(1, (seats + 2) // 3)
    return CARDS_Y + rows * (CARD_H + CARD_GAP) + 4 + MINI_KEY_H


def _card_origin(seat: int, seats: int) -> tuple[int, int]:
    row, col = divmod(seat, 3)
    in_row = min(3, seats - row * 3)
    width = in_row * CARD_W + (in_row - 1) * CARD_GAP
    x = (WIDTH - width) // 2 + col * (CARD_W + CARD_GAP)
    return x, CARDS_Y + row * (CARD_H + CARD_GAP)


def _tile_origin(number: int) -> tuple[int, int]:
    i = number - 1
    return 10 + (i % 3) * (TILE_W + 6), 54 + (i // 3) * (TILE_H + 6)


def _mini_ruin(ruin: dict) -> tuple[float, float, float, dict[int, tuple[float, float]]]:
    """Pitch and slot centres of a ruin's miniature, relative to its tile."""
    rows = _lengths(list(ruin.get("rows") or []))
    rule = str(ruin.get("rule", ""))
    cols = max(rows) if rows else 1
    pitch = min(124 / cols, 50 / max(1, len(rows)), 20)
    gx = TILE_W / 2 - cols * pitch / 2
    gy = 34 + (50 - len(rows) * pitch) / 2
    centres = {}
    for r, row in enumerate(_ruin_layout(rows, rule)):
        for col, slot in row:
            centres[slot] = (gx + col * pitch + pitch / 2, gy + r * pitch + pitch / 2)
    return gx, gy, pitch, centres


def _mini_reef(board_reef: dict) -> tuple[float, float]:
    rows, cols = int(board_reef.get("rows", 7)), int(board_reef.get("cols", 7))
    pitch = min(66 // rows, 66 // cols)
    return pitch, 12


@lru_cache(maxsize=16)
def _board_background(board_key: str, seats: int) -> Image.Image:
    """The top panel, the card frames and each card's empty ruins and reef (drawn once)."""
    board = json.loads(board_key)
    image, draw = canvas(GAME, board_height(seats), WIDTH)
    panel(draw, (24, TOP_Y, WIDTH - 24, TOP_Y + TOP_H), fill=(230, 242, 244))
    reef = board.get("reef") or {}
    pitch, _ = _mini_reef(reef)
    rows, cols = int(reef.get("rows", 7)), int(reef.get("cols", 7))
    for seat in range(seats):
        cx, cy = _card_origin(seat, seats)
        style = player(seat)
        panel(draw, (cx, cy, cx + CARD_W, cy + CARD_H), fill=PAPER, outline=style.colour, radius=16, width=4)
        draw.rounded_rectangle((cx + 4, cy + 4, cx + CARD_W - 4, cy + 48), radius=12, fill=style.light)
        paste_centred(image, token_image(seat, 17), (cx + 28, cy + 26))
        for ruin in board.get("ruins") or []:
            number = int(ruin.get("number", 0))
            if not 1 <= number <= 6:
                continue
            tx, ty = _tile_origin(number)
            tx, ty = cx + tx, cy + ty
            draw.rounded_rectangle(
                (tx, ty, tx + TILE_W, ty + TILE_H), radius=10, fill=WHITE, outline=PANEL_LINE, width=2
            )
            draw.ellipse((tx + 4, ty + 4, tx + 30, ty + 30), fill=INK)
            draw.text((tx + 17, ty + 17), str(number), font=font("bold", 20), fill=WHITE, anchor="mm")
            rows_len = [int(n) for n in ruin.get("rows") or []]
            _, _, p, centres = _mini_ruin({"rows": [[None] * n for n in rows_len], "rule": ruin.get("rule")})
            for sx, sy in centres.values():
                draw.rectangle(
                    (tx + sx - p / 2 + 1, ty + sy - p / 2 + 1, tx + sx + p / 2 - 1, ty + sy + p / 2 - 1),
                    fill=(246, 246, 246),
                    outline=CELL_LINE,
                    width=1,
                )
            for k in range(5):
                px = tx + TILE_W / 2 + (k - 2) * 22
                draw.rectangle(
                    (px - 7, ty + TILE_H - 19, px + 7, ty + TILE_H - 5), outline=CELL_LINE, width=2
                )
        rx, ry = cx + 14, cy + CARD_H - 80
        draw.rectangle(
            (rx - 2, ry - 2, rx + cols * pitch + 2, ry + rows * pitch + 2), fill=WHITE, outline=INK, width=2
        )
        if "values" in reef:
            for r, c in reef.get("highlighted") or []:
                draw.rectangle(
                    (rx + c * pitch, ry + r * pitch, rx + (c + 1) * pitch - 1, ry + (r + 1) * pitch - 1),
                    fill=GREEN,
                )
        else:
            for t, texture in enumerate(reef.get("textures") or []):
                for r, c in texture.get("cells") or []:
                    draw.rectangle(
                        (rx + c * pitch, ry + r * pitch, rx + (c + 1) * pitch - 1, ry + (r + 1) * pitch - 1),
                        fill=TEXTURE_TINTS[t % len(TEXTURE_TINTS)],
                    )
        sx = cx + 14 + cols * pitch + 20
        draw_text(draw, (sx, cy + CARD_H - 64), "Lucky", "regular", 24, INK, "lm")
        draw_text(draw, (sx + 150, cy + CARD_H - 64), "Pearls", "regular", 24, INK, "lm")
        draw_text(draw, (sx, cy + CARD_H - 26), "Shells", "regular", 24, INK, "lm")
    _draw_mini_key(draw, board_height(seats) - MINI_KEY_H / 2 - 6)
    return image


def _draw_mini_key(draw: ImageDraw.ImageDraw, y: float) -> None:
    """Five small squares, two crossed off, then what they mean (the key line under the cards)."""
    x = 30
    for k in range(5):
        fill = PEN if k < 2 else None
        draw.rectangle((x + k * 22 - 7, y - 7, x + k * 22 + 7, y + 7), fill=fill, outline=PEN, width=2)
    text_in_box(draw, (x + 5 * 22, y - 18, WIDTH - 24, y + 18), MINI_KEY, "regular", 24, 18, INK, "left")


def _draw_top(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, names) -> None:
    y0, y1 = TOP_Y, TOP_Y + TOP_H
    cy = (y0 + y1) / 2
    draw_text(draw, (44, cy - 20), _round_words(view), "bold", 34, INK, "lm")
    draw_text(
        draw,
        (44, cy + 24),
        f"{view.get('reef_name', '')} · {view.get('tracker_name', '')}",
        "regular",
        22,
        MUTED,
        "lm",
    )
    x = 410
    dice = [int(v) for v in view.get("dice") or []]
    boon = view.get("boon") if isinstance(view.get("boon"), dict) else None
    if dice:
        x = _dice_row(image, [(v, False, False) for v in dice], x, cy, 70, 12)
        if boon and boon.get("type") in ("roll", "die"):
            x = _dice_row(image, [(int(boon.get("value", 0)), True, False)], x + 8, cy, 70, 12)
        x += 8
    elif view.get("phase") == "round":  # the boon step: gained before the hydra dice are rolled
        draw_text(draw, (x, cy - 16), "Hydra dice", "bold", 24, MUTED, "lm")
        draw_text(draw, (x, cy + 16), "not rolled yet", "regular", 22, MUTED, "lm")
        x += 210
    phase = view.get("phase")
    right = WIDTH - 40
    seats = int(view.get("seats", len(view.get("sheets") or [])))
    confirmed = list(view.get("confirmed") or [])
    if phase in ("lucky", "round"):
        tw = 44 * seats
        tx0 = right - tw
        draw_text(draw, (tx0 + tw / 2, y0 + 22), "Done", "bold", 24, INK, "mm")
        for seat in range(seats):
            tcx = tx0 + seat * 44 + 22
            paste_centred(image, token_image(seat, 16), (tcx, cy + 4))
            done = seat < len(confirmed) and confirmed[seat]
            if done:
                paste_centred(image, tick_image(30), (tcx, y1 - 16))
            else:
                draw.text((tcx, y1 - 16), "…", font=font("bold", 24), fill=MUTED, anchor="mm")
        right = tx0 - 16
    if phase == "round" and boon:
        text = boon.get("text", "")
        if boon.get("type") == "roll":
            text = f"a rolled {boon.get('value', '?')} for all"
        box = (max(x, 640), y0 + 8, right, y1 - 8)
        draw.rounded_rectangle(box, radius=10, fill=(255, 246, 214), outline=GOLD, width=2)
        mid = (box[1] + box[3]) / 2
        draw_text(draw, (box[0] + 12, box[1] + 20), "Boon", "bold", 24, GOLD, "lm")
        width = box[2] - box[0] - 24
        if text_width(text, "bold", 24) <= width:
            draw_text(draw, (box[0] + 12, mid + 14), text, "bold", 24, INK, "lm")
        else:
            lines = wrap(text, "bold", 22, width, max_lines=2)
            for i, line in enumerate(lines):
                draw_text(draw, (box[0] + 12, mid + 2 + i * 26), line, "bold", 22, INK, "lm")
    elif phase == "round":
        draw_text(draw, (max(x, 640), cy), "No boon this round", "regular", 26, MUTED, "lm")
    elif phase == "finished":
        result = view.get("result") or {}
        winners = [int(w) for w in result.get("winners") or []]
        ratings = result.get("ratings") or []
        if seats == 1 and ratings:
            words = f"Final score {_score(view, 0, (view.get('sheets') or [{}])[0])}: {ratings[0]}"
        else:
            words = _winner_words([drawn_name(w, names) for w in winners])
        text_in_box(draw, (max(x, 560), y0 + 10, right, y1 - 10), words, "bold", 32, 20, INK, "left")
    elif phase == "lucky":
        text_in_box(
            draw,
            (max(x, 560), y0 + 10, right, y1 - 10),
            "Lucky numbers, in seat order, each different",
            "bold",
            28,
            20,
            INK,
            "left",
        )


def _draw_card(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, seat: int, names) -> None:
    sheets = view.get("sheets") or []
    sheet = sheets[seat]
    cx, cy = _card_origin(seat, int(view.get("seats", len(sheets))))
    total = _score(view, seat, sheet)
    score_img = written(str(total), 40)
    sw = score_img.width
    text_in_box(
        draw,
        (cx + 48, cy + 6, cx + CARD_W - sw - 30, cy + 46),
        drawn_name(seat, names),
        "bold",
        28,
        20,
        INK,
        "left",
        pad=4,
    )
    paste_centred(image, score_img, (cx + CARD_W - 14 - sw / 2, cy + 26))
    lucky = sheet.get("lucky")
    changed = sheet.get("changed") or {}
    ruins_changed, reef_changed, ench_changed, _ = _changed_sets(changed)
    ench = {int(e.get("section", 0)): int(e.get("crossed", 0)) for e in sheet.get("enchantments") or []}
    for ruin in sheet.get("ruins") or []:
        number = int(ruin.get("number", 0))
        if not 1 <= number <= 6:
            continue
        tx, ty = _tile_origin(number)
        tx, ty = cx + tx, cy + ty
        coins, mult = int(ruin.get("coins", 0)), int(ruin.get("multiplier", 1))
        paste_centred(image, written(str(coins), 28), (tx + 50, ty + 17))
        if mult > 1:
            paste_centred(image, written(f"×{mult}", 26, MULT), (tx + TILE_W - 24, ty + 17))
        _, _, pitch, centres = _mini_ruin(ruin)
        values = [v for row in ruin.get("rows") or [] for v in row]
        size = max(12, int(pitch * 0.9))
        for slot, value in enumerate(values):
            if slot not in centres:
                continue
            sx, sy = centres[slot]
            if (number, slot) in ruins_changed:
                draw.rectangle(
                    (
                        tx + sx - pitch / 2 + 1,
                        ty + sy - pitch / 2 + 1,
                        tx + sx + pitch / 2 - 1,
                        ty + sy + pitch / 2 - 1,
                    ),
                    fill=HIGHLIGHT,
                )
            if value is not None:
                colour = GOLD if lucky and value == lucky else PEN
                paste_centred(image, written(str(value), size, colour), (tx + sx, ty + sy + 1))
        crossed = ench.get(number - 1, 0)
        for k in range(min(crossed, 5)):
            px = tx + TILE_W / 2 + (k - 2) * 22
            fill = HIGHLIGHT if (number - 1) in ench_changed and k == crossed - 1 else PEN
            draw.rectangle(
                (px - 7, ty + TILE_H - 19, px + 7, ty + TILE_H - 5), fill=fill, outline=PEN, width=2
            )
    board_reef = (view.get("board") or {}).get("reef") or {}
    pitch, _ = _mini_reef(board_reef)
    rx, ry = cx + 14, cy + CARD_H - 80
    reef = sheet.get("reef") or {}
    if "marked" in reef:
        cells = [(r, c) for r, row in enumerate(reef.get("marked") or []) for c, m in enumerate(row) if m]
    else:
        cells = [(r, c) for r, row in enumerate(reef.get("cells") or []) for c, n in enumerate(row) if n]
    for r, c in cells:
        fill = HIGHLIGHT if (r, c) in reef_changed else PEN
        draw.rectangle(
            (rx + c * pitch + 1, ry + r * pitch + 1, rx + (c + 1) * pitch - 2, ry + (r + 1) * pitch - 2),
            fill=fill,
        )
    cols = int(board_reef.get("cols", 7))
    sx = cx + 14 + cols * pitch + 20
    paste_centred(image, written(_lucky_text(sheet), 30), (sx + 100, cy + CARD_H - 64))
    paste_centred(image, written(str(sheet.get("pearls", 0)), 30), (sx + 260, cy + CARD_H - 64))
    shells = int(sheet.get("shells", 0))
    paste_centred(image, written(str(shells), 30), (sx + 100, cy + CARD_H - 26))
    change = int(changed.get("shells", 0) or 0)
    if change:
        paste_centred(image, written(f"({change:+d})", 24, MUTED), (sx + 150, cy + CARD_H - 26))
    phase = view.get("phase")
    confirmed = view.get("confirmed") or []
    if phase in ("lucky", "round") and seat < len(confirmed) and confirmed[seat]:
        paste_centred(image, tick_image(34), (cx + CARD_W - 40, cy + CARD_H - 30))
        draw_text(draw, (cx + CARD_W - 60, cy + CARD_H - 30), "done", "bold", 24, PEN, "rm")


def render_board(view: dict, names: Sequence[object] | None = None) -> Picture:
    """The public table: round, dice, boon, who confirmed, and every seat's compact sheet."""
    sheets = view.get("sheets") or []
    seats = len(sheets)
    if not 1 <= seats <= 8:
        raise RenderError(f"cannot draw {seats} seats (1–8)")
    image = _board_background(_board_key(view), seats).copy()
    draw = ImageDraw.Draw(image)
    text_in_box(
        draw, (380, 0, WIDTH - 16, TITLE_H), _short_round(view).capitalize(), "bold", 32, 20, WHITE, "right"
    )
    _draw_top(image, draw, view, names)
    for seat in range(seats):
        _draw_card(image, draw, view, seat, names)
    return picture(image, board_alt(view, names), "reef-board.png")


def board_alt(view: dict, names: Sequence[object] | None) -> list[str]:
    """Alt text of the public table: round, dice and boon, who confirmed, scores, then each sheet."""
    sheets = view.get("sheets") or []
    parts = [f"Reef & Ruins table, {view.get('reef_name', '')}. {_round_words(view)}."]
    if view.get("dice"):
        parts.append("Dice " + ", ".join(str(v) for v in view["dice"]) + ".")
    elif _boon_step(view):
        parts.append("Everyone gains the boon before the hydra dice are rolled.")
    boon = _boon_words(view)
    if boon:
        parts.append(boon + ".")
    confirmed = view.get("confirmed") or []
    if view.get("phase") in ("lucky", "round"):
        waiting = [_who(s, names) for s in range(len(sheets)) if not (s < len(confirmed) and confirmed[s])]
        if waiting:
            parts.append("Still playing: " + ", ".join(waiting) + ".")
    final = isinstance(view.get("result"), dict)
    if final:
        winners = [_who(int(w), names) for w in view["result"].get("winners") or []]
        parts.append(_winner_words(winners) + ".")
    scores = [f"{_who(s, names)} {_score(view, s, sheet)}" for s, sheet in enumerate(sheets)]
    parts.append(
        ("Final scores: " if final else "Scores at the start of the round: ") + "; ".join(scores) + "."
    )
    for s, sheet in enumerate(sheets):
        parts.append(f"{_who(s, names)}: {_sheet_words(sheet)}.")
    return parts


# --------------------------------------------------------------------------- entry point


def render(view: dict, names: Sequence[object] | None = None) -> Picture:
    """A seat's picture when the view is a seated player's own, else the public table."""
    if not isinstance(view, dict) or view.get("game", GAME) != GAME or "sheets" not in view:
        raise RenderError("not a Reef & Ruins view")
    viewer = view.get("viewer")
    if isinstance(viewer, int) and 0 <= viewer < len(view.get("sheets") or []):
        return render_private(view, names)
    return render_board(view, names)  # public, or a spectator's view: the table


__all__ = ["render", "render_board", "render_private"]
