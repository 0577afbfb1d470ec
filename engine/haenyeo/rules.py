"""The rules of play (rulebook III): ① select, ② deploy, ③ actions, ④ next round.

Everything here works on a fresh `State.copy()` owned by the caller (``apply``);
nested values are tuples and are replaced, never changed in place.

Phase ③ runs as a small machine: zones are resolved from 0 to 11 and the
engine does every step that needs no choice by itself, stopping only where a
player has more than one option (``state.pending``).
"""

from __future__ import annotations

import random
from functools import cache, lru_cache

import i18n
from engine.base import _SEARCHING, Event, IllegalAction, Said
from engine.haenyeo import actions as A
from engine.haenyeo.components import (
    ALL_TRASH,
    EGG,
    FREE,
    N_SEAFOOD,
    NPC,
    PEARL_ZONE,
    TRASH0,
    C,
    board_rows,
    both,
    commas,
    creature_mask,
    item_text,
    seafood_msg,
    slot_msg,
)
from engine.haenyeo.scoring import score_round
from engine.haenyeo.state import State

# Decisions a seat can owe during ③ (first element of ``state.pending``).
PEND_ZONE0 = 1
PEND_HARVEST = 2
PEND_TRASH = 3
PEND_SEAFOOD = 4
# Pearl-track bonus kinds queued in ``state.bonus``.
BONUS_TRASH = 1
BONUS_SEAFOOD = 2
_BONUS_CODES = {"trash": BONUS_TRASH, "seafood2": BONUS_SEAFOOD}
PEARL_BONUS = tuple(_BONUS_CODES.get(b) if b else 0 for b in C.pearl_bonus)
PEARL_SPACES = len(C.pearl_points)
THIRD_COST = C.third_cost
TRACKS = C.tracks
ROUNDS = C.rounds


def who(seat: int, *, opening: bool = True) -> dict:
    """A seat as a message argument: the reader names it (a player's name, "Seat 3"); the NPC is a word.

    ``opening=False`` where the name falls mid-sentence ("Zone 6 is disconnected: the NPC and
    Bob cannot act."): "the NPC", not "The NPC".
    """
    if seat == NPC:
        return i18n.term("The NPC") if opening else i18n.term("the NPC")
    return i18n.seat(seat)


def name(seat: int) -> str:
    """How English logs name a seat ("Seat 3", "The NPC")."""
    return "The NPC" if seat == NPC else i18n.english(i18n.say(i18n.SEAT_NAME, number=seat + 1))


def _put(values: tuple, index: int, value) -> tuple:
    return (*values[:index], value, *values[index + 1 :])


def _made() -> type:
    """What `event` makes now, for events copied from fields made once: a plain dict while bots
    search (`engine.base.without_text`), else a `Said` (its English said when read). Events are
    read, never changed, so the copies may share their messages."""
    return dict if _SEARCHING.get() else Said


def _fields(kind: str, message: i18n.Msg, **fields) -> dict:
    """An event's fields in `engine.base.event`'s order: the rules list these (the busiest made
    once, shared), and `apply` makes each event from them with `_made`."""
    return {"type": kind, "say": message, **fields}


_new_state = State.__new__
#: A zone's slot row: the items each slot shows.
Row = tuple[tuple[int, ...], ...]


def zones_msg(mask: int) -> i18n.Msg:
    """'zones 3 and 7' for a zone mask, as a message."""
    zones = [z for z in range(12) if mask >> z & 1]
    if len(zones) == 1:
        return i18n.say("zone {zone}", zone=zones[0])
    return i18n.say("zones {zones} and {last}", zones=", ".join(str(z) for z in zones[:-1]), last=zones[-1])


def zones_text(mask: int) -> str:
    """'zones 3 and 7' for a zone mask (English)."""
    return i18n.english(zones_msg(mask))


#: Seats clockwise from each First Player, per seat count: ``_ORDERS[seats][first]``.
_ORDERS = tuple(tuple(tuple((first + i) % n for i in range(n)) for first in range(n)) for n in range(8))


def turn_order(state: State) -> tuple[int, ...]:
    """Seats clockwise from the First Player."""
    return _ORDERS[state.seats][state.first]


