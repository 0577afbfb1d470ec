"""The rules of play: the round loop for the table, and one seat's round on its own pad.

Rulebook sections, and where each lives here:

* Gameplay (the round loop): `start_round` advances the otter and gives
  everyone the round's boon ("If there's a Boon next to that round number,
  everyone gains that Boon before the Hydra dice are rolled"); `roll` rolls the
  hydra dice; `end_round` makes the sheets public and ends the game after the
  last round; `to_act`, `legal_actions` and `play` run a table. When the boon
  leaves a choice (the tracker's enchantment, and any pearl it brings), the
  round opens with the *boon step*: ``dice`` is empty and only those choices
  are legal; once every seat has chosen, the hydra dice are rolled. Every seat
  then uses them privately and confirms; the round ends when all have confirmed.
* One seat's round (`legal`, `check`, `apply` on a `Sheet`): Search a Ship Ruin,
  Cast an Enchantment (and its boons: `cross_enchantment`), Explore the Reef,
  Pearl Bonuses (`take_pearl`, `settle`), Trade in Shells. Where a die may be
  written is `engine.reef.sheet`; the lucky numbers (Setup 4) are
  `engine.reef.setup`; Game End's scores are `engine.reef.scoring`.

Phases: ``lucky`` (`engine.reef.setup`), ``round`` and ``finished``.

Flow of a seat's round (decisions recorded in docs/rules/reef.md):

* pending pearls and gained enchantments are chosen first, one at a time;
* with no die chosen, a seat may spend shells on a die, search a ruin or cast
  an enchantment (one of the two per round), choose a die to place, reset or,
  once every die is used, confirm;
* a chosen die is written into a ruin (a hydra die only into the ruin searched
  this round; a boon die into any ruin), put into the reef, or traded for a
  pair of shells;
* a rolled die ("Roll a die: Players may write that value directly into any
  ship Ruin or into their Reef") is only written: into any ruin or the reef,
  as rolled. It opens no ruin, counts toward no enchantment, takes no shells
  and is never traded; "may" makes it optional, so a seat can confirm with it
  unwritten.

Every function returns a new sheet or state and appends readable events; nothing mutates.
"""

from __future__ import annotations

import _random
from collections.abc import Sequence
from functools import lru_cache
from hashlib import sha512
from typing import NamedTuple

import i18n
from engine.base import IllegalAction, event
from engine.reef import setup
from engine.reef.actions import Act, act
from engine.reef.components import (
    ATOLL,
    BARRIER,
    LOW_VALUE,
    PEARLS,
    ROUNDS,
    RUINS,
    SECTION_BY_SUM,
    SECTIONS,
    SHELL_PAIRS,
    TRACKER,
)
from engine.reef.sheet import (
    atoll_anchors,
    atoll_orients,
    atoll_singles,
    barrier_cells,
    completed_lines,
    die_value,
    legal_slots,
    open_slots,
)
from engine.reef.state import BARRIER_KEY, Die, ReefState, Sheet, work_done
from i18n import say, term
from i18n import seat as seat_of

Events = list[dict]


def _private(events: Events, seat: int, kind: str, message: i18n.Msg, **extra: object) -> None:
    events.append(event(kind, message, seat=seat, private=True, **extra))


# ------------------------------------------------------------------------ gains


def gain_shells(sheet: Sheet, pairs: int = 1) -> Sheet:
    """Circle pairs of shells (the sheet holds at most SHELL_PAIRS unspent pairs)."""
    room = max(0, SHELL_PAIRS - sheet.shells)
    got = min(pairs, room)
    return sheet._replace(shells=sheet.shells + got, shells_earned=sheet.shells_earned + got)


def add_die(sheet: Sheet, value: int, kind: str = "boon") -> Sheet:
    """A boon die joins this round's pool."""
    return sheet._replace(dice=(*sheet.dice, (value, kind, 0, False)))


def earn_pearls(sheet: Sheet, count: int) -> Sheet:
    """Earn pearls: each is a Pearl Bonus to choose (or lost when every box is crossed off)."""
    if count <= 0:
        return sheet
    return sheet._replace(pearls=sheet.pearls + count, pending=(*sheet.pending, *("pearl",) * count))


def cross_enchantment(sheet: Sheet, section: int, seat: int, events: Events) -> Sheet:
    """Cross off the leftmost free space in a section and gain its boon at once."""
    index = sheet.ench[section]
    space = SECTIONS[section].spaces[index]
    ench = list(sheet.ench)
    ench[section] = index + 1
    sheet = sheet._replace(ench=tuple(ench))
    _private(
        events,
        seat,
        "enchantment",
        say(
            "You cross off enchantment {index} of the sum-{total} section: {space}.",
            index=index + 1,
            total=SECTIONS[section].total,
            space=space.say(),
        ),
        section=section,
    )
    if space.boon == "shells":
        sheet = gain_shells(sheet)
    elif space.boon == "pearl":
        sheet = earn_pearls(sheet, 1)
    elif space.boon == "die":
        sheet = add_die(sheet, space.value)
    return sheet


def open_sections(sheet: Sheet) -> list[int]:
    """Sections with a free space left."""
    return [s for s, section in enumerate(SECTIONS) if sheet.ench[s] < len(section.spaces)]


def open_pearls(sheet: Sheet) -> list[int]:
    """Pearl bonus boxes not yet crossed off."""
    return [i for i in range(len(PEARLS)) if not sheet.bonuses >> i & 1]


