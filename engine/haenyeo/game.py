"""Haenyeo behind the shared engine contract (`engine.base.Game`)."""

from __future__ import annotations

from typing import Any

import i18n
from engine.base import _SEARCHING, Event, Game, IllegalAction, Result, load_labels, places_from_scores
from engine.haenyeo import actions as A
from engine.haenyeo import rules
from engine.haenyeo import state as S
from engine.haenyeo.components import C, both, commas, plus, slot_msg
from engine.haenyeo.rules import PEND_HARVEST, PEND_SEAFOOD, PEND_TRASH, PEND_ZONE0, who
from engine.haenyeo.scoring import final_breakdown
from engine.haenyeo.setup import FIRST_OPTION, TILE_OPTION, new_state
from engine.haenyeo.state import State
from engine.haenyeo.text import describe
from engine.haenyeo.view import build_view

#: Legal actions in order, as a set for the legality check, and the ids of the very objects listed.
Legal = tuple[tuple[A.Action, ...], frozenset[A.Action], frozenset[int]]
_EMPTY: Legal = ((), frozenset(), frozenset())
#: Legal selections by (cards chosen, active Haenyeo, confirmed): at most 4096 x 3 x 2 of them.
_SELECTING: dict[tuple[int, int, int], Legal] = {}
#: Seats still choosing, by the confirmations (one frozenset per pattern, made once).
_CHOOSING: dict[tuple[int, ...], frozenset[int]] = {}
#: The one seat owing a decision during the actions, by seat.
_OWING: dict[int, frozenset[int]] = {}


def _pair(options: tuple[A.Action, ...]) -> Legal:
    """Legal actions in order, as a set for the legality check, and the ids of the objects listed:
    a bot hands back one of the very actions listed, found by identity without a dataclass's
    ``__hash__`` or ``__eq__`` (written in Python); the listed objects live as long as the
    entry, so an id found is that object."""
    return (options, frozenset(options), frozenset(map(id, options))) if options else _EMPTY


#: The menus the actions are grouped in (`Haenyeo.action_group`), shown translated.
GROUP_CARDS = i18n.N_("Diving cards")
GROUP_EGGS = i18n.N_("Turtle eggs")
GROUP_BONUS = i18n.N_("Pearl bonus")
#: "Harvest zone 1" .. "Harvest zone 10" (a group's name is a fixed phrase: one per zone).
GROUP_HARVEST = (
    i18n.N_("Harvest zone 0"),
    i18n.N_("Harvest zone 1"),
    i18n.N_("Harvest zone 2"),
    i18n.N_("Harvest zone 3"),
    i18n.N_("Harvest zone 4"),
    i18n.N_("Harvest zone 5"),
    i18n.N_("Harvest zone 6"),
    i18n.N_("Harvest zone 7"),
    i18n.N_("Harvest zone 8"),
    i18n.N_("Harvest zone 9"),
    i18n.N_("Harvest zone 10"),
    i18n.N_("Harvest zone 11"),
)


def decided_notes(state: State) -> list[i18n.Msg]:
    """Where this table decided for the rulebook, in a player's words, for the results (issue #40)."""
    if state.passes:
        notes = [i18n.say("House rule: the First Player marker passed clockwise every round.")]
    else:
        notes = [
            i18n.say(
                "{name} was First Player all game: the rulebook's Prepare Next Round "
                "does not pass the marker.",
                name=who(state.first),
            )
        ]
    tile = C.tiles[state.tile]
    if any(C.rules[key].kind == "most" for keys in tile.rounds.values() for key in keys):
        notes.append(i18n.say("Most sea urchins: nobody scores it while the most anyone has is none."))
    return notes


