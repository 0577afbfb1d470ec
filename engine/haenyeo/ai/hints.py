"""Why a move is good, in one line a player can check: the reason under a 💡 Suggest hint.

`explain(game, state, seat, action)` names what the move does for the seat now, by the
expert's own evaluation (`engine.haenyeo.ai.values.Values`: what each item adds to the scoring
rounds still to come) and the rulebook's plain facts (the trash table, the pearl track, the
connection rule, "If only 1 Haenyeo is in a zone, that player harvests ALL items"):

- ① select: a dive is the richest row for the seat, or connected by its own cards, or fills
  a gap above its deeper dive, or the safe shallower choice; zone 0 buys the 3rd Haenyeo or
  trades eggs; zone 11 moves the pearl track; a confirm sums up the cards; a put-back names
  the better zone.
- ③ harvest: the slot's worth and the scoring rule it serves most, the trash table step, the
  egg that pays for the 3rd Haenyeo — or, when the expert gives up a little to deny, whom the
  slot is kept from (the Haenyeo still to pick in the zone, as the expert counts them).
- zone 0 and pearl bonuses: the 3rd Haenyeo's rounds, an exchange's worth, a pearl's step.

It sees only what the seat may see: `_seen` blanks every other seat's face-down cards before
the reveal, the NPC's coming draw, the game's seed and the order of the sea decks beyond this
round, and nothing below reads anything else hidden. No search, no play-out: a few
evaluations of `Values`, well under a millisecond. ``None`` when there is nothing specific.
"""

from __future__ import annotations

from typing import Any

import i18n
from engine.haenyeo import actions as A
from engine.haenyeo.ai.values import EGG_KEEP, Values, rivalry, seafood_gains, third_value
from engine.haenyeo.components import (
    EGG,
    FREE,
    N_SEAFOOD,
    NPC,
    PEARL_ZONE,
    TRASH0,
    C,
    creature_mask,
    slot_msg,
)
from engine.haenyeo.rules import (
    PEND_HARVEST,
    PEND_SEAFOOD,
    PEND_TRASH,
    PEND_ZONE0,
    rows,
    who,
    zone0_options,
    zones_msg,
)
from engine.haenyeo.state import State

say, plural = i18n.say, i18n.say_plural


def explain(game: Any, state: State, seat: int, action: A.Action) -> i18n.Msg | None:
    """One line of why ``action`` is good for ``seat`` now, or ``None`` when there is nothing specific."""
    if not isinstance(seat, int) or not 0 <= seat < state.seats or state.phase == "end":
        return None
    info = _seen(state, seat)
    if info.phase == "select":
        if isinstance(action, A.Confirm):
            cards = info.chosen[seat]
            return _warned(_confirm(info, seat), cards, _deepest(cards))
        if isinstance(action, A.ToggleCard) and 0 <= action.zone < 12:
            if info.chosen[seat] >> action.zone & 1:
                return _put_back(info, seat, action.zone)
            return _warned(_dive(info, seat, action.zone), info.chosen[seat] | 1 << action.zone, action.zone)
        return None
    if not info.pending or info.pending[1] != seat:
        return None
    kind = info.pending[0]
    values = Values(info, seat)
    if kind == PEND_HARVEST and isinstance(action, A.Harvest):
        return _harvest(info, seat, action.slot, values)
    if kind == PEND_ZONE0:
        return _zone0(info, seat, action, values)
    if kind == PEND_TRASH and isinstance(action, A.TakeTrash):
        return _trash(info, seat, TRASH0 + action.kind)
    if kind == PEND_SEAFOOD and isinstance(action, A.TakeSeafood):
        return _seafood(info, seat, action.seafood, values)
    return None


# ------------------------------------------------------------------ what the seat may see


def _seen(state: State, seat: int) -> State:
    """``state`` with everything ``seat`` may not see blanked (deterministically)."""
    info = state.copy()
    if state.phase == "select":
        info.chosen = tuple(state.chosen[s] if s == seat else 0 for s in range(state.seats))
        info.npc_cards = 0
    info.seed = 0
    r = min(state.round, C.rounds)
    info.shallow = (*state.shallow[:r], *sorted(state.shallow[r:]))
    info.deep = (*state.deep[:r], *sorted(state.deep[r:]))
    return info


# ------------------------------------------------------------------ ① select


def _deepest(cards: int) -> int:
    """The deepest zone 1–10 the cards dive to (0: none; zone 11's pearl says its own condition)."""
    return max((z for z in range(1, PEARL_ZONE) if cards >> z & 1), default=0)


