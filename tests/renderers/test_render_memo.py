"""The drawn parts a drawing process keeps stay under one budget in bytes (issue #21)."""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections.abc import Iterator

import pytest
from PIL import Image

import engine
import renderers
from engine.bots import play_states, policy
from renderers import memo

#: What a cache whose values hold pixels or a font face returns, in its annotation.
HEAVY = ("Image", "Mapped", "Layer", "FreeTypeFont")


def views(seed: int) -> Iterator[tuple[str, dict, list[str], str]]:
    """(game, view, names, language): boards, private pictures and a results view of each game."""
    rng = random.Random(seed)
    for key, seats in (("haenyeo", 3), ("jeju", 2), ("reef", 2)):
        game = engine.get(key)
        choosers = {seat: policy(key, "random") for seat in range(seats)}
        history = list(play_states(game, game.new(seats, seed=seed), choosers.__getitem__, rng))
        for state in (history[len(history) // 3], history[2 * len(history) // 3]):
            names = [f"diver {rng.randrange(10_000)}" for _ in range(seats)]
            yield key, game.view(state, None), names, "en"
            yield key, game.view(state, rng.randrange(seats)), names, "ko"
        yield key, game.view(history[-1], None), names, "ko"


def draw(key: str, view: dict, names: list[str], lang: str) -> bytes:
    """The PNG a picture worker sends for this view."""
    if "result" in view:
        return renderers.render_results(key, view, names, lang).png
    return renderers.render(key, view, names, lang).png


@pytest.fixture
def small_budget() -> Iterator[int]:
    """A budget of 4 MB for the test, the process's own afterwards (its parts dropped first)."""
    before = memo.budget()
    memo.set_budget(4 * 1024 * 1024)
    yield memo.budget()
    memo.set_budget(0)
    memo.set_budget(before)


def test_pictures_drawn_under_a_small_budget_are_the_same_and_it_is_never_exceeded(small_budget):
    drawn = list(views(seed=3))
    memo.set_budget(256 * 1024 * 1024)
    roomy = [draw(*picture) for picture in drawn]
    assert memo.held()[1] > small_budget  # these pictures need more than the small budget holds
    memo.set_budget(small_budget)
    assert memo.held()[1] <= small_budget
    for picture, expected in zip(drawn, roomy, strict=True):
        assert draw(*picture) == expected  # forgotten parts are drawn again, the same
        assert memo.held()[1] <= small_budget


def test_every_cache_of_pixels_or_fonts_in_the_renderers_counts_against_the_budget():
    entry_bounded = []
    for module_info in pkgutil.iter_modules(renderers.__path__):
        module = importlib.import_module(f"renderers.{module_info.name}")
        for name, value in vars(module).items():
            # functools.lru_cache's wrapper, known by its documented `cache_parameters` (its type's
            # name, `_lru_cache_wrapper`, is private); `memo.cached` has no such attribute.
            if callable(getattr(value, "cache_parameters", None)):
                returned = str(value.__wrapped__.__annotations__.get("return", ""))
                if any(kind in returned for kind in HEAVY):
                    entry_bounded.append(f"{module_info.name}.{name} -> {returned}")
    assert entry_bounded == []


def test_a_cached_part_is_weighed_by_its_pixels_and_its_parts():
    rgba = Image.new("RGBA", (100, 50))
    palette = Image.new("P", (100, 50))
    assert 20_000 <= memo.size_of(rgba) < 21_000 + 2048
    assert 5_000 <= memo.size_of(palette) < 5_000 + 2048
    assert memo.size_of((rgba, palette.im, 3)) > memo.size_of(rgba) + 5_000


def test_a_cached_function_keeps_its_results_until_cleared():
    calls = []

    @memo.cached
    def square(n: int) -> int:
        calls.append(n)
        return n * n

    assert [square(3), square(3), square(n=4), square(n=4)] == [9, 9, 16, 16]
    assert calls == [3, 4]
    assert square.cache_info().currsize == 2
    square.cache_clear()
    assert square(3) == 9 and calls == [3, 4, 3]


def live_image_blocks() -> int:
    """How many blocks of image memory Pillow has handed out and not taken back."""
    stats = Image.core.get_stats()
    return stats["allocated_blocks"] - stats["freed_blocks"]


def test_drawing_new_names_for_ever_keeps_no_more_images_once_the_budget_is_full(small_budget):
    drawn = list(views(seed=5))
    rng = random.Random(5)

    def a_round() -> None:
        for key, view, names, lang in drawn:
            draw(key, view, [f"{name} {rng.randrange(10**9)}" for name in names], lang)

    for _ in range(2):
        a_round()
    full = live_image_blocks()
    for _ in range(3):
        a_round()
    assert memo.held()[1] <= small_budget
    assert live_image_blocks() <= full * 1.1 + 50, "images are kept outside the budget"
