"""Every number printed on a Reef & Ruins component, loaded once from data/reef/ and validated.

The rulebook prints no sheet; docs/rules/reef.md explains each designed number.
This module also precomputes the geometry the rules need again and again
(ruin neighbours, reef bit masks, every legal Arcane Atoll placement), so the
rules never recompute what cannot change.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import i18n
from engine.base import DataError, load_data
from i18n import N_, say, say_plural, term

GAME_KEY = "reef"

RULES = ("same", "different", "plus-minus-one", "odds", "evens", "pyramid")
RULE_TEXT = {
    "same": N_("SAME: the values in each row must be the same"),
    "different": N_("DIFFERENT: adjacent values must be different"),
    "plus-minus-one": N_("+/- ONE: left to right, each value one higher or lower than the one before"),
    "odds": N_("ODDS: all values must be odd"),
    "evens": N_("EVENS: all values must be even"),
    "pyramid": N_("PYRAMID: each value at most both values it rests on"),
}
#: A ruin's rule in one word, as the sheet prints it beside the ruin's number.
RULE_WORDS = {
    "same": N_("SAME"),
    "different": N_("DIFFERENT"),
    "plus-minus-one": N_("+/- ONE"),
    "odds": N_("ODDS"),
    "evens": N_("EVENS"),
    "pyramid": N_("PYRAMID"),
}
#: The round tracker's boons, the four the rulebook's Boons section lists: "Roll a die",
#: "Boon Die Value", "2 shells", "Enchantment" ("Pearl bonuses are gained from the Reef
#: or Enchantments", never from the tracker).
BOON_TYPES = ("roll", "die", "shells", "enchantment")
SPACE_BOONS = ("shells", "pearl", "die", "x2", "x3", "x4", "x5")
PEARL_TYPES = ("die", "coins", "enchantment")
REEFS = ("bewitching-barrier", "arcane-atoll")


def _fail(file: str, message: str) -> DataError:
    return DataError(f"data/reef/{file}: {message}")


def _int(value: Any, file: str, what: str, low: int | None = None, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(file, f"{what} must be a whole number, not {value!r}")
    if low is not None and value < low:
        raise _fail(file, f"{what} must be at least {low}, not {value}")
    if high is not None and value > high:
        raise _fail(file, f"{what} must be at most {high}, not {value}")
    return value


def _ints(
    value: Any, file: str, what: str, length: int | None = None, low: int | None = 0
) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise _fail(file, f"{what} must be a list")
    if length is not None and len(value) != length:
        raise _fail(file, f"{what} must have {length} entries, not {len(value)}")
    return tuple(_int(item, file, f"{what}[{i}]", low) for i, item in enumerate(value))


def _rising(values: tuple[int, ...], file: str, what: str) -> None:
    if any(b < a for a, b in pairwise(values)):
        raise _fail(file, f"{what} must never decrease")


# --------------------------------------------------------------------------- ruins


@dataclass(frozen=True)
class Ruin:
    """One Ship Ruin: its number (1-6), writing rule, slots and coin tables.

    Slots are numbered row by row; for the pyramid, row 0 is the base.
    ``neighbours[i]`` are the slots orthogonally next to slot ``i`` (DIFFERENT),
    ``supports[i]`` the two slots a pyramid value rests on and ``above[i]`` the
    pyramid slots resting on slot ``i``.
    """

    number: int
    name: str
    rule: str
    rows: tuple[tuple[int, ...], ...]
    row_coins: tuple[int, ...]
    reach_coins: tuple[int, ...]
    turn_bonus: tuple[int, ...]
    column_sums: tuple[int, ...]
    column_coins: tuple[int, ...]
    size: int
    row_of: tuple[int, ...]
    col_of: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    supports: tuple[tuple[int, ...], ...]
    above: tuple[tuple[int, ...], ...]
    columns: tuple[tuple[int, ...], ...]


def _load_ruins() -> tuple[Ruin, ...]:
    file = "ruins.json"
    raw = load_data(GAME_KEY, file)
    items = raw.get("ruins") if isinstance(raw, dict) else None
    if not isinstance(items, list) or len(items) != 6:
        raise _fail(file, "'ruins' must list exactly six ruins")
    ruins = []
    for index, item in enumerate(items):
        where = f"ruin {index + 1}"
        if _int(item.get("number"), file, f"{where} number") != index + 1:
            raise _fail(file, f"{where} must have number {index + 1}")
        rule = item.get("rule")
        if rule != RULES[index]:
            raise _fail(file, f"{where} must use rule {RULES[index]!r}, not {rule!r}")
        name = item.get("name")
        if not isinstance(name, str) or not name:
            raise _fail(file, f"{where} needs a name")
        lengths = _ints(item.get("rows"), file, f"{where} rows", low=1)
        if not lengths:
            raise _fail(file, f"{where} needs at least one row")
        rows, start = [], 0
        for length in lengths:
            rows.append(tuple(range(start, start + length)))
            start += length
        size = start
        row_of = tuple(r for r, row in enumerate(rows) for _ in row)
        col_of = tuple(c for row in rows for c in range(len(row)))
        neighbours: list[tuple[int, ...]] = []
        supports: list[tuple[int, ...]] = [() for _ in range(size)]
        columns: tuple[tuple[int, ...], ...] = ()
        row_coins: tuple[int, ...] = ()
        reach: tuple[int, ...] = ()
        turns: tuple[int, ...] = ()
        sums: tuple[int, ...] = ()
        col_coins: tuple[int, ...] = ()
        for slot in range(size):
            r, c = row_of[slot], col_of[slot]
            near = []
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < len(rows) and 0 <= cc < len(rows[rr]):
                    near.append(rows[rr][cc])
            neighbours.append(tuple(near))
        if rule == "plus-minus-one":
            if len(lengths) != 1:
                raise _fail(file, f"{where} (+/- ONE) must be a single row")
            reach = _ints(item.get("reach_coins"), file, f"{where} reach_coins", size + 1)
            turns = _ints(item.get("turn_bonus"), file, f"{where} turn_bonus", max(size - 1, 1))
            _rising(reach, file, f"{where} reach_coins")
        else:
            row_coins = _ints(item.get("row_coins"), file, f"{where} row_coins", len(lengths) + 1)
            _rising(row_coins, file, f"{where} row_coins")
        if rule in ("odds", "evens"):
            width = lengths[0]
            if any(length != width for length in lengths):
                raise _fail(file, f"{where} rows must all be {width} long to have column sums")
            sums = _ints(item.get("column_sums"), file, f"{where} column_sums", width)
            col_coins = _ints(item.get("column_coins"), file, f"{where} column_coins", width)
            columns = tuple(tuple(row[c] for row in rows) for c in range(width))
            parity = 1 if rule == "odds" else 0
            for total in sums:
                if len(lengths) * parity % 2 != total % 2:
                    raise _fail(file, f"{where} column sum {total} cannot be made of {rule}")
        if rule == "pyramid":
            for r in range(1, len(lengths)):
                if lengths[r] != lengths[r - 1] - 1:
                    raise _fail(file, f"{where} pyramid rows must shrink by one from the base up")
            for r in range(1, len(rows)):
                for c, slot in enumerate(rows[r]):
                    supports[slot] = (rows[r - 1][c], rows[r - 1][c + 1])
        ruins.append(
            Ruin(
                number=index + 1,
                name=name,
                rule=rule,
                rows=tuple(rows),
                row_coins=row_coins,
                reach_coins=reach,
                turn_bonus=turns,
                column_sums=sums,
                column_coins=col_coins,
                size=size,
                row_of=row_of,
                col_of=col_of,
                neighbours=tuple(neighbours),
                supports=tuple(supports),
                above=tuple(tuple(y for y in range(size) if slot in supports[y]) for slot in range(size)),
                columns=columns,
            )
        )
    return tuple(ruins)


# ---------------------------------------------------------------------- enchantments


@dataclass(frozen=True)
class Space:
    """One enchantment space: coins at game end and a boon gained when crossed off."""

    coins: int
    boon: str | None
    value: int = 0

    @property
    def multiplier(self) -> int:
        return int(self.boon[1:]) if self.boon and self.boon.startswith("x") else 1

    def say(self) -> i18n.Msg:
        """The space in words, as a message: "2 coins and a pearl"."""
        if self.boon is None:
            return say_plural("{count} coin", "{count} coins", self.coins)
        if self.boon == "die":
            return say_plural(
                "{count} coin and a boon die of {value}",
                "{count} coins and a boon die of {value}",
                self.coins,
                value=self.value,
            )
        if self.boon == "shells":
            return say_plural("{count} coin and 2 shells", "{count} coins and 2 shells", self.coins)
        if self.boon == "pearl":
            return say_plural("{count} coin and a pearl", "{count} coins and a pearl", self.coins)
        return say_plural(
            "{count} coin and a {multiplier} multiplier",
            "{count} coins and a {multiplier} multiplier",
            self.coins,
            multiplier=self.boon,
        )

    def text(self) -> str:
        return i18n.english(self.say())


@dataclass(frozen=True)
class Section:
    """An enchantment section: the dice sum it needs and the ruin its multipliers boost."""

    ruin: int
    total: int
    spaces: tuple[Space, ...]


def _load_sections() -> tuple[Section, ...]:
    file = "enchantments.json"
    raw = load_data(GAME_KEY, file)
    items = raw.get("sections") if isinstance(raw, dict) else None
    if not isinstance(items, list) or len(items) != 6:
        raise _fail(file, "'sections' must list six enchantment sections, one per ruin")
    sections = []
    seen_sums = set()
    for index, item in enumerate(items):
        where = f"section {index + 1}"
        if _int(item.get("ruin"), file, f"{where} ruin") != index + 1:
            raise _fail(file, f"{where} must link to ruin {index + 1}")
        total = _int(item.get("sum"), file, f"{where} sum", 2, 18)
        if total in seen_sums:
            raise _fail(file, f"two sections need the same sum {total}")
        seen_sums.add(total)
        spaces_raw = item.get("spaces")
        if not isinstance(spaces_raw, list) or not spaces_raw:
            raise _fail(file, f"{where} needs spaces")
        spaces = []
        for s, space in enumerate(spaces_raw):
            coins = _int(space.get("coins"), file, f"{where} space {s + 1} coins", 0)
            boon = space.get("boon")
            value = 0
            if boon is not None and boon not in SPACE_BOONS:
                raise _fail(file, f"{where} space {s + 1} has unknown boon {boon!r}")
            if boon == "die":
                value = _int(space.get("value"), file, f"{where} space {s + 1} die value", 1, 6)
            spaces.append(Space(coins, boon, value))
        sections.append(Section(index + 1, total, tuple(spaces)))
    return tuple(sections)


# ----------------------------------------------------------------------------- reefs


@dataclass(frozen=True)
class Barrier:
    """The Bewitching Barrier: a grid of printed values around a Start space."""

    name: str
    rows: int
    cols: int
    start: int
    values: tuple[int, ...]
    highlighted: frozenset[int]
    neighbours: tuple[int, ...]  # bit mask of each cell's orthogonal neighbours
    cells_of_value: tuple[tuple[int, ...], ...]  # index = value 0..8
    row_masks: tuple[int, ...]
    col_masks: tuple[int, ...]
    pearls_highlight: int
    pearls_row: int
    pearls_col: int


@dataclass(frozen=True)
class Placement:
    """One way to draw an Arcane Atoll shape: orientation, anchor cell and covered cells."""

    orient: int
    anchor: int
    cells: tuple[int, ...]
    mask: int


@dataclass(frozen=True)
class Atoll:
    """The Arcane Atoll: an empty grid with textures; shapes per die value."""

    name: str
    rows: int
    cols: int
    shapes: dict[int, tuple[tuple[tuple[int, int], ...], ...]]  # value -> orientations
    texture_names: tuple[str, ...]
    texture_of: tuple[int, ...]  # cell -> texture index or -1
    placements: dict[int, tuple[Placement, ...]]  # value -> legal-by-texture placements
    by_orient: dict[tuple[int, int], tuple[Placement, ...]]
    singles: tuple[int, ...]  # cells a single block may cover (texture rule)
    row_masks: tuple[int, ...]
    col_masks: tuple[int, ...]
    pearls_row: int
    pearls_col: int


def _cell(raw: Any, rows: int, cols: int, file: str, what: str) -> int:
    if not isinstance(raw, list) or len(raw) != 2:
        raise _fail(file, f"{what} must be [row, column]")
    r = _int(raw[0], file, f"{what} row", 0, rows - 1)
    c = _int(raw[1], file, f"{what} column", 0, cols - 1)
    return r * cols + c


def _line_masks(rows: int, cols: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    row_masks = tuple(sum(1 << (r * cols + c) for c in range(cols)) for r in range(rows))
    col_masks = tuple(sum(1 << (r * cols + c) for r in range(rows)) for c in range(cols))
    return row_masks, col_masks


def orientations(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every distinct rotation and mirror image of a shape, each normalised to start at (0, 0)."""
    seen: list[tuple[tuple[int, int], ...]] = []
    current = list(cells)
    for mirror in (False, True):
        shape = [(r, -c) for r, c in current] if mirror else list(current)
        for _ in range(4):
            shape = [(c, -r) for r, c in shape]
            top = min(r for r, _ in shape)
            left = min(c for _, c in shape)
            norm = tuple(sorted((r - top, c - left) for r, c in shape))
            if norm not in seen:
                seen.append(norm)
    return tuple(seen)


