"""Jeju Island play rules, one function per rulebook section.

- Game Setup steps 6-7: `place_token`, `place_harubang`.
- Play 1, Travel: `sow`; Jeju Tile Collecting: `collect`, `harubang_bonus`.
- Play 2, Taking Point Cards: `payments`, `can_afford`, `take_card`, `pay`.
- End of the Game: `finish_if_over`.

Every function returns a new state and appends readable events; nothing mutates.
Given ``events=None`` (`JejuGame.advance`, search play-outs) they build no events at all.
Decisions the rulebook leaves open are recorded in docs/rules/jeju.md.
"""

from __future__ import annotations

from functools import lru_cache
from operator import add, getitem, sub

import i18n
from engine import base
from engine.base import _SEARCHING, DataError, Event, IllegalAction, Said
from engine.jeju.actions import (
    DIRECTIONS,
    Back,
    EndTurn,
    MoveHarubang,
    Pay,
    PlaceHarubang,
    PlaceToken,
    TakeCard,
    Travel,
)
from engine.jeju.components import (
    BOARD,
    CARDS,
    JOKER,
    LOCATIONS,
    NEUTRAL,
    NTYPES,
    TILE_LABELS,
    card_say,
    tile_count,
)
from engine.jeju.state import (
    BUYING,
    FINISHED,
    HARUBANG,
    PAY,
    SETUP_HARUBANG,
    SETUP_TOKENS,
    TURN,
    JejuState,
    replacer,
)

SETUP_LIMIT = BOARD["setup_spot_limit"]
TOKENS_PER_SEAT = BOARD["tokens_per_seat"]
DISPLAY_SIZE = BOARD["display_size"]
SPOTS = tuple(range(LOCATIONS))
_PLACE = tuple(PlaceToken(s) for s in SPOTS)
_HARUBANG_SETUP = tuple(PlaceHarubang(s) for s in SPOTS)
_MOVE_HARUBANG = tuple(MoveHarubang(s) for s in SPOTS)
_TRAVEL = tuple((Travel(s, "left"), Travel(s, "right")) for s in SPOTS)
_END = EndTurn()
_BACK = Back()
#: A `TakeCard` per card, made once (a frozen dataclass is slow to build; actions compare by value).
_TAKE = {card_id: TakeCard(card_id) for card_id in CARDS}


# The busiest moves' state changes, each a function written for its fields (`state.replacer`).
_COLLECTED = replacer("stacks", "hands")
_TRAVELLED = replacer("tokens", "last_travel", "stacks", "hands")
_TRAVEL_BONUS = replacer("tokens", "last_travel", "stacks", "hands", "phase", "bonus_seat", "bonus_reason")
_TRAVEL_TURN = replacer("tokens", "last_travel", "stacks", "hands", "phase", "current", "turn", "bought")
_BONUS = replacer("phase", "bonus_seat", "bonus_reason")
_BONUS_TAKEN = replacer("stacks", "hands", "harubang", "bonus_seat", "bonus_reason", "phase")
_BONUS_TURN = replacer(
    "stacks", "hands", "harubang", "bonus_seat", "bonus_reason", "phase", "current", "turn", "bought"
)
_CHOSEN = replacer("phase", "pending_card")
_PAID = replacer("hands", "spent", "owned", "display", "deck", "discard", "pending_card", "bought", "phase")
_PHASE = replacer("phase")
_NEXT_TURN = replacer("phase", "current", "turn", "bought")
_PLACED = replacer("tokens", "placed")
_PLACED_NEXT = replacer("tokens", "placed", "current")
_PLACED_NEXT_PHASE = replacer("tokens", "placed", "phase")


def who(seat: int) -> dict[str, int]:
    """How event messages name a seat: the reader names it (a player's name, or "Seat 1")."""
    return _WHO[seat] if 0 <= seat < len(_WHO) else i18n.seat(seat)


#: `who` per seat, made once (events are read, never changed, so they may share it).
_WHO = tuple(i18n.seat(seat) for seat in range(4))


def loc(spot: int) -> int:
    """How texts number a location (1-6 around the ring); the messages say "location {spot}"."""
    return spot + 1


#: A tile named with its article, as event texts use it, per tile word (see `a_tile`).
A_TILE = {
    "Orange": i18n.N_("an Orange tile"),
    "Cactus": i18n.N_("a Cactus tile"),
    "Mountain": i18n.N_("a Mountain tile"),
    "Fish": i18n.N_("a Fish tile"),
    "Pony": i18n.N_("a Pony tile"),
    "Pig": i18n.N_("a Pig tile"),
    "Haenyeo": i18n.N_("a Haenyeo tile"),
}


def tile_term(tile: int) -> i18n.Msg:
    """A tile with its article, as a message: "an Orange tile", "a Fish tile"."""
    label = TILE_LABELS[tile]
    phrase = A_TILE.get(label) or base.article(label) + " tile"  # a tile type added to the data later
    return i18n.term(phrase)


