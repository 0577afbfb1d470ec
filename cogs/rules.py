"""/rules: a paged summary of each game's rules and this project's interpretations.

The text lives in ``data/rules/<game>.md``; a page starts at each ``## `` heading.
Each heading, paragraph and list item is a message of the game's catalog, so a
page is shown in the reader's language (`i18n.catalog.translate_markdown`).
"""

from __future__ import annotations

from functools import cache

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

import engine
import i18n
from cogs.common import NO_PINGS, control, dynamic_view, offer_enabled_games, reply
from cogs.language import for_user
from engine.base import DATA_DIR
from i18n.catalog import translate_markdown

RULES_DIR = DATA_DIR / "rules"


@cache
def pages(game_key: str, lang: str = i18n.SOURCE) -> tuple[tuple[str, str], ...]:
    """(title, body) per page of a game's rules summary, in ``lang``."""
    text = (RULES_DIR / f"{game_key}.md").read_text(encoding="utf-8")
    if lang != i18n.SOURCE:
        t = i18n.words(lang)
        text = translate_markdown(text, t)
    found = []
    for chunk in text.split("\n## ")[1:]:
        title, _, body = chunk.partition("\n")
        found.append((title.strip(), body.strip()))
    return tuple(found)


def rules_page(
    game_key: str, page: int, *, t: i18n.Words | None = None
) -> tuple[discord.Embed, discord.ui.View]:
    """One page as an embed, with Previous / Next buttons (in ``t``'s language; English by default)."""
    t = t or i18n.words(i18n.SOURCE)
    all_pages = pages(game_key, t.lang)
    page = max(0, min(page, len(all_pages) - 1))
    title, body = all_pages[page]
    embed = discord.Embed(
        title=t("{game} — {page}", game=t(engine.get(game_key).title), page=title)[:256],
        description=body[:4000],
        colour=discord.Colour.blue(),
    )
    embed.set_footer(text=t("Page {page} of {pages}", page=page + 1, pages=len(all_pages)))
    view = dynamic_view()
    view.add_item(RulesButton(game_key, page - 1, t("◀ Previous"), disabled=page == 0))
    view.add_item(RulesButton(game_key, page + 1, t("Next ▶"), disabled=page == len(all_pages) - 1))
    return embed, view


class RulesButton(
    discord.ui.DynamicItem[discord.ui.Button], template=control(r"rules:(?P<game>[a-z]+):(?P<page>-?\d+)")
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
        t = await for_user(interaction)
        if self.game_key not in engine.GAME_PACKAGES:
            await reply(interaction, t("There are no rules for that game here."))
            return
        embed, view = rules_page(self.game_key, self.page, t=t)
        await interaction.response.edit_message(embed=embed, view=view)


GAME_CHOICES = [
    app_commands.Choice(name=locale_str(game.title), value=game.key)
    for game in engine.games()
    if game.key in ("haenyeo", "jeju", "reef")
]


async def show_rules(interaction: discord.Interaction, game_key: str) -> None:
    """Send the first rules page of a game, ephemerally, in the user's language."""
    t = await for_user(interaction)
    if not (RULES_DIR / f"{game_key}.md").is_file():
        await reply(interaction, t("There is no rules summary for this game yet."))
        return
    embed, view = rules_page(game_key, 0, t=t)
    await interaction.response.send_message(embed=embed, view=view, ephemeral=True, allowed_mentions=NO_PINGS)


class Rules(commands.Cog):
    """Rules summaries."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        offer_enabled_games(bot, self.rules)

    @app_commands.command(
        name=locale_str("rules"),
        description=locale_str("Show a paged summary of a game's rules and how this bot reads them."),
    )
    @app_commands.rename(game=locale_str("game"))
    @app_commands.describe(game=locale_str("Which game's rules to show"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        """Show a paged summary of a game's rules and how this bot reads them."""
        await show_rules(interaction, game.value)


async def setup(bot: commands.Bot) -> None:
    """Load the rules cog."""
    bot.add_dynamic_items(RulesButton)
    await bot.add_cog(Rules(bot))
