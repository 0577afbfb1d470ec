"""What a table's messages say and carry: board words, event lines, and the buttons' custom ids.

Shared by the commands (`cogs.play`, `cogs.lobby`) and the table runner
(`cogs.runner`), which posts boards and results. The controls are built here
from their custom ids; the `discord.ui.DynamicItem` classes that answer them
live with the commands (`cogs.play.BoardButton`, `cogs.lobby.RematchButton`)
and match the templates below, so a board drawn here is answered there, after
a restart too.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import discord

import i18n
import renderers
from cogs.common import MESSAGE_LIMIT, control, dynamic_view, plain
from engine.base import Game, State
from hosting.records import ABANDONED, ACTIVE, CANCELLED, FINISHED, LOBBY, Seat, TableRecord
from hosting.service import seat_name
from i18n import N_

#: A board's buttons: ``board:<hand|rules|leave>:<table id>`` (answered by `cogs.play.BoardButton`).
BOARD_TEMPLATE = control(r"board:(?P<verb>[a-z]+):(?P<table>\d+)")
#: The results' Rematch: ``rematch:<finished table id>`` (answered by `cogs.lobby.RematchButton`).
REMATCH_TEMPLATE = control(r"rematch:(?P<table>\d+)")


def board_button(verb: str, table_id: int, label: str = "") -> discord.ui.Button:
    """One of a board's buttons: open the panel (``hand``), ``rules``, or ``leave``."""
    styles = {"hand": discord.ButtonStyle.primary, "leave": discord.ButtonStyle.danger}
    return discord.ui.Button(
        label=label or verb.title(),
        style=styles.get(verb, discord.ButtonStyle.secondary),
        custom_id=f"board:{verb}:{table_id}",
    )


def rematch_button(table_id: int, *, t: i18n.Words | None = None) -> discord.ui.Button:
    """The results' **Rematch** button."""
    t = t or i18n.words(i18n.SOURCE)
    return discord.ui.Button(
        label=t("Rematch"), emoji="🔁", style=discord.ButtonStyle.success, custom_id=f"rematch:{table_id}"
    )


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
        view.add_item(board_button("hand", table.id, t(PANEL_NAMES.get(table.game, PANEL_NAME))[:80]))
    view.add_item(board_button("rules", table.id, t("Rules")[:80]))
    if table.status == ACTIVE:
        view.add_item(board_button("leave", table.id, t("Leave")[:80]))
    return view


def results_view(table: TableRecord, *, t: i18n.Words | None = None) -> discord.ui.View:
    """The buttons under a results message: Rematch (in the results' language)."""
    t = t or i18n.words(i18n.SOURCE)
    view = dynamic_view()
    view.add_item(rematch_button(table.id, t=t))
    return view
