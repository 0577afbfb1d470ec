"""The records of a Reef & Ruins table: a seat's `Sheet`, the whole `ReefState`, and their JSON.

Rulebook: Setup 1-2 ("everyone's pads") is the empty `Sheet`; what a pad holds
(Ship Ruins, Enchantments, a Reef, shells, pearls, Pearl Bonuses) is its fields.
Both are immutable named tuples; every change returns a new one with ``_replace``.
The rules that change them live in `engine.reef.sheet` (writing on a pad),
`engine.reef.rules` (a round) and `engine.reef.setup` (the lucky numbers).
"""

from __future__ import annotations

from typing import NamedTuple

from engine.base import quick_replace
from engine.reef.components import BARRIER, PEARLS, RUINS, SECTIONS

EMPTY = -1

#: The two reefs (data/reef/reefs.json names them).
BARRIER_KEY = "bewitching-barrier"
ATOLL_KEY = "arcane-atoll"

#: A die in this round's pool: (printed value, kind, shell adjustment, used).
#: kind is "hydra" (the three shared dice), "roll" (the shared boon roll) or "boon"
#: (a boon die value from the tracker, an enchantment or a pearl).
Die = tuple[int, str, int, bool]

#: A drawn Arcane Atoll shape: (die value, is a single block, covered cells).
Shape = tuple[int, bool, tuple[int, ...]]

EMPTY_RUINS = tuple((EMPTY,) * ruin.size for ruin in RUINS)
BARRIER_START_MASK = 1 << BARRIER.start


class Sheet(NamedTuple):
    """Everything written on one seat's pads, plus the seat's work in the current round.

    ``ruins`` holds one tuple per ruin (EMPTY = nothing written); ``ench`` the
    number of crossed-off spaces per enchantment section; ``reef`` a bit mask of
    marked/covered reef cells (the Barrier's Start is always marked);
    ``shapes`` the Atoll shapes in drawing order; ``shells`` the unspent pairs.

    Round work: ``dice`` is this round's pool; ``main`` is 0, a ruin searched
    (1-6) or an enchantment section cast (-1..-6); ``pick`` the die being
    placed (-1 none); ``mode`` 0, an Atoll orientation + 1, or -1/-2 for the
    first/second of two single blocks; ``pending`` the pearls/enchantments
    still to choose; ``confirmed`` once the seat has confirmed its round.
    """

    lucky: int = 0
    ruins: tuple[tuple[int, ...], ...] = EMPTY_RUINS
    ench: tuple[int, ...] = (0,) * len(SECTIONS)
    reef: int = 0
    shapes: tuple[Shape, ...] = ()
    shells: int = 0
    shells_earned: int = 0
    pearls: int = 0
    pearls_lost: int = 0
    bonuses: int = 0
    coins: int = 0
    dice: tuple[Die, ...] = ()
    main: int = 0
    pick: int = -1
    mode: int = 0
    pending: tuple[str, ...] = ()
    confirmed: bool = False


class ReefState(NamedTuple):
    """The whole table. ``sheets`` hold each seat's current work (private until all
    confirm); ``bases`` the sheets at the start of this round, after the round's
    boon was gained (public); ``starts`` what "reset my round" returns to (the
    bases during the boon step, then the sheets as the hydra dice were rolled, so
    a choice made before the roll is never taken back after it); ``prev`` the
    sheets at the start of the previous round (so the public view can highlight
    what the last round changed). ``dice`` is empty during the boon step.
    ``lucky`` holds each seat's lucky number (-1 = not chosen yet)."""

    seats: int
    seed: int
    reef: str
    side: str
    phase: str
    round: int
    dice: tuple[int, ...]
    roll: int
    sheets: tuple[Sheet, ...]
    bases: tuple[Sheet, ...]
    prev: tuple[Sheet, ...]
    lucky: tuple[int, ...]
    starts: tuple[Sheet, ...] = ()


# NamedTuple forbids defining _replace in the class body; set after, the same for every caller.
_DICE = Sheet._fields.index("dice")
assert Sheet._fields[_DICE:] == ("dice", "main", "pick", "mode", "pending", "confirmed")
Sheet._replace = quick_replace(Sheet)  # type: ignore[method-assign]
ReefState._replace = quick_replace(ReefState)  # type: ignore[method-assign]


def empty_sheet(reef_key: str) -> Sheet:
    """A fresh pad for ``reef_key`` (the Bewitching Barrier's Start is marked from the start)."""
    return Sheet(reef=BARRIER_START_MASK if reef_key == BARRIER_KEY else 0)


