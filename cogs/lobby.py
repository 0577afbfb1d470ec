"""The lobby: /play opens a table in a thread; Join, Leave, Add bot, Start and Cancel.

Every button is a `DynamicItem` whose custom_id carries the table id, so the
lobby keeps working after a restart.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace

import discord
from discord import app_commands
from discord.ext import commands

import engine
import i18n
from cogs.board import REMATCH_TEMPLATE, rematch_button
from cogs.common import (
    NO_PINGS,
    THREAD_ARCHIVED,
    THREAD_CAP,
    answer_error,
    can_manage,
    control,
    dynamic_view,
    message_link,
    offer_enabled_games,
    pinging,
    plain,
    reopen_thread,
    reply,
    table_link,
    tables,
)
from cogs.host import host
from cogs.language import for_guild, for_public, for_user
from hosting import timing
from hosting.errors import TableError
from hosting.records import ACTIVE, CANCELLED, LOBBY, TableRecord
from hosting.service import seat_name, status_sentence
from i18n import N_, say

log = logging.getLogger(__name__)

LOBBY_BUTTONS = {
    # verb: (label, style, row)
    "join": (N_("Join"), discord.ButtonStyle.success, 0),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary, 0),
    "start": (N_("Start"), discord.ButtonStyle.primary, 0),
    "cancel": (N_("Cancel"), discord.ButtonStyle.danger, 0),
    "bot": (N_("Add bot"), discord.ButtonStyle.secondary, 1),
    "unbot": (N_("Remove bot"), discord.ButtonStyle.secondary, 1),
    "hints": (N_("Hints: off"), discord.ButtonStyle.secondary, 1),
}
HINTS_ON = N_("Hints: on")
HINTS_OFF = N_("Hints: off")
#: What the host's Hints button does, in its description on the lobby card.
HINTS_ABOUT = N_(
    "Hints: players may press **Suggest** on their panel to see the expert's move. "
    "A game with hints on is not rated."
)
#: The "Add a bot" menu: level -> (label, description).
BOT_LEVEL_CHOICES = {
    "easy": (N_("Easy bot"), N_("Knows the rules, plays short-sighted: gentle for newcomers")),
    "normal": (N_("Normal bot"), N_("Looks one move ahead (what Add bot seats)")),
    "expert": (N_("Expert bot"), N_("Searches ahead: a real opponent")),
    "master": (N_("Master bot"), N_("The expert thinking longer: a few seconds a move")),
}


def lobby_embed(
    table: TableRecord, *, t: i18n.Words | None = None, kept: tuple[int, float] | None = None
) -> discord.Embed:
    """The lobby message's card: the game, who is seated, and what happens next (in ``t``'s language).

    ``kept``: (finished table, until when) while a rematch lobby keeps its seats for that
    table's players (`TableService.seats_kept`); the card says so.
    """
    t = t or i18n.words(i18n.SOURCE)
    game = engine.get(table.game)
    lines = []
    for s in table.seats:
        who = "🤖 " + plain(seat_name(s.name, t.lang)) if s.is_bot else f"<@{s.user_id}>"
        if s.user_id == table.host_id:
            lines.append(t("{number}. {player} (host)", number=s.seat + 1, player=who))
        else:
            lines.append(f"{s.seat + 1}. {who}")
    embed = discord.Embed(
        title=t("{game} — table #{table}", game=t(game.title), table=table.id),
        description="\n".join(lines) or t("Nobody is seated."),
        colour=discord.Colour.teal(),
    )
    chosen = {k: v for k, v in table.options.items() if k != "hints"}  # hints have their own field
    if chosen:
        words = [
            f"{game.option_label(k, lang=t.lang)}: {game.option_label(k, v, lang=t.lang)}"
            for k, v in chosen.items()
        ]
        embed.add_field(name=t("Options"), value=", ".join(words))
    if hints_on(table):
        embed.add_field(name=t("Hints"), value=t(HINTS_ABOUT), inline=False)
    embed.add_field(name=t("Pace"), value=timing.pace_label(table.pace, t.lang))
    if kept is not None and table.status == LOBBY:
        embed.add_field(
            name=t("Rematch"),
            value=t(
                "Seats are kept for the players of table #{table} until {when}; then anyone may join.",
                table=kept[0],
                when=f"<t:{int(kept[1])}:R>",
            ),
            inline=False,
        )
    if table.status == LOBBY:
        seats = (
            f"{game.min_seats}–{game.max_seats}" if game.min_seats != game.max_seats else str(game.min_seats)
        )
        embed.set_footer(
            text=t(
                "{seated} seated · {seats} players · the host starts the game",
                seated=len(table.seats),
                seats=seats,
            )
        )
    else:
        embed.set_footer(text=t.msg(status_sentence(table)))
    return embed


def lobby_view(table: TableRecord, *, t: i18n.Words | None = None) -> discord.ui.View:
    """The lobby's controls (none once the lobby is closed): buttons, a bot-level menu, the game's options."""
    t = t or i18n.words(i18n.SOURCE)
    view = dynamic_view()
    if table.status != LOBBY:
        return view
    for verb in LOBBY_BUTTONS:
        label = (t(HINTS_ON) if hints_on(table) else t(HINTS_OFF)) if verb == "hints" else None
        view.add_item(LobbyButton(verb, table.id, label, t=t))
    view.add_item(LobbySelect("level", table.id, t=t))
    for row, name in enumerate(engine.get(table.game).options, start=3):
        if row < 5:  # a message holds five rows
            view.add_item(LobbySelect(name, table.id, table, t=t))
    return view


def hints_on(table: TableRecord) -> bool:
    """Whether the host turned hints on (Suggest on every panel; the game is not rated)."""
    return table.options.get("hints", "off") != "off"


async def refresh_lobby(interaction: discord.Interaction, table: TableRecord) -> None:
    """Show the lobby as it is now on its message; then start the game, or tidy a cancelled one."""
    t = await for_public(interaction.client, table)  # the lobby message is public: the server's language
    embed = lobby_embed(table, t=t, kept=await tables(interaction).seats_kept(table))
    try:
        await interaction.edit_original_response(embed=embed, view=lobby_view(table, t=t))
    except discord.HTTPException as error:
        if error.code != THREAD_ARCHIVED or not await reopen_thread(interaction.client, table.thread_id):
            raise
        # A moderator archived the thread: Discord refuses edits there until it is reopened.
        await interaction.edit_original_response(embed=embed, view=lobby_view(table, t=t))
    if table.status == ACTIVE:
        interaction.client.dispatch("table_started", table)
    elif table.status == CANCELLED:
        await host(interaction.client).runner.archive(table)


class LobbySelect(
    discord.ui.DynamicItem[discord.ui.Select], template=control(r"lobbyset:(?P<what>[a-z_]+):(?P<table>\d+)")
):
    """A lobby menu: ``lobbyset:level:<table>`` seats a bot; ``lobbyset:<option>:<table>`` sets an option."""

    def __init__(
        self, what: str, table_id: int, table: TableRecord | None = None, *, t: i18n.Words | None = None
    ) -> None:
        t = t or i18n.words(i18n.SOURCE)
        if what == "level":
            placeholder = t("Add a bot of a level…")
            options = [
                discord.SelectOption(label=t(label)[:100], value=level, description=t(about)[:100])
                for level, (label, about) in BOT_LEVEL_CHOICES.items()
            ]
            row = 2
        else:
            game = engine.get(table.game) if table else None
            values = game.options.get(what, ()) if game else ()
            option = game.option_label(what, lang=t.lang).lower() if game else what
            placeholder = t("Host: choose the {option}…", option=option)
            options = [
                discord.SelectOption(
                    label=game.option_label(what, v, lang=t.lang)[:100] if game else v, value=v
                )
                for v in values[:25]
            ] or [discord.SelectOption(label="?", value="?")]
            row = 3 + (list(game.options).index(what) if game and what in game.options else 0)
        select = discord.ui.Select(
            custom_id=f"lobbyset:{what}:{table_id}", placeholder=placeholder[:150], options=options, row=row
        )
        super().__init__(select)
        self.what = what
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match
    ) -> LobbySelect:
        """Rebuild the menu from its custom_id (after a restart too)."""
        return cls(match["what"], int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Seat a bot of the chosen level, or set the chosen option; then refresh the lobby."""
        service = tables(interaction)
        values = (interaction.data or {}).get("values") or []
        try:
            await interaction.response.defer()  # acknowledge first: the write may wait
            if len(values) != 1 or not isinstance(values[0], str):
                raise TableError(say("Choose one option from the menu."))
            if self.what == "level":
                table = await service.add_bot(self.table_id, interaction.user.id, values[0])
            else:
                table = await service.set_option(self.table_id, interaction.user.id, self.what, values[0])
            await refresh_lobby(interaction, table)
        except Exception as error:
            await answer_error(interaction, error, self.table_id)


