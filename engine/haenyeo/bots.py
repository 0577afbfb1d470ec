"""Seat policies for Haenyeo: ``random``, ``greedy``, ``expert`` (`engine.haenyeo.expert`); see `engine.bots`.

``greedy`` values every item by what it adds to this player's scores in the
scoring rounds still to come (the next one counts fully, later ones less),
chooses diving cards by that value weighed by the chance each zone is
connected and the chance of being alone there (alone it harvests ALL items,
shared only one slot), harvests the best slot, gains the 3rd Haenyeo early and
makes an egg exchange only when it beats keeping the eggs. A pearl is valued by
the points per pearl of the scoring spaces it can still reach (the first
spaces of the track score nothing).
"""

from __future__ import annotations

import math
import random
from itertools import combinations

from engine.base import Game
from engine.haenyeo import actions as A
from engine.haenyeo.components import EGG, FREE, N_SEAFOOD, PEARL_ZONE, TRASH0, C, creature_mask
from engine.haenyeo.rules import rows
from engine.haenyeo.scoring import round_rules, rule_points
from engine.haenyeo.state import State


def random_policy(game: Game, state: State, seat: int, rng: random.Random) -> A.Action:
    """Uniform among legal actions, except that it never puts a selected card back (play-outs end)."""
    options = game.legal_actions(state, seat)
    if state.phase == "select":
        if A.CONFIRM in options:
            return A.CONFIRM
        mask = state.chosen[seat]
        options = [a for a in options if not mask >> a.zone & 1]
    return rng.choice(options)


# ------------------------------------------------------------------ greedy

#: Weight of the next scoring round and of later ones.
NEXT_WEIGHT = 1.0
LATER_WEIGHT = 0.6
EGG_KEEP = 1.5
OCCUPANCY_RATE = 0.25
NOISE = 0.4
GUESS_TRUST = 0.8
PEARL_BONUS = 8.0
PEARL_TRUST = 0.6


def seafood_values(state: State, seat: int) -> list[float]:
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


def _trash_value(state: State, seat: int) -> float:
    table = C.tiles[state.tile].trash
    have = state.trash[seat].bit_count()
    if have + 2 >= len(table):
        return table[-1] - table[have]
    return (table[have + 2] - table[have]) / 2


def _egg_value(state: State, seat: int) -> float:
    if not state.third[seat] and state.round <= 5:
        return 6.0
    return 2.5


def _pearl_value(state: State, seat: int) -> float:
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
        best = max(best, average * (1.0 if k == 1 else PEARL_TRUST))
    return best


def item_values(state: State, seat: int) -> dict[int, float]:
    """Value of each item code for this seat now."""
    food = seafood_values(state, seat)
    values: dict[int, float] = dict(enumerate(food))
    values[EGG] = _egg_value(state, seat)
    trash = _trash_value(state, seat)
    for kind in range(len(C.trash)):
        values[TRASH0 + kind] = 0.0 if state.trash[seat] >> kind & 1 else trash
    return values


def _zone0_value(state: State, seat: int, values: dict[int, float]) -> float:
    free = state.eggs[seat] - state.eggs_used[seat]
    if free >= C.third_cost and not state.third[seat] and state.round <= 5:
        return 14.0
    best_food = max(values[k] for k in range(N_SEAFOOD))
    if free >= 3:
        return max(_pearl_value(state, seat), 2 * best_food) - 2 * EGG_KEEP
    if free >= 1:
        return min(free, 2) * (best_food - EGG_KEEP)
    return 0.0


def _occupancy(state: State) -> float:
    """Rough chance that another player's Haenyeo or creature fills a given zone."""
    others = sum(state.pawns) / state.seats * (state.seats - 1) + (C.npc_cards if state.npc else 0)
    return 1 - math.exp(-others * OCCUPANCY_RATE)


def _zone_values(state: State, seat: int) -> tuple[list[float], list[float]]:
    """Per zone, (value alone, value shared) for this seat.

    "If only 1 Haenyeo is in a zone, that player harvests ALL items": alone, the whole row.
    Shared, "each chooses a slot and harvests the 1 item shown": about the mean of the best
    two slots (the first to pick takes the best, the next the second best). Zone 0 and the
    pearl zone are not shared.
    """
    values = item_values(state, seat)
    sea = rows(state)
    alone = [0.0] * 12
    shared = [0.0] * 12
    alone[0] = shared[0] = _zone0_value(state, seat, values)
    for zone in range(1, PEARL_ZONE):
        slots = sorted((sum(values[i] for i in slot) for slot in sea[zone]), reverse=True)
        alone[zone] = sum(slots)
        shared[zone] = sum(slots[:2]) / 2
    alone[PEARL_ZONE] = shared[PEARL_ZONE] = _pearl_value(state, seat)
    return alone, shared


