"""What things are worth to a seat: the valuations Haenyeo's bots and hints share.

Two valuations, each a set of public functions and constants:

* The greedy values (``greedy_*``, `occupancy`, `best_zones`): every item by what it adds
  to this player's scores in the scoring rounds still to come (the next one counts fully,
  later ones less), diving cards by that value weighed by the chance each zone is connected
  and the chance of being alone there (alone a Haenyeo harvests ALL items, shared only one
  slot). A pearl is valued by the points per pearl of the scoring spaces it can still reach
  (the first spaces of the track score nothing). The ``greedy`` policy plays by them, and the
  ``expert`` models how the other seats choose their cards with them.
* The expert's values (`Values`, `seafood_gains`, `third_value` …): the same questions with
  the sheets projected to each scoring round to come, the 3rd Haenyeo worth its rounds still
  to play, a trash step at the expected final count. The ``expert`` searches with them and a
  hint (`engine.haenyeo.ai.hints`) says them.

Nothing here chooses a move: `engine.haenyeo.ai.greedy` and `engine.haenyeo.ai.expert` do.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import combinations

from engine.haenyeo.components import EGG, N_SEAFOOD, PEARL_ZONE, TRASH0, C, creature_mask
from engine.haenyeo.rules import rows
from engine.haenyeo.scoring import round_rules, rule_points
from engine.haenyeo.state import State

# ------------------------------------------------------------------ the greedy values

#: Weight of the next scoring round and of later ones.
NEXT_WEIGHT = 1.0
LATER_WEIGHT = 0.6
#: Value of keeping an unused turtle egg (greedy's; the expert's is `EGG_KEEP`).
GREEDY_EGG_KEEP = 1.5
#: How fast the chance that a zone is filled grows with the other Haenyeo and NPC cards.
OCCUPANCY_RATE = 0.25
#: Trust in a guess of another seat's cards (greedy's guess, the expert's opponent model).
GUESS_TRUST = 0.8
#: What a pearl-track bonus adds to the pearl that reaches it.
PEARL_BONUS = 8.0
#: Trust in pearls further down the track than the next one (greedy's; the expert's is `PEARL_TRUST`).
GREEDY_PEARL_TRUST = 0.6


def greedy_seafood_values(state: State, seat: int) -> list[float]:
    """What one more of each seafood adds to this seat's remaining round scores."""
    tile = C.tiles[state.tile]
    future = [r for r in C.scoring_rounds if r >= state.round]
    mine = list(state.food[seat])
    values = [0.3] * N_SEAFOOD
    for index, round_no in enumerate(future):
        weight = NEXT_WEIGHT if index == 0 else LATER_WEIGHT
        for rule in round_rules(tile, round_no):
            base = rule_points(rule, mine, state.food)
            for k in rule.seafood:
                if mine[k] >= C.tracks[k]:
                    continue
                mine[k] += 1
                others = [mine if s == seat else state.food[s] for s in range(state.seats)]
                values[k] += weight * (rule_points(rule, mine, others) - base)
                mine[k] -= 1
    return values


def greedy_trash_value(state: State, seat: int) -> float:
    """What one more trash type adds: half the step of the score tile's table over the next two."""
    table = C.tiles[state.tile].trash
    have = state.trash[seat].bit_count()
    if have + 2 >= len(table):
        return table[-1] - table[have]
    return (table[have + 2] - table[have]) / 2


def greedy_egg_value(state: State, seat: int) -> float:
    """A turtle egg: much while the 3rd Haenyeo is still to gain early, else a little."""
    if not state.third[seat] and state.round <= 5:
        return 6.0
    return 2.5


def greedy_pearl_value(state: State, seat: int) -> float:
    """What the next pearl is worth, spread over the pearls still to come to reach a scoring space.

    "Only the score at your rightmost marked space counts", and the first spaces score nothing:
    a pearl is worth the best average gain per pearl over the spaces reachable in the rounds left
    (about one pearl a round), later spaces trusted less.
    """
    p = state.pearls[seat]
    spaces = len(C.pearl_points)
    if p >= spaces:
        return 0.0
    now = C.pearl_points[p - 1] if p else 0
    reach = min(spaces - p, max(1, C.rounds - state.round + 1))
    best = 0.0
    bonus = 0.0
    for k in range(1, reach + 1):
        if C.pearl_bonus[p + k - 1]:
            bonus += PEARL_BONUS
        average = (C.pearl_points[p + k - 1] - now + bonus) / k
        best = max(best, average * (1.0 if k == 1 else GREEDY_PEARL_TRUST))
    return best


def greedy_item_values(state: State, seat: int) -> dict[int, float]:
    """Value of each item code for this seat now."""
    food = greedy_seafood_values(state, seat)
    values: dict[int, float] = dict(enumerate(food))
    values[EGG] = greedy_egg_value(state, seat)
    trash = greedy_trash_value(state, seat)
    for kind in range(len(C.trash)):
        values[TRASH0 + kind] = 0.0 if state.trash[seat] >> kind & 1 else trash
    return values


