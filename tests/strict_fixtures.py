"""The ``strict_env`` fixture: SimCord's ``simcord_env`` on the stricter Discord of `simtools.strict`.

Registered with ``pytest_plugins = ["tests.strict_fixtures"]`` in tests/conftest.py
(or, until then, imported by the test module that uses it). Same shape as
simcord's own fixture: it honours the ``simcord`` marker's options, runs our
``simcord_bot``, shuts down and re-raises unacknowledged bot errors; and, like
conftest's ``_validate_requests`` does for ``simcord_env``, it checks every JSON
body the bot sent against Discord's OpenAPI description.
"""

from __future__ import annotations

import pytest
import pytest_asyncio

from simtools.strict import StrictEnv
from tests.openapi_check import SPEC_PATH


@pytest_asyncio.fixture
async def strict_env(simcord_bot, request):
    """A running :class:`StrictEnv` around the bot."""
    marker = request.node.get_closest_marker("simcord")
    options = marker.kwargs if marker else {}
    env = StrictEnv(simcord_bot, **options)
    await env.start()
    try:
        yield env
    finally:
        await env.shutdown()
        if env.check_errors:
            env._raise_errors_since(env._errors_acknowledged)


@pytest.fixture(autouse=True)
def _validate_strict_requests(request, openapi_checker):
    """After each strict test, check every request body against Discord's schema."""
    if "strict_env" not in request.fixturenames:
        yield
        return
    env = request.getfixturevalue("strict_env")
    yield
    if openapi_checker is None:
        pytest.skip(f"Discord's OpenAPI description is not at {SPEC_PATH}; request bodies were not validated")
    problems = [
        problem
        for entry in env.http_requests
        for problem in openapi_checker.validate(entry.method, entry.path, entry.json)
    ]
    assert not problems, "requests that do not match Discord's API:\n" + "\n".join(problems)
