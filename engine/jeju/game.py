"""Jeju Island behind the engine contract (`engine.base.Game`)."""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar

from engine.base import Event, Game, IllegalAction, Result, listing, plural
from engine.jeju import rules, scoring, setup
from engine.jeju import state as st
from engine.jeju import view as views
from engine.jeju.components import CARDS, JOKER, LOCATIONS, TILE_LABELS, card_text
from engine.jeju.state import JejuState

SELECT_LIMIT = 25


@lru_cache(maxsize=1024)
def payment_groups(options: tuple[tuple[int, ...], ...]) -> dict[tuple[int, ...], str]:
    """Menu names for payments: one "Pay for the card" menu, or menus by Haenyeo used.

    A select holds 25 options, so a longer list (fewest jokers first) is cut into
    runs of 25, each named for the numbers of Haenyeo jokers it uses; four menus
    hold 100 payments, more than any card offers (checked in tests/test_jeju_data.py).
    """
    if len(options) <= SELECT_LIMIT:
        return dict.fromkeys(options, "Pay for the card")
    chunks = [options[i : i + SELECT_LIMIT] for i in range(0, len(options), SELECT_LIMIT)]
    spans = [(chunk[0][JOKER], chunk[-1][JOKER]) for chunk in chunks]
    names: dict[tuple[int, ...], str] = {}
    for number, (chunk, (low, high)) in enumerate(zip(chunks, spans, strict=True), 1):
        used = f"{low}" if low == high else f"{low}-{high}"
        name = f"Pay using {used} Haenyeo"
        if spans.count((low, high)) > 1:
            name += f" ({spans[:number].count((low, high))})"
        names.update(dict.fromkeys(chunk, name))
    return names


def travel_label(state: JejuState, action: st.Travel) -> str:
    """A Travel in words, every drop listed: "drop the bottom-most piece ... until none are left".

    A stack of six or more comes back round past its own space, so the list says
    where each token lands, e.g. "Move the 7-token stack at 1 right (drops on 2, 3,
    4, 5, 6, 1, 2)"; the longest stacks drop the spaces to stay within 80 characters.
    """
    count = len(state.tokens[action.spot])
    step = st.DIRECTIONS[action.direction]
    drops = [str((action.spot + step * n) % LOCATIONS + 1) for n in range(1, count + 1)]
    head = f"Move the {count}-token stack at {action.spot + 1} {action.direction} (drops on "
    text = head + ", ".join(drops) + ")"
    return text if len(text) <= 80 else head + ",".join(drops) + ")"


class JejuGame(Game):
    """Jeju Island for 2 to 4 seats: travel around the ring, collect tiles, buy point cards."""

    key = "jeju"
    title = "Jeju Island"
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
        return frozenset() if seat < 0 else frozenset((seat,))

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
        if action not in legal:
            raise IllegalAction(rules.explain_illegal(state, seat, action))
        events: list[Event] = []
        state = rules.apply_one(state, seat, action, events)
        # Where only one option exists, the engine takes it itself.
        while True:
            actor = rules.to_act(state)
            if actor < 0:
                break
            options = rules.legal_actions(state, actor)
            if len(options) != 1:
                self._memo = (state, actor, options)
                break
            state = rules.apply_one(state, actor, options[0], events)
        return state, events

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
        return st.dump_action(action)

    def load_action(self, data: dict) -> object:
        return st.load_action(data)

    # --- words for the UI ----------------------------------------------------

    def action_label(self, state: JejuState, seat: int, action: object) -> str:
        kind = type(action)
        if kind is st.Travel:
            text = travel_label(state, action)
        elif kind is st.MoveHarubang:
            verb = "Keep the Harubang at" if action.spot == state.harubang else "Move the Harubang to"
            stack = state.stacks[action.spot]
            gain = f"take {TILE_LABELS[stack[-1]]}" if stack else "no tile left"
            text = f"{verb} {action.spot + 1}: {gain}"
        elif kind is st.TakeCard:
            text = f"Take card: {card_text(CARDS[action.card])}"
        elif kind is st.Pay:
            parts = [
                TILE_LABELS[t] if n == 1 else f"{n} {TILE_LABELS[t]}" for t, n in enumerate(action.tiles) if n
            ]
            text = "Pay " + " + ".join(parts) if parts else "Pay nothing"
        elif kind is st.Back:
            text = "Back: choose another card"
        elif kind is st.EndTurn:
            text = "End my turn"
        elif kind is st.PlaceToken:
            there = len(state.tokens[action.spot])
            text = f"Place a token at {action.spot + 1} ({there} token{'s' if there != 1 else ''} there)"
        elif kind is st.PlaceHarubang:
            text = f"Put the Harubang at {action.spot + 1}"
        else:
            text = str(action)
        return text[:80]

    def action_group(self, state: JejuState, seat: int, action: object) -> str:
        kind = type(action)
        if kind is st.Travel:
            return "Travel"
        if kind is st.TakeCard:
            return "Take a point card"
        if kind is st.Pay:
            options = rules.seat_payments(state, seat, state.pending_card)
            return payment_groups(options).get(action.tiles, "Pay for the card")
        if kind is st.Back:
            return "Turn"
        if kind is st.MoveHarubang:
            return "Harubang bonus"
        if kind is st.EndTurn:
            return "Turn"
        return "Setup"

    def summary(self, state: JejuState) -> str:
        board = sum(len(s) for s in state.stacks)
        if state.phase == st.FINISHED:
            res = scoring.result(state)
            best = listing([f"Seat {s + 1}" for s in sorted(res.winners)])
            why = "tiles gone" if state.end_reason == "tiles" else "deck empty"
            scores = ", ".join(f"Seat {s + 1} {res.scores[s]}" for s in range(state.seats))
            winners = "Winners" if len(res.winners) > 1 else "Winner"
            return f"Game over ({why}). {winners}: {best}. Scores: {scores}."
        actor = rules.to_act(state)
        doing = {
            st.SETUP_TOKENS: "places tokens",
            st.SETUP_HARUBANG: "places the Harubang",
            st.TURN: "travels or takes a card",
            st.PAY: "chooses how to pay",
            st.BUYING: "may take another card",
            st.HARUBANG: "takes the Harubang bonus",
        }[state.phase]
        scores = ", ".join(f"Seat {s + 1}: {scoring.score(state, s)}" for s in range(state.seats))
        return (
            f"Turn {state.turn}: Seat {actor + 1} {doing}. "
            f"{plural(board, 'tile')} on the board, {plural(len(state.deck), 'card')} in the deck.\n{scores}"
        )


GAME = JejuGame()
