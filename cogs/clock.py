"""The table clock: one scheduler for every deadline, reminder and lobby expiry.

Each table stores ``wake_at``, the next instant its clock needs attention. One
background task sleeps until the earliest ``wake_at`` of all tables (or until a
move sets an earlier one), then asks the service to `tick` each due table and
says in the table's thread what happened: a reminder, a move made for a player
whose time ran out, or a lobby that expired. Nothing is kept in memory per
table, so thousands of waiting tables cost nothing and a restart resumes every
clock from the database; a deadline that passed while the bot was down is
handled at start, once.
"""

from __future__ import annotations

import asyncio
import logging

from discord.ext import commands

import engine
import i18n
from cogs.common import message_link, pinging, plain, still_member
from cogs.host import host
from cogs.language import for_dm, for_public
from cogs.lobby import lobby_embed, lobby_view
from cogs.runner import TableRunner
from engine.base import event
from hosting.service import LobbyExpired, PostOwed, Reminder, TableService, Timeout

log = logging.getLogger(__name__)

#: The scheduler looks at the database at least this often (seconds), whatever it expects.
LONGEST_SLEEP = 12 * 3600.0
#: After an unexpected failure, the scheduler waits this long before trying again.
RETRY_AFTER = 30.0
#: Tables handled per pass; the next pass follows at once when more are due.
BATCH = 100


