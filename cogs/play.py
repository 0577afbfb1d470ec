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
import json
import logging
import re
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

import engine
import i18n
import renderers
from cogs.common import (
    MESSAGE_LIMIT,
    MISSING_PERMISSIONS,
    NO_PINGS,
    THREAD_LOCKED,
    UNKNOWN_MESSAGE,
    answer_error,
    bot_permissions,
    can_manage,
    dynamic_view,
    fit_lines,
    is_gone,
    message_link,
    pinging,
    plain,
    reply,
    serves,
    table_channel,
    table_channel_id,
    table_link,
    tables,
)
from cogs.language import for_dm, for_public, for_user
from cogs.lobby import RematchButton
from cogs.panels import panel_view
from engine.base import Game, State, event
from hosting import ratings
from hosting.botpool import done_within
from hosting.errors import TableError
from hosting.service import Move, Panel, TableService, keyed_lock, seat_name, status_sentence
from hosting.store import ABANDONED, ACTIVE, CANCELLED, FINISHED, LOBBY, Seat, TableRecord
from i18n import N_, say

log = logging.getLogger(__name__)

#: What each game calls a player's private panel.
PANEL_NAMES = {"haenyeo": N_("My hand"), "jeju": N_("My tiles"), "reef": N_("My sheet")}
#: A game without a name of its own for the panel.
PANEL_NAME = N_("My panel")
#: A table's status in one word (the list of a channel's tables).
STATUS_WORDS = {
    LOBBY: N_("lobby"),
    ACTIVE: N_("active"),
    FINISHED: N_("finished"),
    CANCELLED: N_("cancelled"),
    ABANDONED: N_("abandoned"),
}
#: How many event lines a board message repeats.
EVENT_LINES = 8
#: How much of a picture's description a board in words carries (the rest of 2,000 is the board).
DESCRIPTION_LIMIT = 1000
#: Discord's limit on an attachment's description (its alt text).
ALT_LIMIT = 1024
#: Running tables whose "already pinged in this step" list is kept (most recently posted).
PINGED_TABLES = 2048
#: A bot decision that takes longer than this (seconds) is shown on the board: "… is thinking…".
THINKING_NOTE_AFTER = 1.0


@dataclass(frozen=True)
class BoardWords:
    """A posted board's words, kept so the board can say a bot is thinking without being rebuilt."""

    message_id: int
    header: str
    lines: list[str]
    hidden: int
    waiting: str | None
    described: str | None
    #: The language the board speaks (its server's).
    lang: str = i18n.SOURCE

    def text(self, waiting: str | None = None) -> str:
        """The board's words, with another "Waiting for" line when given."""
        return board_text(
            self.header,
            self.lines,
            self.hidden,
            waiting or self.waiting,
            self.described,
            t=i18n.words(self.lang),
        )


def status_words(status: str, t: i18n.Words) -> str:
    """A table's status in words: "finished", "종료"."""
    return t(STATUS_WORDS[status]) if status in STATUS_WORDS else status


def hints_note(table: TableRecord, *, t: i18n.Words | None = None) -> str | None:
    """What the results say about hints: used, offered but unused, or nothing (hints off)."""
    t = t or i18n.words(i18n.SOURCE)
    hints = table.options.get("hints", "off")
    if hints == "used":
        return t("💡 Hints were used at this table (Suggest), so it is not rated.")
    if hints == "on":
        return t("💡 Hints were on at this table (nobody asked for one), so it is not rated.")
    return None


def thinking_line(seat: Seat, *, t: i18n.Words | None = None) -> str:
    """ "🤔 **Bot Dol (expert)** is thinking…": the board's note while a bot's decision takes long."""
    t = t or i18n.words(i18n.SOURCE)
    return t("🤔 **{name}** is thinking…", name=plain(seat_name(seat.name, t.lang)))


class TableGone(Exception):
    """The table's thread or channel no longer exists."""


SEAT_WORD = re.compile(r"\b[Ss]eat (\d+)\b")


def seat_names(table: TableRecord, lang: str = i18n.SOURCE) -> list[str]:
    """Display names per seat, bots marked, as a reader of ``lang`` reads them ("Bot Dol (고수)")."""
    return [
        f"🤖 {seat_name(s.name, lang)}"
        if s.is_bot and not s.name.endswith("(bot)")
        else seat_name(s.name, lang)
        for s in table.seats
    ]


def in_words(text: str, table: TableRecord) -> str:
    """An engine sentence with "Seat n" replaced by that player's name."""
    names = seat_names(table)

    def name(match: re.Match[str]) -> str:
        index = int(match.group(1)) - 1
        return f"**{plain(names[index])}**" if 0 <= index < len(names) else match.group(0)

    return SEAT_WORD.sub(name, text)


def event_line(e: dict, table: TableRecord, t: i18n.Words, *, bold: bool = True) -> str:
    """An engine event in ``t``'s language, its seats named by their players (``bold``: in **bold**).

    An event from before events carried their message (``"say"``) reads as its English text.
    """
    names = seat_names(table, t.lang)
    if "say" not in e:
        return in_words(e.get("text", ""), table) if bold else e.get("text", "")

    def name(index: int) -> str:
        if 0 <= index < len(names):
            return f"**{plain(names[index])}**" if bold else names[index]
        return t(i18n.SEAT_NAME, number=index + 1)

    return t.msg(e["say"], names=name)


