"""A league's pure rules (issue #38): table sizes, Swiss pairing, points, standings."""

from __future__ import annotations

import itertools
import random

from hosting.league import (
    BOT,
    DROPPED_MISSED,
    History,
    LeaguePlayer,
    LeagueTable,
    SeatResult,
    apply_results,
    pair_round,
    placement_points,
    places,
    repeats,
    standings,
    table_results,
    table_sizes,
)


def people(n: int) -> list[LeaguePlayer]:
    return [LeaguePlayer(user_id=100 + i, name=f"p{i}", rating=float(n - i)) for i in range(n)]


def test_table_sizes_are_as_even_as_possible_larger_tables_first():
    assert table_sizes(7, 4) == [4, 3]
    assert table_sizes(8, 4) == [4, 4]
    assert table_sizes(9, 4) == [3, 3, 3]
    assert table_sizes(10, 4) == [4, 3, 3]
    assert table_sizes(2, 4) == [2]
    assert table_sizes(0, 4) == []
    for n in range(1, 60):
        for seats in range(2, 6):
            sizes = table_sizes(n, seats)
            assert sum(sizes) == n and max(sizes) <= seats and max(sizes) - min(sizes) <= 1


def test_placement_points_share_ties():
    assert placement_points([1, 2, 3, 4]) == [3, 2, 1, 0]
    assert placement_points([3, 1, 1, 4]) == [1, 2.5, 2.5, 0]  # two tied firsts: (3 + 2) / 2
    assert placement_points([1, 1, 1]) == [1, 1, 1]  # three tied at three seats: (2 + 1 + 0) / 3
    # The points of a table always add up to the same total, ties or not.
    for ranking in ([1, 2, 3, 4], [1, 1, 3, 3], [1, 1, 1, 4], [1, 1, 1, 1]):
        assert sum(placement_points(ranking)) == 6


def test_first_round_seats_by_rating_and_fills_with_bots():
    tables = pair_round(people(7), 4, History(), 1)
    assert [len(t.players) for t in tables] == [4, 4]
    assert [sum(p == BOT for p in t.players) for t in tables] == [0, 1]
    assert set(tables[0].players) == {100, 101, 102, 103}  # the four best rated together
    everyone = [p for t in tables for p in t.players if p != BOT]
    assert sorted(everyone) == [100 + i for i in range(7)]


def brute_force_fewest_repeats(players: list[int], sizes: list[int], history: History) -> int:
    """The fewest repeat meetings any split of ``players`` into tables of ``sizes`` allows (small n)."""
    best = None
    for first in itertools.combinations(players, sizes[0]):
        rest = [p for p in players if p not in first]
        tables = [LeagueTable(0, 1, first), LeagueTable(0, 2, tuple(rest))]
        cost = repeats(tables, history)
        best = cost if best is None else min(best, cost)
    return best


def test_pairing_avoids_repeat_opponents_where_it_can():
    players = people(7)
    played: list[LeagueTable] = []
    rng = random.Random(5)
    for round_no in (1, 2, 3, 4):
        history = History.of(played)
        tables = pair_round(players, 4, history, round_no)
        ids = [p.user_id for p in players]
        assert repeats(tables, history) == brute_force_fewest_repeats(ids, [4, 3], history)
        played.extend(tables)
        # Some results, so the standings move between rounds.
        results = []
        for table in tables:
            ranking = list(range(1, len(table.players) + 1))
            rng.shuffle(ranking)
            results += table_results(table, {"ranking": ranking, "scores": [10 * r for r in ranking]})
        players = apply_results(players, results, drop_after=2)


def test_eight_players_meet_new_opponents_for_as_long_as_possible():
    players = people(8)
    played: list[LeagueTable] = []
    for round_no in (1, 2):
        history = History.of(played)
        tables = pair_round(players, 4, history, round_no)
        assert repeats(tables, history) == brute_force_fewest_repeats(
            [p.user_id for p in players], [4, 4], history
        )
        played.extend(tables)


def test_seats_rotate():
    players = people(4)
    first = pair_round(players, 4, History(), 1)[0]
    second = pair_round(players, 4, History.of([first]), 2)[0]
    # Who sat last sits first; who sat first sits last.
    assert second.players[0] == first.players[-1]
    assert second.players[-1] == first.players[0]


def test_standings_order_points_then_score_then_rating():
    a = LeaguePlayer(1, "a", points=5, score=80, rating=3)
    b = LeaguePlayer(2, "b", points=5, score=90, rating=1)
    c = LeaguePlayer(3, "c", points=5, score=90, rating=2)
    d = LeaguePlayer(4, "d", points=6, score=10, rating=0)
    e = LeaguePlayer(5, "e", points=5, score=80, rating=3)
    ordered = standings([a, b, c, d, e])
    assert [p.user_id for p in ordered] == [4, 3, 2, 1, 5]
    assert places(ordered) == [1, 2, 3, 4, 4]  # a and e equal in everything share fourth


def test_a_player_missing_rounds_in_a_row_is_dropped():
    players = [LeaguePlayer(1, "a"), LeaguePlayer(2, "b")]
    missed = [SeatResult(1, 1, 10, missed=True), SeatResult(2, 0, 5, missed=False)]
    after = apply_results(players, missed, drop_after=2)
    assert [p.missed for p in after] == [1, 0] and all(p.active for p in after)
    played = [SeatResult(1, 1, 10, missed=False), SeatResult(2, 0, 5, missed=False)]
    after = apply_results(after, played, drop_after=2)
    assert after[0].missed == 0  # playing again resets the count
    after = apply_results(apply_results(after, missed, drop_after=2), missed, drop_after=2)
    assert after[0].dropped == DROPPED_MISSED and after[0].points == 4 and after[0].played == 4
    assert not pair_round(after, 2, History(), 6)[0].players.count(1)  # no longer paired


def test_a_bot_seat_earns_nothing_but_its_place_counts():
    table = LeagueTable(1, 2, (105, 106, BOT, 107))
    got = table_results(table, {"ranking": [2, 3, 1, 4], "scores": [50, 40, 60, 30]}, bot_seats=[1])
    assert [(r.user_id, r.points, r.score, r.missed) for r in got] == [
        (105, 2, 50, False),
        (106, 1, 40, True),
        (107, 0, 30, False),
    ]


def test_a_thousand_players_pair_quickly_enough_to_measure():
    # Not a timing assertion (tests never assert a time): the pairing of a big round is whole.
    players = people(1000)
    tables = pair_round(players, 4, History(), 1)
    seated = [p for t in tables for p in t.players if p != BOT]
    assert sorted(seated) == sorted(p.user_id for p in players)
    again = pair_round(players, 4, History.of(tables), 2)
    assert repeats(again, History.of(tables)) == 0
