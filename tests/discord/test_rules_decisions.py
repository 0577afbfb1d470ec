"""Issue #40: `/rules` and the results say, in a player's words, every decision that changes play or scores.

A player who reads `/rules` (in English or Korean) should never be surprised by the engine: the First
Player marker (Haenyeo: drawn, then it stays; passing it is a house rule), "most sea urchins" with none
collected, Reef & Ruins' lucky-number picking order, its 18 rounds and the shells rule.
"""

from __future__ import annotations

import random

import pytest

import engine
import i18n
from engine.bots import play_out
from engine.haenyeo.ai import POLICIES as HAENYEO_BOTS
from engine.haenyeo.components import C
from engine.reef.ai import POLICIES as REEF_BOTS
from simtools.strict import set_locale
from tests.play_helpers import controls

#: Per game and language: the words each decision is said in.
DECISIONS = {
    ("haenyeo", "en"): [
        "drawn at random, then **keeps the marker all game**",
        "④ Prepare Next Round does not list passing the marker",
        "Lobby house rule: **Passes clockwise**",
        "**Most sea urchins with none:** if the most anyone has is 0, nobody scores the 15",
        "**A First Player marker that stays favours its holder.**",  # the figures
    ],
    ("haenyeo", "ko"): [
        "**게임 내내 표식을 가지고 있습니다**",
        "대기실의 규칙 변형: **시계 방향으로 넘김**",
        "**성게가 하나도 없을 때의 성게 최다:**",
        "**표식이 그대로 있으면 선 플레이어가 유리합니다.**",
    ],
    ("reef", "en"): [
        "**18 rounds.**",
        "**Lucky numbers in seat order:** seat 1 picks first",
        "**No highest value for a die changed by shells**, nothing below 0, no wrap",
        "a 6 with three pairs is a 9",
        "never wraps (6+1 = 7, 1−1 = 0)",
    ],
    ("reef", "ko"): [
        "**18라운드.**",
        "**행운의 숫자는 자리 순서대로:** 1번 자리가 먼저",
        "**조개껍데기로 바꾼 주사위 값에는 최댓값이 없습니다.**",
        "6에 세 쌍을 쓰면 홀수인 9가 됩니다",
    ],
}


async def read_every_page(member, channel, game: str, next_label: str) -> str:
    """Run /rules for ``game`` and press Next to the last page; every page's words."""
    result = await member.slash(channel, "rules", game=game)
    assert result.ephemeral
    shown = result.response
    pages = []
    while True:
        embed = shown.embeds[0]
        pages.append(f"{embed.title}\n{embed.description}")
        buttons, _ = controls(shown)
        button = next(b for b in buttons if b.get("label") == next_label)
        if button.get("disabled"):
            return "\n".join(pages)
        clicked = await member.click(shown, label=next_label)
        shown = clicked.response if clicked.response and clicked.response.embeds else clicked.followups[0]


@pytest.mark.parametrize("game", ["haenyeo", "reef"])
@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_rules_say_every_decision(simcord_env, game, lang):
    guild = simcord_env.create_guild("Jeju Friends")
    channel = guild.create_text_channel("games")
    reader = guild.add_member(simcord_env.create_user("reader"))
    if lang == "ko":
        set_locale(simcord_env, reader, "ko")
    text = await read_every_page(reader, channel, game, "Next ▶" if lang == "en" else "다음 ▶")
    for words in DECISIONS[(game, lang)]:
        assert words in text, f"/rules {game} ({lang}) does not say {words!r}"


def _finished(game_key: str, seats: int, seed: int, options: dict | None):
    game = engine.get(game_key)
    bots = HAENYEO_BOTS if game_key == "haenyeo" else REEF_BOTS
    return game, play_out(
        game, game.new(seats, seed, options), lambda _s: bots["greedy"], random.Random(seed)
    )


def test_haenyeo_results_say_who_kept_the_marker_and_the_house_rule():
    game, final = _finished("haenyeo", 3, 4, None)
    notes = [i18n.english(n) for n in game.result(final).notes]
    assert f"Seat {final.first + 1} was First Player all game" in " ".join(notes)
    game, final = _finished("haenyeo", 3, 4, {"first_player": "clockwise"})
    notes = [i18n.english(n) for n in game.result(final).notes]
    assert "House rule: the First Player marker passed clockwise every round." in notes
    korean = [i18n.words("ko").msg(n) for n in game.result(final).notes]
    assert any("규칙 변형" in note for note in korean)


def test_haenyeo_results_say_the_sea_urchin_reading_when_the_tile_scores_it():
    game = engine.get("haenyeo")
    for tile in C.tiles:  # every shipped tile scores "Most sea urchins" in some round
        assert any(C.rules[key].kind == "most" for keys in tile.rounds.values() for key in keys)
        _, final = _finished("haenyeo", 2, 1, {"score_tile": tile.name})
        said = [i18n.english(n) for n in game.result(final).notes]
        assert "Most sea urchins: nobody scores it while the most anyone has is none." in said


def test_reef_results_say_the_rounds_the_lucky_numbers_and_the_shells_rule():
    game, final = _finished("reef", 2, 3, None)
    said = " ".join(i18n.english(n) for n in game.result(final).notes)
    assert "18 rounds" in said and "lucky numbers picked in seat order" in said
    assert "no highest value, never below 0 and never wrapping" in said
