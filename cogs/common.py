"""Small helpers every cog uses: answering refusals, links, mentions, and finding a table's channel."""

from __future__ import annotations

import copy
import logging
import re
import uuid
from collections.abc import Callable

import discord

import i18n
from cogs.host import host
from cogs.language import for_user
from engine.base import IllegalAction
from hosting.errors import TableError
from hosting.records import FinishedGame, TableRecord
from hosting.service import TableService

log = logging.getLogger(__name__)

#: Discord's limit on a message's content.
MESSAGE_LIMIT = 2000


#: The custom_id template of every control the bot answers (`control`): a click that matches none is
#: not one of ours (`Play.on_interaction`). discord.py keeps its own list private.
CONTROL_TEMPLATES: list[re.Pattern[str]] = []


def control(template: str) -> str:
    """Declare a control's custom_id template (a `discord.ui.DynamicItem`'s ``template=``), so the bot
    knows every click it answers; returns it unchanged."""
    CONTROL_TEMPLATES.append(re.compile(template))
    return template


def one_of_ours(custom_id: str) -> bool:
    """True when a custom_id matches the template of one of the bot's controls."""
    return any(pattern.fullmatch(custom_id) for pattern in CONTROL_TEMPLATES)


def dynamic_view() -> discord.ui.View:
    """An empty view for the bot's controls, every one a `discord.ui.DynamicItem`, stopped before it
    is sent.

    The bot registers its dynamic items once (``add_dynamic_items``) and they answer by
    their custom_id on any message, so discord.py need keep nothing for a message. It
    keeps a view it is sent unless the view is finished; and an ephemeral message's view
    (every panel) it keeps for 15 minutes, the life of its interaction token, with a
    timeout task of its own: at 1,000 tables, thousands of panels' views and tasks held
    for nothing.
    """
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


class Mentions(discord.AllowedMentions):
    """`discord.AllowedMentions` whose user and role ids are sent as strings.

    Discord's API documents snowflakes in ``allowed_mentions.users`` as strings;
    discord.py sends numbers. Merging with the bot's default keeps this class, so
    the bot's default (``Mentions.none()``) and every message agree.
    """

    def to_dict(self) -> dict:  # type: ignore[override]
        """The payload, ids as strings."""
        data = dict(super().to_dict())
        for key in ("users", "roles"):
            if key in data:
                data[key] = [str(snowflake) for snowflake in data[key]]
        return data  # type: ignore[return-value]

    def merge(self, other: discord.AllowedMentions) -> Mentions:
        """Merge as discord.py does, keeping this class."""
        merged = super().merge(other)
        return Mentions(
            everyone=merged.everyone, users=merged.users, roles=merged.roles, replied_user=merged.replied_user
        )


#: Mentions never ping anybody unless a message names them explicitly.
NO_PINGS = Mentions.none()


def pinging(user_ids) -> Mentions:
    """Allowed mentions that ping exactly these users: never everyone, a role, or anybody else."""
    return Mentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(id=user_id) for user_id in sorted(set(user_ids))],
    )


def plain(name: str) -> str:
    """Text a user chose (a name, a nickname) made safe to print: no markdown and no mentions."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def fit_lines(
    header: str,
    lines: list[str],
    *,
    more: Callable[[int], str],
    unlisted: int = 0,
    limit: int = MESSAGE_LIMIT,
) -> str:
    """``header`` and as many whole ``lines`` as fit in ``limit`` characters, then ``more(hidden)``.

    ``more(count)`` says the rest in the reader's language, a whole sentence (e.g.
    ``lambda n: t.plural("… and {count} more game.", "… and {count} more games.", n)``);
    ``unlisted`` more were not even passed in (a list read a page at a time) and count as hidden.
    """
    shown: list[str] = []
    for index, line in enumerate(lines):
        left = len(lines) - index - 1 + unlisted
        note = f"\n{more(left)}" if left else ""
        if len("\n".join([header, *shown, line])) + len(note) > limit:
            break
        shown.append(line)
    hidden = len(lines) - len(shown) + unlisted
    return "\n".join([header, *shown, *([more(hidden)] if hidden else [])])[:limit]


def tables(interaction: discord.Interaction) -> TableService:
    """The table service of the bot that received the interaction."""
    return host(interaction.client).tables


async def reply(interaction: discord.Interaction, text: str, **kwargs) -> None:
    """An ephemeral answer, whether or not the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS, **kwargs)


