"""What an admin reads and keeps (issue #36): the metrics endpoint and ``status`` against what
was played, scheduled backups restored into a fresh directory and played on, and ``restore``'s
refusals (a running bot, a damaged file, a newer schema)."""

from __future__ import annotations

import asyncio
import io
import os
import random
import signal
import sqlite3
import stat
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot import Config, ConfigError, create_bot, load_config
from hosting import backups, metrics, ops
from hosting.migrations import SCHEMA_VERSION
from hosting.service import TableService
from hosting.stores import open_store
from tests.app.test_admin_start import SETTINGS, free_port, start_bot, wait_for
from tests.conftest import TOKEN
from tests.discord.test_lobby import open_table
from tests.hosting.test_store import backend, started_table, store  # noqa: F401  (fixtures: both stores)
from tests.play_helpers import latest_board, take_turns

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild("Jeju Friends")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob")]
    return guild, channel, people


async def start_game(channel, alice, bob, game: str = "jeju"):
    """A running two-player table; returns its thread."""
    _, lobby, thread = await open_table(channel, alice, game=game)
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    return thread


def sample(text: str, name: str, **labels: str) -> float:
    """One sample's value from a scrape (0 when absent)."""
    return sum(
        value
        for found_labels, value in metrics.figures(text).get(name, [])
        if all(found_labels.get(k) == v for k, v in labels.items())
    )


async def moves_logged(bot) -> int:
    """Every move in the store's action logs of the running tables."""
    total = 0
    for table_id in await bot.store.table_ids("active"):
        total += len(await bot.store.actions(table_id))
    return total


# ------------------------------------------------------------------ metrics


@pytest.mark.simcord(settle_timeout=60.0)  # the board's pictures on a shared, loaded machine
async def test_the_metrics_endpoint_counts_what_was_played(world, simcord_env, db_path):
    guild, channel, (alice, bob) = world
    bot = simcord_env.bot
    monitor = metrics.Monitor(bot, database=db_path)  # as the bot builds it: counted beside the store
    server = metrics.serve(0)  # any free port, on 127.0.0.1
    url = f"http://127.0.0.1:{server.server_port}/metrics"
    try:
        await monitor.refresh()
        before = urllib.request.urlopen(url, timeout=5).read().decode()
        await open_table(channel, alice)  # a lobby
        thread = await start_game(channel, bob, alice)  # and a game
        members = {alice.id: alice, bob.id: bob}
        assert await take_turns(thread, members, random.Random(5), max_turns=3) is None
        await monitor.refresh()
        after = urllib.request.urlopen(url, timeout=5).read().decode()
    finally:
        metrics.stop_serving(server)
    moves = await moves_logged(bot)
    assert moves >= 3
    name = "seagames_moves_total"
    assert sample(after, name, game="jeju") - sample(before, name, game="jeju") == moves
    assert sample(after, "seagames_tables", status="active") == 1
    assert sample(after, "seagames_tables", status="lobby") == 1
    assert sample(after, "seagames_database_calls_total") > sample(before, "seagames_database_calls_total")
    assert sample(after, "seagames_connected") == 1
    assert sample(after, "seagames_build_info", version=ops_version()) == 1
    assert "seagames_click_to_board_seconds_bucket" in after and "seagames_discord_refused_total" in after


def ops_version() -> str:
    from hosting.version import VERSION

    return VERSION


async def test_both_stores_count_tables_by_status(store):  # noqa: F811  (the imported fixture)
    """`status_counts` on SQLite and PostgreSQL (the store suite's ``store`` fixture: both)."""
    service = TableService(store, clock=lambda: 1_000.0, new_seed=lambda: 42)
    for _ in range(2):
        await service.create_table(
            game_key="takeaway", guild_id=1, channel_id=2, host_id=100, host_name="Ann"
        )
    await started_table(service)
    assert await store.status_counts() == {"lobby": 2, "active": 1}


