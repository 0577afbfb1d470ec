"""Haenyeo: Sea Divers of Jeju pictures: the public board and a seat's own picture, from
`engine.haenyeo.view` views (its module docstring is the view shape).

Both are laid out for a phone (Discord shows a picture about 400 px wide there):
800 px wide, portrait, one column, every text at least `common.min_size` px.

Public board (800 px wide, 1.3–2x as tall, see `board_layout`), top to bottom:
where the round stands (the round track with the scoring rounds starred, the
first player, who still chooses or who is asked what, in the largest type);
the players' table (one row per seat: seafood counts under their icons, turtle
eggs unused and used, trash types = points, pearls = points, and the score,
biggest of all); the sea, one row per zone from the surface (0) to the pearl
zone (11), the shallow (1–4) and deep (5–10) parts in their own colours and
named on a band, each zone's slots with the items of this round's sea cards
(a harvested slot is netted and carries its taker's token), then the divers
(the seat's token) and creatures (a fish in the owner's colour with the owner's
letter) placed there; after the reveal a rope runs from the surface through
every connected zone and a cut-off zone gets a red ✗. Under the sea the icon
legend, then the score tile: each scoring round's rules as icon chips (the
next scoring round ringed in gold) and the trash points.

A seat's picture (800x1440): what the seat is asked now (or where the round
stands), its 12 diving cards in two rows (the selected ones raised, ringed and
ticked), then its sheet: the score, the five seafood tracks space by space, the
turtle-egg circles (drawn, crossed out), the pearl track with its points and
bonuses, the ten trash types, the round scores and the rules of the next
scoring round.

Speed: drawing text, not pasting it, was most of a picture's cost, and most of a
picture repeats the previous one. So the static layers (`_board_background`,
`_private_background`) are drawn once, every line of text once (`put_text`, a
ready block when its ground is known), and the parts that change by the move —
the title bar with the status panel, each players' table row, each sea row, the
cards panel — once per content; a picture is a copy of its layer with those
blocks pasted on. The board is composed in the game's palette (its layer and
blocks are mapped to it once, `to_palette`), so its PNG is saved without mapping
every pixel again; so is the seat's picture, its marks drawn in palette entries. A
block that changes is itself composed in the palette, not drawn in RGB and mapped
whole (issue #17): on the static layer's palette pixels, with its flat marks in
palette entries, its words as mapped text blocks (a table row's on the row's RGB
frame, `common.Layer`), its slots mapped once, and its tokens, fish and cards laid
on their flat ground by `common.Blocks` (composed, mapped once, pasted through their
ink). Every cache is a bounded LRU (a few tens of MB when all full).

The public picture is drawn from the public view only; a spectator's view gets
the board. Every number printed comes from the view (the score tile's rule
numbers are read from the view's rule texts).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from i18n import N_
from renderers import common
from renderers.common import (
    BG,
    HIGHLIGHT,
    INK,
    MUTED,
    PANEL_LINE,
    TITLE_H,
    WHITE,
    Picture,
    RenderError,
    canvas,
    drawn_name,
    fit,
    fixed_palette,
    font,
    ink_on,
    min_size,
    panel,
    paste_centred,
    picture,
    player,
    seat_label,
    shape,
    text_in_box,
    text_mask,
    text_width,
    title_bar_right,
    title_text,
)
from renderers.haenyeo_sprites import (
    CROSS,
    ITEM_COLOURS,
    NPC_COLOUR,
    SEAFOOD_SHORT,
    TRASH_SHORT,
    creature_image,
    diver_image,
    item_image,
    net_image,
    owner_letter,
)
from renderers.memo import cached

GAME = "haenyeo"
#: Drawn 800 px wide (the house default): shown 400 px wide on a phone, every size halves.
WIDTH = 800
#: The smallest type on these pictures: digits 9 px tall on a phone (24 px at 800).
SMALL = min_size(WIDTH, "regular")
SMALL_BOLD = min_size(WIDTH, "bold")
#: The seat's picture's height (the board's depends on the seat count: `board_layout`).
PRIVATE_H = 1440
GOLD = (191, 144, 0)
RED = CROSS
ROPE = (150, 100, 50)
SEA_BLUE = (14, 58, 98)
PALE_GOLD = (250, 236, 170)
TILE_FILL = (255, 250, 236)
CARDS_FILL = (236, 244, 248)
SHEET_FILL = (255, 252, 244)
MINE_FILL = (210, 206, 196)
TAKEN_FILL = (236, 240, 240)
PAST_FILL = (200, 206, 214)
TICK_GREEN = (30, 130, 50)
BONUS_BROWN = (120, 60, 0)

#: Zone part colours (row backgrounds and diving cards), light to dark with depth.
PART_COLOURS: dict[str, tuple[int, int, int]] = {
    "surface": (214, 236, 246),
    "shallow": (170, 222, 228),
    "deep": (110, 166, 210),
    "pearl": (44, 74, 130),
}
#: The part bands beside the rows: the part colour, darker.
BAND_COLOURS = {part: tuple(max(0, c - 60) for c in colour) for part, colour in PART_COLOURS.items()}
#: The parts' names on their bands (a band of four 50 px rows holds about 190 px of bold type).
#: Every word list below is English, marked for the catalog: draw ``t(word)`` (``t = common.words()``).
PART_NAMES = {
    "surface": N_("Surface"),
    "shallow": N_("Shallow"),
    "deep": N_("Deep sea"),
    "pearl": N_("Pearls"),
}
SEAFOOD = ("conch", "abalone", "mustard", "urchin", "octopus")
ITEM_WORDS = {
    "conch": N_("conch"),
    "abalone": N_("abalone"),
    "mustard": N_("sea mustard"),
    "urchin": N_("sea urchin"),
    "octopus": N_("octopus"),
    "egg": N_("turtle egg"),
}
#: The creatures' names (as in data/haenyeo/components.json), for the alt text.
CREATURE_NAMES = {
    "crab": N_("crab"),
    "turtle": N_("sea turtle"),
    "starfish": N_("starfish"),
    "dolphin": N_("dolphin"),
    "seahorse": N_("seahorse"),
    "ray": N_("manta ray"),
    "squid": N_("squid"),
    "seal": N_("seal"),
    "whaleshark": N_("whale shark"),
    "whale": N_("whale"),
}
#: Short forms of the Scoring Reference rules; ``{0}``, ``{1}`` are the rule text's own numbers
#: (see `rule_numbers`), so the numbers stay those of data/; the view's full text is the fallback.
RULE_SHORT = {
    "conch_each": N_("Conch: {0} pts each"),
    "abalone_urchin_sets": N_("Abalone + urchin sets: {0} each"),
    "mustard_times_abalone": N_("Sea mustard × abalone"),
    "most_urchin": N_("Most urchins: {0}"),
    "fewest_conch_mustard_sets": N_("Fewest conch + mustard sets: {0}"),
    "fewest_octopus": N_("Fewest octopus: {0}"),
    "four_kind_sets": N_("4-kind sets: {1}"),
    "conch_ladder": N_("Conch {0}: {1}"),
}
#: The same rules as chips for the board's score tile: "@item" is that item's icon (named in the
#: legend), anything else words; numbers as in RULE_SHORT. Icons keep a rule short on a phone.
RULE_CHIPS: dict[str, tuple[str, ...]] = {
    "conch_each": ("@conch", N_("{0} each")),
    "abalone_urchin_sets": ("@abalone", "+", "@urchin", N_("sets: {0} each")),
    "mustard_times_abalone": ("@mustard", "×", "@abalone"),
    "most_urchin": (N_("Most"), "@urchin", "= {0}"),
    "fewest_conch_mustard_sets": (N_("Fewest"), "@conch", "+", "@mustard", N_("sets = {0}")),
    "fewest_octopus": (N_("Fewest"), "@octopus", "= {0}"),
    "four_kind_sets": ("@mustard", "@conch", "@abalone", "@octopus", N_("sets: {1}")),
    "conch_ladder": ("@conch", "{0} = {1}"),
}
#: Who is asked what: "{name} to pick a slot" (the status line, the board's alt text).
ASKS = {
    "zone0": N_("{name} to use turtle eggs"),
    "harvest": N_("{name} to pick a slot"),
    "trash_bonus": N_("{name} to pick a trash bonus"),
    "seafood_bonus": N_("{name} to pick seafood"),
}
ASK_ANY = N_("{name} to choose")
#: The same decisions said to the seat asked ("Your move in zone 4: pick a slot").
YOUR_ASKS = {
    "zone0": N_("use turtle eggs"),
    "harvest": N_("pick a slot"),
    "trash_bonus": N_("pick a trash bonus"),
    "seafood_bonus": N_("pick seafood"),
}
YOUR_ASK_ANY = N_("choose")
#: The decisions in English words ("to pick a slot"), as the board's alt text says them.
DECISIONS = {key: words.removeprefix("{name} ") for key, words in ASKS.items()}
#: The icon legend under the sea: (item sprite, its name), left to right.
LEGEND = (
    ("conch", N_("conch")),
    ("abalone", N_("abalone")),
    ("mustard", N_("sea mustard")),
    ("urchin", N_("sea urchin")),
    ("octopus", N_("octopus")),
    ("egg", N_("turtle egg")),
    ("egg_used", N_("used egg")),
    ("trash", N_("trash")),
    ("pearl", N_("pearl")),
)

#: Every colour the two pictures paint with (sprites included), for the fixed palette.
COLOURS: tuple[tuple[int, int, int], ...] = (
    *PART_COLOURS.values(),
    *BAND_COLOURS.values(),  # type: ignore[arg-type]
    *ITEM_COLOURS.values(),
    GOLD,
    RED,
    ROPE,
    SEA_BLUE,
    PALE_GOLD,
    TILE_FILL,
    CARDS_FILL,
    SHEET_FILL,
    MINE_FILL,
    TAKEN_FILL,
    PAST_FILL,
    TICK_GREEN,
    BONUS_BROWN,
    NPC_COLOUR,
    (30, 80, 30),  # sea mustard's stems
    (120, 170, 90),  # turtle eggs' spots
    (58, 62, 70),  # the net over a harvested slot, on white
)


#: The grounds those colours are anti-aliased against, beyond the house surfaces and the
#: seats' tints (text and sprites on the sea's rows, the sheet, the cards, the score tile).
GROUNDS: tuple[tuple[int, int, int], ...] = (
    *PART_COLOURS.values(),
    SHEET_FILL,
    CARDS_FILL,
    TILE_FILL,
    MINE_FILL,
    HIGHLIGHT,
)


@cached
def palette() -> Image.Image:
    """The fixed palette every Haenyeo picture is encoded with (built once): `COLOURS`, the title
    bar's and the five seats' colours exact, their blends towards `GROUNDS` filling the rest."""
    return fixed_palette((title_text(GAME).colour, *COLOURS), grounds=GROUNDS, seats=5)


def to_palette(image: Image.Image) -> Image.Image:
    """``image`` mapped to the game's palette, as `common.encode_png` would map it: a block kept
    this way is mapped once, and a picture made of such blocks is saved without mapping again."""
    return image.quantize(palette=palette(), dither=Image.Dither.NONE)


@lru_cache(maxsize=64)
def palette_index(colour: tuple[int, int, int]) -> int:
    """The palette entry of one of the flat colours (they are in it exactly)."""
    entries = palette().getpalette() or []
    return next(i // 3 for i in range(0, len(entries), 3) if tuple(entries[i : i + 3]) == colour)


def ink(image: Image.Image, colour: tuple[int, int, int]) -> tuple[int, int, int] | int:
    """A flat colour to draw with on ``image``: itself, or its palette entry on a palette picture."""
    return palette_index(colour) if image.mode == "P" else colour


#: Sprites (tokens, fish, cards) composed on their flat ground and mapped to the palette once,
#: remembered, pasted through the mask of their inked pixels (`common.Blocks`).
_BLOCKS = common.Blocks(palette())


# --------------------------------------------------------------------------- text, drawn once


@cached
def _text_block(
    text: str, kind: str, size: int, anchor: str, fill: tuple, ground: tuple
) -> tuple[Image.Image, int, int, float]:
    """A line of text already laid on a flat ``ground`` colour: pasted without a mask (fastest)."""
    mask, dx, dy, advance = text_mask(text, kind, size, anchor)
    block = Image.new("RGB", mask.size, ground)
    block.paste(fill, (0, 0, *mask.size), mask)
    return block, dx, dy, advance


@cached
def _palette_block(text: str, kind: str, size: int, anchor: str, fill: tuple, ground: tuple) -> tuple:
    """`_text_block` mapped to the game's palette, for a picture composed in it: its pixels (Pillow's
    core image), its offset from the anchor, its advance and its size."""
    block, dx, dy, advance = _text_block(text, kind, size, anchor, fill, ground)
    return to_palette(block).im, dx, dy, advance, block.width, block.height


def put_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    kind: str = "regular",
    size: int = SMALL,
    fill: Sequence[int] = INK,
    anchor: str = "la",
    ground: Sequence[int] | common.Layer | None = None,
) -> float:
    """`common.draw_text` from a cached mask: draw one line at ``xy`` (Pillow's ``anchor``); its width.

    With ``ground`` (the flat colour under the whole line) the line is pasted as a ready block. On a
    palette picture ``ground`` may instead be the RGB `common.Layer` under it (the line may reach
    past a flat colour): the line is composed on it, mapped once and pasted through its ink."""
    if isinstance(ground, common.Layer):
        return _put_on_layer(image, xy, text, common.face(kind), size, tuple(fill), anchor, ground)
    if ground is not None:
        kind = common.face(kind)  # the cached blocks are keyed by the face the language draws with
        if image.mode == "P":  # a picture in the game's palette takes the block mapped to it
            block, dx, dy, advance, w, h = _palette_block(
                text, kind, size, anchor, tuple(fill), tuple(ground)
            )
            x, y = round(xy[0]) + dx, round(xy[1]) + dy
            # straight on Pillow's core image, as `common.paste_block` (the picture is ours, loaded)
            image.im.paste(block, (x, y, x + w, y + h))
            return advance
        block, dx, dy, advance = _text_block(text, kind, size, anchor, tuple(fill), tuple(ground))
        image.paste(block, (round(xy[0]) + dx, round(xy[1]) + dy))
        return advance
    if image.mode == "P":
        raise RenderError("text on a palette picture needs its ground")
    return common.put_text(image, xy, text, kind, size, fill, anchor)


#: Lines composed on a layer at their place, mapped: by layer, place and line; the oldest go first.
_LAYER_LINES: dict[tuple, tuple] = {}


def _put_on_layer(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    kind: str,
    size: int,
    fill: tuple,
    anchor: str,
    layer: common.Layer,
) -> float:
    """`put_text` on a palette picture whose RGB layer under the line is ``layer``."""
    mask, dx, dy, advance = text_mask(text, kind, size, anchor)
    x, y = round(xy[0]) + dx, round(xy[1]) + dy
    key = (layer.key, x, y, text, kind, size, anchor, fill)
    found = _LAYER_LINES.get(key)
    if found is None:
        box = (x, y, x + mask.width, y + mask.height)
        under = layer.image.crop(box)
        under.paste(fill, (0, 0, *mask.size), mask)
        found = to_palette(under).im, common.shown(mask)
        if len(_LAYER_LINES) >= 2048:
            del _LAYER_LINES[next(iter(_LAYER_LINES))]
        _LAYER_LINES[key] = found
    image.im.paste(found[0], (x, y, x + mask.width, y + mask.height), found[1])
    return advance


def put_box(
    image: Image.Image,
    box: tuple[float, float, float, float],
    text: str,
    kind: str = "regular",
    largest: int = 32,
    smallest: int = SMALL,
    fill: Sequence[int] = INK,
    align: str = "center",
    pad: float = 8,
    ground: Sequence[int] | common.Layer | None = None,
) -> int:
    """`common.text_in_box` from cached masks: one line as big as fits in ``box``
    (on ``ground``, see `put_text`); returns the size."""
    x0, y0, x1, y1 = box
    largest = min(largest, int((y1 - y0) * 0.8))
    line, size = fit(text, kind, x1 - x0 - 2 * pad, largest, min(smallest, largest))
    y = (y0 + y1) / 2
    if align == "left":
        put_text(image, (x0 + pad, y), line, kind, size, fill, "lm", ground)
    elif align == "right":
        put_text(image, (x1 - pad, y), line, kind, size, fill, "rm", ground)
    else:
        put_text(image, ((x0 + x1) / 2, y), line, kind, size, fill, "mm", ground)
    return size


# --------------------------------------------------------------------------- words


def _score_words(view: dict, me: dict) -> str:
    t = common.words()
    seat = int(me.get("seat", 0))
    if isinstance(view.get("result"), dict):
        return t("Final score {score}", score=_score(view, seat, me))
    return t("Score so far {score}", score=me.get("score_so_far", 0))


def _score(view: dict, seat: int, p: dict) -> int:
    """The final score once the game is over (bonuses included), else the rounds scored so far."""
    result = view.get("result")
    if isinstance(result, dict):
        scores = result.get("scores") or []
        if 0 <= seat < len(scores):
            return int(scores[seat])
    return int(p.get("score_so_far", 0))


def _alt_letter(owner: int | str | None) -> str:
    t = common.words()
    return t("NPC") if owner == "npc" else owner_letter(owner) if owner is not None else "?"


def _who(owner: int | str, names: Sequence[object] | None) -> str:
    t = common.words()
    return t("the NPC") if owner == "npc" else seat_label(int(owner), names)


def _short(owner: int | str, names: Sequence[object] | None) -> str:
    t = common.words()
    return t("NPC") if owner == "npc" else drawn_name(int(owner), names)


def item_word(item: str) -> str:
    """An item in words: "sea urchin", "trash (bottle)"."""
    t = common.words()
    if item.startswith("trash:"):
        return t("trash ({kind})", kind=t(TRASH_SHORT.get(item[6:], item[6:])))
    return t(ITEM_WORDS[item]) if item in ITEM_WORDS else item


def _ask(decision: object, name: str) -> str:
    """ "Seat B to pick a slot": who is asked what."""
    t = common.words()
    return t(ASKS.get(str(decision), ASK_ANY), name=name)


def _your_ask(decision: object) -> str:
    """ "pick a slot": what the seat asked must do."""
    t = common.words()
    return t(YOUR_ASKS.get(str(decision), YOUR_ASK_ANY))


_NUMBERS = re.compile(r"\d+(?:/\d+)*\+?")


def rule_numbers(rule: dict) -> list[str]:
    """The numbers of a rule's text in order, ladders whole: "Conch sets: 2/4/6/8+ conches =
    5/10/15/25" gives ["2/4/6/8+", "5/10/15/25"] (they come from data/ through the view)."""
    return _NUMBERS.findall(str(rule.get("text", "")))


def _filled(template: str, numbers: list[str]) -> str | None:
    """``template`` with its ``{n}`` replaced by the rule's numbers; None when a number is missing."""
    try:
        return template.format(*numbers)
    except (IndexError, KeyError, ValueError):
        return None


def rule_text(rule: dict) -> str:
    """A scoring rule in a few words ("Most urchins: 15"), else the view's own text."""
    t = common.words()
    full = t(str(rule.get("text", rule.get("key", ""))))
    template = RULE_SHORT.get(str(rule.get("key")))
    return (_filled(t(template), rule_numbers(rule)) if template else None) or full


def trash_points(view: dict, types: int) -> int:
    """What ``types`` different trash types score on this score tile."""
    table = (view.get("score_tile") or {}).get("trash") or [0]
    return int(table[min(types, len(table) - 1)])


def status_text(view: dict, names: Sequence[object] | None) -> str:
    """Where the round stands, in one line: "Round 5 of 8: choosing diving cards"."""
    t = common.words()
    phase = view.get("phase")
    round_no, rounds = view.get("round", 1), view.get("rounds", 8)
    if phase == "end":
        return t("Game over")
    if phase == "select":
        return t("Round {round} of {rounds}: choosing diving cards", round=round_no, rounds=rounds)
    current = view.get("current") or {}
    waiting = current.get("waiting_for")
    zone = current.get("zone", 0)
    if waiting:
        ask = _ask(waiting.get("decision"), _short(waiting["seat"], names))
        return t(
            "Round {round} of {rounds}: zone {zone}, {ask}", round=round_no, rounds=rounds, zone=zone, ask=ask
        )
    return t("Round {round} of {rounds}: zone {zone} acts", round=round_no, rounds=rounds, zone=zone)


def short_status(view: dict) -> str:
    """The title bar's few words: "Round 5/8 · choosing cards", "Round 5/8 · zone 4"."""
    t = common.words()
    phase = view.get("phase")
    if phase == "end":
        return t("Game over")
    round_no, rounds = view.get("round", 1), view.get("rounds", 8)
    if phase == "select":
        return t("Round {round}/{rounds} · choosing cards", round=round_no, rounds=rounds)
    zone = (view.get("current") or {}).get("zone", 0)
    return t("Round {round}/{rounds} · zone {zone}", round=round_no, rounds=rounds, zone=zone)


def _connection_words(reach: int) -> str:
    """The connection in a sentence's words: "Connected: zones 0–6, 7+ cut off"."""
    t = common.words()
    if reach >= 11:
        return t("All zones connected")
    if reach <= 0:
        return t("Only zone 0 connected, 1+ cut off")
    return t("Connected: zones 0–{reach}, {next}+ cut off", reach=reach, next=reach + 1)


def _rope_words(reach: int) -> str:
    """The rope in the few words that fit beside the surface: "rope to 6 · 7+ cut off"."""
    t = common.words()
    if reach >= 11:
        return t("rope to 11: all connected")
    if reach <= 0:
        return t("no rope · 1+ cut off")
    return t("rope to {reach} · {next}+ cut off", reach=reach, next=reach + 1)


def _next_scoring(view: dict) -> tuple[int, list] | None:
    """The next scoring round (this one included) and its rules; None once the game is over."""
    if view.get("phase") == "end":
        return None
    current = int(view.get("round", 1))
    rounds = (view.get("score_tile") or {}).get("rounds") or {}
    for r in sorted(int(k) for k in rounds):
        if r >= current:
            return r, list(rounds[str(r)])
    return None


# --------------------------------------------------------------------------- board geometry

MARGIN = 16
RIGHT = WIDTH - MARGIN
STATUS_TOP = TITLE_H + 8
STATUS_H = 96
TABLE_HEAD_H, TABLE_ROW_H = 38, 46
ROW_H = 50
LEGEND_ROW_H = 38
SEA_X0, SEA_X1 = MARGIN, RIGHT
BAND_X1 = 48
BADGE_X = 68
ROPE_X = 103
SLOT_X0, SLOT_W, SLOT_GAP = 122, 100, 6
MARK_X0 = SLOT_X0 + 4 * SLOT_W + 3 * SLOT_GAP + 10
#: The players' table: (column key, centre x); the name runs from NAME_X0 to NAME_X1.
NAME_X0, NAME_X1 = 72, 232
SEAFOOD_X = tuple(261 + 42 * k for k in range(5))
EGG_X, USED_X, TRASH_X, PEARL_X, SCORE_X = 474, 516, 578, 658, 740
TILE_BADGE_X0, CHIP_X0, CHIP_X1 = 28, 94, RIGHT - 12
CHIP_H, CHIP_ROW, CHIP_ICON = 36, 42, 28
ROUND_STEP = 42
ROUND_X0 = 38
DIVER_R = 18  # a diver token's radius: its letter (24 px) still fits
CREATURE_H = 34


@dataclass(frozen=True)
class BoardLayout:
    """Where the board's blocks start (y, px); they depend on the seats, the NPC and the tile."""

    table_top: int
    sea_top: int
    legend_top: int
    legend_h: int
    tile_top: int
    tile_h: int
    height: int

    def row_y(self, zone: int) -> int:
        """The top of zone ``zone``'s row in the sea."""
        return self.sea_top + zone * ROW_H


def board_layout(seats: int, npc: bool, tile: tuple, lang: str | None = None) -> BoardLayout:
    """The board's vertical layout for ``seats`` players (an NPC adds a legend entry), in ``lang``
    (the picture's language by default: its words' widths flow the legend and the tile)."""
    return _board_layout(seats, npc, tile, lang or common.language())


@lru_cache(maxsize=32)
def _board_layout(seats: int, npc: bool, tile: tuple, lang: str) -> BoardLayout:
    with common.speaking(lang):
        return _layout(seats, npc, tile, lang)


def _layout(seats: int, npc: bool, tile: tuple, lang: str) -> BoardLayout:
    table_top = STATUS_TOP + STATUS_H + 8
    sea_top = table_top + TABLE_HEAD_H + TABLE_ROW_H * max(1, seats) + 10
    legend_top = sea_top + 12 * ROW_H + 8
    legend_h = LEGEND_ROW_H * len(_legend_rows(npc, lang)) + 6
    tile_top = legend_top + legend_h + 6
    tile_h = _tile_layout(tile, lang)[0]
    return BoardLayout(table_top, sea_top, legend_top, legend_h, tile_top, tile_h, tile_top + tile_h + 14)


def _part(zone: int) -> str:
    return "surface" if zone == 0 else "shallow" if zone <= 4 else "deep" if zone <= 10 else "pearl"


def _round_centre(r: int) -> tuple[float, float]:
    return ROUND_X0 + ROUND_STEP * (r - 1), STATUS_TOP + 26


def _tile_key(view: dict) -> tuple:
    """What the score tile drawing depends on: its name, (round, ((key, text), ...)), trash points."""
    tile = view.get("score_tile") or {}
    rounds = tuple(
        (str(r), tuple((str(rule.get("key")), str(rule.get("text", ""))) for rule in rules))
        for r, rules in sorted((tile.get("rounds") or {}).items(), key=lambda kv: int(kv[0]))
    )
    return str(tile.get("name", "?")), rounds, tuple(int(p) for p in tile.get("trash") or ())


# --------------------------------------------------------------------------- legend and tile layout


def _legend_entries(npc: bool) -> list[tuple[str, str]]:
    """The legend: every item icon with its name, then the pieces (and the NPC's, with one), in words
    of the picture's language."""
    t = common.words()
    entries = [
        *LEGEND,
        ("diver", N_("Haenyeo")),
        ("creature", N_("creature")),
        *([("npc", N_("NPC"))] if npc else []),
    ]
    return [(key, t(word)) for key, word in entries]


def _legend_icon_w(key: str) -> int:
    return int(CREATURE_H * 1.5) if key == "creature" else 34


@lru_cache(maxsize=4)
def _legend_rows(npc: bool, lang: str) -> tuple[tuple[tuple[str, str, float], ...], ...]:
    """The legend entries flowed into lines: ((key, word, x), ...) per line (``lang``: the
    picture's language, the cache's key)."""
    rows: list[list[tuple[str, str, float]]] = [[]]
    x = MARGIN + 6
    for key, word in _legend_entries(npc):
        width = _legend_icon_w(key) + 6 + text_width(word, "regular", SMALL)
        if rows[-1] and x + width > RIGHT - 4:
            rows.append([])
            x = MARGIN + 6
        rows[-1].append((key, word, x))
        x += width + 18
    return tuple(tuple(row) for row in rows)


def _chip_segments(key: str, text: str) -> tuple[tuple[str, str], ...]:
    """A rule as chip segments: ("icon", item) and ("text", words); its short words if unknown."""
    t = common.words()
    rule = {"key": key, "text": text}
    numbers = rule_numbers(rule)
    spec = RULE_CHIPS.get(key)
    segments: list[tuple[str, str]] = []
    for part in spec or ():
        if part.startswith("@"):
            segments.append(("icon", part[1:]))
            continue
        filled = _filled(t(part) if any(c.isalpha() for c in part) else part, numbers)
        if filled is None:
            return (("text", rule_text(rule)),)
        segments.append(("text", filled))
    return tuple(segments) or (("text", rule_text(rule)),)


def _segment_w(segment: tuple[str, str]) -> float:
    kind, value = segment
    return CHIP_ICON if kind == "icon" else text_width(value, "regular", SMALL)


def _chip_w(segments: tuple[tuple[str, str], ...]) -> float:
    return 20 + sum(_segment_w(s) for s in segments) + 5 * (len(segments) - 1)


@lru_cache(maxsize=16)
def _tile_layout(tile: tuple, lang: str) -> tuple[int, tuple]:
    """The score tile's height and its rounds: ((round, top, bottom, ((x, y, segments), ...)), ...),
    in ``lang`` (the picture's language, the cache's key)."""
    _, rounds, _ = tile
    y = 90  # under the tile's name and the trash line (relative to the tile's top)
    placed = []
    for r, rules in rounds:
        top = y
        x = CHIP_X0
        chips = []
        for key, text in rules:
            segments = _chip_segments(key, text)
            width = min(_chip_w(segments), CHIP_X1 - CHIP_X0)
            if x > CHIP_X0 and x + width > CHIP_X1:
                x, y = CHIP_X0, y + CHIP_ROW
            chips.append((x, y, width, segments))
            x += width + 8
        y += CHIP_ROW
        placed.append((r, top - 4, y, tuple(chips)))
        y += 6
    return y + 4, tuple(placed)


# --------------------------------------------------------------------------- static layer


@cached
def _board_background(
    seats: int, npc: bool, tile: tuple, pearls: int, scoring: tuple[int, ...], lang: str
) -> Image.Image:
    """Everything that does not change during a game: panels, the table's head, the sea's rows,
    bands and zone numbers, the legend and the score tile (drawn once per table shape and
    language: ``lang`` is the picture's, the cache's key)."""
    layout = board_layout(seats, npc, tile, lang)
    image, draw = canvas(GAME, layout.height, WIDTH)
    _draw_status_frame(image, draw, scoring)
    _draw_table_frame(image, draw, layout, seats)
    _draw_sea_frame(image, draw, layout, pearls)
    _draw_legend(image, draw, layout, npc, lang)
    _draw_tile(image, draw, layout, tile, lang)
    return image


@cached
def _board_layer(
    seats: int, npc: bool, tile: tuple, pearls: int, scoring: tuple[int, ...], lang: str
) -> Image.Image:
    """The static layer in the game's palette: every board starts as a copy of it."""
    return to_palette(_board_background(seats, npc, tile, pearls, scoring, lang))


def _draw_status_frame(image: Image.Image, draw: ImageDraw.ImageDraw, scoring: tuple[int, ...]) -> None:
    """The status panel, the round track (scoring rounds are stars; the last round scores) and its key."""
    panel(draw, (MARGIN, STATUS_TOP, RIGHT, STATUS_TOP + STATUS_H), radius=14, width=2)
    for r in range(1, max(scoring) + 1):
        _draw_round(image, draw, r, r in scoring, WHITE, INK)
    x = _round_centre(max(scoring))[0] + 40
    cy = _round_centre(1)[1]
    _star(draw, (x + 12, cy), 13, GOLD)
    t = common.words()
    put_text(image, (x + 30, cy), t("scoring"), "regular", SMALL, MUTED, "lm")


def _star(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, fill) -> None:
    shape(draw, "star", centre, radius, fill, INK, width=2)


def _draw_round(
    image: Image.Image, draw: ImageDraw.ImageDraw, r: int, scoring: bool, fill, ink, ring=INK
) -> None:
    """One round of the track: a circle, or a star for a scoring round, with its number."""
    cx, cy = _round_centre(r)
    if scoring:
        shape(draw, "star", (cx, cy), 19, fill if fill != WHITE else PALE_GOLD, ring, width=3)
    else:
        draw.ellipse((cx - 18, cy - 18, cx + 18, cy + 18), fill=fill, outline=ring, width=3)
    # a circle's number sits wholly on its fill: paste it as a ready block
    ground = None if scoring else fill
    put_text(image, (cx, cy + (2 if scoring else 0)), str(r), "bold", SMALL_BOLD, ink, "mm", ground)


def _draw_table_frame(image: Image.Image, draw: ImageDraw.ImageDraw, layout: BoardLayout, seats: int) -> None:
    """The players' table head (an icon over each column) and its rows' tinted backgrounds."""
    top = layout.table_top
    cy = top + TABLE_HEAD_H / 2
    for key, x in (*zip(SEAFOOD, SEAFOOD_X, strict=True), ("egg", EGG_X), ("egg_used", USED_X)):
        paste_centred(image, item_image(key, 30), (x, cy))
    paste_centred(image, item_image("trash", 30), (TRASH_X, cy))
    paste_centred(image, item_image("pearl", 30), (PEARL_X, cy))
    for i in range(seats):
        y = top + TABLE_HEAD_H + i * TABLE_ROW_H
        style = player(i)
        draw.rounded_rectangle(
            (MARGIN, y + 2, RIGHT, y + TABLE_ROW_H - 2),
            radius=12,
            fill=style.light,
            outline=PANEL_LINE,
            width=2,
        )


def _draw_sea_frame(image: Image.Image, draw: ImageDraw.ImageDraw, layout: BoardLayout, pearls: int) -> None:
    """The sea's rows in their part colours, the zone badges, the part bands and fixed words."""
    t = common.words()
    for zone in range(12):
        y = layout.row_y(zone)
        part = _part(zone)
        draw.rectangle((SEA_X0, y, SEA_X1, y + ROW_H - 1), fill=PART_COLOURS[part])
        if zone:
            draw.line((BAND_X1, y, SEA_X1, y), fill=WHITE, width=2)
        fill = WHITE if part != "pearl" else PALE_GOLD
        cy = y + ROW_H / 2
        draw.ellipse((BADGE_X - 18, cy - 18, BADGE_X + 18, cy + 18), fill=fill, outline=INK, width=3)
        put_text(image, (BADGE_X, cy), str(zone), "bold", SMALL_BOLD, INK, "mm")
    for part, first, last in (("surface", 0, 0), ("shallow", 1, 4), ("deep", 5, 10), ("pearl", 11, 11)):
        y0, y1 = layout.row_y(first), layout.row_y(last) + ROW_H - 1
        band = BAND_COLOURS[part]
        draw.rectangle((SEA_X0, y0, BAND_X1, y1), fill=band)
        if last > first:  # the part's name, written upwards along its band
            words = t("{part} {first}–{last}", part=t(PART_NAMES[part]), first=first, last=last)
            label, size = fit(words, "bold", y1 - y0 - 8, SMALL_BOLD, SMALL_BOLD)
            sprite = Image.new("RGBA", (y1 - y0, BAND_X1 - SEA_X0), (0, 0, 0, 0))
            ImageDraw.Draw(sprite).text(
                (sprite.width / 2, sprite.height / 2),
                label,
                font=font("bold", size),
                fill=ink_on(band),
                anchor="mm",
            )
            sprite = sprite.rotate(90, expand=True)
            image.paste(sprite, (SEA_X0, y0), sprite)
    draw.rectangle((SEA_X0, layout.sea_top, SEA_X1, layout.row_y(12)), outline=INK, width=3)
    put_text(image, (SLOT_X0, layout.row_y(0) + ROW_H / 2), t("Surface"), "bold", SMALL_BOLD, INK, "lm")
    y11 = layout.row_y(11) + ROW_H / 2
    paste_centred(image, item_image("pearl", 34), (SLOT_X0 + 17, y11))
    words = t("Pearls: {count} per Haenyeo", count=pearls)
    put_text(image, (SLOT_X0 + 42, y11), words, "bold", SMALL_BOLD, WHITE, "lm")


def _legend_icon(key: str) -> Image.Image:
    if key == "diver":
        return diver_image(0, 15)
    if key == "npc":
        return diver_image("npc", 15)
    if key == "creature":
        return creature_image(0, CREATURE_H)
    return item_image(key, 32)


def _draw_legend(
    image: Image.Image, draw: ImageDraw.ImageDraw, layout: BoardLayout, npc: bool, lang: str
) -> None:
    """Each icon of the sea and the table with its name, flowed over a few lines under the sea."""
    for line, row in enumerate(_legend_rows(npc, lang)):
        cy = layout.legend_top + 3 + LEGEND_ROW_H * (line + 0.5)
        for key, word, x in row:
            icon_w = _legend_icon_w(key)
            paste_centred(image, _legend_icon(key), (x + icon_w / 2, cy))
            put_text(image, (x + icon_w + 6, cy), word, "regular", SMALL, INK, "lm")


def _draw_tile(
    image: Image.Image, draw: ImageDraw.ImageDraw, layout: BoardLayout, tile: tuple, lang: str
) -> None:
    """The score tile: its name, the trash points, and each scoring round's rules as chips."""
    t = common.words()
    name, _, trash = tile
    top = layout.tile_top
    panel(draw, (MARGIN, top, RIGHT, top + layout.tile_h), fill=TILE_FILL, radius=14, width=2)
    put_box(
        image,
        (MARGIN + 4, top + 4, RIGHT - 4, top + 42),
        t("Score tile: {name}", name=t(name)),
        "bold",
        28,
        SMALL_BOLD,
        INK,
        "left",
    )
    _draw_trash_steps(image, draw, top + 62, trash)
    for r, y0, _y1, chips in _tile_layout(tile, lang)[1]:
        by = top + y0 + 4 + CHIP_H / 2
        draw.rounded_rectangle((TILE_BADGE_X0, by - 18, TILE_BADGE_X0 + 56, by + 18), radius=8, fill=SEA_BLUE)
        badge, size = fit(t("R{round}", round=r), "bold", 52, SMALL_BOLD, SMALL_BOLD)
        put_text(image, (TILE_BADGE_X0 + 28, by), badge, "bold", size, WHITE, "mm")
        for x, y, width, segments in chips:
            _draw_chip(image, draw, (x, top + y, x + width, top + y + CHIP_H), segments)


def _draw_trash_steps(image: Image.Image, draw: ImageDraw.ImageDraw, cy: float, trash: tuple) -> None:
    """ "Trash 2=10 3=15 … 9+=90": points by number of trash types (the flat tail folded into "+")."""
    last = len(trash) - 1
    while last > 2 and trash[last] == trash[last - 1]:
        last -= 1
    steps = [f"{n}={p}" for n, p in enumerate(trash[: last + 1]) if n >= 2]
    if not steps:
        return
    steps[-1] = steps[-1].replace("=", "+=")
    t = common.words()
    x = MARGIN + 12 + put_text(image, (MARGIN + 12, cy), t("Trash"), "bold", SMALL_BOLD, INK, "lm") + 10
    put_box(image, (x, cy - 18, RIGHT - 6, cy + 18), " ".join(steps), "regular", SMALL, SMALL, INK, "left", 0)


def _draw_chip(image: Image.Image, draw: ImageDraw.ImageDraw, box: tuple, segments: tuple) -> None:
    """One rule as a chip: icons and words in a white rounded box."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=WHITE, outline=PANEL_LINE, width=2)
    cy = (y0 + y1) / 2
    x = x0 + 10
    for kind, value in segments:
        if kind == "icon":
            paste_centred(image, item_image(value, CHIP_ICON), (x + CHIP_ICON / 2, cy))
            x += CHIP_ICON + 5
        else:
            put_box(image, (x, y0, x1 - 6, y1), value, "regular", SMALL, SMALL, INK, "left", 0)
            x += text_width(value, "regular", SMALL) + 5


# --------------------------------------------------------------------------- status and table


def _status_key(view: dict, names: Sequence[object] | None) -> tuple:
    """All the status panel and the title bar show: (subtitle, round, phase, scoring rounds, first
    seat, its name, seats still choosing, acting zone, the seat asked, what it is asked)."""
    current = view.get("current") or {}
    waiting = current.get("waiting_for") if view.get("phase") == "actions" else None
    first = view.get("first_player")
    first = first if isinstance(first, int) else None
    ask = _ask(waiting.get("decision"), _short(waiting["seat"], names)) if waiting else ""
    return (
        common.language(),
        short_status(view),
        int(view.get("round", 1)),
        str(view.get("phase")),
        tuple(int(r) for r in view.get("scoring_rounds") or (3, 6, 8)),
        first,
        drawn_name(first, names) if first is not None else "",
        tuple(int(seat) for seat in view.get("to_act") or []),
        int(current.get("zone", 0)),
        waiting["seat"] if waiting else None,
        ask,
    )


@cached
def _status_block(background: tuple, key: tuple) -> Image.Image:
    """The title bar and the status panel filled in, as one block in the palette (they change once
    a move): the round track's line is a block of its own (it changes once a round)."""
    image = _board_layer(*background).crop((0, 0, WIDTH, STATUS_TOP + STATUS_H + 1))
    draw = ImageDraw.Draw(image)
    _lang, subtitle, current, phase, scoring, first, first_name, to_act, zone, waiting, ask = key
    box = (title_bar_right(GAME, WIDTH), 0, RIGHT, TITLE_H)
    put_box(image, box, subtitle, "bold", 34, SMALL_BOLD, WHITE, "right", ground=title_text(GAME).colour)
    image.paste(
        _rounds_line(background, current, phase == "end", scoring, first, first_name), (0, STATUS_TOP)
    )
    _draw_status(image, draw, phase, to_act, zone, waiting, ask)
    return image


#: How far down the status panel the round track's line reaches (its stars' tips included).
ROUNDS_LINE_H = 54


@cached
def _rounds_line(
    background: tuple, current: int, done: bool, scoring: tuple[int, ...], first: int | None, first_name: str
) -> Image.Image:
    """The status panel's top line (the round track, the first player) drawn on the static layer,
    in the palette."""
    top = STATUS_TOP
    image = _board_background(*background).crop((0, 0, WIDTH, top + ROUNDS_LINE_H))
    _draw_rounds(image, ImageDraw.Draw(image), current, done, scoring, first, first_name)
    return to_palette(image.crop((0, top, WIDTH, top + ROUNDS_LINE_H)))


def _draw_rounds(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    current: int,
    done: bool,
    scoring: tuple[int, ...],
    first: int | None,
    first_name: str,
) -> None:
    """Played rounds greyed, the current one dark and ringed; then the first player."""
    for r in range(1, max(scoring) + 1):
        if r < current or (done and r == current):
            _draw_round(image, draw, r, r in scoring, PAST_FILL, MUTED)
        elif r == current:
            _draw_round(image, draw, r, r in scoring, SEA_BLUE, WHITE, HIGHLIGHT)
    if first is not None:
        cy = _round_centre(1)[1]
        x = 524
        t = common.words()
        x += put_text(image, (x, cy), t("First"), "bold", SMALL_BOLD, INK, "lm", WHITE) + 26
        paste_centred(image, diver_image(first, DIVER_R), (x, cy))
        put_box(
            image,
            (x + 22, cy - 20, RIGHT - 6, cy + 20),
            first_name,
            "bold",
            26,
            SMALL_BOLD,
            INK,
            "left",
            4,
            WHITE,
        )


def _draw_status(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    phase: str,
    to_act: tuple[int, ...],
    zone: int,
    waiting: int | str | None,
    ask: str,
) -> None:
    """Who owes a decision now, in the board's largest words (on gold when one seat is asked)."""
    t = common.words()
    box = (MARGIN + 8, STATUS_TOP + 50, RIGHT - 8, STATUS_TOP + STATUS_H - 6)
    x0, x1 = box[0] + 10, box[2] - 10
    cy = (box[1] + box[3]) / 2
    if phase == "select":
        x = x0 + put_text(image, (x0, cy), t("Choosing cards:"), "bold", 28, INK, "lm", WHITE) + 30
        for seat in to_act:
            _BLOCKS.put(image, diver_image(seat, DIVER_R), (x, cy), WHITE)
            x += 44
        if not to_act:
            put_text(image, (x - 10, cy), t("all ready"), "regular", 28, MUTED, "lm", WHITE)
        return
    if phase != "actions":
        put_text(image, (x0, cy), t("Game over: final scores"), "bold", 30, INK, "lm", WHITE)
        return
    asked = waiting is not None
    if asked:
        draw.rounded_rectangle(box, radius=10, fill=ink(image, HIGHLIGHT), outline=ink(image, INK), width=2)
    ground = HIGHLIGHT if asked else WHITE
    words = t("Zone {zone}:", zone=zone) if asked else t("Zone {zone} acts", zone=zone)
    x = x0 + put_text(image, (x0, cy), words, "bold", 30, INK, "lm", ground) + 10
    if asked:
        _BLOCKS.put(image, diver_image(waiting, DIVER_R), (x + 20, cy), ground)
        put_box(image, (x + 42, box[1], x1, box[3]), ask, "bold", 30, SMALL_BOLD, INK, "left", 4, ground)


def _draw_table(image: Image.Image, view: dict, layout: BoardLayout, names) -> None:
    """One row per seat: token, name, seafood, eggs, trash, pearls, and the score (biggest)."""
    final = isinstance(view.get("result"), dict)
    head_y = layout.table_top + TABLE_HEAD_H / 2
    t = common.words()
    head = t("Final scores") if final else t("Scores so far")
    put_text(image, (NAME_X0 - 40, head_y), head, "regular", SMALL, MUTED, "lm", BG)
    put_text(image, (SCORE_X, head_y), t("Final") if final else t("Score"), "bold", SMALL_BOLD, INK, "mm", BG)
    acting = set(view.get("to_act") or [])
    select = view.get("phase") == "select"
    for i, p in enumerate(view.get("players") or []):
        seat = int(p.get("seat", i))
        food = p.get("seafood") or {}
        eggs, used = int(p.get("turtle_eggs", 0)), int(p.get("turtle_eggs_used", 0))
        types = len(p.get("trash") or [])
        counts = (*(int(food.get(key, 0)) for key in SEAFOOD), eggs - used, used)
        pairs = (
            f"{types}={trash_points(view, types)}",
            f"{int(p.get('pearls', 0))}={p.get('pearl_points', 0)}",
        )
        row = _table_row(
            seat,
            drawn_name(seat, names),
            counts,
            pairs,
            _score(view, seat, p),
            seat in acting,
            bool(select and p.get("confirmed")),
        )
        image.paste(row, (0, layout.table_top + TABLE_HEAD_H + i * TABLE_ROW_H))


@cached
def _row_frame(seat: int, hot: bool) -> Image.Image:
    """A seat's empty table row: its tint, its token, a gold outline while it owes a decision."""
    image = Image.new("RGB", (WIDTH, TABLE_ROW_H), BG)
    ImageDraw.Draw(image).rounded_rectangle(
        (MARGIN, 2, RIGHT, TABLE_ROW_H - 2),
        radius=12,
        fill=player(seat).light,
        outline=GOLD if hot else PANEL_LINE,
        width=5 if hot else 2,
    )
    paste_centred(image, diver_image(seat, DIVER_R), (40, TABLE_ROW_H / 2))
    return image


@cached
def _row_layer(seat: int, hot: bool) -> Image.Image:
    """`_row_frame` in the palette."""
    return to_palette(_row_frame(seat, hot))


@cached
def _row_ground(seat: int, hot: bool) -> common.Layer:
    """`_row_frame` as the layer the row's words are composed on."""
    return common.Layer(("row", seat, hot), _row_frame(seat, hot))


#: Where a row's tick block lies (x0, x1): the green tick on the token, cards locked in.
TICK_X0, TICK_X1 = 30, 72


@cached
def _tick_block(seat: int, hot: bool) -> Image.Image:
    """The token's part of a seat's row with the green tick on it, in the palette."""
    image = _row_frame(seat, hot).copy()
    cy = TABLE_ROW_H / 2
    ImageDraw.Draw(image).ellipse((44, cy - 2, 70, cy + 24), fill=TICK_GREEN, outline=WHITE, width=2)
    put_text(image, (57, cy + 11), "✓", "bold", SMALL_BOLD, WHITE, "mm")
    return to_palette(image.crop((TICK_X0, 0, TICK_X1, TABLE_ROW_H)))


def _table_row(
    seat: int, name: str, counts: tuple[int, ...], pairs: tuple[str, str], score: int, hot: bool, tick: bool
) -> Image.Image:
    """A seat's row of the players' table, drawn once per content and language (it changes only
    on a move)."""
    return _table_row_in(seat, name, counts, pairs, score, hot, tick, common.language())


@cached
def _table_row_in(
    seat: int,
    name: str,
    counts: tuple[int, ...],
    pairs: tuple[str, str],
    score: int,
    hot: bool,
    tick: bool,
    lang: str,
) -> Image.Image:
    """`_table_row` in the palette (``lang``, the picture's language, keys the cache: its digits
    are drawn in the language's face)."""
    image = _row_layer(seat, hot).copy()
    ground = _row_ground(seat, hot)
    cy = TABLE_ROW_H / 2
    if tick:
        image.paste(_tick_block(seat, hot), (TICK_X0, 0))
    # laid on the row's RGB frame: a line's box, even its ink, may reach past the row's tint
    name_box = (NAME_X0, 0, NAME_X1, TABLE_ROW_H)
    put_box(image, name_box, name, "bold", 26, SMALL_BOLD, INK, "left", 2, ground)
    for x, count in zip((*SEAFOOD_X, EGG_X, USED_X), counts, strict=True):
        colour = INK if count else MUTED
        put_text(image, (x, cy), str(count), "bold", SMALL_BOLD, colour, "mm", ground)
    for x, words in zip((TRASH_X, PEARL_X), pairs, strict=True):
        box = (x - 40, 0, x + 40, TABLE_ROW_H)
        put_box(image, box, words, "bold", SMALL_BOLD, SMALL_BOLD, INK, "center", 1, ground)
    put_text(image, (SCORE_X, cy), str(score), "bold", 36, INK, "mm", ground)
    return image


# --------------------------------------------------------------------------- the sea


def _slot_image(items: tuple[str, ...], taken: int | str | None, ground: tuple[int, int, int]) -> Image.Image:
    """A sea-card slot on its row's colour: its items (a trash slot names its type); a taken one
    is netted and carries its taker's token. Drawn once per content and language."""
    return _slot_mapped(items, taken, ground, common.language())


@cached
def _slot_mapped(
    items: tuple[str, ...], taken: int | str | None, ground: tuple[int, int, int], lang: str
) -> Image.Image:
    """`_slot_block` in the palette."""
    return to_palette(_slot_block(items, taken, ground, lang))


@cached
def _slot_block(
    items: tuple[str, ...], taken: int | str | None, ground: tuple[int, int, int], lang: str
) -> Image.Image:
    """`_slot_image` (``lang``, the picture's language, keys the cache), pasted without a mask."""
    t = common.words()
    w, h = SLOT_W + 1, ROW_H - 10 + 1
    image = Image.new("RGB", (w, h), ground)
    draw = ImageDraw.Draw(image)
    faded = taken is not None
    trash = len(items) == 1 and items[0].startswith("trash:")
    fill = TAKEN_FILL if faded else MINE_FILL if trash else WHITE
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=10, fill=fill, outline=INK, width=2)
    cy = h / 2
    if trash:
        label = t(TRASH_SHORT.get(items[0][6:], items[0][6:]))
        put_box(
            image, (0, 0, w - 1, h - 1), label, "regular", SMALL, SMALL, MUTED if faded else INK, "center", 3
        )
    elif items:
        size = int(min(34, (w - 10 - 3 * (len(items) - 1)) / len(items)))
        x = w / 2 - (len(items) * (size + 3) - 3) / 2 + size / 2
        for item in items:
            key = "trash" if item.startswith("trash:") else item
            paste_centred(image, item_image(key, size, faded), (x, cy))
            x += size + 3
    if faded:
        net = net_image(w - 4, h - 4)
        image.paste(net, (2, 2), net)
        paste_centred(image, diver_image(taken, 17), (w / 2, cy))
    return image


