"""Reef & Ruins behind the engine contract: setup, the round loop, game end.

Phases: ``lucky`` (in seat order, each seat picks a lucky number nobody has
yet, or leaves it to fate; every pick is public), ``round`` and ``finished``.

A round: "If there's a Boon next to that round number, everyone gains that
Boon before the Hydra dice are rolled." When the boon leaves a choice (the
tracker's enchantment, and any pearl it brings), the round opens with the
*boon step*: ``dice`` is empty and only those choices are legal. Once every
seat has chosen, the three hydra dice are rolled; every seat uses them
privately, then confirms, and the round ends when all have confirmed.
"""

from __future__ import annotations

import random
from typing import ClassVar, NamedTuple

import i18n
from engine.base import Game, IllegalAction, Result, event, load_labels, places_from_scores
from engine.reef import actions as acts
from engine.reef import turn
from engine.reef.actions import Act, act
from engine.reef.components import (
    ATOLL,
    BARRIER,
    PEARLS,
    REEFS,
    ROUNDS,
    RUINS,
    SECTIONS,
    SIDE_NAMES,
    SIDES,
    TRACKER,
    rating,
)
from engine.reef.scoring import breakdown
from engine.reef.sheet import BARRIER_START_MASK, Sheet, die_value
from i18n import N_, listing, say, say_plural, term
from i18n import seat as seat_of

LUCKY_FATE = act("lucky", 0)


class ReefState(NamedTuple):
    """The whole table. ``sheets`` hold each seat's current work (private until all
    confirm); ``bases`` the sheets at the start of this round, after the round's
    boon was gained (public); ``starts`` what "reset my round" returns to (the
    bases during the boon step, then the sheets as the hydra dice were rolled, so
    a choice made before the roll is never taken back after it); ``prev`` the
    sheets at the start of the previous round (so the public view can highlight
    what the last round changed). ``dice`` is empty during the boon step.
    ``lucky`` holds each seat's lucky number (-1 = not chosen yet)."""

    seats: int
    seed: int
    reef: str
    side: str
    phase: str
    round: int
    dice: tuple[int, ...]
    roll: int
    sheets: tuple[Sheet, ...]
    bases: tuple[Sheet, ...]
    prev: tuple[Sheet, ...]
    lucky: tuple[int, ...]
    starts: tuple[Sheet, ...] = ()


def _labels() -> dict[str, dict[str, str]]:
    """data/reef/labels.json, with each reef and tracker side named as its data file names it."""
    labels = load_labels("reef")
    reefs = {turn.BARRIER_KEY: BARRIER.name, turn.ATOLL_KEY: ATOLL.name}
    labels["values"] = {**reefs, **SIDE_NAMES, **labels["values"]}
    return labels


def _empty_sheet(reef_key: str) -> Sheet:
    return Sheet(reef=BARRIER_START_MASK if reef_key == turn.BARRIER_KEY else 0)


def _work_done(sheet: Sheet) -> Sheet:
    """A sheet with this round's work cleared (dice, choices, confirmation)."""
    return sheet._replace(dice=(), main=0, pick=-1, mode=0, pending=(), confirmed=False)


class ReefGame(Game):
    """Reef & Ruins: a roll-and-write for 1 to 6 seats (more work too)."""

    key = "reef"
    title = N_("Reef & Ruins")
    min_seats = 1
    max_seats = 8
    options: ClassVar[dict[str, tuple[str, ...]]] = {"reef": REEFS, "tracker": SIDES}
    #: Option values take the names the data files give them (reefs.json, tracker.json).
    labels: ClassVar[dict[str, dict[str, str]]] = _labels()

    # --------------------------------------------------------------- setup

    def new(self, seats: int, seed: int, options: dict | None = None) -> ReefState:
        """Setup 1-4: everyone's pads, the group's reef and tracker side; then lucky numbers."""
        if not self.min_seats <= seats <= self.max_seats:
            raise IllegalAction(
                say("Reef & Ruins seats {low} to {high} players.", low=self.min_seats, high=self.max_seats)
            )
        options = dict(options or {})
        reef = options.get("reef", REEFS[0])
        side = options.get("tracker", SIDES[0])
        if reef not in REEFS:
            raise IllegalAction(
                say(
                    "Unknown reef {reef}; choose one of {choices}.", reef=repr(reef), choices=", ".join(REEFS)
                )
            )
        if side not in SIDES:
            raise IllegalAction(
                say(
                    "Unknown round-tracker side {side}; choose one of {choices}.",
                    side=repr(side),
                    choices=", ".join(SIDES),
                )
            )
        sheet = _empty_sheet(reef)
        return ReefState(
            seats=seats,
            seed=int(seed),
            reef=reef,
            side=side,
            phase="lucky",
            round=0,
            dice=(),
            roll=0,
            sheets=(sheet,) * seats,
            bases=(sheet,) * seats,
            prev=(),
            lucky=(-1,) * seats,
            starts=(sheet,) * seats,
        )

    # --------------------------------------------------------- lucky numbers

    @staticmethod
    def free_lucky(state: ReefState) -> list[int]:
        """Setup 4: "If possible, each player should have a different lucky number."

        The numbers 1-6 that the fewest seats hold so far: while fewer than six
        are taken, exactly the numbers nobody has (so up to six seats all
        differ); beyond six seats, the numbers held least, so they stay as
        different as they can."""
        held = [state.lucky.count(v) for v in range(1, 7)]
        fewest = min(held)
        return [v for v in range(1, 7) if held[v - 1] == fewest]

    @staticmethod
    def lucky_turn(state: ReefState) -> int | None:
        """The seat that picks its lucky number now (seat order), or None."""
        return next((i for i, n in enumerate(state.lucky) if n <= 0), None)

    def _pick_lucky(self, state: ReefState, seat: int, choice: int) -> tuple[ReefState, list[dict]]:
        """Setup 4: pick a lucky number (or "roll for it if you'd rather leave it to fate")."""
        free = self.free_lucky(state)
        number = random.Random(f"{state.seed}:lucky:{seat}").choice(free) if choice == 0 else choice
        lucky = list(state.lucky)
        lucky[seat] = number
        sheets = list(state.sheets)
        sheets[seat] = sheets[seat]._replace(lucky=number)
        if choice == 0:
            mine = say("Fate gives you lucky number {number}.", number=number)
            public = say("Fate gives {seat} lucky number {number}.", seat=seat_of(seat), number=number)
        else:
            mine = say("Your lucky number is {number}.", number=number)
            public = say("{seat} picks lucky number {number}.", seat=seat_of(seat), number=number)
        events = [
            event("lucky-chosen", mine, seat=seat, private=True),
            event("lucky", public, seat=seat, lucky=number),
        ]
        new = tuple(sheets)
        state = state._replace(lucky=tuple(lucky), sheets=new, bases=new, starts=new)
        if all(n > 0 for n in lucky):
            return self._start_round(state, 1, events)
        return state, events

    # --------------------------------------------------------------- rounds

    def _start_round(self, state: ReefState, number: int, events: list[dict]) -> tuple[ReefState, list[dict]]:
        """Gameplay: advance the otter; "if there's a Boon next to that round number,
        everyone gains that Boon before the Hydra dice are rolled"; then roll (at once,
        or once every seat has made the boon's choices)."""
        rng = random.Random(f"{state.seed}:{number}:dice")
        boon = TRACKER[state.side].get(number)
        roll = rng.randint(1, 6) if boon is not None and boon.kind == "roll" else 0
        sheets = []
        for seat, old in enumerate(state.sheets):
            sheet = _work_done(old)
            if boon is not None:
                if boon.kind == "shells":
                    sheet = turn.gain_shells(sheet)
                elif boon.kind == "roll":
                    sheet = turn.add_die(sheet, roll, "roll")
                elif boon.kind == "die":
                    sheet = turn.add_die(sheet, boon.value)
                else:  # "Enchantment: Gain an enchantment" — chosen before the dice are rolled
                    sheet = sheet._replace(pending=("enchant",))
                sheet = turn.settle(sheet, seat, events)
            sheets.append(sheet)
        new = tuple(sheets)
        waiting = any(s.pending for s in new)
        if boon is not None:
            if roll and waiting:
                message = say(
                    "Round {round} boon for everyone — {boon}: the roll is {roll}. "
                    "Choose it before the hydra dice are rolled.",
                    round=number,
                    boon=boon.say(),
                    roll=roll,
                )
            elif roll:
                message = say(
                    "Round {round} boon for everyone — {boon}: the roll is {roll}.",
                    round=number,
                    boon=boon.say(),
                    roll=roll,
                )
            elif waiting:
                message = say(
                    "Round {round} boon for everyone — {boon}. Choose it before the hydra dice are rolled.",
                    round=number,
                    boon=boon.say(),
                )
            else:
                message = say("Round {round} boon for everyone — {boon}.", round=number, boon=boon.say())
            events.append(event("boon", message, round=number))
        state = state._replace(
            phase="round", round=number, dice=(), roll=roll, sheets=new, bases=new, starts=new
        )
        if waiting:
            return state, events
        return self._roll(state, events)

    def _roll(self, state: ReefState, events: list[dict]) -> tuple[ReefState, list[dict]]:
        """Gameplay: the Dice Roller "rolls the three Hydra dice and calls out the results for the round"."""
        number = state.round
        rng = random.Random(f"{state.seed}:{number}:dice")
        if state.roll:
            rng.randint(1, 6)  # the shared "roll a die" boon came first from the same roller
        dice = (rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
        hydra = tuple((v, "hydra", 0, False) for v in dice)
        sheets = tuple(s._replace(dice=(*hydra, *s.dice)) for s in state.sheets)
        events.append(
            event(
                "roll",
                say(
                    "Round {round} of {rounds}: the hydra dice show {first}, {second} and {third}.",
                    round=number,
                    rounds=ROUNDS,
                    first=dice[0],
                    second=dice[1],
                    third=dice[2],
                ),
                round=number,
                dice=list(dice),
            )
        )
        return state._replace(dice=dice, sheets=sheets, starts=sheets), events

    def _end_round(self, state: ReefState) -> tuple[ReefState, list[dict]]:
        """Every seat confirmed: the sheets become public; next round or game end."""
        sheets = tuple(_work_done(s) for s in state.sheets)
        events: list[dict] = [
            event(
                "reveal",
                say("Round {round} is over: every sheet is now public.", round=state.round),
                round=state.round,
            )
        ]
        if state.round >= ROUNDS:
            final = state._replace(
                phase="finished",
                sheets=sheets,
                prev=state.bases,
                bases=sheets,
                starts=sheets,
                dice=(),
                roll=0,
            )
            result = self.result(final)
            assert result is not None
            events.append(event("end", self._result_say(final, result), result=result.to_dict()))
            return final, events
        state = state._replace(sheets=sheets, prev=state.bases, bases=sheets)
        return self._start_round(state, state.round + 1, events)

    # -------------------------------------------------------------- contract

    def to_act(self, state: ReefState) -> frozenset[int]:
        if state.phase == "round":
            if not state.dice:  # the boon step: seats with the boon's choices still to make
                return frozenset(i for i, s in enumerate(state.sheets) if s.pending)
            return frozenset(i for i, s in enumerate(state.sheets) if not s.confirmed)
        if state.phase == "lucky":
            seat = self.lucky_turn(state)
            return frozenset() if seat is None else frozenset({seat})
        return frozenset()

    def legal_actions(self, state: ReefState, seat: int) -> list[Act]:
        if not 0 <= seat < state.seats:
            return []
        if state.phase == "round":
            sheet = state.sheets[seat]
            if not state.dice and not sheet.pending:
                return []
            return turn.legal(sheet, state.reef)
        if state.phase == "lucky" and self.lucky_turn(state) == seat:
            return [LUCKY_FATE, *(act("lucky", n) for n in self.free_lucky(state))]
        return []

    def apply(self, state: ReefState, seat: int, action: Act) -> tuple[ReefState, list[dict]]:
        if not isinstance(action, Act):
            raise IllegalAction(say("That is not a Reef & Ruins move."))
        if not 0 <= seat < state.seats:
            raise IllegalAction(say("You are not seated at this table."))
        if state.phase == "finished":
            raise IllegalAction(say("The game is over."))
        if state.phase == "lucky":
            if state.lucky[seat] > 0:
                raise IllegalAction(say("You have already chosen your lucky number."))
            turn_seat = self.lucky_turn(state)
            if turn_seat != seat:
                raise IllegalAction(
                    say(
                        "Lucky numbers are picked in seat order: {seat} picks now.",
                        seat=seat_of(turn_seat or 0),
                    )
                )
            if (
                action.kind != "lucky"
                or action.b
                or not (action.a == 0 or action.a in self.free_lucky(state))
            ):
                raise IllegalAction(
                    say("Choose a lucky number nobody has yet (1 to 6), or leave it to fate.")
                )
            return self._pick_lucky(state, seat, action.a)
        sheet = state.sheets[seat]
        boon_step = not state.dice
        if boon_step and not sheet.pending:
            raise IllegalAction(say("You have gained this round's boon; the hydra dice come next."))
        turn.check(sheet, action, state.reef)
        starts = state.starts or state.bases
        new_sheet, events = turn.apply(sheet, starts[seat], seat, action, state.reef)
        sheets = list(state.sheets)
        sheets[seat] = new_sheet
        state = state._replace(sheets=tuple(sheets))
        if boon_step:
            if not new_sheet.pending:
                events.append(
                    event(
                        "boon-chosen",
                        say(
                            "{seat} has gained the round {round} boon.", seat=seat_of(seat), round=state.round
                        ),
                    )
                )
            if not any(s.pending for s in state.sheets):
                state, events = self._roll(state, events)
            return state, events
        if action.kind == "confirm":
            events.append(
                event(
                    "confirmed",
                    say("{seat} has confirmed round {round}.", seat=seat_of(seat), round=state.round),
                )
            )
            if all(s.confirmed for s in state.sheets):
                state, more = self._end_round(state)
                events.extend(more)
        return state, events

    def view(self, state: ReefState, seat: int | None) -> dict:
        """JSON-ready view; the shape is documented in engine/reef/view.py."""
        from engine.reef.view import build

        return build(state, seat)

    def result(self, state: ReefState) -> Result | None:
        """Game End: totals by category; the hydra tie rule; the solo rating."""
        if state.phase != "finished":
            return None
        parts = tuple(breakdown(s, state.reef) for s in state.sheets)
        scores = tuple(sum(p.values()) for p in parts)
        top = max(scores)
        tied = [i for i, s in enumerate(scores) if s == top]
        notes: list[i18n.Msg] = []
        if state.seats == 1:
            entry = rating(scores[0])
            winners = frozenset({0})
            notes.append(say("Solo rating: {title} — {text}", title=term(entry.title), text=term(entry.text)))
        elif len(tied) == 1:
            winners = frozenset(tied)
        elif len(tied) == state.seats:
            # "everyone else not tied for the highest score wins": with every seat tied
            # there is nobody else, so nobody wins.
            winners = frozenset()
            notes.append(
                say(
                    "Every player tied for the highest score. Everyone else not tied would win, "
                    "as is tradition for hydra games, but there is no one else: no one wins."
                )
            )
        else:
            winners = frozenset(i for i in range(state.seats) if i not in tied)
            notes.append(
                say(
                    "{names} tied for the highest score, so everyone else wins, "
                    "as is tradition for hydra games.",
                    names=listing([seat_of(i) for i in tied]),
                )
            )
        # where this table decided for the rulebook, in a player's words (issue #40)
        notes.append(
            say(
                "Played as this table reads the rulebook: {rounds} rounds; lucky numbers picked in "
                "seat order, each different when possible; a pair of shells moves a die by 1 with no "
                "highest value, never below 0 and never wrapping.",
                rounds=ROUNDS,
            )
        )
        ranking = places_from_scores([(i in winners, scores[i]) for i in range(state.seats)])
        return self.labelled(
            Result(scores=scores, ranking=ranking, winners=winners, breakdown=parts, notes=tuple(notes))
        )

    def _result_say(self, state: ReefState, result: Result) -> i18n.Msg:
        """The game's end in one sentence, as a message."""
        if state.seats == 1:
            return say(
                "Final score {score}: {title}.",
                score=result.scores[0],
                title=term(rating(result.scores[0]).title),
            )
        scores: i18n.Msg | None = None
        for i, score in enumerate(result.scores):
            item = say("{seat} {score}", seat=seat_of(i), score=score)
            scores = item if scores is None else say("{first}, {second}", first=scores, second=item)
        if not result.winners:
            return say(
                "Game over. Scores: {scores}; everyone tied for the highest score, so no one wins.",
                scores=scores,
            )
        return say_plural(
            "Game over. Scores: {scores}; winner: {names}.",
            "Game over. Scores: {scores}; winners: {names}.",
            len(result.winners),
            scores=scores,
            names=listing([seat_of(i) for i in sorted(result.winners)]),
        )

    def _result_text(self, state: ReefState, result: Result) -> str:
        return i18n.english(self._result_say(state, result))

    # ---------------------------------------------------------------- JSON

    def dump_state(self, state: ReefState) -> dict:
        return {
            "seats": state.seats,
            "seed": state.seed,
            "reef": state.reef,
            "side": state.side,
            "phase": state.phase,
            "round": state.round,
            "dice": list(state.dice),
            "roll": state.roll,
            "sheets": [_dump_sheet(s) for s in state.sheets],
            "bases": [_dump_sheet(s) for s in state.bases],
            "prev": [_dump_sheet(s) for s in state.prev],
            "lucky": list(state.lucky),
            "starts": [_dump_sheet(s) for s in state.starts],
        }

    def load_state(self, data: dict) -> ReefState:
        try:
            return ReefState(
                seats=int(data["seats"]),
                seed=int(data["seed"]),
                reef=str(data["reef"]),
                side=str(data["side"]),
                phase=str(data["phase"]),
                round=int(data["round"]),
                dice=tuple(int(v) for v in data["dice"]),
                roll=int(data["roll"]),
                sheets=tuple(_load_sheet(s) for s in data["sheets"]),
                bases=tuple(_load_sheet(s) for s in data["bases"]),
                prev=tuple(_load_sheet(s) for s in data["prev"]),
                lucky=tuple(int(v) for v in data["lucky"]),
                starts=tuple(_load_sheet(s) for s in data.get("starts", data["bases"])),
            )
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
        from engine.reef.view import label

        return label(state, seat, action, i18n.words(lang))[:80]

    def action_group(self, state: ReefState, seat: int, action: Act) -> str:
        from engine.reef.view import group

        return group(state, seat, action)

    def summary(self, state: ReefState, lang: str = i18n.SOURCE) -> str:
        t = i18n.words(lang)
        reef = t(BARRIER.name if state.reef == turn.BARRIER_KEY else ATOLL.name)
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
                waiting=len(self.to_act(state)),
                seats=state.seats,
            )
        if state.phase == "finished":
            result = self.result(state)
            assert result is not None
            return t.msg(self._result_say(state, result))
        return t(
            "Reef & Ruins, round {round} of {rounds} on the {reef}: dice {dice}; "
            "{waiting} of {seats} still to confirm.",
            round=state.round,
            rounds=ROUNDS,
            reef=reef,
            dice=", ".join(str(v) for v in state.dice),
            waiting=len(self.to_act(state)),
            seats=state.seats,
        )