def note_words(note: str | dict, table: TableRecord, t: i18n.Words) -> str:
    """A result's note (an English string or a message) in ``t``'s language."""
    if isinstance(note, str):
        return in_words(note, table)
    return event_line({"say": note}, table, t)


def waiting_for(
    table: TableRecord, seats: frozenset[int], what: str = "", *, t: i18n.Words | None = None
) -> str:
    """ "Waiting for …" naming exactly the awaited seats (humans as mentions), what to press, the deadline."""
    t = t or i18n.words(i18n.SOURCE)
    names = [
        plain(seat_name(table.seats[s].name, t.lang))
        if table.seats[s].is_bot
        else f"<@{table.seats[s].user_id}>"
        for s in sorted(seats)
    ]
    return t("Waiting for {names}", names=", ".join(names)) + what + clock_note(table, t=t)


def what_to_press(
    table: TableRecord, game: Game, state: State, seats: frozenset[int], *, t: i18n.Words | None = None
) -> str:
    """ " — open **My hand**: diving cards": where the awaited make their move, when it is one decision."""
    t = t or i18n.words(i18n.SOURCE)
    humans = [s for s in sorted(seats) if not table.seats[s].is_bot]
    decisions = {
        game.action_group(state, s, actions[0]) for s in humans if (actions := game.legal_actions(state, s))
    }
    if len(decisions) != 1:
        return ""
    panel = t(PANEL_NAMES.get(table.game, PANEL_NAME))
    return " — " + t("open **{panel}**: {decision}", panel=panel, decision=t(decisions.pop()).lower())


def board_header(table: TableRecord, game: Game, state: State, t: i18n.Words) -> str:
    """A board's first line: the game, the table and where the game stands."""
    summary = in_words(game.summary(state, lang=t.lang), table)
    return t("**{game}** · table #{id} · {summary}", game=t(game.title), id=table.id, summary=summary)


def clock_note(table: TableRecord, *, t: i18n.Words | None = None) -> str:
    """The table's clock in words: paused, or the deadline as a Discord timestamp."""
    t = t or i18n.words(i18n.SOURCE)
    if table.paused_at is not None:
        return " · " + t("⏸️ paused by the host")
    if table.deadline is not None:
        when = f"<t:{int(table.deadline)}:R>"
        return " · " + t("⏰ due {when}", when=when)
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
                await cog.open_panel(interaction, table)
            elif self.verb == "rules":
                await interaction.client.get_cog("Rules").show(interaction, table.game)  # type: ignore[union-attr]
            elif self.verb == "leave":
                await cog.ask_leave(interaction, table)
            else:
                t = await for_user(interaction)
                await reply(interaction, t("That button is not one of ours."))
        except Exception as error:
            await answer_error(interaction, error, self.table_id)


