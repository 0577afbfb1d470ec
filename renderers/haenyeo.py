"""Haenyeo: Sea Divers of Jeju pictures: the public board and a seat's own picture, from
`engine.haenyeo.view` views (its module docstring is the view shape).

Public board (1400x1110): on the left the sea, one row per zone from the surface
(0) down to the pearl zone (11), the shallow (1–4) and deep (5–10) parts in
their own colours and named on a band; each zone's slots with the items of this
round's sea cards (a harvested slot is covered by a net and shows who took it),
then the divers (the seat's token) and sea creatures (a fish in the owner's
colour with the owner's letter) placed there. After the reveal a rope runs
from the surface through every connected zone; a cut-off zone gets a red ✗.
On the right: the round track (scoring rounds starred) and the first player,
where the round stands (who still chooses, which zone acts, who is asked), the
sea cards, and the score tile. Along the bottom, each player's sheet: seafood
tracks, turtle eggs unused and used, trash types, pearls and the score so far.

A seat's picture (1400x840): that seat's 12 diving cards (the selected ones
raised and ringed in gold), then its full sheet: the five seafood tracks space
by space, the turtle-egg circles (drawn, crossed out), the ten trash types, the
pearl track with its points and bonuses, the round scores and the rules of the
next scoring round.

The public picture is drawn from the public view only; a spectator's view gets
the board.
"""

from __future__ import annotations

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
from renderers.haenyeo_sprites import (
    SEAFOOD_SHORT,
    TRASH_SHORT,
    creature_image,
    diver_image,
    item_image,
    net_image,
    owner_letter,
)

GAME = "haenyeo"
WIDTH = 1400
BOARD_H = 1160
PRIVATE_H = 840
GOLD = (191, 144, 0)
RED = (200, 30, 30)
ROPE = (150, 100, 50)
SEA_BLUE = (14, 58, 98)

#: Zone part colours (row backgrounds and diving cards), light to dark with depth.
PART_COLOURS: dict[str, tuple[int, int, int]] = {
    "surface": (214, 236, 246),
    "shallow": (170, 222, 228),
    "deep": (110, 166, 210),
    "pearl": (44, 74, 130),
}
PART_NAMES = {"surface": "Surface", "shallow": "Shallow sea", "deep": "Deep sea", "pearl": "Pearls"}
SEAFOOD = ("conch", "abalone", "mustard", "urchin", "octopus")
ITEM_WORDS = {
    "conch": "conch",
    "abalone": "abalone",
    "mustard": "sea mustard",
    "urchin": "sea urchin",
    "octopus": "octopus",
    "egg": "turtle egg",
}
#: Short forms of the Scoring Reference rules (the view's full text is the fallback).
RULE_SHORT = {
    "conch_each": "Conch: 3 pts each",
    "abalone_urchin_sets": "Abalone + urchin sets: 6 each",
    "mustard_times_abalone": "Sea mustard × abalone",
    "most_urchin": "Most urchins: 15",
    "fewest_conch_mustard_sets": "Fewest conch + mustard sets: 15",
    "fewest_octopus": "Fewest octopus: 15",
    "four_kind_sets": "4-kind sets: 10/20/30/40",
    "conch_ladder": "Conch 2/4/6/8+: 5/10/15/25",
}
DECISIONS = {
    "zone0": "to use turtle eggs",
    "harvest": "to pick a slot",
    "trash_bonus": "to pick a trash bonus",
    "seafood_bonus": "to pick seafood",
}

# --------------------------------------------------------------------------- geometry

SEA_X0, SEA_X1 = 24, 900
SEA_TOP = TITLE_H + 14
ROW_H = 60
BAND_X1 = 62
BADGE_X = 90
ROPE_X = 132
SLOT_X0, SLOT_W, SLOT_GAP = 160, 110, 6
MARK_X0 = SLOT_X0 + 4 * SLOT_W + 3 * SLOT_GAP + 12
RIGHT_X0, RIGHT_X1 = 916, WIDTH - 24
LEGEND_TOP = SEA_TOP + 12 * ROW_H + 8  # the icon legend under the sea
LEGEND_H = 44
STRIP_TOP = LEGEND_TOP + LEGEND_H + 8
#: The icon legend under the sea: (item sprite, its name), left to right.
LEGEND = (
    ("conch", "conch"),
    ("abalone", "abalone"),
    ("mustard", "sea mustard"),
    ("urchin", "sea urchin"),
    ("octopus", "octopus"),
    ("egg", "turtle egg"),
    ("trash", "trash"),
    ("pearl", "pearl"),
)


def _row_y(zone: int) -> int:
    return SEA_TOP + zone * ROW_H


def _part(zone: int) -> str:
    return "surface" if zone == 0 else "shallow" if zone <= 4 else "deep" if zone <= 10 else "pearl"


# --------------------------------------------------------------------------- words


def _score_words(view: dict, me: dict) -> str:
    seat = int(me.get("seat", 0))
    if isinstance(view.get("result"), dict):
        return f"Final score {_score(view, seat, me)}"
    return f"Score so far {me.get('score_so_far', 0)}"


def _score(view: dict, seat: int, p: dict) -> int:
    """The final score once the game is over (bonuses included), else the rounds scored so far."""
    result = view.get("result")
    if isinstance(result, dict):
        scores = result.get("scores") or []
        if 0 <= seat < len(scores):
            return int(scores[seat])
    return int(p.get("score_so_far", 0))


