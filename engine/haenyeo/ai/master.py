"""The ``master`` seat policy: the expert's card search, its best sets then played out to the end.

Issue #39's Master level, for players who want a stronger bot and will wait for it. It sees
exactly what the expert sees (`engine.haenyeo.ai.expert.information`), and chooses its diving
cards in two steps:

1. the expert's one-round search (`expert._Board.totals`, with the other seats modelled as what
   plays them) ranks every card set; the best `CANDIDATES` go on;
2. each of them is played out to the end of the game in the same determinizations (the other
   seats' cards drawn from the expert's models, the NPC's draw and the sea decks re-sampled),
   every seat then playing greedy; the set with the best mean outcome — a win first, then the
   margin — is chosen, the expert's ranking breaking ties.

How many play-outs is fixed by `engine.bots.thinking_budget` through `PLAYOUT_COST` (a
constant measured on the development machine), never by a clock, so a replay chooses the same.
Its random numbers come from the same secret-seeded key as the expert's (`decision_key`), so it
is as unpredictable. Every other decision is the expert's.
"""

from __future__ import annotations

import hashlib
import random
from collections import OrderedDict

from engine.base import Game
from engine.bots import thinking_budget
from engine.haenyeo import actions as A
from engine.haenyeo.ai import expert
from engine.haenyeo.ai.greedy import greedy_policy, toggle_towards
from engine.haenyeo.components import C
from engine.haenyeo.state import State

#: Card sets from the expert's ranking that are played out.
CANDIDATES = 6
#: CPU seconds of a play-out per round it still plays and per cubed seat (the NPC counts as half a
#: seat; every greedy seat guesses every other's cards), measured on the development machine:
#: about 26 ms for a whole 2-seat game, 100 ms at 4 seats. The dearest decisions (the first rounds
#: at 2 seats) cost up to 0.2 ms a unit on the busy 2-core machine (3.3 s for a 3 s budget at
#: 0.175 ms, 4.9 s at its worst), so it counts 0.21 ms (issue #39, session 16).
PLAYOUT_COST = 0.00021
#: Fewest determinizations per candidate, whatever the budget says.
MIN_DRAWS = 2
_MEMO: OrderedDict[str, frozenset[int]] = OrderedDict()
_MEMO_SIZE = 256


def draws_for(state: State, budget: float) -> int:
    """Determinizations (each played out once per candidate) a budget of ``budget`` seconds buys:
    a fixed conversion by what a play-out from this round costs, never a clock reading."""
    seats = state.seats + (0.5 if state.npc else 0.0)
    rounds = C.rounds - state.round + 1
    return max(MIN_DRAWS, int(budget / (PLAYOUT_COST * seats**3 * rounds * CANDIDATES)))


def _outcome(game: Game, state: State, seat: int) -> float:
    """Play to the end with greedy everywhere: a win counts 1 (1/k shared), the margin over the best
    other seat a thousandth a point."""
    while to_act := game.to_act(state):
        s = min(to_act)
        state = game.advance(state, s, greedy_policy(game, state, s, None))
    result = game.result(state)
    won = 1 / len(result.winners) if seat in result.winners else 0.0
    best_other = max(v for i, v in enumerate(result.scores) if i != seat)
    return won + (result.scores[seat] - best_other) / 1000


def choose_cards(game: Game, state: State, seat: int, budget: float) -> frozenset[int]:
    """The expert's best card sets, played out; the best mean outcome (see the module doc)."""
    levels = expert.seat_levels(state)
    draws = draws_for(state, budget)
    key = hashlib.sha256(f"{expert.decision_key(state, seat)}:{levels}:master:{draws}".encode()).hexdigest()
    found = _MEMO.get(key)
    if found is not None:
        _MEMO.move_to_end(key)
        return found
    rng = random.Random(key)
    info = expert.information(state, seat, rng)
    board = expert._Board(info)
    models, _ = expert._table_models(info, board, seat, levels, rng)
    mine, totals = board.totals(seat, models, rng, expert.SAMPLES)
    ranked = sorted(range(len(mine)), key=lambda i: (-totals[i], i))[:CANDIDATES]
    outcome = dict.fromkeys(ranked, 0.0)
    opponents = [s for s in range(state.seats) if s != seat]
    for _ in range(draws):
        deal = expert.information(state, seat, rng)
        deal.__dict__.pop("_legal", None)
        chosen = list(deal.chosen)
        for s in opponents:
            chosen[s] = models[s].sample(rng)
        for index in ranked:
            placed = deal.copy()
            chosen[seat] = expert._mask(mine[index])
            placed.chosen = tuple(chosen)
            placed.confirmed = tuple(0 if s == seat else 1 for s in range(state.seats))
            outcome[index] += _outcome(game, game.advance(placed, seat, A.CONFIRM), seat)
    best = max(ranked, key=lambda i: (outcome[i], -ranked.index(i)))
    choice = frozenset(mine[best])
    _MEMO[key] = choice
    if len(_MEMO) > _MEMO_SIZE:
        _MEMO.popitem(last=False)
    return choice


def master_policy(game: Game, state: State, seat: int, rng: random.Random) -> A.Action:
    """The expert, its card choice played out to the end within `thinking_budget` (module doc)."""
    options = game.legal_actions(state, seat)
    if len(options) == 1:
        return options[0]
    if state.phase == "select":
        return toggle_towards(state, seat, choose_cards(game, state, seat, thinking_budget()))
    return expert.expert_policy(game, state, seat, rng)
