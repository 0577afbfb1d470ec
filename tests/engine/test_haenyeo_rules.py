"""Haenyeo rule scenarios, straight from the rulebook's sections and examples."""

from __future__ import annotations

import random

import pytest

import engine
from engine.base import IllegalAction
from engine.haenyeo import actions as A
from engine.haenyeo import rules
from engine.haenyeo.ai import POLICIES
from engine.haenyeo.components import EGG, FREE, N_SEAFOOD, NPC, TRASH0, C
from engine.haenyeo.rules import PEND_HARVEST, PEND_SEAFOOD, PEND_TRASH, PEND_ZONE0

GAME = engine.get("haenyeo")


def choose(state, picks: dict[int, list[int]]):
    """Every seat in ``picks`` toggles its cards and confirms; returns (state, events of the last move)."""
    events: list = []
    for seat, zones in picks.items():
        for zone in zones:
            state, events = GAME.apply(state, seat, A.ToggleCard(zone))
        state, events = GAME.apply(state, seat, A.Confirm())
    return state, events


def fresh(seats: int = 3, seed: int = 1, first: int = 0, shallow: str | None = None):
    """A new game with a chosen First Player and (optionally) a chosen round-1 shallow card."""
    state = GAME.new(seats, seed).copy()
    state.first = first
    if shallow is not None:
        index = [cid for cid, _ in C.shallow_cards].index(shallow)
        order = [index, *[i for i in state.shallow if i != index]]
        state.shallow = tuple(order)
        state.taken = rules.fresh_taken(state)
    return state


def sheet_totals(items: list[int]) -> tuple[list[int], int, int]:
    food = [0] * N_SEAFOOD
    eggs = 0
    trash = 0
    for item in items:
        if item < N_SEAFOOD:
            food[item] += 1
        elif item == EGG:
            eggs += 1
        else:
            trash |= 1 << (item - TRASH0)
    return food, eggs, trash


def with_eggs(state, seat: int, eggs: int, pearls: int = 0):
    state = state.copy()
    state.eggs = rules._put(state.eggs, seat, eggs)
    state.pearls = rules._put(state.pearls, seat, pearls)
    return state


# ------------------------------------------------------------------ setup


def test_setup_is_from_the_seed_and_gives_each_player_two_active_haenyeo():
    a, b = GAME.new(4, 7), GAME.new(4, 7)
    assert a == b
    assert sorted(a.shallow) == list(range(len(C.shallow_cards)))
    assert sorted(a.deep) == list(range(len(C.deep_cards)))
    assert a.pawns == (2, 2, 2, 2) and a.third == (0, 0, 0, 0)
    assert a.round == 1 and a.phase == "select" and 0 <= a.first < 4
    tiles = {GAME.new(4, seed).tile for seed in range(40)}
    assert tiles == {0, 1, 2, 3}, "every score tile can be drawn"
    assert GAME.new(3, 5, {"score_tile": "Winter Wind"}).tile == 3


def test_seat_counts_outside_two_to_five_are_refused():
    for seats in (1, 6):
        with pytest.raises(IllegalAction):
            GAME.new(seats, 1)


# ------------------------------------------------------------------ ① select


def test_select_exactly_as_many_cards_as_active_haenyeo():
    state = fresh(3)
    state, _ = GAME.apply(state, 0, A.ToggleCard(4))
    assert A.CONFIRM not in GAME.legal_actions(state, 0)
    state, _ = GAME.apply(state, 0, A.ToggleCard(6))
    legal = GAME.legal_actions(state, 0)
    assert set(legal) == {A.ToggleCard(4), A.ToggleCard(6), A.CONFIRM}
    with pytest.raises(IllegalAction, match="put one back"):
        GAME.apply(state, 0, A.ToggleCard(7))


