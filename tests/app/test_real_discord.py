"""What real servers do to a table, played as the people involved (issue: real Discord, not only SimCord).

Every test runs on the stricter Discord of `simtools.strict` (conftest's
``simcord_env``): threads archive and leave the cache, sends unarchive them,
locked threads refuse, Embed Links and Attach Files are enforced, the active-
thread cap answers 160006. Moderators and admins act through its helpers.
"""

from __future__ import annotations

import random

import discord
import pytest

from cogs.common import MESSAGE_LIMIT, Mentions, fit_lines, serves
from hosting.records import ABANDONED, ACTIVE, CANCELLED
from simtools.strict import archive_thread, bot_removed_from_guild, delete_channel, remove_permission
from tests.discord.test_lobby import open_table
from tests.discord.test_play import panel_label, seat_and_start
from tests.play_helpers import MENTION, awaited, latest_board, messages, play_panel, said

HOUR = 3600
DAY = 24 * HOUR


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild("Jeju Friends")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol", "dan")]
    return guild, channel, people


def table_of(env, thread_or_channel_id: int):
    """The table the bot keeps for a thread (read from its database, as an admin's `check` would)."""
    return env.bot.tables.store.table_in_channel(thread_or_channel_id)


def texts(channel) -> list[str]:
    return [m.content for m in messages(channel)]


def archived(env, thread) -> bool:
    return env.backend.get_channel(thread.id).thread_metadata.archived


async def move(member, thread, rng) -> None:
    """The member opens their panel from the current board and plays it."""
    board = latest_board(thread)
    opened = await member.click(board, label=panel_label(board))
    panel = opened.followups[0] if opened.followups else opened.response
    await play_panel(member, panel, rng)


async def move_whoever_is_awaited(thread, members, rng) -> None:
    board = latest_board(thread)
    waiting = [uid for uid in awaited(board) if uid in members]
    await move(members[waiting[0]], thread, rng)


# ------------------------------------------------------------ 1. archived threads


async def test_a_thread_archived_by_a_moderator_still_gets_its_reminders_after_a_restart(
    world, simcord_env, make_bot
):
    guild, channel, (alice, bob, *_) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju", pace=DAY)
    await archive_thread(simcord_env, thread)
    await simcord_env.restart_bot(make_bot())  # the gateway now sends only active threads
    assert simcord_env.bot.get_channel(thread.id) is None
    await simcord_env.advance_time(12 * HOUR + 60)  # half the time: a reminder is owed
    waiting = awaited(latest_board(thread))
    assert any(t.startswith("⏰ Reminder") and f"<@{waiting[0]}>" in t for t in texts(thread))
    assert not archived(simcord_env, thread)  # the bot's message reopened the thread


async def test_an_idle_live_table_whose_thread_auto_archived_plays_on(world, simcord_env, make_bot):
    guild, channel, (alice, bob, *_) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju")
    await simcord_env.advance_time(8 * DAY)  # a week without a message: Discord archives the thread
    assert archived(simcord_env, thread)
    await simcord_env.restart_bot(make_bot())
    before = latest_board(thread).id
    await move_whoever_is_awaited(thread, {alice.id: alice, bob.id: bob}, random.Random(1))
    assert latest_board(thread).id != before  # a new board went out, into the reopened thread
    assert not archived(simcord_env, thread)


async def test_joining_a_lobby_whose_thread_was_archived_updates_the_lobby(world, simcord_env, make_bot):
    guild, channel, (alice, bob, *_) = world
    _, lobby, thread = await open_table(channel, alice, game="jeju")
    await archive_thread(simcord_env, thread)
    await simcord_env.restart_bot(make_bot())
    await bob.click(lobby, label="Join")
    lobby_now = next(m for m in messages(thread) if m.id == lobby.id)
    assert bob.mention in lobby_now.embeds[0].description  # the lobby shows the join
    assert not archived(simcord_env, thread)


