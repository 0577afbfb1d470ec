"""The stricter Discord of `simtools.strict`: each rule fires, through the real bot or its discord.py calls.

Every test here would pass on plain SimCord only if the rule it checks were
removed, so each one pins a rule of the layer (see docs/RELIABILITY.md, "The
stricter Discord in the tests").
"""

from __future__ import annotations

import io
import time

import discord
import pytest

from simtools.strict import (
    StrictBackend,
    StrictEnv,
    archive_thread,
    bot_removed_from_guild,
    delete_channel,
    remove_permission,
    set_guild_locale,
    set_locale,
    unarchive_thread,
)
from tests.discord.test_lobby import open_table as open_lobby


@pytest.fixture
def strict_env(simcord_env):
    """conftest's ``simcord_env``, which is a `StrictEnv` (named for what these tests are about)."""
    assert isinstance(simcord_env, StrictEnv)
    return simcord_env


WEEK = 7 * 24 * 3600


@pytest.fixture
def world(strict_env):
    """A server with a #games channel and two members."""
    guild = strict_env.create_guild("Strict Friends")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(strict_env.create_user("alice"))
    bob = guild.add_member(strict_env.create_user("bob"))
    return guild, channel, alice, bob


async def open_table(channel, host):
    """Run /play (a second one too); return the new thread's handle."""
    return (await open_lobby(channel, host))[2]


def cached_thread(env, guild, thread_id):
    """The thread as the bot's discord.py cache has it (None when evicted)."""
    return env.bot.get_guild(guild.id).get_thread(thread_id)


def thread_model(env, thread_id):
    return env.backend.get_channel(thread_id)


async def send(env, channel_id, *args, **kwargs):
    """The bot sends with its own token, through discord.py."""
    channel = env.bot.get_channel(channel_id) or await env.bot.fetch_channel(channel_id)
    return await channel.send(*args, **kwargs)


def test_strict_env_is_simcord_with_the_strict_backend(strict_env):
    assert isinstance(strict_env, StrictEnv)
    assert isinstance(strict_env.backend, StrictBackend)
    assert type(strict_env.bot.http).__name__ == "StrictHTTPClient"
    assert strict_env.backend.max_active_threads == 1000  # Discord's cap, until a test lowers it


# --------------------------------------------------------------- rule 1


async def bot_thread(env, channel, minutes=60, name="side table"):
    """The bot opens a thread itself, through discord.py; return its id."""
    parent = env.bot.get_channel(channel.id)
    thread = await parent.create_thread(
        name=name, type=discord.ChannelType.public_thread, auto_archive_duration=minutes
    )
    return thread.id


async def test_thread_auto_archives_after_its_inactivity_period(strict_env, world):
    guild, channel, *_ = world
    thread_id = await bot_thread(strict_env, channel, minutes=60)
    meta = thread_model(strict_env, thread_id).thread_metadata
    assert cached_thread(strict_env, guild, thread_id) is not None
    await strict_env.advance_time(3600 - 1)
    assert not meta.archived
    await strict_env.advance_time(1)
    assert meta.archived
    updates = [p for kind, name, p in strict_env.backend.transcript if name == "THREAD_UPDATE"]
    assert updates[-1]["thread_metadata"]["archived"] is True
    # discord.py's parse_thread_update evicted it from the bot's cache.
    assert cached_thread(strict_env, guild, thread_id) is None


async def test_a_message_is_activity_an_interaction_and_an_ephemeral_reply_are_not(strict_env, world):
    guild, channel, alice, _ = world
    thread_id = await bot_thread(strict_env, channel, minutes=60)
    thread = next(t for t in channel.threads if t.id == thread_id)
    meta = thread_model(strict_env, thread_id).thread_metadata
    await strict_env.advance_time(50 * 60)
    await alice.send(thread, "still here")  # a message: activity
    await strict_env.advance_time(50 * 60)
    assert not meta.archived
    result = await alice.slash(thread, "games")  # an interaction answered ephemerally: not activity
    assert result.ephemeral
    await strict_env.advance_time(10 * 60 - 1)
    assert not meta.archived
    await strict_env.advance_time(1)
    assert meta.archived