def _warned(why: i18n.Msg | None, cards: int, zone: int) -> i18n.Msg | None:
    """``why``, and plainly when the dive to ``zone`` scores only if someone else fills a gap above.

    A zone is connected only when every zone above it holds a Haenyeo or a creature. The
    seat sees only its own cards before the reveal: a gap they leave is a real risk, and a
    hint that recommends the dive says so ("nobody is in zone 1 yet").
    """
    gaps = _gaps(cards, zone) if 1 <= zone < PEARL_ZONE else 0
    if not gaps:
        return why
    warning = plural(
        "Careful: none of your cards is in {zones}, so zone {zone} scores only if someone else dives there.",
        "Careful: none of your cards is in {zones}, so zone {zone} scores only if someone else dives "
        "in each of them.",
        gaps.bit_count(),
        zones=zones_msg(gaps),
        zone=zone,
    )
    return warning if why is None else say("{reason} {warning}", reason=why, warning=warning)


def _zone_worth(info: State, values: Values) -> list[float]:
    """Per zone, what it pays the seat alone ("that player harvests ALL items"), by the expert's values."""
    sea = rows(info)
    worth = [values.zone0] + [sum(values.slot(slot) for slot in sea[z]) for z in range(1, PEARL_ZONE)]
    return [*worth, values.pearl]


def _best_slot(info: State, values: Values, zone: int) -> tuple[float, tuple[int, ...]]:
    return max(((values.slot(slot), slot) for slot in rows(info)[zone]), key=lambda pair: pair[0])


def _gaps(cards: int, zone: int) -> int:
    """Zones 1..zone-1 (mask) that the cards' own Haenyeo and creatures leave empty."""
    cover = cards | creature_mask(cards)
    return sum(1 << y for y in range(1, zone) if not cover >> y & 1)


def _dive(info: State, seat: int, zone: int) -> i18n.Msg | None:
    values = Values(info, seat)
    worth = _zone_worth(info, values)
    if zone == 0:
        return _dive_zone0(info, seat, values)
    if zone == PEARL_ZONE:
        fact = _pearl_fact(info, seat)
        return say("Zone 11 brings up a pearl if every zone above it is filled. {fact}", fact=fact)
    points = round(worth[zone])
    if points <= 0:
        return None
    best, slot = _best_slot(info, values, zone)
    richest = max(range(1, PEARL_ZONE), key=lambda z: (worth[z], -z))
    cards = info.chosen[seat]
    left = max((z for z in range(1, PEARL_ZONE) if not cards >> z & 1), key=lambda z: (worth[z], -z))
    if left == zone and richest != zone:
        return plural(
            "Zone {zone} is the richest row left for you this round: about {count} point if you dive there "
            "alone, {best} from its best slot ({items}).",
            "Zone {zone} is the richest row left for you this round: about {count} points if you dive there "
            "alone, {best} from its best slot ({items}).",
            points,
            zone=zone,
            best=round(best),
            items=slot_msg(slot),
        )
    richest = left
    if richest == zone:
        return plural(
            "Zone {zone} is the richest row for you this round: about {count} point if you dive there "
            "alone, {best} from its best slot ({items}).",
            "Zone {zone} is the richest row for you this round: about {count} points if you dive there "
            "alone, {best} from its best slot ({items}).",
            points,
            zone=zone,
            best=round(best),
            items=slot_msg(slot),
        )
    mine = info.chosen[seat] | 1 << zone
    for deeper in range(PEARL_ZONE, zone, -1):
        if info.chosen[seat] >> deeper & 1:
            filled = _gaps(info.chosen[seat], deeper) & ~_gaps(mine, deeper)
            if filled:
                return plural(
                    "Card {zone} fills {zones} on the way to your dive to zone {deeper}, and zone {zone} "
                    "itself pays you about {count} point alone.",
                    "Card {zone} fills {zones} on the way to your dive to zone {deeper}, and zone {zone} "
                    "itself pays you about {count} points alone.",
                    points,
                    zone=zone,
                    zones=zones_msg(filled),
                    deeper=deeper,
                )
    if not _gaps(mine, zone):
        return plural(
            "Your own cards keep zone {zone} connected whatever the others play: about {count} point "
            "there alone, {best} from its best slot ({items}).",
            "Your own cards keep zone {zone} connected whatever the others play: about {count} points "
            "there alone, {best} from its best slot ({items}).",
            points,
            zone=zone,
            best=round(best),
            items=slot_msg(slot),
        )
    if richest > zone:
        return plural(
            "Zone {zone} pays you about {count} point alone; the richer zone {richer} lies deeper and "
            "needs more zones filled to stay connected.",
            "Zone {zone} pays you about {count} points alone; the richer zone {richer} lies deeper and "
            "needs more zones filled to stay connected.",
            points,
            zone=zone,
            richer=richest,
        )
    return plural(
        "Zone {zone} pays you about {count} point if you dive there alone, {best} from its best slot "
        "({items}).",
        "Zone {zone} pays you about {count} points if you dive there alone, {best} from its best slot "
        "({items}).",
        points,
        zone=zone,
        best=round(best),
        items=slot_msg(slot),
    )