def test_a_confirmed_seat_may_change_its_mind_until_everyone_has_confirmed():
    state = fresh(3)
    state, _ = choose(state, {0: [1, 2]})
    assert GAME.to_act(state) == {1, 2}
    state, events = GAME.apply(state, 0, A.ToggleCard(2))
    assert GAME.to_act(state) == {0, 1, 2}
    assert any(e["type"] == "unconfirm" for e in events)
    state, _ = choose(state, {0: [3]})
    state, _ = choose(state, {1: [4, 5]})
    assert state.phase == "select"
    state, events = choose(state, {2: [6, 7]})
    assert state.round == 2, "the reveal (here with the whole round) follows the last confirm"
    assert [e["text"] for e in events if e["type"] == "reveal"] == [
        "Seat 1 dives to zones 1 and 3.",
        "Seat 2 dives to zones 4 and 5.",
        "Seat 3 dives to zones 6 and 7.",
    ]


def test_moves_out_of_turn_or_not_offered_are_illegal():
    state = fresh(3)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, A.CONFIRM)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, A.Harvest(0))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 7, A.ToggleCard(1))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, "dive!")


# ------------------------------------------------------------------ ② deploy and connection


def test_card_three_puts_the_turtle_in_zone_two():
    state = with_eggs(fresh(3), 0, 1)  # an egg to spend keeps the round waiting at zone 0
    state, _ = choose(state, {0: [3, 0], 1: [1, 0], 2: [0, 4]})
    assert state.pending == (PEND_ZONE0, 0)
    view = GAME.view(state, None)
    assert view["zones"][2]["creatures"] == [{"kind": "turtle", "owner": 0}]
    assert view["zones"][3]["divers"] == [0]
    assert C.creatures[3] == "turtle"


def test_connection_example_zone_8_empty_disconnects_everything_deeper():
    # Zones 1-7 hold a Haenyeo or creature, zone 8 is empty, a Haenyeo dives to 10.
    state = with_eggs(fresh(4), 3, 1)
    state, events = choose(state, {0: [1, 3], 1: [5, 7], 2: [10, 0], 3: [0, 1]})
    assert state.reach == 7 and state.pending == (PEND_ZONE0, 3)
    assert any(e["text"] == "Zone 8 is empty: zones 8 to 11 are disconnected this round." for e in events)
    view = GAME.view(state, None)
    assert [z["connected"] for z in view["zones"]] == [True] * 8 + [False] * 4
    assert view["zones"][9]["creatures"], "the creature of card 10 sits in zone 9 but zone 8 is empty"
    seen = []
    while state.round == 1:
        (seat,) = GAME.to_act(state)
        assert seat != 2 or state.zone == 0, "the disconnected Haenyeo is never asked to act"
        state, events = GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])
        seen.extend(events)
        if state.round == 1:
            assert all(owner == FREE for owner in state.taken[10])
    assert any(e["text"] == "Zone 10 is disconnected: Seat 3 cannot act." for e in seen)
    assert not any(e.get("zone") == 10 and e["type"].startswith("harvest") for e in seen)


def test_zone_zero_never_breaks_the_connection():
    _occupied, reach = rules.connection(0b1 | 0b110, 0)
    assert reach == 2
    assert rules.connection(0b1, 0)[1] == 0


def play_round(state, pick_first: bool = True):
    """Resolve phase ③ choosing the first option each time; return the state when the round is over."""
    round_no = state.round
    while state.phase == "actions" and state.round == round_no:
        (seat,) = GAME.to_act(state)
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0 if pick_first else -1])
    return state


# ------------------------------------------------------------------ ③ harvest


def test_a_lone_haenyeo_harvests_everything_in_her_zone():
    state = fresh(3, seed=3)
    sea = rules.rows(state)
    state, _ = choose(state, {0: [1, 2], 1: [3, 0], 2: [4, 5]})
    assert state.phase == "select" and state.round == 2, "nobody had a choice to make"
    items = [i for zone in (1, 2) for slot in sea[zone] for i in slot]
    food, eggs, trash = sheet_totals(items)
    assert list(state.food[0]) == food
    assert state.eggs[0] == eggs and state.trash[0] == trash


