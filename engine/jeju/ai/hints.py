"""One line of why for a hint: what the move does for the seat now, in the seat's own terms.

`explain(game, state, seat, action)` is what a table's "Suggest" shows under the
expert's move (`hosting.service.explain`). It runs on the bot's event loop, so it
looks only one move ahead, with the numbers the greedy bot already uses
(`engine.jeju.ai.values`: `card_gain`, `travel_tiles`, `tile_use`) and the score as it
stands (`scoring.score`, what the expert's evaluation counts at the end). It does
no search and no play-out.

It sees only what the seat sees. Every reason is worked out from `public(state)`:
the state with the deck put in sorted order and the tiles under each stack's top
dealt again in sorted order, so nothing it says can depend on the deck order or on
a face-down tile (everything else in Jeju Island is public; docs/rules/jeju.md).

The reason is chosen by what drives the move, most telling first:
- a move that ends the game says how it ends and by how much the seat finishes ahead;
- a Travel names the top tiles it collects, and the card they let the seat pay for,
  or the Harubang bonus it earns, or (collecting nothing) how little it gives the
  others;
- a card names what its effect does (Everlasting: how many cards still in play ask
  for its tile; Card Refresh: the card it takes away from an opponent who could pay
  for it; Instant Harubang: a tile the bonus can take), else that an opponent could
  pay for it too, else the score it brings the seat to and the lead it leaves;
- a Harubang bonus names the tile it takes and the face-up card that needs it;
- a payment names what it pays and what it keeps (the Haenyeo above all);
- a setup placement names the location and what lies there.
It returns None when it has nothing specific to say.
"""

from __future__ import annotations

from engine.jeju import actions as A
from engine.jeju import rules, scoring
from engine.jeju import state as st
from engine.jeju.ai.values import card_gain, card_key, tile_use, travel_tiles
from engine.jeju.components import (
    CARDS,
    JOKER,
    LOCATIONS,
    NEUTRAL,
    TILE_LABELS,
    card_say,
    plus,
    tile_count,
)
from engine.jeju.rules import DISPLAY_SIZE
from i18n import Msg, listing, say, say_plural, term
from i18n import seat as seat_arg


def public(state: st.JejuState) -> st.JejuState:
    """The state with what no seat may see replaced by a fixed guess made only of what it may see.

    The deck (its contents are public: every card not in sight) is put in sorted
    order, and the tiles under the tops are dealt again from a sorted pool, every
    stack keeping its size and its top.
    """
    pool = sorted(t for stack in state.stacks for t in stack[:-1])
    stacks = []
    for stack in state.stacks:
        below = max(0, len(stack) - 1)
        stacks.append((*pool[:below], *stack[-1:]))
        pool = pool[below:]
    return state._replace(deck=tuple(sorted(state.deck)), stacks=tuple(stacks))


def explain(game, state: st.JejuState, seat: int, action) -> Msg | None:
    """Why ``action`` is a good move for ``seat`` now, as one message; None if nothing specific."""
    state = public(state)
    kind = type(action)
    if kind is A.Travel:
        return _travel(state, seat, action)
    if kind is A.TakeCard:
        return _take_card(state, seat, action.card)
    if kind is A.EndTurn:
        return _end_turn(state, seat)
    if kind is A.Pay:
        return _pay(state, seat, action.tiles)
    if kind is A.MoveHarubang:
        return _harubang(state, seat, action.spot)
    if kind is A.PlaceToken:
        return _place_token(state, seat, action.spot)
    if kind is A.PlaceHarubang:
        return _place_harubang(state, seat, action.spot)
    return None


# --- helpers -------------------------------------------------------------------------


def _tile(tile: int) -> Msg:
    return term(TILE_LABELS[tile])


def _tile_at(tile: int, spot: int) -> Msg:
    return say("the {tile} at location {spot}", tile=_tile(tile), spot=spot + 1)


def _tiles(counts: tuple[int, ...] | list[int]) -> Msg:
    """Tile counts in words, as card costs are said: "Orange + 2 Fish + Haenyeo"."""
    return plus([_tile(t) if n == 1 else tile_count(n, TILE_LABELS[t]) for t, n in enumerate(counts) if n])


def _leftover(hand: tuple[int, ...]) -> int:
    return (sum(hand) - hand[JOKER]) // scoring.PER_POINT


def _score(owned: tuple[int, ...], hand: tuple[int, ...]) -> int:
    """What `scoring.score` counts for these cards and this hand."""
    return sum(CARDS[c].points for c in owned) + _leftover(hand)


