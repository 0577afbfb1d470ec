"""What one audience may see: ``view(state, seat)`` (``seat=None`` is the public view).

Shape (every key is always present unless marked; seats are 0-based ints, the
2-player NPC appears as the string ``"npc"`` wherever a seat could be named)::

    {
      "game": "haenyeo",
      "phase": "select" | "actions" | "end",
      "to_act": [seat, ...],            # sorted; in "select": seats not yet confirmed
      "seats": int,                     # number of players (the NPC is not a seat)
      "round": int,                     # 1..8 (8 at the end)
      "rounds": 8,
      "scoring_rounds": [3, 6, 8],
      "first_player": seat,
      "first_player_passes": bool,      # house rule: the marker passes clockwise each round
      "npc": bool,                      # 2-player game with the NPC
      "score_tile": {"index": int, "name": str,
                     "rounds": {"3": [{"key": str, "text": str}, ...], "6": [...], "8": [...]},
                     "trash": [points for 0, 1, 2, ... trash types]},
      "pearl_track": [{"points": int, "bonus": null | "trash" | "seafood2"}, ...],   # 9 spaces
      "pearls_per_haenyeo": int,        # pearls a Haenyeo takes in zone 11
      "third_cost": int,                # turtle eggs the 3rd Haenyeo costs at zone 0
      "sea_cards": {"shallow": card id, "deep": card id,
                    "shallow_left": int, "deep_left": int},   # cards left face down in each deck
      "revealed": bool,                 # diving cards revealed this round (phase "actions"/"end")
      "reach": int | null,              # deepest connected zone (1..reach connected); null before reveal
      "zones": [                        # 12 entries, zone 0 (surface) .. 11 (pearls)
        {"zone": int,
         "part": "surface" | "shallow" | "deep" | "pearl",
         "slots": [{"items": ["conch" | "abalone" | "mustard" | "urchin" | "octopus"
                              | "egg" | "trash:<type>", ...],          # 1 item, or 2 seafood
                    "taken_by": null | seat | "npc"}, ...],            # net marker when not null
         "divers": [seat | "npc", ...],            # empty before the reveal
         "creatures": [{"kind": str, "owner": seat | "npc"}, ...],     # empty before the reveal
         "occupied": bool,                          # a Haenyeo or creature is here (after reveal)
         "connected": bool | null}                  # null before the reveal; zone 0 always true after
      ],
      "current": null | {               # phase "actions" only
         "zone": int,                   # zone being resolved
         "actors": [seat | "npc", ...], # who acts there, in order (empty if disconnected)
         "waiting_for": null | {"seat": seat,
                                "decision": "zone0" | "harvest" | "trash_bonus" | "seafood_bonus"}},
      "players": [                      # one per seat, in seat order
        {"seat": int,
         "confirmed": bool,             # has locked in diving cards this round
         "pawns": int,                  # active Haenyeo (2, or 3 once gained)
         "third_gained": bool,          # false: the 3rd pawn still waits beside zone 0
         "dives": null | [zone, ...],   # null until the reveal
         "seafood": {"conch": int, "abalone": int, "mustard": int, "urchin": int, "octopus": int},
         "tracks": {same keys: track length},
         "turtle_eggs": int,            # circles drawn
         "turtle_eggs_used": int,       # circles crossed out
         "turtle_egg_spaces": int,
         "trash": [trash key, ...],     # types marked
         "pearls": int,
         "pearl_points": int,           # value of the rightmost marked pearl space
         "round_scores": {"3": int, "6": int, "8": int},   # only the rounds scored so far
         "score_so_far": int}           # sum of round_scores
      ],
      "progression": [[int, ...], ...], # per seat, running total after each scoring round so far
      "progression_labels": ["Round 3", ...],   # one label per progression column
      "npc_player": null | {"dives": null | [zone, ...], "used_cards": [zone, ...]},
      "trash_types": [{"key": str, "name": str}, ...],
      "seafood_types": [{"key": str, "name": str}, ...],
      "you": null | {                   # a seat's own view only
         "seat": int,
         "hand": [{"zone": int, "creature": null | str}, ...],   # all 12 diving cards
         "selected": [zone, ...],       # toggled cards (secret until the reveal)
         "confirmed": bool,
         "must_select": int},           # active Haenyeo = cards to choose
      "result": {...}                   # only when phase == "end": Result.to_dict()
    }

Nothing in the public view, nor in another seat's view, depends on a seat's
toggled or confirmed cards before the reveal: only ``confirmed`` and ``to_act``.
"""

from __future__ import annotations

from itertools import accumulate
from typing import Any

from engine.haenyeo.components import (
    CREATURE_ZONE,
    FREE,
    NPC,
    SEAFOOD,
    C,
    item_key,
)
from engine.haenyeo.rules import PEND_HARVEST, PEND_TRASH, PEND_ZONE0, rows
from engine.haenyeo.scoring import pearl_points
from engine.haenyeo.state import State

_PARTS = (
    "surface",
    "shallow",
    "shallow",
    "shallow",
    "shallow",
    "deep",
    "deep",
    "deep",
    "deep",
    "deep",
    "deep",
)
_PARTS = (*_PARTS, "pearl")
_DECISIONS = {PEND_ZONE0: "zone0", PEND_HARVEST: "harvest", PEND_TRASH: "trash_bonus"}


def who(actor: int) -> int | str:
    """A seat as an int, the NPC as "npc"."""
    return "npc" if actor == NPC else actor