# --------------------------------------------------------------- rule 2


async def test_restart_guild_create_has_only_active_threads(strict_env, world, make_bot):
    guild, channel, alice, _ = world
    kept = await open_table(channel, alice)
    archived = await open_table(channel, alice)
    await archive_thread(strict_env, archived)
    await strict_env.restart_bot(make_bot())
    guild_creates = [p for kind, name, p in strict_env.backend.transcript if name == "GUILD_CREATE"]
    thread_ids = {int(t["id"]) for t in guild_creates[-1]["threads"]}
    assert kept.id in thread_ids and archived.id not in thread_ids
    assert cached_thread(strict_env, guild, kept.id) is not None
    assert cached_thread(strict_env, guild, archived.id) is None


# --------------------------------------------------------------- rule 3


def thread_updates(env):
    return [p for kind, name, p in env.backend.transcript if kind == "GATEWAY" and name == "THREAD_UPDATE"]


async def test_a_bot_message_into_an_archived_thread_unarchives_it(strict_env, world):
    guild, channel, *_ = world
    thread_id = await bot_thread(strict_env, channel)
    await archive_thread(strict_env, thread_id)
    assert cached_thread(strict_env, guild, thread_id) is None
    before = len(thread_updates(strict_env))
    message = await strict_env.bot.get_partial_messageable(thread_id).send("back again")
    await strict_env.settle()
    assert not thread_model(strict_env, thread_id).thread_metadata.archived
    assert thread_updates(strict_env)[before]["thread_metadata"]["archived"] is False
    assert message.id in strict_env.backend.messages[thread_id]
    # discord.py re-adds an unarchived thread to its cache (thread_join).
    assert cached_thread(strict_env, guild, thread_id) is not None


async def test_a_locked_archived_thread_refuses_a_bot_without_manage_threads(strict_env, world):
    guild, channel, *_ = world
    thread_id = await bot_thread(strict_env, channel)
    await archive_thread(strict_env, thread_id, locked=True)
    await remove_permission(strict_env, channel, "manage_threads")
    with pytest.raises(discord.Forbidden) as refused:
        await strict_env.bot.get_partial_messageable(thread_id).send("let me in")
    assert refused.value.code == 160005
    meta = thread_model(strict_env, thread_id).thread_metadata
    assert meta.archived and meta.locked
    assert strict_env.backend.messages[thread_id] == {}


async def test_a_locked_archived_thread_takes_a_message_from_a_bot_with_manage_threads(strict_env, world):
    guild, channel, *_ = world
    thread_id = await bot_thread(strict_env, channel)
    await archive_thread(strict_env, thread_id, locked=True)
    await strict_env.bot.get_partial_messageable(thread_id).send("moderator bot")
    meta = thread_model(strict_env, thread_id).thread_metadata
    assert not meta.archived and meta.locked


async def test_editing_a_message_in_an_archived_thread_is_refused(strict_env, world):
    guild, channel, *_ = world
    thread_id = await bot_thread(strict_env, channel)
    message = await strict_env.bot.get_partial_messageable(thread_id).send("board")
    await archive_thread(strict_env, thread_id)
    with pytest.raises(discord.HTTPException) as refused:
        await message.edit(content="new board")
    assert refused.value.code == 50083 and refused.value.status == 400
    assert strict_env.backend.messages[thread_id][message.id].content == "board"
    await unarchive_thread(strict_env, thread_id)
    await message.edit(content="new board")
    assert strict_env.backend.messages[thread_id][message.id].content == "new board"