#: `tile_term` per tile type, made once (shared by events, which nobody changes).
_TILE_TERMS = tuple(tile_term(tile) for tile in range(NTYPES))


def a_tile(tile: int) -> str:
    """`tile_term` in English: "an Orange tile", "a Fish tile"."""
    return i18n.english(tile_term(tile))


def event(kind: str, message: i18n.Msg, actor: int | None = None, **extra: object) -> Event:
    """A public event saying ``message``; ``actor`` is the seat it concerns (not a secrecy marker)."""
    if actor is None:
        return base.event(kind, message, **extra)
    # `base.event` with the actor first among the fields, without passing the keywords on twice.
    if _SEARCHING.get():
        return {"type": kind, "say": message, "actor": actor, **extra}
    return (
        Said(type=kind, say=message, actor=actor, **extra)
        if extra
        else Said(type=kind, say=message, actor=actor)
    )


def _made() -> type:
    """What `event` makes now, for the busiest events built in place: a plain dict while bots
    search (`engine.base.without_text`), else a `Said` (its English said when read)."""
    return dict if _SEARCHING.get() else Said


@lru_cache(maxsize=512)
def _card_said(card_id: int) -> i18n.Msg:
    """`card_say` of a card, made once: events name the same few dozen cards all game (events
    are read, never changed, so they may share it)."""
    return card_say(CARDS[card_id])


def _add(hand: tuple[int, ...], tile: int, amount: int = 1) -> tuple[int, ...]:
    return (*hand[:tile], hand[tile] + amount, *hand[tile + 1 :])


def _set(seq: tuple, index: int, value: object) -> tuple:
    return (*seq[:index], value, *seq[index + 1 :])


# --- Game Setup, steps 6-7 -------------------------------------------------


def setup_spots(state: JejuState) -> list[int]:
    """Spots the placing seat may use: not already used this round, under the setup limit of 3."""
    return [s for s in SPOTS if s not in state.placed and len(state.tokens[s]) < SETUP_LIMIT]


def place_token(state: JejuState, seat: int, spot: int, events: list[Event] | None) -> JejuState:
    """Step 6: put a token on top of a spot; after two, the next seat places; then the Harubang."""
    tokens = _set(state.tokens, spot, (*state.tokens[spot], seat))
    placed = (*state.placed, spot)
    if events is not None:
        events.append(_made()(_PLACE_EVENTS[seat][spot]))
    if len(placed) < TOKENS_PER_SEAT:
        return _PLACED(state, tokens, placed)
    if seat + 1 < state.seats:
        return _PLACED_NEXT(state, tokens, (), seat + 1)
    return _PLACED_NEXT_PHASE(state, tokens, (), SETUP_HARUBANG)


def _place_event(seat: int, spot: int) -> dict:
    """A place-token event's fields."""
    text = i18n.say("{who} places a token at location {spot}.", who=who(seat), spot=loc(spot))
    return {"type": "place_token", "say": text, "actor": seat, "spot": spot}


#: `_place_event` per seat and spot, made once (each event a copy).
_PLACE_EVENTS = tuple(tuple(_place_event(seat, spot) for spot in SPOTS) for seat in range(len(_WHO)))


def place_harubang(state: JejuState, seat: int, spot: int, events: list[Event] | None) -> JejuState:
    """Step 7: the last seat puts the Harubang by a location; the first seat then starts play."""
    if events is not None:
        text = i18n.say("{who} puts the Harubang at location {spot}.", who=who(seat), spot=loc(spot))
        events.append(event("place_harubang", text, seat, spot=spot))
    return state._replace(harubang=spot, phase=TURN, current=0, turn=1)


# --- Play 1: Travel and Jeju Tile Collecting ---------------------------------


def travel_spots(state: JejuState, seat: int) -> list[int]:
    """Travel step 1: the stacks that include one of your pieces."""
    return [s for s in SPOTS if seat in state.tokens[s]]


def sow(
    tokens: tuple[tuple[int, ...], ...], spot: int, step: int
) -> tuple[tuple[tuple[int, ...], ...], list[int]]:
    """Travel steps 2-3: pick up the whole stack and drop its bottom-most token on each next spot.

    Returns the new token stacks and the spots that received a token, in order. A
    stack of more than five tokens wraps around the ring and drops on its own
    (now empty) starting spot too.
    """
    board = list(tokens)
    carried = board[spot]
    board[spot] = ()
    path = _path(spot, step, len(carried))
    for token, position in zip(carried, path, strict=True):
        board[position] = (*board[position], token)
    return tuple(board), list(path)


@lru_cache(maxsize=512)
def _path(spot: int, step: int, count: int) -> tuple[int, ...]:
    """The spots a stack of ``count`` tokens at ``spot`` drops on going ``step``, made once per path."""
    return tuple([(spot + step * n) % LOCATIONS for n in range(1, count + 1)])