def texture_ok(cells: tuple[int, ...], texture_of: tuple[int, ...], texture_cells: list[set[int]]) -> bool:
    """The Arcane Atoll texture rule: cover no texture, or all of exactly one texture."""
    touched = {texture_of[c] for c in cells if texture_of[c] >= 0}
    if not touched:
        return True
    if len(touched) > 1:
        return False
    return texture_cells[touched.pop()] <= set(cells)


def _load_reefs() -> tuple[Barrier, Atoll]:
    file = "reefs.json"
    raw = load_data(GAME_KEY, file)
    if not isinstance(raw, dict) or set(raw) != set(REEFS):
        raise _fail(file, f"must describe exactly the reefs {', '.join(REEFS)}")
    # Bewitching Barrier
    b = raw["bewitching-barrier"]
    rows, cols = _ints(b.get("size"), file, "barrier size", 2, low=2)
    start = _cell(b.get("start"), rows, cols, file, "barrier start")
    grid = b.get("values")
    if not isinstance(grid, list) or len(grid) != rows:
        raise _fail(file, f"barrier values must have {rows} rows")
    values = tuple(v for r, row in enumerate(grid) for v in _ints(row, file, f"barrier row {r}", cols))
    for i, v in enumerate(values):
        if i == start and v != 0:
            raise _fail(file, "the barrier Start space must hold 0 (no value)")
        if i != start and not 1 <= v <= 6:
            raise _fail(file, f"barrier value {v} at cell {i} is not 1-6")
    highlighted = frozenset(
        _cell(cell, rows, cols, file, "barrier highlight") for cell in b.get("highlighted", [])
    )
    if start in highlighted:
        raise _fail(file, "the Start space cannot be highlighted")
    neighbours = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        mask = 0
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < rows and 0 <= cc < cols:
                mask |= 1 << (rr * cols + cc)
        neighbours.append(mask)
    cells_of_value = tuple(
        tuple(i for i, v in enumerate(values) if v == value and i != start) for value in range(9)
    )
    brow, bcol = _line_masks(rows, cols)
    barrier = Barrier(
        name=str(b.get("name", "Bewitching Barrier")),
        rows=rows,
        cols=cols,
        start=start,
        values=values,
        highlighted=highlighted,
        neighbours=tuple(neighbours),
        cells_of_value=cells_of_value,
        row_masks=brow,
        col_masks=bcol,
        pearls_highlight=_int(b.get("pearls_per_highlight"), file, "pearls_per_highlight", 0),
        pearls_row=_int(b.get("pearls_per_row"), file, "barrier pearls_per_row", 0),
        pearls_col=_int(b.get("pearls_per_column"), file, "barrier pearls_per_column", 0),
    )
    # Arcane Atoll
    a = raw["arcane-atoll"]
    rows, cols = _ints(a.get("size"), file, "atoll size", 2, low=2)
    shapes_raw = a.get("shapes")
    if not isinstance(shapes_raw, dict) or set(shapes_raw) != {str(v) for v in range(1, 7)}:
        raise _fail(file, "atoll shapes must be given for die values 1 to 6")
    shapes: dict[int, tuple[tuple[tuple[int, int], ...], ...]] = {}
    for key, cells in shapes_raw.items():
        if not isinstance(cells, list) or len(cells) < 2:
            raise _fail(file, f"atoll shape {key} must have at least two blocks")
        pts = tuple(tuple(_ints(p, file, f"atoll shape {key} block", 2)) for p in cells)
        if len(set(pts)) != len(pts):
            raise _fail(file, f"atoll shape {key} repeats a block")
        shapes[int(key)] = orientations(pts)  # type: ignore[arg-type]
    texture_of = [-1] * (rows * cols)
    names = []
    texture_cells: list[set[int]] = []
    for t, texture in enumerate(a.get("textures", [])):
        cells = {_cell(c, rows, cols, file, f"texture {t + 1}") for c in texture.get("cells", [])}
        if not cells:
            raise _fail(file, f"texture {t + 1} has no cells")
        for c in cells:
            if texture_of[c] >= 0:
                raise _fail(file, f"cell {c} belongs to two textures")
            texture_of[c] = t
        names.append(str(texture.get("name", f"texture {t + 1}")))
        texture_cells.append(cells)
    texture_tuple = tuple(texture_of)
    placements: dict[int, tuple[Placement, ...]] = {}
    by_orient: dict[tuple[int, int], tuple[Placement, ...]] = {}
    for value, orients in shapes.items():
        found = []
        for o, shape in enumerate(orients):
            height = 1 + max(r for r, _ in shape)
            width = 1 + max(c for _, c in shape)
            mine = []
            for r0 in range(rows - height + 1):
                for c0 in range(cols - width + 1):
                    cells = tuple((r0 + r) * cols + c0 + c for r, c in shape)
                    if texture_ok(cells, texture_tuple, texture_cells):
                        mine.append(Placement(o, r0 * cols + c0, cells, sum(1 << x for x in cells)))
            by_orient[(value, o)] = tuple(mine)
            found.extend(mine)
        placements[value] = tuple(found)
    singles = tuple(i for i in range(rows * cols) if texture_ok((i,), texture_tuple, texture_cells))
    for t, cells in enumerate(texture_cells):
        if not any(set(p.cells) >= cells for ps in placements.values() for p in ps) and not (len(cells) == 1):
            raise _fail(file, f"texture {names[t]!r} cannot be covered whole by any shape")
    arow, acol = _line_masks(rows, cols)
    atoll = Atoll(
        name=str(a.get("name", "Arcane Atoll")),
        rows=rows,
        cols=cols,
        shapes=shapes,
        texture_names=tuple(names),
        texture_of=texture_tuple,
        placements=placements,
        by_orient=by_orient,
        singles=singles,
        row_masks=arow,
        col_masks=acol,
        pearls_row=_int(a.get("pearls_per_row"), file, "atoll pearls_per_row", 0),
        pearls_col=_int(a.get("pearls_per_column"), file, "atoll pearls_per_column", 0),
    )
    return barrier, atoll


