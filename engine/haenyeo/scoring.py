"""The Scoring Reference, round scoring (④ step 3) and the end-game bonuses (IV. End of Game).

Seafood tracks are never erased: the scoring after rounds 3, 6 and 8 reads the
marks collected so far in the whole game, with the rules the score tile lists
for that round. Comparisons ("most", "fewest") are among the players only; the
2-player NPC keeps no sheet.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.haenyeo.components import C, Rule, Tile


def rule_points(rule: Rule, mine: Sequence[int], everyone: Sequence[Sequence[int]]) -> int:
    """Points one sheet (``mine``, marks per seafood) scores for ``rule`` among ``everyone``.

    (Sets are counted with ``min(map(mine.__getitem__, ...))`` and lists, quicker than
    generators: every round's scoring and the bots' valuations ask this.)"""
    kind = rule.kind
    if kind == "each":  # Conch shells collected: x3 pts each
        return mine[rule.seafood[0]] * rule.points
    if kind == "sets":  # Abalone + sea urchin sets: x6 pts per set
        return min(map(mine.__getitem__, rule.seafood)) * rule.points
    if kind == "product":  # Sea mustard x abalone count: qty x qty
        a, b = rule.seafood
        return mine[a] * mine[b]
    if kind == "most":  # Most sea urchins: +15 (shared if tied); nobody is "most" with none
        k = rule.seafood[0]
        best = max([sheet[k] for sheet in everyone])
        return rule.points if mine[k] == best and best > 0 else 0
    if kind == "fewest":  # Fewest octopus: 15 (shared if tied)
        k = rule.seafood[0]
        return rule.points if mine[k] == min([sheet[k] for sheet in everyone]) else 0
    if kind == "fewest_sets":  # Fewest conch + sea mustard sets: 15 (shared if tied)
        sets = min(map(mine.__getitem__, rule.seafood))
        fewest = min([min(map(sheet.__getitem__, rule.seafood)) for sheet in everyone])
        return rule.points if sets == fewest else 0
    if kind == "set_ladder":  # Sets of mustard + conch + abalone + octopus: 1/2/3/4+ = 10/20/30/40
        sets = min(map(mine.__getitem__, rule.seafood))
        return rule.ladder[min(sets, len(rule.ladder)) - 1] if sets else 0
    if kind == "threshold":  # Conch sets: 2/4/6/8+ conch = 5/10/15/25
        count = mine[rule.seafood[0]]
        points = 0
        for needed, value in rule.steps:
            if count >= needed:
                points = value
        return points
    raise ValueError(f"unknown rule kind {kind}")


def round_rules(tile: Tile, round_no: int) -> tuple[Rule, ...]:
    """The rules the score tile applies after ``round_no`` (empty if it is no scoring round)."""
    return tuple(C.rules[key] for key in tile.rounds.get(round_no, ()))


def score_round(tile: Tile, round_no: int, food: Sequence[Sequence[int]]) -> list[list[tuple[str, int]]]:
    """Per seat, (rule key, points) for each rule scored after ``round_no``."""
    rules = round_rules(tile, round_no)
    columns = [_rule_column(rule, food) for rule in rules]
    return [
        [(rule.key, column[seat]) for rule, column in zip(rules, columns, strict=True)]
        for seat in range(len(food))
    ]


def _rule_column(rule: Rule, food: Sequence[Sequence[int]]) -> list[int]:
    """`rule_points` for every sheet in ``food``, the table's most or fewest found once (not per seat)."""
    kind = rule.kind
    if not food or kind not in ("most", "fewest", "fewest_sets"):
        return [rule_points(rule, mine, food) for mine in food]
    if kind == "fewest_sets":
        sets = [min(map(mine.__getitem__, rule.seafood)) for mine in food]
        fewest = min(sets)
        return [rule.points if mine == fewest else 0 for mine in sets]
    k = rule.seafood[0]
    if kind == "most":  # nobody is "most" with none
        best = max([sheet[k] for sheet in food])
        return [rule.points if mine[k] == best and best > 0 else 0 for mine in food]
    fewest = min([sheet[k] for sheet in food])
    return [rule.points if mine[k] == fewest else 0 for mine in food]


def pearl_points(pearls: int) -> int:
    """Pearls score the value at the rightmost marked space only (not cumulative)."""
    return C.pearl_points[pearls - 1] if pearls else 0


def trash_points(tile: Tile, trash_mask: int) -> int:
    """Trash by the number of different types collected (the score tile's table)."""
    return tile.trash[trash_mask.bit_count()]


def egg_points(eggs: int, used: int) -> int:
    """+1 point per unused turtle egg."""
    return (eggs - used) * C.egg_points


def final_breakdown(
    tile: Tile, scores: Sequence[int], eggs: int, used: int, pearls: int, trash_mask: int
) -> dict[str, int]:
    """Round 3/6/8 scores + bonus points = final score, by category."""
    out: dict[str, int] = {}
    for round_no, points in zip(C.scoring_rounds, scores, strict=False):
        out[f"round{round_no}"] = points
    out["turtle_eggs"] = egg_points(eggs, used)
    out["trash"] = trash_points(tile, trash_mask)
    out["pearls"] = pearl_points(pearls)
    out["total"] = sum(out.values())
    return out