def settle(sheet: Sheet, seat: int, events: Events) -> Sheet:
    """Resolve pending choices that have no choice: none left (lost) or a single option (taken)."""
    while sheet.pending:
        kind = sheet.pending[0]
        options = open_pearls(sheet) if kind == "pearl" else open_sections(sheet)
        if len(options) > 1:
            return sheet
        sheet = sheet._replace(pending=sheet.pending[1:])
        if not options:
            if kind == "pearl":
                sheet = sheet._replace(pearls_lost=sheet.pearls_lost + 1)
                _private(events, seat, "pearl", say("Every pearl bonus is crossed off: this pearl is lost."))
            else:
                _private(
                    events, seat, "enchantment", say("Every enchantment is crossed off: nothing to gain.")
                )
            continue
        if kind == "pearl":
            sheet = take_pearl(sheet, options[0], seat, events)
        else:
            sheet = cross_enchantment(sheet, options[0], seat, events)
    return sheet


def take_pearl(sheet: Sheet, box: int, seat: int, events: Events) -> Sheet:
    """Cross off a Pearl Bonus box and gain it."""
    bonus = PEARLS[box]
    sheet = sheet._replace(bonuses=sheet.bonuses | 1 << box)
    _private(events, seat, "pearl", say("You spend a pearl on {bonus}.", bonus=bonus.say()), box=box)
    if bonus.kind == "die":
        return add_die(sheet, bonus.value)
    if bonus.kind == "coins":
        return sheet._replace(coins=sheet.coins + bonus.value)
    return sheet._replace(pending=("enchant", *sheet.pending))


# ----------------------------------------------------------------------- helpers


def is_rolled(die: Die) -> bool:
    """A "Roll a die" boon: written as rolled into a ruin or the reef, and nothing else."""
    return die[1] == "roll"


def must_use(sheet: Sheet) -> list[int]:
    """Unused dice the seat must still use before confirming (every die but a rolled one)."""
    return [i for i, d in enumerate(sheet.dice) if not d[3] and not is_rolled(d)]


def can_place(sheet: Sheet, die: Die, reef_key: str) -> bool:
    """Whether a die could be written somewhere now: a ruin that takes it, or the reef."""
    value = die_value(die)
    ruins = range(len(RUINS)) if die[1] != "hydra" else ([sheet.main - 1] if sheet.main > 0 else [])
    if any(legal_slots(RUINS[r], sheet.ruins[r], value) for r in ruins):
        return True
    if reef_key == BARRIER_KEY:
        return bool(barrier_cells(sheet.reef, value))
    return bool(atoll_orients(sheet.reef, value) or atoll_singles(sheet.reef))


#: For n unused dice: every non-empty subset as (bit pattern over the unused list, positions).
_SUBSETS = tuple(
    tuple((bits, tuple(j for j in range(n) if bits >> j & 1)) for bits in range(1, 1 << n)) for n in range(9)
)


def _dice_subsets(dice: tuple[Die, ...]) -> list[tuple[int, int, int]]:
    """(mask, sum, size) of every set of unused dice, one per distinct set of values.

    Between sets with the same values, the one using the most hydra dice is
    kept: a boon die can do all a hydra die can and more, so it is better
    left for later. A rolled die is never part of a set: it opens no ruin and casts
    no enchantment ("Players may write that value directly into any ship Ruin or into
    their Reef").

    The sets depend only on the unused dice's values and which are hydra dice: they are
    remembered by those, over the unused list's places, then spread onto the pool."""
    return _spread_subsets(*_subsets_key(dice))


def _subsets_key(dice: tuple[Die, ...]) -> tuple[tuple[tuple[int, bool], ...], tuple[int, ...]]:
    """What `_dice_subsets` depends on: the unused dice that may take part, as (value, is
    hydra), and their places in the pool."""
    unused = [i for i, d in enumerate(dice) if not d[3] and not is_rolled(d)]
    return tuple([(dice[i][0] + dice[i][2], dice[i][1] == "hydra") for i in unused]), tuple(unused)