def test_a_slot_with_two_seafood_gives_both():
    cid, card = next((cid, card) for cid, card in C.shallow_cards if any(len(slot) == 2 for slot in card[1]))
    state = fresh(3, seed=2, shallow=cid)
    state, _ = choose(state, {0: [1, 0], 1: [0, 2], 2: [0, 3]})
    seafood_slots = [slot for slot in card[1] if slot[0] < N_SEAFOOD]
    seafood_items = sum(len(slot) for slot in seafood_slots)
    assert seafood_items > len(seafood_slots)
    assert sum(state.food[0]) == seafood_items


def test_several_haenyeo_take_turns_clockwise_from_the_first_player():
    cid = next(cid for cid, card in C.shallow_cards if len(set(card[1])) == len(card[1]) == 3)
    for first, order in ((0, [0, 1]), (1, [1, 0])):
        state = fresh(3, first=first, shallow=cid)
        state, _ = choose(state, {0: [1, 0], 1: [1, 0], 2: [0, 11]})
        assert state.pending == (PEND_HARVEST, order[0]) and state.zone == 1
        state, _ = GAME.apply(state, order[0], A.Harvest(2))
        assert state.pending == (PEND_HARVEST, order[1])
        assert GAME.legal_actions(state, order[1]) == [A.Harvest(0), A.Harvest(1)]
        state, events = GAME.apply(state, order[1], A.Harvest(0))
        assert [(e["actor"], e["slot"]) for e in events if e["type"] == "harvest"] == [(order[1], 0)]
        assert state.round == 2


def test_shared_zone_each_haenyeo_takes_one_slot():
    """Rulebook: "Multiple Haenyeo in a zone take turns clockwise from the First Player. Each chooses a slot
    and harvests the 1 item shown. ... Repeat until all slots are taken or all Haenyeo have acted."
    """
    cid, card = next((cid, card) for cid, card in C.shallow_cards if len(set(card[1])) == len(card[1]) == 3)
    row = card[1]
    state = fresh(3, first=2, shallow=cid)
    state, _ = choose(state, {0: [1, 0], 1: [1, 0], 2: [0, 11]})
    # Seat 3 (the First Player) has no Haenyeo in zone 1: Seat 1 picks first, then Seat 2.
    assert state.pending == (PEND_HARVEST, 0) and state.actors == (0, 1)
    before = state.food
    state, _ = GAME.apply(state, 0, A.Harvest(1))
    state, events = GAME.apply(state, 1, A.Harvest(2))
    # Both have acted: the third slot stays unharvested (no second pass).
    left = [e for e in events if e["type"] == "unharvested"]
    assert [(e["zone"], e["slots"]) for e in left] == [(1, [0])]
    assert "1 slot stays unharvested" in left[0]["text"]
    assert state.round == 2
    for seat, slot in ((0, 1), (1, 2)):
        gained, _, _ = sheet_totals(list(row[slot]))
        have = [a - b for a, b in zip(state.food[seat], before[seat], strict=True)]
        # zone 0 adds nothing without eggs; a non-seafood slot marks no seafood
        assert have == gained


def test_shared_zone_more_haenyeo_than_slots_the_last_get_nothing():
    """Rulebook: "Repeat until all slots are taken or all Haenyeo have acted."

    Five Haenyeo in zone 1 (3 slots): the first three in turn order take one slot each.
    """
    state = fresh(5, first=3)
    slots = len(rules.rows(state)[1])
    assert slots == 3
    state, seen = choose(state, {seat: [1, 0] for seat in range(5)})
    while state.round == 1:
        (seat,) = GAME.to_act(state)
        assert state.zone == 1
        state, events = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
        seen.extend(events)
    pickers = [e["actor"] for e in seen if e["type"] == "harvest"]
    assert pickers == [3, 4, 0], "clockwise from the First Player, one slot each"
    assert not any(e["type"] == "unharvested" for e in seen), "all slots are taken"
    assert state.food[1] == state.food[2] == (0,) * N_SEAFOOD
    assert state.eggs[1] == state.eggs[2] == 0 and state.trash[1] == state.trash[2] == 0


