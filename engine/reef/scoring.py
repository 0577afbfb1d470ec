"""Game End and Scoring: ruins x multipliers, enchantment values, lucky numbers, pearl coins.

The rulebook's Scoring reference: 1. score all ship Ruins; 2. multiply each
Ruin by its Enchantment (the highest multiplier earned in the linked section);
3. gain 2 coins for each Lucky Number in your Reef or Ruins; 4. add the coins
from your Pearl Bonuses. Enchantment values are added too ("Then they total
all enchantment values"). Game End's winners (the hydra tie rule) and the solo
rating are `result`; the end in one sentence is `result_say`.
"""

from __future__ import annotations

import i18n
from engine.base import Result, places_from_scores
from engine.reef.components import (
    BARRIER,
    LUCKY_COINS,
    ROUNDS,
    RUINS,
    SECTION_COINS,
    SECTION_MULT,
    Ruin,
    rating,
)
from engine.reef.sheet import turns
from engine.reef.state import BARRIER_KEY, EMPTY, ReefState, Sheet
from i18n import listing, say, say_plural, term
from i18n import seat as seat_of

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
    if reef_key == BARRIER_KEY:
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


def result(state: ReefState) -> Result | None:
    """Game End: totals by category; the hydra tie rule; the solo rating (None while playing).

    Without breakdown labels: the game adds them (`engine.base.Game.labelled`)."""
    if state.phase != "finished":
        return None
    parts = tuple(breakdown(s, state.reef) for s in state.sheets)
    scores = tuple(sum(p.values()) for p in parts)
    top = max(scores)
    tied = [i for i, s in enumerate(scores) if s == top]
    notes: list[i18n.Msg] = []
    if state.seats == 1:
        entry = rating(scores[0])
        winners = frozenset({0})
        notes.append(say("Solo rating: {title} — {text}", title=term(entry.title), text=term(entry.text)))
    elif len(tied) == 1:
        winners = frozenset(tied)
    elif len(tied) == state.seats:
        # "everyone else not tied for the highest score wins": with every seat tied
        # there is nobody else, so nobody wins.
        winners = frozenset()
        notes.append(
            say(
                "Every player tied for the highest score. Everyone else not tied would win, "
                "as is tradition for hydra games, but there is no one else: no one wins."
            )
        )
    else:
        winners = frozenset(i for i in range(state.seats) if i not in tied)
        notes.append(
            say(
                "{names} tied for the highest score, so everyone else wins, as is tradition for hydra games.",
                names=listing([seat_of(i) for i in tied]),
            )
        )
    # where this table decided for the rulebook, in a player's words (issue #40)
    notes.append(
        say(
            "Played as this table reads the rulebook: {rounds} rounds; lucky numbers picked in "
            "seat order, each different when possible; a pair of shells moves a die by 1 with no "
            "highest value, never below 0 and never wrapping.",
            rounds=ROUNDS,
        )
    )
    ranking = places_from_scores([(i in winners, scores[i]) for i in range(state.seats)])
    return Result(scores=scores, ranking=ranking, winners=winners, breakdown=parts, notes=tuple(notes))


def result_say(state: ReefState, result: Result) -> i18n.Msg:
    """The game's end in one sentence, as a message."""
    if state.seats == 1:
        return say(
            "Final score {score}: {title}.",
            score=result.scores[0],
            title=term(rating(result.scores[0]).title),
        )
    scores: i18n.Msg | None = None
    for i, score in enumerate(result.scores):
        item = say("{seat} {score}", seat=seat_of(i), score=score)
        scores = item if scores is None else say("{first}, {second}", first=scores, second=item)
    if not result.winners:
        return say(
            "Game over. Scores: {scores}; everyone tied for the highest score, so no one wins.",
            scores=scores,
        )
    return say_plural(
        "Game over. Scores: {scores}; winner: {names}.",
        "Game over. Scores: {scores}; winners: {names}.",
        len(result.winners),
        scores=scores,
        names=listing([seat_of(i) for i in sorted(result.winners)]),
    )
