"""Starting the bot from the command line, as an admin would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot import Config, ConfigError, create_bot, load_config
from hosting.stores import open_store
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {
        k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL")
    }
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), *args],
        cwd=tmp_path,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_no_token_exits_2_with_help(tmp_path):
    done = run_bot(tmp_path)
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and ".env" in done.stderr
    assert "Traceback" not in done.stderr


def test_malformed_token_exits_2(tmp_path):
    done = run_bot(tmp_path, DISCORD_TOKEN="not-a-token")
    assert done.returncode == 2
    assert "not a bot token" in done.stderr
    assert "Traceback" not in done.stderr


def test_dotenv_is_read(tmp_path):
    token = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
    (tmp_path / ".env").write_text(f"# comment\nDISCORD_TOKEN='{token}'\nDEV_GUILD_ID=123\n")
    config = load_config({}, tmp_path / ".env")
    assert config.token == token and config.dev_guild_id == 123


def test_bad_settings_are_named(tmp_path):
    token = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
    with pytest.raises(ConfigError, match="DEV_GUILD_ID"):
        load_config({"DISCORD_TOKEN": token, "DEV_GUILD_ID": "abc"}, None)
    with pytest.raises(ConfigError, match="LOG_LEVEL"):
        load_config({"DISCORD_TOKEN": token, "LOG_LEVEL": "LOUD"}, None)
    with pytest.raises(ConfigError, match="MAX_LOBBIES"):
        load_config({"DISCORD_TOKEN": token, "MAX_LOBBIES": "0"}, None)


def test_hosting_limits_are_settings(tmp_path):
    token = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
    config = load_config({"DISCORD_TOKEN": token, "MAX_LOBBIES": "1", "MAX_OPEN_TABLES": "7"}, None)
    assert (config.max_lobbies, config.max_open_tables) == (1, 7)
    default = load_config({"DISCORD_TOKEN": token}, None)
    assert (default.max_lobbies, default.max_open_tables) == (3, 25)


def test_the_picture_processes_cache_budget_is_a_setting():
    token = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
    assert load_config({"DISCORD_TOKEN": token, "PICTURE_CACHE_MB": "48"}, None).picture_cache_mb == 48
    assert load_config({"DISCORD_TOKEN": token}, None).picture_cache_mb == 128
    with pytest.raises(ConfigError, match="PICTURE_CACHE_MB"):
        load_config({"DISCORD_TOKEN": token, "PICTURE_CACHE_MB": "lots"}, None)


# ------------------------------------------------------- an unusable DATABASE_PATH


def refuses_before_logging_in(done: subprocess.CompletedProcess, path: Path) -> None:
    """The bot stopped (status 2) naming DATABASE_PATH and the path, and never reached Discord."""
    assert done.returncode == 2, done.stderr
    assert "DATABASE_PATH" in done.stderr and str(path) in done.stderr
    assert "Traceback" not in done.stderr
    assert "logging in" not in done.stderr  # discord.py logs this line when it logs in


def test_start_with_database_path_at_a_folder(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    done = run_bot(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(folder))
    refuses_before_logging_in(done, folder)
    assert "is a folder" in done.stderr and str(folder / "seagames.sqlite3") in done.stderr


def test_start_with_database_path_under_a_file(tmp_path):
    # e.g. a volume that was not mounted, so /data is a file someone left there
    (tmp_path / "data").write_text("not a folder")
    path = tmp_path / "data" / "seagames.sqlite3"
    done = run_bot(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(path))
    refuses_before_logging_in(done, path)
    assert "is a file, not a folder" in done.stderr


def test_start_where_sqlite_cannot_make_its_wal_files(tmp_path):
    # A folder where the database file can be made but not the -wal and -shm files beside it:
    # here because their names are too long for the file system (which stops root too).
    name_max = os.pathconf(tmp_path, "PC_NAME_MAX")
    path = tmp_path / ("d" * (name_max - 3))
    done = run_bot(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(path))
    refuses_before_logging_in(done, path)
    assert "SQLite cannot use it" in done.stderr and "-wal" in done.stderr


@pytest.mark.skipif(
    hasattr(os, "geteuid") and os.geteuid() == 0,
    reason="runs as root, for whom a read-only folder (chmod 0o555) is still writable",
)
def test_start_in_a_read_only_folder(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        done = run_bot(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(folder / "seagames.sqlite3"))
    finally:
        folder.chmod(0o755)
    refuses_before_logging_in(done, folder / "seagames.sqlite3")
    assert "cannot write in its folder" in done.stderr


def test_sync_without_a_token_or_with_a_bad_database_path(tmp_path):
    done = run_bot(tmp_path, "sync")
    assert done.returncode == 2 and "DISCORD_TOKEN" in done.stderr and "Traceback" not in done.stderr
    folder = tmp_path / "data"
    folder.mkdir()
    done = run_bot(tmp_path, "sync", DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(folder))
    refuses_before_logging_in(done, folder)


# ------------------------------------------------- slash commands synced when they change


def command_uploads(env) -> list[str]:
    """The paths of every request that replaced the bot's slash commands on Discord."""
    return [e.path for e in env.http_requests if e.method == "PUT" and e.path.endswith("/commands")]