def _rival(scores: list[int], counts: list[int], seat: int) -> int:
    """The best other seat by points, then point cards (the tie-break), then the lowest number."""
    others = [s for s in range(len(scores)) if s != seat]
    return max(others, key=lambda s: (scores[s], counts[s], -s))


def _greedy_payment(state: st.JejuState, seat: int, card_id: int) -> tuple[int, ...]:
    """The payment the bots make for a card (greedy's rule: fewest Haenyeo, then the most-held tiles)."""
    hand = state.hands[seat]
    pays = rules.seat_payments(state, seat, card_id)
    return min(pays, key=lambda p: (p[JOKER], -sum(n * hand[t] for t, n in enumerate(p))))


def _final(state: st.JejuState, hands: list, owned: list, seat: int, card_id: int = -1) -> Msg:
    """The game ends with this move (taking ``card_id``, or else a collecting): the seat's final score
    and its margin over the best other seat."""
    scores = [_score(owned[s], hands[s]) for s in range(state.seats)]
    counts = [len(owned[s]) for s in range(state.seats)]
    rival = _rival(scores, counts, seat)
    margin = scores[seat] - scores[rival]
    ahead = (scores[seat], counts[seat]) > (scores[rival], counts[rival])
    if card_id < 0:
        if ahead and margin > 0:
            return say_plural(
                "This collecting takes the last tiles and ends the game: you finish on {score} points, "
                "{count} point ahead of {seat}.",
                "This collecting takes the last tiles and ends the game: you finish on {score} points, "
                "{count} points ahead of {seat}.",
                margin,
                score=scores[seat],
                seat=seat_arg(rival),
            )
        return say(
            "This collecting takes the last tiles and ends the game with you on {score} points.",
            score=scores[seat],
        )
    card = card_say(CARDS[card_id])
    if ahead and margin > 0:
        return say_plural(
            "Taking the card {card} empties the deck and ends the game: you finish on {score} points, "
            "{count} point ahead of {seat}.",
            "Taking the card {card} empties the deck and ends the game: you finish on {score} points, "
            "{count} points ahead of {seat}.",
            margin,
            card=card,
            score=scores[seat],
            seat=seat_arg(rival),
        )
    return say(
        "Taking the card {card} empties the deck and ends the game with you on {score} points.",
        card=card,
        score=scores[seat],
    )


# --- Travel --------------------------------------------------------------------------


def _travel(state: st.JejuState, seat: int, action: A.Travel) -> Msg:
    tokens, path = rules.sow(state.tokens, action.spot, A.DIRECTIONS[action.direction])
    mine_at: list[int] = []  # spots whose top tile this seat collects
    hands = [list(h) for h in state.hands]
    taken = 0
    for spot in range(LOCATIONS):
        if not tokens[spot]:
            continue
        owner = tokens[spot][-1]
        if owner == NEUTRAL or not state.stacks[spot]:
            continue
        hands[owner][state.stacks[spot][-1]] += 1
        taken += 1
        if owner == seat:
            mine_at.append(spot)
    _mine, others = travel_tiles(state, seat, action)
    if taken and taken == sum(len(s) for s in state.stacks):
        return _final(state, [tuple(h) for h in hands], list(state.owned), seat)
    if not mine_at:
        drops = listing([spot + 1 for spot in dict.fromkeys(path)])
        if not others:
            return say(
                "Dropping on locations {drops} collects nothing, but gives nobody else a tile either.",
                drops=drops,
            )
        return say_plural(
            "Dropping on locations {drops} collects nothing for you, and the others collect only {count} "
            "tile.",
            "Dropping on locations {drops} collects nothing for you, and the others collect only {count} "
            "tiles.",
            others,
            drops=drops,
        )
    collected = listing([_tile_at(state.stacks[s][-1], s) for s in mine_at])
    # A card the collected tiles let the seat pay for, that it cannot pay for now.
    hand = tuple(hands[seat])
    waive = rules.waivers(state.owned[seat])
    now = state.hands[seat]
    unlocked = [
        c for c in state.display if rules.can_afford(c, hand, waive) and not rules.can_afford(c, now, waive)
    ]
    if unlocked:
        after = state._replace(hands=(*state.hands[:seat], hand, *state.hands[seat + 1 :]))
        best = max(unlocked, key=lambda c: (card_gain(after, seat, c), card_key(c)))
        return say(
            "Collects {tiles}, which lets you pay for the card {card}.",
            tiles=collected,
            card=card_say(CARDS[best]),
        )
    if state.harubang in mine_at:
        return say(
            "Collects {tiles}, and the Harubang at location {spot} earns you one more tile of your choice.",
            tiles=collected,
            spot=state.harubang + 1,
        )
    if not others:
        return say("Collects {tiles}, and nobody else collects a tile.", tiles=collected)
    return say_plural(
        "Collects {tiles}; the others collect {count} tile.",
        "Collects {tiles}; the others collect {count} tiles.",
        others,
        tiles=collected,
    )


