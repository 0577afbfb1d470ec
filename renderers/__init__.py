"""Board pictures: engine views in, PNG pictures out (Pillow).

``render(game_key, view, names)`` draws what ``engine.get(game_key).view(state, seat)``
returned — the public board when the view is public, a seat's own picture when it
is private. ``render_results(game_key, view, names)`` draws a finished game. A
renderer reads nothing but the view, so it cannot leak a secret.

Each game's drawing lives in ``renderers/<game_key>.py``, which exports
``render(view, names) -> Picture`` and may export ``render_results(view, names)``;
without one, the generic results picture of `renderers.results` is used. The
per-game module is imported only when first used, so a game without one fails
with a clear `RenderError` and the others keep working.

Drawing is CPU work of tens of milliseconds: from the event loop use
``await render_async(...)`` / ``await render_results_async(...)``, which draw in
worker processes, one per core, and keep the last pictures (`renderers.pool`).
In one process pictures are drawn one at a time (a lock): the cached fonts share
FreeType faces, which only one thread may use at once.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import threading
from collections.abc import Sequence
from types import ModuleType

import engine
from renderers.common import TITLES, Picture, RenderError, speaking
from renderers.pool import PicturePool

__all__ = [
    "PICTURES",
    "Picture",
    "RenderError",
    "render",
    "render_async",
    "render_rating_history",
    "render_rating_history_async",
    "render_results",
    "render_results_async",
]


#: One picture at a time: FreeType faces (cached in renderers.common.font) are not thread-safe.
_DRAWING = threading.Lock()


def warm_up() -> int:
    """Run in each drawing worker once: draw a board and a private picture of every game, so the
    renderers, their fonts and cached layers are ready before the first real picture (cold, one
    costs ~250 ms). Returns the worker's process id."""
    for game in engine.games():
        if game.key not in TITLES:  # a test's own game has no pictures
            continue
        state = game.new(game.min_seats, seed=0)
        with contextlib.suppress(RenderError):
            render(game.key, game.view(state, None))
            render(game.key, game.view(state, 0))
    return os.getpid()


#: The worker processes that draw for the event loop, and their cache of recent pictures.
PICTURES = PicturePool(warm=warm_up)


def _module(game_key: str, required: bool) -> ModuleType | None:
    """``renderers.<game_key>``, imported on first use; None when absent and not ``required``."""
    if game_key not in TITLES:
        raise RenderError(f"unknown game {game_key!r}; known: {', '.join(TITLES)}")
    name = f"{__name__}.{game_key}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:  # the module exists but something it imports is missing
            raise
        if required:
            raise RenderError(
                f"no renderer for {game_key!r} yet (expected renderers/{game_key}.py)"
            ) from error
        return None


def _names(names: Sequence[object] | None) -> list[str | None] | None:
    return None if names is None else [None if n is None else str(n) for n in names]


def render(game_key: str, view: dict, names: Sequence[object] | None = None, lang: str = "en") -> Picture:
    """The picture of one view: the public board, or a seat's private picture.

    ``names`` are optional display names per seat; without them seats are A, B, C…
    ``lang`` is the language of its words and alt text (`i18n.LANGUAGES`).
    """
    module = _module(game_key, required=True)
    with _DRAWING, speaking(lang):
        return module.render(view, _names(names))


def render_results(
    game_key: str, view: dict, names: Sequence[object] | None = None, lang: str = "en"
) -> Picture:
    """The end-of-game picture of a finished view (one that carries ``"result"``)."""
    module = _module(game_key, required=False)
    with _DRAWING, speaking(lang):
        if module is not None and hasattr(module, "render_results"):
            return module.render_results(view, _names(names))
        from renderers import results

        return results.render_results(game_key, view, _names(names))


async def render_async(
    game_key: str, view: dict, names: Sequence[object] | None = None, lang: str = "en"
) -> Picture:
    """`render` in a worker process, so the event loop keeps running (the same content: drawn once)."""
    return await PICTURES.draw(render, game_key, "view", view, _names(names), lang)


async def render_results_async(
    game_key: str, view: dict, names: Sequence[object] | None = None, lang: str = "en"
) -> Picture:
    """`render_results` in a worker process."""
    return await PICTURES.draw(render_results, game_key, "results", view, _names(names), lang)


def render_league(
    game_key: str, view: dict, names: Sequence[object] | None = None, lang: str = "en"
) -> Picture:
    """A league's standings, or its final standings with the podium (issue #38; `renderers.league`)."""
    from renderers import league

    with _DRAWING, speaking(lang):
        return league.render_league(game_key, view, names, lang)


async def render_league_async(game_key: str, view: dict, lang: str = "en") -> Picture:
    """`render_league` in a worker process."""
    return await PICTURES.draw(render_league, game_key, "league", view, None, lang)


def render_rating_history(_kind: str, view: dict, _names: object = None, lang: str = "en") -> Picture:
    """`/stats`' rating-history picture (`renderers.ratings`); the signature is the picture pool's."""
    from renderers import ratings

    with _DRAWING, speaking(lang):
        return ratings.render_history(view)


async def render_rating_history_async(view: dict, lang: str = "en") -> Picture:
    """`render_rating_history` in a worker process (the same content: drawn once)."""
    return await PICTURES.draw(render_rating_history, "ratings", "history", view, None, lang)
