"""Log output: plain lines for a terminal, or JSON lines for a log collector.

``LOG_FORMAT=plain`` (the default) or ``LOG_FORMAT=json``. A log call about a
table passes its id as ``extra={"table_id": ...}``; both formats print it, so
``grep table=42`` (plain) or ``jq 'select(.table_id == 42)'`` (json) finds every
line about table 42.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import IO

FORMATS = ("plain", "json")
#: Record attributes a log call may add with ``extra=`` that the formatters print.
EXTRA_FIELDS = ("table_id", "incident")

PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def table_extra(table_id: int | None, **more: object) -> dict[str, object]:
    """``extra=`` for a log call about a table."""
    return {"table_id": table_id, **more}


class PlainFormatter(logging.Formatter):
    """The classic one-line format, with ``[table=N]`` when the line is about a table."""

    def __init__(self) -> None:
        super().__init__(PLAIN_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        """One line (plus the traceback, when there is one)."""
        line = super().format(record)
        tags = " ".join(
            f"{name.removesuffix('_id')}={getattr(record, name)}"
            for name in EXTRA_FIELDS
            if getattr(record, name, None) is not None
        )
        if not tags:
            return line
        head, newline, rest = line.partition("\n")
        return f"{head} [{tags}]{newline}{rest}"


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, table_id, and exc when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as a single line of JSON."""
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in EXTRA_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exc"] = record.exc_text
        return json.dumps(entry, ensure_ascii=False, default=str)


def formatter(fmt: str) -> logging.Formatter:
    """The formatter for ``plain`` or ``json``."""
    if fmt not in FORMATS:
        raise ValueError(f"log format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    return JsonFormatter() if fmt == "json" else PlainFormatter()


def setup(level: str = "INFO", fmt: str = "plain", stream: IO[str] | None = None) -> logging.Handler:
    """Send every log record at ``level`` or above to ``stream`` (stderr) in ``fmt``; return the handler."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter(fmt))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler
