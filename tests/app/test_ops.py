"""Operations as an admin runs them: invite-url, check, backup, health, logs, and the Docker image's steps.

There is no container engine here, so the image is exercised as far as this
machine allows: the Dockerfile is parsed, the files it copies are copied into a
fresh directory the way the image lays them out, and its start and health
commands are run there. ``--slow`` also installs that directory into a fresh
virtual environment with the Dockerfile's own install command.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import parse_qs, urlparse

import discord
import pytest

import cli
from bot import Config, ConfigError, create_bot, load_config
from hosting import logs, ops
from hosting.migrations import SCHEMA_VERSION
from hosting.records import Seat
from hosting.store import Store
from hosting.stores import open_store

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"  # first part: 100000000000000000
# Every setting the bot reads, so the admin's own environment cannot leak into a test.
SETTINGS = ("DISCORD_TOKEN", "DISCORD_APPLICATION_ID", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL")
SETTINGS += ("LOG_FORMAT", "HEALTH_FILE", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS")


def run(args: list[str], cwd: Path, script: Path = ROOT / "bot.py", **env: str):
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    return subprocess.run(
        [sys.executable, str(script), *args],
        cwd=cwd,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def make_database(path: Path, tables: int = 1) -> None:
    async def build() -> None:
        store = await Store.open(path)
        for n in range(tables):
            await store.create_table(
                game="reef",
                guild_id=1,
                channel_id=2,
                host=Seat(seat=0, name=f"Host {n}", kind="human", user_id=10 + n),
                options={},
                now=0.0,
            )
        await store.close()

    asyncio.run(build())


# ----------------------------------------------------------------- invite-url


def test_invite_url_has_exactly_the_readme_permissions(tmp_path):
    done = run(["invite-url"], tmp_path, DISCORD_TOKEN=TOKEN)
    assert done.returncode == 0, done.stderr
    url = urlparse(done.stdout.strip())
    query = parse_qs(url.query)
    assert (url.scheme, url.netloc, url.path) == ("https", "discord.com", "/oauth2/authorize")
    assert query["client_id"] == ["100000000000000000"]  # read from the token
    assert query["scope"] == ["bot applications.commands"]
    granted = discord.Permissions(int(query["permissions"][0]))
    expected = {
        "view_channel",
        "send_messages",
        "create_public_threads",
        "create_private_threads",  # the daily Reef's private threads
        "send_messages_in_threads",
        "embed_links",
        "attach_files",
        "read_message_history",
    }
    assert granted == discord.Permissions(**dict.fromkeys(expected, True))  # these and nothing else
    assert all(getattr(granted, name) for name in expected)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = ("View Channels", "Send Messages in Threads", "Create Public Threads", "Create Private Threads")
    for row in (*rows, "Read Message History"):
        assert f"| {row} |" in readme  # the README's table and the URL agree


def test_invite_url_from_the_application_id_alone(tmp_path):
    done = run(["invite-url"], tmp_path, DISCORD_APPLICATION_ID="123456789012345678")
    assert done.returncode == 0, done.stderr
    assert "client_id=123456789012345678" in done.stdout


def test_invite_url_without_an_id_says_what_to_set(tmp_path):
    done = run(["invite-url"], tmp_path)
    assert done.returncode == 2
    assert "DISCORD_APPLICATION_ID" in done.stderr and "Traceback" not in done.stderr


def test_application_id_from_token():
    assert ops.application_id_from_token(TOKEN) == 100000000000000000
    assert ops.application_id_from_token("bm90LWRpZ2l0cw.x.y") is None  # "not-digits"
    assert ops.application_id_from_token("!!!.x.y") is None


# ---------------------------------------------------------------------- check


def test_check_a_good_installation(tmp_path):
    make_database(tmp_path / "db.sqlite3", tables=3)
    done = run(["check"], tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(tmp_path / "db.sqlite3"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"schema version {SCHEMA_VERSION}" in done.stdout and "3 tables, integrity ok" in done.stdout
    assert f"its folder {tmp_path} is writable" in done.stdout
    for word in ("game haenyeo", "game jeju", "game reef", "font cjk", "All good."):
        assert word in done.stdout
    assert "FAIL" not in done.stdout


def test_check_a_new_installation_needs_no_database_yet(tmp_path):
    done = run(["check"], tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(tmp_path / "var" / "db.sqlite3"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "created at start" in done.stdout and f"({tmp_path} is writable)" in done.stdout
    assert not (tmp_path / "var").exists()  # check changes nothing
    assert list(tmp_path.iterdir()) == []  # not even a trace of trying to write


def test_check_a_database_path_that_cannot_work(tmp_path):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("a file where the volume should be")
    for path, why in (
        (tmp_path / "folder", "is a folder, not a file"),
        (tmp_path / "file" / "db.sqlite3", "is a file, not a folder"),
    ):
        done = run(["check"], tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(path))
        assert done.returncode == 2, done.stdout
        assert f"FAIL database: DATABASE_PATH is {path}" in done.stdout and why in done.stdout
        assert "Traceback" not in done.stderr


def test_a_database_path_is_tried_for_real_at_start(tmp_path):
    path = tmp_path / "new" / "folders" / "db.sqlite3"
    assert ops.database_path_problem(path) is None  # check: nothing made
    assert not (tmp_path / "new").exists()
    assert ops.database_path_problem(path, create=True) is None  # at start: made and opened in WAL mode
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert ops.database_path_problem(Path(":memory:"), create=True) is None


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "not-a-token"}, "not a bot token"),
        ({"DISCORD_TOKEN": TOKEN, "LOG_FORMAT": "xml"}, "LOG_FORMAT"),
        ({"DISCORD_TOKEN": TOKEN, "DISCORD_APPLICATION_ID": "my-bot"}, "DISCORD_APPLICATION_ID"),
    ],
)
def test_check_a_broken_configuration(tmp_path, env, message):
    done = run(["check"], tmp_path, **env)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


def test_check_refuses_a_database_from_a_newer_bot(tmp_path):
    db = tmp_path / "db.sqlite3"
    make_database(db)
    with sqlite3.connect(db) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    done = run(["check"], tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(db))
    assert done.returncode == 2
    assert "newer than this bot's" in done.stdout and "Traceback" not in done.stderr


def test_check_a_file_that_is_not_a_database(tmp_path):
    db = tmp_path / "db.sqlite3"
    db.write_bytes(b"this is not SQLite " * 100)
    done = run(["check"], tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(db))
    assert done.returncode == 2
    assert "cannot be read as SQLite" in done.stdout


def test_check_reports_broken_data_and_fonts(tmp_path, monkeypatch):
    import engine
    from renderers import common

    monkeypatch.setitem(engine.GAME_PACKAGES, "broken", "tests.no_such_game")
    monkeypatch.setitem(common.FONT_FILES, "missing", "NoSuchFont.ttf")
    out = io.StringIO()
    config = Config(token=TOKEN, database=tmp_path / "db.sqlite3")
    assert cli.check(config, out) == 2
    text = out.getvalue()
    assert "FAIL game broken" in text and "FAIL font missing" in text and "ok   game reef" in text
    assert "2 problem(s) found" in text


# --------------------------------------------------------------------- backup


def test_backup_while_the_bot_writes(tmp_path):
    db = tmp_path / "db.sqlite3"
    make_database(db, tables=5)
    stop = threading.Event()
    written = [5]

    def writer() -> None:  # another process's connection, writing as the bot does (WAL, small commits)
        with sqlite3.connect(db, timeout=10, isolation_level=None) as conn:
            conn.execute("PRAGMA busy_timeout = 10000")
            while not stop.is_set():
                conn.execute("BEGIN IMMEDIATE")
                conn.execute(
                    "INSERT INTO game_tables (game, channel_id, host_id, status, created_at, updated_at) "
                    "VALUES ('reef', 2, 3, 'lobby', 0, 0)"
                )
                conn.execute("UPDATE game_tables SET version = version + 1 WHERE id = 1")
                conn.execute("COMMIT")
                written[0] += 1

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        counts = []
        for n in range(5):
            # Each backup starts after the writer committed again: on a busy machine a fixed pause
            # may pass before the writer's thread has run at all.
            seen, patience = written[0], time.monotonic() + 60
            while written[0] == seen and time.monotonic() < patience:
                time.sleep(0.005)
            target = tmp_path / "backups" / f"copy{n}.sqlite3"
            counts.append(ops.backup(db, target))
            with sqlite3.connect(target) as copy:
                assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
                assert copy.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
                # One consistent snapshot: the row count and table 1's version moved together.
                rows, version = copy.execute(
                    "SELECT count(*), (SELECT version FROM game_tables WHERE id = 1) FROM game_tables"
                ).fetchone()
                assert version == rows - 5 + 1
    finally:
        stop.set()
        thread.join()
    assert counts == sorted(counts) and counts[0] >= 5 and counts[-1] <= written[0]
    assert written[0] > 5  # the writer really wrote during the backups
    assert not list((tmp_path / "backups").glob("*.partial"))


def test_backup_command(tmp_path):
    db = tmp_path / "db.sqlite3"
    make_database(db, tables=2)
    # A backup needs no token: only the database.
    done = run(["backup", "saved.sqlite3"], tmp_path, DATABASE_PATH=str(db))
    assert done.returncode == 0, done.stderr
    assert "(2 tables)" in done.stdout

    async def reopen() -> int:
        store = await Store.open(tmp_path / "saved.sqlite3")
        try:
            return len(await store.tables_of_user(10))
        finally:
            await store.close()

    assert asyncio.run(reopen()) == 1


def test_backup_refusals(tmp_path):
    done = run(["backup", "copy.sqlite3"], tmp_path, DATABASE_PATH=str(tmp_path / "none.sqlite3"))
    assert done.returncode == 2 and "no database" in done.stderr
    done = run(["backup"], tmp_path)
    assert done.returncode == 2 and "usage" in done.stderr
    make_database(tmp_path / "db.sqlite3")
    with pytest.raises(ops.OpsError, match="another file"):
        ops.backup(tmp_path / "db.sqlite3", tmp_path / "." / "db.sqlite3")


# --------------------------------------------------------------------- health


async def test_heartbeat_while_connected(tmp_path):
    path = tmp_path / "alive"
    state = {"ready": False, "closed": False}
    bot = SimpleNamespace(is_ready=lambda: state["ready"], is_closed=lambda: state["closed"], latency=0.05)
    task = asyncio.create_task(ops.heartbeat(bot, path, every=0.01))
    await asyncio.sleep(0.05)
    # Running but not connected yet: alive (healthy), not ready.
    assert ops.health(path)[0] and not ops.health(path, ready=True)[0]
    assert "not ready: connecting to Discord" in ops.health(path)[1]
    state["ready"] = True
    await asyncio.sleep(0.05)
    assert ops.health(path, ready=True)[0]
    assert ops.health(path)[1].startswith("ready: connected to Discord (version ")
    state["closed"] = True
    await asyncio.wait_for(task, 1)
    assert not ops.health(path, now=time.time() + ops.HEARTBEAT_STALE + 1)[0]
    assert not ops.health(tmp_path / "never")[0]
    assert not ops.health(None)[0]


async def beats(env, bot, path: Path) -> bool:
    """Whether the heartbeat says "ready" within a minute of the bot's time (it is written either way)."""
    path.unlink(missing_ok=True)
    task = asyncio.create_task(ops.heartbeat(bot, path))
    try:
        await env.advance_time(2 * ops.HEARTBEAT_SECONDS)
        assert ops.health(path)[0]  # the process runs: alive, whatever Discord does
        return ops.health(path, ready=True)[0]
    finally:
        task.cancel()


