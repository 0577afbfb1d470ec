"""/leaderboard: rating boards per game, for this server or across all servers, and the solo board.

A server's board lists the members with at least `MIN_GAMES` rated games of that
game *in this server*, by their rating (μ − 3σ, see hosting/ratings.py); the
board across all servers lists everyone with `MIN_GAMES` rated games anywhere.
Reef & Ruins solo has its own board: each player's best solo score and its band
from the rulebook's solo rating table. Pages turn with buttons
(``lb:<game>:<scope>:<page>``, `DynamicItem`s that work after a restart); the
answer is ephemeral, so the caller's own place is always shown under the page.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

import engine
import i18n
from cogs.common import (
    NO_PINGS,
    answer_error,
    can_manage,
    control,
    dynamic_view,
    plain,
    reply,
    still_member,
    tables,
)
from cogs.host import host
from cogs.language import for_public, for_user
from engine.reef.components import rating as solo_band
from hosting import ratings, seasons
from hosting.errors import TableNotFound
from hosting.ratings import Standing
from hosting.records import FINISHED

log = logging.getLogger(__name__)

#: Players per page.
PAGE_SIZE = 10
#: Rated games (of that game, in this server for a server board) a player needs to be on a board.
MIN_GAMES = 3
#: The solo board's pseudo game key, and the game it is for.
SOLO, SOLO_GAME = "reef-solo", "reef"
SCOPES = ("server", "all")
#: A season board's scope in a page button: ``s.2026-12`` (issue #38; `hosting.seasons`).
SEASON_PREFIX = "s."
#: A server board lists its members only (issue #35). Without the privileged members intent the
#: bot hears of nobody leaving, so the players on a page are asked of Discord (`cogs.common.still_member`);
#: a "still a member" answer is trusted this long (seconds), for this many (server, player) pairs.
MEMBER_CHECK_TTL = 3600.0
MEMBER_CHECKS_KEPT = 10_000
#: How long a page waits for those answers (seconds), to answer within Discord's 3 s.
MEMBER_CHECK_WAIT = 1.5
#: What a member who may not change the server's boards is told.
ONLY_ORGANISERS = i18n.N_("Only members who can manage the server can change its boards.")
#: How often a page is read again after players who left were taken off it.
RECHECKS = 3

GAME_CHOICES = [
    *(
        app_commands.Choice(name=locale_str(g.title), value=g.key)
        for g in engine.games()
        if g.key in ("haenyeo", "jeju", "reef")
    ),
    app_commands.Choice(name=locale_str("Reef & Ruins — solo scores"), value=SOLO),
]
SCOPE_CHOICES = [
    app_commands.Choice(name=locale_str("Only this server"), value="server"),
    app_commands.Choice(name=locale_str("All servers"), value="all"),
    app_commands.Choice(name=locale_str("This server's current season"), value="season"),
]


def _rating_line(standing: Standing, t: i18n.Words) -> str:
    rating = standing.rating
    assert rating is not None
    # A server's board counts the rated games played on it; the board across servers, all of them.
    counted = rating.games if standing.games_here is None else standing.games_here
    games = t.plural("{count} game", "{count} games", counted)
    return f"**{standing.rank}.** <@{standing.user_id}> — **{rating.label(t=t)}** · {games}"


def _your_place(mine: Standing, total: int, t: i18n.Words) -> str:
    """The asker's own line under a ratings board: their rank of how many, at what rating."""
    assert mine.rating is not None
    rating = mine.rating.label(t=t)
    return t("You: **#{rank}** of {total} at {rating}", rank=mine.rank, total=total, rating=rating)


def _solo_line(standing: Standing, t: i18n.Words) -> str:
    assert standing.best is not None
    band = t(solo_band(standing.best).title)
    return f"**{standing.rank}.** <@{standing.user_id}> — **{standing.best}** · {band}"


