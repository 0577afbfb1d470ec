"""Reef & Ruins behind the engine contract (`engine.base.Game`): each method hands over to its rules.

Where the rulebook lives: Setup 1-4 in `engine.reef.setup` (pads, reef, tracker
side, lucky numbers); Gameplay, the round loop, and each seat's round (Search a
Ship Ruin, Cast an Enchantment, Explore the Reef, Pearl Bonuses, Trade in Shells)
in `engine.reef.rules`, with where a die may be written in `engine.reef.sheet`;
Game End and Scoring in `engine.reef.scoring`. The records are `engine.reef.state`,
the moves `engine.reef.actions`, what each audience sees `engine.reef.view`, a
state as text `engine.reef.text`, the bots and hints `engine.reef.ai`.

Phases: ``lucky`` (in seat order, each seat picks a lucky number nobody has
yet, or leaves it to fate; every pick is public), ``round`` and ``finished``.
"""

from __future__ import annotations

from typing import ClassVar

import i18n
from engine.base import _SEARCHING, Game, IllegalAction, Result, event, load_labels
from engine.reef import actions as acts
from engine.reef import rules, scoring, setup
from engine.reef import state as records
from engine.reef import view as views
from engine.reef.actions import Act
from engine.reef.components import ATOLL, BARRIER, REEFS, ROUNDS, SIDE_NAMES, SIDES
from engine.reef.sheet import die_value
from engine.reef.state import BARRIER_KEY, ReefState
from i18n import N_, say


def _labels() -> dict[str, dict[str, str]]:
    """data/reef/labels.json, with each reef and tracker side named as its data file names it."""
    labels = load_labels("reef")
    reefs = {BARRIER_KEY: BARRIER.name, records.ATOLL_KEY: ATOLL.name}
    labels["values"] = {**reefs, **SIDE_NAMES, **labels["values"]}
    return labels


class ReefGame(Game):
    """Reef & Ruins: a roll-and-write for 1 to 6 seats (more work too)."""

    key = "reef"
    title = N_("Reef & Ruins")
    min_seats = 1
    max_seats = 8
    options: ClassVar[dict[str, tuple[str, ...]]] = {"reef": REEFS, "tracker": SIDES}
    #: Option values take the names the data files give them (reefs.json, tracker.json).
    labels: ClassVar[dict[str, dict[str, str]]] = _labels()

    #: Setup 4: the lucky numbers still free, and whose pick it is (`engine.reef.setup`).
    free_lucky = staticmethod(setup.free_lucky)
    lucky_turn = staticmethod(setup.lucky_turn)

    def new(self, seats: int, seed: int, options: dict | None = None) -> ReefState:
        """Setup 1-4: everyone's pads, the group's reef and tracker side; then lucky numbers."""
        return setup.new_state(seats, seed, options, self.min_seats, self.max_seats)

    # The rules' own functions, called without a method's extra frame (random play asks them
    # at every step).
    to_act = staticmethod(rules.to_act)
    legal_actions = staticmethod(rules.legal_actions)

    def apply(self, state: ReefState, seat: int, action: Act) -> tuple[ReefState, list[dict]]:
        new, events = rules.play(state, seat, action)
        if new.phase == "finished":  # the last round ended: the result closes the events
            result = self.result(new)
            assert result is not None
            events.append(event("end", scoring.result_say(new, result), result=result.to_dict()))
        return new, events

    def advance(self, state: ReefState, seat: int, action: Act) -> ReefState:
        """`apply` for search play-outs: no legality check, quiet events and no result event at
        the end (see `Game.advance`)."""
        token = _SEARCHING.set(True)
        try:
            return rules.play(state, seat, action, checked=False)[0]
        finally:
            _SEARCHING.reset(token)

    def view(self, state: ReefState, seat: int | None) -> dict:
        """JSON-ready view; the shape is documented in engine/reef/view.py."""
        return views.build(state, seat, self.result(state))

    def result(self, state: ReefState) -> Result | None:
        """Game End: totals by category; the hydra tie rule; the solo rating (`engine.reef.scoring`)."""
        found = scoring.result(state)
        return None if found is None else self.labelled(found)

    # ---------------------------------------------------------------- JSON

    def dump_state(self, state: ReefState) -> dict:
        return records.dump_state(state)

    def load_state(self, data: dict) -> ReefState:
        try:
            return records.load_state(data)
        except (KeyError, TypeError, ValueError) as error:
            raise IllegalAction(
                say("That saved Reef & Ruins game is damaged ({error}).", error=str(error))
            ) from error

    def dump_action(self, action: Act) -> dict:
        return acts.dump(action)

    def load_action(self, data: dict) -> Act:
        return acts.load(data)

    # ----------------------------------------------------------------- words

    def action_label(self, state: ReefState, seat: int, action: Act, lang: str = i18n.SOURCE) -> str:
        return views.label(state, seat, action, i18n.words(lang))[:80]

    def action_group(self, state: ReefState, seat: int, action: Act) -> str:
        return views.group(state, seat, action)

    def summary(self, state: ReefState, lang: str = i18n.SOURCE) -> str:
        t = i18n.words(lang)
        reef = t(BARRIER.name if state.reef == BARRIER_KEY else ATOLL.name)
        if state.phase == "lucky":
            return t(
                "Reef & Ruins on the {reef} ({side}): choosing lucky numbers.",
                reef=reef,
                side=t(SIDE_NAMES[state.side]),
            )
        if state.phase == "round" and not state.dice:
            return t(
                "Reef & Ruins, round {round} of {rounds} on the {reef}: everyone gains the round's "
                "boon before the hydra dice are rolled; {waiting} of {seats} still to choose.",
                round=state.round,
                rounds=ROUNDS,
                reef=reef,
                waiting=len(rules.to_act(state)),
                seats=state.seats,
            )
        if state.phase == "finished":
            result = self.result(state)
            assert result is not None
            return t.msg(scoring.result_say(state, result))
        return t(
            "Reef & Ruins, round {round} of {rounds} on the {reef}: dice {dice}; "
            "{waiting} of {seats} still to confirm.",
            round=state.round,
            rounds=ROUNDS,
            reef=reef,
            dice=", ".join(str(v) for v in state.dice),
            waiting=len(rules.to_act(state)),
            seats=state.seats,
        )


GAME = ReefGame()

__all__ = ["GAME", "ReefGame", "ReefState", "die_value"]