def rows(state: State) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """This round's slot rows, zone 0..11 (zones 0 and 11 have none)."""
    round_no = state.round
    r = (round_no if round_no < ROUNDS else ROUNDS) - 1  # min(round, rounds) - 1
    return board_rows(state.shallow[r], state.deep[r])


def fresh_taken(state: State) -> tuple[tuple[int, ...], ...]:
    """Every slot of this round's sea cards free (no net markers)."""
    r = min(state.round, C.rounds) - 1
    return _free_slots(state.shallow[r], state.deep[r])


@cache
def _free_slots(shallow: int, deep: int) -> tuple[tuple[int, ...], ...]:
    """`fresh_taken` for these sea cards, made once per pair of cards."""
    return tuple((FREE,) * len(row) for row in board_rows(shallow, deep))


# ----------------------------------------------------------------- ① select


def select_legal(state: State, seat: int) -> tuple[A.Action, ...]:
    """Toggle cards up to the number of active Haenyeo; confirm at exactly that many."""
    mask = state.chosen[seat]
    count = mask.bit_count()
    need = state.pawns[seat]
    if count < need:
        out = list(A.TOGGLES)
    else:
        out = [A.TOGGLES[z] for z in range(12) if mask >> z & 1]
        if not state.confirmed[seat]:
            out.append(A.CONFIRM)
    return tuple(out)


@cache
def _toggle_fields(seat: int, zone: int, put_back: bool) -> dict:
    """A toggle's private event, made once per seat, zone and way."""
    said = (
        i18n.say("You put back diving card {zone}.", zone=zone)
        if put_back
        else i18n.say("You selected diving card {zone}.", zone=zone)
    )
    return _fields("toggle", said, seat=seat, private=True, zone=zone)


def toggled(state: State, seat: int, zone: int) -> tuple[State, list[Event]]:
    """`apply_select`'s toggle for a seat that has not confirmed: only ``chosen`` changes."""
    data = state.__dict__.copy()
    data.pop("_legal", None)
    chosen = state.chosen
    mask = chosen[seat]
    bit = 1 << zone
    data["chosen"] = (*chosen[:seat], mask ^ bit, *chosen[seat + 1 :])
    new = _new_state(State)
    new.__dict__ = data
    return new, [_made()(_toggle_fields(seat, zone, bool(mask & bit)))]


def confirmed(state: State, seat: int) -> tuple[State, list[Event]]:
    """`apply_select`'s confirm for a seat that has not confirmed while another seat is still
    choosing (no reveal yet): only ``confirmed`` changes."""
    data = state.__dict__.copy()
    data.pop("_legal", None)
    marks = state.confirmed
    data["confirmed"] = (*marks[:seat], 1, *marks[seat + 1 :])
    new = _new_state(State)
    new.__dict__ = data
    made = _made()
    public, private = _confirm_fields(seat, state.chosen[seat])
    return new, [made(public), made(private)]


@cache
def _confirm_fields(seat: int, mask: int) -> tuple[dict, dict]:
    """A confirmation's public and private events, made once per seat and cards."""
    return (
        _fields("confirm", i18n.say("{name} has chosen their diving cards.", name=who(seat)), actor=seat),
        _fields(
            "my_cards",
            i18n.say("You will dive to {zones}.", zones=zones_msg(mask)),
            seat=seat,
            private=True,
        ),
    )


def apply_select(state: State, seat: int, action: A.Action, events: list[Event]) -> None:
    """A toggle (which un-confirms) or the confirm; the last confirm reveals everyone's cards."""
    if isinstance(action, A.ToggleCard):
        bit = 1 << action.zone
        was_on = state.chosen[seat] & bit
        state.chosen = _put(state.chosen, seat, state.chosen[seat] ^ bit)
        if state.confirmed[seat]:
            state.confirmed = _put(state.confirmed, seat, 0)
            events.append(
                _fields(
                    "unconfirm",
                    i18n.say("{name} is choosing their diving cards again.", name=who(seat)),
                    actor=seat,
                )
            )
        said = (
            i18n.say("You put back diving card {zone}.", zone=action.zone)
            if was_on
            else i18n.say("You selected diving card {zone}.", zone=action.zone)
        )
        events.append(_fields("toggle", said, seat=seat, private=True, zone=action.zone))
        return
    state.confirmed = _put(state.confirmed, seat, 1)
    events.extend(_confirm_fields(seat, state.chosen[seat]))
    if all(state.confirmed):
        deploy(state, events)


