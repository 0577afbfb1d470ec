"""The clock rules of async play: paces, when a step starts, reminders and wake-ups.

Pure functions over numbers (seconds since the epoch), so the service, the
scheduler and the tests agree on them. No Discord, no SQL, no clock of its own.
"""

from __future__ import annotations

from typing import Any

import i18n
from i18n import N_

#: The paces offered at /play: label → seconds per move (0 = live, no deadline).
PACES: dict[str, int] = {
    "live": 0,
    "10 minutes": 600,
    "1 hour": 3600,
    "12 hours": 12 * 3600,
    "24 hours": 24 * 3600,
    "3 days": 3 * 24 * 3600,
}
#: How each pace of `PACES` is said (seconds per move → words).
PACE_WORDS: dict[int, str] = {
    0: N_("live (no deadline)"),
    600: N_("10 minutes per move"),
    3600: N_("1 hour per move"),
    12 * 3600: N_("12 hours per move"),
    24 * 3600: N_("24 hours per move"),
    3 * 24 * 3600: N_("3 days per move"),
}
#: An unstarted lobby is cancelled this long after it opened.
LOBBY_LIFETIME = 24 * 3600
#: Missed deadlines in a row after which a bot takes the seat for good.
TIMEOUTS_BEFORE_HANDOVER = 3
#: The last reminder comes this long before the deadline at most.
LAST_REMINDER_AT_MOST = 3600


def pace_label(pace: int, lang: str = i18n.SOURCE) -> str:
    """The words for a pace in ``lang`` ("24 hours per move", or "live (no deadline)")."""
    t = i18n.words(lang)
    words = PACE_WORDS.get(pace)
    return t(words) if words else t("{seconds} seconds per move", seconds=pace)


def reminder_times(deadline: float, pace: int) -> list[float]:
    """When the awaited players are reminded: at half the time, and shortly before the deadline."""
    return [deadline - pace / 2, deadline - min(pace / 10, LAST_REMINDER_AT_MOST)]


def wake_at(deadline: float | None, pace: int, reminders_sent: int) -> float | None:
    """The next instant the scheduler must look at a running table: its next reminder or its deadline."""
    if deadline is None:
        return None
    pending = reminder_times(deadline, pace)[reminders_sent:]
    return pending[0] if pending else deadline


def reminders_due(deadline: float, pace: int, now: float) -> int:
    """How many reminders should have gone out by ``now`` (0, 1 or 2)."""
    return sum(1 for instant in reminder_times(deadline, pace) if instant <= now)


def is_new_step(before: frozenset[int], after: frozenset[int], public: bool) -> bool:
    """Whether a move starts a new step, which restarts the clock.

    A step starts when the game waits for a seat it was not waiting for (the
    next player's turn, a reveal that asks someone to pick), or when a public
    move leaves it waiting for the same players (a new turn or round of the
    same player). While players of a simultaneous step finish one by one, the
    step, and its deadline, go on.
    """
    return bool(after - before) or (after == before and public)


def after_move(
    *,
    pace: int,
    deadline: float | None,
    reminders: int,
    new_step: bool,
    finished: bool,
    now: float,
) -> dict[str, Any]:
    """The clock columns after an accepted move."""
    if finished or pace == 0:
        return {"deadline": None, "reminders": 0, "wake_at": None}
    if new_step or deadline is None:
        deadline, reminders = now + pace, 0
    return {"deadline": deadline, "reminders": reminders, "wake_at": wake_at(deadline, pace, reminders)}
