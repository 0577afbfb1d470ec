"""What each audience sees, plus action labels and menu groups.

View shape (every key, every phase). ``view(state, None)`` is the public view;
``view(state, seat)`` is the same plus that seat's own secrets.

Words: every ``"text"`` below is English; beside it ``"say"`` is the same words as
an `i18n` message (``t.msg(view["boon"]["say"])`` says it in any language). Names
and rules that come as plain English (``reef_name``, ``tracker_name``, a ruin's
``name`` and ``rule_text``, a texture's ``name``, ``title``, the solo ``ratings``)
are catalog ids: ``t(value)`` translates them.

Top level::

    game          "reef"
    title         "Reef & Ruins"
    phase         "lucky" | "round" | "finished"
    to_act        sorted list of seats that owe a move
    seats         number of seats
    viewer        the seat this view is for, or null (public)
    round         current round (0 while lucky numbers are chosen)
    rounds        rounds in the game (18)
    reef          "bewitching-barrier" | "arcane-atoll"
    reef_name     "Bewitching Barrier" | "Arcane Atoll"
    tracker       round-tracker side key ("sunrise" | "moonrise"); tracker_name its name
    dice          the three hydra dice this round ([] outside the round phase, and during the
                  boon step: "everyone gains that Boon before the Hydra dice are rolled", so
                  while a seat still chooses the round's enchantment the dice are not shown)
    boon          this round's boon or null:
                  {"round", "type": roll|die|shells|enchantment, "value" (die value or
                   the shared roll, else 0), "text", "say"}
    confirmed     per seat, true once it confirmed this round (lucky phase: chose its number;
                  boon step: made the boon's choices)
    sheets        per seat, a sheet (below). Public: the sheet as it stood at the start of
                  this round (everyone's work stays hidden until all confirm). In a seat's own
                  view, its own entry is its live working sheet.
    board         the printed components (static, below)
    you           only in a seat's own view: that seat's round work (below)
    result        only when finished: Result.to_dict() plus "ratings" (solo: [title])

Sheet::

    seat, lucky (1-6, public as soon as picked — seats pick in seat order; null until then),
    shells (unspent pairs), shells_earned (pairs ever circled), shells_spent,
    pearls (pearls earned), pearls_lost, pearl_bonuses (per box: crossed off?),
    pearl_coins,
    ruins: [{"number", "name", "rule", "rows": [[value | null, ...], ...] (pyramid:
            row 0 is the base), "coins" (before multiplier), "multiplier",
            "turns" (+/- ONE only: slot indexes where the direction changes — the circled
            icons sit after these values)}],
    enchantments: [{"section", "sum", "ruin", "crossed" (spaces crossed off, from the left)}],
    reef: Barrier {"marked": rows x cols of bool (Start is true)}
          Atoll   {"cells": rows x cols of int (0 empty, else 1-based index into shapes),
                   "shapes": [{"value", "single", "lucky" (counts for the lucky number),
                               "cells": [[row, col], ...]}]},
    score: {"ruins", "enchantments", "lucky", "pearls", "total"} (as it would end now),
    changed: what the last round changed (public) or this round's work so far (own view):
             {"ruins": [[ruin number, slot], ...], "reef": [[row, col], ...],
              "enchantments": [section, ...], "pearl_bonuses": [box, ...],
              "shells": change in unspent pairs}

Board::

    ruins: [{"number", "name", "rule", "rule_word", "rule_text", "rows" (lengths), "row_coins",
             "reach_coins", "turn_bonus", "column_sums", "column_coins"}]
    enchantments: [{"section", "sum", "ruin", "spaces": [{"coins", "boon", "value", "text", "say"}]}]
    pearl_bonuses: [{"type": die|coins|enchantment, "value", "text", "say"}]
    reef: Barrier {"rows", "cols", "start": [r, c], "values": rows x cols (0 = Start),
                   "highlighted": [[r, c], ...]}
          Atoll {"rows", "cols", "textures": [{"name", "cells": [[r, c], ...]}],
                 "shapes": {"1": [[r, c], ...], ...}}
    tracker: [{"round", "type", "value", "text", "say"}]  (the chosen side)
    lucky_coins, shell_pairs (pairs the sheet holds)

You (own view, round phase; lucky phase: {"lucky_choice"})::

    confirmed, dice: [{"index", "value" (after shells), "printed", "kind" (hydra|roll|boon; a
    "roll" die may be left unwritten),
    "shells" (adjustment), "used"}], searched (ruin or null), cast (section or null),
    picked (die index or null), placing (null | "shape" | "singles" | "second-single"),
    orientation (Atoll shape orientation index or null), pending (["pearl" | "enchant", ...])
"""

