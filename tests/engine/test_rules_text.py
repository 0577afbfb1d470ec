"""The `/rules` texts in data/rules/: one file per game, split into pages at lines starting with "## "."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine

RULES = Path(__file__).resolve().parents[2] / "data" / "rules"
GAMES = ("haenyeo", "jeju", "reef")
PAGE_LIMIT = 1500  # characters per page body: Discord's embed description limit (4096) with margin


def pages(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The first line and the (title, body) of each page, split as the bot splits them."""
    first, _, rest = text.partition("\n")
    chunks = re.split(r"^## ", rest, flags=re.MULTILINE)
    assert not chunks[0].strip(), "nothing may stand between the title line and the first page"
    found = []
    for chunk in chunks[1:]:
        title, _, body = chunk.partition("\n")
        found.append((title.strip(), body.strip()))
    return first, found


@pytest.mark.parametrize("key", GAMES)
def test_rules_file_has_title_and_pages(key: str) -> None:
    path = RULES / f"{key}.md"
    assert path.is_file(), f"missing {path}"
    first, found = pages(path.read_text(encoding="utf-8"))
    assert first == f"# {engine.get(key).title}"
    assert 4 <= len(found) <= 7, f"{key}: {len(found)} pages"
    for title, body in found:
        assert title, f"{key}: a page without a title"
        assert body, f"{key}: page {title!r} is empty"
        assert len(body) <= PAGE_LIMIT, f"{key}: page {title!r} has {len(body)} characters"


@pytest.mark.parametrize("key", GAMES)
def test_rules_file_uses_discord_markdown_only(key: str) -> None:
    _, found = pages((RULES / f"{key}.md").read_text(encoding="utf-8"))
    for title, body in found:
        for line in body.splitlines():
            assert not line.lstrip().startswith(("#", "|", "* ")), f"{key}/{title}: {line!r}"
            assert "![" not in line and not re.search(r"</?[a-zA-Z]", line), f"{key}/{title}: {line!r}"


def test_rules_pages_name_the_players_panel() -> None:
    panels = {"haenyeo": "My hand", "jeju": "My tiles", "reef": "My sheet"}
    for key, panel in panels.items():
        _, found = pages((RULES / f"{key}.md").read_text(encoding="utf-8"))
        titles = [title for title, _ in found]
        assert "How to play here" in titles
        assert "This table's interpretations" in titles
        assert f"**{panel}**" in dict(found)["How to play here"]
