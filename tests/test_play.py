"""Whole games through the Discord UI: boards, panels, bots, results."""

from __future__ import annotations

import random

import pytest

from tests.play_helpers import latest_board, messages, take_turns
from tests.test_lobby import open_table


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild("Jeju Friends")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol", "dan")]
    return guild, channel, people


async def seat_and_start(channel, host, others, bots: int, game: str):
    """Open a table, seat the others, add bots, start; return the thread."""
    _, lobby, thread = await open_table(channel, host, game=game)
    for member in others:
        await member.click(lobby, label="Join")
    for _ in range(bots):
        await host.click(lobby, label="Add bot")
    await host.click(lobby, label="Start")
    return thread


@pytest.mark.parametrize(
    ("game", "humans", "bots"),
    [
        ("haenyeo", 2, 0),  # two players and the NPC
        ("haenyeo", 3, 1),
        ("jeju", 2, 1),
        ("reef", 1, 0),  # solo
        ("reef", 2, 1),
    ],
)
async def test_a_whole_game_through_the_ui(world, game, humans, bots):
    guild, channel, people = world
    players = people[:humans]
    thread = await seat_and_start(channel, players[0], players[1:], bots, game)
    board = latest_board(thread)
    assert board.attachments and board.attachments[0].description
    results = await take_turns(None, thread, {p.id: p for p in players}, random.Random(7))
    assert "final ranking" in results.embeds[0].title
    assert results.attachments
    assert len(messages(thread)) > 3