def greedy_zone0_value(state: State, seat: int, values: dict[int, float]) -> float:
    """What a visit to zone 0 is worth: the 3rd Haenyeo early, else the best exchange of the free eggs."""
    free = state.eggs[seat] - state.eggs_used[seat]
    if free >= C.third_cost and not state.third[seat] and state.round <= 5:
        return 14.0
    best_food = max(values[k] for k in range(N_SEAFOOD))
    if free >= 3:
        return max(greedy_pearl_value(state, seat), 2 * best_food) - 2 * GREEDY_EGG_KEEP
    if free >= 1:
        return min(free, 2) * (best_food - GREEDY_EGG_KEEP)
    return 0.0


def occupancy(state: State) -> float:
    """Rough chance that another player's Haenyeo or creature fills a given zone."""
    others = sum(state.pawns) / state.seats * (state.seats - 1) + (C.npc_cards if state.npc else 0)
    return 1 - math.exp(-others * OCCUPANCY_RATE)


def greedy_zone_values(state: State, seat: int) -> tuple[list[float], list[float]]:
    """Per zone, (value alone, value shared) for this seat.

    "If only 1 Haenyeo is in a zone, that player harvests ALL items": alone, the whole row.
    Shared, "each chooses a slot and harvests the 1 item shown": about the mean of the best
    two slots (the first to pick takes the best, the next the second best). Zone 0 and the
    pearl zone are not shared.
    """
    values = greedy_item_values(state, seat)
    sea = rows(state)
    alone = [0.0] * 12
    shared = [0.0] * 12
    alone[0] = shared[0] = greedy_zone0_value(state, seat, values)
    for zone in range(1, PEARL_ZONE):
        slots = sorted((sum(values[i] for i in slot) for slot in sea[zone]), reverse=True)
        alone[zone] = sum(slots)
        shared[zone] = sum(slots[:2]) / 2
    alone[PEARL_ZONE] = shared[PEARL_ZONE] = greedy_pearl_value(state, seat)
    return alone, shared


def best_zones(
    count: int,
    values: tuple[list[float], list[float]],
    chance_full: list[float],
    crowd: list[float],
) -> tuple[int, ...]:
    """Best ``count`` zones: alone or shared with the expected crowd, times the chance of connection."""
    alone, shared = values
    expect = [0.0] * 12
    for z in range(12):
        lonely = math.exp(-crowd[z])
        expect[z] = lonely * alone[z] + (1 - lonely) * shared[z]
    best: tuple[float, tuple[int, ...]] = (-1.0, ())
    for combo in combinations(range(12), count):
        mask = 0
        for z in combo:
            mask |= 1 << z
        own = mask | creature_mask(mask)
        total = 0.0
        for z in combo:
            chance = 1.0
            for y in range(1, z):
                if not own >> y & 1:
                    chance *= chance_full[y]
            total += expect[z] * chance
        if total > best[0]:
            best = (total, combo)
    return best[1]


# ------------------------------------------------------------------ the expert's values

#: Weight of the other players' gains (their mean) against this seat's own: head to head, and at
#: a table of three or more (`rivalry`), where spite costs the whole table and helps one seat
#: little (issue #39: a table of experts scored about as a table of greedy bots at 0.45 a seat,
#: more at 0.3; a 2-seat expert won more often against the rollout searcher at 0.45).
RIVALRY = 0.45
TABLE_RIVALRY = 0.3
#: Expected new marks per seafood kind per round for every player (projection of the sheets).
GROWTH = 0.45
#: Expected new trash types per remaining round.
TRASH_GROWTH = 0.5
#: What one active Haenyeo is worth per round still to play (the 3rd Haenyeo's value).
PAWN_ROUND = 9.0
#: Value of keeping an unused turtle egg (1 point at the end, plus its use later).
EGG_KEEP = 1.6
#: Trust in pearls further down the track than the next one.
PEARL_TRUST = 0.7


def rivalry(seats: int) -> float:
    """The weight of the other players' mean gain at a table of ``seats`` (`RIVALRY`)."""
    return RIVALRY if seats <= 2 else TABLE_RIVALRY