async def answer_error(
    interaction: discord.Interaction, error: Exception, table_id: int | None = None
) -> None:
    """Turn any error from a handler into a short ephemeral answer in the user's language; log the rest.

    A refusal (`TableError`, `IllegalAction`) is said as it is (its ``say`` message).
    """
    try:
        t = await for_user(interaction)
    except Exception:  # an answer in English beats no answer at all
        t = i18n.words(i18n.SOURCE)
    if isinstance(error, TableError | IllegalAction):
        await reply(interaction, t.msg(error.say))
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
        interaction,
        t(
            "Sorry, something went wrong on our side (incident `{incident}`). Nothing was changed.",
            incident=incident,
        ),
    )


def table_channel_id(table: TableRecord | FinishedGame) -> int:
    """The id of the channel the table plays in: its thread, or its channel where it has none."""
    return table.thread_id or table.channel_id


def bot_permissions(channel: discord.abc.Messageable) -> discord.Permissions | None:
    """What the bot may do in a channel or thread, when discord.py can tell (None for a partial one)."""
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if me is None or not hasattr(channel, "permissions_for"):
        return None
    try:
        return channel.permissions_for(me)  # type: ignore[union-attr]
    except (AttributeError, discord.ClientException):
        return None


#: Discord's JSON error codes the bot acts on (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_MEMBER = 10007
MISSING_ACCESS = 50001  # the bot cannot see the channel, or is no longer in the server
MISSING_PERMISSIONS = 50013
CANNOT_DM = 50007
THREAD_LOCKED = 160005
THREAD_CAP = 160006
THREAD_ARCHIVED = 50083  # "Operation cannot be performed on an archived thread" (an edit there)


async def reopen_thread(bot: discord.Client, thread_id: int | None) -> bool:
    """Unarchive a table's thread (a moderator archived it); False when that is not possible."""
    if thread_id is None:
        return False
    try:
        thread = bot.get_channel(thread_id) or await bot.fetch_channel(thread_id)
        if not isinstance(thread, discord.Thread) or thread.locked:
            return False
        await thread.edit(archived=False)
    except discord.HTTPException:
        return False
    return True


def serves(bot: discord.Client, guild_id: int | None) -> bool:
    """True when this process runs the shard of that server (always, unsharded; DMs on shard 0)."""
    shard_ids = getattr(bot, "shard_ids", None)
    count = getattr(bot, "shard_count", None)
    if not shard_ids or not count:
        return True
    shard = 0 if guild_id is None else (guild_id >> 22) % count
    return shard in shard_ids


async def still_member(bot: discord.Client, guild_id: int | None, user_id: int) -> bool:
    """Whether a user is still in the server (asked of Discord; True when it cannot tell)."""
    if guild_id is None:
        return True
    guild = bot.get_guild(guild_id)
    if guild is None:
        return True
    # Always asked over HTTP: without the members intent the member cache hears of nobody
    # leaving, so a cached member may be long gone.
    try:
        await guild.fetch_member(user_id)
    except discord.NotFound:
        return False
    except discord.HTTPException:
        return True
    return True


#: Where jump links point instead of Discord: offline.py sets its local page (None: Discord).
LINK_BASE: str | None = None


def table_link(table: TableRecord | FinishedGame) -> str:
    """A jump link to the table's thread (or its channel)."""
    if LINK_BASE is not None:
        return LINK_BASE
    guild = table.guild_id if table.guild_id is not None else "@me"
    return f"https://discord.com/channels/{guild}/{table_channel_id(table)}"


def message_link(table: TableRecord, message_id: int) -> str:
    """A jump link to one of the table's messages."""
    if LINK_BASE is not None:
        return LINK_BASE  # the local page shows its one channel, not a message by link
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