def _pieces(zone_view: dict) -> tuple[tuple[str, int | str], ...]:
    """The zone's pieces in drawing order: divers, then creatures (by owner)."""
    divers = [("diver", d) for d in zone_view.get("divers") or []]
    creatures = [
        ("creature", c["owner"]) for c in zone_view.get("creatures") or [] if c.get("owner") is not None
    ]
    return tuple(divers + creatures)


def _draw_pieces(
    image: Image.Image,
    pieces: tuple[tuple[str, int | str], ...],
    x0: float,
    cy: float,
    ground: tuple[int, int, int],
) -> None:
    """The divers (tokens) then creatures (fish) from ``x0`` on the row's ``ground`` (a palette
    row), closer together when many (laid as one block: squeezed, they overlap)."""
    if not pieces:
        return
    widths = [2 * DIVER_R + 6 if kind == "diver" else int(CREATURE_H * 1.5) + 4 for kind, _ in pieces]
    squeeze = min(1.0, (SEA_X1 - 6 - MARK_X0) / sum(widths))
    x = x0
    parts = []
    for (kind, owner), width in zip(pieces, widths, strict=True):
        sprite = diver_image(owner, DIVER_R) if kind == "diver" else creature_image(owner, CREATURE_H)
        centre = x + width * squeeze / 2
        parts.append((sprite, round(centre - sprite.width / 2), round(cy - sprite.height / 2)))
        x += width * squeeze
    _BLOCKS.lay(image, tuple(parts), ground)


