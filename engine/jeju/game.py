"""Jeju Island behind the engine contract (`engine.base.Game`)."""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar

import i18n
from engine.base import Event, Game, IllegalAction, Result, listing
from engine.jeju import actions as A
from engine.jeju import rules, scoring, setup
from engine.jeju import state as st
from engine.jeju import view as views
from engine.jeju.components import CARDS, JOKER, LOCATIONS, TILE_LABELS, card_say
from engine.jeju.state import JejuState

N_ = i18n.N_
SELECT_LIMIT = 25
#: `to_act`'s answer per seat, made once (frozensets never change).
_ACTORS = tuple(frozenset((seat,)) for seat in range(4))
_NOBODY: frozenset[int] = frozenset()

#: Menu names for payments (`payment_groups`), by the numbers of Haenyeo jokers a menu's
#: payments use: (fewest, most). A card costs at most five tiles, so at most five jokers.
PAY_MENUS: dict[tuple[int, int], str] = {
    (0, 0): N_("Pay using 0 Haenyeo"),
    (0, 1): N_("Pay using 0-1 Haenyeo"),
    (0, 2): N_("Pay using 0-2 Haenyeo"),
    (0, 3): N_("Pay using 0-3 Haenyeo"),
    (0, 4): N_("Pay using 0-4 Haenyeo"),
    (0, 5): N_("Pay using 0-5 Haenyeo"),
    (1, 1): N_("Pay using 1 Haenyeo"),
    (1, 2): N_("Pay using 1-2 Haenyeo"),
    (1, 3): N_("Pay using 1-3 Haenyeo"),
    (1, 4): N_("Pay using 1-4 Haenyeo"),
    (1, 5): N_("Pay using 1-5 Haenyeo"),
    (2, 2): N_("Pay using 2 Haenyeo"),
    (2, 3): N_("Pay using 2-3 Haenyeo"),
    (2, 4): N_("Pay using 2-4 Haenyeo"),
    (2, 5): N_("Pay using 2-5 Haenyeo"),
    (3, 3): N_("Pay using 3 Haenyeo"),
    (3, 4): N_("Pay using 3-4 Haenyeo"),
    (3, 5): N_("Pay using 3-5 Haenyeo"),
    (4, 4): N_("Pay using 4 Haenyeo"),
    (4, 5): N_("Pay using 4-5 Haenyeo"),
    (5, 5): N_("Pay using 5 Haenyeo"),
}
PAY_FOR_CARD = N_("Pay for the card")


@lru_cache(maxsize=1024)
def payment_groups(options: tuple[tuple[int, ...], ...]) -> dict[tuple[int, ...], str]:
    """Menu names for payments: one "Pay for the card" menu, or menus by Haenyeo used.

    A select holds 25 options, so a longer list (fewest jokers first) is cut into
    runs of 25, each named for the numbers of Haenyeo jokers it uses; four menus
    hold 100 payments, more than any card offers (checked in tests/engine/test_jeju_data.py).
    """
    if len(options) <= SELECT_LIMIT:
        return dict.fromkeys(options, PAY_FOR_CARD)
    chunks = [options[i : i + SELECT_LIMIT] for i in range(0, len(options), SELECT_LIMIT)]
    spans = [(chunk[0][JOKER], chunk[-1][JOKER]) for chunk in chunks]
    names: dict[tuple[int, ...], str] = {}
    for number, (chunk, (low, high)) in enumerate(zip(chunks, spans, strict=True), 1):
        used = f"{low}" if low == high else f"{low}-{high}"
        name = PAY_MENUS.get((low, high)) or f"Pay using {used} Haenyeo"
        if spans.count((low, high)) > 1:  # never seen: this name is not in the catalog
            name += f" ({spans[:number].count((low, high))})"
        names.update(dict.fromkeys(chunk, name))
    return names


