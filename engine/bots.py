"""Seat policies: how a bot seat (or a timed-out player) chooses a move.

A policy is ``policy(game, state, seat, rng) -> action``; it chooses only from
``game.legal_actions(state, seat)`` and is deterministic for a given ``rng``.
Each game's ``ai`` package exports ``POLICIES`` with at least ``random`` and
``greedy``.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import importlib
import random
from collections.abc import Callable, Iterator, Sequence

from engine import GAME_PACKAGES
from engine.base import _SEARCHING, Action, Game, State

Policy = Callable[[Game, State, int, random.Random], Action]

#: What plays each seat of the table a decision is made at (`seated`), for policies that model the
#: other seats: a bot seat's policy name, None for a person. None as a whole: nobody said.
_SEATED: contextvars.ContextVar[tuple[str | None, ...] | None] = contextvars.ContextVar(
    "seated", default=None
)


@contextlib.contextmanager
def seated(policies: Sequence[str | None] | None) -> Iterator[None]:
    """Tell the policies called inside what plays each seat (a policy name per seat, None for a
    person), so a search can model the other seats as what they are (issue #39)."""
    token = _SEATED.set(tuple(policies) if policies is not None else None)
    try:
        yield
    finally:
        _SEATED.reset(token)


def seat_policies() -> tuple[str | None, ...] | None:
    """What plays each seat, as `seated` told (None when nobody did)."""
    return _SEATED.get()


#: Seconds of CPU a policy that can use more time (the Master level) may spend on one move.
LIVE_THINKING = 3.0
#: ... and at a slow table, where nobody waits at the screen for the bot's move.
SLOW_THINKING = 10.0
_THINKING: contextvars.ContextVar[float] = contextvars.ContextVar("thinking", default=LIVE_THINKING)


@contextlib.contextmanager
def thinking_time(seconds: float) -> Iterator[None]:
    """Tell the policies called inside how long they may think about one move (issue #39's
    Master level). A policy turns it into a fixed amount of search, never a clock reading, so
    the same decision is made again on a replay or on a faster machine."""
    token = _THINKING.set(seconds)
    try:
        yield
    finally:
        _THINKING.reset(token)


def thinking_budget() -> float:
    """Seconds a move may take, as `thinking_time` told (`LIVE_THINKING` when nobody did)."""
    return _THINKING.get()


def policies(game_key: str) -> dict[str, Policy]:
    """Every policy a game offers, by name."""
    return importlib.import_module(f"{GAME_PACKAGES[game_key]}.ai").POLICIES


def policy(game_key: str, name: str) -> Policy:
    """One named policy for a game, run with `engine.base.without_text` (its search's events are
    never read, so they are not said in English)."""
    chosen = policies(game_key)[name]

    @functools.wraps(chosen)
    def quietly(game: Game, state: State, seat: int, rng: random.Random) -> Action:
        token = _SEARCHING.set(True)  # `without_text` without a context manager's cost per move
        try:
            return chosen(game, state, seat, rng)
        finally:
            _SEARCHING.reset(token)

    return quietly


def play_states(
    game: Game, state: State, chooser: Callable[[int], Policy], rng: random.Random
) -> Iterator[State]:
    """Every state from ``state`` to the end of the game, asking ``chooser(seat)`` for each seat's policy.

    Seats that owe a move act in seat order, which keeps play-outs reproducible.
    """
    yield state
    while seats := game.to_act(state):
        seat = min(seats)
        state, _ = game.apply(state, seat, chooser(seat)(game, state, seat, rng))
        yield state


def play_out(game: Game, state: State, chooser: Callable[[int], Policy], rng: random.Random) -> State:
    """Play ``state`` to the end (see `play_states`) and return the final state."""
    final = state
    for final in play_states(game, state, chooser, rng):  # noqa: B007 - the last one is the answer
        pass
    return final
