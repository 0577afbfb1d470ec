"""The ``expert`` seat policy: determinized Monte-Carlo search over the hidden diving cards.

What it may read. Only what its seat may see: the public part of the state
(round, First Player, this round's sea cards, every sheet — "Each player takes
1 Haenyeo sheet" and every sheet is open, see docs/rules/haenyeo.md — the
NPC's used cards) and its own selection. It never reads another seat's
``chosen`` cards before the reveal ("Place selected cards face-down in front
of you"), the NPC's coming draw ("randomly draw 3 NPC diving cards", made from
the game's seed at the reveal) or the sea decks beyond this round's cards.
`information` builds the only state the search works on: every hidden field is
blanked, and the hidden draws are re-sampled with the policy's own random numbers.

① Select (the simultaneous, hidden choice). For ``SAMPLES`` determinizations
it samples every other seat's cards and the NPC's draw from its unused cards.
Each other seat is modelled as what plays it, when the table says
(`engine.bots.seated`, issue #39): a person, a greedy or beginner bot, or a seat
nobody named, as a sensible player (the greedy card choice with fresh noise, now
and then any cards at all); a random bot by any cards; an expert bot by answers
of its own searches, level by level (`EXPERT_DEPTH`: experts who know the others
are experts too, so a table of experts no longer counts on the others to fill the
shallow zones); with other experts at the table, half the time (`OWN_MIX`) it plays
one of its own level-by-level answers, as the others model it, so experts who reason
alike do not all dive alike. Otherwise it scores each of its own card sets by resolving
the round exactly as the rulebook does: the connection ("Every zone from zone 1
down to the acting Haenyeo's zone must contain someone's Haenyeo or sea
creature"), turn order ("clockwise from the First Player", the NPC first), "If
only 1 Haenyeo is in a zone, that player harvests ALL items", otherwise each
"chooses a slot and harvests the 1 item shown". A set scores what this seat
gains minus `rivalry` (by the table's size) times what the other players gain (the mean), each item
valued by what it adds to the scoring rounds still to come (`Values`). The same
samples serve every candidate set (common random numbers); the set with the best
mean is chosen. The choice is a function of the seat's information, the game's
secret seed (`decision_key` seeds its random numbers) and what plays each seat
when told, so the toggles of one selection agree, and nobody can predict it
from the public position.

③ Actions. Harvest: the slot best for this seat, counting what the Haenyeo
still to pick in the zone would take. Zone 0, pearl bonuses: as the values say.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import OrderedDict
from itertools import combinations

from engine.base import Game
from engine.bots import seat_policies
from engine.haenyeo import actions as A
from engine.haenyeo.ai.greedy import toggle_towards
from engine.haenyeo.ai.values import (
    EGG_KEEP,
    GUESS_TRUST,
    Values,
    best_zones,
    greedy_zone_values,
    occupancy,
    rivalry,
    third_value,
)
from engine.haenyeo.components import FREE, NPC, PEARL_ZONE, C, creature_mask
from engine.haenyeo.rules import rows, turn_order
from engine.haenyeo.state import State

#: Determinizations of the hidden cards per selection decision.
SAMPLES = 48
#: Noise of the opponent model (greedy's own is 0.4) and the chance it plays any cards at all.
MODEL_NOISE = 0.7
MODEL_WILD = 0.1
#: An expert among the other seats is modelled by this many searches of its own per level
#: (`EXPERT_DEPTH`), each with this many samples; one answer is drawn per sample.
EXPERT_RUNS = 6
EXPERT_SAMPLES = 24
#: Levels of experts modelling experts (each searches against the others' answers one level
#: down); an expert seat is drawn from its answers at every level. One level (experts taken for
#: greedy-like players) scores 126-140 a seat at a table of four experts, 6 about 200-220, as greedy
#: bots do (issue #39; bench.bots_haenyeo --tables).
EXPERT_DEPTH = 6
#: At a table with other experts, the chance it plays one of its own level-by-level answers (drawn
#: as the others draw it when they model it) instead of its best answer to them. Experts who all
#: answer the same models alike choose alike: all deep (a collapse, nobody filling the shallow zones)
#: or all shallow. Playing the mixture they model each other by spreads them. Tuned on seeds
#: 5000-5023 (0: +16.7 a seat over greedy tables, 1: +44.6, 0.5: +57.7); measured on 700-739,
#: paired by seed with greedy tables: 0 -4.1 +- 23.5, 0.5 +43.8 +- 21.8 (bench.haenyeo_tune).
OWN_MIX = 0.5
#: The card choice is mixed among the nearly best sets (`mixed`): the temperature and the widest
#: gap (points of one round's relative gain) it takes.
MIX_TEMP = 1.5
MIX_SPAN = 6.0
#: Memo of selection decisions by information set (the toggles of one selection reuse it).
_MEMO: OrderedDict[str, frozenset[int]] = OrderedDict()
_MEMO_SIZE = 512


# ------------------------------------------------------------------ information


def information(state: State, seat: int, rng: random.Random) -> State:
    """A state holding only what ``seat`` may know, hidden parts re-sampled with ``rng``.

    Other seats' secret selections are blanked (they are the search's samples); the game's
    seed (which fixes the NPC's draw) is replaced; the sea decks beyond this round are shuffled.
    """
    info = state.copy()
    if state.phase == "select":
        info.chosen = tuple(state.chosen[s] if s == seat else 0 for s in range(state.seats))
        info.npc_cards = 0
    info.seed = rng.randrange(1 << 30)
    r = min(state.round, C.rounds)
    shallow, deep = list(state.shallow[r:]), list(state.deep[r:])
    rng.shuffle(shallow)
    rng.shuffle(deep)
    info.shallow = (*state.shallow[:r], *shallow)
    info.deep = (*state.deep[:r], *deep)
    return info


def information_key(state: State, seat: int) -> str:
    """A digest of everything ``seat`` may see now, apart from its own card toggles."""
    r = min(state.round, C.rounds) - 1
    public = (
        seat,
        state.seats,
        state.npc,
        state.tile,
        state.round,
        state.first,
        state.passes,
        state.phase,
        state.shallow[r],
        state.deep[r],
        state.pawns,
        state.third,
        state.food,
        state.eggs,
        state.eggs_used,
        state.pearls,
        state.trash,
        state.scores,
        state.npc_used,
    )
    return hashlib.sha256(repr(public).encode()).hexdigest()


# ------------------------------------------------------------------ ① select


_REACH = []
for _mask in range(1 << 12):
    _r = 0
    while _r < PEARL_ZONE and _mask >> (_r + 1) & 1:
        _r += 1
    _REACH.append(_r)


class _Model:
    """The card choice of one other seat, greedy-like: expected zone values and connection chances."""

    def __init__(
        self, state: State, seat: int, combos: list[tuple[int, ...]], chance_full: list[float], crowd
    ):
        alone, shared = greedy_zone_values(state, seat)
        self.expect = [
            math.exp(-crowd[z]) * alone[z] + (1 - math.exp(-crowd[z])) * shared[z] for z in range(12)
        ]
        self.combos = combos
        self.masks = []
        self.terms = []
        for combo in combos:
            mask = 0
            for z in combo:
                mask |= 1 << z
            own = mask | creature_mask(mask)
            terms = []
            for z in combo:
                chance = 1.0
                for y in range(1, z):
                    if not own >> y & 1:
                        chance *= chance_full[y]
                terms.append((z, chance))
            self.masks.append(mask)
            self.terms.append(terms)

    def sample(self, rng: random.Random) -> int:
        if rng.random() < MODEL_WILD:
            return rng.choice(self.masks)
        noisy = [v * (1 + MODEL_NOISE * (rng.random() - 0.5)) for v in self.expect]
        best, pick = -1.0, 0
        for mask, terms in zip(self.masks, self.terms, strict=True):
            total = 0.0
            for z, chance in terms:
                total += noisy[z] * chance
            if total > best:
                best, pick = total, mask
        return pick


def _models(state: State, seat: int) -> dict[int, _Model]:
    """Every other seat's model, built like the greedy choice (public information only)."""
    others = sum(state.pawns) / state.seats * (state.seats - 1) + (C.npc_cards if state.npc else 0)
    q = occupancy(state)
    flat = [q] * 12
    crowd0 = [others / 12] * 12
    picks: dict[int, tuple[int, ...]] = {}
    for s in range(state.seats):
        picks[s] = best_zones(state.pawns[s], greedy_zone_values(state, s), flat, crowd0)
    models = {}
    for other in range(state.seats):
        if other == seat:
            continue
        divers = [0.0] * 12
        cover = 0
        for s, zones in picks.items():
            if s == other:
                continue
            mask = 0
            for z in zones:
                mask |= 1 << z
                divers[z] += 1
            cover |= mask | creature_mask(mask)
        chance = [GUESS_TRUST if cover >> y & 1 else q * 0.5 for y in range(12)]
        crowd = [GUESS_TRUST * divers[z] + (C.npc_cards / 12 if state.npc else 0) for z in range(12)]
        combos = list(combinations(range(12), state.pawns[other]))
        models[other] = _Model(state, other, combos, chance, crowd)
    return models


def _allocate(order: list[int], slot_values: dict[int, list[float]], slots: int) -> dict[int, float]:
    """Who gains what in one zone: ALL items alone, else one slot each in turn (NPC: leftmost)."""
    if len(order) == 1:
        actor = order[0]
        return {} if actor == NPC else {actor: sum(slot_values[actor])}
    free = list(range(slots))
    gains: dict[int, float] = {}
    for actor in order:
        if not free:
            break
        if actor == NPC:
            free.pop(0)
            continue
        values = slot_values[actor]
        pick = max(free, key=lambda i: values[i])
        free.remove(pick)
        gains[actor] = values[pick]
    return gains


def decision_key(state: State, seat: int) -> str:
    """`information_key` salted with the game's secret seed.

    The toggles of one selection still agree and a replay chooses the same, but the samples
    are private: someone running this code on the public position cannot compute them, so
    cannot predict the expert's face-down cards (issue #39). The seed only seeds the
    sampling; what the samples are drawn from stays this seat's information.
    """
    return hashlib.sha256(f"{information_key(state, seat)}:{state.seed}".encode()).hexdigest()


def seat_levels(state: State) -> tuple[str | None, ...]:
    """What plays each seat, as far as the expert is told (`engine.bots.seat_policies`): a bot
    seat's policy name, None for a person or when nobody said (both modelled as greedy-like)."""
    told = seat_policies()
    if told is None or len(told) != state.seats:
        return (None,) * state.seats
    return tuple(told)


def choose_cards(state: State, seat: int) -> frozenset[int]:
    """The card set with the best mean relative gain over the sampled hidden choices.

    The other seats are modelled as what plays them (`seat_levels`): an expert by a few
    searches of its own (`EXPERT_RUNS`), anyone else (a person, greedy, the beginner) by
    the greedy-like `_Model`, a random seat by any cards at all."""
    levels = seat_levels(state)
    key = decision_key(state, seat)
    if any(level is not None for level in levels):
        key = hashlib.sha256(f"{key}:{levels}".encode()).hexdigest()
    found = _MEMO.get(key)
    if found is not None:
        _MEMO.move_to_end(key)
        return found
    rng = random.Random(key)
    info = information(state, seat, rng)
    board = _Board(info)
    models, own = _table_models(info, board, seat, levels, rng)
    mine, totals = board.totals(seat, models, rng, SAMPLES)
    if own and rng.random() < OWN_MIX:  # other experts sit here (`OWN_MIX`)
        picked = rng.choice(own)
        choice = frozenset(z for z in range(12) if picked >> z & 1)
    else:
        choice = frozenset(mine[mixed(totals, SAMPLES, rng)])
    _MEMO[key] = choice
    if len(_MEMO) > _MEMO_SIZE:
        _MEMO.popitem(last=False)
    return choice


def mixed(totals: list[float], samples: int, rng: random.Random) -> int:
    """Which card set to play: the best by mean relative gain, or now and then one nearly as good.

    A set ``gap`` points (a round's relative gain) below the best is chosen with weight
    ``exp(-gap / MIX_TEMP)``, sets more than ``MIX_SPAN`` below never. ``rng`` is seeded from the
    table's secret seed, so someone running this code on the public position cannot tell which
    of the good sets it plays (issue #39): being predicted is worth more to a searching opponent
    than the point or two a close second costs."""
    if MIX_TEMP <= 0:
        return max(range(len(totals)), key=lambda i: (totals[i], -i))
    near = mix_weights(totals, samples)
    pick = rng.random() * sum(w for _, w in near)
    for i, w in near:
        pick -= w
        if pick < 0:
            return i
    return near[-1][0]


def mix_weights(totals: list[float], samples: int) -> list[tuple[int, float]]:
    """The card sets `mixed` chooses among (by index into ``totals``) and their weights, unscaled:
    ``exp(-gap / MIX_TEMP)`` for a set ``gap`` below the best, none more than ``MIX_SPAN`` below (the
    best alone when `MIX_TEMP` is 0)."""
    if MIX_TEMP <= 0:
        return [(max(range(len(totals)), key=lambda i: (totals[i], -i)), 1.0)]
    best = max(totals) / samples
    near = [(i, math.exp((t / samples - best) / MIX_TEMP)) for i, t in enumerate(totals)]
    return [(i, w) for i, w in near if w >= math.exp(-MIX_SPAN / MIX_TEMP)]


def card_chances(state: State, seat: int) -> dict[int, float]:
    """How likely the expert, told nothing of the table, is to choose each card set (as a mask of
    zones) at this selection: the chances `mixed` draws by, from the same samples as
    `choose_cards`. `engine.reading` weighs a person's revealed cards by them (is this player an
    expert?); they depend on the seat's information and the table's secret seed only."""
    rng = random.Random(decision_key(state, seat))
    info = information(state, seat, rng)
    board = _Board(info)
    models, _own = _table_models(info, board, seat, (None,) * state.seats, rng)
    mine, totals = board.totals(seat, models, rng, SAMPLES)
    near = mix_weights(totals, SAMPLES)
    whole = sum(w for _, w in near)
    return {_mask(mine[i]): w / whole for i, w in near}


def _table_models(
    info: State, board: _Board, seat: int, levels: tuple[str | None, ...], rng: random.Random
) -> tuple[dict[int, _Model | _Picks], list[int]]:
    """A model of every other seat's card choice, by what plays it (see `choose_cards`).

    Experts are modelled level by level: level 1 searches against greedy-like others; level
    ``k`` against the others' level ``k - 1`` answers (an expert who knows experts sit there);
    an expert seat is then drawn from its answers of every level (`EXPERT_DEPTH` of them).
    Also returns this seat's own answers of every level when other experts sit there (else
    none), so it can play as they model it (`OWN_MIX`)."""
    greedy_like = {s: _models(info, s) for s in range(info.seats) if s == seat or levels[s] == "expert"}
    models: dict[int, _Model | _Picks] = dict(greedy_like[seat])
    for other, level in enumerate(levels):
        if other != seat and level == "random":
            models[other] = _Picks(models[other].masks)
    experts = [s for s in range(info.seats) if levels[s] == "expert"]
    if not any(s != seat for s in experts):
        return models, []
    answers: dict[int, list[int]] = {s: [] for s in experts}
    latest: dict[int, list[int]] = {}
    for _ in range(EXPERT_DEPTH):
        found: dict[int, list[int]] = {}
        for s in experts:
            inner: dict[int, _Model | _Picks] = {
                o: (_Picks(latest[o]) if o in latest else model) for o, model in greedy_like[s].items()
            }
            for o in inner:
                if o != s and levels[o] == "random":
                    inner[o] = _Picks(greedy_like[s][o].masks)
            found[s] = [
                _mask(board.search(s, inner, random.Random(rng.random()), EXPERT_SAMPLES))
                for _ in range(EXPERT_RUNS)
            ]
            answers[s].extend(found[s])
        latest = found
    for s in experts:
        if s != seat:
            models[s] = _Picks(answers[s])
    return models, answers.get(seat, [])


def _mask(zones: tuple[int, ...]) -> int:
    mask = 0
    for z in zones:
        mask |= 1 << z
    return mask


class _Picks:
    """A seat modelled by a few card sets it may choose (an expert's own searches, or any at all)."""

    def __init__(self, masks: list[int]) -> None:
        self.masks = masks

    def sample(self, rng: random.Random) -> int:
        return rng.choice(self.masks)


class _Board:
    """What one selection's searches share: the sea, the turn order and every seat's item values."""

    def __init__(self, info: State) -> None:
        self.info = info
        self.sea = rows(info)
        self.order = turn_order(info)
        players = range(info.seats)
        self.values = {s: Values(info, s) for s in players}
        self.slot_values = {
            s: [[self.values[s].slot(slot) for slot in self.sea[z]] for z in range(12)] for s in players
        }
        self.unused = [z for z in range(12) if not info.npc_used >> z & 1]

    def search(self, seat: int, models: dict, rng: random.Random, samples: int) -> tuple[int, ...]:
        """``seat``'s card set with the best mean relative gain over ``samples`` draws of the others'
        cards from ``models`` and the NPC's draw."""
        mine, totals = self.totals(seat, models, rng, samples)
        best = max(range(len(mine)), key=lambda i: (totals[i], -i))
        return mine[best]

    def totals(
        self, seat: int, models: dict, rng: random.Random, samples: int
    ) -> tuple[list[tuple[int, ...]], list[float]]:
        """Every card set ``seat`` may choose and its summed relative gain over ``samples`` draws
        (see `search`)."""
        info, sea, order, values, slot_values = self.info, self.sea, self.order, self.values, self.slot_values
        players = range(info.seats)
        opponents = [s for s in players if s != seat]
        weight = rivalry(info.seats) / len(opponents)
        mine = list(combinations(range(12), info.pawns[seat]))
        my_masks = []
        for combo in mine:
            mask = _mask(combo)
            my_masks.append((combo, mask | creature_mask(mask)))
        totals = [0.0] * len(mine)
        for _ in range(samples):
            masks = {s: models[s].sample(rng) for s in opponents}
            npc = 0
            if info.npc:
                for z in rng.sample(self.unused, C.npc_cards):
                    npc |= 1 << z
            occupied = npc | creature_mask(npc)
            for mask in masks.values():
                occupied |= mask | creature_mask(mask)
            base = [0.0] * 12  # relative gain of each zone without this seat's Haenyeo
            diff = [0.0] * 12  # what this seat's Haenyeo there changes
            for z in range(12):
                others_here = [s for s in order if s != seat and masks[s] >> z & 1]
                if z == 0 or z == PEARL_ZONE:
                    own = values[seat].zone0 if z == 0 else values[seat].pearl
                    if z == 0:
                        others = sum(values[s].zone0 for s in others_here)
                    else:
                        others = sum(values[s].pearl for s in others_here)
                    base[z] = -weight * others
                    diff[z] = own
                    continue
                npc_here = [NPC] if npc >> z & 1 else []
                without = npc_here + others_here
                slots = len(sea[z])
                zone_values = {s: slot_values[s][z] for s in players}
                if without:
                    gains = _allocate(without, zone_values, slots)
                    base[z] = -weight * sum(gains.values())
                with_me = npc_here + [s for s in order if s == seat or masks[s] >> z & 1]
                gains = _allocate(with_me, zone_values, slots)
                mine_gain = gains.pop(seat, 0.0)
                diff[z] = mine_gain - weight * sum(gains.values()) - base[z]
            prefix = [0.0] * 12
            running = 0.0
            for z in range(12):
                running += base[z]
                prefix[z] = running
            for index, (combo, cover) in enumerate(my_masks):
                reach = _REACH[occupied | cover]
                total = prefix[reach]
                for z in combo:
                    if z <= reach:
                        total += diff[z]
                totals[index] += total
        return mine, totals


# ------------------------------------------------------------------ ③ actions


def _harvest(state: State, seat: int, options: list[A.Action]) -> A.Action:
    """The slot best for this seat, counting what the Haenyeo still to pick would take."""
    zone = state.zone
    sea = rows(state)[zone]
    later = [a for a in state.actors[state.actors.index(seat) + 1 :]]
    values = {s: Values(state, s) for s in range(state.seats) if s == seat or s in later}
    opponents = state.seats - 1
    weight = rivalry(state.seats) / opponents if opponents else 0.0
    best: tuple[float, int, A.Action] | None = None
    for action in options:
        free = [i for i, owner in enumerate(state.taken[zone]) if owner == FREE and i != action.slot]
        score = values[seat].slot(sea[action.slot])
        for actor in later:
            if not free:
                break
            if actor == NPC:
                free.pop(0)
                continue
            pick = max(free, key=lambda i, a=actor: values[a].slot(sea[i]))
            free.remove(pick)
            score -= weight * values[actor].slot(sea[pick])
        key = (score, -action.slot, action)
        if best is None or key[:2] > best[:2]:
            best = key
    assert best is not None
    return best[2]


def _zone0(state: State, seat: int, options: list[A.Action], values: Values) -> A.Action:
    """Gain the 3rd Haenyeo while it pays; one exchange when it beats keeping the eggs."""
    if A.GAIN in options and third_value(state, seat) > C.third_cost * values.egg * 0.5:
        return A.GAIN
    best: tuple[float, A.Action] = (0.0, A.DONE)
    for action in options:
        if isinstance(action, A.Exchange):
            gain = sum(values.seafood[k] for k in action.seafood) if action.seafood else values.pearl
            net = gain - action.eggs * EGG_KEEP
            if net > best[0]:
                best = (net, action)
    return best[1]


def expert_policy(game: Game, state: State, seat: int, rng: random.Random) -> A.Action:
    """Determinized Monte-Carlo card choice; harvests and egg use by the values of the rounds to come."""
    options = game.legal_actions(state, seat)
    if len(options) == 1:
        return options[0]
    if state.phase == "select":
        return toggle_towards(state, seat, choose_cards(state, seat))
    first = options[0]
    if isinstance(first, A.Harvest):
        return _harvest(state, seat, options)
    values = Values(state, seat)
    if isinstance(first, A.TakeTrash):
        return first
    if isinstance(first, A.TakeSeafood):
        return max(options, key=lambda a: sum(values.seafood[k] for k in a.seafood))
    return _zone0(state, seat, options, values)