def _rope_state(zone: int, revealed: bool, reach: object, connected: object) -> str:
    """How the rope crosses a zone's row: "through", "end" (it stops here), "cut" (✗) or ""."""
    if not revealed:
        return ""
    if connected is False:
        return "cut"
    if isinstance(reach, int) and zone <= reach:
        return "through" if zone < reach else "end"
    return ""


@cached
def _sea_row(
    background: tuple, zone: int, slots: tuple, pieces: tuple, acting: bool, rope: str, surface: tuple = ()
) -> Image.Image:
    """One zone's row right of its band (the background's row, then the rope, its slots, its
    pieces, the acting ring), drawn once per content and pasted whole: most rows stay the same
    from one picture to the next. Drawn in the palette on the static layer's row."""
    layout = board_layout(*background[:3], background[5])
    top = layout.row_y(zone)
    image = _board_layer(*background).crop((BAND_X1, top, SEA_X1 - 2, top + ROW_H))
    draw = ImageDraw.Draw(image)
    rope_x, cy = ROPE_X - BAND_X1, ROW_H / 2
    if rope in ("through", "end"):
        draw.line(
            (rope_x, 6 if zone == 0 else 0, rope_x, ROW_H if rope == "through" else cy),
            fill=ink(image, ROPE),
            width=8,
        )
        box = (rope_x - 9, cy - 9, rope_x + 9, cy + 9)
        draw.ellipse(box, fill=ink(image, ROPE), outline=ink(image, INK), width=2)
    elif rope == "cut":
        box = (rope_x - 14, cy - 14, rope_x + 14, cy + 14)
        draw.ellipse(box, fill=ink(image, RED), outline=ink(image, WHITE), width=2)
        if common.has_glyph("bold", "✗"):
            put_text(image, (rope_x, cy + 1), "✗", "bold", SMALL_BOLD, WHITE, "mm", RED)
        else:  # the Korean face has no ✗: draw the cross
            for dx in (-6, 6):
                draw.line((rope_x - dx, cy - 6, rope_x + dx, cy + 6), fill=ink(image, WHITE), width=4)
    ground = PART_COLOURS[_part(zone)]
    for i, (items, taken) in enumerate(slots[:4]):
        slot = _slot_image(items, taken, ground)
        left = SLOT_X0 - BAND_X1 + i * (SLOT_W + SLOT_GAP)
        image.im.paste(slot.im, (left, 5, left + slot.width, 5 + slot.height))  # as Image.paste, quicker
    _draw_pieces(image, pieces, MARK_X0 - BAND_X1, cy, ground)
    if surface:
        _draw_surface_words(image, surface)
    if acting:
        draw.rectangle((2, 2, image.width - 1, ROW_H - 3), outline=ink(image, HIGHLIGHT), width=5)
    return image


