"""Small helpers every cog uses: answering refusals, links, and mentions."""

from __future__ import annotations

import copy
import logging
import uuid

import discord

from hosting.errors import TableError
from hosting.service import TableService
from hosting.store import TableRecord

log = logging.getLogger(__name__)

#: Mentions never ping anybody unless a message names them explicitly.
NO_PINGS = discord.AllowedMentions.none()


def tables(interaction: discord.Interaction) -> TableService:
    """The table service of the bot that received the interaction."""
    return interaction.client.tables  # type: ignore[attr-defined]


async def reply(interaction: discord.Interaction, text: str, **kwargs) -> None:
    """An ephemeral answer, whether or not the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS, **kwargs)


async def answer_error(
    interaction: discord.Interaction, error: Exception, table_id: int | None = None
) -> None:
    """Turn any error from a handler into a short ephemeral answer; log what was unexpected."""
    if isinstance(error, TableError):
        await reply(interaction, str(error))
        return
    incident = uuid.uuid4().hex[:8]
    log.error(
        "unexpected error (incident %s, table %s)",
        incident,
        table_id,
        exc_info=error,
        extra={"table_id": table_id, "incident": incident},
    )
    await reply(
        interaction, f"Sorry, something went wrong on our side (incident `{incident}`). Nothing was changed."
    )


def table_channel_id(table: TableRecord) -> int:
    """The id of the channel the table plays in: its thread, or its channel where it has none."""
    return table.thread_id or table.channel_id


def table_channel(bot: discord.Client, table: TableRecord) -> discord.abc.Messageable | None:
    """The table's thread (or channel) as the bot sees it; None when it is gone."""
    return bot.get_channel(table_channel_id(table))  # type: ignore[return-value]


def table_link(table: TableRecord) -> str:
    """A jump link to the table's thread (or its channel)."""
    guild = table.guild_id if table.guild_id is not None else "@me"
    return f"https://discord.com/channels/{guild}/{table_channel_id(table)}"


def message_link(table: TableRecord, message_id: int) -> str:
    """A jump link to one of the table's messages."""
    return f"{table_link(table)}/{message_id}"


def offer_enabled_games(bot: discord.Client, command: discord.app_commands.Command) -> None:
    """Limit a command's ``game`` choices to the games the configuration enables (``GAMES``)."""
    enabled = getattr(getattr(bot, "config", None), "games", None)
    if enabled is None:
        return
    # The cog's own copy of the command; discord.py has no public setter for a parameter's choices.
    param = copy.copy(command._params["game"])
    param.choices = [choice for choice in param.choices if choice.value in enabled]
    command._params["game"] = param


def can_manage(interaction: discord.Interaction) -> bool:
    """True when the member may manage the server (cancel or take over any table)."""
    return bool(interaction.permissions and interaction.permissions.manage_guild)
