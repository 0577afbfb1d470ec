"""Reading a person's level from the moves they make at a table (issue #39).

A searching bot models each other seat as what plays it (`engine.bots.seated`). A
bot seat says its level; a person does not, so their moves are read: each move
they made is weighed by how likely each model (three, and a fourth in some games)
was to make it, and the model that explains their moves best is what the search
models them as:

- ``random`` makes any legal move: a move's chance is one in the moves there were;
- ``beginner`` is asked `SAMPLES` times with fixed rngs, and a move's chance is the
  share of its answers it was, mixed with a little of random's (`SLACK`) so one
  surprise does not rule a beginner out;
- ``greedy`` stands for greedy *or better*: a player who makes greedy's move
  (asked as the beginner is, for its ties) a good share of the time
  (`GREEDY_SHARE`) and otherwise something greedy does not see. A strong player
  leaves greedy's move for a better one often (the Jeju Island expert in more than
  half its moves), and reads so, not as a random player. A game's ai package may name
  other cheap policies a good player's moves are seen in (``GOOD_PLAYERS``; Jeju
  Island: the expert's play-out policy, which beats greedy 49 games in 50): then part
  of that share (`GOOD_PART`) is their moves instead of greedy's.

A game whose ai package says how likely its expert was to make a move
(``expert_chance``; Haenyeo) adds a fourth model:

- ``expert`` makes the expert's move (Haenyeo's diving cards: one of the sets its
  mixed choice draws from, as likely as it draws it), with the same `SLACK`.

`Reading.level` names a weaker level only when its likelihood beats greedy-or-better's
(and the expert's) by `EVIDENCE` (a likelihood ratio), and "expert" only when the
expert's beats every other's by as much; either only after `MIN_MOVES` moves with a
choice. Anything else reads as None: greedy or better, nothing to tell the search.
In Jeju Island an expert and an unread person are played alike in the expert's
play-outs (by its play-out policy), and Reef & Ruins models nobody, so neither
game's ai package names ``expert_chance``: reading an expert there would cost a
search per move and change no decision.

A reading never looks at a choice before the rules show it (`TableReading`): a
game's open moves (its ai package's ``OPEN_MOVES``: made in sight of everyone, each
a whole decision) are read as they are made, its secret ones (``SECRET_MOVES``:
Haenyeo's confirmed diving cards) only once revealed. A game without ``OPEN_MOVES``
is not read. The policies asked read only the mover's own view, as at the table.
"""

from __future__ import annotations

import importlib
import math
import random
from dataclasses import dataclass, field

from engine import GAME_PACKAGES
from engine.base import Action, Game, State, without_text
from engine.bots import policies

#: The models every reading weighs, weakest first; greedy stands for "greedy or better".
LEVELS = ("random", "beginner", "greedy")
#: The levels below greedy a reading may name.
WEAKER = ("random", "beginner")
#: The fourth model, weighed where the game's ai package names ``expert_chance``.
EXPERT = "expert"
#: Answers asked of the beginner and of greedy per move.
SAMPLES = 8
#: The share of a beginner's chance that is random's (one surprise is not proof).
SLACK = 0.1
#: How often greedy-or-better makes greedy's move (or a good player's); the rest is spread over every move.
GREEDY_SHARE = 0.5
#: The part of `GREEDY_SHARE` that is the ``GOOD_PLAYERS``' moves where a game names them (shared
#: among them evenly). Chosen on seeds 3000-3019 (`bench.reading`): Jeju's expert read as random in
#: 3 of 20 games when greedy's move was all, in none at 0.3; about as many weak players were told
#: (14 of 40 against 13: more beginners, fewer random players) and no greedy player came within
#: 2.4 (log) of being read as weaker.
GOOD_PART = 0.3
#: Moves with a choice read before a weaker level may be named.
MIN_MOVES = 6
#: How many times likelier than greedy's a weaker level's reading must be (log of it is used).
EVIDENCE = 20000.0


@dataclass
class Reading:
    """One seat's moves read so far: how many, and each model's log-likelihood of them."""

    moves: int = 0
    weights: dict[str, float] = field(default_factory=lambda: dict.fromkeys(LEVELS, 0.0))

    def level(self) -> str | None:
        """The level these moves read as: ``"random"`` or ``"beginner"`` (the likelier, when it beats
        greedy-or-better and the expert by `EVIDENCE`), ``"expert"`` (when it beats every other
        model so), or None (greedy or better, or too few moves to tell)."""
        if self.moves < MIN_MOVES:
            return None
        weights, enough = self.weights, math.log(EVIDENCE)
        weakest = max(WEAKER, key=weights.__getitem__)
        stronger = [weights[name] for name in ("greedy", EXPERT) if name in weights]
        if weights[weakest] - max(stronger) >= enough:
            return weakest
        others = [weights[name] for name in LEVELS]
        if EXPERT in weights and weights[EXPERT] - max(others) >= enough:
            return EXPERT
        return None


