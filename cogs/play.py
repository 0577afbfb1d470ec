"""Playing a table in its thread: board messages, private panels, bot seats, results.

After every step that changes the board, the thread gets a new *board message*:
the picture, what just happened in words, and who the game waits for (only they
are pinged). **My hand / My tiles / My sheet** opens a player's ephemeral panel:
their private picture and one control per legal action. Every component is a
`DynamicItem`, so boards and panels keep working after a restart.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re

import discord
from discord import app_commands
from discord.ext import commands

import engine
import renderers
from cogs.common import NO_PINGS, answer_error, can_manage, message_link, reply, table_channel, tables
from cogs.panels import panel_view
from hosting.errors import TableError
from hosting.service import Move, Panel, TableService
from hosting.store import ACTIVE, FINISHED, TableRecord

log = logging.getLogger(__name__)

#: What each game calls a player's private panel.
PANEL_NAMES = {"haenyeo": "My hand", "jeju": "My tiles", "reef": "My sheet"}
#: How many event lines a board message repeats.
EVENT_LINES = 8
#: Discord's limit on a message's content.
MESSAGE_LIMIT = 2000
SEAT_WORD = re.compile(r"\b[Ss]eat (\d+)\b")


def seat_names(table: TableRecord) -> list[str]:
    """Display names per seat, bots marked."""
    return [f"🤖 {s.name}" if s.is_bot and not s.name.endswith("(bot)") else s.name for s in table.seats]


def in_words(text: str, table: TableRecord) -> str:
    """An engine sentence with "Seat n" replaced by that player's name."""
    names = seat_names(table)

    def name(match: re.Match[str]) -> str:
        index = int(match.group(1)) - 1
        return f"**{plain(names[index])}**" if 0 <= index < len(names) else match.group(0)

    return SEAT_WORD.sub(name, text)


#: A board pings the users it mentions (only the awaited players), never everyone or a role.
PING_AWAITED = discord.AllowedMentions(users=True, everyone=False, roles=False, replied_user=False)


def plain(name: str) -> str:
    """A player's name made safe to print: no markdown and no mentions."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def waiting_for(table: TableRecord, seats: frozenset[int]) -> str:
    """ "Waiting for …" naming exactly the awaited seats (humans as mentions), with the deadline."""
    names = [
        plain(table.seats[s].name) if table.seats[s].is_bot else f"<@{table.seats[s].user_id}>"
        for s in sorted(seats)
    ]
    return "Waiting for " + ", ".join(names) + clock_note(table)


def clock_note(table: TableRecord) -> str:
    """The table's clock in words: paused, or the deadline as a Discord timestamp."""
    if table.paused_at is not None:
        return " · ⏸️ paused by the host"
    if table.deadline is not None:
        return f" · ⏰ due <t:{int(table.deadline)}:R>"
    return ""


class BoardButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"board:(?P<verb>[a-z]+):(?P<table>\d+)"
):
    """A board message's buttons: ``board:<hand|rules|leave>:<table id>``."""

    def __init__(self, verb: str, table_id: int, label: str = "") -> None:
        styles = {"hand": discord.ButtonStyle.primary, "leave": discord.ButtonStyle.danger}
        button = discord.ui.Button(
            label=label or verb.title(),
            style=styles.get(verb, discord.ButtonStyle.secondary),
            custom_id=f"board:{verb}:{table_id}",
        )
        super().__init__(button)
        self.verb = verb
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match
    ) -> BoardButton:
        """Rebuild the button from its custom_id."""
        return cls(match["verb"], int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the player's panel, show the rules, or leave the game."""
        cog: Play = interaction.client.get_cog("Play")  # type: ignore[assignment]
        try:
            table = await tables(interaction).get(self.table_id)
            current = table.board_message_id
            if (
                table.status == ACTIVE
                and current
                and interaction.message
                and interaction.message.id != current
            ):
                await reply(
                    interaction,
                    f"This board is out of date: the current one is {message_link(table, current)}",
                )
                return
            if self.verb == "hand":
                await cog.open_panel(interaction, table)
            elif self.verb == "rules":
                await interaction.client.get_cog("Rules").show(interaction, table.game)  # type: ignore[union-attr]
            elif self.verb == "leave":
                await cog.leave(interaction, table)
            else:
                await reply(interaction, "That button is not one of ours.")
        except Exception as error:
            await answer_error(interaction, error, self.table_id)


#: Events a board always repeats, however many others happened.
ALWAYS_SHOWN = ("score", "timeout")


def headline(events: list[dict]) -> list[dict]:
    """The events a board repeats: every scoring and timeout, then the latest others, in order."""
    scoring = [i for i, e in enumerate(events) if e.get("type") in ALWAYS_SHOWN]
    others = [i for i, e in enumerate(events) if e.get("type") not in ALWAYS_SHOWN]
    keep = set(scoring) | set(others[max(0, len(others) - max(EVENT_LINES - len(scoring), 2)) :])
    return [e for i, e in enumerate(events) if i in keep]


def board_text(header: str, lines: list[str], hidden: int, waiting: str | None) -> str:
    """A board's words within Discord's 2,000 characters: whole event lines go, oldest first.

    The header and the "Waiting for" line always stay, so a long game-over board
    never ends in the middle of a name.
    """
    while True:
        note = [f"… and {hidden} earlier moves (`/game log`)"] if hidden else []
        text = "\n".join([header, *note, *lines, *([waiting] if waiting else [])])
        if len(text) <= MESSAGE_LIMIT or not lines:
            return text[:MESSAGE_LIMIT]
        lines, hidden = lines[1:], hidden + 1


def as_files(picture: renderers.Picture | None) -> list[discord.File]:
    """The picture as an attachment with its alt text (none when there is no picture)."""
    if picture is None:
        return []
    return [discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.alt)]


def board_view(table: TableRecord) -> discord.ui.View:
    """The buttons under a board message."""
    view = discord.ui.View(timeout=None)
    if table.status == ACTIVE:
        view.add_item(BoardButton("hand", table.id, PANEL_NAMES.get(table.game, "My panel")))
    view.add_item(BoardButton("rules", table.id, "Rules"))
    if table.status == ACTIVE:
        view.add_item(BoardButton("leave", table.id, "Leave"))
    return view


