"""Reef & Ruins pictures: the public table and a seat's own sheet, from `engine.reef.view`
views (its module docstring is the view shape). Both are laid out for a phone: 800 px
wide, taller than wide, every text at least `common.min_size` (9 px tall once a phone
shows the picture 400 px wide).

Public table (800 wide, 680–1560 high with the seat count): a top panel with the
three hydra dice and this round's boon die, who is done (each seat's token, ticked
or waiting), the reef and tracker side, and the boon, the winner or the lucky
number step; then one card per seat, two to a row, each as it stood at the start of
the round (the public view hides unconfirmed work): the name and the score as it
would end now, large; the six ruins with their written values, their coins and
multiplier and the crossed spaces of their linked enchantment section (five small
squares); the reef in miniature; the lucky number, pearls and shells. What the last
round changed is highlighted in yellow. A key line explains the small squares. From
seven seats (`COMPACT_FROM`) the cards are a summary, without the ruins' written
values (each player's panel shows their own whole sheet), so four rows still fit
an 800 px picture and every digit reads on a phone.

A seat's picture (800x1582): its dice (used dice ticked, boon dice gold, the chosen
die highlighted) beside what remains of its round work and the boon; then its whole
live sheet: the six ruins two to a row, each with its rule, name and coins per full
row beside the grid, the values in a handwriting-like pen; the lucky number and the
score; the enchantments and pearl bonuses on the left, the reef and shells on the
right. This round's work is highlighted in yellow.

Reef & Ruins has no title in another script: the plain English title is drawn.
Static layers (the printed sheet, the empty table) are drawn once per board and
seat count and cached; written values are cached sprites.

Speed (issue #17: a picture costs at most 1.3x its own PNG encoding): a picture is
composed in the game's fixed palette (`PALETTE`, "P" mode), so saving it maps no
pixel. Each static layer is drawn in RGB and mapped to the palette once; flat shapes
are drawn straight in palette entries (`_index`); every sprite and line of text is
composed in RGB on what lies under it — a flat colour, the printed layer, or rarely
the picture's own pixels — mapped once and remembered (`_lay`, `common.Blocks`), then pasted through
the mask of its inked pixels. The pictures are the same, pixel for pixel, as drawing
in RGB and mapping the whole picture at encoding.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

import i18n
from i18n import N_
from renderers import common
from renderers.common import (
    HIGHLIGHT,
    INK,
    MAX_ASPECT,
    MUTED,
    PANEL_LINE,
    TITLE_H,
    TITLES,
    WHITE,
    Picture,
    RenderError,
    canvas,
    draw_text,
    drawable,
    drawn_name,
    fit,
    fixed_palette,
    font,
    min_size,
    ordinal,
    panel,
    paste_centred,
    picture,
    player,
    seat_label,
    text_in_box,
    text_width,
    title_bar_right,
    token_image,
    wrap,
)
from renderers.memo import cached
from renderers.reef_sprites import (
    BOON_FILL,
    COIN,
    GOLD,
    MULT,
    PEARL,
    PEN,
    SHELL,
    STAR,
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
#: Both pictures are drawn this wide (the house default, `common.WIDTH`).
WIDTH = 800
#: The smallest type sizes a phone still reads at this width.
TEXT = min_size(WIDTH, "regular")
HAND = min_size(WIDTH, "hand_bold")
PAPER = (252, 249, 240)
CELL_LINE = (120, 128, 140)
GREEN = (196, 230, 186)
LIGHT_PEN = (214, 224, 246)
BAR_FILL = (230, 242, 244)
BOON_BOX = (255, 246, 214)
EMPTY_CELL = (246, 246, 246)
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


def _blend(a: tuple[int, int, int], b: tuple[int, int, int], mix: float) -> tuple[int, int, int]:
    return tuple(round(x + (y - x) * mix) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def _flat_colours() -> tuple[tuple[int, int, int], ...]:
    """The colours reef paints with besides the house's: each comes out of the palette exactly."""
    own = (
        TITLES[GAME].colour, PAPER, CELL_LINE, GREEN, LIGHT_PEN, BAR_FILL, BOON_BOX, EMPTY_CELL, PEN,
        GOLD, MULT, COIN, BOON_FILL, SHELL, PEARL, STAR, *TEXTURE_TINTS,
    )  # fmt: skip
    # a used die is drawn at 40 % over the bar: its ink, paper and gold
    faded = [_blend(BAR_FILL, c, 0.4) for c in (INK, WHITE, GOLD, BOON_FILL)]
    return tuple(dict.fromkeys((*own, *faded)))


#: What reef paints on besides the house surfaces: the anti-aliased edges blend towards these.
GROUNDS = (
    PAPER,
    BAR_FILL,
    BOON_BOX,
    EMPTY_CELL,
    GREEN,
    LIGHT_PEN,
    HIGHLIGHT,
    COIN,
    SHELL,
    PEARL,
    TITLES[GAME].colour,
)

#: The fixed palette every reef picture is composed in and encoded with (built once).
PALETTE = fixed_palette(_flat_colours(), GROUNDS)


@lru_cache(maxsize=128)
def _index(colour: tuple[int, int, int]) -> int:
    """The palette entry of a flat colour: the one an RGB picture's pixel of it maps to at encoding,
    so a shape filled with it directly looks as it did when pictures were mapped whole."""
    return _to_palette(Image.new("RGB", (1, 1), colour)).getpixel((0, 0))  # type: ignore[return-value]


def _to_palette(image: Image.Image) -> Image.Image:
    """An RGB image mapped to `PALETTE` as `common.encode_png` maps it (every pixel on its own)."""
    return image.quantize(palette=PALETTE, dither=Image.Dither.NONE)


#: The printed sheet under a seat's picture, in RGB (`common.Layer`): sprites laid on printed words
#: and marks are composed over it (their anti-aliased edges blend with what is printed there).
_Layer = common.Layer
#: What a sprite is laid on: a flat colour, the printed layer, or None (what the picture has there).
Ground = common.Ground
#: Sprites composed on a ground and mapped to `PALETTE` once, remembered, pasted through the mask of
#: their inked pixels (`common.Blocks`).
_BLOCKS = common.Blocks(PALETTE)
_lay = _BLOCKS.lay
_stamp = _BLOCKS.stamp
#: `common.paste_centred` on a palette picture: a sprite centred at a point on its ground.
_put = _BLOCKS.put


def _corner(sprite: Image.Image, centre: tuple[float, float]) -> tuple[int, int]:
    """Where `common.paste_centred` puts a sprite's top-left corner."""
    return round(centre[0] - sprite.width / 2), round(centre[1] - sprite.height / 2)


def _token(seat: int, radius: int) -> Image.Image:
    """A seat's token with its letter at least the smallest phone-readable size."""
    return token_image(seat, radius, TEXT)


@cached
def _label(
    text: str, kind: str, size: int, colour: tuple[int, int, int], lang: str
) -> tuple[Image.Image, int]:
    """One line of text rasterised once as an RGBA sprite, and its left margin.

    FreeType rasterising is most of a picture's drawing; the texts of a table repeat
    (round words, boons, names), so they are drawn once and pasted. The sprite is as
    tall as the font's ascent plus descent: its middle is Pillow's "m" anchor. ``lang`` is the
    picture's language (its fonts differ), so that the cache never mixes languages."""
    face = font(kind, size)
    ascent, descent = face.getmetrics()
    pad = max(2, size // 5)
    image = Image.new("RGBA", (math.ceil(face.getlength(text)) + 2 * pad, ascent + descent), (0, 0, 0, 0))
    ImageDraw.Draw(image).text((pad, 0), text, font=face, fill=colour, anchor="la")
    return image, pad


def _text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    kind: str = "regular",
    size: int = TEXT,
    fill: tuple[int, int, int] = INK,
    anchor: str = "lm",
    ground: Ground = PAPER,
) -> float:
    """Lay one line at ``xy`` (anchors "lm", "mm", "rm") on ``ground``; returns its width."""
    line = _line(xy, text, kind, size, fill, anchor)
    if line is None:
        return 0.0
    sprite, left, top, width = line
    _stamp(image, sprite, left, top, ground)
    return width


def _line(
    xy: tuple[float, float], text: str, kind: str, size: int, fill: tuple[int, int, int], anchor: str
) -> tuple[Image.Image, int, int, float] | None:
    """One line's sprite, where its top-left corner goes and its width (None when blank)."""
    text = drawable(text, kind)
    if not text.strip():
        return None
    sprite, pad = _label(text, kind, size, tuple(fill), common.language())
    width = sprite.width - 2 * pad
    x = xy[0] - {"l": 0, "m": width / 2, "r": width}[anchor[0]]
    return sprite, round(x - pad), round(xy[1] - sprite.height / 2), width


def _text_box(
    image: Image.Image,
    box: tuple[float, float, float, float],
    text: str,
    kind: str = "regular",
    max_size: int = 32,
    min_size: int = TEXT,
    fill: tuple[int, int, int] = INK,
    align: str = "center",
    pad: float = 8,
    ground: Ground = PAPER,
) -> int:
    """`common.text_in_box`, laid from cached sprites on ``ground``: as big as fits, then ellipsized."""
    x0, y0, x1, y1 = box
    max_size = min(max_size, int((y1 - y0) * 0.8))
    line, size = fit(text, kind, x1 - x0 - 2 * pad, max_size, min(min_size, max_size))
    y = (y0 + y1) / 2
    if align == "left":
        _text(image, (x0 + pad, y), line, kind, size, fill, "lm", ground)
    elif align == "right":
        _text(image, (x1 - pad, y), line, kind, size, fill, "rm", ground)
    else:
        _text(image, ((x0 + x1) / 2, y), line, kind, size, fill, "mm", ground)
    return size


def _lines(text: str, kind: str, size: int, width: float, max_lines: int = 0) -> tuple[str, ...]:
    """`common.wrap`, cached (status and boon texts repeat) per language (its fonts differ)."""
    return _wrapped(text, kind, size, width, max_lines, common.language())


@lru_cache(maxsize=1024)
def _wrapped(text: str, kind: str, size: int, width: float, max_lines: int, lang: str) -> tuple[str, ...]:
    return tuple(wrap(text, kind, size, width, max_lines))


# --------------------------------------------------------------------------- words


def _who(seat: int, names: Sequence[object] | None) -> str:
    return seat_label(seat, names)


def _round_words(view: dict) -> str:
    t = common.words()
    phase = view.get("phase")
    if phase == "lucky":
        return t("Choosing lucky numbers")
    if phase == "finished":
        return t("Game over")
    return t("Round {round} of {rounds}", round=view.get("round", 0), rounds=view.get("rounds", 18))


def _short_round(view: dict) -> str:
    """The round in a few words, capitalized ("Round 12/18")."""
    t = common.words()
    phase = view.get("phase")
    if phase == "lucky":
        return t("Lucky numbers")
    if phase == "finished":
        return t("Game over")
    return t("Round {round}/{rounds}", round=view.get("round", 0), rounds=view.get("rounds", 18))