def collect(state: JejuState, events: list[Event] | None) -> tuple[JejuState, int]:
    """Jeju Tile Collecting steps 1-2: every stack's top token owner takes that location's top tile.

    Neutral tops and empty locations give nothing. All six locations collect at
    once; returns the new state and the seat owed the Harubang bonus (step 3), or -1.
    """
    stacks, hands, bonus = _collected(state.tokens, state.stacks, state.hands, state.harubang, events)
    return _COLLECTED(state, stacks, hands), bonus


def _collected(
    tokens: tuple[tuple[int, ...], ...],
    stacks: tuple[tuple[int, ...], ...],
    hands: tuple[tuple[int, ...], ...],
    harubang: int,
    events: list[Event] | None,
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], int]:
    """`collect` on the parts of a state: the tile stacks and hands after, and the bonus seat or -1."""
    stacks = list(stacks)
    hands = list(hands)
    bonus = -1
    make = None if events is None else dict if _SEARCHING.get() else Said  # `event`'s kinds, chosen once
    for spot, on in enumerate(tokens):
        if not on:
            continue
        owner = on[-1]
        stack = stacks[spot]
        if owner == NEUTRAL or not stack:
            continue
        tile = stack[-1]
        stacks[spot] = stack[:-1]
        hand = hands[owner]
        hands[owner] = (*hand[:tile], hand[tile] + 1, *hand[tile + 1 :])
        if make is not None:
            events.append(make(_COLLECT_EVENTS[owner][spot][tile]))
        if spot == harubang:
            bonus = owner
    return tuple(stacks), tuple(hands), bonus


def _collect_event(owner: int, spot: int, tile: int) -> dict:
    """The fields of a collect event: the seat takes the tile at the location."""
    said = i18n.say(
        "{who} takes {tile} at location {spot}.", who=_WHO[owner], tile=_TILE_TERMS[tile], spot=spot + 1
    )
    return {"type": "collect", "say": said, "actor": owner, "spot": spot, "tile": tile}


#: `_collect_event` per seat, location and tile, made once: each event is a copy (a `Said` or,
#: while bots search, a dict), so the many collect events of a game build no message each.
_COLLECT_EVENTS = tuple(
    tuple(tuple(_collect_event(owner, spot, tile) for tile in range(NTYPES)) for spot in SPOTS)
    for owner in range(len(_WHO))
)


def travel(state: JejuState, seat: int, spot: int, direction: str, events: list[Event] | None) -> JejuState:
    """A Travel turn: sow, collect, then the Harubang bonus or the end of the turn.

    The new state is built once from the parts (`sow`, `collect` and `end_turn`'s next seat
    or the bonus owed): a Travel is a third of the moves.
    """
    step = DIRECTIONS[direction]
    tokens, path = sow(state.tokens, spot, step)
    count = len(path)
    if events is not None:
        events.append(_made()(_travel_fields(seat, spot, direction, count), path=path))
    stacks, hands, bonus = _collected(tokens, state.stacks, state.hands, state.harubang, events)
    # "As soon as the stack of Jeju tiles is depleted ... the game is over": when the
    # collecting took the last tiles there is no bonus to choose (end_turn ends the game).
    if bonus >= 0 and any(stacks):
        return _TRAVEL_BONUS(
            state, tokens, (seat, spot, step, count), stacks, hands, HARUBANG, bonus, "collect"
        )
    if any(stacks) and state.deck:  # `end_turn`, the game going on
        following = (state.current + 1) % state.seats
        return _TRAVEL_TURN(
            state, tokens, (seat, spot, step, count), stacks, hands, TURN, following, state.turn + 1, 0
        )
    return end_turn(_TRAVELLED(state, tokens, (seat, spot, step, count), stacks, hands), events)


@lru_cache(maxsize=1024)
def _travel_fields(seat: int, spot: int, direction: str, count: int) -> dict:
    """A Travel's event but its path: who moved which stack, which way, and where it dropped,
    made once per seat, stack and way (each event a copy with its own path)."""
    drops = ", ".join(str(position + 1) for position in _path(spot, DIRECTIONS[direction], count))
    if direction == "left":
        text = i18n.say(
            "{who} moves the {count}-token stack from location {spot} to the left (drops at {drops}).",
            who=_WHO[seat],
            count=count,
            spot=loc(spot),
            drops=drops,
        )
    else:
        text = i18n.say(
            "{who} moves the {count}-token stack from location {spot} to the right (drops at {drops}).",
            who=_WHO[seat],
            count=count,
            spot=loc(spot),
            drops=drops,
        )
    return {"type": "travel", "say": text, "actor": seat, "spot": spot, "direction": direction}