def _tile(state: State) -> dict[str, Any]:
    tile = C.tiles[state.tile]
    return {
        "index": state.tile,
        "name": tile.name,
        "rounds": {
            str(r): [{"key": key, "text": C.rules[key].text} for key in keys]
            for r, keys in tile.rounds.items()
        },
        "trash": list(tile.trash),
    }


def build_view(state: State, seat: int | None, to_act: list[int], result: dict | None) -> dict[str, Any]:
    """The view described in the module docstring."""
    revealed = state.phase != "select"
    sea_rows = rows(state)
    zones = []
    for zone in range(12):
        divers: list[int | str] = []
        creatures: list[dict[str, Any]] = []
        if revealed:
            owners = [(s, state.chosen[s]) for s in range(state.seats)]
            if state.npc:
                owners.append((NPC, state.npc_cards))
            for owner, mask in owners:
                if mask >> zone & 1:
                    divers.append(who(owner))
                if zone + 1 < 12 and mask >> (zone + 1) & 1 and CREATURE_ZONE[zone + 1] == zone:
                    creatures.append({"kind": C.creatures[zone + 1], "owner": who(owner)})
        taken = state.taken[zone]
        zones.append(
            {
                "zone": zone,
                "part": _PARTS[zone],
                "slots": [
                    {
                        "items": [item_key(i) for i in slot],
                        "taken_by": None if taken[i] == FREE else who(taken[i]),
                    }
                    for i, slot in enumerate(sea_rows[zone])
                ],
                "divers": divers,
                "creatures": creatures,
                "occupied": bool(revealed and ((zone == 0 and divers) or state.occupied >> zone & 1)),
                "connected": (zone <= state.reach) if revealed else None,
            }
        )
    current = None
    if state.phase == "actions":
        waiting = None
        if state.pending:
            waiting = {
                "seat": state.pending[1],
                "decision": _DECISIONS.get(state.pending[0], "seafood_bonus"),
            }
        current = {"zone": state.zone, "actors": [who(a) for a in state.actors], "waiting_for": waiting}
    players = []
    for s in range(state.seats):
        food = state.food[s]
        players.append(
            {
                "seat": s,
                "confirmed": bool(state.confirmed[s]) if not revealed else True,
                "pawns": state.pawns[s],
                "third_gained": bool(state.third[s]),
                "dives": [z for z in range(12) if state.chosen[s] >> z & 1] if revealed else None,
                "seafood": dict(zip(SEAFOOD, food, strict=True)),
                "tracks": dict(zip(SEAFOOD, C.tracks, strict=True)),
                "turtle_eggs": state.eggs[s],
                "turtle_eggs_used": state.eggs_used[s],
                "turtle_egg_spaces": C.egg_spaces,
                "trash": [C.trash[k] for k in range(len(C.trash)) if state.trash[s] >> k & 1],
                "pearls": state.pearls[s],
                "pearl_points": pearl_points(state.pearls[s]),
                "round_scores": {str(r): p for r, p in zip(C.scoring_rounds, state.scores[s], strict=False)},
                "score_so_far": sum(state.scores[s]),
            }
        )
    npc_player = None
    if state.npc:
        npc_player = {
            "dives": [z for z in range(12) if state.npc_cards >> z & 1] if revealed else None,
            "used_cards": [z for z in range(12) if state.npc_used >> z & 1],
        }
    r = min(state.round, C.rounds) - 1
    view: dict[str, Any] = {
        "game": "haenyeo",
        "phase": state.phase,
        "to_act": to_act,
        "seats": state.seats,
        "round": state.round,
        "rounds": C.rounds,
        "scoring_rounds": list(C.scoring_rounds),
        "first_player": state.first,
        "first_player_passes": state.passes,
        "npc": state.npc,
        "score_tile": _tile(state),
        "pearl_track": [
            {"points": p, "bonus": b} for p, b in zip(C.pearl_points, C.pearl_bonus, strict=True)
        ],
        "pearls_per_haenyeo": C.pearls_per_haenyeo,
        "third_cost": C.third_cost,
        "sea_cards": {
            "shallow": C.shallow_cards[state.shallow[r]][0],
            "deep": C.deep_cards[state.deep[r]][0],
            "shallow_left": len(state.shallow) - state.round,
            "deep_left": len(state.deep) - state.round,
        },
        "revealed": revealed,
        "reach": state.reach if revealed else None,
        "zones": zones,
        "current": current,
        "players": players,
        "progression": [list(accumulate(state.scores[s])) for s in range(state.seats)],
        "progression_labels": [f"Round {r}" for r in C.scoring_rounds[: len(state.scores[0])]],
        "npc_player": npc_player,
        "trash_types": [{"key": k, "name": n} for k, n in zip(C.trash, C.trash_names, strict=True)],
        "seafood_types": [{"key": k, "name": n} for k, n in zip(SEAFOOD, C.seafood_names, strict=True)],
        "you": None,
    }
    if seat is not None and 0 <= seat < state.seats:
        view["you"] = {
            "seat": seat,
            "hand": [{"zone": z, "creature": C.creatures[z]} for z in range(12)],
            "selected": [z for z in range(12) if state.chosen[seat] >> z & 1],
            "confirmed": bool(state.confirmed[seat]) if not revealed else True,
            "must_select": state.pawns[seat],
        }
    if result is not None:
        view["result"] = result
    return view
