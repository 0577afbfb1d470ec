"""What the people at each running table play like, read from their moves there (issue #39).

`PlayReadings.levels` gives, per person's seat, the level their moves at this
table read as (`engine.reading`: ``"random"``, ``"beginner"``, ``"expert"`` where the
game reads experts, or None for greedy or better, or too few moves to tell). A
searching bot's model of a person uses it first and their record at the game after
(`hosting.service.TableService.seat_models`).

Readings are kept per table (the last `KEPT` tables asked about) with the state
after the moves read, so each call fetches and reads only the moves made since; a
table not kept (or after a restart) is read again from its whole action log.
"""

from __future__ import annotations

import asyncio
import copy
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace

import engine
from engine.base import State
from engine.reading import TableReading, reads
from hosting.records import LoggedAction, TableRecord
from hosting.store_api import TableStore

#: Tables whose readings are kept between calls (least recently asked about dropped first).
KEPT = 512


@dataclass
class _Read:
    """One table's readings: the log read up to ``seq`` (the table at ``version``) and the state after it."""

    version: int
    seq: int
    state: State
    reading: TableReading


class PlayReadings:
    """Readings of the people at each table, brought up to date from its action log when asked."""

    def __init__(self, store: TableStore, kept: int = KEPT) -> None:
        self.store = store
        self.kept = kept
        self._tables: OrderedDict[int, _Read] = OrderedDict()

    async def levels(self, table: TableRecord, new_state: Callable[[], State]) -> dict[int, str | None]:
        """The level each person's seat at ``table`` reads as from its moves (None: greedy or better,
        or not enough moves yet); empty for a game whose moves are not read. Only the log entries
        after the last one read are fetched.

        ``new_state`` makes the table's state before its first move (its seed and options)."""
        if not reads(table.game):
            return {}
        people = [s.seat for s in table.seats if not s.is_bot and s.user_id is not None]
        if not people:
            return {}
        known = self._tables.get(table.id)
        if known is None or known.seq > table.moves:  # not kept (or a log that is not this one): read anew
            known = _Read(-1, 0, new_state(), TableReading.of(len(table.seats)))
        if known.version != table.version:  # the same version: no new move to fetch
            unread = await self.store.actions(table.id, after=known.seq)
            if unread:
                known = await asyncio.to_thread(_read_more, table.game, known, unread, frozenset(people))
            known = replace(known, version=table.version)
        self._tables[table.id] = known
        self._tables.move_to_end(table.id)
        while len(self._tables) > self.kept:
            self._tables.popitem(last=False)
        readings = known.reading.readings
        return {seat: readings[seat].level() for seat in people if seat < len(readings)}


def _read_more(game_key: str, known: _Read, unread: list[LoggedAction], people: frozenset[int]) -> _Read:
    """``known`` with the ``unread`` log entries played and the people's moves among them read (a new
    `_Read`: the kept one is never changed from a worker thread)."""
    game = engine.get(game_key)
    reading = copy.deepcopy(known.reading)
    state = known.state
    for entry in unread:
        action = game.load_action(entry.action)
        if entry.seat in people and entry.seat < len(reading.readings):
            reading.see(game_key, game, state, entry.seat, action)
        state = game.advance(state, entry.seat, action)
        reading.reveal(game_key, game, state)
    return _Read(known.version, unread[-1].seq, state, reading)
