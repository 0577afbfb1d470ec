"""What a player asks about themselves: /games, /stats, /history and /reminders.

These commands work in servers and in a direct message with the bot, and look
across every server the bot shares with the player. Another player's `/history`
and `/stats` show only their games of the server asked in (issue #35): which other
servers they play in is theirs to tell. Every answer is ephemeral,
in the asking player's language.
"""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

import engine
import i18n
import renderers
from cogs.common import (
    NO_PINGS,
    answer_error,
    control,
    dynamic_view,
    fit_lines,
    plain,
    reply,
    table_link,
    tables,
)
from cogs.language import for_user
from hosting import ratings
from hosting.records import LOBBY

log = logging.getLogger(__name__)

#: The finished games one `/history` page reads: more than one message holds (about 17 lines),
#: so the rest is a count from the player's stats, not hundreds of tables read for nothing; the
#: page's "Older" button goes on from the first game that did not fit (issue #38).
HISTORY_SHOWN = 25
#: How far "Newer" goes back: about what one page shows.
HISTORY_PAGE_BACK = 17

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
        description=locale_str(
            "Show games played, wins, average score, rating over time, and how you fare against a player."
        ),
    )
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.rename(player=locale_str("player"), against=locale_str("against"))
    @app_commands.describe(
        player=locale_str("Whose record to show (you, if left out)"),
        against=locale_str("Head-to-head: your finished games together with this player"),
    )
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        against: discord.User | None = None,
    ) -> None:
        """Show games played, wins, average score, rating over time, and how you fare against a player."""
        who = player or interaction.user
        own = who.id == interaction.user.id
        try:
            t = await for_user(interaction)
            if not own and interaction.guild_id is None:
                await reply(interaction, t(OTHERS_IN_A_SERVER))
                return
            # Someone else's record: only their games of this server (issue #35).
            here = None if own else interaction.guild_id
            service = tables(interaction)
            if own:
                records = await service.stats(who.id)
            else:
                records = await service.store.player_stats_in(who.id, interaction.guild_id)
            rated = {r.game: r for r in await service.ratings_of(who.id)}
            history = await service.store.rating_history(who.id, guild_id=here)
            together = []
            if against is not None and against.id != who.id:
                together = await service.store.head_to_head(who.id, against.id, guild_id=here)
        except Exception as error:
            await answer_error(interaction, error)
            return
        name = plain(who.display_name)
        if not records:
            await reply(interaction, t("{name} has not finished a game here yet.", name=name))
            return
        by_game: dict[str, list[ratings.RatingPoint]] = {}
        for point in history:
            by_game.setdefault(point.game, []).append(point)
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
            if points := by_game.get(r.game):
                line += "\n  " + _best_and_streak(points, t)
            lines.append(line)
        if against is not None:
            lines.append(
                _head_to_head(together, name, plain(against.display_name), same=against.id == who.id, t=t)
            )
        note = t(
            "-# Rating = μ − 3σ (openskill), games between people only; `/leaderboard` ranks them. "
            "Streak: rated games won in a row, up to the latest (a shared first place counts)."
        )
        if own:
            header = t("**{name}'s games**", name=name)
        else:
            header = t("**{name}'s games in this server**", name=name)
        text = fit_lines(
            header,
            [*lines, note],
            more=lambda n: t.plural("… and {count} more game.", "… and {count} more games.", n),
        )
        if not history:
            await reply(interaction, text)
            return
        # The picture takes a worker a moment: the answer is deferred, then sent with it.
        await interaction.response.defer(ephemeral=True, thinking=True)
        picture = await _rating_picture(who.display_name, history, t.lang)
        if picture is None:
            await reply(interaction, text)
            return
        attached = discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.alt)
        await reply(interaction, text, file=attached)

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
        try:
            text, view = await history_page(interaction, who.id, plain(who.display_name), 0)
        except Exception as error:
            await answer_error(interaction, error)
            return
        await reply(interaction, text, **({"view": view} if view else {}))

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