def _alt_letter(owner: int | str | None) -> str:
    return "NPC" if owner == "npc" else owner_letter(owner) if owner is not None else "?"


def _who(owner: int | str, names: Sequence[object] | None) -> str:
    return "the NPC" if owner == "npc" else seat_label(int(owner), names)


def _short(owner: int | str, names: Sequence[object] | None) -> str:
    return "NPC" if owner == "npc" else drawn_name(int(owner), names)


def item_word(item: str) -> str:
    if item.startswith("trash:"):
        return f"trash ({TRASH_SHORT.get(item[6:], item[6:])})"
    return ITEM_WORDS.get(item, item)


def rule_text(rule: dict) -> str:
    return RULE_SHORT.get(str(rule.get("key")), str(rule.get("text", rule.get("key", ""))))


def trash_points(view: dict, types: int) -> int:
    table = (view.get("score_tile") or {}).get("trash") or [0]
    return int(table[min(types, len(table) - 1)])


def status_text(view: dict, names: Sequence[object] | None) -> str:
    """Where the round stands, in one line: "Round 5 of 8: choosing diving cards"."""
    phase = view.get("phase")
    head = f"Round {view.get('round', 1)} of {view.get('rounds', 8)}"
    if phase == "end":
        return "Game over"
    if phase == "select":
        return f"{head}: choosing diving cards"
    current = view.get("current") or {}
    waiting = current.get("waiting_for")
    if waiting:
        return (
            f"{head}: zone {current.get('zone', 0)}, {_short(waiting['seat'], names)} "
            f"{DECISIONS.get(waiting.get('decision'), 'to choose')}"
        )
    return f"{head}: zone {current.get('zone', 0)} acts"


def short_status(view: dict) -> str:
    """The title bar's few words: "Round 5/8 · choosing cards", "Round 5/8 · zone 4"."""
    phase = view.get("phase")
    if phase == "end":
        return "Game over"
    head = f"Round {view.get('round', 1)}/{view.get('rounds', 8)}"
    if phase == "select":
        return f"{head} · choosing cards"
    return f"{head} · zone {(view.get('current') or {}).get('zone', 0)}"


def _connection_words(reach: int) -> str:
    if reach >= 11:
        return "all zones connected"
    if reach <= 0:
        return "only zone 0 connected, 1+ cut off"
    return f"connected: zones 0–{reach}, {reach + 1}+ cut off"


# --------------------------------------------------------------------------- static layer


@lru_cache(maxsize=16)
def _board_background(seats: int, tile: tuple) -> Image.Image:
    """The sea's rows, bands and zone numbers, the right-hand panels, the score tile (drawn once)."""
    image, draw = canvas(GAME, BOARD_H, WIDTH)
    # the sea
    for zone in range(12):
        y = _row_y(zone)
        part = _part(zone)
        draw.rectangle((SEA_X0, y, SEA_X1, y + ROW_H - 1), fill=PART_COLOURS[part])
        if zone:
            draw.line((BAND_X1, y, SEA_X1, y), fill=(255, 255, 255), width=2)
        fill = WHITE if part != "pearl" else (250, 236, 170)
        draw.ellipse(
            (BADGE_X - 22, y + ROW_H / 2 - 22, BADGE_X + 22, y + ROW_H / 2 + 22),
            fill=fill,
            outline=INK,
            width=3,
        )
        draw.text((BADGE_X, y + ROW_H / 2), str(zone), font=font("bold", 26), fill=INK, anchor="mm")
    # part bands on the left, names written upwards
    for part, first, last in (("surface", 0, 0), ("shallow", 1, 4), ("deep", 5, 10), ("pearl", 11, 11)):
        y0, y1 = _row_y(first), _row_y(last) + ROW_H - 1
        band = tuple(max(0, c - 60) for c in PART_COLOURS[part])
        draw.rectangle((SEA_X0, y0, BAND_X1, y1), fill=band)
        if last > first:
            label = f"{PART_NAMES[part]} {first}–{last}"
            size = 26
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
    draw.rectangle((SEA_X0, SEA_TOP, SEA_X1, _row_y(12)), outline=INK, width=3)
    # zone 0 and zone 11 words
    y0 = _row_y(0) + ROW_H / 2
    draw_text(draw, (SLOT_X0, y0), "Surface", "bold", 26, INK, "lm")
    y11 = _row_y(11) + ROW_H / 2
    paste_centred(image, item_image("pearl", 40), (SLOT_X0 + 20, y11))
    draw_text(draw, (SLOT_X0 + 48, y11), "Pearls: 1 per Haenyeo", "bold", 26, WHITE, "lm")
    _draw_legend(image, draw)
    # right column panels
    panel(draw, (RIGHT_X0, SEA_TOP, RIGHT_X1, SEA_TOP + 136))
    draw_text(draw, (RIGHT_X0 + 16, SEA_TOP + 26), "Rounds", "bold", 28, INK, "lm")
    draw_text(draw, (RIGHT_X1 - 16, SEA_TOP + 26), "★ = scoring", "regular", 24, MUTED, "rm")
    for r in range(1, 9):
        cx, cy = _round_centre(r)
        draw.ellipse((cx - 22, cy - 22, cx + 22, cy + 22), fill=WHITE, outline=INK, width=3)
        draw.text((cx, cy), str(r), font=font("bold", 26), fill=INK, anchor="mm")
    for r in (3, 6, 8):
        cx, cy = _round_centre(r)
        draw.text((cx + 18, cy - 20), "★", font=font("bold", 24), fill=GOLD, anchor="mm")
    panel(draw, (RIGHT_X0, SEA_TOP + 146, RIGHT_X1, SEA_TOP + 266))
    # score tile
    top = SEA_TOP + 276
    bottom = _row_y(12)
    panel(draw, (RIGHT_X0, top, RIGHT_X1, bottom), fill=(255, 250, 236))
    name, rounds, trash = tile
    text_in_box(
        draw,
        (RIGHT_X0 + 6, top + 4, RIGHT_X1 - 6, top + 44),
        f"Score tile: {name}",
        "bold",
        28,
        22,
        INK,
        "left",
    )
    y = top + 48
    count = sum(len(rules) for _, rules in rounds) or 1
    line_h = min(32, int((bottom - 84 - y - 6 * len(rounds)) / count))
    for r, rules in rounds:
        draw.rounded_rectangle((RIGHT_X0 + 12, y + 1, RIGHT_X0 + 62, y + line_h - 1), radius=8, fill=SEA_BLUE)
        draw.text((RIGHT_X0 + 37, y + line_h / 2), f"R{r}", font=font("bold", 22), fill=WHITE, anchor="mm")
        for text in rules:
            text_in_box(
                draw, (RIGHT_X0 + 66, y, RIGHT_X1 - 6, y + line_h), text, "regular", 24, 17, INK, "left"
            )
            y += line_h
        y += 6
    last = len(trash) - 1
    while last > 2 and trash[last] == trash[last - 1]:
        last -= 1
    steps = [f"{n}={p}" for n, p in enumerate(trash[: last + 1]) if n >= 2]
    if steps:
        steps[-1] = steps[-1].replace("=", "+=")
        half = (len(steps) + 1) // 2
        draw.line((RIGHT_X0 + 12, bottom - 82, RIGHT_X1 - 12, bottom - 82), fill=PANEL_LINE, width=2)
        draw_text(draw, (RIGHT_X0 + 16, bottom - 58), "Trash", "bold", 24, INK, "lm")
        x = RIGHT_X0 + 16 + text_width("Trash", "bold", 24) + 6
        for k, row in enumerate((steps[:half], steps[half:])):
            box = (x, bottom - 76 + 34 * k, RIGHT_X1 - 6, bottom - 40 + 34 * k)
            text_in_box(draw, box, " ".join(row), "regular", 24, 18, INK, "left", pad=6)
    return image


