"""What a player asks about themselves: /games, /stats, /history and /reminders.

These commands work in servers and in a direct message with the bot, and look
across every server the bot shares with the player.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import engine
from cogs.common import answer_error, fit_lines, plain, reply, table_link, tables
from hosting.store import LOBBY


class Players(commands.Cog):
    """A player's tables, records and reminder settings."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="games")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def games(self, interaction: discord.Interaction) -> None:
        """List your open tables in every server: those waiting for you first, soonest deadline first."""
        try:
            mine = await tables(interaction).my_tables(interaction.user.id)
        except Exception as error:
            await answer_error(interaction, error)
            return
        # Every server, whichever shard (and process) serves it: a server the bot left has
        # no open tables (they are abandoned when it leaves), so no filter by this process's cache.
        if not mine:
            await reply(interaction, "You have no open tables. Start one with `/play` in a server.")
            return
        lines = []
        for item in mine:
            table = item.table
            if table.status == LOBBY:
                state = "lobby"
            elif item.awaited:
                state = "**your move**" + (f", due <t:{int(table.deadline)}:R>" if table.deadline else "")
            else:
                state = "waiting for others"
            if table.paused_at is not None:
                state += " (paused)"
            server = self.bot.get_guild(table.guild_id) if table.guild_id else None
            where = f" in {plain(server.name)}" if server else ""
            lines.append(
                f"• **{engine.get(table.game).title}** #{table.id}{where} — {state} — {table_link(table)}"
            )
        await reply(interaction, fit_lines("Your open tables:", lines, what="more (finish some to see them)"))

    @app_commands.command(name="stats")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(player="Whose record to show (you, if left out)")
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """Show games played, wins and average score per game."""
        who = player or interaction.user
        try:
            records = await tables(interaction).stats(who.id)
            rated = {r.game: r for r in await tables(interaction).ratings_of(who.id)}
        except Exception as error:
            await answer_error(interaction, error)
            return
        name = plain(who.display_name)
        if not records:
            await reply(interaction, f"{name} has not finished a game here yet.")
            return
        lines = [
            f"• **{engine.get(r.game).title}**: {r.played} played, {r.wins} won, "
            f"average score {r.average:.1f}"
            + (
                f"\n  rating **{rated[r.game].label()}** after {rated[r.game].games} rated"
                if r.game in rated
                else ""
            )
            for r in records
        ]
        note = "-# Rating = μ − 3σ (openskill), games between people only; `/leaderboard` ranks them."
        await reply(
            interaction, fit_lines(f"**{name}'s games**", [*lines, note], what="more games", one="more game")
        )

    @app_commands.command(name="history")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(player="Whose finished games to list (you, if left out)")
    async def history(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """List finished games, newest first: date, game, place, score, and a link to each."""
        who = player or interaction.user
        try:
            found = await tables(interaction).finished_tables(who.id)
        except Exception as error:
            await answer_error(interaction, error)
            return
        name = plain(who.display_name)
        if not found:
            await reply(interaction, f"{name} has not finished a game yet.")
            return
        lines = []
        for table in found:
            result = table.result or {}
            seat = next(s.seat for s in table.seats if s.user_id == who.id or who.id in s.former)
            place, score = result["ranking"][seat], result["scores"][seat]
            players = len(table.seats)
            ranked = "solo" if players == 1 else f"{_ordinal(place)} of {players}"
            won = " 🏆" if seat in result.get("winners", []) and players > 1 else ""
            lines.append(
                f"• <t:{int(table.updated_at)}:d> **{engine.get(table.game).title}** #{table.id} — "
                f"{ranked}{won}, score {score} — {table_link(table)}"
            )
        header = f"**{name}'s finished games** (newest first; `/game replay table:<id>` steps through one)"
        await reply(interaction, fit_lines(header, lines, what="older games", one="older game"))

    @app_commands.command(name="reminders")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(
        dm="Remind you by direct message instead of in the thread (the thread if DMs are closed)"
    )
    async def reminders(self, interaction: discord.Interaction, dm: bool) -> None:
        """Choose whether deadline reminders reach you by direct message."""
        try:
            await interaction.response.defer(ephemeral=True)  # answer first: the write may wait
            await tables(interaction).set_dm_reminders(interaction.user.id, dm)
        except Exception as error:
            await answer_error(interaction, error)
            return
        if dm:
            await reply(
                interaction,
                "Reminders will come by direct message. If your DMs are closed, they come in the thread.",
            )
        else:
            await reply(interaction, "Reminders will come in the table's thread.")


def _ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th …"""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


async def setup(bot: commands.Bot) -> None:
    """Load the players cog."""
    await bot.add_cog(Players(bot))
