"""What a player asks about themselves: /games, /stats, /history and /reminders.

These commands work in servers and in a direct message with the bot, and look
across every server the bot shares with the player. Another player's `/history`
and `/stats` show only their games of the server asked in (issue #35): which other
servers they play in is theirs to tell. Every answer is ephemeral,
in the asking player's language.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

import engine
import i18n
from cogs.common import answer_error, fit_lines, plain, reply, table_link, tables
from cogs.language import for_user
from hosting.records import LOBBY

#: The newest finished games `/history` lists: more than one message holds (about 17 lines),
#: so the rest is a count from the player's stats, not hundreds of tables read for nothing.
HISTORY_SHOWN = 25

#: Someone else's history or stats are shown only in a server, for that server (issue #35).
OTHERS_IN_A_SERVER = i18n.N_(
    "Another player's games are shown only in a server you share, for that server: "
    "ask there, or leave `player` out to see your own."
)

#: Places as words: "1st", "2nd", "3rd", "4th" (by the English suffix).
ORDINALS = {
    "st": i18n.N_("{place}st"),
    "nd": i18n.N_("{place}nd"),
    "rd": i18n.N_("{place}rd"),
    "th": i18n.N_("{place}th"),
}


class Players(commands.Cog):
    """A player's tables, records and reminder settings."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name=locale_str("games"),
        description=locale_str(
            "List your open tables in every server: those waiting for you first, soonest deadline first."
        ),
    )
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def games(self, interaction: discord.Interaction) -> None:
        """List your open tables in every server: those waiting for you first, soonest deadline first."""
        try:
            t = await for_user(interaction)
            mine = await tables(interaction).my_tables(interaction.user.id)
        except Exception as error:
            await answer_error(interaction, error)
            return
        # Every server, whichever shard (and process) serves it: a server the bot left has
        # no open tables (they are abandoned when it leaves), so no filter by this process's cache.
        if not mine:
            await reply(interaction, t("You have no open tables. Start one with `/play` in a server."))
            return
        lines = []
        for item in mine:
            table = item.table
            if table.status == LOBBY:
                state = t("lobby")
            elif item.awaited and table.deadline:
                due = f"<t:{int(table.deadline)}:R>"
                state = t("**your move**, due {due}", due=due)
            elif item.awaited:
                state = t("**your move**")
            else:
                state = t("waiting for others")
            if table.paused_at is not None:
                state = t("{state} (paused)", state=state)
            server = self.bot.get_guild(table.guild_id) if table.guild_id else None
            game = t(engine.get(table.game).title)
            if server:
                line = t(
                    "• **{game}** #{table} in {server} — {state} — {link}",
                    game=game,
                    table=table.id,
                    server=plain(server.name),
                    state=state,
                    link=table_link(table),
                )
            else:
                line = t(
                    "• **{game}** #{table} — {state} — {link}",
                    game=game,
                    table=table.id,
                    state=state,
                    link=table_link(table),
                )
            lines.append(line)
        text = fit_lines(
            t("Your open tables:"),
            lines,
            more=lambda n: t.plural(
                "… and {count} more (finish some to see them).",
                "… and {count} more (finish some to see them).",
                n,
            ),
        )
        await reply(interaction, text)

    @app_commands.command(
        name=locale_str("stats"),
        description=locale_str("Show games played, wins and average score per game."),
    )
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.rename(player=locale_str("player"))
    @app_commands.describe(player=locale_str("Whose record to show (you, if left out)"))
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """Show games played, wins and average score per game."""
        who = player or interaction.user
        own = who.id == interaction.user.id
        try:
            t = await for_user(interaction)
            if not own and interaction.guild_id is None:
                await reply(interaction, t(OTHERS_IN_A_SERVER))
                return
            if own:
                records = await tables(interaction).stats(who.id)
            else:  # someone else: only their games of this server (issue #35)
                records = await tables(interaction).store.player_stats_in(who.id, interaction.guild_id)
            rated = {r.game: r for r in await tables(interaction).ratings_of(who.id)}
        except Exception as error:
            await answer_error(interaction, error)
            return
        name = plain(who.display_name)
        if not records:
            await reply(interaction, t("{name} has not finished a game here yet.", name=name))
            return
        lines = []
        for r in records:
            average = f"{r.average:.1f}"
            line = t(
                "• **{game}**: {played} played, {wins} won, average score {average}",
                game=t(engine.get(r.game).title),
                played=r.played,
                wins=r.wins,
                average=average,
            )
            if r.game in rated and own:
                line += "\n  " + t(
                    "rating **{rating}** after {games} rated",
                    rating=rated[r.game].label(t=t),
                    games=rated[r.game].games,
                )
            elif r.game in rated:  # a rating is one number across every server: said so
                line += "\n  " + t("rating **{rating}** (all servers)", rating=rated[r.game].label(t=t))
            lines.append(line)
        note = t("-# Rating = μ − 3σ (openskill), games between people only; `/leaderboard` ranks them.")
        if own:
            header = t("**{name}'s games**", name=name)
        else:
            header = t("**{name}'s games in this server**", name=name)
        text = fit_lines(
            header,
            [*lines, note],
            more=lambda n: t.plural("… and {count} more game.", "… and {count} more games.", n),
        )
        await reply(interaction, text)

    @app_commands.command(
        name=locale_str("history"),
        description=locale_str(
            "List finished games, newest first: date, game, place, score, and a link to each."
        ),
    )
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.rename(player=locale_str("player"))
    @app_commands.describe(player=locale_str("Whose finished games to list (you, if left out)"))
    async def history(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        """List finished games, newest first: date, game, place, score, and a link to each."""
        who = player or interaction.user
        own = who.id == interaction.user.id
        try:
            t = await for_user(interaction)
            service = tables(interaction)
            if not own and interaction.guild_id is None:
                await reply(interaction, t(OTHERS_IN_A_SERVER))
                return
            if own:
                found = await service.finished_games(who.id, limit=HISTORY_SHOWN)
                # Every finished game the player was seated at to the end, as `/stats` counts them.
                played = sum(s.played for s in await service.stats(who.id))
            else:
                # Someone else's: only this server's games (issue #35). Their other servers are
                # theirs to tell; a link would carry those servers' ids.
                here = interaction.guild_id
                found = await service.store.finished_games_in(who.id, here, limit=HISTORY_SHOWN)
                played = sum(s.played for s in await service.store.player_stats_in(who.id, here))
            results = await service.store.league_results_of(who.id)
        except Exception as error:
            await answer_error(interaction, error)
            return
        name = plain(who.display_name)
        # Leagues that are over (issue #38): the player's place in each, newest first.
        leagues = [
            t(
                "🏆 {date} **{league}** ({game}) — {place} of {players}, {points} points",
                date=f"<t:{int(r.finished_at)}:d>",
                league=plain(r.name),
                game=t(engine.get(r.game).title),
                place=_ordinal(r.place, t=t),
                players=r.players,
                points=f"{r.points:g}",
            )
            for r in results
            if own or r.guild_id == interaction.guild_id
        ]
        if not found and not leagues:
            await reply(interaction, t("{name} has not finished a game yet.", name=name))
            return
        lines = []
        for game in found:
            if game.players == 1:
                ranked = t("solo")
            else:
                ranked = t("{place} of {players}", place=_ordinal(game.place, t=t), players=game.players)
            won = " 🏆" if game.won and game.players > 1 else ""
            lines.append(
                t(
                    "• {date} **{game}** #{table} — {place}{won}, score {score} — {link}",
                    date=f"<t:{int(game.finished_at)}:d>",
                    game=t(engine.get(game.game).title),
                    table=game.id,
                    place=ranked,
                    won=won,
                    score=game.score,
                    link=table_link(game),
                )
            )
        if own:
            header = t(
                "**{name}'s finished games** (newest first; `/game replay table:<id>` steps through one)",
                name=name,
            )
        else:
            header = t(
                "**{name}'s finished games in this server** "
                "(newest first; `/game replay table:<id>` steps through one)",
                name=name,
            )
        if leagues:
            header = "\n".join([header, *leagues])
        text = fit_lines(
            header,
            lines,
            more=lambda n: t.plural("… and {count} older game.", "… and {count} older games.", n),
            unlisted=max(played - len(lines), 0),  # beyond the newest HISTORY_SHOWN, not read
        )
        await reply(interaction, text)

    @app_commands.command(
        name=locale_str("reminders"),
        description=locale_str("Choose whether deadline reminders reach you by direct message."),
    )
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.rename(dm=locale_str("dm"))
    @app_commands.describe(
        dm=locale_str("Remind you by direct message instead of in the thread (the thread if DMs are closed)")
    )
    async def reminders(self, interaction: discord.Interaction, dm: bool) -> None:
        """Choose whether deadline reminders reach you by direct message."""
        try:
            await interaction.response.defer(ephemeral=True)  # answer first: the write may wait
            t = await for_user(interaction)
            await tables(interaction).set_dm_reminders(interaction.user.id, dm)
        except Exception as error:
            await answer_error(interaction, error)
            return
        if dm:
            await reply(
                interaction,
                t("Reminders will come by direct message. If your DMs are closed, they come in the thread."),
            )
        else:
            await reply(interaction, t("Reminders will come in the table's thread."))


def _ordinal(place: int, *, t: i18n.Words | None = None) -> str:
    """1st, 2nd, 3rd, 4th … (in ``t``'s language: 1위, 2위 …)."""
    t = t or i18n.words(i18n.SOURCE)
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return t(ORDINALS[suffix], place=place)


async def setup(bot: commands.Bot) -> None:
    """Load the players cog."""
    await bot.add_cog(Players(bot))