def _draw_sea(image: Image.Image, view: dict, layout: BoardLayout, background: tuple) -> None:
    """This round's slots, the pieces, the rope and the cut-off marks, the acting zone ringed."""
    zones = view.get("zones") or []
    if not zones:
        raise RenderError("a Haenyeo view without zones")
    revealed = bool(view.get("revealed"))
    current = (view.get("current") or {}).get("zone")
    reach = view.get("reach")
    actions = view.get("phase") == "actions"
    for zone_view in zones[:12]:
        zone = int(zone_view.get("zone", 0))
        slots = tuple(
            (tuple(str(item) for item in slot.get("items") or []), slot.get("taken_by"))
            for slot in zone_view.get("slots") or []
        )
        rope = _rope_state(zone, revealed, reach, zone_view.get("connected"))
        surface = _surface_key(view, revealed, reach) if zone == 0 else ()
        row = _sea_row(
            background, zone, slots, _pieces(zone_view), actions and current == zone, rope, surface
        )
        top = layout.row_y(zone)
        image.im.paste(row.im, (BAND_X1, top, BAND_X1 + row.width, top + ROW_H))  # as Image.paste, quicker


def _surface_key(view: dict, revealed: bool, reach: object) -> tuple:
    """What zone 0's row says beside "Surface": the rope's reach after the reveal, else who
    still waits for a 3rd Haenyeo."""
    if revealed:
        return ("rope", _rope_words(reach)) if isinstance(reach, int) else ()
    waiting = tuple(int(p.get("seat", 0)) for p in view.get("players") or [] if not p.get("third_gained"))
    return ("waits", waiting) if waiting else ()


