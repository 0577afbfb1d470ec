"""Refusals a user can cause. Each message is written for that user."""

from __future__ import annotations

from i18n import Msg, english, say


class TableError(Exception):
    """A request about a table that is refused, written for the user who asked.

    Raise it with an `i18n.say` message so the user reads it in their language
    (``error.say``; the cogs say it with ``t.msg``); ``str(error)`` is the English.
    """

    def __init__(self, message: Msg | str) -> None:
        self.say: Msg | str = message
        super().__init__(english(message))


class StaleVersion(TableError):
    """The table changed since the caller read it (a racing click or an old button)."""

    def __init__(self, message: Msg | str | None = None) -> None:
        super().__init__(message or say("This board is out of date: the table has moved on."))


class TableNotFound(TableError):
    """No table has that id."""

    def __init__(self, message: Msg | str | None = None) -> None:
        super().__init__(message or say("That table no longer exists."))


class SchemaTooNew(Exception):
    """The database was written by a newer version of the bot than this one."""
