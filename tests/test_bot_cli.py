"""Starting the bot from the command line, as an admin would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot import ConfigError, load_config

ROOT = Path(__file__).resolve().parents[1]


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
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
