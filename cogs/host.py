"""The bot as the cogs see it: discord.py's `commands.Bot` with the game host's own parts.

`gamebot.GameBot` is a `HostBot` and sets these parts; a cog reaches them through `host`
(``host(interaction.client).runner``) rather than through attributes discord.py's types do not
know, so they stay typed wherever they are used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord
from discord.ext import commands

if TYPE_CHECKING:  # the cogs that define them import this module
    from cogs.clock import Clock
    from cogs.runner import TableRunner
    from hosting.service import TableService


class HostBot(commands.Bot):
    """discord.py's bot with what every cog uses: the table service (``tables``), the table runner
    that posts what each table owes (``runner``) and the table clock (``clock``, set when its
    extension loads)."""

    tables: TableService
    runner: TableRunner
    clock: Clock | None


def host(client: discord.Client) -> HostBot:
    """The bot that received an interaction (``interaction.client``) or loads a cog, as the host."""
    return cast(HostBot, client)
