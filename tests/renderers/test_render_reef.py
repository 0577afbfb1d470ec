"""Reef & Ruins pictures from seeded random games: 1, 2, 3 and 6 seats (and 8), both reefs."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import engine
import renderers
from engine.bots import play_states, policy
from renderers import common, reef

GAME = engine.get("reef")
RANDOM = policy("reef", "random")
REEFS = ("bewitching-barrier", "arcane-atoll")


def play(seats: int, seed: int, reef_key: str) -> list:
    """Every state of one seeded random game."""
    start = GAME.new(seats, seed=seed, options={"reef": reef_key})
    return list(play_states(GAME, start, lambda _seat: RANDOM, random.Random(seed)))


def moments(history: list, count: int, seed: int) -> list:
    """``count`` random mid-game states (always one in the lucky phase), then the final state."""
    rng = random.Random(seed)
    picks = sorted(rng.sample(range(1, len(history) - 1), min(count, len(history) - 2)))
    return [history[0], *(history[i] for i in picks), history[-1]]


def check(picture: renderers.Picture, height: int | None = None) -> Image.Image:
    assert picture.png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(picture.png))
    image.load()
    assert common.MIN_WIDTH <= image.width <= common.MAX_WIDTH
    assert image.height <= image.width * common.MAX_ASPECT  # a phone's portrait picture at most
    if height is not None:
        assert image.height == height
    assert 10_000 < len(picture.png) <= 300_000
    assert picture.alt and len(picture.alt) <= common.ALT_MAX
    return image


@pytest.mark.parametrize("reef_key", REEFS)
@pytest.mark.parametrize(("seats", "seed"), [(1, 0), (2, 1), (3, 2), (6, 3)])
def test_public_and_private_pictures_through_a_game(seats: int, seed: int, reef_key: str) -> None:
    names = [f"Player number {i} with a long name ✨" for i in range(seats)] if seed % 2 else None
    history = play(seats, seed, reef_key)
    for state in moments(history, 10, seed):
        public = GAME.view(state, None)
        board = renderers.render("reef", public, names)
        check(board, reef.board_height(seats))
        assert Image.open(io.BytesIO(board.png)).width == reef.WIDTH == common.WIDTH  # narrow, for phones
        assert board.filename == "reef-board.png"
        assert board.alt.startswith("Reef & Ruins table")
        for seat in range(seats):
            assert f"{common.seat_label(seat, names)} " in board.alt
            own = renderers.render("reef", GAME.view(state, seat), names)
            check(own, reef.PRIVATE_H)
            assert own.filename == f"reef-seat-{'ABCDEFGH'[seat]}.png"
            assert own.alt.startswith("Your Reef & Ruins sheet")
    assert public["phase"] == "finished"
    assert "Final scores: " in board.alt
    for seat, score in enumerate(public["result"]["scores"]):
        assert f"{common.seat_label(seat, names)} {score}" in board.alt


def test_eight_seats_stay_within_the_aspect_limit() -> None:
    """Four rows of full cards would be more than twice as tall as 800 px: from 7 seats the cards
    are compact, so the table stays 800 px wide (a wider one shrinks every digit on a phone)."""
    assert reef.board_width(6) == reef.WIDTH == reef.board_width(8)
    assert reef.board_height(8) <= reef.WIDTH * common.MAX_ASPECT
    history = play(8, 5, "arcane-atoll")
    for state in (history[len(history) // 2], history[-1]):
        board = check(renderers.render("reef", GAME.view(state, None)), reef.board_height(8))
        assert board.width == reef.board_width(8)
        check(renderers.render("reef", GAME.view(state, 7)), reef.PRIVATE_H)


def _round_state(seats: int, seed: int, reef_key: str):
    """A state in a later round where nobody has acted yet."""
    for state in play(seats, seed, reef_key):
        view = GAME.view(state, None)
        fresh = view["phase"] == "round" and view["round"] >= 4 and not any(view["confirmed"])
        if fresh and len(GAME.legal_actions(state, 1)) >= 2:
            return state
    pytest.fail("no suitable round reached")


@pytest.mark.parametrize("reef_key", REEFS)
def test_public_picture_ignores_unconfirmed_work(reef_key: str) -> None:
    """Two different unconfirmed actions by one seat give the same public picture."""
    state = _round_state(3, 11, reef_key)
    seat = 1
    actions = GAME.legal_actions(state, seat)
    first, _ = GAME.apply(state, seat, actions[0])
    second, _ = GAME.apply(state, seat, actions[-1])
    assert GAME.view(first, seat)["you"] != GAME.view(second, seat)["you"] or (
        GAME.view(first, seat)["sheets"][seat] != GAME.view(second, seat)["sheets"][seat]
    )
    a = renderers.render("reef", GAME.view(first, None))
    b = renderers.render("reef", GAME.view(second, None))
    assert a.png == b.png and a.alt == b.alt
    # another seat's own picture does not show it either
    assert (
        renderers.render("reef", GAME.view(first, 0)).png
        == renderers.render("reef", GAME.view(second, 0)).png
    )
    # while the seat's own picture does
    assert (
        renderers.render("reef", GAME.view(first, seat)).png
        != renderers.render("reef", GAME.view(second, seat)).png
    )


def test_a_spectators_view_gets_the_table() -> None:
    state = play(3, 4, "bewitching-barrier")[40]
    spectator = renderers.render("reef", GAME.view(state, 7))
    assert spectator.png == renderers.render("reef", GAME.view(state, None)).png


def test_not_a_reef_view_is_a_clear_error() -> None:
    with pytest.raises(common.RenderError, match="not a Reef & Ruins view"):
        renderers.render("reef", {"game": "jeju"})


def test_this_rounds_work_is_in_the_private_alt_text() -> None:
    state = _round_state(2, 6, "bewitching-barrier")
    view = GAME.view(state, 0)
    assert "dice to use" in renderers.render("reef", view).alt.lower()


def test_sprites_are_drawn() -> None:
    from renderers import reef_sprites as sprites

    for value in range(9):
        for boon in (False, True):
            assert sprites.die_image(value, 40, boon).getbbox() is not None
    for kind in ("pearl", "shells", "die", "enchantment", "x3", "other"):
        assert sprites.boon_icon(kind, 4, 24).getbbox() is not None
    assert sprites.boon_icon(None, 0, 24) is None


def test_the_sheet_names_each_ruin_and_its_coins_per_row() -> None:
    view = GAME.view(GAME.new(2, seed=3), 0)
    for ruin in view["board"]["ruins"]:
        coins = ruin["row_coins"][1:]
        words = reef.ruin_coins_words(ruin)
        assert words == (f"full rows → {'/'.join(map(str, coins))}" if coins else "")
    image = check(renderers.render("reef", view), reef.PRIVATE_H)
    ruins = {ruin["number"]: ruin for ruin in view["board"]["ruins"]}
    for number, (x0, y0, x1, _) in reef.RUIN_BOXES.items():
        if number == 3:  # a whole row: the name beside the rule
            name_line = (x0 + 170, y0 + 10, x1 - 110, y0 + 36)
        else:  # beside the grid, on the first line
            left, right, top = reef.text_column(number, ruins[number])
            name_line = (left, top + 4, right, top + reef.LINE_H - 4)
        colours = image.crop(name_line).convert("RGB").getcolors(maxcolors=10_000)
        assert colours is None or len(colours) > 2, f"ruin {number} has no name drawn"


def test_the_table_explains_the_squares_under_each_ruin() -> None:
    view = GAME.view(GAME.new(4, seed=3), None)
    image = check(renderers.render("reef", view), reef.board_height(4))
    assert "enchantments crossed off" in reef.MINI_KEY
    y = reef.board_height(4) - reef.MINI_KEY_H
    colours = image.crop((24, y, reef.WIDTH - 24, reef.board_height(4))).convert("RGB").getcolors(10_000)
    assert colours is None or len(colours) > 2, "the key line under the cards is empty"


def test_the_fixed_palette_keeps_every_flat_colour_exact() -> None:
    """The median cut of `common.fixed_palette` must not shift a colour the pictures fill areas with."""
    flat = reef.PALETTE.getpalette()[: 256 * 3]
    entries = {tuple(flat[i : i + 3]) for i in range(0, len(flat), 3)}
    missing = [colour for colour in reef._flat_colours() if colour not in entries]
    assert not missing


def test_the_sheet_is_a_portrait_for_phones() -> None:
    view = GAME.view(GAME.new(2, seed=3), 0)
    image = check(renderers.render("reef", view), reef.PRIVATE_H)
    assert image.width == reef.WIDTH and image.width < image.height <= image.width * common.MAX_ASPECT
