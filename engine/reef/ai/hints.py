"""Why a hint picks its move: `explain`, one line for the move the expert chose (or any legal move).

The table service asks the expert for a seat's move in a worker process, then
calls ``explain`` on its own event loop, so this must be cheap: no search, no
play-out, only the bots' valuations (`engine.reef.ai.values`: `gains`,
`ruin_part`, `reef_hope`, `atoll_score`, `evaluate`) and the scoring rules.

What drives the move picks the kind of reason:

* a die written into a ruin: the row, column sum or stair it completes and the
  coins it adds, or how far it brings a row or pyramid row and what finishing
  it pays, or the number an ODDS/EVENS column still needs for its sum;
* a reef space or shape: the pearls of a finished line or a highlighted
  space, a highlighted space brought within reach, how short of a pearl a line
  is left, or the numbers it opens for later dice;
* a search or a cast: which of the other dice can then go into the ruin, or
  what the enchantment space gives (a multiplier and what it does to the
  ruin's coins so far, a pearl, a boon die, shells);
* a die chosen, or shells spent on it: where it goes next, or the sum the new
  value makes for a search or an enchantment; a trade: why shells beat every
  place the die could go;
* a pearl bonus, a gained enchantment, the lucky number, confirming the round.

Where the evaluation rather than a printed number decides, the line says how
many coins the expert's evaluation counts the move as worth. A lucky number
adds its own sentence.

It sees only what the seat sees: the seat's own sheet (its view shows it live),
the round number, the reef and the tracker side, and the public lucky numbers.
Never the seed (the dice to come) nor another seat's unconfirmed work.
"""

from __future__ import annotations

from itertools import combinations

import i18n
from engine.base import Game
from engine.reef import rules, setup
from engine.reef.actions import Act
from engine.reef.ai.values import (
    LUCKY_BOOK,
    LUCKY_CHOICES,
    PEARL_WORTH,
    SHELL_WORTH,
    atoll_score,
    evaluate,
    gains,
    reef_hope,
    ruin_part,
    worth_searching,
)
from engine.reef.components import (
    ATOLL,
    BARRIER,
    LUCKY_COINS,
    PEARLS,
    ROUNDS,
    RUINS,
    SECTION_BY_SUM,
    SECTION_MULT,
    SECTIONS,
    SHELL_PAIRS,
)
from engine.reef.scoring import breakdown, ruin_coins
from engine.reef.sheet import (
    atoll_orients,
    atoll_singles,
    completed_lines,
    die_value,
    legal_slots,
    turns,
    value_ok,
)
from engine.reef.state import ATOLL_KEY, EMPTY, Sheet
from i18n import N_, chain, say, say_plural, term

Msg = i18n.Msg

#: Joints: sentences of one line, dice of one sum.
SENTENCES = N_("{first} {rest}")
DICE_SUM = N_("{first} + {rest}")


def explain(game: Game, state, seat: int, action: Act) -> Msg | None:
    """One line of why ``action`` is a good move for ``seat`` now, or None when there is nothing specific."""
    if not isinstance(action, Act) or action not in game.legal_actions(state, seat):
        return None
    if state.phase == "lucky":
        return _lucky(game, state, action)
    if state.phase != "round":
        return None
    sheet = state.sheets[seat]
    left = ROUNDS - state.round
    reef = state.reef
    kind = action.kind
    if kind == "pick":
        return _die_reason(sheet, reef, left, action.a, die_value(sheet.dice[action.a]))
    if kind == "shell":
        return _shell(sheet, reef, left, action.a, action.b)
    if kind == "unlock":
        return _unlock(sheet, action.a, action.b)
    if kind == "cast":
        return _enchantment(sheet, reef, left, action.a, action.b)
    if kind == "enchant":
        return _enchantment(sheet, reef, left, action.a, None)
    if kind == "pearl":
        return _pearl(sheet, reef, left, action.a, bool(state.dice))
    if kind == "confirm":
        return _confirm(sheet, reef, left)
    if sheet.pick < 0:
        return None
    value = die_value(sheet.dice[sheet.pick])
    if kind == "write":
        return _write(sheet, reef, left, action.a - 1, action.b, value)
    if kind == "mark":
        return _mark(sheet, reef, left, action.a, value)
    if kind == "trade":
        return _trade(sheet, reef, left, sheet.pick, value)
    if kind == "shape":
        return _shape(sheet, left, value, action.a)
    if kind == "singles":
        return _singles(sheet, left, value)
    if kind == "place":
        if sheet.mode > 0:
            placement = next(p for p in ATOLL.by_orient[(value, sheet.mode - 1)] if p.anchor == action.a)
            return _atoll(sheet, left, value, placement.mask, placement.anchor, single=False)
        return _atoll(sheet, left, value, 1 << action.a, action.a, single=True)
    return None  # unpick, reset: taking work back needs no reason


