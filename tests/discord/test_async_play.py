"""Games that run for days: deadlines, reminders, timeouts, hand-over, pause, replace, /games, /stats.

Time moves only with ``env.advance_time`` (SimCord's virtual clock), never by sleeping.
"""

from __future__ import annotations

import random

import discord
import pytest

from tests.discord.test_play import panel_label, seat_and_start
from tests.play_helpers import awaited, latest_board, messages, play_panel, results_message, said, take_turns

HOUR = 3600
DAY = 24 * HOUR


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild("Jeju Friends")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol")]
    return guild, channel, people


def texts(thread) -> list[str]:
    """Every message's text in the thread, oldest first."""
    return [m.content for m in messages(thread)]


def reminders_for(thread, member) -> list[str]:
    return [t for t in texts(thread) if t.startswith("⏰") and member.mention in t and "due" in t]


def timeouts(thread) -> list[str]:
    return [t for t in texts(thread) if "Time ran out for" in t]


async def move_if_awaited(thread, member, rng) -> bool:
    """Let ``member`` play their panel if the current board waits for them."""
    board = latest_board(thread)
    if member.id not in awaited(board):
        return False
    opened = await member.click(board, label=panel_label(board))
    panel = opened.followups[0] if opened.followups else opened.response
    await play_panel(member, panel, rng)
    return True


async def test_a_24_hour_table_reminds_then_moves_for_an_idle_player_then_hands_the_seat_over(
    world, simcord_env
):
    guild, channel, (alice, bob, _) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "haenyeo", pace=DAY)
    rng = random.Random(2)
    board = latest_board(thread)
    assert "⏰ due <t:" in board.content  # the deadline as a Discord timestamp
    await move_if_awaited(thread, alice, rng)  # alice chooses her cards; bob never moves
    assert bob.id in awaited(latest_board(thread)) and alice.id not in awaited(latest_board(thread))

    await simcord_env.advance_time(12 * HOUR - 60)
    assert reminders_for(thread, bob) == []
    await simcord_env.advance_time(120)  # half the time: the first reminder
    assert len(reminders_for(thread, bob)) == 1
    assert not any(alice.mention in t for t in reminders_for(thread, bob))  # alice has moved
    await simcord_env.advance_time(10 * HOUR)  # 22 h: nothing new
    assert len(reminders_for(thread, bob)) == 1
    await simcord_env.advance_time(HOUR + 60)  # an hour before the deadline: the last reminder
    assert len(reminders_for(thread, bob)) == 2
    assert "Time is nearly up" in reminders_for(thread, bob)[1]
    await simcord_env.advance_time(HOUR)  # the deadline: a bot moves for bob, once
    assert len(timeouts(thread)) == 1
    assert "bob" in timeouts(thread)[0] and "a bot made their move" in timeouts(thread)[0]
    await simcord_env.advance_time(60)
    assert len(timeouts(thread)) == 1 and len(reminders_for(thread, bob)) == 2

    # Two more missed deadlines and bob's seat is a bot's for good; the game still finishes.
    for _ in range(60):
        if "missed too many deadlines" in "\n".join(texts(thread)):
            break
        if not await move_if_awaited(thread, alice, rng):
            await simcord_env.advance_time(DAY)
    assert len(timeouts(thread)) == 3
    assert any("bob" in t and "missed too many deadlines" in t for t in texts(thread))
    results = await take_turns(thread, {alice.id: alice}, rng)
    assert results is not None and "bob (bot)" in results.embeds[0].description


async def test_a_live_table_has_no_deadline_and_never_times_out(world, simcord_env):
    guild, channel, (alice, bob, _) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju")
    assert "⏰" not in latest_board(thread).content
    board = latest_board(thread)
    await simcord_env.advance_time(7 * DAY)
    assert latest_board(thread).id == board.id and timeouts(thread) == []


