"""Secrets stay secret in Discord: until the reveal, nothing public shows a player's hidden choice."""

from __future__ import annotations

import logging
import random
import re

from tests.discord.test_play import seat_and_start, use_first_control, world  # noqa: F401 - the fixture
from tests.play_helpers import controls, latest_board, messages, prefer

# Phrases that only a player's own panel may show before the reveal.
HAENYEO_SECRETS = ("selected diving card", "will dive", "dives to", "Dive to zone", "Put back card")
# Lucky numbers are picked in public, in seat order (docs/rules/reef.md): only dice work is secret.
REEF_SECRETS = (
    "You mark",
    "You spend",
    "You trade",
    "You write",
    "You cast",
    "Use the",
)


def public_text(thread) -> str:
    """Everything anyone can read in the thread: contents, embeds and picture alt text."""
    parts = []
    for message in messages(thread):
        parts.append(message.content)
        parts.extend(f"{e.title} {e.description} {e.footer.text}" for e in message.embeds)
        parts.extend(a.description or "" for a in message.attachments)
    return "\n".join(parts)


async def open_panel(member, board):
    label = next(c.label for row in board.components for c in row.children if c.label.startswith("My "))
    result = await member.click(board, label=label)
    return result.followups[0] if result.followups else result.response


async def test_haenyeo_cards_stay_hidden_until_everyone_confirmed(world, caplog):  # noqa: F811
    caplog.set_level(logging.DEBUG)
    guild, channel, people = world
    alice, bob, carol, _ = people
    thread = await seat_and_start(channel, alice, [bob, carol], 0, "haenyeo")
    rng = random.Random(2)
    for member in (alice, bob):  # two of three choose and confirm; carol has not
        panel = await open_panel(member, latest_board(thread))
        for _ in range(10):
            kind, choice = prefer(*controls(panel), rng)
            if kind == "button":
                await member.click(panel, custom_id=choice["custom_id"])
            else:
                select, option = choice
                await member.select(panel, [option["value"]], custom_id=select["custom_id"])
            if "will dive" in panel.content:
                break
        assert "will dive" in panel.content  # the player sees their own choice
    seen = public_text(thread) + "\n".join(r.getMessage() for r in caplog.records)
    assert "has chosen their diving cards" in seen  # that they chose is public…
    for phrase in HAENYEO_SECRETS:  # …what they chose is not
        assert phrase not in seen


async def test_reef_dice_work_stays_hidden_until_the_round_is_confirmed(world, caplog):  # noqa: F811
    caplog.set_level(logging.DEBUG)
    guild, channel, people = world
    alice, bob, *_ = people
    thread = await seat_and_start(channel, alice, [bob], 0, "reef")
    rng = random.Random(3)
    panel = await open_panel(alice, latest_board(thread))
    await use_first_control(alice, panel)  # alice picks a lucky number, in public
    assert "lucky number" in panel.content  # alice sees her own choice…
    assert re.search(
        r"\*\*alice\*\* picks lucky number \d|gives \*\*alice\*\* lucky number \d", public_text(thread)
    )
    assert not any(p in public_text(thread) for p in REEF_SECRETS)
    panel = await open_panel(bob, latest_board(thread))
    await use_first_control(bob, panel)
    # Round 1: alice works on her dice but does not confirm.
    panel = await open_panel(alice, latest_board(thread))
    for _ in range(3):
        buttons, selects = controls(panel)
        forward = [b for b in buttons if not b["label"].startswith(("Confirm", "Reset"))]
        if not forward and not selects:
            break
        kind, choice = prefer(forward, selects, rng)
        if kind == "button":
            await alice.click(panel, custom_id=choice["custom_id"])
        else:
            select, option = choice
            await alice.select(panel, [option["value"]], custom_id=select["custom_id"])
    seen = public_text(thread) + "\n".join(r.getMessage() for r in caplog.records)
    for phrase in REEF_SECRETS:
        assert phrase not in seen
