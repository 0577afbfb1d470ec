"""Haenyeo sprites: seafood, turtle eggs, trash, pearls, divers and sea creatures, drawn once.

Every item has its own pictogram *and* colour (conch: a spiral cone, abalone: an
oval shell with its row of holes, sea mustard: green fronds, sea urchin: a spiky
ball, octopus: a head with tentacles), so colour is never the only cue. A
creature is a fish shape in its owner's colour with the owner's letter; a diver
is the owner's token (its shape and colour, see `renderers.common.shape`); the
2-player NPC is grey with an N. Letters are drawn at the picture's final size,
never smaller than `LETTER` px, so they stay readable on a phone (see
`renderers.common.min_size`), and in `renderers.common.letter_font` whatever the
picture's language (the sprites are cached without it).
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from i18n import N_
from renderers.common import INK, WHITE, WIDTH, ink_on, letter_font, min_size, player, shape
from renderers.memo import cached

NPC_COLOUR = (110, 110, 110)
#: The smallest letter a token or creature carries: readable on a phone on a `WIDTH` px picture.
LETTER = min_size(WIDTH, "bold")
#: A used turtle egg is crossed out in this red.
CROSS = (200, 30, 30)

#: Seafood colours (each also has its pictogram).
ITEM_COLOURS: dict[str, tuple[int, int, int]] = {
    "conch": (236, 158, 112),
    "abalone": (150, 196, 186),
    "mustard": (70, 150, 60),
    "urchin": (104, 56, 128),
    "octopus": (206, 72, 72),
    "egg": (252, 244, 214),
    "trash": (176, 176, 170),
    "pearl": (236, 236, 244),
}

#: Short words for trash types (the view gives keys and long names), in English: draw them with
#: ``t(TRASH_SHORT[key])`` (``t = common.words()``).
TRASH_SHORT = {
    "bottle": N_("bottle"),
    "can": N_("can"),
    "bag": N_("bag"),
    "rope": N_("rope"),
    "foam": N_("foam"),
    "glass": N_("glass"),
    "line": N_("line"),
    "sandal": N_("flip-flop"),
    "tire": N_("tire"),
    "mask": N_("mask"),
}

#: The seafood's names on the sheet's tracks (English; drawn translated).
SEAFOOD_SHORT = {
    "conch": N_("Conch"),
    "abalone": N_("Abalone"),
    "mustard": N_("Mustard"),
    "urchin": N_("Urchin"),
    "octopus": N_("Octopus"),
}


@cached
def item_image(key: str, size: int, faded: bool = False) -> Image.Image:
    """An item (``conch`` … ``octopus``, ``egg``, ``pearl``, ``trash``): an RGBA sprite ``size`` px square."""
    if faded:
        sprite = item_image(key, size).copy()
        sprite.putalpha(sprite.getchannel("A").point(lambda a: a * 35 // 100))
        return sprite
    scale = 3  # drawn large, then reduced: smooth edges
    s = size * scale
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    line = max(3, s // 16)
    colour = ITEM_COLOURS.get(key, (150, 150, 150))

    def box(cx: float, cy: float, rx: float, ry: float) -> tuple[float, float, float, float]:
        return (s * (cx - rx), s * (cy - ry), s * (cx + rx), s * (cy + ry))

    if key == "conch":
        draw.polygon(
            [(s * 0.3, s * 0.2), (s * 0.94, s * 0.5), (s * 0.3, s * 0.8)],
            fill=colour,
            outline=INK,
            width=line,
        )
        draw.ellipse(box(0.32, 0.5, 0.27, 0.3), fill=colour, outline=INK, width=line)
        draw.arc(box(0.32, 0.5, 0.17, 0.19), 200, 520, fill=INK, width=line)
        draw.arc(box(0.35, 0.5, 0.07, 0.08), 0, 300, fill=INK, width=line)
    elif key == "abalone":
        draw.ellipse(box(0.5, 0.52, 0.44, 0.32), fill=colour, outline=INK, width=line)
        for i in range(5):
            x = 0.24 + i * 0.11
            y = 0.38 + abs(i - 2) * 0.03
            draw.ellipse(box(x, y, 0.035, 0.035), fill=INK)
        draw.arc(box(0.5, 0.62, 0.3, 0.14), 10, 170, fill=INK, width=line)
    elif key == "mustard":
        for dx, top in ((-0.2, 0.2), (0.0, 0.08), (0.2, 0.2)):
            points = [
                (s * (0.5 + dx + 0.07 * math.sin(k * 1.6)), s * (0.92 - k * (0.92 - top) / 6))
                for k in range(7)
            ]
            draw.line(points, fill=colour, width=int(s * 0.11), joint="curve")
            draw.line(points, fill=(30, 80, 30), width=max(2, line // 2), joint="curve")
    elif key == "urchin":
        c = s / 2
        for k in range(16):
            a = 2 * math.pi * k / 16
            draw.line((c, c, c + math.cos(a) * s * 0.47, c + math.sin(a) * s * 0.47), fill=INK, width=line)
        draw.ellipse(box(0.5, 0.5, 0.3, 0.3), fill=colour, outline=INK, width=line)
    elif key == "octopus":
        for k in range(5):
            x = 0.18 + k * 0.16
            draw.line(
                [(s * x, s * 0.5), (s * (x - 0.05), s * 0.7), (s * (x + 0.04), s * 0.92)],
                fill=colour,
                width=int(s * 0.09),
                joint="curve",
            )
        draw.ellipse(box(0.5, 0.36, 0.32, 0.3), fill=colour, outline=INK, width=line)
        for x in (0.38, 0.62):
            draw.ellipse(box(x, 0.38, 0.07, 0.07), fill=WHITE)
            draw.ellipse(box(x, 0.39, 0.03, 0.03), fill=INK)
    elif key == "egg":
        draw.ellipse(box(0.5, 0.52, 0.32, 0.42), fill=colour, outline=INK, width=line)
        draw.ellipse(box(0.42, 0.4, 0.08, 0.07), fill=(120, 170, 90))
        draw.ellipse(box(0.6, 0.62, 0.06, 0.05), fill=(120, 170, 90))
    elif key == "egg_used":  # a turtle egg crossed out
        draw.ellipse(box(0.5, 0.52, 0.32, 0.42), fill=ITEM_COLOURS["egg"], outline=INK, width=line)
        for a, b in (((0.2, 0.2), (0.8, 0.84)), ((0.2, 0.84), (0.8, 0.2))):
            draw.line((s * a[0], s * a[1], s * b[0], s * b[1]), fill=CROSS, width=line * 2)
    elif key == "pearl":
        draw.ellipse(box(0.5, 0.5, 0.4, 0.4), fill=colour, outline=INK, width=line)
        draw.ellipse(box(0.38, 0.36, 0.11, 0.09), fill=WHITE)
    else:  # trash: a bin
        draw.rectangle(box(0.5, 0.58, 0.28, 0.34), fill=colour, outline=INK, width=line)
        draw.rectangle(box(0.5, 0.2, 0.36, 0.06), fill=colour, outline=INK, width=line)
        for x in (0.38, 0.5, 0.62):
            draw.line((s * x, s * 0.36, s * x, s * 0.82), fill=INK, width=line)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def owner_colour(owner: int | str) -> tuple[int, int, int]:
    return NPC_COLOUR if owner == "npc" else player(int(owner)).colour


def owner_letter(owner: int | str) -> str:
    return "N" if owner == "npc" else player(int(owner)).letter


@cached
def diver_image(owner: int | str, radius: int) -> Image.Image:
    """A Haenyeo pawn: the seat's token (colour, shape, letter); the NPC's is a grey circle with N.

    Like `renderers.common.token_image`, but its letter is never under `LETTER` px:
    small tokens keep a readable letter (it fills more of the shape).
    """
    side = 2 * radius + 2 * max(4, radius // 3)
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    c = side / 2
    width = max(2, round(radius / 9))
    if owner == "npc":
        colour, kind, ink = NPC_COLOUR, "circle", WHITE
    else:
        style = player(int(owner))
        colour, kind, ink = style.colour, style.shape, style.ink
    shape(draw, kind, (c, c), radius, colour, INK, width=width)
    round_shape = kind in ("circle", "square", "hexagon", "cross")
    size = max(LETTER, round(radius * (1.0 if round_shape else 0.85)))
    # The letter sits at the shape's visual centre (a triangle's is low, a star's a little low).
    dy = radius * 0.28 if kind == "triangle" else radius * 0.08 if kind == "star" else 0
    draw.text((c, c + dy), owner_letter(owner), font=letter_font(size), fill=ink, anchor="mm")
    return image


@cached
def creature_image(owner: int | str, height: int) -> Image.Image:
    """A sea creature: a fish shape in its owner's colour, the owner's letter on its body.

    The body is drawn at twice the size and reduced (smooth edges); the letter is
    drawn afterwards at the final size, at least `LETTER` px.
    """
    w = int(height * 1.5)
    scale = 2
    W, H = w * scale, height * scale
    image = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    colour = owner_colour(owner)
    line = max(3, H // 12)
    draw.polygon(
        [(W * 0.62, H * 0.5), (W * 0.98, H * 0.12), (W * 0.98, H * 0.88)],
        fill=colour,
        outline=INK,
        width=line,
    )
    draw.ellipse((W * 0.03, H * 0.08, W * 0.76, H * 0.92), fill=colour, outline=INK, width=line)
    image = image.resize((w, height), Image.Resampling.LANCZOS)
    ImageDraw.Draw(image).text(
        (w * 0.39, height * 0.52),
        owner_letter(owner),
        font=letter_font(max(LETTER, int(height * 0.62))),
        fill=ink_on(colour),
        anchor="mm",
    )
    return image


@cached
def net_image(width: int, height: int) -> Image.Image:
    """A net marker laid over a harvested slot: a dark mesh."""
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    colour = (40, 44, 52, 200)
    step = 16
    for k in range(-height, width + height, step):
        draw.line((k, 0, k + height, height), fill=colour, width=3)
        draw.line((k + height, 0, k, height), fill=colour, width=3)
    return image


__all__ = [
    "CROSS",
    "ITEM_COLOURS",
    "LETTER",
    "NPC_COLOUR",
    "SEAFOOD_SHORT",
    "TRASH_SHORT",
    "creature_image",
    "diver_image",
    "item_image",
    "net_image",
    "owner_colour",
    "owner_letter",
]