class LobbyButton(
    discord.ui.DynamicItem[discord.ui.Button], template=control(r"lobby:(?P<verb>[a-z]+):(?P<table>\d+)")
):
    """One lobby button; its custom_id is ``lobby:<verb>:<table id>``."""

    def __init__(
        self, verb: str, table_id: int, label: str | None = None, *, t: i18n.Words | None = None
    ) -> None:
        t = t or i18n.words(i18n.SOURCE)
        default, style, row = LOBBY_BUTTONS.get(verb, ("?", discord.ButtonStyle.secondary, 0))
        button = discord.ui.Button(
            label=label or t(default), style=style, custom_id=f"lobby:{verb}:{table_id}", row=row
        )
        super().__init__(button)
        self.verb = verb
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match
    ) -> LobbyButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        return cls(match["verb"], int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Join, leave, add a bot, turn hints on or off (host), start or cancel; then refresh the lobby."""
        service = tables(interaction)
        user = interaction.user
        try:
            # Acknowledge first: the database write may wait for another writer.
            await interaction.response.defer()
            if self.verb == "join":
                table = await service.join(self.table_id, user.id, user.display_name)
            elif self.verb == "leave":
                table = await service.leave(self.table_id, user.id)
            elif self.verb == "bot":
                table = await service.add_bot(self.table_id, user.id)
            elif self.verb == "unbot":
                table = await service.remove_bot(self.table_id, user.id)
            elif self.verb == "hints":
                table = await service.get(self.table_id)
                value = "off" if hints_on(table) else "on"
                table = await service.set_option(self.table_id, user.id, "hints", value)
            elif self.verb == "start":
                table = await service.start(self.table_id, user.id)
            elif self.verb == "cancel":
                table = await service.cancel(self.table_id, user.id, can_manage=can_manage(interaction))
            else:
                t = await for_user(interaction)
                await reply(interaction, t("That button is not one of ours."))
                return
        except Exception as error:
            await answer_error(interaction, error, self.table_id)
            return
        await refresh_lobby(interaction, table)


class PlayAgainButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=control(r"play:again:(?P<game>[a-z]+):(?P<pace>\d+):(?P<bots>[a-z]*)"),
):
    """ "Open another anyway" after /play warned of an open lobby: ``play:again:<game>:<pace>:<bots>``."""

    def __init__(self, game_key: str, pace: int, bots: str, *, t: i18n.Words | None = None) -> None:
        t = t or i18n.words(i18n.SOURCE)
        button = discord.ui.Button(
            label=t("Open another"),
            style=discord.ButtonStyle.primary,
            custom_id=f"play:again:{game_key}:{pace}:{bots}",
        )
        super().__init__(button)
        self.game_key, self.pace, self.bots = game_key, pace, bots

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match
    ) -> PlayAgainButton:
        """Rebuild the button from its custom_id."""
        return cls(match["game"], int(match["pace"]), match["bots"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the table /play was asked for."""
        await open_table(interaction, self.game_key, self.pace, self.bots, again=True)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button], template=REMATCH_TEMPLATE):
    """The results message's **Rematch**: ``rematch:<finished table id>`` (built by `cogs.board`)."""

    def __init__(self, table_id: int, *, t: i18n.Words | None = None) -> None:
        super().__init__(rematch_button(table_id, t=t))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match
    ) -> RematchButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open a lobby like the finished table's, the clicker hosting, the others invited."""
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await rematch(interaction, self.table_id)
        except Exception as error:
            await answer_error(interaction, error, self.table_id)


