"""The table runner: a table's life after a move, and every post the table owes.

One `TableRunner` per bot, built in `GameBot.setup_hook` and handed to the cogs
that need it (the Play cog's commands and buttons, the clock, the lobby): after
a move it posts the board, lets bot seats play, posts the results, and keeps
the thinking note. It is not a cog: nothing finds it by name.

Every post goes through `TableRunner._deliver`'s rules (`cogs.delivery`):
before posting, the bot's permissions are read from discord.py's cache, so a
post Discord would refuse is not even sent; when Discord refuses anyway, its
answer decides what happens to the table:

* *transient* (5xx, a timeout, 429): the table owes the post and the clock
  tries again later (back-off, never in the past, never past the table's
  budget of refused requests);
* *blocked* (Missing Permissions, Missing Access while the bot is still in the
  server, a locked thread): the table pauses (its clock stops, nobody is timed
  out, bot seats wait), the host is told once, and the table runs again by
  itself when Discord shows the cause gone (`recheck`) or by `/game resume`;
* *gone* (Unknown Channel, or the server no longer has the bot): the table
  closes as abandoned.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.http import Route

import engine
import i18n
import renderers
from cogs.board import (
    BoardWords,
    as_files,
    board_header,
    board_text,
    board_view,
    event_line,
    headline,
    hints_note,
    note_words,
    results_view,
    seat_names,
    thinking_line,
    waiting_for,
    what_to_press,
)
from cogs.common import (
    NO_PINGS,
    UNKNOWN_MESSAGE,
    Mentions,
    bot_permissions,
    fit_lines,
    pinging,
    plain,
    serves,
    table_channel_id,
    table_link,
)
from cogs.delivery import (
    ClosedDMs,
    RefusalBudget,
    Verdict,
    missing_to_post,
    refused_dm,
    thread_locked,
    verdict,
)
from cogs.language import for_dm, for_public
from engine.base import event
from hosting import counts, ratings
from hosting.botpool import done_within
from hosting.records import ACTIVE, FINISHED, Seat, TableRecord
from hosting.service import Move, TableService, keyed_lock
from i18n import N_, say

log = logging.getLogger(__name__)

#: Running tables whose "already pinged in this step" list is kept (most recently posted).
PINGED_TABLES = 2048
#: A bot decision that takes longer than this (seconds) is shown on the board: "… is thinking…".
THINKING_NOTE_AFTER = 1.0
#: Blocked tables that post their board at once when Discord lets the bot back (the rest wait their turn).
RESUMES_AT_ONCE = 4
#: Tables named in one host's note that a change blocked several of theirs (the rest are counted).
TABLES_NAMED = 20
#: Direct-message channels remembered (user id -> channel id), most recently used kept.
DM_CHANNELS_KEPT = 1000
#: Discord's names of the permissions the bot needs to post, as its settings show them.
PERMISSION_NAMES = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
}


class TableGone(Exception):
    """The table's thread or channel no longer exists."""


class Undeliverable(Exception):
    """A post was not sent: discord.py's cache already shows Discord would refuse it."""

    def __init__(self, verdict: Verdict, missing: tuple[str, ...] = (), *, locked: bool = False) -> None:
        super().__init__(verdict.value)
        self.verdict = verdict
        self.missing = missing
        self.locked = locked