async def board_page(
    interaction: discord.Interaction, game: str, scope: str, page: int
) -> tuple[str, discord.ui.View]:
    """One page of a board, the caller's own place under it, and the page buttons, in the caller's words."""
    t = await for_user(interaction)
    store = tables(interaction).store
    if scope.startswith(SEASON_PREFIX) and game != SOLO:
        return await season_page(interaction, game, scope.removeprefix(SEASON_PREFIX), page)
    if scope.startswith(SEASON_PREFIX):  # the solo board has no seasons: the server's
        scope = "server"
    guild_id = interaction.guild_id if scope == "server" else None
    if scope == "server" and guild_id is None:
        raise LookupError("server board outside a server")
    user = interaction.user.id
    page = max(page, 0)
    if game == SOLO:
        for _ in range(RECHECKS):
            total, found = await store.solo_board(
                SOLO_GAME, guild_id=guild_id, offset=page * PAGE_SIZE, limit=PAGE_SIZE
            )
            if not await drop_departed(interaction, found, guild_id):
                break
        mine = await store.solo_standing(SOLO_GAME, user, guild_id=guild_id)
        solo_title = t(engine.get(SOLO_GAME).title)
        if scope == "server":
            title = t("**{game} solo — best scores, this server**", game=solo_title)
        else:
            title = t("**{game} solo — best scores, all servers**", game=solo_title)
        lines = [_solo_line(s, t) for s in found]
        if mine:
            assert mine.best is not None
            you = t(
                "You: **#{rank}** of {total} with {score} ({band})",
                rank=mine.rank,
                total=total,
                score=mine.best,
                band=t(solo_band(mine.best).title),
            )
        else:
            you = t("You have no solo score here yet: play {game} alone with `/play`.", game=solo_title)
        explain = t("Each player's best solo score, with its band from the rulebook's solo rating table.")
    else:
        need = MIN_GAMES
        for _ in range(RECHECKS):
            total, found = await store.leaderboard(
                game, guild_id=guild_id, min_games=need, offset=page * PAGE_SIZE, limit=PAGE_SIZE
            )
            if not await drop_departed(interaction, found, guild_id):
                break
        mine = await store.standing(game, user, guild_id=guild_id, min_games=need)
        name = t(engine.get(game).title)
        if guild_id is not None:
            title = t(
                "**{game} — ratings, this server** (players with {need}+ rated games here)",
                game=name,
                need=need,
            )
        else:
            title = t(
                "**{game} — ratings, all servers** (players with {need}+ rated games)", game=name, need=need
            )
        lines = [_rating_line(s, t) for s in found]
        if mine:
            you = _your_place(mine, total, t)
        else:
            have = {r.game: r for r in await store.ratings_of(user)}.get(game)
            if guild_id is not None:
                you = t.plural(
                    "You are not on this board yet: it takes {count} rated game here.",
                    "You are not on this board yet: it takes {count} rated games here.",
                    need,
                )
            else:
                you = t.plural(
                    "You are not on this board yet: it takes {count} rated game.",
                    "You are not on this board yet: it takes {count} rated games.",
                    need,
                )
            if have:
                you += " " + t(
                    "Your rating: {rating} after {games}.", rating=have.label(t=t), games=have.games
                )
        explain = t.plural(
            "Rating = μ − {z}σ of openskill's Plackett–Luce, ×{scale}; "
            "provisional for the first {count} game.",
            "Rating = μ − {z}σ of openskill's Plackett–Luce, ×{scale}; "
            "provisional for the first {count} games.",
            ratings.PROVISIONAL_GAMES,
            z=format(ratings.Z, "g"),
            scale=format(ratings.DISPLAY_SCALE, "g"),
        )
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(page, pages - 1)
    body = lines or [t("Nobody is on this board yet.")]
    where = t("Page {page} of {pages}", page=page + 1, pages=pages)
    text = "\n".join([title, *body, f"-# {where} · {explain}", you])[:2000]
    view = dynamic_view()
    view.add_item(PageButton(game, scope, page - 1, t("◀ Previous"), disabled=page == 0))
    view.add_item(PageButton(game, scope, page + 1, t("Next ▶"), disabled=page >= pages - 1))
    # Reef & Ruins has two boards: each offers the other (the solo board is found from the ratings).
    if game == SOLO_GAME:
        view.add_item(PageButton(SOLO, scope, 0, t("Solo scores")))
    elif game == SOLO:
        view.add_item(PageButton(SOLO_GAME, scope, 0, t("Ratings")))
    # A server with seasons: its all-time board offers this season's (issue #38).
    if guild_id is not None and game != SOLO:
        current = seasons.key(await store.season_settings(guild_id), tables(interaction).now())
        if current is not None:
            view.add_item(PageButton(game, SEASON_PREFIX + current, 0, t("This season")))
    return text, view