# Choice names are looked up in the catalogs (`cogs.language.CatalogTranslator`): the titles are
# marked in the engines, the other words here.
GAME_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(game.title), value=game.key) for game in engine.games()
]
BOTS_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(label), value=level)
    for level, (label, _) in BOT_LEVEL_CHOICES.items()
]
PACE_CHOICES = [
    app_commands.Choice(name=app_commands.locale_str(timing.pace_label(seconds)), value=seconds)
    for seconds in timing.PACES.values()
]


async def open_table(
    interaction: discord.Interaction, game_key: str, pace: int, bots: str, *, again: bool = False
) -> None:
    """/play's work: check the channel, warn before a second lobby, open the lobby (``again``: warned)."""
    t = await for_user(interaction)  # the ephemeral answers: the user's language
    missing = missing_permissions(interaction, t=t)
    if missing:
        await reply(interaction, missing)
        return
    service = tables(interaction)
    try:
        # Before the public "thinking…": a member at their lobby cap is told privately.
        await service.check_room(interaction.user.id)
    except Exception as error:
        await answer_error(interaction, error)
        return
    if not again:
        lobbies = [
            mine
            for mine in await service.tables_of(interaction.user.id)
            if mine.status == LOBBY and mine.host_id == interaction.user.id
        ]
        if lobbies:
            view = dynamic_view()
            view.add_item(PlayAgainButton(game_key, pace, bots, t=t))
            await reply(
                interaction,
                t(
                    "You already have an open lobby: {link}. Open another one anyway?",
                    link=table_link(lobbies[0]),
                ),
                view=view,
            )
            return
    await interaction.response.defer(thinking=True)
    try:
        table = await service.create_table(
            game_key=game_key,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            host_name=interaction.user.display_name,
            pace=pace,
        )
        if bots:
            table = await service.add_bot(table.id, interaction.user.id, bots, fill=True)
    except Exception as error:
        await answer_error(interaction, error)
        return
    # The thread, the lobby and the announcement are public: the server's language.
    t = await for_guild(interaction.client, interaction.guild_id, interaction.guild_locale)
    title = t(engine.get(table.game).title)
    thread: discord.Thread | None = None
    try:
        thread = await _open_thread(interaction, f"{title} #{table.id}")
        where = thread or interaction.channel
        lobby = await where.send(  # type: ignore[union-attr]
            embed=lobby_embed(table, t=t), view=lobby_view(table, t=t), allowed_mentions=NO_PINGS
        )
        await service.attach(table.id, thread_id=thread.id if thread else None, lobby_message_id=lobby.id)
    except Exception as error:
        # Leave nothing behind that nobody can reach: no empty thread, no unreachable lobby.
        await _clean_up(interaction.client, table, thread)
        if isinstance(error, discord.HTTPException):
            refused = error.text or error.status
            error = TableError(
                say(
                    "Discord refused to open the table here ({refused}). Nothing was created.",
                    refused=refused,
                )
            )
        await answer_error(interaction, error)
        return
    await interaction.followup.send(
        t(
            "{host} opened a table of **{game}**: join at {link}",
            host=interaction.user.mention,
            game=title,
            link=message_link(replace(table, thread_id=thread and thread.id), lobby.id),
        ),
        allowed_mentions=NO_PINGS,
    )