def _dive_zone0(info: State, seat: int, values: Values) -> i18n.Msg | None:
    free = info.eggs[seat] - info.eggs_used[seat]
    if free >= C.third_cost and third_value(info, seat):
        return plural(
            "Zone 0 lets you spend {count} turtle egg on a 3rd Haenyeo, who dives with you from next round.",
            "Zone 0 lets you spend {count} turtle eggs on a 3rd Haenyeo, who dives with you from next round.",
            C.third_cost,
        )
    if free and values.zone0 >= 0.5:
        return plural(
            "Zone 0 needs no connection and lets you trade your turtle eggs ({eggs} unused): about "
            "{count} point to you.",
            "Zone 0 needs no connection and lets you trade your turtle eggs ({eggs} unused): about "
            "{count} points to you.",
            round(values.zone0),
            eggs=free,
        )
    return None


def _confirm(info: State, seat: int) -> i18n.Msg | None:
    cards = info.chosen[seat]
    if not cards:
        return None
    worth = _zone_worth(info, Values(info, seat))
    points = round(sum(worth[z] for z in range(12) if cards >> z & 1))
    return plural(
        "These cards send you to {zones}: up to about {count} point this round, if you are alone in "
        "each zone and stay connected.",
        "These cards send you to {zones}: up to about {count} points this round, if you are alone in "
        "each zone and stay connected.",
        points,
        zones=zones_msg(cards),
    )


def _put_back(info: State, seat: int, zone: int) -> i18n.Msg | None:
    worth = _zone_worth(info, Values(info, seat))
    cards = info.chosen[seat]
    better = [z for z in range(12) if not cards >> z & 1 and round(worth[z]) > round(worth[zone])]
    if not better:
        return None
    other = max(better, key=lambda z: (worth[z], -z))
    return plural(
        "Card {zone} can go back: zone {zone} pays you about {count} point alone, zone {other} about {more}.",
        "Card {zone} can go back: zone {zone} pays you about {count} points alone, zone {other} about "
        "{more}.",
        round(worth[zone]),
        zone=zone,
        other=other,
        more=round(worth[other]),
    )


# ------------------------------------------------------------------ ③ harvest


def _harvest(info: State, seat: int, slot: int, values: Values) -> i18n.Msg | None:
    """The slot's own worth, or — as the expert counts it — what it keeps from the next pickers."""
    zone = info.zone
    sea = rows(info)[zone]
    if not 0 <= slot < len(sea):
        return None
    free = [i for i, owner in enumerate(info.taken[zone]) if owner == FREE]
    later = [a for a in info.actors[info.actors.index(seat) + 1 :] if a != NPC]
    mine = {i: values.slot(sea[i]) for i in free}
    best = max(free, key=lambda i: (mine[i], -i))
    if later and best != slot and slot in mine:
        rivals = {a: Values(info, a) for a in later}
        weight = rivalry(info.seats) / (info.seats - 1)

        def picks(first: int) -> list[tuple[int, int]]:
            """Who takes which slot after the seat takes ``first`` (as the expert counts it)."""
            left = [i for i in free if i != first]
            out = []
            for actor in later:
                if not left:
                    break
                pick = max(left, key=lambda i, a=actor: rivals[a].slot(sea[i]))
                left.remove(pick)
                out.append((actor, pick))
            return out

        def score(first: int) -> float:
            return mine[first] - weight * sum(rivals[a].slot(sea[p]) for a, p in picks(first))

        if score(slot) >= score(best):
            # The seat gives up its own best slot: name whom this one is kept from.
            for actor, pick in picks(best):
                if pick != slot:
                    continue
                theirs = round(rivals[actor].slot(sea[slot]))
                cost = round(mine[best] - mine[slot])
                if theirs <= 0:
                    break
                if cost <= 0:
                    return plural(
                        "Taking {items} is worth as much to you as any slot here and keeps about "
                        "{count} point from {name}, who picks after you in this zone.",
                        "Taking {items} is worth as much to you as any slot here and keeps about "
                        "{count} points from {name}, who picks after you in this zone.",
                        theirs,
                        items=slot_msg(sea[slot]),
                        name=who(actor, opening=False),
                    )
                return plural(
                    "Taking {items} gives you about {cost} less than your best slot but keeps about "
                    "{count} point from {name}, who picks after you in this zone.",
                    "Taking {items} gives you about {cost} less than your best slot but keeps about "
                    "{count} points from {name}, who picks after you in this zone.",
                    theirs,
                    items=slot_msg(sea[slot]),
                    cost=cost,
                    name=who(actor, opening=False),
                )
    items = sea[slot]
    if items[0] < N_SEAFOOD:
        return _seafood(info, seat, items, values)
    if items[0] == EGG:
        return _egg(info, seat)
    return _trash(info, seat, items[0])