async def season_page(
    interaction: discord.Interaction, game: str, season: str, page: int
) -> tuple[str, discord.ui.View]:
    """One page of this server's board of one season (issue #38), the caller's place under it, and
    the buttons: pages, the seasons before and after, and the all-time board."""
    t = await for_user(interaction)
    guild_id = interaction.guild_id
    if guild_id is None:
        raise LookupError("season board outside a server")
    service = tables(interaction)
    store, user, need = service.store, interaction.user.id, seasons.MIN_GAMES
    page = max(page, 0)
    for _ in range(RECHECKS):
        total, found = await store.season_board(
            guild_id, season, game, min_games=need, offset=page * PAGE_SIZE, limit=PAGE_SIZE
        )
        if not await drop_departed(interaction, found, guild_id):
            break
    mine = await store.season_standing(guild_id, season, game, user, min_games=need)
    current = seasons.key(await store.season_settings(guild_id), service.now())
    name = t(engine.get(game).title)
    title = t(
        "**{game} — {season}, this server** (players with {need}+ rated games here this season)",
        game=name,
        season=seasons.label(season, t),
        need=need,
    )
    if season == current:
        title += " · " + t("current season")
    lines = [_rating_line(s, t) for s in found]
    if mine:
        you = _your_place(mine, total, t)
    elif season == current:
        you = t("You are not on this season's board yet: a rated game here puts you on it.")
    else:
        you = t("You were not on this season's board.")
    explain = t(
        "A season rating starts from your all-time rating with its uncertainty (σ) widened; "
        "`/leaderboard scope:` shows the all-time board."
    )
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(page, pages - 1)
    body = lines or [t("Nobody is on this board yet.")]
    where = t("Page {page} of {pages}", page=page + 1, pages=pages)
    text = "\n".join([title, *body, f"-# {where} · {explain}", you])[:2000]
    scope = SEASON_PREFIX + season
    view = dynamic_view()
    view.add_item(PageButton(game, scope, page - 1, t("◀ Previous"), disabled=page == 0))
    view.add_item(PageButton(game, scope, page + 1, t("Next ▶"), disabled=page >= pages - 1))
    had = await store.seasons(guild_id)
    if current is not None and current not in had:
        had.append(current)  # the current season, before its first rated game
    at = had.index(season) if season in had else len(had)
    if at > 0:
        view.add_item(PageButton(game, SEASON_PREFIX + had[at - 1], 0, t("◀ Earlier season")))
    if at < len(had) - 1:
        view.add_item(PageButton(game, SEASON_PREFIX + had[at + 1], 0, t("Later season ▶")))
    view.add_item(PageButton(game, "server", 0, t("All-time")))
    return text, view


#: Per bot: (server, player) -> when Discord last said the player is a member (`drop_departed`).
MEMBERS_SEEN: weakref.WeakKeyDictionary[discord.Client, OrderedDict[tuple[int, int], float]] = (
    weakref.WeakKeyDictionary()
)