from __future__ import annotations

import i18n
from engine.base import Result
from engine.reef import rules
from engine.reef.actions import Act
from engine.reef.components import (
    ATOLL,
    BARRIER,
    LUCKY_COINS,
    PEARLS,
    ROUNDS,
    RUINS,
    RULE_TEXT,
    RULE_WORDS,
    SECTIONS,
    SHELL_PAIRS,
    SIDE_NAMES,
    TRACKER,
    rating,
)
from engine.reef.scoring import breakdown, multiplier, ruin_coins
from engine.reef.sheet import die_value, turns
from engine.reef.state import BARRIER_KEY, EMPTY, ReefState, Sheet
from i18n import N_


def _rc(cell: int, cols: int) -> list[int]:
    return list(divmod(cell, cols))


def board(reef_key: str, side: str) -> dict:
    """The printed components, for renderers."""
    if reef_key == BARRIER_KEY:
        reef = {
            "rows": BARRIER.rows,
            "cols": BARRIER.cols,
            "start": _rc(BARRIER.start, BARRIER.cols),
            "values": [
                list(BARRIER.values[r * BARRIER.cols : (r + 1) * BARRIER.cols]) for r in range(BARRIER.rows)
            ],
            "highlighted": sorted(_rc(c, BARRIER.cols) for c in BARRIER.highlighted),
        }
    else:
        textures: dict[int, list[list[int]]] = {}
        for cell, t in enumerate(ATOLL.texture_of):
            if t >= 0:
                textures.setdefault(t, []).append(_rc(cell, ATOLL.cols))
        reef = {
            "rows": ATOLL.rows,
            "cols": ATOLL.cols,
            "textures": [{"name": ATOLL.texture_names[t], "cells": textures[t]} for t in sorted(textures)],
            "shapes": {str(v): [list(p) for p in o[0]] for v, o in sorted(ATOLL.shapes.items())},
        }
    return {
        "ruins": [
            {
                "number": r.number,
                "name": r.name,
                "rule": r.rule,
                "rule_word": RULE_WORDS[r.rule],
                "rule_text": RULE_TEXT[r.rule],
                "rows": [len(row) for row in r.rows],
                "row_coins": list(r.row_coins),
                "reach_coins": list(r.reach_coins),
                "turn_bonus": list(r.turn_bonus),
                "column_sums": list(r.column_sums),
                "column_coins": list(r.column_coins),
            }
            for r in RUINS
        ],
        "enchantments": [
            {
                "section": s,
                "sum": sec.total,
                "ruin": sec.ruin,
                "spaces": [
                    {
                        "coins": sp.coins,
                        "boon": sp.boon,
                        "value": sp.value,
                        "text": sp.text(),
                        "say": sp.say(),
                    }
                    for sp in sec.spaces
                ],
            }
            for s, sec in enumerate(SECTIONS)
        ],
        "pearl_bonuses": [
            {"type": p.kind, "value": p.value, "text": p.text(), "say": p.say()} for p in PEARLS
        ],
        "reef": reef,
        "tracker": [
            {"round": n, "type": b.kind, "value": b.value, "text": b.text(), "say": b.say()}
            for n, b in sorted(TRACKER[side].items())
        ],
        "lucky_coins": LUCKY_COINS,
        "shell_pairs": SHELL_PAIRS,
    }


def _changed(before: Sheet | None, after: Sheet, reef_key: str) -> dict:
    if before is None:
        return {"ruins": [], "reef": [], "enchantments": [], "pearl_bonuses": [], "shells": 0}
    rows, cols = (BARRIER.rows, BARRIER.cols) if reef_key == BARRIER_KEY else (ATOLL.rows, ATOLL.cols)
    diff = after.reef & ~before.reef
    return {
        "ruins": [
            [r + 1, i]
            for r in range(len(RUINS))
            for i, (a, b) in enumerate(zip(before.ruins[r], after.ruins[r], strict=True))
            if a != b
        ],
        "reef": [_rc(c, cols) for c in range(rows * cols) if diff >> c & 1],
        "enchantments": [s for s in range(len(SECTIONS)) if after.ench[s] != before.ench[s]],
        "pearl_bonuses": [i for i in range(len(PEARLS)) if (after.bonuses & ~before.bonuses) >> i & 1],
        "shells": after.shells - before.shells,
    }