# ----------------------------------------------------------------- ② deploy


def npc_draw(state: State) -> int:
    """The NPC's diving cards this round: random from its unused cards (2-player rules)."""
    unused = [z for z in range(12) if not state.npc_used >> z & 1]
    rng = random.Random(f"{state.seed}:{state.round}:npc")
    mask = 0
    for zone in rng.sample(unused, C.npc_cards):
        mask |= 1 << zone
    return mask


def connection(divers: int, creatures: int) -> tuple[int, int]:
    """(occupied zone mask, deepest connected zone): zones 1..reach all hold a Haenyeo or creature."""
    occupied = (divers | creatures) & ~1
    reach = 0
    while reach < PEARL_ZONE and occupied >> (reach + 1) & 1:
        reach += 1
    return occupied, reach


@cache
def _reveal_fields(seat: int, mask: int) -> dict:
    """A seat's (or the NPC's) reveal event, made once per seat and cards."""
    said = i18n.say("{name} dives to {zones}.", name=who(seat), zones=zones_msg(mask))
    return _fields("reveal", said, actor=seat, zones=mask)


@cache
def _connection_fields(reach: int) -> dict:
    """The connection event for the deepest connected zone, made once per zone."""
    if reach < PEARL_ZONE:
        gap = reach + 1
        said = (
            i18n.say("Zone {zone} is empty: it is disconnected this round.", zone=gap)
            if gap == PEARL_ZONE
            else i18n.say(
                "Zone {zone} is empty: zones {zone} to {last} are disconnected this round.",
                zone=gap,
                last=PEARL_ZONE,
            )
        )
    else:
        said = i18n.say("Every zone is connected this round.")
    return _fields("connection", said, reach=reach)


def deploy(state: State, events: list[Event]) -> None:
    """Reveal together, place Haenyeo and creatures (one zone shallower), then start ③ at zone 0."""
    divers = 0
    creatures = 0
    chosen = state.chosen
    for seat in turn_order(state):
        mask = chosen[seat]
        divers |= mask
        creatures |= creature_mask(mask)
        events.append(_reveal_fields(seat, mask))
    if state.npc:
        mask = npc_draw(state)
        state.npc_cards = mask
        state.npc_used |= mask
        divers |= mask
        creatures |= creature_mask(mask)
        events.append(_reveal_fields(NPC, mask))
    state.occupied, state.reach = connection(divers, creatures)
    events.append(_connection_fields(state.reach))
    state.phase = "actions"
    enter_zone(state, 0, events)
    advance(state, events)


# ----------------------------------------------------------------- ③ actions


def zone_actors(state: State, zone: int) -> tuple[int, ...]:
    """Who has a Haenyeo in ``zone``: the NPC first (zones 1-10), then seats clockwise from First Player."""
    bit = 1 << zone
    chosen = state.chosen
    order = tuple([seat for seat in _ORDERS[state.seats][state.first] if chosen[seat] & bit])
    if state.npc and state.npc_cards & bit and 1 <= zone <= 10:
        order = (NPC, *order)
    return order


def enter_zone(state: State, zone: int, events: list[Event]) -> None:
    """Move the action cursor to ``zone``; Haenyeo in a disconnected zone cannot act."""
    state.zone = zone
    state.turn = 0
    state.visit = 0
    actors = zone_actors(state, zone)
    if actors and zone > state.reach and zone > 0:
        events.append(_disconnected_fields(zone, actors))
        actors = ()
    state.actors = actors


@cache
def _disconnected_fields(zone: int, actors: tuple[int, ...]) -> dict:
    """A disconnected zone's event, made once per zone and Haenyeo there."""
    said = i18n.say(
        "Zone {zone} is disconnected: {names} cannot act.",
        zone=zone,
        names=both([who(a, opening=False) for a in actors]),
    )
    return _fields("disconnected", said, zone=zone)


def _next_zone(state: State, zone: int) -> int:
    """The next zone after ``zone`` where anyone dives (or the pearl zone, always resolved): the
    zones between hold nobody, and `advance` would pass them without a change or an event."""
    present = state.npc_cards
    for mask in state.chosen:
        present |= mask
    zone += 1
    while zone < PEARL_ZONE and not present >> zone & 1:
        zone += 1
    return zone