async def drop_departed(
    interaction: discord.Interaction, found: list[Standing], guild_id: int | None
) -> bool:
    """Take the players of a server board's page who are no longer members off this server's boards.

    Each is asked of Discord (`cogs.common.still_member`: ``Guild.fetch_member``, which needs no
    privileged intent), at most once per `MEMBER_CHECK_TTL`; an answer Discord cannot
    give counts as "still a member". True when someone was taken off (read the page again).
    """
    if guild_id is None or not found:
        return False
    seen = MEMBERS_SEEN.setdefault(interaction.client, OrderedDict())
    service = tables(interaction)
    now = service.now()
    stale = now - MEMBER_CHECK_TTL
    asking = [
        s.user_id
        for s in found
        if s.user_id != interaction.user.id and seen.get((guild_id, s.user_id), stale - 1) < stale
    ]
    asked = {user: asyncio.ensure_future(still_member(interaction.client, guild_id, user)) for user in asking}
    if asked:
        # The page must answer within Discord's 3 s: an answer still owed (Discord rate-limits
        # member lookups) counts as "still a member" this time and is asked again next time.
        await asyncio.wait(asked.values(), timeout=MEMBER_CHECK_WAIT)
    gone = []
    for user, answer in asked.items():
        if not answer.done():
            answer.cancel()
        elif answer.result():
            seen[(guild_id, user)] = now
            seen.move_to_end((guild_id, user))
        else:
            gone.append(user)
    while len(seen) > MEMBER_CHECKS_KEPT:
        seen.popitem(last=False)
    for user in gone:
        left = await service.store.leave_guild_boards(guild_id, user, list(engine.GAME_PACKAGES))
        log.info("server %s: player %s is no longer a member; off its boards of %s", guild_id, user, left)
    return bool(gone)


