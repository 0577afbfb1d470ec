"""/rules: a paged summary of each game's rules and this project's interpretations.

The text lives in ``data/rules/<game>.md``; a page starts at each ``## `` heading.
"""

from __future__ import annotations

from functools import cache

import discord
from discord import app_commands
from discord.ext import commands

import engine
from cogs.common import NO_PINGS, offer_enabled_games, reply
from engine.base import DATA_DIR

RULES_DIR = DATA_DIR / "rules"


@cache
def pages(game_key: str) -> tuple[tuple[str, str], ...]:
    """(title, body) per page of a game's rules summary."""
    text = (RULES_DIR / f"{game_key}.md").read_text(encoding="utf-8")
    found = []
    for chunk in text.split("\n## ")[1:]:
        title, _, body = chunk.partition("\n")
        found.append((title.strip(), body.strip()))
    return tuple(found)


def rules_page(game_key: str, page: int) -> tuple[discord.Embed, discord.ui.View]:
    """One page as an embed, with Previous / Next buttons."""
    all_pages = pages(game_key)
    page = max(0, min(page, len(all_pages) - 1))
    title, body = all_pages[page]
    embed = discord.Embed(
        title=f"{engine.get(game_key).title} — {title}", description=body[:4000], colour=discord.Colour.blue()
    )
    embed.set_footer(text=f"Page {page + 1} of {len(all_pages)}")
    view = discord.ui.View(timeout=None)
    view.add_item(RulesButton(game_key, page - 1, "◀ Previous", disabled=page == 0))
    view.add_item(RulesButton(game_key, page + 1, "Next ▶", disabled=page == len(all_pages) - 1))
    return embed, view


class RulesButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"rules:(?P<game>[a-z]+):(?P<page>-?\d+)"
):
    """Turn a rules page: ``rules:<game>:<page>``."""

    def __init__(self, game_key: str, page: int, label: str = "Page", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(label=label, custom_id=f"rules:{game_key}:{page}", disabled=disabled)
        )
        self.game_key, self.page = game_key, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match
    ) -> RulesButton:
        """Rebuild the button from its custom_id."""
        return cls(match["game"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page this button points to."""
        if self.game_key not in engine.GAME_PACKAGES:
            await reply(interaction, "There are no rules for that game here.")
            return
        embed, view = rules_page(self.game_key, self.page)
        await interaction.response.edit_message(embed=embed, view=view)


GAME_CHOICES = [
    app_commands.Choice(name=game.title, value=game.key)
    for game in engine.games()
    if game.key in ("haenyeo", "jeju", "reef")
]


class Rules(commands.Cog):
    """Rules summaries."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        offer_enabled_games(bot, self.rules)

    async def show(self, interaction: discord.Interaction, game_key: str) -> None:
        """Send the first rules page of a game, ephemerally."""
        if not (RULES_DIR / f"{game_key}.md").is_file():
            await reply(interaction, "There is no rules summary for this game yet.")
            return
        embed, view = rules_page(game_key, 0)
        await interaction.response.send_message(
            embed=embed, view=view, ephemeral=True, allowed_mentions=NO_PINGS
        )

    @app_commands.command(name="rules")
    @app_commands.describe(game="Which game's rules to show")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """Show a paged summary of a game's rules and how this bot reads them."""
        await self.show(interaction, game.value)


async def setup(bot: commands.Bot) -> None:
    """Load the rules cog."""
    bot.add_dynamic_items(RulesButton)
    await bot.add_cog(Rules(bot))