def test_the_counters_other_code_calls():
    before = metrics.render().decode()
    metrics.discord_refused(429)
    metrics.bot_decided("fallback", late=True)
    metrics.board_posted(time.time() - 0.25)
    after = metrics.render().decode()
    assert sample(after, "seagames_discord_refused_total", status="429") == (
        sample(before, "seagames_discord_refused_total", status="429") + 1
    )
    assert sample(after, "seagames_bot_deadline_fallbacks_total") == (
        sample(before, "seagames_bot_deadline_fallbacks_total") + 1
    )
    assert sample(after, "seagames_click_to_board_seconds_count") == (
        sample(before, "seagames_click_to_board_seconds_count") + 1
    )
    assert sample(after, "seagames_click_to_board_seconds_sum") - sample(
        before, "seagames_click_to_board_seconds_sum"
    ) == pytest.approx(0.25, abs=0.2)


def test_status_prints_the_running_bots_figures_or_the_databases(tmp_path):
    server = metrics.serve(0)
    try:
        config = SimpleNamespace(
            metrics_port=server.server_port,
            metrics_address="127.0.0.1",
            database=tmp_path / "db.sqlite3",
            database_url=None,
            backup_folder=tmp_path / "backups",
        )
        out = io.StringIO()
        assert metrics.status(config, out) == 0
    finally:
        metrics.stop_serving(server)
    text = out.getvalue()
    assert "from the running bot" in text and "moves since start:" in text and "event loop lag:" in text
    # Without an endpoint: what the database says.
    from tests.app.test_ops import make_database

    make_database(tmp_path / "db.sqlite3", tables=3)
    out = io.StringIO()
    assert metrics.status(SimpleNamespace(**{**vars(config), "metrics_port": None}), out) == 0
    assert "METRICS_PORT is not set" in out.getvalue() and "tables: lobby 3" in out.getvalue()


def test_the_endpoint_is_off_by_default_and_local_unless_configured():
    config = load_config({"DISCORD_TOKEN": TOKEN}, None)
    assert config.metrics_port is None
    assert load_config({"DISCORD_TOKEN": TOKEN, "METRICS_PORT": "9464"}, None).metrics_address == "127.0.0.1"
    with pytest.raises(ConfigError, match="METRICS_ADDRESS"):
        load_config({"DISCORD_TOKEN": TOKEN, "METRICS_PORT": "9464", "METRICS_ADDRESS": "everywhere"}, None)


# ------------------------------------------------------------------ backups


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def restore(tmp_path: Path, backup: Path, database: Path) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "restore", str(backup)],
        cwd=tmp_path,
        env={**clean, "DATABASE_PATH": str(database)},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.simcord(settle_timeout=60.0)  # the board's pictures on a shared, loaded machine
async def test_a_scheduled_backup_restored_into_a_fresh_directory_plays_on(
    world, simcord_env, db_path, tmp_path
):
    guild, channel, (alice, bob) = world
    thread = await start_game(channel, alice, bob)
    members = {alice.id: alice, bob.id: bob}
    assert await take_turns(thread, members, random.Random(2), max_turns=2) is None
    moves = await moves_logged(simcord_env.bot)
    board_before = latest_board(thread)
    folder = tmp_path / "backups"
    schedule = backups.BackupSchedule(db_path, folder, hours=24, keep=2)
    made = await schedule.back_up_now()  # what the schedule's task does when a backup is due
    assert made.parent == folder and mode_of(made) == 0o600
    assert backups.backups_in(folder, db_path) == [made]

    fresh = tmp_path / "fresh" / "seagames.sqlite3"
    done = await asyncio.to_thread(restore, tmp_path, made, fresh)
    assert done.returncode == 0, done.stderr
    assert f"Restored {made} to {fresh}" in done.stdout and f"schema version {SCHEMA_VERSION}" in done.stdout
    assert mode_of(fresh) == 0o600

    # The bot starts on the restored copy: the same board, its buttons work, the game finishes.
    config = Config(token=TOKEN, database=fresh, bot_delay=0.0)
    opened = await open_store(config)
    restored = create_bot(config, opened)
    try:
        await simcord_env.restart_bot(restored)
        assert await moves_logged(restored) == moves
        assert latest_board(thread).id == board_before.id  # its buttons are the ones people have
        results = await take_turns(thread, members, random.Random(3))
        assert results is not None and results.embeds[0].title.endswith("final ranking")
    finally:
        await opened.close()


