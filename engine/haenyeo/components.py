"""The printed components (rulebook section I), loaded from data/haenyeo/ and validated once at import.

Every number on the board, the sheet, the sea cards, the diving cards and the
score tiles lives in ``data/haenyeo/*.json``; this module turns them into
compact tuples the rules read, and raises `DataError` with a clear message
when a file breaks the rules the engine relies on.

Items in a sea-card slot are small ints: seafood ``0..4`` (in the order of
``SEAFOOD``), ``EGG`` for a turtle egg, ``TRASH0 + t`` for trash type ``t``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any

import i18n
from engine.base import DataError, load_data

KEY = "haenyeo"

#: The actor id of the 2-player NPC in zone turn orders.
NPC = -1
#: Owner mark of a free slot in ``State.taken``.
FREE = -2

EGG = 5
TRASH0 = 10


def _fail(where: str, message: str) -> None:
    raise DataError(f"data/haenyeo/{where}: {message}")


def _int(where: str, value: Any, low: int = 0, high: int = 10_000) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        _fail(where, f"expected a whole number from {low} to {high}, got {value!r}")
    return value


@dataclass(frozen=True)
class Rule:
    """One line of the Scoring Reference (see scoring.py for what each kind means)."""

    key: str
    kind: str
    seafood: tuple[int, ...]
    points: int
    ladder: tuple[int, ...]
    steps: tuple[tuple[int, int], ...]
    text: str
    #: The rule in a few words (a round score's detail names it): its text before the colon.
    name: str = ""


@dataclass(frozen=True)
class Tile:
    """A score tile: which rules score after each scoring round, and the trash table."""

    name: str
    rounds: dict[int, tuple[str, ...]]
    trash: tuple[int, ...]


@dataclass(frozen=True)
class Components:
    rounds: int
    scoring_rounds: tuple[int, ...]
    shallow_zones: tuple[int, ...]
    deep_zones: tuple[int, ...]
    pearl_zone: int
    max_slots: int
    start_pawns: int
    max_pawns: int
    third_cost: int
    exchanges: tuple[tuple[int, int, int], ...]
    egg_spaces: int
    egg_points: int
    seafood: tuple[str, ...]
    seafood_names: tuple[str, ...]
    seafood_plurals: tuple[str, ...]
    tracks: tuple[int, ...]
    trash: tuple[str, ...]
    trash_names: tuple[str, ...]
    pearl_points: tuple[int, ...]
    pearl_bonus: tuple[str | None, ...]
    pearls_per_haenyeo: int
    creatures: tuple[str | None, ...]
    creature_names: dict[str, str]
    npc_cards: int
    npc_reshuffle_after: tuple[int, ...]
    shallow_cards: tuple[tuple[str, dict[int, tuple[tuple[int, ...], ...]]], ...]
    deep_cards: tuple[tuple[str, dict[int, tuple[tuple[int, ...], ...]]], ...]
    rules: dict[str, Rule]
    tiles: tuple[Tile, ...]


def _load_components(raw: dict) -> dict:
    where = "components.json"
    out: dict[str, Any] = {}
    try:
        out["rounds"] = _int(where, raw["rounds"], 1, 20)
        out["scoring_rounds"] = tuple(_int(where, r, 1, out["rounds"]) for r in raw["scoring_rounds"])
        if list(out["scoring_rounds"]) != sorted(set(out["scoring_rounds"])):
            _fail(where, "scoring_rounds must be increasing")
        if out["scoring_rounds"][-1] != out["rounds"]:
            _fail(where, "the last round must be a scoring round")
        zones = raw["zones"]
        if (
            zones["surface"] != 0
            or zones["shallow"] != [1, 4]
            or zones["deep"] != [5, 10]
            or zones["pearl"] != 11
        ):
            _fail(where, "the board is zone 0, shallow 1-4, deep 5-10, pearls 11")
        out["shallow_zones"] = (1, 2, 3, 4)
        out["deep_zones"] = (5, 6, 7, 8, 9, 10)
        out["pearl_zone"] = 11
        out["max_slots"] = _int(where, raw["max_slots_per_zone"], 1, 8)
        pawns = raw["pawns"]
        out["start_pawns"] = _int(where, pawns["start"], 1, 3)
        out["max_pawns"] = _int(where, pawns["max"], out["start_pawns"], 5)
        if out["max_pawns"] != out["start_pawns"] + 1:
            _fail(where, "exactly one extra Haenyeo can be gained")
        out["third_cost"] = _int(where, pawns["third_cost"], 1, 10)
        exchanges = []
        for ex in raw["egg_exchanges"]:
            eggs, food, pearls = (_int(where, ex[k], 0, 10) for k in ("eggs", "seafood", "pearls"))
            if eggs < 1 or (food == 0) == (pearls == 0) or food > 2 or pearls > 1:
                _fail(where, f"an egg exchange gives 1-2 seafood or 1 pearl for 1+ eggs: {ex}")
            exchanges.append((eggs, food, pearls))
        if len({e[0] for e in exchanges}) != len(exchanges):
            _fail(where, "two egg exchanges cost the same number of eggs")
        out["exchanges"] = tuple(exchanges)
        out["egg_spaces"] = _int(where, raw["turtle_egg_spaces"], 1, 30)
        out["egg_points"] = _int(where, raw["unused_egg_points"], 0, 10)
        seafood = raw["seafood"]
        out["seafood"] = tuple(s["key"] for s in seafood)
        if out["seafood"] != ("conch", "abalone", "mustard", "urchin", "octopus"):
            _fail(where, "the five seafood are conch, abalone, mustard, urchin, octopus (in that order)")
        out["seafood_names"] = tuple(str(s["name"]) for s in seafood)
        out["seafood_plurals"] = tuple(str(s["plural"]) for s in seafood)
        out["tracks"] = tuple(_int(where, s["track"], 1, 40) for s in seafood)
        trash = raw["trash"]
        out["trash"] = tuple(str(kind["key"]) for kind in trash)
        out["trash_names"] = tuple(str(kind["name"]) for kind in trash)
        if not 2 <= len(out["trash"]) <= 20 or len(set(out["trash"])) != len(out["trash"]):
            _fail(where, "trash types must be 2 to 20 distinct keys")
        track = raw["pearl_track"]
        if not 1 <= len(track) <= 20:
            _fail(where, "the pearl track has 1 to 20 spaces")
        out["pearl_points"] = tuple(_int(where, p["points"], 0, 500) for p in track)
        if list(out["pearl_points"]) != sorted(out["pearl_points"]):
            _fail(where, "pearl track values must not decrease")
        if out["pearl_points"][-1] <= 0:
            _fail(where, "the last pearl space must score")
        out["pearl_bonus"] = tuple(p.get("bonus") for p in track)
        for bonus in out["pearl_bonus"]:
            if bonus not in (None, "trash", "seafood2"):
                _fail(where, f"unknown pearl bonus {bonus!r} (trash or seafood2)")
        out["pearls_per_haenyeo"] = _int(where, raw["pearls_per_haenyeo"], 1, 5)
        out["creature_names"] = {str(k): str(v) for k, v in raw["creatures"].items()}
        cards = raw["diving_cards"]
        if [c["zone"] for c in cards] != list(range(12)):
            _fail(where, "there are 12 diving cards, one for each zone 0 to 11, in order")
        creatures: list[str | None] = []
        for card in cards:
            creature = card.get("creature")
            if creature is not None and (creature not in out["creature_names"] or card["zone"] < 2):
                _fail(where, f"card {card['zone']}: unknown creature or a creature above zone 1")
            creatures.append(creature)
        out["creatures"] = tuple(creatures)
        npc = raw["npc"]
        out["npc_cards"] = _int(where, npc["cards_per_round"], 1, 5)
        out["npc_reshuffle_after"] = tuple(_int(where, r, 1, out["rounds"]) for r in npc["reshuffle_after"])
        # Between reshuffles the NPC must never run out of cards.
        bounds = (0, *out["npc_reshuffle_after"], out["rounds"])
        for start, end in pairwise(bounds):
            if (end - start) * out["npc_cards"] > 12:
                _fail(where, f"the NPC runs out of diving cards between rounds {start} and {end}")
    except (KeyError, TypeError, AttributeError) as error:
        raise DataError(f"data/haenyeo/{where}: missing or malformed entry ({error!r})") from error
    return out


def _item(where: str, text: Any, seafood: tuple[str, ...], trash: tuple[str, ...]) -> int:
    if text in seafood:
        return seafood.index(text)
    if text == "egg":
        return EGG
    if isinstance(text, str) and text.startswith("trash:") and text[6:] in trash:
        return TRASH0 + trash.index(text[6:])
    _fail(where, f"unknown item {text!r}")
    return -1


def _load_cards(raw: dict, base: dict) -> dict:
    where = "sea_cards.json"
    out: dict[str, Any] = {}
    try:
        for part, zones in (("shallow", base["shallow_zones"]), ("deep", base["deep_zones"])):
            cards = []
            ids = set()
            for card in raw[part]:
                cid = str(card["id"])
                if cid in ids:
                    _fail(where, f"card id {cid} is used twice")
                ids.add(cid)
                if sorted(int(z) for z in card["zones"]) != list(zones):
                    _fail(where, f"{part} card {cid} must list zones {zones[0]}-{zones[-1]}")
                rows: dict[int, tuple[tuple[int, ...], ...]] = {}
                for z_text, slots in card["zones"].items():
                    spot = f"{where} card {cid} zone {z_text}"
                    if not 2 <= len(slots) <= base["max_slots"]:
                        _fail(spot, f"a zone has 2 to {base['max_slots']} slots (turn-taking needs several)")
                    row = []
                    for slot in slots:
                        items = tuple(_item(spot, word, base["seafood"], base["trash"]) for word in slot)
                        if not 1 <= len(items) <= 2 or (len(items) == 2 and max(items) >= EGG):
                            _fail(spot, f"a slot shows 1 item or 2 seafood, not {slot}")
                        row.append(items)
                    rows[int(z_text)] = tuple(row)
                cards.append((cid, rows))
            if len(cards) < base["rounds"]:
                _fail(where, f"the {part} deck needs at least {base['rounds']} cards (one per round)")
            out[f"{part}_cards"] = tuple(cards)
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise DataError(f"data/haenyeo/{where}: missing or malformed entry ({error!r})") from error
    return out


_KINDS = {"each", "sets", "product", "most", "fewest", "fewest_sets", "set_ladder", "threshold"}


def _load_tiles(raw: dict, base: dict) -> dict:
    where = "score_tiles.json"
    seafood = base["seafood"]
    rules: dict[str, Rule] = {}
    tiles: list[Tile] = []
    try:
        for key, rule in raw["rules"].items():
            kind = rule["kind"]
            if kind not in _KINDS:
                _fail(where, f"rule {key}: unknown kind {kind!r}")
            names = rule["seafood"] if isinstance(rule["seafood"], list) else [rule["seafood"]]
            for name in names:
                if name not in seafood:
                    _fail(where, f"rule {key}: unknown seafood {name!r}")
            steps = tuple((int(a), int(b)) for a, b in rule.get("steps", ()))
            if kind == "threshold" and (not steps or [a for a, _ in steps] != sorted({a for a, _ in steps})):
                _fail(where, f"rule {key}: thresholds must be increasing")
            ladder = tuple(_int(where, p) for p in rule.get("ladder", ()))
            if kind == "set_ladder" and not ladder:
                _fail(where, f"rule {key}: a set ladder needs points")
            rules[key] = Rule(
                key=key,
                kind=kind,
                seafood=tuple(seafood.index(n) for n in names),
                points=_int(where, rule.get("points", 0)),
                ladder=ladder,
                steps=steps,
                text=str(rule["text"]),
                name=str(rule.get("name") or str(rule["text"]).split(":")[0]),
            )
        for tile in raw["tiles"]:
            rounds = {int(r): tuple(keys) for r, keys in tile["rounds"].items()}
            if sorted(rounds) != list(base["scoring_rounds"]):
                _fail(where, f"tile {tile['name']}: must list rules for rounds {base['scoring_rounds']}")
            for keys in rounds.values():
                for key in keys:
                    if key not in rules:
                        _fail(where, f"tile {tile['name']}: unknown rule {key!r}")
            trash = tuple(_int(where, p) for p in tile["trash"])
            if len(trash) != len(base["trash"]) + 1 or list(trash) != sorted(trash):
                _fail(
                    where, f"tile {tile['name']}: the trash table has one non-decreasing value per count 0..N"
                )
            tiles.append(Tile(name=str(tile["name"]), rounds=rounds, trash=trash))
        if len(tiles) != 4:
            _fail(where, "there are 4 score tiles")
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise DataError(f"data/haenyeo/{where}: missing or malformed entry ({error!r})") from error
    return {"rules": rules, "tiles": tuple(tiles)}


def build(components: dict, sea_cards: dict, score_tiles: dict) -> Components:
    """Validate the three raw data files and build the component tables."""
    base = _load_components(components)
    base.update(_load_cards(sea_cards, base))
    base.update(_load_tiles(score_tiles, base))
    return Components(**base)


def load() -> Components:
    """Read and validate data/haenyeo/*.json."""
    return build(
        load_data(KEY, "components.json"),
        load_data(KEY, "sea_cards.json"),
        load_data(KEY, "score_tiles.json"),
    )


C = load()

SEAFOOD = C.seafood
N_SEAFOOD = len(SEAFOOD)
N_TRASH = len(C.trash)
ALL_TRASH = (1 << N_TRASH) - 1
ZONES = 12
PEARL_ZONE = C.pearl_zone
#: Zone where each card's creature lands (card zone - 1), or -1.
CREATURE_ZONE = tuple(z - 1 if c else -1 for z, c in enumerate(C.creatures))
#: Bit mask of the zones holding a creature for a mask of played cards, cached per mask.
_CREATURE_BITS = tuple(1 << z if z >= 1 else 0 for z in CREATURE_ZONE)


@lru_cache(maxsize=4096)
def creature_mask(cards: int) -> int:
    """Zones (as bits) where the creatures on the played cards ``cards`` (bits) are placed."""
    mask = 0
    for zone in range(ZONES):
        if cards >> zone & 1:
            mask |= _CREATURE_BITS[zone]
    return mask


@lru_cache(maxsize=256)
def board_rows(shallow: int, deep: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The slot rows for zones 0..11 with shallow card ``shallow`` and deep card ``deep`` revealed."""
    rows: list[tuple[tuple[int, ...], ...]] = [()] * ZONES
    for zone, row in C.shallow_cards[shallow][1].items():
        rows[zone] = row
    for zone, row in C.deep_cards[deep][1].items():
        rows[zone] = row
    return tuple(rows)


def item_text(item: int) -> str:
    """Words for one item code."""
    if item < N_SEAFOOD:
        return C.seafood_names[item]
    if item == EGG:
        return "turtle egg"
    return C.trash_names[item - TRASH0]


def item_key(item: int) -> str:
    """Data key for one item code (as written in sea_cards.json)."""
    if item < N_SEAFOOD:
        return SEAFOOD[item]
    if item == EGG:
        return "egg"
    return "trash:" + C.trash[item - TRASH0]


def slot_text(slot: tuple[int, ...]) -> str:
    """Words for a slot's contents, e.g. 'abalone + sea urchin' (English)."""
    return i18n.english(slot_msg(slot))


def item_msg(item: int) -> i18n.Msg:
    """One item code as a word said in the reader's language."""
    if item < N_SEAFOOD:
        return i18n.term(C.seafood_names[item])
    if item == EGG:
        return i18n.term("turtle egg")
    return i18n.term(C.trash_names[item - TRASH0])


def plus(items: list) -> i18n.Msg | str:
    """Items said as 'a + b + c' (each a message or a plain value)."""
    return i18n.chain(items, i18n.N_("{first} + {rest}"))


def commas(items: list) -> i18n.Msg | str:
    """Items said as 'a, b, c' (each a message or a plain value)."""
    return i18n.chain(items, i18n.N_("{first}, {rest}"))


def both(items: list) -> i18n.Msg | str:
    """Items said as 'a, b and c' (each a message, a seat or a plain value)."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return i18n.say("{first} and {last}", first=commas(items[:-1]), last=items[-1])


def slot_msg(slot: tuple[int, ...]) -> i18n.Msg | str:
    """A slot's contents as a message, e.g. 'abalone + sea urchin'."""
    return plus([item_msg(i) for i in slot])


def seafood_msg(seafood: tuple[int, ...]) -> i18n.Msg | str:
    """Seafood (indices) said as 'conch + sea urchin'."""
    return plus([i18n.term(C.seafood_names[k]) for k in seafood])
