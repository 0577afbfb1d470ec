"""Readable words (#22, 8 and 10): what a person reads in the results, the lobby, the
engines' sentences and the panel's menus — never an internal key, a wrong plural or
article, a score without a name, or a menu that looks already chosen."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

import engine
import i18n
from cogs.board import board_text
from cogs.lobby import lobby_embed
from cogs.panels import placeholder
from engine.base import article, key_words, listing, plural
from engine.bots import policy
from tests.discord.test_play import seat_and_start, world  # noqa: F401 - the fixture is used by name
from tests.play_helpers import results_message, take_turns

GAMES = ("haenyeo", "jeju", "reef")

#: An internal key: a word with an underscore, or letters run into digits ("round3").
INTERNAL_KEY = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[a-z]+\d+\b")
#: Counted nouns the engines use; "Seat 1 moves" is a verb, so a seat, zone, round, ruin or
#: location number just before the count is not a count.
NOUNS = "point|move|tile|card|egg|turtle egg|slot|coin|pearl|zone|pair|token|space|diver|set|player|shell"
NOT_A_COUNT = r"(?<!Seat )(?<!seat )(?<!zone )(?<!Zone )(?<!round )(?<!Round )(?<!ruin )(?<!location )"
ONE_MANY = re.compile(rf"{NOT_A_COUNT}(?<![\d.,+/-])\b1 (?:[a-z]+ )?(?:{NOUNS})s\b")
MANY_ONE = re.compile(rf"{NOT_A_COUNT}(?<![\d.,+/-])\b(?:0|[2-9]|\d\d+) (?:[a-z]+ )?(?:{NOUNS})\b(?![-\w])")
A_VOWEL = re.compile(r"\b[Aa] [AEIOU]\w")  # "a Orange", "a octopus"
SAME_RANGE = re.compile(r"\b(\d+) to \1\b")  # "zones 11 to 11", "drops on 4 to 4"


def grammar_problems(text: str) -> list[str]:
    """Every wrong plural, article or empty range in one sentence."""
    found = []
    for name, pattern in (
        ("one thing, plural", ONE_MANY),
        ("many things, singular", MANY_ONE),
        ("a before a vowel", A_VOWEL),
        ("a range of one", SAME_RANGE),
    ):
        found += [f"{name}: {m.group(0)!r} in {text!r}" for m in pattern.finditer(text)]
    return found


# ------------------------------------------------------------------ the helpers


def test_counts_articles_and_lists_read_right() -> None:
    assert plural(1, "point") == "1 point"
    assert plural(2, "point") == "2 points"
    assert plural(0, "point") == "0 points"
    assert plural(1, "die", "dice") == "1 die" and plural(3, "die", "dice") == "3 dice"
    assert article("Orange") == "an Orange" and article("octopus") == "an octopus"
    assert article("Cactus") == "a Cactus"
    assert listing([]) == "" and listing(["Alice"]) == "Alice"
    assert listing(["Alice", "Bob"]) == "Alice and Bob"
    assert listing(["Alice", "Bob", "Cy"]) == "Alice, Bob and Cy"
    assert key_words("turtle_eggs") == "Turtle eggs" and key_words("round3") == "Round 3"


def test_the_grammar_check_catches_what_the_issue_saw() -> None:
    """The check below must be able to fail: each phrase from issue #22 is caught."""
    issue = ("… and 1 earlier moves", "a Orange", "zones 11 to 11", "Alice 1 points", "1 cards in the deck")
    for bad in issue:
        assert grammar_problems(bad), bad
    for good in ("1 point", "an Orange", "zones 8 to 11", "Seat 1 moves the stack", "2 pairs of shells"):
        assert not grammar_problems(good), good


def test_a_board_with_one_hidden_move_says_move() -> None:
    lines = ["x" * 1990, "the newest line"]
    text = board_text("header", lines, 0, "Waiting for <@1>")
    assert "… and 1 earlier move (`/game log`)" in text


# ------------------------------------------------------------------ every game, played out


def play_outs(key: str):
    """Seeded play-outs of a game at every seat count (random and greedy bots): (states, events)."""
    game = engine.get(key)
    for seats in range(game.min_seats, min(game.max_seats, 5) + 1):
        for seed in range(2):
            rng = random.Random(seed)
            chooser = policy(key, "random" if seed else "greedy")
            events: list[dict] = []
            state = game.new(seats, seed)
            states = []
            while actors := game.to_act(state):
                seat = min(actors)
                states.append((state, seat))
                state, new = game.apply(state, seat, chooser(game, state, seat, rng))
                events += new
            yield seats, states, state, events


