"""/settings language and season (a server's public language, its rating seasons) and /language
(a player's own).

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
from cogs.common import reply, tables
from cogs.language import for_guild, for_user
from hosting import seasons

#: "Follow Discord's setting" in the choices below.
FOLLOW = "discord"
#: The season choices beyond `hosting.seasons.LENGTHS`: start the next (manual) season, or none.
NEW_SEASON, NO_SEASONS = "new", "off"
SEASON_CHOICES = [
    app_commands.Choice(name=locale_str("A season each calendar month"), value="month"),
    app_commands.Choice(name=locale_str("A season each quarter"), value="quarter"),
    app_commands.Choice(name=locale_str("Seasons an organiser starts by hand"), value="manual"),
    app_commands.Choice(name=locale_str("Start a new season now"), value=NEW_SEASON),
    app_commands.Choice(name=locale_str("No seasons (all-time boards only)"), value=NO_SEASONS),
]


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
        description=locale_str(
            "Server settings: the language of this server's boards and messages, league organisers, seasons"
        ),
    )
    @app_commands.describe(
        language=locale_str("The language boards, results and reminders use here"),
        league_role=locale_str("Members with this role may organise leagues (@everyone: Manage Server only)"),
        season=locale_str("How long this server's rating seasons last (the all-time boards stay)"),
    )
    @app_commands.rename(league_role=locale_str("league_role"))
    @app_commands.choices(language=_choices(), season=SEASON_CHOICES)
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction,
        language: app_commands.Choice[str] | None = None,
        league_role: discord.Role | None = None,
        season: app_commands.Choice[str] | None = None,
    ) -> None:
        """Set the language of this server's public messages, who may organise leagues, and its seasons
        (Manage Server)."""
        if not (interaction.permissions and interaction.permissions.manage_guild):
            t = await for_user(interaction)
            await reply(interaction, t("Only members who can manage the server can change its settings."))
            return
        said: list[str] = []
        if language is not None:
            choice = None if language.value == FOLLOW else language.value
            await tables(interaction).languages.set_guild(interaction.guild_id, choice)
            t = await for_guild(interaction.client, interaction.guild_id, interaction.guild_locale)
            if choice is None:
                said.append(t("This server's boards and messages now follow Discord's server language."))
            else:
                name = i18n.LANGUAGES[choice]
                said.append(t("This server's boards and messages are now in {language}.", language=name))
        t = await for_user(interaction)
        store = tables(interaction).store
        if league_role is not None:  # issue #38: leagues' organisers, besides Manage Server
            everyone = league_role.id == interaction.guild_id
            await store.set_league_role(interaction.guild_id, None if everyone else league_role.id)
            if everyone:
                said.append(t("Only members who can manage the server may organise leagues now."))
            else:
                said.append(t("Members with {role} may organise leagues now.", role=league_role.mention))
        if season is not None:
            if season.value == NEW_SEASON:
                settings = await store.set_season(interaction.guild_id, "manual", new=True)
            else:
                length = None if season.value == NO_SEASONS else season.value
                settings = await store.set_season(interaction.guild_id, length)
            said.append(self._season_words(settings, t, tables(interaction).now()))
        if not said:  # nothing chosen: what is set
            settings = await store.season_settings(interaction.guild_id)
            said.append(self._season_words(settings, t, tables(interaction).now()))
        await reply(interaction, "\n".join(said))

    def _season_words(self, settings: seasons.SeasonSettings, t: i18n.Words, when: float) -> str:
        """What the server's seasons are now, and which one is running."""
        now = seasons.key(settings, when)
        if settings.length is None or now is None:
            return t("This server has no seasons: its boards are all-time.")
        current = seasons.label(now, t)
        if settings.length == "month":
            return t("Seasons last a calendar month (UTC); this one is {season}.", season=current)
        if settings.length == "quarter":
            return t("Seasons last a quarter (UTC); this one is {season}.", season=current)
        return t(
            "A season lasts until an organiser starts the next one (`/settings season:`); "
            "this one is {season}.",
            season=current,
        )

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