def _said(item: dict) -> str:
    """A view item's words (a boon, a bonus) in the picture's language: its "say", else its "text"."""
    message = item.get("say")
    return common.words().msg(message) if isinstance(message, dict) else str(item.get("text", ""))


def _boon_words(view: dict) -> str:
    t = common.words()
    boon = view.get("boon")
    if not isinstance(boon, dict):
        return ""
    if boon.get("type") == "roll":
        return t("Boon: a rolled {value} for everyone", value=boon.get("value", "?"))
    return t("Boon: {boon}", boon=_said(boon))


def _boon_step(view: dict) -> bool:
    """The round's boon is being gained: "before the Hydra dice are rolled" (no dice yet)."""
    return view.get("phase") == "round" and not view.get("dice")


def _winner_words(winners: list[str]) -> str:
    t = common.words()
    if not winners:
        return t("No winner: everyone tied for the highest score")
    return t.plural("Winner: {names}", "Winners: {names}", len(winners), names=", ".join(winners))


def _die_words(die: dict) -> str:
    """One of the seat's dice for the alt text: "5", "3 boon used"."""
    t = common.words()
    value = die.get("value")
    kind = die.get("kind")
    used = bool(die.get("used"))
    if kind == "hydra":
        return t("{value} used", value=value) if used else str(value)
    if kind == "roll":
        return t("{value} rolled used", value=value) if used else t("{value} rolled", value=value)
    return t("{value} boon used", value=value) if used else t("{value} boon", value=value)


def _score(view: dict, seat: int, sheet: dict) -> int:
    result = view.get("result")
    if isinstance(result, dict):
        scores = result.get("scores") or []
        if 0 <= seat < len(scores):
            return int(scores[seat])
    return int((sheet.get("score") or {}).get("total", 0))


def _lucky_text(sheet: dict) -> str:
    t = common.words()
    lucky = sheet.get("lucky")
    if lucky is None:
        return "?"
    return t("fate") if lucky == 0 else str(lucky)


def _sheet_words(sheet: dict) -> str:
    t = common.words()
    score = sheet.get("score") or {}
    ruins = []
    for ruin in sheet.get("ruins") or []:
        filled = sum(v is not None for row in ruin.get("rows") or [] for v in row)
        args = {"number": ruin.get("number"), "filled": filled, "coins": ruin.get("coins", 0)}
        if ruin.get("multiplier", 1) > 1:
            ruins.append(
                t(
                    "{number}: {filled} written, {coins} coins x{multiplier}",
                    multiplier=ruin["multiplier"],
                    **args,
                )
            )
        else:
            ruins.append(t("{number}: {filled} written, {coins} coins", **args))
    ench = ", ".join(f"{e.get('sum')}: {e.get('crossed', 0)}" for e in sheet.get("enchantments") or [])
    return t(
        "lucky number {lucky}, {shells}, {pearls}; score {total} "
        "(ruins {ruins}, enchantments {enchantments}, lucky {lucky_coins}, pearls {pearl_coins}); "
        "ruins {each}; enchantments crossed {crossed}",
        lucky=_lucky_text(sheet),
        shells=t.plural("{count} shell pair", "{count} shell pairs", int(sheet.get("shells", 0))),
        pearls=t.plural("{count} pearl", "{count} pearls", int(sheet.get("pearls", 0))),
        total=score.get("total", 0),
        ruins=score.get("ruins", 0),
        enchantments=score.get("enchantments", 0),
        lucky_coins=score.get("lucky", 0),
        pearl_coins=score.get("pearls", 0),
        each="; ".join(ruins),
        crossed=ench,
    )


def _changed_words(changed: dict) -> str:
    t = common.words()
    bits = []
    if changed.get("ruins"):
        bits.append(t.plural("{count} value in ruins", "{count} values in ruins", len(changed["ruins"])))
    if changed.get("reef"):
        bits.append(t.plural("{count} reef space", "{count} reef spaces", len(changed["reef"])))
    if changed.get("enchantments"):
        bits.append(
            t("enchantment {sections}", sections=", ".join(str(s + 1) for s in changed["enchantments"]))
        )
    if changed.get("pearl_bonuses"):
        bits.append(t.plural("{count} pearl bonus", "{count} pearl bonuses", len(changed["pearl_bonuses"])))
    shells = int(changed.get("shells", 0) or 0)
    if shells:
        sign = f"{shells:+d}"
        bits.append(t("shells {change}", change=sign))
    return ", ".join(bits)


# --------------------------------------------------------------------------- shared drawing


#: The printed components of each (reef, tracker side) seen, for the cached layers to draw from,
#: with the reef's and the side's names.
_BOARDS: dict[tuple[str, str], dict] = {}


def _board_key(view: dict) -> tuple[str, str]:
    """The cache key of the printed components: the engine prints them from the reef and the
    tracker side alone (`engine.reef.view.board`), so the pair names them without hashing them."""
    key = (str(view.get("reef", "")), str(view.get("tracker", "")))
    if key not in _BOARDS:
        names = {
            "reef_name": str(view.get("reef_name", "")),
            "tracker_name": str(view.get("tracker_name", "")),
        }
        _BOARDS[key] = {**(view.get("board") or {}), **names}
    return key


def _where(board: dict) -> str:
    """The reef and the tracker side, in the picture's language ("Arcane Atoll · Moonrise side")."""
    t = common.words()
    return t("{reef} · {side}", reef=t(board.get("reef_name", "")), side=t(board.get("tracker_name", "")))


_SCRATCH = threading.local()


def _fresh(layer: Image.Image) -> Image.Image:
    """A copy of a cached palette layer, in a picture buffer this thread keeps for the layer's size.

    Allocating a new 800x1600 picture for every render cost more than drawing on it (its
    memory is fresh pages each time); a picture is finished with once encoded, so each
    thread reuses one buffer per size and overwrites it with the layer."""
    buffers = getattr(_SCRATCH, "buffers", None)
    if buffers is None:
        buffers = _SCRATCH.buffers = {}
    image = buffers.get(layer.size)
    if image is None:
        if len(buffers) >= 4:  # seat counts come and go: keep a few sizes only
            buffers.clear()
        image = buffers[layer.size] = Image.new("P", layer.size)
        image.putpalette(PALETTE.getpalette() or [])
    image.paste(layer, (0, 0, *layer.size))
    return image


def _value_pen(value: int, size: int, room: float, colour: tuple[int, int, int] = PEN) -> Image.Image:
    """A written value no wider than ``room``. A die changed by shells has no upper cap (issue
    #40), so a value may have two digits: those are narrowed to fit their box, never written in a
    smaller pen than a phone reads."""
    return _narrowed(str(value), size, int(room), colour, common.language())


@cached
def _narrowed(text: str, size: int, room: int, colour: tuple[int, int, int], lang: str) -> Image.Image:
    pen = written(text, size, colour)
    if pen.width <= room:
        return pen
    return pen.resize((room, pen.height), Image.Resampling.LANCZOS)


def _paste(image: Image.Image, sprite: Image.Image | None, centre: tuple[float, float]) -> None:
    """`common.paste_centred` on an RGB layer, of a sprite that may be None (a plain space)."""
    if sprite is not None:
        paste_centred(image, sprite, centre)


def _dice_row(
    image: Image.Image,
    dice: list[tuple[int, bool, bool]],
    x: float,
    cy: float,
    size: int,
    gap: int = 14,
    picked: int | None = None,
) -> float:
    """Dice (value, boon, used) left to right from ``x`` on the bar; a used die is faded and
    ticked, the ``picked`` one lies on its yellow box.

    Returns the x after the last die."""
    for i, (value, boon, used) in enumerate(dice):
        die = die_image(int(value), size, boon, used)
        parts = ((die, *_corner(die, (x + size / 2, cy))),)
        if used:
            tick = tick_image(int(size * 0.8))
            parts += ((tick, *_corner(tick, (x + size / 2, cy))),)
        _lay(image, parts, HIGHLIGHT if i == picked else BAR_FILL)
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


def _outline(
    draw: ImageDraw.ImageDraw,
    cells: set[tuple[int, int]],
    x: float,
    y: float,
    pitch: float,
    colour: tuple[int, int, int] | int,
    width: int,
) -> None:
    """The outer edges of a group of grid cells (``colour`` a palette entry on a palette picture)."""
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


# --------------------------------------------------------------------------- a seat's picture: geometry

MARGIN, GAP = 14, 8
COL_W = (WIDTH - 2 * MARGIN - GAP) // 2
L0, L1 = MARGIN, MARGIN + COL_W
R0, R1 = WIDTH - MARGIN - COL_W, WIDTH - MARGIN
BAR_TOP = TITLE_H + 10
BAR_H = 140
DIE, DIE_PITCH = 60, 74
TODO_X = 420  # the to-do box's left edge; the dice have the room before it
DICE_ROOM = TODO_X - (MARGIN + 14) - 8
SHEET_TOP = BAR_TOP + BAR_H + GAP
HEAD_H = 44  # a ruin's number and rule in capitals; its coins and multiplier on the right
PITCH = 44  # a ruin's cells
PITCH_SUMS = 50  # odds and evens: room for "=10" under each column
PITCH_LINE = 56  # the +/- ONE ruin's single row
SUMS_H, COINS_H = 30, 42
LINE_H = 28  # one line of text
ENCH_ROW = 50
REEF_PITCH = 46


def ruin_coins_words(ruin: dict) -> str:
    """The coins a ruin pays per completed row, as printed beside it ("full rows → 6/13/21")."""
    t = common.words()
    coins = [int(c) for c in (ruin.get("row_coins") or [])[1:]]
    return t("full rows → {coins}", coins="/".join(map(str, coins))) if coins else ""


def _ruin_boxes() -> dict[int, tuple[int, int, int, int]]:
    """Box per ruin number: 1 and 2, then 6 and 4, then 5 (beside the lucky number and the
    score), then 3 across the sheet."""
    y1 = SHEET_TOP
    h1 = HEAD_H + 3 * PITCH + 10
    y2 = y1 + h1 + GAP
    h2 = HEAD_H + 4 * PITCH + 10
    y3 = y2 + h2 + GAP
    h3 = HEAD_H + 2 * PITCH_SUMS + SUMS_H + COINS_H + 10
    y4 = y3 + h3 + GAP
    h4 = HEAD_H + LINE_H + PITCH_LINE + 16
    return {
        1: (L0, y1, L1, y1 + h1),
        2: (R0, y1, R1, y1 + h1),
        6: (L0, y2, L1, y2 + h2),
        4: (R0, y2, R1, y2 + h2),
        5: (L0, y3, L1, y3 + h3),
        3: (L0, y4, R1, y4 + h4),
    }


