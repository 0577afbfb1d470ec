"""The lobby as people use it: /play, Join, Add bot, Start, Cancel, and every refusal."""

from __future__ import annotations

import discord
import pytest

import engine
from hosting.service import played_by
from tests.play_helpers import said


@pytest.fixture
def table_world(simcord_env):
    """A server with a #games channel and three members."""
    guild = simcord_env.create_guild("Jeju Friends")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    carol = guild.add_member(simcord_env.create_user("carol"))
    return guild, channel, alice, bob, carol


async def open_table(channel, host, game="takeaway", **options):
    """Run /play and return (the public reply, the lobby message in the new thread)."""
    result = await host.slash(channel, "play", game=game, **options)
    if result.ephemeral and "already have an open lobby" in result.response.content:
        result = await host.click(result.response, label="Open another")  # yes, another one
    assert not result.ephemeral
    reply = result.followups[0] if result.followups else result.response
    thread_id = int(reply.content.split("/")[-2])
    thread = next(t for t in channel.threads if t.id == thread_id)
    return reply, thread.last_message, thread


def fetch(thread, message_id):
    """The message as it stands now in the thread."""
    return next(m for m in thread.history() if m.id == message_id)


def seated(lobby) -> str:
    return lobby.embeds[0].description


async def test_play_opens_a_lobby_in_a_new_thread(table_world):
    guild, channel, alice, *_ = table_world
    reply, lobby, thread = await open_table(channel, alice)
    assert "opened a table of **Take-away (test game)**" in reply.content
    assert thread.is_thread
    assert lobby.embeds[0].title.startswith("Take-away (test game) — table #")
    assert alice.mention in seated(lobby)
    labels = [getattr(c, "label", None) or c.placeholder for row in lobby.components for c in row.children]
    assert labels == [
        *("Join", "Leave", "Start", "Cancel", "Add bot", "Remove bot", "Hints: off"),
        *("Add a bot of a level…", "Host: choose the pile…"),  # the test game has one option
    ]


async def test_join_add_bot_and_start(table_world):
    guild, channel, alice, bob, _ = table_world
    _, lobby, thread = await open_table(channel, alice)
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Add bot")
    message = fetch(thread, lobby.id)
    text = seated(message)
    assert alice.mention in text and bob.mention in text and "🤖 Bot Dol" in text
    await alice.click(message, label="Start")
    message = fetch(thread, lobby.id)
    assert message.embeds[0].footer.text == "This table is active."
    assert message.components == []


async def test_refusals_change_nothing(table_world):
    guild, channel, alice, bob, carol = table_world
    _, lobby, thread = await open_table(channel, alice)

    result = await alice.click(lobby, label="Join")
    assert said(result) == "You are already seated at this table."

    result = await bob.click(lobby, label="Start")
    assert said(result) == "Only the host can start the game."

    result = await alice.click(lobby, label="Start")
    assert "needs 1 more player" in said(result)

    result = await bob.click(lobby, label="Leave")
    assert said(result) == "You are not seated at this table."

    result = await bob.click(lobby, label="Add bot")
    assert "Only players seated" in said(result)

    result = await bob.click(lobby, label="Cancel")
    assert "Only the host or a member with Manage Server" in said(result)

    message = fetch(thread, lobby.id)
    assert seated(message) == f"1. {alice.mention} (host)"


async def test_full_table_refuses_joins_and_starting_removes_the_buttons(table_world):
    guild, channel, alice, bob, carol = table_world
    _, lobby, thread = await open_table(channel, alice)
    for _ in range(3):
        await alice.click(lobby, label="Add bot")
    result = await bob.click(lobby, label="Join")
    assert said(result) == "This table is full (4 seats)."
    await alice.click(lobby, label="Start")
    assert fetch(thread, lobby.id).components == []


async def test_manage_server_member_can_cancel(table_world, simcord_env):
    guild, channel, alice, bob, _ = table_world
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    _, lobby, thread = await open_table(channel, alice)
    await mod.click(lobby, label="Cancel")
    message = fetch(thread, lobby.id)
    assert message.embeds[0].footer.text == "This table is cancelled."
    assert message.components == []


async def test_lobby_buttons_survive_a_restart(table_world, simcord_env, make_bot):
    guild, channel, alice, bob, _ = table_world
    _, lobby, thread = await open_table(channel, alice)
    await simcord_env.restart_bot(make_bot())
    await bob.click(lobby, label="Join")
    message = fetch(thread, lobby.id)
    assert bob.mention in seated(message) and alice.mention in seated(message)


