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

import discord
from discord import app_commands
from discord.ext import commands

import engine
from cogs.common import NO_PINGS, answer_error, reply, tables
from engine.reef.components import rating as solo_band
from hosting import ratings
from hosting.ratings import Standing

#: Players per page.
PAGE_SIZE = 10
#: Rated games (of that game, in this server for a server board) a player needs to be on a board.
MIN_GAMES = 3
#: The solo board's pseudo game key, and the game it is for.
SOLO, SOLO_GAME = "reef-solo", "reef"
SCOPES = {"server": "this server", "all": "all servers"}

GAME_CHOICES = [
    *(
        app_commands.Choice(name=g.title, value=g.key)
        for g in engine.games()
        if g.key in ("haenyeo", "jeju", "reef")
    ),
    app_commands.Choice(name="Reef & Ruins — solo scores", value=SOLO),
]
SCOPE_CHOICES = [
    app_commands.Choice(name=f"Only {words}" if key == "server" else "All servers", value=key)
    for key, words in SCOPES.items()
]


def _rating_line(standing: Standing) -> str:
    rating = standing.rating
    assert rating is not None
    games = f"{rating.games} game{'s' if rating.games != 1 else ''}"
    return f"**{standing.rank}.** <@{standing.user_id}> — **{rating.label()}** · {games}"


def _solo_line(standing: Standing) -> str:
    assert standing.best is not None
    return (
        f"**{standing.rank}.** <@{standing.user_id}> — **{standing.best}** · {solo_band(standing.best).title}"
    )


async def board_page(
    interaction: discord.Interaction, game: str, scope: str, page: int
) -> tuple[str, discord.ui.View]:
    """One page of a board, the caller's own place under it, and the page buttons."""
    store = tables(interaction).store
    guild_id = interaction.guild_id if scope == "server" else None
    if scope == "server" and guild_id is None:
        raise LookupError("server board outside a server")
    user = interaction.user.id
    page = max(page, 0)
    if game == SOLO:
        total, found = await store.solo_board(
            SOLO_GAME, guild_id=guild_id, offset=page * PAGE_SIZE, limit=PAGE_SIZE
        )
        mine = await store.solo_standing(SOLO_GAME, user, guild_id=guild_id)
        title = f"**Reef & Ruins solo — best scores, {SCOPES[scope]}**"
        lines = [_solo_line(s) for s in found]
        you = (
            f"You: **#{mine.rank}** of {total} with {mine.best} ({solo_band(mine.best).title})"  # type: ignore[arg-type]
            if mine
            else "You have no solo score here yet: play Reef & Ruins alone with `/play`."
        )
        explain = "Each player's best solo score, with its band from the rulebook's solo rating table."
    else:
        need = MIN_GAMES
        total, found = await store.leaderboard(
            game, guild_id=guild_id, min_games=need, offset=page * PAGE_SIZE, limit=PAGE_SIZE
        )
        mine = await store.standing(game, user, guild_id=guild_id, min_games=need)
        where = " here" if guild_id is not None else ""
        title = f"**{engine.get(game).title} — ratings, {SCOPES[scope]}**"
        title += f" (players with {need}+ rated games{where})"
        lines = [_rating_line(s) for s in found]
        if mine:
            you = f"You: **#{mine.rank}** of {total} at {mine.rating.label()}"  # type: ignore[union-attr]
        else:
            have = {r.game: r for r in await store.ratings_of(user)}.get(game)
            you = f"You are not on this board yet: it takes {need} rated games{where}."
            if have:
                you += f" Your rating: {have.label()} after {have.games}."
        explain = (
            f"Rating = μ − {ratings.Z:g}σ of openskill's Plackett–Luce, ×{ratings.DISPLAY_SCALE:g}; "
            f"provisional for the first {ratings.PROVISIONAL_GAMES} games."
        )
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(page, pages - 1)
    body = lines or ["Nobody is on this board yet."]
    text = "\n".join([title, *body, f"-# Page {page + 1} of {pages} · {explain}", you])[:2000]
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(game, scope, page - 1, "◀ Previous", disabled=page == 0))
    view.add_item(PageButton(game, scope, page + 1, "Next ▶", disabled=page >= pages - 1))
    return text, view


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"lb:(?P<game>[a-z-]+):(?P<scope>server|all):(?P<page>-?\d+)",
):
    """Turn a leaderboard page: ``lb:<game>:<scope>:<page>``."""

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
            await reply(interaction, "There is no such leaderboard.")
            return
        try:
            text, view = await board_page(interaction, self.game, self.scope, self.page)
            await interaction.response.edit_message(content=text, view=view, allowed_mentions=NO_PINGS)
        except Exception as error:
            await answer_error(interaction, error)


class Leaderboard(commands.Cog):
    """Rating boards and the solo board."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.describe(game="Which game's board", scope="This server's players (default) or all servers")
    @app_commands.choices(game=GAME_CHOICES, scope=SCOPE_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        """Show a game's rating board (or the Reef & Ruins solo board), with your own place."""
        chosen = scope.value if scope else ("server" if interaction.guild_id else "all")
        if chosen == "server" and interaction.guild_id is None:
            await reply(
                interaction, "Outside a server there is only the board across all servers (`scope: all`)."
            )
            return
        try:
            text, view = await board_page(interaction, game.value, chosen, 0)
        except Exception as error:
            await answer_error(interaction, error)
            return
        await reply(interaction, text, view=view)


async def setup(bot: commands.Bot) -> None:
    """Load the leaderboard cog and its page buttons."""
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(Leaderboard(bot))
