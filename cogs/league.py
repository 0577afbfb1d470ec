"""Leagues (issue #38): `/league create | standings | round | drop | reinstate | end`, the sign-up
message's buttons, and a league's life in Discord — its rounds' tables opened in threads, its
standings and podium posted, its round deadlines kept.

The rules live in `hosting.league` (pure) and `hosting.leagues.LeagueService`; this cog turns them
into Discord. A table of a league is a table like any other once open: the runner plays and posts
it, and tells this cog when it closes (``table_closed``), which closes the round when it was the
last. Nothing is kept in memory that a restart would miss: at READY every open league is looked
at again, and a round deadline that passed while the bot was down is kept at once.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

import engine
import i18n
import renderers
from cogs.board import as_files
from cogs.common import (
    NO_PINGS,
    answer_error,
    can_manage,
    control,
    dynamic_view,
    fit_lines,
    pinging,
    plain,
    reply,
    serves,
    table_link,
    tables,
)
from cogs.delivery import Verdict, verdict
from cogs.host import host
from cogs.language import for_guild, for_public, for_user
from cogs.lobby import BOT_LEVEL_CHOICES, GAME_CHOICES, PACE_CHOICES, missing_permissions
from cogs.runner import TableRunner
from engine.base import event
from hosting import timing
from hosting.errors import TableError
from hosting.league import (
    BOT,
    OPEN_LEAGUE,
    RUNNING,
    SIGNUP,
    LeaguePlayer,
    LeagueRecord,
)
from hosting.leagues import DROP_AFTER, ROUND_HOURS, Closed, LeagueService
from hosting.records import ACTIVE, LOBBY
from hosting.service import keyed_lock
from i18n import N_, say
from renderers.league import points_text

log = logging.getLogger(__name__)

#: The deadline keeper looks at the database at least this often, and at most this often (seconds).
LONGEST_SLEEP = 12 * 3600.0
SHORTEST_SLEEP = 30.0
#: A refused standings post is tried again after at least this long (the league's refusal budget,
#: a table's, may make it longer); one refused because the bot may not post there, hourly.
RETRY = 60.0
BLOCKED_RETRY = 3600.0
#: A process that took an owed post and died before saying how it went: another tries then.
CLAIMED_RETRY = 600.0
#: Lines of players listed in a message (the picture shows the standings; a message stays short).
LISTED = 10
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
SIGNUP_BUTTONS = {
    # verb: (label, style)
    "join": (N_("Join"), discord.ButtonStyle.success),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    "start": (N_("Start the league"), discord.ButtonStyle.primary),
}
ROUND_WORDS = {
    1: N_("1 hour"),
    24: N_("1 day"),
    72: N_("3 days"),
    168: N_("1 week"),
}
STATUS_WORDS = {
    SIGNUP: N_("sign-up"),
    RUNNING: N_("running"),
    "finished": N_("finished"),
    "ended": N_("ended"),
}


def leagues(interaction: discord.Interaction) -> LeagueService:
    """The league service over the bot's tables (it holds nothing of its own: one per call is fine)."""
    return LeagueService(tables(interaction))


async def may_organise(interaction: discord.Interaction, league: LeagueRecord | None = None) -> bool:
    """Whether the member may organise leagues here: Manage Server, the role the server named in
    `/settings`, or (for ``league``) being its organiser."""
    if can_manage(interaction) or (league is not None and league.organiser_id == interaction.user.id):
        return True
    role = await tables(interaction).store.league_role(interaction.guild_id)
    roles = getattr(interaction.user, "roles", [])
    return role is not None and any(r.id == role for r in roles)


