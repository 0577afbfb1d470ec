"""Keep the catalogs in step with the code: extract, update, check (Babel's own machinery).

    python -m i18n.catalog update   # rewrite every area's template and each language's .po
    python -m i18n.catalog check    # list what is missing, stale or mismatched (exit 1 if any)

The messages are split into *areas* (one template ``i18n/locale/<area>.pot`` and
one ``<lang>/LC_MESSAGES/<area>.po`` each), so that the three games and the bot
can be translated apart. Sources are Python files (calls of ``t``, ``t.plural``,
``N_``, ``say``, ``say_plural`` and ``term`` with literal strings), JSON data files
(the string values under chosen keys) and the rules summaries (each paragraph,
heading and list item of ``data/rules/<game>.md``).
"""

from __future__ import annotations

import datetime
import io
import json
import re
import string
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.pofile import read_po, write_po

from i18n import LANGUAGES, LOCALE_DIR, SOURCE

ROOT = LOCALE_DIR.parent.parent
PROJECT = "seagames-bot"
#: A fixed date in the templates' header, so that an update changes only what changed.
CREATED = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)

#: Python call names whose literal arguments are messages (Babel keyword specs).
KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "t": None,
    "N_": None,
    "say": None,
    "term": None,
    "plural": (1, 2),
    "say_plural": (1, 2),
    "locale_str": None,  # discord.py's marker for slash command names, descriptions and choices
}


@dataclass(frozen=True)
class Source:
    """Files of one kind: ``pattern`` (a glob under the project root) read as ``kind``.

    ``kind`` is ``"python"``, ``"markdown"`` (a rules summary) or ``"json"``, whose
    ``keys`` name the fields holding words (``"*"``: every string value).
    """

    pattern: str
    kind: str = "python"
    keys: tuple[str, ...] = ()


#: Area -> its sources. A file belongs to one area; each area has its own catalog file,
#: so the bot and each game can be translated apart.
AREAS: dict[str, tuple[Source, ...]] = {
    "bot": (
        Source("bot.py"),
        Source("cogs/common.py"),
        Source("cogs/clock.py"),
        Source("cogs/language.py"),
        Source("cogs/leaderboard.py"),
        Source("cogs/players.py"),
        Source("cogs/rules.py"),
        Source("cogs/settings.py"),
        Source("cogs/live.py"),
        Source("hosting/ratings.py"),
        Source("hosting/seasons.py"),
        Source("i18n/__init__.py"),
        Source("engine/__init__.py"),
        Source("engine/base.py"),
        Source("engine/replay.py"),
        Source("engine/bots.py"),
        Source("renderers/__init__.py"),
        Source("renderers/common.py"),
        Source("renderers/results.py"),
        Source("renderers/ratings.py"),
    ),
    "play": (
        Source("cogs/play.py"),
        Source("cogs/board.py"),
        Source("cogs/runner.py"),
        Source("cogs/panels.py"),
    ),
    "lobby": (
        Source("cogs/lobby.py"),
        Source("hosting/errors.py"),
        Source("hosting/service.py"),
        Source("hosting/botpool.py"),
        Source("hosting/timing.py"),
    ),
    # The daily Reef (issue #38): its own catalog, so it merges apart from the shared ones.
    "daily": (
        Source("cogs/daily.py"),
        Source("hosting/daily.py"),
    ),
    "league": (  # issue #38
        Source("cogs/league.py"),
        Source("hosting/league.py"),
        Source("hosting/leagues.py"),
        Source("renderers/league.py"),
    ),
    "haenyeo": (
        Source("engine/haenyeo/*.py"),
        Source("engine/haenyeo/ai/*.py"),
        Source("renderers/haenyeo*.py"),
        Source("data/haenyeo/labels.json", "json", ("*",)),
        Source("data/haenyeo/components.json", "json", ("name", "plural", "creature")),
        Source("data/haenyeo/score_tiles.json", "json", ("name", "text")),
        Source("data/rules/haenyeo.md", "markdown"),
    ),
    "jeju": (
        Source("engine/jeju/*.py"),
        Source("engine/jeju/ai/*.py"),
        Source("renderers/jeju*.py"),
        Source("data/jeju/labels.json", "json", ("*",)),
        Source("data/jeju/tiles.json", "json", ("name",)),
        Source("data/rules/jeju.md", "markdown"),
    ),
    "reef": (
        Source("engine/reef/**/*.py"),
        Source("renderers/reef*.py"),
        Source("data/reef/labels.json", "json", ("*",)),
        Source("data/reef/reefs.json", "json", ("name",)),
        Source("data/reef/ruins.json", "json", ("name",)),
        Source("data/reef/sheet.json", "json", ("title", "text")),
        Source("data/reef/tracker.json", "json", ("name",)),
        Source("data/rules/reef.md", "markdown"),
    ),
}


