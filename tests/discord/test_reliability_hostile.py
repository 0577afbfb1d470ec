"""Hostile input: interactions no honest client sends, fired at the running bot through SimCord.

SimCord's `click` / `select` refuse components a real user could not reach, so
`send_raw` builds the component interaction itself (the same payload SimCord's
own click builds) with any ``custom_id``, values and user. A hypothesis fuzzer
sends thousands of them: forged and malformed ids, ids of other tables, stale
tokens, select values outside the options or of the wrong type, members of
other servers. Every one must be acknowledged, refusals ephemerally, with no
unhandled error and no table changed.
"""

from __future__ import annotations

from typing import Any

from simcord import actors as sc_actors
from simcord import interactions as sc_interactions
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType
from simcord.results import InteractionResult


async def send_together(env, message, clicks: list[tuple[Any, dict[str, Any]]]) -> list[InteractionResult]:
    """Deliver component interactions on ``message`` (each a member and its data) before the bot
    handles any of them, then let the bot settle: how clicks landing at the same moment reach it."""
    backend = env.backend
    channel_id = sc_actors._channel_id_of(message, env)
    stored = backend.get_message(channel_id, message.id)
    records = []
    for actor, data in clicks:
        guild = getattr(actor, "guild", None)
        record, payload = sc_interactions.base_payload(
            backend,
            type=InteractionType.MESSAGE_COMPONENT,
            channel_id=channel_id,
            guild_id=guild.id if guild is not None else None,
            user_id=actor.id,
            data=data,
        )
        payload["message"] = dict(serializers.message_payload(backend, stored))
        record.source_message_id = stored.id
        env._notify_dispatch_observers(record)
        backend.emit("INTERACTION_CREATE", payload)
        records.append(record)
    await env._settle_internal(dispatch="INTERACTION_CREATE")
    return [InteractionResult(env, record) for record in records]


async def send_raw(actor, message, datas: list[dict[str, Any]]) -> list[InteractionResult]:
    """One member's component interactions on ``message``, all delivered at once (`send_together`)."""
    return await send_together(actor._env, message, [(actor, data) for data in datas])


def button(custom_id: str) -> dict[str, Any]:
    return {"custom_id": custom_id, "component_type": int(ComponentType.BUTTON)}


def select(custom_id: str, values: list[Any]) -> dict[str, Any]:
    return {"custom_id": custom_id, "component_type": int(ComponentType.STRING_SELECT), "values": values}


# ---------------------------------------------------------------------- the fuzzer

import logging  # noqa: E402
import os  # noqa: E402

import pytest  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.discord.test_lobby import open_table  # noqa: E402
from tests.discord.test_play import seat_and_start  # noqa: E402
from tests.play_helpers import controls, latest_board  # noqa: E402

#: Examples in the quick setting and in the thorough one (``pytest --slow`` or ``RELIABILITY_THOROUGH=1``).
QUICK, THOROUGH = 150, 2000
PER_EXAMPLE = 6  # interactions per example: ~700 quick, ~12,000 thorough
#: At least this many interactions per example really go out (the honest ones are left out).
SENT_PER_EXAMPLE = 2.5


def examples(config) -> int:
    """The quick or the thorough setting. Read from pytest's options, not ``sys.argv``: under
    pytest-xdist the tests run in worker processes, whose command line has no ``--slow``."""
    return THOROUGH if config.getoption("--slow") or os.environ.get("RELIABILITY_THOROUGH") else QUICK