async def test_the_heartbeat_says_not_ready_while_the_gateway_is_down(simcord_env, tmp_path):
    bot, alive = simcord_env.bot, tmp_path / "alive"
    assert await beats(simcord_env, bot, alive)
    # The connection drops: discord.py closes the websocket and dispatches "disconnect",
    # then reconnects on its own; is_ready() stays true meanwhile.
    await bot.ws.close()
    bot.dispatch("disconnect")
    await simcord_env.settle()
    assert bot.is_ready() and not ops.is_connected(bot)
    assert not await beats(simcord_env, bot, alive)
    # Healthy but not ready: a restart would not bring Discord back; discord.py reconnects.
    good, line = ops.health(alive)
    assert good and "not ready: reconnecting to Discord" in line
    bot.ws.open = True
    bot.dispatch("resumed")
    await simcord_env.settle()
    assert await beats(simcord_env, bot, alive)
    assert ops.health(alive, ready=True)[0]


async def test_the_heartbeat_says_not_ready_while_a_shard_is_down(simcord_env, tmp_path, db_path):
    config = Config(token=TOKEN, database=db_path, shard_count=2, bot_delay=0.0)
    store = await open_store(config)
    sharded = create_bot(config, store)
    try:
        await simcord_env.restart_bot(sharded)
        alive = tmp_path / "alive"
        assert await beats(simcord_env, sharded, alive)
        await sharded.get_shard(1).disconnect()
        await simcord_env.settle()
        assert not await beats(simcord_env, sharded, alive)
        await sharded.get_shard(1).connect()
        await simcord_env.settle()
        assert await beats(simcord_env, sharded, alive)
    finally:
        await store.close()


