"""Ratings, leaderboards, history and rematch, as people use them through Discord.

Two people finish a Jeju Island game and both ratings move by exactly what
openskill computes; a bot seat, a solo game and an abandoned table move no
rating (and the results say why); the boards page and always show the caller's
place; Rematch opens a lobby with the same people and bots.
"""

from __future__ import annotations

import random
import sys

import pytest
from openskill.models import PlackettLuce

import engine
from cogs.players import HISTORY_SHOWN
from engine.reef.components import rating as solo_band
from hosting import ratings
from simtools.strict import delete_channel
from tests.discord.test_lobby import fetch, open_table
from tests.discord.test_play import seat_and_start
from tests.play_helpers import latest_board, results_message, said, take_turns


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild("Jeju Friends")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol", "dan")]
    return guild, channel, people


def handle(channel, thread):
    return next(t for t in channel.threads if t.id == thread.id)


async def test_two_people_finish_jeju_and_both_ratings_move_as_openskill_says(world, simcord_env):
    guild, channel, (alice, bob, *_) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju")
    results = await take_turns(thread, {alice.id: alice, bob.id: bob}, random.Random(2))
    assert results is not None
    service = simcord_env.bot.tables
    table = await service.store.table_in_channel(thread.id)

    # openskill itself, from two new players and the table's ranking.
    model = PlackettLuce()
    teams = [[model.rating()], [model.rating()]]
    expected = model.rate(teams, ranks=list(table.result["ranking"]))
    for seat, person in enumerate((alice, bob)):
        (mine,) = await service.ratings_of(person.id)
        assert (mine.game, mine.games) == ("jeju", 1)
        assert (mine.mu, mine.sigma) == (expected[seat][0].mu, expected[seat][0].sigma)
        before = round(10 * model.rating().ordinal())
        delta = round(10 * expected[seat][0].ordinal()) - before
        line = next(ln for ln in results.embeds[0].description.splitlines() if person.name in ln)
        assert f"rating {mine.shown} ({ratings.signed(delta)}, provisional)" in line
    assert not any(f.name == "Note" and "Not rated" in f.value for f in results.embeds[0].fields)

    stats = await alice.slash(channel, "stats")
    assert "rating **" in said(stats) and "after 1 rated" in said(stats)
    history = await bob.slash(channel, "history")
    text = said(history)
    assert f"**Jeju Island** #{table.id}" in text and f"score {table.result['scores'][1]}" in text
    assert str(thread.id) in text and len(text) <= 2000


async def test_history_of_a_busy_player_lists_the_newest_and_counts_the_rest(world, simcord_env):
    guild, channel, (alice, bob, *_) = world
    service = simcord_env.bot.tables
    finished = []
    for _ in range(HISTORY_SHOWN + 12):  # more games than one answer reads
        table = await service.create_table(
            game_key="takeaway", guild_id=guild.id, channel_id=channel.id, host_id=alice.id, host_name="alice"
        )
        await service.join(table.id, bob.id, "bob")
        await service.start(table.id, alice.id)
        while (table := await service.get(table.id)).status == "active":
            state = service.state_of(table)
            (seat,) = engine.get("takeaway").to_act(state)
            move = engine.get("takeaway").legal_actions(state, seat)[0]
            await service.submit_action(table.id, seat, move, table.version)
        finished.append(table.id)

    text = said(await bob.slash(channel, "history"))
    listed = sorted((n for n in finished if f"#{n} —" in text), key=lambda n: text.index(f"#{n} —"))
    assert listed and listed == sorted(finished, reverse=True)[: len(listed)]  # the newest, newest first
    assert f"… and {len(finished) - len(listed)} older games." in text  # the rest counted, not lost
    assert len(text) <= 2000


