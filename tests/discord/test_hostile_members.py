"""Issue #35: features that could be turned against the people they serve, played as those people.

A player cycling Rematch and Cancel, two Rematch clicks landing together (raw
interactions delivered at once, `tests.discord.test_reliability_hostile.send_together`), a
member churning `/play`, a member of one shared server looking up another's
history and another server's table numbers, a member leaving the server and an
organiser removing a player from the board or voiding a game.
"""

from __future__ import annotations

import os
import random
import stat
import sys

import discord
import pytest

import engine
from hosting import service as service_module
from tests.discord.test_lobby import fetch
from tests.discord.test_play import seat_and_start
from tests.discord.test_reliability_hostile import button, send_together
from tests.play_helpers import said, take_turns


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild("Jeju Friends")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol")]
    return guild, channel, people


def pings_of(env, person, since: int = 0) -> int:
    """Messages the bot sent (after its ``since``-th request) that were allowed to ping ``person``."""
    return sum(
        1
        for e in env.http_requests[since:]
        if e.method == "POST"
        and isinstance(e.json, dict)
        and str(person.id) in ((e.json.get("allowed_mentions") or {}).get("users") or [])
    )


async def finished_game(channel, host, others):
    """A finished two-person game of Jeju Island; (its results message, its thread)."""
    thread = await seat_and_start(channel, host, others, 0, "jeju")
    people = {p.id: p for p in (host, *others)}
    results = await take_turns(thread, people, random.Random(1))
    assert results is not None
    return results, thread


async def lobbies_in(env, channel) -> list:
    return [t for t in await env.bot.tables.store.open_tables_in(channel.id) if t.status == "lobby"]


# ------------------------------------------------------------------------ 2. rematch


async def test_two_rematch_clicks_at_once_open_one_lobby_and_ping_once(world, simcord_env):
    guild, channel, (alice, bob, _) = world
    results, _ = await finished_game(channel, alice, [bob])
    old = await simcord_env.bot.tables.store.table_in_channel(results.channel.id)
    assert old.status == "finished"
    clicks = [(alice, button(f"rematch:{old.id}")), (bob, button(f"rematch:{old.id}"))]
    since = len(simcord_env.http_requests)
    answers = await send_together(simcord_env, results, clicks)
    assert len(await lobbies_in(simcord_env, channel)) == 1  # before issue #35: 2
    texts = [said(a) for a in answers]
    assert sum("Your rematch lobby is open" in t for t in texts) == 1
    assert sum("A rematch is already" in t for t in texts) == 1
    pinged = pings_of(simcord_env, alice, since) + pings_of(simcord_env, bob, since)
    assert pinged == 1  # the opener's partner, once (before issue #35: both, once each)

    # A double-click of one player: the same.
    again = await send_together(simcord_env, results, [(alice, button(f"rematch:{old.id}"))] * 2)
    assert all("A rematch is already" in said(a) for a in again)
    assert len(await lobbies_in(simcord_env, channel)) == 1


async def test_rematch_then_cancel_five_times_pings_the_other_player_once(world, simcord_env):
    guild, channel, (alice, bob, _) = world
    results, _ = await finished_game(channel, alice, [bob])
    since = len(simcord_env.http_requests)  # the game's own boards ping whoever must move
    opened = 0
    for _ in range(5):
        asked = await alice.click(results, label="Rematch")
        assert "Your rematch lobby is open" in said(asked)
        opened += 1
        (lobby_table,) = await lobbies_in(simcord_env, channel)
        thread = next(t for t in channel.threads if t.id == lobby_table.thread_id)
        lobby = fetch(thread, lobby_table.lobby_message_id)
        assert bob.mention in lobby.content  # still named in every rematch
        await alice.click(lobby, label="Cancel")
        # Past the window in which closed lobbies count against the cap (item 5, tested below).
        await simcord_env.advance_time(service_module.CLOSED_LOBBY_WINDOW + 1)
    assert opened == 5
    assert pings_of(simcord_env, bob, since) == 1  # before issue #35: 5


