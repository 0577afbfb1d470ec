"""Refusals a user can cause. Each message is written for that user."""

from __future__ import annotations


class TableError(Exception):
    """A request about a table that is refused; ``str(error)`` is shown to the user as it is."""


class StaleVersion(TableError):
    """The table changed since the caller read it (a racing click or an old button)."""

    def __init__(self, message: str = "This board is out of date: the table has moved on.") -> None:
        super().__init__(message)


class TableNotFound(TableError):
    """No table has that id."""

    def __init__(self, message: str = "That table no longer exists.") -> None:
        super().__init__(message)


class SchemaTooNew(Exception):
    """The database was written by a newer version of the bot than this one."""
