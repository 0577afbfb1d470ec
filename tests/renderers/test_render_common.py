"""The renderer framework and the generic results picture (no game module needed)."""

from __future__ import annotations

import asyncio
import io
import random

import pytest
from PIL import Image, ImageDraw

import renderers
from renderers import common, results

CATEGORIES = ("seafood", "turtle_eggs", "pearls", "trash", "score_tile", "bonus")


def finished_view(seats: int, seed: int = 0, progression: bool = False) -> dict:
    """A made-up finished view in the shape of `Result.to_dict()`."""
    rng = random.Random(seed)
    breakdown = []
    for _ in range(seats):
        entry = {cat: rng.randint(0, 60) for cat in CATEGORIES}
        entry["trash"] = -rng.randint(0, 12)
        breakdown.append(entry)
    scores = [sum(entry.values()) for entry in breakdown]
    ranking = [1 + sum(1 for other in scores if other > mine) for mine in scores]
    view = {
        "result": {
            "scores": scores,
            "ranking": ranking,
            "winners": [s for s in range(seats) if ranking[s] == 1],
            "breakdown": breakdown,
            "notes": ["Ties are broken by the most pearls."],
        }
    }
    if progression:
        view["progression"] = [[s // 3, 2 * s // 3, s] for s in scores]
    return view


def open_png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def check_picture(picture: renderers.Picture) -> Image.Image:
    image = open_png(picture.png)
    width, height = image.size
    assert common.MIN_WIDTH <= width <= common.MAX_WIDTH
    assert 0 < height <= width * common.MAX_ASPECT, "pictures are at most twice as tall as wide"
    assert len(picture.png) <= 300_000
    assert picture.alt and len(picture.alt) <= common.ALT_MAX
    assert picture.filename.endswith(".png")
    return image


# ---------------------------------------------------------------- results picture


@pytest.mark.parametrize("seats", range(1, 9))
@pytest.mark.parametrize("with_names", [False, True])
def test_results_every_seat_count(seats: int, with_names: bool) -> None:
    view = finished_view(seats, seed=seats, progression=seats > 1)
    names = [f"Diver {i} with quite a long display name" for i in range(seats)] if with_names else None
    picture = renderers.render_results("haenyeo", view, names)
    check_picture(picture)
    for seat, score in enumerate(view["result"]["scores"]):
        assert f"{score} points" in picture.alt
        letter = "ABCDEFGH"[seat]
        assert (f"{letter} · Diver {seat}" if with_names else f": {letter},") in picture.alt
    assert picture.alt.index("points") < picture.alt.index("Points by category")


@pytest.mark.parametrize("game_key", ["haenyeo", "jeju", "reef"])
def test_results_every_game(game_key: str) -> None:
    picture = renderers.render_results(game_key, finished_view(3, seed=7))
    check_picture(picture)
    assert picture.filename == f"{game_key}-results.png"


def test_results_alt_names_winner_and_ranking() -> None:
    view = {
        "result": {
            "scores": [40, 55, 55],
            "ranking": [3, 1, 1],
            "winners": [1, 2],
            "breakdown": [{"cards": 40}, {"cards": 50, "tiles": 5}, {"cards": 45, "tiles": 10}],
            "notes": [],
        }
    }
    picture = renderers.render_results("jeju", view, ["Ann", "Bo", "Cy"])
    alt = picture.alt
    assert alt.startswith("Jeju Island: final results.")
    assert "1st: B · Bo, 55 points, winner. 1st: C · Cy, 55 points, winner. 3rd: A · Ann, 40 points." in alt
    assert "Points by category: B: cards 50, tiles 5; C: cards 45, tiles 10; A: cards 40." in alt


def test_long_odd_and_missing_names_do_not_crash() -> None:
    names = [
        "x" * 300,
        "🦑🐙 emoji only 🐚",
        "해녀 김민지",
        "line\nbreak\u202eRTL",
        None,
    ]
    picture = renderers.render_results("haenyeo", finished_view(6, progression=True), names)
    check_picture(picture)
    assert "\n" not in picture.alt and "\u202e" not in picture.alt
    assert "F," in picture.alt  # the seat past the names list uses its letter


def test_results_without_breakdown_uses_totals() -> None:
    view = {"result": {"scores": [12, 30], "ranking": [2, 1], "winners": [1], "breakdown": [], "notes": []}}
    picture = renderers.render_results("reef", view)
    check_picture(picture)
    assert "2nd: A, 12 points." in picture.alt


def test_results_of_unfinished_view_is_a_clear_error() -> None:
    with pytest.raises(common.RenderError, match="not finished"):
        renderers.render_results("jeju", {"round": 2})


def test_results_are_deterministic() -> None:
    view = finished_view(4, seed=3, progression=True)
    first = renderers.render_results("haenyeo", view, ["a", "b", "c", "d"])
    again = renderers.render_results("haenyeo", view, ["a", "b", "c", "d"])
    assert first == again


def test_progression_alt_text() -> None:
    section = results.progression_section([[1, 2, 3], [4, 5, 6]], names=["P", None])
    assert "A · P round 3 1, round 6 2, round 8 3" in section.alt
    assert "B round 3 4" in section.alt


# ---------------------------------------------------------------- dispatch


def test_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(common.RenderError, match="unknown game"):
        renderers.render("chess", {})
    with pytest.raises(common.RenderError, match="unknown game"):
        renderers.render("common", {})


def test_missing_game_module_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(common.TITLES, "nogame", common.GameTitle("", "No Game", (0, 0, 0)))
    with pytest.raises(common.RenderError, match=r"renderers/nogame\.py"):
        renderers.render("nogame", {})
    # results still work through the generic picture
    monkeypatch.setitem(common.TITLES, "nogame", common.TITLES["reef"])
    check_picture(renderers.render_results("nogame", finished_view(2)))


def test_render_async_draws_the_same_picture_in_a_worker() -> None:
    view = finished_view(1)
    picture = asyncio.run(renderers.render_results_async("reef", view))
    check_picture(picture)
    assert picture == renderers.render_results("reef", view)


def test_concurrent_renders_give_the_same_pictures() -> None:
    views = [finished_view(seats, seed=seats, progression=True) for seats in range(1, 7)]

    async def all_at_once() -> list[renderers.Picture]:
        return await asyncio.gather(*(renderers.render_results_async("haenyeo", v) for v in views * 2))

    pictures = asyncio.run(all_at_once())
    assert pictures[:6] == pictures[6:]
    assert pictures[:6] == [renderers.render_results("haenyeo", v) for v in views]


# ---------------------------------------------------------------- toolkit


def test_fonts_load_and_draw_their_scripts() -> None:
    for kind in common.FONT_FILES:
        assert common.font(kind, 30) is common.font(kind, 30)  # cached
    assert common.has_glyph("cjk", "해") and common.has_glyph("cjk", "주")
    assert not common.has_glyph("regular", "해")
    assert common.has_glyph("regular", "Ж") and common.has_glyph("hand", "7")
    assert common.drawable("해녀 Kim", "regular") == "? Kim"


def test_palette_is_eight_distinct_styles() -> None:
    assert len(common.PLAYERS) == 8
    assert len({p.colour for p in common.PLAYERS}) == 8
    assert len({p.shape for p in common.PLAYERS}) == 8
    assert [p.letter for p in common.PLAYERS] == list("ABCDEFGH")
    with pytest.raises(common.RenderError):
        common.player(8)


def test_text_helpers() -> None:
    line, size = common.fit("A very long name indeed " * 5, "bold", 200, 32, 24)
    assert size == 24 and line.endswith("…")
    assert common.text_width(line, "bold", size) <= 200
    assert common.fit("Bo", "bold", 200, 32, 24) == ("Bo", 32)
    assert common.ordinal(1) == "1st" and common.ordinal(12) == "12th" and common.ordinal(23) == "23rd"
    lines = common.wrap("one two three four five six seven", "regular", 28, 150, max_lines=2)
    assert len(lines) == 2 and lines[-1].endswith("…")
    assert common.seat_label(1, ["a", "Bo"]) == "B · Bo" and common.seat_label(2, ["a"]) == "C"
    assert common.clean_name("a\n\tb") == "a b"


def test_alt_text_is_cut_to_discord_limit() -> None:
    text = common.alt_text(["word " * 400])
    assert len(text) <= common.ALT_MAX and text.endswith("…")
    assert common.alt_text(["One.", "", "  Two  three. "]) == "One. Two three."


def test_canvas_is_cached_and_copied() -> None:
    _first, draw = common.canvas("jeju", 700, subtitle="Round 2")
    draw.rectangle((0, 200, 50, 250), fill=(255, 0, 0))
    second, _ = common.canvas("jeju", 700)
    assert second.getpixel((10, 210)) == common.BG
    common.canvas("jeju", 1500, width=800)  # portrait is fine: phones scroll
    with pytest.raises(common.RenderError):
        common.canvas("jeju", 1700, width=800)  # more than twice as tall as wide
    with pytest.raises(common.RenderError):
        common.canvas("jeju", 400, width=500)  # too narrow to draw on


def test_encode_png_is_small_and_faithful() -> None:
    image, draw = common.canvas("haenyeo", 800)
    for seat in range(6):
        common.token(draw, seat, (100 + seat * 120, 300), 40)
    common.draw_text(draw, (100, 500), "Readable text", "bold", 40)
    data = common.encode_png(image)
    decoded = open_png(data).convert("RGB")
    assert decoded.size == image.size
    assert len(data) < 100_000
    assert decoded.getpixel((5, 5)) == image.getpixel((5, 5))  # title bar colour kept exactly


def test_total_beside_categories_is_not_stacked_again() -> None:
    view = {
        "result": {
            "scores": [30, 20],
            "ranking": [1, 2],
            "winners": [0],
            "breakdown": [{"cards": 25, "tiles": 5, "total": 30}, {"cards": 20, "tiles": 0, "total": 20}],
            "notes": [],
        }
    }
    alt = renderers.render_results("jeju", view).alt
    assert "1st: A, 30 points, winner." in alt and "A: cards 25, tiles 5;" in alt
    assert "total" not in alt


def test_points_per_scoring_round_become_a_running_total_chart() -> None:
    breakdown = [
        {"round3": 10, "round6": 5, "round8": 20, "pearls": 3},
        {"round3": 0, "round6": 15, "round8": 10, "pearls": 0},
    ]
    series, labels = results.rounds_progression(breakdown)
    assert series == [[10, 15, 35], [0, 15, 25]]
    assert labels == ["Round 3", "Round 6", "Round 8"]
    view = {"result": {"scores": [38, 25], "ranking": [1, 2], "winners": [0], "breakdown": breakdown}}
    picture = renderers.render_results("haenyeo", view)
    check_picture(picture)
    # The chart ends at the final score: the points after the last round come last.
    assert "Score over the game: A round 3 10, round 6 15, round 8 35, + end bonuses 38" in picture.alt
    assert results.rounds_progression([{"cards": 3}]) is None
    assert results.humanize("round3") == "Round 3" and results.humanize("turtle_eggs") == "Turtle eggs"


def test_nice_ticks() -> None:
    assert results.nice_ticks(0, 243) == [0, 100, 200]
    assert results.nice_ticks(0, 35) == [0, 10, 20, 30]
    assert results.nice_ticks(-12, 8) == [-10, -5, 0, 5]
    assert results.nice_ticks(0, 1) == [0, 1]


@pytest.mark.parametrize("game_key", ["haenyeo", "jeju", "reef"])
def test_results_of_real_finished_games_for_every_seat_count(game_key: str) -> None:
    engine = pytest.importorskip("engine")
    try:
        game = engine.get(game_key)
        from engine.bots import play_out, policy

        chooser = policy(game_key, "random")
    except (ImportError, AttributeError, KeyError) as error:
        pytest.skip(f"{game_key} engine not there yet: {error}")
    for seats in range(game.min_seats, game.max_seats + 1):
        state = play_out(game, game.new(seats, seed=seats), lambda _seat: chooser, random.Random(seats))
        view = game.view(state, None)
        names = [f"Seat {i}" for i in range(seats)] if seats % 2 else None
        picture = renderers.render_results(game_key, view, names)
        check_picture(picture)
        for score in view["result"]["scores"]:
            assert f"{score} points" in picture.alt


def test_a_fixed_palette_keeps_every_flat_colour_exact() -> None:
    """Many colours and grounds: the blends are reduced, never the colours a game paints with."""
    colours = tuple((r, g, 90) for r in range(0, 256, 40) for g in range(0, 256, 50))
    palette = common.fixed_palette(colours, grounds=((240, 230, 200), (30, 60, 90)))
    flat = [*colours, *(p.colour for p in common.PLAYERS), common.BG, common.INK, common.PANEL, common.MUTED]
    image = Image.new("RGB", (len(flat), 1))
    image.putdata(flat)
    mapped = image.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
    assert [mapped.getpixel((x, 0)) for x in range(len(flat))] == flat
    assert len(palette.getpalette()) == 256 * 3


def _tokens() -> list[bytes]:
    """Seat tokens as the games paste them (every seat, a few radii, a phone-sized letter)."""
    return [common.token_image(seat, radius, 24).tobytes() for seat in range(8) for radius in (17, 20, 24)]


def test_seat_tokens_do_not_depend_on_the_language_a_process_drew_first() -> None:
    """`token_image` is cached without the language: its letter (a Latin letter) is drawn in the
    Latin face in every language, so a process whose first picture was Korean draws the English
    tokens a fresh process draws, and the Korean ones too."""
    common.token_image.cache_clear()
    with common.speaking("ko"):
        korean_first = _tokens()
    english_after = _tokens()
    common.token_image.cache_clear()  # as a fresh process
    english_fresh = _tokens()
    common.token_image.cache_clear()
    with common.speaking("ko"):
        korean_fresh = _tokens()
    assert english_after == english_fresh
    assert korean_first == korean_fresh == english_fresh


def test_a_token_drawn_in_place_is_the_same_in_every_language() -> None:
    drawn = {}
    for lang in ("ko", "en"):
        image = Image.new("RGB", (8 * 60, 60), common.PANEL)
        with common.speaking(lang):
            for seat in range(8):
                common.token(ImageDraw.Draw(image), seat, (30 + seat * 60, 30), 22, min_letter=24)
        drawn[lang] = image.tobytes()
    assert drawn["ko"] == drawn["en"]


def test_a_segment_too_narrow_for_its_number_carries_it_on_a_chip_beside_the_bar():
    """Issue #41: every segment of the results chart carries its number (a 1-point one too)."""
    breakdown = [{"round": 50, "eggs": 1}, {"round": 30, "eggs": 0}]
    view = {
        "result": {
            "scores": [51, 30],
            "ranking": [1, 2],
            "winners": [0],
            "breakdown": breakdown,
        }
    }
    image = open_png(renderers.render_results("haenyeo", view, ["Ann", "Bo"]).png).convert("RGB")
    eggs = results.CATEGORY_COLOURS[1]  # the second category's colour
    top = common.TITLE_H + 18  # the winner's row
    band = range(top + results.HEAD_H + 12, top + results.ROW_H - 14)
    near = [
        x
        for x in range(image.width)
        for y in band
        if max(abs(a - b) for a, b in zip(image.getpixel((x, y)), eggs, strict=True)) <= 3  # PNG palette
    ]
    xs = near
    scale = (results.WIDTH - 2 * results.MARGIN - 32) / 51  # the widest the bars can be
    assert xs, "the 1-point segment is drawn"
    # Its chip stands right of the sliver, so the colour spans more than one point of the bar.
    assert max(xs) - min(xs) > scale + results.CHIP_GAP
    assert results._narrow(breakdown[0], ["round", "eggs"], scale) == [("eggs", 1)]
