"""/tables: this server's running tables, for anyone who wants to watch (issue #38).

Each line says the game, who plays, whose move it is, the deadline (a Discord
timestamp, shown in the reader's own time zone) and a link to the table's board.
Pages turn with buttons (``tb:<list>:<offset>``, `DynamicItem`s that work after a
restart). An organiser (Manage Server) also sees which tables are stuck and why —
blocked (Discord refuses the table's channel to the bot), owing a post it could not
make, or past its deadline while not paused — and may list only those. Only this
server's tables; names are printed as text, never as pings.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

import engine
import i18n
from cogs.common import (
    MESSAGE_LIMIT,
    NO_PINGS,
    answer_error,
    can_manage,
    control,
    dynamic_view,
    plain,
    reply,
    table_link,
    tables,
)
from cogs.language import for_user
from hosting.records import STUCK_AFTER, TableRecord

log = logging.getLogger(__name__)

#: Tables a page reads (it shows as many of them as one message holds).
PAGE_SIZE = 10
#: The two lists: every running table, or (organisers only) the stuck ones.
LISTS = ("all", "stuck")
ONLY_ORGANISERS = i18n.N_("Only members who can manage the server see which tables are stuck.")


def _players(table: TableRecord) -> str:
    """The seats' names as plain text (a bot seat marked), in seat order."""
    return ", ".join(f"{plain(s.name)} 🤖" if s.is_bot else plain(s.name) for s in table.seats)


def _whose_move(interaction: discord.Interaction, table: TableRecord, t: i18n.Words) -> str:
    """Who the table waits for, by name."""
    try:
        awaited = engine.get(table.game).to_act(tables(interaction).state_of(table))
    except Exception:  # a table whose state cannot be read is listed all the same
        log.warning("table %s: its state could not be read for /tables", table.id, exc_info=True)
        return t("waiting")
    names = [plain(s.name) for s in table.seats if s.seat in awaited]
    return t("waiting for {players}", players=t.join(names)) if names else t("waiting")


def _due(table: TableRecord, t: i18n.Words) -> str:
    """The deadline as a Discord timestamp (each reader sees their own time), or why there is none."""
    if table.paused_at is not None:
        return t("paused")
    if table.deadline is None:
        return t("no deadline")
    return t("due {due}", due=f"<t:{int(table.deadline)}:R>")


def stuck_reason(table: TableRecord, now: float, t: i18n.Words) -> str | None:
    """Why a running table is stuck, for an organiser; None when it is not (as the store counts it)."""
    if table.blocked:
        return t("blocked: Discord refuses its channel to the bot (`/game resume` says why)")
    if table.owed_posts:
        return t.plural(
            "owes a post it could not make ({count} try so far)",
            "owes a post it could not make ({count} tries so far)",
            table.owed_posts,
        )
    if table.paused_at is None and table.deadline is not None and table.deadline < now - STUCK_AFTER:
        return t("past its deadline")
    return None


def _line(interaction: discord.Interaction, table: TableRecord, t: i18n.Words, *, organiser: bool) -> str:
    line = t(
        "• **{game}** #{table} — {players} — {turn}, {due} — {link}",
        game=t(engine.get(table.game).title),
        table=table.id,
        players=_players(table),
        turn=_whose_move(interaction, table, t),
        due=_due(table, t),
        link=table_link(table),
    )
    if organiser and (why := stuck_reason(table, tables(interaction).now(), t)):
        line += "\n  ⚠️ " + why
    return line


