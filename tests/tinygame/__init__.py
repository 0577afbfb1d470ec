"""Take-away, a tiny game that honours the engine contract.

It exists only so the lobby, the service and the store can be tested without
depending on a real game's rules. 2–4 players take 1–3 stones in turn from a
pile of 10 + seed % 5; whoever takes the last stone wins.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from engine.base import Game, IllegalAction, Result, places_from_scores


@dataclass(frozen=True)
class Take:
    """Take this many stones."""

    count: int


@dataclass(frozen=True)
class State:
    """The pile, whose turn it is, and who took the last stone."""

    seats: int
    pile: int
    turn: int
    taken: tuple[int, ...]
    winner: int | None = None


class TakeAway(Game):
    """The tiny test game."""

    key = "takeaway"
    title = "Take-away (test game)"
    min_seats = 2
    max_seats = 4
    options: ClassVar[dict[str, tuple[str, ...]]] = {"pile": ("normal", "short")}

    def new(self, seats: int, seed: int, options: dict | None = None) -> State:
        pile = (10 if (options or {}).get("pile", "normal") == "normal" else 4) + seed % 5
        return State(seats=seats, pile=pile, turn=0, taken=(0,) * seats)

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state.winner is not None else frozenset({state.turn})

    def legal_actions(self, state: State, seat: int) -> list[Take]:
        if seat not in self.to_act(state):
            return []
        return [Take(n) for n in range(1, min(3, state.pile) + 1)]

    def apply(self, state: State, seat: int, action: Take) -> tuple[State, list[dict]]:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("You cannot take that many stones now.")
        taken = list(state.taken)
        taken[seat] += action.count
        pile = state.pile - action.count
        winner = seat if pile == 0 else None
        new = replace(state, pile=pile, turn=(seat + 1) % state.seats, taken=tuple(taken), winner=winner)
        events = [{"type": "take", "seat": seat, "text": f"Seat {seat + 1} took {action.count}."}]
        return new, events

    def view(self, state: State, seat: int | None) -> dict:
        return {
            "phase": "over" if state.winner is not None else "take",
            "pile": state.pile,
            "seats": state.seats,
        }

    def result(self, state: State) -> Result | None:
        if state.winner is None:
            return None
        scores = tuple(1 if s == state.winner else 0 for s in range(state.seats))
        return Result(
            scores=scores,
            ranking=places_from_scores([(s,) for s in scores]),
            winners=frozenset({state.winner}),
            breakdown=tuple({"last stone": s} for s in scores),
        )

    def dump_state(self, state: State) -> dict:
        return {
            "seats": state.seats,
            "pile": state.pile,
            "turn": state.turn,
            "taken": list(state.taken),
            "winner": state.winner,
        }

    def load_state(self, data: dict) -> State:
        return State(data["seats"], data["pile"], data["turn"], tuple(data["taken"]), data["winner"])

    def dump_action(self, action: Take) -> dict:
        return {"take": action.count}

    def load_action(self, data: dict) -> Take:
        try:
            return Take(int(data["take"]))
        except (KeyError, TypeError, ValueError) as error:
            raise IllegalAction("That is not a move of this game.") from error

    def action_label(self, state: State, seat: int, action: Take, lang: str = "en") -> str:
        # A test game: English only (outside the catalogs).
        return f"Take {action.count}"

    def summary(self, state: State, lang: str = "en") -> str:
        return f"{state.pile} stones left."


GAME = TakeAway()
