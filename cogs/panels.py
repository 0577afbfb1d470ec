"""A player's controls, built from their legal actions.

The service numbers a seat's legal actions and names them with a freshness
token (`hosting.service.Panel`). Each group of actions becomes a row of buttons
when it is small, or a select menu otherwise. A button's custom_id is
``act:<table>:<token>:<index>``; a select's is ``pick:<table>:<token>:<n>`` and
its values are ``<index>.<token>``: the action index, tagged with the panel's
token so that no two panels share a value (a client that keeps a menu's last
pick by position, as the offline page does, shows the placeholder on the next
panel instead of an old pick). The token makes an old panel harmless: a click
on choices that are no longer current is refused, never misapplied.

At a table whose host turned hints on, the panel also offers **Suggest**
(``hint:<table>``), which answers privately with the move the expert would
pick for this seat and why (`cogs.play.Play.suggest`).
"""

from __future__ import annotations

import logging

import discord

import engine
import i18n
from cogs.board import as_files, event_line, seat_names, waiting_for
from cogs.common import MESSAGE_LIMIT, NO_PINGS, answer_error, control, dynamic_view, plain, reply
from cogs.host import host
from cogs.language import for_user
from cogs.runner import TableRunner
from hosting.errors import TableError
from hosting.records import ACTIVE, TableRecord
from hosting.service import Choice, Move, Panel, status_sentence
from i18n import N_

log = logging.getLogger(__name__)

ROWS = 5  # action rows in a message
BUTTONS_PER_ROW = 5
OPTIONS_PER_SELECT = 25
TOKEN = r"[0-9]+\.[0-9a-f]+"
#: The title of a menu mixing several decisions (and of a decision with no name).
CHOOSE_A_MOVE = N_("Choose a move")


def _style(label: str) -> discord.ButtonStyle:
    if label.startswith("Confirm"):
        return discord.ButtonStyle.success
    if label.startswith(("Reset", "Back", "Undo")):
        return discord.ButtonStyle.secondary
    return discord.ButtonStyle.primary


def _grouped(choices: list[Choice]) -> list[tuple[str, list[Choice]]]:
    """Choices by group, keeping the order in which groups first appear."""
    order: dict[str, list[Choice]] = {}
    for choice in choices:
        order.setdefault(choice.group, []).append(choice)
    return list(order.items())


def _chunks(choices: list[Choice], size: int) -> list[list[Choice]]:
    return [choices[i : i + size] for i in range(0, len(choices), size)]


def plan_rows(choices: list[Choice], rows_free: int = ROWS) -> list[tuple[str, str, list[Choice]]]:
    """Lay choices out in at most ``rows_free`` rows: ("buttons" | "select", title, choices) per row.

    Small groups become buttons and big ones selects; when that needs more than
    five rows, every group becomes a select, and past that the groups share
    selects whose options name their group.
    """
    groups = _grouped(choices)
    rows: list[tuple[str, str, list[Choice]]] = []
    for group, members in groups:
        if len(members) <= BUTTONS_PER_ROW:
            rows.append(("buttons", group, members))
        else:
            rows.extend(("select", group, chunk) for chunk in _chunks(members, OPTIONS_PER_SELECT))
    if len(rows) <= rows_free:
        return rows
    rows = [
        ("select", group, chunk)
        for group, members in groups
        for chunk in _chunks(members, OPTIONS_PER_SELECT)
    ]
    if len(rows) <= rows_free:
        return rows
    rows = [("select", CHOOSE_A_MOVE, chunk) for chunk in _chunks(choices, OPTIONS_PER_SELECT)]
    if len(rows) > rows_free:
        log.warning("a panel has %d choices; only the first %d are offered", len(choices), rows_free * 25)
    return rows[:rows_free]


def option_value(index: int, token: str) -> str:
    """A menu option's value: the action index, tagged with the panel's token (see the module doc)."""
    return f"{index}.{token}"


def placeholder(title: str, part: int = 0, parts: int = 1, *, t: i18n.Words | None = None) -> str:
    """What a select shows until something is picked: the decision, never an option.

    ``"Travel"`` -> ``"Travel: choose one…"``; a group split over several menus
    numbers them (``"Travel (2 of 2): choose one…"``). ``title`` is the English
    group name; it is shown in ``t``'s language.
    """
    t = t or i18n.words(i18n.SOURCE)
    title = t((title or "").strip() or CHOOSE_A_MOVE)
    if parts > 1:
        title = t("{title} ({part} of {parts})", title=title, part=part + 1, parts=parts)
    return t("{title}: choose one…", title=title)[:150]


class ChoiceButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=control(rf"act:(?P<table>\d+):(?P<token>{TOKEN}):(?P<index>\d+)"),
):
    """One legal action as a button."""

    def __init__(
        self, table_id: int, token: str, index: int, label: str = "?", *, style_of: str | None = None
    ) -> None:
        """``style_of``: the English label that picks the colour (``label`` itself when not given)."""
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=_style(style_of or label),
                custom_id=f"act:{table_id}:{token}:{index}",
            )
        )
        self.table_id, self.token, self.index = table_id, token, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match
    ) -> ChoiceButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["table"]), match["token"], int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Apply this choice."""
        await choose(interaction, self.table_id, self.token, self.index)


class ChoiceSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=control(rf"pick:(?P<table>\d+):(?P<token>{TOKEN}):(?P<n>\d+)"),
):
    """A menu of legal actions; each option's value is its action index."""

    def __init__(
        self,
        table_id: int,
        token: str,
        n: int,
        title: str = "",
        choices: list[Choice] | None = None,
        part: int = 0,
        parts: int = 1,
        *,
        t: i18n.Words | None = None,
    ):
        t = t or i18n.words(i18n.SOURCE)
        # No option is ever a default: a refreshed panel shows the placeholder, never the
        # last choice, which would read as the menu's purpose. An option names its group
        # (the grey line) only in a menu that mixes groups: elsewhere the title says it once.
        options = [
            discord.SelectOption(
                label=c.label[:100],
                value=option_value(c.index, token),
                description=(t(c.group)[:100] if c.group and c.group != title else None),
                default=False,
            )
            for c in choices or []
        ] or [discord.SelectOption(label="?", value="-1", default=False)]
        select = discord.ui.Select(
            custom_id=f"pick:{table_id}:{token}:{n}",
            placeholder=placeholder(title, part, parts, t=t),
            options=options,
            min_values=1,
            max_values=1,
        )
        super().__init__(select)
        self.table_id, self.token = table_id, token

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match
    ) -> ChoiceSelect:
        """Rebuild the menu from its custom_id (its options are not needed to act)."""
        return cls(int(match["table"]), match["token"], int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Apply the chosen option."""
        values = (interaction.data or {}).get("values") or []
        head = str(values[0]).split(".", 1)[0] if len(values) == 1 else ""
        index = int(head) if head.isdecimal() else -1
        await choose(interaction, self.table_id, self.token, index)


class SuggestButton(discord.ui.DynamicItem[discord.ui.Button], template=control(r"hint:(?P<table>\d+)")):
    """**Suggest** on a panel at a table with hints: the expert's move for this seat, privately."""

    def __init__(self, table_id: int, *, t: i18n.Words | None = None) -> None:
        t = t or i18n.words(i18n.SOURCE)
        super().__init__(
            discord.ui.Button(
                label=t("Suggest")[:80],
                emoji="💡",
                style=discord.ButtonStyle.secondary,
                custom_id=f"hint:{table_id}",
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match
    ) -> SuggestButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer with the expert's suggestion."""
        await suggest(interaction, self.table_id)


def panel_view(
    table_id: int,
    panel: Panel,
    hints: bool = False,
    *,
    t: i18n.Words | None = None,
) -> discord.ui.View:
    """The controls for a seat's panel (empty when it owes nothing); ``hints`` adds Suggest below.

    Labels are the panel's (in the player's language); menu titles and group names are
    said in ``t``'s. A button's colour follows its English label ("Confirm …" green).
    """
    t = t or i18n.words(i18n.SOURCE)
    view = dynamic_view()
    hinting = hints and bool(panel.choices)
    rows = plan_rows(panel.choices, ROWS - 1 if hinting else ROWS)
    menus = [title for kind, title, _ in rows if kind == "select"]
    seen: dict[str, int] = {}
    for row, (kind, title, choices) in enumerate(rows):
        if kind == "buttons":
            for choice in choices:
                item = ChoiceButton(
                    table_id, panel.token, choice.index, choice.label, style_of=choice.english
                )
                item.row = row
                view.add_item(item)
        else:
            part = seen[title] = seen.get(title, -1) + 1
            select = ChoiceSelect(table_id, panel.token, row, title, choices, part, menus.count(title), t=t)
            select.row = row
            view.add_item(select)
    if hinting:
        suggest = SuggestButton(table_id, t=t)
        suggest.row = len(rows)
        view.add_item(suggest)
    return view


# ------------------------------------------------------------ a seat's panel, and what its controls do


async def panel_message(
    runner: TableRunner,
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
    state = runner.service.state_of(table)
    panel: Panel = runner.service.panel(table, seat, lang=t.lang)
    picture = await runner.picture(
        table.game, runner.service.seat_view(table, seat), seat_names(table, t.lang), lang=t.lang
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
        status = t("Nothing to do right now. {waiting}", waiting=waiting_for(table, game.to_act(state), t=t))
    content = "\n".join(line for line in (note, status) if line)[:MESSAGE_LIMIT]
    hints = table.options.get("hints", "off") != "off" and table.status == ACTIVE
    view = panel_view(table.id, panel, hints=hints, t=t)
    return {"content": content, "attachments": as_files(picture), "view": view}


async def suggest(interaction: discord.Interaction, table_id: int) -> None:
    """**Suggest**: the move the expert would pick for the clicker's seat, and why.

    Shown at the top of the clicker's own panel (the ephemeral message the button
    is on), edited in place: one answer at a time, never a pile of messages. The
    expert sees only what this seat sees. The first hint marks the table, so its
    results say hints were used and it moves no rating.
    """
    runner = host(interaction.client).runner
    try:
        await interaction.response.defer()  # a search may take a moment; the panel shows the answer
        t = await for_user(interaction)
        try:
            hint = await runner.service.suggest(table_id, interaction.user.id, lang=t.lang)
        except TableError as refusal:  # said in the panel too, in place of an answer
            hint, note = None, "💡 " + t.msg(refusal.say)
        table = await runner.service.get(table_id)
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
        message = await panel_message(runner, table, seat.seat, note=note, t=t)
        await interaction.edit_original_response(allowed_mentions=NO_PINGS, **message)
    except Exception as error:
        await answer_error(interaction, error, table_id)


async def open_panel(interaction: discord.Interaction, table: TableRecord) -> None:
    """Send the clicking player their private panel (ephemeral)."""
    runner = host(interaction.client).runner
    t = await for_user(interaction)
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        await reply(interaction, t("You are not seated at this table."))
        return
    if table.status != ACTIVE:
        await reply(interaction, t.msg(status_sentence(table)))
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    message = await panel_message(runner, table, seat.seat, t=t)
    files = message.pop("attachments")
    await interaction.followup.send(ephemeral=True, allowed_mentions=NO_PINGS, files=files, **message)


async def choose(interaction: discord.Interaction, table_id: int, token: str, index: int) -> None:
    """Apply a choice from a panel, refresh the panel, and move the table on."""
    runner = host(interaction.client).runner
    service = runner.service
    try:
        await interaction.response.defer()
        t = await for_user(interaction)
        move: Move = await service.submit(table_id, interaction.user.id, token, index)
    except TableError as error:
        await refresh_after_refusal(interaction, table_id, t.msg(error.say), t=t)
        return
    except Exception as error:
        await answer_error(interaction, error, table_id)
        return
    runner.spawn(
        runner.advance(
            table_id,
            move.events,
            mover=interaction.user.id,
            new_step=move.new_step,
            clicked_at=interaction.created_at,
        )
    )
    try:
        mine = [
            event_line(e, move.table, t, bold=False)
            for e in move.events
            if e.get("private") and e.get("seat") == move.seat
        ]
        message = await panel_message(
            runner, move.table, move.seat, note="\n".join(mine), after_move=True, t=t
        )
        await interaction.edit_original_response(allowed_mentions=NO_PINGS, **message)
    except Exception as error:  # the move stands; only the refreshed panel is missing
        await answer_error(interaction, error, table_id)


async def refresh_after_refusal(
    interaction: discord.Interaction, table_id: int, why: str, *, t: i18n.Words | None = None
) -> None:
    """Say why a choice was refused, and show the current choices instead of stale ones."""
    runner = host(interaction.client).runner
    t = t or i18n.words(i18n.SOURCE)
    await interaction.followup.send(why[:MESSAGE_LIMIT], ephemeral=True, allowed_mentions=NO_PINGS)
    try:
        table = await runner.service.get(table_id)
    except TableError:
        return
    seat = table.seat_of(interaction.user.id)
    if seat is not None and table.status == ACTIVE:
        message = await panel_message(runner, table, seat.seat, t=t)
        await interaction.edit_original_response(allowed_mentions=NO_PINGS, **message)