async def test_a_bot_seat_a_solo_game_and_an_abandoned_table_move_no_rating(world, simcord_env):
    guild, channel, (alice, bob, carol, _) = world
    service = simcord_env.bot.tables

    with_bot = await seat_and_start(channel, alice, [bob], 1, "jeju")
    results = await take_turns(with_bot, {alice.id: alice, bob.id: bob}, random.Random(3))
    notes = [f.value for f in results.embeds[0].fields]
    assert "Not rated: a bot played a seat." in notes
    assert "rating" not in results.embeds[0].description

    solo = await seat_and_start(channel, carol, [], 0, "reef")
    results = await take_turns(solo, {carol.id: carol}, random.Random(4))
    assert any(n.startswith("Solo game: not rated") for n in (f.value for f in results.embeds[0].fields))

    abandoned = await seat_and_start(channel, alice, [carol], 0, "jeju")
    assert (
        await take_turns(abandoned, {alice.id: alice, carol.id: carol}, random.Random(5), max_turns=4) is None
    )
    await delete_channel(simcord_env, abandoned)
    assert (await service.store.table_in_channel(abandoned.id)).status == "abandoned"

    ended = await seat_and_start(channel, bob, [carol], 0, "jeju")
    await take_turns(ended, {bob.id: bob, carol.id: carol}, random.Random(6), max_turns=4)
    assert "is ended" in said(await bob.slash(handle(channel, ended), "game end"))

    for person in (alice, bob, carol):
        assert await service.ratings_of(person.id) == []
    # The solo score went on the solo board, with its band from the rulebook's table.
    (best,) = (await service.store.solo_board("reef", guild_id=guild.id))[1]
    board = said(await carol.slash(channel, "leaderboard", game="reef-solo"))
    assert best.user_id == carol.id and f"**{best.best}** · {solo_band(best.best).title}" in board
    assert f"You: **#1** of 1 with {best.best}" in board


async def rated_games(service, guild_id: int, pairs: list[tuple[int, int]], seed: int = 0) -> None:
    """Finish Jeju Island games between pairs of people through the service (random legal moves)."""
    game = engine.get("jeju")
    rng = random.Random(seed)
    for first, second in pairs:
        table = await service.create_table(
            game_key="jeju", guild_id=guild_id, channel_id=1, host_id=first, host_name=f"p{first}"
        )
        await service.join(table.id, second, f"p{second}")
        table = await service.start(table.id, first)
        while table.status == "active":
            seat = min(game.to_act(service.state_of(table)))
            action = rng.choice(game.legal_actions(service.state_of(table), seat))
            table = (await service.submit_action(table.id, seat, action, table.version)).table


async def test_leaderboards_page_and_always_show_the_callers_place(world, simcord_env, monkeypatch):
    guild, channel, (alice, *_) = world
    service = simcord_env.bot.tables
    leaderboard = sys.modules["cogs.leaderboard"]  # the module the bot loaded its cog from
    monkeypatch.setattr(leaderboard, "PAGE_SIZE", 3)
    monkeypatch.setattr(leaderboard, "MIN_GAMES", 1)
    # Members of the server: its board lists members only (issue #35).
    others = [guild.add_member(simcord_env.create_user(f"player{i}")).id for i in range(7)]
    pairs = [(alice.id, others[0]), *zip(others[1::2], others[2::2], strict=False)]
    await rated_games(service, guild.id, pairs)
    await rated_games(service, guild.id + 1, [(20, 21)], seed=1)  # another server
    total, everyone = await service.store.leaderboard("jeju", limit=100)
    here_total, here = await service.store.leaderboard("jeju", guild_id=guild.id, limit=100)
    assert total == 10 and here_total == 8
    mine = next(s for s in here if s.user_id == alice.id)

    first = await alice.slash(channel, "leaderboard", game="jeju")
    page = first.response
    assert "Page 1 of 3" in page.content and f"You: **#{mine.rank}** of 8" in page.content
    assert f"<@{here[0].user_id}>" in page.content and f"<@{here[3].user_id}>" not in page.content
    await alice.click(page, label="Next ▶")
    assert "Page 2 of 3" in page.content and f"<@{here[3].user_id}>" in page.content
    assert f"You: **#{mine.rank}** of 8" in page.content  # on every page
    await alice.click(page, label="Next ▶")
    await alice.click(page, label="◀ Previous")
    assert "Page 2 of 3" in page.content

    across = await alice.slash(channel, "leaderboard", game="jeju", scope="all")
    rank = next(s.rank for s in everyone if s.user_id == alice.id)
    assert "all servers" in across.response.content and "Page 1 of 4" in across.response.content
    assert f"You: **#{rank}** of 10" in across.response.content

    monkeypatch.setattr(leaderboard, "MIN_GAMES", 3)
    empty = await alice.slash(channel, "leaderboard", game="jeju")
    assert "Nobody is on this board yet." in empty.response.content
    assert "it takes 3 rated games here" in empty.response.content