# -------------------------------------------------------------- pearls, tracker, sheet


@dataclass(frozen=True)
class PearlBonus:
    """One box of the Pearl Bonus section, crossed off when chosen."""

    kind: str
    value: int = 0

    def say(self) -> i18n.Msg:
        """The bonus in words, as a message: "a boon die of 3", "5 coins"."""
        if self.kind == "die":
            return say("a boon die of {value}", value=self.value)
        if self.kind == "coins":
            return say("{value} coins", value=self.value)
        return term("the next enchantment in any section")

    def text(self) -> str:
        return i18n.english(self.say())


def _load_pearls() -> tuple[PearlBonus, ...]:
    file = "pearls.json"
    raw = load_data(GAME_KEY, file)
    items = raw.get("bonuses") if isinstance(raw, dict) else None
    if not isinstance(items, list) or not items:
        raise _fail(file, "'bonuses' must list the pearl bonus boxes")
    out = []
    for i, item in enumerate(items):
        kind = item.get("type")
        if kind not in PEARL_TYPES:
            raise _fail(file, f"bonus {i + 1} has unknown type {kind!r}")
        value = 0
        if kind == "die":
            value = _int(item.get("value"), file, f"bonus {i + 1} value", 1, 6)
        elif kind == "coins":
            value = _int(item.get("value"), file, f"bonus {i + 1} value", 1)
        out.append(PearlBonus(kind, value))
    return tuple(out)


