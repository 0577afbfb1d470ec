"""Starting the bot as an admin meets it (issue #36): Discord unreachable at start, a bad token,
problems found before login, one process per SQLite file, the version, a quiet start.

The bot runs as a real process (``bot.py``'s own ``main``). Discord is a small local HTTP
server the test controls: first nothing listens on its port (a network or DNS outage: the
connection is refused), then it answers. discord.py is pointed at it by its own setting for
the API's address (``Route.BASE``); nothing of the bot is replaced.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from hosting import ops
from hosting.migrations import SCHEMA_VERSION
from hosting.version import VERSION
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "HEALTH_FILE", "LOG_FORMAT", "METRICS_PORT")
SETTINGS += ("BACKUP_HOURS", "BACKUP_DIR", "BACKUP_KEEP", "METRICS_ADDRESS", "LOG_LEVEL")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class FakeDiscord:
    """Discord's REST API as far as a login needs it, on a local port, once `open` is called.

    ``token_ok``: whether the login is accepted (else 401, as Discord answers a reset token).
    The gateway is refused (503): the bot then stays in discord.py's reconnect loop.
    """

    def __init__(self, port: int, *, token_ok: bool) -> None:
        self.port, self.token_ok, self.server = port, token_ok, None
        self.requests: list[str] = []

    def open(self) -> None:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def answer(self, status: int, body: object) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                fake.requests.append(f"GET {self.path}")
                user = {
                    "id": "100000000000000000",
                    "username": "seagames",
                    "discriminator": "0",
                    "avatar": None,
                    "bot": True,
                }
                if self.path.endswith("/users/@me"):
                    if fake.token_ok:
                        self.answer(200, user)
                    else:
                        self.answer(401, {"message": "401: Unauthorized", "code": 0})
                elif self.path.endswith("/oauth2/applications/@me"):
                    self.answer(
                        200,
                        {
                            "id": user["id"],
                            "name": "Sea Games",
                            "description": "",
                            "icon": None,
                            "bot_public": True,
                            "bot_require_code_grant": False,
                            "owner": user,
                            "verify_key": "0" * 64,
                            "flags": 0,
                        },
                    )
                elif self.path.endswith("/commands"):
                    self.answer(200, [])
                else:  # the gateway: Discord having a bad day
                    self.answer(503, {"message": "Service Unavailable", "code": 0})

            def do_PUT(self) -> None:
                fake.requests.append(f"PUT {self.path}")
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                self.answer(200, [])

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


def start_bot(tmp_path: Path, port: int, **env: str) -> subprocess.Popen:
    """``python bot.py`` with discord.py's API address set to ``127.0.0.1:port``."""
    script = tmp_path / "run_bot.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "import discord.http\n"
        f"discord.http.Route.BASE = 'http://127.0.0.1:{port}/api/v10'\n"
        "import discord.gateway, yarl\n"  # the gateway: a port where nothing listens
        f"discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL('ws://127.0.0.1:{free_port()}/')\n"
        "import bot\n"
        "if __name__ == '__main__':  # the picture workers start by spawning\n"
        "    sys.exit(bot.main())\n"
    )
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    settings = {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "data" / "db.sqlite3"), **env}
    return subprocess.Popen(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env={**clean, **settings},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for(condition, seconds: float = 30.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.1)
    return False


def json_lines(text: str) -> list[dict]:
    """Every stderr line as JSON: each must be one object (LOG_FORMAT=json)."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_discord_unreachable_then_a_refused_token(tmp_path):
    port = free_port()
    fake = FakeDiscord(port, token_ok=False)
    alive = tmp_path / "alive"
    bot = start_bot(tmp_path, port, LOG_FORMAT="json", HEALTH_FILE=str(alive))
    try:
        # Nothing listens: the bot keeps trying, alive but not ready.
        assert wait_for(lambda: alive.exists() and "cannot reach Discord" in alive.read_text())
        good, line = ops.health(alive)
        assert good and "not ready: cannot reach Discord" in line
        assert not ops.health(alive, ready=True)[0]
        assert bot.poll() is None
        fake.open()  # Discord is back, and refuses the token
        out, err = bot.communicate(timeout=90)
    finally:
        fake.close()
        if bot.poll() is None:
            bot.kill()
    assert bot.returncode == 2
    entries = json_lines(err)  # one JSON object per line, no traceback in between
    retries = [e for e in entries if "cannot reach Discord" in e["message"]]
    assert retries and all(e["level"] == "WARNING" and "trying again in" in e["message"] for e in retries)
    refused = [e for e in entries if "Discord refused DISCORD_TOKEN" in e["message"]]
    assert len(refused) == 1 and "none was found" not in refused[0]["message"]
    assert not any("exc" in e for e in entries)
    assert not any("voice" in e["message"] for e in entries)
    assert not alive.exists()  # the heartbeat goes with the process


def test_discord_unreachable_then_reachable(tmp_path):
    port = free_port()
    fake = FakeDiscord(port, token_ok=True)
    alive = tmp_path / "alive"
    bot = start_bot(tmp_path, port, HEALTH_FILE=str(alive))
    try:
        assert wait_for(lambda: alive.exists() and "cannot reach Discord" in alive.read_text())
        fake.open()
        # Logged in (the commands were sent), then the gateway cannot be reached: retried too.
        assert wait_for(lambda: any(r.startswith("PUT ") for r in fake.requests), 60)
        assert wait_for(lambda: "cannot reach Discord's gateway" in alive.read_text())
        assert bot.poll() is None and ops.health(alive)[0] and not ops.health(alive, ready=True)[0]
        bot.send_signal(signal.SIGTERM)
        out, err = bot.communicate(timeout=60)
    finally:
        fake.close()
        if bot.poll() is None:
            bot.kill()
    assert bot.returncode == 0, err
    assert "reached Discord after" in err and "cannot reach Discord's gateway" in err
    assert f"Sea Games bot {VERSION} starting" in err
    assert "Traceback" not in err  # the gateway's reconnects are one line each too
    lines = err.splitlines()
    assert all(line[:4].isdigit() for line in lines), err  # every line is a log record's own line


def test_a_second_process_on_the_same_sqlite_file_is_refused(tmp_path):
    port = free_port()  # nothing listens: the first bot keeps retrying, holding the database
    first = start_bot(tmp_path, port, HEALTH_FILE=str(tmp_path / "alive"))
    try:
        assert wait_for(lambda: (tmp_path / "alive").exists())
        second = start_bot(tmp_path, port)
        out, err = second.communicate(timeout=60)
        assert second.returncode == 2
        assert f"process {first.pid}" in err and "already using it" in err and "DATABASE_PATH" in err
        assert "cannot reach Discord" not in err  # refused before logging in
    finally:
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=60)
    assert first.returncode == 0
    # Once the first has stopped, the file is free again.
    third = start_bot(tmp_path, port, HEALTH_FILE=str(tmp_path / "alive"))
    try:
        assert wait_for(lambda: (tmp_path / "alive").exists())
    finally:
        third.send_signal(signal.SIGTERM)
        third.communicate(timeout=60)


# ------------------------------------------------------------ before login


def run_bot(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), *args],
        cwd=tmp_path,
        env={**clean, "DISCORD_TOKEN": TOKEN, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def refused_before_login(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "logging in" not in done.stderr and "cannot reach Discord" not in done.stderr
    return done.stderr


def test_a_database_from_a_newer_bot_is_refused_before_login_as_check_says(tmp_path):
    import sqlite3

    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE game_tables (id INTEGER)")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    err = refused_before_login(run_bot(tmp_path, DATABASE_PATH=str(path)))
    check = run_bot(tmp_path, "check", DATABASE_PATH=str(path))
    line = ops.too_new(str(path), SCHEMA_VERSION + 1, SCHEMA_VERSION, "DATABASE_PATH")
    assert line in err and line in check.stdout


def test_a_health_file_in_a_missing_folder_is_refused_before_login(tmp_path):
    health = tmp_path / "nowhere" / "alive"
    err = refused_before_login(
        run_bot(tmp_path, DATABASE_PATH=str(tmp_path / "db.sqlite3"), HEALTH_FILE=str(health))
    )
    assert f"HEALTH_FILE is {health}, but its folder {health.parent} does not exist" in err
    check = run_bot(tmp_path, "check", DATABASE_PATH=str(tmp_path / "db.sqlite3"), HEALTH_FILE=str(health))
    assert check.returncode == 2 and f"FAIL HEALTH_FILE is {health}, but its folder" in check.stdout


def test_a_wrong_postgres_password_is_refused_before_login(tmp_path):
    url = os.environ.get("TEST_POSTGRES_URL")
    if not url:
        pytest.skip("no PostgreSQL server (source /tmp/pgenv for TEST_POSTGRES_URL)")
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    wrong = urlunsplit(
        parts._replace(netloc=f"{parts.username}:wrong-password@{parts.hostname}:{parts.port}")
    )
    err = refused_before_login(run_bot(tmp_path, DATABASE_URL=wrong))
    check = run_bot(tmp_path, "check", DATABASE_URL=wrong)
    assert "wrong-password" not in err and "wrong-password" not in check.stdout + check.stderr
    fail = next(line for line in check.stdout.splitlines() if line.startswith("FAIL database: "))
    assert fail.removeprefix("FAIL database: ") in err


def test_a_metrics_port_in_use_is_refused_before_login(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        err = refused_before_login(
            run_bot(tmp_path, DATABASE_PATH=str(tmp_path / "db.sqlite3"), METRICS_PORT=str(port))
        )
    assert f"METRICS_PORT is {port}, but the bot cannot listen on 127.0.0.1:{port}" in err


# ------------------------------------------------------------ version, words


def test_the_version_is_printed_and_in_pyproject_and_the_changelog():
    done = subprocess.run([sys.executable, str(ROOT / "bot.py"), "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == f"seagames-bot {VERSION}"
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["version"] == VERSION
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = [line.split()[1] for line in changelog.splitlines() if line.startswith("## ")]
    assert releases[0] == VERSION, "the newest release in CHANGELOG.md is the version"


def test_metrics_and_backup_settings_are_checked(tmp_path):
    from bot import ConfigError, load_config

    base = {"DISCORD_TOKEN": TOKEN}
    config = load_config(base, None)
    assert config.metrics_port is None and config.metrics_address == "127.0.0.1"  # off, and local
    assert config.backup_hours == 24 and config.backup_keep == 7
    config = load_config(
        {**base, "METRICS_PORT": "9464", "METRICS_ADDRESS": "0.0.0.0", "BACKUP_HOURS": "0"}, None
    )
    assert (config.metrics_port, config.metrics_address, config.backup_hours) == (9464, "0.0.0.0", 0)
    for name, value in (
        ("METRICS_PORT", "70000"),
        ("METRICS_PORT", "web"),
        ("METRICS_ADDRESS", "my host"),
        ("BACKUP_HOURS", "-1"),
        ("BACKUP_HOURS", "daily"),
        ("BACKUP_KEEP", "0"),
    ):
        with pytest.raises(ConfigError, match=name):
            load_config({**base, name: value}, None)


def test_an_upgrade_from_before_ratings_says_old_games_are_not_rated(tmp_path):
    """A database of schema 3 starts (and migrates), with one warning saying what it leaves out."""
    import sqlite3

    from hosting.migrations import MIGRATIONS

    path = tmp_path / "data" / "db.sqlite3"
    path.parent.mkdir()
    with sqlite3.connect(path) as db:
        for version in range(1, 4):
            for statement in MIGRATIONS[version - 1].sqlite:
                db.execute(statement)
        db.execute("PRAGMA user_version = 3")
    port = free_port()  # Discord unreachable: the bot starts, warns, and waits
    bot = start_bot(tmp_path, port, HEALTH_FILE=str(tmp_path / "alive"))
    try:
        assert wait_for(lambda: (tmp_path / "alive").exists())
    finally:
        bot.send_signal(signal.SIGTERM)
        out, err = bot.communicate(timeout=60)
    notes = [line for line in err.splitlines() if "never rated" in line]
    assert len(notes) == 1 and "schema 3" in notes[0] and "leaderboards start empty" in notes[0]
    assert ops.upgrade_note(SCHEMA_VERSION) is None and ops.upgrade_note(None) is None
