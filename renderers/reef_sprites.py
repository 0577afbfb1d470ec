"""Reef & Ruins sprites, drawn once and pasted: dice, written values, boon icons, pen marks.

Values a player writes on the sheet use the handwriting-like face (Comic Neue
bold) in a blue "pen" ink, so they stand apart from the printed sheet (DejaVu,
dark ink). Every sprite is cached (`functools.lru_cache`) on what it depends on,
the picture's language included wherever a font draws it (a Korean picture draws
with other faces: `common.face`).
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from renderers.common import INK, WHITE, font, language
from renderers.memo import cached

#: The pen a player writes with, and the marks it makes.
PEN = (22, 58, 150)
#: Printed coins, multipliers and boon dice.
GOLD = (191, 144, 0)
COIN = (250, 214, 92)
BOON_FILL = (255, 238, 180)
MULT = (170, 40, 40)
SHELL = (236, 150, 120)
PEARL = (236, 236, 248)
#: An enchantment (the sparkle of a pearl bonus).
STAR = (120, 60, 170)

_PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def written(text: str, size: int, colour: tuple[int, int, int] = PEN, kind: str = "hand_bold") -> Image.Image:
    """``text`` as a tight RGBA sprite (written values: pasted, not re-rasterised each time)."""
    return _written(text, size, colour, kind, language())


@cached
def _written(text: str, size: int, colour: tuple[int, int, int], kind: str, lang: str) -> Image.Image:
    face = font(kind, size)
    left, top, right, bottom = face.getbbox(text, anchor="mm")
    image = Image.new("RGBA", (right - left + 4, bottom - top + 4), (0, 0, 0, 0))
    ImageDraw.Draw(image).text((2 - left, 2 - top), text, font=face, fill=colour, anchor="mm")
    return image


def die_image(value: int, size: int, boon: bool = False, faded: bool = False) -> Image.Image:
    """A die face: pips for 1–6, the number for any other shell-adjusted value (0, 7, 8, 9, …)."""
    return _die_image(value, size, boon, faded, language() if value not in _PIPS else "")


@cached
def _die_image(value: int, size: int, boon: bool, faded: bool, lang: str) -> Image.Image:
    scale = 3
    side = size * scale
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    fill = BOON_FILL if boon else WHITE
    draw.rounded_rectangle(
        (2, 2, side - 3, side - 3),
        radius=side // 6,
        fill=fill,
        outline=GOLD if boon else INK,
        width=max(3, side // 16),
    )
    if value in _PIPS:
        r = side * 0.085
        for px, py in _PIPS[value]:
            cx, cy = px * side, py * side
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)
    else:
        draw.text((side / 2, side / 2), str(value), font=font("bold", int(side * 0.6)), fill=INK, anchor="mm")
    image = image.resize((size, size), Image.Resampling.LANCZOS)
    if faded:
        alpha = image.getchannel("A").point(lambda a: a * 2 // 5)
        image.putalpha(alpha)
    return image


def coin_image(coins: int, size: int) -> Image.Image:
    """A printed gold coin with its value."""
    return _coin_image(coins, size, language())


@cached
def _coin_image(coins: int, size: int, lang: str) -> Image.Image:
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((1, 1, size - 2, size - 2), fill=COIN, outline=GOLD, width=max(2, size // 12))
    draw.text(
        (size / 2, size / 2 + 1), str(coins), font=font("bold", int(size * 0.62)), fill=INK, anchor="mm"
    )
    return image


@cached
def pearl_image(size: int) -> Image.Image:
    """A pearl: a pale disc with a shine."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((1, 1, size - 2, size - 2), fill=PEARL, outline=INK, width=max(2, size // 12))
    s = size * 0.22
    draw.ellipse((size * 0.28, size * 0.24, size * 0.28 + s, size * 0.24 + s), fill=WHITE)
    return image


@cached
def shell_image(size: int) -> Image.Image:
    """A scallop shell: a fan with ribs."""
    scale = 3
    side = size * scale
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    w = max(3, side // 14)
    box = (side * 0.06, side * 0.12, side * 0.94, side * 1.0)
    draw.pieslice(box, 180, 360, fill=SHELL, outline=INK, width=w)
    cx, cy = side / 2, side * 0.56
    for angle in (0.25, 0.42, 0.58, 0.75):
        a = math.pi * (1 + angle)
        draw.line(
            (cx, cy, cx + math.cos(a) * side * 0.4, cy + math.sin(a) * side * 0.4), fill=INK, width=w // 2 + 1
        )
    draw.rectangle((side * 0.38, side * 0.56, side * 0.62, side * 0.72), fill=SHELL, outline=INK, width=w)
    return image.resize((size, size), Image.Resampling.LANCZOS)


@cached
def star_image(size: int, colour: tuple[int, int, int] = STAR) -> Image.Image:
    """A four-pointed sparkle: an enchantment."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    c = size / 2
    points = []
    for i in range(8):
        r = (size / 2 - 1) if i % 2 == 0 else size * 0.16
        a = -math.pi / 2 + math.pi * i / 4
        points.append((c + r * math.cos(a), c + r * math.sin(a)))
    draw.polygon(points, fill=colour, outline=INK)
    return image


@cached
def cross_image(size: int, colour: tuple[int, int, int] = PEN, width: int = 0) -> Image.Image:
    """A pen cross (X) over a ``size`` square, slightly uneven like a hand-drawn one."""
    scale = 3
    side = size * scale
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    w = (width or max(3, size // 9)) * scale
    m = side * 0.14
    draw.line((m, m * 1.2, side - m * 0.9, side - m), fill=colour, width=w)
    draw.line((side - m, m, m * 1.1, side - m * 1.1), fill=colour, width=w)
    return image.resize((size, size), Image.Resampling.LANCZOS)


@cached
def ring_image(size: int, colour: tuple[int, int, int] = PEN, width: int = 0) -> Image.Image:
    """A pen circle drawn around a printed value (a marked reef space, a circled shell pair)."""
    scale = 3
    side = size * scale
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    w = (width or max(3, size // 10)) * scale
    draw.ellipse((w, w * 0.6, side - w * 0.8, side - w), outline=colour, width=w)
    return image.resize((size, size), Image.Resampling.LANCZOS)


@cached
def tick_image(size: int, colour: tuple[int, int, int] = PEN) -> Image.Image:
    """A pen tick (a used die, a confirmed round)."""
    scale = 3
    side = size * scale
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    w = max(3, size // 7) * scale
    draw.line(
        (side * 0.12, side * 0.55, side * 0.4, side * 0.82, side * 0.9, side * 0.16),
        fill=colour,
        width=w,
        joint="curve",
    )
    return image.resize((size, size), Image.Resampling.LANCZOS)


def boon_icon(boon: str | None, value: int, size: int) -> Image.Image | None:
    """The icon of an enchantment space's or pearl box's boon (None for a plain space)."""
    if not boon:
        return None
    if boon == "pearl":
        return pearl_image(size)
    if boon == "shells":
        return shell_image(size)
    if boon == "die":
        return die_image(value, size, boon=True)
    if boon == "enchantment":
        return star_image(size)
    if boon.startswith("x"):
        return written("×" + boon[1:], size, MULT, "bold")
    return written(boon[:3], size, INK, "bold")