async def test_a_restart_while_a_deadline_is_pending_keeps_the_clock(world, simcord_env, make_bot):
    guild, channel, (alice, bob, _) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju", pace=HOUR)
    await simcord_env.advance_time(20 * 60)
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(15 * 60)  # 35 min: the half-time reminder, sent once
    idle = bob if bob.id in awaited(latest_board(thread)) else alice
    assert len(reminders_for(thread, idle)) == 1
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(26 * 60)  # past the deadline
    assert len(reminders_for(thread, idle)) == 2  # the last one, no duplicate of the first
    assert len(timeouts(thread)) == 1


async def test_a_deadline_that_passed_while_the_bot_was_down_is_handled_once_at_start(
    world, simcord_env, make_bot
):
    guild, channel, (alice, bob, _) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju", pace=600)
    await simcord_env.shutdown()
    simcord_env.backend.clock.advance(2 * HOUR)  # SimCord has no verb for time passing while down
    simcord_env.bot = make_bot()
    await simcord_env.start()
    await simcord_env.advance_time(1)
    assert len(timeouts(thread)) == 1
    await simcord_env.restart_bot(make_bot())
    await simcord_env.advance_time(1)
    assert len(timeouts(thread)) == 1


async def test_closed_dms_fall_back_to_the_thread(world, simcord_env):
    guild, channel, (alice, bob, carol) = world
    for member in (alice, bob):
        result = await member.slash(channel, "reminders", dm=True)
        assert result.ephemeral and "direct message" in said(result)
    thread = await seat_and_start(channel, alice, [bob], 0, "haenyeo", pace=HOUR)
    bob_dm = bob.user.dm_channel.id  # bob has closed his DMs: Discord refuses the bot's message
    simcord_env.inject_error(
        "POST",
        f"/channels/{bob_dm}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
    )
    await simcord_env.advance_time(HOUR / 2 + 1)
    # Alice's reminder came by DM; bob's DM was refused, so he is reminded in the thread.
    assert reminders_for(thread, alice) == []
    assert len(reminders_for(thread, bob)) == 1
    alice_dm = alice.user.dm_channel.id
    dm_posts = [
        e.json
        for e in simcord_env.http_requests
        if e.method == "POST" and e.path == f"/channels/{alice_dm}/messages" and e.json
    ]
    assert len(dm_posts) == 1 and "Your move at **Haenyeo" in dm_posts[0]["content"]


async def test_pause_stops_the_clock_and_only_the_host_or_a_manager_may(world, simcord_env):
    guild, channel, (alice, bob, carol) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju", pace=HOUR)
    here = next(t for t in channel.threads if t.id == thread.id)
    refused = await bob.slash(here, "game pause")
    assert refused.ephemeral and "Only the host" in said(refused)
    paused = await alice.slash(here, "game pause")
    assert said(paused) == "Paused."
    assert "paused the table" in texts(thread)[-1]  # everyone at the table is told
    player = next(p for p in (alice, bob) if p.id in awaited(latest_board(thread)))
    opened = await player.click(latest_board(thread), label=panel_label(latest_board(thread)))
    panel = opened.followups[0] if opened.followups else opened.response
    assert "paused" in panel.content
    await simcord_env.advance_time(5 * HOUR)  # paused: no reminder, no timeout
    assert timeouts(thread) == [] and reminders_for(thread, player) == []
    assert said(await bob.slash(here, "game resume")).startswith("Only the host")
    moderators = guild.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[moderators])
    resumed = await mod.slash(here, "game resume")  # a member with Manage Server may too
    assert "running again" in said(resumed)
    assert "⏰ due" in latest_board(thread).content
    await simcord_env.advance_time(HOUR - 60)  # the remaining hour has not run out yet
    assert timeouts(thread) == []
    await simcord_env.advance_time(120)
    assert len(timeouts(thread)) == 1