class OverBudget(Exception):
    """The table has used its refused requests for now: the post waits ``wait`` seconds."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"over its budget of refused requests for {wait:.0f} s")
        self.wait = wait


class TableRunner:
    """Runs started tables in their threads: boards, bot seats, results, and what Discord's answers mean."""

    def __init__(
        self,
        bot: discord.Client,
        service: TableService,
        *,
        bot_delay: float = 0.0,
        budget: RefusalBudget | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.bot_delay = bot_delay
        #: The bot's refused requests, per table and in all (`cogs.delivery`).
        self.budget = budget or RefusalBudget(service.now)
        #: Players whose DMs refused the bot: reminders go to the thread until they use the bot again.
        self.closed_dms = ClosedDMs()
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
        self._dm_channels: OrderedDict[int, int] = OrderedDict()
        self._tasks: set[asyncio.Task] = set()
        # The task advancing each table now (a spawned chain, or a click's own handler).
        self._advancing: dict[asyncio.Task, int] = {}
        # Tables running again after a block post their boards a few at a time (`_resume`).
        self._resuming = asyncio.Semaphore(RESUMES_AT_ONCE)
        #: Called with a finished table and its channel after its results are posted, before its
        #: thread is archived (the daily Reef's note of the day's board: `cogs.daily`).
        self.finished_hooks: list[Callable[[TableRecord, discord.abc.Messageable], Awaitable[None]]] = []

    # ------------------------------------------------------------ background work

    def spawn(self, coroutine) -> None:
        """Run table work in the background, keeping a reference and logging failures."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table work failed", exc_info=task.exception())

    def stop(self) -> None:
        """Cancel the background work (the bot is closing; what is owed is in the database)."""
        for task in self._tasks:
            task.cancel()

    async def drain(self, grace: float) -> list[int]:
        """Shutting down: let the work under way (moves, bot chains, posts) finish within ``grace``
        seconds, then stop the rest and record that each of those tables owes its board; the ids.

        People's moves are refused meanwhile (`TableService.stop_taking_moves`). The next start
        posts what is owed (the clock) and lets bot seats that owe a move make it (`resume_bots`).
        """
        self.service.stop_taking_moves()
        started = asyncio.get_running_loop().time()
        try:  # people's moves under way commit first: their clicks were acknowledged
            await asyncio.wait_for(self.service.moves_done(), grace)
        except TimeoutError:
            log.warning("shutting down: a person's move was still under way after %.0f s", grace)
        grace = max(0.0, grace - (asyncio.get_running_loop().time() - started))
        pending = {task for task in (*self._tasks, *self._advancing) if not task.done()}
        pending.discard(asyncio.current_task())  # type: ignore[arg-type]
        if pending:
            _, pending = await asyncio.wait(pending, timeout=grace)
        owed = sorted({self._advancing[task] for task in pending if task in self._advancing})
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for table_id in owed:
            await self.service.owe_post(table_id)
        return owed

    async def picture(
        self, game_key: str, view: dict, names: list[str], *, lang: str = i18n.SOURCE
    ) -> renderers.Picture | None:
        """Draw a view off the event loop, in ``lang``; None (words only) for a game without pictures."""
        try:
            return await renderers.render_async(game_key, view, names, lang=lang)
        except renderers.RenderError:
            log.warning("no picture for %s; posting the board in words", game_key)
            return None

    # ------------------------------------------------------------ a table's life

    async def resume_bots(self) -> None:
        """Let bot seats that owe a move make it (the bot may have stopped mid-chain).

        With several processes, each resumes only the tables of the servers its shards serve.
        """
        for table_id in await self.service.store.table_ids(ACTIVE, with_bots=True):
            table = await self.service.get(table_id)
            if serves(self.bot, table.guild_id) and self.bot_to_act(table):
                self.spawn(self.advance(table_id, []))

    async def advance(
        self,
        table_id: int,
        events: list[dict],
        *,
        force: bool = False,
        mover: int | None = None,
        new_step: bool = False,
        clicked_at: datetime.datetime | None = None,
    ) -> None:
        """After a move: post a board when something public happened, then play bot seats.

        ``mover`` is the user whose own move this was (never pinged for it), ``clicked_at``
        when they clicked (the metrics' click-to-board time);
        ``new_step`` says the move started a new step (everyone awaited may be
        pinged again). A failed post never stops the bots unless it blocked the
        table: the table owes the board and the clock retries it.
        """
        task = asyncio.current_task()
        if task is not None:
            self._advancing[task] = table_id
        try:
            await self._advance(
                table_id, events, force=force, mover=mover, new_step=new_step, clicked_at=clicked_at
            )
        finally:
            if task is not None:
                self._advancing.pop(task, None)

    async def _advance(
        self,
        table_id: int,
        events: list[dict],
        *,
        force: bool,
        mover: int | None,
        new_step: bool,
        clicked_at: datetime.datetime | None,
    ) -> None:
        async with keyed_lock(self._posting, table_id):
            if new_step:
                self._pinged.pop(table_id, None)
            public = [e for e in events if not e.get("private")]
            if public or force:
                await self.post_board(
                    await self.service.get(table_id), public, mover=mover, clicked_at=clicked_at
                )
            public = []
            # Read after the post (it records the new board, or pauses or closes the table), then
            # the table as the bot's move left it: a player who moves meanwhile starts an advance
            # of their own (queued on this lock), and `play_bot` checks its decision against the
            # stored table under the table's lock.
            table = await self.service.get(table_id)
            while table.status == ACTIVE and self.bot_to_act(table):
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
                if move.hurried:  # say so on the board: the player did not face the bot's best
                    public.append(
                        event("hurried", say("⏱️ {seat} had to move quickly.", seat=i18n.seat(move.seat)))
                    )
                public.extend(e for e in move.events if not e.get("private"))
                table = move.table
            if public:
                await self.post_board(table, public)
            if table_id in self._noted:  # a thinking note is up: take it back (one read, then one edit)
                self._unnote(await self.service.get(table_id))
        if table.status != ACTIVE:
            self.forget(table_id)

    def bot_to_act(self, table: TableRecord) -> bool:
        """True when a bot seat owes a move now (never while the table is paused or blocked)."""
        if table.paused_at is not None:
            return False
        game = engine.get(table.game)
        return any(table.seats[s].is_bot for s in game.to_act(self.service.state_of(table)))

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

    def forget(self, table_id: int) -> None:
        """A table closed: nothing about its steps is kept any more (its posting lock goes by itself)."""
        self._pinged.pop(table_id, None)
        self._awaited_at_board.pop(table_id, None)
        self._board_words.pop(table_id, None)
        self._noted.pop(table_id, None)

    # ------------------------------------------------------------ the thinking note

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
                channel = await self.channel_of(table)
                old = channel.get_partial_message(words.message_id)  # type: ignore[union-attr]
                await old.edit(content=words.text(waiting), allowed_mentions=NO_PINGS)
            except (discord.HTTPException, AttributeError, TableGone, Undeliverable) as error:
                self._count(error, table)
                log.info(
                    "table %s: could not update its board's thinking note (%s)",
                    table.id,
                    error,
                    extra={"table_id": table.id},
                )

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

    # ------------------------------------------------------------ where a table posts

    def in_server(self, table: TableRecord) -> bool:
        """Whether the bot is still in the table's server (always, for a table in DMs)."""
        return table.guild_id is None or self.bot.get_guild(table.guild_id) is not None

    async def channel_of(self, table: TableRecord) -> discord.abc.Messageable:
        """The table's thread (or channel), ready to post in, or why not.

        Raises `TableGone` when the channel is gone, `Undeliverable` when
        discord.py's cache shows Discord would refuse a post there (the server
        no longer has the bot, a permission is missing, the thread is locked),
        and `OverBudget` while the table has used its refused requests. An
        archived thread is missing from the cache after a restart, so a cache
        miss is fetched, and a fetch that fails for a passing reason still leaves
        a partial messageable (sending unarchives a thread).
        """
        if not self.in_server(table):
            raise Undeliverable(Verdict.GONE)
        wait = self.budget.table_wait(table.id)
        if wait > 0:
            raise OverBudget(wait)
        channel_id = table_channel_id(table)
        channel: Any = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.NotFound as error:
                raise TableGone() from error
            except discord.Forbidden:
                raise
            except discord.HTTPException:
                return self.bot.get_partial_messageable(channel_id, guild_id=table.guild_id)
        refused = _refused(channel)
        if refused is not None:
            raise refused
        return channel

    def cause(self, table: TableRecord, seen: discord.Thread | None = None) -> Undeliverable | None:
        """Why the table's channel is refused to the bot, from discord.py's cache (None: it seems fine).

        ``seen`` is the table's thread as a THREAD_UPDATE just showed it (discord.py
        drops an archived thread from its cache); a thread missing from the cache
        is judged by its parent channel.
        """
        if not self.in_server(table):
            return Undeliverable(Verdict.GONE)
        channel: Any = self.bot.get_channel(table_channel_id(table))
        if seen is not None and seen.id == table.thread_id:
            channel = seen
        if channel is None and table.thread_id:
            parent = self.bot.get_channel(table.channel_id)
            return None if parent is None else _refused(parent, in_thread=True)
        return None if channel is None else _refused(channel)

    async def check(self, table: TableRecord) -> Undeliverable | None:
        """`cause`, asking Discord for the table's thread when discord.py has dropped it (archived).

        For a person's explicit request (`/game resume`): one read, which an open
        thread answers without a refusal.
        """
        cause = self.cause(table)
        if cause is not None or not table.thread_id or self.bot.get_channel(table.thread_id) is not None:
            return cause
        if self.budget.table_wait(table.id) > 0:  # pressed again and again: no more refused reads
            return Undeliverable(Verdict.BLOCKED)
        try:
            thread = await self.bot.fetch_channel(table.thread_id)
        except discord.NotFound:
            return Undeliverable(Verdict.GONE)
        except discord.HTTPException as error:
            self._count(error, table)
            return Undeliverable(Verdict.BLOCKED) if error.status == 403 else None
        return self.cause(table, thread if isinstance(thread, discord.Thread) else None)

    def _count(self, error: BaseException, table: TableRecord | None = None) -> None:
        """Count a refused request (401, 403, 429) against the table and the process."""
        if isinstance(error, discord.HTTPException):
            self.budget.record(error.status, None if table is None else table.id)

    # ------------------------------------------------------------ the board

    async def post_board(
        self,
        table: TableRecord,
        events: list[dict],
        *,
        mover: int | None = None,
        clicked_at: datetime.datetime | None = None,
    ) -> None:
        """Post a new board message in the table's thread (and the results at the end).

        The previous board then loses its buttons, so the thread reads as a log
        with one live board at the bottom; within one turn (the same seats still
        to act) its picture collapses to its words too.

        Never raises: what a failure means for the table is `undelivered`'s.
        """
        try:
            await self._post_board(table, events, mover)
        except Exception as error:
            await self.undelivered(table, error)
            return
        counts.board_posted(clicked_at)
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
            self._count(error, table)
            log.info(
                "table %s: could not retire its previous board (%s)",
                table.id,
                error,
                extra={"table_id": table.id},
            )

    def judge(self, table: TableRecord, error: BaseException) -> Verdict:
        """What a failed post means for the table (`cogs.delivery.verdict`, and this module's own reasons)."""
        if isinstance(error, TableGone):
            return Verdict.GONE
        if isinstance(error, Undeliverable):
            return error.verdict
        if isinstance(error, OverBudget):
            return Verdict.TRANSIENT
        return verdict(error, in_server=self.in_server(table))

    async def undelivered(self, table: TableRecord, error: Exception, *, owed: bool = True) -> Verdict:
        """What a failed post means for the table: retry later, pause, or close; the verdict.

        ``owed``: the post is one the table owes (a board, the results), retried
        when the failure passes; a note (a reminder, a notice) is not.
        """
        self._count(error, table)
        judged = self.judge(table, error)
        if judged is Verdict.GONE:
            await self.gone(table, f"Discord answered {error}")
        elif judged is Verdict.BLOCKED:
            if owed or table.status == ACTIVE:  # a note about a closed table blocks nothing
                await self.block(table, error if isinstance(error, Undeliverable) else self.cause(table))
        elif owed:
            wait = self.budget.retry_wait(table.id, error.wait if isinstance(error, OverBudget) else 0.0)
            retry = await self.service.owe_post(table.id, not_before=self.service.now() + wait)
            log.warning(
                "table %s: could not post its board (%s); retrying at %.0f",
                table.id,
                error,
                retry,
                extra={"table_id": table.id},
                exc_info=not isinstance(error, discord.HTTPException | OverBudget),
            )
        return judged

    async def gone(self, table: TableRecord, why: str) -> None:
        """The table's thread, channel or server is gone: it closes as abandoned."""
        await self.abandon_tables([table], why)

    async def block(self, table: TableRecord, cause: Undeliverable | None, *, tell: bool = True) -> bool:
        """Discord refuses the table's channel to the bot: pause the table and tell the host, once.

        False when it was already blocked (its host was told) or closed. ``tell=False``: the
        caller tells the host itself (`recheck` tells each host once for all their tables).
        """
        if await self.service.block(table.id) is None:
            return False
        log.warning(
            "table %s: Discord refuses its channel to the bot (%s); the table is paused",
            table.id,
            "locked thread" if cause is not None and cause.locked else cause and ", ".join(cause.missing),
            extra={"table_id": table.id},
        )
        if tell:
            await self.tell_host(table, await self._blocked_words(table, cause))
        return True

    @staticmethod
    def problem(cause: Undeliverable | None, t: i18n.Words) -> str:
        """What Discord refuses the bot at a table, in a phrase ("a moderator locked its thread")."""
        if cause is not None and cause.locked:
            return t("a moderator locked its thread")
        if cause is not None and cause.missing:
            names = ", ".join(f"**{t(PERMISSION_NAMES.get(n, n))}**" for n in cause.missing)
            return t("the bot lacks {permissions} in its channel", permissions=names)
        return t(
            "Discord refuses the bot's posts in its channel (check that the bot may view it, "
            "send messages in threads and attach files there)"
        )

    async def _blocked_words(self, table: TableRecord, cause: Undeliverable | None) -> str:
        """The host's note: what Discord refuses, how to fix it, and that the table waits meanwhile."""
        t = await for_dm(self.bot, table.host_id)
        return t(
            "⏸️ Your table #{id} ({game}) is paused: {problem}. Nobody's time runs out meanwhile. "
            "Once that is fixed the table runs again by itself, or use `/game resume table:{id}` "
            "in {where}: {link}",
            id=table.id,
            game=t(engine.get(table.game).title),
            problem=self.problem(cause, t),
            where=f"<#{table.channel_id}>",
            link=table_link(table),
        )

    async def _post_board(self, table: TableRecord, events: list[dict], mover: int | None) -> None:
        channel = await self.channel_of(table)
        t = await for_public(self.bot, table)
        game = engine.get(table.game)
        state = self.service.state_of(table)
        names = seat_names(table, t.lang)
        picture = await self.picture(table.game, self.service.public_view(table), names, lang=t.lang)
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
            message = await channel.send(
                text, files=as_files(picture), view=board_view(table, t=t), allowed_mentions=mentions
            )
        else:
            # No Attach Files here (as the cache says): the board goes out in words.
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
            for hook in self.finished_hooks:
                try:
                    await hook(table, channel)
                except Exception:  # a note after the results never holds up the table's life
                    log.exception("table %s: a finished-table hook failed", table.id)
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
        hints = hints_note(table, t=t)
        unrated = ratings.unrated_reason(table, result, t=t, hints_said=hints is not None)
        if hints:
            notes.append(hints)
        if unrated and not changes:
            notes.append(unrated)
        title = t("{game} — final ranking", game=t(game.title))
        try:
            picture: renderers.Picture | None = await renderers.render_results_async(
                table.game, self.service.public_view(table), names, lang=t.lang
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

    async def board_missing(self, table: TableRecord) -> bool:
        """True when the table's board message was deleted (or never posted)."""
        if not table.board_message_id:
            return True
        try:
            channel = await self.channel_of(table)
        except (discord.HTTPException, TableGone, Undeliverable, OverBudget) as error:
            self._count(error, table)
            return False
        if not hasattr(channel, "fetch_message"):
            return False
        try:
            await channel.fetch_message(table.board_message_id)  # type: ignore[union-attr]
        except discord.NotFound as error:
            return error.code == UNKNOWN_MESSAGE
        except discord.HTTPException as error:
            self._count(error, table)
            return False
        return False

    # ------------------------------------------------------------ notes in the thread

    async def announce(self, table: TableRecord, text: str, *, mentions: Mentions = NO_PINGS) -> bool:
        """A notice at the table, in its thread, sent once: never retried, but a refusal that blocks
        or closes the table does so. False when it did not go out."""
        try:
            channel = await self.channel_of(table)
            await channel.send(text, allowed_mentions=mentions)
        except Exception as error:
            judged = await self.undelivered(table, error, owed=False)
            log.warning(
                "table %s: could not post a notice (%s: %s)",
                table.id,
                judged.value,
                error,
                extra={"table_id": table.id},
            )
            return False
        return True

    async def archive(self, table: TableRecord) -> None:
        """Archive a closed table's own thread, so old games don't use up the server's active threads.

        Every table that closes comes here: listeners hear ``table_closed`` (a league's round).
        """
        self.bot.dispatch("table_closed", table)
        if not table.thread_id or not self.in_server(table):
            return
        try:
            thread = self.bot.get_channel(table.thread_id) or await self.bot.fetch_channel(table.thread_id)
            if isinstance(thread, discord.Thread) and not thread.archived:
                await thread.edit(archived=True)
        except discord.HTTPException as error:
            self._count(error, table)
            log.info(
                "table %s: could not archive its thread (%s)", table.id, error, extra={"table_id": table.id}
            )

    # ------------------------------------------------------------ direct messages

    async def direct_message(self, user_id: int, text: str, *, optional: bool = True) -> bool:
        """Send a DM; False when it did not go out (the caller may fall back to the thread).

        A player whose DMs refused the bot (50007) is not tried again until they
        use the bot; near the refusal threshold, optional DMs are not sent at all.
        """
        if user_id in self.closed_dms or (optional and self.budget.strained()):
            return False
        try:
            channel_id = self._dm_channels.get(user_id)
            if channel_id is None:
                # discord.py's create_dm sends the user id as a number; Discord's API documents a
                # string (snowflake), so the DM channel is opened with the documented body, once.
                opened = await self.bot.http.request(
                    Route("POST", "/users/@me/channels"), json={"recipient_id": str(user_id)}
                )
                channel_id = int(opened["id"])
            self._dm_channels[user_id] = channel_id
            self._dm_channels.move_to_end(user_id)
            while len(self._dm_channels) > DM_CHANNELS_KEPT:
                self._dm_channels.popitem(last=False)
            channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            await channel.send(text, allowed_mentions=NO_PINGS)
        except discord.HTTPException as error:
            self._count(error)
            if refused_dm(error):
                self.closed_dms.close(user_id)
            return False
        return True

    async def tell_host(self, table: TableRecord, text: str) -> None:
        """A direct message to the table's host (logged when their DMs are closed)."""
        if not await self.direct_message(table.host_id, text, optional=False):
            log.info("table %s: could not tell the host by DM", table.id, extra={"table_id": table.id})

    # ------------------------------------------------------------ blocked, gone, back

    async def abandon_tables(self, found: list[TableRecord], why: str) -> None:
        """Close open tables whose thread, channel or server is gone (their clocks stop)."""
        for table in found:
            self.forget(table.id)
            if await self.service.abandon(table.id) is not None:
                log.info("table %s abandoned: %s", table.id, why, extra={"table_id": table.id})
                self.bot.dispatch("table_closed", table)

    async def reconcile(self) -> None:
        """At READY: close the open tables of servers this process serves that no longer have the bot.

        Discord sends no GUILD_DELETE for a server that removed the bot while it
        was down; the server is simply missing from READY (an *unavailable*
        server is listed, and is not touched).
        """
        for guild_id in await self.service.store.open_guild_ids():
            if serves(self.bot, guild_id) and self.bot.get_guild(guild_id) is None:
                await self.abandon_tables(
                    await self.service.store.open_tables_in_guild(guild_id),
                    "the server no longer has the bot",
                )

    async def recheck(
        self, guild_id: int, channel_id: int | None = None, *, seen: discord.Thread | None = None
    ) -> None:
        """Discord changed a channel, a thread, a role or the bot's roles: act on what the cache now shows.

        A running table whose channel is now refused to the bot pauses at once (its
        host told; nobody is timed out for a board they could not see), and a
        blocked table whose cause is gone runs again. ``channel_id`` narrows it to
        one channel or thread (and the threads of a channel); ``seen`` is a thread
        as Discord just showed it. Only the cache is read: this costs no request.
        """
        store = self.service.store
        found = (
            await store.open_tables_in(channel_id)
            if channel_id is not None
            else await store.open_tables_in_guild(guild_id)
        )
        if channel_id is not None:
            # A finished table blocked on its results is no longer "open": look it up by its channel too.
            found = [*found, *await self._finished_blocked_in(channel_id)]
        # One change can block every table of a channel: each host hears of theirs in one DM.
        blocked: dict[int, list[tuple[TableRecord, Undeliverable]]] = {}
        for table in found:
            cause = self.cause(table, seen)
            if table.blocked and cause is None:
                await self.unblock(table)
            elif not table.blocked and table.status == ACTIVE and cause is not None:
                if cause.verdict is Verdict.GONE:
                    await self.gone(table, "the server no longer has the bot")
                elif await self.block(table, cause, tell=False):
                    blocked.setdefault(table.host_id, []).append((table, cause))
        for tables in blocked.values():
            first, cause = tables[0]
            text = await self._blocked_words(first, cause)
            if len(tables) > 1:
                t = await for_dm(self.bot, first.host_id)
                others = ", ".join(f"#{table.id}" for table, _ in tables[1:TABLES_NAMED])
                more = len(tables) - TABLES_NAMED
                text += "\n" + t.plural(
                    "The same holds for your table {tables}.",
                    "The same holds for your tables {tables}.",
                    len(tables) - 1,
                    tables=others + (f" (+{more})" if more > 0 else ""),
                )
            await self.tell_host(first, text)

    async def _finished_blocked_in(self, channel_id: int) -> list[TableRecord]:
        """The newest table of a thread or channel, when it finished and still owes its results there."""
        table = await self.service.store.table_in_channel(channel_id)
        return [table] if table is not None and table.status == FINISHED and table.blocked else []

    async def unblock(self, table: TableRecord) -> None:
        """The cause is gone: the table runs again, its board (and results) posted."""
        if await self.service.unblock(table.id) is None:
            return
        log.info(
            "table %s: its channel is open to the bot again; it runs", table.id, extra={"table_id": table.id}
        )
        self.spawn(self._resume(table.id))

    async def _resume(self, table_id: int) -> None:
        """Post a table's board again after a block: a few tables at a time, so one change that
        unblocks a thousand tables does not become a thousand posts at once (Discord's global limit)."""
        async with self._resuming:
            await self.advance(table_id, [], force=True, new_step=True)


def _refused(channel: discord.abc.Messageable, *, in_thread: bool = False) -> Undeliverable | None:
    """Why discord.py's cache says Discord would refuse a post in ``channel`` (None: it would not).

    ``in_thread``: ``channel`` is the parent of the table's thread, which the cache dropped.
    """
    if thread_locked(channel):
        return Undeliverable(Verdict.BLOCKED, locked=True)
    missing = missing_to_post(channel, in_thread=in_thread)
    return Undeliverable(Verdict.BLOCKED, tuple(missing)) if missing else None
