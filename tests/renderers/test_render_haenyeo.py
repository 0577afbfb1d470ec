"""Haenyeo pictures from seeded random games, for every seat count (2 with the NPC … 5)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import engine
import renderers
from engine.bots import policy
from engine.haenyeo import actions as A
from renderers import common, haenyeo
from tests.seeded import random_states

GAME = engine.get("haenyeo")
RANDOM = policy("haenyeo", "random")


def board_height(view: dict) -> int:
    """The board's height for this table (it grows with the seats; see `haenyeo.board_layout`)."""
    return haenyeo.board_layout(view["seats"], bool(view["npc"]), haenyeo._tile_key(view)).height


def check(picture: renderers.Picture, height: int) -> None:
    assert picture.png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(picture.png))
    image.load()
    assert image.size == (haenyeo.WIDTH, height)
    assert common.MIN_WIDTH <= image.width <= common.MAX_WIDTH
    # portrait, for phones, and no taller than Discord previews whole
    assert image.width < image.height <= image.width * common.MAX_ASPECT
    assert 10_000 < len(picture.png) <= 300_000
    assert picture.alt and len(picture.alt) <= common.ALT_MAX


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_public_and_private_pictures_through_a_game(seats: int, seed: int) -> None:
    names = [f"Player number {i} with a long name" for i in range(seats)] if seed == 1 else None
    for state in random_states("haenyeo", seats, seed, moments=8):
        public = GAME.view(state, None)
        board = renderers.render("haenyeo", public, names)
        check(board, board_height(public))
        assert board.filename == "haenyeo-board.png"
        assert board.alt.startswith("Haenyeo board.")
        final = public.get("result")
        for player in public["players"]:
            score = final["scores"][player["seat"]] if final else player["score_so_far"]
            assert f"{common.seat_label(player['seat'], names)} {score}" in board.alt
        for seat in range(seats):
            own = renderers.render("haenyeo", GAME.view(state, seat), names)
            check(own, haenyeo.PRIVATE_H)
            assert own.filename == f"haenyeo-seat-{'ABCDE'[seat]}.png"
            assert own.alt.startswith("Your Haenyeo picture")
    assert public["phase"] == "end"
    assert board.alt.startswith("Haenyeo board. Game over.")


def _select_state(seats: int, seed: int):
    """A state in the selection phase of a later round, nobody has chosen yet."""
    rng = random.Random(seed)
    state = GAME.new(seats, seed=seed)
    while GAME.to_act(state):
        view = GAME.view(state, None)
        if view["phase"] == "select" and view["round"] >= 3 and len(view["to_act"]) == seats:
            return state
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, RANDOM(GAME, state, seat, rng))
    pytest.fail("no selection phase reached")


@pytest.mark.parametrize("seats", [2, 4])
def test_public_picture_ignores_secret_card_choices(seats: int) -> None:
    """Two different secret selections (one confirmed) of one seat draw the same public picture."""
    state = _select_state(seats, seed=11)
    seat = 1
    first = state
    for zone in (2, 7):
        first, _ = GAME.apply(first, seat, A.ToggleCard(zone))
    first, _ = GAME.apply(first, seat, A.Confirm())
    second = state
    for zone in (0, 11):
        second, _ = GAME.apply(second, seat, A.ToggleCard(zone))
    second, _ = GAME.apply(second, seat, A.Confirm())
    assert GAME.view(first, seat)["you"]["selected"] != GAME.view(second, seat)["you"]["selected"]
    a = renderers.render("haenyeo", GAME.view(first, None))
    b = renderers.render("haenyeo", GAME.view(second, None))
    assert a.png == b.png and a.alt == b.alt
    # another seat's own picture does not show it either
    other = 0
    assert (
        renderers.render("haenyeo", GAME.view(first, other)).png
        == renderers.render("haenyeo", GAME.view(second, other)).png
    )
    # while the seat's own picture does
    assert (
        renderers.render("haenyeo", GAME.view(first, seat)).png
        != renderers.render("haenyeo", GAME.view(second, seat)).png
    )


def test_every_actions_decision_is_drawn() -> None:
    """Each kind of waiting decision (zone 0, harvest, bonuses) gets a board and a picture."""
    seen: set[str] = set()
    rng = random.Random(4)
    for seed in range(6):
        state = GAME.new(3, seed=seed)
        while GAME.to_act(state) and len(seen) < 4:
            view = GAME.view(state, None)
            waiting = (view.get("current") or {}).get("waiting_for")
            if waiting and waiting["decision"] not in seen:
                seen.add(waiting["decision"])
                board = renderers.render("haenyeo", view)
                check(board, board_height(view))
                assert haenyeo.DECISIONS[waiting["decision"]] in board.alt
                check(renderers.render("haenyeo", GAME.view(state, waiting["seat"])), haenyeo.PRIVATE_H)
            seat = min(GAME.to_act(state))
            state, _ = GAME.apply(state, seat, RANDOM(GAME, state, seat, rng))
    assert {"zone0", "harvest"} <= seen


def test_not_a_haenyeo_view_is_a_clear_error() -> None:
    with pytest.raises(common.RenderError, match="not a Haenyeo view"):
        renderers.render("haenyeo", {"game": "jeju"})


