"""Playing a table in its thread: board messages, private panels, bot seats, results.

After every step that changes the board, the thread gets a new *board message*:
the picture, what just happened in words, and who the game waits for (only they
are pinged). **My hand / My tiles / My sheet** opens a player's ephemeral panel:
their private picture and one control per legal action. Every component is a
`DynamicItem`, so boards and panels keep working after a restart.
"""

from __future__ import annotations

import io
import json
import logging
from typing import ClassVar

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

import engine
import i18n
from cogs.board import (
    BOARD_TEMPLATE,
    as_files,
    board_button,
    board_header,
    board_text,
    event_line,
    in_words,
    seat_names,
    status_words,
    waiting_for,
)
from cogs.common import (
    MESSAGE_LIMIT,
    NO_PINGS,
    answer_error,
    can_manage,
    control,
    dynamic_view,
    fit_lines,
    message_link,
    one_of_ours,
    plain,
    reply,
    table_channel_id,
    table_link,
    tables,
)
from cogs.host import host
from cogs.language import for_public, for_user
from cogs.panels import ChoiceButton, ChoiceSelect, SuggestButton, open_panel, panel_message
from cogs.rules import show_rules
from cogs.runner import TableRunner
from engine.base import event
from hosting import daily
from hosting.errors import TableError, TableNotFound
from hosting.records import ACTIVE, TableRecord
from hosting.service import TableService, seat_name, status_sentence
from i18n import N_, say

log = logging.getLogger(__name__)


class BoardButton(discord.ui.DynamicItem[discord.ui.Button], template=BOARD_TEMPLATE):
    """A board message's buttons: ``board:<hand|rules|leave>:<table id>`` (built by `cogs.board`)."""

    def __init__(self, verb: str, table_id: int, label: str = "") -> None:
        super().__init__(board_button(verb, table_id, label))
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
        try:
            table = await tables(interaction).get(self.table_id)
            current = table.board_message_id
            if (
                table.status == ACTIVE
                and current
                and interaction.message
                and interaction.message.id != current
            ):
                t = await for_user(interaction)
                await reply(
                    interaction,
                    t(
                        "This board is out of date: the current one is {link}",
                        link=message_link(table, current),
                    ),
                )
                return
            if self.verb == "hand":
                await open_panel(interaction, table)
            elif self.verb == "rules":
                await show_rules(interaction, table.game)
            elif self.verb == "leave":
                await ask_leave(interaction, table)
            else:
                t = await for_user(interaction)
                await reply(interaction, t("That button is not one of ours."))
        except Exception as error:
            await answer_error(interaction, error, self.table_id)