RUIN_BOXES = _ruin_boxes()
LUCKY_BOX = (R0, RUIN_BOXES[5][1], R0 + 120, RUIN_BOXES[5][3])
SCORE_BOX = (R0 + 128, RUIN_BOXES[5][1], R1, RUIN_BOXES[5][3])
LOW_TOP = RUIN_BOXES[3][3] + GAP
ENCH_BOX = (L0, LOW_TOP, L1, LOW_TOP + 40 + 6 * ENCH_ROW + 8)
PEARL_BOX = (L0, ENCH_BOX[3] + GAP, L1, ENCH_BOX[3] + GAP + 40 + 2 * 54 + 6)
REEF_BOX = (R0, LOW_TOP, R1, LOW_TOP + 40 + 7 * REEF_PITCH + 40)
SHELL_BOX = (R0, REEF_BOX[3] + GAP, R1, PEARL_BOX[3])
PRIVATE_H = PEARL_BOX[3] + 10


def _pitch(rule: str, number: int) -> int:
    if number == 3:
        return PITCH_LINE
    return PITCH_SUMS if rule in ("odds", "evens") else PITCH


def _grid_origin(number: int, rule: str) -> tuple[float, float]:
    x0, y0, _, _ = RUIN_BOXES[number]
    if number == 3:
        return x0 + 14, y0 + HEAD_H + LINE_H
    return x0 + 14, y0 + HEAD_H


def _slot_centres(ruin: dict, number: int) -> tuple[dict[int, tuple[float, float]], int]:
    """Centre of each slot of a ruin on the sheet, and the cell pitch."""
    rows = tuple(_lengths(list(ruin.get("rows") or [])))
    return _slot_layout(number, rows, str(ruin.get("rule", "")))


@lru_cache(maxsize=32)
def _slot_layout(number: int, rows: tuple[int, ...], rule: str) -> tuple[dict[int, tuple[float, float]], int]:
    pitch = _pitch(rule, number)
    gx, gy = _grid_origin(number, rule)
    centres = {}
    for r, row in enumerate(_ruin_layout(list(rows), rule)):
        for col, slot in row:
            centres[slot] = (gx + col * pitch + pitch / 2, gy + r * pitch + pitch / 2)
    return centres, pitch


def text_column(number: int, ruin: dict) -> tuple[float, float, float]:
    """Left, right and top of the words beside a ruin's grid (its name, its coins per full row)."""
    _, y0, x1, _ = RUIN_BOXES[number]
    rule = str(ruin.get("rule", ""))
    cols = max(_lengths(list(ruin.get("rows") or [])) or [1])
    gx, _ = _grid_origin(number, rule)
    return gx + cols * _pitch(rule, number) + 12, x1 - 8, y0 + HEAD_H


def _enchant_space(section: int, space: int) -> tuple[float, float, float, float]:
    y = ENCH_BOX[1] + 40 + section * ENCH_ROW
    x = L0 + 96 + space * 56
    return x, y + 3, x + 53, y + ENCH_ROW - 3