@dataclass(frozen=True)
class Message:
    """One message found in the sources: its id (and plural id), and where."""

    id: str
    plural: str | None
    where: str
    line: int


# --------------------------------------------------------------------------- extraction


def messages(area: str) -> list[Message]:
    """Every message of ``area``'s sources, in file order."""
    found: list[Message] = []
    for source in AREAS[area]:
        for path in sorted(ROOT.glob(source.pattern)):
            where = path.relative_to(ROOT).as_posix()
            if source.kind == "python":
                found.extend(_python(path, where))
            elif source.kind == "json":
                found.extend(_json(path, where, source.keys))
            else:
                found.extend(Message(text, None, where, line) for line, text in rules_blocks(path))
    return found


def _python(path: Path, where: str) -> Iterator[Message]:
    with path.open("rb") as handle:
        for line, text, _comments, _context in extract(
            "python", handle, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True
        ):
            if isinstance(text, tuple):
                if text[0]:
                    yield Message(text[0], text[1] or None, where, line)
            elif text:
                yield Message(text, None, where, line)


def _json(path: Path, where: str, keys: tuple[str, ...]) -> Iterator[Message]:
    def walk(node: object, key: str | None) -> Iterator[str]:
        if isinstance(node, dict):
            for name, value in node.items():
                yield from walk(value, str(name))
        elif isinstance(node, list):
            for value in node:
                yield from walk(value, key)
        elif isinstance(node, str) and node.strip() and ("*" in keys or key in keys):
            yield node

    for text in walk(json.loads(path.read_text(encoding="utf-8")), None):
        yield Message(text, None, where, 0)


BLOCK_START = re.compile(r"^(#{1,6} |[-*] |\d+\. |> )")


@dataclass(frozen=True)
class Block:
    """One translatable piece of a markdown text: its first line, its marker ("## ", "- ") and words."""

    line: int
    marker: str
    text: str


def markdown_blocks(source: str) -> list[Block | None]:
    """A markdown text cut into the pieces translated one by one (None marks a blank line).

    A heading, a list item (with its continuation lines) or a paragraph is one
    piece; its marker and indentation stay out of the message.
    """
    out: list[Block | None] = []
    lines: list[str] = []
    marker, start = "", 0

    def close() -> None:
        nonlocal lines
        if lines:
            out.append(Block(start, marker, " ".join(lines)))
            lines = []

    for number, raw in enumerate(source.splitlines(), 1):
        line = raw.strip()
        if not line:
            close()
            out.append(None)
            continue
        found = BLOCK_START.match(line)
        if found:
            close()
            indent = raw[: len(raw) - len(raw.lstrip())]
            marker, start = indent + found.group(1), number
            lines = [line[found.end() :]]
            if found.group(1).startswith("#"):
                close()
            continue
        if not lines:
            marker, start = "", number
        lines.append(line)
    close()
    return out


def rules_blocks(path: Path) -> list[tuple[int, str]]:
    """(line, text) of each piece of a rules summary (see `markdown_blocks`)."""
    return [(b.line, b.text) for b in markdown_blocks(path.read_text(encoding="utf-8")) if b is not None]