def test_a_bot_without_a_connection_is_not_connected():
    closed = SimpleNamespace(is_closed=lambda: False, is_ready=lambda: True, latency=float("inf"))
    assert not ops.is_connected(closed)  # a closed websocket has no heartbeat latency
    assert not ops.is_connected(
        SimpleNamespace(is_closed=lambda: False, is_ready=lambda: True, latency=float("nan"))
    )


# ----------------------------------------------------------------------- logs


def test_json_log_lines_carry_the_table_id():
    stream = io.StringIO()
    handler = logs.setup("INFO", "json", stream)
    try:
        logging.getLogger("seagames.test").warning("board posted", extra={"table_id": 42})
        try:
            raise RuntimeError("boom")
        except RuntimeError:
            logging.getLogger("seagames.test").exception("failed", extra=logs.table_extra(7))
        logging.getLogger("seagames.test").info("no table here")
    finally:
        logging.getLogger().removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [(e["message"], e.get("table_id")) for e in lines] == [
        ("board posted", 42),
        ("failed", 7),
        ("no table here", None),
    ]
    assert "RuntimeError: boom" in lines[1]["exc"] and lines[0]["level"] == "WARNING"


def test_plain_log_lines_carry_the_table_id():
    record = logging.LogRecord("seagames", logging.ERROR, __file__, 1, "oops", (), None)
    record.table_id = 42
    record.incident = "abcd1234"
    assert logs.PlainFormatter().format(record).endswith("ERROR seagames: oops [table=42 incident=abcd1234]")


