"""Setup (rulebook II): score tile, sea decks, sheets, diving cards and pawns, First Player."""

from __future__ import annotations

import random

from engine.base import IllegalAction
from engine.haenyeo.components import N_SEAFOOD, C
from engine.haenyeo.rules import fresh_taken
from engine.haenyeo.state import State
from i18n import say

#: Table option: which score tile to use ("random" draws one from the seed).
TILE_OPTION = ("random", *(tile.name for tile in C.tiles))
#: Table option: the First Player marker. ④ Prepare Next Round does not pass it, so by the
#: rulebook it "stays" (the default); "clockwise" is a house rule (issue #40).
FIRST_OPTION = ("stays", "clockwise")
#: What a table's options without ``first_player`` mean: every table opened before the option
#: existed stored its other options (the service stores each declared option) and was played
#: with the marker passing clockwise, so its replay must pass it too.
FIRST_BEFORE_OPTION = "clockwise"


def marker_passes(options: dict) -> bool:
    """Whether the First Player marker passes clockwise between rounds under ``options``.

    No options at all: the defaults (the rulebook: it stays). Options naming other choices but
    not ``first_player``: a table stored before the option existed (it passed clockwise)."""
    if "first_player" in options:
        choice = options["first_player"]
    else:
        choice = FIRST_BEFORE_OPTION if options else FIRST_OPTION[0]
    if choice not in FIRST_OPTION:
        raise IllegalAction(
            say(
                "Unknown First Player rule {choice}; choose one of {choices}.",
                choice=repr(choice),
                choices=", ".join(FIRST_OPTION),
            )
        )
    return choice == "clockwise"


def new_state(seats: int, seed: int, options: dict | None = None) -> State:
    """A new game: every random draw comes from ``seed``.

    1. One score tile drawn at random (or the one named by option ``score_tile``).
    2. Shallow and deep sea cards shuffled into two decks; the top cards are round 1's.
    3. Each player: an empty sheet, 12 diving cards, 2 active Haenyeo (the 3rd waits beside zone 0).
    4. A random First Player (the rulebook's "most recently visited Jeju Island" is not known here).
       Option ``first_player``: "stays" (the rulebook) or "clockwise" (a house rule); see
       `marker_passes` for tables stored before the option existed.
    """
    if not isinstance(seats, int) or not 2 <= seats <= 5:
        raise IllegalAction(say("Haenyeo is played by 2 to 5 players."))
    options = options or {}
    rng = random.Random(f"haenyeo:{seed}:setup")
    choice = options.get("score_tile", "random")
    if choice not in TILE_OPTION:
        raise IllegalAction(
            say(
                "Unknown score tile {choice}; choose one of {choices}.",
                choice=repr(choice),
                choices=", ".join(TILE_OPTION),
            )
        )
    passes = marker_passes(options)
    tile = rng.randrange(len(C.tiles))
    if choice != "random":
        tile = TILE_OPTION.index(choice) - 1
    shallow = list(range(len(C.shallow_cards)))
    deep = list(range(len(C.deep_cards)))
    rng.shuffle(shallow)
    rng.shuffle(deep)
    zeros = (0,) * seats
    state = State(
        seats=seats,
        seed=seed,
        npc=seats == 2,
        tile=tile,
        shallow=tuple(shallow),
        deep=tuple(deep),
        round=1,
        first=rng.randrange(seats),
        passes=passes,
        phase="select",
        pawns=(C.start_pawns,) * seats,
        third=zeros,
        chosen=zeros,
        confirmed=zeros,
        npc_cards=0,
        npc_used=0,
        occupied=0,
        reach=0,
        taken=(),
        food=((0,) * N_SEAFOOD,) * seats,
        eggs=zeros,
        eggs_used=zeros,
        pearls=zeros,
        trash=zeros,
        scores=((),) * seats,
        zone=0,
        actors=(),
        turn=0,
        pending=(),
        bonus=(),
        visit=0,
    )
    state.taken = fresh_taken(state)
    return state
