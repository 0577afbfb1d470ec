"""/daily: the daily Reef (issue #38, docs/DAILY.md). Everyone plays the same solo game a UTC day.

``/daily play`` opens the player's game of the day in a private thread (only they, and the
server's moderators with Manage Threads, can see it) or points back to the one they have;
``/daily board`` shows a day's board, scores only, and once a day has closed its best sheet.
The game itself is an ordinary solo Reef table (`hosting.daily`): boards, panels, restarts
and the runner work as they do for `/play`.
"""

from __future__ import annotations

import contextlib
import logging

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

import i18n
import renderers
from cogs.board import as_files, seat_names
from cogs.common import NO_PINGS, answer_error, plain, reply, table_link, tables
from cogs.host import host
from cogs.language import for_guild, for_public, for_user
from hosting import daily
from hosting.daily import DailyReef, Entry
from hosting.errors import TableError
from hosting.records import ACTIVE, TableRecord
from i18n import N_, say

log = logging.getLogger(__name__)

#: Lines of a day's board shown (the caller's own place is added under them).
BOARD_LINES = 10
#: Places drawn in the board's picture (the results picture draws up to eight rows).
PICTURE_ROWS = 8
#: A private thread archives itself after this many minutes without a message (a day).
ARCHIVE_AFTER = 1440
#: What the bot needs in the channel to open a private game there, in Discord's own words.
NEEDED = {
    "create_private_threads": N_("Create Private Threads"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "embed_links": N_("Embed Links"),
    "attach_files": N_("Attach Files"),
}
DAY_CHOICES = [
    app_commands.Choice(name=locale_str("Today (scores only)"), value="today"),
    app_commands.Choice(name=locale_str("Yesterday (with the best sheet)"), value="yesterday"),
]
SCOPE_CHOICES = [
    app_commands.Choice(name=locale_str("Only this server"), value="server"),
    app_commands.Choice(name=locale_str("All servers"), value="all"),
]


def until(moment: float) -> str:
    """A Discord timestamp that each reader's client shows relative to now ("in 5 hours")."""
    return f"<t:{int(moment)}:R>"


class Daily(commands.Cog):
    """The daily Reef: one seeded solo game a day for everyone, its boards and streaks."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = host(bot)
        self.daily = DailyReef(self.bot.tables)
        self.bot.runner.finished_hooks.append(self.on_finished)

    async def cog_unload(self) -> None:
        """Stop hearing of finished tables."""
        with contextlib.suppress(ValueError):
            self.bot.runner.finished_hooks.remove(self.on_finished)

    daily_group = app_commands.Group(
        name=locale_str("daily"),
        description=locale_str("The daily Reef: the same solo Reef & Ruins game for everyone today"),
        guild_only=True,
    )

    # ------------------------------------------------------------ /daily play

    @daily_group.command(
        name=locale_str("play"),
        description=locale_str("Play today's Reef & Ruins solo game in a private thread (once a day)"),
    )
    async def play(self, interaction: discord.Interaction) -> None:
        """Play today's Reef & Ruins solo game in a private thread (once a day)."""
        try:
            await self._play(interaction)
        except Exception as error:
            await answer_error(interaction, error)

    async def _play(self, interaction: discord.Interaction) -> None:
        t = await for_user(interaction)
        user = interaction.user
        entry = await self.daily.entry(user.id)
        if entry is not None:
            answered = await self._played(interaction, entry, t)
            if answered:
                return
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await reply(
                interaction,
                t("Run `/daily play` in a text channel: your game opens in a private thread there."),
            )
            return
        missing = [label for flag, label in NEEDED.items() if not getattr(interaction.app_permissions, flag)]
        if missing:
            names = ", ".join(f"**{t(name)}**" for name in missing)
            await reply(
                interaction,
                t(
                    "I can't open your private game in {channel}: I'm missing {permissions} there. "
                    "A server admin can grant them to me, or run `/daily play` in another channel.",
                    channel=channel.mention,
                    permissions=names,
                ),
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            thread = await channel.create_thread(
                name=await self._thread_name(interaction),
                type=discord.ChannelType.private_thread,
                invitable=False,  # nobody else is added: the sheet stays the player's
                auto_archive_duration=ARCHIVE_AFTER,
            )
        except discord.HTTPException as error:
            raise TableError(
                say(
                    "Discord refused to open a private thread here ({refused}). Nothing was created.",
                    refused=error.text or error.status,
                )
            ) from None
        try:
            opened = await self.daily.open(
                user_id=user.id,
                name=user.display_name,
                guild_id=interaction.guild_id,
                channel_id=channel.id,
                thread_id=thread.id,
            )
        except Exception:
            await self._drop(thread)
            raise
        if not opened.new:
            # Another /daily of this player (in another process) got there first, or a restart came
            # between their claim and its start: the game is in the thread of that first call.
            await self._drop(thread)
            if opened.started:
                await self._invite(opened.table.thread_id, user)
                self.bot.dispatch("table_started", opened.table)
            await reply(
                interaction, t("Your game of today is waiting for you: {link}", link=table_link(opened.table))
            )
            return
        await thread.add_user(user)
        self.bot.dispatch("table_started", opened.table)
        await reply(
            interaction,
            t(
                "Today's Reef is ready in your private thread: {link}. Everyone plays the same dice today; "
                "only you (and the server's moderators) can see your sheet. You play it once: "
                "your score goes on the day's board when you finish.",
                link=table_link(opened.table),
            ),
        )

    async def _thread_name(self, interaction: discord.Interaction) -> str:
        """The private thread's name, in the server's language (its moderators see it too)."""
        t = await for_guild(self.bot, interaction.guild_id, interaction.guild_locale)
        return t("Daily Reef {day}", day=self.daily.today())[:100]

    async def _played(self, interaction: discord.Interaction, entry: Entry, t: i18n.Words) -> bool:
        """Answer a player who already has today's game; False when it should be (re)started now."""
        closes = daily.day_end(entry.day)
        if entry.finished:
            streak = await self.daily.streak(interaction.user.id)
            if entry.guild_id == interaction.guild_id:
                place = await self.daily.place(entry, interaction.user.id, guild_id=interaction.guild_id)
                text = t(
                    "You have played today's Reef: **{score}** points, #{place} on this server's board. "
                    "A new game opens {when}.",
                    score=entry.score,
                    place=place,
                    when=until(closes),
                )
            else:  # played in another server: not on this server's board
                place = await self.daily.place(entry, interaction.user.id)
                text = t(
                    "You have played today's Reef: **{score}** points, #{place} of all servers. "
                    "A new game opens {when}.",
                    score=entry.score,
                    place=place,
                    when=until(closes),
                )
            streak_words = t.plural("Your streak: {count} day.", "Your streak: {count} days.", streak)
            await reply(interaction, f"{text}\n{streak_words}")
            return True
        table = await tables(interaction).get(entry.table_id)
        if table.status == ACTIVE:
            await reply(
                interaction, t("Your game of today is waiting for you: {link}", link=table_link(table))
            )
            return True
        if table.seed is not None:  # finished after the day closed, ended, or its thread deleted
            await reply(
                interaction,
                t(
                    "Your game of today ended without a score on the day's board. A new game opens {when}.",
                    when=until(closes),
                ),
            )
            return True
        return False  # claimed but never started (a restart in between): open it now

    async def _invite(self, thread_id: int | None, user: discord.abc.Snowflake) -> None:
        """Add the player to their game's private thread (again: being in it twice is harmless)."""
        if thread_id is None:
            return
        try:
            thread = self.bot.get_channel(thread_id) or await self.bot.fetch_channel(thread_id)
            if isinstance(thread, discord.Thread):
                await thread.add_user(user)
        except discord.HTTPException as error:
            log.warning("could not add a player to their daily thread %s (%s)", thread_id, error)

    async def _drop(self, thread: discord.Thread) -> None:
        """Delete a private thread that holds no game after all."""
        try:
            await thread.delete()
        except discord.HTTPException:
            log.warning("could not delete the unused daily thread %s", thread.id)

    # ------------------------------------------------------------ /daily board

    @daily_group.command(
        name=locale_str("board"),
        description=locale_str("The day's board: scores only today; yesterday's with its best sheet"),
    )
    @app_commands.rename(day=locale_str("day"), scope=locale_str("scope"))
    @app_commands.describe(
        day=locale_str("Today's board, or yesterday's (closed: with the best sheet)"),
        scope=locale_str("This server's players (default) or all servers"),
    )
    @app_commands.choices(day=DAY_CHOICES, scope=SCOPE_CHOICES)
    async def board(
        self,
        interaction: discord.Interaction,
        day: app_commands.Choice[str] | None = None,
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        """The day's board: scores only today; yesterday's with its best sheet."""
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            t = await for_user(interaction)
            today = self.daily.today()
            which = daily.day_before(today) if day is not None and day.value == "yesterday" else today
            everyone = scope is not None and scope.value == "all"
            guild_id = None if everyone else interaction.guild_id
            count, lines = await self.daily.board(which, guild_id=guild_id, limit=BOARD_LINES)
            text = self._board_text(which, today, everyone, count, lines, t)
            mine = await self.daily.entry(interaction.user.id, which)
            if (
                mine is not None
                and mine.finished
                and all(line.user_id != interaction.user.id for line in lines)
            ):
                place = await self.daily.place(mine, interaction.user.id, guild_id=guild_id)
                text += "\n" + t("You: **#{place}** with **{score}**", place=place, score=mine.score)
            streak = await self.daily.streak(interaction.user.id)
            text += "\n-# " + t.plural("Your streak: {count} day.", "Your streak: {count} days.", streak)
            closed = which != today
            files = as_files(await self._board_picture(lines, closed, t))
            best = await self.daily.best(which)
            if best is not None:
                names = seat_names(best, t.lang)
                text += "\n" + t(
                    "The day's best sheet: {player} with **{score}**.",
                    player=f"<@{best.seats[0].user_id}>",
                    score=(best.result or {}).get("scores", [0])[0],
                )
                picture = await self.bot.runner.picture(
                    best.game,
                    self.bot.tables.public_view(best),
                    names,
                    lang=t.lang,
                )
                files += as_files(picture)
            await interaction.followup.send(
                text[:2000], files=files, ephemeral=True, allowed_mentions=NO_PINGS
            )
        except Exception as error:
            await answer_error(interaction, error)

    async def _board_picture(
        self, lines: list[daily.Line], closed: bool, t: i18n.Words
    ) -> renderers.Picture | None:
        """The board's first places as a results picture (legible at 400 px, as every results picture).

        While the day runs each bar is the total only; once it closed, the points by category.
        """
        shown = lines[:PICTURE_ROWS]
        if not shown:
            return None
        service = self.bot.tables
        found = [await service.get(line.table_id) for line in shown]
        results = [table.result or {} for table in found]
        result = {
            "scores": [line.score for line in shown],
            "ranking": [line.place for line in shown],
            "winners": [row for row, line in enumerate(shown) if line.place == 1],
            "breakdown": [
                (r.get("breakdown") or [{}])[0] if closed else {"total": line.score}
                for r, line in zip(results, shown, strict=True)
            ],
        }
        if closed and isinstance(results[0].get("labels"), dict):
            result["labels"] = results[0]["labels"]
        names = [seat_names(table, t.lang)[0] for table in found]
        try:
            return await renderers.render_results_async(daily.GAME, {"result": result}, names, lang=t.lang)
        except renderers.RenderError:
            return None  # the board in words is the board

    def _board_text(
        self, day: str, today: str, everyone: bool, count: int, lines: list[daily.Line], t: i18n.Words
    ) -> str:
        """A day's board in words: its title, then one line per player, best first (scores only)."""
        if day == today:
            title = (
                t("**The daily Reef, {day}** — all servers", day=day)
                if everyone
                else t("**The daily Reef, {day}** — this server", day=day)
            )
            status = t("The day closes {when}.", when=until(daily.day_end(day)))
        else:
            title = (
                t("**The daily Reef, {day}** (closed) — all servers", day=day)
                if everyone
                else t("**The daily Reef, {day}** (closed) — this server", day=day)
            )
            status = ""
        if not lines:
            body = (
                t("Nobody has finished this day's game yet.")
                if day == today
                else t("Nobody finished this day's game.")
            )
        else:
            medals = {1: "🥇", 2: "🥈", 3: "🥉"}
            body = "\n".join(
                t(
                    "{place} <@{player}>: **{score}**",
                    place=medals.get(line.place) or f"{line.place}.",
                    player=line.user_id,
                    score=line.score,
                )
                for line in lines
            )
        finished = t.plural("{count} player finished.", "{count} players finished.", count)
        return "\n".join(part for part in (title, body, f"-# {finished} {status}".rstrip()) if part)

    # ------------------------------------------------------------ a finished daily game

    async def on_finished(self, table: TableRecord, channel: discord.abc.Messageable) -> None:
        """A daily game finished: tell its player, in their thread, where they landed on the day's boards."""
        day = daily.daily_day(table)
        seat = table.seats[0] if table.seats else None
        if day is None or seat is None or seat.user_id is None:
            return
        entry = await self.daily.entry(seat.user_id, day)
        t = await for_public(self.bot, table)
        if entry is None or not entry.finished:
            await channel.send(
                t(
                    "This game does not go on the day's board: only a game its player finishes "
                    "before the day closes does."
                ),
                allowed_mentions=NO_PINGS,
            )
            return
        here = await self.daily.place(entry, seat.user_id, guild_id=table.guild_id)
        everywhere = await self.daily.place(entry, seat.user_id)
        streak = await self.daily.streak(seat.user_id)
        text = t(
            "📅 {player}, your score of the day is on the boards: #{here} on this server, #{everywhere} "
            "of all servers so far. The day's best sheet is shown {when} (`/daily board`).",
            player=plain(seat.name),
            here=here,
            everywhere=everywhere,
            when=until(daily.day_end(day)),
        )
        text += "\n" + t.plural("Your streak: {count} day.", "Your streak: {count} days.", streak)
        await channel.send(text, allowed_mentions=NO_PINGS)


async def setup(bot: commands.Bot) -> None:
    """Load the daily Reef's cog."""
    await bot.add_cog(Daily(bot))