def _draw_surface_words(row: Image.Image, surface: tuple) -> None:
    """Beside "Surface" on zone 0's row (block coordinates): the rope's words, or the waiting seats."""
    t = common.words()
    cy = ROW_H / 2
    x = SLOT_X0 - BAND_X1 + text_width(t("Surface"), "bold", SMALL_BOLD) + 18
    ground = PART_COLOURS["surface"]
    kind, value = surface
    if kind == "rope":
        box = (x, cy - 22, MARK_X0 - BAND_X1 - 8, cy + 22)
        put_box(row, box, value, "regular", SMALL, SMALL, INK, "left", 0, ground)
        return
    x += put_text(row, (x, cy), t("3rd Haenyeo waits:"), "regular", SMALL, INK, "lm", ground) + 26
    for seat in value:
        _BLOCKS.put(row, diver_image(seat, DIVER_R), (x, cy), ground)
        x += 44


# --------------------------------------------------------------------------- public board


def render_board(view: dict, names: Sequence[object] | None = None) -> Picture:
    """The public board (also a spectator's picture)."""
    seats = int(view.get("seats") or len(view.get("players") or []) or 2)
    npc = bool(view.get("npc"))
    tile = _tile_key(view)
    lang = common.language()
    layout = board_layout(seats, npc, tile, lang)
    scoring = tuple(int(r) for r in view.get("scoring_rounds") or (3, 6, 8))
    background = (seats, npc, tile, int(view.get("pearls_per_haenyeo") or 1), scoring, lang)
    image = _board_layer(*background).copy()  # palette mode: the blocks pasted on are too
    draw = ImageDraw.Draw(image)
    image.paste(_status_block(background, _status_key(view, names)), (0, 0))
    _draw_table(image, view, layout, names)
    _draw_sea(image, view, layout, background)
    _draw_next_round(draw, view, layout, tile, lang)
    return picture(image, board_alt(view, names), "haenyeo-board.png", palette=palette())