async def tables_page(
    interaction: discord.Interaction, which: str, offset: int
) -> tuple[str, discord.ui.View | None]:
    """This server's running tables (``which``: all, or the stuck ones) from the ``offset``-th newest,
    as many as one message holds, in the reader's words, with the buttons to the pages around it."""
    t = await for_user(interaction)
    guild_id = interaction.guild_id
    if guild_id is None:
        return t("`/tables` lists a server's tables: ask in a server."), None
    organiser = can_manage(interaction)
    if which == "stuck" and not organiser:
        return t(ONLY_ORGANISERS), None
    service = tables(interaction)
    offset = max(offset, 0)
    total, stuck, found = await service.store.running_tables(
        guild_id, now=service.now(), stuck_only=which == "stuck", offset=offset, limit=PAGE_SIZE
    )
    listed = stuck if which == "stuck" else total
    if not found and offset and listed:  # the list shrank since the button was drawn: its last page
        return await tables_page(interaction, which, max(listed - PAGE_SIZE, 0))
    if which == "stuck":
        header = t("**Stuck tables in this server** ({count})", count=stuck)
    else:
        header = t("**Running tables in this server** ({count})", count=total)
        if organiser and stuck:
            header += " · " + t("⚠️ {count} stuck", count=stuck)
    lines = [_line(interaction, table, t, organiser=organiser) for table in found]
    if not lines:
        none = (
            t("No table is stuck.")
            if which == "stuck"
            else t("No table is running here. Start one with `/play`.")
        )
        text = f"{header}\n{none}"
        shown = 0
    else:
        # As many whole lines as one message holds (long names, an organiser's notes): the next
        # page starts at the first table left out, so none is skipped.
        footer = "-# " + t(
            "Tables {first}–{last} of {total}", first=offset + 1, last=offset + len(lines), total=listed
        )
        shown = len(lines)
        while shown > 1 and len("\n".join([header, *lines[:shown], footer])) > MESSAGE_LIMIT:
            shown -= 1
            footer = "-# " + t(
                "Tables {first}–{last} of {total}", first=offset + 1, last=offset + shown, total=listed
            )
        text = "\n".join([header, *lines[:shown], footer])[:MESSAGE_LIMIT]
    view = dynamic_view()
    if shown:  # (an empty list has no pages to turn, and two buttons may not share a custom_id)
        back = max(offset - PAGE_SIZE, 0)
        view.add_item(TablesButton(which, back, t("◀ Previous"), disabled=offset == 0))
        view.add_item(TablesButton(which, offset + shown, t("Next ▶"), disabled=offset + shown >= listed))
    if organiser and which == "all":
        label = t("Only stuck tables ({count})", count=stuck)
        view.add_item(TablesButton("stuck", 0, label, disabled=not stuck))
    elif organiser:
        view.add_item(TablesButton("all", 0, t("All running tables")))
    return text, view


class TablesButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=control(r"tb:(?P<which>all|stuck):(?P<offset>\d+)"),
):
    """Turn a `/tables` page, or switch list: ``tb:<all|stuck>:<offset>`` (the first table shown)."""

    def __init__(self, which: str, offset: int, label: str = "Page", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=f"tb:{which}:{offset}", disabled=disabled))
        self.which, self.offset = which, offset

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match
    ) -> TablesButton:
        """Rebuild the button from its custom_id."""
        return cls(match["which"], int(match["offset"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the page this button points to (the stuck list: organisers only, checked again here)."""
        try:
            text, view = await tables_page(interaction, self.which, self.offset)
            if view is None:  # a refusal: said to the clicker, the page stays as it was
                await reply(interaction, text)
                return
            await interaction.response.edit_message(content=text, view=view, allowed_mentions=NO_PINGS)
        except Exception as error:
            await answer_error(interaction, error)


class LiveTables(commands.Cog):
    """This server's running tables, to watch (and, for organisers, to unstick)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name=locale_str("tables"),
        description=locale_str("List this server's running tables: players, whose move, deadline, link."),
    )
    @app_commands.guild_only()
    async def list_tables(self, interaction: discord.Interaction) -> None:
        """List this server's running tables: players, whose move, deadline, link (organisers: stuck ones)."""
        try:
            text, view = await tables_page(interaction, "all", 0)
        except Exception as error:
            await answer_error(interaction, error)
            return
        await reply(interaction, text, **({"view": view} if view else {}))


async def setup(bot: commands.Bot) -> None:
    """Load the live tables cog and its page buttons."""
    bot.add_dynamic_items(TablesButton)
    await bot.add_cog(LiveTables(bot))