def harubang_bonus(state: JejuState, seat: int, spot: int, events: list[Event] | None) -> JejuState:
    """Collecting step 3 (and Instant Harubang): leave or move the statue, take the top tile there."""
    stack = state.stacks[spot]
    stays = spot == state.harubang
    stacks, hands = state.stacks, state.hands
    tile = -1
    if stack:
        tile = stack[-1]
        stacks = _set(stacks, spot, stack[:-1])
        hands = _set(hands, seat, _add(hands[seat], tile))
    if events is not None:
        events.append(_made()(_harubang_fields(seat, spot, stays, tile)))
    going_on = any(stacks) and len(state.deck) > 0  # `finish_if_over`'s test: the state is built once
    if state.bonus_reason == "card":  # `after_purchase`
        if going_on:
            return _BONUS_TAKEN(state, stacks, hands, spot, -1, "", BUYING)
        return after_purchase(_BONUS_TAKEN(state, stacks, hands, spot, -1, "", TURN), events)
    if going_on:  # `end_turn`
        following = (state.current + 1) % state.seats
        return _BONUS_TURN(state, stacks, hands, spot, -1, "", TURN, following, state.turn + 1, 0)
    return end_turn(_BONUS_TAKEN(state, stacks, hands, spot, -1, "", TURN), events)


@lru_cache(maxsize=512)
def _harubang_fields(seat: int, spot: int, stays: bool, tile: int) -> dict:
    """What the Harubang bonus's event says: the statue left or moved, and the tile taken (-1: none);
    made once per seat, spot and tile (each event a copy)."""
    if tile >= 0:
        if stays:
            text = i18n.say(
                "{who} leaves the Harubang at location {spot} and takes {tile}.",
                who=_WHO[seat],
                spot=loc(spot),
                tile=_TILE_TERMS[tile],
            )
        else:
            text = i18n.say(
                "{who} moves the Harubang to location {spot} and takes {tile}.",
                who=_WHO[seat],
                spot=loc(spot),
                tile=_TILE_TERMS[tile],
            )
    else:
        if stays:
            text = i18n.say(
                "{who} leaves the Harubang at location {spot}; no tiles are left there.",
                who=_WHO[seat],
                spot=loc(spot),
            )
        else:
            text = i18n.say(
                "{who} moves the Harubang to location {spot}; no tiles are left there.",
                who=_WHO[seat],
                spot=loc(spot),
            )
    return {"type": "harubang", "say": text, "actor": seat, "spot": spot, "tile": tile}


# --- Play 2: Taking Point Cards ----------------------------------------------


def waivers(owned: tuple[int, ...]) -> tuple[int, ...]:
    """Everlasting tiles: per tile type, how many of that tile a purchase need not give up."""
    # Most hands of cards hold no Everlasting card: known at once, no memo entry per hand.
    if _EVERLASTING.isdisjoint(owned):
        return _NONE_WAIVED
    return _waivers(owned)


_EVERLASTING = frozenset(card_id for card_id, card in CARDS.items() if card.everlasting >= 0)
_NONE_WAIVED = (0,) * NTYPES


@lru_cache(maxsize=4096)
def _waivers(owned: tuple[int, ...]) -> tuple[int, ...]:
    """`waivers` counted, for cards that include an Everlasting one."""
    waive = [0] * NTYPES
    for card_id in owned:
        tile = CARDS[card_id].everlasting
        if tile >= 0:
            waive[tile] += 1
    return tuple(waive)


@lru_cache(maxsize=1024)
def _need(card_id: int, waive: tuple[int, ...]) -> tuple[int, ...]:
    """The tiles a card asks for per type, less those its buyer's Everlasting cards waive (a
    few dozen cards and waivers: kept)."""
    return tuple(max(0, n - w) for n, w in zip(CARDS[card_id].need, waive, strict=True))


def can_afford(card_id: int, hand: tuple[int, ...], waive: tuple[int, ...]) -> bool:
    """Whether ``hand`` can pay the card, Haenyeo tiles standing in for any missing tile."""
    count, printed = _PRINTED[card_id]
    short = 0
    for tile, need in printed:
        needed = need - waive[tile]
        if needed > 0:
            count += needed
            if hand[tile] < needed:
                short += needed - hand[tile]
    return short <= hand[JOKER] and sum(hand) >= count


#: Per card, what `can_afford` reads: its ``?`` spaces and (tile, spaces) for each printed type.
_PRINTED = {
    card_id: (card.wild, tuple((tile, card.need[tile]) for tile in card.types))
    for card_id, card in CARDS.items()
}


def _multisets(remaining: list[int], size: int, start: int = 0) -> list[tuple[int, ...]]:
    """Every way to pick ``size`` tiles (as counts per type) from ``remaining``."""
    if size == 0:
        return [(0,) * NTYPES]
    picks = []
    for tile in range(start, NTYPES):
        if remaining[tile]:
            remaining[tile] -= 1
            for rest in _multisets(remaining, size - 1, tile):
                picks.append(_add(rest, tile))
            remaining[tile] += 1
    return picks


#: Payment lists kept (~0.5 KB each). A turn asks again for the same hand; the expert's
#: play-outs ask for ~50,000 hands a game, mostly once, so a bigger memo only grows (issue #21).
PAYMENTS_KEPT = 4096

