"""Growing past one process: DATABASE_URL selects PostgreSQL, SHARD_COUNT / SHARD_IDS shard the bot.

The PostgreSQL tests use the test server of `simtools/pg_server.py` and skip,
saying why, where none can be started.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest
from discord.ext import commands

import cli
import engine
from bot import Config, ConfigError, create_bot, load_config, parse_shards
from hosting import pg_store
from hosting.pg_store import DatabaseUnavailable, PostgresStore
from hosting.records import ACTIVE, Seat
from hosting.store import Store
from hosting.stores import describe, open_store
from simtools import pg_server

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
SETTINGS = ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "DEV_GUILD_ID")
# Nothing listens here: port 1 on loopback refuses at once (no network is touched).
DEAD_URL = "postgresql://seagames:secret@127.0.0.1:1/seagames"


def run_bot(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), *args],
        cwd=cwd,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
async def pg_url():
    """A fresh database on the test PostgreSQL server."""
    async with pg_server.scratch_database() as url:
        yield url


# ------------------------------------------------------------------- settings


def test_shard_settings_are_read():
    assert parse_shards("", "") == (None, None)
    assert parse_shards("4", "") == (4, None)  # every shard in this process
    assert parse_shards(" 4 ", "0, 2-3") == (4, (0, 2, 3))
    config = load_config({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "2", "SHARD_IDS": "1"}, None)
    assert config.sharded and (config.shard_count, config.shard_ids) == (2, (1,))
    plain = load_config({"DISCORD_TOKEN": TOKEN}, None)
    assert not plain.sharded and plain.shard_ids is None and plain.database_url is None


def test_shard_settings_come_from_dotenv(tmp_path):
    (tmp_path / ".env").write_text(
        f"DISCORD_TOKEN={TOKEN}\nSHARD_COUNT=3\nSHARD_IDS=0,2\nDATABASE_URL=postgres://u:p@db/seagames\n"
    )
    config = load_config({}, tmp_path / ".env")
    assert (config.shard_count, config.shard_ids) == (3, (0, 2))
    assert config.database_url == "postgres://u:p@db/seagames"
    assert describe(config) == "PostgreSQL at postgres://u:***@db/seagames"


@pytest.mark.parametrize(
    ("count", "ids", "message"),
    [
        ("", "0", "SHARD_IDS needs SHARD_COUNT"),
        ("0", "", "SHARD_COUNT must be a whole number"),
        ("two", "", "SHARD_COUNT must be a whole number"),
        ("-1", "", "SHARD_COUNT must be a whole number"),
        ("2", "2", "from 0 to 1"),
        ("2", "0,0", "each once"),
        ("2", "a", "SHARD_IDS must list"),
        ("4", "1-", "SHARD_IDS must list"),
        ("4", ",", "SHARD_IDS must list"),
    ],
)
def test_bad_shard_settings_are_named(count, ids, message):
    with pytest.raises(ConfigError, match=message):
        load_config({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": count, "SHARD_IDS": ids}, None)


def test_a_database_url_must_be_postgresql():
    with pytest.raises(ConfigError, match="DATABASE_URL must be a PostgreSQL URL"):
        load_config({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "mysql://u@h/db"}, None)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SHARD_COUNT": "2", "SHARD_IDS": "5"}, "SHARD_IDS must list"),
        ({"SHARD_COUNT": "lots"}, "SHARD_COUNT must be a whole number"),
        ({"DATABASE_URL": "sqlite:///x.db"}, "DATABASE_URL must be a PostgreSQL URL"),
    ],
)
def test_bad_scale_out_settings_exit_2_with_help(tmp_path, env, message):
    done = run_bot([], tmp_path, DISCORD_TOKEN=TOKEN, **env)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


# ------------------------------------------------------------------ the bot


async def test_create_bot_shards_when_asked(tmp_path):
    store = await open_store(Config(database=tmp_path / "t.sqlite3"))
    sharded = create_bot(
        Config(token=TOKEN, database=tmp_path / "t.sqlite3", shard_count=4, shard_ids=(0, 2)), store
    )
    assert isinstance(sharded, commands.AutoShardedBot)
    assert sharded.shard_count == 4 and sharded.shard_ids == [0, 2]
    every = create_bot(Config(token=TOKEN, database=tmp_path / "t.sqlite3", shard_count=2), store)
    assert isinstance(every, commands.AutoShardedBot) and every.shard_ids is None
    single = create_bot(Config(token=TOKEN, database=tmp_path / "t.sqlite3"), store)
    await store.close()
    assert not isinstance(single, discord.AutoShardedClient)


async def test_open_store_follows_the_configuration(tmp_path, pg_url):
    sqlite = await open_store(Config(database=tmp_path / "t.sqlite3"))
    assert isinstance(sqlite, Store)
    await sqlite.close()
    postgres = await open_store(Config(database=tmp_path / "unused.sqlite3", database_url=pg_url))
    assert isinstance(postgres, PostgresStore) and await postgres.integrity_check() == "ok"
    await postgres.close()
    split = Config(database_url=pg_url, shard_count=4, shard_ids=(1, 3))
    scoped = await open_store(split)  # schedules only the tables of shards 1 and 3
    assert scoped._shards == (4, [1, 3])
    await scoped.close()
    every = await open_store(Config(database_url=pg_url, shard_count=4))  # all shards here
    assert every._shards is None
    await every.close()
    assert not (tmp_path / "unused.sqlite3").exists()


async def test_an_unreachable_database_is_explained():
    with pytest.raises(DatabaseUnavailable, match=r"127\.0\.0\.1:1/seagames \(DATABASE_URL\)") as caught:
        await open_store(Config(database_url=DEAD_URL))
    assert "secret" not in str(caught.value)  # the password never reaches a message


@pytest.fixture(params=["sqlite", "postgres"])
async def database_settings(request, db_path):
    """DATABASE_PATH or DATABASE_URL for the sharded bot."""
    if request.param == "sqlite":
        yield {"DATABASE_PATH": str(db_path)}
        return
    async with pg_server.scratch_database() as url:
        yield {"DATABASE_URL": url}


@pytest.fixture
async def simcord_bot(database_settings):
    """The bot as an admin would configure one process of a cluster: shards 1 and 3 of 4.

    Its store is closed here, as conftest's ``make_bot`` does (SimCord detaches a bot without
    closing it): an open aiosqlite thread kept this file, run alone, from ever exiting.
    """
    config = load_config(
        {"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "4", "SHARD_IDS": "1,3", **database_settings}, None
    )
    store = await open_store(config)
    yield create_bot(dataclasses.replace(config, bot_delay=0.0), store)
    await store.close()


async def test_a_sharded_bot_hosts_a_game(simcord_env, database_settings):
    """On a server of one of its shards, the whole lobby-to-first-move flow works on either store."""
    bot = simcord_env.bot
    assert isinstance(bot, commands.AutoShardedBot) and sorted(bot.shards) == [1, 3]
    assert bot.synced is None  # shards 1 and 3: the process running shard 0 sends the commands…
    await bot.tree.sync()  # …as it has, somewhere else in the cluster
    guild = simcord_env.create_guild("Jeju Friends", shard_id=3)
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    result = await alice.slash(channel, "play", game="takeaway")
    reply = result.followups[0] if result.followups else result.response
    thread = next(t for t in channel.threads if t.id == int(reply.content.split("/")[-2]))
    lobby = thread.last_message
    await bob.click(lobby, label="Join")
    await alice.click(next(m for m in thread.history() if m.id == lobby.id), label="Start")
    table = (await bot.store.tables_of_user(alice.id))[0]
    assert table.status == "active" and table.guild_id == guild.id and len(table.seats) == 2
    assert isinstance(bot.store, PostgresStore if "DATABASE_URL" in database_settings else Store)
    # alice also plays in a server another process serves (shard 0): /games still lists it.
    elsewhere = (1 << 22) * 8  # (id >> 22) % 4 == 0
    other = await bot.tables.create_table(
        game_key="jeju", guild_id=elsewhere, channel_id=elsewhere + 1, host_id=99, host_name="dora"
    )
    await bot.tables.join(other.id, alice.id, "alice")
    listed = await alice.slash(channel, "games")
    assert f"#{table.id}" in listed.response.content and f"#{other.id}" in listed.response.content


# ------------------------------------------------------------- operations


def test_check_reports_the_postgresql_database(tmp_path, pg_url):
    done = run_bot(["check"], tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=pg_url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"schema version 0; migrates to {pg_store.SCHEMA_VERSION} at start, 0 tables" in done.stdout

    async def fill() -> None:
        store = await PostgresStore.open(pg_url)
        host = Seat(seat=0, name="Ann", kind="human", user_id=1)
        await store.create_table(game="reef", guild_id=1, channel_id=2, host=host, options={}, now=0.0)
        await store.close()

    asyncio.run(fill())
    done = run_bot(["check"], tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=pg_url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"ok   database: PostgreSQL at {pg_store.redact(pg_url)}, schema version " in done.stdout
    assert f"version {pg_store.SCHEMA_VERSION}, 1 tables" in done.stdout


def test_check_refuses_a_postgresql_database_from_a_newer_bot(tmp_path, pg_url):
    async def newer() -> None:
        await (await PostgresStore.open(pg_url)).close()
        import asyncpg

        conn = await asyncpg.connect(pg_url)
        await conn.execute(f"UPDATE {pg_store.VERSION_TABLE} SET version = version + 1")
        await conn.close()

    asyncio.run(newer())
    done = run_bot(["check"], tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=pg_url)
    assert done.returncode == 2
    assert "FAIL database:" in done.stdout and "newer than this bot's" in done.stdout


def test_check_an_unreachable_postgresql(tmp_path):
    done = run_bot(["check"], tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=DEAD_URL)
    assert done.returncode == 2
    assert "FAIL database: Cannot connect to the PostgreSQL database" in done.stdout
    assert "secret" not in done.stdout + done.stderr


def test_check_reports_sharding(tmp_path):
    config = load_config(
        {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "t.sqlite3"), "SHARD_COUNT": "4"}, None
    )
    out = io.StringIO()
    assert cli.check(config, out) == 0
    assert "ok   sharding: shards 0, 1, 2, 3 of 4 here" in out.getvalue()
    split = Config(token=TOKEN, database=tmp_path / "t.sqlite3", shard_count=4, shard_ids=(1,))
    out = io.StringIO()
    assert cli.check(split, out) == 0
    assert "each process keeps only its own servers' tables" in out.getvalue()


def test_backup_of_postgresql_points_to_pg_dump(tmp_path):
    done = run_bot(["backup", str(tmp_path / "b.sqlite3")], tmp_path, DATABASE_URL=DEAD_URL)
    assert done.returncode == 2
    assert "pg_dump" in done.stderr and "Traceback" not in done.stderr


# ---------------------------------------------------------- copy-to-postgres


def test_copy_to_postgres_moves_every_table(tmp_path, pg_url):
    """A SQLite set-up with games under way, copied: every table, seat and move, the same ids."""
    path = tmp_path / "old.sqlite3"

    async def play_some() -> list[int]:
        from hosting.service import TableService

        store = await Store.open(path)
        service = TableService(store, clock=lambda: 1_000.5, new_seed=lambda: 7)
        ids = []
        for n in range(3):
            table = await service.create_table(
                game_key="takeaway", guild_id=1 << 40, channel_id=2, host_id=10, host_name="Ann"
            )
            await service.join(table.id, 11, "Bo")
            if n < 2:
                table = await service.start(table.id, 10)
                panel = service.panel(table, 0)
                await service.submit(table.id, 10, panel.token, 0)
            if n == 0:  # played to the end: its history lines, stats and ratings are copied too
                while (table := await service.get(table.id)).status == ACTIVE:
                    seat = min(engine.get(table.game).to_act(service.state_of(table)))
                    panel = service.panel(table, seat)
                    await service.submit(table.id, 10 + seat, panel.token, 0)
            ids.append(table.id)
        await store.set_dm_reminders(11, True)
        await store.close()
        return ids

    ids = asyncio.run(play_some())
    done = run_bot(["copy-to-postgres"], tmp_path, DATABASE_PATH=str(path), DATABASE_URL=pg_url)
    assert done.returncode == 0, done.stderr
    assert "3 game_tables, 6 seats, 13 actions, 1 players" in done.stdout
    assert "2 player_stats" in done.stdout and "2 finished_seats" in done.stdout

    async def compare() -> None:
        old, new = await Store.open(path), await PostgresStore.open(pg_url)
        try:
            for table_id in ids:
                assert await new.get_table(table_id) == await old.get_table(table_id)
                assert await new.actions(table_id) == await old.actions(table_id)
            for user in (10, 11):
                assert await new.finished_games(user, limit=5) == await old.finished_games(user, limit=5)
                assert await new.player_stats(user) == await old.player_stats(user)
            assert await new.dm_reminders(11)
            host = Seat(seat=0, name="Cy", kind="human", user_id=12)
            fresh = await new.create_table(
                game="takeaway", guild_id=1, channel_id=2, host=host, options={}, now=0.0
            )
            assert fresh.id == max(ids) + 1  # new tables continue after the copied ids
        finally:
            await old.close()
            await new.close()

    asyncio.run(compare())
    again = run_bot(["copy-to-postgres"], tmp_path, DATABASE_PATH=str(path), DATABASE_URL=pg_url)
    assert again.returncode == 2 and "already holds tables" in again.stderr


def test_copy_to_postgres_refusals(tmp_path):
    done = run_bot(["copy-to-postgres"], tmp_path, DATABASE_PATH=str(tmp_path / "none.sqlite3"))
    assert done.returncode == 2 and "Set DATABASE_URL" in done.stderr
    done = run_bot(
        ["copy-to-postgres"], tmp_path, DATABASE_PATH=str(tmp_path / "none.sqlite3"), DATABASE_URL=DEAD_URL
    )
    assert done.returncode == 2 and "no SQLite database" in done.stderr and "Traceback" not in done.stderr
