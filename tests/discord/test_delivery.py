"""Never a blind retry: what happens to a table when Discord refuses its posts (issue #34).

Played as the people involved: a moderator takes a permission away and gives it
back, locks then unlocks a thread, an admin removes the bot while it restarts,
a player closes their DMs. Each test also counts the requests Discord refused
(401/403/429): the stricter Discord in `simtools.strict` fails any test whose
bot passes 100 of them in 10 virtual minutes, so a bot that spins fails here
on the budget, not on a timeout.
"""

from __future__ import annotations

import contextlib
import random

import pytest

from cogs.delivery import RefusalBudget
from hosting import ops
from hosting.records import ABANDONED, ACTIVE
from simtools.strict import (
    CommandUnavailable,
    StrictEnv,
    archive_thread,
    bot_removed_while_down,
    close_dms,
    remove_permission,
    restore_permission,
)
from tests.discord.test_async_play import DAY, HOUR, texts, world
from tests.discord.test_play import panel_label, seat_and_start
from tests.play_helpers import awaited, latest_board, play_panel, said

__all__ = ["world"]  # the fixture of tests.discord.test_async_play: a server, #games, alice, bob and carol

MINUTE = 60


async def table_in(env, thread):
    return await env.bot.tables.store.table_in_channel(thread.id)


def dms_to(env, member) -> list[str]:
    channel = env.backend.dm_channels.get(member.id)
    return [m.content for m in env.backend.messages.get(channel, {}).values()] if channel else []


def refused(env, thread, *, window: float | None = None) -> int:
    """Requests about the table's thread that Discord answered 401, 403 or 429."""
    return env.backend.refusals_for(thread.id, window=window)


async def move_if_awaited(thread, member) -> bool:
    board = latest_board(thread)
    if member.id not in awaited(board):
        return False
    opened = await member.click(board, label=panel_label(board))
    await play_panel(member, opened.followups[0] if opened.followups else opened.response, random.Random(1))
    return True


@pytest.mark.parametrize(
    ("permission", "named"),
    [("send_messages_in_threads", "Send Messages in Threads"), ("view_channel", "View Channel")],
)
async def test_a_lost_permission_pauses_the_table_tells_the_host_once_and_its_return_resumes_it(
    world, simcord_env, permission, named
):
    guild, channel, (alice, bob, _) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju", pace=DAY)
    before = await table_in(simcord_env, thread)
    # A moderator takes the permission away from the bot on the games channel.
    await remove_permission(simcord_env, channel, permission)
    table = await table_in(simcord_env, thread)
    assert table.blocked and table.paused_at is not None
    told = [t for t in dms_to(simcord_env, alice) if "paused" in t]
    assert len(told) == 1 and named in told[0] and "/game resume table:" in told[0]
    # Reminders and the deadline would fall due: nobody is reminded, nobody is timed out, no bot moves.
    await simcord_env.advance_time(2 * DAY)
    table = await table_in(simcord_env, thread)
    assert table.moves == before.moves and table.status == ACTIVE
    assert not any("Time ran out" in t or t.startswith("⏰") for t in texts(thread))
    assert len([t for t in dms_to(simcord_env, alice) if "paused" in t]) == 1  # told once
    assert refused(simcord_env, thread) == 0  # the cache said so: nothing was even tried
    # The permission comes back: the table runs again by itself and pings whoever it waits for.
    await restore_permission(simcord_env, channel, permission)
    table = await table_in(simcord_env, thread)
    assert not table.blocked and table.paused_at is None
    assert table.deadline > simcord_env.bot.tables.now() + DAY - HOUR  # the paused days are not counted
    board = latest_board(thread)
    assert board.id != before.board_message_id and "Waiting for" in board.content
    assert awaited(board)
    assert refused(simcord_env, thread) == 0


