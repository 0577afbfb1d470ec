"""Jeju Island pictures: the public board and a seat's own picture, from `engine.jeju.view` views.

Both are laid out for a phone (Discord shows a picture about 400 px wide): 800 px
wide, taller than wide, one column read top to bottom, every text at least
`common.min_size` (24 px here), the numbers a player acts on the biggest.

Public board (800 px wide; 1356, 1468 or 1580 px tall for 2, 3 or 4 seats):

1. the title bar with the turn, then a banner with whose move it is and what
   they are doing (or how the game ended and who won);
2. one row per player: token, name, score (largest), tiles with their counts,
   cards taken and how the score splits into cards and leftover tiles;
3. the ring of six locations (1 2 3 along the top, 4 5 6 back along the bottom,
   so "right" is clockwise, shown by chevrons on the ring), each with its top
   tile and the number of tiles left, its token stack read left to right from
   bottom to top (the top token, which collects, is ringed in gold) and the
   Harubang statue; two legend lines under it;
4. the face-up point cards with their points, costs and effects, and the deck
   size (and how many cards Card Refresh removed; the alt text names them).

A seat's picture (800 px wide; 1016 px tall, up to 1232 as its cards fill four
rows): that seat's name, score, tiles and cards, then the point cards on offer
marked with those it can take now — or, while it pays for a card, each way it
may pay, numbered, in two columns.

Every tile type has its own colour *and* pictogram; every seat its colour and
shape (and its letter wherever the token is big enough to carry one); neutral
tokens are dark grey with a white ring. Stack tokens are too small for a
readable letter, so they carry the seat's shape and colour only: the player
rows above show which shape is whose.

Speed: the static layers (title bar, ring, the empty frames of the locations,
cards and panels, legends) are cached per seat count (board) or height (a
seat's picture); every piece that repeats between pictures (a card's face, a
row's frame with the name, a tile with its count, a top tile, a payment line,
each word run and number) is drawn once into an opaque or masked sprite, cached
on exactly what it shows, and pasted (`blit`). The caches are
bounded LRUs (a few tens of MB at most; layers and sprites keep a byte a pixel).

The palette: `common.fixed_palette` of `COLOURS` (each exact, their blends on the
cards' grounds). Both pictures are composed in it ("P" mode), so saving the PNG maps
no pixel (mapping the whole picture was a third of its encoding): the backgrounds and
opaque sprites are mapped once when cached (`to_palette`), each line of text is laid on
its known flat ground and mapped once (`put_text` with ``ground``), the RGBA sprites
pasted on a picture go through their alpha as a mask (`mapped`), and flat shapes are
drawn with palette entries (`ink`). Mapping is pixel by pixel, so a picture comes out
the same as one drawn in RGB and mapped at the end.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

import i18n
from i18n import N_
from renderers import common
from renderers.common import (
    BG,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL,
    PANEL_LINE,
    TITLE_H,
    WHITE,
    Picture,
    RenderError,
    drawn_name,
    fit,
    font,
    ink_on,
    paste_centred,
    picture,
    player,
    seat_label,
)
from renderers.memo import cached

GAME = "jeju"
#: Both pictures are drawn this wide (the house's phone-first width).
WIDTH = common.WIDTH
MARGIN = 16
#: The smallest type anywhere: readable at phone width (9 px digits at 400 px).
SMALL = common.min_size(WIDTH, "regular")
SMALL_BOLD = common.min_size(WIDTH, "bold")

GOLD = (191, 144, 0)
RING = (214, 200, 170)
RING_INK = (120, 100, 60)
TITLE_GREEN = common.title_text(GAME).colour
CARD_BG = (255, 252, 240)
CARDS_PANEL = (250, 247, 240)
COIN = (247, 201, 72)
COIN_LINE = (140, 100, 0)
EFFECT_INK = (120, 60, 0)
TAKE_GREEN = (40, 140, 60)
NEUTRAL_COLOUR = (40, 40, 40)
NEUTRAL_LINE = (150, 150, 150)
STONE, STONE_DARK = (150, 146, 138), (60, 58, 54)

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
#: Colours inside the pictograms.
ORANGE_FRUIT, LEAF = (255, 190, 80), (40, 120, 40)
SNOW, PIG_SKIN, PIG_SNOUT, SEA = (190, 225, 255), (255, 205, 220), (236, 130, 160), (120, 200, 230)
UNKNOWN_TILE = (150, 150, 150)
#: An empty tile type is drawn this far towards white.
FADE = 0.75

#: Every colour this renderer paints with, for the game's fixed PNG palette (the house
#: colours and the players' are added by `common.fixed_palette`), faded tiles' colours included.
COLOURS: tuple[tuple[int, int, int], ...] = (
    TITLE_GREEN,
    GOLD,
    RING,
    RING_INK,
    CARD_BG,
    CARDS_PANEL,
    COIN,
    COIN_LINE,
    EFFECT_INK,
    TAKE_GREEN,
    NEUTRAL_COLOUR,
    NEUTRAL_LINE,
    STONE,
    STONE_DARK,
    *TILE_COLOURS.values(),
    ORANGE_FRUIT,
    LEAF,
    SNOW,
    PIG_SKIN,
    PIG_SNOUT,
    SEA,
    UNKNOWN_TILE,
    *(tuple(round(c + (255 - c) * FADE) for c in colour) for colour in TILE_COLOURS.values()),
)


#: The fixed palette every Jeju picture is encoded to: its colours exact, their blends on its grounds.
PALETTE = common.fixed_palette(COLOURS, grounds=(CARD_BG, CARDS_PANEL), seats=4)

SHORT_NAMES = {
    "orange": N_("Orange"),
    "cactus": N_("Cactus"),
    "mountain": N_("Mountain"),
    "fish": N_("Fish"),
    "pony": N_("Pony"),
    "pig": N_("Pig"),
    "haenyeo": N_("Haenyeo"),
}
#: Which way a Travel goes round the ring (the engine's "right" adds 1 to the location).
RING_WORDS = N_("Travel right ↻ goes 1 → 2 → … → 6 → 1 (clockwise), left ↺ the other way")
#: The same, as short as a phone line allows (the alt text keeps RING_WORDS).
RING_LEGEND = N_("Travel ↻ right: 1 → 2 → … → 6 → 1 · ↺ left: back")
STACK_LEGEND = N_("neutral · stacks bottom → top, ringed top collects")
EFFECT_TEXT = {
    "harubang": N_("Instant Harubang"),
    "refresh": N_("Card refresh"),
    "everlasting": N_("Everlasting"),
}
PHASE_TEXT = {
    "setup_tokens": N_("Setup: {who} places tokens"),
    "setup_harubang": N_("Setup: {who} places the Harubang"),
    "turn": N_("Turn {turn}: {who} to play"),
    "pay": N_("{who} chooses how to pay"),
    "buying": N_("Turn {turn}: {who} may take cards"),
    "harubang": N_("{who} moves the Harubang"),
    "finished": N_("Game over"),
}
TO_PLAY = N_("{who} to play")
#: The banner under the title bar: the same without the turn, which the title bar shows.
BANNER_TEXT = {
    "setup_tokens": N_("{who} places tokens"),
    "setup_harubang": N_("{who} places the Harubang"),
    "turn": TO_PLAY,
    "pay": N_("{who} chooses how to pay"),
    "buying": N_("{who} may take cards"),
    "harubang": N_("{who} moves the Harubang"),
}
TILES_FILE = common.FONT_DIR.parent / "jeju" / "tiles.json"


# --------------------------------------------------------------------------- data


@lru_cache(maxsize=1)
def leftover_tiles_per_point() -> int:
    """How many leftover tiles score one point (data/jeju/tiles.json), for the score line."""
    return int(json.loads(TILES_FILE.read_text(encoding="utf-8"))["leftover_tiles_per_point"])


def _tile_keys(view: dict) -> list[str]:
    types = view.get("tile_types") or []
    keys = [str(kind["key"]) for kind in types if isinstance(kind, dict) and "key" in kind]
    return keys or list(TILE_COLOURS)


def _joker(view: dict) -> str:
    """The tile type that scores nothing at the end (the view marks it)."""
    for kind in view.get("tile_types") or []:
        if isinstance(kind, dict) and kind.get("joker"):
            return str(kind.get("key"))
    return "haenyeo"


# --------------------------------------------------------------------------- text sprites


def _latin(function: Callable[..., Image.Image]) -> Callable[..., Image.Image]:
    """Draw ``function``'s sprite in the Latin fonts whatever the picture's language: it holds
    only digits and symbols (♞ ↻ ∞) that the Korean fonts lack, and is cached for both languages."""

    @functools.wraps(function)
    def drawn(*args: object, **kwargs: object) -> Image.Image:
        with common.speaking(i18n.SOURCE):
            return function(*args, **kwargs)

    return drawn


def to_palette(image: Image.Image) -> Image.Image:
    """``image`` mapped to `PALETTE` as `common.encode_png` maps a picture, pixel by pixel: a
    layer or sprite kept this way is mapped once, and a picture made of them is saved as it is."""
    return image.convert("RGB").quantize(palette=PALETTE, dither=Image.Dither.NONE)


@lru_cache(maxsize=32)
def palette_index(colour: tuple[int, int, int]) -> int:
    """The palette entry ``colour`` is mapped to (Pillow's coarse colour cache may pick a
    neighbour of the exact entry): a shape drawn with it looks as it did drawn in RGB and mapped."""
    return int(to_palette(Image.new("RGB", (1, 1), colour)).getpixel((0, 0)))


def ink(image: Image.Image, colour: Sequence[int]) -> tuple[int, ...] | int:
    """A flat colour to draw with on ``image``: itself, or its palette entry on a palette picture."""
    return palette_index(tuple(colour)) if image.mode == "P" else tuple(colour)


#: A sprite ready for a palette picture: its pixels in palette entries and a 0/255 paste mask.
Mapped = tuple[Image.Image, Image.Image]


@cached
def mapped(make: Callable[..., Image.Image], *args: object) -> Mapped:
    """The RGBA sprite ``make(*args)`` for a palette picture. Pillow draws shapes without
    anti-aliasing, so these sprites are opaque or clear pixel by pixel (text only on their
    opaque shapes): the mask keeps what lies under their clear pixels, with no ground to know."""
    sprite = make(*args)
    alpha = sprite.getchannel("A")
    if any(alpha.histogram()[1:255]):
        raise RenderError(f"{make.__name__}{args}: half-transparent pixels need a ground")
    return to_palette(sprite), alpha


def sprite_for(image: Image.Image, make: Callable[..., Image.Image], *args: object) -> Image.Image | Mapped:
    """The RGBA sprite ``make(*args)`` as ``image`` takes it: `mapped` on a palette picture."""
    return mapped(make, *args) if image.mode == "P" else make(*args)


def blit(target: Image.Image, sprite: Image.Image | Mapped, xy: tuple[float, float]) -> None:
    """Paste ``sprite`` at ``xy`` (through its own alpha or `mapped` mask when it has one).

    Targets here are always fresh images and sprites lie inside them.
    """
    x, y = round(xy[0]), round(xy[1])
    if isinstance(sprite, tuple):
        block, mask = sprite
        target.paste(block, (x, y, x + block.width, y + block.height), mask)
        return
    box = (x, y, x + sprite.width, y + sprite.height)
    if sprite.mode == "RGBA":
        target.paste(sprite, box, sprite)
    else:
        target.paste(sprite, box)


def blit_centred(target: Image.Image, sprite: Image.Image | Mapped, centre: tuple[float, float]) -> None:
    """`blit` with ``sprite`` centred on ``centre``."""
    width, height = (sprite[0] if isinstance(sprite, tuple) else sprite).size
    blit(target, sprite, (centre[0] - width / 2, centre[1] - height / 2))


@cached
def _text_block(text: str, kind: str, size: int, anchor: str, fill: tuple, ground: tuple) -> Mapped:
    """A line of text laid on its flat ``ground`` and mapped to the palette once, with its ink
    as a 0/255 mask (a clear margin of the block leaves what is under it)."""
    mask = common.text_mask(text, kind, size, anchor)[0]
    block = Image.new("RGB", mask.size, ground)
    block.paste(fill, (0, 0, *mask.size), mask)
    return to_palette(block), mask.point(lambda value: 255 if value else 0)


def put_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    kind: str = "regular",
    size: int = 24,
    fill: Sequence[int] = INK,
    anchor: str = "la",
    ground: Sequence[int] | None = None,
) -> float:
    """`common.put_text`: one line at ``xy`` (Pillow's ``anchor``); returns its width. On a
    palette picture ``ground`` is the flat colour under the line: it is pasted as a ready block."""
    if image.mode != "P":
        return common.put_text(image, xy, text, kind, size, fill, anchor)
    if ground is None:
        raise RenderError("text on a palette picture needs its ground")
    kind = common.face(kind)  # the blocks are keyed by the face the language draws with
    _, dx, dy, advance = common.text_mask(text, kind, size, anchor)
    xy = round(xy[0]) + dx, round(xy[1]) + dy  # rounded as `common.put_text` rounds
    blit(image, _text_block(text, kind, size, anchor, tuple(fill), tuple(ground)), xy)
    return advance


def put_fitted(
    image: Image.Image,
    box: tuple[float, float, float, float],
    text: str,
    kind: str,
    max_size: int,
    fill: Sequence[int] = INK,
    align: str = "left",
    ground: Sequence[int] | None = None,
) -> int:
    """``text`` as big as fits ``box`` (never under the phone minimum; ellipsized if need be);
    ``ground`` as in `put_text`."""
    x0, y0, x1, y1 = box
    line, size = fit(text, kind, x1 - x0, max_size, SMALL_BOLD if kind == "bold" else SMALL)
    y = (y0 + y1) / 2
    if align == "right":
        put_text(image, (x1, y), line, kind, size, fill, "rm", ground)
    elif align == "center":
        put_text(image, ((x0 + x1) / 2, y), line, kind, size, fill, "mm", ground)
    else:
        put_text(image, (x0, y), line, kind, size, fill, "lm", ground)
    return size


def put_words(
    image: Image.Image,
    box: tuple[float, float, float, float],
    text: str,
    kind: str = "regular",
    size: int = SMALL,
    fill: Sequence[int] = INK,
    align: str = "right",
    ground: Sequence[int] | None = None,
) -> None:
    """``text`` right- (or left-) aligned in ``box``, its numbers and the runs of words between
    them each from a cached mask: the words repeat across pictures and so do the numbers, while
    whole lines (a turn, a deck size, a score split) rarely do. Shrunk like `put_fitted` if it
    is too wide; ``ground`` as in `put_text`."""
    pieces: list[str] = []
    for word in text.split(" "):
        if pieces and not word.isdigit() and not pieces[-1].isdigit():
            pieces[-1] += " " + word
        else:
            pieces.append(word)
    space = common.text_mask(" ", kind, size, "lm")[3]
    widths = [common.text_mask(piece, kind, size, "ls")[3] for piece in pieces]
    x0, y0, x1, y1 = box
    total = sum(widths) + space * (len(pieces) - 1)
    if total > x1 - x0:
        put_fitted(image, box, text, kind, size, fill, align, ground)
        return
    x, baseline = (x1 - total if align == "right" else x0), _baseline((y0 + y1) / 2, kind, size)
    for piece, width in zip(pieces, widths, strict=True):
        put_text(image, (x, baseline), piece, kind, size, fill, "ls", ground)
        x += width + space


@lru_cache(maxsize=32)
def _middle_offset(kind: str, size: int) -> float:
    """How far the baseline lies below the middle Pillow's "m" anchors use, in the font ``kind``
    (a face as `common.face` resolves it: the Korean faces' offset is not the Latin ones')."""
    face = font(kind, size)
    return face.getbbox("x", anchor="lm")[1] - face.getbbox("x", anchor="ls")[1]


def _baseline(middle: float, kind: str, size: int) -> float:
    # keyed by the resolved face: by "bold" alone, whichever language a process drew first
    # would set the baseline for both
    return middle + _middle_offset(common.face(kind), size)


# --------------------------------------------------------------------------- sprites


@cached
@_latin
def tile_image(key: str, size: int) -> Image.Image:
    """A tile of type ``key`` (or ``"?"`` for any tile) as an RGBA sprite ``size`` px square."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    s = size
    line = max(2, s // 24)
    if key == "?":
        draw.rounded_rectangle((1, 1, s - 2, s - 2), radius=s // 6, fill=WHITE, outline=MUTED, width=line)
        draw.text(
            (s / 2, s / 2), "?", font=font("bold", max(SMALL_BOLD, int(s * 0.6))), fill=MUTED, anchor="mm"
        )
        return image
    colour = TILE_COLOURS.get(key, UNKNOWN_TILE)
    draw.rounded_rectangle((1, 1, s - 2, s - 2), radius=s // 6, fill=colour, outline=INK, width=line)
    _pictogram(draw, key, s, colour, line)
    return image


def _pictogram(draw: ImageDraw.ImageDraw, key: str, s: int, colour: tuple[int, int, int], line: int) -> None:
    """The tile's picture, drawn in the ``s`` px square."""
    c = s / 2
    fg = ink_on(colour)

    def box(cx: float, cy: float, rx: float, ry: float) -> tuple[float, float, float, float]:
        return (cx - rx * s, cy - ry * s, cx + rx * s, cy + ry * s)

    if key == "orange":
        draw.ellipse(box(c, c + 0.05 * s, 0.3, 0.3), fill=ORANGE_FRUIT, outline=fg, width=line)
        draw.ellipse(box(c + 0.1 * s, c - 0.28 * s, 0.12, 0.06), fill=LEAF, outline=fg, width=1)
    elif key == "cactus":
        draw.rounded_rectangle(box(c, c + 0.04 * s, 0.09, 0.33), radius=int(0.09 * s), fill=WHITE)
        draw.rounded_rectangle(box(c - 0.2 * s, c - 0.02 * s, 0.06, 0.14), radius=int(0.06 * s), fill=WHITE)
        draw.rounded_rectangle(box(c + 0.2 * s, c - 0.08 * s, 0.06, 0.14), radius=int(0.06 * s), fill=WHITE)
        draw.rectangle(box(c - 0.13 * s, c + 0.1 * s, 0.08, 0.04), fill=WHITE)
        draw.rectangle(box(c + 0.13 * s, c + 0.04 * s, 0.08, 0.04), fill=WHITE)
    elif key == "mountain":
        draw.polygon([(0.14 * s, 0.78 * s), (0.5 * s, 0.2 * s), (0.86 * s, 0.78 * s)], fill=WHITE)
        draw.polygon([(0.36 * s, 0.42 * s), (0.5 * s, 0.2 * s), (0.64 * s, 0.42 * s)], fill=SNOW)
    elif key == "fish":
        draw.ellipse(box(c - 0.06 * s, c, 0.27, 0.14), fill=WHITE)
        draw.polygon([(0.62 * s, c), (0.88 * s, c - 0.16 * s), (0.88 * s, c + 0.16 * s)], fill=WHITE)
        draw.ellipse(box(c - 0.2 * s, c - 0.03 * s, 0.035, 0.035), fill=colour)
    elif key == "pony":
        size = max(SMALL_BOLD, int(s * 0.7))
        draw.text((c, c + 0.02 * s), "♞", font=font("bold", size), fill=WHITE, anchor="mm")
    elif key == "pig":
        draw.ellipse(box(c, c + 0.04 * s, 0.3, 0.27), fill=PIG_SKIN, outline=INK, width=line)
        draw.polygon([(0.24 * s, 0.34 * s), (0.3 * s, 0.14 * s), (0.42 * s, 0.26 * s)], fill=PIG_SKIN)
        draw.polygon([(0.76 * s, 0.34 * s), (0.7 * s, 0.14 * s), (0.58 * s, 0.26 * s)], fill=PIG_SKIN)
        draw.ellipse(box(c, c + 0.1 * s, 0.13, 0.09), fill=PIG_SNOUT, outline=INK, width=1)
        draw.ellipse(box(c - 0.05 * s, c + 0.1 * s, 0.025, 0.035), fill=INK)
        draw.ellipse(box(c + 0.05 * s, c + 0.1 * s, 0.025, 0.035), fill=INK)
    elif key == "haenyeo":
        draw.ellipse(box(c, c - 0.12 * s, 0.22, 0.22), fill=WHITE)
        mask = box(c, c - 0.13 * s, 0.2, 0.09)
        draw.rounded_rectangle(mask, radius=int(0.06 * s), fill=SEA, outline=INK, width=max(1, line - 1))
        for y in (0.66, 0.8):
            points = [
                (0.12 * s + 0.095 * s * k, y * s + (0.035 * s if k % 2 else -0.035 * s)) for k in range(9)
            ]
            draw.line(points, fill=SEA, width=max(2, s // 18), joint="curve")
    else:  # a tile type added to the data later: its initials
        size = max(SMALL_BOLD, int(s * 0.42))
        draw.text((c, c), key[:2].title(), font=font("bold", size), fill=fg, anchor="mm")


@cached
def _faded(key: str, size: int) -> Image.Image:
    """A tile type the seat has none of: the tile, `FADE` of the way to white (opaque colours,
    so the fixed palette holds them exactly)."""
    sprite = tile_image(key, size)
    pale = Image.blend(sprite.convert("RGB"), Image.new("RGB", sprite.size, WHITE), FADE)
    pale.putalpha(sprite.getchannel("A"))
    return pale


@cached
def harubang_image(height: int) -> Image.Image:
    """The Harubang statue: a stone figure with a brimmed hat and big eyes."""
    w = int(height * 0.62)
    image = Image.new("RGBA", (w, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    line = max(2, height // 30)
    body = (w * 0.16, height * 0.3, w * 0.84, height * 0.98)
    draw.rounded_rectangle(body, radius=int(w * 0.2), fill=STONE, outline=INK, width=line)
    head = (w * 0.2, height * 0.04, w * 0.8, height * 0.3)
    draw.rounded_rectangle(head, radius=int(w * 0.25), fill=STONE, outline=INK, width=line)
    draw.rectangle((w * 0.04, height * 0.24, w * 0.96, height * 0.32), fill=STONE_DARK)
    for ex in (0.36, 0.64):
        eye = (w * ex - w * 0.1, height * 0.4, w * ex + w * 0.1, height * 0.52)
        draw.ellipse(eye, fill=WHITE, outline=INK, width=max(1, line - 1))
    draw.ellipse((w * 0.42, height * 0.52, w * 0.58, height * 0.68), fill=STONE_DARK)
    draw.line((w * 0.3, height * 0.8, w * 0.7, height * 0.78), fill=STONE_DARK, width=line)
    return image


@cached
def stack_token(owner: int, radius: int) -> Image.Image:
    """A token in a location's stack: the seat's shape in its colour (no letter: too small to read
    on a phone), or the neutral token, dark grey with a white ring."""
    side = 2 * radius + 8
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    c = side / 2
    if owner < 0:
        draw.ellipse(
            (c - radius, c - radius, c + radius, c + radius),
            fill=NEUTRAL_COLOUR,
            outline=NEUTRAL_LINE,
            width=2,
        )
        r = radius * 0.5
        draw.ellipse((c - r, c - r, c + r, c + r), outline=WHITE, width=max(2, radius // 6))
        return image
    style = player(owner)
    common.shape(draw, style.shape, (c, c), radius, style.colour, INK, width=2)
    return image


def seat_token(seat: int, radius: int) -> Image.Image:
    """A seat's token with its letter never under the phone minimum (the shapes this game
    uses, A–D, hold a 24 px letter from a radius of 22); the same in every language."""
    return common.token_image(seat, radius, SMALL_BOLD)


@cached
@_latin
def _coin(radius: int, points: int) -> Image.Image:
    """A gold coin with a card's points."""
    side = 2 * radius + 4
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((2, 2, side - 2, side - 2), fill=COIN, outline=COIN_LINE, width=3)
    size = max(SMALL_BOLD, round(radius * 1.2))
    draw.text((side / 2, side / 2), str(points), font=font("bold", size), fill=INK, anchor="mm")
    return image


# --------------------------------------------------------------------------- words


def _who(seat: int, names: Sequence[object] | None) -> str:
    return seat_label(seat, names)


def _acting(view: dict) -> int:
    return int((view.get("to_act") or [view.get("current", 0)])[0])


def _drawn_who(view: dict, names: Sequence[object] | None) -> str:
    t = common.words()
    seat = _acting(view)
    return drawn_name(seat, names) if names else t("Player {letter}", letter=player(seat).letter)


def status_text(view: dict, names: Sequence[object] | None) -> str:
    """One line on where the game stands, e.g. "Turn 12: B · Bo to play" (for alt text)."""
    t = common.words()
    phase = view.get("phase", "")
    text = t(PHASE_TEXT.get(phase, TO_PLAY), who=_drawn_who(view, names), turn=view.get("turn", 0))
    if phase == "finished" and view.get("end_reason"):
        text = t("{status} — {end}", status=text, end=_end_words(view))
    return text


def _end_words(view: dict) -> str:
    t = common.words()
    return t("no tiles left") if view.get("end_reason") == "tiles" else t("deck ran out")


def title_words(view: dict) -> str:
    """The title bar's right side: the turn, "Setup" or "Game over"."""
    t = common.words()
    phase = str(view.get("phase", ""))
    if phase == "finished":
        return t("Game over")
    if phase.startswith("setup"):
        return t("Setup")
    return t("Turn {turn}", turn=view.get("turn", 0))


def banner_words(view: dict, names: Sequence[object] | None) -> str:
    """The banner: who acts and what they do, or how the game ended and who won."""
    t = common.words()
    phase = view.get("phase", "")
    if phase == "finished":
        if not view.get("end_reason"):
            text = t("Game over")
        elif view.get("end_reason") == "tiles":
            text = t("No tiles left")
        else:
            text = t("Deck ran out")
        winners = (view.get("result") or {}).get("winners") or []
        if winners:
            who = " & ".join(drawn_name(int(s), names) for s in winners)
            text = t.plural("{end}: {who} wins", "{end}: {who} win", len(winners), end=text, who=who)
        return text
    return t(BANNER_TEXT.get(phase, TO_PLAY), who=_drawn_who(view, names))


def card_words(card: dict) -> str:
    """A card in words for alt text: "4 pts for Orange + Cactus + Fish"."""
    t = common.words()
    if isinstance(card.get("say"), dict):
        return t.msg(card["say"])
    return str(card.get("text") or t.plural("{count} pt", "{count} pts", int(card.get("points", 0))))


def tile_name(key: str) -> str:
    t = common.words()
    return t(SHORT_NAMES[key]) if key in SHORT_NAMES else str(key).title()


def effect_parts(card: dict) -> tuple[str, str]:
    """A card's effect: its symbol (★ ↻ ∞) and its words, or ("", "")."""
    t = common.words()
    effect = card.get("effect")
    if effect == "everlasting" and card.get("everlasting"):
        return "∞", t("Everlasting {tile}", tile=tile_name(card["everlasting"]))
    if effect:
        words = t(EFFECT_TEXT[effect]) if effect in EFFECT_TEXT else str(effect).title()
        return ("★" if effect == "harubang" else "↻"), words
    return "", ""


def effect_words(card: dict) -> str:
    """A card's effect on one short line, with its symbol (★ ↻ ∞), or ""."""
    symbol, words = effect_parts(card)
    return f"{symbol} {words}" if words else ""


def _card_key(card: dict) -> tuple:
    """What a card's picture shows: its points, its cost and its effect."""
    return (
        int(card.get("points", 0)),
        tuple(str(k) for k in card.get("cost", [])),
        card.get("effect"),
        card.get("everlasting"),
    )


# --------------------------------------------------------------------------- pieces


def _opaque(width: int, height: int, fill: Sequence[int] = BG) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), tuple(fill))
    return image, ImageDraw.Draw(image)


CARD_W = WIDTH - 2 * MARGIN - 20
CARD_H = 64  # a card row on the board: coin, cost, effect
OFFER_H = 84  # on a seat's picture: taller, bigger to tap by eye, room for the "can take" badge
CARD_TILE = 48


def card_frame(draw: ImageDraw.ImageDraw, xy: tuple[int, int], height: int) -> None:
    """A point card's empty frame (static: drawn into the backgrounds, five slots)."""
    x, y = xy
    box = (x, y, x + CARD_W - 1, y + height - 1)
    draw.rounded_rectangle(box, radius=12, fill=CARD_BG, outline=PANEL_LINE, width=2)


@cached
def card_face(key: tuple, height: int) -> Image.Image:
    """A card's coin with its points and the tiles it costs, opaque on the card's colour."""
    points, cost, _, _ = key
    radius = min(30, height // 2 - 6)
    width = 16 + 2 * radius + len(cost) * (CARD_TILE + 6)
    image, _ = _opaque(width, height - 10, CARD_BG)
    mid = (height - 10) / 2
    paste_centred(image, _coin(radius, points), (4 + radius, mid))
    for i, tile in enumerate(cost):
        paste_centred(
            image, tile_image(tile, CARD_TILE), (16 + 2 * radius + i * (CARD_TILE + 6) + CARD_TILE / 2, mid)
        )
    return to_palette(image)


def _badge(mark: str) -> Image.Image:
    return _badge_in(mark, common.language())


@cached
def _badge_in(mark: str, lang: str) -> Image.Image:
    """The green "can take" badge."""
    width = round(common.text_width(mark, "bold", SMALL_BOLD)) + 24
    image, draw = _opaque(width, 40, CARD_BG)
    draw.rounded_rectangle((0, 0, width - 1, 39), radius=10, fill=TAKE_GREEN)
    put_text(image, (width / 2, 20), mark, "bold", SMALL_BOLD, WHITE, "mm")
    return to_palette(image)


def draw_card(image: Image.Image, xy: tuple[int, int], card: dict, height: int, mark: str = "") -> None:
    """A point card in its frame at ``xy``: coin with its points, the tiles it costs, its effect
    beside them; ``mark`` as a green badge and a green frame."""
    x, y = xy
    key = _card_key(card)
    face = card_face(key, height)
    blit(image, face, (x + 8, y + 5))
    right = x + CARD_W - 12
    if mark:
        ImageDraw.Draw(image).rounded_rectangle(
            (x, y, x + CARD_W - 1, y + height - 1), radius=12, outline=ink(image, TAKE_GREEN), width=5
        )
        badge = _badge(mark)
        blit(image, badge, (right - badge.width, y + (height - badge.height) / 2))
        right -= badge.width + 10
    symbol, words = effect_parts(card)
    if words:
        left = x + 8 + 16 + 2 * min(30, height // 2 - 6) + max(len(key[1]), 3) * (CARD_TILE + 6)
        with common.speaking(i18n.SOURCE):  # ↻ is not in the Korean fonts
            left += put_text(
                image, (left, y + height / 2), symbol + " ", "bold", SMALL_BOLD, EFFECT_INK, "lm", CARD_BG
            )
        put_fitted(image, (left, y, right, y + height), words, "bold", SMALL_BOLD, EFFECT_INK, ground=CARD_BG)


def _clear(image: Image.Image, box: tuple[float, float, float, float], colour: Sequence[int]) -> None:
    """Paint ``box`` flat (static card frames that no card fills)."""
    image.paste(ink(image, colour), tuple(round(v) for v in box))


CHIP_W, CHIP_H, CHIP_TILE = (WIDTH - 2 * MARGIN - 40 - 12) // 2, 64, 40


@cached
@_latin
def card_chip(key: tuple, back: tuple) -> Image.Image:
    """A card the seat has taken, small: its points, the tiles it cost, its effect's symbol."""
    points, cost, effect, everlasting = key
    image, draw = _opaque(CHIP_W, CHIP_H, back)
    draw.rounded_rectangle(
        (0, 0, CHIP_W - 1, CHIP_H - 1), radius=10, fill=CARD_BG, outline=PANEL_LINE, width=2
    )
    radius = CHIP_H // 2 - 6
    paste_centred(image, _coin(radius, points), (6 + radius, CHIP_H / 2))
    x = 14 + 2 * radius
    step = CHIP_TILE + 3
    for i, tile in enumerate(cost):
        paste_centred(image, tile_image(tile, CHIP_TILE), (x + i * step + CHIP_TILE / 2, CHIP_H / 2))
    right = CHIP_W - 8
    if effect == "everlasting" and everlasting:
        paste_centred(image, tile_image(str(everlasting), CHIP_TILE), (right - CHIP_TILE / 2, CHIP_H / 2))
        put_text(image, (right - CHIP_TILE - 2, CHIP_H / 2), "∞", "bold", SMALL_BOLD + 4, EFFECT_INK, "rm")
    elif effect:
        symbol = "★" if effect == "harubang" else "↻"
        put_text(image, (right, CHIP_H / 2), symbol, "bold", SMALL_BOLD + 6, EFFECT_INK, "rm")
    return to_palette(image)


def _everlasting_badge(image: Image.Image, corner: tuple[float, float]) -> None:
    """A gold ∞ disc on a tile's top-right corner: the seat never gives up one of these."""
    draw = ImageDraw.Draw(image)
    bx, by = corner
    r = 14
    draw.ellipse((bx - r, by - r, bx + r, by + r), fill=HIGHLIGHT, outline=INK, width=2)
    put_text(image, (bx, by), "∞", "bold", SMALL_BOLD, INK, "mm")


# --------------------------------------------------------------------------- public board

BANNER_TOP, BANNER_H = TITLE_H + 12, 60
ROW_H, ROW_GAP = 104, 8
ROW_W = WIDTH - 2 * MARGIN
ROW_TILE, ROW_STEP = 40, 66
CELL_W, CELL_H, RING_GAP = (WIDTH - 2 * MARGIN - 2 * 20) // 3, 222, 20
TOKEN_R = 16
LEGEND_LINE = 32
CARDS_HEAD = 46


def _rows_top() -> int:
    return BANNER_TOP + BANNER_H + 10


def _ring_top(seats: int) -> int:
    return _rows_top() + seats * ROW_H + (seats - 1) * ROW_GAP + 14


def _legend_top(seats: int) -> int:
    return _ring_top(seats) + 2 * CELL_H + RING_GAP + 8


def _cards_top(seats: int) -> int:
    return _legend_top(seats) + 2 * LEGEND_LINE + 8


def board_height(seats: int) -> int:
    """The public board's height for ``seats`` players (one row each)."""
    return _cards_top(seats) + CARDS_HEAD + 5 * CARD_H + 4 * 6 + 10 + 12


def _location_xy(index: int, seats: int) -> tuple[int, int]:
    """Top-left corner of a location: 1 2 3 along the top, then 4 5 6 back along the bottom (clockwise)."""
    col, row = (index, 0) if index < 3 else (5 - index, 1)
    return MARGIN + col * (CELL_W + RING_GAP), _ring_top(seats) + row * (CELL_H + RING_GAP)


def _board_background(seats: int) -> Image.Image:
    """Static layer of the public board: title bar, banner panel, the ring with its clockwise
    chevrons, the legends and the cards panel with its heading (one per seat count and language)."""
    return _board_background_in(seats, common.language())


@cached
def _board_background_in(seats: int, lang: str) -> Image.Image:
    t = common.words()
    image, draw = common.canvas(GAME, board_height(seats), WIDTH)
    top = _ring_top(seats)
    x_mid = [MARGIN + CELL_W / 2 + col * (CELL_W + RING_GAP) for col in (0, 2)]
    y_mid = [top + CELL_H / 2, top + CELL_H * 1.5 + RING_GAP]
    # the ring runs through the cells' centres, so only its stretches between them show
    draw.rounded_rectangle((x_mid[0], y_mid[0], x_mid[1], y_mid[1]), radius=60, outline=RING, width=20)
    for index in range(6):
        _chevron(draw, index, seats)
        _cell_frame(image, draw, index, seats)
    banner = (MARGIN, BANNER_TOP, WIDTH - MARGIN - 1, BANNER_TOP + BANNER_H - 1)
    draw.rounded_rectangle(banner, radius=14, fill=PANEL, outline=PANEL_LINE, width=4)
    for seat in range(seats):
        _row_frame(image, draw, seat)
    legend = _legend_top(seats)
    ring_box = (MARGIN, legend, WIDTH - MARGIN, legend + LEGEND_LINE)
    put_fitted(image, ring_box, t(RING_LEGEND), "bold", SMALL_BOLD, RING_INK)
    y = legend + LEGEND_LINE * 1.5
    paste_centred(image, stack_token(-1, TOKEN_R), (MARGIN + TOKEN_R + 2, y))
    stack_box = (MARGIN + 2 * TOKEN_R + 12, y - LEGEND_LINE / 2, WIDTH - MARGIN, y + LEGEND_LINE / 2)
    put_fitted(image, stack_box, t(STACK_LEGEND), "regular", SMALL, MUTED)
    cards = _cards_box(seats)
    common.panel(draw, cards, fill=CARDS_PANEL, outline=PANEL_LINE, radius=18, width=3)
    for i in range(5):
        card_frame(draw, (cards[0] + 10, cards[1] + CARDS_HEAD + i * (CARD_H + 6)), CARD_H)
    put_text(image, (cards[0] + 14, cards[1] + CARDS_HEAD / 2 + 2), t("Point cards"), "bold", 28, INK, "lm")
    return to_palette(image)


def _chevron(draw: ImageDraw.ImageDraw, index: int, seats: int) -> None:
    """An arrowhead on the ring between location ``index`` and the next one, pointing clockwise."""
    x, y = _location_xy(index, seats)
    nx, ny = _location_xy((index + 1) % 6, seats)
    if ny == y:  # same row: the gap between the cells, pointing right on top, left below
        cx, cy = (min(x, nx) + CELL_W + RING_GAP / 2, y + CELL_H / 2)
        d = 1 if nx > x else -1
        points = [(cx + 9 * d, cy), (cx - 7 * d, cy - 12), (cx - 7 * d, cy + 12)]
    else:  # down the right side, up the left
        cx, cy = (x + CELL_W / 2, max(y, ny) - RING_GAP / 2)
        d = 1 if ny > y else -1
        points = [(cx, cy + 9 * d), (cx - 12, cy - 7 * d), (cx + 12, cy - 7 * d)]
    draw.polygon(points, fill=RING_INK)


def _cards_box(seats: int) -> tuple[int, int, int, int]:
    top = _cards_top(seats)
    return MARGIN, top, WIDTH - MARGIN, board_height(seats) - 12


def _cell_frame(image: Image.Image, draw: ImageDraw.ImageDraw, index: int, seats: int) -> None:
    """A location's empty frame and its number (static: part of the board's background)."""
    x, y = _location_xy(index, seats)
    draw.rounded_rectangle(
        (x, y, x + CELL_W - 1, y + CELL_H - 1), radius=18, fill=PANEL, outline=PANEL_LINE, width=3
    )
    draw.ellipse((x + 8, y + 8, x + 52, y + 52), fill=TITLE_GREEN)
    put_text(image, (x + 30, y + 30), str(index + 1), "bold", 28, WHITE, "mm")


TOP_W, TOP_H = CELL_W - 20, 80


def _top_tile(top_tile: str | None, tiles_left: int) -> Image.Image:
    """A location's top tile with the number of tiles left and the tile's name, or "no tiles"."""
    return _top_tile_in(top_tile, tiles_left, common.language())


@cached
def _top_tile_in(top_tile: str | None, tiles_left: int, lang: str) -> Image.Image:
    t = common.words()
    image, draw = _opaque(TOP_W, TOP_H, PANEL)
    if top_tile and tiles_left:
        paste_centred(image, tile_image(top_tile, 76), (40, 40))
        put_text(image, (86, 24), f"×{tiles_left}", "bold", 44, INK, "lm")
        put_fitted(image, (88, 46, TOP_W, 74), tile_name(top_tile), "regular", SMALL, MUTED)
    else:
        draw.rounded_rectangle((2, 2, 78, 78), radius=13, outline=PANEL_LINE, width=3)
        put_fitted(image, (88, 20, TOP_W - 4, 60), t("no tiles"), "bold", 28, MUTED)
    return to_palette(image)


def draw_location(image: Image.Image, origin: tuple[int, int], loc: dict, moved: str) -> None:
    """One location at ``origin``: its number, the Harubang (or who just left it), its top tile
    with the tiles left, its token stack (left = bottom, right = top; the top one ringed in gold)."""
    t = common.words()
    x, y = origin
    if loc.get("harubang"):  # a gold frame over the plain one, the statue and its name
        box = (x, y, x + CELL_W - 1, y + CELL_H - 1)
        ImageDraw.Draw(image).rounded_rectangle(box, radius=18, outline=ink(image, HIGHLIGHT), width=7)
        blit_centred(image, sprite_for(image, harubang_image, 44), (x + CELL_W - 26, y + 32))
        words_box = (x + 60, y + 8, x + CELL_W - 44, y + 52)
        put_fitted(image, words_box, t("Harubang"), "bold", SMALL_BOLD, ground=PANEL)
    elif moved:
        words_box = (x + 60, y + 8, x + CELL_W - 10, y + 52)
        put_fitted(image, words_box, moved, "bold", SMALL_BOLD, MUTED, ground=PANEL)
    top = str(loc["top_tile"]) if loc.get("top_tile") else None
    blit(image, _top_tile(top, int(loc.get("tiles_left", 0))), (x + 10, y + 58))
    _draw_stack(image, origin, [int(t) for t in loc.get("tokens", [])])


@cached
def _top_ring() -> Image.Image:
    """The gold ring behind a stack's top token (the one that collects)."""
    r = TOKEN_R + 6
    image = Image.new("RGBA", (2 * r + 2, 2 * r + 2), (0, 0, 0, 0))
    ImageDraw.Draw(image).ellipse((1, 1, 2 * r + 1, 2 * r + 1), fill=HIGHLIGHT, outline=GOLD, width=3)
    return image


def _draw_stack(image: Image.Image, origin: tuple[int, int], tokens: list[int]) -> None:
    """The token stack in two rows at most, left to right from the bottom token to the top one."""
    t = common.words()
    x, y = origin
    if not tokens:
        put_fitted(
            image,
            (x + 14, y + 158, x + CELL_W - 14, y + 198),
            t("no tokens"),
            "regular",
            SMALL,
            MUTED,
            ground=PANEL,
        )
        return
    per_row = max(5, (len(tokens) + 1) // 2)
    step = (CELL_W - 2 * 26) / (per_row - 1)
    for i, owner in enumerate(tokens):
        centre = (x + 26 + (i % per_row) * step, y + 160 + (i // per_row) * 38)
        if i == len(tokens) - 1:
            blit_centred(image, sprite_for(image, _top_ring), centre)
        blit_centred(image, sprite_for(image, stack_token, owner, TOKEN_R), centre)


#: Room kept right of a player's name for the largest score (two digits) and "pts".
SCORE_ROOM = 150


def _row_frame(image: Image.Image, draw: ImageDraw.ImageDraw, seat: int) -> None:
    """A player row's frame in the seat's tint, its token and "pts" (static: in the background)."""
    t = common.words()
    x, y = MARGIN, _rows_top() + seat * (ROW_H + ROW_GAP)
    box = (x, y, x + ROW_W - 1, y + ROW_H - 1)
    draw.rounded_rectangle(box, radius=16, fill=player(seat).light, outline=PANEL_LINE, width=2)
    paste_centred(image, seat_token(seat, 21), (x + 33, y + 28))
    put_text(image, (x + ROW_W - 14, y + 44), t("pts"), "bold", SMALL_BOLD, INK, "rs")


@cached
@_latin
def _tile_count(key: str, count: int, everlasting: bool, back: tuple, size: int = ROW_TILE) -> Image.Image:
    """A tile with its count beside it (faded when none), opaque on ``back``; ∞ when everlasting."""
    # from just under the token to the row's inside bottom: the token and the acting row's gold
    # outline stay whole
    image, _ = _opaque(ROW_STEP - 2, size + 8, back)
    sprite = tile_image(key, size) if count else _faded(key, size)
    image.paste(sprite, (0, 4), sprite)
    put_text(image, (size + 4, size / 2 + 4), str(count), "bold", 26, INK if count else MUTED, "lm")
    if everlasting:
        _everlasting_badge(image, (size - 4, 13))
    return to_palette(image)


def draw_player_row(
    image: Image.Image, origin: tuple[int, int], view: dict, p: dict, names: Sequence[object] | None
) -> None:
    """One player at ``origin``: token, name and score on top; tiles with counts, then cards and
    the score's split below. The acting seat's row has a thick gold outline."""
    t = common.words()
    x, y = origin
    seat = int(p.get("seat", 0))
    if seat in (view.get("to_act") or []):
        box = (x, y, x + ROW_W - 1, y + ROW_H - 1)
        ImageDraw.Draw(image).rounded_rectangle(box, radius=16, outline=ink(image, GOLD), width=6)
    back = player(seat).light
    name_box = (x + 62, y + 6, x + ROW_W - SCORE_ROOM, y + 50)
    put_fitted(image, name_box, drawn_name(seat, names), "bold", 30, ground=back)
    pts_w = common.text_mask(t("pts"), "bold", SMALL_BOLD, "rs")[3]
    score = str(p.get("score", 0))
    put_text(image, (x + ROW_W - 20 - pts_w, y + 44), score, "bold", 46, INK, "rs", back)
    tiles = p.get("tiles", {})
    everlasting = p.get("everlasting", [])
    keys = _tile_keys(view)
    for i, key in enumerate(keys):
        sprite = _tile_count(key, int(tiles.get(key, 0)), key in everlasting, back)
        blit(image, sprite, (x + 12 + i * ROW_STEP, y + 50))
    cards = len(p.get("cards", []))
    split = t.plural(
        "{count} card: {card_points} + tiles {tile_points}",
        "{count} cards: {card_points} + tiles {tile_points}",
        cards,
        card_points=p.get("card_points", 0),
        tile_points=p.get("tile_points", 0),
    )
    left = x + 12 + len(keys) * ROW_STEP
    put_words(image, (left, y + 54, x + ROW_W - 12, y + 94), split, "regular", SMALL, INK, ground=back)


def draw_banner(image: Image.Image, words: str, seat: int | None) -> None:
    """The line under the title bar: the acting seat's token and what it does, big (its frame
    is in the background, gold while someone is to act)."""
    width = WIDTH - 2 * MARGIN
    left = MARGIN + 16
    if seat is not None:
        box = (MARGIN, BANNER_TOP, MARGIN + width - 1, BANNER_TOP + BANNER_H - 1)
        ImageDraw.Draw(image).rounded_rectangle(box, radius=14, outline=ink(image, GOLD), width=4)
        blit_centred(image, sprite_for(image, seat_token, seat, 22), (MARGIN + 36, BANNER_TOP + BANNER_H / 2))
        left = MARGIN + 68
    words_box = (left, BANNER_TOP, MARGIN + width - 16, BANNER_TOP + BANNER_H)
    put_fitted(image, words_box, words, "bold", 34, ground=PANEL)


def render_board(view: dict, names: Sequence[object] | None = None) -> Picture:
    """The public board."""
    players = view.get("players") or []
    seats = len(players) or int(view.get("seats") or 2)
    image = _board_background(seats).copy()
    _title(image, title_words(view))
    acting = None if view.get("phase") == "finished" else _acting(view)
    draw_banner(image, banner_words(view, names), acting)
    for i, p in enumerate(players):
        draw_player_row(image, (MARGIN, _rows_top() + i * (ROW_H + ROW_GAP)), view, p, names)
    _paste_locations(image, view, seats)
    _paste_offer(image, view, seats)
    return picture(image, board_alt(view, names), "jeju-board.png", palette=PALETTE)


def _title(image: Image.Image, words: str) -> None:
    """The title bar's right side (the turn), as big as fits."""
    put_words(image, (_title_left(), 0, WIDTH - 20, TITLE_H), words, "bold", 36, WHITE, ground=TITLE_GREEN)


def _title_left() -> float:
    return _title_left_in(common.language())


@lru_cache(maxsize=4)
def _title_left_in(lang: str) -> float:
    return common.title_bar_right(GAME, WIDTH)


def _paste_locations(image: Image.Image, view: dict, seats: int) -> None:
    t = common.words()
    last = view.get("last_travel") or {}
    for loc in view.get("locations", []):
        index = int(loc.get("index", 0))
        moved = ""
        if last and last.get("from") == index and last.get("seat") is not None:
            letter = player(int(last["seat"])).letter
            if last.get("direction") == "right":
                moved = t("{letter} moved ↻", letter=letter)
            else:
                moved = t("{letter} moved ↺", letter=letter)
        draw_location(image, _location_xy(index, seats), loc, moved)


def _deck_words(view: dict) -> str:
    t = common.words()
    deck = t("deck {count}", count=view.get("deck_size", 0))
    if view.get("removed"):
        deck = t("{deck} · {count} refreshed away", deck=deck, count=len(view["removed"]))
    return deck


def _paste_offer(image: Image.Image, view: dict, seats: int) -> None:
    box = _cards_box(seats)
    mid = box[1] + CARDS_HEAD / 2 + 2
    deck_box = (box[0] + 200, mid - 20, box[2] - 14, mid + 20)
    put_words(image, deck_box, _deck_words(view), "regular", SMALL, MUTED, ground=CARDS_PANEL)
    display = view.get("display", [])[:5]
    for i, card in enumerate(display):
        draw_card(image, (box[0] + 10, box[1] + CARDS_HEAD + i * (CARD_H + 6)), card, CARD_H)
    if len(display) < 5:  # the last cards are gone: no empty frames
        _clear(
            image,
            (box[0] + 8, box[1] + CARDS_HEAD + len(display) * (CARD_H + 6), box[2] - 8, box[3] - 6),
            CARDS_PANEL,
        )


def board_alt(view: dict, names: Sequence[object] | None) -> list[str]:
    """Alt text of the public board: status, scores, cards on offer, then the six locations."""
    t = common.words()
    parts = [t("Jeju Island board. {status}.", status=status_text(view, names))]
    scores = [
        t(
            "{who} {points}, {tiles}, {cards}",
            who=_who(int(p.get("seat", i)), names),
            points=t.plural("{count} point", "{count} points", int(p.get("score", 0))),
            tiles=t.plural("{count} tile", "{count} tiles", int(p.get("tile_count", 0))),
            cards=t.plural("{count} card", "{count} cards", len(p.get("cards", []))),
        )
        for i, p in enumerate(view.get("players", []))
    ]
    parts.append(t("Players: {players}.", players="; ".join(scores)))
    parts.append(t(RING_WORDS) + ".")
    parts.append(t("Point cards: {cards}.", cards="; ".join(card_words(c) for c in view.get("display", []))))
    locs = []
    for loc in view.get("locations", []):
        tokens = ",".join("N" if int(k) < 0 else player(int(k)).letter for k in loc.get("tokens", [])) or t(
            "none"
        )
        if loc.get("top_tile"):
            tile = t(
                "{tile} on top of {count}", tile=tile_name(loc["top_tile"]), count=loc.get("tiles_left", 0)
            )
        else:
            tile = t("no tiles")
        number = int(loc.get("index", 0)) + 1
        if loc.get("harubang"):
            locs.append(
                t(
                    "{number}: tokens {tokens} (bottom to top), {tile}, Harubang",
                    number=number,
                    tokens=tokens,
                    tile=tile,
                )
            )
        else:
            locs.append(
                t(
                    "{number}: tokens {tokens} (bottom to top), {tile}",
                    number=number,
                    tokens=tokens,
                    tile=tile,
                )
            )
    parts.append(t("Locations {locations}.", locations="; ".join(locs)))
    removed = view.get("removed") or []
    if removed:
        parts.append(t("Removed by Card Refresh: {cards}.", cards="; ".join(card_words(c) for c in removed)))
    return parts


# --------------------------------------------------------------------------- a seat's picture

YOU_TOP = TITLE_H + 12
YOU_TILE, YOU_STEP = 80, 104
#: Where the score lines and the cards start, below the panel's top.
YOU_LINES, YOU_CHIPS = 80 + YOU_TILE + 44, 80 + YOU_TILE + 44 + 2 * 32 + 46
#: At most this many rows of the seat's own cards (two a row); the picture grows with them.
CHIP_ROWS = 4
OFFER_HEAD = 46
OFFER_PANEL_H = OFFER_HEAD + 5 * OFFER_H + 4 * 6 + 10
WAY_H, WAY_TILE = 58, 48


def chip_rows(cards: int) -> int:
    """Rows the seat's cards take (one for "none yet"), at most `CHIP_ROWS`."""
    return max(1, min(CHIP_ROWS, (cards + 1) // 2))


def _you_bottom(rows: int) -> int:
    return YOU_TOP + YOU_CHIPS + rows * (CHIP_H + 8) + 6


def private_height(cards: int) -> int:
    """A seat's picture's height when it holds ``cards`` point cards."""
    return _you_bottom(chip_rows(cards)) + 12 + OFFER_PANEL_H + 12


def _private_background(rows: int) -> Image.Image:
    """Static layer of a seat's picture with room for ``rows`` rows of its cards: title bar, the
    seat's (white) panel, the offer panel with five empty card frames. The seat's tinted header
    and the gold outline of "your move" go over it: one background per height, not per seat."""
    return _private_background_in(rows, common.language())


@cached
def _private_background_in(rows: int, lang: str) -> Image.Image:
    image, draw = common.canvas(GAME, _you_bottom(rows) + 12 + OFFER_PANEL_H + 12, WIDTH)
    common.panel(draw, _you_box(rows), fill=PANEL, outline=PANEL_LINE, radius=20, width=3)
    x0, y0, _, _ = offer = _offer_box(rows)
    common.panel(draw, offer, fill=CARDS_PANEL, outline=PANEL_LINE, radius=18, width=3)
    for i in range(5):
        card_frame(draw, (x0 + 10, y0 + OFFER_HEAD + i * (OFFER_H + 6)), OFFER_H)
    return to_palette(image)


YOU_HEAD_H = 68


def _you_header(seat: int) -> Image.Image:
    """The top of the seat's panel in its tint, with its token and "pts" (the name and score go
    on it); its top corners follow the panel's."""
    return _you_header_in(seat, common.language())


@cached
def _you_header_in(seat: int, lang: str) -> Image.Image:
    t = common.words()
    width = WIDTH - 2 * MARGIN - 6
    image, draw = _opaque(width, YOU_HEAD_H, PANEL)
    draw.rounded_rectangle((0, 0, width - 1, YOU_HEAD_H + 20), radius=17, fill=player(seat).light)
    paste_centred(image, seat_token(seat, 24), (35, 35))
    put_text(image, (width - 15, 51), t("pts"), "bold", 28, INK, "rs")
    return to_palette(image)


def _you_box(rows: int) -> tuple[int, int, int, int]:
    return MARGIN, YOU_TOP, WIDTH - MARGIN, _you_bottom(rows)


def _offer_box(rows: int) -> tuple[int, int, int, int]:
    top = _you_bottom(rows) + 12
    return MARGIN, top, WIDTH - MARGIN, top + OFFER_PANEL_H


def render_private(view: dict, names: Sequence[object] | None = None) -> Picture:
    """One seat's picture: its tiles, cards and score; the cards it can take, or its ways to pay."""
    t = common.words()
    seat = int(view["you"])
    players = view.get("players", [])
    if not 0 <= seat < len(players):
        raise RenderError(f"seat {seat} is not at this table")
    me = players[seat]
    yours = seat in (view.get("to_act") or [])
    rows = chip_rows(len(me.get("cards", [])))
    image = _private_background(rows).copy()
    blit(image, _you_header(seat), (MARGIN + 3, YOU_TOP + 3))
    if yours:  # a thick gold outline over the panel's thin one
        ImageDraw.Draw(image).rounded_rectangle(_you_box(rows), radius=20, outline=ink(image, GOLD), width=6)
    _title(image, t("Your move") if yours else title_words(view))
    _draw_you(image, view, me, seat, names)
    payments = view.get("payments")
    pending = view.get("pending") or {}
    if payments and pending.get("card"):
        _draw_payments(image, _offer_box(rows), pending["card"], payments, _tile_keys(view))
    else:
        _draw_offer(image, _offer_box(rows), view)
    return picture(image, private_alt(view, names), f"jeju-seat-{player(seat).letter}.png", palette=PALETTE)


def _draw_you(image: Image.Image, view: dict, me: dict, seat: int, names: Sequence[object] | None) -> None:
    """The seat's panel: name and score, its tiles, how the score splits, its cards."""
    t = common.words()
    x0, y0, x1 = MARGIN, YOU_TOP, WIDTH - MARGIN
    back = PANEL
    pts_w = common.text_mask(t("pts"), "bold", 28, "rs")[3]
    head = player(seat).light  # the name and score lie on the seat's tinted header
    score = str(me.get("score", 0))
    score_w = put_text(image, (x1 - 24 - pts_w, y0 + 54), score, "bold", 56, INK, "rs", head)
    name_box = (x0 + 72, y0 + 12, x1 - 36 - pts_w - score_w, y0 + 64)
    put_fitted(image, name_box, drawn_name(seat, names), "bold", 32, ground=head)
    tiles = me.get("tiles", {})
    everlasting = set(me.get("everlasting", []))
    for i, key in enumerate(_tile_keys(view)):
        sprite = _big_tile(key, int(tiles.get(key, 0)), key in everlasting, back)
        blit(image, sprite, (x0 + 20 + i * YOU_STEP, y0 + 72))
    y = y0 + YOU_LINES
    per = leftover_tiles_per_point()
    card_points, tile_points = int(me.get("card_points", 0)), int(me.get("tile_points", 0))
    for line in _score_lines(card_points, tile_points, per, _joker(view), common.language()):
        put_words(image, (x0 + 20, y, x1 - 20, y + 32), line, "regular", SMALL, INK, "left", back)
        y += 32
    cards = me.get("cards", [])
    heading = (x0 + 20, y0 + YOU_CHIPS - 40, x1 - 20, y0 + YOU_CHIPS - 4)
    put_words(image, heading, t("Your cards ({count})", count=len(cards)), "bold", 28, INK, "left", back)
    _draw_chips(image, cards, (x0 + 20, y0 + YOU_CHIPS), back)


@cached
@_latin
def _big_tile(key: str, count: int, everlasting: bool, back: tuple) -> Image.Image:
    """One of the seat's tile types, big, its count under it (faded when none), opaque on ``back``."""
    image, _ = _opaque(YOU_STEP - 4, YOU_TILE + 52, back)
    sprite = tile_image(key, YOU_TILE) if count else _faded(key, YOU_TILE)
    image.paste(sprite, (0, 8), sprite)
    put_text(image, (YOU_TILE / 2, YOU_TILE + 30), f"×{count}", "bold", 34, INK if count else MUTED, "mm")
    if everlasting:
        _everlasting_badge(image, (YOU_TILE - 4, 15))
    return to_palette(image)


@lru_cache(maxsize=256)
def _score_lines(card_points: int, tile_points: int, per: int, joker: str, lang: str) -> list[str]:
    """How the score splits, then the leftover tile rule (``per`` from data/jeju/tiles.json), in ``lang``."""
    t = common.words()
    return [
        t.plural(
            "Cards {card_points} pts + leftover tiles {count} pt",
            "Cards {card_points} pts + leftover tiles {count} pts",
            tile_points,
            card_points=card_points,
        ),
        t("({per} leftover tiles = 1 pt, {tile} tiles score 0)", per=per, tile=tile_name(joker)),
    ]


def _draw_chips(image: Image.Image, cards: list, origin: tuple[int, int], back: tuple) -> None:
    """The seat's cards, two a row; past `CHIP_ROWS` rows the last place says how many more."""
    t = common.words()
    x0, y0 = origin
    slots = 2 * CHIP_ROWS
    shown = cards if len(cards) <= slots else cards[: slots - 1]
    for i, card in enumerate(shown):
        xy = (x0 + (i % 2) * (CHIP_W + 12), y0 + (i // 2) * (CHIP_H + 8))
        blit(image, card_chip(_card_key(card), back), xy)
    if len(shown) < len(cards):
        i = len(shown)
        x, y = x0 + (i % 2) * (CHIP_W + 12), y0 + (i // 2) * (CHIP_H + 8)
        more = t("+{count} more", count=len(cards) - len(shown))
        put_fitted(image, (x + 16, y, x + CHIP_W, y + CHIP_H), more, "bold", 28, MUTED, ground=back)
    if not cards:
        put_text(image, (x0, y0 + 24), t("none yet"), "regular", SMALL, MUTED, "lm", back)


def _draw_offer(image: Image.Image, box: tuple[int, int, int, int], view: dict) -> None:
    """The face-up cards, those the seat can take now badged."""
    t = common.words()
    x0, y0, x1, _ = box
    mid = y0 + OFFER_HEAD / 2 + 2
    heading = (x0 + 14, mid - 20, x0 + 290, mid + 20)
    put_fitted(image, heading, t("Point cards on offer"), "bold", 28, ground=CARDS_PANEL)
    deck = t("deck {count}", count=view.get("deck_size", 0))
    put_words(image, (x0 + 300, mid - 20, x1 - 14, mid + 20), deck, fill=MUTED, ground=CARDS_PANEL)
    affordable = set(view.get("affordable") or [])
    display = view.get("display", [])[:5]
    for i, card in enumerate(display):
        mark = t("✓ can take") if card.get("id") in affordable else ""
        draw_card(image, (x0 + 10, y0 + OFFER_HEAD + i * (OFFER_H + 6)), card, OFFER_H, mark)
    if len(display) < 5:  # the last cards are gone: no empty frames
        _clear(
            image, (x0 + 8, y0 + OFFER_HEAD + len(display) * (OFFER_H + 6), x1 - 8, box[3] - 6), CARDS_PANEL
        )


@cached
@_latin
def payment_way(number: int, tiles: tuple[str, ...]) -> Image.Image:
    """One way to pay, opaque: its number and the tiles it gives up."""
    width = (CARD_W - 12) // 2
    image, _ = _opaque(width, WAY_H, CARDS_PANEL)
    put_text(image, (4, WAY_H / 2), f"{number}.", "bold", 30, INK, "lm")
    x = 62  # room for "10."
    for key in tiles:
        if x + WAY_TILE > width:
            break
        paste_centred(image, tile_image(key, WAY_TILE), (x + WAY_TILE / 2, WAY_H / 2))
        x += WAY_TILE + 4
    return to_palette(image)


def _draw_payments(
    image: Image.Image, box: tuple[int, int, int, int], card: dict, payments: list, keys: Sequence[str]
) -> None:
    """The card being paid for and every way to pay, numbered, two columns; "+N more" past them."""
    t = common.words()
    x0, y0, x1, y1 = box
    mid = y0 + OFFER_HEAD / 2 + 2
    heading = (x0 + 14, mid - 20, x1 - 14, mid + 20)
    put_fitted(image, heading, t("Choose how to pay for"), "bold", 28, ground=CARDS_PANEL)
    draw_card(image, (x0 + 10, y0 + OFFER_HEAD), card, OFFER_H)
    top = y0 + OFFER_HEAD + OFFER_H + 10
    _clear(image, (x0 + 8, top - 6, x1 - 8, y1 - 6), CARDS_PANEL)  # the other four card frames
    rows = (y1 - 10 - top) // WAY_H
    slots = 2 * rows
    shown = payments if len(payments) <= slots else payments[: slots - 2]
    for i, payment in enumerate(shown):
        tiles = tuple(key for key in keys for _ in range(int(payment.get(key, 0))))
        x = x0 + 10 + (i // rows) * ((CARD_W - 12) // 2 + 12)
        blit(image, payment_way(i + 1, tiles), (x, top + (i % rows) * WAY_H))
    if len(shown) < len(payments):
        x = x0 + 10 + ((CARD_W - 12) // 2 + 12)
        y = top + (rows - 1) * WAY_H + WAY_H / 2
        more = t("+{count} more ways", count=len(payments) - len(shown))
        more_box = (x + 4, y - WAY_H / 2, x1 - 10, y + WAY_H / 2)
        put_fitted(image, more_box, more, "bold", 28, MUTED, ground=CARDS_PANEL)


def private_alt(view: dict, names: Sequence[object] | None) -> list[str]:
    t = common.words()
    seat = int(view["you"])
    me = view["players"][seat]
    tiles = ", ".join(f"{tile_name(k)} {v}" for k, v in me.get("tiles", {}).items() if v) or t("none")
    parts = [
        t(
            "Your Jeju Island picture, {who}. {status}.",
            who=_who(seat, names),
            status=status_text(view, names),
        ),
        t.plural(
            "Score {score}: {count} point from cards, {tile_points} from leftover tiles.",
            "Score {score}: {count} points from cards, {tile_points} from leftover tiles.",
            int(me.get("card_points", 0)),
            score=me.get("score", 0),
            tile_points=int(me.get("tile_points", 0)),
        ),
        t("Your tiles: {tiles}.", tiles=tiles),
    ]
    if me.get("everlasting"):
        parts.append(t("Everlasting: {tiles}.", tiles=", ".join(tile_name(k) for k in me["everlasting"])))
    parts.append(t("Your cards: {count}.", count=len(me.get("cards", []))))
    payments = view.get("payments")
    if payments and (view.get("pending") or {}).get("card"):
        ways = [
            " + ".join(t("{count} {tile}", count=v, tile=tile_name(k)) for k, v in p.items() if v)
            for p in payments
        ]
        parts.append(
            t("Pay for {card}: {ways}.", card=card_words(view["pending"]["card"]), ways=t("; or ").join(ways))
        )
    else:
        affordable = set(view.get("affordable") or [])
        offer = [
            t("{card} (you can take it)", card=card_words(c)) if c.get("id") in affordable else card_words(c)
            for c in view.get("display", [])
        ]
        parts.append(t("On offer: {cards}.", cards="; ".join(offer)))
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


__all__ = ["board_height", "render", "render_board", "render_private", "tile_image"]