# ----------------------------------------------------------------------- pieces


def _join(sentences: list[Msg]) -> Msg:
    return chain(sentences, SENTENCES)


def _with_extras(
    main: Msg, sheet: Sheet, value: int, concrete: bool, points: float, *, lucky: bool = True
) -> Msg:
    """``main``, then the lucky-number sentence when ``value`` is the seat's lucky number (and
    ``lucky``), then the expert's worth of the move when no printed number decided it."""
    sentences = [main]
    if lucky and (lucky_line := _lucky_line(sheet, value)) is not None:
        sentences.append(lucky_line)
    if not concrete:
        sentences.append(_worth(points))
    return _join(sentences)


def _worth(points: float) -> Msg:
    count = max(0, round(points))
    if count < 1:
        return say("By the expert's count it adds little to your sheet.")
    return say_plural(
        "The expert counts it as worth about {count} coin.",
        "The expert counts it as worth about {count} coins.",
        count,
    )


def _lucky_line(sheet: Sheet, value: int) -> Msg | None:
    if not sheet.lucky or value != sheet.lucky:
        return None
    return say_plural(
        "It is your lucky number: {count} more coin at the end.",
        "It is your lucky number: {count} more coins at the end.",
        LUCKY_COINS,
    )


def _more_coins(count: int, mult: int) -> Msg:
    if mult > 1:
        return say_plural(
            "{count} more coin (×{multiplier})", "{count} more coins (×{multiplier})", count, multiplier=mult
        )
    return say_plural("{count} more coin", "{count} more coins", count)


def _pearls(count: int) -> Msg:
    return say_plural("{count} pearl", "{count} pearls", count)


def _dice(sheet: Sheet, mask: int, changed: dict[int, int] | None = None) -> Msg | str:
    """The dice of a mask as a sum ("3 + boon 4"), with ``changed`` values in place of some."""
    items: list[object] = []
    for i, die in enumerate(sheet.dice):
        if mask >> i & 1:
            value = (changed or {}).get(i, die_value(die))
            items.append(value if die[1] == "hydra" else say("boon {value}", value=value))
    return chain(items, DICE_SUM)


def _ruin_name(r: int) -> Msg:
    return term(RUINS[r].name)


# ------------------------------------------------------------------------ ruins