def signup_embed(league: LeagueRecord, players: list[LeaguePlayer], t: i18n.Words) -> discord.Embed:
    """The league's card: its settings, who signed up, and what happens next."""
    game = engine.get(league.game)
    listed = [f"{i}. <@{p.user_id}>" for i, p in enumerate(players[:40], start=1)]
    if len(players) > 40:
        listed.append(t("… and {count} more.", count=len(players) - 40))
    embed = discord.Embed(
        title=t("🏆 {name} — league #{league}", name=plain(league.name), league=league.id),
        description="\n".join(listed) or t("Nobody has signed up yet."),
        colour=discord.Colour.gold(),
    )
    embed.add_field(name=t("Game"), value=t(game.title))
    embed.add_field(name=t("Seats per table"), value=str(league.seats))
    embed.add_field(name=t("Rounds"), value=str(league.rounds))
    embed.add_field(name=t("Pace"), value=timing.pace_label(league.pace, t.lang))
    hours = int(league.round_length // 3600)
    embed.add_field(name=t("Round length"), value=t(ROUND_WORDS.get(hours, N_("1 day"))))
    embed.add_field(name=t("Rated"), value=t("yes") if league.rated else t("no"))
    embed.add_field(name=t("Empty seats"), value=t(BOT_LEVEL_CHOICES[league.bot_level][0]))
    embed.add_field(name=t("Organiser"), value=f"<@{league.organiser_id}>")
    if league.status == SIGNUP:
        footer = t(
            "{count} of {cap} signed up · the organiser starts the league",
            count=len(players),
            cap=league.cap,
        )
    elif league.status == RUNNING:
        footer = t("Round {round} of {rounds} is being played.", round=league.round, rounds=league.rounds)
    else:
        footer = t("This league is over: `/league standings` shows how it ended.")
    embed.set_footer(text=footer)
    return embed


def signup_view(league: LeagueRecord, t: i18n.Words) -> discord.ui.View:
    """Join, Leave and Start while the league takes sign-ups; nothing afterwards."""
    view = dynamic_view()
    if league.status == SIGNUP:
        for verb in SIGNUP_BUTTONS:
            view.add_item(SignupButton(verb, league.id, t=t))
    return view


class SignupButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=control(r"league:(?P<verb>join|leave|start):(?P<league>\d+)"),
):
    """A sign-up button: ``league:<join|leave|start>:<league id>`` (works after a restart)."""

    def __init__(self, verb: str, league_id: int, *, t: i18n.Words | None = None) -> None:
        t = t or i18n.words(i18n.SOURCE)
        label, style = SIGNUP_BUTTONS[verb]
        super().__init__(
            discord.ui.Button(label=t(label), style=style, custom_id=f"league:{verb}:{league_id}")
        )
        self.verb = verb
        self.league_id = league_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match
    ) -> SignupButton:
        """Rebuild the button from its custom_id."""
        return cls(match["verb"], int(match["league"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Sign up, leave, or (the organiser) start the league; then show the card as it is now."""
        service = leagues(interaction)
        user = interaction.user
        try:
            await interaction.response.defer()  # acknowledge first: the write may wait
            league = await service.get(self.league_id)
            if league.guild_id != interaction.guild_id:
                raise TableError(say("There is no league #{league}.", league=self.league_id))
            if self.verb == "join":
                league = await service.join(self.league_id, user.id, user.display_name)
            elif self.verb == "leave":
                league = await service.leave(self.league_id, user.id)
            else:
                if not await may_organise(interaction, league):
                    raise TableError(say("Only the league's organiser can start it."))
                if await service.start(self.league_id) is None:
                    raise TableError(say("This league has already started."))
                league = await service.get(self.league_id)
                interaction.client.dispatch("league_changed", league.id)
            t = await for_guild(interaction.client, league.guild_id)
            players = await service.players(league)
            await interaction.edit_original_response(
                embed=signup_embed(league, players, t), view=signup_view(league, t)
            )
        except Exception as error:
            await answer_error(interaction, error)


GAMES = GAME_CHOICES
ROUND_CHOICES = [
    app_commands.Choice(name=locale_str(ROUND_WORDS[hours]), value=hours) for hours in ROUND_HOURS
]
LEVEL_CHOICES = [
    app_commands.Choice(name=locale_str(label), value=level)
    for level, (label, _) in BOT_LEVEL_CHOICES.items()
]


def league_key(league: LeagueRecord) -> tuple[str, int]:
    """What the league's posts and edits are counted under in the refusal budget (`RefusalBudget`)."""
    return ("league", league.id)


class League(commands.Cog):
    """Leagues: sign-up, rounds of tables, standings and the podium."""

    def __init__(self, bot: commands.Bot, runner: TableRunner) -> None:
        self.bot = bot
        self.runner = runner
        self.service = LeagueService(runner.service)
        # One pass over a league at a time in this process (other processes: the store's claims).
        self._locks: dict = {}
        self._task: asyncio.Task | None = None
        self._sleeping_until: float | None = None

    def cog_unload(self) -> None:
        """Stop the deadline keeper."""
        if self._task is not None:
            self._task.cancel()

    # ------------------------------------------------------------ listeners

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a (re)start: look at every open league (tables to open, rounds to close), then
        keep their deadlines."""
        if not getattr(getattr(self.bot, "config", None), "resume_at_start", True):
            return
        for league_id in await self.service.store.open_league_ids():
            await self.look_at(league_id)
        self.wake()

    @commands.Cog.listener()
    async def on_table_closed(self, table) -> None:
        """A table closed: if it was a league's, its round may be over."""
        found = await self.service.store.league_of_table(table.id)
        if found is not None:
            await self.look_at(found[0])

    @commands.Cog.listener()
    async def on_league_changed(self, league_id: int) -> None:
        """A league started (or changed): open its round's tables; its deadline is kept."""
        await self.look_at(league_id)
        self.wake()

    # ------------------------------------------------------------ a league's life

    async def look_at(self, league_id: int) -> None:
        """Open the current round's tables not yet open, and close the round once all have closed
        (then post the standings and open the next round). Safe to call at any time, any number of
        times, in any process: each step is claimed in the store."""
        try:
            async with keyed_lock(self._locks, league_id):
                league = await self.service.get(league_id)
                if league.status != RUNNING or not serves(self.bot, league.guild_id):
                    return
                await self.open_round(league)
                closed = await self.service.close_round(league_id)
                if closed is None:
                    return
                await self.post_standings(closed)
                if not closed.over:
                    await self.open_round(closed.league)
                await self.refresh_card(closed.league)
            self.wake()
        except Exception:
            log.exception("league %s: could not move on", league_id)

    async def open_round(self, league: LeagueRecord) -> None:
        """Open each table of the current round that is not open yet: its thread, its start, a
        message pinging exactly its players, and its first board."""
        for paired in await self.service.round_tables(league):
            if paired.status not in (None, LOBBY, ACTIVE):
                continue
            table = await self.service.table_for(league, paired)
            if table is None:
                continue  # another process opened it
            if table.status == LOBBY:
                if table.thread_id is None:
                    thread = await self._thread(league, paired.round, paired.table_no)
                    if thread is not None:
                        await self.runner.service.attach(table.id, thread_id=thread.id)
                table = await self.service.start_table(await self.runner.service.get(table.id))
                people = [p for p in paired.players if p != BOT]
                t = await for_public(self.bot, table)
                await self.runner.announce(
                    table,
                    t(
                        "🏆 **{league}**, round {round}, table {table}: {players}. Good luck!",
                        league=plain(league.name),
                        round=paired.round,
                        table=paired.table_no,
                        players=" ".join(f"<@{p}>" for p in people),
                    ),
                    mentions=pinging(people),
                )
                await self.runner.advance(
                    table.id, [event("start", say("The game begins!"))], force=True, new_step=True
                )
            elif table.status == ACTIVE and table.board_message_id is None and not table.owed_posts:
                await self.runner.advance(table.id, [], force=True)

    async def _thread(self, league: LeagueRecord, round_no: int, table_no: int) -> discord.Thread | None:
        """A public thread for a league table in the league's channel; None to play in the channel."""
        try:
            channel = self.bot.get_channel(league.channel_id) or await self.bot.fetch_channel(
                league.channel_id
            )
        except discord.HTTPException as error:
            log.warning("league %s: its channel is out of reach (%s)", league.id, error)
            return None
        if not isinstance(channel, discord.TextChannel):
            return None
        if not channel.permissions_for(channel.guild.me).create_public_threads:
            return None
        name = f"{league.name} · R{round_no} T{table_no}"[:100]
        try:
            return await channel.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=10080
            )
        except discord.HTTPException as error:
            log.warning("league %s: no thread for a table (%s); playing in the channel", league.id, error)
            return None

    async def post_standings(self, closed: Closed) -> bool:
        """The standings after a round (with its picture), or the final standings and the podium;
        False when Discord refused them for now (the league owes them: `say_in_channel`)."""
        league = closed.league
        t = await for_guild(self.bot, league.guild_id)
        lines = []
        for player in closed.players[:LISTED]:
            place = player.place or closed.players.index(player) + 1
            medal = MEDALS.get(place, f"{place}.")
            gone = " " + t("(dropped)") if not player.active and not closed.over else ""
            lines.append(
                t(
                    "{place} <@{user}> — {points} points, score {score}{dropped}",
                    place=medal,
                    user=player.user_id,
                    points=points_text(player.points),
                    score=f"{player.score:g}",
                    dropped=gone,
                )
            )
        for player in closed.dropped:
            lines.append(
                t.plural(
                    "<@{user}> missed {count} round and is no longer paired "
                    "(the organiser can reinstate them with `/league reinstate`).",
                    "<@{user}> missed {count} rounds in a row and is no longer paired "
                    "(the organiser can reinstate them with `/league reinstate`).",
                    player.missed,
                    user=player.user_id,
                )
            )
        if closed.over:
            header = t(
                "🏆 **{league}** is over! The final standings (each player's result is in `/history`):",
                league=plain(league.name),
            )
        elif closed.round == 0:
            header = t(
                "🏆 **{league}** has started: round 1 of {rounds} is paired, each table in its own thread.",
                league=plain(league.name),
                rounds=league.rounds,
            )
            lines = []
        else:
            header = t(
                "📊 **{league}**: the standings after round {round} of {rounds}. Round {next} is paired.",
                league=plain(league.name),
                round=closed.round,
                rounds=league.rounds,
                next=closed.round + 1,
            )
        text = fit_lines(header, lines, more=lambda n: t("… and {count} more.", count=n))
        files = []
        if closed.round > 0 or closed.over:
            picture = await league_picture(league, closed.players, t, final=closed.over)
            files = as_files(picture)
        return await self.say_in_channel(league, text, files)

    async def say_in_channel(self, league: LeagueRecord, text: str, files: list | None = None) -> bool:
        """Post the league's standings in its channel, pinging nobody; False when it did not go out.

        What Discord's refusal means (`cogs.delivery.verdict`): the league owes the post and the
        deadline keeper tries it again (`deadline`), within the refusal budget a table has; a
        refused channel is tried hourly and its organiser told once; a channel that is gone owes
        nothing more. A newer round's standings, posted, pay an older owed one.
        """
        key = league_key(league)
        if self.runner.budget.table_wait(key) > 0:
            await self._owe(league)  # not even tried: the league's refusals are spent for now
            return False
        try:
            channel = self.bot.get_channel(league.channel_id) or await self.bot.fetch_channel(
                league.channel_id
            )
            await channel.send(text, files=files or [], allowed_mentions=NO_PINGS)  # type: ignore[union-attr]
        except (TimeoutError, discord.HTTPException, OSError) as error:
            if isinstance(error, discord.HTTPException):
                self.runner.budget.record(error.status, key)
            judged = verdict(error, in_server=self.bot.get_guild(league.guild_id) is not None)
            log.warning("league %s: could not post its standings (%s: %s)", league.id, judged.value, error)
            if judged is Verdict.GONE:
                await self.service.owe_post(league.id, None)
                return False
            first = league.post_owed is None
            blocked = judged is Verdict.BLOCKED
            await self._owe(league, BLOCKED_RETRY if blocked else RETRY)
            if blocked and first:
                t = await for_guild(self.bot, league.guild_id)
                await self.runner.direct_message(
                    league.organiser_id,
                    t(
                        "The bot may not post in <#{channel}>, so **{league}**'s standings wait. Give "
                        "the bot View Channel and Send Messages there; it tries again every hour.",
                        channel=league.channel_id,
                        league=plain(league.name),
                    ),
                )
            return False
        if league.post_owed is not None:
            await self.service.owe_post(league.id, None)
        return True

    async def _owe(self, league: LeagueRecord, at_least: float = 0.0) -> None:
        """The league owes its standings post: try again in ``at_least`` seconds at the soonest,
        later if its refusal budget or the whole bot's says so (`RefusalBudget.retry_wait`)."""
        wait = self.runner.budget.retry_wait(league_key(league), at_least)
        await self.service.owe_post(league.id, self.service.now() + wait)
        self.wake()

    async def refresh_card(self, league: LeagueRecord) -> None:
        """Show the league as it is now on its sign-up message (best effort: a refusal counts
        against the league's refusal budget, and while that is spent the card is left as it is)."""
        key = league_key(league)
        if league.message_id is None or self.runner.budget.table_wait(key) > 0:
            return
        t = await for_guild(self.bot, league.guild_id)
        players = await self.service.players(league)
        try:
            channel = self.bot.get_channel(league.channel_id) or await self.bot.fetch_channel(
                league.channel_id
            )
            message = channel.get_partial_message(league.message_id)  # type: ignore[union-attr]
            await message.edit(embed=signup_embed(league, players, t), view=signup_view(league, t))
        except (discord.HTTPException, AttributeError) as error:
            if isinstance(error, discord.HTTPException):
                self.runner.budget.record(error.status, key)
            log.info("league %s: could not update its card (%s)", league.id, error)

    # ------------------------------------------------------------ round deadlines

    def wake(self) -> None:
        """A deadline may have changed: make sure the keeper runs and looks again in time."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        elif self._sleeping_until is not None:
            self._task.cancel()  # a plain sleep, cancelled: what SimCord's virtual clock recognises
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        """Sleep until the next round deadline, keep the due ones, repeat."""
        while True:
            try:
                for league_id in await self.service.store.due_leagues(self.service.now()):
                    await self.deadline(league_id)
                due = await self.service.store.next_league_deadline()
                delay = LONGEST_SLEEP if due is None else due - self.service.now()
            except Exception:
                log.exception("the league deadline keeper failed; trying again shortly")
                delay = SHORTEST_SLEEP
            delay = min(max(delay, SHORTEST_SLEEP), LONGEST_SLEEP)
            self._sleeping_until = self.service.now() + delay
            try:
                await asyncio.sleep(delay)
            finally:
                self._sleeping_until = None

    async def deadline(self, league_id: int) -> None:
        """A round's deadline passed: its running tables are played to the end by bots (and close
        the round as they finish; see docs/LEAGUES.md)."""
        league = await self.service.get(league_id)
        if not serves(self.bot, league.guild_id):
            return
        if league.post_owed is not None and league.post_owed <= self.service.now():
            await self.post_owed(league)
        if league.status != RUNNING or league.deadline is None or league.deadline > self.service.now():
            return
        t = await for_guild(self.bot, league.guild_id)
        for paired in await self.service.round_tables(league):
            if paired.table_id is not None and paired.status == ACTIVE:
                table = await self.runner.service.get(paired.table_id)
                await self.runner.announce(
                    table, t("⏰ The round's time is up: bots play this table to its end for everyone.")
                )
        for table_id, events in await self.service.play_out(league):
            await self.runner.advance(table_id, events)
        await self.look_at(league_id)

    async def post_owed(self, league: LeagueRecord) -> None:
        """Try the league's owed standings post again (in one process only: it is claimed first)."""
        async with keyed_lock(self._locks, league.id):
            league = await self.service.get(league.id)
            now = self.service.now()
            if league.post_owed is None or league.post_owed > now:
                return  # paid, or tried again meanwhile
            if not await self.service.claim_post(league, now + CLAIMED_RETRY):
                return
            league = replace(league, post_owed=now + CLAIMED_RETRY)  # as claimed: paid if it goes out
            await self.post_standings(await self.service.standings_now(league))

    # ------------------------------------------------------------ commands

    league_group = app_commands.Group(
        name=locale_str("league"),
        description=locale_str("Leagues: rounds of tables, standings and a podium"),
        guild_only=True,
    )

    async def _league_here(self, interaction: discord.Interaction, league_id: int | None) -> LeagueRecord:
        """The league a command names, or the newest open one of this channel (else of this server)."""
        if league_id is not None:
            league = await self.service.store.get_league(league_id)
            if league is None or league.guild_id != interaction.guild_id:
                raise TableError(say("There is no league #{league}.", league=league_id))
            return league
        found = await self.service.store.leagues_in(interaction.guild_id)
        for choice in (
            [lg for lg in found if lg.channel_id == interaction.channel_id and lg.status in OPEN_LEAGUE],
            [lg for lg in found if lg.status in OPEN_LEAGUE],
            found,
        ):
            if choice:
                return choice[0]
        raise TableError(
            say("There is no league in this server yet: an organiser starts one with `/league create`.")
        )

    async def league_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """Autocomplete for ``league``: this server's newest leagues."""
        t = await for_user(interaction)
        found = await self.service.store.leagues_in(interaction.guild_id)
        wanted = current.strip("#").lower()
        return [
            app_commands.Choice(
                name=f"#{lg.id} {lg.name} ({t(STATUS_WORDS.get(lg.status, lg.status))})"[:100], value=lg.id
            )
            for lg in found
            if wanted in str(lg.id) or wanted in lg.name.lower()
        ][:25]

    @league_group.command(
        name=locale_str("create"),
        description=locale_str("Start a league here: members sign up with a button"),
    )
    @app_commands.rename(
        name=locale_str("name"),
        game=locale_str("game"),
        seats=locale_str("seats"),
        rounds=locale_str("rounds"),
        pace=locale_str("pace"),
        round_length=locale_str("round_length"),
        rated=locale_str("rated"),
        bots=locale_str("bots"),
        cap=locale_str("cap"),
        drop_after=locale_str("drop_after"),
    )
    @app_commands.describe(
        name=locale_str("The league's name"),
        game=locale_str("Which game the league plays"),
        seats=locale_str("Seats at each table (bots fill the empty ones)"),
        rounds=locale_str("How many rounds"),
        pace=locale_str("Time each player has per move (live: no deadline)"),
        round_length=locale_str("How long a round may last; then bots finish its tables"),
        rated=locale_str("Whether the league's games move ratings"),
        bots=locale_str("The level of the bots in empty seats"),
        cap=locale_str("The most players who may sign up"),
        drop_after=locale_str("Missed rounds in a row after which a player is no longer paired"),
    )
    @app_commands.choices(game=GAMES, pace=PACE_CHOICES, round_length=ROUND_CHOICES, bots=LEVEL_CHOICES)
    async def league_create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 60],
        game: app_commands.Choice[str],
        seats: app_commands.Range[int, 2, 8] = 4,
        rounds: app_commands.Range[int, 1, 12] = 3,
        pace: app_commands.Choice[int] | None = None,
        round_length: app_commands.Choice[int] | None = None,
        rated: bool = True,
        bots: app_commands.Choice[str] | None = None,
        cap: app_commands.Range[int, 2, 200] = 32,
        drop_after: app_commands.Range[int, 1, 12] = DROP_AFTER,
    ) -> None:
        """Start a league here (Manage Server or the server's league role): members sign up with a button."""
        t = await for_user(interaction)
        if not await may_organise(interaction):
            await reply(
                interaction,
                t("Only members who can manage the server, or have its league role, can create a league."),
            )
            return
        missing = missing_permissions(interaction, t=t)
        if missing:
            await reply(interaction, missing)
            return
        try:
            league = await self.service.create(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                organiser_id=interaction.user.id,
                name=name,
                game=game.value,
                seats=seats,
                pace=pace.value if pace else timing.PACES["24 hours"],
                rounds=rounds,
                rated=rated,
                bot_level=bots.value if bots else "normal",
                cap=cap,
                round_hours=round_length.value if round_length else 168,
                drop_after=drop_after,
            )
        except Exception as error:
            await answer_error(interaction, error)
            return
        public = await for_guild(self.bot, league.guild_id, interaction.guild_locale)
        await interaction.response.send_message(
            embed=signup_embed(league, [], public),
            view=signup_view(league, public),
            allowed_mentions=NO_PINGS,
        )
        message = await interaction.original_response()
        await self.service.store.set_league_message(league.id, message.id)

    @league_group.command(
        name=locale_str("standings"), description=locale_str("A league's standings, as a picture")
    )
    @app_commands.rename(league=locale_str("league"))
    @app_commands.describe(league=locale_str("Which league (the newest here when left out)"))
    @app_commands.autocomplete(league=league_choices)
    async def league_standings(self, interaction: discord.Interaction, league: int | None = None) -> None:
        """Show a league's standings (only to you)."""
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            found = await self._league_here(interaction, league)
            t = await for_user(interaction)
            players = await self.service.players(found)
            if not players:
                await reply(
                    interaction, t("Nobody has signed up for **{league}** yet.", league=plain(found.name))
                )
                return
            over = found.status not in OPEN_LEAGUE
            if over:
                players = sorted(players, key=lambda p: (p.place or 10**9, p.user_id))
            picture = await league_picture(found, players, t, final=over)
            header = t(
                "**{league}** — {status}, round {round} of {rounds}",
                league=plain(found.name),
                status=t(STATUS_WORDS.get(found.status, found.status)),
                round=found.round,
                rounds=found.rounds,
            )
            lines = [
                t(
                    "{place}. {name} — {points} points, score {score}{dropped}",
                    place=p.place or i,
                    name=plain(p.name),
                    points=points_text(p.points),
                    score=f"{p.score:g}",
                    dropped=" " + t("(dropped)") if not p.active and not over else "",
                )
                for i, p in enumerate(players, start=1)
            ]
            text = fit_lines(header, lines, more=lambda n: t("… and {count} more.", count=n))
            await interaction.followup.send(
                text, files=as_files(picture), ephemeral=True, allowed_mentions=NO_PINGS
            )
        except Exception as error:
            await answer_error(interaction, error)

    @league_group.command(
        name=locale_str("round"), description=locale_str("The tables of a league's current round")
    )
    @app_commands.rename(league=locale_str("league"))
    @app_commands.describe(league=locale_str("Which league (the newest here when left out)"))
    @app_commands.autocomplete(league=league_choices)
    async def league_round(self, interaction: discord.Interaction, league: int | None = None) -> None:
        """List the current round's tables: who plays where, and a link to each (only to you)."""
        try:
            found = await self._league_here(interaction, league)
            t = await for_user(interaction)
            if found.status == SIGNUP:
                await reply(interaction, t("**{league}** has not started yet.", league=plain(found.name)))
                return
            lines = []
            for paired in await self.service.round_tables(found):
                people = [f"<@{p}>" if p != BOT else "🤖" for p in paired.players]
                where = ""
                if paired.table_id is not None:
                    table = await self.runner.service.get(paired.table_id)
                    where = f" — {t(STATUS_WORDS.get(table.status, table.status))} {table_link(table)}"
                lines.append(
                    t(
                        "Table {table}: {players}{where}",
                        table=paired.table_no,
                        players=", ".join(people),
                        where=where,
                    )
                )
            deadline = f"<t:{int(found.deadline)}:R>" if found.deadline else "—"
            header = t(
                "**{league}**, round {round} of {rounds} (bots finish it {deadline}):",
                league=plain(found.name),
                round=found.round,
                rounds=found.rounds,
                deadline=deadline,
            )
            await reply(
                interaction, fit_lines(header, lines, more=lambda n: t("… and {count} more.", count=n))
            )
        except Exception as error:
            await answer_error(interaction, error)

    async def _drop(
        self, interaction: discord.Interaction, player: discord.User, league: int | None, back: bool
    ) -> None:
        try:
            found = await self._league_here(interaction, league)
            t = await for_user(interaction)
            if not await may_organise(interaction, found):
                await reply(interaction, t("Only the league's organiser can drop or reinstate players."))
                return
            await self.service.drop(found.id, player.id, back=back)
            if back:
                text = t(
                    "{player} is paired again from the next round of **{league}**.",
                    player=player.mention,
                    league=plain(found.name),
                )
            else:
                text = t(
                    "{player} is no longer paired in **{league}** (their results so far stay).",
                    player=player.mention,
                    league=plain(found.name),
                )
            await reply(interaction, text)
        except Exception as error:
            await answer_error(interaction, error)

    @league_group.command(
        name=locale_str("drop"), description=locale_str("Stop pairing a player in a league (organiser)")
    )
    @app_commands.rename(player=locale_str("player"), league=locale_str("league"))
    @app_commands.describe(
        player=locale_str("The player to drop"),
        league=locale_str("Which league (the newest here when left out)"),
    )
    @app_commands.autocomplete(league=league_choices)
    async def league_drop(
        self, interaction: discord.Interaction, player: discord.User, league: int | None = None
    ) -> None:
        """Stop pairing a player from the next round on (the league's organiser)."""
        await self._drop(interaction, player, league, back=False)

    @league_group.command(
        name=locale_str("reinstate"), description=locale_str("Pair a dropped player again (organiser)")
    )
    @app_commands.rename(player=locale_str("player"), league=locale_str("league"))
    @app_commands.describe(
        player=locale_str("The player to pair again"),
        league=locale_str("Which league (the newest here when left out)"),
    )
    @app_commands.autocomplete(league=league_choices)
    async def league_reinstate(
        self, interaction: discord.Interaction, player: discord.User, league: int | None = None
    ) -> None:
        """Pair a dropped player again from the next round on (the league's organiser)."""
        await self._drop(interaction, player, league, back=True)

    @league_group.command(
        name=locale_str("end"),
        description=locale_str("End a league now: its standings are final (organiser)"),
    )
    @app_commands.rename(league=locale_str("league"))
    @app_commands.describe(league=locale_str("Which league (the newest here when left out)"))
    @app_commands.autocomplete(league=league_choices)
    async def league_end(self, interaction: discord.Interaction, league: int | None = None) -> None:
        """End a league now: the standings as they are are final (the league's organiser)."""
        try:
            found = await self._league_here(interaction, league)
            t = await for_user(interaction)
            if not await may_organise(interaction, found):
                await reply(interaction, t("Only the league's organiser can end it."))
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            async with keyed_lock(self._locks, found.id):
                closed = await self.service.end(found.id)
                if closed is None:
                    raise TableError(say("This league is already over."))
                posted = await self.post_standings(closed)
                await self.refresh_card(closed.league)
            if posted:
                done = t("**{league}** is over; its final standings are posted.", league=plain(found.name))
            else:
                done = t(
                    "**{league}** is over. Discord refused its final standings for now; the bot posts "
                    "them as soon as it can.",
                    league=plain(found.name),
                )
            await reply(interaction, done)
        except Exception as error:
            await answer_error(interaction, error)


async def league_picture(
    league: LeagueRecord, players: list[LeaguePlayer], t: i18n.Words, *, final: bool
) -> renderers.Picture | None:
    """The standings picture (with the podium when ``final``), drawn off the loop; None if it fails."""
    rows = [
        {
            "place": p.place or i,
            "name": p.name,
            "points": p.points,
            "score": p.score,
            "played": p.played,
            "dropped": not p.active and not final,
        }
        for i, p in enumerate(players, start=1)
    ]
    view = {"name": league.name, "round": league.round, "rounds": league.rounds, "final": final, "rows": rows}
    try:
        return await renderers.render_league_async(league.game, view, lang=t.lang)
    except Exception:  # the words carry the standings too
        log.exception("league %s: no standings picture", league.id)
        return None


async def setup(bot: commands.Bot) -> None:
    """Load the league cog and its persistent buttons."""
    bot.add_dynamic_items(SignupButton)
    await bot.add_cog(League(bot, host(bot).runner))
