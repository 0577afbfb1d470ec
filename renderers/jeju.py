"""Jeju Island pictures: the public board and a seat's own picture, from `engine.jeju.view` views.

Public board (1400x940): the ring of six locations (1 2 3 along the top, 4 5 6
back along the bottom, so "right" is clockwise), each with its top tile and the
number of tiles left, its token stack read left to right from bottom to top
(the top token, which collects, is ringed in gold) and the Harubang statue; the
face-up point cards with their costs, points and effects (and how many cards
Card Refresh removed; the alt text names them); each player's tiles,
cards and score.

A seat's picture (1400x800): that seat's tiles, its cards and score, and the
point cards on offer marked with those it can take now — or, while it pays for a
card, each way it may pay.

Every tile type has its own colour *and* pictogram; every seat its colour,
letter and shape; neutral tokens are black with an N.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from renderers.common import (
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_LINE,
    TITLE_H,
    WHITE,
    Picture,
    RenderError,
    canvas,
    draw_text,
    drawn_name,
    font,
    ink_on,
    panel,
    paste_centred,
    picture,
    player,
    seat_label,
    text_in_box,
    text_width,
    token_image,
)

GAME = "jeju"
WIDTH = 1400
BOARD_H = 992
PRIVATE_H = 800
GOLD = (191, 144, 0)
RING = (214, 200, 170)

#: Tile colours; each tile also has a pictogram, so colour is never the only cue.
TILE_COLOURS: dict[str, tuple[int, int, int]] = {
    "orange": (240, 138, 20),
    "cactus": (64, 146, 64),
    "mountain": (118, 108, 98),
    "fish": (58, 120, 196),
    "pony": (150, 92, 52),
    "pig": (236, 150, 178),
    "haenyeo": (18, 52, 96),
}
SHORT_NAMES = {
    "orange": "Orange",
    "cactus": "Cactus",
    "mountain": "Mountain",
    "fish": "Fish",
    "pony": "Pony",
    "pig": "Pig",
    "haenyeo": "Haenyeo",
}
#: Which way a Travel goes round the ring (the engine's "right" adds 1 to the location).
RING_WORDS = "Travel right ↻ goes 1 → 2 → … → 6 → 1 (clockwise), left ↺ the other way"
STACK_WORDS = "tokens stack bottom → top, left to right; the ringed top token collects"
EFFECT_TEXT = {"harubang": "Instant Harubang", "refresh": "Card refresh", "everlasting": "Everlasting"}
PHASE_TEXT = {
    "setup_tokens": "Setup: {who} places tokens",
    "setup_harubang": "Setup: {who} places the Harubang",
    "turn": "Turn {turn}: {who} to play",
    "pay": "{who} chooses how to pay",
    "buying": "Turn {turn}: {who} may take cards",
    "harubang": "{who} moves the Harubang",
    "finished": "Game over",
}
NEUTRAL_COLOUR = (40, 40, 40)


# --------------------------------------------------------------------------- sprites


@lru_cache(maxsize=64)
def tile_image(key: str, size: int) -> Image.Image:
    """A tile of type ``key`` (or ``"?"`` for any tile) as an RGBA sprite ``size`` px square."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    s = size
    line = max(2, s // 24)
    if key == "?":
        draw.rounded_rectangle((1, 1, s - 2, s - 2), radius=s // 6, fill=WHITE, outline=MUTED, width=line)
        draw.text((s / 2, s / 2), "?", font=font("bold", int(s * 0.6)), fill=MUTED, anchor="mm")
        return image
    colour = TILE_COLOURS.get(key, (150, 150, 150))
    fg = ink_on(colour)
    draw.rounded_rectangle((1, 1, s - 2, s - 2), radius=s // 6, fill=colour, outline=INK, width=line)
    c = s / 2

    def box(cx: float, cy: float, rx: float, ry: float) -> tuple[float, float, float, float]:
        return (cx - rx * s, cy - ry * s, cx + rx * s, cy + ry * s)

    if key == "orange":
        draw.ellipse(box(c, c + 0.05 * s, 0.3, 0.3), fill=(255, 190, 80), outline=fg, width=line)
        draw.ellipse(box(c + 0.1 * s, c - 0.28 * s, 0.12, 0.06), fill=(40, 120, 40), outline=fg, width=1)
    elif key == "cactus":
        draw.rounded_rectangle(box(c, c + 0.04 * s, 0.09, 0.33), radius=int(0.09 * s), fill=WHITE)
        draw.rounded_rectangle(box(c - 0.2 * s, c - 0.02 * s, 0.06, 0.14), radius=int(0.06 * s), fill=WHITE)
        draw.rounded_rectangle(box(c + 0.2 * s, c - 0.08 * s, 0.06, 0.14), radius=int(0.06 * s), fill=WHITE)
        draw.rectangle(box(c - 0.13 * s, c + 0.1 * s, 0.08, 0.04), fill=WHITE)
        draw.rectangle(box(c + 0.13 * s, c + 0.04 * s, 0.08, 0.04), fill=WHITE)
    elif key == "mountain":
        draw.polygon([(0.14 * s, 0.78 * s), (0.5 * s, 0.2 * s), (0.86 * s, 0.78 * s)], fill=WHITE)
        draw.polygon([(0.36 * s, 0.42 * s), (0.5 * s, 0.2 * s), (0.64 * s, 0.42 * s)], fill=(190, 225, 255))
    elif key == "fish":
        draw.ellipse(box(c - 0.06 * s, c, 0.27, 0.14), fill=WHITE)
        draw.polygon([(0.62 * s, c), (0.88 * s, c - 0.16 * s), (0.88 * s, c + 0.16 * s)], fill=WHITE)
        draw.ellipse(box(c - 0.2 * s, c - 0.03 * s, 0.035, 0.035), fill=colour)
    elif key == "pony":
        draw.text((c, c + 0.02 * s), "♞", font=font("bold", int(s * 0.7)), fill=WHITE, anchor="mm")
    elif key == "pig":
        draw.ellipse(box(c, c + 0.04 * s, 0.3, 0.27), fill=(255, 205, 220), outline=INK, width=line)
        draw.polygon([(0.24 * s, 0.34 * s), (0.3 * s, 0.14 * s), (0.42 * s, 0.26 * s)], fill=(255, 205, 220))
        draw.polygon([(0.76 * s, 0.34 * s), (0.7 * s, 0.14 * s), (0.58 * s, 0.26 * s)], fill=(255, 205, 220))
        draw.ellipse(box(c, c + 0.1 * s, 0.13, 0.09), fill=(236, 130, 160), outline=INK, width=1)
        draw.ellipse(box(c - 0.05 * s, c + 0.1 * s, 0.025, 0.035), fill=INK)
        draw.ellipse(box(c + 0.05 * s, c + 0.1 * s, 0.025, 0.035), fill=INK)
    elif key == "haenyeo":
        draw.ellipse(box(c, c - 0.12 * s, 0.22, 0.22), fill=(250, 250, 250))
        draw.rounded_rectangle(
            box(c, c - 0.13 * s, 0.2, 0.09),
            radius=int(0.06 * s),
            fill=(120, 200, 230),
            outline=INK,
            width=max(1, line - 1),
        )
        for y in (0.66, 0.8):
            points = [
                (0.12 * s + 0.095 * s * k, y * s + (0.035 * s if k % 2 else -0.035 * s)) for k in range(9)
            ]
            draw.line(points, fill=(120, 200, 230), width=max(2, s // 18), joint="curve")
    else:  # a tile type added to the data later: its initials
        draw.text((c, c), key[:2].title(), font=font("bold", int(s * 0.42)), fill=fg, anchor="mm")
    return image


@lru_cache(maxsize=8)
def harubang_image(height: int) -> Image.Image:
    """The Harubang statue: a stone figure with a brimmed hat and big eyes."""
    w = int(height * 0.62)
    image = Image.new("RGBA", (w, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    stone, dark = (150, 146, 138), (60, 58, 54)
    line = max(2, height // 30)
    draw.rounded_rectangle(
        (w * 0.16, height * 0.3, w * 0.84, height * 0.98),
        radius=int(w * 0.2),
        fill=stone,
        outline=INK,
        width=line,
    )
    draw.rounded_rectangle(
        (w * 0.2, height * 0.04, w * 0.8, height * 0.3),
        radius=int(w * 0.25),
        fill=stone,
        outline=INK,
        width=line,
    )
    draw.rectangle((w * 0.04, height * 0.24, w * 0.96, height * 0.32), fill=dark)
    for ex in (0.36, 0.64):
        draw.ellipse(
            (w * ex - w * 0.1, height * 0.4, w * ex + w * 0.1, height * 0.52),
            fill=WHITE,
            outline=INK,
            width=max(1, line - 1),
        )
    draw.ellipse((w * 0.42, height * 0.52, w * 0.58, height * 0.68), fill=dark)
    draw.line((w * 0.3, height * 0.8, w * 0.7, height * 0.78), fill=dark, width=line)
    return image


@lru_cache(maxsize=8)
def neutral_image(radius: int) -> Image.Image:
    """A neutral token: black, with an N."""
    side = 2 * radius + 8
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    c = side / 2
    draw.ellipse(
        (c - radius, c - radius, c + radius, c + radius),
        fill=NEUTRAL_COLOUR,
        outline=(150, 150, 150),
        width=max(2, radius // 9),
    )
    draw.text((c, c), "N", font=font("bold", radius), fill=WHITE, anchor="mm")
    return image


def _token_sprite(owner: int, radius: int) -> Image.Image:
    return neutral_image(radius) if owner < 0 else token_image(owner, radius)


# --------------------------------------------------------------------------- words


def _who(seat: int, names: Sequence[object] | None) -> str:
    return seat_label(seat, names)


def status_text(view: dict, names: Sequence[object] | None) -> str:
    """One line on where the game stands, e.g. "Turn 12: B · Bo to play"."""
    phase = view.get("phase", "")
    acting = view.get("to_act") or [view.get("current", 0)]
    who = drawn_name(acting[0], names) if names else f"Player {player(acting[0]).letter}"
    text = PHASE_TEXT.get(phase, "{who} to play").format(who=who, turn=view.get("turn", 0))
    if phase == "finished" and view.get("end_reason"):
        text += " — " + ("no tiles left" if view["end_reason"] == "tiles" else "deck ran out")
    return text


def card_words(card: dict) -> str:
    """A card in words for alt text: "4 pts for Orange + Cactus + Fish"."""
    return str(card.get("text") or f"{card.get('points', 0)} pts")


def tile_name(key: str) -> str:
    return SHORT_NAMES.get(key, str(key).title())


# --------------------------------------------------------------------------- drawing pieces


def points_badge(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, points: int) -> None:
    """A gold coin with a card's points and "pts" under them."""
    cx, cy = centre
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(247, 201, 72), outline=(140, 100, 0), width=3)
    draw.text((cx, cy - r * 0.16), str(points), font=font("bold", int(r * 0.95)), fill=INK, anchor="mm")
    if r >= 24:
        draw.text((cx, cy + r * 0.52), "pts", font=font("bold", int(r * 0.4)), fill=INK, anchor="mm")


def draw_card(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    card: dict,
    mark: str = "",
) -> None:
    """One point card: points, the tiles it costs, its effect; ``mark`` adds a green badge ("✓ can take")."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    panel(
        draw,
        box,
        fill=(255, 252, 240),
        outline=(40, 140, 60) if mark else PANEL_LINE,
        radius=14,
        width=5 if mark else 3,
    )
    r = min(36, h * 0.36)
    cx, cy = x0 + 14 + r, y0 + h / 2
    points_badge(draw, (cx, cy), r, int(card.get("points", 0)))
    cost = [str(k) for k in card.get("cost", [])]
    size = int(min(52, h * 0.5))
    tx = cx + r + 14
    ty = y0 + 8 + size / 2
    step = size + 6
    for i, key in enumerate(cost):
        paste_centred(image, tile_image(key, size), (tx + i * step + size / 2, ty))
    effect = card.get("effect")
    words = ""
    if effect == "everlasting" and card.get("everlasting"):
        words = f"∞ Everlasting {tile_name(card['everlasting'])}"
    elif effect:
        words = ("★ " if effect == "harubang" else "↻ ") + EFFECT_TEXT.get(effect, str(effect).title())
    text_y = y0 + 8 + size + (y1 - y0 - 8 - size) / 2
    right = x1 - 10
    if mark:
        label_w = text_width(mark, "bold", 28) + 24
        draw.rounded_rectangle((right - label_w, cy - 22, right, cy + 22), radius=10, fill=(40, 140, 60))
        draw.text((right - label_w / 2, cy), mark, font=font("bold", 28), fill=WHITE, anchor="mm")
        right -= label_w + 10
    if words:
        text_in_box(
            draw, (tx - 8, text_y - 16, right, text_y + 16), words, "bold", 24, 20, (120, 60, 0), "left"
        )


def draw_tile_row(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    origin: tuple[float, float],
    tiles: dict,
    keys: Sequence[str],
    size: int,
    step: float,
    count_size: int,
    everlasting: Sequence[str] = (),
    per_row: int = 0,
    beside: bool = False,
) -> None:
    """Tiles in a grid of ``per_row`` columns with their counts underneath (or ``beside`` them);
    a type the seat has none of is faded."""
    x, top = origin
    per_row = per_row or len(keys)
    row_h = size + 10 if beside else size + count_size * 1.4
    for i, key in enumerate(keys):
        count = int(tiles.get(key, 0))
        cx = x + (i % per_row) * step + size / 2
        y = top + (i // per_row) * row_h
        sprite = tile_image(key, size)
        if count == 0:
            sprite = _faded(key, size)
        paste_centred(image, sprite, (cx, y + size / 2))
        label = f"×{count}"
        fill = INK if count else MUTED
        if beside:
            draw.text(
                (cx + size / 2 + 3, y + size / 2),
                label,
                font=font("bold", count_size),
                fill=fill,
                anchor="lm",
            )
        else:
            draw.text(
                (cx, y + size + count_size * 0.7),
                label,
                font=font("bold", count_size),
                fill=fill,
                anchor="mm",
            )
        if key in everlasting:
            br = max(12, size // 4)
            bx, by = cx + size / 2 - 4, y + 4
            draw.ellipse((bx - br, by - br, bx + br, by + br), fill=HIGHLIGHT, outline=INK, width=2)
            draw.text((bx, by), "∞", font=font("bold", int(br * 1.5)), fill=INK, anchor="mm")


@lru_cache(maxsize=64)
def _faded(key: str, size: int) -> Image.Image:
    sprite = tile_image(key, size).copy()
    alpha = sprite.getchannel("A").point(lambda a: a * 30 // 100)
    sprite.putalpha(alpha)
    return sprite


def _tile_keys(view: dict) -> list[str]:
    types = view.get("tile_types") or []
    keys = [str(t["key"]) for t in types if isinstance(t, dict) and "key" in t]
    return keys or list(TILE_COLOURS)


# --------------------------------------------------------------------------- public board

_COL_W, _ROW_H, _GAP_X, _GAP_Y = 276, 262, 16, 18
_RING_X, _RING_Y = 24, TITLE_H + 18


def _location_box(index: int) -> tuple[int, int, int, int]:
    """1 2 3 along the top, then 4 5 6 back along the bottom (clockwise)."""
    col, row = (index, 0) if index < 3 else (5 - index, 1)
    x = _RING_X + col * (_COL_W + _GAP_X)
    y = _RING_Y + row * (_ROW_H + _GAP_Y)
    return x, y, x + _COL_W, y + _ROW_H


@lru_cache(maxsize=8)
def _board_background(seats: int) -> Image.Image:
    """Static layer of the public board: the ring, the six empty locations and their numbers, the panels."""
    image, draw = canvas(GAME, BOARD_H, WIDTH)
    first, last = _location_box(0), _location_box(5)
    inset = 60
    draw.rounded_rectangle(
        (first[0] + inset, first[1] + inset, _location_box(2)[2] - inset, last[3] - inset),
        radius=90,
        outline=RING,
        width=26,
    )
    for index in range(6):
        box = _location_box(index)
        panel(draw, box, fill=PANEL, outline=PANEL_LINE, radius=20, width=3)
        cx, cy = box[0] + 34, box[1] + 34
        draw.ellipse((cx - 24, cy - 24, cx + 24, cy + 24), fill=(36, 82, 58))
        draw.text((cx, cy), str(index + 1), font=font("bold", 30), fill=WHITE, anchor="mm")
    # clockwise arrows on the ring between the rows
    for x, y, text in (
        (_location_box(2)[2] - 30, _RING_Y + _ROW_H + _GAP_Y / 2, "↓"),
        (_location_box(5)[0] + 30, _RING_Y + _ROW_H + _GAP_Y / 2, "↑"),
    ):
        draw.text((x, y), text, font=font("bold", 30), fill=(120, 100, 60), anchor="mm")
    cards = _cards_box()
    panel(draw, cards, fill=(250, 247, 240), outline=PANEL_LINE, radius=20, width=3)
    draw_text(draw, (cards[0] + 18, cards[1] + 26), "Point cards", "bold", 30, INK, "lm")
    draw_text(
        draw,
        (_RING_X, _RING_Y + 2 * _ROW_H + _GAP_Y + 22),
        f"{RING_WORDS}.",
        "bold",
        24,
        (120, 100, 60),
        "lm",
    )
    draw_text(
        draw,
        (_RING_X, _RING_Y + 2 * _ROW_H + _GAP_Y + 54),
        STACK_WORDS[:1].upper() + STACK_WORDS[1:] + ".",
        "regular",
        22,
        MUTED,
        "lm",
    )
    return image


def _cards_box() -> tuple[int, int, int, int]:
    x0 = _location_box(2)[2] + 22
    return x0, _RING_Y, WIDTH - 24, _RING_Y + 2 * _ROW_H + _GAP_Y


def _draw_location(image: Image.Image, draw: ImageDraw.ImageDraw, loc: dict, moved: str) -> None:
    box = _location_box(int(loc.get("index", 0)))
    x0, y0, x1, _ = box
    if loc.get("harubang"):
        panel(draw, box, fill=None, outline=HIGHLIGHT, radius=20, width=8)
        paste_centred(image, harubang_image(62), (x1 - 36, y0 + 40))
        draw.text((x0 + 68, y0 + 34), "Harubang", font=font("bold", 26), fill=INK, anchor="lm")
    elif moved:
        draw.text((x0 + 68, y0 + 34), moved, font=font("bold", 26), fill=MUTED, anchor="lm")
    # top tile and stack size
    left = int(loc.get("tiles_left", 0))
    top = loc.get("top_tile")
    tx, ty = x0 + 18, y0 + 70
    if top and left:
        paste_centred(image, tile_image(str(top), 92), (tx + 46, ty + 46))
        draw.text((tx + 106, ty + 30), f"×{left}", font=font("bold", 40), fill=INK, anchor="lm")
        draw.text((tx + 108, ty + 70), tile_name(str(top)), font=font("regular", 24), fill=MUTED, anchor="lm")
    else:
        draw.rounded_rectangle((tx, ty, tx + 92, ty + 92), radius=15, outline=PANEL_LINE, width=3)
        draw.text((tx + 106, ty + 46), "no tiles", font=font("bold", 28), fill=MUTED, anchor="lm")
    # token stack: left = bottom, right = top
    tokens = [int(t) for t in loc.get("tokens", [])]
    if not tokens:
        draw.text((x0 + 20, y0 + 210), "no tokens", font=font("regular", 24), fill=MUTED, anchor="lm")
        return
    per_row, step, radius = (6, 42, 18) if len(tokens) <= 12 else (7, 36, 16)
    rows = (len(tokens) + per_row - 1) // per_row
    row_h = 44
    sy = y0 + 212 - (rows - 1) * row_h / 2
    for i, owner in enumerate(tokens):
        cx = x0 + 30 + (i % per_row) * step
        cy = sy + (i // per_row) * row_h
        if i == len(tokens) - 1:
            draw.ellipse(
                (cx - radius - 7, cy - radius - 7, cx + radius + 7, cy + radius + 7),
                fill=HIGHLIGHT,
                outline=GOLD,
                width=3,
            )
        paste_centred(image, _token_sprite(owner, radius), (cx, cy))


def _draw_players_strip(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, names, keys) -> None:
    players = view.get("players") or []
    seats = max(1, len(players))
    top = BOARD_H - 262
    gap = 14
    width = (WIDTH - 48 - gap * (seats - 1)) / seats
    acting = set(view.get("to_act") or [])
    for i, p in enumerate(players):
        seat = int(p.get("seat", i))
        x0 = 24 + i * (width + gap)
        box = (x0, top, x0 + width, BOARD_H - 14)
        style = player(seat)
        panel(
            draw,
            box,
            fill=style.light,
            outline=GOLD if seat in acting else PANEL_LINE,
            radius=16,
            width=6 if seat in acting else 2,
        )
        paste_centred(image, token_image(seat, 20), (x0 + 32, top + 32))
        score = f"{p.get('score', 0)} pts"
        score_w = text_width(score, "bold", 32)
        draw.text((x0 + width - 14, top + 32), score, font=font("bold", 32), fill=INK, anchor="rm")
        text_in_box(
            draw,
            (x0 + 54, top + 8, x0 + width - score_w - 20, top + 56),
            drawn_name(seat, names),
            "bold",
            28,
            22,
            INK,
            "left",
        )
        single = (width - 24) / len(keys) - 6
        area_top, area_bottom = top + 54, BOARD_H - 60
        if single >= 46:
            per_row, tile_size, count_size = len(keys), int(min(58, single)), 26
            block_h = tile_size + count_size * 1.4
        else:  # four seats: two rows
            per_row, count_size = (len(keys) + 1) // 2, 22
            tile_size = int(min((width - 24) / per_row - 20, (area_bottom - area_top) / 2 - count_size * 1.4))
            block_h = 2 * (tile_size + count_size * 1.4)
        draw_tile_row(
            image,
            draw,
            (x0 + 12, area_top + (area_bottom - area_top - block_h) / 2),
            p.get("tiles", {}),
            keys,
            tile_size,
            (width - 24) / per_row,
            count_size,
            p.get("everlasting", []),
            per_row,
        )
        cards = p.get("cards", [])
        plural = "s" if len(cards) != 1 else ""
        tiles = int(p.get("tile_points", 0))
        line = f"{len(cards)} card{plural}: {p.get('card_points', 0)} pts + tiles {tiles} pt{_s(tiles)}"
        text_in_box(
            draw, (x0 + 6, BOARD_H - 64, x0 + width - 6, BOARD_H - 20), line, "regular", 26, 20, INK, "left"
        )


def render_board(view: dict, names: Sequence[object] | None = None) -> Picture:
    """The public board."""
    keys = _tile_keys(view)
    seats = int(view.get("seats") or len(view.get("players") or []) or 2)
    image = _board_background(seats).copy()
    draw = ImageDraw.Draw(image)
    text_in_box(draw, (620, 0, WIDTH - 16, TITLE_H), status_text(view, names), "bold", 32, 22, WHITE, "right")
    last = view.get("last_travel") or {}
    for loc in view.get("locations", []):
        moved = ""
        if last and last.get("from") == loc.get("index") and last.get("seat") is not None:
            arrow = "↻" if last.get("direction") == "right" else "↺"
            moved = f"{player(int(last['seat'])).letter} moved {arrow}"
        _draw_location(image, draw, loc, moved)
    cards_box = _cards_box()
    deck = f"deck {view.get('deck_size', 0)}"
    if view.get("removed"):
        deck += f" · {len(view['removed'])} refreshed away"
    draw.text((cards_box[2] - 16, cards_box[1] + 26), deck, font=font("regular", 24), fill=MUTED, anchor="rm")
    display = view.get("display", [])
    card_h = (cards_box[3] - cards_box[1] - 60) / 5
    for i, card in enumerate(display[:5]):
        y = cards_box[1] + 52 + i * card_h
        draw_card(image, draw, (cards_box[0] + 10, y, cards_box[2] - 10, y + card_h - 8), card)
    _draw_players_strip(image, draw, view, names, keys)
    return picture(image, board_alt(view, names), "jeju-board.png")


def _s(count: int) -> str:
    return "" if count == 1 else "s"


def _n(count: int, word: str) -> str:
    return f"{count} {word}{_s(count)}"


def board_alt(view: dict, names: Sequence[object] | None) -> list[str]:
    """Alt text of the public board: status, scores, cards on offer, then the six locations."""
    parts = [f"Jeju Island board. {status_text(view, names)}."]
    scores = [
        f"{_who(int(p.get('seat', i)), names)} {_n(int(p.get('score', 0)), 'point')}, "
        f"{_n(int(p.get('tile_count', 0)), 'tile')}, {_n(len(p.get('cards', [])), 'card')}"
        for i, p in enumerate(view.get("players", []))
    ]
    parts.append("Players: " + "; ".join(scores) + ".")
    parts.append(f"{RING_WORDS}.")
    parts.append("Point cards: " + "; ".join(card_words(c) for c in view.get("display", [])) + ".")
    locs = []
    for loc in view.get("locations", []):
        tokens = (
            ",".join("N" if int(t) < 0 else player(int(t)).letter for t in loc.get("tokens", [])) or "none"
        )
        tile = (
            f"{tile_name(loc['top_tile'])} on top of {loc.get('tiles_left', 0)}"
            if loc.get("top_tile")
            else "no tiles"
        )
        harubang = ", Harubang" if loc.get("harubang") else ""
        locs.append(f"{int(loc.get('index', 0)) + 1}: tokens {tokens} (bottom to top), {tile}{harubang}")
    parts.append("Locations " + "; ".join(locs) + ".")
    removed = view.get("removed") or []
    if removed:
        parts.append("Removed by Card Refresh: " + "; ".join(card_words(c) for c in removed) + ".")
    return parts


# --------------------------------------------------------------------------- a seat's picture


def render_private(view: dict, names: Sequence[object] | None = None) -> Picture:
    """One seat's picture: its tiles, cards and score; the cards it can take, or its ways to pay."""
    seat = int(view["you"])
    players = view.get("players", [])
    if not 0 <= seat < len(players):
        raise RenderError(f"seat {seat} is not at this table")
    me = players[seat]
    keys = _tile_keys(view)
    style = player(seat)
    image, draw = canvas(GAME, PRIVATE_H, WIDTH)
    label = drawn_name(seat, names)
    yours = seat in (view.get("to_act") or [])
    text_in_box(
        draw,
        (560, 0, WIDTH - 16, TITLE_H),
        f"{label}: {'your move' if yours else 'your tiles'}",
        "bold",
        32,
        22,
        WHITE,
        "right",
    )
    # left: the seat's tiles, score and cards
    left = (24, TITLE_H + 18, 700, PRIVATE_H - 18)
    panel(
        draw,
        left,
        fill=style.light,
        outline=GOLD if yours else PANEL_LINE,
        radius=20,
        width=6 if yours else 3,
    )
    paste_centred(image, token_image(seat, 24), (left[0] + 40, left[1] + 40))
    draw_text(draw, (left[0] + 76, left[1] + 40), "Your tiles", "bold", 32, INK, "lm")
    draw.text(
        (left[2] - 20, left[1] + 40),
        f"{me.get('score', 0)} pts",
        font=font("bold", 40),
        fill=INK,
        anchor="rm",
    )
    draw_tile_row(
        image,
        draw,
        (left[0] + 22, left[1] + 80),
        me.get("tiles", {}),
        keys,
        80,
        92,
        32,
        me.get("everlasting", []),
    )
    y = left[1] + 80 + 80 + 56
    score_line = (
        f"Cards {me.get('card_points', 0)} pts + leftover tiles {me.get('tile_points', 0)} pts "
        f"(2 tiles = 1 pt, Haenyeo 0)"
    )
    text_in_box(draw, (left[0] + 10, y, left[2] - 10, y + 40), score_line, "regular", 26, 20, INK, "left")
    y += 52
    cards = me.get("cards", [])
    draw_text(draw, (left[0] + 22, y + 18), f"Your cards ({len(cards)})", "bold", 30, INK, "lm")
    y += 44
    chip_w, chip_h = 310, 66
    max_rows = int((left[3] - 12 - y) // (chip_h + 8))
    shown = cards if len(cards) <= 2 * max_rows else cards[: 2 * max_rows - 1]
    for i, card in enumerate(shown):
        cx = left[0] + 22 + (i % 2) * (chip_w + 16)
        cy = y + (i // 2) * (chip_h + 8)
        _card_chip(image, draw, (cx, cy, cx + chip_w, cy + chip_h), card)
    if len(shown) < len(cards):
        i = len(shown)
        cx = left[0] + 22 + (i % 2) * (chip_w + 16)
        cy = y + (i // 2) * (chip_h + 8)
        draw_text(
            draw, (cx + 16, cy + chip_h / 2), f"+{len(cards) - len(shown)} more", "bold", 26, MUTED, "lm"
        )
    if not cards:
        draw_text(draw, (left[0] + 22, y + 24), "none yet", "regular", 26, MUTED, "lm")
    # right: ways to pay, or the cards on offer
    right = (720, TITLE_H + 18, WIDTH - 24, PRIVATE_H - 18)
    panel(draw, right, fill=(250, 247, 240), outline=PANEL_LINE, radius=20, width=3)
    payments = view.get("payments")
    pending = view.get("pending") or {}
    if payments and pending.get("card"):
        _draw_payments(image, draw, right, pending["card"], payments, keys)
    else:
        affordable = set(view.get("affordable") or [])
        draw_text(draw, (right[0] + 18, right[1] + 28), "Point cards on offer", "bold", 30, INK, "lm")
        draw.text(
            (right[2] - 16, right[1] + 28),
            f"deck {view.get('deck_size', 0)}",
            font=font("regular", 24),
            fill=MUTED,
            anchor="rm",
        )
        card_h = (right[3] - right[1] - 60) / 5
        for i, card in enumerate(view.get("display", [])[:5]):
            cy = right[1] + 54 + i * card_h
            mark = "✓ can take" if card.get("id") in affordable else ""
            draw_card(image, draw, (right[0] + 10, cy, right[2] - 10, cy + card_h - 8), card, mark)
    return picture(image, private_alt(view, names), f"jeju-seat-{style.letter}.png")


def _card_chip(
    image: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], card: dict
) -> None:
    """A taken card, small: its points, the tiles it cost, its effect."""
    x0, y0, x1, y1 = box
    panel(draw, box, fill=(255, 252, 240), outline=PANEL_LINE, radius=10, width=2)
    r = (y1 - y0) / 2 - 5
    cx, cy = x0 + 6 + r, (y0 + y1) / 2
    points_badge(draw, (cx, cy), r, int(card.get("points", 0)))
    x = cx + r + 8
    size = 38
    for key in card.get("cost", []):
        paste_centred(image, tile_image(str(key), size), (x + size / 2, cy))
        x += size + 3
    effect = card.get("effect")
    if effect == "everlasting" and card.get("everlasting"):
        words = "∞"
        paste_centred(image, tile_image(str(card["everlasting"]), size), (x1 - 8 - size / 2, cy))
        draw.text((x1 - 16 - size, cy), words, font=font("bold", 30), fill=(120, 60, 0), anchor="rm")
    elif effect:
        draw.text(
            (x1 - 10, cy),
            "★" if effect == "harubang" else "↻",
            font=font("bold", 30),
            fill=(120, 60, 0),
            anchor="rm",
        )


def _draw_payments(image, draw, box, card: dict, payments: list, keys: Sequence[str]) -> None:
    x0, y0, x1, y1 = box
    draw_text(draw, (x0 + 18, y0 + 28), "Choose how to pay for", "bold", 30, INK, "lm")
    draw_card(image, draw, (x0 + 10, y0 + 56, x1 - 10, y0 + 166), card)
    y = y0 + 186
    row_h = 70
    max_rows = int((y1 - 12 - y) // row_h)
    for i, payment in enumerate(payments[:max_rows]):
        top = y + i * row_h
        draw_text(draw, (x0 + 20, top + 30), f"{i + 1}.", "bold", 30, INK, "lm")
        x = x0 + 70
        for key in keys:
            for _ in range(int(payment.get(key, 0))):
                if x + 56 > x1 - 10:
                    break
                paste_centred(image, tile_image(key, 52), (x + 26, top + 30))
                x += 58
    if len(payments) > max_rows:
        draw_text(draw, (x0 + 20, y1 - 24), f"+{len(payments) - max_rows} more ways", "bold", 24, MUTED, "lm")


def private_alt(view: dict, names: Sequence[object] | None) -> list[str]:
    seat = int(view["you"])
    me = view["players"][seat]
    tiles = ", ".join(f"{tile_name(k)} {v}" for k, v in me.get("tiles", {}).items() if v) or "none"
    parts = [
        f"Your Jeju Island picture, {_who(seat, names)}. {status_text(view, names)}.",
        f"Score {me.get('score', 0)}: {_n(int(me.get('card_points', 0)), 'point')} from cards, "
        f"{int(me.get('tile_points', 0))} from leftover tiles.",
        f"Your tiles: {tiles}.",
    ]
    if me.get("everlasting"):
        parts.append("Everlasting: " + ", ".join(tile_name(k) for k in me["everlasting"]) + ".")
    parts.append(f"Your cards: {len(me.get('cards', []))}.")
    payments = view.get("payments")
    if payments and (view.get("pending") or {}).get("card"):
        ways = [" + ".join(f"{v} {tile_name(k)}" for k, v in p.items() if v) for p in payments]
        parts.append(f"Pay for {card_words(view['pending']['card'])}: " + "; or ".join(ways) + ".")
    else:
        affordable = set(view.get("affordable") or [])
        offer = [
            card_words(c) + (" (you can take it)" if c.get("id") in affordable else "")
            for c in view.get("display", [])
        ]
        parts.append("On offer: " + "; ".join(offer) + ".")
    return parts


# --------------------------------------------------------------------------- entry point


def render(view: dict, names: Sequence[object] | None = None) -> Picture:
    """A seat's picture when the view is a seated player's own (``"you"``), else the public board."""
    if not isinstance(view, dict) or view.get("game", GAME) != GAME or "locations" not in view:
        raise RenderError("not a Jeju Island view")
    you = view.get("you")
    if isinstance(you, int) and 0 <= you < len(view.get("players") or []):
        return render_private(view, names)
    return render_board(view, names)  # public, or a spectator's view: the board


__all__ = ["render", "render_board", "render_private", "tile_image"]