async def history_page(
    interaction: discord.Interaction, user_id: int, name: str, offset: int
) -> tuple[str, discord.ui.View | None]:
    """One page of a player's finished games from the ``offset``-th newest, in the caller's words,
    with the buttons to the newer and older pages (None when everything fits on one).

    The caller's own history covers every server; someone else's only this server's (issue #35),
    whoever built the button: a page is always re-checked against who clicks it.
    """
    t = await for_user(interaction)
    service = tables(interaction)
    own = user_id == interaction.user.id
    offset = max(offset, 0)
    if not own and interaction.guild_id is None:
        return t(OTHERS_IN_A_SERVER), None
    here = None if own else interaction.guild_id
    if offset == 0:  # the first page: the reads `/history` always made
        if own:
            found = await service.finished_games(user_id, limit=HISTORY_SHOWN)
        else:
            found = await service.store.finished_games_in(user_id, here, limit=HISTORY_SHOWN)
    else:
        found = await service.store.finished_games_page(
            user_id, offset=offset, limit=HISTORY_SHOWN, guild_id=here
        )
    if own:
        # Every finished game the player was seated at to the end, as `/stats` counts them.
        played = sum(s.played for s in await service.stats(user_id))
    else:
        played = sum(s.played for s in await service.store.player_stats_in(user_id, here))
    # Leagues that are over (issue #38), on the first page: the player's place in each, newest first.
    results = await service.store.league_results_of(user_id) if offset == 0 else []
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
        if offset:
            return t("There are no older games."), None
        return t("{name} has not finished a game yet.", name=name), None
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
    if offset:
        header += "\n" + t(
            "-# Games {first}–{last} of {total}",
            first=offset + 1,
            last=offset + len(lines),
            total=max(played, offset + len(lines)),
        )
    text = fit_lines(
        header,
        lines,
        more=lambda n: t.plural("… and {count} older game.", "… and {count} older games.", n),
        unlisted=max(played - offset - len(lines), 0),  # beyond this page, not read
    )
    shown = sum(1 for line in lines if line in text)
    if offset == 0 and shown >= played:
        return text, None
    view = dynamic_view()
    newer = max(offset - HISTORY_PAGE_BACK, 0)
    view.add_item(HistoryButton(user_id, newer, t("◀ Newer"), disabled=offset == 0))
    older = offset + shown
    view.add_item(HistoryButton(user_id, older, t("Older ▶"), disabled=older >= played))
    return text, view


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=control(r"hist:(?P<user>\d+):(?P<offset>\d+)"),
):
    """Turn a `/history` page: ``hist:<player>:<offset>`` (the newest game shown first)."""

    def __init__(self, user_id: int, offset: int, label: str = "Page", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(label=label, custom_id=f"hist:{user_id}:{offset}", disabled=disabled)
        )
        self.user_id, self.offset = user_id, offset

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match
    ) -> HistoryButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["user"]), int(match["offset"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page this button points to (someone else's history: this server's games only)."""
        try:
            name = await _name_of(interaction, self.user_id)
            text, view = await history_page(interaction, self.user_id, name, self.offset)
            await interaction.response.edit_message(
                content=text, view=view or dynamic_view(), allowed_mentions=NO_PINGS
            )
        except Exception as error:
            await answer_error(interaction, error)


async def _name_of(interaction: discord.Interaction, user_id: int) -> str:
    """A player's display name, made safe to print (the button knows only their id)."""
    member = interaction.guild.get_member(user_id) if interaction.guild else None
    user = member or interaction.client.get_user(user_id)
    if user is None:
        try:
            user = await interaction.client.fetch_user(user_id)
        except discord.HTTPException:
            return f"<{user_id}>"
    return plain(user.display_name)


def _best_and_streak(points: list[ratings.RatingPoint], t: i18n.Words) -> str:
    """ "best rating 312 · streak: 3 wins in a row" for one game's rated games (oldest first)."""
    best = ratings.best_shown(points)
    streak = ratings.win_streak(points)
    if streak:
        run = t.plural("streak: {count} win in a row", "streak: {count} wins in a row", streak)
    else:
        run = t("no win streak")
    return t("best rating **{best}** · {streak}", best=best, streak=run)


def _head_to_head(
    together: list[ratings.HeadToHead], name: str, other: str, *, same: bool, t: i18n.Words
) -> str:
    """The head-to-head lines: per game, finished games together and who placed higher."""
    if same:
        return t("Head-to-head needs another player than {name}.", name=name)
    if not together:
        return t("**{name} against {other}**: no finished games together yet.", name=name, other=other)
    lines = [t("**{name} against {other}**:", name=name, other=other)]
    for h in together:
        games = t.plural("{count} game together", "{count} games together", h.together)
        lines.append(
            "  "
            + t(
                "{game}: {games}; {name} placed higher {higher}×, {other} {lower}×, shared {shared}×",
                game=t(engine.get(h.game).title),
                games=games,
                name=name,
                higher=h.higher,
                other=other,
                lower=h.lower,
                shared=h.together - h.higher - h.lower,
            )
        )
    return "\n".join(lines)


def rating_view(name: str, history: list[ratings.RatingPoint]) -> dict:
    """The rating-history picture's view (`renderers.ratings`): per game, most played first, the
    shown rating before the first of these games, then after each."""
    by_game: dict[str, list[ratings.RatingPoint]] = {}
    for point in history:
        by_game.setdefault(point.game, []).append(point)
    games = []
    for game, points in sorted(by_game.items(), key=lambda item: (-len(item[1]), item[0])):
        start = ratings.shown(points[0].mu_before, points[0].sigma_before)
        games.append(
            {
                "game": game,
                "title": engine.get(game).title,
                "points": [start, *(p.shown for p in points)],
                "best": ratings.best_shown(points),
            }
        )
    return {"name": name, "games": games}


async def _rating_picture(
    name: str, history: list[ratings.RatingPoint], lang: str
) -> renderers.Picture | None:
    """The rating-history picture (None, logged, when it cannot be drawn: the text still answers)."""
    try:
        return await renderers.render_rating_history_async(rating_view(name, history), lang)
    except Exception:
        log.exception("rating history picture failed")
        return None


def _ordinal(place: int, *, t: i18n.Words | None = None) -> str:
    """1st, 2nd, 3rd, 4th … (in ``t``'s language: 1위, 2위 …)."""
    t = t or i18n.words(i18n.SOURCE)
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return t(ORDINALS[suffix], place=place)


async def setup(bot: commands.Bot) -> None:
    """Load the players cog and its page buttons."""
    bot.add_dynamic_items(HistoryButton)
    await bot.add_cog(Players(bot))