async def test_rematch_seats_the_bots_at_their_levels(world, simcord_env):
    guild, channel, (alice, *_) = world
    _, lobby, thread = await open_table(channel, alice, game="jeju")
    await alice.select(fetch(thread, lobby.id), ["easy"], custom_id="lobbyset:level:1")
    await alice.click(fetch(thread, lobby.id), label="Start")
    results = await take_turns(thread, {alice.id: alice}, random.Random(3))
    await alice.click(results, label="Rematch")
    service = simcord_env.bot.tables
    (new,) = [t for t in await service.store.open_tables_in(channel.id) if t.status == "lobby"]
    assert [(s.name, s.policy) for s in new.seats] == [("alice", None), ("Bot Dol (easy)", "beginner")]


async def test_a_rematch_after_the_last_one_closed_opens_again_without_pinging(world, simcord_env):
    """The store keeps which rematch a finished table opened (issue #35): once that lobby closed,
    a click opens another, and names the players without pinging them again."""
    guild, channel, (alice, *_) = world
    thread = await seat_and_start(channel, alice, [], 1, "jeju")
    results = await take_turns(thread, {alice.id: alice}, random.Random(5))
    first = await alice.click(results, label="Rematch")
    again = await alice.click(results, label="Rematch")
    assert "Your rematch lobby is open" in said(first)
    assert "A rematch is already open" in said(again)
    service = simcord_env.bot.tables
    (lobby,) = [t for t in await service.store.open_tables_in(channel.id) if t.status == "lobby"]
    await service.cancel(lobby.id, alice.id, can_manage=False)
    third = await alice.click(results, label="Rematch")
    assert "Your rematch lobby is open" in said(third)


async def test_rematch_opens_a_lobby_with_the_same_people_and_bots(world, simcord_env):
    guild, channel, (alice, bob, carol, _) = world
    thread = await seat_and_start(channel, alice, [bob], 1, "jeju", pace=86400)
    results = await take_turns(thread, {alice.id: alice, bob.id: bob}, random.Random(8))
    old = await simcord_env.bot.tables.store.table_in_channel(thread.id)

    refused = await carol.click(results, label="Rematch")  # she did not play
    assert "Only the players" in said(refused)
    asked = await bob.click(results, label="Rematch")
    assert "Your rematch lobby is open" in said(asked)
    again = await alice.click(results, label="Rematch")
    assert "A rematch is already open" in said(again)

    service = simcord_env.bot.tables
    (new,) = [t for t in await service.store.open_tables_in(channel.id) if t.id != old.id]
    assert new.host_id == bob.id and new.game == "jeju" and new.options == old.options and new.pace == 86400
    assert [s.kind for s in new.seats] == ["human", "bot"]
    lobby_thread = next(t for t in channel.threads if t.id == new.thread_id)
    lobby = lobby_thread.last_message
    invite = next(
        e.json
        for e in simcord_env.http_requests
        if e.method == "POST" and e.path.endswith(f"/channels/{new.thread_id}/messages")
    )
    assert invite["allowed_mentions"] == {"users": [str(alice.id)], "parse": []}  # alice, pinged once
    await alice.click(lobby, label="Join")
    seated = await service.get(new.id)
    assert {s.user_id for s in seated.seats if not s.is_bot} == {alice.id, bob.id}
    await bob.click(lobby, label="Start")
    assert latest_board(lobby_thread) is not None
    assert results_message(lobby_thread) is None