def _write(sheet: Sheet, reef_key: str, left: int, r: int, slot: int, value: int) -> Msg:
    """A die written into ruin ``r`` (0-based) at ``slot``."""
    ruin = RUINS[r]
    slots = sheet.ruins[r]
    after = (*slots[:slot], value, *slots[slot + 1 :])
    mult = SECTION_MULT[r][sheet.ench[r]]
    gained = (ruin_coins(ruin, after) - ruin_coins(ruin, slots)) * mult
    lucky = LUCKY_COINS if sheet.lucky and value == sheet.lucky else 0
    points = ruin_part(r, after, sheet.ench[r], left) - ruin_part(r, slots, sheet.ench[r], left) + lucky
    where = {"value": value, "number": ruin.number, "name": _ruin_name(r)}
    row = ruin.row_of[slot]
    line = [x for x in ruin.rows[row]]
    filled = sum(1 for x in line if after[x] != EMPTY)
    concrete = True
    if ruin.rule == "plus-minus-one":
        count = ruin.size - after.count(EMPTY)
        if count == ruin.size:
            main = say(
                "The {value} completes the stair of ruin {number} ({name}) with {turns} turns: {coins}.",
                turns=len(turns(after)),
                coins=_more_coins(gained, mult),
                **where,
            )
        else:
            main = say(
                "The {value} takes the stair of ruin {number} ({name}) to {count} values: {coins}.",
                count=count,
                coins=_more_coins(gained, mult),
                **where,
            )
    elif ruin.rule == "pyramid":
        done = _pyramid_done(ruin, after)
        if gained > 0:
            main = say(
                "The {value} finishes pyramid row {row} of ruin {number} ({name}): {coins}.",
                row=row + 1,
                coins=_more_coins(gained, mult),
                **where,
            )
        elif row == done:
            step = (ruin.row_coins[done + 1] - ruin.row_coins[done]) * mult
            main = say(
                "The {value} brings pyramid row {row} of ruin {number} ({name}) to {filled} of {size}; "
                "finishing it pays {coins}.",
                row=row + 1,
                filled=filled,
                size=len(line),
                coins=_more_coins(step, mult),
                **where,
            )
            concrete = False
        else:
            main = say(
                "The {value} goes into pyramid row {row} of ruin {number} ({name}) early: "
                "it pays once the rows below it are finished.",
                row=row + 1,
                **where,
            )
            concrete = False
    else:
        row_done = filled == len(line)
        column_done = False
        column = ruin.col_of[slot]
        if ruin.column_sums:
            values = [after[x] for x in ruin.columns[column]]
            column_done = EMPTY not in values and sum(values) == ruin.column_sums[column]
        if gained > 0 and row_done and column_done:
            main = say(
                "The {value} completes row {row} of ruin {number} ({name}) and brings column {column} "
                "to its sum of {sum}: {coins}.",
                row=row + 1,
                column=column + 1,
                sum=ruin.column_sums[column],
                coins=_more_coins(gained, mult),
                **where,
            )
        elif gained > 0 and row_done:
            main = say(
                "The {value} completes row {row} of ruin {number} ({name}): {coins}.",
                row=row + 1,
                coins=_more_coins(gained, mult),
                **where,
            )
        elif gained > 0 and column_done:
            main = say(
                "The {value} brings column {column} of ruin {number} ({name}) to its sum of {sum}: {coins}.",
                column=column + 1,
                sum=ruin.column_sums[column],
                coins=_more_coins(gained, mult),
                **where,
            )
        else:
            concrete = False
            main = _column_need(ruin, after, column, mult, where) if ruin.column_sums else None
            if main is None:
                complete = sum(1 for rw in ruin.rows if all(after[x] != EMPTY for x in rw))
                step = 0
                if complete < len(ruin.rows):
                    step = (ruin.row_coins[complete + 1] - ruin.row_coins[complete]) * mult
                args = {"row": row + 1, "filled": filled, "size": len(line), "coins": _more_coins(step, mult)}
                if ruin.rule == "same":
                    main = say(
                        "The {value} brings row {row} of ruin {number} ({name}) to {filled} of {size}; "
                        "more {value}s finish it for {coins}.",
                        **args,
                        **where,
                    )
                else:
                    main = say(
                        "The {value} brings row {row} of ruin {number} ({name}) to {filled} of {size}; "
                        "finishing it pays {coins}.",
                        **args,
                        **where,
                    )
    return _with_extras(main, sheet, value, concrete, points)


def _pyramid_done(ruin, slots: tuple[int, ...]) -> int:
    done = 0
    for row in ruin.rows:
        if any(slots[x] == EMPTY for x in row):
            break
        done += 1
    return done


def _column_need(ruin, after: tuple[int, ...], column: int, mult: int, where: dict) -> Msg | None:
    """ODDS/EVENS: the value a column's last space needs to reach its printed sum, if one can."""
    cells = ruin.columns[column]
    empty = [x for x in cells if after[x] == EMPTY]
    if len(empty) != 1:
        return None
    rest = ruin.column_sums[column] - sum(after[x] for x in cells if after[x] != EMPTY)
    parity = 1 if ruin.rule == "odds" else 0
    if not value_ok(rest) or rest % 2 != parity:
        return None
    return say(
        "The {value} leaves column {column} of ruin {number} ({name}) needing a {rest} "
        "to reach its sum of {sum} for {coins}.",
        column=column + 1,
        rest=rest,
        sum=ruin.column_sums[column],
        coins=_more_coins(ruin.column_coins[column] * mult, mult),
        **where,
    )


# ------------------------------------------------------------------------- reefs