def _spread_subsets(key: tuple[tuple[int, bool], ...], unused: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """`_dice_subsets` from its `_subsets_key`."""
    found = _SUBSETS_SEEN.get(key)
    if found is None:
        if len(_SUBSETS_SEEN) >= _POOLS_KEPT:
            _SUBSETS_SEEN.clear()
        found = _SUBSETS_SEEN[key] = _value_subsets(key)
    places = unused[:8]
    spread = _SPREADS.get(places)
    if spread is None:  # bit j of a pattern over the unused list -> the bit of its die
        spread = _SPREADS[places] = tuple(
            sum(1 << places[j] for j in range(len(places)) if bits >> j & 1)
            for bits in range(1 << len(places))
        )
    return [(spread[bits], total, size) for bits, total, size in found]


#: `_value_subsets` answers by the unused dice's (value, is hydra); `_SPREADS` by their places.
_SUBSETS_SEEN: dict[tuple[tuple[int, bool], ...], tuple[tuple[int, int, int], ...]] = {}
_SPREADS: dict[tuple[int, ...], tuple[int, ...]] = {}


def _value_subsets(dice: tuple[tuple[int, bool], ...]) -> tuple[tuple[int, int, int], ...]:
    """`_dice_subsets` over a list of (value, is hydra) dice: (bit pattern over the list, sum,
    size) per set kept (at most the first eight dice take part).

    Each set is worked out from the set without its lowest die, in increasing bit order (the
    order the sets are listed in); a set's values are told apart by a count of each value
    packed into an int (four bits a value: at most eight dice)."""
    values = [value for value, _ in dice]
    distinct = len(set(values)) == len(values)
    n = min(len(dice), 8)
    size = 1 << n
    totals = [0] * size
    sizes = [0] * size
    hydras = [0] * size
    signatures = [0] * size
    best: dict[int, tuple[int, int, int, int]] = {}
    out: list[tuple[int, int, int]] = []
    for bits in range(1, size):
        low = bits & -bits
        rest = bits ^ low
        j = low.bit_length() - 1
        value = values[j]
        total = totals[bits] = totals[rest] + value
        count = sizes[bits] = sizes[rest] + 1
        if distinct:
            out.append((bits, total, count))
            continue
        hydra = hydras[bits] = hydras[rest] + dice[j][1]
        signature = signatures[bits] = signatures[rest] + (1 << 4 * value)
        kept = best.get(signature)
        if kept is None or hydra > kept[0]:
            best[signature] = (hydra, bits, total, count)
    if not distinct:
        out = [(bits, total, count) for _, bits, total, count in best.values()]
    return tuple(out)


def _use_mask(dice: tuple[Die, ...], mask: int) -> tuple[Die, ...]:
    """``dice`` with the dice in bit mask ``mask`` used (in one pass)."""
    return tuple([(d[0], d[1], d[2], True) if mask >> i & 1 else d for i, d in enumerate(dice)])


def _use_one(dice: tuple[Die, ...], i: int) -> tuple[Die, ...]:
    """``dice`` with die ``i`` used (a placing step's)."""
    value, kind, adj, _ = dice[i]
    return (*dice[:i], (value, kind, adj, True), *dice[i + 1 :])


def die_say(die: Die) -> i18n.Msg:
    """A die in words, as a message: "5", "4 (3+1 with shells)", "boon 2"."""
    value = die_value(die)
    if die[2]:
        shells = f"{die[2]:+d}"
        if die[1] == "hydra":
            return say("{value} ({printed}{shells} with shells)", value=value, printed=die[0], shells=shells)
        if die[1] == "roll":
            return say(
                "rolled boon {value} ({printed}{shells} with shells)",
                value=value,
                printed=die[0],
                shells=shells,
            )
        return say("boon {value} ({printed}{shells} with shells)", value=value, printed=die[0], shells=shells)
    if die[1] == "hydra":
        return say("{value}", value=value)
    if die[1] == "roll":
        return say("rolled boon {value}", value=value)
    return say("boon {value}", value=value)


def die_text(die: Die) -> str:
    """A die in words: "5", "4 (3+1 with shells)", "boon 2"."""
    return i18n.english(die_say(die))


# ----------------------------------------------------------------- legal actions


_LAST: tuple = (None, None, [])
# The shared steps legal lists use most, looked up once.
_RESET, _CONFIRM, _UNPICK, _TRADE, _SINGLES = (
    act(kind) for kind in ("reset", "confirm", "unpick", "trade", "singles")
)
_PICKS = tuple(act("pick", i) for i in range(16))
_SHELL_UP = tuple(act("shell", i, 1) for i in range(16))
_SHELL_DOWN = tuple(act("shell", i, -1) for i in range(16))
_WRITES = tuple(tuple(act("write", r + 1, slot) for slot in range(ruin.size)) for r, ruin in enumerate(RUINS))
_MARKS = tuple(act("mark", c) for c in range(BARRIER.rows * BARRIER.cols))


def legal(sheet: Sheet, reef_key: str) -> list[Act]:
    """Every legal step for a seat in the round phase (empty once it has confirmed).

    The last answer is remembered (sheets are immutable), so a policy's call
    and the legality check in ``apply`` share one computation. The memory is
    one tuple replaced in a single assignment, so threads never mix answers."""
    return list(_remembered(sheet, reef_key))


def _remembered(sheet: Sheet, reef_key: str) -> Sequence[Act]:
    """`legal`'s shared answer itself (not a copy): for readers that do not change it."""
    global _LAST
    last = _LAST
    if last[0] is sheet and last[1] == reef_key:
        return last[2]
    out = _legal(sheet, reef_key)
    _LAST = (sheet, reef_key, out)
    return out


def _legal(sheet: Sheet, reef_key: str) -> Sequence[Act]:
    """`legal` worked out. Before a pick, the steps depend almost only on the dice still to use:
    they come ready-made from that pool's `_Pool` (a tuple shared by every sheet with those
    dice, shells held or not, search still open or not); only a rolled die that must find a
    place, or a full enchantment section a cast would need, sends the sheet the long way."""
    if sheet.confirmed:
        return ()
    if sheet.pending:
        if sheet.pending[0] == "pearl":
            out = [act("pearl", i) for i in open_pearls(sheet)]
        else:
            out = [act("enchant", s) for s in open_sections(sheet)]
        out.append(_RESET)
        return out
    if sheet.pick >= 0:
        return _legal_placing(sheet, reef_key)
    pool = _pool(sheet.dice)
    searching = sheet.main == 0 and bool(pool.picks)
    closed = False  # whether a section the pool casts is full (its casts are then left out)
    if searching:
        unlocks, casts, cast_sections = pool.searches[0] or _searches(pool, sheet.dice)
        closed = bool(cast_sections and _closed(sheet.ench) & cast_sections)
    if pool.simple and not closed:
        variant = (sheet.shells > 0) + 2 * searching
        return pool.ready[variant] or _ready(pool, variant)
    out: list[Act] = list(pool.shells) if sheet.shells > 0 else []
    if searching:
        out.extend(unlocks)
        out.extend(step for s, step in casts if sheet.ench[s] < _SPACES[s])
    for step, die in pool.picks:
        if die is None or can_place(sheet, die, reef_key):
            out.append(step)
    if pool.confirm:
        out.append(_CONFIRM)
    out.append(_RESET)
    return out


#: How many spaces each enchantment section has.
_SPACES = tuple(len(section.spaces) for section in SECTIONS)


#: `_closed` answers by the sheet's enchantment counts.
_CLOSED: dict[tuple[int, ...], int] = {}


def _closed(ench: tuple[int, ...]) -> int:
    """Bit mask of the enchantment sections with every space crossed off (remembered)."""
    found = _CLOSED.get(ench)
    if found is None:
        if len(_CLOSED) >= 4096:
            _CLOSED.clear()
        found = _CLOSED[ench] = sum(1 << s for s, crossed in enumerate(ench) if crossed >= _SPACES[s])
    return found


class _Pool(NamedTuple):
    """What a pool of dice allows before a die is picked, whatever else the sheet holds.

    ``shells``: the shell steps; ``picks``: (pick step, the die if it is rolled and must
    find a place, else None); ``confirm``: whether every die that must be used is.
    ``searches`` holds, once a sheet that may still search or cast asks (`_searches`), the
    searches and casts its unused dice make: (unlock steps, (section, cast step) pairs, bit
    mask of those sections). ``simple`` (no rolled die to place) pools keep their answers for
    sheets whose sections are all open in ``ready``, by shells held + 2 * may search or cast
    (`_ready`)."""

    shells: tuple[Act, ...]
    picks: tuple[tuple[Act, Die | None], ...]
    confirm: bool
    simple: bool
    searches: list[tuple[tuple[Act, ...], tuple[tuple[int, Act], ...], int] | None]
    ready: list[tuple[Act, ...] | None]


#: `_Pool`s by a pool's unused dice alone (with their places): what a pool allows depends
#: only on the dice still to use, which repeat far more than whole pools (remembering whole
#: pools too was measured no quicker, and kept their dice alive).
_POOLS_BY_UNUSED: dict[tuple[tuple[int, Die], ...], _Pool] = {}
_POOLS_KEPT = 8192


def _pool(dice: tuple[Die, ...]) -> _Pool:
    """What ``dice`` allow before a pick, found by its unused dice or worked out, and remembered."""
    unused = tuple([(i, die) for i, die in enumerate(dice) if not die[3]])
    found = _POOLS_BY_UNUSED.get(unused)
    if found is None:
        found = _work_out_pool(dice)
        if len(_POOLS_BY_UNUSED) >= _POOLS_KEPT:
            _POOLS_BY_UNUSED.clear()
        _POOLS_BY_UNUSED[unused] = found
    return found


def _work_out_pool(dice: tuple[Die, ...]) -> _Pool:
    shells: list[Act] = []
    seen: set[Die] = set()
    # One pick per (value, kind); a rolled die only where it can be written (the same for
    # every rolled die of that value, so the first one stands for them all).
    picks: list[tuple[Act, Die | None]] = []
    seen_pick: set[tuple[int, str]] = set()
    confirm = True
    for i, die in enumerate(dice):
        if die[3]:
            continue
        kind = die[1]
        adjusted = die[2]
        value = die[0] + adjusted
        rolled = kind == "roll"
        if not rolled:  # a rolled die is written as rolled, and need not be used
            confirm = False
            if die not in seen:
                seen.add(die)
                if adjusted >= 0:  # no upper cap: ODDS "(1, 3, 5, 7, etc.)" goes on
                    shells.append(_SHELL_UP[i] if i < len(_SHELL_UP) else act("shell", i, 1))
                if value > LOW_VALUE and adjusted <= 0:
                    shells.append(_SHELL_DOWN[i] if i < len(_SHELL_DOWN) else act("shell", i, -1))
        key = (value, kind)
        if key not in seen_pick:
            seen_pick.add(key)
            picks.append((_PICKS[i] if i < len(_PICKS) else act("pick", i), die if rolled else None))
    return _Pool(
        tuple(shells), tuple(picks), confirm, all(die is None for _, die in picks), [None], [None] * 4
    )


def _searches(pool: _Pool, dice: tuple[Die, ...]) -> tuple:
    """The searches and casts ``dice`` (one of the pools ``pool`` stands for: they share their
    unused dice) make, kept in ``pool``: most pools are only asked after the round's search.
    Pools that differ only in dice that take no part (a rolled die, a die's shells that leave
    the same value) share them too (`_SEARCH_STEPS`)."""
    key = _subsets_key(dice)
    found = _SEARCH_STEPS.get(key)
    if found is None:
        subsets = _spread_subsets(*key)
        unlocks = tuple(act("unlock", total, mask) for mask, total, _ in subsets if 1 <= total <= len(RUINS))
        casts = []
        for mask, total, size in subsets:
            s = SECTION_BY_SUM.get(total)
            if size >= 2 and s is not None:
                casts.append((s, act("cast", s, mask)))
        found = (unlocks, tuple(casts), sum(1 << s for s in {s for s, _ in casts}))
        if len(_SEARCH_STEPS) >= _POOLS_KEPT:
            _SEARCH_STEPS.clear()
        _SEARCH_STEPS[key] = found
    pool.searches[0] = found
    return found


#: `_searches` answers by `_subsets_key`.
_SEARCH_STEPS: dict[tuple, tuple] = {}


def _ready(pool: _Pool, variant: int) -> tuple[Act, ...]:
    """A simple pool's legal steps for sheets with every section open: ``variant`` is
    shells held + 2 * may search or cast. Made when first asked, then kept in the pool."""
    out = list(pool.shells) if variant & 1 else []
    if variant & 2:
        unlocks, casts, _ = pool.searches[0]  # `_legal` asked for them first
        out.extend(unlocks)
        out.extend(step for _, step in casts)
    out.extend(step for step, _ in pool.picks)
    if pool.confirm:
        out.append(_CONFIRM)
    out.append(_RESET)
    found = pool.ready[variant] = tuple(out)
    return found


def _legal_placing(sheet: Sheet, reef_key: str) -> list[Act]:
    die = sheet.dice[sheet.pick]
    value = die[0] + die[2]  # `die_value`
    out: list[Act] = []
    mode = sheet.mode
    if mode > 0:
        out.extend(act("place", c) for c in atoll_anchors(sheet.reef, value, mode - 1))
        out.append(_UNPICK)
        return out
    if mode < 0:
        out.extend(act("place", c) for c in atoll_singles(sheet.reef))
        if mode == -1:
            out.append(_UNPICK)
        else:
            out.append(_RESET)
        return out
    if die[1] != "hydra":
        for r, slots in enumerate(sheet.ruins):
            out.extend(_ruin_writes(r, slots, value))
    elif sheet.main > 0:
        out.extend(_ruin_writes(sheet.main - 1, sheet.ruins[sheet.main - 1], value))
    if reef_key == BARRIER_KEY:
        if 0 <= value < len(_BARRIER_VALUES):  # `barrier_cells`, as steps
            reef = sheet.reef
            out.extend([_MARKS[c] for c, near in _BARRIER_VALUES[value] if near & reef and not reef >> c & 1])
    else:
        out.extend(act("shape", o) for o in atoll_orients(sheet.reef, value))
        if atoll_singles(sheet.reef):
            out.append(_SINGLES)
    if die[1] != "roll":  # Boons: a boon die value may be "turned into shells"; a rolled die not
        out.append(_TRADE)
    out.append(_UNPICK)
    return out


#: Per ruin, its write steps by (slots, value): `legal_slots` as the steps themselves.
_WRITES_SEEN: tuple[dict[tuple[tuple[int, ...], int], tuple[Act, ...]], ...] = tuple({} for _ in RUINS)
_WRITES_KEPT = 8192
#: Per die value, the Bewitching Barrier's cells showing it with their neighbours' bit masks.
_BARRIER_VALUES = tuple(tuple((c, BARRIER.neighbours[c]) for c in cells) for cells in BARRIER.cells_of_value)


def _ruin_writes(r: int, slots: tuple[int, ...], value: int) -> tuple[Act, ...]:
    """The steps writing ``value`` into ruin ``r + 1``, whose slots hold ``slots``."""
    seen = _WRITES_SEEN[r]
    found = seen.get((slots, value))
    if found is None:
        if len(seen) >= _WRITES_KEPT:
            seen.clear()
        writes = _WRITES[r]
        found = seen[(slots, value)] = tuple([writes[slot] for slot in open_slots(RUINS[r], slots, value)])
    return found


# ------------------------------------------------------------------------- apply

# Field positions for the hottest replacements, built without `_replace`'s keywords.
_make = tuple.__new__
_PICK = Sheet._fields.index("pick")
_MODE = Sheet._fields.index("mode")
_DICE = Sheet._fields.index("dice")
_MAIN = Sheet._fields.index("main")
_CONFIRMED = Sheet._fields.index("confirmed")
_RUINS = Sheet._fields.index("ruins")
_REEF = Sheet._fields.index("reef")
_SHEETS = ReefState._fields.index("sheets")
_PHASE = ReefState._fields.index("phase")
_LUCKY = ReefState._fields.index("lucky")
_STARTS = ReefState._fields.index("starts")
assert ReefState._fields[_PHASE:_LUCKY] == ("phase", "round", "dice", "roll", "sheets", "bases", "prev")


def apply(sheet: Sheet, base: Sheet, seat: int, action: Act, reef_key: str) -> tuple[Sheet, Events]:
    """Apply one legal step (the caller has checked legality)."""
    events: Events = []
    kind = action.kind
    if kind == "pick":  # the commonest step first: `_replace(pick=action.a, mode=0)`, quicker
        values = list(sheet)
        values[_PICK] = action.a
        values[_MODE] = 0
        return _make(Sheet, values), events
    if kind in _PLACING:
        return _place(sheet, seat, action)
    if kind == "confirm":  # `_replace(confirmed=True)`, without its keywords
        values = list(sheet)
        values[_CONFIRMED] = True
        text = say("You confirm your round.")
        return _make(Sheet, values), [event("confirm", text, seat=seat, private=True)]
    if kind == "unlock":  # `_replace(dice=<those used>, main=action.a)`, by place
        values = list(sheet)
        values[_DICE] = _use_mask(sheet.dice, action.b)
        values[_MAIN] = action.a
        sheet = _make(Sheet, values)
        text = say(
            "You search ruin {number} ({name}) for this round.",
            number=action.a,
            name=term(RUINS[action.a - 1].name),
        )
        return sheet, [event("search", text, seat=seat, private=True, ruin=action.a)]
    if kind == "cast":
        sheet = sheet._replace(dice=_use_mask(sheet.dice, action.b), main=-(action.a + 1))
        sheet = cross_enchantment(sheet, action.a, seat, events)
        return settle(sheet, seat, events), events
    if kind == "shell":
        dice = list(sheet.dice)
        value, dkind, adj, used = dice[action.a]
        dice[action.a] = (value, dkind, adj + action.b, used)
        sheet = sheet._replace(dice=tuple(dice), shells=sheet.shells - 1)
        text = say("You spend a pair of shells: that die now shows {value}.", value=value + adj + action.b)
        return sheet, [event("shell", text, seat=seat, private=True)]
    if kind == "pearl":
        sheet = sheet._replace(pending=sheet.pending[1:])
        sheet = take_pearl(sheet, action.a, seat, events)
        return settle(sheet, seat, events), events
    if kind == "enchant":
        sheet = sheet._replace(pending=sheet.pending[1:])
        sheet = cross_enchantment(sheet, action.a, seat, events)
        return settle(sheet, seat, events), events
    if kind == "unpick":
        return sheet._replace(pick=-1, mode=0), events
    if kind == "reset":
        _private(events, seat, "reset", say("You reset your round."))
        return base, events
    return _place(sheet, seat, action)


def _put_down(sheet: Sheet, field: int, value: object) -> Sheet:
    """The chosen die used and put down, with field number ``field`` set to ``value`` (none
    when ``field`` is the dice): `_replace(<field>=value, dice=..., pick=-1, mode=0)` without
    its keywords, for the steps every round takes several of."""
    values = list(sheet)
    values[field] = value
    values[_DICE] = _use_one(sheet.dice, sheet.pick)
    values[_PICK] = -1
    values[_MODE] = 0
    return _make(Sheet, values)


#: The steps that place the chosen die (`_place`).
_PLACING = frozenset({"trade", "write", "mark", "shape", "singles", "place"})


def _place(sheet: Sheet, seat: int, action: Act) -> tuple[Sheet, Events]:
    """`apply` for a step placing the chosen die: written, marked, drawn or traded (the
    commonest steps are sent here before the rest are asked about)."""
    events: Events = []
    kind = action.kind
    pick = sheet.pick
    die = sheet.dice[pick]
    value = die_value(die)
    if kind == "trade":
        sheet = gain_shells(_put_down(sheet, _DICE, None))
        text = say("You trade the {value} for a pair of shells.", value=value)
        return sheet, [event("trade", text, seat=seat, private=True)]
    if kind == "write":
        ruins = list(sheet.ruins)
        slots = list(ruins[action.a - 1])
        slots[action.b] = value
        ruins[action.a - 1] = tuple(slots)
        sheet = _put_down(sheet, _RUINS, tuple(ruins))
        text = say("You write {value} in ruin {number}.", value=value, number=action.a)
        return sheet, [event("write", text, seat=seat, private=True, ruin=action.a, slot=action.b)]
    if kind == "mark":
        after = sheet.reef | 1 << action.a
        r, c = divmod(action.a, BARRIER.cols)
        # `completed_lines` for one new cell: only its row and its column can be completed
        pearls = 0
        if after & BARRIER.row_masks[r] == BARRIER.row_masks[r]:
            pearls += BARRIER.pearls_row
        if after & BARRIER.col_masks[c] == BARRIER.col_masks[c]:
            pearls += BARRIER.pearls_col
        if action.a in BARRIER.highlighted:
            pearls += BARRIER.pearls_highlight
        sheet = _put_down(sheet, _REEF, after)
        text = say(
            "You mark the {value} at row {row}, column {column} of the reef.",
            value=value,
            row=r + 1,
            column=c + 1,
        )
        events.append(event("reef", text, seat=seat, private=True, cell=action.a))
        return settle(earn_pearls(sheet, pearls), seat, events), events
    if kind == "shape":
        return sheet._replace(mode=action.a + 1), events
    if kind == "singles":
        return sheet._replace(mode=-1), events
    # place (Arcane Atoll)
    before = sheet.reef
    if sheet.mode > 0:
        orient = sheet.mode - 1
        placement = next(p for p in ATOLL.by_orient[(value, orient)] if p.anchor == action.a)
        after = before | placement.mask
        sheet = sheet._replace(
            reef=after,
            shapes=(*sheet.shapes, (value, False, placement.cells)),
            dice=_use_one(sheet.dice, pick),
            pick=-1,
            mode=0,
        )
        r, c = divmod(action.a, ATOLL.cols)
        text = say(
            "You draw the shape for {value} in the reef at row {row}, column {column}.",
            value=value,
            row=r + 1,
            column=c + 1,
        )
    else:
        after = before | 1 << action.a
        sheet = sheet._replace(reef=after, shapes=(*sheet.shapes, (value, True, (action.a,))))
        if sheet.mode == -1 and atoll_singles(after):
            sheet = sheet._replace(mode=-2)
        else:
            sheet = sheet._replace(dice=_use_one(sheet.dice, pick), pick=-1, mode=0)
        r, c = divmod(action.a, ATOLL.cols)
        text = say(
            "You draw a single block in the reef at row {row}, column {column}.", row=r + 1, column=c + 1
        )
    rows, cols = completed_lines(before, after, ATOLL.row_masks, ATOLL.col_masks)
    _private(events, seat, "reef", text, cell=action.a)
    return settle(earn_pearls(sheet, rows * ATOLL.pearls_row + cols * ATOLL.pearls_col), seat, events), events


def check(sheet: Sheet, action: Act, reef_key: str) -> None:
    """Raise `IllegalAction` with a readable reason unless ``action`` is legal now."""
    options = _remembered(sheet, reef_key)
    for option in options:  # actions are shared instances: identity first, it is cheap
        if option is action:
            return
    if action in options:
        return
    if sheet.confirmed:
        raise IllegalAction(say("You have already confirmed this round."))
    if sheet.pending:
        raise IllegalAction(say("Choose your pearl bonus or enchantment first."))
    if action.kind == "confirm":
        raise IllegalAction(say("Use every hydra die and boon die before you confirm your round."))
    if sheet.pick >= 0 and is_rolled(sheet.dice[sheet.pick]) and action.kind == "trade":
        raise IllegalAction(say("A rolled die is written into a ruin or the reef; it is never traded."))
    if action.kind == "cast":
        raise IllegalAction(say("An enchantment needs two or more dice adding up to its section's sum."))
    if action.kind == "unlock":
        raise IllegalAction(
            say("Those dice do not unlock that ruin, or you already searched or cast this round.")
        )
    raise IllegalAction(say("That move is not possible right now."))


# ------------------------------------------------------------------ the round loop


@lru_cache(maxsize=256)
def _roller(seed: int, number: int) -> tuple[int, ...]:
    """The first four throws of round ``number``'s dice roller, ``Random(f"{seed}:{number}:dice")``:
    the boon's shared roll (when the round has one) and the three hydra dice after it. Seeding from
    a string hashes it, so the round's start and its roll share one roller."""
    # What ``random.Random(text)`` and four ``randint(1, 6)`` give, without their Python layers: a
    # string seeds the twister with the int of its bytes followed by their SHA-512 (seed version
    # 2), and randint(1, 6) is 1 + getrandbits(3), drawn again while it is 6 or more.
    text = f"{seed}:{number}:dice".encode()
    bits = _random.Random(int.from_bytes(text + sha512(text).digest())).getrandbits
    throws = []
    for _ in range(4):
        r = bits(3)
        while r >= 6:
            r = bits(3)
        throws.append(1 + r)
    return tuple(throws)


def start_round(state: ReefState, number: int, events: Events) -> tuple[ReefState, Events]:
    """Gameplay: advance the otter; "if there's a Boon next to that round number,
    everyone gains that Boon before the Hydra dice are rolled"; then roll (at once,
    or once every seat has made the boon's choices)."""
    return _start_round(state, number, events, state.sheets, state.prev)


def _start_round(
    state: ReefState, number: int, events: Events, olds: tuple[Sheet, ...], prev: tuple[Sheet, ...]
) -> tuple[ReefState, Events]:
    """`start_round` from the sheets ``olds``, with ``prev`` as the previous round's sheets: the
    new state made in one copy (`end_round` hands over its sheets without a copy of its own)."""
    boon = TRACKER[state.side].get(number)
    roll_value = _roller(state.seed, number)[0] if boon is not None and boon.kind == "roll" else 0
    sheets = []
    for seat, old in enumerate(olds):
        sheet = work_done(old)
        if boon is not None:
            if boon.kind == "shells":
                sheet = gain_shells(sheet)
            elif boon.kind == "roll":
                sheet = add_die(sheet, roll_value, "roll")
            elif boon.kind == "die":
                sheet = add_die(sheet, boon.value)
            else:  # "Enchantment: Gain an enchantment" — chosen before the dice are rolled
                sheet = sheet._replace(pending=("enchant",))
            sheet = settle(sheet, seat, events)
        sheets.append(sheet)
    new = tuple(sheets)
    waiting = False
    for sheet in new:  # `any(s.pending for s in new)`, without a generator each round
        if sheet.pending:
            waiting = True
            break
    if boon is not None:
        if roll_value and waiting:
            message = say(
                "Round {round} boon for everyone — {boon}: the roll is {roll}. "
                "Choose it before the hydra dice are rolled.",
                round=number,
                boon=boon.say(),
                roll=roll_value,
            )
        elif roll_value:
            message = say(
                "Round {round} boon for everyone — {boon}: the roll is {roll}.",
                round=number,
                boon=boon.say(),
                roll=roll_value,
            )
        elif waiting:
            message = say(
                "Round {round} boon for everyone — {boon}. Choose it before the hydra dice are rolled.",
                round=number,
                boon=boon.say(),
            )
        else:
            message = say("Round {round} boon for everyone — {boon}.", round=number, boon=boon.say())
        events.append(event("boon", message, round=number))
    if waiting:
        state = state._replace(
            phase="round",
            round=number,
            dice=(),
            roll=roll_value,
            sheets=new,
            bases=new,
            prev=prev,
            starts=new,
        )
        return state, events
    # `roll` at once, in the same copy of the state: `_replace(phase="round", round=number,
    # dice=dice, roll=roll_value, sheets=rolled, bases=new, prev=prev, starts=rolled)`, by place
    dice, rolled = _roll_sheets(state.seed, number, roll_value, new, events)
    values = list(state)
    values[_PHASE:_LUCKY] = ("round", number, dice, roll_value, rolled, new, prev)
    values[_STARTS] = rolled
    return _make(ReefState, values), events


#: A hydra die as the pool holds it, by the value rolled.
_HYDRA = tuple((v, "hydra", 0, False) for v in range(7))


def roll(state: ReefState, events: Events) -> tuple[ReefState, Events]:
    """Gameplay: the Dice Roller "rolls the three Hydra dice and calls out the results for the round"."""
    dice, sheets = _roll_sheets(state.seed, state.round, state.roll, state.sheets, events)
    return state._replace(dice=dice, sheets=sheets, starts=sheets), events


def _roll_sheets(
    seed: int, number: int, shared: int, sheets: tuple[Sheet, ...], events: Events
) -> tuple[tuple[int, ...], tuple[Sheet, ...]]:
    """`roll` for round ``number`` (``shared``: the round's shared roll, 0 for none): the hydra
    dice, and ``sheets`` with them at the front of each pool; the roll's event is appended."""
    throws = _roller(seed, number)
    # the shared "roll a die" boon came first from the same roller
    dice = throws[1:4] if shared else throws[:3]
    hydra = (_HYDRA[dice[0]], _HYDRA[dice[1]], _HYDRA[dice[2]])
    rolled = []
    for sheet in sheets:  # `_replace(dice=(*hydra, *sheet.dice))`, without its keywords
        values = list(sheet)
        values[_DICE] = (*hydra, *sheet.dice)
        rolled.append(_make(Sheet, values))
    events.append(
        event(
            "roll",
            say(
                "Round {round} of {rounds}: the hydra dice show {first}, {second} and {third}.",
                round=number,
                rounds=ROUNDS,
                first=dice[0],
                second=dice[1],
                third=dice[2],
            ),
            round=number,
            dice=list(dice),
        )
    )
    return dice, tuple(rolled)


def end_round(state: ReefState) -> tuple[ReefState, Events]:
    """Every seat confirmed: the sheets become public; the next round, or the game's end
    (phase ``finished``; the game adds the end event with the result, `engine.reef.scoring`)."""
    sheets = tuple([work_done(s) for s in state.sheets])
    events: Events = [
        event(
            "reveal",
            say("Round {round} is over: every sheet is now public.", round=state.round),
            round=state.round,
        )
    ]
    if state.round >= ROUNDS:
        final = state._replace(
            phase="finished",
            sheets=sheets,
            prev=state.bases,
            bases=sheets,
            starts=sheets,
            dice=(),
            roll=0,
        )
        return final, events
    return _start_round(state, state.round + 1, events, sheets, state.bases)


_SEAT_0 = frozenset({0})
_NOBODY: frozenset[int] = frozenset()


def to_act(state: ReefState) -> frozenset[int]:
    """Seats that owe a move: the lucky number's picker, the boon step's choosers, or the
    seats that have not confirmed the round."""
    if state.phase == "round":
        sheets = state.sheets
        if len(sheets) == 1:  # solo, the common case of play-outs: no set to build
            owes = sheets[0].pending if not state.dice else not sheets[0].confirmed
            return _SEAT_0 if owes else _NOBODY
        if not state.dice:  # the boon step: seats with the boon's choices still to make
            return frozenset(i for i, s in enumerate(sheets) if s.pending)
        return frozenset(i for i, s in enumerate(sheets) if not s.confirmed)
    if state.phase == "lucky":
        seat = setup.lucky_turn(state)
        return frozenset() if seat is None else frozenset({seat})
    return frozenset()


def legal_actions(state: ReefState, seat: int) -> list[Act]:
    """Every legal move of ``seat`` now."""
    if not 0 <= seat < state.seats:
        return []
    if state.phase == "round":
        sheet = state.sheets[seat]
        if not state.dice and not sheet.pending:
            return []
        return list(_remembered(sheet, state.reef))  # `legal`, a frame sooner
    if state.phase == "lucky":
        return setup.lucky_actions(state, seat)
    return []


def play(state: ReefState, seat: int, action: Act, *, checked: bool = True) -> tuple[ReefState, Events]:
    """One seat's move on the table: a lucky number, a boon's choice, or a step of its round.

    ``checked=False`` (search play-outs, which play only legal moves) skips the round step's
    legality check; everything else is the same."""
    if not isinstance(action, Act):
        raise IllegalAction(say("That is not a Reef & Ruins move."))
    if not 0 <= seat < state.seats:
        raise IllegalAction(say("You are not seated at this table."))
    if state.phase != "round":
        if state.phase == "finished":
            raise IllegalAction(say("The game is over."))
        # the lucky numbers
        state, events = setup.choose_lucky(state, seat, action)
        if all(n > 0 for n in state.lucky):
            return start_round(state, 1, events)
        return state, events
    sheet = state.sheets[seat]
    boon_step = not state.dice
    if boon_step and not sheet.pending:
        raise IllegalAction(say("You have gained this round's boon; the hydra dice come next."))
    reef_key = state.reef
    if checked:
        last = _LAST  # `check`'s quick path: the legal steps just listed hold this very step
        options = last[2] if last[0] is sheet and last[1] == reef_key else _remembered(sheet, reef_key)
        for option in options:
            if option is action:
                break
        else:
            check(sheet, action, reef_key)
    starts = state.starts or state.bases
    new_sheet, events = apply(sheet, starts[seat], seat, action, reef_key)
    if state.seats == 1:  # `_replace(sheets=(new_sheet,))`, without its keywords
        values = list(state)
        values[_SHEETS] = (new_sheet,)
        state = _make(ReefState, values)
    else:
        sheets = list(state.sheets)
        sheets[seat] = new_sheet
        state = state._replace(sheets=tuple(sheets))
    if boon_step:
        if not new_sheet.pending:
            events.append(
                event(
                    "boon-chosen",
                    say("{seat} has gained the round {round} boon.", seat=seat_of(seat), round=state.round),
                )
            )
        if not any(s.pending for s in state.sheets):
            state, events = roll(state, events)
        return state, events
    if action.kind == "confirm":
        events.append(
            event(
                "confirmed",
                say("{seat} has confirmed round {round}.", seat=seat_of(seat), round=state.round),
            )
        )
        if state.seats == 1 or all(s.confirmed for s in state.sheets):  # solo: the seat just did
            state, more = end_round(state)
            events.extend(more)
    return state, events