async def test_the_rematch_lobby_keeps_its_seats_for_the_players_then_opens(world, simcord_env, make_bot):
    guild, channel, (alice, bob, carol) = world
    results, game_thread = await finished_game(channel, alice, [bob])
    old = await simcord_env.bot.tables.store.table_in_channel(game_thread.id)
    await alice.click(results, label="Rematch")
    (table,) = await lobbies_in(simcord_env, channel)
    thread = next(t for t in channel.threads if t.id == table.thread_id)
    lobby = fetch(thread, table.lobby_message_id)
    kept = next(f for f in lobby.embeds[0].fields if f.name == "Rematch")
    assert f"Seats are kept for the players of table #{old.id} until <t:" in kept.value

    refused = await carol.click(lobby, label="Join")  # she did not play the game before
    assert "keeps its seats for the players" in said(refused)
    assert [s.user_id for s in (await simcord_env.bot.tables.get(table.id)).seats] == [alice.id]

    # The record survives a restart: a Rematch click after it points to the same lobby, no ping.
    await simcord_env.restart_bot(make_bot())
    again = await bob.click(results, label="Rematch")
    assert "A rematch is already open" in said(again)
    await bob.click(fetch(thread, table.lobby_message_id), label="Join")

    await simcord_env.advance_time(service_module.REMATCH_SEATS_KEPT + 1)
    await carol.click(fetch(thread, table.lobby_message_id), label="Join")
    seated = [s.user_id for s in (await simcord_env.bot.tables.get(table.id)).seats]
    assert seated == [alice.id, bob.id, carol.id]
    assert not any(f.name == "Rematch" for f in fetch(thread, table.lobby_message_id).embeds[0].fields)


# ------------------------------------------------------------------- 5. /play churn


async def test_play_then_cancel_in_a_loop_is_bounded(world, simcord_env):
    guild, channel, (alice, *_) = world
    threads_before = len(channel.threads)
    refused = None
    for _ in range(10):
        result = await alice.slash(channel, "play", game="takeaway")
        if result.ephemeral:
            refused = said(result)
            break
        _, lobby, _ = await open_table_from(channel, result)
        await alice.click(lobby, label="Cancel")
    opened = len(channel.threads) - threads_before
    assert opened == service_module.MAX_LOBBIES_PER_HOST  # before issue #35: 10
    assert refused is not None and "You opened and closed 3 lobbies" in refused
    assert "You can open another <t:" in refused
    # Later the member may open lobbies again.
    await simcord_env.advance_time(service_module.CLOSED_LOBBY_WINDOW + 1)
    assert not (await alice.slash(channel, "play", game="takeaway")).ephemeral


async def open_table_from(channel, result):
    """The public reply, lobby and thread of a /play that opened a table."""
    reply = result.followups[0] if result.followups else result.response
    thread_id = int(reply.content.split("/")[-2])
    thread = next(t for t in channel.threads if t.id == thread_id)
    return reply, thread.last_message, thread


# ------------------------------------------------- 3 and 4. other servers stay private


