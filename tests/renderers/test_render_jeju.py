"""Jeju Island pictures from seeded random games, for every seat count."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import engine
import renderers
from engine.bots import policy
from renderers import common, jeju
from tests.seeded import random_states

GAME = engine.get("jeju")
RANDOM = policy("jeju", "random")


def check(picture: renderers.Picture, height: int) -> None:
    assert picture.png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(picture.png))
    image.load()
    assert image.size == (jeju.WIDTH, height)
    assert common.MIN_WIDTH <= jeju.WIDTH <= 900 and height <= jeju.WIDTH * common.MAX_ASPECT
    assert image.mode == "P"  # the game's fixed palette
    assert 10_000 < len(picture.png) <= 300_000
    assert picture.alt and len(picture.alt) <= common.ALT_MAX


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_public_and_private_pictures_through_a_game(seats: int, seed: int) -> None:
    names = [f"Player number {i} with a long name" for i in range(seats)] if seed == 1 else None
    for state in random_states("jeju", seats, seed, moments=4):
        public = GAME.view(state, None)
        board = renderers.render("jeju", public, names)
        check(board, jeju.board_height(seats))
        assert board.filename == "jeju-board.png"
        for player in public["players"]:
            assert f"{player['score']} point{'' if player['score'] == 1 else 's'}" in board.alt
        for seat in range(seats):
            own_view = GAME.view(state, seat)
            own = renderers.render("jeju", own_view, names)
            check(own, jeju.private_height(len(own_view["players"][seat]["cards"])))
            assert own.filename == f"jeju-seat-{'ABCD'[seat]}.png"
            assert own.alt.startswith("Your Jeju Island picture")
    final = GAME.view(state, None)
    results = renderers.render_results("jeju", final, names)
    assert results.filename == "jeju-results.png"
    for score in final["result"]["scores"]:
        assert f"{score} points" in results.alt


def test_public_picture_ignores_hidden_information() -> None:
    """The deck order and the tiles under each stack's top are hidden: the board must not change."""
    for state in random_states("jeju", 3, seed=5, moments=5):
        data = GAME.dump_state(state)
        rng = random.Random(9)
        rng.shuffle(data["deck"])
        for stack in data["stacks"]:
            hidden = stack[:-1]
            rng.shuffle(hidden)
            stack[:-1] = hidden
        shuffled = GAME.load_state(data)
        assert GAME.dump_state(shuffled) != GAME.dump_state(state) or len(data["deck"]) < 2
        first = renderers.render("jeju", GAME.view(state, None))
        again = renderers.render("jeju", GAME.view(shuffled, None))
        assert first.png == again.png and first.alt == again.alt


def test_payment_choices_are_drawn_for_the_paying_seat() -> None:
    rng = random.Random(3)
    for seed in range(30):
        state = GAME.new(2, seed=seed)
        while GAME.to_act(state):
            seat = min(GAME.to_act(state))
            view = GAME.view(state, seat)
            if view.get("payments"):
                picture = renderers.render("jeju", view, ["Ann", "Bo"])
                check(picture, jeju.private_height(len(view["players"][seat]["cards"])))
                assert "Pay for" in picture.alt
                return
            state, _ = GAME.apply(state, seat, RANDOM(GAME, state, seat, rng))
    pytest.skip("no random game reached a payment choice")


def test_not_a_jeju_view_is_a_clear_error() -> None:
    with pytest.raises(common.RenderError, match="not a Jeju Island view"):
        renderers.render("jeju", {"game": "reef"})


def test_every_tile_sprite_is_drawn() -> None:
    for key in [*jeju.TILE_COLOURS, "?", "unknown"]:
        sprite = jeju.tile_image(key, 60)
        assert sprite.size == (60, 60) and sprite.getbbox() is not None


