"""A readable text form of a Jeju Island game, for logs and test failures (as `engine.reef.text`).

`view_text(view)` reads only what `engine.jeju.view` puts in a view, so it can never
show a secret the view does not already carry. `describe(state)` is that text for
the public view of a state; with ``secrets=True`` it adds what no seat may see (the
deck's order and every tile under each top), for a test's failure message or a
developer's log, never for a player. Every word goes through the catalog: pass
``lang`` (a code of `i18n.LANGUAGES`) for another language than English.

    Jeju Island — Turn 12: Seat 2 travels or takes a card.
    41 tiles on the board, 18 cards in the deck.
      1: tokens neutral, Seat 1, Seat 2 (bottom to top), Orange on top of 7, Harubang
      ...
    Point cards: 3 pts for 2 Fish + Cactus; ...
    Seat 1: 12 points (10 for cards, 2 for leftover tiles)
      tiles in hand: 1 Orange, 3 Fish
      cards taken: 4 pts for Orange + Cactus + any; ...
"""

from __future__ import annotations

import i18n
from engine.base import listing
from engine.jeju.components import CARDS, TILE_LABELS, TILES, card_say
from engine.jeju.state import JejuState
from engine.jeju.view import view as public_view

N_ = i18n.N_
#: A tile type's key -> its short word, as card costs say it ("Orange", "Haenyeo").
LABELS = {tile.key: TILE_LABELS[tile.index] for tile in TILES}

#: What the seat to act is doing, by phase (the same words as `JejuGame.summary`).
DOING = {
    "setup_tokens": N_("Setup: {seat} places tokens."),
    "setup_harubang": N_("Setup: {seat} places the Harubang."),
    "turn": N_("Turn {turn}: {seat} travels or takes a card."),
    "pay": N_("Turn {turn}: {seat} chooses how to pay."),
    "buying": N_("Turn {turn}: {seat} may take another card."),
    "harubang": N_("Turn {turn}: {seat} takes the Harubang bonus."),
}


def _seat(t: i18n.Words, seat: int) -> str:
    return t(i18n.SEAT_NAME, number=seat + 1)


def _cards(t: i18n.Words, cards: list[dict]) -> str:
    return "; ".join(t.msg(card["say"]) for card in cards) or t("none")


def _status(t: i18n.Words, view: dict) -> str:
    """The first line's news: who does what now, or how the game ended and the scores."""
    if view["phase"] == "finished":
        result = view["result"]
        names = [_seat(t, s) for s in result["winners"]]
        best = listing(names) if t.lang == i18n.SOURCE else t.join(names)
        why = t("tiles gone") if view["end_reason"] == "tiles" else t("deck empty")
        scores = ", ".join(
            t("{seat} {points}", seat=_seat(t, s), points=points) for s, points in enumerate(result["scores"])
        )
        return t.plural(
            "Game over ({why}). Winner: {best}. Scores: {scores}.",
            "Game over ({why}). Winners: {best}. Scores: {scores}.",
            len(names),
            why=why,
            best=best,
            scores=scores,
        )
    return t(DOING[view["phase"]], turn=view["turn"], seat=_seat(t, view["to_act"][0]))


def _location(t: i18n.Words, place: dict) -> str:
    tokens = ", ".join(t("neutral") if owner < 0 else _seat(t, owner) for owner in place["tokens"])
    if place["top_tile"]:
        tile = t("{tile} on top of {count}", tile=t(LABELS[place["top_tile"]]), count=place["tiles_left"])
    else:
        tile = t("no tiles")
    number, tokens = place["index"] + 1, tokens or t("none")
    if place["harubang"]:
        return t(
            "{number}: tokens {tokens} (bottom to top), {tile}, Harubang",
            number=number,
            tokens=tokens,
            tile=tile,
        )
    return t("{number}: tokens {tokens} (bottom to top), {tile}", number=number, tokens=tokens, tile=tile)


def _player(t: i18n.Words, player: dict) -> list[str]:
    held = ", ".join(
        t("{count} {tile}", count=count, tile=t(LABELS[key]))
        for key, count in player["tiles"].items()
        if count
    )
    who = _seat(t, player["seat"])
    lines = [
        t.plural(
            "{seat}: {count} point ({cards} for cards, {tiles} for leftover tiles)",
            "{seat}: {count} points ({cards} for cards, {tiles} for leftover tiles)",
            player["score"],
            seat=who,
            cards=player["card_points"],
            tiles=player["tile_points"],
        ),
        "  " + t("tiles in hand: {tiles}", tiles=held or t("none")),
        "  " + t("cards taken: {cards}", cards=_cards(t, player["cards"])),
    ]
    if player["everlasting"]:
        lasting = ", ".join(t(LABELS[key]) for key in player["everlasting"])
        lines.append("  " + t("Everlasting: {tiles}.", tiles=lasting))
    return lines


def view_text(view: dict, lang: str = i18n.SOURCE) -> str:
    """Several lines describing a Jeju Island view (any audience's), in ``lang``."""
    t = i18n.words(lang)
    lines = [
        t("Jeju Island — {status}", status=_status(t, view)),
        t(
            "{tiles} on the board, {cards} in the deck.",
            tiles=t.plural("{count} tile", "{count} tiles", view["tiles_on_board"]),
            cards=t.plural("{count} card", "{count} cards", view["deck_size"]),
        ),
    ]
    lines.extend("  " + _location(t, place) for place in view["locations"])
    lines.append(t("Point cards: {cards}.", cards=_cards(t, view["display"])))
    if view["removed"]:
        lines.append(t("Removed by Card Refresh: {cards}.", cards=_cards(t, view["removed"])))
    pending = view["pending"]
    if pending and "card" in pending:
        lines.append(
            t(
                "{seat} is paying for the card {card}.",
                seat=_seat(t, pending["seat"]),
                card=t.msg(pending["card"]["say"]),
            )
        )
    for player in view["players"]:
        lines.extend(_player(t, player))
    return "\n".join(lines)


def describe(state: JejuState, *, secrets: bool = False, lang: str = i18n.SOURCE) -> str:
    """The table as everyone sees it (`view_text` of the public view), in ``lang``.

    ``secrets=True`` adds what no seat sees: the deck, next card first, and every
    location's whole stack of tiles. Only for tests and developers' logs.
    """
    text = view_text(public_view(state, None), lang)
    if not secrets:
        return text
    t = i18n.words(lang)
    deck = "; ".join(t.msg(card_say(CARDS[card])) for card in state.deck) or t("none")
    lines = [text, t("Hidden, the deck (next card first): {cards}", cards=deck)]
    for spot, stack in enumerate(state.stacks):
        tiles = ", ".join(t(TILE_LABELS[tile]) for tile in stack) or t("no tiles")
        lines.append(t("Hidden, location {spot} (bottom to top): {tiles}", spot=spot + 1, tiles=tiles))
    return "\n".join(lines)