# --- Point cards -----------------------------------------------------------------------


def _take_card(state: st.JejuState, seat: int, card_id: int) -> Msg:
    card = CARDS[card_id]
    said = card_say(card)
    paid = _greedy_payment(state, seat, card_id)
    hand = tuple(h - p for h, p in zip(state.hands[seat], paid, strict=True))
    hands = list(state.hands)
    hands[seat] = hand
    owned = list(state.owned)
    owned[seat] = (*owned[seat], card_id)
    deck = len(state.deck)
    ends = deck <= DISPLAY_SIZE if card.effect == "refresh" else deck == 1
    if ends and card.effect != "harubang":  # an Instant Harubang's bonus tile would still come
        return _final(state, hands, owned, seat, card_id)
    rest = [c for c in state.display if c != card_id]
    if card.effect == "everlasting":
        tile = card.everlasting
        asking = sum(1 for c in (*rest, *state.deck) if CARDS[c].need[tile])
        return say_plural(
            "The card {card}: from now on you give up one {tile} fewer for every card, and {count} card "
            "still in play asks for it.",
            "The card {card}: from now on you give up one {tile} fewer for every card, and {count} cards "
            "still in play ask for it.",
            asking,
            card=said,
            tile=_tile(tile),
        )
    others = [s for s in range(state.seats) if s != seat]
    if card.effect == "refresh":
        denied = [
            (CARDS[c].points, c, s)
            for c in rest
            for s in others
            if rules.can_afford(c, state.hands[s], rules.waivers(state.owned[s]))
        ]
        if denied:
            _points, other, rival = max(denied, key=lambda d: (d[0], -d[1], -d[2]))
            return say_plural(
                "The card {card}: {count} point, and its refresh clears away the card {other}, "
                "which {seat} could pay for.",
                "The card {card}: {count} points, and its refresh clears away the card {other}, "
                "which {seat} could pay for.",
                card.points,
                card=said,
                other=card_say(CARDS[other]),
                seat=seat_arg(rival),
            )
    if card.effect == "harubang":
        after = state._replace(hands=tuple(hands), owned=tuple(owned))
        spots = [s for s in range(LOCATIONS) if state.stacks[s]]
        if spots:
            spot = max(spots, key=lambda s: (tile_use(after, seat, state.stacks[s][-1]), -s))
            return say_plural(
                "The card {card}: {count} point, and its bonus gives you one more tile at once, "
                "such as the {tile} at location {spot}.",
                "The card {card}: {count} points, and its bonus gives you one more tile at once, "
                "such as the {tile} at location {spot}.",
                card.points,
                card=said,
                tile=_tile(state.stacks[spot][-1]),
                spot=spot + 1,
            )
    # Of the others who could pay for it too, the one who plays soonest after this seat.
    rivals = [s for s in others if rules.can_afford(card_id, state.hands[s], rules.waivers(state.owned[s]))]
    rivals.sort(key=lambda s: (s - seat) % state.seats)
    if rivals:
        return say_plural(
            "Takes the card {card} ({count} point) while you can: {seat} could pay for it too.",
            "Takes the card {card} ({count} points) while you can: {seat} could pay for it too.",
            card.points,
            card=said,
            seat=seat_arg(rivals[0]),
        )
    if card.effect == "refresh":
        return say_plural(
            "The card {card}: {count} point, and its refresh replaces the other face-up cards "
            "with new ones from the deck.",
            "The card {card}: {count} points, and its refresh replaces the other face-up cards "
            "with new ones from the deck.",
            card.points,
            card=said,
        )
    scores = [_score(owned[s], hands[s]) for s in range(state.seats)]
    counts = [len(owned[s]) for s in range(state.seats)]
    rival = _rival(scores, counts, seat)
    margin = scores[seat] - scores[rival]
    if margin > 0:
        return say_plural(
            "The card {card}: it brings you to {score} points, {count} point ahead of {seat}.",
            "The card {card}: it brings you to {score} points, {count} points ahead of {seat}.",
            margin,
            card=said,
            score=scores[seat],
            seat=seat_arg(rival),
        )
    lost = _leftover(state.hands[seat]) - _leftover(hand)
    return say_plural(
        "The card {card}: {count} point for tiles that would score only {lost} as leftovers.",
        "The card {card}: {count} points for tiles that would score only {lost} as leftovers.",
        card.points,
        card=said,
        lost=lost,
    )