def sheet_view(sheet: Sheet, seat: int, reef_key: str, before: Sheet | None, lucky: int | None) -> dict:
    """One seat's pads as JSON."""
    ruins = []
    for r, ruin in enumerate(RUINS):
        slots = sheet.ruins[r]
        entry = {
            "number": ruin.number,
            "name": ruin.name,
            "rule": ruin.rule,
            "rows": [[None if slots[x] == EMPTY else slots[x] for x in row] for row in ruin.rows],
            "coins": ruin_coins(ruin, slots),
            "multiplier": multiplier(sheet.ench, r),
        }
        if ruin.rule == "plus-minus-one":
            entry["turns"] = turns(slots)
        ruins.append(entry)
    if reef_key == BARRIER_KEY:
        reef = {
            "marked": [
                [bool(sheet.reef >> (r * BARRIER.cols + c) & 1) for c in range(BARRIER.cols)]
                for r in range(BARRIER.rows)
            ]
        }
    else:
        cells = [[0] * ATOLL.cols for _ in range(ATOLL.rows)]
        shapes = []
        for n, (value, single, covered) in enumerate(sheet.shapes):
            for c in covered:
                cells[c // ATOLL.cols][c % ATOLL.cols] = n + 1
            shapes.append(
                {
                    "value": value,
                    "single": single,
                    "lucky": bool(not single and sheet.lucky and value == sheet.lucky),
                    "cells": [_rc(c, ATOLL.cols) for c in covered],
                }
            )
        reef = {"cells": cells, "shapes": shapes}
    score = breakdown(sheet, reef_key) if sheet.lucky else {**breakdown(sheet, reef_key), "lucky": 0}
    return {
        "seat": seat,
        "lucky": lucky,
        "shells": sheet.shells,
        "shells_earned": sheet.shells_earned,
        "shells_spent": sheet.shells_earned - sheet.shells,
        "pearls": sheet.pearls,
        "pearls_lost": sheet.pearls_lost,
        "pearl_bonuses": [bool(sheet.bonuses >> i & 1) for i in range(len(PEARLS))],
        "pearl_coins": sheet.coins,
        "ruins": ruins,
        "enchantments": [
            {"section": s, "sum": sec.total, "ruin": sec.ruin, "crossed": sheet.ench[s]}
            for s, sec in enumerate(SECTIONS)
        ],
        "reef": reef,
        "score": {**score, "total": sum(score.values())},
        "changed": _changed(before, sheet, reef_key),
    }


def build(state: ReefState, seat: int | None, result: Result | None) -> dict:
    """The view described in the module docstring; ``result`` is the game's (labelled) result
    once the game is finished (`engine.reef.game.ReefGame.result`)."""
    own = seat if seat is not None and 0 <= seat < state.seats else None
    boon = TRACKER[state.side].get(state.round) if state.phase == "round" else None
    sheets = []
    for i in range(state.seats):
        if state.phase == "lucky":
            lucky = state.lucky[i] if state.lucky[i] > 0 else None
            sheets.append(sheet_view(state.sheets[i], i, state.reef, None, lucky))
            continue
        if i == own and state.phase == "round":
            sheets.append(sheet_view(state.sheets[i], i, state.reef, state.bases[i], state.sheets[i].lucky))
        else:
            before = state.prev[i] if state.prev else None
            sheets.append(sheet_view(state.bases[i], i, state.reef, before, state.bases[i].lucky))
    if state.phase == "lucky":
        confirmed = [n > 0 for n in state.lucky]
    elif state.phase == "round" and not state.dice:
        confirmed = [not s.pending for s in state.sheets]
    elif state.phase == "round":
        confirmed = [s.confirmed for s in state.sheets]
    else:
        confirmed = [True] * state.seats
    out: dict = {
        "game": "reef",
        "title": "Reef & Ruins",
        "phase": state.phase,
        "to_act": sorted(rules.to_act(state)),
        "seats": state.seats,
        "viewer": own,
        "round": state.round,
        "rounds": ROUNDS,
        "reef": state.reef,
        "reef_name": BARRIER.name if state.reef == BARRIER_KEY else ATOLL.name,
        "tracker": state.side,
        "tracker_name": SIDE_NAMES[state.side],
        "dice": list(state.dice) if state.phase == "round" else [],
        "boon": None
        if boon is None
        else {
            "round": state.round,
            "type": boon.kind,
            "value": state.roll if boon.kind == "roll" else boon.value,
            "text": boon.text(),
            "say": boon.say(),
        },
        "confirmed": confirmed,
        "sheets": sheets,
        "board": board(state.reef, state.side),
    }
    if own is not None:
        if state.phase == "lucky":
            out["you"] = {"lucky_choice": state.lucky[own] if state.lucky[own] > 0 else None}
        elif state.phase == "round":
            s = state.sheets[own]
            out["you"] = {
                "confirmed": s.confirmed,
                "dice": [
                    {
                        "index": i,
                        "value": die_value(d),
                        "printed": d[0],
                        "kind": d[1],
                        "shells": d[2],
                        "used": d[3],
                    }
                    for i, d in enumerate(s.dice)
                ],
                "searched": s.main if s.main > 0 else None,
                "cast": -s.main - 1 if s.main < 0 else None,
                "picked": s.pick if s.pick >= 0 else None,
                "placing": None
                if s.pick < 0 or s.mode == 0
                else ("shape" if s.mode > 0 else ("singles" if s.mode == -1 else "second-single")),
                "orientation": s.mode - 1 if s.mode > 0 else None,
                "pending": list(s.pending),
            }
    if state.phase == "finished":
        assert result is not None, "a finished game's view needs its result"
        out["result"] = result.to_dict()
        out["result"]["ratings"] = [rating(result.scores[0]).title] if state.seats == 1 else []
    return out


# -------------------------------------------------------------- labels and groups


def _shape_picture(value: int, orient: int) -> str:
    cells = set(ATOLL.shapes[value][orient])
    height = 1 + max(r for r, _ in cells)
    width = 1 + max(c for _, c in cells)
    return " / ".join("".join("■" if (r, c) in cells else "·" for c in range(width)) for r in range(height))


def _dice_words(sheet: Sheet, mask: int, t: i18n.Words) -> str:
    words = []
    for i, die in enumerate(sheet.dice):
        if mask >> i & 1:
            value = die_value(die)
            words.append(str(value) if die[1] == "hydra" else t("boon {value}", value=value))
    return " + ".join(words)


def label(state, seat: int, action: Act, t: i18n.Words | None = None) -> str:
    """A button or select label for an action, in the player's words (``t``: their language)."""
    t = t or i18n.words(i18n.SOURCE)
    kind = action.kind
    if kind == "lucky":
        return (
            t("Leave my lucky number to fate")
            if action.a == 0
            else t("Lucky number {number}", number=action.a)
        )
    if kind == "reset":
        return t("Reset my round")
    sheet = state.sheets[seat]
    if kind == "confirm":
        left = [die_value(d) for d in sheet.dice if not d[3] and rules.is_rolled(d)]
        if left:
            return t("Confirm my round (leave the rolled {value} unwritten)", value=left[0])
        return t("Confirm my round")
    if kind == "pearl":
        return t("Pearl bonus: {bonus}", bonus=t.msg(PEARLS[action.a].say()))
    if kind == "enchant":
        sec = SECTIONS[action.a]
        space = sec.spaces[sheet.ench[action.a]]
        return t(
            "Enchantment {sum} (ruin {ruin}): {space}", sum=sec.total, ruin=sec.ruin, space=t.msg(space.say())
        )
    if kind == "shell":
        die = sheet.dice[action.a]
        v = die_value(die)
        return t("Spend a pair of shells: turn the {value} into {new}", value=v, new=v + action.b)
    if kind == "unlock":
        return t(
            "Search ruin {number} ({name}) with {dice}",
            number=action.a,
            name=t(RUINS[action.a - 1].name),
            dice=_dice_words(sheet, action.b, t),
        )
    if kind == "cast":
        sec = SECTIONS[action.a]
        space = sec.spaces[sheet.ench[action.a]]
        return t(
            "Cast enchantment {sum} with {dice}: {space}",
            sum=sec.total,
            dice=_dice_words(sheet, action.b, t),
            space=t.msg(space.say()),
        )
    if kind == "pick":
        return t("Use the {die}", die=t.msg(rules.die_say(sheet.dice[action.a])))
    if kind == "unpick":
        return t("Put that die back")
    die = sheet.dice[sheet.pick] if sheet.pick >= 0 else (0, "hydra", 0, False)
    value = die_value(die)
    if kind == "trade":
        return t("Trade the {value} for a pair of shells", value=value)
    if kind == "write":
        ruin = RUINS[action.a - 1]
        row, col = ruin.row_of[action.b], ruin.col_of[action.b]
        if ruin.rule == "pyramid":
            return t(
                "Write {value} in ruin {number}, pyramid row {row} from the bottom, space {space}",
                value=value,
                number=action.a,
                row=row + 1,
                space=col + 1,
            )
        if len(ruin.rows) == 1:
            return t(
                "Write {value} in ruin {number}, space {space}", value=value, number=action.a, space=col + 1
            )
        return t(
            "Write {value} in ruin {number}, row {row}, space {space}",
            value=value,
            number=action.a,
            row=row + 1,
            space=col + 1,
        )
    if kind == "mark":
        r, c = divmod(action.a, BARRIER.cols)
        return t("Mark the {value} at reef row {row}, column {column}", value=value, row=r + 1, column=c + 1)
    if kind == "shape":
        return t(
            "Draw the {value} shape turned {picture}", value=value, picture=_shape_picture(value, action.a)
        )
    if kind == "singles":
        return t("Draw two single blocks instead of the shape")
    if kind == "place":
        r, c = divmod(action.a, ATOLL.cols)
        if sheet.mode > 0:
            return t("Shape's top-left at reef row {row}, column {column}", row=r + 1, column=c + 1)
        return t("Single block at reef row {row}, column {column}", row=r + 1, column=c + 1)
    return kind


#: The menu of each ruin's writing spaces ("Ruin 1: Sunken Galleon"), marked for the catalog.
#: A ruin whose name in data/reef/ruins.json differs from these falls back to its own words.
RUIN_GROUPS = (
    N_("Ruin 1: Sunken Galleon"),
    N_("Ruin 2: Mariner's Misfortune"),
    N_("Ruin 3: Tidewalker's Stair"),
    N_("Ruin 4: Wreck of the Odd Anchor"),
    N_("Ruin 5: Even Keel Wreck"),
    N_("Ruin 6: Pyramid of the Deep"),
)
#: The Arcane Atoll's placement menus, three reef rows each.
REEF_ROW_GROUPS = (N_("Reef rows 1-3"), N_("Reef rows 4-6"), N_("Reef rows 7-8"))

GROUPS = {
    "lucky": N_("Lucky number"),
    "shell": N_("Shells"),
    "unlock": N_("Search a ruin"),
    "cast": N_("Cast an enchantment"),
    "pick": N_("Dice"),
    "mark": N_("Reef"),
    "shape": N_("Reef"),
    "singles": N_("Reef"),
    "trade": N_("Trade"),
    "pearl": N_("Pearl bonus"),
    "enchant": N_("Gain an enchantment"),
}
ROUND_GROUP = N_("Round")


def group(state, seat: int, action: Act) -> str:
    """The menu an action belongs to (every group stays at 25 actions or fewer), an English
    phrase marked for the catalog (the UI shows ``t(group)``)."""
    kind = action.kind
    if kind in ("reset", "confirm", "unpick"):
        return ROUND_GROUP
    if kind == "write":
        words = f"Ruin {action.a}: {RUINS[action.a - 1].name}"
        return next((g for g in RUIN_GROUPS if g == words), words)
    if kind == "place":
        band = action.a // ATOLL.cols // 3
        low = band * 3 + 1
        high = min(ATOLL.rows, low + 2)
        words = f"Reef rows {low}-{high}"
        return next((g for g in REEF_ROW_GROUPS if g == words), words)
    return GROUPS.get(kind, ROUND_GROUP)
