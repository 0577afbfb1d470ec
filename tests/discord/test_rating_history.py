"""Rating history (issue #38): `/stats` draws each game's rating over time, says the best rating,
the current streak and a head-to-head; `/history` pages past the newest games.

A busy pair of players finish forty rated games in a server (played to the end through
the real table service, as the busy-history test of tests/discord/test_ratings.py does), then
ask `/stats` and `/history` through Discord as people would. Every number is checked
against a recount from the finished tables and their rating changes; the picture is
decoded, checked not to be blank, and measured: its smallest text stays readable at
400 px wide, like the boards.
"""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

import engine
from cogs.players import rating_view
from hosting import ratings
from hosting.records import FINISHED
from renderers import phone, render_rating_history
from renderers.common import PHONE_MIN_TEXT
from tests.play_helpers import said

GAMES = 40


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild("Jeju Friends")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol")]
    return guild, channel, people


async def play_rated(service, guild_id: int, channel_id: int, players, count: int) -> list[int]:
    """``count`` finished rated Take-away games between ``players`` (host in turn), moves chosen so
    that each of them wins some: the table ids."""
    finished = []
    for n in range(count):
        seated = players[n % len(players) :] + players[: n % len(players)]
        host = seated[0]
        table = await service.create_table(
            game_key="takeaway",
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host.id,
            host_name=host.name,
        )
        for member in seated[1:]:
            await service.join(table.id, member.id, member.name)
        await service.start(table.id, host.id)
        step = 0
        while (table := await service.get(table.id)).status == "active":
            state = service.state_of(table)
            (seat,) = engine.get("takeaway").to_act(state)
            moves = engine.get("takeaway").legal_actions(state, seat)
            await service.submit_action(table.id, seat, moves[(n + step) % len(moves)], table.version)
            step += 1
        finished.append(table.id)
    return finished


def picture_of(env, result) -> tuple[bytes, str]:
    """The picture attached to an answer, as the bytes Discord stored, and its alt text."""
    message = result.followups[0] if result.followups else result.response
    (attachment,) = message.attachments
    return env.backend.cdn.get(attachment.url), attachment.description


async def test_stats_draws_the_rating_over_time_with_best_streak_and_head_to_head(world, simcord_env):
    guild, channel, (alice, bob, carol) = world
    service = simcord_env.bot.tables
    store = service.store
    await play_rated(service, guild.id, channel.id, [alice, bob], GAMES)
    await play_rated(service, guild.id, channel.id, [alice, carol], 3)

    result = await alice.slash(channel, "stats", against=bob.user)
    text = said(result)
    # The recount: alice's rating changes from every finished table, oldest first.
    tables = sorted(await store.tables_of_user(alice.id, statuses=(FINISHED,)), key=lambda t: t.id)
    changes = [c for t in tables for c in await store.rating_changes(t.id) if c.user_id == alice.id]
    assert len(changes) == GAMES + 3
    best = max(ratings.shown(c.mu, c.sigma) for c in changes)
    streak = 0
    for c in reversed(changes):
        if c.rank != 1:
            break
        streak += 1
    assert f"best rating **{best}**" in text
    if streak:
        assert f"streak: {streak} win{'s' if streak > 1 else ''} in a row" in text
    else:
        assert "no win streak" in text
    # Head-to-head against bob, from the finished tables where both sat.
    both = [t for t in tables if t.seat_of(bob.id)]
    higher = sum(
        t.result["ranking"][t.seat_of(alice.id).seat] < t.result["ranking"][t.seat_of(bob.id).seat]
        for t in both
    )
    lower = sum(
        t.result["ranking"][t.seat_of(alice.id).seat] > t.result["ranking"][t.seat_of(bob.id).seat]
        for t in both
    )
    assert 0 < higher < GAMES and 0 < lower < GAMES  # both won some: the numbers say something
    shared = len(both) - higher - lower
    assert f"{GAMES} games together; alice placed higher {higher}×, bob {lower}×, shared {shared}×" in text
    assert "<@" not in text

    # The picture: decoded, the house width, not blank, and its text readable at 400 px.
    png, alt = picture_of(simcord_env, result)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.width == 800 and image.width <= image.height * 2 and image.height <= image.width * 2
    assert len(image.getcolors(1 << 16) or ()) > 8  # a drawing, not a flat colour
    assert f"{GAMES + 3} rated games" in alt and f"best {best}" in alt
    history = await store.rating_history(alice.id)
    view = rating_view(alice.name, history)
    sizes = phone.measure(lambda: render_rating_history("ratings", view, None, "en"))
    assert sizes.picture.png == png  # what was sent is what was measured
    assert not sizes.too_small(), sizes.too_small()
    assert sizes.smallest.phone_px >= PHONE_MIN_TEXT
    assert any(str(best) in drawn.text for drawn in sizes.texts)  # the best rating is written on it

    # Someone else's stats: this server's games only (all of them are here), and the same picture kind.
    others = await carol.slash(channel, "stats", player=alice.user, against=carol.user)
    assert "3 games together" in said(others) and picture_of(simcord_env, others)[0]
    # In Korean, the picture speaks Korean and stays readable.
    korean = phone.measure(lambda: render_rating_history("ratings", view, None, "ko"))
    assert not korean.too_small() and any("레이팅" in drawn.text for drawn in korean.texts)


async def test_stats_without_rated_games_has_no_picture_and_head_to_head_says_so(world, simcord_env):
    guild, channel, (alice, bob, carol) = world
    assert "has not finished a game" in said(await alice.slash(channel, "stats"))
    await play_rated(simcord_env.bot.tables, guild.id, channel.id, [bob, carol], 1)
    result = await bob.slash(channel, "stats", against=alice.user)
    text = said(result)
    assert "**bob against alice**: no finished games together yet." in text
    with_self = said(await bob.slash(channel, "stats", against=bob.user))
    assert "Head-to-head needs another player than bob." in with_self


def history_ids(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\*\* #(\d+) —", text)]


async def test_history_pages_past_the_newest_games_without_a_gap(world, simcord_env):
    guild, channel, (alice, bob, carol) = world
    finished = await play_rated(simcord_env.bot.tables, guild.id, channel.id, [alice, bob], GAMES)
    newest_first = sorted(finished, reverse=True)

    first = await bob.slash(channel, "history")
    listed = history_ids(said(first))
    assert listed == newest_first[: len(listed)] and len(listed) < GAMES
    assert f"… and {GAMES - len(listed)} older games." in said(first)
    page = first.response
    seen = list(listed)
    while True:
        buttons = {c["label"]: c for row in page.components for c in row["components"]}
        if buttons["Older ▶"].get("disabled"):
            break
        page = (await bob.click(page, label="Older ▶")).response
        assert len(page.content) <= 2000
        seen += history_ids(page.content)
    assert seen == newest_first  # every game once, newest first, past the newest 25
    assert f"Games {len(seen) - len(history_ids(page.content)) + 1}–{GAMES} of {GAMES}" in page.content
    back = (await bob.click(page, label="◀ Newer")).response
    assert history_ids(back.content) and set(history_ids(back.content)) <= set(newest_first)

    # Someone else's history pages too, this server's games only.
    theirs = await carol.slash(channel, "history", player=bob.user)
    assert history_ids(said(theirs)) == newest_first[: len(history_ids(said(theirs)))]
    older = (await carol.click(theirs.response, label="Older ▶")).response
    assert history_ids(older.content) and "in this server" in older.content