class Clock(commands.Cog):
    """Runs the scheduler and speaks for the table clock in the threads."""

    def __init__(self, bot: commands.Bot, runner: TableRunner) -> None:
        self.bot = bot
        self.runner = runner
        self._task: asyncio.Task | None = None
        self._sleeping_until: float | None = None  # set only while the scheduler sleeps
        self._poked = False
        self.service.on_wake = self.wake_by

    @property
    def service(self) -> TableService:
        """The bot's table service."""
        return self.runner.service

    def cog_unload(self) -> None:
        """Stop the scheduler."""
        if self._task is not None:
            self._task.cancel()
        self.service.on_wake = None

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Start the scheduler once the bot can post (unless ``Config.resume_at_start`` is off)."""
        if getattr(getattr(self.bot, "config", None), "resume_at_start", True):
            self.start()

    def start(self) -> None:
        """Start the scheduler if it is not running (its first pass handles what fell due while down)."""
        if self._task is None or self._task.done():
            self._start()

    def _start(self) -> None:
        self._sleeping_until = None
        self._task = asyncio.get_running_loop().create_task(self._run())

    def wake_by(self, instant: float) -> None:
        """A table now needs attention at ``instant``: make sure the scheduler looks by then."""
        if self._task is None:
            return  # not started yet: its first pass reads every table's wake-up from the database
        if self._sleeping_until is None:
            self._poked = True  # it is busy: it will look again before sleeping
        elif instant < self._sleeping_until:
            # Sleeping past it: start over. A plain sleep, cancelled, is simpler than an
            # event to race against, and it is what SimCord's virtual clock recognises.
            self._task.cancel()
            self._start()

    async def _run(self) -> None:
        """Sleep until the next table is due, handle the due ones, repeat."""
        while True:
            self._poked = False
            try:
                while await self.run_due():
                    pass
                next_wake = await self.service.store.next_wake()
                delay = LONGEST_SLEEP if next_wake is None else next_wake - self.service.now()
            except Exception:
                log.exception("the table clock failed; trying again shortly")
                delay = RETRY_AFTER
            if self._poked:
                continue
            delay = min(max(delay, 0.0), LONGEST_SLEEP)
            self._sleeping_until = self.service.now() + delay
            await asyncio.sleep(delay)
            self._sleeping_until = None

    async def run_due(self) -> bool:
        """Tick every table that is due now (a batch at most); True when more may be waiting."""
        due = await self.service.store.due_tables(self.service.now(), BATCH)
        for table_id in due:
            try:
                outcome = await self.service.tick(table_id)
                if isinstance(outcome, Reminder):
                    await self.remind(outcome)
                elif isinstance(outcome, Timeout):
                    await self.timed_out(outcome)
                elif isinstance(outcome, LobbyExpired):
                    await self.lobby_expired(outcome)
                elif isinstance(outcome, PostOwed):
                    await self.repost(outcome)
            except Exception:
                log.exception("table %s: its clock failed", table_id, extra={"table_id": table_id})
        return len(due) == BATCH

    # ---------------------------------------------------------- what it says

    async def remind(self, reminder: Reminder) -> None:
        """Remind the awaited players: by DM for those who asked (if Discord lets us), else in the thread."""
        table = reminder.table
        if not reminder.seats or table.deadline is None:
            return
        if await self.runner.board_missing(table):
            # Someone deleted the board: post it again, so the reminder points somewhere.
            await self.runner.advance(table.id, [], force=True)
            table = await self.service.get(table.id)
        title = engine.get(table.game).title  # translated for each reader below
        due = f"<t:{int(table.deadline)}:R>"
        board = message_link(table, table.board_message_id) if table.board_message_id else ""
        in_thread: list[int] = []
        for seat in reminder.seats:
            user_id = table.seats[seat].user_id
            if user_id is None or not await still_member(self.bot, table.guild_id, user_id):
                continue  # a player who left the server is not reminded; their deadline hands the seat on
            if await self.service.dm_reminders(user_id) and user_id not in self.runner.closed_dms:
                t = await for_dm(self.bot, user_id)
                text = t(
                    "⏰ Your move at **{game}** #{table} is due {due}. {board}",
                    game=t(title),
                    table=table.id,
                    due=due,
                    board=board,
                ).strip()
                if await self.runner.direct_message(user_id, text):
                    continue
            in_thread.append(user_id)
        if not in_thread:
            return
        who = " ".join(f"<@{user_id}>" for user_id in in_thread)
        t = await for_public(self.bot, table)
        if reminder.last:
            text = t(
                "⏰ Time is nearly up: {players}, your move is due {due}. {board}",
                players=who,
                due=due,
                board=board,
            )
        else:
            text = t(
                "⏰ Reminder: {players}, your move is due {due}. {board}", players=who, due=due, board=board
            )
        # The deadline still comes; a missed reminder is logged, never retried into a spam.
        await self.runner.announce(table, text.strip(), mentions=pinging(in_thread))

    async def timed_out(self, timeout: Timeout) -> None:
        """Say whose time ran out and post the board with the moves made for them."""
        table = timeout.table
        notices = [
            event(
                "timeout",
                i18n.say("⏰ Time ran out for {seat}: a bot made their move.", seat=i18n.seat(seat)),
            )
            for seat in timeout.timed_out
        ]
        handed = [
            event(
                "timeout",
                i18n.say(
                    "{seat} missed too many deadlines: a bot plays it from now on.", seat=i18n.seat(seat)
                ),
            )
            for seat in timeout.handed
        ]
        gone = []
        for seat in timeout.timed_out:
            user_id = table.seats[seat].user_id
            if seat in timeout.handed or user_id is None:
                continue
            # A player who left the server counts as timed out for good: nobody is reminded forever.
            left = not await still_member(self.bot, table.guild_id, user_id)
            if left and await self.service.hand_seat_to_bot(table.id, seat) is not None:
                gone.append(
                    event(
                        "timeout",
                        i18n.say("{seat} left the server: a bot plays it now.", seat=i18n.seat(seat)),
                    )
                )
        await self.runner.advance(
            table.id, [*notices, *timeout.events, *handed, *gone], force=True, new_step=True
        )

    async def repost(self, owed: PostOwed) -> None:
        """Post the board (and results) a table still owes since a failed post, with its latest moves."""
        table = owed.table
        events = await self.service.public_events(table.id, last=5)
        await self.runner.advance(table.id, events, force=True)

    async def lobby_expired(self, expired: LobbyExpired) -> None:
        """Close the lobby message and say why in the thread."""
        table = expired.table
        t = await for_public(self.bot, table)
        if table.lobby_message_id:
            try:
                channel = await self.runner.channel_of(table)
                message = channel.get_partial_message(table.lobby_message_id)  # type: ignore[union-attr]
                await message.edit(embed=lobby_embed(table, t=t), view=lobby_view(table, t=t))
            except Exception as error:  # the notice below still says it
                log.warning("table %s: could not close its lobby message (%s)", table.id, error)
        host = next((s.name for s in table.seats if s.user_id == table.host_id), None)
        if host is None:
            text = t(
                "This lobby expired: nobody started it within a day. "
                "The host can open a new one with `/play`."
            )
        else:
            text = t(
                "This lobby expired: nobody started it within a day. {host} can open a new one with `/play`.",
                host=plain(host),
            )
        await self.runner.announce(table, text)
        await self.runner.archive(table)


async def setup(bot: commands.Bot) -> None:
    """Load the clock cog."""
    clock = Clock(bot, host(bot).runner)
    host(bot).clock = clock  # offline mode starts it itself (`offline.py`)
    await bot.add_cog(clock)
