"""A searching bot models each seat as what plays it (issue #39): a bot seat as its level, a person
by their moves at the table (`hosting.readings`) and by their record at the game
(`hosting.ratings.observed_level`), on both stores.

Ann and Bob play six rated games of the tiny test game, which Ann wins every time; then a table
of Ann, Bob, Cy (new here) and an expert bot asks how the expert's search sees its seats.
Then Ann plays Jeju Island against an expert bot making any move at all, and Haenyeo making the
expert's own moves.
"""

from __future__ import annotations

import random

import engine
from engine.base import without_text
from engine.bots import policy
from hosting import ratings
from hosting.service import TableService
from tests.hosting.test_store import backend, service, store  # noqa: F401 (the store fixtures, both backends)

ANN, BOB, CY = 100, 101, 102
#: A Haenyeo table where Ann's expert moves leave the expert's own card sets often enough to tell.
HAENYEO_SEED = 3000


async def ann_beats_bob(service: TableService) -> None:  # noqa: F811 (the fixture's name)
    """One game of Take-away to the end: Ann leaves a multiple of four when she can, Bob takes one."""
    table = await service.create_table(
        game_key="takeaway", guild_id=1, channel_id=2, host_id=ANN, host_name="Ann"
    )
    await service.join(table.id, BOB, "Bob")
    table = await service.start(table.id, ANN)
    while table.status == "active":
        state = service.state_of(table)
        game = engine.get(table.game)
        (seat,) = game.to_act(state)
        actions = game.legal_actions(state, seat)
        winning = [a for a in actions if (state.pile - a.count) % 4 == 0]
        action = (winning or actions)[0] if seat == 0 else actions[0]
        table = (await service.submit_action(table.id, seat, action, table.version)).table
    assert table.result["ranking"] == [1, 2]


async def test_people_are_modelled_by_their_record_and_bots_by_their_level(service):  # noqa: F811
    for _ in range(ratings.PROVISIONAL_GAMES + 1):
        await ann_beats_bob(service)
    (ann,) = await service.ratings_of(ANN)
    (bob,) = await service.ratings_of(BOB)
    assert not ann.provisional and ratings.observed_level(ann) == "expert"
    assert not bob.provisional and ratings.observed_level(bob) == "beginner"

    table = await service.create_table(
        game_key="takeaway", guild_id=1, channel_id=3, host_id=ANN, host_name="Ann"
    )
    await service.join(table.id, BOB, "Bob")
    await service.join(table.id, CY, "Cy")
    table = await service.add_bot(table.id, ANN, "expert")
    assert await service.seat_models(table, "expert") == ("expert", "beginner", None, "expert")
    assert await service.seat_models(table, "master") == ("expert", "beginner", None, "expert")
    # A policy that searches nobody is told only what the bots are.
    assert await service.seat_models(table, "greedy") == (None, None, None, "expert")


def test_a_record_says_nothing_while_provisional_or_ordinary():
    new = ratings.initial(ANN, "haenyeo")
    assert ratings.observed_level(None) is None
    assert ratings.observed_level(new) is None
    settled = ratings.PROVISIONAL_GAMES
    strong = ratings.Rating(ANN, "haenyeo", new.mu + ratings.MODEL_MARGIN_MU, 4.0, settled)
    assert ratings.observed_level(strong) == "expert"
    assert ratings.observed_level(ratings.Rating(ANN, "haenyeo", strong.mu, 4.0, settled - 1)) is None
    assert ratings.observed_level(ratings.Rating(ANN, "haenyeo", new.mu + 1, 4.0, settled)) is None
    weak = ratings.Rating(ANN, "haenyeo", new.mu - ratings.MODEL_MARGIN_MU, 4.0, settled)
    assert ratings.observed_level(weak) == "beginner"


async def test_a_person_who_makes_any_move_at_all_is_modelled_as_random(store):  # noqa: F811
    hosting = TableService(store, clock=lambda: 1_000.0, new_seed=lambda: 3001)
    table = await hosting.create_table(
        game_key="jeju", guild_id=1, channel_id=4, host_id=ANN, host_name="Ann"
    )
    table = await hosting.add_bot(table.id, ANN, "expert")
    table = await hosting.start(table.id, ANN)
    ann = table.seat_of(ANN).seat
    bot = 1 - ann
    game, rng, greedy = engine.get("jeju"), random.Random(2), policy("jeju", "greedy")
    early = "not asked"
    while table.status == "active":
        state = hosting.state_of(table)
        seat = min(game.to_act(state))
        with without_text():
            if seat == ann:
                action = rng.choice(game.legal_actions(state, seat))
            else:  # the bot seat's moves, quickly: what the expert makes of Ann is what is asked
                action = greedy(game, state, seat, rng)
        table = (await hosting.submit_action(table.id, seat, action, table.version)).table
        if table.moves == 10:
            early = (await hosting.seat_models(table, "expert"))[ann]
    assert early is None  # a few moves say nothing yet; a whole game says she plays at random
    models = [None, None]
    models[ann], models[bot] = "random", "expert"
    assert await hosting.seat_models(table, "expert") == tuple(models)
    # A restarted bot reads her moves again from the table's log.
    again = TableService(store, clock=lambda: 1_000.0)
    assert await again.seat_models(table, "expert") == tuple(models)


async def test_a_person_who_dives_as_the_expert_would_is_modelled_as_an_expert(store):  # noqa: F811
    hosting = TableService(store, clock=lambda: 1_000.0, new_seed=lambda: HAENYEO_SEED)
    table = await hosting.create_table(
        game_key="haenyeo", guild_id=1, channel_id=5, host_id=ANN, host_name="Ann"
    )
    table = await hosting.add_bot(table.id, ANN, "expert")
    table = await hosting.start(table.id, ANN)
    ann = table.seat_of(ANN).seat
    bot = 1 - ann
    game, rng = engine.get("haenyeo"), random.Random(2)
    expert, greedy = policy("haenyeo", "expert"), policy("haenyeo", "greedy")
    while table.status == "active":
        state = hosting.state_of(table)
        seat = min(game.to_act(state))
        with without_text():  # Ann chooses as the expert would; the bot seat quickly, as greedy
            action = (expert if seat == ann else greedy)(game, state, seat, rng)
        table = (await hosting.submit_action(table.id, seat, action, table.version)).table
    models = [None, None]
    models[ann], models[bot] = "expert", "expert"
    assert await hosting.seat_models(table, "expert") == tuple(models)
