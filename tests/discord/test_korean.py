"""한국어: a Korean player in a Korean server plays a whole game in Korean.

Discord says who reads which language: each interaction carries the clicking
user's client language (``locale``) and the server's (``guild_locale``); the
strict layer sends them as Discord does (rule 8, `simtools.strict.set_locale`).
Public messages speak the server's language, ephemeral ones the user's: so an
English player at the same Korean table gets English panels. The tests click by
``custom_id`` (what a button does), not by label, since labels are translated.
"""

from __future__ import annotations

import random
import re

import pytest
from simcord.backend.errors import SetupError

from simtools.strict import set_locale
from tests.discord.test_lobby import open_table
from tests.play_helpers import awaited, latest_board, messages, play_panel, results_message

HANGUL = re.compile(r"[\uac00-\ud7a3]")
MENTION = re.compile(r"<@!?&?\d+>|<t:\d+:[a-zA-Z]>")


@pytest.fixture
def korean_world(simcord_env):
    """A Korean server: 지수 (Korean client, the owner) and bob (English client)."""
    jisu_user = simcord_env.create_user("jisu")
    guild = simcord_env.create_guild("제주 친구들", preferred_locale="ko", owner=jisu_user)
    channel = guild.create_text_channel("games")
    jisu = guild.add_member(jisu_user)
    bob = guild.add_member(simcord_env.create_user("bob"))
    set_locale(simcord_env, jisu, "ko")
    return simcord_env, guild, channel, jisu, bob


def component_texts(message) -> list[str]:
    """Every button label, select placeholder and option label/description of a message."""
    found = []
    for row in message.components:
        for item in getattr(row, "children", None) or row.get("components", []):
            item = item if isinstance(item, dict) else item.to_dict()
            found += [item.get("label") or "", item.get("placeholder") or ""]
            for option in item.get("options") or []:
                found += [option.get("label") or "", option.get("description") or ""]
    return [text for text in found if text.strip()]


def words_of(message) -> list[str]:
    """Everything a person reads on a message: content, embeds, components, pictures' alt text."""
    found = [message.content or ""]
    for embed in message.embeds:
        found += [
            embed.title or "",
            embed.description or "",
            (embed.footer.text if embed.footer else "") or "",
        ]
        found += [f"{field.name} {field.value}" for field in embed.fields]
    found += component_texts(message)
    found += [a.description or "" for a in message.attachments]
    return [text for text in found if text.strip()]


def readable(text: str) -> str:
    """The words of ``text`` without mentions, timestamps, emoji, digits and the players' names."""
    text = MENTION.sub("", text)
    for name in ("jisu", "bob", "Bot Dol", "Bot"):
        text = text.replace(name, "")
    return re.sub(r"[^A-Za-z\uac00-\ud7a3]", "", text)


def korean(text: str) -> bool:
    """Said in Korean: it has Hangul, and any Latin letters left are few (a word like "NPC")."""
    letters = readable(text)
    latin = sum(char.isascii() for char in letters)
    return not letters or (HANGUL.search(letters) is not None and latin <= max(3, len(letters) // 4))


def english(text: str) -> bool:
    return HANGUL.search(readable(text)) is None


from tests.discord.test_discord_limits import click_id  # noqa: E402  (by custom_id: labels are translated)


async def test_a_korean_table_plays_in_korean_and_an_english_player_reads_english_panels(korean_world):
    env, guild, channel, jisu, bob = korean_world
    reply, lobby, thread = await open_table(channel, jisu, game="haenyeo")
    assert all(korean(text) for text in words_of(lobby)), words_of(lobby)
    await bob.click(lobby, custom_id=click_id(lobby, "lobby:join:"))
    await jisu.click(lobby, custom_id=click_id(lobby, "lobby:start:"))
    members = {jisu.id: jisu, bob.id: bob}
    rng = random.Random(5)
    panels = {jisu.id: [], bob.id: []}
    for _ in range(400):
        if results_message(thread) is not None:
            break
        board = latest_board(thread)
        member = members[next(uid for uid in awaited(board) if uid in members)]
        opened = await member.click(board, custom_id=click_id(board, "board:hand:"))
        panel = opened.followups[0] if opened.followups else opened.response
        panels[member.id].append(words_of(panel))
        await play_panel(member, panel, rng)
    results = results_message(thread)
    assert results is not None, "the game did not finish"

    public = [text for message in messages(thread) for text in words_of(message)]
    not_korean = [text for text in public if not korean(text)]
    assert not not_korean, f"public messages not in Korean: {not_korean[:5]}"
    assert any("라운드" in text for text in public)  # the rounds' scoring lines, in Korean
    for seen in panels[jisu.id]:
        assert seen and all(korean(text) for text in seen), seen
    for seen in panels[bob.id]:
        assert seen and all(english(text) for text in seen), seen
    assert panels[jisu.id] and panels[bob.id]


async def test_errors_and_commands_answer_in_the_users_language(korean_world):
    env, guild, channel, jisu, bob = korean_world
    _, lobby, thread = await open_table(channel, jisu, game="jeju")
    refused = await jisu.click(lobby, custom_id=click_id(lobby, "lobby:start:"))  # alone: too few players
    answer = refused.followups[0].content if refused.followups else refused.response.content
    assert korean(answer), answer
    refused = await bob.click(lobby, custom_id=click_id(lobby, "lobby:leave:"))  # not seated
    answer = refused.followups[0].content if refused.followups else refused.response.content
    assert english(answer) and answer, answer
    rules = await jisu.slash(channel, "rules", game="reef")
    assert rules.ephemeral and all(korean(text) for text in words_of(rules.response))
    rules = await bob.slash(channel, "rules", game="reef")
    assert rules.ephemeral and all(english(text) for text in words_of(rules.response))


async def test_an_admin_switches_the_server_to_english_and_a_player_keeps_korean_for_themselves(korean_world):
    env, guild, channel, jisu, bob = korean_world
    with pytest.raises(SetupError, match="not visible"):  # Discord shows /settings only to Manage Server
        await bob.slash(channel, "settings", language="en")
    _, lobby, _ = await open_table(channel, jisu, game="jeju")
    assert all(korean(text) for text in words_of(lobby))

    answer = await jisu.slash(channel, "settings", language="en")
    assert answer.ephemeral
    _, lobby, _ = await open_table(channel, bob, game="jeju")
    assert all(english(text) for text in words_of(lobby)), words_of(lobby)
    rules = await jisu.slash(channel, "rules", game="jeju")  # her own answers stay in Korean
    assert all(korean(text) for text in words_of(rules.response))

    await bob.slash(channel, "language", language="ko")  # bob chooses Korean for himself
    rules = await bob.slash(channel, "rules", game="jeju")
    assert all(korean(text) for text in words_of(rules.response))
    await jisu.slash(channel, "settings", language="discord")  # back to Discord's server language
    carol = guild.add_member(env.create_user("carol"))  # an English client
    _, lobby, _ = await open_table(channel, carol, game="reef")
    assert all(korean(text) for text in words_of(lobby))