def _mark(sheet: Sheet, reef_key: str, left: int, cell: int, value: int) -> Msg:
    """Bewitching Barrier: the space at ``cell`` marked with the chosen die."""
    before = sheet.reef
    after = before | 1 << cell
    rows, cols = completed_lines(before, after, BARRIER.row_masks, BARRIER.col_masks)
    highlight = cell in BARRIER.highlighted
    pearls = (
        rows * BARRIER.pearls_row + cols * BARRIER.pearls_col + (BARRIER.pearls_highlight if highlight else 0)
    )
    lucky = LUCKY_COINS if sheet.lucky and value == sheet.lucky else 0
    points = (
        reef_hope(reef_key, after, left) - reef_hope(reef_key, before, left) + pearls * PEARL_WORTH + lucky
    )
    row, column = divmod(cell, BARRIER.cols)
    where = {"value": value, "row": row + 1, "column": column + 1}
    concrete = True
    if rows or cols:
        line = (
            term("both its reef row and its reef column")
            if rows and cols
            else term("its reef row")
            if rows
            else term("its reef column")
        )
        main = say(
            "The {value} at reef row {row}, column {column} completes {line}: {pearls}.",
            line=line,
            pearls=_pearls(pearls),
            **where,
        )
    elif highlight:
        main = say(
            "The {value} at reef row {row}, column {column} is a highlighted space: {pearls}.",
            pearls=_pearls(pearls),
            **where,
        )
    else:
        concrete = False
        main = _reef_progress(before, after, cell, where)
    return _with_extras(main, sheet, value, concrete, points)


def _reef_progress(before: int, after: int, cell: int, where: dict) -> Msg:
    """What a Barrier mark with no pearl sets up: a highlighted space in reach, a line nearly done,
    or new numbers next to the marks."""
    cells = BARRIER.rows * BARRIER.cols
    opened = [
        n
        for n in range(cells)
        if BARRIER.neighbours[cell] >> n & 1 and not after >> n & 1 and not BARRIER.neighbours[n] & before
    ]
    lit = [n for n in opened if n in BARRIER.highlighted]
    if lit:
        target = lit[0]
        trow, tcol = divmod(target, BARRIER.cols)
        return say(
            "The {value} at reef row {row}, column {column} brings the highlighted {target} at row {trow}, "
            "column {tcol} within reach: {pearls} when you mark it.",
            target=BARRIER.values[target],
            trow=trow + 1,
            tcol=tcol + 1,
            pearls=_pearls(BARRIER.pearls_highlight),
            **where,
        )
    row, column = divmod(cell, BARRIER.cols)
    row_short = BARRIER.cols - (after & BARRIER.row_masks[row]).bit_count()
    col_short = BARRIER.rows - (after & BARRIER.col_masks[column]).bit_count()
    if min(row_short, col_short) <= 2:
        if row_short <= col_short:
            return say_plural(
                "The {value} at reef row {row}, column {column} leaves "
                "that row {count} space short of a pearl.",
                "The {value} at reef row {row}, column {column} leaves "
                "that row {count} spaces short of a pearl.",
                row_short,
                **where,
            )
        return say_plural(
            "The {value} at reef row {row}, column {column} leaves "
            "that column {count} space short of a pearl.",
            "The {value} at reef row {row}, column {column} leaves that "
            "column {count} spaces short of a pearl.",
            col_short,
            **where,
        )
    values = sorted({BARRIER.values[n] for n in opened if BARRIER.values[n]})
    if values:
        return say(
            "The {value} at reef row {row}, column {column} opens the reef to {values} for later dice.",
            values=i18n.listing(values),
            **where,
        )
    return say("The {value} goes into the reef at row {row}, column {column}.", **where)


def _atoll(sheet: Sheet, left: int, value: int, mask: int, anchor: int, *, single: bool) -> Msg:
    """Arcane Atoll: the shape for ``value`` (or one single block) covering ``mask``."""
    before = sheet.reef
    after = before | mask
    rows, cols = completed_lines(before, after, ATOLL.row_masks, ATOLL.col_masks)
    lines = rows + cols
    pearls = rows * ATOLL.pearls_row + cols * ATOLL.pearls_col
    counts_lucky = not single and sheet.lucky and value == sheet.lucky
    points = atoll_score(before, mask, 0 if single else value, sheet.lucky, left) - reef_hope(
        ATOLL_KEY, before, left
    )
    row, column = divmod(anchor, ATOLL.cols)
    where = {"value": value, "row": row + 1, "column": column + 1}
    concrete = bool(lines)
    if lines:
        found = {
            "lines": say_plural("{count} reef line", "{count} reef lines", lines),
            "pearls": _pearls(pearls),
        }
        if single:
            main = say(
                "A single block at reef row {row}, column {column} completes {lines}: {pearls}.",
                **found,
                **where,
            )
        else:
            main = say(
                "The shape for {value} at reef row {row}, column {column} completes {lines}: {pearls}.",
                **found,
                **where,
            )
    else:
        main = _atoll_progress(after, mask, single, where)
    return _with_extras(main, sheet, value, concrete, points, lucky=counts_lucky)