def _draw_next_round(
    draw: ImageDraw.ImageDraw, view: dict, layout: BoardLayout, tile: tuple, lang: str
) -> None:
    """Ring the next scoring round's rules on the tile in gold: what the coming decisions score."""
    nxt = _next_scoring(view)
    if not nxt:
        return
    for r, y0, y1, _ in _tile_layout(tile, lang)[1]:
        if int(r) == nxt[0]:
            top = layout.tile_top
            draw.rounded_rectangle(
                (MARGIN + 6, top + y0, RIGHT - 6, top + y1), radius=12, outline=palette_index(GOLD), width=4
            )


# --------------------------------------------------------------------------- alt text


def _sheet_words(p: dict, view: dict) -> str:
    t = common.words()
    food = ", ".join(
        t("{seafood} {count}", seafood=t(SEAFOOD_SHORT.get(k, k)).lower(), count=v)
        for k, v in (p.get("seafood") or {}).items()
    )
    eggs, used = int(p.get("turtle_eggs", 0)), int(p.get("turtle_eggs_used", 0))
    types = len(p.get("trash") or [])
    pearls = int(p.get("pearls", 0))
    return "; ".join(
        (
            food,
            t("turtle eggs {unused} unused, {used} used", unused=eggs - used, used=used),
            t.plural(
                "{count} trash type ({points} pts)",
                "{count} trash types ({points} pts)",
                types,
                points=trash_points(view, types),
            ),
            t.plural(
                "{count} pearl ({points} pts)",
                "{count} pearls ({points} pts)",
                pearls,
                points=p.get("pearl_points", 0),
            ),
        )
    )


def legend_words() -> str:
    """The icon legend under the sea, in words (alt text)."""
    t = common.words()
    return t("Icons: {icons}.", icons=", ".join(t(word) for _, word in LEGEND))


def board_alt(view: dict, names: Sequence[object] | None) -> list[str]:
    """Alt text of the public board: status, scores, connection, divers, sea, then sheets and tile."""
    t = common.words()
    parts = [t("Haenyeo board. {status}.", status=status_text(view, names))]
    first = view.get("first_player")
    if isinstance(first, int):
        parts.append(t("First player {name}.", name=_who(first, names)))
    players = view.get("players") or []
    scores = "; ".join(
        t("{name} {score}", name=_who(int(p.get("seat", i)), names), score=_score(view, i, p))
        for i, p in enumerate(players)
    )
    final = isinstance(view.get("result"), dict)
    parts.append(
        t("Final scores: {scores}.", scores=scores) if final else t("Scores so far: {scores}.", scores=scores)
    )
    if view.get("phase") == "select":
        waiting = [_who(s, names) for s in view.get("to_act") or []]
        if waiting:
            parts.append(t("Still choosing: {names}.", names=", ".join(waiting)))
    parts.append(legend_words())
    reach = view.get("reach")
    zones = view.get("zones") or []
    if view.get("revealed") and isinstance(reach, int):
        parts.append(_connection_words(reach) + ".")
        placed = []
        for z in zones:
            who = [_alt_letter(d) for d in z.get("divers") or []]
            pets = [
                t(
                    "{creature} {letter}",
                    creature=_creature_word(c.get("kind")),
                    letter=_alt_letter(c.get("owner")),
                )
                for c in z.get("creatures") or []
            ]
            words = ([t("Haenyeo {letters}", letters=" ".join(who))] if who else []) + (
                [t("creatures {list}", list=", ".join(pets))] if pets else []
            )
            if words:
                placed.append(t("{zone}: {words}", zone=z.get("zone"), words=", ".join(words)))
        if placed:
            parts.append(t("Haenyeo and creatures by zone: {zones}.", zones="; ".join(placed)))
    sea = []
    for z in zones:
        slots = []
        for slot in z.get("slots") or []:
            words = " + ".join(item_word(str(i)) for i in slot.get("items") or [])
            if slot.get("taken_by") is not None:
                words = t("{items} (taken by {letter})", items=words, letter=_alt_letter(slot["taken_by"]))
            slots.append(words)
        if slots:
            sea.append(t("{zone}: {words}", zone=z.get("zone"), words=", ".join(slots)))
    sheets = [
        t("{name}: {sheet}", name=_who(int(p.get("seat", i)), names), sheet=_sheet_words(p, view))
        for i, p in enumerate(players)
    ]
    parts.append(t("Sheets: {sheets}.", sheets=". ".join(sheets)))
    cards = view.get("sea_cards") or {}
    parts.append(
        t(
            "Sea cards {shallow} (zones 1–4) and {deep} (5–10): {sea}.",
            shallow=cards.get("shallow", "?"),
            deep=cards.get("deep", "?"),
            sea="; ".join(sea),
        )
    )
    return parts


def _creature_word(kind: object) -> str:
    """A creature's name (alt text), in the picture's language."""
    t = common.words()
    return t(CREATURE_NAMES[kind]) if kind in CREATURE_NAMES else str(kind)


# --------------------------------------------------------------------------- a seat's picture

#: The creatures' names on the diving cards (a card is 118 px wide): English, drawn translated.
CREATURE_SHORT = {
    "crab": N_("crab"),
    "turtle": N_("turtle"),
    "starfish": N_("starfish"),
    "dolphin": N_("dolphin"),
    "seahorse": N_("seahorse"),
    "ray": N_("ray"),
    "squid": N_("squid"),
    "seal": N_("seal"),
    "whaleshark": N_("shark"),
    "whale": N_("whale"),
}
BANNER = (MARGIN, TITLE_H + 8, RIGHT, TITLE_H + 62)
CARDS_TOP = BANNER[3] + 8
CARD_W, CARD_H, CARD_GAP = 118, 100, 8
CARD_X0 = (WIDTH - 6 * CARD_W - 5 * CARD_GAP) / 2
#: The cards' rows start under the panel's head, with room for a raised card's tick.
CARDS_ROW0 = 64
CARDS_BOTTOM = CARDS_TOP + CARDS_ROW0 - 2 + 2 * (CARD_H + 12)
SHEET_TOP = CARDS_BOTTOM + 10
LABEL_X, TRACK_X = 30, 184
TRACK_TOP = SHEET_TOP + 80  # the first seafood track's centre line
TRACK_STEP, BOX, BOX_STEP = 42, 26, 28
EGG_Y = TRACK_TOP + 5 * TRACK_STEP + 6
EGG_R, EGG_STEP = 14, 34
PEARL_COUNT_Y = EGG_Y + 50  # the pearl counts over the track's spaces
PEARL_Y = PEARL_COUNT_Y + 42
PEARL_W, PEARL_STEP = 60, 66
TRASH_TOP = PEARL_Y + 104
CHIP_W = (WIDTH - 2 * MARGIN - 40) / 2
TRASH_ROWS_TOP = TRASH_TOP + 24
TRASH_STEP = 40
SCORES_TOP = TRASH_ROWS_TOP + 5 * TRASH_STEP + 10