# ------------------------------------------------------------------ items


def _drivers(info: State, seat: int, seafood: tuple[int, ...]) -> tuple[str, int] | None:
    """The scoring rule and round that give ``seafood`` most of its worth in the expert's `Values`
    (`engine.haenyeo.ai.values.seafood_gains`, split by (rule, round) instead of added up)."""
    gains: dict[tuple[str, int], float] = {}
    for rule_key, round_no, k, gain in seafood_gains(info, seat):
        if k in seafood:
            key = (rule_key, round_no)
            gains[key] = gains.get(key, 0.0) + gain * seafood.count(k)
    if not gains:
        return None
    key = max(gains, key=lambda k: (gains[k], -k[1]))
    return key if gains[key] > 0 else None


def _seafood(info: State, seat: int, seafood: tuple[int, ...], values: Values) -> i18n.Msg | None:
    points = round(sum(values.seafood[k] for k in seafood))
    what = slot_msg(seafood)
    driver = _drivers(info, seat, seafood)
    if driver is None or points <= 0:
        if any(info.food[seat][k] >= C.tracks[k] for k in seafood):
            return say("A full track takes no more marks: the {what} would be lost.", what=what)
        return None
    rule, round_no = driver
    return plural(
        "For you, {what} is worth about {count} point over the scorings to come, above all for {rule} "
        "at the round {round} scoring.",
        "For you, {what} is worth about {count} points over the scorings to come, above all for {rule} "
        "at the round {round} scoring.",
        points,
        what=what,
        rule=i18n.term(C.rules[rule].name),
        round=round_no,
    )


def _trash(info: State, seat: int, item: int) -> i18n.Msg | None:
    kind = item - TRASH0
    what = i18n.term(C.trash_names[kind])
    if info.trash[seat] >> kind & 1:
        return say("You already have {what}: a second one scores nothing.", what=what)
    table = C.tiles[info.tile].trash
    have = info.trash[seat].bit_count()
    after = min(have + 1, len(table) - 1)
    if table[after] > table[have]:
        return plural(
            "A new trash type for you: with {what}, {count} type scores {after} points at the end instead "
            "of {before}.",
            "A new trash type for you: with {what}, {count} types score {after} points at the end instead "
            "of {before}.",
            have + 1,
            what=what,
            after=table[after],
            before=table[have],
        )
    ahead = next((n for n in range(after + 1, len(table)) if table[n] > table[have]), None)
    if ahead is None:
        return None
    return plural(
        "A new trash type for you: {what} is on the way to {count} type, which scores {points} points "
        "at the end.",
        "A new trash type for you: {what} is on the way to {count} types, which score {points} points "
        "at the end.",
        ahead,
        what=what,
        points=table[ahead],
    )


def _egg(info: State, seat: int) -> i18n.Msg | None:
    if info.eggs[seat] >= C.egg_spaces:
        return None
    free = info.eggs[seat] - info.eggs_used[seat] + 1
    if free >= C.third_cost and not info.third[seat] and third_value(info, seat):
        return plural(
            "A turtle egg gives you {count} unused: enough for the 3rd Haenyeo at zone 0.",
            "A turtle egg gives you {count} unused: enough for the 3rd Haenyeo at zone 0.",
            free,
        )
    return plural(
        "A turtle egg gives you {count} unused: 1 point each at the end, or seafood at zone 0.",
        "A turtle egg gives you {count} unused: 1 point each at the end, or seafood at zone 0.",
        free,
    )