async def test_a_moderator_locks_the_thread_the_host_resumes_from_the_parent_channel_once_unlocked(
    world, simcord_env
):
    guild, channel, (alice, bob, _) = world
    thread = await seat_and_start(channel, alice, [bob], 1, "reef", pace=DAY)
    await remove_permission(simcord_env, channel, "manage_threads")  # the bot is no moderator here
    await archive_thread(simcord_env, thread, locked=True)
    table = await table_in(simcord_env, thread)
    assert table.blocked
    assert any("locked" in t for t in dms_to(simcord_env, alice))
    # Discord offers no slash commands in an archived thread ...
    with pytest.raises(CommandUnavailable):
        await alice.slash(thread, "game resume")
    # ... so the host asks from the parent channel; while it is locked, the answer says why.
    waits = await alice.slash(channel, "game resume", table=table.id)
    assert "waits" in said(waits) and "locked" in said(waits)
    # A player who may not resume it is refused as before, and told nothing more.
    others = await bob.slash(channel, "game resume", table=table.id)
    assert said(others).startswith("Only the host") and "locked" not in said(others)
    assert (await table_in(simcord_env, thread)).blocked
    # Unlocked but still archived: the table runs again by itself (its post unarchives the thread).
    simcord_env.backend.edit_channel(thread.id, {}, thread_metadata={"locked": False})
    await simcord_env.settle()
    table = await table_in(simcord_env, thread)
    assert not table.blocked and table.paused_at is None
    assert "Waiting for" in latest_board(thread).content
    assert refused(simcord_env, thread) == 0


async def test_a_server_that_removed_the_bot_during_a_restart_loses_its_tables_and_nobody_is_reminded(
    world, simcord_env, make_bot
):
    guild, channel, (alice, bob, _) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "haenyeo", pace=DAY)
    await alice.slash(channel, "reminders", dm=True)
    table = await table_in(simcord_env, thread)
    # The admin removes the bot while it restarts: Discord sends no GUILD_DELETE, READY does not list it.
    await bot_removed_while_down(simcord_env, guild, make_bot())
    assert (await simcord_env.bot.tables.get(table.id)).status == ABANDONED
    await simcord_env.advance_time(2 * DAY)
    assert not any("due" in t for t in dms_to(simcord_env, alice))
    assert simcord_env.backend.refusals == []
    listed = await alice.slash(channel, "games")  # only DMs reach a player now: the list is empty anyway
    assert f"#{table.id}" not in said(listed)


