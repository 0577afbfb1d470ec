"""Every picture reads on a phone: every text's digits stand at least 9 px tall when shown 400 px wide."""

from __future__ import annotations

import pytest

import engine
import renderers
from renderers import common, phone
from tests.seeded import random_states

SEATS = {"haenyeo": (2, 3, 4, 5), "jeju": (2, 3, 4), "reef": (1, 2, 4, 6, 8)}
NAMES = ["Mi-rae", "A rather long display name", "Jun", "Seo-yeon", "Oliver", "Ha-eun", "Kai", "Lee"]


def _cases(game_key: str, kind: str, every_seat: bool = False) -> list[tuple[int, dict]]:
    """(seats, view) of the pictures of ``kind`` that a game of each seat count shows (private
    pictures: the first and last seat's, or ``every_seat``'s: a seat's place changes no layout)."""
    game = engine.get(game_key)
    cases = []
    for seats in SEATS[game_key]:
        states = random_states(game_key, seats, seed=seats, moments=2)
        if kind == "board":
            cases += [(seats, game.view(state, None)) for state in states]
        elif kind == "private":
            drawn = range(seats) if every_seat else sorted({0, seats - 1})
            cases += [(seats, game.view(state, seat)) for state in states[:-1] for seat in drawn]
        else:
            cases.append((seats, game.view(states[-1], None)))
    return cases


def _draw(game_key: str, kind: str, view: dict, names: list[str]) -> renderers.Picture:
    if kind == "results":
        return renderers.render_results(game_key, view, names)
    return renderers.render(game_key, view, names)


@pytest.mark.parametrize(
    ("kind", "every_seat"),
    [
        ("board", False),
        ("private", False),
        pytest.param("private", True, marks=pytest.mark.slow),
        ("results", False),
    ],
)
@pytest.mark.parametrize("game_key", sorted(SEATS))
def test_every_text_is_readable_at_phone_width(game_key: str, kind: str, every_seat: bool) -> None:
    """A phone shows pictures 400 px wide: no text there is under 9 px, on any picture of any seat count
    (each seat's private picture with ``--slow``)."""
    for seats, view in _cases(game_key, kind, every_seat):
        sizes = phone.measure(lambda view=view, seats=seats: _draw(game_key, kind, view, NAMES[:seats]))
        assert sizes.texts, "the picture drew no text at all"
        small = sizes.too_small()
        assert not small, f"{game_key} {kind}, {seats} seats, {sizes.width} px wide: " + "; ".join(
            f"{d.text!r} at {d.size} px looks {d.phone_px:.1f} px" for d in small[:8]
        )
        assert sizes.height <= sizes.width * common.MAX_ASPECT


def test_measure_sees_small_text() -> None:
    """The measurement itself can fail: a caption drawn at 12 px on an 800 px picture is 4.5 px on a phone."""

    def draw() -> renderers.Picture:
        image, pen = common.canvas("reef", 700, 800)
        common.draw_text(pen, (40, 200), "12 shells", size=12)
        return common.picture(image, "A test picture.", "test.png")

    sizes = phone.measure(draw)
    assert [d.text for d in sizes.too_small()] == ["12 shells"]
    assert sizes.smallest.phone_px < 5


@pytest.mark.parametrize("seats", range(1, 9))
def test_the_reef_boards_sheets_read_on_a_phone_at_every_seat_count(seats: int) -> None:
    """Issue #41.9: the public board's sheets (each seat's coins, values, pearls, shells, score) stay
    at 9 px or more on a phone at every seat count, and the picture stays 800 px wide (7–8 seats
    get compact cards rather than a wider, smaller picture)."""
    game = engine.get("reef")
    for state in random_states("reef", seats, seed=seats, moments=2):
        view = game.view(state, None)
        sizes = phone.measure(lambda view=view: renderers.render("reef", view, NAMES[:seats]))
        digits = [d for d in sizes.texts if d.text.strip("×+-()").isdigit()]
        assert digits, "no sheet numbers drawn: the test measured nothing"
        smallest = min(digits, key=lambda d: d.phone_px)
        assert round(smallest.phone_px, 1) >= common.PHONE_MIN_TEXT, (seats, smallest)
        assert sizes.width == 800 and sizes.height <= sizes.width * common.MAX_ASPECT