def _draw_legend(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    """Each icon of the sea and the sheets with its name, in one line under the sea."""
    y = LEGEND_TOP + LEGEND_H / 2
    icon, gap = 34, 22
    size = 26
    room = RIGHT_X1 - SEA_X0 - 8
    while size > 18:
        words = sum(text_width(word, "regular", size) for _, word in LEGEND)
        if words + (icon + 6) * len(LEGEND) + gap * (len(LEGEND) - 1) <= room:
            break
        size -= 1
    x = SEA_X0 + 4
    for key, word in LEGEND:
        paste_centred(image, item_image(key, icon), (x + icon / 2, y))
        x += icon + 6 + draw_text(draw, (x + icon + 6, y), word, "regular", size, INK, "lm") + gap


def _round_centre(r: int) -> tuple[float, float]:
    step = (RIGHT_X1 - RIGHT_X0 - 40) / 8
    return RIGHT_X0 + 20 + step * (r - 0.5), SEA_TOP + 76


def _tile_key(view: dict) -> tuple:
    tile = view.get("score_tile") or {}
    rounds = tuple(
        (str(r), tuple(rule_text(rule) for rule in rules))
        for r, rules in sorted((tile.get("rounds") or {}).items(), key=lambda kv: int(kv[0]))
    )
    return str(tile.get("name", "?")), rounds, tuple(int(p) for p in tile.get("trash") or ())


# --------------------------------------------------------------------------- the sea


def _draw_slot(
    image: Image.Image, draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], slot: dict
) -> None:
    x0, y0, x1, y1 = box
    items = [str(i) for i in slot.get("items") or []]
    taken = slot.get("taken_by")
    faded = taken is not None
    draw.rounded_rectangle(box, radius=10, fill=(236, 240, 240) if faded else WHITE, outline=INK, width=2)
    cy = (y0 + y1) / 2
    if len(items) == 1 and items[0].startswith("trash:"):
        paste_centred(image, item_image("trash", 30, faded), (x0 + 20, cy))
        label = TRASH_SHORT.get(items[0][6:], items[0][6:])
        text_in_box(
            draw, (x0 + 32, y0, x1, y1), label, "bold", 22, 15, MUTED if faded else INK, "left", pad=4
        )
    else:
        size = 40
        width = len(items) * size + (len(items) - 1) * 4
        x = (x0 + x1) / 2 - width / 2 + size / 2
        for item in items:
            key = "trash" if item.startswith("trash:") else item
            paste_centred(image, item_image(key, size, faded), (x, cy))
            x += size + 4
    if faded:
        net = net_image(x1 - x0 - 4, y1 - y0 - 4)
        image.paste(net, (x0 + 2, y0 + 2), net)
        paste_centred(image, diver_image(taken, 14), (x1 - 14, y0 + 14))


