"""The image and compose file as an admin uses them (issue #36).

No container engine runs on this machine, so the Dockerfile and compose.yaml are read
as files and the image's commands run in a directory laid out as the Dockerfile's COPY
lines lay /app out (`tests.app.test_ops.build_app`), with the image's environment.
"""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.app.test_ops import ROOT, TOKEN, build_app, dockerfile, image_env, run


def lock() -> dict[str, str]:
    """requirements.lock as name → pinned version."""
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"not pinned: {line}"
            pins[canonicalize_name(name)] = version
    return pins


def test_the_lock_file_pins_every_dependency_at_a_version_pyproject_allows():
    pins = lock()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for text in project["dependencies"]:
        wanted = Requirement(text)
        name = canonicalize_name(wanted.name)
        assert name in pins, f"{wanted.name} is a dependency but not in requirements.lock"
        assert wanted.specifier.contains(pins[name], prereleases=True), (
            f"{name}=={pins[name]} is not {wanted}"
        )


def test_the_lock_file_holds_everything_its_pins_need():
    """Each pinned package's own requirements (for Python 3.11 on Linux) are pinned too."""
    pins = lock()
    env = {**default_environment(), "python_version": "3.11", "sys_platform": "linux", "extra": ""}
    for name, version in pins.items():
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        if dist.version != version:
            continue  # another version here; its requirements may differ
        for text in dist.requires or []:
            need = Requirement(text)
            if need.marker is not None and not need.marker.evaluate(env):
                continue
            assert canonicalize_name(need.name) in pins, f"{name} needs {need.name}, which is not pinned"


def test_the_image_is_pinned_and_installs_dependencies_before_the_code():
    steps = dockerfile()
    base = steps[0][1]
    assert re.fullmatch(r"python:3\.11[\w.-]*@sha256:[0-9a-f]{64}", base), base
    copies = [i for i, (name, _) in enumerate(steps) if name == "COPY"]
    install = next(
        i for i, (name, args) in enumerate(steps) if name == "RUN" and "-r requirements.lock" in args
    )
    assert steps[copies[0]][1].split()[0] == "requirements.lock"  # the only file before the install
    assert all(i > install for i in copies[1:])  # the code comes after: a change to it keeps that layer
    args = {args.split("=")[0] for name, args in steps if name == "ARG"}
    assert {"SEAGAMES_UID", "SEAGAMES_GID"} <= args
    user_step = next(i for i, (name, args) in enumerate(steps) if name == "RUN" and "useradd" in args)
    assert install < user_step, "another user id must not reinstall the dependencies"
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert "tests" in ignored and ".venv" in ignored and "bench" in ignored


def test_compose_rotates_logs_limits_memory_and_stops_restarting_a_bad_setting():
    text = (ROOT / "compose.yaml").read_text()
    bot = text.split("\n  postgres:")[0]
    assert re.search(r"^\s+restart: on-failure:\d+$", bot, re.M), "exit status 2 must not restart for ever"
    assert "mem_limit:" in bot and 'max-size: "10m"' in bot and "max-file:" in bot
    assert "SEAGAMES_UID: ${SEAGAMES_UID:-10001}" in bot


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Path:
    return build_app(tmp_path_factory.mktemp("image") / "app")


def test_in_the_image_the_no_token_message_says_what_works_there(app, tmp_path):
    env = {**image_env(), "DATABASE_PATH": str(tmp_path / "data" / "db.sqlite3")}
    done = run([], app, script=app / "bot.py", **env)
    assert done.returncode == 2 and "DISCORD_TOKEN" in done.stderr
    assert "not installed here" in done.stderr and "run: python bot.py --offline" not in done.stderr
    offline = run(["--offline"], app, script=app / "bot.py", **env)
    assert offline.returncode == 2 and "Traceback" not in offline.stderr
    assert "pip install -e '.[offline]'" in offline.stderr
    # A checkout with the offline extra still suggests it.
    here = run([], ROOT, DATABASE_PATH=str(tmp_path / "db.sqlite3"))
    assert "To try the games first without Discord, run: python bot.py --offline" in here.stderr


def test_in_the_image_version_check_and_status(app, tmp_path):
    env = {**image_env(), "DATABASE_PATH": str(tmp_path / "db.sqlite3"), "DISCORD_TOKEN": TOKEN}
    from hosting.version import VERSION

    assert run(["--version"], app, script=app / "bot.py", **env).stdout.strip() == f"seagames-bot {VERSION}"
    done = run(["status"], app, script=app / "bot.py", **env)
    assert (
        done.returncode == 0
        and "METRICS_PORT is not set" in done.stdout
        and "tables: none yet" in done.stdout
    )
    assert "voice" not in run(["check"], app, script=app / "bot.py", **env).stderr


def test_the_systemd_unit_behaves_as_the_container():
    """docs/seagames-bot.service: the bot in the foreground, SIGTERM with time, no restart on status 2."""
    unit: dict[str, str] = {}
    for line in (ROOT / "docs" / "seagames-bot.service").read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            unit[key.strip()] = value.strip()
    assert unit["ExecStart"].endswith("python bot.py") and unit["User"] == "seagames"
    assert unit["Restart"] == "on-failure" and unit["RestartPreventExitStatus"] == "2"
    assert unit["KillSignal"] == "SIGTERM" and int(unit["TimeoutStopSec"]) >= 10
    assert unit["MemoryMax"] and unit["StartLimitBurst"] == "5"
    hosting = (ROOT / "docs" / "HOSTING.md").read_text()
    assert "RestartPreventExitStatus=2" in hosting and "seagames-bot.service" in hosting
