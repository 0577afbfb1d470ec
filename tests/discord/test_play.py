"""Whole games through the Discord UI: boards, panels, bots, results, restarts and bad input."""

from __future__ import annotations

import random
import re

import discord
import pytest

from tests.discord.test_lobby import open_table
from tests.play_helpers import (
    PANEL_BUTTONS,
    controls,
    latest_board,
    messages,
    play_panel,
    results_message,
    take_turns,
)

GAMES = [
    ("haenyeo", 2, 0),  # two players and the NPC
    ("haenyeo", 3, 1),  # four seats, one a bot
    ("jeju", 2, 1),
    ("reef", 1, 0),  # solo
    ("reef", 2, 1),
]


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild("Jeju Friends")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol", "dan")]
    return guild, channel, people


async def seat_and_start(channel, host, others, bots: int, game: str, **options):
    """Open a table, seat the others, add bots, start; return the thread."""
    _, lobby, thread = await open_table(channel, host, game=game, **options)
    for member in others:
        await member.click(lobby, label="Join")
    for _ in range(bots):
        await host.click(lobby, label="Add bot")
    await host.click(lobby, label="Start")
    return thread


def panel_label(board) -> str:
    return next(c.label for row in board.components for c in row.children if c.label in PANEL_BUTTONS)


@pytest.mark.parametrize(("game", "humans", "bots"), GAMES)
async def test_a_whole_game_through_the_ui(world, game, humans, bots):
    guild, channel, people = world
    players = people[:humans]
    thread = await seat_and_start(channel, players[0], players[1:], bots, game)
    board = latest_board(thread)
    assert board.attachments and board.attachments[0].description  # the picture, with alt text
    assert "Waiting for" in board.content
    results = await take_turns(thread, {p.id: p for p in players}, random.Random(7))
    assert results is not None, "the game did not finish"
    assert results.embeds[0].title.endswith("final ranking")
    assert results.attachments and results.attachments[0].description
    assert all(p.name in results.embeds[0].description for p in players)
    if game == "haenyeo":
        text = "\n".join(m.content for m in messages(thread))
        for scoring_round in (3, 6, 8):
            assert f"Round {scoring_round} scoring" in text


@pytest.mark.parametrize("game", ["haenyeo", "jeju", "reef"])
async def test_a_restart_mid_game_then_finishing_with_the_old_buttons(world, simcord_env, make_bot, game):
    guild, channel, people = world
    players = people[:2]
    thread = await seat_and_start(channel, players[0], players[1:], 1, game)
    members = {p.id: p for p in players}
    assert await take_turns(thread, members, random.Random(3), max_turns=6) is None
    board_before = latest_board(thread)
    await simcord_env.restart_bot(make_bot())
    assert latest_board(thread).id == board_before.id
    results = await take_turns(thread, members, random.Random(4))
    assert results is not None and results.embeds[0].title.endswith("final ranking")


async def test_bad_input_is_refused_and_changes_nothing(world):
    guild, channel, people = world
    alice, bob, carol, _ = people
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju")
    board = latest_board(thread)

    # A spectator.
    result = await carol.click(board, label=panel_label(board))
    assert result.ephemeral and result.response.content == "You are not seated at this table."

    # A player who is not to move sees their picture and no controls.
    waiting_line = board.content.split("Waiting for")[1]
    first, second = (alice, bob) if f"<@{alice.id}>" in waiting_line else (bob, alice)
    result = await second.click(board, label=panel_label(board))
    waiting_panel = result.followups[0] if result.followups else result.response
    assert "Nothing to do right now" in waiting_panel.content
    assert controls(waiting_panel) == ([], [])

    # The player to move: a double click on the same choice applies once.
    result = await first.click(board, label=panel_label(board))
    panel = result.followups[0] if result.followups else result.response
    buttons, selects = controls(panel)
    await use_first_control(first, panel)
    moved_board = latest_board(thread)
    assert moved_board.id != board.id  # the move posted a new board

    # The old board has lost its buttons: one live board at the bottom of the thread.
    old = next(m for m in messages(thread) if m.id == board.id)
    assert old.components == [] and latest_board(thread).id == moved_board.id


async def use_first_control(member, panel, control: dict | None = None):
    """Click a panel's first button, or choose the first option of its first menu."""
    buttons, selects = controls(panel)
    control = control or (buttons or selects)[0]
    if control["type"] == 2:
        return await member.click(panel, custom_id=control["custom_id"])
    return await member.select(panel, [control["options"][0]["value"]], custom_id=control["custom_id"])


async def test_a_stale_panel_choice_is_refused(world):
    guild, channel, people = world
    alice, bob, *_ = people
    thread = await seat_and_start(channel, alice, [bob], 0, "haenyeo")
    board = latest_board(thread)
    first = await alice.click(board, label="My hand")
    old_panel = first.followups[0] if first.followups else first.response
    buttons, selects = controls(old_panel)
    old_control = (buttons or selects)[0]
    second = await alice.click(board, label="My hand")
    new_panel = second.followups[0] if second.followups else second.response
    await use_first_control(alice, new_panel)
    assert "You selected diving card" in new_panel.content
    # The first panel still shows the old choices; using them must not apply anything.
    result = await use_first_control(alice, old_panel, old_control)
    refusals = [f.content for f in result.followups if f.ephemeral]
    assert any("out of date" in text for text in refusals)
    assert "You selected diving card" not in old_panel.content


