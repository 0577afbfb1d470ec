"""The lobby as people use it: /play, Join, Add bot, Start, Cancel, and every refusal."""

from __future__ import annotations

import discord
import pytest

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
    labels = [c.label for row in lobby.components for c in row.children]
    assert labels == ["Join", "Leave", "Add bot", "Start", "Cancel"]


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
