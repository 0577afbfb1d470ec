"""A readable text form of a Haenyeo state (logs and test failures), in English.

`describe` shows what the whole table may see: the round, the score tile, the sea with
every slot and its net marker, the divers and creatures once the cards are revealed, the
NPC's used cards and every sheet. The secret parts — each seat's toggled diving cards
before the reveal, the sea decks still face down, the game's seed — are shown only with
``secrets=True`` (a test's failure message, a developer's log), never by default. Nobody
plays from this text: players read the board (`engine.haenyeo.view`, the renderer).
"""

from __future__ import annotations

from engine.haenyeo.components import FREE, NPC, PEARL_ZONE, ZONES, C, creature_mask, slot_text
from engine.haenyeo.rules import PEND_HARVEST, PEND_SEAFOOD, PEND_TRASH, PEND_ZONE0, name, rows
from engine.haenyeo.scoring import pearl_points
from engine.haenyeo.state import State

#: What each pending decision waits for, in words.
DECISIONS = {
    PEND_ZONE0: "to use turtle eggs in zone 0",
    PEND_HARVEST: "to choose a slot",
    PEND_TRASH: "to choose a trash bonus",
    PEND_SEAFOOD: "to choose two seafood",
}


def zones(mask: int) -> str:
    """The zones of a mask, e.g. '3, 7' ('-' for none)."""
    return ", ".join(str(z) for z in range(ZONES) if mask >> z & 1) or "-"


def _who(seat: int) -> str:
    return "NPC" if seat == NPC else name(seat)


def _head(state: State) -> list[str]:
    marker = "passes clockwise (house rule)" if state.passes else "stays"
    lines = [
        f"Haenyeo — round {min(state.round, C.rounds)} of {C.rounds}, phase {state.phase}; "
        f"score tile {C.tiles[state.tile].name}; First Player {_who(state.first)} (marker {marker})"
        + ("; with the NPC" if state.npc else "")
    ]
    if state.phase == "actions":
        actors = ", ".join(_who(a) for a in state.actors) or "nobody"
        line = f"Resolving zone {state.zone}: {actors}"
        if state.pending:
            kind, seat = state.pending
            line += f"; waiting for {_who(seat)} {DECISIONS.get(kind, f'(decision {kind})')}"
        if state.bonus:
            line += "; pearl bonuses queued: " + ", ".join(f"{_who(s)} {kind}" for s, kind in state.bonus)
        lines.append(line)
    return lines


def _sea(state: State) -> list[str]:
    r = min(state.round, C.rounds) - 1
    shallow, deep = state.shallow[r], state.deep[r]
    revealed = state.phase != "select"
    lines = [
        f"Sea cards: shallow {C.shallow_cards[shallow][0]}, deep {C.deep_cards[deep][0]}"
        + (f"; connected down to zone {state.reach}" if revealed else "; diving cards not revealed yet")
    ]
    divers: list[list[str]] = [[] for _ in range(ZONES)]
    creatures: list[list[str]] = [[] for _ in range(ZONES)]
    if revealed:
        placed = [(s, state.chosen[s]) for s in range(state.seats)]
        if state.npc:
            placed.insert(0, (NPC, state.npc_cards))
        for seat, mask in placed:
            for z in range(ZONES):
                if mask >> z & 1:
                    divers[z].append(_who(seat))
            creature = creature_mask(mask)
            for z in range(ZONES):
                if creature >> z & 1:
                    creatures[z].append(_who(seat))
    sea = rows(state)
    for zone in range(ZONES):
        if zone == 0:
            cells = "surface (turtle eggs)"
        elif zone == PEARL_ZONE:
            cells = f"pearls ({C.pearls_per_haenyeo} a Haenyeo)"
        else:
            taken = state.taken[zone]
            cells = " | ".join(
                slot_text(slot) + ("" if taken[i] == FREE else f" [net: {_who(taken[i])}]")
                for i, slot in enumerate(sea[zone])
            )
        here = ""
        if divers[zone]:
            here += "; divers " + ", ".join(divers[zone])
        if creatures[zone]:
            here += "; creature of " + ", ".join(creatures[zone])
        lines.append(f"  zone {zone:2}: {cells}{here}")
    return lines


def _player(state: State, seat: int, secrets: bool) -> list[str]:
    food = ", ".join(
        f"{kind} {have}/{track}"
        for kind, have, track in zip(C.seafood, state.food[seat], C.tracks, strict=True)
    )
    trash = ", ".join(t for k, t in enumerate(C.trash_names) if state.trash[seat] >> k & 1) or "none"
    scores = ", ".join(f"round {r}: {p}" for r, p in zip(C.scoring_rounds, state.scores[seat], strict=False))
    third = "3rd gained" if state.third[seat] else "3rd waiting"
    cards = ""
    if state.phase == "select":
        cards = "confirmed" if state.confirmed[seat] else "choosing"
        if secrets:
            cards += f", selected {zones(state.chosen[seat])} (secret)"
        cards = f"; {cards}"
    return [
        f"{_who(seat)}: {state.pawns[seat]} Haenyeo ({third}){cards}",
        f"    seafood {food}",
        f"    turtle eggs {state.eggs[seat] - state.eggs_used[seat]} free of {state.eggs[seat]}; "
        f"trash {trash}; pearls {state.pearls[seat]} ({pearl_points(state.pearls[seat])} points)",
        f"    scores {scores or 'none yet'} (total {sum(state.scores[seat])})",
    ]


def describe(state: State, secrets: bool = False) -> str:
    """Several lines describing ``state`` as the whole table sees it; ``secrets`` adds the hidden parts."""
    lines = [*_head(state), *_sea(state)]
    for seat in range(state.seats):
        lines.extend(_player(state, seat, secrets))
    if state.npc:
        lines.append(f"NPC: cards used since the reshuffle {zones(state.npc_used)}")
    if secrets:
        r = min(state.round, C.rounds)
        lines.append(
            f"Secret: seed {state.seed}; shallow deck ahead "
            f"{[C.shallow_cards[c][0] for c in state.shallow[r:]]}; deep deck ahead "
            f"{[C.deep_cards[c][0] for c in state.deep[r:]]}"
        )
    return "\n".join(lines)