def _atoll_progress(after: int, mask: int, single: bool, where: dict) -> Msg:
    """The Atoll line the cells bring closest to a pearl."""
    best: tuple[int, Msg] | None = None
    for r, line_mask in enumerate(ATOLL.row_masks):
        if line_mask & mask:
            short = ATOLL.cols - (after & line_mask).bit_count()
            if best is None or short < best[0]:
                best = (short, say("reef row {line}", line=r + 1))
    for c, line_mask in enumerate(ATOLL.col_masks):
        if line_mask & mask:
            short = ATOLL.rows - (after & line_mask).bit_count()
            if best is None or short < best[0]:
                best = (short, say("reef column {line}", line=c + 1))
    if best is not None and best[0] <= 3:
        if single:
            return say_plural(
                "A single block at reef row {row}, column {column} leaves "
                "{line} {count} cell short of a pearl.",
                "A single block at reef row {row}, column {column} leaves "
                "{line} {count} cells short of a pearl.",
                best[0],
                line=best[1],
                **where,
            )
        return say_plural(
            "The shape for {value} at reef row {row}, column {column} "
            "leaves {line} {count} cell short of a pearl.",
            "The shape for {value} at reef row {row}, column {column} "
            "leaves {line} {count} cells short of a pearl.",
            best[0],
            line=best[1],
            **where,
        )
    if single:
        return say("A single block goes into the reef at row {row}, column {column}.", **where)
    return say("The shape for {value} goes into the reef at row {row}, column {column}.", **where)


def _shape(sheet: Sheet, left: int, value: int, orient: int) -> Msg | None:
    """An orientation: where it fits best (the quick reef score the greedy planner uses)."""
    best = None
    for p in ATOLL.by_orient.get((value, orient), ()):
        if not p.mask & sheet.reef:
            score = atoll_score(sheet.reef, p.mask, value, sheet.lucky, left)
            if best is None or score > best[0]:
                best = (score, p)
    if best is None:
        return None
    return _atoll(sheet, left, value, best[1].mask, best[1].anchor, single=False)


def _singles(sheet: Sheet, left: int, value: int) -> Msg | None:
    """Two single blocks instead of the shape: the first two free single cells, as greedy places them."""
    cells = atoll_singles(sheet.reef)
    if len(cells) < 2:
        return None
    mask = 1 << cells[0] | 1 << cells[1]
    (r1, c1), (r2, c2) = divmod(cells[0], ATOLL.cols), divmod(cells[1], ATOLL.cols)
    where = {"value": value, "row": r1 + 1, "column": c1 + 1, "row2": r2 + 1, "column2": c2 + 1}
    rows, cols = completed_lines(sheet.reef, sheet.reef | mask, ATOLL.row_masks, ATOLL.col_masks)
    if rows + cols:
        return say(
            "Two single blocks for the {value} at reef row {row}, column {column} and row {row2}, "
            "column {column2} complete {lines}: {pearls}.",
            lines=say_plural("{count} reef line", "{count} reef lines", rows + cols),
            pearls=_pearls(rows * ATOLL.pearls_row + cols * ATOLL.pearls_col),
            **where,
        )
    if not atoll_orients(sheet.reef, value):
        return say(
            "The shape for {value} fits nowhere in your reef, so it becomes two single blocks.", **where
        )
    points = atoll_score(sheet.reef, mask, 0, sheet.lucky, left) - reef_hope(ATOLL_KEY, sheet.reef, left)
    return _join(
        [
            say(
                "Two single blocks for the {value} at reef row {row}, column {column} and row {row2}, "
                "column {column2} fill cells its shape cannot.",
                **where,
            ),
            _worth(points),
        ]
    )


# ------------------------------------------------------------------ dice, shells


def _options(sheet: Sheet, reef_key: str, left: int, index: int, value: int) -> list[tuple[float, list[Act]]]:
    return gains(sheet, index, value, reef_key, left)


def _best(options: list[tuple[float, list[Act]]]) -> tuple[float, list[Act]] | None:
    """The first best option, as the greedy planner keeps it."""
    best = None
    for option in options:
        if best is None or option[0] > best[0] + 1e-9:
            best = option
    return best