async def test_closed_dms_are_tried_once_then_reminders_go_to_the_thread_until_the_player_is_back(
    world, simcord_env
):
    guild, channel, (alice, bob, _) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju", pace=DAY)
    waiting = [m for m in (alice, bob) if m.id in awaited(latest_board(thread))]
    player = waiting[0]
    await player.slash(channel, "reminders", dm=True)
    close_dms(simcord_env, player)
    await simcord_env.advance_time(DAY // 2 + MINUTE)  # the first reminder
    dm_refusals = [r for r in simcord_env.backend.refusals if r.code == 50007]
    assert len(dm_refusals) == 1
    assert any(t.startswith("⏰") and player.mention in t for t in texts(thread))  # in the thread instead
    await simcord_env.advance_time(DAY // 2 - HOUR)  # the last reminder, an hour before: no DM tried
    assert len([r for r in simcord_env.backend.refusals if r.code == 50007]) == 1
    assert len([t for t in texts(thread) if t.startswith("⏰") and player.mention in t]) == 2


async def test_a_table_whose_posts_keep_being_refused_stays_within_its_budget(world, simcord_env):
    guild, channel, (alice, bob, _) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju", pace=DAY)
    # Discord rate-limits every post in the thread (as if shared with another bot), for a whole day.
    simcord_env.inject_error("POST", f"/channels/{thread.id}/messages", status=429, code=0, times=None)
    mover = next(m for m in (alice, bob) if m.id in awaited(latest_board(thread)))
    await move_if_awaited(thread, mover)
    await simcord_env.advance_time(10 * MINUTE)
    assert refused(simcord_env, thread) == 2  # the post, and one retry 30 s later; then it waits
    for _ in range(24 * 6):  # a day, looked at every 10 minutes
        await simcord_env.advance_time(10 * MINUTE)
        assert refused(simcord_env, thread, window=10 * MINUTE) <= 2
    assert refused(simcord_env, thread, window=DAY) <= 6
    table = await table_in(simcord_env, thread)
    assert table.owed_posts > 0 and table.status == ACTIVE  # still owed, never skipped


async def test_a_failing_post_is_retried_with_back_off_never_in_a_loop(world, simcord_env):
    guild, channel, (alice, bob, _) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju", pace=HOUR)
    simcord_env.inject_error("POST", f"/channels/{thread.id}/messages", status=503, times=None)
    mover = next(m for m in (alice, bob) if m.id in awaited(latest_board(thread)))
    await move_if_awaited(thread, mover)
    tried = len(simcord_env.http_requests)
    await simcord_env.advance_time(2 * HOUR)  # the reminders and the deadline fall due meanwhile
    posts = [
        r
        for r in simcord_env.http_requests[tried:]
        if r.method == "POST" and r.path == f"/channels/{thread.id}/messages"
    ]
    assert 1 <= len(posts) <= 8  # 30 s, 1, 2, 4, 8, 16, 32 and 64 minutes apart at the most
    simcord_env.backend.faults.clear()
    await simcord_env.advance_time(2 * HOUR)
    table = await table_in(simcord_env, thread)
    assert table.owed_posts == 0  # delivered once Discord answered again


def test_the_budget_allows_two_refusals_in_ten_minutes_and_six_in_a_day():
    now = [0.0]
    budget = RefusalBudget(lambda: now[0], threshold=5)
    assert budget.table_wait(1) == 0
    budget.record(403, 1)
    budget.record(500, 1)  # not a refusal
    assert budget.table_wait(1) == 0
    budget.record(429, 1)
    assert budget.table_wait(1) == pytest.approx(601.0)  # the first has left the window 10 minutes on
    for _ in range(2):
        now[0] += 602
        budget.record(403, 1)
        budget.record(403, 1)
    assert budget.table_count(1, 86_400) == 6
    now[0] += 602
    assert budget.table_wait(1) > 20 * 3600  # the day's six are spent
    assert budget.table_wait(2) == 0  # another table is not held back


def test_near_the_threshold_optional_traffic_stops_until_the_window_moves_on():
    now = [0.0]
    budget = RefusalBudget(lambda: now[0], threshold=3)
    for _ in range(2):
        budget.record(403)
    assert not budget.strained()
    budget.record(401)
    assert budget.strained() and budget.recent() == 3
    now[0] += 601
    assert not budget.strained() and budget.total == 3


async def test_a_bot_that_spins_on_a_refusal_fails_on_the_budget(make_bot):
    env = StrictEnv(make_bot())
    await env.start()
    env.backend.refusal_budget = (3, 600.0)
    guild = env.create_guild("Elsewhere")
    hidden = guild.create_text_channel("hidden")
    await remove_permission(env, hidden, "view_channel")
    for _ in range(4):  # a loop on a refusal, as a careless bot would write it
        with contextlib.suppress(BaseException):  # the 403s, then the simulated ban
            await env.bot.fetch_channel(hidden.id)
    with pytest.raises(AssertionError, match="refused requests"):
        await env.shutdown()


def test_the_health_check_says_how_many_requests_discord_refused(tmp_path):
    beat = tmp_path / "health"
    ops.write_heartbeat(beat, True, "connected to Discord", refused=3)
    good, line = ops.health(beat)
    assert good and "3 refused Discord requests in 10 minutes" in line


async def test_one_change_that_blocks_several_of_a_hosts_tables_tells_them_once(world, simcord_env):
    guild, channel, (alice, bob, carol) = world
    first = await seat_and_start(channel, alice, [bob], 0, "jeju", pace=DAY)
    second = await seat_and_start(channel, alice, [carol], 0, "jeju", pace=DAY)
    await remove_permission(simcord_env, channel, "send_messages_in_threads")
    tables = [await table_in(simcord_env, thread) for thread in (first, second)]
    assert all(table.blocked for table in tables)
    told = [t for t in dms_to(simcord_env, alice) if "paused" in t]
    assert len(told) == 1  # one DM for both tables
    assert f"#{tables[0].id}" in told[0] and f"#{tables[1].id}" in told[0]