async def test_games_lists_my_open_tables(table_world):
    guild, channel, alice, bob, _ = table_world
    _, lobby, thread = await open_table(channel, alice)
    result = await alice.slash(channel, "games")
    assert result.ephemeral
    assert "Take-away (test game)" in result.response.content
    assert f"/{thread.id}" in result.response.content
    result = await bob.slash(channel, "games")
    assert "no open tables" in result.response.content


async def test_the_host_sets_the_table_up_in_the_lobby(table_world, simcord_env):
    guild, channel, alice, bob, carol = table_world
    _, lobby, thread = await open_table(channel, alice, game="reef")
    await bob.click(lobby, label="Join")
    refused = await bob.select(fetch(thread, lobby.id), ["arcane-atoll"], custom_id=f"lobbyset:reef:{1}")
    assert said(refused) == "Only the host can set the table up."
    await alice.select(fetch(thread, lobby.id), ["arcane-atoll"], custom_id="lobbyset:reef:1")
    await alice.select(fetch(thread, lobby.id), ["moonrise"], custom_id="lobbyset:tracker:1")
    options = fetch(thread, lobby.id).embeds[0].fields[0].value
    assert "Arcane Atoll" in options and "Moonrise" in options  # in words, never keys
    await alice.click(fetch(thread, lobby.id), label="Start")
    table = await simcord_env.bot.tables.get(1)
    assert table.options == {"reef": "arcane-atoll", "tracker": "moonrise"}
    state = simcord_env.bot.tables.state_of(table)
    assert "Arcane Atoll" in engine.get("reef").summary(state)  # the engine plays the chosen reef


async def test_bots_of_every_level_and_remove_bot(table_world, simcord_env):
    guild, channel, alice, bob, carol = table_world
    _, lobby, thread = await open_table(channel, alice, game="jeju")
    for level in ("easy", "expert"):
        await alice.select(fetch(thread, lobby.id), [level], custom_id="lobbyset:level:1")
    table = await simcord_env.bot.tables.get(1)
    assert [(s.name, s.policy) for s in table.seats[1:]] == [
        ("Bot Dol (easy)", "beginner"),
        ("Bot Haru (expert)", "expert"),
    ]
    assert "Bot Haru (expert)" in seated(fetch(thread, lobby.id))
    await bob.click(fetch(thread, lobby.id), label="Join")
    await bob.click(fetch(thread, lobby.id), label="Remove bot")
    table = await simcord_env.bot.tables.get(1)
    assert [s.name for s in table.seats] == ["alice", "Bot Dol (easy)", "bob"]
    await alice.click(fetch(thread, lobby.id), label="Remove bot")
    await alice.click(fetch(thread, lobby.id), label="Remove bot")
    assert said(await alice.click(fetch(thread, lobby.id), label="Remove bot")) == (
        "There is no bot at this table to remove."
    )


async def test_a_second_lobby_asks_first(table_world, simcord_env):
    guild, channel, alice, bob, carol = table_world
    await open_table(channel, alice, game="jeju")
    asked = await alice.slash(channel, "play", game="reef")
    assert asked.ephemeral and "You already have an open lobby" in asked.response.content
    assert len(channel.threads) == 1  # nothing opened yet
    opened = await alice.click(asked.response, label="Open another")
    reply = opened.followups[0] if opened.followups else opened.response
    assert "opened a table of **Reef & Ruins**" in reply.content
    assert len(channel.threads) == 2


async def test_play_alone_against_bots_of_one_level(table_world, simcord_env):
    guild, channel, alice, bob, carol = table_world
    _, lobby, thread = await open_table(channel, alice, game="haenyeo", bots="easy")
    table = await simcord_env.bot.tables.get(1)
    assert [s.policy for s in table.seats] == [None, "beginner", "beginner", "beginner"]  # four seats
    # what the bots are told plays each seat (their searches model the others as that)
    assert played_by(table) == (None, "beginner", "beginner", "beginner")
    await alice.click(fetch(thread, lobby.id), label="Start")
    assert (await simcord_env.bot.tables.get(1)).status == "active"


async def test_a_table_left_to_bots_alone_plays_to_the_end(table_world, simcord_env):
    guild, channel, alice, bob, carol = table_world
    _, lobby, thread = await open_table(channel, alice, game="jeju", bots="easy")
    await alice.click(fetch(thread, lobby.id), label="Start")
    board = next(m for m in reversed(thread.history()) if "· table #" in m.content)
    asked = await alice.click(board, label="Leave")
    await alice.click(asked.response, label="Yes, leave")
    table = await simcord_env.bot.tables.get(1)
    assert table.status == "finished" and all(s.is_bot for s in table.seats)
    assert any(m.embeds and m.embeds[0].title.endswith("final ranking") for m in thread.history())