async def rematch(interaction: discord.Interaction, old_id: int) -> None:
    """A rematch of a closed table: a new lobby beside it, in a new thread of the same channel.

    Same game, options and pace; its bots are seated, the clicker hosts, and
    everyone else who played is invited in the lobby message and joins with its
    Join button; its seats are kept for them for a while (`REMATCH_SEATS_KEPT`).
    A closed table has one rematch lobby at a time: a click while it is open (or
    two clicks at once) points to it. The players are pinged once per closed
    table: a later rematch of it names them without pinging.
    """
    service = tables(interaction)
    user = interaction.user
    asked = await service.rematch(old_id, user.id, user.display_name)
    table, people = asked.table, asked.invited
    if not asked.opened:
        t = await for_user(interaction)
        if table.lobby_message_id:
            where = table.thread_id or table.channel_id
            link = f"https://discord.com/channels/{table.guild_id}/{where}/{table.lobby_message_id}"
            await reply(interaction, t("A rematch is already open: join it at {link}", link=link))
        else:  # the other click is still opening it
            await reply(interaction, t("A rematch is already being opened: table #{table}.", table=table.id))
        return
    t = await for_public(interaction.client, table)  # the rematch lobby is public: the server's language
    title = t(engine.get(table.game).title)
    thread: discord.Thread | None = None
    try:
        channel = interaction.client.get_channel(table.channel_id) or await interaction.client.fetch_channel(
            table.channel_id
        )
        thread = await _rematch_thread(channel, f"{title} #{table.id}")
        invited = " ".join(f"<@{person}>" for person in people)
        if invited:
            text = t(
                "🔁 **Rematch!** {host} invites {invited}: press **Join** to play.",
                host=user.mention,
                invited=invited,
            )
        else:
            text = t("🔁 **Rematch!** {host} invites everyone: press **Join** to play.", host=user.mention)
        lobby = await (thread or channel).send(  # type: ignore[union-attr]
            text,
            embed=lobby_embed(table, t=t, kept=await service.seats_kept(table)),
            view=lobby_view(table, t=t),
            # Pinged once per finished table (`Rematch.ping`): a rematch opened again names them.
            allowed_mentions=pinging(people) if asked.ping else NO_PINGS,
        )
        await service.attach(table.id, thread_id=thread.id if thread else None, lobby_message_id=lobby.id)
    except Exception as error:
        await _clean_up(interaction.client, table, thread)
        if isinstance(error, discord.HTTPException):
            error = TableError(
                say("Discord refused to open the rematch ({refused}).", refused=error.text or error.status)
            )
        raise error from None
    link = message_link(replace(table, thread_id=thread and thread.id), lobby.id)
    t = await for_user(interaction)
    await reply(interaction, t("Your rematch lobby is open: {link}", link=link))