async def test_a_locked_thread_pauses_the_table_and_tells_the_host_then_unlocking_resumes_it(
    world, simcord_env
):
    guild, channel, (alice, bob, *_) = world
    thread = await seat_and_start(channel, alice, [bob], 1, "jeju", pace=DAY)
    await remove_permission(simcord_env, channel, "manage_threads")  # the bot is no moderator here
    await archive_thread(simcord_env, thread, locked=True)
    table = await table_of(simcord_env, thread.id)
    assert table.paused_at is not None  # paused the moment the thread was locked
    dm = simcord_env.backend.dm_channels[alice.id]
    told = [m.content for m in simcord_env.backend.messages[dm].values()]
    assert any("paused" in t and "locked" in t and "/game resume" in t for t in told)
    moves = table.moves
    await simcord_env.advance_time(3 * DAY)  # paused: nothing moves, nobody times out
    assert (await table_of(simcord_env, thread.id)).moves == moves
    assert not any("Time ran out" in t for t in texts(thread))
    simcord_env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": False, "locked": False})
    await simcord_env.settle()
    table = await table_of(simcord_env, thread.id)
    assert table.paused_at is None and not table.blocked  # it runs again by itself
    assert "Waiting for" in latest_board(thread).content


# ------------------------------------------------------------ 2. failed posts


async def test_a_failing_board_post_never_stops_the_bots_and_the_clock_posts_it_later(world, simcord_env):
    guild, channel, (alice, *_) = world
    thread = await seat_and_start(channel, alice, [], 1, "reef")
    simcord_env.inject_error("POST", f"/channels/{thread.id}/messages", status=503, times=3)
    board = latest_board(thread)
    await move(alice, thread, random.Random(2))
    table = await table_of(simcord_env, thread.id)
    assert table.owed_posts >= 1 and table.status == ACTIVE
    assert latest_board(thread).id == board.id  # nothing could be posted yet
    await simcord_env.advance_time(10 * 60)  # the clock's back-off retries
    table = await table_of(simcord_env, thread.id)
    assert table.owed_posts == 0
    assert latest_board(thread).id != board.id
    assert "Waiting for" in latest_board(thread).content


async def test_the_first_board_after_start_is_owed_and_posted_when_discord_recovers(world, simcord_env):
    guild, channel, (alice, bob, *_) = world
    _, lobby, thread = await open_table(channel, alice, game="jeju")
    await bob.click(lobby, label="Join")
    simcord_env.inject_error("POST", f"/channels/{thread.id}/messages", status=500, times=1)
    await alice.click(lobby, label="Start")
    assert latest_board(thread) is None
    await simcord_env.advance_time(60)
    assert latest_board(thread) is not None


async def test_without_attach_files_the_board_goes_out_in_words(world, simcord_env):
    guild, channel, (alice, bob, *_) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju")
    await remove_permission(simcord_env, channel, "attach_files")
    await move_whoever_is_awaited(thread, {alice.id: alice, bob.id: bob}, random.Random(3))
    board = latest_board(thread)
    assert not board.attachments
    assert "🖼️" in board.content and "Waiting for" in board.content
    assert len(board.content) <= MESSAGE_LIMIT


# ------------------------------------------------------------ 3. /play answers in every case


async def test_play_says_which_permission_is_missing_and_creates_nothing(world, simcord_env):
    guild, channel, (alice, *_) = world
    await remove_permission(simcord_env, channel, "embed_links")
    result = await alice.slash(channel, "play", game="jeju")
    assert result.ephemeral and "Embed Links" in result.response.content
    assert channel.threads == []
    assert await simcord_env.bot.tables.store.open_tables_in(channel.id) == []


async def test_play_refuses_a_member_who_may_neither_send_nor_create_threads(world, simcord_env):
    guild, channel, (alice, *_) = world
    quiet = guild.create_text_channel(
        "announcements",
        overwrites={
            guild.default_role: discord.PermissionOverwrite(
                send_messages=False, send_messages_in_threads=False, create_public_threads=False
            )
        },
    )
    result = await alice.slash(quiet, "play", game="jeju")
    assert result.ephemeral and "can't send messages or start threads" in said(result)
    assert quiet.threads == []


async def test_a_failure_after_the_defer_still_answers_and_leaves_no_empty_thread(world, simcord_env):
    guild, channel, (alice, *_) = world
    simcord_env.inject_error("POST", "/channels/*/messages", status=500, times=1)  # the lobby post
    result = await alice.slash(channel, "play", game="jeju")
    answer = result.followups[0].content if result.followups else result.response.content
    assert "Nothing was created" in answer
    assert [t for t in channel.threads if t.id in simcord_env.backend.channels] == []
    assert await simcord_env.bot.tables.store.open_tables_in(channel.id) == []


