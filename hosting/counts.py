"""Counting what the bot does, from any layer, without importing the metrics library.

The service (moves) and the bot pool (decisions) count here. These modules are also
imported where nobody reads metrics (the bot pool's worker processes, the command-line
operations, the crash tests' workers), and ``prometheus_client`` takes ~90 ms to import,
so this module forwards to `hosting.metrics` only once that module is loaded (the bot
process loads it at start); until then a count is dropped, as nothing could read it.
"""

from __future__ import annotations

from types import ModuleType

_metrics: ModuleType | None = None


def attach(metrics: ModuleType) -> None:
    """Forward the counts to ``metrics`` (`hosting.metrics` calls this when imported)."""
    global _metrics
    _metrics = metrics


def moved(game: str) -> None:
    """A move was applied at a table of ``game`` (a player's or a bot's)."""
    if _metrics is not None:
        _metrics.MOVES.labels(game=game).inc()


def bot_decided(ran: str, *, late: bool = False) -> None:
    """A bot seat decided: ``ran`` is ``in_process``, ``worker`` or ``fallback`` (``late``: after
    its deadline)."""
    if _metrics is not None:
        _metrics.bot_decided(ran, late=late)


def board_posted(clicked_at: object = None) -> None:
    """A board went out (``clicked_at``: when the click that led to it was made, for the latency)."""
    if _metrics is not None:
        _metrics.board_posted(clicked_at)  # type: ignore[arg-type]


def discord_refused(status: int) -> None:
    """Discord answered a request of the bot 401, 403 or 429 (`cogs.delivery.RefusalBudget`)."""
    if _metrics is not None:
        _metrics.discord_refused(status)