def _describe(sheet: Sheet, reef_key: str, left: int, index: int, value: int, steps: list[Act]) -> Msg | None:
    """What the steps after choosing die ``index`` (showing ``value``) do."""
    kind = steps[1].kind
    if kind == "write":
        return _write(sheet, reef_key, left, steps[1].a - 1, steps[1].b, value)
    if kind == "mark":
        return _mark(sheet, reef_key, left, steps[1].a, value)
    if kind == "shape":
        placement = next(p for p in ATOLL.by_orient[(value, steps[1].a)] if p.anchor == steps[2].a)
        return _atoll(sheet, left, value, placement.mask, placement.anchor, single=False)
    if kind == "singles":
        return _singles(sheet, left, value)
    if kind == "trade":
        return _trade(sheet, reef_key, left, index, value)
    return None


def _die_reason(sheet: Sheet, reef_key: str, left: int, index: int, value: int) -> Msg | None:
    """A die about to be placed: where it does most (its best placement by the evaluation)."""
    best = _best(_options(sheet, reef_key, left, index, value))
    if best is None:
        return None
    return _describe(sheet, reef_key, left, index, value, best[1])


def _trade(sheet: Sheet, reef_key: str, left: int, index: int, value: int) -> Msg:
    options = _options(sheet, reef_key, left, index, value)
    placements = [gain for gain, steps in options if steps[1].kind != "trade"]
    trade = SHELL_WORTH * min(1.0, left / 4)
    if sheet.shells >= SHELL_PAIRS:
        return say_plural(
            "You already hold {count} pair of shells, so trading the {value} only uses it up.",
            "You already hold {count} pairs of shells, so trading the {value} only uses it up.",
            sheet.shells,
            value=value,
        )
    if not placements:
        return say(
            "The {value} fits nowhere on your sheet now, so it becomes a pair of shells for later dice.",
            value=value,
        )
    if max(placements) <= trade:
        return say_plural(
            "Nowhere on your sheet gains as much from the {value} as a pair of shells for later dice "
            "(you will hold {count} pair).",
            "Nowhere on your sheet gains as much from the {value} as a pair of shells for later dice "
            "(you will hold {count} pairs).",
            sheet.shells + 1,
            value=value,
        )
    return say_plural(
        "Trading the {value} gives you a pair of shells to move later dice (you will hold {count} pair).",
        "Trading the {value} gives you a pair of shells to move later dice (you will hold {count} pairs).",
        sheet.shells + 1,
        value=value,
    )


def _shell(sheet: Sheet, reef_key: str, left: int, index: int, step: int) -> Msg | None:
    """Shells on a die: the sum it then makes for a search or a cast, or the better place it then has."""
    die = sheet.dice[index]
    old = die_value(die)
    reach = [k for k in (1, 2) if k <= sheet.shells and value_ok(old + k * step)]
    reason: tuple[int, Msg] | None = None
    if sheet.main == 0:
        for k in reach:
            found = _opening(sheet, index, old + k * step, sheet.shells - k)
            if found is not None:
                reason = (k, found)
                break
    if reason is None and sheet.pick < 0:
        cost = SHELL_WORTH * min(1.0, left / 4)
        now = _best(_options(sheet, reef_key, left, index, old))
        for k in reach:
            new = old + k * step
            best = _best(_options(sheet, reef_key, left, index, new))
            if best is not None and (now is None or best[0] - k * cost > now[0] + 1e-9):
                changed = sheet._replace(
                    dice=(
                        *sheet.dice[:index],
                        (die[0], die[1], die[2] + k * step, die[3]),
                        *sheet.dice[index + 1 :],
                    )
                )
                described = _describe(changed, reef_key, left, index, new, best[1])
                if described is not None:
                    reason = (k, described)
                    break
    if reason is None:
        return None
    k, why = reason
    return say_plural(
        "A pair of shells turns the {old} into a {new}. {reason}",
        "{count} pairs of shells turn the {old} into a {new}. {reason}",
        k,
        old=old,
        new=old + k * step,
        reason=why,
    )