def _ai(game_key: str):
    """A game's ai package (where ``OPEN_MOVES``, ``SECRET_MOVES`` and ``shown`` live)."""
    return importlib.import_module(f"{GAME_PACKAGES[game_key]}.ai")


def reads(game_key: str) -> bool:
    """Whether this game's moves are read at all (its ai package names its ``OPEN_MOVES``)."""
    return hasattr(_ai(game_key), "OPEN_MOVES")


@dataclass
class TableReading:
    """The readings of a table's seats, and the secret moves read once the rules reveal them.

    A game's ai package names its ``OPEN_MOVES`` (read as they are made) and may name
    ``SECRET_MOVES`` with ``shown(then, now)``: a move made at state ``then`` is read
    only at the first state ``now`` where the rules have revealed it (Haenyeo's
    confirmed diving cards, once every seat has confirmed). Until then it waits in
    ``waiting``, so no reading ever carries a choice the others may not know yet."""

    readings: list[Reading]
    waiting: list[tuple[State, int, Action]] = field(default_factory=list)

    @classmethod
    def of(cls, seats: int) -> TableReading:
        """A table's readings before its first move."""
        return cls([Reading() for _ in range(seats)])

    def see(self, game_key: str, game: Game, before: State, seat: int, action: Action) -> None:
        """Read ``seat``'s ``action``, made at ``before``, as the rules allow: an open move now, a
        secret one once `reveal` finds it shown, anything else never."""
        ai = _ai(game_key)
        kind = type(action)
        if kind in getattr(ai, "OPEN_MOVES", ()):
            weigh(game_key, game, before, seat, action, self.readings[seat])
        elif kind in getattr(ai, "SECRET_MOVES", ()):
            self.waiting.append((before, seat, action))

    def reveal(self, game_key: str, game: Game, now: State) -> None:
        """Read the waiting secret moves that the rules show at ``now`` (call it after every move,
        whoever made it: the last to confirm reveals everyone's cards)."""
        if not self.waiting:
            return
        shown = _ai(game_key).shown
        still = []
        for then, seat, action in self.waiting:
            if shown(then, now):
                weigh(game_key, game, then, seat, action, self.readings[seat])
            else:
                still.append((then, seat, action))
        self.waiting = still


def weigh(game_key: str, game: Game, state: State, seat: int, action: Action, reading: Reading) -> None:
    """Weigh ``seat``'s ``action`` at ``state`` (before it) into ``reading`` (a move that left no
    choice says nothing). The caller has checked the move may be read (`TableReading.see`)."""
    legal = game.legal_actions(state, seat)
    if len(legal) < 2:
        return
    offered, ai = policies(game_key), _ai(game_key)
    uniform = 1.0 / len(legal)

    def asked(choose) -> float:
        """The share of ``choose``'s answers, with `SAMPLES` fixed rngs, that were this move."""
        return sum(choose(game, state, seat, random.Random(n)) == action for n in range(SAMPLES)) / SAMPLES

    with without_text():
        # Each sampled level's share of answers that were this move (greedy's differ only in ties).
        share = {name: asked(offered[name]) for name in ("beginner", "greedy")}
        good = getattr(ai, "GOOD_PLAYERS", ())
        if good:
            theirs = sum(asked(player) for player in good) / len(good)
            share["greedy"] = (1 - GOOD_PART) * share["greedy"] + GOOD_PART * theirs
        expert = getattr(ai, "expert_chance", None)
        expert_share = expert(game, state, seat, action) if expert else None
    chances = {
        "random": uniform,
        "beginner": (1 - SLACK) * share["beginner"] + SLACK * uniform,
        "greedy": GREEDY_SHARE * share["greedy"] + (1 - GREEDY_SHARE) * uniform,
    }
    if expert_share is not None:
        chances[EXPERT] = (1 - SLACK) * expert_share + SLACK * uniform
    for name, chance in chances.items():
        reading.weights[name] = reading.weights.get(name, 0.0) + math.log(chance)
    reading.moves += 1
