"""The picture pool: pictures drawn in worker processes, each content once, surviving a killed worker."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

import engine
import renderers
from renderers import memo
from renderers.pool import WORKER_NICENESS, PicturePool
from tests.seeded import random_states

GAME = engine.get("jeju")


def _views() -> list[dict]:
    return [GAME.view(state, None) for state in random_states("jeju", 2, seed=4, moments=3)]


def test_a_click_s_pictures_are_drawn_side_by_side_and_equal_the_in_process_ones() -> None:
    pool = PicturePool(workers=2)
    views = _views()

    async def draw_all() -> list[renderers.Picture]:
        return await asyncio.gather(
            *(pool.draw(renderers.render, "jeju", "view", v, ["Ann", "Bo"]) for v in views)
        )

    try:
        pictures = asyncio.run(draw_all())
    finally:
        pool.close()
    assert pictures == [renderers.render("jeju", view, ["Ann", "Bo"]) for view in views]
    assert (pool.drawn, pool.cached, pool.in_thread) == (len(views), 0, 0)


def test_the_same_content_is_drawn_once_and_other_names_are_drawn_again() -> None:
    pool = PicturePool(workers=1)
    view = _views()[1]

    async def twice() -> tuple[renderers.Picture, ...]:
        first = await pool.draw(renderers.render, "jeju", "view", view, ["Ann", "Bo"])
        again = await pool.draw(renderers.render, "jeju", "view", view, ["Ann", "Bo"])
        renamed = await pool.draw(renderers.render, "jeju", "view", view, ["Cy", "Bo"])
        return first, again, renamed

    try:
        first, again, renamed = asyncio.run(twice())
    finally:
        pool.close()
    assert first is again
    assert renamed != first
    assert (pool.drawn, pool.cached) == (2, 1)


def test_the_cache_is_bounded() -> None:
    pool = PicturePool(workers=1, cache_size=2)
    views = _views()

    async def draw_all() -> None:
        for view in views:
            await pool.draw(renderers.render, "jeju", "view", view, None)

    try:
        asyncio.run(draw_all())
    finally:
        pool.close()
    assert len(views) > 2 and pool.drawn == len(views)
    assert len(pool._cache) == 2


def test_a_killed_worker_costs_no_picture() -> None:
    pool = PicturePool(workers=1)
    view = _views()[0]
    try:
        pid = pool._pool().submit(renderers.warm_up).result()
        os.kill(pid, signal.SIGKILL)
        picture = asyncio.run(pool.draw(renderers.render, "jeju", "view", view, None))
    finally:
        pool.close()
    assert picture == renderers.render("jeju", view)


def test_a_render_error_in_a_worker_reaches_the_caller() -> None:
    pool = PicturePool(workers=1)
    try:
        with pytest.raises(renderers.RenderError, match="no final result"):
            asyncio.run(pool.draw(renderers.render_results, "jeju", "results", {"result": None}, None))
    finally:
        pool.close()


def test_the_workers_keep_their_cached_parts_under_the_budget_they_were_started_with() -> None:
    pool = PicturePool(workers=1)
    before = memo.budget()
    try:
        pool.start(parts_mb=24)
        budget, niceness = pool._pool().submit(_budget_and_niceness).result()
        assert memo.budget() == 24 * 1024 * 1024  # this process draws with the same budget
    finally:
        pool.close()
        memo.set_budget(before)
    assert budget == 24 * 1024 * 1024
    assert niceness >= WORKER_NICENESS


def _budget_and_niceness() -> tuple[int, int]:
    """Run in a worker: its cached parts' budget and its priority."""
    return memo.budget(), os.nice(0)
