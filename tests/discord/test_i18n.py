"""The catalogs and the translator: complete, consistent, drawable, and Discord-shaped.

The end-to-end Korean game is in tests/discord/test_korean.py; each game's own texts are
checked in tests/test_<game>_korean.py.
"""

from __future__ import annotations

import re

import discord
import pytest
from discord import app_commands

import i18n
from cogs.language import CatalogTranslator
from i18n import catalog
from renderers import common

KO = i18n.words("ko")
EN = i18n.words("en")
HANGUL = re.compile(r"[\uac00-\ud7a3]")
#: Discord: "CHAT_INPUT command names and command option names must match the following regex
#: ^[-_' \p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ ... with the unicode flag set"; lowercase where a
#: lowercase variant exists. (\w covers letters, digits and _ in Python's unicode mode.)
COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


#: Where the words a picture can draw come from: the renderers, the engines (events, labels,
#: summaries) and the data files. Discord messages (with their emoji) are drawn by Discord.
DRAWN_FROM = ("renderers/", "engine/", "data/")


def korean_strings(drawn_only: bool = False) -> list[str]:
    """Every Korean translation in every catalog (each plural form); with ``drawn_only``, those a
    picture can draw."""
    found = []
    for area in catalog.AREAS:
        for message in catalog.read(catalog.po_path("ko", area), "ko"):
            if not message.id:
                continue
            if drawn_only and not any(where.startswith(DRAWN_FROM) for where, _line in message.locations):
                continue
            forms = message.string if isinstance(message.string, tuple | list) else [message.string]
            found.extend(form for form in forms if form)
    return found


def test_every_catalog_is_complete_current_and_consistent():
    """No string in the code is missing from a catalog, untranslated, fuzzy or stale, every
    template is current, and each translation uses exactly its message's placeholders."""
    assert catalog.problems() == []


def test_the_check_catches_a_missing_translation_and_a_wrong_placeholder(tmp_path, monkeypatch):
    """The completeness check itself can fail: a catalog with a gap and a renamed placeholder."""
    source = tmp_path / "sample.py"
    source.write_text('t("Hello {name}")\nt("Goodbye")\nt.plural("{count} seat", "{count} seats", 2)\n')
    monkeypatch.setattr(catalog, "ROOT", tmp_path)
    monkeypatch.setattr(catalog, "LOCALE_DIR", tmp_path / "locale")
    monkeypatch.setattr(catalog, "AREAS", {"sample": (catalog.Source("sample.py"),)})
    catalog.update()
    po = catalog.po_path("ko", "sample")
    text = po.read_text(encoding="utf-8")
    text = text.replace('msgid "Hello {name}"\nmsgstr ""', 'msgid "Hello {name}"\nmsgstr "안녕 {nom}"')
    po.write_text(text, encoding="utf-8")
    found = "\n".join(catalog.problems())
    assert "'Hello {name}': translation uses ['nom']" in found
    assert "'Goodbye' is untranslated" in found
    assert "'{count} seat' is untranslated" in found


def test_messages_fill_named_placeholders_plurals_lists_and_seats():
    """The translator's forms: named placeholders in either word order, plurals, lists, nested terms."""
    message = i18n.say("{who} took {items}.", who=i18n.seat(1), items=i18n.listing([1, 2, 3]))
    assert i18n.english(message) == "Seat 2 took 1, 2, and 3."
    assert EN.msg(message, names=lambda seat: f"**P{seat}**") == "**P1** took 1, 2, and 3."
    assert KO.msg(i18n.say("Seat {number}", number=3)) == "3번 자리"
    assert KO.join(["가", "나", "다"]) == "가, 나 및 다"
    assert EN.plural("{count} seat", "{count} seats", 1) == "1 seat"
    assert EN.plural("{count} seat", "{count} seats", 4) == "4 seats"
    # A message that is not in any catalog reads as English, placeholders filled.
    assert KO("No such message {x}", x=5) == "No such message 5"


def test_a_broken_translation_never_breaks_a_message():
    """A placeholder the caller did not pass leaves the text readable instead of raising."""
    assert EN("Waiting for {names}") == "Waiting for {names}"
    assert "Waiting" in EN("Waiting for {names} {oops}", names="x")


@pytest.mark.parametrize(
    ("locale", "lang"),
    [
        ("ko", "ko"),
        (discord.Locale.korean, "ko"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("fr", "en"),
        (None, "en"),
    ],
)
def test_discord_locales_map_to_the_languages_the_bot_speaks(locale, lang):
    assert i18n.language(locale) == lang


def test_every_korean_string_draws_with_the_shipped_fonts():
    """No missing-glyph boxes: every character of every Korean translation a picture can draw is in
    both subset fonts."""
    strings = korean_strings(drawn_only=True)
    assert strings, "the Korean catalogs are empty"
    missing: dict[str, set[str]] = {}
    with common.speaking("ko"):
        for kind in ("regular", "bold"):
            for text in strings:
                lost = {char for char in text if not common.has_glyph(kind, char)}
                if lost:
                    missing.setdefault(kind, set()).update(lost)
    assert not missing, f"run python -m i18n.fonts: {missing}"


def test_a_korean_picture_draws_hangul_and_an_english_one_keeps_dejavu():
    with common.speaking("ko"):
        assert common.has_glyph("bold", "해") and common.has_glyph("regular", "A")
        assert common.font("regular", 20).path.endswith("NotoSansKR-Regular-ui.otf")
    assert not common.has_glyph("regular", "해")  # DejaVu has no Hangul
    assert common.font("regular", 20).path.endswith("DejaVuSans.ttf")


async def test_slash_commands_are_localized_in_korean_within_discords_rules(simcord_env):
    """The commands Discord received carry Korean names and descriptions that it accepts."""
    commands = simcord_env.backend.commands.values()
    registered = [command for by_guild in commands for command in by_guild.values()]
    assert {command["name"] for command in registered} >= {"play", "game", "rules", "settings", "language"}

    def walk(node: dict, path: str):
        yield path, node
        for option in node.get("options") or []:
            yield from walk(option, f"{path} {option['name']}")

    untranslated = []
    for command in registered:
        for path, node in walk(command, command["name"]):
            name = (node.get("name_localizations") or {}).get("ko")
            description = (node.get("description_localizations") or {}).get("ko")
            if node.get("description") and not description:
                untranslated.append(path)
            if name is not None:
                assert COMMAND_NAME.match(name) and name == name.lower(), (path, name)
            if description is not None:
                assert 1 <= len(description) <= 100 and HANGUL.search(description), (path, description)
            for choice in node.get("choices") or []:
                label = (choice.get("name_localizations") or {}).get("ko", choice["name"])
                assert 1 <= len(label) <= 100
    assert not untranslated, f"no Korean description: {untranslated}"


async def test_the_translator_leaves_english_clients_to_the_source_text():
    string = app_commands.locale_str("settings")
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_name, None)
    translator = CatalogTranslator()
    assert await translator.translate(string, discord.Locale.american_english, context) is None
    assert await translator.translate(string, discord.Locale.korean, context) == KO("settings") != "settings"