@pytest.fixture
async def start_bot(simcord_env, db_path):
    """Restart the bot with other settings on the same database (its connection closed afterwards)."""
    stores = []

    async def start(force: bool = False, **settings):
        config = Config(token=TOKEN, database=db_path, bot_delay=0.0, **settings)
        stores.append(await open_store(config))
        bot = create_bot(config, stores[-1])
        bot.force_sync = force
        await simcord_env.restart_bot(bot)
        return bot

    yield start
    for store in stores:
        await store.close()


async def test_a_restart_sends_the_commands_only_when_they_changed(simcord_env, make_bot, start_bot):
    guild = simcord_env.create_guild("Jeju Friends")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    assert len(command_uploads(simcord_env)) == 1  # the first start sends them

    await simcord_env.restart_bot(make_bot())  # same code, same commands
    assert len(command_uploads(simcord_env)) == 1
    assert (await alice.slash(channel, "rules", game="reef")).ephemeral  # still there for players

    await start_bot(games=("reef",))  # the admin offers one game: /play's choices change
    assert len(command_uploads(simcord_env)) == 2
    await start_bot(games=("reef",))
    assert len(command_uploads(simcord_env)) == 2

    await start_bot(force=True, games=("reef",))  # python bot.py sync
    assert len(command_uploads(simcord_env)) == 3

    # Someone removed the commands with another tool: the next start finds them gone and sends them.
    bot = simcord_env.bot
    await bot.http.bulk_upsert_global_commands(bot.application_id, payload=[])
    await start_bot(games=("reef",))
    assert len(command_uploads(simcord_env)) == 5
    assert (await alice.slash(channel, "rules", game="reef")).ephemeral


async def test_dev_guild_commands_are_sent_once(simcord_env, start_bot):
    guild = simcord_env.create_guild("Test server")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    await start_bot(dev_guild_id=guild.id)
    await start_bot(dev_guild_id=guild.id)
    uploads = command_uploads(simcord_env)
    assert [path for path in uploads if f"/guilds/{guild.id}/" in path] == uploads[1:]
    assert len(uploads) == 2  # the first start's global sync, then the server's once
    assert (await alice.slash(channel, "rules", game="jeju")).ephemeral


async def test_only_the_process_running_shard_0_sends_the_commands(simcord_env, start_bot):
    before = len(command_uploads(simcord_env))
    await start_bot(games=("jeju",), shard_count=2, shard_ids=(1,))  # changed, but not this process's job
    assert len(command_uploads(simcord_env)) == before
    await start_bot(games=("jeju",), shard_count=2, shard_ids=(0,))
    assert len(command_uploads(simcord_env)) == before + 1


# ------------------------------------------------------------------------ intents


async def test_the_bot_asks_discord_only_for_the_guilds_intent(tmp_path):
    config = Config(token=TOKEN, database=tmp_path / "db.sqlite3")
    store = await open_store(config)
    bot = create_bot(config, store)
    await store.close()
    assert bot.intents == discord.Intents(guilds=True)  # no privileged intent to enable in the portal
    assert not (bot.intents.members or bot.intents.presences or bot.intents.message_content)