async def default_board(interaction: discord.Interaction, game: str) -> str:
    """The board ``/leaderboard game:`` shows: Reef & Ruins' solo board for a player who has
    solo scores but no rated Reef & Ruins game (their only games are solo)."""
    if game != SOLO_GAME:
        return game
    store, user = tables(interaction).store, interaction.user.id
    if any(r.game == SOLO_GAME for r in await store.ratings_of(user)):
        return game
    return SOLO if await store.solo_standing(SOLO_GAME, user, guild_id=None) else game


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=control(r"lb:(?P<game>[a-z-]+):(?P<scope>server|all|s\.[A-Za-z0-9-]{1,16}):(?P<page>-?\d+)"),
):
    """Turn a leaderboard page: ``lb:<game>:<scope>:<page>`` (scope ``s.<season>``: a season's board)."""

    def __init__(self, game: str, scope: str, page: int, label: str = "Page", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(label=label, custom_id=f"lb:{game}:{scope}:{page}", disabled=disabled)
        )
        self.game, self.scope, self.page = game, scope, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match
    ) -> PageButton:
        """Rebuild the button from its custom_id."""
        return cls(match["game"], match["scope"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page this button points to, with the clicker's own place."""
        if self.game != SOLO and self.game not in engine.GAME_PACKAGES:
            t = await for_user(interaction)
            await reply(interaction, t("There is no such leaderboard."))
            return
        try:
            text, view = await board_page(interaction, self.game, self.scope, self.page)
            await interaction.response.edit_message(content=text, view=view, allowed_mentions=NO_PINGS)
        except Exception as error:
            await answer_error(interaction, error)


class Leaderboard(commands.Cog):
    """Rating boards and the solo board, and what a server's organisers may do to theirs."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    ratings_group = app_commands.Group(
        name=locale_str("ratings"),
        description=locale_str("This server's boards: take a player off, or void a game (Manage Server)"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    @ratings_group.command(
        name=locale_str("remove"),
        description=locale_str("Take a player off this server's boards; their rating stays theirs"),
    )
    @app_commands.rename(player=locale_str("player"))
    @app_commands.describe(player=locale_str("Whom to take off this server's boards"))
    async def remove(self, interaction: discord.Interaction, player: discord.User) -> None:
        """Take a player off this server's rating and solo boards (Manage Server)."""
        t = await for_user(interaction)
        if not can_manage(interaction):
            await reply(interaction, t(ONLY_ORGANISERS))
            return
        try:
            await interaction.response.defer(ephemeral=True)  # the write may wait
            store = tables(interaction).store
            gone = await store.leave_guild_boards(interaction.guild_id, player.id, list(engine.GAME_PACKAGES))
        except Exception as error:
            await answer_error(interaction, error)
            return
        name = plain(player.display_name)
        if not gone:
            await reply(interaction, t("{name} is on none of this server's boards.", name=name))
            return
        boards = ", ".join(t(engine.get(game).title) for game in gone)
        await reply(
            interaction,
            t(
                "{name} is off this server's boards ({boards}). Their rating stays theirs; "
                "a rated game here puts them back on.",
                name=name,
                boards=boards,
            ),
        )

    @ratings_group.command(
        name=locale_str("void"),
        description=locale_str("Undo what a finished game of this server did to its players' ratings"),
    )
    @app_commands.rename(table=locale_str("table"))
    @app_commands.describe(table=locale_str("The finished game's table number (from /history)"))
    async def void(self, interaction: discord.Interaction, table: int) -> None:
        """Void a finished game from the ratings (Manage Server), and say so in its thread."""
        t = await for_user(interaction)
        if not can_manage(interaction):
            await reply(interaction, t(ONLY_ORGANISERS))
            return
        try:
            await interaction.response.defer(ephemeral=True)  # the write may wait
            service = tables(interaction)
            try:
                found = await service.get(table)
            except TableNotFound:
                found = None
            if found is None or found.guild_id != interaction.guild_id:  # the neutral answer (item 4)
                await reply(interaction, t("There is no table #{id} here.", id=table))
                return
            if await service.store.voided(table) is not None:
                await reply(interaction, t("Table #{id} is already voided from the ratings.", id=table))
                return
            if found.status != FINISHED or not await service.rating_changes(table):
                await reply(
                    interaction, t("Table #{id} moved no rating: there is nothing to void.", id=table)
                )
                return
            later = await service.store.void_ratings(table, interaction.user.id, service.now())
        except Exception as error:
            await answer_error(interaction, error)
            return
        if later:
            players = ", ".join(f"<@{user}>" for user in later)
            await reply(
                interaction,
                t(
                    "Table #{id} can no longer be voided: {players} played rated games of {game} since, "
                    "which built on it.",
                    id=table,
                    players=players,
                    game=t(engine.get(found.game).title),
                ),
            )
            return
        await reply(
            interaction,
            t("Table #{id} is voided: its players' ratings and boards are as they were before it.", id=table),
        )
        await self._say_voided(found, interaction.user)

    async def _say_voided(self, table, by: discord.abc.User) -> None:
        """A line under the game's results, in its thread: the game no longer counts (and who said so)."""
        t = await for_public(self.bot, table)
        text = t(
            "🚫 This game was voided from the ratings by {organiser}: the rating changes above are undone.",
            organiser=by.mention,
        )
        runner = host(self.bot).runner
        if await runner.announce(table, text):  # the post reopens the thread the results archived
            await runner.archive(table)  # back out of the active threads

    @app_commands.command(
        name=locale_str("leaderboard"),
        description=locale_str(
            "Show a game's rating board (or the Reef & Ruins solo board), with your own place."
        ),
    )
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.rename(game=locale_str("game"), scope=locale_str("scope"))
    @app_commands.describe(
        game=locale_str("Which game's board"),
        scope=locale_str("This server's players (default) or all servers"),
    )
    @app_commands.choices(game=GAME_CHOICES, scope=SCOPE_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        """Show a game's rating board (or the Reef & Ruins solo board), with your own place."""
        chosen = scope.value if scope else ("server" if interaction.guild_id else "all")
        if chosen in ("server", "season") and interaction.guild_id is None:
            t = await for_user(interaction)
            await reply(
                interaction, t("Outside a server there is only the board across all servers (`scope: all`).")
            )
            return
        try:
            if (chosen == "server" and scope is None) or chosen == "season":
                # A server with seasons shows the current season first (the all-time board a click away).
                settings = await tables(interaction).store.season_settings(interaction.guild_id)
                current = seasons.key(settings, tables(interaction).now())
                if current is not None:
                    chosen = SEASON_PREFIX + current
                elif chosen == "season":
                    t = await for_user(interaction)
                    await reply(
                        interaction,
                        t("This server has no seasons: an organiser starts them with `/settings season:`."),
                    )
                    return
            board = await default_board(interaction, game.value)
            text, view = await board_page(interaction, board, chosen, 0)
        except Exception as error:
            await answer_error(interaction, error)
            return
        await reply(interaction, text, view=view)


async def setup(bot: commands.Bot) -> None:
    """Load the leaderboard cog and its page buttons."""
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(Leaderboard(bot))