async def test_an_unexpected_error_is_logged_with_its_table(caplog):
    from cogs.common import answer_error

    sent = []
    response = SimpleNamespace(is_done=lambda: False, send_message=lambda text, **kw: _record(sent, text))
    interaction = SimpleNamespace(response=response)
    with caplog.at_level(logging.ERROR):
        await answer_error(interaction, RuntimeError("boom"), table_id=9)
    assert caplog.records[-1].table_id == 9 and caplog.records[-1].incident in sent[0]


async def _record(sent: list, text: str) -> None:
    sent.append(text)


def test_log_settings_are_read():
    config = load_config({"DISCORD_TOKEN": TOKEN, "LOG_FORMAT": "JSON", "HEALTH_FILE": "/tmp/x"}, None)
    assert config.log_format == "json" and config.health_file == Path("/tmp/x")
    with pytest.raises(ConfigError, match="LOG_FORMAT"):
        load_config({"DISCORD_TOKEN": TOKEN, "LOG_FORMAT": "xml"}, None)


# ---------------------------------------------------------------------- GAMES


@pytest.fixture
async def simcord_bot(db_path):
    """A bot that offers only Reef & Ruins (GAMES=reef); its store is closed afterwards, as
    conftest's ``make_bot`` does (SimCord detaches a bot without closing it)."""
    config = load_config({"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(db_path), "GAMES": "Reef"}, None)
    assert config.games == ("reef",)
    store = await open_store(config)
    yield create_bot(config, store)
    await store.close()


async def test_only_enabled_games_are_offered(simcord_env):
    guild = simcord_env.create_guild("Jeju Friends")
    channel = guild.create_text_channel("games")
    alice = guild.add_member(simcord_env.create_user("alice"))
    with pytest.raises(Exception, match="reef"):
        await alice.slash(channel, "play", game="jeju")
    with pytest.raises(Exception, match="reef"):
        await alice.slash(channel, "rules", game="haenyeo")
    result = await alice.slash(channel, "play", game="reef")
    assert "Reef & Ruins" in (result.followups[0] if result.followups else result.response).content
    assert (await alice.slash(channel, "rules", game="reef")).ephemeral


def test_unknown_games_are_named():
    with pytest.raises(ConfigError, match="chess"):
        load_config({"DISCORD_TOKEN": TOKEN, "GAMES": "reef,chess"}, None)
    assert load_config({"DISCORD_TOKEN": TOKEN}, None).games is None  # every game


# --------------------------------------------------------------- the image


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) per Dockerfile instruction, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for instruction, args in dockerfile():
        if instruction == "ENV":
            env.update(dict(part.split("=", 1) for part in shlex.split(args)))
    return env


def build_app(target: Path) -> Path:
    """Lay out /app as the Dockerfile's COPY lines do, honouring .dockerignore's build context."""
    target.mkdir()
    ignored = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for instruction, args in dockerfile():
        if instruction != "COPY":
            continue
        *sources, dest = args.split()
        for source in sources:
            path = ROOT / source
            if path.is_dir():
                shutil.copytree(path, target / dest, ignore=ignored)
            else:
                shutil.copy(path, target / (dest if not dest.endswith("/") else "") / path.name)
    return target


def test_dockerfile_shape():
    steps = dockerfile()
    instructions = [name for name, _ in steps]
    assert steps[0][0] == "FROM" and steps[0][1].startswith("python:3.11")
    assert dict(steps)["USER"] == "seagames" and instructions.index("USER") > instructions.index("RUN")
    assert json.loads(dict(steps)["CMD"]) == ["python", "bot.py"]  # exec form: python gets SIGTERM
    assert "pip install --no-cache-dir -r requirements.lock" in " ".join(
        args for name, args in steps if name == "RUN"
    )
    assert "HEALTHCHECK" in instructions and json.loads(dict(steps)["VOLUME"]) == ["/data"]
    assert image_env()["DATABASE_PATH"].startswith("/data/")
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert ".env" in ignored and "data" not in ignored and "README.md" not in ignored
    compose = (ROOT / "compose.yaml").read_text()
    assert "env_file: .env" in compose and ":/data" in compose


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Path:
    return build_app(tmp_path_factory.mktemp("image") / "app")


def test_image_start_without_a_token_explains(app, tmp_path):
    env = {**image_env(), "DATABASE_PATH": str(tmp_path / "data" / "db.sqlite3")}
    done = run([], app, script=app / "bot.py", **env)
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and ".env" in done.stderr and "Traceback" not in done.stderr


def test_image_has_everything_check_needs(app, tmp_path):
    """The image's files alone load every game's data and every font."""
    env = {**image_env(), "DATABASE_PATH": str(tmp_path / "db.sqlite3"), "DISCORD_TOKEN": TOKEN}
    # The script's directory comes first on sys.path: the modules and data/ are the image's copies.
    code = "import engine.base, bot; print(engine.base.DATA_DIR, bot.__file__)"
    where = subprocess.run([sys.executable, "-c", code], cwd=app, capture_output=True, text=True, timeout=60)
    assert where.stdout.split() == [str(app / "data"), str(app / "bot.py")], where.stderr
    done = run(["check"], app, script=app / "bot.py", **env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "All good." in done.stdout


def test_image_health_check_before_connecting(app, tmp_path):
    env = {**image_env(), "HEALTH_FILE": str(tmp_path / "alive")}
    done = run(["health"], app, script=app / "bot.py", **env)
    assert done.returncode == 2 and "not running, or not connected yet" in done.stderr
    (tmp_path / "alive").touch()  # an older bot's heartbeat: an empty file
    assert run(["health"], app, script=app / "bot.py", **env).returncode == 0


@pytest.mark.slow
def test_image_install_in_a_fresh_virtual_environment(app, tmp_path, request):
    """The Dockerfile's install command in a fresh venv (downloads from PyPI: only with --slow)."""
    if not request.config.getoption("--slow"):
        pytest.skip("installs from PyPI; run with --slow")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    pip_line = next(args for name, args in dockerfile() if name == "RUN" and "pip install" in args)
    install = shlex.split(pip_line.split("&&")[0])
    subprocess.run([str(venv / "bin" / install[0]), *install[1:]], cwd=app, check=True, timeout=900)
    # Nothing but the lock file: the image's Python finds the code beside bot.py.
    env = {**image_env(), "DATABASE_PATH": str(tmp_path / "db.sqlite3"), "DISCORD_TOKEN": TOKEN}
    done = subprocess.run(
        [str(venv / "bin" / "python"), "bot.py", "check"],
        cwd=app,
        env={**{k: v for k, v in os.environ.items() if k not in SETTINGS}, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