def test_a_spectators_view_gets_the_board() -> None:
    state = random_states("haenyeo", 3, seed=4, moments=1)[0]
    spectator = renderers.render("haenyeo", GAME.view(state, 7))
    assert spectator.png == renderers.render("haenyeo", GAME.view(state, None)).png


def test_every_item_sprite_is_drawn() -> None:
    from renderers import haenyeo_sprites as sprites

    for key in [*sprites.ITEM_COLOURS, "unknown"]:
        for faded in (False, True):
            sprite = sprites.item_image(key, 40, faded)
            assert sprite.size == (40, 40) and sprite.getbbox() is not None
    for owner in (0, 4, "npc"):
        assert sprites.creature_image(owner, 30).getbbox() is not None
        assert sprites.diver_image(owner, 18).getbbox() is not None


def test_divers_and_creatures_do_not_depend_on_the_language_a_process_drew_first() -> None:
    """The seat sprites are cached without the language: their letters are drawn in the Latin
    face in every language (`common.letter_font`)."""
    from renderers import haenyeo_sprites as sprites

    def drawn() -> list[bytes]:
        owners = (*range(5), "npc")
        return [sprites.diver_image(o, r).tobytes() for o in owners for r in (15, 17, 18)] + [
            sprites.creature_image(o, h).tobytes() for o in owners for h in (30, 34)
        ]

    def fresh() -> None:
        sprites.diver_image.cache_clear()
        sprites.creature_image.cache_clear()

    fresh()
    with common.speaking("ko"):
        korean_first = drawn()
    english_after = drawn()
    fresh()  # as a fresh process
    english_fresh = drawn()
    fresh()
    with common.speaking("ko"):
        korean_fresh = drawn()
    assert english_after == english_fresh
    assert korean_first == korean_fresh == english_fresh


def _blank(image: Image.Image, box: tuple[float, float, float, float]) -> bool:
    """True when ``box`` of the picture holds a single colour (nothing drawn there)."""
    colours = image.crop(tuple(int(v) for v in box)).convert("RGB").getcolors(maxcolors=10_000)
    return colours is not None and len(colours) <= 1


def test_the_board_has_an_icon_legend_in_the_engines_words() -> None:
    """Under the sea, each seafood icon is named with the engine's own word for it (the
    view's seafood_types), and so are eggs, trash and pearls; the alt text says them too."""
    view = GAME.view(GAME.new(3, seed=4), None)
    legend = dict(haenyeo.LEGEND)
    for seafood in view["seafood_types"]:
        assert legend[seafood["key"]] == seafood["name"].lower()
    assert {"egg", "trash", "pearl"} <= set(legend)
    board = renderers.render("haenyeo", view)
    words = next(s for s in board.alt.split(". ") if s.startswith("Icons: "))
    assert all(word in words for word in legend.values())
    # The layout keeps a band for it between the sea and the score tile, and something is drawn there.
    layout = haenyeo.board_layout(view["seats"], bool(view["npc"]), haenyeo._tile_key(view))
    assert layout.legend_top >= layout.row_y(12)
    assert layout.tile_top >= layout.legend_top + layout.legend_h
    image = Image.open(io.BytesIO(board.png))
    band = (haenyeo.SEA_X0, layout.legend_top, haenyeo.SEA_X1, layout.legend_top + layout.legend_h)
    assert not _blank(image, band)
    assert "diver" not in board.alt.lower().replace("sea divers", "")  # one word: Haenyeo


def test_the_results_chart_ends_at_the_final_score() -> None:
    state = next(iter(random_states("haenyeo", 3, 5, moments=1)))
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, RANDOM(GAME, state, seat, random.Random(5)))
    view = GAME.view(state, None)
    picture = renderers.render_results("haenyeo", view)
    chart = next(s for s in picture.alt.split(". ") if s.startswith("Score over the game"))
    for seat, score in enumerate(view["result"]["scores"]):
        assert f"+ end bonuses {score}" in chart.split(";")[seat]
    assert "Turtle eggs" in picture.alt or "turtle eggs" in picture.alt


def test_the_fixed_palette_keeps_every_flat_colour_exact() -> None:
    """The colours the pictures paint with (the seats', the title bar's, the game's own) come out
    of the PNG as drawn, within 5 levels (Pillow maps through a coarse colour cache): the palette
    holds them, not a median-cut neighbour (`common.fixed_palette` moved seat A's blue by 67)."""
    flat = [*haenyeo.COLOURS, common.title_text("haenyeo").colour, common.HIGHLIGHT, common.INK, common.BG]
    flat += [p.colour for p in common.PLAYERS[:5]] + [p.light for p in common.PLAYERS[:5]]
    swatch = Image.new("RGB", (len(flat), 1))
    swatch.putdata(flat)
    quantized = swatch.quantize(palette=haenyeo.palette(), dither=Image.Dither.NONE).convert("RGB")
    mapped = [quantized.getpixel((x, 0)) for x in range(len(flat))]
    off = [
        (colour, got)
        for colour, got in zip(flat, mapped, strict=True)
        if max(map(abs, (a - b for a, b in zip(colour, got, strict=True)))) > 5
    ]
    assert not off, off