def travel_label(state: JejuState, action: A.Travel, lang: str = i18n.SOURCE) -> str:
    """A Travel in words, every drop listed: "drop the bottom-most piece ... until none are left".

    A stack of six or more comes back round past its own space, so the list says
    where each token lands, e.g. "Move the 7-token stack at 1 right (drops on 2, 3,
    4, 5, 6, 1, 2)"; the longest stacks drop the spaces to stay within 80 characters.
    """
    t = i18n.words(lang)
    count = len(state.tokens[action.spot])
    step = A.DIRECTIONS[action.direction]
    drops = [str((action.spot + step * n) % LOCATIONS + 1) for n in range(1, count + 1)]

    def label(separator: str) -> str:
        if action.direction == "left":
            return t(
                "Move the {count}-token stack at {spot} left (drops on {drops})",
                count=count,
                spot=action.spot + 1,
                drops=separator.join(drops),
            )
        return t(
            "Move the {count}-token stack at {spot} right (drops on {drops})",
            count=count,
            spot=action.spot + 1,
            drops=separator.join(drops),
        )

    text = label(", ")
    return text if len(text) <= 80 else label(",")


class JejuGame(Game):
    """Jeju Island for 2 to 4 seats: travel around the ring, collect tiles, buy point cards."""

    key = "jeju"
    title = N_("Jeju Island")
    min_seats = 2
    max_seats = 4
    options: ClassVar[dict[str, tuple[str, ...]]] = {}
    labels: ClassVar[dict[str, dict[str, str]]] = scoring.LABELS

    def __init__(self) -> None:
        # One-entry memo: a bot asks legal_actions(state) and then apply(state) on the same object.
        self._memo: tuple = (None, -2, [])

    # --- the contract ------------------------------------------------------

    def new(self, seats: int, seed: int, options: dict | None = None) -> JejuState:
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError(f"Jeju Island is for {self.min_seats} to {self.max_seats} players, not {seats}")
        if options:
            unknown = ", ".join(sorted(options))
            raise ValueError(f"Jeju Island has no table options (got {unknown})")
        return setup.new_state(seats, seed)

    def to_act(self, state: JejuState) -> frozenset[int]:
        seat = rules.to_act(state)
        return _NOBODY if seat < 0 else _ACTORS[seat]

    def legal_actions(self, state: JejuState, seat: int) -> list:
        memo_state, memo_seat, memo_actions = self._memo
        if memo_state is state and memo_seat == seat:
            return list(memo_actions)
        actions = rules.legal_actions(state, seat)
        self._memo = (state, seat, actions)
        return list(actions)

    def apply(self, state: JejuState, seat: int, action: object) -> tuple[JejuState, list[Event]]:
        memo_state, memo_seat, memo_actions = self._memo
        if memo_state is state and memo_seat == seat:
            legal = memo_actions
        else:
            legal = rules.legal_actions(state, seat)
        # A bot hands back one of the very actions listed: found by identity before any `==`
        # (a dataclass's own, written in Python, would run for every action listed before it).
        for listed in legal:
            if listed is action:
                break
        else:
            if action not in legal:
                raise IllegalAction(rules.explain_illegal(state, seat, action))
        events: list[Event] = []
        return self._play(state, seat, action, events), events

    def advance(self, state: JejuState, seat: int, action: object) -> JejuState:
        """`apply` for search play-outs: no legality check and no events at all (see `Game.advance`)."""
        return self._play(state, seat, action, None)

    def _play(self, state: JejuState, seat: int, action: object, events: list[Event] | None) -> JejuState:
        """Apply a legal action, then every move that is the only option (the engine takes it)."""
        state = rules.apply_one(state, seat, action, events)
        while True:
            actor = rules.to_act(state)
            if actor < 0:
                break
            options = rules.legal_actions(state, actor)
            if len(options) != 1:
                self._memo = (state, actor, options)
                break
            state = rules.apply_one(state, actor, options[0], events)
        return state

    def view(self, state: JejuState, seat: int | None) -> dict:
        return views.view(state, seat)

    def result(self, state: JejuState) -> Result | None:
        found = scoring.result(state)
        return self.labelled(found) if found is not None else None

    def dump_state(self, state: JejuState) -> dict:
        return st.dump_state(state)

    def load_state(self, data: dict) -> JejuState:
        return st.load_state(data)

    def dump_action(self, action: object) -> dict:
        return A.dump_action(action)

    def load_action(self, data: dict) -> object:
        return A.load_action(data)

    # --- words for the UI ----------------------------------------------------

    def action_label(self, state: JejuState, seat: int, action: object, lang: str = i18n.SOURCE) -> str:
        t = i18n.words(lang)
        kind = type(action)
        if kind is A.Travel:
            text = travel_label(state, action, lang)
        elif kind is A.MoveHarubang:
            stack = state.stacks[action.spot]
            spot = action.spot + 1
            if action.spot == state.harubang:
                if stack:
                    text = t(
                        "Keep the Harubang at {spot}: take {tile}", spot=spot, tile=t(TILE_LABELS[stack[-1]])
                    )
                else:
                    text = t("Keep the Harubang at {spot}: no tile left", spot=spot)
            elif stack:
                text = t(
                    "Move the Harubang to {spot}: take {tile}", spot=spot, tile=t(TILE_LABELS[stack[-1]])
                )
            else:
                text = t("Move the Harubang to {spot}: no tile left", spot=spot)
        elif kind is A.TakeCard:
            text = t("Take card: {card}", card=t.msg(card_say(CARDS[action.card])))
        elif kind is A.Pay:
            parts = [
                t(TILE_LABELS[tile]) if n == 1 else t("{count} {tile}", count=n, tile=t(TILE_LABELS[tile]))
                for tile, n in enumerate(action.tiles)
                if n
            ]
            text = t("Pay {tiles}", tiles=" + ".join(parts)) if parts else t("Pay nothing")
        elif kind is A.Back:
            text = t("Back: choose another card")
        elif kind is A.EndTurn:
            text = t("End my turn")
        elif kind is A.PlaceToken:
            there = len(state.tokens[action.spot])
            text = t.plural(
                "Place a token at {spot} ({count} token there)",
                "Place a token at {spot} ({count} tokens there)",
                there,
                spot=action.spot + 1,
            )
        elif kind is A.PlaceHarubang:
            text = t("Put the Harubang at {spot}", spot=action.spot + 1)
        else:
            text = str(action)
        return text[:80]

    def action_group(self, state: JejuState, seat: int, action: object) -> str:
        kind = type(action)
        if kind is A.Travel:
            return N_("Travel")
        if kind is A.TakeCard:
            return N_("Take a point card")
        if kind is A.Pay:
            options = rules.seat_payments(state, seat, state.pending_card)
            return payment_groups(options).get(action.tiles, PAY_FOR_CARD)
        if kind is A.Back:
            return N_("Turn")
        if kind is A.MoveHarubang:
            return N_("Harubang bonus")
        if kind is A.EndTurn:
            return N_("Turn")
        return N_("Setup")

    def summary(self, state: JejuState, lang: str = i18n.SOURCE) -> str:
        t = i18n.words(lang)

        def seat_name(seat: int) -> str:
            return t(i18n.SEAT_NAME, number=seat + 1)

        board = sum(len(s) for s in state.stacks)
        if state.phase == st.FINISHED:
            res = scoring.result(state)
            names = [seat_name(s) for s in sorted(res.winners)]
            best = listing(names) if t.lang == i18n.SOURCE else t.join(names)
            why = t("tiles gone") if state.end_reason == "tiles" else t("deck empty")
            scores = ", ".join(
                t("{seat} {points}", seat=seat_name(s), points=res.scores[s]) for s in range(state.seats)
            )
            return t.plural(
                "Game over ({why}). Winner: {best}. Scores: {scores}.",
                "Game over ({why}). Winners: {best}. Scores: {scores}.",
                len(res.winners),
                why=why,
                best=best,
                scores=scores,
            )
        actor = seat_name(rules.to_act(state))
        turn = state.turn
        if state.phase == st.SETUP_TOKENS:
            doing = t("Setup: {seat} places tokens.", seat=actor)
        elif state.phase == st.SETUP_HARUBANG:
            doing = t("Setup: {seat} places the Harubang.", seat=actor)
        elif state.phase == st.TURN:
            doing = t("Turn {turn}: {seat} travels or takes a card.", turn=turn, seat=actor)
        elif state.phase == st.PAY:
            doing = t("Turn {turn}: {seat} chooses how to pay.", turn=turn, seat=actor)
        elif state.phase == st.BUYING:
            doing = t("Turn {turn}: {seat} may take another card.", turn=turn, seat=actor)
        else:
            doing = t("Turn {turn}: {seat} takes the Harubang bonus.", turn=turn, seat=actor)
        left = t(
            "{tiles} on the board, {cards} in the deck.",
            tiles=t.plural("{count} tile", "{count} tiles", board),
            cards=t.plural("{count} card", "{count} cards", len(state.deck)),
        )
        scores = ", ".join(
            t("{seat}: {points}", seat=seat_name(s), points=scoring.score(state, s))
            for s in range(state.seats)
        )
        return f"{doing} {left}\n{scores}"


GAME = JejuGame()
