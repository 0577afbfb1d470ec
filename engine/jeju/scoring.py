"""Counting Up Your Score: card points plus 1 point per 2 leftover tiles; Haenyeo tiles score nothing.

The tie-break (most point cards) decides places among seats with equal points;
seats equal on both share the place and the win.
"""

from __future__ import annotations

import i18n
from engine.base import Result, load_labels, places_from_scores
from engine.jeju.components import BOARD, CARDS, JOKER
from engine.jeju.state import FINISHED, JejuState

PER_POINT = BOARD["leftover_tiles_per_point"]
#: Words for internal keys (data/jeju/labels.json); the breakdown's go with every result.
LABELS = load_labels("jeju")


def breakdown(state: JejuState, seat: int) -> dict[str, int]:
    """A seat's points by category, as they stand now."""
    cards = sum(CARDS[c].points for c in state.owned[seat])
    hand = state.hands[seat]
    leftover = sum(hand) - hand[JOKER]
    return {"cards": cards, "tiles": leftover // PER_POINT}


def score(state: JejuState, seat: int) -> int:
    """A seat's total points as they stand now."""
    parts = breakdown(state, seat)
    return parts["cards"] + parts["tiles"]


def result(state: JejuState) -> Result | None:
    """Final scores, places (tie-break: most point cards) and the breakdown; None while playing."""
    if state.phase != FINISHED:
        return None
    parts = tuple(breakdown(state, s) for s in range(state.seats))
    scores = tuple(p["cards"] + p["tiles"] for p in parts)
    counts = tuple(len(state.owned[s]) for s in range(state.seats))
    ranking = places_from_scores([(scores[s], counts[s]) for s in range(state.seats)])
    winners = frozenset(s for s in range(state.seats) if ranking[s] == 1)
    notes = [
        i18n.say("The game ended because every stack of Jeju tiles is gone.")
        if state.end_reason == "tiles"
        else i18n.say("The game ended because the point card deck ran out.")
    ]
    best = max(scores)
    if sum(1 for s in scores if s == best) > 1:
        notes.append(i18n.say("Tied on points: the most point cards breaks the tie."))
    words = {k: LABELS["breakdown"].get(k, k) for k in parts[0]}
    return Result(
        scores=scores, ranking=ranking, winners=winners, breakdown=parts, notes=tuple(notes), labels=words
    )
