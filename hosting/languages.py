"""Who reads which language: a server's choice for public messages, a player's for their own.

The rule (docs/TRANSLATING.md): a public message (board, results, reminders in
the thread, pictures on the board) speaks the server's language — the one an
admin chose with ``/settings language``, else Discord's server setting
(``guild_locale``). An ephemeral message, a private picture or a DM speaks the
player's language — the one they chose with ``/settings my-language``, else their
Discord client's (``interaction.locale``; for a DM, the locale they were last seen
with). Both choices are kept in the store; this class keeps the recent ones in
memory, bounded, so a click costs no database read.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import i18n
from hosting.store_api import TableStore

#: How many servers' and players' choices are kept in memory (least recently used go).
KEPT = 4096


class _Recent(OrderedDict):
    """A small LRU map."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def keep(self, key: Any, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


class Languages:
    """Language choices of servers and players, read through a bounded cache."""

    def __init__(self, store: TableStore, kept: int = KEPT) -> None:
        self.store = store
        self._guilds: _Recent = _Recent(kept)
        self._players: _Recent = _Recent(kept)  # user id -> (choice, locale last seen)

    async def guild_choice(self, guild_id: int | None) -> str | None:
        """The language a server's admin chose (None: follow Discord's server setting)."""
        if guild_id is None:
            return None
        if guild_id not in self._guilds:
            self._guilds.keep(guild_id, await self.store.guild_language(guild_id))
        self._guilds.move_to_end(guild_id)
        return self._guilds[guild_id]

    async def set_guild(self, guild_id: int, language: str | None) -> None:
        """An admin's choice for the server (None: back to Discord's server setting)."""
        await self.store.set_guild_language(guild_id, language)
        self._guilds.keep(guild_id, language)

    async def public(self, guild_id: int | None, guild_locale: object = None) -> str:
        """The language of a server's public messages: its admin's choice, else ``guild_locale``."""
        return await self.guild_choice(guild_id) or i18n.language(guild_locale)

    async def _player(self, user_id: int) -> tuple[str | None, str | None]:
        if user_id not in self._players:
            self._players.keep(user_id, await self.store.player_language(user_id))
        self._players.move_to_end(user_id)
        return self._players[user_id]

    async def player_choice(self, user_id: int) -> str | None:
        """The language a player chose for themselves (None: their Discord client's)."""
        return (await self._player(user_id))[0]

    async def set_player(self, user_id: int, language: str | None) -> None:
        """A player's own choice (None: back to their Discord client's language)."""
        _choice, seen = await self._player(user_id)
        await self.store.set_player_language(user_id, language)
        self._players.keep(user_id, (language, seen))

    async def personal(self, user_id: int, locale: object = None) -> str:
        """The language of one player's own messages: their choice, else ``locale``.

        ``locale`` is the interaction's (the client the player uses now); it is
        remembered for DMs when it changes. Without it, the locale last seen is used.
        """
        choice, seen = await self._player(user_id)
        current = str(getattr(locale, "value", locale)) if locale else None
        if current and current != seen:
            await self.store.note_locale(user_id, current)
            self._players.keep(user_id, (choice, current))
        return choice or i18n.language(current or seen)
