"""Setup (rulebook Setup 1-4): everyone's pads, the group's reef and round-tracker side, lucky numbers.

Setup 1-3 is `new_state`: each seat gets an empty pad (`engine.reef.state.empty_sheet`)
for the reef the table chose, and the tracker side the table chose. Setup 4, the
lucky numbers, is played by the seats in seat order (`free_lucky`, `lucky_turn`,
`choose_lucky`); once every seat has one, `engine.reef.rules` starts round 1.
All randomness comes from ``random.Random(f"{seed}:...")``.
"""

from __future__ import annotations

import random

from engine.base import Event, IllegalAction, event
from engine.reef.actions import Act, act
from engine.reef.components import REEFS, SIDES
from engine.reef.state import ReefState, empty_sheet
from i18n import say
from i18n import seat as seat_of

#: "Roll for it if you'd rather leave it to fate."
LUCKY_FATE = act("lucky", 0)


def new_state(seats: int, seed: int, options: dict | None, low: int, high: int) -> ReefState:
    """Setup 1-3 for ``seats`` players (``low`` to ``high`` allowed); then lucky numbers."""
    if not low <= seats <= high:
        raise IllegalAction(say("Reef & Ruins seats {low} to {high} players.", low=low, high=high))
    options = dict(options or {})
    reef = options.get("reef", REEFS[0])
    side = options.get("tracker", SIDES[0])
    if reef not in REEFS:
        raise IllegalAction(
            say("Unknown reef {reef}; choose one of {choices}.", reef=repr(reef), choices=", ".join(REEFS))
        )
    if side not in SIDES:
        raise IllegalAction(
            say(
                "Unknown round-tracker side {side}; choose one of {choices}.",
                side=repr(side),
                choices=", ".join(SIDES),
            )
        )
    sheet = empty_sheet(reef)
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


def free_lucky(state: ReefState) -> list[int]:
    """Setup 4: "If possible, each player should have a different lucky number."

    The numbers 1-6 that the fewest seats hold so far: while fewer than six
    are taken, exactly the numbers nobody has (so up to six seats all
    differ); beyond six seats, the numbers held least, so they stay as
    different as they can."""
    held = [state.lucky.count(v) for v in range(1, 7)]
    fewest = min(held)
    return [v for v in range(1, 7) if held[v - 1] == fewest]


def lucky_turn(state: ReefState) -> int | None:
    """The seat that picks its lucky number now (seat order), or None."""
    return next((i for i, n in enumerate(state.lucky) if n <= 0), None)


def lucky_actions(state: ReefState, seat: int) -> list[Act]:
    """The seat's legal picks: leave it to fate, or one of the free numbers (none when not its turn)."""
    if lucky_turn(state) != seat:
        return []
    return [LUCKY_FATE, *(act("lucky", n) for n in free_lucky(state))]


def choose_lucky(state: ReefState, seat: int, action: Act) -> tuple[ReefState, list[Event]]:
    """Setup 4: ``seat`` picks a lucky number (or "roll for it if you'd rather leave it to fate")."""
    if state.lucky[seat] > 0:
        raise IllegalAction(say("You have already chosen your lucky number."))
    turn_seat = lucky_turn(state)
    if turn_seat != seat:
        raise IllegalAction(
            say("Lucky numbers are picked in seat order: {seat} picks now.", seat=seat_of(turn_seat or 0))
        )
    if action.kind != "lucky" or action.b or not (action.a == 0 or action.a in free_lucky(state)):
        raise IllegalAction(say("Choose a lucky number nobody has yet (1 to 6), or leave it to fate."))
    choice = action.a
    free = free_lucky(state)
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
    return state._replace(lucky=tuple(lucky), sheets=new, bases=new, starts=new), events


__all__ = ["LUCKY_FATE", "choose_lucky", "free_lucky", "lucky_actions", "lucky_turn", "new_state"]
