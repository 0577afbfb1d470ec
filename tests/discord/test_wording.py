"""Words as players read them (issue #41.8): every bot level shown the same way, in both
languages, and no capital letter in the middle of a sentence."""

from __future__ import annotations

import random
import re

import pytest

import engine
import i18n
from hosting.service import BOT_LEVELS, seat_name
from tests.discord.test_lobby import fetch, open_table, seated

LEVELS = {"easy": "쉬움", "normal": "보통", "expert": "고수", "master": "달인"}


@pytest.mark.parametrize("locale", ["en-US", "ko"])
async def test_the_lobby_shows_every_bots_level_the_same_way(simcord_env, locale):
    owner = simcord_env.create_user("alice")
    guild = simcord_env.create_guild("Friends", preferred_locale=locale, owner=owner)
    channel = guild.create_text_channel("games")
    alice = guild.add_member(owner)
    _, lobby, thread = await open_table(channel, alice, game="reef")  # room for a bot of every level
    table = int(lobby.embeds[0].title.rsplit("#", 1)[1])
    for level in LEVELS:
        await alice.select(fetch(thread, lobby.id), [level], custom_id=f"lobbyset:level:{table}")
    lines = [line for line in seated(fetch(thread, lobby.id)).splitlines() if "🤖" in line]
    assert len(lines) == len(LEVELS)
    for line, (level, korean) in zip(lines, LEVELS.items(), strict=True):
        assert line.endswith(f"({korean if locale == 'ko' else level})"), line  # a Normal bot too


def test_seat_names_say_each_level_in_both_languages():
    for level, korean in LEVELS.items():
        assert seat_name(f"Bot Dol ({level})") == f"Bot Dol ({level})"
        assert seat_name(f"Bot Dol ({level})", "ko") == f"Bot Dol ({korean})"
    assert set(LEVELS) == set(BOT_LEVELS)


def haenyeo_event_texts(seeds: int = 12) -> list[str]:
    """The English text of every event of random Haenyeo games with the NPC (2 players)."""
    game, texts = engine.get("haenyeo"), []
    for seed in range(seeds):
        rng = random.Random(seed)
        state = game.new(2, seed, {})
        while game.result(state) is None:
            seat = rng.choice(sorted(game.to_act(state)))
            state, events = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            texts += [i18n.english(e["say"]) if "say" in e else e.get("text", "") for e in events]
    return texts


def test_the_npc_has_no_capital_in_the_middle_of_a_sentence():
    texts = haenyeo_event_texts()
    assert any("the NPC" in t for t in texts), "no sentence named the NPC mid-way: the test saw nothing"
    mid_sentence = re.compile(r"[^.!?\s]\s+The NPC|[:,]\s+The NPC")
    assert not [t for t in texts if mid_sentence.search(t)]