def _draw_sea(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict) -> None:
    zones = view.get("zones") or []
    revealed = bool(view.get("revealed"))
    current = (view.get("current") or {}).get("zone")
    reach = view.get("reach")
    if revealed and isinstance(reach, int):
        bottom = _row_y(max(0, min(11, reach))) + ROW_H / 2
        draw.line((ROPE_X, SEA_TOP + 6, ROPE_X, bottom), fill=ROPE, width=8)
    for zone_view in zones[:12]:
        zone = int(zone_view.get("zone", 0))
        y = _row_y(zone)
        cy = y + ROW_H / 2
        if current == zone and view.get("phase") == "actions":
            draw.rectangle((BAND_X1 + 2, y + 2, SEA_X1 - 3, y + ROW_H - 3), outline=HIGHLIGHT, width=5)
        connected = zone_view.get("connected")
        if revealed and connected:
            draw.ellipse((ROPE_X - 9, cy - 9, ROPE_X + 9, cy + 9), fill=ROPE, outline=INK, width=2)
        elif revealed and connected is False:
            draw.ellipse((ROPE_X - 15, cy - 15, ROPE_X + 15, cy + 15), fill=RED, outline=WHITE, width=2)
            draw.text((ROPE_X, cy), "✗", font=font("bold", 22), fill=WHITE, anchor="mm")
        for i, slot in enumerate((zone_view.get("slots") or [])[:4]):
            x = SLOT_X0 + i * (SLOT_W + SLOT_GAP)
            _draw_slot(image, draw, (x, y + 6, x + SLOT_W, y + ROW_H - 6), slot)
        pieces: list[tuple[str, int | str]] = [("diver", d) for d in zone_view.get("divers") or []]
        pieces += [("creature", c.get("owner")) for c in zone_view.get("creatures") or []]
        if pieces:
            room = SEA_X1 - 10 - MARK_X0
            step = min(44.0, room / len(pieces))
            x = MARK_X0 + 20
            for kind, owner in pieces:
                if owner is None:
                    continue
                sprite = diver_image(owner, 18) if kind == "diver" else creature_image(owner, 30)
                paste_centred(image, sprite, (x + (6 if kind == "creature" else 0), cy))
                x += step + (8 if kind == "creature" else 0) * (step >= 44)
    if not revealed:
        waiting = [p for p in view.get("players") or [] if not p.get("third_gained")]
        if waiting:
            y = _row_y(0) + ROW_H / 2
            x = SLOT_X0 + 130
            draw_text(draw, (x, y), "3rd Haenyeo waits:", "regular", 24, INK, "lm")
            x += text_width("3rd Haenyeo waits:", "regular", 24) + 26
            for p in waiting:
                paste_centred(image, token_image(int(p.get("seat", 0)), 15), (x, y))
                x += 38
    if not zones:
        raise RenderError("a Haenyeo view without zones")


# --------------------------------------------------------------------------- right column


def _draw_rounds(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, names) -> None:
    current = int(view.get("round", 1))
    done = view.get("phase") == "end"
    for r in range(1, 9):
        cx, cy = _round_centre(r)
        if r < current or (done and r == current):
            draw.ellipse((cx - 22, cy - 22, cx + 22, cy + 22), fill=(200, 206, 214), outline=INK, width=3)
            draw.text((cx, cy), str(r), font=font("bold", 26), fill=MUTED, anchor="mm")
        elif r == current:
            draw.ellipse((cx - 26, cy - 26, cx + 26, cy + 26), fill=SEA_BLUE, outline=HIGHLIGHT, width=5)
            draw.text((cx, cy), str(r), font=font("bold", 28), fill=WHITE, anchor="mm")
    first = view.get("first_player")
    y = SEA_TOP + 114
    draw_text(draw, (RIGHT_X0 + 16, y), "First player", "bold", 26, INK, "lm")
    if isinstance(first, int):
        x = RIGHT_X0 + 20 + text_width("First player", "bold", 26) + 28
        paste_centred(image, token_image(first, 16), (x, y))
        text_in_box(
            draw,
            (x + 20, y - 18, RIGHT_X1 - 8, y + 18),
            drawn_name(first, names),
            "bold",
            26,
            20,
            INK,
            "left",
        )


def _draw_status(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, names) -> None:
    top = SEA_TOP + 146
    x0, x1 = RIGHT_X0 + 14, RIGHT_X1 - 14
    phase = view.get("phase")
    y = top + 26
    if phase == "select":
        draw_text(draw, (x0, y), "Choosing cards:", "bold", 26, INK, "lm")
        x = x0 + text_width("Choosing cards:", "bold", 26) + 30
        waiting = view.get("to_act") or []
        for seat in waiting:
            paste_centred(image, token_image(int(seat), 16), (x, y))
            x += 40
        if not waiting:
            draw_text(draw, (x - 10, y), "all ready", "regular", 26, MUTED, "lm")
    elif phase == "actions":
        current = view.get("current") or {}
        waiting = current.get("waiting_for")
        line = f"Zone {current.get('zone', 0)} acts"
        draw_text(draw, (x0, y), line, "bold", 26, INK, "lm")
        x = x0 + text_width(line, "bold", 26) + 14
        if waiting:
            paste_centred(image, diver_image(waiting["seat"], 16), (x + 18, y))
            text_in_box(
                draw,
                (x + 38, y - 18, x1, y + 18),
                DECISIONS.get(waiting.get("decision"), "to choose"),
                "regular",
                26,
                18,
                INK,
                "left",
                pad=4,
            )
    else:
        draw_text(draw, (x0, y), "Game over: final scores", "bold", 26, INK, "lm")
    y += 40
    reach = view.get("reach")
    if view.get("revealed") and isinstance(reach, int):
        words = _connection_words(reach)
        text_in_box(draw, (x0 - 8, y - 18, x1, y + 18), words, "regular", 26, 18, INK, "left", pad=8)
    else:
        draw_text(draw, (x0, y), "connection shown at the reveal", "regular", 24, MUTED, "lm")
    y += 38
    # legend: a Haenyeo (diver) is the seat's token, a creature a fish with the owner's letter
    seat = 0
    paste_centred(image, diver_image(seat, 14), (x0 + 14, y))
    x = x0 + 34 + draw_text(draw, (x0 + 34, y), "Haenyeo", "regular", 24, INK, "lm") + 18
    paste_centred(image, creature_image(seat, 26), (x + 20, y))
    x += 44 + draw_text(draw, (x + 44, y), "creature", "regular", 24, INK, "lm") + 18
    if view.get("npc"):
        paste_centred(image, diver_image("npc", 14), (x + 14, y))
        draw_text(draw, (x + 34, y), "NPC", "regular", 24, INK, "lm")


