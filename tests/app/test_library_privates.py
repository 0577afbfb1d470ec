"""The private names of libraries the project still uses, each because no public way exists.

Each library is pinned in pyproject.toml (``simcord==3.2.*``, ``discord.py>=2.7.1,<3``), and a
release that moves one of these names fails here, naming it, instead of changing what the code
using it does without a word (a test that checks nothing, a preview that stops updating). Where a
public way exists the project uses it instead: the process pools' workers report their own ids
(`renderers.pool.WorkerPids`, not ``ProcessPoolExecutor._processes``), the bot knows its own
buttons' custom_id templates (`cogs.common.one_of_ours`, not discord.py's view store), the test
fixture reads the bot's errors through `Env.errors_since`, and `simtools.strict` takes a route's
path from discord.py's public `Route.BASE`. aiosqlite's ``Connection._execute`` is pinned and
checked by the store's own tests (hosting/store.py).
"""

from __future__ import annotations

import inspect

import discord
import simcord
from discord.ui.view import ViewStore
from simcord import _runtime
from simcord.backend import Backend
from simcord.preview import Preview


def test_simcord_builds_its_transports_from_names_simtools_strict_swaps():
    # simtools.strict._strict_transports: SimCord has no setting for the HTTP client and webhook
    # adapter its attach step builds, so the strict ones are put in their place for that step.
    assert isinstance(_runtime.FakeHTTPClient, type) and isinstance(_runtime.FakeWebhookAdapter, type)
    attach = inspect.getsource(_runtime._attach_bot)
    assert "FakeHTTPClient(" in attach and "FakeWebhookAdapter(" in attach


def test_simcord_env_steps_the_tests_override_and_call():
    # tests/conftest._SuiteEnv widens the settle limit of a bot's start (SimCord fixes it at 5 s);
    # tests/discord/test_hostile_members and test_reliability_hostile deliver clicks before the bot runs.
    assert {"timeout", "dispatch"} <= set(inspect.signature(simcord.Env._settle_internal).parameters)
    assert callable(simcord.Env._notify_dispatch_observers)


def test_simcord_preview_names_offline_mode_reads():
    # offline.py: whether the preview's packages are installed, whether a page is stale, and the
    # markdown policy that shows mentions in embeds as the member's name.
    from simcord.preview import _markdown, _require_preview_runtime

    assert callable(_require_preview_runtime)
    for field in ("embed_description", "embed_field_value"):
        assert "mentions" in _markdown._FIELD_POLICIES[field]
    assert "self._pages" in inspect.getsource(Preview.__init__)


def test_discord_py_view_store_names_the_memory_test_measures():
    # tests/app/test_memory_bounds.view_store_size: discord.py's own memory, which no public name sizes.
    client = discord.Client(intents=discord.Intents(guilds=True))
    store = client._connection._view_store
    assert isinstance(store, ViewStore)
    assert isinstance(store._views, dict)
    assert isinstance(store._synced_message_views, dict)
    assert isinstance(store._modals, dict)


def test_simcord_backend_ids_the_benchmarks_trim():
    # bench/simdiscord.forget_history: a long benchmark drops SimCord's id bookkeeping as it goes.
    backend = Backend()
    assert isinstance(backend._sequences, dict) and isinstance(backend._reserved_ids, set)