def _card_origin(index: int) -> tuple[float, float]:
    """The top left corner of the ``index``-th diving card (two rows of six)."""
    row, col = divmod(index, 6)
    return CARD_X0 + col * (CARD_W + CARD_GAP), CARDS_TOP + CARDS_ROW0 + row * (CARD_H + 12)


def _card_image(zone: int, creature: str, chosen: bool, seat: int) -> Image.Image:
    """A diving card: its zone number (biggest), its creature; a chosen one ringed and ticked."""
    return _card_block(zone, creature, chosen, seat, common.language())


@cached
def _card_block(zone: int, creature: str, chosen: bool, seat: int, lang: str) -> Image.Image:
    """`_card_image` (``lang``, the picture's language, keys the cache)."""
    t = common.words()
    pad = 12
    image = Image.new("RGBA", (CARD_W + 2 * pad, CARD_H + 2 * pad), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    box = (pad, pad, pad + CARD_W, pad + CARD_H)
    fill = PART_COLOURS[_part(zone)]
    outline = INK if chosen else player(seat).colour
    draw.rounded_rectangle(box, radius=12, fill=fill, outline=outline, width=5 if chosen else 3)
    cx = pad + CARD_W / 2
    draw.text((cx, pad + 38), str(zone), font=font("bold", 48), fill=ink_on(fill), anchor="mm")
    if creature:
        name = t(CREATURE_SHORT[creature]) if creature in CREATURE_SHORT else creature
        # bold when it fits, else the narrower regular face: never smaller, never cut if avoidable
        kind = "bold" if text_width(name, "bold", SMALL_BOLD) <= CARD_W - 12 else "regular"
        text_in_box(
            draw,
            (pad + 1, pad + 64, pad + CARD_W - 1, pad + 94),
            name,
            kind,
            SMALL_BOLD,
            SMALL_BOLD,
            ink_on(fill),
            "center",
            1,
        )
    if chosen:
        tx, ty = pad + CARD_W - 6, pad + 6
        draw.ellipse((tx - 17, ty - 17, tx + 17, ty + 17), fill=HIGHLIGHT, outline=INK, width=2)
        draw.text((tx, ty + 1), "✓", font=font("bold", SMALL_BOLD), fill=INK, anchor="mm")
    return image


def _sheet_key(view: dict, me: dict) -> tuple:
    """What the sheet's empty form depends on: track lengths, egg spaces, pearl track, trash names."""
    tracks = tuple(int((me.get("tracks") or {}).get(key, 12)) for key in SEAFOOD)
    pearls = tuple(
        (int(space.get("points", 0)), str(space.get("bonus") or ""))
        for space in (view.get("pearl_track") or [])[:9]
    )
    trash = tuple(
        (str(kind["key"]), str(kind.get("name", kind["key"])))
        for kind in view.get("trash_types") or []
        if isinstance(kind, dict)
    ) or tuple((key, word) for key, word in TRASH_SHORT.items())
    return tracks, int(me.get("turtle_egg_spaces", 10)), pearls, trash[:10], common.language()


@cached
def _private_layer(sheet: tuple) -> Image.Image:
    """The empty sheet in the game's palette: every seat's picture starts as a copy of it."""
    return to_palette(_private_background(sheet))


@cached
def _token_block(seat: int) -> Image.Image:
    """The seat's token on the sheet's ground, mapped to the palette (a 48 px square block)."""
    block = Image.new("RGB", (48, 48), SHEET_FILL)
    paste_centred(block, diver_image(seat, DIVER_R), (24, 24))
    return to_palette(block)


@cached
def _private_background(sheet: tuple) -> Image.Image:
    """An empty sheet: panels, labels, empty track boxes, egg circles, the pearl track with its
    points and bonuses, and the trash types (the same for every seat: drawn once per language)."""
    t = common.words()
    tracks, egg_spaces, pearls, trash, _lang = sheet
    image, draw = canvas(GAME, PRIVATE_H, WIDTH)
    panel(draw, (MARGIN, CARDS_TOP, RIGHT, CARDS_BOTTOM), fill=CARDS_FILL, radius=14, width=2)
    panel(draw, (MARGIN, SHEET_TOP, RIGHT, PRIVATE_H - 14), fill=SHEET_FILL, radius=14, width=2)
    put_text(image, (LABEL_X + 46, SHEET_TOP + 30), t("Your sheet"), "bold", 28, INK, "lm")
    for k, (key, length) in enumerate(zip(SEAFOOD, tracks, strict=True)):
        y = TRACK_TOP + k * TRACK_STEP
        paste_centred(image, item_image(key, 34), (LABEL_X + 17, y))
        label, size = fit(t(SEAFOOD_SHORT[key]), "bold", TRACK_X - LABEL_X - 42, SMALL_BOLD, SMALL_BOLD)
        put_text(image, (LABEL_X + 42, y), label, "bold", size, INK, "lm")
        for b in range(length):
            left = TRACK_X + b * BOX_STEP
            draw.rectangle((left, y - BOX / 2, left + BOX, y + BOX / 2), fill=WHITE, outline=INK, width=2)
    paste_centred(image, item_image("egg", 34), (LABEL_X + 17, EGG_Y))
    put_text(image, (LABEL_X + 42, EGG_Y), t("Eggs"), "bold", SMALL_BOLD, INK, "lm")
    for k in range(egg_spaces):
        cx = TRACK_X + EGG_R + k * EGG_STEP
        draw.ellipse((cx - EGG_R, EGG_Y - EGG_R, cx + EGG_R, EGG_Y + EGG_R), outline=PANEL_LINE, width=3)
    paste_centred(image, item_image("pearl", 34), (LABEL_X + 17, PEARL_Y))
    put_text(image, (LABEL_X + 42, PEARL_Y), t("Pearls"), "bold", SMALL_BOLD, INK, "lm")
    put_text(image, (LABEL_X + 42, PEARL_COUNT_Y), t("pearls"), "regular", SMALL, MUTED, "lm")
    for k, (points, bonus) in enumerate(pearls):
        _draw_pearl_space(image, draw, k, len(pearls), points, bonus, False)
    put_text(image, (LABEL_X + 42, PEARL_Y + 44), t("bonus"), "regular", SMALL, MUTED, "lm")
    for k, (_key, word) in enumerate(trash):
        _draw_trash_chip(image, draw, k, t(word), False)
    return image


def _draw_pearl_space(image, draw, k: int, count: int, points: int, bonus: str, marked: bool) -> None:
    """One pearl-track space: how many pearls reach it (above), its points, its bonus (below)."""
    left = TRACK_X + k * PEARL_STEP
    cx = left + PEARL_W / 2
    if not marked:
        label = f"{k + 1}+" if k == count - 1 else str(k + 1)
        put_text(image, (cx, PEARL_COUNT_Y), label, "regular", SMALL, MUTED, "mm")
        if bonus == "trash":
            paste_centred(image, item_image("trash", 30), (cx, PEARL_Y + 44))
        elif bonus:  # the seafood bonus: two seafood of the player's choice
            put_text(image, (cx, PEARL_Y + 40), "×2", "bold", SMALL_BOLD, BONUS_BROWN, "mm")
            t = common.words()
            put_text(image, (cx, PEARL_Y + 66), t("food"), "regular", SMALL, BONUS_BROWN, "mm")
    draw.rounded_rectangle(
        (left, PEARL_Y - 22, left + PEARL_W, PEARL_Y + 22),
        radius=8,
        fill=ink(image, PALE_GOLD if marked else WHITE),
        outline=ink(image, INK),
        width=4 if marked else 2,
    )
    # a space worth nothing (the first ones) shows a dash instead of a number
    put_text(
        image,
        (cx, PEARL_Y),
        str(points) if points else "–",
        "bold",
        SMALL_BOLD,
        INK if points else MUTED,
        "mm",
        PALE_GOLD if marked else WHITE,
    )


def _draw_trash_chip(image: Image.Image, draw: ImageDraw.ImageDraw, k: int, word: str, mine: bool) -> None:
    """One of the ten trash types, two columns; a type the seat holds is grey and ticked."""
    x = MARGIN + 14 + (k % 2) * (CHIP_W + 12)
    y = TRASH_ROWS_TOP + (k // 2) * TRASH_STEP
    box = (x, y, x + CHIP_W, y + TRASH_STEP - 6)
    draw.rounded_rectangle(
        box,
        radius=8,
        fill=ink(image, MINE_FILL if mine else WHITE),
        outline=ink(image, INK if mine else PANEL_LINE),
        width=2,
    )
    put_box(
        image,
        box,
        ("✓ " if mine else "") + word,
        "bold" if mine else "regular",
        SMALL_BOLD,
        SMALL,
        INK if mine else MUTED,
        "left",
        8,
        MINE_FILL if mine else WHITE,
    )


def _draw_hand(image: Image.Image, you: dict, seat: int, revealed: bool) -> None:
    """The seat's twelve diving cards in two rows, with how many it must still choose."""
    t = common.words()
    selected = frozenset(int(z) for z in you.get("selected") or [])
    must = int(you.get("must_select", 2))
    if revealed:
        head = t("Your diving cards this round")
    elif you.get("confirmed"):
        head = t("Your diving cards: confirmed")
    else:
        head = t("Your diving cards: choose {count}", count=must)
    hand = tuple(
        (int(card.get("zone", i)), str(card.get("creature") or ""))
        for i, card in enumerate((you.get("hand") or [])[:12])
    )
    note = t("{selected} of {count}", selected=len(selected), count=must)
    image.paste(_hand_image(hand, selected, seat, head, note, common.language()), (0, CARDS_TOP))


@cached
def _cards_panel() -> Image.Image:
    """The empty cards panel (the hand is laid on a copy)."""
    image = Image.new("RGB", (WIDTH, CARDS_BOTTOM - CARDS_TOP + 1), BG)
    panel(
        ImageDraw.Draw(image),
        (MARGIN, 0, RIGHT, CARDS_BOTTOM - CARDS_TOP),
        fill=CARDS_FILL,
        radius=14,
        width=2,
    )
    return image


@cached
def _hand_image(
    hand: tuple[tuple[int, str], ...], selected: frozenset[int], seat: int, head: str, note: str, lang: str
) -> Image.Image:
    """The whole cards panel as one block in the palette (its cards change only when the selection
    does; ``lang``, the picture's language, keys the cache): each card is laid on the panel's fill."""
    image = _cards_layer().copy()
    note_w = put_text(
        image, (RIGHT - 14, 28), note, "bold", 28, GOLD if selected else MUTED, "rm", CARDS_FILL
    )
    head, size = fit(head, "bold", RIGHT - MARGIN - 28 - note_w - 16, 28, SMALL_BOLD)
    put_text(image, (MARGIN + 14, 28), head, "bold", size, INK, "lm", CARDS_FILL)
    for i, (zone, creature) in enumerate(hand):
        chosen = zone in selected
        x, top = _card_origin(i)
        sprite = _card_image(zone, creature, chosen, seat)
        left, top = round(x - 12), round(top - CARDS_TOP - 12 - (8 if chosen else 0))
        _BLOCKS.stamp(image, sprite, left, top, CARDS_FILL)
    return image


@cached
def _cards_layer() -> Image.Image:
    """`_cards_panel` in the palette."""
    return to_palette(_cards_panel())


def _draw_banner(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, you: dict, seat: int, names
) -> None:
    """The top line: what the seat must do now (on gold), or where the round stands."""
    t = common.words()
    current = view.get("current") or {}
    waiting = current.get("waiting_for") or {}
    if waiting.get("seat") == seat:
        ask = _your_ask(waiting.get("decision"))
        text, fill = t("Your move in zone {zone}: {ask}", zone=current.get("zone", 0), ask=ask), HIGHLIGHT
    elif view.get("phase") == "select" and not you.get("confirmed"):
        text, fill = _choose_words(you), HIGHLIGHT
    else:
        text, fill = status_text(view, names), WHITE
    draw.rounded_rectangle(BANNER, radius=12, fill=ink(image, fill), outline=ink(image, INK), width=2)
    put_box(image, BANNER, text, "bold", 30, SMALL_BOLD, INK, "center", 10, fill)


def _choose_words(you: dict) -> str:
    """What is left of choosing: all the cards, the rest of them, or the confirmation."""
    t = common.words()
    must = int(you.get("must_select", 2))
    left = must - len(you.get("selected") or [])
    if left >= must:
        return t("Your move: choose {count} diving cards", count=must)
    if left > 0:
        return t.plural(
            "Your move: choose {count} more diving card", "Your move: choose {count} more diving cards", left
        )
    return t("Your move: confirm your cards")


def _draw_own_sheet(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, me: dict, sheet: tuple
) -> None:
    """The seat's counts on its sheet: boxes filled, eggs drawn and crossed, pearls and trash marked."""
    t = common.words()
    tracks, egg_spaces, pearls, trash, _lang = sheet
    put_text(image, (RIGHT - 16, SHEET_TOP + 30), _score_words(view, me), "bold", 34, INK, "rm", SHEET_FILL)
    food = me.get("seafood") or {}
    for k, (key, length) in enumerate(zip(SEAFOOD, tracks, strict=True)):
        y = TRACK_TOP + k * TRACK_STEP
        count = int(food.get(key, 0))
        for b in range(min(count, length)):
            left = TRACK_X + b * BOX_STEP
            draw.rectangle((left, y - BOX / 2, left + BOX, y + BOX / 2), fill=ink(image, INK))
        put_text(
            image,
            (TRACK_X + 16 * BOX_STEP + 10, y),
            f"{count}/{length}",
            "bold",
            SMALL_BOLD,
            INK,
            "lm",
            SHEET_FILL,
        )
    eggs, used = int(me.get("turtle_eggs", 0)), int(me.get("turtle_eggs_used", 0))
    for k in range(min(eggs, egg_spaces)):
        cx = TRACK_X + EGG_R + k * EGG_STEP
        draw.ellipse(
            (cx - EGG_R, EGG_Y - EGG_R, cx + EGG_R, EGG_Y + EGG_R),
            fill=ink(image, ITEM_COLOURS["egg"]),
            outline=ink(image, INK),
            width=3,
        )
        if k < used:
            draw.line((cx - 10, EGG_Y - 10, cx + 10, EGG_Y + 10), fill=ink(image, RED), width=4)
            draw.line((cx - 10, EGG_Y + 10, cx + 10, EGG_Y - 10), fill=ink(image, RED), width=4)
    if used:
        words = t("{unused} unused, {used} used", unused=eggs - used, used=used)
    else:
        words = t("{unused} unused", unused=eggs - used)
    put_text(
        image, (TRACK_X + egg_spaces * EGG_STEP + 8, EGG_Y), words, "bold", SMALL_BOLD, INK, "lm", SHEET_FILL
    )
    for k in range(min(int(me.get("pearls", 0)), len(pearls))):
        _draw_pearl_space(image, draw, k, len(pearls), pearls[k][0], pearls[k][1], True)
    held = set(me.get("trash") or [])
    types = len(held)
    put_text(
        image,
        (MARGIN + 14, TRASH_TOP),
        t.plural(
            "Trash: {count} type = {points} pts",
            "Trash: {count} types = {points} pts",
            types,
            points=trash_points(view, types),
        ),
        "bold",
        28,
        INK,
        "lm",
        SHEET_FILL,
    )
    for k, (key, word) in enumerate(trash):
        if key in held:
            _draw_trash_chip(image, draw, k, t(word), True)


def _draw_own_scores(image: Image.Image, view: dict, me: dict) -> None:
    """The round scores, the Haenyeo count, and the next scoring round's rules."""
    t = common.words()
    x0, x1 = MARGIN + 14, RIGHT - 14
    y = SCORES_TOP
    scores = me.get("round_scores") or {}
    words = "   ".join(
        t("R{round}", round=r) + f": {scores.get(str(r), '–')}"
        for r in view.get("scoring_rounds") or (3, 6, 8)
    )
    put_box(
        image,
        (x0 - 8, y, x1, y + 36),
        t("Round scores") + "   " + words,
        "bold",
        26,
        SMALL_BOLD,
        INK,
        "left",
        8,
        SHEET_FILL,
    )
    y += 40
    if me.get("third_gained"):
        haenyeo = t("{count} Haenyeo", count=me.get("pawns", 2))
    else:
        haenyeo = t(
            "{count} Haenyeo; 3rd costs {cost} eggs at zone 0",
            count=me.get("pawns", 2),
            cost=view.get("third_cost", 2),
        )
    put_box(image, (x0 - 8, y, x1, y + 36), haenyeo, "regular", 26, SMALL, INK, "left", 8, SHEET_FILL)
    y += 42
    nxt = _next_scoring(view)
    if not nxt:
        return
    r, rules = nxt
    put_text(
        image,
        (x0, y + 16),
        t("Next scoring, after round {round}:", round=r),
        "bold",
        SMALL_BOLD,
        INK,
        "lm",
        SHEET_FILL,
    )
    y += 36
    for rule in rules[:4]:
        put_box(
            image,
            (x0 - 8, y, x1, y + 32),
            "• " + rule_text(rule),
            "regular",
            SMALL,
            SMALL,
            INK,
            "left",
            8,
            SHEET_FILL,
        )
        y += 32


def render_private(view: dict, names: Sequence[object] | None = None) -> Picture:
    """One seat's picture: what it is asked, its diving cards (selection included) and its full sheet."""
    you = view.get("you") or {}
    seat = int(you["seat"])
    players = view.get("players") or []
    if not 0 <= seat < len(players):
        raise RenderError(f"seat {seat} is not at this table")
    me = players[seat]
    sheet = _sheet_key(view, me)
    image = _private_layer(sheet).copy()  # palette mode: what is drawn on it is mapped already
    draw = ImageDraw.Draw(image)
    image.paste(_token_block(seat), (LABEL_X - 6, SHEET_TOP + 6))  # centred at (LABEL_X + 18, +30)
    t = common.words()
    label = drawn_name(seat, names)
    if view.get("phase") == "select" and not you.get("confirmed"):
        sub = t("{name}: choose {count}", name=label, count=you.get("must_select", 2))
    else:
        asked = ((view.get("current") or {}).get("waiting_for") or {}).get("seat") == seat
        sub = (
            t("{name}: your move", name=label)
            if asked
            else t("{name} · {status}", name=label, status=short_status(view))
        )
    put_box(
        image,
        (title_bar_right(GAME, WIDTH), 0, RIGHT, TITLE_H),
        sub,
        "bold",
        32,
        SMALL_BOLD,
        WHITE,
        "right",
        ground=title_text(GAME).colour,
    )
    _draw_banner(image, draw, view, you, seat, names)
    _draw_hand(image, you, seat, bool(view.get("revealed")))
    _draw_own_sheet(image, draw, view, me, sheet)
    _draw_own_scores(image, view, me)
    return picture(
        image, private_alt(view, names), f"haenyeo-seat-{player(seat).letter}.png", palette=palette()
    )


def _ask_words(view: dict, seat: int) -> str:
    t = common.words()
    current = view.get("current") or {}
    waiting = current.get("waiting_for") or {}
    if waiting.get("seat") != seat:
        return ""
    return t(
        "Your move in zone {zone}: {ask}.",
        zone=current.get("zone", 0),
        ask=_your_ask(waiting.get("decision")),
    )


def private_alt(view: dict, names: Sequence[object] | None) -> list[str]:
    t = common.words()
    you = view["you"]
    seat = int(you["seat"])
    me = view["players"][seat]
    selected = ", ".join(str(z) for z in you.get("selected") or []) or t("none")
    state = t("confirmed") if you.get("confirmed") else t("choose {count}", count=you.get("must_select", 2))
    parts = [
        t("Your Haenyeo picture, {name}. {status}.", name=_who(seat, names), status=status_text(view, names)),
        t("Your diving cards: {state}; selected zones {zones}.", state=state, zones=selected),
        _ask_words(view, seat),
        f"{_score_words(view, me)}.",
        t("Your sheet: {sheet}.", sheet=_sheet_words(me, view)),
    ]
    if me.get("trash"):
        kinds = ", ".join(t(TRASH_SHORT[kind]) if kind in TRASH_SHORT else kind for kind in me["trash"])
        parts.append(t("Trash types: {kinds}.", kinds=kinds))
    nxt = _next_scoring(view)
    if nxt:
        rules = "; ".join(rule_text(r) for r in nxt[1])
        parts.append(t("Next scoring after round {round}: {rules}.", round=nxt[0], rules=rules))
    return parts


# --------------------------------------------------------------------------- entry point


def render(view: dict, names: Sequence[object] | None = None) -> Picture:
    """A seat's picture when the view is a seated player's own (``"you"``), else the public board."""
    if not isinstance(view, dict) or view.get("game", GAME) != GAME or "zones" not in view:
        raise RenderError("not a Haenyeo view")
    you = view.get("you")
    if (
        isinstance(you, dict)
        and isinstance(you.get("seat"), int)
        and 0 <= you["seat"] < len(view.get("players") or [])
    ):
        return render_private(view, names)
    return render_board(view, names)  # public, or a spectator's view: the board


__all__ = ["board_layout", "render", "render_board", "render_private"]