class Play(commands.Cog):
    """Runs started tables in their threads."""

    def __init__(self, bot: commands.Bot, bot_delay: float) -> None:
        self.bot = bot
        self.bot_delay = bot_delay
        # Board posts for one table happen one at a time, in order.
        self._posting: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task] = set()

    @property
    def service(self) -> TableService:
        """The bot's table service."""
        return self.bot.tables  # type: ignore[attr-defined]

    def cog_unload(self) -> None:
        """Stop background work for tables."""
        for task in self._tasks:
            task.cancel()

    def spawn(self, coroutine) -> None:
        """Run table work in the background, keeping a reference and logging failures."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table work failed", exc_info=task.exception())

    async def picture(self, game_key: str, view: dict, names: list[str]) -> renderers.Picture | None:
        """Draw a view off the event loop; None (words only) for a game without pictures."""
        try:
            return await renderers.render_async(game_key, view, names)
        except renderers.RenderError:
            log.warning("no picture for %s; posting the board in words", game_key)
            return None

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer a component interaction none of our controls will handle (forged or malformed).

        discord.py runs a `DynamicItem` only when its custom_id is on the message
        with the same component type; anything else would go unanswered.
        """
        if interaction.type is not discord.InteractionType.component or interaction.message is None:
            return
        data = interaction.data or {}
        custom_id, kind = data.get("custom_id"), data.get("component_type")
        try:
            view = discord.ui.View.from_message(interaction.message, timeout=None)
            on_message = any(
                i.type.value == kind and getattr(i, "custom_id", None) == custom_id
                for i in view.walk_children()
            )
        except Exception:
            on_message = False
        patterns = getattr(getattr(self.bot._connection, "_view_store", None), "_dynamic_items", {})
        if on_message and isinstance(custom_id, str) and any(p.fullmatch(custom_id) for p in patterns):
            return
        await reply(interaction, "That control is not one of ours, or it is no longer on this message.")

    # ------------------------------------------------------------ the thread

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a (re)start, let bot seats that owe a move make it (the bot may have stopped mid-chain)."""
        for table_id in await self.service.store.table_ids(ACTIVE, with_bots=True):
            table = await self.service.get(table_id)
            if self._bot_to_act(table):
                self.spawn(self.advance(table_id, []))

    @commands.Cog.listener()
    async def on_table_started(self, table: TableRecord) -> None:
        """A lobby started: post the first board, then let bots move."""
        await self.advance(table.id, [{"type": "start", "text": "The game begins!"}], force=True)

    async def advance(self, table_id: int, events: list[dict], *, force: bool = False) -> None:
        """After a move: post a board when something public happened, then play bot seats."""
        async with self._posting.setdefault(table_id, asyncio.Lock()):
            public = [e for e in events if not e.get("private")]
            if public or force:
                await self.post_board(await self.service.get(table_id), public)
            public = []
            while True:
                table = await self.service.get(table_id)
                if table.status != ACTIVE or not self._bot_to_act(table):
                    break
                await asyncio.sleep(self.bot_delay)  # a moment, so people can follow
                move = await self.service.play_bot(table_id)
                if move is None:
                    break
                public.extend(e for e in move.events if not e.get("private"))
            if public:
                await self.post_board(await self.service.get(table_id), public)

    def _bot_to_act(self, table: TableRecord) -> bool:
        game = engine.get(table.game)
        return any(table.seats[s].is_bot for s in game.to_act(self.service.state_of(table)))

    async def post_board(self, table: TableRecord, events: list[dict]) -> None:
        """Post a new board message in the table's thread (and the results at the end)."""
        channel = table_channel(self.bot, table)
        if channel is None:
            log.warning("table %s: its thread %s is gone", table.id, table.thread_id)
            return
        game = engine.get(table.game)
        state = self.service.state_of(table)
        names = seat_names(table)
        picture = await self.picture(table.game, game.view(state, None), names)
        shown = [in_words(e["text"], table) for e in headline(events)]
        header = f"**{game.title}** · table #{table.id} · {in_words(game.summary(state), table)}"
        waiting = waiting_for(table, game.to_act(state)) if table.status == ACTIVE else None
        text = board_text(header, shown, len(events) - len(shown), waiting)
        message = await channel.send(
            text,
            files=as_files(picture),
            view=board_view(table),
            allowed_mentions=PING_AWAITED,
        )
        await self.service.attach(table.id, board_message_id=message.id)
        if table.status == FINISHED:
            await self.post_results(channel, table)

    async def post_results(self, channel: discord.abc.Messageable, table: TableRecord) -> None:
        """The final ranking, the score breakdown and the results picture."""
        game = engine.get(table.game)
        result = table.result or {}
        names = seat_names(table)
        order = sorted(range(len(table.seats)), key=lambda s: (result["ranking"][s], s))
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        lines = []
        for seat in order:
            place = result["ranking"][seat]
            parts = ", ".join(f"{k} {v}" for k, v in result["breakdown"][seat].items() if k != "total")
            won = " — **wins**" if seat in result["winners"] else ""
            lines.append(
                f"{medals.get(place, f'{place}.')} {plain(names[seat])}: "
                f"**{result['scores'][seat]}**{won}\n-# {parts}"
            )
        embed = discord.Embed(
            title=f"{game.title} — final ranking",
            description="\n".join(lines)[:4000],
            colour=discord.Colour.gold(),
        )
        for note in result.get("notes", [])[:3]:
            embed.add_field(name="Note", value=in_words(note, table)[:1000], inline=False)
        picture = await renderers.render_results_async(
            table.game, game.view(self.service.state_of(table), None), names
        )
        embed.set_image(url=f"attachment://{picture.filename}")
        await channel.send(
            embed=embed,
            file=discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.alt),
            allowed_mentions=NO_PINGS,
        )

    # ------------------------------------------------------------ the panel

    async def panel_message(self, table: TableRecord, seat: int, note: str = "") -> dict:
        """The content, picture and controls of a seat's private panel."""
        game = engine.get(table.game)
        state = self.service.state_of(table)
        panel: Panel = self.service.panel(table, seat)
        picture = await self.picture(table.game, game.view(state, seat), seat_names(table))
        if table.status != ACTIVE:
            status = f"This table is {table.status}."
        elif table.paused_at is not None:
            status = "This table is paused: moves wait until the host resumes it."
        elif panel.choices:
            status = "Your move: choose below."
        else:
            status = "Nothing to do right now. " + waiting_for(table, game.to_act(state))
        content = "\n".join(line for line in (note, status) if line)[:2000]
        return {"content": content, "attachments": as_files(picture), "view": panel_view(table.id, panel)}

    async def open_panel(self, interaction: discord.Interaction, table: TableRecord) -> None:
        """Send the clicking player their private panel (ephemeral)."""
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, "You are not seated at this table.")
            return
        if table.status != ACTIVE:
            await reply(interaction, f"This table is {table.status}.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        message = await self.panel_message(table, seat.seat)
        files = message.pop("attachments")
        await interaction.followup.send(ephemeral=True, allowed_mentions=NO_PINGS, files=files, **message)

    async def choose(self, interaction: discord.Interaction, table_id: int, token: str, index: int) -> None:
        """Apply a choice from a panel, refresh the panel, and move the table on."""
        service = self.service
        try:
            await interaction.response.defer()
            move: Move = await service.submit(table_id, interaction.user.id, token, index)
        except TableError as error:
            await self._refresh_after_refusal(interaction, table_id, str(error))
            return
        except Exception as error:
            await answer_error(interaction, error, table_id)
            return
        self.spawn(self.advance(table_id, move.events))
        try:
            mine = [e["text"] for e in move.events if e.get("private") and e.get("seat") == move.seat]
            message = await self.panel_message(move.table, move.seat, note="\n".join(mine))
            await interaction.edit_original_response(allowed_mentions=NO_PINGS, **message)
        except Exception as error:  # the move stands; only the refreshed panel is missing
            await answer_error(interaction, error, table_id)

    async def _refresh_after_refusal(self, interaction: discord.Interaction, table_id: int, why: str) -> None:
        """Say why a choice was refused, and show the current choices instead of stale ones."""
        await interaction.followup.send(why, ephemeral=True, allowed_mentions=NO_PINGS)
        try:
            table = await self.service.get(table_id)
        except TableError:
            return
        seat = table.seat_of(interaction.user.id)
        if seat is not None and table.status == ACTIVE:
            message = await self.panel_message(table, seat.seat)
            await interaction.edit_original_response(allowed_mentions=NO_PINGS, **message)

    async def leave(self, interaction: discord.Interaction, table: TableRecord) -> None:
        """Hand the player's seat to a bot and tell the table."""
        table = await self.service.hand_to_bot(table.id, interaction.user.id)
        await reply(interaction, "You left the game; a bot plays your seat from now on.")
        event = {
            "type": "left",
            "text": f"{interaction.user.display_name} left the game; a bot plays their seat.",
        }
        self.spawn(self.advance(table.id, [event]))

    # ------------------------------------------------------------ /game

    game_group = app_commands.Group(name="game", description="The table in this thread", guild_only=True)

    async def _table_here(self, interaction: discord.Interaction) -> TableRecord:
        found = await self.service.store.table_in_channel(interaction.channel_id)
        if found is None:
            raise TableError("There is no table in this channel. Use this command in a table's thread.")
        return found

    @game_group.command(name="log")
    async def game_log(self, interaction: discord.Interaction) -> None:
        """Show the recent moves of the table in this thread, in words."""
        try:
            table = await self._table_here(interaction)
            events = await self.service.public_events(table.id)
        except Exception as error:
            await answer_error(interaction, error)
            return
        if not events:
            await reply(interaction, "Nothing has happened at this table yet.")
            return
        text = "\n".join(f"• {in_words(e['text'], table)}" for e in events)
        await reply(interaction, f"**Recent moves at table #{table.id}**\n{text}"[:2000])

    @game_group.command(name="leave")
    async def game_leave(self, interaction: discord.Interaction) -> None:
        """Leave the running game in this thread; a bot takes your seat."""
        try:
            await self.leave(interaction, await self._table_here(interaction))
        except Exception as error:
            await answer_error(interaction, error)

    @game_group.command(name="pause")
    async def game_pause(self, interaction: discord.Interaction) -> None:
        """Pause the table in this thread: its clock stops and moves wait (host or Manage Server)."""
        try:
            table = await self._table_here(interaction)
            await self.service.pause(table.id, interaction.user.id, can_manage=can_manage(interaction))
        except Exception as error:
            await answer_error(interaction, error)
            return
        await interaction.response.send_message(
            f"⏸️ {interaction.user.mention} paused the table. `/game resume` starts it again.",
            allowed_mentions=NO_PINGS,
        )

    @game_group.command(name="resume")
    async def game_resume(self, interaction: discord.Interaction) -> None:
        """Resume the paused table in this thread; the deadline moves on by the time it was paused."""
        try:
            table = await self._table_here(interaction)
            await self.service.resume(table.id, interaction.user.id, can_manage=can_manage(interaction))
        except Exception as error:
            await answer_error(interaction, error)
            return
        await reply(interaction, "The table is running again.")
        event = {"type": "resume", "text": f"{plain(interaction.user.display_name)} resumed the table."}
        self.spawn(self.advance(table.id, [event]))

    @game_group.command(name="replace")
    @app_commands.describe(
        seat="The seat number to hand over (as on the board)",
        member="Who takes the seat (leave out to give it to a bot)",
    )
    async def game_replace(
        self,
        interaction: discord.Interaction,
        seat: app_commands.Range[int, 1, 8],
        member: discord.Member | None = None,
    ) -> None:
        """Give a seat to a bot or to another member (host or Manage Server)."""
        if member is not None and member.bot:
            await reply(
                interaction, "Bots cannot take a seat; leave `member` out to give the seat to our bot."
            )
            return
        try:
            table = await self._table_here(interaction)
            by = None if member is None else (member.id, member.display_name)
            table, old = await self.service.replace_seat(
                table.id, interaction.user.id, seat - 1, can_manage=can_manage(interaction), by=by
            )
        except Exception as error:
            await answer_error(interaction, error)
            return
        taker = "a bot" if member is None else plain(member.display_name)
        await reply(interaction, f"Seat {seat} ({plain(old.name)}) now belongs to {taker}.")
        event = {"type": "replace", "text": f"{plain(old.name)}'s seat was handed to {taker}."}
        self.spawn(self.advance(table.id, [event]))

    @game_group.command(name="end")
    async def game_end(self, interaction: discord.Interaction) -> None:
        """End the table in this thread without a result (host or Manage Server)."""
        try:
            table = await self._table_here(interaction)
            await self.service.cancel(table.id, interaction.user.id, can_manage=can_manage(interaction))
        except Exception as error:
            await answer_error(interaction, error)
            return
        await interaction.response.send_message(
            f"{interaction.user.mention} ended this table. Its log stays readable with `/game log`.",
            allowed_mentions=NO_PINGS,
        )


async def setup(bot: commands.Bot) -> None:
    """Load the play cog and its persistent components."""
    from cogs.panels import ChoiceButton, ChoiceSelect

    bot.add_dynamic_items(BoardButton, ChoiceButton, ChoiceSelect)
    await bot.add_cog(Play(bot, bot_delay=bot.config.bot_delay))  # type: ignore[attr-defined]