def _opening(sheet: Sheet, index: int, new: int, shells: int) -> Msg | None:
    """A search or cast that die ``index`` showing ``new`` makes possible with other unused dice."""
    unused = [i for i, d in enumerate(sheet.dice) if not d[3] and not rules.is_rolled(d)]
    others = [i for i in unused if i != index]
    values = {i: die_value(sheet.dice[i]) for i in unused}
    values[index] = new
    casts: list[tuple[float, Msg]] = []
    searches: list[Msg] = []
    for size in range(0, len(others) + 1):
        for group in combinations(others, size):
            chosen = (index, *group)
            total = sum(values[i] for i in chosen)
            mask = sum(1 << i for i in chosen)
            s = SECTION_BY_SUM.get(total)
            if len(chosen) >= 2 and s is not None and sheet.ench[s] < len(SECTIONS[s].spaces):
                space = SECTIONS[s].spaces[sheet.ench[s]]
                worth = space.coins + 3 * (space.multiplier > 1) + (space.boon is not None)
                casts.append(
                    (
                        worth,
                        say(
                            "Then {dice} add up to {sum}: casting enchantment {sum} gains {space}.",
                            dice=_dice(sheet, mask, {index: new}),
                            sum=total,
                            space=space.say(),
                        ),
                    )
                )
            if 1 <= total <= len(RUINS):
                rest = [values[i] for i in unused if i not in chosen]
                if worth_searching(sheet, total - 1, rest, shells):
                    searches.append(
                        say(
                            "Then {dice} make {number}, enough to search ruin {number} ({name}).",
                            dice=_dice(sheet, mask, {index: new}),
                            number=total,
                            name=_ruin_name(total - 1),
                        )
                    )
    if casts:
        return max(casts, key=lambda item: item[0])[1]
    return searches[0] if searches else None


# --------------------------------------------------------------- main actions


def _unlock(sheet: Sheet, number: int, mask: int) -> Msg:
    """Searching ruin ``number``: which of the other dice can then be written there."""
    r = number - 1
    ruin = RUINS[r]
    rest = [i for i, d in enumerate(sheet.dice) if not d[3] and not mask >> i & 1 and d[1] == "hydra"]
    fits = [die_value(sheet.dice[i]) for i in rest if _fits(ruin, sheet.ruins[r], die_value(sheet.dice[i]))]
    near = [
        die_value(sheet.dice[i])
        for i in rest
        if sheet.shells
        and any(
            _fits(ruin, sheet.ruins[r], die_value(sheet.dice[i]) + d)
            for d in (-1, 1)
            if value_ok(die_value(sheet.dice[i]) + d)
        )
    ]
    where = {"number": number, "name": _ruin_name(r), "dice": _dice(sheet, mask)}
    mult = SECTION_MULT[r][sheet.ench[r]]
    if fits:
        if mult > 1:
            return say(
                "Searching ruin {number} ({name}, counting ×{multiplier}) "
                "with {dice} lets your {rest} go into it.",
                multiplier=mult,
                rest=i18n.listing(fits),
                **where,
            )
        return say(
            "Searching ruin {number} ({name}) with {dice} lets your {rest} go into it.",
            rest=i18n.listing(fits),
            **where,
        )
    if near:
        return say(
            "Searching ruin {number} ({name}) with {dice}: with a pair of shells your {rest} can go into it.",
            rest=i18n.listing(near),
            **where,
        )
    return say(
        "Searching ruin {number} ({name}) uses up {dice}; none of your other hydra dice fits there now.",
        **where,
    )


def _fits(ruin, slots: tuple[int, ...], value: int) -> bool:
    return bool(legal_slots(ruin, slots, value))