def work_done(sheet: Sheet) -> Sheet:
    """A sheet with this round's work cleared (dice, choices, confirmation), as the next round finds it."""
    if (
        not sheet.dice
        and not sheet.main
        and sheet.pick == -1
        and not sheet.mode
        and not sheet.pending
        and not sheet.confirmed
    ):
        return sheet  # nothing to clear (a new round's start asks again): no copy
    # `_replace(dice=(), main=0, pick=-1, mode=0, pending=(), confirmed=False)`, without its
    # keywords: every seat's round ends with one
    return Sheet._make((*sheet[:_DICE], (), 0, -1, 0, (), False))


# ------------------------------------------------------------------------- JSON


def dump_state(state: ReefState) -> dict:
    """The lossless JSON form of a table."""
    return {
        "seats": state.seats,
        "seed": state.seed,
        "reef": state.reef,
        "side": state.side,
        "phase": state.phase,
        "round": state.round,
        "dice": list(state.dice),
        "roll": state.roll,
        "sheets": [dump_sheet(s) for s in state.sheets],
        "bases": [dump_sheet(s) for s in state.bases],
        "prev": [dump_sheet(s) for s in state.prev],
        "lucky": list(state.lucky),
        "starts": [dump_sheet(s) for s in state.starts],
    }


def load_state(data: dict) -> ReefState:
    """Inverse of `dump_state`; raises KeyError, TypeError or ValueError for damaged data."""
    return ReefState(
        seats=int(data["seats"]),
        seed=int(data["seed"]),
        reef=str(data["reef"]),
        side=str(data["side"]),
        phase=str(data["phase"]),
        round=int(data["round"]),
        dice=tuple(int(v) for v in data["dice"]),
        roll=int(data["roll"]),
        sheets=tuple(load_sheet(s) for s in data["sheets"]),
        bases=tuple(load_sheet(s) for s in data["bases"]),
        prev=tuple(load_sheet(s) for s in data["prev"]),
        lucky=tuple(int(v) for v in data["lucky"]),
        starts=tuple(load_sheet(s) for s in data.get("starts", data["bases"])),
    )


def dump_sheet(sheet: Sheet) -> dict:
    """The lossless JSON form of one sheet."""
    return {
        "lucky": sheet.lucky,
        "ruins": [list(r) for r in sheet.ruins],
        "ench": list(sheet.ench),
        "reef": sheet.reef,
        "shapes": [[v, single, list(cells)] for v, single, cells in sheet.shapes],
        "shells": sheet.shells,
        "shells_earned": sheet.shells_earned,
        "pearls": sheet.pearls,
        "pearls_lost": sheet.pearls_lost,
        "bonuses": sheet.bonuses,
        "coins": sheet.coins,
        "dice": [list(d) for d in sheet.dice],
        "main": sheet.main,
        "pick": sheet.pick,
        "mode": sheet.mode,
        "pending": list(sheet.pending),
        "confirmed": sheet.confirmed,
    }


def load_sheet(data: dict) -> Sheet:
    """Inverse of `dump_sheet`; raises ValueError when the sheet does not match the printed pads."""
    ruins = tuple(tuple(int(v) for v in r) for r in data["ruins"])
    if len(ruins) != len(RUINS) or any(len(r) != ruin.size for r, ruin in zip(ruins, RUINS, strict=True)):
        raise ValueError("ruins do not match the sheet")
    ench = tuple(int(v) for v in data["ench"])
    if len(ench) != len(SECTIONS):
        raise ValueError("enchantments do not match the sheet")
    if int(data["bonuses"]) >> len(PEARLS):
        raise ValueError("pearl bonuses do not match the sheet")
    return Sheet(
        lucky=int(data["lucky"]),
        ruins=ruins,
        ench=ench,
        reef=int(data["reef"]),
        shapes=tuple(
            (int(v), bool(single), tuple(int(c) for c in cells)) for v, single, cells in data["shapes"]
        ),
        shells=int(data["shells"]),
        shells_earned=int(data["shells_earned"]),
        pearls=int(data["pearls"]),
        pearls_lost=int(data["pearls_lost"]),
        bonuses=int(data["bonuses"]),
        coins=int(data["coins"]),
        dice=tuple((int(v), str(k), int(a), bool(u)) for v, k, a, u in data["dice"]),
        main=int(data["main"]),
        pick=int(data["pick"]),
        mode=int(data["mode"]),
        pending=tuple(str(p) for p in data["pending"]),
        confirmed=bool(data["confirmed"]),
    )


__all__ = [
    "ATOLL_KEY",
    "BARRIER_KEY",
    "BARRIER_START_MASK",
    "EMPTY",
    "Die",
    "ReefState",
    "Shape",
    "Sheet",
    "dump_sheet",
    "dump_state",
    "empty_sheet",
    "load_sheet",
    "load_state",
    "work_done",
]