# --------------------------------------------------------------------------- players' sheets (board)


def _draw_sheets(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, names) -> None:
    players = view.get("players") or []
    seats = max(1, len(players))
    gap = 12
    width = (WIDTH - 48 - gap * (seats - 1)) / seats
    top, bottom = STRIP_TOP, BOARD_H - 14
    acting = set(view.get("to_act") or [])
    select = view.get("phase") == "select"
    for i, p in enumerate(players):
        seat = int(p.get("seat", i))
        style = player(seat)
        x0 = 24 + i * (width + gap)
        x1 = x0 + width
        hot = seat in acting
        panel(
            draw,
            (x0, top, x1, bottom),
            fill=style.light,
            outline=GOLD if hot else PANEL_LINE,
            radius=16,
            width=6 if hot else 2,
        )
        paste_centred(image, token_image(seat, 18), (x0 + 28, top + 28))
        score = f"{_score(view, seat, p)}" + (" pts" if width >= 320 else "")
        draw.text((x1 - 12, top + 28), score, font=font("bold", 32), fill=INK, anchor="rm")
        score_w = text_width(score, "bold", 32)
        text_in_box(
            draw,
            (x0 + 46, top + 6, x1 - score_w - 16, top + 50),
            drawn_name(seat, names),
            "bold",
            28,
            22,
            INK,
            "left",
            pad=4,
        )
        # seafood: icon, count, a bar of the track filled
        col = (width - 16) / 5
        size = int(min(44, col - 10))
        y = top + 60
        for k, key in enumerate(SEAFOOD):
            cx = x0 + 8 + col * (k + 0.5)
            count = int((p.get("seafood") or {}).get(key, 0))
            length = max(1, int((p.get("tracks") or {}).get(key, 12)))
            paste_centred(image, item_image(key, size), (cx, y + size / 2))
            draw.text(
                (cx, y + size + 16),
                str(count),
                font=font("bold", 28),
                fill=INK if count else MUTED,
                anchor="mm",
            )
            bar_w = min(col - 12, 60)
            bx = cx - bar_w / 2
            by = y + size + 34
            draw.rectangle((bx, by, bx + bar_w, by + 7), fill=WHITE, outline=INK, width=1)
            if count:
                draw.rectangle((bx, by, bx + bar_w * min(1, count / length), by + 7), fill=INK)
        y = top + 60 + size + 60
        eggs, used = int(p.get("turtle_eggs", 0)), int(p.get("turtle_eggs_used", 0))
        types = len(p.get("trash") or [])
        pearls = int(p.get("pearls", 0))
        lines = [
            ("egg", f"{eggs - used} unused, {used} used"),
            ("trash", f"{types} trash type{'' if types == 1 else 's'} = {trash_points(view, types)}"),
            ("pearl", f"{pearls} pearl{'' if pearls == 1 else 's'} = {p.get('pearl_points', 0)}"),
        ]
        for key, text in lines:
            paste_centred(image, item_image(key, 30), (x0 + 24, y))
            text_in_box(draw, (x0 + 40, y - 17, x1 - 4, y + 17), text, "regular", 26, 18, INK, "left", pad=4)
            y += 36
        if select and p.get("confirmed"):  # a green tick on the token: cards locked in
            bx, by = x0 + 44, top + 44
            draw.ellipse((bx - 13, by - 13, bx + 13, by + 13), fill=(30, 130, 50), outline=WHITE, width=2)
            draw.text((bx, by), "✓", font=font("bold", 20), fill=WHITE, anchor="mm")


# --------------------------------------------------------------------------- public board


def render_board(view: dict, names: Sequence[object] | None = None) -> Picture:
    """The public board (also a spectator's picture)."""
    seats = int(view.get("seats") or len(view.get("players") or []) or 2)
    image = _board_background(seats, _tile_key(view)).copy()
    draw = ImageDraw.Draw(image)
    text_in_box(draw, (860, 0, WIDTH - 16, TITLE_H), short_status(view), "bold", 34, 24, WHITE, "right")
    _draw_sea(image, draw, view)
    _draw_rounds(image, draw, view, names)
    _draw_status(image, draw, view, names)
    _draw_sheets(image, draw, view, names)
    return picture(image, board_alt(view, names), "haenyeo-board.png")


def _s(count: int) -> str:
    return "" if count == 1 else "s"


