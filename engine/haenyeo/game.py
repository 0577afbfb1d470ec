"""Haenyeo behind the shared engine contract (`engine.base.Game`)."""

from __future__ import annotations

from typing import Any

from engine.base import Event, Game, IllegalAction, Result, listing, load_labels, places_from_scores, plural
from engine.haenyeo import actions as A
from engine.haenyeo import rules
from engine.haenyeo import state as S
from engine.haenyeo.components import FREE, C, slot_text
from engine.haenyeo.rules import PEND_HARVEST, PEND_SEAFOOD, PEND_TRASH, PEND_ZONE0, name
from engine.haenyeo.scoring import final_breakdown
from engine.haenyeo.setup import TILE_OPTION, new_state
from engine.haenyeo.state import State
from engine.haenyeo.view import build_view

_EMPTY: tuple[tuple[A.Action, ...], frozenset[A.Action]] = ((), frozenset())


class Haenyeo(Game):
    """Haenyeo: Sea Divers of Jeju, 2 to 5 players (2 players with the NPC)."""

    key = "haenyeo"
    title = "Haenyeo: Sea Divers of Jeju"
    min_seats = 2
    max_seats = 5
    options = {"score_tile": TILE_OPTION}  # noqa: RUF012 - the contract declares a class-level dict
    labels = load_labels("haenyeo")

    # -------------------------------------------------------------- core

    def new(self, seats: int, seed: int, options: dict | None = None) -> State:
        return new_state(seats, seed, options)

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase == "select":
            return frozenset(s for s in range(state.seats) if not state.confirmed[s])
        if state.phase == "actions" and state.pending:
            return frozenset((state.pending[1],))
        return frozenset()

    def _legal(self, state: State, seat: int) -> tuple[tuple[A.Action, ...], frozenset[A.Action]]:
        cache = state.__dict__.get("_legal")
        if cache is None:
            cache = state.__dict__["_legal"] = {}
        found = cache.get(seat)
        if found is None:
            options = rules.legal(state, seat) if isinstance(seat, int) else ()
            found = cache[seat] = (options, frozenset(options)) if options else _EMPTY
        return found

    def legal_actions(self, state: State, seat: int) -> list[A.Action]:
        return list(self._legal(state, seat)[0])

    def apply(self, state: State, seat: int, action: A.Action) -> tuple[State, list[Event]]:
        options, allowed = self._legal(state, seat)
        try:
            ok = action in allowed
        except TypeError:  # unhashable junk
            ok = False
        if not ok:
            raise IllegalAction(self._why_not(state, seat, action, options))
        return rules.apply(state, seat, action)

    def _why_not(self, state: State, seat: int, action: Any, options: tuple) -> str:
        if state.phase == "end":
            return "The game is over."
        if not isinstance(seat, int) or not 0 <= seat < state.seats:
            return "You are not playing in this game."
        if not options:
            if state.phase == "actions" and state.pending:
                return f"It is {name(state.pending[1])}'s turn, not yours."
            return "You have nothing to do right now."
        if state.phase == "select":
            if isinstance(action, A.ToggleCard):
                return (
                    f"You already have {state.pawns[seat]} cards selected: put one back first."
                    if 0 <= action.zone < 12
                    else "There is no such diving card."
                )
            if isinstance(action, A.Confirm):
                return f"Select exactly {state.pawns[seat]} diving cards before confirming."
            return "Now is the time to choose your diving cards."
        if isinstance(action, A.Harvest):
            return "That slot is not free to harvest."
        return "That is not one of your choices right now."

    # -------------------------------------------------------------- views

    def view(self, state: State, seat: int | None) -> dict:
        to_act = sorted(self.to_act(state))
        result = self.result(state)
        return build_view(state, seat, to_act, result.to_dict() if result else None)

    def result(self, state: State) -> Result | None:
        if state.phase != "end":
            return None
        tile = C.tiles[state.tile]
        breakdown = tuple(
            final_breakdown(
                tile, state.scores[s], state.eggs[s], state.eggs_used[s], state.pearls[s], state.trash[s]
            )
            for s in range(state.seats)
        )
        scores = tuple(b["total"] for b in breakdown)
        # Highest total wins; tie: higher trash score; still tied: shared victory.
        keys = [(b["total"], b["trash"]) for b in breakdown]
        ranking = places_from_scores(keys)
        winners = frozenset(s for s in range(state.seats) if ranking[s] == 1)
        notes: list[str] = []
        top = max(scores)
        if sum(1 for s in scores if s == top) > 1:
            if len(winners) == 1:
                notes.append("Tied on points: the higher trash score wins.")
            else:
                notes.append("Tied on points and trash: the victory is shared.")
        return self.labelled(
            Result(scores=scores, ranking=ranking, winners=winners, breakdown=breakdown, notes=tuple(notes))
        )

    # -------------------------------------------------------------- JSON

    def dump_state(self, state: State) -> dict:
        return S.dump(state)

    def load_state(self, data: dict) -> State:
        return S.load(data)

    def dump_action(self, action: A.Action) -> dict:
        return A.dump(action)

    def load_action(self, data: dict) -> A.Action:
        return A.load(data)

    # -------------------------------------------------------------- words

    def action_label(self, state: State, seat: int, action: A.Action) -> str:
        if isinstance(action, A.ToggleCard):
            if 0 <= seat < state.seats and state.chosen[seat] >> action.zone & 1:
                return f"Put back card {action.zone}"
            creature = C.creatures[action.zone] if 0 <= action.zone < 12 else None
            extra = f" ({C.creature_names[creature]} to zone {action.zone - 1})" if creature else ""
            return f"Dive to zone {action.zone}{extra}"
        if isinstance(action, A.Confirm):
            count = state.pawns[seat] if 0 <= seat < state.seats else 2
            return f"Confirm my {count} diving cards"
        if isinstance(action, A.GainHaenyeo):
            return f"Spend {C.third_cost} turtle eggs: gain a 3rd Haenyeo"
        if isinstance(action, A.Exchange):
            eggs = f"{action.eggs} turtle egg{'s' if action.eggs > 1 else ''}"
            what = " + ".join(C.seafood_names[k] for k in action.seafood) if action.seafood else "1 pearl"
            return f"Spend {eggs}: {what}"
        if isinstance(action, A.Done):
            return "Finish with turtle eggs"
        if isinstance(action, A.Harvest):
            row = rules.rows(state)[state.zone]
            what = slot_text(row[action.slot]) if 0 <= action.slot < len(row) else "?"
            return f"Harvest slot {action.slot + 1}: {what}"
        if isinstance(action, A.TakeTrash):
            return f"Pearl bonus: {C.trash_names[action.kind]}"
        if isinstance(action, A.TakeSeafood):
            return "Pearl bonus: " + " + ".join(C.seafood_names[k] for k in action.seafood)
        return str(action)[:80]

    def action_group(self, state: State, seat: int, action: A.Action) -> str:
        if isinstance(action, A.ToggleCard | A.Confirm):
            return "Diving cards"
        if isinstance(action, A.GainHaenyeo | A.Exchange | A.Done):
            return "Turtle eggs"
        if isinstance(action, A.Harvest):
            return f"Harvest zone {state.zone}"
        return "Pearl bonus"

    def summary(self, state: State) -> str:
        tile = C.tiles[state.tile].name
        if state.phase == "end":
            result = self.result(state)
            assert result is not None
            best = max(result.scores)
            won = listing([name(s) for s in sorted(result.winners)])
            scores = ", ".join(f"{name(s)} {result.scores[s]}" for s in range(state.seats))
            return f"Game over ({tile}): {won} won with {plural(best, 'point')}. Scores: {scores}."
        head = f"Round {state.round} of {C.rounds} · score tile {tile} · First Player {name(state.first)}"
        if state.phase == "select":
            waiting = listing([name(s) for s in sorted(self.to_act(state))])
            return f"{head}\nChoosing diving cards; waiting for {waiting}."
        pending = state.pending
        if not pending:
            return head
        what = {
            PEND_ZONE0: "use turtle eggs in zone 0",
            PEND_HARVEST: f"choose a slot in zone {state.zone}",
            PEND_TRASH: "choose a trash bonus",
            PEND_SEAFOOD: "choose two seafood",
        }[pending[0]]
        return f"{head}\nZone {state.zone}: {name(pending[1])} to {what}."

    def text(self, state: State) -> str:
        """A readable multi-line picture of the state (logs and tests)."""
        lines = [self.summary(state)]
        sea = rules.rows(state)
        for zone in range(1, 11):
            taken = state.taken[zone]
            cells = [
                ("[x]" if taken[i] != FREE else "") + slot_text(slot) for i, slot in enumerate(sea[zone])
            ]
            lines.append(f"  zone {zone:2}: " + " | ".join(cells))
        for s in range(state.seats):
            food = ", ".join(f"{k} {v}" for k, v in zip(C.seafood, state.food[s], strict=True))
            lines.append(
                f"  {name(s)}: {food}; eggs {state.eggs[s] - state.eggs_used[s]}/{state.eggs[s]}; "
                f"trash {state.trash[s].bit_count()}; pearls {state.pearls[s]}; "
                f"scores {list(state.scores[s])}"
            )
        return "\n".join(lines)


GAME = Haenyeo()