async def test_at_the_active_thread_cap_the_table_plays_in_the_channel(world, simcord_env):
    guild, channel, (alice, bob, *_) = world
    simcord_env.backend.max_active_threads = 0
    result = await alice.slash(channel, "play", game="jeju")
    assert not result.ephemeral
    table = (await simcord_env.bot.tables.store.open_tables_in(channel.id))[0]
    assert table.thread_id is None and table.channel_id == channel.id
    assert any(m.embeds and "table #" in m.embeds[0].title for m in messages(channel))


# ------------------------------------------------------------ 4. seat hand-over keeps secrets


async def test_nobody_who_held_a_seat_can_be_handed_another(world, simcord_env):
    guild, channel, (alice, bob, carol, dan) = world
    thread = await seat_and_start(channel, alice, [bob, carol], 0, "haenyeo")
    await move(alice, thread, random.Random(4))  # alice has chosen her diving cards
    left = await alice.slash(thread, "game leave")
    assert "a bot plays your seat" in said(left)
    # The host, now seatless, tries to take bob's seat and read his hand.
    refused = await alice.slash(thread, "game replace", seat=2, member=alice)
    assert refused.ephemeral and "holds or held a seat" in said(refused)
    refused = await alice.slash(thread, "game replace", seat=2, member=dan)
    assert "still played by its owner" in said(refused)
    # alice's own left seat goes to dan, who never sat here; then dan can't take a second one.
    taken = await alice.slash(thread, "game replace", seat=1, member=dan)
    assert "now belongs to dan" in said(taken)
    await bob.slash(thread, "game leave")
    refused = await alice.slash(thread, "game replace", seat=2, member=dan)
    assert "holds or held a seat" in said(refused)
    # bob, who left, can't come back into carol's seat either.
    refused = await carol.slash(thread, "game replace", seat=3, member=bob)
    assert "holds or held a seat" in said(refused)
    table = await table_of(simcord_env, thread.id)
    assert table.seats[0].user_id == dan.id and table.seats[0].former == (alice.id,)


# ------------------------------------------------------------ 5. user text never pings or formats


async def test_a_hostile_nickname_leaving_pings_nobody(world, simcord_env):
    guild, channel, (alice, bob, carol, _) = world
    victim = carol  # not at the table: nothing may ping her
    rude = guild.add_member(simcord_env.create_user("rude"), nick=f"<@{victim.id}> @everyone **x**")
    thread = await seat_and_start(channel, alice, [rude], 0, "jeju")
    await rude.slash(thread, "game leave")
    line = next(t for t in texts(thread) if "left the game" in t)
    assert f"<@{victim.id}>" not in line.split("left the game")[0]
    assert "\\*\\*x\\*\\*" in line
    for message in simcord_env.backend.messages[thread.id].values():
        assert not message.mention_everyone
        assert victim.id not in message.ping_user_ids
    payload = Mentions(users=[discord.Object(id=7)]).to_dict()
    assert payload["users"] == ["7"]  # Discord documents snowflakes as strings


# ---------------------------------------------- 6. deleted places, a removed bot, members who leave


async def test_a_deleted_thread_abandons_its_table_and_the_clock_stops(world, simcord_env):
    guild, channel, (alice, bob, *_) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju", pace=HOUR)
    requests = len(simcord_env.http_requests)
    await delete_channel(simcord_env, thread)
    table = await table_of(simcord_env, thread.id)
    assert table.status == ABANDONED and table.wake_at is None
    await simcord_env.advance_time(2 * DAY)
    assert not [r for r in simcord_env.http_requests[requests:] if r.method == "POST"]
    listed = await alice.slash(channel, "games")
    assert "no open tables" in listed.response.content


async def test_deleting_the_channel_of_an_archived_thread_abandons_its_table(world, simcord_env, make_bot):
    guild, channel, (alice, bob, *_) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju", pace=DAY)
    await archive_thread(simcord_env, thread)
    await simcord_env.restart_bot(make_bot())
    await delete_channel(simcord_env, channel)  # Discord sends no event for the archived thread
    assert (await table_of(simcord_env, thread.id)).status == ABANDONED


async def test_removing_the_bot_from_a_server_abandons_its_tables(world, simcord_env):
    guild, channel, (alice, bob, *_) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju", pace=DAY)
    await bot_removed_from_guild(simcord_env, guild)
    assert (await simcord_env.bot.tables.get((await table_of(simcord_env, thread.id)).id)).status == ABANDONED