def _sheet_words(p: dict, view: dict) -> str:
    food = ", ".join(f"{SEAFOOD_SHORT.get(k, k).lower()} {v}" for k, v in (p.get("seafood") or {}).items())
    eggs, used = int(p.get("turtle_eggs", 0)), int(p.get("turtle_eggs_used", 0))
    types = len(p.get("trash") or [])
    return (
        f"{food}; turtle eggs {eggs - used} unused, {used} used; {types} trash type{_s(types)} "
        f"({trash_points(view, types)} pts); {p.get('pearls', 0)} pearl{_s(int(p.get('pearls', 0)))} "
        f"({p.get('pearl_points', 0)} pts)"
    )


def legend_words() -> str:
    """The icon legend under the sea, in words (alt text)."""
    return "Icons: " + ", ".join(word for _, word in LEGEND) + "."


def board_alt(view: dict, names: Sequence[object] | None) -> list[str]:
    """Alt text of the public board: status, scores, connection, divers, sea, then sheets and tile."""
    parts = [f"Haenyeo board. {status_text(view, names)}."]
    first = view.get("first_player")
    if isinstance(first, int):
        parts.append(f"First player {_who(first, names)}.")
    players = view.get("players") or []
    scores = [f"{_who(int(p.get('seat', i)), names)} {_score(view, i, p)}" for i, p in enumerate(players)]
    final = isinstance(view.get("result"), dict)
    parts.append(("Final scores: " if final else "Scores so far: ") + "; ".join(scores) + ".")
    if view.get("phase") == "select":
        waiting = [_who(s, names) for s in view.get("to_act") or []]
        if waiting:
            parts.append("Still choosing: " + ", ".join(waiting) + ".")
    parts.append(legend_words())
    reach = view.get("reach")
    zones = view.get("zones") or []
    if view.get("revealed") and isinstance(reach, int):
        parts.append(_connection_words(reach).capitalize() + ".")
        placed = []
        for z in zones:
            who = [_alt_letter(d) for d in z.get("divers") or []]
            pets = [f"{c.get('kind')} {_alt_letter(c.get('owner'))}" for c in z.get("creatures") or []]
            words = ([f"Haenyeo {' '.join(who)}"] if who else []) + (
                [f"creatures {', '.join(pets)}"] if pets else []
            )
            if words:
                placed.append(f"{z.get('zone')}: " + ", ".join(words))
        if placed:
            parts.append("Haenyeo and creatures by zone: " + "; ".join(placed) + ".")
    sea = []
    for z in zones:
        slots = []
        for slot in z.get("slots") or []:
            words = " + ".join(item_word(str(i)) for i in slot.get("items") or [])
            if slot.get("taken_by") is not None:
                words += f" (taken by {_alt_letter(slot['taken_by'])})"
            slots.append(words)
        if slots:
            sea.append(f"{z.get('zone')}: " + ", ".join(slots))
    sheets = [f"{_who(int(p.get('seat', i)), names)}: {_sheet_words(p, view)}" for i, p in enumerate(players)]
    parts.append("Sheets: " + ". ".join(sheets) + ".")
    cards = view.get("sea_cards") or {}
    parts.append(
        f"Sea cards {cards.get('shallow', '?')} (zones 1–4) and {cards.get('deep', '?')} (5–10): "
        + "; ".join(sea)
        + "."
    )
    return parts


# --------------------------------------------------------------------------- a seat's picture

CARD_TOP = TITLE_H + 14
CARD_H = 178
SHEET_TOP = CARD_TOP + CARD_H + 14
CREATURE_SHORT = {"whaleshark": "shark", "ray": "ray", "seahorse": "seahorse"}


@lru_cache(maxsize=8)
def _private_background() -> Image.Image:
    image, draw = canvas(GAME, PRIVATE_H, WIDTH)
    panel(draw, (24, CARD_TOP, WIDTH - 24, CARD_TOP + CARD_H), fill=(236, 244, 248))
    panel(draw, (24, SHEET_TOP, WIDTH - 24, PRIVATE_H - 14), fill=(255, 252, 244))
    draw.line((880, SHEET_TOP + 16, 880, PRIVATE_H - 30), fill=PANEL_LINE, width=3)
    return image


def _card_box(index: int) -> tuple[float, float, float, float]:
    w = (WIDTH - 48 - 24 - 11 * 8) / 12
    x = 36 + index * (w + 8)
    return x, CARD_TOP + 62, x + w, CARD_TOP + CARD_H - 12


def _draw_hand(image: Image.Image, draw: ImageDraw.ImageDraw, you: dict, seat: int) -> None:
    selected = set(you.get("selected") or [])
    must = int(you.get("must_select", 2))
    confirmed = bool(you.get("confirmed"))
    if you.get("phase_revealed"):
        head = "Your diving cards this round"
    else:
        head = f"Your diving cards: choose {must}" if not confirmed else "Your diving cards: confirmed"
    draw_text(draw, (40, CARD_TOP + 30), head, "bold", 30, INK, "lm")
    note = f"selected {len(selected)} of {must}"
    draw_text(draw, (WIDTH - 40, CARD_TOP + 30), note, "bold", 28, GOLD if selected else MUTED, "rm")
    style = player(seat)
    for i, card in enumerate((you.get("hand") or [])[:12]):
        zone = int(card.get("zone", i))
        x0, y0, x1, y1 = _card_box(i)
        chosen = zone in selected
        if chosen:
            y0 -= 10
            y1 -= 10
        part = _part(zone)
        fill = PART_COLOURS[part]
        draw.rounded_rectangle(
            (x0, y0, x1, y1),
            radius=12,
            fill=fill,
            outline=INK if chosen else style.colour,
            width=7 if chosen else 3,
        )
        cx = (x0 + x1) / 2
        draw.text((cx, y0 + 36), str(zone), font=font("bold", 46), fill=ink_on(fill), anchor="mm")
        creature = card.get("creature")
        if creature:
            name = CREATURE_SHORT.get(str(creature), str(creature))
            text_in_box(
                draw, (x0 + 2, y0 + 64, x1 - 2, y0 + 92), name, "bold", 20, 14, ink_on(fill), "center", pad=3
            )
        if chosen:
            draw.ellipse((x1 - 24, y0 - 10, x1 + 6, y0 + 20), fill=HIGHLIGHT, outline=INK, width=2)
            draw.text((x1 - 9, y0 + 5), "✓", font=font("bold", 22), fill=INK, anchor="mm")