def room(state: State, seat: int, seafood: int) -> int:
    """Empty spaces left on a seafood track."""
    return C.tracks[seafood] - state.food[seat][seafood]


def zone0_options(state: State, seat: int) -> tuple[A.Action, ...]:
    """Zone 0: gain the 3rd Haenyeo (once per game) and/or one egg exchange, then done."""
    free = state.eggs[seat] - state.eggs_used[seat]
    out: list[A.Action] = []
    if free and not state.visit & 1 and not state.third[seat] and free >= THIRD_COST:
        out.append(A.GAIN)
    if free and not state.visit & 2:
        rooms = [room(state, seat, k) for k in range(N_SEAFOOD)]
        for eggs, food, pearls in C.exchanges:
            if free < eggs:
                continue
            if pearls:
                if state.pearls[seat] < PEARL_SPACES:
                    out.append(A.EXCHANGES[(eggs, ())])
            elif food == 1:
                out.extend(A.EXCHANGES[(eggs, (k,))] for k in range(N_SEAFOOD) if rooms[k])
            else:
                out.extend(A.EXCHANGES[(eggs, p)] for p in A.PAIRS if _pair_fits(p, rooms))
    out.append(A.DONE)
    return tuple(out)


def _pair_fits(pair: tuple[int, int], rooms: list[int]) -> bool:
    a, b = pair
    return rooms[a] >= 2 if a == b else rooms[a] >= 1 and rooms[b] >= 1


def bonus_options(state: State, seat: int, kind: int) -> tuple[A.Action, ...]:
    """A pearl-track bonus: a trash type you lack, or two seafood with room on their tracks."""
    if kind == BONUS_TRASH:
        have = state.trash[seat]
        return tuple(A.TRASH_PICKS[k] for k in range(len(C.trash)) if not have >> k & 1)
    rooms = [room(state, seat, k) for k in range(N_SEAFOOD)]
    return tuple(A.SEAFOOD_PICKS[p] for p in A.PAIRS if _pair_fits(p, rooms))


def action_legal(state: State, seat: int) -> tuple[A.Action, ...]:
    """The pending decision's options (only for the seat that owes it)."""
    pending = state.pending
    if not pending or pending[1] != seat:
        return ()
    kind = pending[0]
    if kind == PEND_HARVEST:
        return tuple(A.HARVESTS[i] for i, owner in enumerate(state.taken[state.zone]) if owner == FREE)
    if kind == PEND_ZONE0:
        return zone0_options(state, seat)
    return bonus_options(state, seat, BONUS_TRASH if kind == PEND_TRASH else BONUS_SEAFOOD)


def gain_seafood(state: State, seat: int, seafood: int, count: int = 1) -> int:
    """Mark ``count`` spaces on a seafood track (a full track takes no more); returns marks made."""
    food = state.food[seat]
    marks = min(count, C.tracks[seafood] - food[seafood])
    if marks:
        state.food = _put(state.food, seat, _put(food, seafood, food[seafood] + marks))
    return marks


def gain_item(state: State, seat: int, item: int) -> None:
    """Seafood: mark its track. Turtle egg: draw a circle. Trash: mark its type (a repeat marks nothing)."""
    if item < N_SEAFOOD:
        gain_seafood(state, seat, item)
    elif item == EGG:
        if state.eggs[seat] < C.egg_spaces:
            state.eggs = _put(state.eggs, seat, state.eggs[seat] + 1)
    else:
        state.trash = _put(state.trash, seat, state.trash[seat] | 1 << (item - TRASH0))


def gain_pearl(state: State, seat: int, events: list[Event]) -> None:
    """Mark the next pearl space; its bonus (trash / two seafood of your choice) comes at once."""
    if state.pearls[seat] >= PEARL_SPACES:
        events.append(_pearl_fields(seat, 0))
        return
    pearls = state.pearls[seat] + 1
    state.pearls = _put(state.pearls, seat, pearls)
    events.append(_pearl_fields(seat, pearls))
    if PEARL_BONUS[pearls - 1]:
        state.bonus = (*state.bonus, (seat, PEARL_BONUS[pearls - 1]))