async def test_the_bots_lobby_button_after_a_moderator_archived_the_table(strict_env, world):
    """Through the real bot: its edit of the lobby in an archived thread is refused, so it reopens the thread.

    On plain SimCord the first edit would simply work.
    """
    guild, channel, alice, bob = world
    thread = await open_table(channel, alice)
    lobby = thread.history()[0]
    await archive_thread(strict_env, thread)
    await bob.click(lobby, label="Join")
    edits = [
        r for r in strict_env.http_requests if r.method == "PATCH" and r.path.endswith("/messages/@original")
    ]
    reopened = [
        r for r in strict_env.http_requests if r.method == "PATCH" and r.path == f"/channels/{thread.id}"
    ]
    assert len(edits) == 2 and reopened  # refused (50083), the thread reopened, edited again
    now = next(m for m in thread.history() if m.id == lobby.id)
    assert bob.mention in now.embeds[0].description
    assert not thread_model(strict_env, thread.id).thread_metadata.archived


# --------------------------------------------------------------- rule 4


async def test_without_embed_links_the_embeds_are_dropped(strict_env, world):
    guild, channel, *_ = world
    await remove_permission(strict_env, channel, "embed_links")
    message = await send(strict_env, channel.id, "the board", embed=discord.Embed(title="Board"))
    stored = strict_env.backend.messages[channel.id][message.id]
    assert stored.content == "the board" and stored.embeds == []
    assert message.embeds == []


async def test_without_embed_links_an_embed_only_message_is_refused(strict_env, world):
    guild, channel, *_ = world
    await remove_permission(strict_env, channel, "embed_links")
    with pytest.raises(discord.Forbidden) as refused:
        await send(strict_env, channel.id, embed=discord.Embed(title="Board"))
    assert refused.value.code == 50013


async def test_without_embed_links_an_edit_loses_its_embeds(strict_env, world):
    guild, channel, *_ = world
    message = await send(strict_env, channel.id, "the board", embed=discord.Embed(title="Board"))
    await remove_permission(strict_env, channel, "embed_links")
    await message.edit(content="the board, later", embed=discord.Embed(title="Board 2"))
    stored = strict_env.backend.messages[channel.id][message.id]
    assert stored.content == "the board, later" and stored.embeds == []


async def test_without_attach_files_an_upload_is_refused(strict_env, world):
    guild, channel, *_ = world
    await remove_permission(strict_env, channel, "attach_files")
    with pytest.raises(discord.Forbidden) as refused:
        await send(strict_env, channel.id, "the board", file=discord.File(io.BytesIO(b"png"), "board.png"))
    assert refused.value.code == 50013
    assert strict_env.backend.messages[channel.id] == {}
    await send(strict_env, channel.id, "the board, as text")  # a plain message still goes out


async def test_permissions_of_a_thread_come_from_its_parent(strict_env, world):
    guild, channel, *_ = world
    thread_id = await bot_thread(strict_env, channel)
    await remove_permission(strict_env, channel, "attach_files")
    with pytest.raises(discord.Forbidden):
        await strict_env.bot.get_partial_messageable(thread_id).send(
            file=discord.File(io.BytesIO(b"png"), "board.png")
        )


async def test_interaction_responses_keep_their_embeds_without_embed_links(strict_env, world):
    guild, channel, alice, _ = world
    await remove_permission(strict_env, channel, "embed_links", "send_messages")
    result = await alice.slash(channel, "rules", game="jeju")
    assert result.ephemeral and result.response.embeds


# --------------------------------------------------------------- rule 5


async def test_the_active_thread_cap(strict_env, world):
    guild, channel, alice, _ = world
    strict_env.backend.max_active_threads = 2
    first = await bot_thread(strict_env, channel, name="one")
    await bot_thread(strict_env, channel, name="two")
    with pytest.raises(discord.HTTPException) as refused:
        await bot_thread(strict_env, channel, name="three")
    assert refused.value.status == 400 and refused.value.code == 160006
    await archive_thread(strict_env, first)  # archived threads do not count
    await bot_thread(strict_env, channel, name="three")


