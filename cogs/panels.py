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

import i18n
from cogs.common import dynamic_view
from hosting.service import Choice, Panel
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
    template=rf"act:(?P<table>\d+):(?P<token>{TOKEN}):(?P<index>\d+)",
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
        await interaction.client.get_cog("Play").choose(interaction, self.table_id, self.token, self.index)


class ChoiceSelect(
    discord.ui.DynamicItem[discord.ui.Select], template=rf"pick:(?P<table>\d+):(?P<token>{TOKEN}):(?P<n>\d+)"
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
        await interaction.client.get_cog("Play").choose(interaction, self.table_id, self.token, index)


class SuggestButton(discord.ui.DynamicItem[discord.ui.Button], template=r"hint:(?P<table>\d+)"):
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
        await interaction.client.get_cog("Play").suggest(interaction, self.table_id)


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
