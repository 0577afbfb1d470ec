"""Replays, as people use them: `/game replay` steps through a finished game; `/game export` and
``python -m engine.replay`` replay and check it.

The secrecy check reuses the audit's machinery (tests/discord/test_secrecy_audit.py):
the table's log is replayed for the hidden choices pending after each move, and
every replay step a person is shown (its words, its menus, its picture's alt
text) may contain none of the choices still hidden at that step's move.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import replay
from tests.discord.test_play import seat_and_start
from tests.discord.test_secrecy_audit import message_text, moments, phrase_pattern
from tests.play_helpers import said, take_turns

ROOT = Path(__file__).resolve().parents[2]
STEP = re.compile(r"step (\d+) of (\d+) \(after move (\d+) of (\d+)\)")


@pytest.fixture
def world(simcord_env):
    guild = simcord_env.create_guild("Jeju Friends")
    channel = guild.create_text_channel("games")
    people = [guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol", "sam")]
    return guild, channel, people


def leaks_in(text: str, moment) -> list[str]:
    """Hidden choices of ``moment`` that ``text`` shows (more often than the public events so far did)."""
    return [
        phrase
        for phrases in moment.hidden.values()
        for phrase in phrases
        if phrase_pattern(phrase).search(text) and moment.shown_more_than_said(phrase_pattern(phrase), text)
    ]


@pytest.mark.parametrize(("game", "seed"), [("haenyeo", 31), ("reef", 32)])
async def test_a_replay_steps_through_a_whole_game_and_never_shows_a_hidden_choice_early(
    world, simcord_env, game, seed, request
):
    if game == "reef" and not request.config.getoption("--slow"):
        pytest.skip("the second whole game runs in the thorough setting: pytest --slow")
    guild, channel, (alice, bob, carol, sam) = world
    players = [alice, bob, carol] if game == "haenyeo" else [alice, bob]
    thread = await seat_and_start(channel, players[0], players[1:], 1, game)
    assert await take_turns(thread, {p.id: p for p in players}, random.Random(seed)) is not None
    service = simcord_env.bot.tables
    table = await service.store.table_in_channel(thread.id)
    log = await service.store.actions(table.id)
    timeline = moments(game, len(table.seats), table.seed, table.options, log)

    # A spectator replays it from the channel (the finished table's thread is archived, and Discord
    # offers no commands there), stepping with Next to the end.
    opened = await sam.slash(channel, "game replay", table=table.id)
    shown = opened.followups[0] if opened.followups else opened.response
    seen: list[tuple[int, int, str]] = []
    pending_shown = 0
    while True:
        text = message_text(shown)
        step, steps, moves, last = map(int, STEP.search(shown.content).groups())
        assert shown.attachments and shown.attachments[0].description  # the public picture, with alt text
        found = leaks_in(text, timeline[moves])
        assert not found, f"step {step} (move {moves}) shows hidden {found}: {text[:300]!r}"
        pending_shown += any(timeline[moves].hidden.values())
        seen.append((step, moves, text))
        if step == steps:
            break
        await sam.click(shown, label="Next ▶")
    assert [s for s, _, _ in seen] == list(range(1, steps + 1))
    assert seen[-1][1] == last == len(log) == table.moves  # the whole game
    assert pending_shown, "no step had a pending hidden choice: the check could not have failed"
    # The check can fail: a pending choice planted in a step's words is reported…
    moves, pending = next((m, t) for _, m, t in seen if any(timeline[m].hidden.values()))
    planted = next(p for phrases in timeline[moves].hidden.values() for p in phrases)
    assert leaks_in(f"{pending}\n{planted}", timeline[moves])
    # …and once revealed, choices do appear in the replay, in the words the audit looks for.
    if game == "haenyeo":
        assert re.search(r"dives to zones? \d", "\n".join(t for _, _, t in seen))
    # Each step's events are what the thread said then: together, every public event once.
    _, steps_kept = await service.replay_steps(table.id)
    replayed = [e for s in steps_kept[1:] for e in s.events]
    assert replayed == await service.public_events(table.id, last=len(log) * 10)

    # Jump: the menu goes straight to a step; Start goes back to the beginning.
    menu = next(c for row in shown.components for c in row["components"] if c["type"] == 3)
    middle = menu["options"][len(menu["options"]) // 2]["value"]
    await sam.select(shown, [middle], custom_id=menu["custom_id"])
    assert f"step {int(middle) + 1} of {steps}" in shown.content
    await sam.click(shown, label="⏮ Start")
    assert "step 1 of" in shown.content and "The game begins!" in shown.content


async def test_an_exported_game_replays_to_the_same_result(world, simcord_env, tmp_path, capsys):
    guild, channel, (alice, bob, *_) = world
    thread = await seat_and_start(channel, alice, [bob], 0, "jeju")
    assert await take_turns(thread, {alice.id: alice, bob.id: bob}, random.Random(41)) is not None
    table = await simcord_env.bot.tables.store.table_in_channel(thread.id)

    exported = await bob.slash(channel, "game export", table=table.id)  # its thread is archived
    answer = exported.followups[0] if exported.followups else exported.response
    assert answer.ephemeral and "python -m engine.replay" in answer.content
    (attachment,) = answer.attachments
    data = simcord_env.backend.cdn.get(attachment.url)
    record = json.loads(data)
    assert record["seed"] == table.seed and record["game"] == "jeju" and len(record["actions"]) == table.moves
    assert [s["name"] for s in record["seats"]] == ["alice", "bob"] and record["result"] == table.result

    path = tmp_path / attachment.filename
    path.write_bytes(data)
    assert replay.main([str(path)]) == 0
    assert "the result matches the record" in capsys.readouterr().out
    # From the command line, as someone who downloaded the file would run it.
    run = subprocess.run(
        [sys.executable, "-m", "engine.replay", str(path)], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert f"{len(record['actions'])} actions replayed" in run.stdout

    # A record whose result was changed is caught.
    record["result"]["scores"] = [s + 1 for s in record["result"]["scores"]]
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(record))
    assert replay.main([str(forged)]) == 1
    assert "differs" in capsys.readouterr().err
    record["actions"][3]["seat"] = 1 - record["actions"][3]["seat"]  # a move by the wrong seat
    forged.write_text(json.dumps(record))
    assert replay.main([str(forged)]) == 2

    # Replay and export refuse a table that is still open, and a table from elsewhere.
    running = await seat_and_start(channel, alice, [bob], 0, "jeju")
    running_here = next(t for t in channel.threads if t.id == running.id)
    assert "still open" in said(await alice.slash(running_here, "game replay"))
    assert "Only a finished game" in said(await alice.slash(running_here, "game export"))