#: The words of the round tracker's boons that carry no value.
BOON_WORDS = {
    "roll": N_("roll a die (one roll for everyone, written straight into a ruin or the reef)"),
    "shells": N_("2 shells"),
    "enchantment": N_("an enchantment of your choice"),
}


@dataclass(frozen=True)
class Boon:
    """A round-tracker boon: everyone gains it at the start of its round."""

    kind: str
    value: int = 0

    def say(self) -> i18n.Msg:
        """The boon in words, as a message."""
        if self.kind == "die":
            return say("a boon die of {value}", value=self.value)
        return term(BOON_WORDS[self.kind])

    def text(self) -> str:
        return i18n.english(self.say())


def _load_tracker() -> tuple[int, dict[str, str], dict[str, dict[int, Boon]]]:
    file = "tracker.json"
    raw = load_data(GAME_KEY, file)
    if not isinstance(raw, dict):
        raise _fail(file, "must be an object")
    rounds = _int(raw.get("rounds"), file, "rounds", 1, 60)
    sides_raw = raw.get("sides")
    if not isinstance(sides_raw, dict) or len(sides_raw) != 2:
        raise _fail(file, "the round tracker must have exactly two sides")
    names: dict[str, str] = {}
    sides: dict[str, dict[int, Boon]] = {}
    for side, body in sides_raw.items():
        names[side] = str(body.get("name", side))
        boons: dict[int, Boon] = {}
        for key, boon in body.get("boons", {}).items():
            number = _int(int(key) if str(key).isdigit() else key, file, f"{side} round", 1, rounds)
            kind = boon.get("type")
            if kind == "pearl":
                raise _fail(
                    file,
                    f"{side} round {number}: the round tracker gives no pearls "
                    '("Pearl bonuses are gained from the Reef or Enchantments")',
                )
            if kind not in BOON_TYPES:
                raise _fail(file, f"{side} round {number} has unknown boon {kind!r}")
            value = (
                _int(boon.get("value"), file, f"{side} round {number} value", 1, 6) if kind == "die" else 0
            )
            boons[number] = Boon(kind, value)
        sides[side] = boons
    return rounds, names, sides