def _pearl_box(index: int) -> tuple[float, float, float, float]:
    x = L0 + 10 + (index % 6) * 61
    y = PEARL_BOX[1] + 40 + (index // 6) * 54
    return x, y, x + 57, y + 50


def _shell_centre(index: int) -> tuple[float, float]:
    return SHELL_BOX[0] + 30 + (index % 8) * 46, SHELL_BOX[1] + 52 + (index // 8) * 30


def _reef_geometry(reef: dict) -> tuple[float, float, float]:
    rows, cols = int(reef.get("rows", 7)), int(reef.get("cols", 7))
    pitch = min(REEF_PITCH, (COL_W - 20) // cols, (7 * REEF_PITCH) // rows)
    x = (R0 + R1) / 2 - cols * pitch / 2
    return x, REEF_BOX[1] + 40, pitch


# ------------------------------------------------------------------- a seat's picture: the printed sheet


@cached
def _private_background(board_key: tuple[str, str], final: bool, lang: str) -> Image.Image:
    """The printed sheet: ruins, lucky box, enchantments, pearl bonuses, shells, the reef (drawn once
    per language: ``lang`` is the picture's)."""
    board = _BOARDS[board_key]
    image, draw = canvas(GAME, PRIVATE_H, WIDTH)
    panel(draw, (MARGIN, BAR_TOP, WIDTH - MARGIN, BAR_TOP + BAR_H), fill=BAR_FILL)
    for ruin in board.get("ruins") or []:
        if int(ruin.get("number", 0)) in RUIN_BOXES:
            _print_ruin(image, draw, ruin)
    _print_lucky(draw, board)
    _print_score(draw, final)
    _print_enchantments(image, draw, board)
    _print_pearls(image, draw, board)
    _print_shells(image, draw, board)
    _print_reef(draw, board.get("reef") or {})
    return image


@cached
def _private_layer(board_key: tuple[str, str], final: bool, lang: str) -> Image.Image:
    """`_private_background` mapped to the palette once: every seat's picture starts as a copy."""
    return _to_palette(_private_background(board_key, final, lang))


def _number_disc(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], number: int, radius: int = 17
) -> None:
    cx, cy = centre
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=INK)
    draw.text((cx, cy), str(number), font=font("bold", TEXT), fill=WHITE, anchor="mm")


def _print_ruin(image: Image.Image, draw: ImageDraw.ImageDraw, ruin: dict) -> None:
    """One printed ruin: number, rule, name, its empty cells and their printed coins."""
    number = int(ruin.get("number", 0))
    x0, y0, x1, y1 = RUIN_BOXES[number]
    rule = str(ruin.get("rule", ""))
    panel(draw, (x0, y0, x1, y1), fill=PAPER, radius=14)
    _number_disc(draw, (x0 + 24, y0 + 23), number)
    t = common.words()
    word = t(ruin["rule_word"]) if ruin.get("rule_word") else rule.upper()
    word, size = fit(word, "bold", x1 - 120 - (x0 + 48) if number == 3 else x1 - 40 - (x0 + 48), 28, TEXT)
    draw_text(draw, (x0 + 48, y0 + 23), word, "bold", size, INK, "lm")
    name = t(str(ruin.get("name", "")))
    if number == 3:  # a whole row of the sheet: the name fits beside the rule
        left = x0 + 48 + text_width(word, "bold", size) + 16
        text_in_box(
            draw, (left, y0 + 4, x1 - 110, y0 + 42), name, "regular", TEXT, TEXT, MUTED, "left", pad=0
        )
    else:
        tx0, tx1, ty = text_column(number, ruin)
        lines = wrap(name, "regular", TEXT, tx1 - tx0, max_lines=3)
        for i, line in enumerate(lines):
            draw_text(draw, (tx0, ty + i * LINE_H + LINE_H / 2), line, "regular", TEXT, MUTED, "lm")
        coins = ruin_coins_words(ruin)
        if coins:
            head, _, tail = (part.strip() for part in coins.partition("→"))
            y = ty + (len(lines) + 0.5) * LINE_H + 6
            draw_text(draw, (tx0, y), head + " →", "bold", TEXT, GOLD, "lm")
            draw_text(draw, (tx0, y + LINE_H), tail, "bold", TEXT, GOLD, "lm")
    centres, pitch = _slot_centres(ruin, number)
    cell = pitch - 4
    for cx, cy in centres.values():
        draw.rectangle(
            (cx - cell / 2, cy - cell / 2, cx + cell / 2, cy + cell / 2),
            fill=WHITE,
            outline=CELL_LINE,
            width=2,
        )
    if rule in ("odds", "evens"):
        _print_column_coins(image, draw, ruin, number, pitch)
    if rule == "plus-minus-one":
        reach = list(ruin.get("reach_coins") or [])[1:]
        for slot, (cx, cy) in sorted(centres.items()):
            if slot < len(reach):
                draw.text(
                    (cx, cy - pitch / 2 - LINE_H / 2),
                    str(reach[slot]),
                    font=font("bold", TEXT),
                    fill=GOLD,
                    anchor="mm",
                )


def _print_column_coins(
    image: Image.Image, draw: ImageDraw.ImageDraw, ruin: dict, number: int, pitch: int
) -> None:
    """Odds and evens: each column's sum to reach and the coins it pays, under the column."""
    sums = ruin.get("column_sums") or []
    coins = ruin.get("column_coins") or []
    gx, gy = _grid_origin(number, str(ruin.get("rule", "")))
    y = gy + len(ruin.get("rows") or []) * pitch + SUMS_H / 2
    for c, total in enumerate(sums):
        cx = gx + c * pitch + pitch / 2
        draw.text((cx, y), f"={total}", font=font("bold", TEXT), fill=MUTED, anchor="mm")
        if c < len(coins):
            paste_centred(image, coin_image(int(coins[c]), 40), (cx, y + SUMS_H / 2 + COINS_H / 2))


def _print_lucky(draw: ImageDraw.ImageDraw, board: dict) -> None:
    x0, y0, x1, y1 = LUCKY_BOX
    cx = (x0 + x1) / 2
    panel(draw, LUCKY_BOX, fill=PAPER, radius=14)
    t = common.words()
    text_in_box(draw, (x0 + 4, y0 + 6, x1 - 4, y0 + 42), t("Lucky"), "bold", TEXT, TEXT, INK, "center", pad=2)
    draw.ellipse((cx - 42, y0 + 56, cx + 42, y0 + 140), fill=WHITE, outline=INK, width=3)
    coins = int(board.get("lucky_coins", 0))
    each = t.plural("{count} coin", "{count} coins", coins)
    text_in_box(draw, (x0 + 4, y1 - 70, x1 - 4, y1 - 34), each, "regular", TEXT, TEXT, MUTED, "center", pad=2)
    text_in_box(
        draw, (x0 + 4, y1 - 42, x1 - 4, y1 - 6), t("each"), "regular", TEXT, TEXT, MUTED, "center", pad=2
    )


def _print_enchantments(image: Image.Image, draw: ImageDraw.ImageDraw, board: dict) -> None:
    panel(draw, ENCH_BOX, fill=PAPER, radius=14)
    t = common.words()
    text_in_box(
        draw,
        (L0 + 14, ENCH_BOX[1] + 4, L1 - 6, ENCH_BOX[1] + 40),
        t("Enchantments"),
        "bold",
        26,
        TEXT,
        INK,
        "left",
        0,
    )
    for section in board.get("enchantments") or []:
        s = int(section.get("section", 0))
        if not 0 <= s < 6:
            continue
        y = ENCH_BOX[1] + 40 + s * ENCH_ROW
        draw.rounded_rectangle((L0 + 8, y + 5, L0 + 50, y + ENCH_ROW - 5), radius=8, fill=INK)
        draw.text(
            (L0 + 29, y + ENCH_ROW / 2),
            str(section.get("sum")),
            font=font("bold", TEXT),
            fill=WHITE,
            anchor="mm",
        )
        draw.text(
            (L0 + 54, y + ENCH_ROW / 2),
            f"→{section.get('ruin')}",
            font=font("bold", TEXT),
            fill=MUTED,
            anchor="lm",
        )
        for k, space in enumerate((section.get("spaces") or [])[:5]):
            x0, y0, x1, y1 = _enchant_space(s, k)
            draw.rounded_rectangle((x0, y0, x1, y1), radius=6, fill=WHITE, outline=CELL_LINE, width=2)
            draw.text(
                (x0 + 13, y0 + 14),
                str(space.get("coins", 0)),
                font=font("bold", TEXT),
                fill=GOLD,
                anchor="mm",
            )
            icon = boon_icon(space.get("boon"), int(space.get("value", 0)), TEXT + 2)
            _paste(image, icon, (x1 - 15, y1 - 14))


def _print_pearls(image: Image.Image, draw: ImageDraw.ImageDraw, board: dict) -> None:
    panel(draw, PEARL_BOX, fill=PAPER, radius=14)
    paste_centred(image, pearl_image(28), (L0 + 24, PEARL_BOX[1] + 22))
    for i, bonus in enumerate((board.get("pearl_bonuses") or [])[:12]):
        x0, y0, x1, y1 = _pearl_box(i)
        draw.rounded_rectangle((x0, y0, x1, y1), radius=6, fill=WHITE, outline=CELL_LINE, width=2)
        kind = bonus.get("type")
        if kind == "coins":
            icon = coin_image(int(bonus.get("value", 0)), 40)
        else:
            icon = boon_icon(kind, int(bonus.get("value", 0)), 36)
        _paste(image, icon, ((x0 + x1) / 2, (y0 + y1) / 2))


def _print_shells(image: Image.Image, draw: ImageDraw.ImageDraw, board: dict) -> None:
    panel(draw, SHELL_BOX, fill=PAPER, radius=14)
    paste_centred(image, shell_image(28), (R0 + 24, SHELL_BOX[1] + 22))
    for i in range(int(board.get("shell_pairs", 15))):
        cx, cy = _shell_centre(i)
        draw.ellipse((cx - 7, cy - 7, cx - 1, cy + 7), outline=CELL_LINE, width=2)
        draw.ellipse((cx + 1, cy - 7, cx + 7, cy + 7), outline=CELL_LINE, width=2)


def _print_reef(draw: ImageDraw.ImageDraw, reef: dict) -> None:
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
                draw.text(
                    ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
                    "S" if value == 0 else str(value),
                    font=font("bold", 26),
                    fill=INK,
                    anchor="mm",
                )
        legend = N_("Pearls: green, full lines")
    else:
        for r in range(rows):
            for c in range(cols):
                box = (x + c * pitch, y + r * pitch, x + (c + 1) * pitch, y + (r + 1) * pitch)
                draw.rectangle(box, fill=WHITE, outline=CELL_LINE, width=1)
        for n, texture in enumerate(reef.get("textures") or []):
            tint = TEXTURE_TINTS[n % len(TEXTURE_TINTS)]
            cells = {tuple(p) for p in texture.get("cells") or []}
            for r, c in cells:
                draw.rectangle(
                    (x + c * pitch + 1, y + r * pitch + 1, x + (c + 1) * pitch - 1, y + (r + 1) * pitch - 1),
                    fill=tint,
                )
            _outline(draw, cells, x, y, pitch, INK, 3)
        legend = N_("Pearls: full rows, columns")
    draw.rectangle((x, y, x + cols * pitch, y + rows * pitch), outline=INK, width=3)
    text_in_box(
        draw,
        (R0 + 6, REEF_BOX[3] - 40, R1 - 6, REEF_BOX[3] - 4),
        common.words()(legend),
        "regular",
        TEXT,
        TEXT,
        MUTED,
    )


# --------------------------------------------------------------------------- a seat's picture: drawing


def _draw_ruins(
    image: Image.Image, draw: ImageDraw.ImageDraw, sheet: dict, changed: set, layer: _Layer, searched: object
) -> None:
    """The written values (lucky ones starred), the +/- ONE turns, each ruin's coins and multiplier."""
    lucky = sheet.get("lucky")
    for ruin in sheet.get("ruins") or []:
        number = int(ruin.get("number", 0))
        if number not in RUIN_BOXES:
            continue
        _, y0, x1, _ = RUIN_BOXES[number]
        centres, pitch = _slot_centres(ruin, number)
        cell = pitch - 4
        values = [v for row in ruin.get("rows") or [] for v in row]
        for slot, value in enumerate(values):
            if slot not in centres:
                continue
            cx, cy = centres[slot]
            new = (number, slot) in changed
            if new:
                draw.rectangle(
                    (cx - cell / 2 + 2, cy - cell / 2 + 2, cx + cell / 2 - 2, cy + cell / 2 - 2),
                    fill=_index(HIGHLIGHT),
                )
            if value is not None:
                pen = _value_pen(value, 34 if pitch < PITCH_LINE else 38, cell - 6)
                _put(image, pen, (cx, cy + 1), HIGHLIGHT if new else WHITE)
                if lucky and value == lucky:  # a star has no soft edge: what it lies on does not show
                    _put(image, star_image(14, GOLD), (cx + cell / 2 - 7, cy - cell / 2 + 7), WHITE)
        for slot in ruin.get("turns") or []:
            if slot in centres and slot + 1 in centres:
                cx = (centres[slot][0] + centres[slot + 1][0]) / 2
                # between two cells, over their edges (and a yellow one): composed over the picture
                _put(image, ring_image(20), (cx, centres[slot][1] + cell / 2 + 6), None)
        coins, mult = int(ruin.get("coins", 0)), int(ruin.get("multiplier", 1))
        coin = coin_image(coins, 40) if coins < 100 else written(str(coins), 30)
        # on the printed head (a long rule word may reach under them), or inside the yellow ring
        # of the searched ruin, which a wide "×" may touch
        head = None if number == searched else layer
        _put(image, coin, (x1 - 70, y0 + 23), head)
        _put(image, written(f"×{mult}", 30, MULT if mult > 1 else MUTED), (x1 - 26, y0 + 23), head)


def _draw_enchantments(
    image: Image.Image, draw: ImageDraw.ImageDraw, sheet: dict, changed: set, layer: _Layer
) -> None:
    for section in sheet.get("enchantments") or []:
        s = int(section.get("section", 0))
        if not 0 <= s < 6:
            continue
        crossed = int(section.get("crossed", 0))
        for k in range(min(crossed, 5)):
            x0, y0, x1, y1 = _enchant_space(s, k)
            if s in changed and k == crossed - 1:
                draw.rounded_rectangle(
                    (x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=6, outline=_index(HIGHLIGHT), width=5
                )
            # over the space's printed coins and boon; its yellow ring lies where the cross has no ink
            _put(image, cross_image(42), ((x0 + x1) / 2, (y0 + y1) / 2), layer)


def _draw_pearls(
    image: Image.Image, draw: ImageDraw.ImageDraw, sheet: dict, changed: set, layer: _Layer
) -> None:
    t = common.words()
    pearls, lost = int(sheet.get("pearls", 0)), int(sheet.get("pearls_lost", 0))
    if lost:
        head = t("Pearls: {pearls}, {lost} lost", pearls=pearls, lost=lost)
    else:
        head = t("Pearls: {pearls}", pearls=pearls)
    _text_box(
        image, (L0 + 42, PEARL_BOX[1] + 4, L1 - 6, PEARL_BOX[1] + 40), head, "bold", 26, TEXT, INK, "left"
    )
    for i, crossed in enumerate((sheet.get("pearl_bonuses") or [])[:12]):
        if crossed:
            x0, y0, x1, y1 = _pearl_box(i)
            if i in changed:
                draw.rounded_rectangle(
                    (x0 - 2, y0 - 2, x1 + 2, y1 + 2), radius=6, outline=_index(HIGHLIGHT), width=5
                )
            _put(image, cross_image(44), ((x0 + x1) / 2, (y0 + y1) / 2), layer)  # over its printed bonus


def _draw_shells(
    image: Image.Image, draw: ImageDraw.ImageDraw, sheet: dict, change: int, layer: _Layer
) -> None:
    shells, earned = int(sheet.get("shells", 0)), int(sheet.get("shells_earned", 0))
    spent = earned - shells
    t = common.words()
    head = t.plural("Shells: {count} pair", "Shells: {count} pairs", shells)
    if change:
        sign = f"{change:+d}"
        head = t("{shells} ({change})", shells=head, change=sign)
    box = (R0 + 42, SHELL_BOX[1] + 4, R1 - 6, SHELL_BOX[1] + 40)
    if change:
        draw.rounded_rectangle((box[0], box[1] + 2, box[2], box[3] - 2), radius=8, fill=_index(HIGHLIGHT))
    _text_box(image, box, head, "bold", 26, TEXT, INK, "left", ground=HIGHLIGHT if change else PAPER)
    ring, cross = ring_image(28), cross_image(24)
    for i in range(min(earned, 16)):
        centre = _shell_centre(i)
        parts = ((ring, *_corner(ring, centre)),)
        if i < spent:
            parts += ((cross, *_corner(cross, centre)),)
        # around the printed pair; the first row's top edge touches this round's yellow heading
        _lay(image, parts, None if change and parts[0][2] <= box[3] - 2 else layer)


def _draw_reef(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, sheet: dict, changed: set, layer: _Layer
) -> None:
    board_reef = (view.get("board") or {}).get("reef") or {}
    reef = sheet.get("reef") or {}
    x, y, pitch = _reef_geometry(board_reef)
    lucky = sheet.get("lucky")
    reef_name = common.words()(str(view.get("reef_name", "Reef")))
    _text_box(
        image, (R0 + 6, REEF_BOX[1] + 4, R1 - 6, REEF_BOX[1] + 40), reef_name, "bold", 26, TEXT, INK, "left"
    )
    if "marked" in reef:
        values = board_reef.get("values") or []
        for r, row in enumerate(reef.get("marked") or []):
            for c, mark in enumerate(row):
                if not (mark or (r, c) in changed):
                    continue
                cx, cy = x + (c + 0.5) * pitch, y + (r + 0.5) * pitch
                value = values[r][c] if r < len(values) and c < len(values[r]) else 0
                parts: tuple[tuple[Image.Image, int, int], ...] = ()
                new = (r, c) in changed
                if new:  # the value again, on this round's yellow
                    draw.rectangle(
                        (cx - pitch / 2 + 3, cy - pitch / 2 + 3, cx + pitch / 2 - 3, cy + pitch / 2 - 3),
                        fill=_index(HIGHLIGHT),
                    )
                    line = _line((cx, cy), "S" if value == 0 else str(value), "bold", 26, INK, "mm")
                    parts = (line[:3],) if line else ()
                if mark:
                    ring = ring_image(int(pitch) - 4)
                    parts += ((ring, *_corner(ring, (cx, cy))),)
                    if lucky and value == lucky:
                        star = star_image(14, GOLD)
                        parts += ((star, *_corner(star, (cx + pitch / 2 - 8, cy - pitch / 2 + 8))),)
                if parts:  # around the printed value, or on the yellow cell and the grid round it
                    _lay(image, parts, None if new else layer)
        return
    for shp in reef.get("shapes") or []:
        cells = {tuple(p) for p in shp.get("cells") or []}
        for r, c in cells:
            fill = HIGHLIGHT if (r, c) in changed else LIGHT_PEN
            draw.rectangle(
                (x + c * pitch + 2, y + r * pitch + 2, x + (c + 1) * pitch - 2, y + (r + 1) * pitch - 2),
                fill=_index(fill),
            )
        _outline(draw, cells, x, y, pitch, _index(PEN), 4)
        if cells:
            r, c = min(cells)
            label = "·" if shp.get("single") else str(shp.get("value", ""))
            fill = HIGHLIGHT if (r, c) in changed else LIGHT_PEN
            _put(image, written(label, 30), (x + (c + 0.5) * pitch, y + (r + 0.5) * pitch), fill)
            if shp.get("lucky"):  # no soft edge: lies on the shape's corner as on anything
                _put(image, star_image(14, GOLD), (x + (c + 1) * pitch - 8, y + r * pitch + 8), fill)


def _draw_lucky(image: Image.Image, draw: ImageDraw.ImageDraw, sheet: dict) -> None:
    t = common.words()
    x0, y0, x1, _ = LUCKY_BOX
    cx, cy = (x0 + x1) / 2, y0 + 98
    lucky = sheet.get("lucky")
    if lucky is None:  # in the printed circle
        _text(image, (cx, cy), "?", "bold", 48, MUTED, "mm", WHITE)
    elif lucky == 0:
        _text_box(
            image, (x0 + 8, cy - 24, x1 - 8, cy + 24), t("fate"), "hand_bold", 34, TEXT, PEN, ground=WHITE
        )
    else:
        _put(image, written(str(lucky), 64), (cx, cy), WHITE)


#: The score box's lines: the label printed and the key of the sheet's score it reads.
SCORE_LINES = (
    (N_("Ruins"), "ruins"),
    (N_("Enchantments"), "enchantments"),
    (N_("Lucky numbers"), "lucky"),
    (N_("Pearl coins"), "pearls"),
)
SCORE_PITCH = 30


def _print_score(draw: ImageDraw.ImageDraw, final: bool) -> None:
    """The score box's printed words: its heading, the four categories, the total's line."""
    x0, y0, x1, _ = SCORE_BOX
    panel(draw, SCORE_BOX, fill=PAPER, radius=14)
    t = common.words()
    head = t("Final score") if final else t("If it ended now")
    text_in_box(draw, (x0 + 4, y0 + 4, x1 - 4, y0 + 40), head, "bold", TEXT, TEXT, INK, "left")
    y = y0 + 58
    for label, _ in SCORE_LINES:  # the value is written at the right (x1 - 24, centred)
        line, size = fit(t(label), "regular", x1 - 52 - (x0 + 10), TEXT, TEXT)
        draw_text(draw, (x0 + 10, y), line, "regular", size, INK, "lm")
        y += SCORE_PITCH
    draw.line((x0 + 10, y - 10, x1 - 10, y - 10), fill=INK, width=2)
    total, size = fit(t("Total"), "bold", (x1 - x0) / 2 - 10, 28, TEXT)
    draw_text(draw, (x0 + 10, y + 22), total, "bold", size, INK, "lm")


def _draw_score(image: Image.Image, view: dict, sheet: dict, seat: int) -> None:
    """The score as it would end now (or the final one): each category, then the total, large."""
    _, y0, x1, _ = SCORE_BOX
    score = sheet.get("score") or {}
    y = y0 + 58
    for _, key in SCORE_LINES:
        _put(image, written(str(score.get(key, 0)), 30), (x1 - 24, y), PAPER)
        y += SCORE_PITCH
    sprite = written(str(_score(view, seat, sheet)), 46)
    _put(image, sprite, (x1 - 12 - sprite.width / 2, y + 22), PAPER)


def _choices(pending: list) -> str:
    """Pending choices in words: "a pearl bonus and an enchantment"."""
    t = common.words()
    return t.join(t("a pearl bonus") if p == "pearl" else t("an enchantment") for p in pending)


def _status_words(view: dict, you: dict) -> tuple[str, bool]:
    """What remains of the seat's round work, and whether it is the seat's move."""
    t = common.words()
    phase = view.get("phase")
    if phase == "lucky":
        choice = you.get("lucky_choice")
        if choice is None:
            return t("Choose your lucky number (1–6, or fate)"), True
        return t("Lucky number {number}; waiting for the others", number=choice), False
    if phase != "round":
        return _final_words(view, int(view.get("viewer") or 0)), False
    if _boon_step(view):
        if you.get("pending"):
            return t("Choose {choices} before the dice are rolled", choices=_choices(you["pending"])), True
        return t("Boon gained; the dice are rolled once everyone has chosen"), False
    if you.get("confirmed"):
        waiting = len(view.get("to_act") or [])
        if waiting:
            return t.plural(
                "Confirmed; waiting for {count} seat", "Confirmed; waiting for {count} seats", waiting
            ), False
        return t("Confirmed"), False
    bits = []
    pending = list(you.get("pending") or [])
    if pending:
        bits.append(t("choose {choices}", choices=_choices(pending)))
    if you.get("searched") is not None:
        bits.append(t("searching ruin {number}", number=you["searched"]))
    elif you.get("cast") is not None:
        bits.append(t("cast enchantment {number}", number=int(you["cast"]) + 1))
    left = sum(1 for d in you.get("dice") or [] if not d.get("used") and d.get("kind") != "roll")
    rolled = [d for d in you.get("dice") or [] if not d.get("used") and d.get("kind") == "roll"]
    picked = _picked_value(you)
    if you.get("placing") == "shape":
        bits.append(t("place the shape of the {value}", value=picked))
    elif you.get("placing") in ("singles", "second-single"):
        bits.append(t("place a single block"))
    elif picked is not None:
        bits.append(t("place the {value}", value=picked))
    if left:
        bits.append(t.plural("{count} die to use", "{count} dice to use", left))
    else:
        bits.append(t("all dice used: confirm"))
    if rolled:
        bits.append(t("the rolled {value} may be written or left", value=rolled[0].get("value")))
    text = "; ".join(bits)
    return text[:1].upper() + text[1:], True


def _picked_value(you: dict) -> int | None:
    picked = you.get("picked")
    dice = you.get("dice") or []
    if isinstance(picked, int) and 0 <= picked < len(dice):
        return int(dice[picked].get("value", 0))
    return None


def _final_words(view: dict, seat: int) -> str:
    sheets = view.get("sheets") or []
    t = common.words()
    if not 0 <= seat < len(sheets):
        return t("Game over")
    result = view.get("result") or {}
    score = _score(view, seat, sheets[seat])
    ratings = result.get("ratings") or []
    if len(sheets) == 1 and ratings:
        return t("Final score {score}, {rating}", score=score, rating=t(ratings[0]))
    if seat in (result.get("winners") or []):
        return t("Final score {score}, you win", score=score)
    return t("Final score {score}", score=score)


def _changed_sets(changed: dict) -> tuple[set, set, set, set]:
    ruins = {(int(n), int(s)) for n, s in changed.get("ruins") or []}
    reef = {(int(r), int(c)) for r, c in changed.get("reef") or []}
    return ruins, reef, set(changed.get("enchantments") or []), set(changed.get("pearl_bonuses") or [])


def _dice_geometry(count: int) -> tuple[int, int]:
    """Die size and pitch for ``count`` dice left of the to-do box (boon dice can make six or more)."""
    pitch = min(DIE_PITCH, DICE_ROOM // max(1, count))
    return min(DIE, pitch - 10), pitch


def _dice_labels(
    image: Image.Image, dice: list, x: float, y: float, size: int, pitch: int, picked: int | None
) -> None:
    """Under each of the seat's dice: its shell adjustment, or what kind of die it is.

    "boon" is written only where it fits between its neighbours; a boon die is gold anyway."""
    t = common.words()
    roll, boon = t("roll"), t("boon")
    for d in dice:
        index = int(d.get("index", 0))
        cx = x + index * pitch + size / 2
        # the picked die's label may touch the edge of its yellow box: composed over the picture
        ground = None if index == picked else BAR_FILL
        if d.get("shells"):
            _put(image, written(f"{int(d['shells']):+d}", 28, PEN), (cx, y), ground)
        elif d.get("kind") == "roll":
            _text(image, (cx, y), roll, "bold", TEXT, GOLD, "mm", ground)
        elif d.get("kind") != "hydra" and pitch > text_width(boon, "bold", TEXT) + 4:
            _text(image, (cx, y), boon, "bold", TEXT, GOLD, "mm", ground)


def _draw_bar(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, you: dict) -> None:
    """The round and tracker side, the seat's dice, then what is left to do and the boon."""
    y0, y1 = BAR_TOP, BAR_TOP + BAR_H
    x = MARGIN + 14
    t = common.words()
    tracker = t(str(view.get("tracker_name", "")))
    room = DICE_ROOM if (you.get("dice") or view.get("dice") or _boon_step(view)) else WIDTH - 2 * x
    heading = _round_words(view)
    if text_width(heading, "bold", 26) + 10 + text_width(tracker, "regular", TEXT) > room:
        heading = _short_round(view)  # "Round 12/18": the tracker side still fits
    width = _text(image, (x, y0 + 24), heading, "bold", 26, INK, "lm", BAR_FILL)
    tracker = common.ellipsize(tracker, "regular", TEXT, max(0, room - width - 10))
    _text(image, (x + width + 10, y0 + 25), tracker, "regular", TEXT, MUTED, "lm", BAR_FILL)
    cy = y0 + 76
    dice = you.get("dice") or []
    if dice:
        size, pitch = _dice_geometry(len(dice))
        row = [(int(d.get("value", 0)), d.get("kind") != "hydra", bool(d.get("used"))) for d in dice]
        picked = you.get("picked")
        if not (isinstance(picked, int) and 0 <= picked < len(dice)):
            picked = None
        else:
            px = x + picked * pitch
            draw.rounded_rectangle(
                (px - 5, cy - size / 2 - 5, px + size + 5, cy + size / 2 + 5),
                radius=12,
                fill=_index(HIGHLIGHT),
                outline=_index(INK),
                width=2,
            )
        _dice_row(image, row, x, cy, size, pitch - size, picked)
        _dice_labels(image, dice, x, y1 - 18, size, pitch, picked)
    elif view.get("dice"):
        _dice_row(image, [(int(v), False, False) for v in view["dice"]], x, cy, DIE, DIE_PITCH - DIE)
    elif _boon_step(view):
        _text(image, (x, cy - 14), t("Hydra dice"), "bold", TEXT, MUTED, "lm", BAR_FILL)
        _text(image, (x, cy + 16), t("not rolled yet"), "regular", TEXT, MUTED, "lm", BAR_FILL)
    _draw_todo(image, draw, view, you)


def _draw_todo(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, you: dict) -> None:
    """What is left to do (yellow when it is the seat's move), then the round's boon, wrapped."""
    box = (TODO_X, BAR_TOP + 8, WIDTH - MARGIN - 8, BAR_TOP + BAR_H - 8)
    lines = 4
    if not (you.get("dice") or view.get("dice") or _boon_step(view)):  # lucky numbers, game over
        box, lines = (MARGIN + 8, BAR_TOP + 46, WIDTH - MARGIN - 8, BAR_TOP + BAR_H - 8), 2
    status, mine = _status_words(view, you)
    boon = _boon_words(view) if view.get("phase") == "round" else ""
    width = box[2] - box[0] - 20
    boon_lines = _lines(boon, "regular", TEXT, width, max_lines=2) if boon else []
    size = 32 if view.get("phase") == "finished" else TEXT  # the final score stands out
    step = size + 4
    status_lines = _lines(status, "bold", size, width, max_lines=lines - min(len(boon_lines), 1))
    boon_lines = boon_lines[: lines - len(status_lines)]
    if mine:
        draw.rounded_rectangle(box, radius=10, fill=_index(HIGHLIGHT), outline=_index(INK), width=2)
    ground = HIGHLIGHT if mine else BAR_FILL
    height = len(status_lines) * step + len(boon_lines) * LINE_H
    y = (box[1] + box[3]) / 2 - height / 2 + step / 2
    for line in status_lines:
        _text(image, (box[0] + 10, y), line, "bold", size, INK, "lm", ground)
        y += step
    y += (LINE_H - step) / 2
    for line in boon_lines:
        _text(image, (box[0] + 10, y), line, "regular", TEXT, INK, "lm", ground)
        y += LINE_H


def render_private(view: dict, names: Sequence[object] | None = None) -> Picture:
    """One seat's picture: its dice and round work, its whole live sheet (this round's work highlighted)."""
    seat = int(view["viewer"])
    sheets = view.get("sheets") or []
    if not 0 <= seat < len(sheets):
        raise RenderError(f"seat {seat} is not at this table")
    sheet = sheets[seat]
    you = view.get("you") or {}
    key = (_board_key(view), isinstance(view.get("result"), dict), common.language())
    image = _fresh(_private_layer(*key))
    layer = _Layer(key, _private_background(*key))
    draw = ImageDraw.Draw(image)
    left = title_bar_right(GAME, WIDTH)
    title = TITLES[GAME].colour
    _text_box(
        image,
        (left, 0, WIDTH - 64, TITLE_H),
        drawn_name(seat, names),
        "bold",
        34,
        TEXT,
        WHITE,
        "right",
        ground=title,
    )
    _put(image, _token(seat, 20), (WIDTH - 36, TITLE_H / 2), title)
    changed = sheet.get("changed") or {}
    ruins, reef, ench, pearls = _changed_sets(changed)
    _draw_bar(image, draw, view, you)
    searched, cast = you.get("searched"), you.get("cast")
    if isinstance(searched, int) and searched in RUIN_BOXES:
        draw.rounded_rectangle(RUIN_BOXES[searched], radius=14, outline=_index(HIGHLIGHT), width=6)
    if isinstance(cast, int) and 0 <= cast < 6:
        y = ENCH_BOX[1] + 40 + cast * ENCH_ROW
        draw.rounded_rectangle(
            (L0 + 3, y, L1 - 3, y + ENCH_ROW), radius=10, outline=_index(HIGHLIGHT), width=5
        )
    _draw_ruins(image, draw, sheet, ruins, layer, searched)
    _draw_lucky(image, draw, sheet)
    _draw_enchantments(image, draw, sheet, ench, layer)
    _draw_pearls(image, draw, sheet, pearls, layer)
    _draw_shells(image, draw, sheet, int(changed.get("shells", 0) or 0), layer)
    _draw_reef(image, draw, view, sheet, reef, layer)
    _draw_score(image, view, sheet, seat)
    return picture(image, private_alt(view, names), f"reef-seat-{player(seat).letter}.png")


def private_alt(view: dict, names: Sequence[object] | None) -> list[str]:
    t = common.words()
    seat = int(view["viewer"])
    sheet = view["sheets"][seat]
    you = view.get("you") or {}
    parts = [
        t(
            "Your Reef & Ruins sheet, {name}. {round}, {reef}.",
            name=_who(seat, names),
            round=_round_words(view),
            reef=t(str(view.get("reef_name", ""))),
        )
    ]
    dice = you.get("dice") or []
    if dice:
        parts.append(t("Your dice: {dice}.", dice=", ".join(_die_words(d) for d in dice)))
    boon = _boon_words(view)
    if boon:
        parts.append(t("{sentence}.", sentence=boon))
    if _boon_step(view):
        parts.append(t("The hydra dice are not rolled yet."))
    parts.append(t("{sentence}.", sentence=_status_words(view, you)[0]))
    changed = _changed_words(sheet.get("changed") or {})
    if changed:
        if view.get("phase") == "round":
            parts.append(t("This round: {changes}.", changes=changed))
        else:
            parts.append(t("Last round: {changes}.", changes=changed))
    parts.append(
        t("Score {score}. Your sheet: {sheet}.", score=_score(view, seat, sheet), sheet=_sheet_words(sheet))
    )
    return parts


# --------------------------------------------------------------------------- the public table: geometry

TOP_Y = TITLE_H + 10
TOP_H = 186
CARDS_Y = TOP_Y + TOP_H + GAP
CARD_W = COL_W
MINI = 24  # a miniature ruin's cell: a written value in the smallest pen a phone reads
TILE_W = (CARD_W - 16 - 12) // 3
TILE_HEAD = 30
ROW_A = 50
TILE_A = TILE_HEAD + 4 * MINI + 20
ROW_B = ROW_A + TILE_A + 6
TILE_B = TILE_HEAD + 2 * MINI + 20
ROW_C = ROW_B + TILE_B + 6
TILE_C = 46
ROW_D = ROW_C + TILE_C + 4
CARD_H = ROW_D + 34 + 6
#: From this many seats the cards are compact (a summary: each ruin's coins, multiplier and
#: crossed squares, the reef, the stats; no miniature grids of written values), so that four
#: rows of cards fit an 800 px picture at most `MAX_ASPECT` tall and every digit still reads
#: at phone width. Each player's own full sheet is on their panel.
COMPACT_FROM = 7
TILE_HEADS = TILE_HEAD + 20  # a compact ruin: its head (number, coins, ×multiplier) and squares
ROW_B_COMPACT = ROW_A + TILE_HEADS + 6
ROW_C_COMPACT = ROW_B_COMPACT + TILE_B + 6
ROW_D_COMPACT = ROW_C_COMPACT + TILE_C + 4
CARD_H_COMPACT = ROW_D_COMPACT + 34 + 6
#: Where each ruin's miniature sits on a card: (row top, row height, slot); ruin 3 has a row of its own.
TILES = {
    1: (ROW_A, TILE_A, 0),
    2: (ROW_A, TILE_A, 1),
    6: (ROW_A, TILE_A, 2),
    4: (ROW_B, TILE_B, 0),
    5: (ROW_B, TILE_B, 1),
}

#: The board's key line: what the five small squares under each ruin are.
MINI_KEY_H = 72
MINI_KEY = N_("under each ruin: its enchantments crossed off (of 5); ×multiplier beside its coins")


def _compact(seats: int) -> bool:
    """Whether the cards of a table of ``seats`` are compact (`COMPACT_FROM`)."""
    return seats >= COMPACT_FROM


def _card_height(seats: int) -> int:
    return CARD_H_COMPACT if _compact(seats) else CARD_H


def _row_d(compact: bool) -> int:
    """The top of a card's stats line (lucky number, pearls, shells)."""
    return ROW_D_COMPACT if compact else ROW_D


def board_height(seats: int) -> int:
    """The public picture's height: the top panel, a row of cards per two seats, the key line."""
    rows = max(1, (seats + 1) // 2)
    return CARDS_Y + rows * (_card_height(seats) + GAP) + MINI_KEY_H


def board_width(seats: int) -> int:
    """800 px (7–8 seats' compact cards keep it at most twice as tall; wider only as a safeguard)."""
    return max(WIDTH, math.ceil(board_height(seats) / MAX_ASPECT))


def _offset(seats: int) -> int:
    """The 800 px layout is centred on a wider picture."""
    return (board_width(seats) - WIDTH) // 2


def _card_origin(seat: int, seats: int) -> tuple[int, int]:
    row, col = divmod(seat, 2)
    x = (WIDTH - CARD_W) // 2 if seats == 1 else (L0, R0)[col]
    return _offset(seats) + x, CARDS_Y + row * (_card_height(seats) + GAP)


def _tile_box(number: int, compact: bool = False) -> tuple[int, int, int, int]:
    """A ruin's miniature on a card (relative to the card); ``compact``: its head and squares only."""
    if number == 3:
        top = ROW_C_COMPACT if compact else ROW_C
        return 8, top, CARD_W - 8, top + TILE_C
    top, height, slot = TILES[number]
    if compact:
        top, height = (ROW_A if top == ROW_A else ROW_B_COMPACT), TILE_HEADS
    x = 8 + slot * (TILE_W + 6)
    return x, top, x + TILE_W, top + height


def _mini_centres(ruin: dict, number: int) -> dict[int, tuple[float, float]]:
    """Slot centres of a ruin's miniature, relative to its card."""
    return _mini_layout(number, tuple(_lengths(list(ruin.get("rows") or []))), str(ruin.get("rule", "")))


@lru_cache(maxsize=32)
def _mini_layout(number: int, rows: tuple[int, ...], rule: str) -> dict[int, tuple[float, float]]:
    x0, y0, x1, y1 = _tile_box(number)
    if number == 3:
        gx, gy = 124, y0 + 4
    else:
        cols = max(rows) if rows else 1
        area = y1 - y0 - TILE_HEAD - 20
        gx, gy = (x0 + x1) / 2 - cols * MINI / 2, y0 + TILE_HEAD + (area - len(rows) * MINI) / 2
    centres = {}
    for r, row in enumerate(_ruin_layout(list(rows), rule)):
        for col, slot in row:
            centres[slot] = (gx + col * MINI + MINI / 2, gy + r * MINI + MINI / 2)
    return centres


def _square(number: int, k: int, compact: bool = False) -> tuple[float, float]:
    """Centre of the k-th small square (the linked enchantment section) under a miniature."""
    x0, _, x1, y1 = _tile_box(number, compact)
    if number == 3:
        return x0 + 12 + k * 20, y1 - 9
    return (x0 + x1) / 2 + (k - 2) * 20, y1 - 12


def _mini_reef(board_reef: dict, compact: bool = False) -> tuple[float, float, int]:
    """Origin and pitch of the reef's miniature (the third slot of a card's second row)."""
    rows, cols = int(board_reef.get("rows", 7)), int(board_reef.get("cols", 7))
    pitch = min((TILE_W - 12) // cols, (TILE_B - 10) // rows)
    x = 8 + 2 * (TILE_W + 6) + TILE_W / 2 - cols * pitch / 2
    return x, (ROW_B_COMPACT if compact else ROW_B) + TILE_B / 2 - rows * pitch / 2, pitch


# ------------------------------------------------------------------- the public table: the empty table


@cached
def _board_layer(board_key: tuple[str, str], seats: int, finished: bool, lang: str) -> Image.Image:
    """`_board_background` mapped to the palette once: every table's picture starts as a copy."""
    return _to_palette(_board_background(board_key, seats, finished, lang))


def _board_background(board_key: tuple[str, str], seats: int, finished: bool, lang: str) -> Image.Image:
    """The top panel (the reef and side; while playing, who is done's tokens), the card frames
    and each card's empty ruins and reef (drawn once per language: ``lang`` is the picture's)."""
    board = _BOARDS[board_key]
    width = board_width(seats)
    image, draw = canvas(GAME, board_height(seats), width)
    ox = _offset(seats)
    panel(draw, (ox + MARGIN, TOP_Y, ox + WIDTH - MARGIN, TOP_Y + TOP_H), fill=BAR_FILL)
    x = ox + MARGIN + 14
    wy = TOP_Y + (148 if finished else 88)  # the final places come first
    box = (x, wy, ox + WIDTH - MARGIN - 8, wy + 32)
    text_in_box(draw, box, _where(board), "regular", TEXT, TEXT, MUTED, "left", pad=0)
    if not finished:
        tx0 = _done_left(seats, ox)
        draw_text(draw, (tx0 - 6, TOP_Y + 46), _done_word(), "bold", TEXT, INK, "rm")
        for seat in range(seats):
            paste_centred(image, _token(seat, 19), (tx0 + seat * 46 + 23, TOP_Y + 28))
    for seat in range(seats):
        _print_card(image, draw, board, seat, _card_origin(seat, seats), _compact(seats))
    _draw_mini_key(draw, ox, board_height(seats) - MINI_KEY_H / 2 - 4)
    return image


def _print_card(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    board: dict,
    seat: int,
    origin: tuple[int, int],
    compact: bool = False,
) -> None:
    """A seat's card frame with its token, its empty ruin miniatures (none when ``compact``) and reef."""
    cx, cy = origin
    style = player(seat)
    height = CARD_H_COMPACT if compact else CARD_H
    panel(draw, (cx, cy, cx + CARD_W, cy + height), fill=PAPER, outline=style.colour, radius=16, width=4)
    draw.rounded_rectangle((cx + 4, cy + 4, cx + CARD_W - 4, cy + 44), radius=12, fill=style.light)
    paste_centred(image, _token(seat, 18), (cx + 26, cy + 24))
    for ruin in board.get("ruins") or []:
        number = int(ruin.get("number", 0))
        if number != 3 and number not in TILES:
            continue
        x0, y0, x1, y1 = _tile_box(number, compact)
        draw.rounded_rectangle(
            (cx + x0, cy + y0, cx + x1, cy + y1), radius=10, fill=WHITE, outline=PANEL_LINE, width=2
        )
        _number_disc(draw, (cx + x0 + 16, cy + y0 + 16), number, 14)
        empty = {"rows": [[None] * int(n) for n in ruin.get("rows") or []], "rule": ruin.get("rule")}
        for sx, sy in ({} if compact else _mini_centres(empty, number)).values():
            h = MINI / 2 - 1
            draw.rectangle(
                (cx + sx - h, cy + sy - h, cx + sx + h, cy + sy + h),
                fill=EMPTY_CELL,
                outline=CELL_LINE,
                width=1,
            )
        for k in range(5):
            px, py = _square(number, k, compact)
            draw.rectangle((cx + px - 6, cy + py - 6, cx + px + 6, cy + py + 6), outline=CELL_LINE, width=2)
    _print_mini_reef(draw, board.get("reef") or {}, cx, cy, compact)
    y = cy + _row_d(compact) + 17
    t = common.words()
    lucky, size = fit(t("Lucky"), "bold", 84, TEXT, TEXT)
    draw_text(draw, (cx + 12, y), lucky, "bold", size, INK, "lm")
    paste_centred(image, pearl_image(26), (cx + 150, y))
    paste_centred(image, shell_image(26), (cx + 238, y))


def _print_mini_reef(draw: ImageDraw.ImageDraw, reef: dict, cx: int, cy: int, compact: bool = False) -> None:
    x, y, pitch = _mini_reef(reef, compact)
    x, y = cx + x, cy + y
    rows, cols = int(reef.get("rows", 7)), int(reef.get("cols", 7))
    draw.rectangle(
        (x - 2, y - 2, x + cols * pitch + 2, y + rows * pitch + 2), fill=WHITE, outline=INK, width=2
    )
    if "values" in reef:
        cells = [(r, c, GREEN) for r, c in reef.get("highlighted") or []]
    else:
        cells = [
            (r, c, TEXTURE_TINTS[n % len(TEXTURE_TINTS)])
            for n, texture in enumerate(reef.get("textures") or [])
            for r, c in texture.get("cells") or []
        ]
    for r, c, fill in cells:
        draw.rectangle(
            (x + c * pitch, y + r * pitch, x + (c + 1) * pitch - 1, y + (r + 1) * pitch - 1), fill=fill
        )


def _draw_mini_key(draw: ImageDraw.ImageDraw, ox: int, y: float) -> None:
    """Five small squares, two crossed off, then what they mean (the key line under the cards)."""
    x = ox + 30
    for k in range(5):
        fill = PEN if k < 2 else None
        draw.rectangle((x + k * 20 - 6, y - 6, x + k * 20 + 6, y + 6), fill=fill, outline=PEN, width=2)
    left = x + 5 * 20
    lines = wrap(common.words()(MINI_KEY), "regular", TEXT, ox + WIDTH - MARGIN - left, max_lines=2)
    for i, line in enumerate(lines):
        draw_text(draw, (left, y + (i - (len(lines) - 1) / 2) * LINE_H), line, "regular", TEXT, INK, "lm")


# --------------------------------------------------------------------------- the public table: drawing


def _draw_top(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, names, ox: int) -> None:
    """Dice and boon die, who is done, the reef and tracker side, then the boon (or the winner)."""
    y0 = TOP_Y
    x = ox + MARGIN + 14
    cy = y0 + 46
    dice = [int(v) for v in view.get("dice") or []]
    boon = view.get("boon") if isinstance(view.get("boon"), dict) else None
    phase = view.get("phase")
    if dice:
        row = [(v, False, False) for v in dice]
        if boon and boon.get("type") in ("roll", "die"):
            row.append((int(boon.get("value", 0)), True, False))
        _dice_row(image, row, x, cy, 64, 12)
    elif phase == "round":  # the boon step: gained before the hydra dice are rolled
        t = common.words()
        _text(image, (x, cy - 15), t("Hydra dice"), "bold", TEXT, MUTED, "lm", BAR_FILL)
        _text(image, (x, cy + 15), t("not rolled yet"), "regular", TEXT, MUTED, "lm", BAR_FILL)
    right = ox + WIDTH - MARGIN - 12
    if phase in ("lucky", "round"):
        right = _draw_done(image, draw, view, ox) - 12
    words = _top_words(view, names)
    if phase != "round":  # no dice: the winner or the lucky number step, large, where they would be
        size = next((n for n in (34, 28) if len(_lines(words, "bold", n, right - x)) <= 2), TEXT)
        lines = _lines(words, "bold", size, right - x, max_lines=2)
        for i, line in enumerate(lines):
            _text(
                image,
                (x, cy + (i - (len(lines) - 1) / 2) * (size + 6)),
                line,
                "bold",
                size,
                INK,
                "lm",
                BAR_FILL,
            )
        words = ""
        if phase == "finished":
            _draw_ranking(image, draw, view, x, right)
    lines = _lines(words, "bold", TEXT, WIDTH - 2 * MARGIN - 28, max_lines=2) if words else []
    for i, line in enumerate(lines):
        _text(image, (x, y0 + 138 + i * LINE_H), line, "bold", TEXT, INK, "lm", BAR_FILL)


def _draw_done(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, ox: int) -> float:
    """Each seat's token with a tick once it is done, "…" while it still plays; returns the left edge."""
    seats = int(view.get("seats", len(view.get("sheets") or [])))
    confirmed = list(view.get("confirmed") or [])
    tx0 = _done_left(seats, ox)  # the label and the tokens are printed on the layer
    for seat in range(seats):
        tcx = tx0 + seat * 46 + 23
        if seat < len(confirmed) and confirmed[seat]:
            _put(image, tick_image(30), (tcx, TOP_Y + 66), BAR_FILL)  # under the seat's token
        else:
            _text(image, (tcx, TOP_Y + 64), "…", "bold", TEXT, MUTED, "mm", BAR_FILL)
    return tx0 - 6 - text_width(_done_word(), "bold", TEXT)


def _done_word() -> str:
    """The label of the row of who is done ("Done"), short enough to leave the top panel room."""
    t = common.words()
    return common.ellipsize(t("Done"), "bold", TEXT, 120)


def _done_left(seats: int, ox: int) -> int:
    """Where the row of who is done's tokens starts (right-aligned in the top panel)."""
    return ox + WIDTH - MARGIN - 12 - 46 * seats


def _draw_ranking(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, x0: float, right: float) -> None:
    """The final places under the winner: place, the seat's token and its score, best first."""
    result = view.get("result") or {}
    ranking, scores = result.get("ranking") or [], result.get("scores") or []
    if len(scores) < 2:
        return
    order = sorted(range(len(scores)), key=lambda seat: (ranking[seat] if seat < len(ranking) else 99, seat))
    x, y = x0, TOP_Y + 98
    for seat in order:
        place = _place(ranking[seat]) if seat < len(ranking) else "?"
        score = written(str(scores[seat]), 32)
        width = text_width(place, "bold", TEXT) + 4 + 38 + 4 + score.width
        if x > x0 and x + width > right:
            x, y = x0, y + 37
        x += _text(image, (x, y), place, "bold", TEXT, INK, "lm", BAR_FILL) + 4
        _put(image, _token(seat, 17), (x + 19, y), BAR_FILL)
        _put(image, score, (x + 42 + score.width / 2, y), BAR_FILL)
        x += width - text_width(place, "bold", TEXT) - 4 + 22


def _place(place: int) -> str:
    """A final place: "1st" (English), "1위" (Korean)."""
    if common.language() == i18n.SOURCE:
        return ordinal(place)
    t = common.words()
    return t("Place {place}", place=place)


def _top_words(view: dict, names) -> str:
    """The line under the dice: the boon, the winner, or the lucky number step."""
    t = common.words()
    phase = view.get("phase")
    boon = view.get("boon") if isinstance(view.get("boon"), dict) else None
    if phase == "round" and boon:
        if boon.get("type") == "roll":
            return t("Boon: a rolled {value} for all", value=boon.get("value", "?"))
        return t("Boon: {boon}", boon=_said(boon))
    if phase == "round":
        return t("No boon this round")
    if phase == "finished":
        result = view.get("result") or {}
        ratings = result.get("ratings") or []
        if int(view.get("seats", 1)) == 1 and ratings:
            score = _score(view, 0, (view.get("sheets") or [{}])[0])
            return t("Final score {score}: {rating}", score=score, rating=t(ratings[0]))
        return _winner_words([drawn_name(int(w), names) for w in result.get("winners") or []])
    return t("Lucky numbers, in seat order, each different")


def _draw_card(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, seat: int, names) -> None:
    """A seat's card: name and score, the ruins' values, coins and crossed squares, reef, stats."""
    sheets = view.get("sheets") or []
    sheet = sheets[seat]
    seats = int(view.get("seats", len(sheets)))
    compact = _compact(seats)
    cx, cy = _card_origin(seat, seats)
    score = written(str(_score(view, seat, sheet)), 42)
    right = cx + CARD_W - 12
    band = player(seat).light  # the card's name band
    _put(image, score, (right - score.width / 2, cy + 24), band)
    right -= score.width + 6
    confirmed = view.get("confirmed") or []
    if view.get("phase") in ("lucky", "round") and seat < len(confirmed) and confirmed[seat]:
        _put(image, tick_image(30), (right - 15, cy + 24), band)
        right -= 34
    name_box = (cx + 48, cy + 6, right, cy + 42)
    _text_box(image, name_box, drawn_name(seat, names), "bold", 28, TEXT, INK, "left", pad=2, ground=band)
    changed = sheet.get("changed") or {}
    ruins_changed, reef_changed, ench_changed, _ = _changed_sets(changed)
    crossed = {int(e.get("section", 0)): int(e.get("crossed", 0)) for e in sheet.get("enchantments") or []}
    for ruin in sheet.get("ruins") or []:
        number = int(ruin.get("number", 0))
        if number == 3 or number in TILES:
            _draw_mini_ruin(image, draw, sheet, ruin, (cx, cy), ruins_changed, compact)
            new = (number - 1) in ench_changed
            _draw_squares(draw, number, crossed.get(number - 1, 0), new, (cx, cy), compact)
    _draw_card_reef(image, draw, view, sheet, reef_changed, (cx, cy), compact)
    _draw_stats(image, sheet, int(changed.get("shells", 0) or 0), (cx, cy), compact)


def _draw_mini_ruin(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    sheet: dict,
    ruin: dict,
    origin: tuple[int, int],
    changed: set,
    compact: bool = False,
) -> None:
    """A ruin on a card: its coins and multiplier in its head, then (unless ``compact``) its values."""
    cx, cy = origin
    number = int(ruin.get("number", 0))
    x0, y0, x1, _ = _tile_box(number, compact)
    coins, mult = int(ruin.get("coins", 0)), int(ruin.get("multiplier", 1))
    coin = written(str(coins), HAND + 2)
    _put(image, coin, (cx + x0 + 34 + coin.width / 2, cy + y0 + 16), WHITE)  # the tile's head
    if mult > 1:
        sprite = written(f"×{mult}", HAND + 2, MULT)
        x = (
            cx + x1 - 6 - sprite.width / 2
            if number != 3
            else cx + x0 + 34 + coin.width + 6 + sprite.width / 2
        )
        _put(image, sprite, (x, cy + y0 + 16), WHITE)
    if compact:
        return
    lucky = sheet.get("lucky")
    values = [v for row in ruin.get("rows") or [] for v in row]
    h = MINI / 2 - 1
    centres = _mini_centres(ruin, number)
    new = {slot for n, slot in changed if n == number and slot in centres}
    for slot in new:
        sx, sy = centres[slot]
        draw.rectangle((cx + sx - h, cy + sy - h, cx + sx + h, cy + sy + h), fill=_index(HIGHLIGHT))
    for slot, value in enumerate(values):  # the written ones only: most spaces are empty
        if value is None or slot not in centres:
            continue
        sx, sy = centres[slot]
        pen = _value_pen(value, HAND + 1, MINI - 3, GOLD if lucky and value == lucky else PEN)
        _put(image, pen, (cx + sx, cy + sy + 1), HIGHLIGHT if slot in new else EMPTY_CELL)


def _draw_squares(
    draw: ImageDraw.ImageDraw,
    number: int,
    crossed: int,
    new: bool,
    origin: tuple[int, int],
    compact: bool = False,
) -> None:
    """The linked enchantment section's crossed spaces: filled squares (the last one yellow if new)."""
    cx, cy = origin
    for k in range(min(crossed, 5)):
        px, py = _square(number, k, compact)
        fill = HIGHLIGHT if new and k == crossed - 1 else PEN
        draw.rectangle(
            (cx + px - 6, cy + py - 6, cx + px + 6, cy + py + 6),
            fill=_index(fill),
            outline=_index(PEN),
            width=2,
        )


@lru_cache(maxsize=8)
def _cell_lines(pitch: int) -> tuple[bytes, bytes]:
    """One line of a miniature reef's mask across a marked cell and across an empty one (a cell
    is inset a pixel at its left and right, so the grid shows between marks)."""
    return b"\0" + b"\xff" * (pitch - 2) + b"\0", bytes(pitch)


def _draw_card_reef(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: dict,
    sheet: dict,
    changed: set,
    origin: tuple[int, int],
    compact: bool = False,
) -> None:
    """The seat's marked reef spaces in pen, this round's in yellow, on the miniature reef.

    One paste through a mask of the marked cells rather than a rectangle per cell."""
    board_reef = (view.get("board") or {}).get("reef") or {}
    x, y, pitch = _mini_reef(board_reef, compact)
    x, y = origin[0] + x, origin[1] + y
    rows, cols = int(board_reef.get("rows", 7)), int(board_reef.get("cols", 7))
    reef = sheet.get("reef") or {}
    grid = reef.get("marked") if "marked" in reef else reef.get("cells")
    grid = grid or []
    on, off = _cell_lines(pitch)
    edge = bytes(cols * pitch)  # the grid between two rows of cells
    lines: list[bytes] = []
    seen = False
    for r in range(rows):
        row = grid[r] if r < len(grid) else ()
        marked = [c < len(row) and bool(row[c]) for c in range(cols)]
        seen = seen or any(marked)
        lines += (edge, b"".join(on if m else off for m in marked) * (pitch - 2), edge)
    if not seen:  # nothing marked yet
        return
    mask = Image.frombuffer("L", (cols * pitch, rows * pitch), b"".join(lines), "raw", "L", 0, 1)
    image.paste(_index(PEN), (round(x), round(y)), mask)
    for r, c in changed:
        if 0 <= r < rows and 0 <= c < cols and grid[r][c]:
            draw.rectangle(
                (x + c * pitch + 1, y + r * pitch + 1, x + (c + 1) * pitch - 2, y + (r + 1) * pitch - 2),
                fill=_index(HIGHLIGHT),
            )


def _draw_stats(
    image: Image.Image, sheet: dict, change: int, origin: tuple[int, int], compact: bool = False
) -> None:
    """Lucky number, pearls and shell pairs (with the last round's change) on a card's last line."""
    cx, cy = origin
    y = cy + _row_d(compact) + 17
    lucky = written(_lucky_text(sheet), HAND + 4)
    _put(image, lucky, (cx + 98 + lucky.width / 2, y), PAPER)
    pearls = written(str(sheet.get("pearls", 0)), HAND + 4)
    _put(image, pearls, (cx + 168 + pearls.width / 2, y), PAPER)
    shells = written(str(int(sheet.get("shells", 0))), HAND + 4)
    _put(image, shells, (cx + 256 + shells.width / 2, y), PAPER)
    if change:
        sprite = written(f"({change:+d})", HAND, MUTED)
        _put(image, sprite, (cx + 256 + shells.width + 6 + sprite.width / 2, y), PAPER)


def render_board(view: dict, names: Sequence[object] | None = None) -> Picture:
    """The public table: dice, boon, who is done, and every seat's card."""
    sheets = view.get("sheets") or []
    seats = len(sheets)
    if not 1 <= seats <= 8:
        raise RenderError(f"cannot draw {seats} seats (1–8)")
    image = _fresh(_board_layer(_board_key(view), seats, view.get("phase") == "finished", common.language()))
    draw = ImageDraw.Draw(image)
    ox = _offset(seats)
    left = title_bar_right(GAME, image.width)
    _text_box(
        image,
        (left, 0, image.width - 16, TITLE_H),
        _short_round(view),
        "bold",
        32,
        TEXT,
        WHITE,
        "right",
        ground=TITLES[GAME].colour,
    )
    _draw_top(image, draw, view, names, ox)
    for seat in range(seats):
        _draw_card(image, draw, view, seat, names)
    return picture(image, board_alt(view, names), "reef-board.png")


def board_alt(view: dict, names: Sequence[object] | None) -> list[str]:
    """Alt text of the public table: round, dice and boon, who confirmed, scores, then each sheet."""
    t = common.words()
    sheets = view.get("sheets") or []
    parts = [
        t(
            "Reef & Ruins table, {reef}. {round}.",
            reef=t(str(view.get("reef_name", ""))),
            round=_round_words(view),
        )
    ]
    if view.get("dice"):
        parts.append(t("Dice {dice}.", dice=", ".join(str(v) for v in view["dice"])))
    elif _boon_step(view):
        parts.append(t("Everyone gains the boon before the hydra dice are rolled."))
    boon = _boon_words(view)
    if boon:
        parts.append(t("{sentence}.", sentence=boon))
    confirmed = view.get("confirmed") or []
    if view.get("phase") in ("lucky", "round"):
        waiting = [_who(s, names) for s in range(len(sheets)) if not (s < len(confirmed) and confirmed[s])]
        if waiting:
            parts.append(t("Still playing: {names}.", names=", ".join(waiting)))
    final = isinstance(view.get("result"), dict)
    if final:
        winners = [_who(int(w), names) for w in view["result"].get("winners") or []]
        parts.append(t("{sentence}.", sentence=_winner_words(winners)))
    scores = "; ".join(f"{_who(s, names)} {_score(view, s, sheet)}" for s, sheet in enumerate(sheets))
    if final:
        parts.append(t("Final scores: {scores}.", scores=scores))
    else:
        parts.append(t("Scores at the start of the round: {scores}.", scores=scores))
    for s, sheet in enumerate(sheets):
        parts.append(t("{name}: {sheet}.", name=_who(s, names), sheet=_sheet_words(sheet)))
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