def _draw_own_sheet(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, me: dict, seat: int, names
) -> None:
    x0 = 40
    y = SHEET_TOP + 30
    paste_centred(image, token_image(seat, 18), (x0 + 18, y))
    draw_text(draw, (x0 + 46, y), "Your sheet", "bold", 30, INK, "lm")
    current = view.get("current") or {}
    waiting = current.get("waiting_for") or {}
    if waiting.get("seat") == seat:
        ask = DECISIONS.get(waiting.get("decision"), "to choose").removeprefix("to ")
        text = f"Your move in zone {current.get('zone', 0)}: {ask}"
        box = (x0 + 240, y - 22, 868, y + 22)
        draw.rounded_rectangle(box, radius=10, fill=HIGHLIGHT, outline=INK, width=2)
        text_in_box(draw, box, text, "bold", 26, 18, INK, "center", pad=8)
    # seafood tracks, space by space
    y = SHEET_TOP + 78
    box = 30
    for key in SEAFOOD:
        count = int((me.get("seafood") or {}).get(key, 0))
        length = int((me.get("tracks") or {}).get(key, 12))
        paste_centred(image, item_image(key, 40), (x0 + 20, y))
        draw_text(draw, (x0 + 48, y), SEAFOOD_SHORT[key], "bold", 26, INK, "lm")
        bx = x0 + 176
        for k in range(length):
            left = bx + k * (box + 2)
            fill = INK if k < count else WHITE
            draw.rectangle((left, y - box / 2, left + box, y + box / 2), fill=fill, outline=INK, width=2)
        draw.text(
            (bx + 16 * (box + 2) + 12, y), f"{count}/{length}", font=font("bold", 28), fill=INK, anchor="lm"
        )
        y += 48
    # turtle eggs
    y += 8
    eggs, used = int(me.get("turtle_eggs", 0)), int(me.get("turtle_eggs_used", 0))
    spaces = int(me.get("turtle_egg_spaces", 10))
    paste_centred(image, item_image("egg", 40), (x0 + 20, y))
    draw_text(draw, (x0 + 48, y), "Eggs", "bold", 26, INK, "lm")
    bx = x0 + 176
    for k in range(spaces):
        cx = bx + k * 40 + 16
        if k < eggs:
            draw.ellipse((cx - 16, y - 16, cx + 16, y + 16), fill=(252, 244, 214), outline=INK, width=3)
            if k < used:
                draw.line((cx - 11, y - 11, cx + 11, y + 11), fill=RED, width=4)
                draw.line((cx - 11, y + 11, cx + 11, y - 11), fill=RED, width=4)
        else:
            draw.ellipse((cx - 16, y - 16, cx + 16, y + 16), outline=PANEL_LINE, width=3)
    draw.text(
        (bx + spaces * 40 + 8, y), f"{eggs - used} unused", font=font("bold", 26), fill=INK, anchor="lm"
    )
    # pearl track
    y += 62
    paste_centred(image, item_image("pearl", 40), (x0 + 20, y))
    draw_text(draw, (x0 + 48, y), "Pearls", "bold", 26, INK, "lm")
    pearls = int(me.get("pearls", 0))
    bx = x0 + 176
    track = (view.get("pearl_track") or [])[:9]
    for k, space in enumerate(track):
        left = bx + k * 70
        marked = k < pearls
        draw.rounded_rectangle(
            (left, y - 22, left + 62, y + 22),
            radius=8,
            fill=(250, 236, 170) if marked else WHITE,
            outline=INK,
            width=3 if marked else 2,
        )
        # The space's pearl count in the corner ("5 pearls = 30 pts"); a space worth nothing
        # (the first three) shows a dash instead of a number.
        count = f"{k + 1}+" if k == len(track) - 1 else str(k + 1)
        draw.text((left + 6, y - 19), count, font=font("regular", 14), fill=MUTED, anchor="lt")
        points = int(space.get("points", 0))
        draw.text(
            (left + 33, y + 3),
            str(points) if points else "–",
            font=font("bold", 26),
            fill=INK if points else MUTED,
            anchor="mm",
        )
        bonus = space.get("bonus")
        if bonus == "trash":
            paste_centred(image, item_image("trash", 28), (left + 31, y + 40))
        elif bonus:
            draw.text((left + 31, y + 40), "×2 food", font=font("bold", 18), fill=(120, 60, 0), anchor="mm")