async def test_a_player_who_left_the_server_is_not_reminded_and_loses_the_seat_at_the_deadline(
    world, simcord_env
):
    guild, channel, (alice, bob, *_) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju", pace=DAY)
    gone = next(m for m in (alice, bob) if m.id in awaited(latest_board(thread)))
    guild.remove_member(gone)
    await simcord_env.advance_time(DAY + 60)
    assert not any(t.startswith("⏰") and gone.mention in t for t in texts(thread))
    table = await table_of(simcord_env, thread.id)
    assert table.seat_of(gone.id) is None  # a bot plays the seat now, after one deadline
    assert any("left the server" in t for t in texts(thread))


# ------------------------------------------------------------ 7. a deleted board message


async def test_a_deleted_board_comes_back_with_game_board_and_the_panel(world, simcord_env):
    guild, channel, (alice, bob, *_) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju")
    board = latest_board(thread)
    simcord_env.backend.delete_message(thread.id, board.id)  # a moderator deletes it
    player = next(m for m in (alice, bob) if m.id in awaited(board))
    result = await player.slash(thread, "game board")
    assert result.ephemeral
    shown = [m for m in [result.response, *result.followups] if m is not None and m.ephemeral]
    board_copy = next(m for m in shown if "posted again" in m.content)
    assert board_copy.attachments and "Waiting for" in board_copy.content
    assert any("Your move" in m.content for m in shown)  # the panel, ready to play
    assert latest_board(thread) is not None and latest_board(thread).id != board.id


async def test_the_clock_reposts_a_deleted_board_before_reminding(world, simcord_env):
    guild, channel, (alice, bob, *_) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju", pace=DAY)
    board = latest_board(thread)
    simcord_env.backend.delete_message(thread.id, board.id)
    await simcord_env.advance_time(12 * HOUR + 60)
    assert latest_board(thread) is not None
    reminder = next(t for t in texts(thread) if t.startswith("⏰"))
    assert str(latest_board(thread).id) in reminder


# ------------------------------------------------------------ 8. pings mean "your move"


async def test_a_live_two_player_game_never_pings_the_player_who_just_moved(world, simcord_env):
    guild, channel, (alice, bob, *_) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju")
    members = {alice.id: alice, bob.id: bob}
    rng = random.Random(5)
    for _ in range(12):
        await move_whoever_is_awaited(thread, members, rng)
    boards = [
        (e.json["content"], [int(u) for u in e.json.get("allowed_mentions", {}).get("users", [])])
        for e in simcord_env.http_requests
        if e.method == "POST"
        and e.path == f"/channels/{thread.id}/messages"
        and "Waiting for" in ((e.json or {}).get("content") or "")
    ]
    assert len(boards) >= 8
    previous: set[int] = set()
    for content, pinged in boards:
        now = {int(u) for u in MENTION.findall(content.rsplit("Waiting for", 1)[1])}
        assert set(pinged) <= now
        assert not set(pinged) & previous, "a player awaited on the last board was pinged again"
        previous = now


# ------------------------------------------------------------ 9. Discord's limits at any size


async def test_games_with_fifty_tables_fits_in_one_message(world, simcord_env):
    guild, channel, (alice, *_) = world
    service = simcord_env.bot.tables
    for n in range(50):
        table = await service.create_table(
            game_key="jeju",
            guild_id=guild.id,
            channel_id=channel.id,
            host_id=10_000 + n,
            host_name=f"host {n}",
        )
        await service.join(table.id, alice.id, "alice")
    result = await alice.slash(channel, "games")
    assert result.ephemeral and len(result.response.content) <= MESSAGE_LIMIT
    assert "… and " in result.response.content and "more" in result.response.content


def test_fit_lines_keeps_whole_lines_and_counts_the_rest():
    lines = [f"line {n} " + "x" * 90 for n in range(40)]
    text = fit_lines("Header", lines, more=lambda n: f"… and {n} more.")
    assert len(text) <= MESSAGE_LIMIT
    kept = text.splitlines()[1:-1]
    assert kept == lines[: len(kept)] and text.splitlines()[0] == "Header"
    assert text.splitlines()[-1] == f"… and {len(lines) - len(kept)} more."


# ------------------------------------------------------------ 10. abuse limits and tidy threads