def test_a_spectators_view_gets_the_board() -> None:
    state = random_states("jeju", 2, seed=4, moments=1)[0]
    spectator = renderers.render("jeju", GAME.view(state, 5))
    assert spectator.png == renderers.render("jeju", GAME.view(state, None)).png


def test_cards_removed_by_a_card_refresh_are_named_on_the_board() -> None:
    """Point 2 of issue #16: "the rest of the Point cards are discarded from the game" (they were face up)."""
    state = random_states("jeju", 2, seed=4, moments=1)[0]
    view = GAME.view(state._replace(discard=(1, 2)), None)
    board = renderers.render("jeju", view)
    assert "Removed by Card Refresh: " + view["removed"][0]["text"] in board.alt


def test_the_ring_says_which_way_right_and_left_go() -> None:
    """The picture's words for Travel agree with the engine: "right" from location 1 drops on 2."""
    from engine.jeju import actions as A

    assert A.DIRECTIONS["right"] == 1 and A.DIRECTIONS["left"] == -1
    assert "right ↻ goes 1 → 2" in jeju.RING_WORDS and "left" in jeju.RING_WORDS
    state = next(s for s in random_states("jeju", 2, 0, moments=6) if GAME.to_act(s))
    while not any(type(a) is A.Travel for a in GAME.legal_actions(state, min(GAME.to_act(state)))):
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, RANDOM(GAME, state, seat, random.Random(0)))
    seat = min(GAME.to_act(state))
    travels = [a for a in GAME.legal_actions(state, seat) if type(a) is A.Travel]
    right = next(a for a in travels if a.direction == "right")
    label = GAME.action_label(state, seat, right)
    assert f"at {right.spot + 1} right (drops on {(right.spot + 1) % 6 + 1}" in label
    board = renderers.render("jeju", GAME.view(state, None))
    assert jeju.RING_WORDS in board.alt


def test_the_haenyeo_tile_and_tile_points_have_the_engines_words() -> None:
    from engine.jeju.components import JOKER, TILE_LABELS

    assert jeju.tile_name("haenyeo") == TILE_LABELS[JOKER] == "Haenyeo"
    state = next(iter(random_states("jeju", 2, 1, moments=3)))
    own = renderers.render("jeju", GAME.view(state, 0))
    assert "from leftover tiles" in own.alt and "tiles 0." not in own.alt


def test_pictures_are_laid_out_for_a_phone() -> None:
    """Narrow and taller than wide: one row per player on the board, the seat's picture grows
    with its cards (up to four rows of them), never past `common.MAX_ASPECT`."""
    heights = [jeju.board_height(seats) for seats in (2, 3, 4)]
    assert jeju.WIDTH < heights[0] < heights[1] < heights[2] <= jeju.WIDTH * common.MAX_ASPECT
    assert jeju.private_height(0) == jeju.private_height(2) < jeju.private_height(3)
    assert jeju.private_height(8) == jeju.private_height(13) <= jeju.WIDTH * common.MAX_ASPECT
    assert jeju.SMALL == common.min_size(jeju.WIDTH) == 24


def test_the_fixed_palette_keeps_every_flat_colour() -> None:
    """Flat colours map to themselves (no banding, blue A stays blue); blends fill the rest."""
    flat = [*jeju.COLOURS, *common.SURFACES, common.MUTED, common.HIGHLIGHT]
    flat += [style.colour for style in common.PLAYERS[:4]] + [style.light for style in common.PLAYERS[:4]]
    swatch = Image.new("RGB", (len(flat), 1))
    swatch.putdata(flat)
    mapped = swatch.quantize(palette=jeju.PALETTE, dither=Image.Dither.NONE).convert("RGB")
    assert [mapped.getpixel((x, 0)) for x in range(len(flat))] == flat


def test_the_leftover_tile_rule_comes_from_the_data() -> None:
    from engine.jeju.components import BOARD

    assert jeju.leftover_tiles_per_point() == BOARD["leftover_tiles_per_point"]
