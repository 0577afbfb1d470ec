"""A league's standings and podium pictures (issue #38) read on a phone, in English and Korean."""

from __future__ import annotations

import pytest

import renderers
from renderers import common, phone

NAMES = ["Mi-rae", "A rather long display name indeed", "Jun", "Seo-yeon", "Oliver", "Ha-eun", "Kai"]


def view(players: int, *, final: bool) -> dict:
    rows = [
        {
            "place": i + 1,
            "name": NAMES[i % len(NAMES)],
            "points": 9 - i * 1.5,
            "score": 240 - 7 * i,
            "played": 3,
            "dropped": i == players - 1 and not final,
        }
        for i in range(players)
    ]
    return {"name": "Winter League", "round": 2, "rounds": 3, "final": final, "rows": rows}


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("players", [2, 7, 40])
@pytest.mark.parametrize("final", [False, True])
def test_standings_and_podium_read_on_a_phone(players: int, final: bool, lang: str) -> None:
    """Shown 400 px wide, no text is under 9 px; the picture stays within the aspect limit."""
    drawn = view(players, final=final)
    sizes = phone.measure(lambda: renderers.render_league("haenyeo", drawn, None, lang))
    small = sizes.too_small()
    assert sizes.texts and not small, "; ".join(f"{d.text!r} looks {d.phone_px:.1f} px" for d in small[:8])
    assert sizes.width == 800 and sizes.height <= sizes.width * common.MAX_ASPECT
    picture = renderers.render_league("haenyeo", drawn, None, lang)
    assert picture.filename == ("league-final.png" if final else "league-standings.png")
    assert "Mi-rae" in picture.alt
    if players > 24:
        assert any("more" in d.text or "명" in d.text or d.text.startswith("…") for d in sizes.texts)