@pytest.mark.parametrize("key", GAMES)
def test_results_breakdown_and_every_sentence_are_in_words(key: str) -> None:
    game = engine.get(key)
    for seats, states, final, events in play_outs(key):
        result = game.result(final)
        # The results message's breakdown line, as Play.post_results writes it.
        for points in result.breakdown:
            line = " · ".join(f"{game.breakdown_label(k)}: {v}" for k, v in points.items() if k != "total")
            assert not INTERNAL_KEY.search(line) and "_" not in line, line
            assert all(k in result.labels and result.labels[k] != k for k in points), result.labels
        assert game.view(final, None)["result"]["labels"] == result.to_dict()["labels"]
        # Names (or seat words the cog turns into names) next to every score at the end.
        summary = game.summary(final)
        for seat, score in enumerate(result.scores if seats > 1 else ()):  # solo: "Final score 201: …"
            assert re.search(rf"\bSeat {seat + 1}\b[^,;.]*\b{score}\b", summary), summary
        notes = [i18n.english(note) for note in result.notes]  # a note is a message (or a string)
        texts = [e["text"] for e in events] + [game.summary(s) for s, _ in states[::7]] + notes
        texts += [summary]
        labels = {game.action_label(s, n, a) for s, n in states[::5] for a in game.legal_actions(s, n)}
        problems = [p for text in [*texts, *labels] for p in grammar_problems(text)]
        assert not problems, problems[:5]
        assert not [t for t in texts if "_" in t], [t for t in texts if "_" in t][:3]


def test_the_lobby_names_options_and_values_in_words() -> None:
    table = SimpleNamespace(
        id=7,
        game="reef",
        seats=(),
        host_id=1,
        options={"reef": "arcane-atoll", "tracker": "moonrise"},
        pace=0,
        status="lobby",
    )
    options = next(f for f in lobby_embed(table).fields if f.name == "Options")
    assert options.value == "Reef: Arcane Atoll, Round tracker: Moonrise side"
    haenyeo = engine.get("haenyeo")
    assert haenyeo.option_label("score_tile") == "Score tile"
    assert haenyeo.option_label("score_tile", "random") == "Random"
    for key in GAMES:
        game = engine.get(key)
        for name, values in game.options.items():
            for words in (game.option_label(name), *(game.option_label(name, v) for v in values)):
                assert "_" not in words and "-" not in words and words[:1].isupper(), words


# ------------------------------------------------------------------ menus


def test_a_menu_placeholder_names_the_decision() -> None:
    assert placeholder("Travel") == "Travel: choose one…"
    assert placeholder("Travel", 1, 2) == "Travel (2 of 2): choose one…"
    assert placeholder("") == "Choose a move: choose one…"


async def test_a_game_through_the_ui_reads_in_words_and_menus_never_look_chosen(world, simcord_env):  # noqa: F811
    """A person plays Jeju Island against a bot: every menu the bot sent has a placeholder
    and no default option, and the results name each player beside words, not keys."""
    guild, channel, people = world
    alice = people[0]
    thread = await seat_and_start(channel, alice, [], 1, "jeju")
    results = await take_turns(thread, {alice.id: alice}, random.Random(5))
    assert results is not None and results.id == results_message(thread).id
    description = results.embeds[0].description
    assert "Point cards: " in description and "Points for leftover tiles: " in description
    assert not INTERNAL_KEY.search(description.replace(alice.name, "")), description
    assert alice.name in description
    selects = [
        item
        for entry in simcord_env.http_requests
        if isinstance(entry.json, dict)
        for row in (entry.json.get("components") or (entry.json.get("data") or {}).get("components") or [])
        for item in row.get("components", [])
        if item.get("type") == 3
    ]
    panels = [s for s in selects if str(s.get("custom_id", "")).startswith("pick:")]
    assert panels, "the game offered no menu in a panel"
    for select in panels:
        assert select.get("placeholder", "").endswith(": choose one…"), select.get("placeholder")
        assert not any(option.get("default") for option in select["options"]), select
