"""💡 Suggest as players meet it: one answer at a time in the panel, and no flood of searches.

Issue #41.3: each press edits the player's own panel (the ephemeral message the
button is on) instead of adding another message. Issue #35.1: a suggestion is
worked out once per (table, version, seat); clicks that arrive while it runs
wait for the same answer; one member's new searches are rate-limited; hints use
a bounded share of the worker pool. The searches are counted where the pool
hands them to its workers (`BotPool.searches`), the expert is Ponder's (a test
game whose expert thinks as long as the table's ``think`` option says).
"""

from __future__ import annotations

import pytest

from hosting import service as hosting_service
from hosting.botpool import BotPool
from tests.discord.test_bot_levels import PANEL, live_board, lobby_for, make_bot, settings, world  # noqa: F401
from tests.discord.test_reliability_hostile import button, send_raw


def suggest_id(panel) -> str:
    rows = [row.get("components", []) if isinstance(row, dict) else row.children for row in panel.components]
    ids = [i.get("custom_id") if isinstance(i, dict) else i.custom_id for r in rows for i in r]
    return next(i for i in ids if i and i.startswith("hint:"))


async def open_panel(member, thread):
    opened = await member.click(live_board(thread), label=PANEL)
    return opened.followups[0] if opened.followups else opened.response


def pool(env) -> BotPool:
    return env.bot.tables.bots


async def a_table_with_hints(people, think: str):
    channel, alice, bob = people
    lobby, thread = await lobby_for(channel, alice, think=think, pile="normal", bots=0, hints=True)
    await bob.click(lobby, label="Join")
    await alice.click(lobby, label="Start")
    return thread


@pytest.mark.simcord(settle_timeout=60.0)
async def test_each_suggest_press_edits_the_panel_instead_of_adding_a_message(world, simcord_env):  # noqa: F811 - a fixture
    _, alice, _ = world
    thread = await a_table_with_hints(world, think="0")
    panel = await open_panel(alice, thread)
    answers = []
    for _ in range(3):
        pressed = await alice.click(panel, custom_id=suggest_id(panel))
        assert not pressed.followups  # no new message
        panel = pressed.response  # the panel itself, edited
        assert panel is not None and panel.ephemeral
        answers.append(panel.content)
    assert all(a.startswith("💡 The expert would pick **Take ") for a in answers)
    assert answers[0].count("💡") == 1 and answers[-1] == answers[0]  # replaced, not piled up
    assert "Your move: choose below." in answers[0]  # still the panel, with its choices
    suggested = answers[0].split("**")[1]
    assert any(
        (getattr(c, "label", None) or (c.get("label") if isinstance(c, dict) else None)) == suggested
        for row in panel.components
        for c in (row.get("components", []) if isinstance(row, dict) else row.children)
    )


@pytest.mark.simcord(settle_timeout=60.0)
async def test_eight_simultaneous_suggest_clicks_run_one_search(world, simcord_env):  # noqa: F811 - a fixture
    _, alice, _ = world
    thread = await a_table_with_hints(world, think="2")  # each search takes 2 s: the clicks overlap
    panel = await open_panel(alice, thread)
    before = pool(simcord_env).searches
    clicks = await send_raw(alice, panel, [button(suggest_id(panel))] * 8)
    assert pool(simcord_env).searches - before == 1  # before issue #35: 8
    assert pool(simcord_env).hint_searches == 1
    for click in clicks:
        assert click.acknowledged and not click.followups  # every click answered in the panel
    final = clicks[-1].response
    assert final.content.startswith("💡 The expert would pick **Take ")
    # The same question later is answered from the first search too.
    again = await alice.click(final, custom_id=suggest_id(final))
    assert again.response.content == final.content and pool(simcord_env).searches - before == 1


def custom_ids(message) -> list[str]:
    rows = [r.get("components", []) if isinstance(r, dict) else r.children for r in message.components]
    return [(i.get("custom_id") if isinstance(i, dict) else i.custom_id) or "" for r in rows for i in r]


@pytest.mark.simcord(settle_timeout=60.0)
async def test_one_member_cannot_keep_starting_searches(world, simcord_env, monkeypatch):  # noqa: F811 - a fixture
    """Past the limit a member's new searches are refused in words (a known answer stays free)."""
    monkeypatch.setattr(hosting_service, "HINTS_PER_MEMBER", 1)
    _, alice, bob = world
    thread = await a_table_with_hints(world, think="0")
    panel = await open_panel(alice, thread)
    first = await alice.click(panel, custom_id=suggest_id(panel))
    assert first.response.content.startswith("💡")
    again = await alice.click(first.response, custom_id=suggest_id(first.response))
    assert again.response.content.startswith("💡")  # the same question: the same answer, free
    searches = pool(simcord_env).searches
    # Alice takes some stones, then Bob: Alice's next turn is a new question.
    for member in (alice, bob):
        opened = await open_panel(member, thread)
        await member.click(opened, custom_id=next(i for i in custom_ids(opened) if i.startswith("act:")))
    panel = await open_panel(alice, thread)
    refused = await alice.click(panel, custom_id=suggest_id(panel))
    assert not refused.followups and "💡 You have asked for a lot of hints" in refused.response.content
    assert pool(simcord_env).searches == searches  # no search started


async def test_hints_take_a_bounded_share_of_the_pool_and_bot_seats_keep_theirs(monkeypatch):
    """Three hints at once on a two-worker pool: one searches, one waits, one is refused; a bot
    seat asked at the same moment gets the other worker and answers before the waiting hint."""
    import asyncio

    import engine
    from hosting import botpool

    engine.GAME_PACKAGES.setdefault("ponder", "tests.ponder")
    monkeypatch.setattr(botpool, "HINTS_WAITING", 1)
    game = engine.get("ponder")
    state = game.new(2, 1, {"think": "2"})
    bots = BotPool(workers=2, deadline=30.0)
    try:
        await bots.start()
        assert bots.hint_slots == 1
        hints = [asyncio.ensure_future(bots.hint("ponder", state, 0, "expert", f"h{i}")) for i in range(3)]
        await asyncio.sleep(0)
        seat = asyncio.ensure_future(bots.decide("ponder", state, 0, "expert", "seat"))  # another table's
        done, _ = await asyncio.wait([*hints, seat], return_when=asyncio.FIRST_EXCEPTION)
        refused = [h for h in hints if h.done() and isinstance(h.exception(), botpool.PoolBusy)]
        assert len(refused) == 1
        await seat
        waiting = [h for h in hints if h not in refused and not h.done()]
        assert waiting  # the bot seat was not queued behind the hints
        await asyncio.gather(*waiting)
        assert bots.searches == 3 and bots.hint_searches == 2
    finally:
        bots.close()