@cache
def _pearl_fields(seat: int, pearls: int) -> dict:
    """A pearl's event, made once per seat and pearls on the track (0: the track was full)."""
    if not pearls:
        return _fields("pearl", i18n.say("{name}'s pearl track is full.", name=who(seat)), actor=seat)
    said = i18n.say(
        "{name} collects a pearl ({pearls} on the track, worth {points}).",
        name=who(seat),
        pearls=pearls,
        points=C.pearl_points[pearls - 1],
    )
    return _fields("pearl", said, actor=seat)


def take_slot(state: State, actor: int, slot: int, events: list[Event]) -> None:
    """Harvest one slot of the current zone: "Each chooses a slot and harvests the 1 item shown.

    Place a net marker on each harvested slot." (A slot showing 2 seafood gives both.)
    """
    zone = state.zone
    state.taken = _put(state.taken, zone, _put(state.taken[zone], slot, actor))
    items = rows(state)[zone][slot]
    if actor != NPC:
        for item in items:
            gain_item(state, actor, item)
    events.append(_harvest_fields(actor, items, zone, slot))


@cache
def _harvest_fields(actor: int, items: tuple[int, ...], zone: int, slot: int) -> dict:
    """A harvest's event, made once per Haenyeo, slot and its items."""
    said = i18n.say(
        "{name} harvests {items} in zone {zone}.", name=who(actor), items=slot_msg(items), zone=zone
    )
    return _fields("harvest", said, actor=actor, zone=zone, slot=slot)


def take_all(state: State, actor: int, events: list[Event]) -> None:
    """A Haenyeo alone in a zone harvests every item there."""
    zone = state.zone
    row = rows(state)[zone]
    free, owners = _claimed(state.taken[zone], actor)
    state.taken = _put(state.taken, zone, owners)
    seafood, eggs, trash = _gains(row, free)
    if actor != NPC:
        if seafood:
            food = state.food[actor]
            for kind, more in seafood:  # `gain_seafood`: a full track takes no more
                have = food[kind]
                food = (*food[:kind], have + min(more, TRACKS[kind] - have), *food[kind + 1 :])
            state.food = _put(state.food, actor, food)
        if eggs and state.eggs[actor] < C.egg_spaces:
            state.eggs = _put(state.eggs, actor, min(state.eggs[actor] + eggs, C.egg_spaces))
        if trash:
            state.trash = _put(state.trash, actor, state.trash[actor] | trash)
    events.append(_harvest_all_fields(actor, zone, row, free))


@cache
def _claimed(taken: tuple[int, ...], actor: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A row's free slots, and its owners once ``actor`` has taken them all (made once per row)."""
    free = tuple(slot for slot, owner in enumerate(taken) if owner == FREE)
    return free, tuple(actor if owner == FREE else owner for owner in taken)


@cache
def _gains(row: Row, free: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], int, int]:
    """What the free slots of a row give (`gain_item` item by item): (seafood, marks) for each
    seafood found, turtle eggs, and trash types as a mask."""
    seafood = [0] * N_SEAFOOD
    eggs = trash = 0
    for slot in free:
        for item in row[slot]:
            if item < N_SEAFOOD:
                seafood[item] += 1
            elif item == EGG:
                eggs += 1
            else:
                trash |= 1 << (item - TRASH0)
    return tuple((kind, marks) for kind, marks in enumerate(seafood) if marks), eggs, trash


@cache
def _harvest_all_fields(actor: int, zone: int, row: Row, free: tuple[int, ...]) -> dict:
    """A lone Haenyeo's harvest event, made once per Haenyeo, zone and the slots it takes."""
    said = i18n.say(
        "{name} is alone in zone {zone} and harvests everything: {items}.",
        name=who(actor),
        zone=zone,
        items=commas([slot_msg(row[slot]) for slot in free]),
    )
    return _fields("harvest_all", said, actor=actor, zone=zone)


def apply_bonus(state: State, seat: int, action: A.Action, events: list[Event]) -> None:
    """Resolve the first queued pearl-track bonus with ``action``."""
    state.bonus = state.bonus[1:]
    if isinstance(action, A.TakeTrash):
        state.trash = _put(state.trash, seat, state.trash[seat] | 1 << action.kind)
        what = i18n.term(C.trash_names[action.kind])
    else:
        for k in action.seafood:
            gain_seafood(state, seat, k)
        what = seafood_msg(action.seafood)
    events.append(
        _fields(
            "bonus", i18n.say("{name} takes a pearl bonus: {what}.", name=who(seat), what=what), actor=seat
        )
    )


