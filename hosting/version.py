"""The bot's version: one number for ``bot.py --version``, the start-up log, the health check
and CHANGELOG.md (tests/app/test_admin_image.py checks pyproject.toml and the changelog agree)."""

from __future__ import annotations

VERSION = "0.3.6"
