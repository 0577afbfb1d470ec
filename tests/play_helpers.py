"""Playing through the Discord UI the way people do (the helpers live in `simtools.ui`).

Kept under this name for the tests and outside checks that import it.
"""

from simtools.ui import (
    MENTION,
    PANEL_BUTTONS,
    awaited,
    controls,
    latest_board,
    messages,
    play_panel,
    prefer,
    results_message,
    said,
    take_turns,
)

__all__ = [
    "MENTION",
    "PANEL_BUTTONS",
    "awaited",
    "controls",
    "latest_board",
    "messages",
    "play_panel",
    "prefer",
    "results_message",
    "said",
    "take_turns",
]