class LeaveAnswer(
    discord.ui.DynamicItem[discord.ui.Button], template=control(r"leave:(?P<answer>yes|no):(?P<table>\d+)")
):
    """The answer to "Leave table #n?": ``leave:<yes|no>:<table id>``."""

    def __init__(self, answer: str, table_id: int, *, t: i18n.Words | None = None) -> None:
        t = t or i18n.words(i18n.SOURCE)
        yes = answer == "yes"
        button = discord.ui.Button(
            label=t("Yes, leave") if yes else t("No, stay"),
            style=discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary,
            custom_id=f"leave:{answer}:{table_id}",
        )
        super().__init__(button)
        self.answer = answer
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match
    ) -> LeaveAnswer:
        """Rebuild the button from its custom_id."""
        return cls(match["answer"], int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Leave for good on "Yes"; "No" changes nothing."""
        if self.answer == "no":
            t = await for_user(interaction)
            await interaction.response.edit_message(content=t("You stay at the table."), view=None)
            return
        try:
            await interaction.response.defer()
            table = await tables(interaction).get(self.table_id)
            await leave(interaction, table, edit=True)
        except Exception as error:
            await answer_error(interaction, error, self.table_id)


#: How many steps the replay's Jump menu offers (Discord's limit on a select's options).
JUMP_OPTIONS = 25


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=control(r"replay:(?P<verb>first|prev|next|last):(?P<table>\d+):(?P<step>\d+)"),
):
    """A replay's step buttons: ``replay:<first|prev|next|last>:<table id>:<step>``."""

    LABELS: ClassVar[dict[str, str]] = {
        "first": N_("⏮ Start"),
        "prev": N_("◀ Previous"),
        "next": N_("Next ▶"),
        "last": N_("End ⏭"),
    }

    def __init__(
        self, verb: str, table_id: int, step: int, disabled: bool = False, *, t: i18n.Words | None = None
    ) -> None:
        t = t or i18n.words(i18n.SOURCE)
        super().__init__(
            discord.ui.Button(
                label=t(self.LABELS[verb])[:80],
                custom_id=f"replay:{verb}:{table_id}:{step}",
                disabled=disabled,
            )
        )
        self.table_id, self.step = table_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match
    ) -> ReplayButton:
        """Rebuild the button from its custom_id."""
        return cls(match["verb"], int(match["table"]), int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the step this button points to."""
        await show_replay_step(interaction, self.table_id, self.step)


class ReplayJump(discord.ui.DynamicItem[discord.ui.Select], template=control(r"replay:jump:(?P<table>\d+)")):
    """A replay's Jump menu: ``replay:jump:<table id>``, each option a step number."""

    def __init__(
        self,
        table_id: int,
        options: list[discord.SelectOption] | None = None,
        *,
        t: i18n.Words | None = None,
    ) -> None:
        t = t or i18n.words(i18n.SOURCE)
        super().__init__(
            discord.ui.Select(
                placeholder=t("Jump to a step…")[:150],
                custom_id=f"replay:jump:{table_id}",
                options=options or [],
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match
    ) -> ReplayJump:
        """Rebuild the menu from its custom_id."""
        return cls(int(match["table"]), list(item.options))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the chosen step."""
        await show_replay_step(interaction, self.table_id, int(self.item.values[0]))


def replay_view(
    table_id: int, steps: list, index: int, *, t: i18n.Words | None = None, table: TableRecord | None = None
) -> discord.ui.View:
    """Start / Previous / Next / End and a Jump menu of evenly spaced steps (the current one marked).

    Each step's first event describes it, in ``t``'s language (its seats named after ``table``'s players).
    """
    t = t or i18n.words(i18n.SOURCE)
    last = len(steps) - 1
    view = dynamic_view()
    view.add_item(ReplayButton("first", table_id, 0, disabled=index == 0, t=t))
    view.add_item(ReplayButton("prev", table_id, max(index - 1, 0), disabled=index == 0, t=t))
    view.add_item(ReplayButton("next", table_id, min(index + 1, last), disabled=index >= last, t=t))
    view.add_item(ReplayButton("last", table_id, last, disabled=index >= last, t=t))
    count = min(JUMP_OPTIONS, last + 1)
    marks = sorted({round(i * last / max(count - 1, 1)) for i in range(count)})

    def describe(events: list[dict]) -> str:
        if not events:
            return ""
        first = events[0]
        if table is None or "say" not in first:
            return t.msg(first["say"]) if "say" in first else first.get("text", "")
        return event_line(first, table, t, bold=False)

    options = [
        discord.SelectOption(
            label=t("Step {step} · after move {moves}", step=i + 1, moves=steps[i].moves)[:100],
            value=str(i),
            description=describe(steps[i].events)[:100] or None,
            default=i == index,
        )
        for i in marks
    ]
    view.add_item(ReplayJump(table_id, options, t=t))
    return view


async def ask_leave(interaction: discord.Interaction, table: TableRecord) -> None:
    """Ask before leaving: one click on a red button should not give the seat away for good."""
    t = await for_user(interaction)
    if table.seat_of(interaction.user.id) is None:
        await reply(interaction, t("You are not seated at this table."))
        return
    if table.status != ACTIVE:
        await reply(interaction, t.msg(status_sentence(table)))
        return
    view = dynamic_view()
    view.add_item(LeaveAnswer("yes", table.id, t=t))
    view.add_item(LeaveAnswer("no", table.id, t=t))
    await reply(
        interaction,
        t("Leave table #{id}? A bot will take your seat for the rest of the game.", id=table.id),
        view=view,
    )


async def leave(interaction: discord.Interaction, table: TableRecord, *, edit: bool = False) -> None:
    """Hand the player's seat to a bot and tell the table (``edit``: answer in the asking message)."""
    runner = host(interaction.client).runner
    table = await runner.service.hand_to_bot(table.id, interaction.user.id)
    t = await for_user(interaction)
    done = t("You left the game; a bot plays your seat from now on.")
    if edit:
        await interaction.edit_original_response(content=done, view=None)
    else:
        await reply(interaction, done)
    left = event(
        "left",
        say("{name} left the game; a bot plays their seat.", name=plain(interaction.user.display_name)),
    )
    runner.spawn(runner.advance(table.id, [left]))


async def replay_message(
    runner: TableRunner, table: TableRecord, steps: list, index: int, *, t: i18n.Words | None = None
) -> dict:
    """One step of a replay: the public picture, the public events that led to it, and the controls.

    In ``t``'s language: the viewer's (a replay is shown to them alone).
    """
    t = t or i18n.words(i18n.SOURCE)
    index = max(0, min(index, len(steps) - 1))
    step = steps[index]
    game = engine.get(table.game)
    picture = await runner.picture(
        table.game, runner.service.public_view(table, step.state), seat_names(table, t.lang), lang=t.lang
    )
    header = t(
        "**Replay · {game} · table #{id}** · step {step} of {steps} (after move {move} of {moves})",
        game=t(game.title),
        id=table.id,
        step=index + 1,
        steps=len(steps),
        move=step.moves,
        moves=steps[-1].moves,
    )
    header += "\n" + in_words(game.summary(step.state, lang=t.lang), table)
    lines = [f"• {event_line(e, table, t)}" for e in step.events]
    text = fit_lines(
        header,
        lines,
        more=lambda count: t.plural(
            "… and {count} more event this step.", "… and {count} more events this step.", count
        ),
    )
    return {
        "content": text,
        "attachments": as_files(picture),
        "view": replay_view(table.id, steps, index, t=t, table=table),
    }


async def show_replay_step(interaction: discord.Interaction, table_id: int, index: int) -> None:
    """A replay control was used: show that step in the same ephemeral message."""
    runner = host(interaction.client).runner
    try:
        await interaction.response.defer()
        table, steps = await runner.service.replay_steps(table_id)
        message = await replay_message(runner, table, steps, index, t=await for_user(interaction))
        await interaction.edit_original_response(allowed_mentions=NO_PINGS, **message)
    except Exception as error:
        await answer_error(interaction, error, table_id)


class Play(commands.Cog):
    """The table commands and buttons: boards, panels, `/game`; the runner plays the tables."""

    def __init__(self, bot: commands.Bot, runner: TableRunner) -> None:
        self.bot = bot
        self.runner = runner

    @property
    def service(self) -> TableService:
        """The bot's table service."""
        return self.runner.service

    def cog_unload(self) -> None:
        """Stop background work for tables."""
        self.runner.stop()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer a component interaction none of our controls will handle (forged or malformed).

        discord.py runs a `DynamicItem` only when its custom_id is on the message
        with the same component type; anything else would go unanswered. Any
        interaction also says its user is here again: a DM they refused is tried again.
        """
        self.runner.closed_dms.reopen(interaction.user.id)
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
        if on_message and isinstance(custom_id, str) and one_of_ours(custom_id):
            return
        t = await for_user(interaction)
        await reply(interaction, t("That control is not one of ours, or it is no longer on this message."))

    # ------------------------------------------------------------ the thread

    # ------------------------------------------------------------ the thread

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a (re)start: close the tables of servers that removed the bot while it was down,
        then let bot seats that owe a move make it (unless `resume_at_start` is off)."""
        if getattr(getattr(self.bot, "config", None), "resume_at_start", True):
            await self.runner.reconcile()
            await self.runner.resume_bots()

    @commands.Cog.listener()
    async def on_table_started(self, table: TableRecord) -> None:
        """A lobby started: post the first board, then let bots move."""
        await self.runner.advance(
            table.id, [event("start", say("The game begins!"))], force=True, new_step=True
        )

    # ------------------------------------------------------------ deleted places, and places back

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A table's thread was deleted: the table is abandoned."""
        await self.runner.abandon_tables(
            await self.service.store.open_tables_in(payload.thread_id), "thread deleted"
        )

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: its tables, and those in its threads (archived ones too), are abandoned."""
        await self.runner.abandon_tables(
            await self.service.store.open_tables_in(channel.id), "channel deleted"
        )

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server: every open table there is abandoned."""
        await self.runner.abandon_tables(
            await self.service.store.open_tables_in_guild(guild.id), "bot removed"
        )

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        """A channel's permissions changed: blocked tables there (and in its threads) may run again."""
        await self.runner.recheck(after.guild.id, after.id)

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        """A thread was locked or unlocked: its table pauses, or runs again."""
        await self.runner.recheck(after.guild.id, after.id, seen=after)

    @commands.Cog.listener()
    async def on_thread_join(self, thread: discord.Thread) -> None:
        """discord.py's word for an update of a thread it had dropped (archived): reopened or unlocked."""
        await self.runner.recheck(thread.guild.id, thread.id, seen=thread)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """A role's permissions changed: blocked tables of the server may run again."""
        await self.runner.recheck(after.guild.id)

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        """The bot's own roles changed: blocked tables of the server may run again."""
        if self.bot.user is not None and after.id == self.bot.user.id:
            await self.runner.recheck(after.guild.id)

    # ------------------------------------------------------------ the panel

    # ------------------------------------------------------------ /game

    game_group = app_commands.Group(
        name=locale_str("game"), description=locale_str("The table in this thread"), guild_only=True
    )

    async def _table_of_this_server(
        self, interaction: discord.Interaction, table_id: int, *, or_mine: bool = False
    ) -> TableRecord:
        """Table ``table_id`` if it is this server's (``or_mine``: or the caller held a seat there).

        Any other id, another server's or one that does not exist, gets the same neutral
        answer (issue #35): table numbers are sequential, and an answer that differed, or
        linked to the table, would tell a member about servers they are not in.
        """
        try:
            table = await self.service.get(table_id)
        except TableNotFound:
            table = None
        if (
            table is None
            or (
                table.guild_id != interaction.guild_id
                and not (or_mine and table.held_by(interaction.user.id))
            )
            # A daily Reef game shows the day's dice: only its player looks at it before the day closes.
            or daily.hidden_from(table, interaction.user.id, self.service.now())
        ):
            raise TableError(say("There is no table #{id} here.", id=table_id))
        return table

    async def _table_here(
        self, interaction: discord.Interaction, table_id: int | None = None, *, from_parent: bool = False
    ) -> TableRecord:
        """The table a `/game` command is about: in a thread, its table; in a shared channel, the caller's.

        Where several tables play in one channel (no thread permission, the thread
        cap, offline mode), the caller's own open table is taken; with several of
        their own, the ``table`` option says which. With ``from_parent``, a table
        named by ``table_id`` may also be reached from its thread's parent channel
        (Discord offers no commands in an archived thread).
        """
        here = interaction.channel_id
        if table_id is not None:
            table = await self._table_of_this_server(interaction, table_id)
            in_parent = from_parent and table.thread_id is not None and table.channel_id == here
            if table_channel_id(table) != here and not in_parent:
                raise TableError(
                    say("Table #{id} does not play here: {link}", id=table_id, link=table_link(table))
                )
            return table
        candidates = await self.service.store.open_tables_here(here)
        user = interaction.user.id
        mine = [other for other in candidates if other.host_id == user or other.held_by(user)]
        if len(mine) == 1 or (not mine and len(candidates) == 1):
            return (mine or candidates)[0]
        if len(mine) > 1 or len(candidates) > 1:
            listed = ", ".join(f"#{other.id}" for other in (mine or candidates))
            raise TableError(
                say(
                    "Several tables play in this channel ({tables}): choose one with the `table` option.",
                    tables=listed,
                )
            )
        found = await self.service.store.table_in_channel(here)
        if found is None:
            raise TableError(say("There is no table in this channel. Use this command in a table's thread."))
        return found

    async def table_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """Autocomplete for ``table``: the open tables playing in this channel, the caller's first."""
        here = interaction.channel_id
        found = await self.service.store.open_tables_here(here)
        user = interaction.user.id
        found.sort(key=lambda other: (not (other.host_id == user or other.held_by(user)), -other.id))
        t = await for_user(interaction)
        choices = [
            app_commands.Choice(
                name=t(
                    "#{id} {game} ({status})",
                    id=other.id,
                    game=t(engine.get(other.game).title),
                    status=status_words(other.status, t),
                )[:100],
                value=other.id,
            )
            for other in found
        ]
        return [c for c in choices if current.strip("#") in str(c.value)][:25]

    @game_group.command(
        name=locale_str("board"),
        description=locale_str(
            "Show the current board of the table here (and post it again if its message was deleted)."
        ),
    )
    @app_commands.describe(table=locale_str("Which table, where several play in this channel"))
    @app_commands.autocomplete(table=table_choices)
    @app_commands.rename(table=locale_str("table"))
    async def game_board(self, interaction: discord.Interaction, table: int | None = None) -> None:
        """Show the current board of the table here (and post it again if its message was deleted)."""
        try:
            found = await self._table_here(interaction, table)
            if found.status != ACTIVE:
                raise TableError(status_sentence(found))
            await interaction.response.defer(ephemeral=True, thinking=True)
            t = await for_user(interaction)
            missing = await self.runner.board_missing(found)
            game = engine.get(found.game)
            state = self.service.state_of(found)
            picture = await self.runner.picture(
                found.game, self.service.public_view(found), seat_names(found, t.lang), lang=t.lang
            )
            header = board_header(found, game, state, t)
            text = board_text(header, [], 0, waiting_for(found, game.to_act(state), t=t), t=t)
            if missing:
                text += "\n-# " + t("The board message was missing, so it is posted again in the channel.")
            elif found.board_message_id:
                text += "\n-# " + t("The board: {link}", link=message_link(found, found.board_message_id))
            text = text[:MESSAGE_LIMIT]
            await interaction.followup.send(
                text, files=as_files(picture), ephemeral=True, allowed_mentions=NO_PINGS
            )
            if missing:
                self.runner.spawn(self.runner.advance(found.id, [], force=True))
            if found.seat_of(interaction.user.id) is not None:
                seat = found.seat_of(interaction.user.id)
                message = await panel_message(self.runner, found, seat.seat, t=t)  # type: ignore[union-attr]
                files = message.pop("attachments")
                await interaction.followup.send(
                    ephemeral=True, allowed_mentions=NO_PINGS, files=files, **message
                )
        except Exception as error:
            await answer_error(interaction, error)

    @game_group.command(
        name=locale_str("log"),
        description=locale_str("Show the recent moves of the table in this thread, in words."),
    )
    @app_commands.describe(table=locale_str("Which table, where several play in this channel"))
    @app_commands.autocomplete(table=table_choices)
    @app_commands.rename(table=locale_str("table"))
    async def game_log(self, interaction: discord.Interaction, table: int | None = None) -> None:
        """Show the recent moves of the table in this thread, in words."""
        try:
            found = await self._table_here(interaction, table)
            events = await self.service.public_events(found.id)
        except Exception as error:
            await answer_error(interaction, error)
            return
        t = await for_user(interaction)
        if not events:
            await reply(interaction, t("Nothing has happened at this table yet."))
            return
        lines = [f"• {event_line(e, found, t)}" for e in reversed(events)]
        await reply(
            interaction,
            fit_lines(
                t("**Recent moves at table #{id}** (newest first)", id=found.id),
                lines,
                more=lambda n: t.plural("… and {count} earlier move.", "… and {count} earlier moves.", n),
            ),
        )

    async def closed_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """Autocomplete for ``table`` of `/game replay` and `/game export`: the caller's finished games."""
        # The newest hundred: a keystroke's answer stays one short read for a player of thousands of
        # games (an older table is still there by typing its number).
        found = await self.service.finished_games(interaction.user.id, limit=100)
        t = await for_user(interaction)
        choices = [
            app_commands.Choice(
                name=t("#{id} {game} (finished)", id=other.id, game=t(engine.get(other.game).title))[:100],
                value=other.id,
            )
            for other in found
        ]
        return [c for c in choices if current.strip("#") in str(c.value)][:25]

    async def _closed_table(self, interaction: discord.Interaction, table_id: int | None) -> TableRecord:
        """The table a replay or export is about: by id (this server's, or the caller's), or here."""
        if table_id is None:
            return await self._table_here(interaction)
        return await self._table_of_this_server(interaction, table_id, or_mine=True)

    @game_group.command(
        name=locale_str("replay"),
        description=locale_str(
            "Step through a finished game: its public boards and events, from the action log."
        ),
    )
    @app_commands.describe(table=locale_str("Which table (its id, from /history), if not this thread's"))
    @app_commands.autocomplete(table=closed_choices)
    @app_commands.rename(table=locale_str("table"))
    async def game_replay(self, interaction: discord.Interaction, table: int | None = None) -> None:
        """Step through a finished game: its public boards and events, from the action log."""
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await self._closed_table(interaction, table)
            found, steps = await self.service.replay_steps(found.id)
            message = await replay_message(self.runner, found, steps, 0, t=await for_user(interaction))
            files = message.pop("attachments")
            await interaction.followup.send(ephemeral=True, allowed_mentions=NO_PINGS, files=files, **message)
        except Exception as error:
            await answer_error(interaction, error)

    @game_group.command(
        name=locale_str("export"),
        description=locale_str(
            "Export a finished game as a JSON file (seed, options, seats, actions) to replay and check."
        ),
    )
    @app_commands.describe(table=locale_str("Which table (its id, from /history), if not this thread's"))
    @app_commands.autocomplete(table=closed_choices)
    @app_commands.rename(table=locale_str("table"))
    async def game_export(self, interaction: discord.Interaction, table: int | None = None) -> None:
        """Export a finished game as a JSON file (seed, options, seats, actions) to replay and check."""
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await self._closed_table(interaction, table)
            data = json.dumps(await self.service.export(found.id), indent=1).encode()
            name = f"seagames-table-{found.id}.json"
            file = discord.File(io.BytesIO(data), filename=name)
            t = await for_user(interaction)
            await interaction.followup.send(
                t(
                    "Table #{id} as a game record. Check it with `python -m engine.replay {file}`.",
                    id=found.id,
                    file=name,
                ),
                file=file,
                ephemeral=True,
                allowed_mentions=NO_PINGS,
            )
        except Exception as error:
            await answer_error(interaction, error)

    @game_group.command(
        name=locale_str("leave"),
        description=locale_str("Leave the running game in this thread; a bot takes your seat."),
    )
    @app_commands.describe(table=locale_str("Which table, where several play in this channel"))
    @app_commands.autocomplete(table=table_choices)
    @app_commands.rename(table=locale_str("table"))
    async def game_leave(self, interaction: discord.Interaction, table: int | None = None) -> None:
        """Leave the running game in this thread; a bot takes your seat."""
        try:
            await interaction.response.defer(ephemeral=True)
            await leave(interaction, await self._table_here(interaction, table))
        except Exception as error:
            await answer_error(interaction, error)

    @game_group.command(
        name=locale_str("pause"),
        description=locale_str(
            "Pause the table in this thread: its clock stops and moves wait (host or Manage Server)."
        ),
    )
    @app_commands.describe(table=locale_str("Which table, where several play in this channel"))
    @app_commands.autocomplete(table=table_choices)
    @app_commands.rename(table=locale_str("table"))
    async def game_pause(self, interaction: discord.Interaction, table: int | None = None) -> None:
        """Pause the table in this thread: its clock stops and moves wait (host or Manage Server)."""
        try:
            await interaction.response.defer(ephemeral=True)  # answer first: the write may wait
            found = await self._table_here(interaction, table)
            await self.service.pause(found.id, interaction.user.id, can_manage=can_manage(interaction))
        except Exception as error:
            await answer_error(interaction, error)
            return
        t = await for_user(interaction)
        await reply(interaction, t("Paused."))
        t = await for_public(self.bot, found)
        await self.runner.announce(
            found,
            t("⏸️ {user} paused the table. `/game resume` starts it again.", user=interaction.user.mention),
        )

    @game_group.command(
        name=locale_str("resume"),
        description=locale_str(
            "Resume the paused table in this thread; the deadline moves on by the time it was paused."
        ),
    )
    @app_commands.describe(table=locale_str("Which table, where several play in this channel"))
    @app_commands.autocomplete(table=table_choices)
    @app_commands.rename(table=locale_str("table"))
    async def game_resume(self, interaction: discord.Interaction, table: int | None = None) -> None:
        """Resume the paused table in this thread; the deadline moves on by the time it was paused.

        Works from the thread's parent channel with ``table:`` too (a table paused by
        a locked thread: Discord offers no commands in an archived thread).
        """
        try:
            await interaction.response.defer(ephemeral=True)  # answer first: the write may wait
            found = await self._table_here(interaction, table, from_parent=True)
            # Only those who may resume it hear why it waits; the others get the service's refusal.
            may = interaction.user.id == found.host_id or can_manage(interaction)
            cause = await self.runner.check(found) if found.blocked and may else None
            if cause is not None:
                t = await for_user(interaction)
                await reply(
                    interaction,
                    t(
                        "Table #{id} waits: {problem}. Once that is fixed it runs again by itself.",
                        id=found.id,
                        problem=self.runner.problem(cause, t),
                    ),
                )
                return
            await self.service.resume(found.id, interaction.user.id, can_manage=can_manage(interaction))
        except Exception as error:
            await answer_error(interaction, error)
            return
        t = await for_user(interaction)
        await reply(interaction, t("The table is running again."))
        resumed = event("resume", say("{name} resumed the table.", name=plain(interaction.user.display_name)))
        self.runner.spawn(self.runner.advance(found.id, [resumed], force=True, new_step=True))

    @game_group.command(
        name=locale_str("replace"),
        description=locale_str(
            "Give a seat to a bot or another member (host or Manage Server; a player may hand on their own)."
        ),
    )
    @app_commands.describe(
        seat=locale_str("The seat number to hand over (as on the board)"),
        member=locale_str("Who takes the seat (leave out to give it to a bot)"),
        table=locale_str("Which table, where several play in this channel"),
    )
    @app_commands.autocomplete(table=table_choices)
    @app_commands.rename(seat=locale_str("seat"), member=locale_str("member"), table=locale_str("table"))
    async def game_replace(
        self,
        interaction: discord.Interaction,
        seat: app_commands.Range[int, 1, 8],
        member: discord.Member | None = None,
        table: int | None = None,
    ) -> None:
        """Give a seat to a bot or another member (host or Manage Server; a player may hand on their own)."""
        t = await for_user(interaction)
        if member is not None and member.bot:
            await reply(
                interaction, t("Bots cannot take a seat; leave `member` out to give the seat to our bot.")
            )
            return
        try:
            await interaction.response.defer(ephemeral=True)  # answer first: the write may wait
            found = await self._table_here(interaction, table)
            by = None if member is None else (member.id, member.display_name)
            found, old = await self.service.replace_seat(
                found.id, interaction.user.id, seat - 1, can_manage=can_manage(interaction), by=by
            )
        except Exception as error:
            await answer_error(interaction, error)
            return
        if member is None:
            answer = t(
                "Seat {seat} ({name}) now belongs to a bot.",
                seat=seat,
                name=plain(seat_name(old.name, t.lang)),
            )
            handed = event("replace", say("{name}'s seat was handed to a bot.", name=plain(old.name)))
        else:
            taker = plain(member.display_name)
            answer = t(
                "Seat {seat} ({name}) now belongs to {taker}.",
                seat=seat,
                name=plain(seat_name(old.name, t.lang)),
                taker=taker,
            )
            handed = event(
                "replace", say("{name}'s seat was handed to {taker}.", name=plain(old.name), taker=taker)
            )
        await reply(interaction, answer)
        self.runner.spawn(self.runner.advance(found.id, [handed], new_step=True))

    @game_group.command(
        name=locale_str("end"),
        description=locale_str("End the table in this thread without a result (host or Manage Server)."),
    )
    @app_commands.describe(table=locale_str("Which table, where several play in this channel"))
    @app_commands.autocomplete(table=table_choices)
    @app_commands.rename(table=locale_str("table"))
    async def game_end(self, interaction: discord.Interaction, table: int | None = None) -> None:
        """End the table in this thread without a result (host or Manage Server)."""
        try:
            await interaction.response.defer(ephemeral=True)  # answer first: the write may wait
            found = await self._table_here(interaction, table)
            await self.service.cancel(found.id, interaction.user.id, can_manage=can_manage(interaction))
        except Exception as error:
            await answer_error(interaction, error)
            return
        self.runner.forget(found.id)
        t = await for_user(interaction)
        await reply(interaction, t("Table #{id} is ended.", id=found.id))
        t = await for_public(self.bot, found)
        await self.runner.announce(
            found,
            t(
                "{user} ended this table: no result, and no rating changes. "
                "Its log stays readable with `/game log`.",
                user=interaction.user.mention,
            ),
        )
        await self.runner.archive(found)


async def setup(bot: commands.Bot) -> None:
    """Load the play cog and its persistent components."""
    bot.add_dynamic_items(
        BoardButton, LeaveAnswer, ReplayButton, ReplayJump, ChoiceButton, ChoiceSelect, SuggestButton
    )
    await bot.add_cog(Play(bot, host(bot).runner))