def _best(
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


def choose_cards(state: State, seat: int, rng: random.Random) -> frozenset[int]:
    """The diving cards with the highest expected value this round.

    First a naive guess of every other seat's cards (uniform crowding and
    connection), then this seat's best answer to those guesses; a little noise
    from ``rng`` keeps identical bots from all diving to the same zones.
    """
    others = sum(state.pawns) / state.seats * (state.seats - 1) + (C.npc_cards if state.npc else 0)
    q = _occupancy(state)
    flat = [q] * 12
    crowd0 = [others / 12] * 12
    guess_divers = [0.0] * 12
    guess_cover = 0
    for other in range(state.seats):
        if other == seat:
            continue
        picks = _best(state.pawns[other], _zone_values(state, other), flat, crowd0)
        mask = 0
        for z in picks:
            mask |= 1 << z
            guess_divers[z] += 1
        guess_cover |= mask | creature_mask(mask)
    chance = [GUESS_TRUST if guess_cover >> y & 1 else q * 0.5 for y in range(12)]
    crowd = [GUESS_TRUST * guess_divers[z] + (C.npc_cards / 12 if state.npc else 0) for z in range(12)]
    alone, shared = _zone_values(state, seat)
    noise = [1 + NOISE * (rng.random() - 0.5) for _ in range(12)]
    noisy = (
        [v * n for v, n in zip(alone, noise, strict=True)],
        [v * n for v, n in zip(shared, noise, strict=True)],
    )
    return frozenset(_best(state.pawns[seat], noisy, chance, crowd))


def toggle_towards(state: State, seat: int, want: set[int]) -> A.Action:
    """The next toggle that turns a seat's chosen diving cards into ``want``; confirm once they are."""
    mask = state.chosen[seat]
    have = {z for z in range(12) if mask >> z & 1}
    extra = sorted(have - want)
    if extra:
        return A.TOGGLES[extra[0]]
    missing = sorted(want - have)
    if missing:
        return A.TOGGLES[missing[0]]
    return A.CONFIRM


def greedy_policy(game: Game, state: State, seat: int, rng: random.Random) -> A.Action:
    """Best immediate gain, with a look at the scoring rounds ahead."""
    options = game.legal_actions(state, seat)
    if len(options) == 1:
        return options[0]
    if state.phase == "select":
        # Noise drawn from the game's seed keeps the wanted cards stable across this seat's toggles.
        want = choose_cards(state, seat, random.Random(f"{state.seed}:{state.round}:{seat}:greedy"))
        return toggle_towards(state, seat, want)
    values = item_values(state, seat)
    first = options[0]
    if isinstance(first, A.Harvest):
        row = rows(state)[state.zone]
        taken = state.taken[state.zone]
        scored = [(sum(values[i] for i in row[a.slot]), -a.slot, a) for a in options if taken[a.slot] == FREE]
        return max(scored, key=lambda entry: (entry[0], entry[1]))[2]
    if isinstance(first, A.TakeTrash):
        return first
    if isinstance(first, A.TakeSeafood):
        return max(options, key=lambda a: sum(values[k] for k in a.seafood))
    # Zone 0: the 3rd Haenyeo first (while it has rounds to pay off), then the best exchange.
    if A.GAIN in options and state.round <= 6:
        return A.GAIN
    best: tuple[float, A.Action] = (0.0, A.DONE)
    for action in options:
        if isinstance(action, A.Exchange):
            gain = sum(values[k] for k in action.seafood) if action.seafood else _pearl_value(state, seat)
            net = gain - action.eggs * EGG_KEEP
            if net > best[0]:
                best = (net, action)
    return best[1]


def expert_policy(game: Game, state: State, seat: int, rng: random.Random) -> A.Action:
    """Determinized Monte-Carlo search (`engine.haenyeo.expert`, which builds on the helpers above)."""
    from engine.haenyeo.expert import expert_policy as expert

    return expert(game, state, seat, rng)


def explain(game: Game, state: State, seat: int, action: A.Action):
    """Why ``action`` is good for ``seat`` now, in one line (a hint), or None: `engine.haenyeo.hints`."""
    from engine.haenyeo.hints import explain as why

    return why(game, state, seat, action)


POLICIES = {"random": random_policy, "greedy": greedy_policy, "expert": expert_policy}