def test_shared_zone_npc_takes_one_slot_then_each_player_one():
    """Rulebook: "In zones where the NPC has a Haenyeo, the NPC always acts first, harvesting from
    the leftmost available slot. Players then take turns." — one slot each, like everyone else.
    """
    for seed in range(400):
        state = GAME.new(2, seed)
        npc = rules.npc_draw(state)
        if npc >> 1 & 1 and len(set(rules.rows(state)[1])) == len(rules.rows(state)[1]):
            break
    state, events = choose(state, {0: [1, 0], 1: [1, 0]})
    harvests = [e for e in events if e["type"] == "harvest" and e["zone"] == 1]
    assert [(e["actor"], e["slot"]) for e in harvests] == [(NPC, 0)]
    first, second = rules.turn_order(state)
    assert state.pending == (PEND_HARVEST, first)
    state, events = GAME.apply(state, first, A.Harvest(2))
    # The last slot is the second player's only option: taken for her.
    harvests = [e for e in events if e["type"] == "harvest" and e["zone"] == 1]
    assert [(e["actor"], e["slot"]) for e in harvests] == [(first, 2), (second, 1)]


def test_a_repeated_trash_type_marks_nothing():
    state = fresh(3).copy()
    rules.gain_item(state, 0, TRASH0 + 2)
    rules.gain_item(state, 0, TRASH0 + 2)
    rules.gain_item(state, 0, TRASH0 + 5)
    assert state.trash[0] == (1 << 2) | (1 << 5)
    assert state.trash[0].bit_count() == 2


def test_full_tracks_take_no_more_marks():
    state = fresh(3).copy()
    for _ in range(C.tracks[1] + 3):
        rules.gain_item(state, 0, 1)
    for _ in range(C.egg_spaces + 2):
        rules.gain_item(state, 0, EGG)
    assert state.food[0][1] == C.tracks[1]
    assert state.eggs[0] == C.egg_spaces


@pytest.mark.parametrize("room", [0, 1, 3])
def test_a_lone_haenyeo_marks_what_her_items_one_by_one_would_on_nearly_full_sheets(room):
    """`take_all` marks a whole row in one go: the same sheet as `gain_item` item by item, for
    every zone of every sea card, also when tracks and egg spaces fill up (or are full)."""
    base = fresh(3)
    base.food = tuple(tuple(max(0, track - room) for track in C.tracks) for _ in range(3))
    base.eggs = (C.egg_spaces - room,) * 3
    base.trash = (1 << 2,) * 3
    for shallow in range(len(C.shallow_cards)):
        for deep in range(len(C.deep_cards)):
            state = base.copy()
            state.shallow = (shallow, *state.shallow[1:])
            state.deep = (deep, *state.deep[1:])
            state.taken = rules.fresh_taken(state)
            for zone, row in enumerate(rules.rows(state)):
                if not row:
                    continue
                state.zone = zone
                fast = state.copy()
                rules.take_all(fast, 1, [])
                slow = state.copy()
                for slot in row:
                    for item in slot:
                        rules.gain_item(slow, 1, item)
                assert (fast.food, fast.eggs, fast.trash) == (slow.food, slow.eggs, slow.trash)
                assert fast.taken[zone] == (1,) * len(row)


# ------------------------------------------------------------------ ③ zone 0 and zone 11


