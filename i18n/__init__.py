"""Every word the bot shows, in the reader's language: gettext catalogs managed with Babel.

The source language is English: a message's id *is* its English text, with named
placeholders in braces (``"{name} has chosen their diving cards."``). The Korean
catalog (``i18n/locale/ko/LC_MESSAGES/<area>.po``) maps each id to its
translation; a language with no catalog, or an id missing from one, reads as
English. Catalogs are compiled in memory when first used (Babel's ``write_mo``),
so there is no build step to forget. See docs/TRANSLATING.md.

Two ways to say something:

* ``t = words("ko")`` then ``t("Waiting for {names}", names=…)`` or
  ``t.plural("{count} seat", "{count} seats", n)``: code that knows its reader.
  The translator is always called ``t`` (that is the name the extractor looks for).
* ``say("…", **args)``: a message as plain JSON data (``{"id", "args"}``), for code
  that does not know who will read it: engine events, refusals from the table
  service. ``t.msg(message)`` says it later in any language. An argument may be
  another message (``term("Abalone")``), a seat (``seat(2)``, named by whoever
  reads it), a list (``listing([...])``, joined the language's way) or a plain
  value (numbers, player names), which is used as it is.

This package imports nothing of the bot's: the engine, renderers, hosting and
cogs all use it.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LOCALE_DIR = Path(__file__).resolve().parent / "locale"

#: Languages the bot speaks: code -> its own name (what a language menu shows).
LANGUAGES: dict[str, str] = {"en": "English", "ko": "한국어"}
SOURCE = "en"

#: A message as data: {"id": msgid, "args": {...}} and, for plurals, "plural" and "n".
Msg = dict[str, Any]


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it (module-level labels)."""
    return message


#: How a seat is named when the reader has no names for the seats.
SEAT_NAME = N_("Seat {number}")


def language(locale: object) -> str:
    """The language the bot speaks for a Discord locale (``"ko"`` → Korean, anything else English).

    Accepts ``discord.Locale`` values, strings such as ``"en-US"``, or None.
    """
    value = str(getattr(locale, "value", locale) or "").strip()
    code = value.replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES else SOURCE


# ------------------------------------------------------------------ messages as data


def say(message: str, /, **args: Any) -> Msg:
    """A message to be said later in the reader's language (see the module docstring)."""
    return {"id": message, "args": args}


def say_plural(singular: str, plural: str, count: int, /, **args: Any) -> Msg:
    """A message with a count; ``{count}`` is filled in with ``count``."""
    return {"id": singular, "plural": plural, "n": count, "args": args}


def term(message: str) -> Msg:
    """A word or phrase (a component's name) said in the reader's language, with no arguments."""
    return {"id": message, "args": {}}


def seat(index: int) -> dict[str, int]:
    """A seat, as an argument: named by the reader (a player's name, or "Seat 2")."""
    return {"seat": index}


def listing(items: Iterable[Any]) -> dict[str, list[Any]]:
    """A list, as an argument: "3, 7 and 9" or "3, 7 및 9"."""
    return {"list": list(items)}


def chain(items: list[Any], template: str) -> Msg | Any:
    """Items joined by a two-place message, right to left: ``chain([a, b, c], N_("{first} + {rest}"))``
    is one message ("a + b + c") whose every joint each language says its own way. Mark the
    template with `N_` where it is written. No items: ``""``."""
    if not items:
        return ""
    said = items[-1]
    for item in reversed(items[:-1]):
        said = say(template, first=item, rest=said)
    return said


# ---------------------------------------------------------------------- translators


class Words:
    """Everything said in one language: gettext lookups with named placeholders."""

    def __init__(self, lang: str, catalog: NullTranslations) -> None:
        self.lang = lang
        self.locale = Locale.parse(lang)
        if lang == SOURCE:
            # The ids are the English: no lookup at all (every engine event is said so).
            self._gettext: Callable[[str], str] = str
            self._ngettext: Callable[[str, str, int], str] = _english_plural
        else:
            self._gettext, self._ngettext = catalog.gettext, catalog.ngettext

    def __repr__(self) -> str:
        return f"Words({self.lang!r})"

    def __call__(self, message: str, /, **args: Any) -> str:
        """``message`` translated, its ``{placeholders}`` filled from ``args``."""
        text = self._gettext(message)
        return _fill(text, args) if args else text

    def plural(self, singular: str, plural: str, count: int, /, **args: Any) -> str:
        """The form of the message for ``count`` (``{count}`` is available to it)."""
        return _fill(self._ngettext(singular, plural, count), {"count": count, **args})

    def join(self, items: Iterable[object]) -> str:
        """Items joined the language's way ("a, b and c")."""
        words = tuple(str(item) for item in items)
        return _joined(words, self.lang) if words else ""

    def msg(self, message: Msg | str, names: Callable[[int], str] | None = None) -> str:
        """Say a message made with `say` (or a plain string, as it is).

        ``names(seat)`` names a seat argument; without it a seat is "Seat n".
        """
        if isinstance(message, str):
            return message
        args = message.get("args")
        said = {key: self._arg(value, names) for key, value in args.items()} if args else {}
        if "plural" in message:
            return self.plural(message["id"], message["plural"], int(message["n"]), **said)
        return self(message["id"], **said)

    def _arg(self, value: Any, names: Callable[[int], str] | None) -> Any:
        if isinstance(value, dict):
            if "seat" in value:
                index = int(value["seat"])
                return names(index) if names else self(SEAT_NAME, number=index + 1)
            if "list" in value:
                return self.join(self._arg(item, names) for item in value["list"])
            return self.msg(value, names)
        return value


@lru_cache(maxsize=4096)
def _joined(words: tuple[str, ...], lang: str) -> str:
    """Babel's `format_list`, remembered: the same lists (zones, seats) recur move after move."""
    return format_list(list(words), locale=lang)


def _english_plural(one: str, many: str, count: int) -> str:
    return one if count == 1 else many


def _fill(text: str, args: Mapping[str, Any]) -> str:
    try:
        return text.format_map(args)
    except (KeyError, IndexError, ValueError):
        return text  # a broken translation must never break a message: its text as written


@cache
def words(lang: str) -> Words:
    """The translator for ``lang`` (a code of `LANGUAGES`; anything else gets English)."""
    lang = lang if lang in LANGUAGES else SOURCE
    return Words(lang, _compiled(lang))


def english(message: Msg | str) -> str:
    """A message in English (the engine's ``text`` of an event)."""
    return words(SOURCE).msg(message)


def _compiled(lang: str) -> NullTranslations:
    """Every catalog of ``lang`` read and compiled to gettext form in memory, as one."""
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    if lang == SOURCE or not folder.is_dir():
        return NullTranslations()
    merged: Translations | None = None
    for path in sorted(folder.glob("*.po")):
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        buffer = io.BytesIO()
        write_mo(buffer, catalog)  # fuzzy entries are left out, as msgfmt does
        buffer.seek(0)
        part = Translations(buffer, domain=path.stem)
        if merged is None:
            merged = part
        else:
            merged.merge(part)
    return merged or NullTranslations()
