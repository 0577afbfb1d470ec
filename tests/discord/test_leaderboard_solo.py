"""The solo board can be found (issue #41.7): `/leaderboard game:Reef & Ruins` leads to it.

A player whose only Reef & Ruins games are solo sees the solo board by default;
every Reef & Ruins board offers the other one as a button.
"""

from __future__ import annotations

import random

import pytest

from simtools.ui import controls
from tests.discord.test_play import seat_and_start
from tests.play_helpers import said, take_turns


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild("Reef Friends")
    channel = guild.create_text_channel("games")
    carol, dan = (guild.add_member(simcord_env.create_user(n)) for n in ("carol", "dan"))
    return channel, carol, dan


def answer(result):
    return result.followups[0] if result.followups else result.response


@pytest.mark.simcord(settle_timeout=30.0)
async def test_the_solo_board_is_the_default_for_a_solo_player_and_a_button_away_for_others(world):
    channel, carol, dan = world
    solo = await seat_and_start(channel, carol, [], 0, "reef")
    assert await take_turns(solo, {carol.id: carol}, random.Random(4)) is not None

    # Carol has only solo games: the Reef & Ruins board she asks for is the solo board.
    shown = answer(await carol.slash(channel, "leaderboard", game="reef"))
    assert "solo — best scores" in shown.content and "You: **#1** of 1 with" in shown.content
    buttons, _ = controls(shown)
    back = next(b for b in buttons if b["label"] == "Ratings")
    ratings = answer(await carol.click(shown, custom_id=back["custom_id"]))
    assert "ratings, this server" in ratings.content

    # Dan has no game: the ratings board, with the solo board one click away.
    board = answer(await dan.slash(channel, "leaderboard", game="reef"))
    assert "ratings, this server" in board.content
    buttons, _ = controls(board)
    solo_button = next(b for b in buttons if b["label"] == "Solo scores")
    turned = await dan.click(board, custom_id=solo_button["custom_id"])
    assert "solo — best scores" in said(turned) and f"<@{carol.id}>" in said(turned)
