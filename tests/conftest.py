"""Shared fixtures: the real bot on a temporary database, against SimCord made strict.

``simcord_env`` is SimCord's environment on the stricter Discord of
`simtools.strict` (threads archive, permissions and limits are enforced
as Discord documents them). Every test that uses it also has every JSON body
the bot sent validated against Discord's OpenAPI description (see `openapi_check`).
"""

from __future__ import annotations

import pytest
import pytest_asyncio

import engine
from bot import Config, create_bot
from simtools.strict import StrictEnv
from tests.openapi_check import SPEC_PATH, OpenAPIChecker

# The tiny test game is offered next to the real ones, so the lobby and the
# service can be exercised on a game whose rules a test can predict.
engine.GAME_PACKAGES.setdefault("takeaway", "tests.tinygame")


def pytest_addoption(parser):
    """``--slow``: the thorough setting of the long reliability checks (more kills, more cases)."""
    parser.addoption("--slow", action="store_true", help="run the long checks in their thorough setting")


TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"


@pytest.fixture
def db_path(tmp_path):
    """A fresh database file for one test."""
    return tmp_path / "tables.sqlite3"


@pytest.fixture
async def make_bot(db_path):
    """Build a new bot on the test's database (``env.restart_bot(make_bot())`` restarts it).

    SimCord detaches a bot without closing it, so each bot's database connection
    is closed here: an open aiosqlite thread would keep pytest from exiting.
    """
    bots = []

    def build():
        bots.append(create_bot(Config(token=TOKEN, database=db_path, bot_delay=0.0)))
        return bots[-1]

    yield build
    for bot in bots:
        if bot.store is not None:
            await bot.store.close()


@pytest.fixture
def simcord_bot(make_bot):
    """The bot SimCord runs."""
    return make_bot()


@pytest_asyncio.fixture
async def simcord_env(simcord_bot, request):
    """SimCord's running environment (as its own fixture builds it) on the stricter Discord.

    Options come from the ``simcord`` marker, as with SimCord's fixture.
    """
    marker = request.node.get_closest_marker("simcord")
    env = StrictEnv(simcord_bot, **(marker.kwargs if marker else {}))
    await env.start()
    try:
        yield env
    finally:
        await env.shutdown()
        if env.check_errors:
            env._raise_errors_since(env._errors_acknowledged)


@pytest.fixture(scope="session")
def openapi_checker():
    """Discord's OpenAPI description, loaded once."""
    if not SPEC_PATH.is_file():
        return None
    return OpenAPIChecker()


@pytest.fixture(autouse=True)
def _validate_requests(request, openapi_checker):
    """After each SimCord test, check every request body against Discord's schema."""
    if "simcord_env" not in request.fixturenames:
        yield
        return
    env = request.getfixturevalue("simcord_env")
    yield
    if openapi_checker is None:
        pytest.skip(f"Discord's OpenAPI description is not at {SPEC_PATH}; request bodies were not validated")
    problems = [
        problem
        for entry in env.http_requests
        for problem in openapi_checker.validate(entry.method, entry.path, entry.json)
    ]
    assert not problems, "requests that do not match Discord's API:\n" + "\n".join(problems)
