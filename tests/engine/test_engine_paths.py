"""The engine's speed must not change the game: events said lazily read as before.

Events say their English ``text`` only when someone reads it (`engine.base.Said`); every way
of reading one must see the plain event it replaces, key order included.
"""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest

import engine
import i18n
from engine.base import event, without_text
from engine.bots import policy

GAMES = ("haenyeo", "jeju", "reef")


def eager(e: dict) -> dict:
    """The plain event as the engine built it before text was said lazily."""
    rest = {k: v for k, v in dict.items(e) if k not in ("type", "say")}
    return {"type": e["type"], "text": i18n.english(e["say"]), "say": e["say"], **rest}


READS = {
    "json": lambda e: json.dumps(e),
    "json sorted": lambda e: json.dumps(e, sort_keys=True),
    "json indented": lambda e: json.dumps(e, indent=1),
    "keys": lambda e: list(e),
    "items": lambda e: list(e.items()),
    "values": lambda e: list(e.values()),
    "len": len,
    "repr": repr,
    "dict": lambda e: dict(e),
    "unpacked": lambda e: {**e},
    "merged": lambda e: {"x": 1} | e,
    "copy": lambda e: e.copy(),
    "deepcopy": copy.deepcopy,
    "pickle": lambda e: pickle.loads(pickle.dumps(e)),
    "text": lambda e: e["text"],
    "get text": lambda e: e.get("text", ""),
    "has text": lambda e: "text" in e,
}


def test_a_lazy_event_reads_every_way_as_the_plain_one() -> None:
    message = i18n.say("{name} takes {count} pearls.", name=i18n.seat(2), count=3)
    for read in READS.values():
        lazy = event("gain", message, seat=2, private=True)
        plain = {"type": "gain", "text": "Seat 3 takes 3 pearls.", "say": message, "seat": 2, "private": True}
        assert read(lazy) == read(plain)
    lazy = event("gain", message, seat=2)
    assert lazy == {"type": "gain", "text": "Seat 3 takes 3 pearls.", "say": message, "seat": 2}
    assert [lazy] != [{"type": "gain", "say": message, "seat": 2}]


def test_inside_without_text_events_have_no_text() -> None:
    with without_text():
        quiet = event("gain", i18n.say("Nothing."))
    assert quiet == {"type": "gain", "say": i18n.say("Nothing.")} and "text" not in quiet


@pytest.mark.parametrize("key", GAMES)
def test_played_events_say_what_they_said_before(key: str) -> None:
    """A random game's events, each read a different way, match their eager form."""
    game = engine.get(key)
    rand = policy(key, "random")
    rng = random.Random(5)
    state = game.new(2 if key != "reef" else 1, seed=5)
    reads = list(READS.values())
    count = 0
    while seats := game.to_act(state):
        seat = min(seats)
        state, events = game.apply(state, seat, rand(game, state, seat, rng))
        for e in events:
            read = reads[count % len(reads)]
            assert read(e) == read(eager(e)), (key, e)
            count += 1
    assert count > 100


#: (game, seats, options) the fast path is replayed at: every seat count and table option value.
TABLES = [
    ("haenyeo", 2, {}),
    ("haenyeo", 4, {"first_player": "clockwise", "score_tile": "Winter Wind"}),
    ("haenyeo", 5, {}),
    ("jeju", 2, {}),
    ("jeju", 3, {}),
    ("jeju", 4, {}),
    ("reef", 1, {}),
    ("reef", 2, {"reef": "arcane-atoll", "tracker": "moonrise"}),
    ("reef", 4, {"reef": "arcane-atoll"}),
]


@pytest.mark.parametrize(("key", "seats", "options"), TABLES)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_fast_path_plays_the_same_game(key: str, seats: int, options: dict, seed: int) -> None:
    """Two random games from one seed, one through `apply` (events and checks) and one through
    `advance` (search play-outs' path): every state, every seat owing a move and every legal
    move are the same, move for move to the end, and `advance` never changes its input."""
    game = engine.get(key)
    rand = policy(key, "random")
    assert all(value in game.options[name] for name, value in options.items())
    slow = fast = game.new(seats, seed=seed, options=options)
    slow_rng, fast_rng = random.Random(seed), random.Random(seed)
    moves = 0
    while seats_to_act := game.to_act(slow):
        assert game.to_act(fast) == seats_to_act
        seat = min(seats_to_act)
        assert game.legal_actions(fast, seat) == game.legal_actions(slow, seat)
        slow, _ = game.apply(slow, seat, rand(game, slow, seat, slow_rng))
        before = game.dump_state(fast)
        played = game.advance(fast, seat, rand(game, fast, seat, fast_rng))
        assert game.dump_state(fast) == before, "advance changed the state it was given"
        fast = played
        assert game.dump_state(fast) == game.dump_state(slow), f"{key}: the paths part at move {moves}"
        moves += 1
    assert not game.to_act(fast) and moves > 20
    assert game.result(fast) == game.result(slow)


def test_jeju_payments_counted_by_type_are_those_found_space_by_space() -> None:
    """Jeju's quick payment count (`payments`) finds exactly the payments, in the same order, as
    trying each printed space's tile or a joker and every fill of the ``?`` spaces."""
    from engine.jeju import rules
    from engine.jeju.components import CARDS, NTYPES

    rng = random.Random(3)
    found = 0
    for card in CARDS:
        for _ in range(60):
            hand = tuple(rng.choice((0, 0, 1, 1, 2, 3, 5)) for _ in range(NTYPES))
            waive = tuple(rng.choice((0, 0, 0, 1)) for _ in range(NTYPES))
            quick = rules.payments.__wrapped__(card, hand, waive)
            assert quick == rules.payments_by_spaces(card, hand, waive), (card, hand, waive)
            found += len(quick) > 1
    assert found > 100  # many hands could pay in more than one way