#: `payments` packs a hand in one int, a byte per tile type (``int.from_bytes(bytes(hand))``): a
#: byte holds every tile of the game below its top bit, the guard bit set here (80 tiles today).
if BOARD["total_tiles"] >= 128:
    raise DataError("data/jeju: more than 127 tiles do not fit a byte per tile type in a packed hand")
_GUARDS = int.from_bytes(bytes([128] * NTYPES), "little")


@lru_cache(maxsize=PAYMENTS_KEPT)
def payments(card_id: int, hand: tuple[int, ...], waive: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every distinct way to pay a card from ``hand``: tile counts per type, fewest jokers first.

    Each printed tile space takes that tile or a Haenyeo joker; each ``?`` space
    takes any tile. Payments giving up the same tiles are one payment.

    So the payments from a hand are the card's payments from a hand of every tile
    (`_every_payment`, found space by space once per tiles asked, in this order) that the
    hand holds: those with no more jokers than the hand, each tested for ``paid <= hand``
    type by type in one subtraction of packed ints. In each byte, the guard bit plus the hand's count
    less the payment's keeps the guard only where the hand holds enough, and no byte
    borrows from the next (`payments_by_spaces` finds the same list space by space).
    """
    listed = _every_payment(_need(card_id, waive), CARDS[card_id].wild)
    room = int.from_bytes(bytes(hand), "little") | _GUARDS
    jokers = hand[JOKER]
    held = listed[jokers] if jokers < len(listed) else listed[-1]
    return tuple([paid for paid, packed in held if (room - packed) & _GUARDS == _GUARDS])


@lru_cache(maxsize=1024)
def _every_payment(need: tuple[int, ...], wild: int) -> tuple[tuple[tuple[tuple[int, ...], int], ...], ...]:
    """Per number of jokers in hand, the payments for a card asking ``need`` (less what is waived)
    and ``wild`` ``?`` spaces giving up no more jokers, from a hand of every tile it could take,
    in `payments`' order: (payment, payment packed) pairs. (Kept per tiles asked, not per card
    and waiver: a waived tile the card does not ask for changes nothing.)"""
    spaces = sum(need) + wild
    listed = [
        (paid, int.from_bytes(bytes(paid), "little")) for paid in _by_spaces(need, wild, (spaces,) * NTYPES)
    ]
    return tuple(tuple(p for p in listed if p[0][JOKER] <= jokers) for jokers in range(spaces + 1))


def payments_by_spaces(
    card_id: int, hand: tuple[int, ...], waive: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """`payments` found space by space: each printed space's tile or a joker, then every
    multiset of tiles left for the ``?`` spaces (slower; the reference tests check against)."""
    return _by_spaces(_need(card_id, waive), CARDS[card_id].wild, hand)


def _by_spaces(need: tuple[int, ...], wild: int, hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """`payments_by_spaces` for the tiles a card asks (``need``, less what is waived) and its ``?``
    spaces."""
    found: set[tuple[int, ...]] = set()
    types = [t for t in range(NTYPES) if need[t]]

    def choose(index: int, paid: list[int], jokers: int) -> None:
        if index == len(types):
            remaining = [h - p for h, p in zip(hand, paid, strict=True)]
            for extra in _multisets(remaining, wild):
                found.add(tuple(p + e for p, e in zip(paid, extra, strict=True)))
            return
        tile = types[index]
        for real in range(min(need[tile], hand[tile]), -1, -1):
            used = need[tile] - real
            if used <= jokers:
                paid[tile] = real
                paid[JOKER] += used
                choose(index + 1, paid, jokers - used)
                paid[JOKER] -= used
                paid[tile] = 0

    choose(0, [0] * NTYPES, hand[JOKER])
    return tuple(sorted(found, key=lambda p: (p[JOKER], tuple(-x for x in p))))


def affordable_cards(state: JejuState, seat: int) -> list[int]:
    """The face-up cards this seat can pay for now: `can_afford`, with the tiles a hand lacks
    counted for every card at once (`_HELD`, `_costs`)."""
    return _affordable(state, seat, _CARD_IDS)


#: Each card's id by its id, for `affordable_cards` (`legal_actions` asks `_affordable` for `_TAKE`).
_CARD_IDS = {card_id: card_id for card_id in CARDS}


def _affordable(state: JejuState, seat: int, listed: dict[int, object]) -> list:
    """`affordable_cards`, each card listed as ``listed[card_id]``."""
    hand, owned = state.hands[seat], state.owned[seat]
    # `waivers`, written out: most hands of cards hold no Everlasting card.
    costs = _UNWAIVED_COSTS if _EVERLASTING.isdisjoint(owned) else _costs(_waivers(owned))
    missing = ~sum(map(getitem, _HELD, hand))
    jokers, total = hand[JOKER], sum(hand)
    found = []
    for card_id in state.display:
        asked, spaces = costs[card_id]
        if total >= spaces and (asked & missing).bit_count() <= jokers:
            found.append(listed[card_id])
    return found


#: The most tiles of one type a card asks for.
_MOST_NEED = max(max(card.need) for card in CARDS.values())


def _level(tile: int, level: int) -> int:
    """The bit for "at least ``level`` tiles of type ``tile``" (``level`` up to `_MOST_NEED`)."""
    return 1 << (tile * _MOST_NEED + level - 1)


#: Per tile type, per count of it a hand may hold (up to every tile in the game), the bits of the
#: levels that count reaches: a hand's bits are the sum over its types (no two types share one).
_HELD = tuple(
    tuple(
        sum(_level(tile, level) for level in range(1, min(count, _MOST_NEED) + 1))
        for count in range(BOARD["total_tiles"] + 1)
    )
    for tile in range(NTYPES)
)


@lru_cache(maxsize=256)
def _costs(waive: tuple[int, ...]) -> tuple[tuple[int, int] | None, ...]:
    """Per card id, for a buyer whose Everlasting cards waive ``waive``: the level bits its tiles
    ask for (a type asked ``n`` times: its levels 1 to ``n``) and its spaces in all.

    The asked bits a hand's `_HELD` bits miss count the printed spaces its own tiles cannot fill,
    `can_afford`'s shortfall, which the Haenyeo jokers must cover.
    """
    costs: list[tuple[int, int] | None] = [None] * (max(CARDS) + 1)
    for card_id, card in CARDS.items():
        need = _need(card_id, waive)
        asked = sum(_level(tile, level) for tile, n in enumerate(need) for level in range(1, n + 1))
        costs[card_id] = (asked, sum(need) + card.wild)
    return tuple(costs)


_UNWAIVED_COSTS = _costs(_NONE_WAIVED)


@lru_cache(maxsize=4096)
def payment_caps(card_id: int, waive: tuple[int, ...]) -> tuple[int, ...]:
    """Per tile type, the most tiles of it any payment for the card can give up.

    A type the card neither prints nor can put in a ``?`` space: none; a printed type:
    its spaces plus the ``?`` spaces; jokers: every space. Tiles in hand beyond these
    change no payment, so `seat_payments` asks `payments` for the hand cut down to them
    and the hands that pay alike share one memo entry.
    """
    need = _need(card_id, waive)
    wild = CARDS[card_id].wild
    caps = [n + wild if (n or wild) else 0 for n in need[:JOKER]]
    return (*caps, sum(need) + wild)


def fewest_jokers(card_id: int, hand: tuple[int, ...], waive: tuple[int, ...]) -> int:
    """The fewest Haenyeo jokers any payment for the card from ``hand`` gives up (``payments(...)[0]``'s).

    Every payment gives up as many tiles as the card has spaces, so the fewest jokers is the
    spaces less the most other tiles that fit: each printed space its own tile where the hand
    has it, the ``?`` spaces any tiles left over. Counted without listing the payments (the
    bots price a card by it in every play-out; tests/engine/test_jeju_rules.py checks it
    against `payments`).
    """
    card = CARDS[card_id]
    need = card.need
    jokers = max(0, need[JOKER] - waive[JOKER])
    spare = 0
    for tile in range(JOKER):
        have = hand[tile]
        needed = need[tile] - waive[tile]
        if needed > 0:
            if have < needed:
                jokers += needed - have
            else:
                spare += have - needed
        else:
            spare += have
    wild = card.wild
    return jokers + (wild - spare if spare < wild else 0)


def seat_payments(state: JejuState, seat: int, card_id: int) -> tuple[tuple[int, ...], ...]:
    """Distinct payments this seat could make for ``card_id``."""
    hand, owned = state.hands[seat], state.owned[seat]
    last = _LAST_PAYMENTS[0]
    # A card chosen is paid for next: the same hand and cards asked again (compared as objects).
    if last[0] is hand and last[1] is owned and last[2] == card_id:
        return last[3]
    waive = waivers(owned)
    caps = payment_caps(card_id, waive)
    found = payments(card_id, tuple(map(min, hand, caps)), waive)
    _LAST_PAYMENTS[0] = (hand, owned, card_id, found)
    return found


def _pay_actions(options: tuple[tuple[int, ...], ...]) -> list[Pay]:
    """A `Pay` per payment, each made once (a frozen dataclass is slow to build; a card costs at
    most five tiles, so there are a few hundred payments in all)."""
    made = _PAYS
    return [made.get(tiles) or made.setdefault(tiles, Pay(tiles)) for tiles in options]


_PAYS: dict[tuple[int, ...], Pay] = {}


#: `seat_payments`' last answer: (hand, cards owned, card, payments).
_LAST_PAYMENTS: list[tuple] = [((), (), -1, ())]


def take_card(state: JejuState, seat: int, card_id: int, events: list[Event] | None) -> JejuState:
    """Choose a card; pay at once when there is only one way, else ask which tiles pay."""
    options = seat_payments(state, seat, card_id)
    if len(options) == 1:
        return pay(state, seat, card_id, options[0], events)
    if events is not None:
        events.append(_made()(_chosen_fields(seat, card_id)))
    return _CHOSEN(state, PAY, card_id)


@lru_cache(maxsize=256)
def _chosen_fields(seat: int, card_id: int) -> dict:
    """A choose-card event's fields, made once per seat and card (each event a copy)."""
    text = i18n.say(
        "{who} chooses the card {card} and picks which tiles pay.", who=_WHO[seat], card=_card_said(card_id)
    )
    return {"type": "choose_card", "say": text, "actor": seat, "card": card_id}


def _semicolons(parts: list[i18n.Msg]) -> i18n.Msg:
    if len(parts) == 1:
        return parts[0]
    return i18n.say("{first}; {rest}", first=parts[0], rest=_semicolons(parts[1:]))


def _cards_words(card_ids: tuple[int, ...]) -> i18n.Msg:
    """Cards named in full for an event: "the cards 3 pts for ...; 4 pts for ..."."""
    if not card_ids:
        return i18n.term("no other cards")
    names = _semicolons([_card_said(c) for c in card_ids])
    if len(card_ids) == 1:
        return i18n.say("the card {card}", card=names)
    return i18n.say("the cards {cards}", cards=names)


def _commas(parts: list[i18n.Msg]) -> i18n.Msg:
    if len(parts) == 1:
        return parts[0]
    return i18n.say("{first}, {rest}", first=parts[0], rest=_commas(parts[1:]))


@lru_cache(maxsize=1024)
def _paid_said(tiles: tuple[int, ...]) -> i18n.Msg:
    """What a payment gives up, as its event says it ("2 Orange, 1 Fish"), made once per payment
    (events are read, never changed, so they may share it)."""
    counts = [tile_count(n, TILE_LABELS[t]) for t, n in enumerate(tiles) if n]
    return _commas(counts) if counts else i18n.term("nothing")


def pay(
    state: JejuState, seat: int, card_id: int, tiles: tuple[int, ...], events: list[Event] | None
) -> JejuState:
    """Discard the tiles, take the card, refill the display (or Card Refresh it), then its effect."""
    card = CARDS[card_id]
    hand = tuple(map(sub, state.hands[seat], tiles))
    spent = tuple(map(add, state.spent, tiles))
    if events is not None:
        said = i18n.say(
            "{who} pays {paid} and takes the card {card}.",
            who=_WHO[seat],
            paid=_paid_said(tiles),
            card=_card_said(card_id),
        )
        events.append(_made()(type="take_card", say=said, actor=seat, card=card_id, paid=list(tiles)))
    slot = state.display.index(card_id)
    deck, discard = state.deck, state.discard
    if card.effect == "refresh":
        rest = state.display[:slot] + state.display[slot + 1 :]
        display = deck[:DISPLAY_SIZE]
        discard = discard + rest
        deck = deck[DISPLAY_SIZE:]
        if events is not None:
            said = i18n.say(
                "Card Refresh: {cards} leave the game; {dealt} new cards are dealt.",
                cards=_cards_words(rest),
                dealt=len(display),
            )
            events.append(event("refresh", said, seat, removed=list(rest), dealt=list(display)))
    elif deck:
        display = _set(state.display, slot, deck[0])
        deck = deck[1:]
    else:
        display = state.display[:slot] + state.display[slot + 1 :]
    if card.effect == "everlasting" and events is not None:
        said = i18n.say(
            "{who} need not give up {tile} for cards from now on.",
            who=_WHO[seat],
            tile=_TILE_TERMS[card.everlasting],
        )
        events.append(event("everlasting", said, seat))
    state = _PAID(
        state,
        _set(state.hands, seat, hand),
        spent,
        _set(state.owned, seat, (*state.owned[seat], card_id)),
        display,
        deck,
        discard,
        -1,
        state.bought + 1,
        BUYING,
    )
    if card.effect == "harubang":
        if events is not None:
            text = i18n.say("Instant Harubang: {who} takes the Harubang bonus.", who=_WHO[seat])
            events.append(event("instant_harubang", text, seat))
        return _BONUS(state, HARUBANG, seat, "card")
    done = finish_if_over(state, events)  # `after_purchase`: the phase is already BUYING
    return state if done is None else done


def after_purchase(state: JejuState, events: list[Event] | None) -> JejuState:
    """After a card and its effect: the game may end; otherwise the seat may take another card."""
    done = finish_if_over(state, events)
    if done is not None:
        return done
    return _PHASE(state, BUYING)


# --- Turn order and End of the Game ------------------------------------------


def finish_if_over(state: JejuState, events: list[Event] | None) -> JejuState | None:
    """End of the Game: all tile stacks gone, or the point card deck emptied."""
    if not any(state.stacks):
        reason, text = "tiles", i18n.say("Every stack of Jeju tiles is gone: the game is over.")
    elif not state.deck:
        reason, text = "deck", i18n.say("The point card deck is exhausted: the game is over.")
    else:
        return None
    if events is not None:
        events.append(event("game_over", text))
    return state._replace(phase=FINISHED, end_reason=reason, pending_card=-1, bonus_seat=-1, bonus_reason="")


def end_turn(state: JejuState, events: list[Event] | None) -> JejuState:
    """The turn is over: end the game if it is, else the next seat in order plays."""
    done = finish_if_over(state, events)
    if done is not None:
        return done
    following = (state.current + 1) % state.seats
    return _NEXT_TURN(state, TURN, following, state.turn + 1, 0)


# --- Who acts, what they may do, and doing it --------------------------------


def to_act(state: JejuState) -> int:
    """The one seat that owes a decision, or -1 when the game is over."""
    if state.phase == FINISHED:
        return -1
    if state.phase == HARUBANG:
        return state.bonus_seat
    if state.phase == SETUP_HARUBANG:
        return state.seats - 1
    return state.current


def legal_actions(state: JejuState, seat: int) -> list:
    """Every legal action for ``seat`` now (empty when it owes nothing)."""
    if seat != to_act(state):
        return []
    phase = state.phase
    if phase == TURN:
        tokens = state.tokens
        actions = [a for s in SPOTS if seat in tokens[s] for a in _TRAVEL[s]]
        actions += _affordable(state, seat, _TAKE)
        return actions
    if phase == HARUBANG:
        return list(_MOVE_HARUBANG)
    if phase == BUYING:
        actions = _affordable(state, seat, _TAKE)
        actions.append(_END)
        return actions
    if phase == PAY:
        actions = _pay_actions(seat_payments(state, seat, state.pending_card))
        actions.append(_BACK)
        return actions
    if phase == SETUP_TOKENS:
        return [_PLACE[s] for s in setup_spots(state)]
    if phase == SETUP_HARUBANG:
        return list(_HARUBANG_SETUP)
    return []


def apply_one(state: JejuState, seat: int, action: object, events: list[Event] | None) -> JejuState:
    """Apply one action already known to be legal."""
    kind = type(action)
    if kind is Travel:
        return travel(state, seat, action.spot, action.direction, events)
    if kind is TakeCard:
        return take_card(state, seat, action.card, events)
    if kind is Pay:
        return pay(state, seat, state.pending_card, action.tiles, events)
    if kind is MoveHarubang:
        return harubang_bonus(state, seat, action.spot, events)
    if kind is EndTurn:
        if events is not None:
            events.append(_made()(_END_TURN_EVENTS[seat]))
        return end_turn(state, events)
    if kind is Back:
        if events is not None:
            text = i18n.say("{who} puts the card back and chooses again.", who=_WHO[seat])
            events.append(event("back", text, seat))
        return state._replace(phase=BUYING if state.bought else TURN, pending_card=-1)
    if kind is PlaceToken:
        return place_token(state, seat, action.spot, events)
    if kind is PlaceHarubang:
        return place_harubang(state, seat, action.spot, events)
    raise IllegalAction(i18n.say("That is not a Jeju Island action."))


#: An end-turn event's fields per seat, made once (each event a copy).
_END_TURN_EVENTS = tuple(
    {"type": "end_turn", "say": i18n.say("{who} ends the turn.", who=named), "actor": seat}
    for seat, named in enumerate(_WHO)
)


def explain_illegal(state: JejuState, seat: int, action: object) -> i18n.Msg:
    """Why ``action`` is not legal for ``seat`` now, as a message for the player."""
    say = i18n.say
    if state.phase == FINISHED:
        return say("The game is over.")
    if seat != to_act(state):
        return say("It is not your turn: {who} is to act.", who=who(to_act(state)))
    kind = type(action)
    if kind is Travel:
        if state.phase != TURN:
            return say("You cannot travel now.")
        return say("The stack at location {spot} holds none of your tokens.", spot=loc(action.spot))
    if kind is TakeCard:
        if state.phase not in (TURN, BUYING):
            return say("You cannot take a point card now.")
        if action.card not in state.display:
            return say("That card is not face up.")
        return say("You do not have the tiles that card needs.")
    if kind is Pay:
        if state.phase != PAY:
            return say("Choose a card before paying.")
        return say("You cannot pay with those tiles.")
    if kind is PlaceToken:
        if state.phase != SETUP_TOKENS:
            return say("Tokens are placed only during setup.")
        return say("Choose another spot: two different spots, at most 3 tokens on a spot during setup.")
    if kind is MoveHarubang:
        return say("This is not the moment for the Harubang bonus.")
    if kind is PlaceHarubang:
        return say("This is not the moment for placing the Harubang.")
    if kind is EndTurn:
        return say("This is not the moment for ending the turn.")
    if kind is Back:
        return say("This is not the moment for going back.")
    return say("This is not the moment for that.")