async def test_the_schedule_runs_from_the_newest_backup_and_keeps_so_many(tmp_path):
    from tests.app.test_ops import make_database

    database = tmp_path / "seagames.sqlite3"
    await asyncio.to_thread(make_database, database)
    folder = tmp_path / "backups"
    schedule = backups.BackupSchedule(database, folder, hours=1, keep=2, first_after=0.05)
    assert schedule.wait_before_next() == 0.05  # none yet: soon after the start
    task = schedule.start()
    try:
        assert await asyncio.to_thread(wait_for, lambda: len(backups.backups_in(folder, database)) == 1, 30)
    finally:
        await schedule.stop()
    assert task.done()
    assert 3590 < schedule.wait_before_next() <= 3600  # an interval after the newest one
    for hour in range(3):  # three more, named an hour apart: the oldest two go
        stamp = backups.backup_name(database, backups.datetime(2026, 12, 1, hour, tzinfo=backups.UTC))
        ops.backup(database, folder / stamp)
    removed = schedule.prune()
    assert len(removed) == 2 and len(backups.backups_in(folder, database)) == 2
    assert all(mode_of(path) == 0o600 for path in backups.backups_in(folder, database))


def test_restore_refuses_while_a_bot_runs_on_the_database(tmp_path):
    from tests.app.test_ops import make_database

    database = tmp_path / "data" / "db.sqlite3"
    backup = tmp_path / "backup.sqlite3"
    make_database(tmp_path / "other.sqlite3", tables=2)
    ops.backup(tmp_path / "other.sqlite3", backup)
    running = start_bot(tmp_path, free_port(), HEALTH_FILE=str(tmp_path / "alive"))  # Discord unreachable
    try:
        assert wait_for(lambda: (tmp_path / "alive").exists())
        done = restore(tmp_path, backup, database)
    finally:
        running.send_signal(signal.SIGTERM)
        running.communicate(timeout=60)
    assert done.returncode == 2
    assert "already using it" in done.stderr and "cannot restore a backup over it" in done.stderr
    assert "Traceback" not in done.stderr
    # Stopped, the same restore goes through, and keeps the database it replaced.
    done = restore(tmp_path, backup, database)
    assert done.returncode == 0, done.stderr
    assert "(2 tables" in done.stdout and "the database it replaced is kept at" in done.stdout


def test_restore_refuses_a_damaged_or_newer_file_and_changes_nothing(tmp_path):
    from tests.app.test_ops import make_database

    database = tmp_path / "db.sqlite3"
    make_database(database, tables=1)
    before = database.read_bytes()
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database" * 100)
    done = restore(tmp_path, junk, database)
    assert done.returncode == 2 and "nothing was changed" in done.stderr
    newer = tmp_path / "newer.sqlite3"
    ops.backup(database, newer)
    with sqlite3.connect(newer) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    done = restore(tmp_path, newer, database)
    assert done.returncode == 2 and "newer than this bot's" in done.stderr
    assert database.read_bytes() == before
    assert not any(p.name.startswith("db.sqlite3.before-restore") for p in tmp_path.iterdir())


def test_backup_files_are_private(tmp_path):
    from tests.app.test_ops import make_database

    make_database(tmp_path / "db.sqlite3")
    old = os.umask(0o022)
    try:
        ops.backup(tmp_path / "db.sqlite3", tmp_path / "copy.sqlite3")
    finally:
        os.umask(old)
    assert mode_of(tmp_path / "copy.sqlite3") == 0o600
