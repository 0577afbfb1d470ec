"""The renderers' shared toolkit: fonts, player palette, text, panels, PNG encoding, alt text.

Every picture is drawn from an engine *view* only (see docs/ARCHITECTURE.md), at
640–1600 px wide, and must stay legible when a phone shows it 400 px wide
(Discord's phone apps do): every text's digits stand at least `PHONE_MIN_TEXT`
px tall once the picture is scaled to `PHONE_WIDTH` (`phone_height`, `min_size`).

Fonts come from ``data/fonts/`` (see its README for sources and licences):

* ``regular`` / ``bold``: DejaVu Sans, wide Latin, Greek and Cyrillic coverage;
* ``hand`` / ``hand_bold``: Comic Neue, the handwriting-like face for values a
  player writes on a sheet (Reef & Ruins);
* ``cjk``: Noto Sans CJK KR Bold, subset to the few Hangul used in titles
  (해녀, 제주, 돌하르방). It has no other glyphs: use it for those words only.
* ``ko_regular`` / ``ko_bold``: Noto Sans CJK KR, subset to every character the
  Korean catalogs use (built by ``python -m i18n.fonts``). A picture drawn in
  Korean (``speaking("ko")``) draws every ``regular``/``bold``/``hand`` text with them.

A picture's words come from `words()`, the catalog of the language it is drawn
in: `renderers.render` sets it (`speaking`); every cached text helper is keyed
by the font it resolves to, so the two languages never share a cached size.
"""

from __future__ import annotations

import io
import math
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

import i18n
from renderers.memo import Shelf, cached

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"

#: Font kind -> file in FONT_DIR.
FONT_FILES: dict[str, str] = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "hand": "ComicNeue-Regular.otf",
    "hand_bold": "ComicNeue-Bold.otf",
    "cjk": "NotoSansKR-Bold-subset.otf",
    "ko_regular": "NotoSansKR-Regular-ui.otf",
    "ko_bold": "NotoSansKR-Bold-ui.otf",
}

#: Per language, the font kinds drawn with another face (a language whose script DejaVu lacks).
LANGUAGE_FACES: dict[str, dict[str, str]] = {
    "ko": {"regular": "ko_regular", "bold": "ko_bold", "hand": "ko_regular", "hand_bold": "ko_bold"},
}

_LANGUAGE: ContextVar[str] = ContextVar("picture_language", default=i18n.SOURCE)


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Draw in ``lang`` inside the block: its words (`words`) and its fonts (`face`)."""
    token = _LANGUAGE.set(lang if lang in i18n.LANGUAGES else i18n.SOURCE)
    try:
        yield
    finally:
        _LANGUAGE.reset(token)


def words() -> i18n.Words:
    """The translator of the picture being drawn (call it ``t``: ``t = words()``)."""
    return i18n.words(_LANGUAGE.get())


def language() -> str:
    """The language of the picture being drawn (`i18n.LANGUAGES`): key cached layers with words by it."""
    return _LANGUAGE.get()


def face(kind: str) -> str:
    """The font kind that draws ``kind`` in the current language (``"bold"`` → ``"ko_bold"``)."""
    return LANGUAGE_FACES.get(_LANGUAGE.get(), {}).get(kind, kind)


#: Discord's limit on an attachment's description (the alt text).
ALT_MAX = 1024

#: The width pictures are drawn at unless a layout says otherwise: narrow, for phones.
WIDTH = 800
MIN_WIDTH, MAX_WIDTH = 640, 1600
#: The most a picture may be taller than wide (a phone scrolls; Discord previews stop there).
MAX_ASPECT = 2.0

#: Discord's phone apps show a picture about this wide (px) ...
PHONE_WIDTH = 400
#: ... where every text's digits must stand at least this tall (px).
PHONE_MIN_TEXT = 9.0

# Colours of the house style: a warm paper background, dark ink, white panels.
BG = (244, 241, 234)
INK = (26, 30, 38)
MUTED = (88, 94, 104)
PANEL = (255, 255, 255)
PANEL_LINE = (196, 191, 180)
HIGHLIGHT = (255, 214, 64)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)

TITLE_H = 88


@dataclass(frozen=True)
class Picture:
    """One rendered picture: PNG bytes, alt text for ``discord.File(description=...)``, a file name."""

    png: bytes
    alt: str
    filename: str


@dataclass(frozen=True)
class GameTitle:
    """How a game's name is written: its own script (if any) and its English title."""

    script: str
    english: str
    colour: tuple[int, int, int]
    short: str = ""

    def heading(self, width: int) -> str:
        """The title that fits a ``width`` px title bar (the short one on narrow pictures), in the
        current language."""
        return words()(self.short if self.short and width < 1200 else self.english)

    def drawn_script(self) -> str:
        """The game's own script beside the heading, unless the heading already says it (Korean)."""
        return "" if language() == "ko" else self.script