WORDS = ["act", "pick", "board", "lobby", "ACT", "act ", "", "x"]
VERBS = ["hand", "rules", "leave", "join", "start", "cancel", "bot", "zz", "", "HAND"]
ODD_NUMBERS = ["0", "1", "-1", "2", "99", "1e3", "²", "٣", "007", " 1", "1_0", "9" * 40, "0x1", ""]
ODD_VALUES = st.one_of(
    st.sampled_from(ODD_NUMBERS),
    st.text(max_size=30),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.none(),
    st.floats(allow_nan=True),
    st.booleans(),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@pytest.fixture
async def arena(simcord_env):
    """Two servers: a running Reef & Ruins table in one, a lobby in the other."""
    home = simcord_env.create_guild("Home")
    games = home.create_text_channel("games")
    alice, bob, carol = (home.add_member(simcord_env.create_user(n)) for n in ("alice", "bob", "carol"))
    thread = await seat_and_start(games, alice, [bob], 0, "reef")
    board = latest_board(thread)
    opened = await alice.click(board, label="My sheet")
    panel = opened.followups[0] if opened.followups else opened.response  # goes stale below
    fresh = await alice.click(board, label="My sheet")
    fresh = fresh.followups[0] if fresh.followups else fresh.response
    buttons, selects = controls(fresh)
    if buttons:
        await alice.click(fresh, custom_id=buttons[0]["custom_id"])
    else:
        await alice.select(fresh, [selects[0]["options"][0]["value"]], custom_id=selects[0]["custom_id"])
    board = latest_board(thread)
    away = simcord_env.create_guild("Away")
    stranger = away.add_member(simcord_env.create_user("mallory"))
    _, lobby_away, _ = await open_table(away.create_text_channel("games"), stranger)
    store = simcord_env.bot.tables.store
    table = await store.table_in_channel(thread.id)
    return {
        "env": simcord_env,
        "table": table,
        "panel": panel,
        "targets": {  # who forges, on which message they can see
            "alice": (alice, [board, panel]),
            "carol": (carol, [board]),
            "mallory": (stranger, [lobby_away]),
        },
        "alice": alice,
        "thread": thread,
    }


def custom_ids(table_ids: list[int], tokens: list[str]) -> st.SearchStrategy[str]:
    table = st.one_of(st.sampled_from([str(t) for t in table_ids]), st.sampled_from(ODD_NUMBERS))
    token = st.one_of(st.sampled_from(tokens), st.from_regex(r"[0-9]{1,3}\.[0-9a-f]{8}", fullmatch=True))
    structured = st.one_of(
        st.tuples(st.sampled_from(["act", "pick"]), table, token, st.sampled_from(ODD_NUMBERS)).map(":".join),
        st.tuples(st.sampled_from(["board", "lobby"]), st.sampled_from(VERBS), table).map(":".join),
        st.tuples(st.sampled_from(WORDS), st.text(max_size=20), table).map(":".join),
    )
    return st.one_of(structured, st.text(max_size=120), structured.map(lambda s: s + ":" + "9" * 80))


def interactions(table_ids, tokens, real):
    # Half forged ids, half the ids really on the messages (stale panels, board buttons) with odd data.
    ids = st.one_of(custom_ids(table_ids, tokens), st.sampled_from(real))
    as_button = ids.map(button)
    as_select = st.builds(lambda c, v: select(c, v), ids, st.lists(ODD_VALUES, max_size=3))
    odd_type = st.builds(
        lambda c, t: {"custom_id": c, "component_type": t}, ids, st.sampled_from([3, 5, 6, 7, 8, 99])
    )
    no_values = ids.map(lambda c: {"custom_id": c, "component_type": 3})
    return st.one_of(as_button, as_select, odd_type, no_values)


def honest(arena, actor_name: str, data: dict) -> bool:
    """True for what a real client could legitimately send: the fuzzer sends only the rest."""
    cid = str(data.get("custom_id", ""))
    parts = cid.split(":")
    table = arena["table"]
    if actor_name == "mallory" and parts[:1] == ["lobby"]:
        return True  # her own lobby: every button there is hers to press
    if actor_name == "alice" and parts[:1] == ["board"] and len(parts) == 3 and parts[2] == str(table.id):
        return parts[1] == "leave"
    return False


async def test_forged_interactions_are_all_answered_and_change_nothing(arena, caplog, pytestconfig):
    count = examples(pytestconfig)
    env = arena["env"]
    store = env.bot.tables.store
    table = arena["table"]
    away = await store.table_in_channel(arena["targets"]["mallory"][1][0].channel.id)
    ids = [table.id, away.id if away else 999, 0, 10**12]
    buttons, selects = controls(arena["panel"])
    stale = [c["custom_id"] for c in buttons + selects]
    tokens = [*sorted({cid.split(":")[2] for cid in stale}), "0.00000000"]
    board = arena["targets"]["carol"][1][0]
    real = stale + [c.custom_id for row in board.components for c in row.children]
    before = {t: (await store.get_table(t)).version for t in ids[:2]}
    public_before = len(list(arena["thread"].history()))
    caplog.set_level(logging.WARNING)
    sent = 0

    @settings(
        max_examples=count,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    @given(
        who=st.sampled_from(sorted(arena["targets"])),
        datas=st.lists(interactions(ids, tokens, real), min_size=1, max_size=PER_EXAMPLE),
        which=st.integers(0, 1),
    )
    def case(who, datas, which):
        cases.append((who, datas, which))

    cases: list = []
    case()
    for who, datas, which in cases:
        actor, messages = arena["targets"][who]
        datas = [d for d in datas if not honest(arena, who, d)]
        if not datas:
            continue
        cursor = env.error_cursor
        results = await send_raw(actor, messages[which % len(messages)], datas)
        sent += len(results)
        for data, result in zip(datas, results, strict=True):
            assert result.acknowledged, f"unanswered: {data}"
            answers = ([result.response] if result.response else []) + list(result.followups)
            for answer in answers:
                if answer.content:  # a refusal (or a private panel) is only ever shown to the clicker
                    assert answer.ephemeral, f"{data} was answered publicly: {answer.content!r}"
        assert not env.errors_since(cursor), (datas, env.errors_since(cursor))
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert not errors, (datas, errors[0].getMessage(), errors[0].exc_info)
        for table_id, version in before.items():
            assert (await store.get_table(table_id)).version == version, f"{datas} changed table {table_id}"
    assert len(list(arena["thread"].history())) == public_before
    assert sent >= count * SENT_PER_EXAMPLE, sent
    print(f"{sent} forged interactions, all answered, no table changed")