async def test_leaving_asks_first_then_hands_the_seat_to_a_bot_and_the_game_finishes(world, simcord_env):
    guild, channel, people = world
    alice, bob, *_ = people
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju")
    board = latest_board(thread)
    asked = await bob.click(board, label="Leave")
    assert asked.ephemeral and "A bot will take your seat" in asked.response.content
    stayed = await bob.click(asked.response, label="No, stay")
    assert stayed.response.content == "You stay at the table."
    assert (await simcord_env.bot.tables.get(1)).seat_of(bob.id) is not None  # nothing changed
    asked = await bob.click(board, label="Leave")
    left = await bob.click(asked.response, label="Yes, leave")
    assert "a bot plays your seat" in left.response.content
    results = await take_turns(thread, {alice.id: alice}, random.Random(5))
    assert results is not None
    assert "bob (bot)" in results.embeds[0].description


async def test_game_log_and_rules(world):
    guild, channel, people = world
    alice, bob, *_ = people
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju")
    thread_handle = next(t for t in channel.threads if t.id == thread.id)
    await take_turns(thread, {alice.id: alice, bob.id: bob}, random.Random(1), max_turns=3)
    result = await alice.slash(thread_handle, "game log")
    assert result.ephemeral and "Recent moves at table #" in result.response.content
    assert "alice" in result.response.content
    result = await alice.slash(channel, "game log")
    assert "There is no table in this channel" in result.response.content
    result = await alice.slash(channel, "rules", game="haenyeo")
    assert result.ephemeral and result.response.embeds[0].title.startswith("Haenyeo")
    page_one = result.response.embeds[0].footer.text
    await alice.click(result.response, label="Next ▶")
    assert result.response.embeds[0].footer.text != page_one


async def test_board_mentions_ping_only_the_awaited_players(world, simcord_env):
    guild, channel, people = world
    alice, bob, *_ = people
    thread = await seat_and_start(channel, alice, [bob], 0, "reef")
    posts = [
        entry.json
        for entry in simcord_env.http_requests
        if entry.method == "POST" and entry.path.endswith(f"/channels/{thread.id}/messages") and entry.json
    ]
    board_post = next(p for p in posts if "Waiting for" in (p.get("content") or ""))
    # Exactly the awaited people, by id; never everyone, a role, or whoever a name mentions.
    waiting = board_post["content"].rsplit("Waiting for", 1)[1]
    named = sorted(set(re.findall(r"<@(\d+)>", waiting)))
    assert named and set(named) <= {str(alice.id), str(bob.id)}
    assert board_post["allowed_mentions"] == {"users": named, "parse": []}
    assert results_message(thread) is None
    assert isinstance(latest_board(thread), discord.Message)


def test_a_long_board_drops_whole_old_lines_and_keeps_the_waiting_line():
    from cogs.board import board_text

    lines = [f"**{'x' * 30}{n}** scores {n} points in a very long sentence about shells." for n in range(60)]
    text = board_text("**Haenyeo** · table #1", lines, 0, "Waiting for <@1>")
    assert len(text) <= 2000
    body = text.splitlines()
    assert body[0] == "**Haenyeo** · table #1" and body[-1] == "Waiting for <@1>"
    assert body[1].startswith("… and ") and body[1].endswith("earlier moves (`/game log`)")
    assert body[2:-1] == lines[-len(body[2:-1]) :]  # the newest lines, each whole


async def test_a_finished_thread_reads_as_a_log_with_no_live_buttons_but_rules(world):
    guild, channel, people = world
    alice, bob, *_ = people
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju")
    results = await take_turns(thread, {alice.id: alice, bob.id: bob}, random.Random(8))
    assert results is not None
    boards = [m for m in messages(thread) if "· table #" in m.content]
    live = [m for m in boards if any(c.label in PANEL_BUTTONS for row in m.components for c in row.children)]
    assert live == []  # every board lost its panel button once a newer one was posted
    final = boards[-1]
    assert [c.label for row in final.components for c in row.children] == ["Rules"]
    # Within a turn an old board collapses to words; a board that ended a step keeps its picture.
    assert any(not m.attachments for m in boards[:-1]) and any(m.attachments for m in boards[:-1])


async def test_the_board_tells_the_awaited_player_what_to_press(world):
    guild, channel, people = world
    alice, bob, *_ = people
    thread = await seat_and_start(channel, alice, [bob], 0, "haenyeo")
    waiting = next(
        line for line in latest_board(thread).content.splitlines() if line.startswith("Waiting for")
    )
    assert "— open **My hand**: diving cards" in waiting


async def test_after_confirming_the_panel_says_nothing_can_change_and_until_when(world):
    guild, channel, people = world
    alice, bob, *_ = people
    thread = await seat_and_start(channel, alice, [bob], 0, "reef", pace=3600)
    board = latest_board(thread)
    opened = await alice.click(board, label="My sheet")
    panel = opened.followups[0] if opened.followups else opened.response
    rng = random.Random(2)
    for _ in range(5):  # choose and confirm until the panel offers nothing more
        if controls(panel) == ([], []):
            break
        await play_panel(alice, panel, rng)
    assert "your move is in and can't be changed now" in panel.content, panel.content
    assert "⏰ due <t:" in panel.content  # until when the others have