@dataclass(frozen=True)
class Rating:
    low: int
    high: int | None
    title: str
    text: str


def _load_sheet() -> tuple[int, int, int, tuple[Rating, ...]]:
    file = "sheet.json"
    raw = load_data(GAME_KEY, file)
    if not isinstance(raw, dict):
        raise _fail(file, "must be an object")
    lucky = _int(raw.get("lucky_coins"), file, "lucky_coins", 0)
    pairs = _int(raw.get("shell_pairs"), file, "shell_pairs", 1)
    low = _int(raw.get("lowest_value"), file, "lowest_value", 0, 1)
    if "highest_value" in raw:
        # Reference: "you cannot add 1 to a 6 to get a 1" is the only limit printed; ODDS
        # "(1, 3, 5, 7, etc.)" and EVENS "(2, 4, 6, 8, etc.)" go on (issue #40).
        raise _fail(file, "a changed die has no highest value (shells set the practical limit)")
    ratings = []
    expect = 0
    for i, item in enumerate(raw.get("solo_ratings", [])):
        lo = _int(item.get("min"), file, f"rating {i + 1} min", 0)
        hi = item.get("max")
        if lo != expect:
            raise _fail(file, f"solo rating {i + 1} must start at {expect}, not {lo}")
        if hi is not None:
            hi = _int(hi, file, f"rating {i + 1} max", lo)
            expect = hi + 1
        ratings.append(Rating(lo, hi, str(item.get("title")), str(item.get("text", ""))))
    if not ratings or ratings[-1].high is not None:
        raise _fail(file, "solo ratings must end with an open-ended rating (max null)")
    return lucky, pairs, low, tuple(ratings)


RUINS = _load_ruins()
SECTIONS = _load_sections()
BARRIER, ATOLL = _load_reefs()
PEARLS = _load_pearls()
ROUNDS, SIDE_NAMES, TRACKER = _load_tracker()
LUCKY_COINS, SHELL_PAIRS, LOW_VALUE, RATINGS = _load_sheet()
SIDES = tuple(TRACKER)
SECTION_BY_SUM = {s.total: i for i, s in enumerate(SECTIONS)}
#: Per section, per number of crossed spaces: the highest multiplier and the coins so far.
SECTION_MULT = tuple(
    tuple(max([1, *(sp.multiplier for sp in sec.spaces[:n])]) for n in range(len(sec.spaces) + 1))
    for sec in SECTIONS
)
SECTION_COINS = tuple(
    tuple(sum(sp.coins for sp in sec.spaces[:n]) for n in range(len(sec.spaces) + 1)) for sec in SECTIONS
)


def rating(score: int) -> Rating:
    """The Solo Score Table entry for a final score."""
    for entry in RATINGS:
        if entry.high is None or score <= entry.high:
            return entry
    return RATINGS[-1]