def test_zone_zero_third_haenyeo_and_an_exchange_in_one_visit():
    state = with_eggs(fresh(3), 0, 5)
    state, _ = choose(state, {0: [0, 1], 1: [2, 3], 2: [4, 5]})
    assert state.pending == (PEND_ZONE0, 0)
    legal = GAME.legal_actions(state, 0)
    assert A.GAIN in legal and A.DONE in legal and A.Exchange(3) in legal
    assert A.Exchange(1, (0,)) in legal and A.Exchange(2, (1, 3)) in legal
    assert len(legal) <= 25
    state, _ = GAME.apply(state, 0, A.GAIN)
    assert state.third[0] == 1 and state.pawns[0] == 3 and state.eggs_used[0] == 2
    assert A.GAIN not in GAME.legal_actions(state, 0)
    state, _events = GAME.apply(state, 0, A.Exchange(3))
    # Zone 0 is over for Player 1 (nothing left to do), the pearl is on the track.
    assert state.eggs_used[0] == 5 and state.pearls[0] == 1
    state = play_round(state)
    assert state.round == 2
    state, _ = GAME.apply(state, 0, A.ToggleCard(1))
    state, _ = GAME.apply(state, 0, A.ToggleCard(2))
    assert A.CONFIRM not in GAME.legal_actions(state, 0), "from next round, select 3 cards"
    state, _ = GAME.apply(state, 0, A.ToggleCard(3))
    assert A.CONFIRM in GAME.legal_actions(state, 0)


def test_zone_zero_exchanges_one_and_two_eggs_for_seafood():
    state = with_eggs(fresh(3), 0, 2)
    state.third = (1, 0, 0)
    state.pawns = (3, 2, 2)
    state, _ = choose(state, {0: [0, 8, 9], 1: [0, 3], 2: [4, 5]})
    state, _ = GAME.apply(state, 0, A.Exchange(2, (0, 4)))
    assert state.food[0][0] >= 1 and state.food[0][4] >= 1
    assert state.eggs_used[0] == 2


def test_with_no_turtle_eggs_zone_zero_needs_no_decision():
    state = fresh(3)
    state, _ = choose(state, {0: [0, 1], 1: [0, 3], 2: [0, 4]})
    assert state.pending == () or state.pending[0] != PEND_ZONE0


def test_pearl_track_bonuses_come_at_once():
    """Rulebook: "Bonuses on the pearl track are gained immediately: trash icon = gain 1 trash of your
    choice; ×2 = gain 2 seafood of your choice." (on the 30, 60 and 75 spaces: pearls 5, 7 and 8)
    """
    # The 5th pearl (30 points) carries a trash bonus of your choice.
    state = with_eggs(fresh(3), 0, 3, pearls=4)
    state.trash = (0b1111111100, 0, 0)  # two types left to choose from
    state, _ = choose(state, {0: [0, 1], 1: [2, 3], 2: [4, 5]})
    state, _ = GAME.apply(state, 0, A.Exchange(3))
    assert state.pending == (PEND_TRASH, 0)
    assert GAME.legal_actions(state, 0) == [A.TakeTrash(0), A.TakeTrash(1)]
    state, _ = GAME.apply(state, 0, A.TakeTrash(1))
    assert state.trash[0].bit_count() == 9 and state.pearls[0] == 5
    # The 7th pearl (60 points): two seafood of your choice.
    state = with_eggs(fresh(3), 0, 3, pearls=6)
    state, _ = choose(state, {0: [0, 1], 1: [2, 3], 2: [4, 5]})
    state, _ = GAME.apply(state, 0, A.Exchange(3))
    assert state.pending == (PEND_SEAFOOD, 0)
    before = state.food[0]
    state, _ = GAME.apply(state, 0, A.TakeSeafood((2, 2)))
    assert state.food[0][2] == before[2] + 2


def test_a_single_missing_trash_type_is_taken_without_asking():
    state = with_eggs(fresh(3), 0, 3, pearls=7)  # the 8th pearl (75) carries a trash bonus
    state.trash = ((1 << len(C.trash)) - 2, 0, 0)
    state, _ = choose(state, {0: [0, 1], 1: [2, 3], 2: [4, 5]})
    state, _ = GAME.apply(state, 0, A.Exchange(3))
    assert state.trash[0] == (1 << len(C.trash)) - 1