def advance(state: State, events: list[Event]) -> None:
    """Do every step that needs no choice, until a seat owes a decision or the round ends."""
    while True:
        if state.bonus:
            seat, kind = state.bonus[0]
            options = bonus_options(state, seat, kind)
            if len(options) > 1:
                state.pending = (PEND_TRASH if kind == BONUS_TRASH else PEND_SEAFOOD, seat)
                return
            if options:
                apply_bonus(state, seat, options[0], events)
            else:
                state.bonus = state.bonus[1:]
                events.append(
                    _fields(
                        "bonus", i18n.say("{name} has nothing left to gain from the bonus.", name=who(seat))
                    )
                )
            continue
        zone = state.zone
        actors = state.actors
        if zone == 0:
            if state.turn < len(actors):
                seat = actors[state.turn]
                if len(zone0_options(state, seat)) > 1:
                    state.pending = (PEND_ZONE0, seat)
                    return
                state.turn += 1
                state.visit = 0
                continue
        elif zone < PEARL_ZONE:
            if actors:
                taken = state.taken[zone]
                free = [i for i, owner in enumerate(taken) if owner == FREE]
                if free and len(actors) == 1:
                    # "If only 1 Haenyeo is in a zone, that player harvests ALL items." Then
                    # nothing is free and no bonus queued: on to the next zone.
                    take_all(state, actors[0], events)
                    enter_zone(state, _next_zone(state, zone), events)
                    continue
                # "Each chooses a slot and harvests the 1 item shown. ... Repeat until all
                # slots are taken or all Haenyeo have acted": one slot per Haenyeo, in turn.
                if free and state.turn < len(actors):
                    actor = actors[state.turn]
                    state.turn += 1
                    row = rows(state)[zone]
                    if actor == NPC or len({row[i] for i in free}) == 1:
                        # The NPC takes the leftmost free slot; identical slots leave no choice.
                        take_slot(state, actor, free[0], events)
                        continue
                    state.turn -= 1
                    state.pending = (PEND_HARVEST, actor)
                    return
                if free:
                    left = len(free)
                    said = i18n.say_plural(
                        "Every Haenyeo in zone {zone} has harvested: {count} slot stays unharvested.",
                        "Every Haenyeo in zone {zone} has harvested: {count} slots stay unharvested.",
                        left,
                        zone=zone,
                    )
                    events.append(_fields("unharvested", said, zone=zone, slots=free))
        elif state.turn < len(actors):
            seat = actors[state.turn]
            state.turn += 1
            if seat != NPC:
                for _ in range(C.pearls_per_haenyeo):
                    gain_pearl(state, seat, events)
            continue
        if zone == PEARL_ZONE:
            end_round(state, events)
            return
        enter_zone(state, _next_zone(state, zone), events)


def apply_action(state: State, seat: int, action: A.Action, events: list[Event]) -> None:
    """A choice during ③, then let the engine run on."""
    kind = state.pending[0]
    state.pending = ()
    if kind == PEND_HARVEST:
        take_slot(state, seat, action.slot, events)
        state.turn += 1
    elif kind == PEND_ZONE0:
        if isinstance(action, A.Done):
            state.turn += 1
            state.visit = 0
            events.append(
                _fields("zone0", i18n.say("{name} is done with turtle eggs.", name=who(seat)), actor=seat)
            )
        elif isinstance(action, A.GainHaenyeo):
            state.eggs_used = _put(state.eggs_used, seat, state.eggs_used[seat] + THIRD_COST)
            state.third = _put(state.third, seat, 1)
            state.pawns = _put(state.pawns, seat, C.max_pawns)
            state.visit |= 1
            said = i18n.say_plural(
                "{name} spends {count} turtle egg and gains a 3rd Haenyeo.",
                "{name} spends {count} turtle eggs and gains a 3rd Haenyeo.",
                THIRD_COST,
                name=who(seat),
            )
            events.append(_fields("third", said, actor=seat))
        else:
            state.eggs_used = _put(state.eggs_used, seat, state.eggs_used[seat] + action.eggs)
            state.visit |= 2
            if action.seafood:
                for k in action.seafood:
                    gain_seafood(state, seat, k)
                what = seafood_msg(action.seafood)
            else:
                what = i18n.term("a pearl")
            said = i18n.say_plural(
                "{name} exchanges {count} turtle egg for {what}.",
                "{name} exchanges {count} turtle eggs for {what}.",
                action.eggs,
                name=who(seat),
                what=what,
            )
            events.append(_fields("exchange", said, actor=seat))
            if not action.seafood:
                gain_pearl(state, seat, events)
    else:
        apply_bonus(state, seat, action, events)
    advance(state, events)


