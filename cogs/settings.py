"""/settings language (a server's public language) and /language (a player's own).

Discord tells the bot each user's client language and, in a Community server, the
server's language (``guild_locale``; every other server reports en-US, so an admin
needs a way to choose). The choices are stored (`hosting.languages`); see
docs/TRANSLATING.md for who reads which language.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

import i18n
from cogs.common import NO_PINGS, reply, tables
from cogs.language import for_guild, for_user

#: "Follow Discord's setting" in the choices below.
FOLLOW = "discord"


def _choices() -> list[app_commands.Choice[str]]:
    """Each language in its own name, then "follow Discord"."""
    follow = app_commands.Choice(name=locale_str("Follow Discord's language setting"), value=FOLLOW)
    return [app_commands.Choice(name=name, value=code) for code, name in i18n.LANGUAGES.items()] + [follow]


class Settings(commands.Cog):
    """Language choices for a server and for each player."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name=locale_str("settings"),
        description=locale_str("Server settings: the language of this server's boards and messages"),
    )
    @app_commands.describe(
        language=locale_str("The language boards, results and reminders use here"),
        league_role=locale_str("Members with this role may organise leagues (@everyone: Manage Server only)"),
    )
    @app_commands.rename(league_role=locale_str("league_role"))
    @app_commands.choices(language=_choices())
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction,
        language: app_commands.Choice[str] | None = None,
        league_role: discord.Role | None = None,
    ) -> None:
        """Set the language of this server's public messages, or who may organise leagues (Manage Server)."""
        if not (interaction.permissions and interaction.permissions.manage_guild):
            t = await for_user(interaction)
            await reply(interaction, t("Only members who can manage the server can change its settings."))
            return
        if league_role is not None:  # issue #38: leagues' organisers, besides Manage Server
            everyone = league_role.id == interaction.guild_id
            await tables(interaction).store.set_league_role(
                interaction.guild_id, None if everyone else league_role.id
            )
            t = await for_user(interaction)
            if everyone:
                text = t("Only members who can manage the server may organise leagues now.")
            else:
                text = t("Members with {role} may organise leagues now.", role=league_role.mention)
            if language is None:
                await reply(interaction, text)
                return
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
        if language is None:
            t = await for_user(interaction)
            await reply(interaction, t("Choose a language, or the role that may organise leagues."))
            return
        choice = None if language.value == FOLLOW else language.value
        await tables(interaction).languages.set_guild(interaction.guild_id, choice)
        t = await for_guild(interaction.client, interaction.guild_id, interaction.guild_locale)
        if choice is None:
            text = t("This server's boards and messages now follow Discord's server language.")
        else:
            name = i18n.LANGUAGES[choice]
            text = t("This server's boards and messages are now in {language}.", language=name)
        await reply(interaction, text)

    @app_commands.command(
        name=locale_str("language"),
        description=locale_str("Your language for your own panels, private pictures and direct messages"),
    )
    @app_commands.describe(language=locale_str("The language of what only you see"))
    @app_commands.choices(language=_choices())
    async def language(self, interaction: discord.Interaction, language: app_commands.Choice[str]) -> None:
        """Choose the language of the messages only you see (your Discord client's by default)."""
        choice = None if language.value == FOLLOW else language.value
        await tables(interaction).languages.set_player(interaction.user.id, choice)
        t = await for_user(interaction)
        if choice is None:
            text = t("What only you see now follows your Discord language.")
        else:
            text = t("What only you see is now in {language}.", language=i18n.LANGUAGES[choice])
        await reply(interaction, text)


async def setup(bot: commands.Bot) -> None:
    """discord.py's extension entry point."""
    await bot.add_cog(Settings(bot))