async def play_out(service, table_id: int, seed: int = 0) -> None:
    """Random legal moves through the service until the game ends."""
    rng = random.Random(seed)
    while (table := await service.get(table_id)).status == "active":
        game = engine.get(table.game)
        state = service.state_of(table)
        seat = min(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        await service.submit_action(table.id, seat, action, table.version)


async def a_game(service, guild, channel, host, other, *, finish: bool = True):
    """A two-person Jeju Island table in ``channel`` of ``guild``, finished (or left running)."""
    table = await service.create_table(
        game_key="jeju", guild_id=guild.id, channel_id=channel.id, host_id=host.id, host_name=host.name
    )
    await service.join(table.id, other.id, other.name)
    table = await service.start(table.id, host.id)
    if finish:
        await play_out(service, table.id)
    return await service.get(table.id)


@pytest.fixture
def two_servers(simcord_env):
    """Home (alice, bob) and Away (bob, mallory): bob is in both, alice only at Home."""
    home = simcord_env.create_guild("Home")
    away = simcord_env.create_guild("Away")
    bob_user = simcord_env.create_user("bob")
    alice = home.add_member(simcord_env.create_user("alice"))
    bob = home.add_member(bob_user)
    bob_away = away.add_member(bob_user)
    mallory = away.add_member(simcord_env.create_user("mallory"))
    return (home, home.create_text_channel("games"), alice, bob), (
        away,
        away.create_text_channel("games"),
        bob_away,
        mallory,
    )


async def test_someone_elses_history_and_stats_show_only_this_servers_games(two_servers, simcord_env):
    (home, here, alice, bob), (away, there, bob_away, mallory) = two_servers
    service = simcord_env.bot.tables
    at_home = await a_game(service, home, here, alice, bob)
    abroad = await a_game(service, away, there, bob_away, mallory)

    looked_up = said(await alice.slash(here, "history", player=bob.user))
    assert f"#{at_home.id}" in looked_up
    assert f"#{abroad.id}" not in looked_up and str(away.id) not in looked_up  # before issue #35: listed
    assert "in this server" in looked_up
    own = said(await bob.slash(here, "history"))
    assert f"#{at_home.id}" in own and f"#{abroad.id}" in own  # your own history: all of it

    stats = said(await alice.slash(here, "stats", player=bob.user))
    assert "1 played" in stats and "2 played" not in stats and "in this server" in stats
    assert "2 played" in said(await bob.slash(here, "stats"))


async def test_another_servers_table_numbers_get_the_same_neutral_answer(two_servers, simcord_env):
    (home, here, alice, bob), (away, there, bob_away, mallory) = two_servers
    service = simcord_env.bot.tables
    running = await a_game(service, away, there, bob_away, mallory, finish=False)
    finished = await a_game(service, away, there, mallory, bob_away)
    missing = finished.id + 100
    commands = ("game log", "game board", "game leave", "game pause", "game resume", "game end")
    for table in (running, finished):
        for command in (*commands, "game replay", "game export"):
            answer = said(await alice.slash(here, command, table=table.id))
            assert answer == f"There is no table #{table.id} here.", (command, answer)  # before: a link
            assert str(away.id) not in answer
    for command in (*commands, "game replay", "game export"):
        assert said(await alice.slash(here, command, table=missing)) == f"There is no table #{missing} here."
    replaced = said(await alice.slash(here, "game replace", seat=1, table=running.id))
    assert replaced == f"There is no table #{running.id} here."
    # A player of that table may still replay and export their own game from anywhere.
    assert "There is no table" not in said(await bob.slash(here, "game export", table=finished.id))


# ------------------------------------------------------------ 6. the database is private


async def test_the_database_its_wal_and_shm_and_backups_are_private_under_umask_022(tmp_path):
    from bot import Config, create_bot
    from hosting.ops import backup
    from hosting.stores import open_store
    from simtools.strict import StrictEnv
    from tests.conftest import TOKEN

    old = os.umask(0o022)  # the usual umask: files 0644, folders 0755
    try:
        database = tmp_path / "data" / "seagames.sqlite3"
        config = Config(token=TOKEN, database=database, bot_delay=0.0)
        store = await open_store(config)
        bot = create_bot(config, store)
        env = StrictEnv(bot)
        await env.start()
        try:
            guild = env.create_guild("Home")
            channel = guild.create_text_channel("games")
            alice = guild.add_member(env.create_user("alice"))
            assert not (await alice.slash(channel, "play", game="takeaway")).ephemeral  # a write: the WAL
            modes = {
                p.name: stat.S_IMODE(p.stat().st_mode)
                for p in database.parent.iterdir()
                if "sqlite3" in p.name
            }
            assert {"seagames.sqlite3", "seagames.sqlite3-wal", "seagames.sqlite3-shm"} <= set(modes)
            assert set(modes.values()) == {0o600}, modes  # before issue #35: 0o644
            assert stat.S_IMODE(database.parent.stat().st_mode) == 0o700  # before: 0o755
            saved = tmp_path / "backups" / "copy.sqlite3"
            assert backup(database, saved) == 1
            assert stat.S_IMODE(saved.stat().st_mode) == 0o600
            assert stat.S_IMODE(saved.parent.stat().st_mode) == 0o700
        finally:
            await env.shutdown()
            await store.close()
    finally:
        os.umask(old)


# ---------------------------------------------- 8 and 9. a server's board lists its members


@pytest.fixture
def board_world(simcord_env, monkeypatch):
    """Home (alice, bob, carol and a moderator) with one rated game a board needs, and Away."""
    monkeypatch.setattr(sys.modules["cogs.leaderboard"], "MIN_GAMES", 1)  # the module the bot loaded
    home = simcord_env.create_guild("Home")
    channel = home.create_text_channel("games")
    users = {name: simcord_env.create_user(name) for name in ("alice", "bob", "carol", "mod")}
    mods = home.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    members = {
        name: home.add_member(user, roles=[mods] if name == "mod" else []) for name, user in users.items()
    }
    away = simcord_env.create_guild("Away")
    return home, channel, members, away, away.create_text_channel("games"), users


async def test_a_member_who_left_is_dropped_from_the_servers_board(board_world, simcord_env):
    home, channel, m, *_ = board_world
    service = simcord_env.bot.tables
    await a_game(service, home, channel, m["alice"], m["bob"])
    await a_game(service, home, channel, m["carol"], m["bob"])
    board = said(await m["alice"].slash(channel, "leaderboard", game="jeju"))
    assert m["bob"].mention in board and "of 3" in board
    home.remove_member(m["bob"])
    # The bot hears of nobody leaving (no members intent): it asks Discord again once its last
    # "still a member" answer for bob is older than MEMBER_CHECK_TTL.
    await simcord_env.advance_time(sys.modules["cogs.leaderboard"].MEMBER_CHECK_TTL + 1)
    board = said(await m["alice"].slash(channel, "leaderboard", game="jeju"))
    assert m["bob"].mention not in board  # before issue #35: still listed
    assert "of 2" in board and "Page 1 of 1" in board
    # The board across servers is everyone's: bob's rating is still his.
    across = said(await m["alice"].slash(channel, "leaderboard", game="jeju", scope="all"))
    assert m["bob"].mention in across


async def test_an_organiser_takes_a_player_off_the_board(board_world, simcord_env):
    home, channel, m, *_ = board_world
    service = simcord_env.bot.tables
    await a_game(service, home, channel, m["alice"], m["bob"])
    done = said(await m["mod"].slash(channel, "ratings remove", player=m["bob"].user))
    assert "is off this server's boards (Jeju Island)" in done
    board = said(await m["alice"].slash(channel, "leaderboard", game="jeju"))
    assert m["bob"].mention not in board and m["alice"].mention in board
    assert (await service.ratings_of(m["bob"].id))[0].games == 1  # his rating stays his
    again = said(await m["mod"].slash(channel, "ratings remove", player=m["bob"].user))
    assert "is on none of this server's boards" in again


async def test_an_organiser_voids_a_game_from_the_ratings_with_a_line_in_its_thread(board_world, simcord_env):
    home, channel, m, away, away_channel, users = board_world
    service = simcord_env.bot.tables
    thread = await seat_and_start(channel, m["alice"], [m["bob"]], 0, "jeju")
    assert await take_turns(thread, {m["alice"].id: m["alice"], m["bob"].id: m["bob"]}, random.Random(4))
    game = await service.store.table_in_channel(thread.id)
    assert await service.rating_changes(game.id)

    done = said(await m["mod"].slash(channel, "ratings void", table=game.id))
    assert f"Table #{game.id} is voided" in done
    assert await service.ratings_of(m["alice"].id) == [] and await service.rating_changes(game.id) == []
    board = said(await m["alice"].slash(channel, "leaderboard", game="jeju"))
    assert "Nobody is on this board yet." in board
    texts = [msg.content for msg in next(t for t in channel.threads if t.id == thread.id).history()]
    assert any("voided from the ratings by" in text for text in texts)  # the line under the results
    assert "already voided" in said(await m["mod"].slash(channel, "ratings void", table=game.id))

    # An earlier game another rated game has built on cannot be undone exactly: refused, nothing changed.
    first = await a_game(service, home, channel, m["alice"], m["carol"])
    await a_game(service, home, channel, m["carol"], m["alice"])
    before = await service.ratings_of(m["alice"].id)
    late = said(await m["mod"].slash(channel, "ratings void", table=first.id))
    assert "can no longer be voided" in late and await service.ratings_of(m["alice"].id) == before
    # Another server's game: the neutral answer.
    elsewhere = await a_game(
        service, away, away_channel, away.add_member(users["alice"]), away.add_member(users["bob"])
    )
    assert said(await m["mod"].slash(channel, "ratings void", table=elsewhere.id)) == (
        f"There is no table #{elsewhere.id} here."
    )


async def test_the_servers_board_counts_the_games_played_on_it(board_world, simcord_env):
    home, channel, m, away, away_channel, users = board_world
    service = simcord_env.bot.tables
    await a_game(service, home, channel, m["alice"], m["bob"])
    await a_game(service, home, channel, m["bob"], m["alice"])
    alice_away, carol_away = away.add_member(users["alice"]), away.add_member(users["carol"])
    await a_game(service, away, away_channel, alice_away, carol_away)
    board = said(await m["alice"].slash(channel, "leaderboard", game="jeju"))
    line = next(ln for ln in board.splitlines() if m["alice"].mention in ln)
    assert line.endswith("· 2 games")  # before issue #35: 3, her games in every server
    across = said(await m["alice"].slash(channel, "leaderboard", game="jeju", scope="all"))
    assert next(ln for ln in across.splitlines() if m["alice"].mention in ln).endswith("· 3 games")
