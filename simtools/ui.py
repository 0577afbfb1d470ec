"""Playing through the Discord UI the way people do: read the board, open your panel, choose.

`play_to_the_end` drives every awaited human from the board's "Waiting for"
line, choosing among the panel's buttons and menus with a seeded chooser, until
the results message is posted.
"""

from __future__ import annotations

import random
import re

MENTION = re.compile(r"<@(\d+)>")
#: Discord's button styles: the panel's confirm button is green, its back/reset/hint buttons grey.
SUCCESS, SECONDARY = 3, 2
PANEL_BUTTONS = ("My hand", "My tiles", "My sheet")


def said(result) -> str:
    """What the user was told privately: the ephemeral answer, or its first ephemeral follow-up.

    Clicks and commands that write acknowledge first (a lobby click updates the
    lobby, a `/game` command defers), so their answer comes as a follow-up.
    """
    if result.response is not None and result.response.ephemeral and result.response.content:
        return result.response.content
    return next((f.content for f in result.followups if f.ephemeral), "")


def messages(thread):
    """The thread's messages, oldest first."""
    return sorted(thread.history(), key=lambda m: m.id)


def _custom_ids(message) -> list[str]:
    return [
        getattr(c, "custom_id", None) or ""
        for row in message.components
        for c in getattr(row, "children", [])
    ]


def panel_button(board):
    """The board's button that opens a player's panel (whatever its label's language)."""
    buttons = (c for row in board.components for c in row.children)
    return next((c for c in buttons if (c.custom_id or "").startswith("board:hand:")), None)


def latest_board(thread):
    """The newest board message (the one with a panel button)."""
    for message in reversed(messages(thread)):
        if any(custom_id.startswith("board:hand:") for custom_id in _custom_ids(message)):
            return message
    return None


def results_message(thread):
    """The final ranking message, once posted (it offers a rematch; in English its title says so)."""
    for message in reversed(messages(thread)):
        if message.embeds and (message.embeds[0].title or "").endswith("final ranking"):
            return message
        if message.embeds and any(custom_id.startswith("rematch:") for custom_id in _custom_ids(message)):
            return message
    return None


def awaited(board) -> list[int]:
    """User ids the board is waiting for: the "Waiting for" line's mentions (a board in another
    language: its mentions, which name exactly the awaited players)."""
    lines = board.content.splitlines()
    line = next((ln for ln in lines if ln.startswith("Waiting for")), None)
    return [int(uid) for uid in MENTION.findall(board.content if line is None else line)]


def controls(panel_message) -> tuple[list[dict], list[dict]]:
    """(buttons, selects) of a panel, as raw component dicts."""
    buttons, selects = [], []
    for row in panel_message.components:
        for item in row.get("components", []):
            (buttons if item["type"] == 2 else selects).append(item)
    return buttons, selects


def _confirms(button: dict) -> bool:
    return button.get("style") == SUCCESS or button.get("label", "").startswith("Confirm")


def _goes_back(button: dict) -> bool:
    return button.get("style") == SECONDARY or button.get("label", "").startswith(("Reset", "Back", "Undo"))


def prefer(buttons, selects, rng: random.Random):
    """A sensible click: confirm when possible (the green button), never reset, go back or ask for
    a hint (the grey ones), else a random choice."""
    for button in buttons:
        if _confirms(button):
            return ("button", button)
    forward = [b for b in buttons if not _goes_back(b)]
    options = [(s, o) for s in selects for o in s["options"]]
    pool = [("button", b) for b in forward] + [("option", pair) for pair in options]
    if not pool:
        pool = [("button", b) for b in buttons]
    return rng.choice(pool)


async def take_turns(thread, members: dict[int, object], rng: random.Random, max_turns: int = 600):
    """Play every awaited human's moves until the game ends; return the results message.

    Returns None when ``max_turns`` panels were played and the game is still running.
    """
    for _ in range(max_turns):
        done = results_message(thread)
        if done is not None:
            return done
        board = latest_board(thread)
        assert board is not None, "no board message in the thread"
        waiting = [uid for uid in awaited(board) if uid in members]
        assert waiting, f"the board waits for nobody we know: {board.content!r}"
        member = members[waiting[0]]
        opened = await member.click(board, custom_id=panel_button(board).custom_id)
        assert opened.ephemeral
        panel = opened.followups[0] if opened.followups else opened.response
        assert panel.attachments, "a panel always shows the player's picture"
        await play_panel(member, panel, rng)
    return results_message(thread)


async def play_panel(member, panel, rng: random.Random, limit: int = 200) -> None:
    """Click through a player's panel until it offers nothing more."""
    for _ in range(limit):
        buttons, selects = controls(panel)
        if not buttons and not selects:
            return
        kind, choice = prefer(buttons, selects, rng)
        if kind == "button":
            result = await member.click(panel, custom_id=choice["custom_id"])
        else:
            select, option = choice
            result = await member.select(panel, [option["value"]], custom_id=select["custom_id"])
        refused = [f for f in result.followups if f.ephemeral and "out of date" in f.content]
        assert not refused, refused[0].content
        # A control the bot no longer recognises (its dynamic item not dispatched) is answered so.
        answers = [m.content for m in (result.response, *result.followups) if m is not None]
        assert not any("not one of ours" in text for text in answers), answers
        if kind == "button" and _confirms(choice):
            return  # done for now; a person closes the panel after confirming