async def test_the_cap_reaches_the_bots_play(strict_env, world):
    guild, channel, alice, _ = world
    strict_env.backend.max_active_threads = 1
    await open_table(channel, alice)
    before = set(strict_env.backend.channels)
    await alice.slash(channel, "play", game="takeaway")
    strict_env.errors  # noqa: B018 (whatever the bot does about it, it is its own handling)
    assert not [c for c in set(strict_env.backend.channels) - before if thread_model(strict_env, c).is_thread]


# --------------------------------------------------------------- helpers


async def test_delete_channel_helper_removes_the_thread_from_the_bots_cache(strict_env, world):
    guild, channel, *_ = world
    thread_id = await bot_thread(strict_env, channel)
    await delete_channel(strict_env, thread_id)
    assert cached_thread(strict_env, guild, thread_id) is None
    with pytest.raises(discord.NotFound):
        await strict_env.bot.get_partial_messageable(thread_id).send("anyone?")


async def test_bot_removed_from_guild_helper(strict_env, world):
    guild, channel, *_ = world
    await bot_removed_from_guild(strict_env, guild)
    assert strict_env.bot.get_guild(guild.id) is None
    with pytest.raises(discord.NotFound):
        await strict_env.bot.get_partial_messageable(channel.id).send("hello?")


# --------------------------------------------------------------- rule 6


class FrozenClock:
    """A real clock that stands still, a second after it is made: a rate-limit window that never
    frees up. Not at a fixed number: the windows already hold the real times of earlier requests
    (a clock behind them would make discord.py wait as long as it lags), and a second on, every
    window of one second or less that those requests filled is free again."""

    def __init__(self) -> None:
        self.at = time.perf_counter() + 1.0

    def __call__(self) -> float:
        return self.at


async def test_a_burst_over_the_global_limit_is_delayed_not_lost(strict_env, world):
    guild, channel, *_ = world
    backend = strict_env.backend
    assert backend.global_rate_limit == (50, 1.0)  # Discord's documented global limit
    parent = strict_env.bot.get_channel(channel.id)
    virtual = strict_env.now()
    started = time.perf_counter()
    for n in range(60):
        await parent.send(f"line {n}")
    elapsed = time.perf_counter() - started
    assert len(backend.messages[channel.id]) == 60
    hits = backend.rate_limited
    assert hits and all(hit.is_global for hit in hits)
    assert hits[0].to_json()["global"] is True and hits[0].retry_after > 0
    # the 51st request waited for the first second's window to pass, in real time
    assert elapsed >= 0.9
    assert strict_env.now() == virtual  # the wait was real time; SimCord's clock did not move


async def test_a_per_route_limit_counts_per_channel(strict_env, world):
    guild, channel, *_ = world
    other = guild.create_text_channel("other")
    backend = strict_env.backend
    backend.route_rate_limits[("POST", "/channels/*/messages")] = (2, 0.3)
    await send(strict_env, channel.id, "one")
    await send(strict_env, channel.id, "two")
    await send(strict_env, other.id, "elsewhere")  # another top-level resource: its own bucket
    assert backend.rate_limited == []
    started = time.perf_counter()
    await send(strict_env, channel.id, "three")  # waits for the bucket, then goes out
    assert time.perf_counter() - started >= 0.2
    assert [hit.is_global for hit in backend.rate_limited] == [False]
    assert len(backend.messages[channel.id]) == 3


async def test_after_five_rate_limited_tries_the_bot_gets_discord_pys_429(strict_env, world):
    guild, channel, *_ = world
    backend = strict_env.backend
    backend.route_rate_limits[("POST", "/channels/*/messages")] = (1, 0.01)
    backend.global_rate_limit = None
    backend.real_clock = FrozenClock()  # the bucket stays exhausted through every retry
    await send(strict_env, channel.id, "one")
    with pytest.raises(discord.HTTPException) as refused:
        await send(strict_env, channel.id, "two")
    assert refused.value.status == 429
    assert len(backend.rate_limited) == 5  # discord.py's five tries
    assert len(backend.messages[channel.id]) == 1