async def _rematch_thread(channel, name: str) -> discord.Thread | None:
    """A new public thread for a rematch in ``channel``; None to use the channel itself (as `/play`)."""
    if not isinstance(channel, discord.TextChannel):
        return None
    if not channel.permissions_for(channel.guild.me).create_public_threads:
        return None
    try:
        return await channel.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=10080
        )
    except discord.HTTPException as error:
        log.warning(
            "could not open a rematch thread in channel %s (%s); using the channel", channel.id, error
        )
        return None


async def _clean_up(bot: discord.Client, table: TableRecord, thread: discord.Thread | None) -> None:
    """Undo a /play that failed half-way: cancel the table and delete its new thread."""
    service = host(bot).tables
    with contextlib.suppress(TableError):
        await service.cancel(table.id, table.host_id, can_manage=True)
    if thread is not None:
        try:
            await thread.delete()
        except discord.HTTPException:
            log.warning("table %s: could not delete its unused thread %s", table.id, thread.id)


async def _open_thread(interaction: discord.Interaction, name: str) -> discord.Thread | None:
    """A new public thread in the channel; None to play in the channel itself.

    The channel is used where threads are not possible: inside a thread, in a
    channel where the bot may not create threads, or when the server has
    reached Discord's cap on active threads.
    """
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel) or not interaction.app_permissions.create_public_threads:
        return None
    try:
        return await channel.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=10080
        )
    except discord.HTTPException as error:
        if error.code != THREAD_CAP and interaction.app_permissions.send_messages:
            log.warning("could not open a thread in channel %s (%s); using the channel", channel.id, error)
        if not interaction.app_permissions.send_messages:
            raise
        return None


