"""Which language to answer in, from what Discord tells the bot (see `hosting.languages`).

Every cog gets its translator here and calls it ``t`` (the catalog extractor looks
for that name):

* ``t = await for_user(interaction)`` — an ephemeral answer, a private panel or picture;
* ``t = await for_public(bot, table)`` — a board, results, a reminder in the thread;
* ``t = await for_dm(bot, user_id)`` — a direct message, when there is no interaction.

Slash commands are localized by `CatalogTranslator`, discord.py's
``app_commands.Translator``: their names, descriptions and choices come from the
same catalogs (the strings are marked with ``locale_str``).
"""

from __future__ import annotations

import discord
from discord import app_commands

import i18n
from cogs.host import host
from hosting.records import TableRecord


def _languages(client: discord.Client):
    return host(client).tables.languages


async def for_user(interaction: discord.Interaction) -> i18n.Words:
    """The clicking (or typing) user's language: their own choice, else their Discord client's."""
    lang = await _languages(interaction.client).personal(interaction.user.id, interaction.locale)
    return i18n.words(lang)


async def for_guild(client: discord.Client, guild_id: int | None, guild_locale: object = None) -> i18n.Words:
    """A server's language for public messages: its admin's choice, else Discord's server setting."""
    if guild_locale is None and guild_id is not None:
        guild = client.get_guild(guild_id)
        guild_locale = guild.preferred_locale if guild is not None else None
    return i18n.words(await _languages(client).public(guild_id, guild_locale))


async def for_public(client: discord.Client, table: TableRecord) -> i18n.Words:
    """The language of a table's public messages (its server's)."""
    return await for_guild(client, table.guild_id)


async def for_dm(client: discord.Client, user_id: int) -> i18n.Words:
    """A player's language for a direct message: their choice, else the client locale last seen."""
    return i18n.words(await _languages(client).personal(user_id))


#: Discord's locales the bot has a catalog for, and its language code for each.
SPOKEN: dict[discord.Locale, str] = {
    locale: i18n.language(locale) for locale in discord.Locale if i18n.language(locale) != i18n.SOURCE
}


class CatalogTranslator(app_commands.Translator):
    """Slash command names, descriptions and choices in the user's language, from the catalogs.

    Discord shows each user the localization for their client's language
    (``name_localizations`` and friends, sent when the commands are synced).
    discord.py asks for every string in each of Discord's locales at every start (the
    sync digest), so the locales with a catalog are known up front.
    """

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        lang = SPOKEN.get(locale)
        if lang is None:
            return None
        text = i18n.words(lang)(string.message)
        return None if text == string.message else text