def _end_turn(state: st.JejuState, seat: int) -> Msg | None:
    hand = state.hands[seat]
    cards = rules.affordable_cards(state, seat)
    if not cards:
        return None
    best = max(cards, key=lambda c: (card_gain(state, seat, c), card_key(c)))
    if card_gain(state, seat, best) <= 0:
        return say_plural(
            "Ends the turn and keeps your {count} tile: the best card left, {card}, scores no more than "
            "its tiles are worth kept in hand.",
            "Ends the turn and keeps your {count} tiles: the best card left, {card}, scores no more than "
            "its tiles are worth kept in hand.",
            sum(hand),
            card=card_say(CARDS[best]),
        )
    return say_plural(
        "Ends the turn keeping {count} tile in hand for the cards still to come.",
        "Ends the turn keeping {count} tiles in hand for the cards still to come.",
        sum(hand),
    )


def _pay(state: st.JejuState, seat: int, tiles: tuple[int, ...]) -> Msg:
    hand = state.hands[seat]
    kept = tuple(h - p for h, p in zip(hand, tiles, strict=True))
    paid = _tiles(tiles)
    if kept[JOKER]:
        return say(
            "Pays {tiles} and keeps your {count} Haenyeo, which can stand in for any tile later.",
            count=kept[JOKER],
            tiles=paid,
        )
    fewest = min(p[JOKER] for p in rules.seat_payments(state, seat, state.pending_card))
    if tiles[JOKER] and tiles[JOKER] == fewest:
        return say_plural(
            "Pays {tiles}: the Haenyeo stands in for a tile your hand lacks.",
            "Pays {tiles}: the {count} Haenyeo stand in for tiles your hand lacks.",
            tiles[JOKER],
            tiles=paid,
        )
    if not any(kept):
        return say("Pays {tiles}, which empties your hand.", tiles=paid)
    return say("Pays {tiles} and keeps {kept} in hand.", tiles=paid, kept=_tiles(kept))


# --- Harubang bonus and setup ----------------------------------------------------------


def _harubang(state: st.JejuState, seat: int, spot: int) -> Msg | None:
    stack = state.stacks[spot]
    if not stack:
        return None
    tile = stack[-1]
    hand = state.hands[seat]
    waive = rules.waivers(state.owned[seat])
    if tile != JOKER and tile_use(state, seat, tile) >= 1.0:
        needing = [
            c
            for c in state.display
            if CARDS[c].need[tile] > waive[tile] + hand[tile] and not rules.can_afford(c, hand, waive)
        ]
        best = max(needing, key=card_key)
        return say(
            "Takes the {tile} at location {spot}: the card {card} still needs it.",
            tile=_tile(tile),
            spot=spot + 1,
            card=card_say(CARDS[best]),
        )
    if tile == JOKER:
        return say("Takes the Haenyeo at location {spot}: it can pay for any space on a card.", spot=spot + 1)
    tokens = state.tokens[spot]
    if spot != state.harubang and tokens and tokens[-1] == seat:
        return say(
            "Moves the Harubang to location {spot}, where your token is on top, and takes the {tile} "
            "there: while you stay on top, every collecting there earns you the bonus.",
            spot=spot + 1,
            tile=_tile(tile),
        )
    return say(
        "Takes the {tile} at location {spot}: one more leftover tile, and every two score a point.",
        tile=_tile(tile),
        spot=spot + 1,
    )


def _place_token(state: st.JejuState, seat: int, spot: int) -> Msg | None:
    stack = state.stacks[spot]
    if not stack:
        return None
    return say_plural(
        "Puts your token on top at location {spot}, where the top tile is {tile} and only {count} token "
        "stood before.",
        "Puts your token on top at location {spot}, where the top tile is {tile} and only {count} tokens "
        "stood before.",
        len(state.tokens[spot]),
        spot=spot + 1,
        tile=_tile(stack[-1]),
    )


def _place_harubang(state: st.JejuState, seat: int, spot: int) -> Msg | None:
    tokens = state.tokens[spot]
    if not tokens or tokens[-1] != seat:
        return None
    return say(
        "Puts the Harubang at location {spot}, where your token is on top: the first collecting there "
        "earns you the bonus.",
        spot=spot + 1,
    )