def _enchantment(sheet: Sheet, reef_key: str, left: int, section: int, mask: int | None) -> Msg:
    """Casting (``mask`` the dice) or gaining the next space of ``section``: what the space gives."""
    sec = SECTIONS[section]
    space = sec.spaces[sheet.ench[section]]
    if mask is not None:
        main = say(
            "Casting enchantment {sum} with {dice} gains {space}.",
            sum=sec.total,
            dice=_dice(sheet, mask),
            space=space.say(),
        )
    else:
        main = say("The next space of enchantment {sum} gains {space}.", sum=sec.total, space=space.say())
    sentences = [main]
    r = sec.ruin - 1
    old = SECTION_MULT[r][sheet.ench[section]]
    new = SECTION_MULT[r][sheet.ench[section] + 1]
    if new > old:
        coins = ruin_coins(RUINS[r], sheet.ruins[r])
        if coins:
            sentences.append(
                say(
                    "Ruin {number} ({name}) then counts ×{multiplier}: its "
                    "{coins} coins so far become {total}.",
                    number=sec.ruin,
                    name=_ruin_name(r),
                    multiplier=new,
                    coins=coins * old,
                    total=coins * new,
                )
            )
        else:
            sentences.append(
                say(
                    "Every coin ruin {number} ({name}) earns from now on counts ×{multiplier}.",
                    number=sec.ruin,
                    name=_ruin_name(r),
                    multiplier=new,
                )
            )
    else:
        ench = list(sheet.ench)
        ench[section] += 1
        after = sheet._replace(ench=tuple(ench))
        if space.boon == "shells":
            after = rules.gain_shells(after)
        elif space.boon == "pearl":
            after = after._replace(pending=(*after.pending, "pearl"))
        elif space.boon == "die":
            after = rules.add_die(after, space.value)
        later = sheet.ench[section] + 1
        if later < len(sec.spaces) and SECTION_MULT[r][later + 1] > SECTION_MULT[r][later]:
            sentences.append(
                say(
                    "The space after it gives ruin {number} ({name}) a ×{multiplier}.",
                    number=sec.ruin,
                    name=_ruin_name(r),
                    multiplier=SECTION_MULT[r][later + 1],
                )
            )
        points = evaluate(after, reef_key, left) - evaluate(sheet, reef_key, left)
        sentences.append(_worth(points))
    return _join(sentences)


def _pearl(sheet: Sheet, reef_key: str, left: int, box: int, rolled: bool) -> Msg:
    bonus = PEARLS[box]
    if bonus.kind == "coins":
        return say(
            "The pearl buys {bonus}: coins that count at the end whatever the dice do.", bonus=bonus.say()
        )
    if bonus.kind == "enchantment":
        return say("The pearl buys {bonus}: you choose the section next.", bonus=bonus.say())
    if rolled:
        after = rules.add_die(sheet._replace(pending=sheet.pending[1:]), bonus.value)
        index = len(after.dice) - 1
        described = _die_reason(after, reef_key, left, index, bonus.value)
        if described is not None:
            return say("The pearl buys {bonus}. {reason}", bonus=bonus.say(), reason=described)
    return say("The pearl buys {bonus}, which can go straight into any ruin this round.", bonus=bonus.say())


def _confirm(sheet: Sheet, reef_key: str, left: int) -> Msg:
    score = sum(breakdown(sheet, reef_key).values())
    for index, die in enumerate(sheet.dice):
        if not die[3] and rules.is_rolled(die):
            value = die_value(die)
            best = _best(_options(sheet, reef_key, left, index, value))
            if best is None or best[0] <= 0:
                return say_plural(
                    "The rolled {value} gains nothing where it could go, so it stays unwritten; "
                    "your sheet would score {count} coin if the game ended now.",
                    "The rolled {value} gains nothing where it could go, so it stays unwritten; "
                    "your sheet would score {count} coins if the game ended now.",
                    score,
                    value=value,
                )
            return say_plural(
                "You leave the rolled {value} unwritten; your sheet would "
                "score {count} coin if the game ended now.",
                "You leave the rolled {value} unwritten; your sheet would "
                "score {count} coins if the game ended now.",
                score,
                value=value,
            )
    return say_plural(
        "Every die is used: your sheet would score {count} coin if the game ended now.",
        "Every die is used: your sheet would score {count} coins if the game ended now.",
        score,
    )


def _lucky(game: Game, state, action: Act) -> Msg | None:
    free = setup.free_lucky(state)
    if action.a == 0:
        return say("Fate picks one of the numbers still free: {numbers}.", numbers=i18n.listing(free))
    number = action.a
    order = LUCKY_BOOK.get((state.reef, state.side), LUCKY_CHOICES)  # the expert's own choice
    preferred = next((n for n in order if n in free), None)
    if number == preferred and len(free) > 1:
        return say_plural(
            "Each {number} in your ruins or reef will be worth {count} more coin at the end; "
            "the expert prefers {number} to the other free numbers ({others}).",
            "Each {number} in your ruins or reef will be worth {count} more coins at the end; "
            "the expert prefers {number} to the other free numbers ({others}).",
            LUCKY_COINS,
            number=number,
            others=i18n.listing([n for n in free if n != number]),
        )
    return say_plural(
        "Each {number} in your ruins or reef will be worth {count} more coin at the end.",
        "Each {number} in your ruins or reef will be worth {count} more coins at the end.",
        LUCKY_COINS,
        number=number,
    )


__all__ = ["explain"]