async def test_a_member_may_have_three_open_lobbies_and_cancelled_threads_are_archived(world, simcord_env):
    guild, channel, (alice, *_) = world
    threads = [(await open_table(channel, alice, game="jeju"))[2] for _ in range(3)]
    fourth = await alice.slash(channel, "play", game="jeju")  # refused at once, privately
    assert fourth.ephemeral and "already have 3 open lobbies" in fourth.response.content
    lobby = threads[0].last_message
    await alice.click(lobby, label="Cancel")
    assert (await table_of(simcord_env, threads[0].id)).status == CANCELLED
    assert archived(simcord_env, threads[0])


async def test_an_ended_game_archives_its_thread(world, simcord_env):
    guild, channel, (alice, bob, *_) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju")
    await alice.slash(thread, "game end")
    assert archived(simcord_env, thread)


# ------------------------------------------------------------ 11. shared channels


async def test_in_a_shared_channel_game_commands_act_on_the_callers_own_table(world, simcord_env):
    guild, channel, (alice, bob, carol, dan) = world
    shared = guild.create_text_channel(
        "no-threads",
        overwrites={simcord_env.bot.user: discord.PermissionOverwrite(create_public_threads=False)},
    )
    for host, guest in ((alice, bob), (carol, dan)):
        result = await host.slash(shared, "play", game="jeju")
        assert not result.ephemeral
        lobby = next(m for m in reversed(messages(shared)) if m.embeds and m.components)
        await guest.click(lobby, label="Join")
        await host.click(lobby, label="Start")
    first, second = sorted(await simcord_env.bot.tables.store.open_tables_in(shared.id), key=lambda t: t.id)
    paused = await carol.slash(shared, "game pause")
    assert said(paused) == "Paused."
    assert (await simcord_env.bot.tables.get(second.id)).paused_at is not None
    assert (await simcord_env.bot.tables.get(first.id)).paused_at is None
    spectator = guild.add_member(simcord_env.create_user("eve"))
    asked = await spectator.slash(shared, "game log")
    assert "Several tables play in this channel" in asked.response.content
    chosen = await spectator.slash(shared, "game board", table=first.id)
    shown = [m for m in [chosen.response, *chosen.followups] if m is not None and m.content]
    assert any(f"table #{first.id}" in m.content for m in shown)
    offered = await spectator.autocomplete(shared, "game log", "table", "")
    assert {c["value"] for c in offered} == {first.id, second.id}


# ------------------------------------------------------------ 12. several processes


def test_each_process_serves_only_its_own_shards():
    class Sharded:
        shard_count = 2
        shard_ids = (1,)

    assert serves(Sharded(), (1 << 22) * 3)  # shard (3 % 2) = 1
    assert not serves(Sharded(), (1 << 22) * 4)
    assert serves(object(), 12345)  # unsharded: every server


async def test_a_game_without_a_results_picture_still_posts_its_results_once(world, simcord_env):
    guild, channel, (alice, *_) = world
    _, lobby, thread = await open_table(channel, alice, game="takeaway")  # the test game draws no pictures
    await alice.click(lobby, label="Add bot")
    await alice.click(next(m for m in messages(thread) if m.id == lobby.id), label="Start")
    board = next(m for m in reversed(messages(thread)) if "· table #" in m.content)
    asked = await alice.click(board, label="Leave")
    await alice.click(asked.response, label="Yes, leave")
    table = await table_of(simcord_env, thread.id)
    assert table.status == "finished" and table.owed_posts == 0
    results = [m for m in messages(thread) if m.embeds and m.embeds[0].title.endswith("final ranking")]
    assert len(results) == 1 and not results[0].attachments


# ------------------------------------------------------------ 13. a panel left open


async def test_a_panel_left_open_past_fifteen_minutes_still_plays(world, simcord_env):
    # discord.py gives an ephemeral message's view a 15-minute timeout (its interaction token's
    # life); the panel's controls must answer after it, from the bot's registered dynamic items.
    guild, channel, (alice, bob, *_) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju")
    board = latest_board(thread)
    player = {alice.id: alice, bob.id: bob}[awaited(board)[0]]
    opened = await player.click(board, label=panel_label(board))
    panel = opened.followups[0] if opened.followups else opened.response
    await simcord_env.advance_time(20 * 60)  # coffee
    await play_panel(player, panel, random.Random(3))  # every click answered by the bot
    assert latest_board(thread).id != board.id  # the move went in: a new board