#: Known games, keyed as in engine.GAME_PACKAGES. Only these keys are dispatched.
TITLES: dict[str, GameTitle] = {
    "haenyeo": GameTitle("해녀", i18n.N_("Haenyeo: Sea Divers of Jeju"), (14, 58, 98), i18n.N_("Haenyeo")),
    "jeju": GameTitle("제주", i18n.N_("Jeju Island"), (36, 82, 58)),
    "reef": GameTitle("", i18n.N_("Reef & Ruins"), (8, 96, 112)),
}


class RenderError(Exception):
    """A picture cannot be drawn (unknown game, missing renderer, unusable view)."""


# --------------------------------------------------------------------------- fonts


def font(kind: str, size: int) -> ImageFont.FreeTypeFont:
    """The ``kind`` font (see FONT_FILES) at ``size`` px in the current language, loaded once."""
    return _font(face(kind), size)


@cached
def _font(kind: str, size: int) -> ImageFont.FreeTypeFont:
    try:
        name = FONT_FILES[kind]
    except KeyError as error:
        raise RenderError(f"unknown font kind {kind!r}; known: {', '.join(FONT_FILES)}") from error
    return ImageFont.truetype(str(FONT_DIR / name), size, layout_engine=ImageFont.Layout.BASIC)


def digit_height(kind: str, size: int) -> int:
    """How tall the ``kind`` font's digits stand at ``size`` px (ink, baseline to top)."""
    return _digit_height(face(kind), size)


@lru_cache(maxsize=64)
def _digit_height(kind: str, size: int) -> int:
    _, top, _, bottom = _font(kind, size).getbbox("0123456789")
    return bottom - top


def phone_height(kind: str, size: int, width: int) -> float:
    """How tall a ``size`` px text's digits look on a picture ``width`` px wide shown `PHONE_WIDTH` wide."""
    return digit_height(kind, size) * PHONE_WIDTH / width


def min_size(width: int, kind: str = "regular") -> int:
    """The smallest font size whose text is still readable on a phone on a ``width`` px picture."""
    return _min_size(width, face(kind))


@lru_cache(maxsize=64)
def _min_size(width: int, kind: str) -> int:
    size = 8
    while phone_height(kind, size, width) < PHONE_MIN_TEXT:
        size += 1
    return size


@lru_cache(maxsize=8)
def _notdef(kind: str) -> bytes:
    """The mask a font draws for a character it does not have."""
    return bytes(_font(kind, 20).getmask("\U0010fffd"))


def has_glyph(kind: str, char: str) -> bool:
    """Whether the ``kind`` font (in the current language) draws ``char`` (rather than its empty box)."""
    return _has_glyph(face(kind), char)


@lru_cache(maxsize=8192)
def _has_glyph(kind: str, char: str) -> bool:
    if char.isspace():
        return True
    return bytes(_font(kind, 20).getmask(char)) != _notdef(kind)


def drawable(text: str, kind: str = "regular", missing: str = "?") -> str:
    """``text`` with characters the font lacks replaced by ``missing`` (runs collapsed)."""
    out: list[str] = []
    for char in text:
        if has_glyph(kind, char):
            out.append(char)
        elif not out or out[-1] != missing:
            out.append(missing)
    return "".join(out)


# --------------------------------------------------------------------------- players

_SHAPES = ("circle", "square", "triangle", "diamond", "hexagon", "star", "pentagon", "cross")


@dataclass(frozen=True)
class PlayerStyle:
    """A seat's colour (Okabe–Ito, safe for colour-blind players), its letter and its shape."""

    colour: tuple[int, int, int]
    letter: str
    shape: str
    name: str  # the colour's name, for alt text

    @property
    def ink(self) -> tuple[int, int, int]:
        """Black or white, whichever reads better on the colour."""
        return BLACK if _contrast(self.colour, BLACK) >= _contrast(self.colour, WHITE) else WHITE

    @property
    def light(self) -> tuple[int, int, int]:
        """A pale tint of the colour, for row and panel backgrounds."""
        return tuple(round(c + (255 - c) * 0.78) for c in self.colour)  # type: ignore[return-value]