async def test_replace_a_player_by_a_bot_or_a_member(world, simcord_env):
    guild, channel, (alice, bob, carol) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju", pace=DAY)
    here = next(t for t in channel.threads if t.id == thread.id)
    refused = await bob.slash(here, "game replace", seat=1)
    assert refused.ephemeral and "Only the host or a member with Manage Server" in said(refused)
    spectator = await carol.slash(here, "game leave")
    assert spectator.ephemeral and said(spectator) == "You are not seated at this table."
    # bob still plays seat 2: the host can't hand it to carol over his head.
    kept = await alice.slash(here, "game replace", seat=2, member=carol)
    assert kept.ephemeral and "still played by its owner" in said(kept)
    # bob hands his own seat to carol: that is his agreement.
    taken = await bob.slash(here, "game replace", seat=2, member=carol)
    assert "now belongs to carol" in said(taken)
    # carol now plays seat 2; bob is a spectator.
    board = latest_board(thread)
    assert (await bob.click(board, label=panel_label(board))).response.content == (
        "You are not seated at this table."
    )
    botted = await alice.slash(here, "game replace", seat=2)
    assert "now belongs to a bot" in said(botted)
    again = await alice.slash(here, "game replace", seat=2)
    assert "already played by a bot" in said(again)
    results = await take_turns(thread, {alice.id: alice}, random.Random(4))
    assert results is not None and "carol (bot)" in results.embeds[0].description


async def test_a_manager_may_end_a_table_others_may_not(world, simcord_env):
    guild, channel, (alice, bob, carol) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju")
    here = next(t for t in channel.threads if t.id == thread.id)
    refused = await bob.slash(here, "game end")
    assert refused.ephemeral and "Only the host" in said(refused)
    moderators = guild.create_role("Moderators", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[moderators])
    ended = await mod.slash(here, "game end")
    assert said(ended) == "Table #1 is ended."
    assert "ended this table" in texts(thread)[-1]
    board = latest_board(thread)
    result = await alice.click(board, label=panel_label(board))
    assert "cancelled" in result.response.content


async def test_my_games_across_two_servers_soonest_deadline_first_and_in_dms(world, simcord_env):
    guild, channel, (alice, bob, _) = world
    other = simcord_env.create_guild("Other Server")
    other_channel = other.create_text_channel("boards")
    alice_there = other.add_member(alice.user)
    bob_there = other.add_member(bob.user)
    slow = await seat_and_start(channel, alice, [bob], 0, "jeju", pace=3 * DAY)
    fast = await seat_and_start(other_channel, alice_there, [bob_there], 0, "jeju", pace=HOUR)
    # Make both wait for alice: whoever was to move first plays their turn.
    for thread, members in ((slow, (alice, bob)), (fast, (alice_there, bob_there))):
        waiting = awaited(latest_board(thread))
        if alice.id not in waiting:
            await move_if_awaited(thread, members[1], random.Random(1))
        assert alice.id in awaited(latest_board(thread))
    listing = (await alice.slash(channel, "games")).response.content
    assert listing.index(f"/{fast.id}") < listing.index(f"/{slow.id}")  # soonest deadline first
    assert "Other Server" in listing and "your move" in listing
    dm = await alice.user.slash("games")
    assert f"/{fast.id}" in dm.response.content and f"/{slow.id}" in dm.response.content


async def test_lobbies_expire_after_a_day(world, simcord_env):
    from tests.discord.test_lobby import open_table

    guild, channel, (alice, bob, _) = world
    _, lobby, thread = await open_table(channel, alice, game="jeju")
    await simcord_env.advance_time(DAY - 60)
    assert not any("expired" in t for t in texts(thread))
    await simcord_env.advance_time(120)
    assert any("This lobby expired" in t for t in texts(thread))
    closed = next(m for m in messages(thread) if m.id == lobby.id)
    assert closed.components == [] and "cancelled" in closed.embeds[0].footer.text
    assert "have no open tables" in (await bob.slash(channel, "games")).response.content


async def test_stats_count_games_wins_and_average_scores(world, simcord_env):
    guild, channel, (alice, bob, carol) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju")
    results = await take_turns(thread, {alice.id: alice, bob.id: bob}, random.Random(9))
    assert results is not None
    stats = await alice.slash(channel, "stats")
    assert "Jeju Island" in stats.response.content and "1 played" in stats.response.content
    none = await carol.slash(channel, "stats")
    assert "has not finished a game" in none.response.content
    about_bob = await carol.slash(channel, "stats", player=bob.user)
    assert "bob's games" in about_bob.response.content and "1 played" in about_bob.response.content
    assert results_message(thread) is not None