def translate_markdown(source: str, t: Callable[[str], str]) -> str:
    """``source`` with each piece translated by ``t``, markers and blank lines kept."""
    out: list[str] = []
    for block in markdown_blocks(source):
        out.append("" if block is None else block.marker + t(block.text))
    return "\n".join(out).strip("\n")


def template(area: str) -> Catalog:
    """The area's source catalog (English), as Babel builds a ``.pot``."""
    catalog = Catalog(project=PROJECT, fuzzy=False, creation_date=CREATED)
    for message in messages(area):
        key = (message.id, message.plural) if message.plural else message.id
        flags = ("python-brace-format",) if placeholders(message.id) else ()
        catalog.add(key, locations=[(message.where, message.line)], flags=flags)
    return catalog


# ------------------------------------------------------------------------ placeholders


def placeholders(text: str) -> set[str]:
    """The named ``{placeholders}`` of a message (``{{`` is a literal brace)."""
    try:
        fields = [name for _literal, name, _spec, _conversion in string.Formatter().parse(text)]
        return {name.split(".")[0].split("[")[0] for name in fields if name is not None}
    except ValueError:
        return {"<unbalanced braces>"}


# ------------------------------------------------------------------------ update/check


def po_path(lang: str, area: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{area}.po"


def pot_path(area: str) -> Path:
    return LOCALE_DIR / f"{area}.pot"


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=lang)


def _write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, omit_header=False, sort_output=False, include_previous=False)
    path.write_bytes(buffer.getvalue())


def update(areas: list[str] | None = None) -> None:
    """Rewrite each area's template, and each language's catalog against it (translations kept)."""
    for area in areas or AREAS:
        source = template(area)
        _write(pot_path(area), source)
        for lang in LANGUAGES:
            if lang == SOURCE:
                continue
            path = po_path(lang, area)
            catalog = read(path, lang) if path.exists() else Catalog(locale=lang, project=PROJECT)
            catalog.update(source, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            _write(path, catalog)


def problems() -> list[str]:
    """Everything wrong with the catalogs: a template out of date, a string missing, stale or broken."""
    found: list[str] = []
    for area in AREAS:
        source = template(area)
        ids = {m.id for m in source if m.id}
        if not pot_path(area).exists():
            found.append(f"{area}: no template {pot_path(area).name} (run python -m i18n.catalog update)")
        elif {m.id for m in read(pot_path(area)) if m.id} != ids:
            found.append(f"{area}.pot is out of date (run python -m i18n.catalog update)")
        for lang in LANGUAGES:
            if lang == SOURCE:
                continue
            path = po_path(lang, area)
            if not path.exists():
                found.append(f"{lang}/{area}.po is missing")
                continue
            catalog = read(path, lang)
            have = {m.id: m for m in catalog if m.id}
            for message in source:
                if not message.id:
                    continue
                where = f"{lang}/{area}.po: {_key(message.id)!r}"
                entry = have.get(message.id)
                if entry is None:
                    found.append(f"{where} is not in the catalog")
                    continue
                forms = list(entry.string) if isinstance(entry.string, tuple | list) else [entry.string]
                if entry.fuzzy or not all(forms):
                    found.append(f"{where} is untranslated or fuzzy")
                    continue
                wanted = placeholders(_key(message.id)) | (
                    placeholders(message.id[1]) if isinstance(message.id, tuple) else set()
                )
                for form in forms:
                    if placeholders(form) - wanted - {"count"}:
                        found.append(f"{where}: translation uses {sorted(placeholders(form) - wanted)}")
                    elif not isinstance(message.id, tuple) and placeholders(form) != wanted:
                        found.append(f"{where}: translation drops {sorted(wanted - placeholders(form))}")
            for stale in sorted(set(have) - ids, key=str):
                found.append(f"{lang}/{area}.po: {_key(stale)!r} is stale (no longer in the code)")
    return found


def _key(message_id: str | tuple[str, ...]) -> str:
    return message_id[0] if isinstance(message_id, tuple) else message_id


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "update":
        update(argv[1:] or None)
        return 0
    if command == "check":
        found = problems()
        print("\n".join(found) if found else "every catalog is complete")
        return 1 if found else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