class Haenyeo(Game):
    """Haenyeo: Sea Divers of Jeju, 2 to 5 players (2 players with the NPC)."""

    key = "haenyeo"
    title = i18n.N_("Haenyeo: Sea Divers of Jeju")
    min_seats = 2
    max_seats = 5
    options = {"score_tile": TILE_OPTION, "first_player": FIRST_OPTION}  # noqa: RUF012 - the contract declares a class-level dict
    labels = load_labels("haenyeo")

    # -------------------------------------------------------------- core

    def new(self, seats: int, seed: int, options: dict | None = None) -> State:
        return new_state(seats, seed, options)

    def to_act(self, state: State) -> frozenset[int]:
        phase = state.phase
        if phase == "select":
            confirmed = state.confirmed  # one entry per seat
            found = _CHOOSING.get(confirmed)
            if found is None:
                found = _CHOOSING[confirmed] = frozenset(s for s, done in enumerate(confirmed) if not done)
            return found
        if phase == "actions" and state.pending:
            seat = state.pending[1]
            found = _OWING.get(seat)
            if found is None:
                found = _OWING[seat] = frozenset((seat,))
            return found
        return frozenset()

    def _legal(self, state: State, seat: int) -> Legal:
        if state.phase == "select" and isinstance(seat, int) and 0 <= seat < state.seats:
            # Selecting, a seat's options follow from its cards, Haenyeo and confirmation alone.
            key = (state.chosen[seat], state.pawns[seat], state.confirmed[seat])
            found = _SELECTING.get(key)
            if found is None:
                found = _SELECTING[key] = _pair(rules.select_legal(state, seat))
            return found
        cache = state.__dict__.get("_legal")
        if cache is None:
            cache = state.__dict__["_legal"] = {}
        found = cache.get(seat)
        if found is None:
            found = cache[seat] = _pair(rules.legal(state, seat) if isinstance(seat, int) else ())
        return found

    def legal_actions(self, state: State, seat: int) -> list[A.Action]:
        return list(self._legal(state, seat)[0])

    def apply(self, state: State, seat: int, action: A.Action) -> tuple[State, list[Event]]:
        options, allowed, listed = self._legal(state, seat)
        if id(action) not in listed:
            try:
                ok = action in allowed
            except TypeError:  # unhashable junk
                ok = False
            if not ok:
                raise IllegalAction(self._why_not(state, seat, action, options))
        return rules.apply(state, seat, action)

    def advance(self, state: State, seat: int, action: A.Action) -> State:
        """`apply` for search play-outs: no legality check, quiet events (see `Game.advance`)."""
        token = _SEARCHING.set(True)
        try:
            return rules.apply(state, seat, action)[0]
        finally:
            _SEARCHING.reset(token)

    def _why_not(self, state: State, seat: int, action: Any, options: tuple) -> i18n.Msg:
        say = i18n.say
        if state.phase == "end":
            return say("The game is over.")
        if not isinstance(seat, int) or not 0 <= seat < state.seats:
            return say("You are not playing in this game.")
        if not options:
            if state.phase == "actions" and state.pending:
                return say("It is {name}'s turn, not yours.", name=who(state.pending[1], opening=False))
            return say("You have nothing to do right now.")
        if state.phase == "select":
            if isinstance(action, A.ToggleCard):
                return (
                    say(
                        "You already have {count} cards selected: put one back first.",
                        count=state.pawns[seat],
                    )
                    if 0 <= action.zone < 12
                    else say("There is no such diving card.")
                )
            if isinstance(action, A.Confirm):
                return say("Select exactly {count} diving cards before confirming.", count=state.pawns[seat])
            return say("Now is the time to choose your diving cards.")
        if isinstance(action, A.Harvest):
            return say("That slot is not free to harvest.")
        return say("That is not one of your choices right now.")

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
        notes: list[i18n.Msg] = []
        top = max(scores)
        if sum(1 for s in scores if s == top) > 1:
            if len(winners) == 1:
                notes.append(i18n.say("Tied on points: the higher trash score wins."))
            else:
                notes.append(i18n.say("Tied on points and trash: the victory is shared."))
        notes.extend(decided_notes(state))
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

    def action_label(self, state: State, seat: int, action: A.Action, lang: str = i18n.SOURCE) -> str:
        t = i18n.words(lang)
        if isinstance(action, A.ToggleCard):
            if 0 <= seat < state.seats and state.chosen[seat] >> action.zone & 1:
                return t("Put back card {zone}", zone=action.zone)
            creature = C.creatures[action.zone] if 0 <= action.zone < 12 else None
            if creature:
                return t(
                    "Dive to zone {zone} ({creature} to zone {to})",
                    zone=action.zone,
                    creature=t(C.creature_names[creature]),
                    to=action.zone - 1,
                )
            return t("Dive to zone {zone}", zone=action.zone)
        if isinstance(action, A.Confirm):
            count = state.pawns[seat] if 0 <= seat < state.seats else 2
            return t.plural("Confirm my {count} diving card", "Confirm my {count} diving cards", count)
        if isinstance(action, A.GainHaenyeo):
            return t.plural(
                "Spend {count} turtle egg: gain a 3rd Haenyeo",
                "Spend {count} turtle eggs: gain a 3rd Haenyeo",
                C.third_cost,
            )
        if isinstance(action, A.Exchange):
            what = (
                t.msg(plus([i18n.term(C.seafood_names[k]) for k in action.seafood]))
                if action.seafood
                else t("1 pearl")
            )
            return t.plural(
                "Spend {count} turtle egg: {what}",
                "Spend {count} turtle eggs: {what}",
                action.eggs,
                what=what,
            )
        if isinstance(action, A.Done):
            return t("Finish with turtle eggs")
        if isinstance(action, A.Harvest):
            row = rules.rows(state)[state.zone]
            what = t.msg(slot_msg(row[action.slot])) if 0 <= action.slot < len(row) else "?"
            return t("Harvest slot {slot}: {what}", slot=action.slot + 1, what=what)
        if isinstance(action, A.TakeTrash):
            return t("Pearl bonus: {what}", what=t(C.trash_names[action.kind]))
        if isinstance(action, A.TakeSeafood):
            what = t.msg(plus([i18n.term(C.seafood_names[k]) for k in action.seafood]))
            return t("Pearl bonus: {what}", what=what)
        return str(action)[:80]

    def action_group(self, state: State, seat: int, action: A.Action) -> str:
        if isinstance(action, A.ToggleCard | A.Confirm):
            return GROUP_CARDS
        if isinstance(action, A.GainHaenyeo | A.Exchange | A.Done):
            return GROUP_EGGS
        if isinstance(action, A.Harvest):
            return GROUP_HARVEST[state.zone] if 0 <= state.zone < len(GROUP_HARVEST) else GROUP_HARVEST[1]
        return GROUP_BONUS

    def summary(self, state: State, lang: str = i18n.SOURCE) -> str:
        t = i18n.words(lang)
        tile = t(C.tiles[state.tile].name)
        if state.phase == "end":
            result = self.result(state)
            assert result is not None
            best = max(result.scores)
            won = both([who(s) for s in sorted(result.winners)])
            scores = commas(
                [i18n.say("{name} {score}", name=who(s), score=result.scores[s]) for s in range(state.seats)]
            )
            return t.msg(
                i18n.say_plural(
                    "Game over ({tile}): {winners} won with {count} point. Scores: {scores}.",
                    "Game over ({tile}): {winners} won with {count} points. Scores: {scores}.",
                    best,
                    tile=tile,
                    winners=won,
                    scores=scores,
                )
            )
        head = t.msg(
            i18n.say(
                "Round {round} of {rounds} · score tile {tile} · First Player {name}",
                round=state.round,
                rounds=C.rounds,
                tile=tile,
                name=who(state.first),
            )
        )
        if state.passes:  # the house rule is said on the board; the rulebook's marker stays
            head += t(" (house rule: the marker passes clockwise each round)")
        if state.phase == "select":
            waiting = both([who(s) for s in sorted(self.to_act(state))])
            return head + "\n" + t.msg(i18n.say("Choosing diving cards; waiting for {names}.", names=waiting))
        pending = state.pending
        if not pending:
            return head
        asked = who(pending[1], opening=False)
        line = {
            PEND_ZONE0: i18n.say(
                "Zone {zone}: {name} to use turtle eggs in zone 0.", zone=state.zone, name=asked
            ),
            PEND_HARVEST: i18n.say(
                "Zone {zone}: {name} to choose a slot in zone {zone}.", zone=state.zone, name=asked
            ),
            PEND_TRASH: i18n.say("Zone {zone}: {name} to choose a trash bonus.", zone=state.zone, name=asked),
            PEND_SEAFOOD: i18n.say("Zone {zone}: {name} to choose two seafood.", zone=state.zone, name=asked),
        }[pending[0]]
        return head + "\n" + t.msg(line)

    def text(self, state: State) -> str:
        """A readable multi-line picture of the state as the table sees it (logs and tests): `describe`."""
        return describe(state)


GAME = Haenyeo()