#: Eight seats (Reef & Ruins seats up to 8): the Okabe–Ito colours, each with a letter and a
#: shape that always back the colour. The first six are the clearest; yellow and black come last.
PLAYERS: tuple[PlayerStyle, ...] = (
    PlayerStyle((0, 114, 178), "A", "circle", "blue"),
    PlayerStyle((230, 159, 0), "B", "square", "orange"),
    PlayerStyle((0, 158, 115), "C", "triangle", "green"),
    PlayerStyle((213, 94, 0), "D", "diamond", "vermilion"),
    PlayerStyle((204, 121, 167), "E", "hexagon", "pink"),
    PlayerStyle((86, 180, 233), "F", "star", "sky blue"),
    PlayerStyle((240, 228, 66), "G", "pentagon", "yellow"),
    PlayerStyle((60, 60, 60), "H", "cross", "black"),
)


def _luminance(rgb: Sequence[int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: Sequence[int], b: Sequence[int]) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_on(rgb: Sequence[int]) -> tuple[int, int, int]:
    """Black or white text, whichever reads better on ``rgb``."""
    return BLACK if _contrast(rgb, BLACK) >= _contrast(rgb, WHITE) else WHITE


def player(seat: int) -> PlayerStyle:
    """The style of ``seat`` (0-based); raises `RenderError` past eight seats."""
    if not 0 <= seat < len(PLAYERS):
        raise RenderError(f"seat {seat} is out of range (0–{len(PLAYERS) - 1})")
    return PLAYERS[seat]


def seat_letter(seat: int) -> str:
    """A, B, C… for seats 0, 1, 2…"""
    return player(seat).letter


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def clean_name(name: object, limit: int = 32) -> str:
    """A display name made safe to print: no control or direction marks, one line, at most ``limit``."""
    if name is None:
        return ""
    text = unicodedata.normalize("NFC", str(name))
    text = " ".join(_CONTROL.sub(" ", text).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def seat_name(seat: int, names: Sequence[object] | None) -> str:
    """The seat's display name, or "" when none was given."""
    if names is None or seat >= len(names):
        return ""
    return clean_name(names[seat])


def drawn_name(seat: int, names: Sequence[object] | None, kind: str = "bold") -> str:
    """The name to draw for a seat: its display name without the characters no font has
    (emoji, Hangul outside the titles…), or "Player A" when nothing drawable is left."""
    name = " ".join("".join(c for c in seat_name(seat, names) if has_glyph(kind, c)).split())
    return name if any(c.isalnum() for c in name) else f"Player {seat_letter(seat)}"


def seat_label(seat: int, names: Sequence[object] | None) -> str:
    """ "A" alone, or "A · Name" when the seat has a display name (for alt text and captions)."""
    name = seat_name(seat, names)
    return f"{seat_letter(seat)} · {name}" if name else seat_letter(seat)


# --------------------------------------------------------------------------- text


def text_width(text: str, kind: str, size: int) -> float:
    """Advance width of ``text`` in px."""
    return font(kind, size).getlength(text)


def ellipsize(text: str, kind: str, size: int, max_width: float) -> str:
    """``text`` cut with "…" so that it fits ``max_width`` px."""
    if text_width(text, kind, size) <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:  # longest prefix that fits with the ellipsis
        mid = (low + high + 1) // 2
        if text_width(text[:mid].rstrip() + "…", kind, size) <= max_width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…" if low else "…"


def fit(text: str, kind: str, max_width: float, max_size: int, min_size: int) -> tuple[str, int]:
    """The largest size in [min_size, max_size] at which ``text`` fits, ellipsized if even min is too wide.

    Remembered: names and labels recur from picture to picture."""
    return _fit(text, face(kind), max_width, max_size, min_size)


@lru_cache(maxsize=4096)
def _fit(text: str, kind: str, max_width: float, max_size: int, min_size: int) -> tuple[str, int]:
    text = drawable(text, kind)
    size = max_size
    while size > min_size and text_width(text, kind, size) > max_width:
        size -= 2
    size = max(size, min_size)
    return ellipsize(text, kind, size, max_width), size


def wrap(text: str, kind: str, size: int, max_width: float, max_lines: int = 0) -> list[str]:
    """Greedy word wrap; with ``max_lines`` the last kept line is ellipsized."""
    text = drawable(text, kind)
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if current and text_width(trial, kind, size) > max_width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    lines = [ellipsize(line, kind, size, max_width) for line in lines]
    if max_lines and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = ellipsize(lines[-1] + " …", kind, size, max_width)
    return lines


def text_mask(text: str, kind: str, size: int, anchor: str = "la") -> tuple[Image.Image, int, int, float]:
    """``text`` (what the font can draw of it) rasterized once as a mask, with its offset from the
    anchor point and its advance width: rasterizing is most of a picture's drawing, and words recur."""
    return _text_mask(text, face(kind), size, anchor)


@cached
def _text_mask(text: str, kind: str, size: int, anchor: str) -> tuple[Image.Image, int, int, float]:
    typeface = _font(kind, size)
    text = drawable(text, kind)
    x0, y0, x1, y1 = typeface.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=typeface, fill=255, anchor=anchor)
    return mask, x0, y0, typeface.getlength(text)


def put_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    kind: str = "regular",
    size: int = 24,
    fill: Sequence[int] = INK,
    anchor: str = "la",
) -> float:
    """`draw_text` from a cached `text_mask`: one line at ``xy`` (Pillow's ``anchor``); returns its width."""
    mask, dx, dy, advance = text_mask(text, kind, size, anchor)
    x, y = round(xy[0]) + dx, round(xy[1]) + dy
    image.paste(tuple(fill), (x, y, x + mask.width, y + mask.height), mask)
    return advance


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    kind: str = "regular",
    size: int = 28,
    fill: Sequence[int] = INK,
    anchor: str = "la",
) -> float:
    """Draw one line; returns its width. ``anchor`` is Pillow's (e.g. "mm" centres it)."""
    text = drawable(text, kind)
    draw.text(xy, text, font=font(kind, size), fill=tuple(fill), anchor=anchor)
    return text_width(text, kind, size)