class Values:
    """What each item is worth to one seat now: the points it adds to the scoring rounds to come.

    Seafood: for every scoring round still ahead, the gain on the score tile's rules with the
    sheets projected to that round (``GROWTH`` marks per kind per round for everyone), so sets
    and products are valued with the marks still to come. Trash: the step of the trash table at
    the expected final count. Turtle egg: half the 3rd Haenyeo while it is still to be gained,
    else its keep value. Pearl: the best points per pearl over the spaces it can still reach
    ("Only the score at your rightmost marked space counts").
    """

    __slots__ = ("egg", "items", "pearl", "seafood", "trash", "zone0")

    def __init__(self, state: State, seat: int) -> None:
        self.seafood = seafood_values(state, seat)
        self.trash = trash_value(state, seat)
        self.pearl = pearl_value(state, seat, self.trash, self.seafood)
        third = third_value(state, seat)
        self.egg = max(EGG_KEEP, third / C.third_cost * 0.6) if third else EGG_KEEP
        items = dict(enumerate(self.seafood))
        items[EGG] = self.egg
        for kind in range(len(C.trash)):
            items[TRASH0 + kind] = 0.0 if state.trash[seat] >> kind & 1 else self.trash
        self.items = items
        self.zone0 = zone0_value(state, seat, self, third)

    def slot(self, slot: tuple[int, ...]) -> float:
        """What a slot's items are worth together."""
        return sum(self.items[i] for i in slot)


def seafood_gains(state: State, seat: int) -> Iterator[tuple[str, int, int, float]]:
    """(rule key, scoring round, seafood, points) for one more mark of each seafood the seat can
    still mark, rule by rule of every scoring to come, on sheets projected by ``GROWTH``: what
    `seafood_values` adds up, and what a hint tells the biggest part of."""
    tile = C.tiles[state.tile]
    for round_no in C.scoring_rounds:
        if round_no < state.round:
            continue
        grow = int(GROWTH * (round_no - state.round) + 0.5)
        sheets = [[min(n + grow, cap) for n, cap in zip(food, C.tracks, strict=True)] for food in state.food]
        mine = sheets[seat]
        for rule in round_rules(tile, round_no):
            base = rule_points(rule, mine, sheets)
            for k in set(rule.seafood):
                if state.food[seat][k] >= C.tracks[k]:
                    continue
                mine[k] += 1
                yield rule.key, round_no, k, rule_points(rule, mine, sheets) - base
                mine[k] -= 1


def seafood_values(state: State, seat: int) -> list[float]:
    """What one more of each seafood is worth: the `seafood_gains` added up (nothing once a track is full)."""
    values = [0.2] * N_SEAFOOD
    for _rule, _round, k, gain in seafood_gains(state, seat):
        values[k] += gain
    for k in range(N_SEAFOOD):
        if state.food[seat][k] >= C.tracks[k]:
            values[k] = 0.0
    return values


def _trash_at(table: tuple[int, ...], count: float) -> float:
    if count >= len(table) - 1:
        return float(table[-1])
    low = int(count)
    return table[low] + (table[low + 1] - table[low]) * (count - low)


def trash_value(state: State, seat: int) -> float:
    """What one more trash type adds: the step of the trash table at the expected final count."""
    table = C.tiles[state.tile].trash
    have = state.trash[seat].bit_count()
    later = TRASH_GROWTH * (C.rounds - state.round)
    return _trash_at(table, have + 1 + later) - _trash_at(table, have + later)


def pearl_value(state: State, seat: int, trash: float, seafood: list[float]) -> float:
    """The best points per pearl over the spaces it can still reach, its bonuses valued at ``trash``
    and the two best ``seafood``, spaces further down trusted less."""
    p = state.pearls[seat]
    spaces = len(C.pearl_points)
    if p >= spaces:
        return 0.0
    now = C.pearl_points[p - 1] if p else 0
    reach = min(spaces - p, max(1, C.rounds - state.round + 1))
    best = bonus = 0.0
    two = sum(sorted(seafood)[-2:])
    for k in range(1, reach + 1):
        kind = C.pearl_bonus[p + k - 1]
        bonus += trash if kind == "trash" else two if kind == "seafood2" else 0.0
        average = (C.pearl_points[p + k - 1] - now + bonus) / k
        best = max(best, average * (1.0 if k == 1 else PEARL_TRUST ** math.sqrt(k - 1)))
    return best


def third_value(state: State, seat: int) -> float:
    """What the 3rd Haenyeo is worth: ``PAWN_ROUND`` for every round still to play (nothing once gained)."""
    if state.third[seat]:
        return 0.0
    return PAWN_ROUND * (C.rounds - state.round)


def zone0_value(state: State, seat: int, values: Values, third: float) -> float:
    """What a visit to zone 0 gains: the 3rd Haenyeo (worth ``third``), then the best exchange."""
    free = state.eggs[seat] - state.eggs_used[seat]
    gain = 0.0
    if third and free >= C.third_cost:
        gain += third - C.third_cost * EGG_KEEP
        free -= C.third_cost
    best = max(values.seafood)
    if free >= 3:
        gain += max(values.pearl, 2 * best) - (3 if values.pearl > 2 * best else 2) * EGG_KEEP
    elif free >= 1:
        gain += max(0.0, min(free, 2) * (best - EGG_KEEP))
    return max(0.0, gain)