def _draw_own_side(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, me: dict) -> None:
    x0, x1 = 900, WIDTH - 40
    y = SHEET_TOP + 30
    types = me.get("trash") or []
    draw_text(
        draw,
        (x0, y),
        f"Trash: {len(types)} types = {trash_points(view, len(types))} pts",
        "bold",
        28,
        INK,
        "lm",
    )
    y += 34
    names = {t["key"]: t.get("name", t["key"]) for t in view.get("trash_types") or [] if isinstance(t, dict)}
    keys = list(names) or list(TRASH_SHORT)
    cw = (x1 - x0 - 10) / 2
    for k, key in enumerate(keys[:10]):
        cx = x0 + (k % 2) * (cw + 10)
        cy = y + (k // 2) * 40
        mine = key in types
        draw.rounded_rectangle(
            (cx, cy, cx + cw, cy + 34),
            radius=8,
            fill=(210, 206, 196) if mine else WHITE,
            outline=INK if mine else PANEL_LINE,
            width=2,
        )
        label = ("✓ " if mine else "") + names.get(key, key)
        text_in_box(
            draw,
            (cx, cy, cx + cw, cy + 34),
            label,
            "bold" if mine else "regular",
            22,
            16,
            INK if mine else MUTED,
            "left",
            pad=8,
        )
    y += 5 * 40 + 16
    scores = me.get("round_scores") or {}
    words = "  ".join(f"R{r}: {scores.get(str(r), '–')}" for r in view.get("scoring_rounds") or (3, 6, 8))
    draw_text(draw, (x0, y + 14), _score_words(view, me), "bold", 28, INK, "lm")
    y += 44
    text_in_box(draw, (x0 - 8, y, x1, y + 34), words, "regular", 26, 18, INK, "left")
    y += 40
    haenyeo = f"{me.get('pawns', 2)} Haenyeo" + (
        "" if me.get("third_gained") else "; 3rd costs 2 eggs at zone 0"
    )
    text_in_box(draw, (x0 - 8, y, x1, y + 34), haenyeo, "regular", 26, 16, INK, "left")
    y += 44
    nxt = _next_scoring(view)
    if nxt:
        r, rules = nxt
        draw_text(draw, (x0, y + 14), f"Next scoring, after round {r}:", "bold", 24, INK, "lm")
        y += 32
        for rule in rules:
            if y + 30 > PRIVATE_H - 20:
                break
            text_in_box(draw, (x0 - 8, y, x1, y + 30), "• " + rule_text(rule), "regular", 22, 15, INK, "left")
            y += 28


def _next_scoring(view: dict) -> tuple[int, list] | None:
    if view.get("phase") == "end":
        return None
    current = int(view.get("round", 1))
    rounds = (view.get("score_tile") or {}).get("rounds") or {}
    for r in sorted(int(k) for k in rounds):
        if r >= current:
            return r, list(rounds[str(r)])
    return None


def render_private(view: dict, names: Sequence[object] | None = None) -> Picture:
    """One seat's picture: its diving cards (selection included) and its full sheet."""
    you = view.get("you") or {}
    seat = int(you["seat"])
    players = view.get("players") or []
    if not 0 <= seat < len(players):
        raise RenderError(f"seat {seat} is not at this table")
    me = players[seat]
    image = _private_background().copy()
    draw = ImageDraw.Draw(image)
    label = drawn_name(seat, names)
    if view.get("phase") == "select" and not you.get("confirmed"):
        sub = f"{label}: choose {you.get('must_select', 2)} cards"
    else:
        asked = ((view.get("current") or {}).get("waiting_for") or {}).get("seat") == seat
        sub = f"{label}: your move" if asked else f"{label} · {short_status(view)}"
    text_in_box(draw, (860, 0, WIDTH - 16, TITLE_H), sub, "bold", 32, 20, WHITE, "right")
    _draw_hand(image, draw, {**you, "phase_revealed": bool(view.get("revealed"))}, seat)
    _draw_own_sheet(image, draw, view, me, seat, names)
    _draw_own_side(image, draw, view, me)
    return picture(image, private_alt(view, names), f"haenyeo-seat-{player(seat).letter}.png")


def _ask_words(view: dict, seat: int) -> str:
    current = view.get("current") or {}
    waiting = current.get("waiting_for") or {}
    if waiting.get("seat") != seat:
        return ""
    ask = DECISIONS.get(waiting.get("decision"), "to choose").removeprefix("to ")
    return f"Your move in zone {current.get('zone', 0)}: {ask}."


def private_alt(view: dict, names: Sequence[object] | None) -> list[str]:
    you = view["you"]
    seat = int(you["seat"])
    me = view["players"][seat]
    selected = ", ".join(str(z) for z in you.get("selected") or []) or "none"
    state = "confirmed" if you.get("confirmed") else f"choose {you.get('must_select', 2)}"
    parts = [
        f"Your Haenyeo picture, {_who(seat, names)}. {status_text(view, names)}.",
        f"Your diving cards: {state}; selected zones {selected}.",
        _ask_words(view, seat),
        f"{_score_words(view, me)}.",
        f"Your sheet: {_sheet_words(me, view)}.",
    ]
    if me.get("trash"):
        parts.append("Trash types: " + ", ".join(TRASH_SHORT.get(t, t) for t in me["trash"]) + ".")
    nxt = _next_scoring(view)
    if nxt:
        parts.append(f"Next scoring after round {nxt[0]}: " + "; ".join(rule_text(r) for r in nxt[1]) + ".")
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


__all__ = ["render", "render_board", "render_private"]