def text_in_box(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    text: str,
    kind: str = "regular",
    max_size: int = 32,
    min_size: int = 22,
    fill: Sequence[int] = INK,
    align: str = "center",
    pad: float = 8,
) -> int:
    """Draw ``text`` on one line, as big as fits in ``box`` (shrunk, then ellipsized); returns the size."""
    x0, y0, x1, y1 = box
    max_size = min(max_size, int((y1 - y0) * 0.8))
    min_size = min(min_size, max_size)
    line, size = fit(text, kind, x1 - x0 - 2 * pad, max_size, min_size)
    y = (y0 + y1) / 2
    if align == "left":
        draw.text((x0 + pad, y), line, font=font(kind, size), fill=tuple(fill), anchor="lm")
    elif align == "right":
        draw.text((x1 - pad, y), line, font=font(kind, size), fill=tuple(fill), anchor="rm")
    else:
        draw.text(((x0 + x1) / 2, y), line, font=font(kind, size), fill=tuple(fill), anchor="mm")
    return size


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th…"""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


# --------------------------------------------------------------------------- shapes


def panel(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    fill: Sequence[int] | None = PANEL,
    outline: Sequence[int] | None = PANEL_LINE,
    radius: int = 18,
    width: int = 3,
) -> None:
    """A rounded panel."""
    draw.rounded_rectangle(
        box,
        radius=radius,
        fill=tuple(fill) if fill else None,
        outline=tuple(outline) if outline else None,
        width=width,
    )


def _polygon(cx: float, cy: float, r: float, sides: int, start: float) -> list[tuple[float, float]]:
    return [
        (
            cx + r * math.cos(start + 2 * math.pi * i / sides),
            cy + r * math.sin(start + 2 * math.pi * i / sides),
        )
        for i in range(sides)
    ]


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.5
        angle = -math.pi / 2 + math.pi * i / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def shape(
    draw: ImageDraw.ImageDraw,
    kind: str,
    centre: tuple[float, float],
    radius: float,
    fill: Sequence[int],
    outline: Sequence[int] | None = INK,
    width: int = 3,
) -> None:
    """Draw one of the player shapes (see ``_SHAPES``)."""
    cx, cy = centre
    fill_t = tuple(fill)
    line = tuple(outline) if outline else None
    if kind == "circle":
        draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius), fill=fill_t, outline=line, width=width
        )
        return
    if kind == "square":
        r = radius * 0.9
        draw.rounded_rectangle(
            (cx - r, cy - r, cx + r, cy + r),
            radius=max(2, int(r * 0.2)),
            fill=fill_t,
            outline=line,
            width=width,
        )
        return
    if kind == "triangle":
        points = _polygon(cx, cy + radius * 0.18, radius * 1.22, 3, -math.pi / 2)
    elif kind == "diamond":
        points = _polygon(cx, cy, radius * 1.15, 4, -math.pi / 2)
    elif kind == "hexagon":
        points = _polygon(cx, cy, radius * 1.05, 6, 0)
    elif kind == "star":
        points = _star(cx, cy, radius * 1.25)
    elif kind == "pentagon":
        points = _polygon(cx, cy + radius * 0.06, radius * 1.1, 5, -math.pi / 2)
    elif kind == "cross":
        a, b = radius * 1.0, radius * 0.5
        points = [
            (cx - b, cy - a),
            (cx + b, cy - a),
            (cx + b, cy - b),
            (cx + a, cy - b),
            (cx + a, cy + b),
            (cx + b, cy + b),
            (cx + b, cy + a),
            (cx - b, cy + a),
            (cx - b, cy + b),
            (cx - a, cy + b),
            (cx - a, cy - b),
            (cx - b, cy - b),
        ]
    else:
        raise RenderError(f"unknown shape {kind!r}")
    draw.polygon(points, fill=fill_t, outline=line, width=width)


def token(
    draw: ImageDraw.ImageDraw,
    seat: int,
    centre: tuple[float, float],
    radius: float = 22,
    letter: bool = True,
    min_letter: int = 12,
) -> None:
    """A seat's token: its shape in its colour with its letter on it.

    The letter is sized from the radius, never under ``min_letter`` px (pass the
    picture's `min_size` so it stays readable on a phone); ``letter=False`` draws
    the shape alone: its shape and colour still name the seat.
    """
    style = player(seat)
    shape(draw, style.shape, centre, radius, style.colour, INK, width=max(2, round(radius / 9)))
    if not letter:
        return
    size = max(
        min_letter, round(radius * (1.0 if style.shape in ("circle", "square", "hexagon", "cross") else 0.85))
    )
    cx, cy = centre
    if style.shape == "triangle":
        cy += radius * 0.28
    elif style.shape == "star":
        cy += radius * 0.08
    draw.text((cx, cy), style.letter, font=letter_font(size), fill=style.ink, anchor="mm")


def letter_font(size: int) -> ImageFont.FreeTypeFont:
    """The face a seat's letter (A, B, C…, a Latin letter) is drawn in: the Latin bold face in
    every language. Tokens and other seat sprites are cached without the language, so a face
    chosen by the picture's language would be the face of whichever language a process drew
    first; and a seat's letter is the same letter in every language."""
    return _font("bold", size)


@cached
def token_image(seat: int, radius: int, min_letter: int = 12) -> Image.Image:
    """A seat's token (see `token`) drawn once on a transparent square, for fast pasting (the same
    in every language: its letter is drawn in `letter_font`)."""
    side = 2 * radius + 2 * max(4, radius // 3)
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    token(ImageDraw.Draw(image), seat, (side / 2, side / 2), radius, min_letter=min_letter)
    return image


def paste_centred(target: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    """Paste an RGBA ``sprite`` on ``target`` centred at ``centre``."""
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    target.paste(sprite, (x, y), sprite)


def legend(
    draw: ImageDraw.ImageDraw,
    origin: tuple[float, float],
    seats: int,
    names: Sequence[object] | None,
    max_width: float,
    size: int = 28,
    gap: float = 36,
) -> float:
    """A row (wrapping) of seat tokens with their letters and names; returns the height used."""
    x0, y0 = origin
    x, y = x0, y0
    line_h = size * 1.8
    radius = size * 0.7
    for seat in range(seats):
        label = drawn_name(seat, names)
        label, label_size = fit(label, "bold", min(max_width * 0.45, 360), size, max(20, size - 6))
        width = radius * 2 + 10 + text_width(label, "bold", label_size)
        if x > x0 and x + width > x0 + max_width:
            x, y = x0, y + line_h
        token(draw, seat, (x + radius, y + line_h / 2), radius)
        draw.text(
            (x + radius * 2 + 10, y + line_h / 2), label, font=font("bold", label_size), fill=INK, anchor="lm"
        )
        x += width + gap
    return y + line_h - y0


# --------------------------------------------------------------------------- canvas


def title_text(game_key: str) -> GameTitle:
    """The game's title record; `RenderError` for an unknown key."""
    try:
        return TITLES[game_key]
    except KeyError as error:
        raise RenderError(f"unknown game {game_key!r}; known: {', '.join(TITLES)}") from error


def _background(game_key: str, width: int, height: int) -> Image.Image:
    """The static layer: paper background and the title bar with the game's name.

    A new image each time, with the cached title bar pasted on: a picture's height
    follows its content, and caching whole canvases by height held tens of MB of
    flat paper in every picture worker.
    """
    if not (MIN_WIDTH <= width <= MAX_WIDTH and 0 < height <= width * MAX_ASPECT):
        raise RenderError(
            f"canvas {width}x{height}: not {MIN_WIDTH}–{MAX_WIDTH} px wide, at most {MAX_ASPECT:g}x as tall"
        )
    image = Image.new("RGB", (width, height), BG)
    image.paste(_title_bar_in(game_key, width, language()), (0, 0))
    return image


@cached
def _title_bar_in(game_key: str, width: int, lang: str) -> Image.Image:
    """The title bar with the game's name, on the paper colour (the rectangle's last row included)."""
    title = title_text(game_key)
    image = Image.new("RGB", (width, TITLE_H + 1), BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, TITLE_H), fill=title.colour)
    x = 28
    mid = TITLE_H / 2
    if script := title.drawn_script():
        draw.text((x, mid + 2), script, font=font("cjk", 54), fill=WHITE, anchor="lm")
        x += text_width(script, "cjk", 54) + 22
        draw.line((x - 10, 18, x - 10, TITLE_H - 18), fill=(255, 255, 255), width=3)
        x += 10
    draw.text((x, mid), title.heading(width), font=font("bold", 40), fill=WHITE, anchor="lm")
    return image


def canvas(
    game_key: str, height: int, width: int = WIDTH, subtitle: str = ""
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A fresh background for the game, with ``subtitle`` on the right of the title bar."""
    image = _background(game_key, width, height)
    draw = ImageDraw.Draw(image)
    if subtitle:
        left = title_bar_right(game_key, width)
        small = min_size(width, "bold")
        text_in_box(
            draw, (left, 0, width - 16, TITLE_H), subtitle, "bold", max(34, small), small, WHITE, "right"
        )
    return image, draw


def title_bar_right(game_key: str, width: int = WIDTH) -> float:
    """Where free space in the title bar starts (left edge of the subtitle area)."""
    title = title_text(game_key)
    left = 28 + text_width(title.heading(width), "bold", 40) + 40
    if script := title.drawn_script():
        left += text_width(script, "cjk", 54) + 32
    return left


# --------------------------------------------------------------------------- output


#: The surfaces every picture draws on: colours blend towards these at anti-aliased edges.
SURFACES = (BG, PANEL, INK, WHITE)


@cached
def fixed_palette(
    colours: tuple[tuple[int, int, int], ...],
    grounds: tuple[tuple[int, int, int], ...] = (),
    seats: int = len(PLAYERS),
) -> Image.Image:
    """A palette image for `encode_png`: the house colours, the first ``seats`` players' and
    ``colours`` *exactly*, then their anti-aliasing blends filling the 256 entries.

    A game lists the flat colours it paints with and the ``grounds`` it paints them on
    (beyond the house surfaces and the players' tints). Each flat colour is blended a
    quarter, half and three quarters of the way towards every ground, which covers the
    anti-aliased edges of text and shapes; when the blends do not fit they are reduced
    by a median cut, never the flat colours (a median cut over everything moved a
    player's own blue to teal). Mapping pictures to one fixed palette costs about a
    third less than choosing a palette per picture. Deterministic.
    """
    players = PLAYERS[:seats]
    flat = list(
        dict.fromkeys(
            (
                *SURFACES,
                MUTED,
                PANEL_LINE,
                HIGHLIGHT,
                BLACK,
                *(p.colour for p in players),
                *(p.light for p in players),
                *colours,
            )
        )
    )[:256]
    all_grounds = dict.fromkeys((*SURFACES, *(p.light for p in players), *grounds))
    blends = dict.fromkeys(
        tuple(round(c + (g - c) * step / 4) for c, g in zip(colour, ground, strict=True))
        for colour in flat
        for ground in all_grounds
        for step in (1, 2, 3)
    )
    # A blend right beside a flat colour would take that colour's pixels (Pillow maps
    # through a coarse colour cache), so blends keep a distance from every flat colour.
    extra = [blend for blend in blends if min(_distance(blend, f) for f in flat) > 6]
    room = 256 - len(flat)
    if len(extra) > room > 0:
        swatch = Image.new("RGB", (len(extra), 1))
        swatch.putdata(extra)
        reduced = swatch.quantize(colors=room, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        entries = reduced.getpalette() or []
        extra = [tuple(entries[i : i + 3]) for i in range(0, 3 * room, 3)]
    table = [*flat, *extra][:256]
    table += [table[-1]] * (256 - len(table))
    palette = Image.new("P", (1, 1))
    palette.putpalette([c for colour in table for c in colour])
    return palette


def _distance(a: Sequence[int], b: Sequence[int]) -> int:
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def encode_png(
    image: Image.Image, colours: int = 256, compress_level: int = 3, palette: Image.Image | None = None
) -> bytes:
    """PNG bytes, palette-quantised to ``palette`` (a `fixed_palette`) or to ``colours`` (0 keeps full RGB).

    Without a fixed palette, one is chosen on a 4x box-reduced copy (fast, and the
    averaging keeps the blends that anti-aliased text needs). Either way the full
    picture is mapped to the palette without dithering: flat colours stay flat and
    exact enough, PNGs stay small. Deterministic: the same image always gives the
    same bytes.
    """
    if image.mode not in ("RGB", "P", "L"):
        image = image.convert("RGB")
    if image.mode == "RGB" and palette is not None:
        image = image.quantize(palette=palette, dither=Image.Dither.NONE)
    elif image.mode == "RGB" and colours:
        sample = image.reduce(4) if min(image.size) >= 64 else image
        chosen = sample.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        image = image.quantize(palette=chosen, dither=Image.Dither.NONE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=compress_level)
    return buffer.getvalue()


class Layer:
    """A printed RGB layer under a palette picture, with the key it is cached by: sprites laid on
    its printed words and marks are composed over it (their anti-aliased edges blend with it)."""

    __slots__ = ("image", "key")

    def __init__(self, key: tuple, image: Image.Image) -> None:
        self.key, self.image = key, image


#: What a sprite is laid on: a flat colour, a printed `Layer`, or None (what the picture has there).
Ground = tuple[int, int, int] | Layer | None

#: A block: the sprites it was composed of (kept, so that their ids in a key stay theirs), its
#: pixels in the palette and the mask of the inked ones (Pillow's core images), its width and height.
Block = tuple[tuple[Image.Image, ...], Any, Any, int, int]


class Blocks:
    """Sprites laid on a picture composed in a fixed palette, as pasting them on the RGB picture and
    mapping it at encoding did (issue #17: so that saving the picture maps no pixel).

    The sprites are composed on their ground in RGB and mapped to ``palette`` once (remembered
    under the process's budget, `renderers.memo`), then pasted through a mask of their inked
    pixels: the picture keeps its pixels elsewhere. Mapping is pixel by pixel, so the picture is
    the same."""

    def __init__(self, palette: Image.Image) -> None:
        self.palette = palette
        self.found = Shelf()

    def to_palette(self, image: Image.Image) -> Image.Image:
        """An RGB image mapped to the palette as `encode_png` maps it (every pixel on its own)."""
        return image.quantize(palette=self.palette, dither=Image.Dither.NONE)

    def lay(
        self, image: Image.Image, parts: tuple[tuple[Image.Image, int, int], ...], ground: Ground
    ) -> None:
        """Lay RGBA sprites (each with its top-left corner), in order, on a palette picture.

        ``ground`` must be what lies under their inked pixels (a flat colour, the printed layer);
        None composes over the picture's own (palette) pixels, uncached, for the few sprites that
        overlap other marks."""
        if len(parts) == 1:
            sprite, x0, y0 = parts[0]
            shape: object = id(sprite)
        else:
            x0 = min(left for _, left, _ in parts)
            y0 = min(top for _, _, top in parts)
            shape = tuple((id(sprite), left - x0, top - y0) for sprite, left, top in parts)
        if ground is None:
            key = None
        elif isinstance(ground, Layer):
            key = (ground.key, x0, y0, shape)
        else:
            key = (ground, shape)
        found = self.found.get(key) if key is not None else None
        if found is None:
            found = self._compose(image, parts, ground, x0, y0)
            if key is not None:
                self.found.put(key, found)
        paste_block(image, found, x0, y0)  # type: ignore[arg-type]

    def stamp(self, image: Image.Image, sprite: Image.Image, left: int, top: int, ground: Ground) -> None:
        """One sprite with its top-left corner at (left, top): `lay`, quicker when it was laid before."""
        found = self.found.get((ground, id(sprite))) if type(ground) is tuple else None
        if found is None:
            self.lay(image, ((sprite, left, top),), ground)
        else:
            paste_block(image, found, left, top)  # type: ignore[arg-type]

    def put(
        self, image: Image.Image, sprite: Image.Image, centre: tuple[float, float], ground: Ground
    ) -> None:
        """`paste_centred` on a palette picture: ``sprite`` centred at ``centre`` on ``ground``."""
        width, height = sprite.size
        self.stamp(image, sprite, round(centre[0] - width / 2), round(centre[1] - height / 2), ground)

    def _compose(
        self,
        image: Image.Image,
        parts: tuple[tuple[Image.Image, int, int], ...],
        ground: Ground,
        x0: int,
        y0: int,
    ) -> Block:
        """The sprites pasted in order on their ground in RGB, mapped to the palette, with the mask
        of their inked pixels (None when they ink every pixel of their box)."""
        x1 = max(left + sprite.width for sprite, left, _ in parts)
        y1 = max(top + sprite.height for sprite, _, top in parts)
        if isinstance(ground, Layer):
            under = ground.image.crop((x0, y0, x1, y1))
        elif ground is None:
            under = image.crop((x0, y0, x1, y1)).convert("RGB")
        else:
            under = Image.new("RGB", (x1 - x0, y1 - y0), ground)
        mask = Image.new("L", under.size, 0)
        for sprite, left, top in parts:
            at = (left - x0, top - y0)
            under.paste(sprite, at, sprite)
            mask.im.paste(255, (*at, at[0] + sprite.width, at[1] + sprite.height), inked(sprite))
        block = self.to_palette(under)
        return (
            tuple(s for s, _, _ in parts),
            block.im,
            None if mask.getextrema()[0] else mask.im,
            block.width,
            block.height,
        )


def paste_block(image: Image.Image, block: Block, left: int, top: int) -> None:
    """Paste a `Blocks` block at (left, top) through its mask.

    Straight on Pillow's core image: `Image.paste` checks its arguments for 6 µs of the 8 µs a
    small paste takes, and a picture pastes hundreds of them (the picture is ours and loaded)."""
    box = (left, top, left + block[3], top + block[4])
    if block[2] is None:
        image.im.paste(block[1], box)
    else:
        image.im.paste(block[1], box, block[2])


def inked(sprite: Image.Image) -> Any:
    """The mask of a sprite's pixels that show (any opacity), as Pillow's core image: a palette
    pixel is one entry or another."""
    return shown(sprite.getchannel("A"))


def shown(mask: Image.Image) -> Any:
    """The mask of an "L" mask's pixels that show (any coverage), as Pillow's core image (straight
    on the core: `Image.point` rounds its 256-entry table in Python each time)."""
    return mask.im.point(_SHOWN, "L")


_SHOWN = [0] + [255] * 255


def alt_text(parts: Iterable[str], limit: int = ALT_MAX) -> str:
    """Sentences joined into one alt text, whitespace collapsed, cut at a word to ``limit`` chars."""
    text = " ".join(" ".join(str(part).split()) for part in parts if part and str(part).strip())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut:
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(" ,;:") + "…"


def picture(
    image: Image.Image, alt: Iterable[str] | str, filename: str, palette: Image.Image | None = None
) -> Picture:
    """Encode ``image`` (to the game's ``palette`` if it has one) and package it with its alt text."""
    alt_str = alt_text([alt] if isinstance(alt, str) else alt)
    return Picture(png=encode_png(image, palette=palette), alt=alt_str, filename=filename)