def _pearl_fact(info: State, seat: int) -> i18n.Msg | None:
    """What the seat's next pearl does ("Only the score at your rightmost marked space counts")."""
    pearls = info.pearls[seat]
    if pearls >= len(C.pearl_points):
        return say("Your pearl track is full: another pearl marks nothing.")
    count = pearls + 1
    before = C.pearl_points[pearls - 1] if pearls else 0
    after = C.pearl_points[count - 1]
    bonus = C.pearl_bonus[count - 1]
    if bonus == "trash":
        return say("Pearl space {count} gives you a trash type of your choice at once.", count=count)
    if bonus == "seafood2":
        return say("Pearl space {count} gives you two seafood of your choice at once.", count=count)
    if after > before:
        return plural(
            "With {count} pearl your track scores {after} points at the end instead of {before}.",
            "With {count} pearls your track scores {after} points at the end instead of {before}.",
            count,
            after=after,
            before=before,
        )
    needed = next(n for n, points in enumerate(C.pearl_points, 1) if points > 0)
    return plural(
        "A track of {count} pearl still scores nothing, but {needed} pearls score {points} points.",
        "A track of {count} pearls still scores nothing, but {needed} pearls score {points} points.",
        count,
        needed=needed,
        points=C.pearl_points[needed - 1],
    )


# ------------------------------------------------------------------ zone 0


def _zone0(info: State, seat: int, action: A.Action, values: Values) -> i18n.Msg | None:
    free = info.eggs[seat] - info.eggs_used[seat]
    if isinstance(action, A.GainHaenyeo):
        left = C.rounds - info.round
        worth = round(third_value(info, seat))
        if not left:
            return None
        return plural(
            "A 3rd Haenyeo dives with you in each of the {count} round after this one: about {points} "
            "points by the expert's count, far more than the turtle eggs score kept.",
            "A 3rd Haenyeo dives with you in each of the {count} rounds after this one: about {points} "
            "points by the expert's count, far more than the turtle eggs score kept.",
            left,
            points=worth,
        )
    if isinstance(action, A.Exchange):
        if not action.seafood:
            fact = _pearl_fact(info, seat)
            return plural(
                "{count} turtle egg buys a pearl. {fact}",
                "{count} turtle eggs buy a pearl. {fact}",
                action.eggs,
                fact=fact,
            )
        driver = _drivers(info, seat, action.seafood)
        points = round(sum(values.seafood[k] for k in action.seafood))
        if driver is None or points <= 0:
            return None
        rule, round_no = driver
        args = {"what": slot_msg(action.seafood), "rule": i18n.term(C.rules[rule].name), "round": round_no}
        if action.eggs == 1:
            return plural(
                "Trading a turtle egg for {what} is worth about {count} point to you, above all for "
                "{rule} at the round {round} scoring.",
                "Trading a turtle egg for {what} is worth about {count} points to you, above all for "
                "{rule} at the round {round} scoring.",
                points,
                **args,
            )
        return plural(
            "Trading {eggs} turtle eggs for {what} is worth about {count} point to you, above all for "
            "{rule} at the round {round} scoring.",
            "Trading {eggs} turtle eggs for {what} is worth about {count} points to you, above all for "
            "{rule} at the round {round} scoring.",
            points,
            eggs=action.eggs,
            **args,
        )
    if isinstance(action, A.Done):
        if not free:
            return None
        best = 0.0
        for option in zone0_trades(info, seat):
            gain = sum(values.seafood[k] for k in option.seafood) if option.seafood else values.pearl
            best = max(best, gain - option.eggs * EGG_KEEP)
        if best > 0:
            return plural(
                "Keep your {count} turtle egg: 1 point each at the end.",
                "Keep your {count} turtle eggs: 1 point each at the end.",
                free,
            )
        return plural(
            "Keep your {count} turtle egg: no trade is worth more to you now than the egg kept.",
            "Keep your {count} turtle eggs: no trade is worth more to you now than the eggs kept.",
            free,
        )
    return None


def zone0_trades(info: State, seat: int) -> list[A.Exchange]:
    """The egg exchanges open to ``seat`` now (its zone-0 options without the 3rd Haenyeo and Done)."""
    return [a for a in zone0_options(info, seat) if isinstance(a, A.Exchange)]