def _dump_sheet(sheet: Sheet) -> dict:
    return {
        "lucky": sheet.lucky,
        "ruins": [list(r) for r in sheet.ruins],
        "ench": list(sheet.ench),
        "reef": sheet.reef,
        "shapes": [[v, single, list(cells)] for v, single, cells in sheet.shapes],
        "shells": sheet.shells,
        "shells_earned": sheet.shells_earned,
        "pearls": sheet.pearls,
        "pearls_lost": sheet.pearls_lost,
        "bonuses": sheet.bonuses,
        "coins": sheet.coins,
        "dice": [list(d) for d in sheet.dice],
        "main": sheet.main,
        "pick": sheet.pick,
        "mode": sheet.mode,
        "pending": list(sheet.pending),
        "confirmed": sheet.confirmed,
    }


def _load_sheet(data: dict) -> Sheet:
    ruins = tuple(tuple(int(v) for v in r) for r in data["ruins"])
    if len(ruins) != len(RUINS) or any(len(r) != ruin.size for r, ruin in zip(ruins, RUINS, strict=True)):
        raise ValueError("ruins do not match the sheet")
    ench = tuple(int(v) for v in data["ench"])
    if len(ench) != len(SECTIONS):
        raise ValueError("enchantments do not match the sheet")
    if int(data["bonuses"]) >> len(PEARLS):
        raise ValueError("pearl bonuses do not match the sheet")
    return Sheet(
        lucky=int(data["lucky"]),
        ruins=ruins,
        ench=ench,
        reef=int(data["reef"]),
        shapes=tuple(
            (int(v), bool(single), tuple(int(c) for c in cells)) for v, single, cells in data["shapes"]
        ),
        shells=int(data["shells"]),
        shells_earned=int(data["shells_earned"]),
        pearls=int(data["pearls"]),
        pearls_lost=int(data["pearls_lost"]),
        bonuses=int(data["bonuses"]),
        coins=int(data["coins"]),
        dice=tuple((int(v), str(k), int(a), bool(u)) for v, k, a, u in data["dice"]),
        main=int(data["main"]),
        pick=int(data["pick"]),
        mode=int(data["mode"]),
        pending=tuple(str(p) for p in data["pending"]),
        confirmed=bool(data["confirmed"]),
    )


GAME = ReefGame()

__all__ = ["GAME", "ReefGame", "ReefState", "die_value"]