# ----------------------------------------------------------------- ④ next round


def end_round(state: State, events: list[Event]) -> None:
    """Score after rounds 3, 6 and 8; then the next round (new sea cards, next First Player) or the end."""
    round_no = state.round
    if round_no in C.scoring_rounds:
        tile = C.tiles[state.tile]
        per_seat = score_round(tile, round_no, state.food)
        scores = list(state.scores)
        for seat, lines in enumerate(per_seat):
            fields = _score_fields(round_no, seat, tuple(lines))
            scores[seat] = (*scores[seat], fields["points"])
            events.append(fields)
        state.scores = tuple(scores)
    state.pending = ()
    state.actors = ()
    state.turn = 0
    state.visit = 0
    if round_no >= C.rounds:
        state.phase = "end"
        state.zone = 0
        events.append(_fields("end", i18n.say("The eighth round is over: final scoring.")))
        return
    if round_no in C.npc_reshuffle_after:
        state.npc_used = 0
    state.round = round_no + 1
    if state.passes:  # the house rule; ④ Prepare Next Round does not pass the marker
        state.first = (state.first + 1) % state.seats
    state.phase = "select"
    zeros = (0,) * state.seats
    state.chosen = zeros
    state.confirmed = zeros
    state.npc_cards = 0
    state.occupied = 0
    state.reach = 0
    state.zone = 0
    state.taken = fresh_taken(state)
    events.append(_round_fields(state.round, state.first))


@lru_cache(maxsize=4096)
def _score_fields(round_no: int, seat: int, lines: tuple[tuple[str, int], ...]) -> dict:
    """A seat's round scoring event, made once per round, seat and (rule, points) lines (the
    points vary: the most recent few thousand kept)."""
    total = sum(points for _, points in lines)
    said_lines = [
        i18n.say("{rule} {points}", rule=i18n.term(C.rules[key].name), points=points) for key, points in lines
    ]
    detail = commas(said_lines)
    said = i18n.say_plural(
        "Round {round} scoring: {name} scores {count} point ({detail}).",
        "Round {round} scoring: {name} scores {count} points ({detail}).",
        total,
        round=round_no,
        name=who(seat),
        detail=detail,
    )
    return _fields("score", said, actor=seat, round=round_no, points=total)


@cache
def _round_fields(round_no: int, first: int) -> dict:
    """A new round's event, made once per round and First Player."""
    said = i18n.say(
        "Round {round} begins: new sea cards are revealed; {name} is First Player.",
        round=round_no,
        name=who(first),
    )
    return _fields("round", said, round=round_no)


def check_trash_mask(mask: int) -> bool:
    """Whether ``mask`` is a valid set of trash types (used by invariants)."""
    return 0 <= mask <= ALL_TRASH


def apply(state: State, seat: int, action: A.Action) -> tuple[State, list[Event]]:
    """Apply a legal action to a copy of ``state``."""
    if state.phase == "select":
        if not state.confirmed[seat]:
            kind = action.__class__
            if kind is A.ToggleCard:
                return toggled(state, seat, action.zone)
            if kind is A.Confirm and state.confirmed.count(0) > 1:
                return confirmed(state, seat)
        new = state.copy()
        events: list[dict] = []
        apply_select(new, seat, action, events)
    elif state.phase == "actions":
        new = state.copy()
        events = []
        apply_action(new, seat, action, events)
    else:
        raise IllegalAction(i18n.say("The game is over."))
    # The rules list each event's fields (made once where they repeat): the events are copies.
    made = _made()
    return new, [made(fields) for fields in events]


def legal(state: State, seat: int) -> tuple[A.Action, ...]:
    """Every legal action for ``seat`` now."""
    if not 0 <= seat < state.seats:
        return ()
    if state.phase == "select":
        return select_legal(state, seat)
    if state.phase == "actions":
        return action_legal(state, seat)
    return ()


__all__ = ["apply", "item_text", "legal"]