class Lobby(commands.Cog):
    """Opening tables and finding them again."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        offer_enabled_games(bot, self.play)

    @app_commands.command(
        name=app_commands.locale_str("play"),
        description=app_commands.locale_str(
            "Open a table for a game in a new thread; others join with the Join button."
        ),
    )
    @app_commands.guild_only()
    @app_commands.rename(
        game=app_commands.locale_str("game"),
        pace=app_commands.locale_str("pace"),
        bots=app_commands.locale_str("bots"),
    )
    @app_commands.describe(
        game=app_commands.locale_str("Which game to set up a table for"),
        pace=app_commands.locale_str("Time each player has per move (live: no deadline)"),
        bots=app_commands.locale_str(
            "Fill the empty seats with bots of this level (play alone against bots)"
        ),
    )
    @app_commands.choices(game=GAME_CHOICES, pace=PACE_CHOICES, bots=BOTS_CHOICES)
    async def play(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        pace: app_commands.Choice[int] | None = None,
        bots: app_commands.Choice[str] | None = None,
    ) -> None:
        """Open a table for a game in a new thread; others join with the Join button."""
        await open_table(interaction, game.value, pace.value if pace else 0, bots.value if bots else "")


#: What the bot needs in a channel to host a table there, in Discord's own words.
NEEDED = {
    "view_channel": N_("View Channel"),
    "embed_links": N_("Embed Links"),
    "attach_files": N_("Attach Files"),
}
IN_THREADS = N_("Send Messages in Threads")
TO_SEND = N_("Send Messages (or Create Public Threads and Send Messages in Threads)")


def missing_permissions(interaction: discord.Interaction, *, t: i18n.Words | None = None) -> str | None:
    """Why a table cannot open in this channel, in words an admin can act on; None when it can.

    ``interaction.app_permissions`` is what the bot may do here, and
    ``interaction.permissions`` what the member may do. The permissions are named
    as Discord names them in the reader's language (``t``; English by default).
    """
    t = t or i18n.words(i18n.SOURCE)
    bot = interaction.app_permissions
    member = interaction.permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    if not (member.send_messages or member.send_messages_in_threads or member.create_public_threads):
        return t("You can't send messages or start threads in this channel, so you can't open a table here.")
    missing = [label for flag, label in NEEDED.items() if not getattr(bot, flag)]
    if in_thread:
        if not bot.send_messages_in_threads:
            missing.append(IN_THREADS)
    elif not bot.send_messages and not (bot.create_public_threads and bot.send_messages_in_threads):
        missing.append(TO_SEND)
    if not missing:
        return None
    names = ", ".join(f"**{t(name)}**" for name in missing)
    if interaction.channel:
        where = interaction.channel.mention  # type: ignore[union-attr]
        return t(
            "I can't open a table in {channel}: I'm missing {permissions} there. A server admin can grant "
            "them to me in the channel's settings (Edit Channel → Permissions), "
            "or run `/play` in another channel.",
            channel=where,
            permissions=names,
        )
    return t(
        "I can't open a table in this channel: I'm missing {permissions} there. A server admin can grant "
        "them to me in the channel's settings (Edit Channel → Permissions), "
        "or run `/play` in another channel.",
        permissions=names,
    )


async def setup(bot: commands.Bot) -> None:
    """Load the lobby cog and its persistent buttons."""
    bot.add_dynamic_items(PlayAgainButton, LobbySelect, LobbyButton, RematchButton)
    await bot.add_cog(Lobby(bot))