class LeaveAnswer(
    discord.ui.DynamicItem[discord.ui.Button], template=r"leave:(?P<answer>yes|no):(?P<table>\d+)"
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
        cog: Play = interaction.client.get_cog("Play")  # type: ignore[assignment]
        try:
            await interaction.response.defer()
            table = await tables(interaction).get(self.table_id)
            await cog.leave(interaction, table, edit=True)
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


def board_text(
    header: str,
    lines: list[str],
    hidden: int,
    waiting: str | None,
    described: str | None = None,
    *,
    t: i18n.Words | None = None,
) -> str:
    """A board's words within Discord's 2,000 characters: whole event lines go, oldest first.

    The header and the "Waiting for" line always stay, so a long game-over board
    never ends in the middle of a name. ``described`` is the picture in words,
    for a board that goes out without its picture.
    """
    t = t or i18n.words(i18n.SOURCE)
    picture = [f"🖼️ {described[:DESCRIPTION_LIMIT]}"] if described else []
    while True:
        note = (
            [
                t.plural(
                    "… and {count} earlier move (`/game log`)",
                    "… and {count} earlier moves (`/game log`)",
                    hidden,
                )
            ]
            if hidden
            else []
        )
        text = "\n".join([header, *note, *lines, *picture, *([waiting] if waiting else [])])
        if len(text) <= MESSAGE_LIMIT or not lines:
            return text[:MESSAGE_LIMIT]
        lines, hidden = lines[1:], hidden + 1


def as_files(picture: renderers.Picture | None) -> list[discord.File]:
    """The picture as an attachment with its alt text (none when there is no picture)."""
    if picture is None:
        return []
    alt = picture.alt[:ALT_LIMIT] if picture.alt else picture.alt
    return [discord.File(io.BytesIO(picture.png), filename=picture.filename, description=alt)]


def board_view(table: TableRecord, *, t: i18n.Words | None = None) -> discord.ui.View:
    """The buttons under a board message (in the board's language)."""
    t = t or i18n.words(i18n.SOURCE)
    view = dynamic_view()
    if table.status == ACTIVE:
        view.add_item(BoardButton("hand", table.id, t(PANEL_NAMES.get(table.game, PANEL_NAME))[:80]))
    view.add_item(BoardButton("rules", table.id, t("Rules")[:80]))
    if table.status == ACTIVE:
        view.add_item(BoardButton("leave", table.id, t("Leave")[:80]))
    return view


#: How many steps the replay's Jump menu offers (Discord's limit on a select's options).
JUMP_OPTIONS = 25


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"replay:(?P<verb>first|prev|next|last):(?P<table>\d+):(?P<step>\d+)",
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
        cog: Play = interaction.client.get_cog("Play")  # type: ignore[assignment]
        await cog.show_replay_step(interaction, self.table_id, self.step)


class ReplayJump(discord.ui.DynamicItem[discord.ui.Select], template=r"replay:jump:(?P<table>\d+)"):
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
        cog: Play = interaction.client.get_cog("Play")  # type: ignore[assignment]
        await cog.show_replay_step(interaction, self.table_id, int(self.item.values[0]))


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


def results_view(table: TableRecord, *, t: i18n.Words | None = None) -> discord.ui.View:
    """The buttons under a results message: Rematch (in the results' language)."""
    t = t or i18n.words(i18n.SOURCE)
    view = dynamic_view()
    view.add_item(RematchButton(table.id, t=t))
    return view


class Play(commands.Cog):
    """Runs started tables in their threads."""

    def __init__(self, bot: commands.Bot, bot_delay: float) -> None:
        self.bot = bot
        self.bot_delay = bot_delay
        # Board posts for one table happen one at a time, in order; a table's lock exists
        # only while a post for it runs or waits (`hosting.service.keyed_lock`).
        self._posting: dict[int, Any] = {}
        # Who has been pinged in each table's current step: one ping per player per step.
        # Dropped when a step starts or the table closes; at most `PINGED_TABLES` tables, the
        # least recently posted forgotten first (its next board may ping its awaited players again).
        self._pinged: OrderedDict[int, set[int]] = OrderedDict()
        # Whom each table's latest board waited for: a board within the same turn collapses its predecessor.
        self._awaited_at_board: OrderedDict[int, frozenset[int]] = OrderedDict()
        # The latest board's words, for tables with a bot that thinks in a worker (at most
        # `PINGED_TABLES`), and the board each table's "is thinking" note is on now.
        self._board_words: OrderedDict[int, BoardWords] = OrderedDict()
        self._noted: dict[int, int] = {}
        # Board edits for the thinking note go out one at a time per table, in order.
        self._noting: dict[int, Any] = {}
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

    async def picture(
        self, game_key: str, view: dict, names: list[str], *, lang: str = i18n.SOURCE
    ) -> renderers.Picture | None:
        """Draw a view off the event loop, in ``lang``; None (words only) for a game without pictures."""
        try:
            return await renderers.render_async(game_key, view, names, lang=lang)
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
        t = await for_user(interaction)
        await reply(interaction, t("That control is not one of ours, or it is no longer on this message."))

    # ------------------------------------------------------------ the thread

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a (re)start, let bot seats that owe a move make it (unless `resume_at_start` is off)."""
        if getattr(getattr(self.bot, "config", None), "resume_at_start", True):
            await self.resume_bots()

    async def resume_bots(self) -> None:
        """Let bot seats that owe a move make it (the bot may have stopped mid-chain).

        With several processes, each resumes only the tables of the servers its shards serve.
        """
        for table_id in await self.service.store.table_ids(ACTIVE, with_bots=True):
            table = await self.service.get(table_id)
            if serves(self.bot, table.guild_id) and self._bot_to_act(table):
                self.spawn(self.advance(table_id, []))

    @commands.Cog.listener()
    async def on_table_started(self, table: TableRecord) -> None:
        """A lobby started: post the first board, then let bots move."""
        await self.advance(table.id, [event("start", say("The game begins!"))], force=True, new_step=True)

    async def advance(
        self,
        table_id: int,
        events: list[dict],
        *,
        force: bool = False,
        mover: int | None = None,
        new_step: bool = False,
    ) -> None:
        """After a move: post a board when something public happened, then play bot seats.

        ``mover`` is the user whose own move this was (never pinged for it);
        ``new_step`` says the move started a new step (everyone awaited may be
        pinged again). A failed post never stops the bots: the table owes the
        board and the clock retries it.
        """
        async with keyed_lock(self._posting, table_id):
            if new_step:
                self._pinged.pop(table_id, None)
            public = [e for e in events if not e.get("private")]
            if public or force:
                await self.post_board(await self.service.get(table_id), public, mover=mover)
            public = []
            # Read after the post (it records the new board, or pauses or closes the table), then
            # the table as the bot's move left it: a player who moves meanwhile starts an advance
            # of their own (queued on this lock), and `play_bot` checks its decision against the
            # stored table under the table's lock.
            table = await self.service.get(table_id)
            while table.status == ACTIVE and self._bot_to_act(table):
                await asyncio.sleep(self.bot_delay)  # a moment, so people can follow
                try:
                    move = await self._bot_move(table)
                except Exception:
                    # Not a Discord failure: the clock comes back for this table.
                    log.exception(
                        "table %s: a bot seat could not move", table_id, extra={"table_id": table_id}
                    )
                    await self.service.owe_post(table_id)
                    break
                if move is None:
                    break
                if move.new_step:
                    self._pinged.pop(table_id, None)
                public.extend(e for e in move.events if not e.get("private"))
                table = move.table
            if public:
                await self.post_board(table, public)
            if table_id in self._noted:  # a thinking note is up: take it back (one read, then one edit)
                self._unnote(await self.service.get(table_id))
        if table.status != ACTIVE:
            self.forget(table_id)

    async def _bot_move(self, table: TableRecord) -> Move | None:
        """`TableService.play_bot`; when the decision takes over `THINKING_NOTE_AFTER`, the board says so.

        The note is one board edit in the background: the game never waits for it.
        """
        seat = self.service.next_bot(table)
        thinking = asyncio.ensure_future(self.service.play_bot(table.id, table))
        try:
            long = seat is not None and self.service.thinks_long(seat, table.game)
            if long and not await done_within(thinking, THINKING_NOTE_AFTER):
                self._note_thinking(table, seat)
            return await thinking
        finally:
            thinking.cancel()  # only when this chain was stopped (a restart): the new one asks again

    def _note_thinking(self, table: TableRecord, seat: Seat) -> None:
        """Put "… is thinking…" on the table's live board (in the background)."""
        words = self._board_words.get(table.id)
        if words is None or words.message_id != table.board_message_id:
            return  # posted by an earlier run of the bot: its words are not known here
        self._noted[table.id] = words.message_id
        t = i18n.words(words.lang)
        waiting = "\n".join(line for line in (words.waiting, thinking_line(seat, t=t)) if line)
        self.spawn(self._edit_words(table, words, waiting))

    def _unnote(self, table: TableRecord) -> None:
        """The bots are done: the live board loses its thinking note, its "Waiting for" brought up to date.

        A board that is no longer the live one keeps its note, as the log of what happened.
        """
        noted = self._noted.pop(table.id, None)
        words = self._board_words.get(table.id)
        if noted is None or words is None or noted != table.board_message_id or noted != words.message_id:
            return
        waiting = None
        if table.status == ACTIVE:
            t = i18n.words(words.lang)
            game = engine.get(table.game)
            state = self.service.state_of(table)
            awaited = game.to_act(state)
            waiting = waiting_for(table, awaited, what_to_press(table, game, state, awaited, t=t), t=t)
        self.spawn(self._edit_words(table, words, waiting))

    async def _edit_words(self, table: TableRecord, words: BoardWords, waiting: str | None) -> None:
        """Edit a board's words (its picture and buttons stay); a failure only loses the note."""
        async with keyed_lock(self._noting, table.id):
            try:
                channel = await table_channel(self.bot, table)
                if channel is None:
                    return
                old = channel.get_partial_message(words.message_id)  # type: ignore[union-attr]
                await old.edit(content=words.text(waiting), allowed_mentions=NO_PINGS)
            except (discord.HTTPException, AttributeError) as error:
                log.info(
                    "table %s: could not update its board's thinking note (%s)",
                    table.id,
                    error,
                    extra={"table_id": table.id},
                )

    def forget(self, table_id: int) -> None:
        """A table closed: nothing about its steps is kept any more (its posting lock goes by itself)."""
        self._pinged.pop(table_id, None)
        self._awaited_at_board.pop(table_id, None)
        self._board_words.pop(table_id, None)
        self._noted.pop(table_id, None)

    def _remember_words(self, table: TableRecord, words: BoardWords) -> None:
        """Keep a board's words when the table has a bot that may think long (`PINGED_TABLES` at most)."""
        if not any(s.is_bot and self.service.thinks_long(s, table.game) for s in table.seats):
            self._board_words.pop(table.id, None)
            return
        self._board_words[table.id] = words
        self._board_words.move_to_end(table.id)
        while len(self._board_words) > PINGED_TABLES:
            self._board_words.popitem(last=False)

    def _remember_awaited(self, table_id: int, awaited: frozenset[int]) -> None:
        """Who the table's latest board waited for (at most `PINGED_TABLES` tables remembered)."""
        self._awaited_at_board[table_id] = awaited
        self._awaited_at_board.move_to_end(table_id)
        while len(self._awaited_at_board) > PINGED_TABLES:
            self._awaited_at_board.popitem(last=False)

    def _bot_to_act(self, table: TableRecord) -> bool:
        game = engine.get(table.game)
        return any(table.seats[s].is_bot for s in game.to_act(self.service.state_of(table)))

    def _to_ping(self, table: TableRecord, awaited: frozenset[int], mover: int | None) -> set[int]:
        """The awaited players to ping on this board: those not yet pinged in this step, never the mover."""
        users = {table.seats[s].user_id for s in awaited if not table.seats[s].is_bot}
        users.discard(None)
        pinged = self._pinged.setdefault(table.id, set())
        self._pinged.move_to_end(table.id)
        while len(self._pinged) > PINGED_TABLES:
            self._pinged.popitem(last=False)
        ping = users - pinged - {mover}
        pinged.update(users)
        return ping  # type: ignore[return-value]

    async def post_board(self, table: TableRecord, events: list[dict], *, mover: int | None = None) -> None:
        """Post a new board message in the table's thread (and the results at the end).

        The previous board then loses its buttons, so the thread reads as a log
        with one live board at the bottom; within one turn (the same seats still
        to act) its picture collapses to its words too.

        Never raises: when Discord refuses or fails, the table remembers that it
        owes the message and the clock retries it with back-off; a deleted thread
        closes the table; a locked thread pauses it and tells the host.
        """
        try:
            await self._post_board(table, events, mover)
        except Exception as error:
            await self.post_failed(table, error)
            return
        if table.owed_posts:
            await self.service.post_paid(table.id)

    async def _retire_board(
        self, channel: discord.abc.Messageable, table: TableRecord, *, keep_picture: bool
    ) -> None:
        """Take the buttons (and, within a step, the picture) off the table's previous board."""
        try:
            old = channel.get_partial_message(table.board_message_id)  # type: ignore[attr-defined]
            if keep_picture:
                await old.edit(view=None)
            else:
                await old.edit(view=None, attachments=[])
        except (discord.HTTPException, AttributeError) as error:
            # Only tidiness is lost: the old board's buttons still answer with a link to the new one.
            log.info(
                "table %s: could not retire its previous board (%s)",
                table.id,
                error,
                extra={"table_id": table.id},
            )

    async def post_failed(self, table: TableRecord, error: Exception) -> None:
        """What a failed board or results post means for the table."""
        extra = {"table_id": table.id}
        if isinstance(error, TableGone) or is_gone(error):
            log.warning(
                "table %s: its thread or channel is gone; the table is abandoned", table.id, extra=extra
            )
            await self.service.abandon(table.id)
        elif isinstance(error, discord.HTTPException) and error.code == THREAD_LOCKED:
            log.warning("table %s: its thread is locked; the table is paused", table.id, extra=extra)
            if await self.service.pause_for(table.id) is not None:
                t = await for_dm(self.bot, table.host_id)
                await self.tell_host(
                    table,
                    t(
                        "Your table #{id} ({game}) is paused: a moderator locked its thread. "
                        "Once it is unlocked, use `/game resume` there: {link}",
                        id=table.id,
                        game=t(engine.get(table.game).title),
                        link=table_link(table),
                    ),
                )
        else:
            retry = await self.service.owe_post(table.id)
            log.warning(
                "table %s: could not post its board (%s); retrying at %.0f",
                table.id,
                error,
                retry,
                extra=extra,
                exc_info=not isinstance(error, discord.HTTPException),
            )

    async def tell_host(self, table: TableRecord, text: str) -> None:
        """A direct message to the table's host (logged when their DMs are closed)."""
        clock = self.bot.get_cog("Clock")
        if clock is None or not await clock.direct_message(table.host_id, text):  # type: ignore[attr-defined]
            log.info("table %s: could not tell the host by DM", table.id, extra={"table_id": table.id})

    async def _post_board(self, table: TableRecord, events: list[dict], mover: int | None) -> None:
        channel = await table_channel(self.bot, table)
        if channel is None:
            raise TableGone()
        t = await for_public(self.bot, table)
        game = engine.get(table.game)
        state = self.service.state_of(table)
        names = seat_names(table, t.lang)
        picture = await self.picture(table.game, game.view(state, None), names, lang=t.lang)
        shown = [event_line(e, table, t) for e in headline(events)]
        header = board_header(table, game, state, t)
        awaited = game.to_act(state) if table.status == ACTIVE else frozenset()
        waiting = (
            waiting_for(table, awaited, what_to_press(table, game, state, awaited, t=t), t=t)
            if table.status == ACTIVE
            else None
        )
        mentions = pinging(self._to_ping(table, awaited, mover))
        perms = bot_permissions(channel)
        described = None
        if picture is not None and (perms is None or perms.attach_files):
            text = board_text(header, shown, len(events) - len(shown), waiting, t=t)
            try:
                message = await channel.send(
                    text, files=as_files(picture), view=board_view(table, t=t), allowed_mentions=mentions
                )
            except discord.Forbidden as error:
                if error.code != MISSING_PERMISSIONS:
                    raise
                message = None  # no Attach Files here: the board goes out in words
        else:
            message = None
        if message is None:
            described = picture.alt if picture is not None else None
            text = board_text(header, shown, len(events) - len(shown), waiting, described, t=t)
            message = await channel.send(text, view=board_view(table, t=t), allowed_mentions=mentions)
        await self.service.attach(table.id, board_message_id=message.id)
        self._remember_words(
            table,
            BoardWords(message.id, header, shown, len(events) - len(shown), waiting, described, t.lang),
        )
        if table.board_message_id:
            # The same seats still to act: a move within a turn, whose picture the new board replaces.
            within_turn = self._awaited_at_board.get(table.id) == awaited
            await self._retire_board(channel, table, keep_picture=not within_turn)
        self._remember_awaited(table.id, awaited)
        if table.status == FINISHED:
            await self.post_results(channel, table, t=t)
            await self.archive(table)

    async def post_results(
        self, channel: discord.abc.Messageable, table: TableRecord, *, t: i18n.Words | None = None
    ) -> None:
        """The final ranking, the score breakdown and the results picture (in words without Embed Links).

        In ``t``'s language: the server's, as the board's.
        """
        t = t or await for_public(self.bot, table)
        game = engine.get(table.game)
        result = table.result or {}
        names = seat_names(table, t.lang)
        order = sorted(range(len(table.seats)), key=lambda s: (result["ranking"][s], s))
        medals = {1: "🥇", 2: "🥈", 3: "🥉"}
        lines = []
        changes = {c.seat: c for c in await self.service.rating_changes(table.id)}
        for seat in order:
            place = result["ranking"][seat]
            points = result["breakdown"][seat].items()
            parts = " · ".join(
                t("{category}: {points}", category=game.breakdown_label(k, lang=t.lang), points=v)
                for k, v in points
                if k != "total"
            )
            won = " — " + t("**wins**") if seat in result["winners"] else ""
            rated = f" · {ratings.change_text(changes[seat], t=t)}" if seat in changes else ""
            medal = medals.get(place) or t("{place}.", place=place)
            score = t(
                "{place} {name}: **{score}**",
                place=medal,
                name=plain(names[seat]),
                score=result["scores"][seat],
            )
            lines.append(f"{score}{won}{rated}\n-# {parts}")
        notes = [note_words(note, table, t)[:1000] for note in result.get("notes", [])[:3]]
        unrated = ratings.unrated_reason(table, result, t=t)
        hints = hints_note(table, t=t)
        if hints:
            notes.append(hints)
        if unrated and not changes:
            notes.append(unrated)
        title = t("{game} — final ranking", game=t(game.title))
        try:
            picture: renderers.Picture | None = await renderers.render_results_async(
                table.game, game.view(self.service.state_of(table), None), names, lang=t.lang
            )
        except renderers.RenderError:
            picture = None  # a game without a results picture: the ranking in words is the results
        perms = bot_permissions(channel)
        files_allowed = picture is not None and (perms is None or perms.attach_files)
        files = as_files(picture) if files_allowed else []
        if perms is None or perms.embed_links:
            embed = discord.Embed(
                title=title, description="\n".join(lines)[:4000], colour=discord.Colour.gold()
            )
            for note in notes:
                embed.add_field(name=t("Note"), value=note, inline=False)
            if files_allowed:
                embed.set_image(url=f"attachment://{picture.filename}")  # type: ignore[union-attr]
            await channel.send(
                embed=embed, files=files, view=results_view(table, t=t), allowed_mentions=NO_PINGS
            )
            return
        # Without Embed Links Discord drops embeds silently: the results go out as text.
        text = fit_lines(
            f"**{title}**",
            [*lines, *(f"-# {note}" for note in notes)],
            more=lambda count: t("… and {count} more.", count=count),
        )
        await channel.send(text, files=files, view=results_view(table, t=t), allowed_mentions=NO_PINGS)

    # ------------------------------------------------------------ deleted places

    async def abandon_tables(self, found: list[TableRecord], why: str) -> None:
        """Close open tables whose thread, channel or server is gone (their clocks stop)."""
        for table in found:
            self.forget(table.id)
            if await self.service.abandon(table.id) is not None:
                log.info("table %s abandoned: %s", table.id, why, extra={"table_id": table.id})

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A table's thread was deleted: the table is abandoned."""
        await self.abandon_tables(
            await self.service.store.open_tables_in(payload.thread_id), "thread deleted"
        )

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: its tables, and those in its threads (archived ones too), are abandoned."""
        await self.abandon_tables(await self.service.store.open_tables_in(channel.id), "channel deleted")

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server: every open table there is abandoned."""
        await self.abandon_tables(await self.service.store.open_tables_in_guild(guild.id), "bot removed")

    # ------------------------------------------------------------ the panel

    async def panel_message(
        self,
        table: TableRecord,
        seat: int,
        note: str = "",
        after_move: bool = False,
        *,
        t: i18n.Words | None = None,
    ) -> dict:
        """The content, picture and controls of a seat's private panel (``after_move``: it just moved).

        In ``t``'s language: the player's own.
        """
        t = t or i18n.words(i18n.SOURCE)
        game = engine.get(table.game)
        state = self.service.state_of(table)
        panel: Panel = self.service.panel(table, seat, lang=t.lang)
        picture = await self.picture(
            table.game, game.view(state, seat), seat_names(table, t.lang), lang=t.lang
        )
        if table.status != ACTIVE:
            status = t.msg(status_sentence(table))
        elif table.paused_at is not None:
            status = t("This table is paused: moves wait until the host resumes it.")
        elif panel.choices:
            status = t("Your move: choose below.")
        elif after_move or (seat not in game.to_act(state) and game.legal_actions(state, seat)):
            # Just confirmed (or reopened after confirming: the engine would still take a move the
            # table no longer offers, `TableService.panel`): nothing can change, until when the others have.
            status = t(
                "Done: your move is in and can't be changed now. {waiting}",
                waiting=waiting_for(table, game.to_act(state), t=t),
            )
        else:
            status = t(
                "Nothing to do right now. {waiting}", waiting=waiting_for(table, game.to_act(state), t=t)
            )
        content = "\n".join(line for line in (note, status) if line)[:MESSAGE_LIMIT]
        hints = table.options.get("hints", "off") != "off" and table.status == ACTIVE
        view = panel_view(table.id, panel, hints=hints, t=t)
        return {"content": content, "attachments": as_files(picture), "view": view}

    async def suggest(self, interaction: discord.Interaction, table_id: int) -> None:
        """**Suggest**: the move the expert would pick for the clicker's seat, and why.

        Shown at the top of the clicker's own panel (the ephemeral message the button
        is on), edited in place: one answer at a time, never a pile of messages. The
        expert sees only what this seat sees. The first hint marks the table, so its
        results say hints were used and it moves no rating.
        """
        try:
            await interaction.response.defer()  # a search may take a moment; the panel shows the answer
            t = await for_user(interaction)
            try:
                hint = await self.service.suggest(table_id, interaction.user.id, lang=t.lang)
            except TableError as refusal:  # said in the panel too, in place of an answer
                hint, note = None, "💡 " + t.msg(refusal.say)
            table = await self.service.get(table_id)
        except Exception as error:
            await answer_error(interaction, error, table_id)
            return
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.status != ACTIVE:
            await reply(interaction, t.msg(status_sentence(table)))
            return
        if hint is None:
            pass
        elif hint.moves != table.moves:
            note = t("💡 The table moved on meanwhile: press Suggest again for the move now.")
        else:
            note = t(
                "💡 The expert would pick **{move}**.\n-# {why}",
                move=plain(hint.label),
                why=plain(t.msg(hint.why)),
            )
        try:
            message = await self.panel_message(table, seat.seat, note=note, t=t)
            await interaction.edit_original_response(allowed_mentions=NO_PINGS, **message)
        except Exception as error:
            await answer_error(interaction, error, table_id)

    async def open_panel(self, interaction: discord.Interaction, table: TableRecord) -> None:
        """Send the clicking player their private panel (ephemeral)."""
        t = await for_user(interaction)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await reply(interaction, t("You are not seated at this table."))
            return
        if table.status != ACTIVE:
            await reply(interaction, t.msg(status_sentence(table)))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        message = await self.panel_message(table, seat.seat, t=t)
        files = message.pop("attachments")
        await interaction.followup.send(ephemeral=True, allowed_mentions=NO_PINGS, files=files, **message)

    async def choose(self, interaction: discord.Interaction, table_id: int, token: str, index: int) -> None:
        """Apply a choice from a panel, refresh the panel, and move the table on."""
        service = self.service
        try:
            await interaction.response.defer()
            t = await for_user(interaction)
            move: Move = await service.submit(table_id, interaction.user.id, token, index)
        except TableError as error:
            await self._refresh_after_refusal(interaction, table_id, t.msg(error.say), t=t)
            return
        except Exception as error:
            await answer_error(interaction, error, table_id)
            return
        self.spawn(self.advance(table_id, move.events, mover=interaction.user.id, new_step=move.new_step))
        try:
            mine = [
                event_line(e, move.table, t, bold=False)
                for e in move.events
                if e.get("private") and e.get("seat") == move.seat
            ]
            message = await self.panel_message(
                move.table, move.seat, note="\n".join(mine), after_move=True, t=t
            )
            await interaction.edit_original_response(allowed_mentions=NO_PINGS, **message)
        except Exception as error:  # the move stands; only the refreshed panel is missing
            await answer_error(interaction, error, table_id)

    async def _refresh_after_refusal(
        self, interaction: discord.Interaction, table_id: int, why: str, *, t: i18n.Words | None = None
    ) -> None:
        """Say why a choice was refused, and show the current choices instead of stale ones."""
        t = t or i18n.words(i18n.SOURCE)
        await interaction.followup.send(why[:MESSAGE_LIMIT], ephemeral=True, allowed_mentions=NO_PINGS)
        try:
            table = await self.service.get(table_id)
        except TableError:
            return
        seat = table.seat_of(interaction.user.id)
        if seat is not None and table.status == ACTIVE:
            message = await self.panel_message(table, seat.seat, t=t)
            await interaction.edit_original_response(allowed_mentions=NO_PINGS, **message)

    async def ask_leave(self, interaction: discord.Interaction, table: TableRecord) -> None:
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

    async def leave(
        self, interaction: discord.Interaction, table: TableRecord, *, edit: bool = False
    ) -> None:
        """Hand the player's seat to a bot and tell the table (``edit``: answer in the asking message)."""
        table = await self.service.hand_to_bot(table.id, interaction.user.id)
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
        self.spawn(self.advance(table.id, [left]))

    # ------------------------------------------------------------ /game

    game_group = app_commands.Group(
        name=locale_str("game"), description=locale_str("The table in this thread"), guild_only=True
    )

    async def _table_here(self, interaction: discord.Interaction, table_id: int | None = None) -> TableRecord:
        """The table a `/game` command is about: in a thread, its table; in a shared channel, the caller's.

        Where several tables play in one channel (no thread permission, the thread
        cap, offline mode), the caller's own open table is taken; with several of
        their own, the ``table`` option says which.
        """
        here = interaction.channel_id
        if table_id is not None:
            table = await self.service.get(table_id)
            if table_channel_id(table) != here:
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
            missing = await self.board_missing(found)
            game = engine.get(found.game)
            state = self.service.state_of(found)
            picture = await self.picture(
                found.game, game.view(state, None), seat_names(found, t.lang), lang=t.lang
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
                self.spawn(self.advance(found.id, [], force=True))
            if found.seat_of(interaction.user.id) is not None:
                seat = found.seat_of(interaction.user.id)
                message = await self.panel_message(found, seat.seat, t=t)  # type: ignore[union-attr]
                files = message.pop("attachments")
                await interaction.followup.send(
                    ephemeral=True, allowed_mentions=NO_PINGS, files=files, **message
                )
        except Exception as error:
            await answer_error(interaction, error)

    async def board_missing(self, table: TableRecord) -> bool:
        """True when the table's board message was deleted (or never posted)."""
        if not table.board_message_id:
            return True
        channel = await table_channel(self.bot, table)
        if channel is None or not hasattr(channel, "fetch_message"):
            return False
        try:
            await channel.fetch_message(table.board_message_id)  # type: ignore[union-attr]
        except discord.NotFound as error:
            return error.code == UNKNOWN_MESSAGE
        except discord.HTTPException:
            return False
        return False

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
        found = await self.service.get(table_id)
        if found.guild_id != interaction.guild_id and not found.held_by(interaction.user.id):
            raise TableError(say("Table #{id} was not played in this server.", id=table_id))
        return found

    async def replay_message(
        self, table: TableRecord, steps: list, index: int, *, t: i18n.Words | None = None
    ) -> dict:
        """One step of a replay: the public picture, the public events that led to it, and the controls.

        In ``t``'s language: the viewer's (a replay is shown to them alone).
        """
        t = t or i18n.words(i18n.SOURCE)
        index = max(0, min(index, len(steps) - 1))
        step = steps[index]
        game = engine.get(table.game)
        picture = await self.picture(
            table.game, game.view(step.state, None), seat_names(table, t.lang), lang=t.lang
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
            message = await self.replay_message(found, steps, 0, t=await for_user(interaction))
            files = message.pop("attachments")
            await interaction.followup.send(ephemeral=True, allowed_mentions=NO_PINGS, files=files, **message)
        except Exception as error:
            await answer_error(interaction, error)

    async def show_replay_step(self, interaction: discord.Interaction, table_id: int, index: int) -> None:
        """A replay control was used: show that step in the same ephemeral message."""
        try:
            await interaction.response.defer()
            table, steps = await self.service.replay_steps(table_id)
            message = await self.replay_message(table, steps, index, t=await for_user(interaction))
            await interaction.edit_original_response(allowed_mentions=NO_PINGS, **message)
        except Exception as error:
            await answer_error(interaction, error, table_id)

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
            await self.leave(interaction, await self._table_here(interaction, table))
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
        await self.announce(
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
        """Resume the paused table in this thread; the deadline moves on by the time it was paused."""
        try:
            await interaction.response.defer(ephemeral=True)  # answer first: the write may wait
            found = await self._table_here(interaction, table)
            await self.service.resume(found.id, interaction.user.id, can_manage=can_manage(interaction))
        except Exception as error:
            await answer_error(interaction, error)
            return
        t = await for_user(interaction)
        await reply(interaction, t("The table is running again."))
        resumed = event("resume", say("{name} resumed the table.", name=plain(interaction.user.display_name)))
        self.spawn(self.advance(found.id, [resumed], force=True, new_step=True))

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
        self.spawn(self.advance(found.id, [handed], new_step=True))

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
        self.forget(found.id)
        t = await for_user(interaction)
        await reply(interaction, t("Table #{id} is ended.", id=found.id))
        t = await for_public(self.bot, found)
        await self.announce(
            found,
            t(
                "{user} ended this table: no result, and no rating changes. "
                "Its log stays readable with `/game log`.",
                user=interaction.user.mention,
            ),
        )
        await self.archive(found)

    async def announce(self, table: TableRecord, text: str) -> None:
        """A notice for everyone at the table, in its thread (logged when Discord refuses it)."""
        try:
            channel = await table_channel(self.bot, table)
            if channel is not None:
                await channel.send(text, allowed_mentions=NO_PINGS)
        except discord.HTTPException as error:
            log.warning(
                "table %s: could not post a notice (%s)", table.id, error, extra={"table_id": table.id}
            )

    async def archive(self, table: TableRecord) -> None:
        """Archive a closed table's own thread, so old games don't use up the server's active threads."""
        if not table.thread_id:
            return
        try:
            thread = self.bot.get_channel(table.thread_id) or await self.bot.fetch_channel(table.thread_id)
            if isinstance(thread, discord.Thread) and not thread.archived:
                await thread.edit(archived=True)
        except discord.HTTPException as error:
            log.info(
                "table %s: could not archive its thread (%s)", table.id, error, extra={"table_id": table.id}
            )


async def setup(bot: commands.Bot) -> None:
    """Load the play cog and its persistent components."""
    from cogs.panels import ChoiceButton, ChoiceSelect, SuggestButton

    bot.add_dynamic_items(
        BoardButton, LeaveAnswer, ReplayButton, ReplayJump, ChoiceButton, ChoiceSelect, SuggestButton
    )
    await bot.add_cog(Play(bot, bot_delay=bot.config.bot_delay))  # type: ignore[attr-defined]