def test_the_first_pearls_carry_no_bonus():
    for pearls in (0, 1, 2, 3, 5):
        state = with_eggs(fresh(3), 0, 3, pearls=pearls)
        state, _ = choose(state, {0: [0, 1], 1: [2, 3], 2: [4, 5]})
        state, _ = GAME.apply(state, 0, A.Exchange(3))
        assert state.pearls[0] == pearls + 1
        assert state.pending == () or state.pending[0] not in (PEND_TRASH, PEND_SEAFOOD)
        assert not state.bonus


def test_connected_haenyeo_in_zone_eleven_collect_pearls():
    state = with_eggs(fresh(5), 4, 1)
    # Every zone 1-10 is filled: cards 2..11 each carry a creature one zone shallower.
    state, _ = choose(state, {0: [11, 1], 1: [3, 5], 2: [7, 9], 3: [11, 0], 4: [0, 2]})
    assert state.reach == 11
    state = play_round(state)
    assert state.pearls[0] == 1 and state.pearls[3] == 1


# ------------------------------------------------------------------ ④ next round and 2 players


def test_next_round_reveals_new_cards_and_keeps_the_first_player():
    """④ Prepare Next Round lists no passing of the marker (issue #40; the house rule passes it:
    tests/discord/test_haenyeo_first_player.py)."""
    state = fresh(3, first=2)
    state, _ = choose(state, {0: [1, 2], 1: [3, 0], 2: [4, 5]})
    assert state.round == 2 and state.first == 2
    assert state.chosen == (0, 0, 0) and state.confirmed == (0, 0, 0)
    assert all(owner == FREE for row in state.taken for owner in row)
    assert rules.rows(state) != rules.rows(fresh(3, first=2))


def test_npc_acts_first_taking_the_leftmost_free_slot():
    seed = next(s for s in range(200) if rules.npc_draw(GAME.new(2, s)) & 0b10)
    state = GAME.new(2, seed)
    npc = rules.npc_draw(state)
    mine = [1, *[z for z in (2, 3, 4, 5) if not npc >> z & 1][:1]]
    state, events = choose(state, {0: mine, 1: [0, 6]})
    harvests = [e for e in events if e["type"] == "harvest" and e["zone"] == 1]
    assert harvests[0]["actor"] == NPC and harvests[0]["slot"] == 0


def test_npc_cards_are_reshuffled_only_after_rounds_3_and_6():
    rng = random.Random(1)
    state = GAME.new(2, 11)
    seen: list[int] = []
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        state, events = GAME.apply(state, seat, POLICIES["random"](GAME, state, seat, rng))
        seen.extend(e["zones"] for e in events if e["type"] == "reveal" and e["actor"] == NPC)
    assert len(seen) == 8
    for block in (seen[0:3], seen[3:6], seen[6:8]):
        union = 0
        for mask in block:
            assert mask.bit_count() == 3
            assert union & mask == 0, "no NPC card is drawn twice between reshuffles"
            union |= mask


def test_load_action_refuses_malformed_data():
    for bad in (
        {},
        {"type": "toggle"},
        {"type": "toggle", "zone": 12},
        {"type": "exchange", "eggs": 4},
        {"type": "take_trash", "trash": "gold"},
        {"type": "take_seafood", "seafood": ["conch"]},
        [],
    ):
        with pytest.raises(IllegalAction):
            GAME.load_action(bad)


def test_a_toggle_equals_the_same_toggle_and_no_other_move():
    """`ToggleCard` writes its own ``==`` (one call where the dataclass's took two): the answers
    are a dataclass's, for toggles, other moves and things that are no move at all."""
    toggle = A.ToggleCard(3)
    assert toggle == A.ToggleCard(3) and hash(toggle) == hash(A.ToggleCard(3))
    assert toggle != A.ToggleCard(4)
    others = [A.CONFIRM, A.GAIN, A.DONE, A.Harvest(3), A.TakeTrash(3), A.Exchange(3), (3,), 3, None]
    assert all(toggle != other and other != toggle for other in others)
    assert A.CONFIRM not in [A.ToggleCard(z) for z in range(12)]
    assert A.ToggleCard(5) in [A.CONFIRM, A.Harvest(5), A.ToggleCard(5)]