async def test_max_ratelimit_timeout_raises_rate_limited_at_once(strict_env, world):
    guild, channel, *_ = world
    backend = strict_env.backend
    backend.route_rate_limits[("POST", "/channels/*/messages")] = (1, 60.0)
    strict_env.bot.http.max_ratelimit_timeout = 30.0
    await send(strict_env, channel.id, "one")
    with pytest.raises(discord.RateLimited) as refused:
        await send(strict_env, channel.id, "two")
    assert refused.value.retry_after > 30.0


async def test_interaction_endpoints_are_not_bound_by_the_global_limit(strict_env, world):
    guild, channel, alice, _ = world
    backend = strict_env.backend
    backend.global_rate_limit = (1, 0.5)
    # The window never frees up while the clock stands still: were the interaction endpoints bound by
    # the global limit, the answer would be refused (a 429, five tries), however busy the machine is.
    backend.real_clock = FrozenClock()
    await send(strict_env, channel.id, "uses the only global slot")
    result = await alice.slash(channel, "rules", game="jeju")  # answered through the interaction endpoint
    assert result.ephemeral and result.response.embeds
    assert not [hit for hit in backend.rate_limited if hit.path.startswith(("/interactions", "/webhooks"))]
    # …while the global slot was still taken: a bot-token request now is refused.
    refused = backend.check_rate_limit("POST", f"/channels/{channel.id}/messages")
    assert refused is not None and refused.is_global


# --------------------------------------------------------------- rule 7


class SteppingClock:
    """A real clock on which every reading is ``step`` seconds after the previous one."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0

    def __call__(self) -> float:
        self.now += self.step
        return self.now


async def test_an_interaction_answered_within_three_real_seconds_succeeds(strict_env, world):
    guild, channel, alice, _ = world
    assert strict_env.backend.interaction_response_window == 3.0
    strict_env.backend.real_clock = SteppingClock(2.9)
    result = await alice.slash(channel, "rules", game="jeju")
    assert result.ephemeral and result.response.embeds


async def test_an_interaction_answered_after_three_real_seconds_is_unknown(strict_env, world):
    guild, channel, alice, _ = world
    strict_env.backend.real_clock = SteppingClock(3.1)
    result = await alice.slash(channel, "rules", game="jeju")
    assert result.response is None or not result.response.embeds
    errors = [e for e in _leaves(strict_env.errors) if isinstance(e, discord.NotFound)]
    assert errors and errors[0].code == 10062


def _leaves(errors):
    """Every exception in ``errors`` and in their causes."""
    for error in errors:
        yield error
        nested = [e for e in (error.__cause__, error.__context__, getattr(error, "original", None)) if e]
        yield from _leaves(nested)
        yield from _leaves(getattr(error, "exceptions", ()))


# ------------------------------------------------ rule 8: the user's and the server's language


async def test_an_interaction_carries_the_users_client_language_and_the_servers(strict_env, world):
    guild, channel, alice, bob = world
    seen: list[tuple[str, str | None]] = []

    async def capture(interaction: discord.Interaction) -> None:
        seen.append((str(interaction.locale), str(interaction.guild_locale)))

    strict_env.bot.add_listener(capture, "on_interaction")
    set_locale(strict_env, alice, "ko")
    await alice.slash(channel, "rules", game="jeju")
    await bob.slash(channel, "rules", game="jeju")
    await set_guild_locale(strict_env, guild, "ko")
    await bob.slash(channel, "rules", game="jeju")
    assert seen == [("ko", "en-US"), ("en-US", "en-US"), ("en-US", "ko")]
    assert strict_env.bot.get_guild(guild.id).preferred_locale == discord.Locale.korean
