"""Game End and Scoring: ruins x multipliers, enchantment values, lucky numbers, pearl coins.

The rulebook's Scoring reference: 1. score all ship Ruins; 2. multiply each
Ruin by its Enchantment (the highest multiplier earned in the linked section);
3. gain 2 coins for each Lucky Number in your Reef or Ruins; 4. add the coins
from your Pearl Bonuses. Enchantment values are added too ("Then they total
all enchantment values").
"""

from __future__ import annotations

from engine.reef.components import BARRIER, LUCKY_COINS, RUINS, SECTION_COINS, SECTION_MULT, Ruin
from engine.reef.sheet import EMPTY, Sheet, turns

CATEGORIES = ("ruins", "enchantments", "lucky", "pearls")


def ruin_coins(ruin: Ruin, slots: tuple[int, ...]) -> int:
    """Coins one ruin earns before its multiplier."""
    rule = ruin.rule
    if rule == "plus-minus-one":
        filled = ruin.size - slots.count(EMPTY)
        coins = ruin.reach_coins[filled]
        if filled == ruin.size:
            coins += ruin.turn_bonus[min(len(turns(slots)), len(ruin.turn_bonus) - 1)]
        return coins
    if rule == "pyramid":
        done = 0
        for row in ruin.rows:
            if any(slots[x] == EMPTY for x in row):
                break
            done += 1
        return ruin.row_coins[done]
    complete = sum(1 for row in ruin.rows if all(slots[x] != EMPTY for x in row))
    coins = ruin.row_coins[complete]
    if ruin.column_sums:
        for c, column in enumerate(ruin.columns):
            values = [slots[x] for x in column]
            if EMPTY not in values and sum(values) == ruin.column_sums[c]:
                coins += ruin.column_coins[c]
    return coins


def multiplier(ench: tuple[int, ...], section: int) -> int:
    """The highest end-game multiplier crossed off in a section (1 when none)."""
    return SECTION_MULT[section][ench[section]]


def lucky_count(sheet: Sheet, reef_key: str) -> int:
    """Instances of the lucky number in the ruins and the reef (Atoll: shapes only)."""
    lucky = sheet.lucky
    if not lucky:
        return 0
    count = sum(slots.count(lucky) for slots in sheet.ruins)
    if reef_key == "bewitching-barrier":
        count += sum(1 for c in BARRIER.cells_of_value[lucky] if sheet.reef >> c & 1)
    else:
        count += sum(1 for value, single, _ in sheet.shapes if value == lucky and not single)
    return count


def breakdown(sheet: Sheet, reef_key: str) -> dict[str, int]:
    """Points by category (the keys of CATEGORIES)."""
    ruins = sum(ruin_coins(ruin, sheet.ruins[i]) * multiplier(sheet.ench, i) for i, ruin in enumerate(RUINS))
    ench = sum(SECTION_COINS[s][n] for s, n in enumerate(sheet.ench))
    return {
        "ruins": ruins,
        "enchantments": ench,
        "lucky": LUCKY_COINS * lucky_count(sheet, reef_key),
        "pearls": sheet.coins,
    }


def total(sheet: Sheet, reef_key: str) -> int:
    """The final score of a sheet."""
    return sum(breakdown(sheet, reef_key).values())
