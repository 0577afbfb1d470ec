"""What a seat (or the table) sees of a Jeju Island game.

Jeju Island hides two things from everybody: the order of the point card deck,
and the tiles under the top of each location's stack (only the top tile and the
number of tiles left show). Every move is public, so the public view shows
everything else (hands, cards taken, the cards Card Refresh removed); a seat's
view adds only what that seat may do now (its payment options and the cards it
can afford).

Exact shape (every key is always present unless marked "only"):

```
{
  "game": "jeju",
  "phase": "setup_tokens" | "setup_harubang" | "turn" | "pay" | "buying" | "harubang" | "finished",
  "to_act": [seat, ...],            # sorted; empty when finished
  "seats": int,                     # number of seats (seats are 0-based ints everywhere)
  "current": int,                   # whose turn it is (in setup: the seat placing tokens)
  "turn": int,                      # 0 during setup, then 1, 2, ... (one per seat turn)
  "locations": [                    # 6 entries, index 0..5 around the ring; "right" = next index
    {
      "index": int,                 # players see index + 1
      "tokens": [owner, ...],       # token stack bottom -> top; owner = seat, or -1 for neutral
      "top_owner": int | None,      # seat of the top token; None if neutral or no token
      "tiles_left": int,            # tiles in this location's stack
      "top_tile": str | None,       # key of the top tile ("orange", ...), None when empty
      "harubang": bool              # the Harubang statue stands here
    }, ...
  ],
  "harubang": int | None,           # location index of the Harubang; None until placed
  "tile_types": [{"key": str, "name": str, "joker": bool}, ...],   # 7 types, joker last
  "display": [card, ...],           # face-up point cards (5, fewer only at the very end)
  "deck_size": int,                 # cards left in the face-down deck
  "discarded": int,                 # cards removed by Card Refresh
  "removed": [card, ...],           # those cards, in the order they left the game (they were face up)
  "tiles_on_board": int,            # tiles still in the six stacks
  "tiles_spent": {key: int},        # tiles paid for cards so far, per type
  "players": [
    {
      "seat": int,
      "tiles": {key: int},          # every tile type, joker included
      "tile_count": int,
      "cards": [card, ...],         # in the order taken
      "card_points": int,
      "tile_points": int,           # leftover non-Haenyeo tiles // 2
      "score": int,                 # card_points + tile_points as things stand
      "everlasting": [key, ...]     # tile types this seat never gives up one of
    }, ...
  ],
  "last_travel": None               # before the first Travel, else the latest one:
                | {"seat": int, "from": int, "direction": "left" | "right",
                   "path": [spot, ...]},   # spots that received a token, in drop order
  "pending": None                   # or, in phase "pay": {"seat": int, "card": card}
            | {...},                #    in phase "harubang": {"seat": int, "reason": "collect" | "card"}
  "end_reason": None | "tiles" | "deck",
  "result": Result.to_dict(),       # only when finished
  # only in a seat's own view (view(state, seat)):
  "you": int,
  "affordable": [card_id, ...],     # face-up cards this seat could pay for now
  "payments": [{key: int}, ...]     # only in phase "pay" for the paying seat: each distinct payment
}
```

A ``card`` is ``{"id": int, "cost": [tile key or "?", ...], "points": int,
"effect": None | "harubang" | "refresh" | "everlasting", "everlasting": tile key | None,
"text": "4 pts for Orange + Cactus + any", "say": message}``: ``text`` is the card in
English words, ``say`` the same as an `i18n` message (``{"id", "args"}``, see `i18n.say`), which
a reader's translator says in their language (``t.msg(card["say"])``).

Words for people: ``tile_types[i]["name"]`` is an English component name from
``data/jeju/tiles.json``, in the catalog (``t(name)`` says it); every event's ``say``
is its message (`engine.base.event`).
"""

from __future__ import annotations

from engine.jeju import rules, scoring
from engine.jeju.components import CARDS, JOKER, LOCATIONS, NEUTRAL, TILES
from engine.jeju.state import FINISHED, HARUBANG, PAY, JejuState

_TILE_TYPES = [{"key": t.key, "name": t.name, "joker": t.index == JOKER} for t in TILES]


def tile_dict(counts: tuple[int, ...]) -> dict[str, int]:
    """Tile counts keyed by tile type key."""
    return {t.key: counts[t.index] for t in TILES}


def _card(card_id: int) -> dict:
    return CARDS[card_id].to_dict()


def view(state: JejuState, seat: int | None) -> dict:
    """The JSON-ready view described in this module's docstring."""
    actor = rules.to_act(state)
    locations = []
    for spot in range(LOCATIONS):
        tokens = state.tokens[spot]
        stack = state.stacks[spot]
        top = tokens[-1] if tokens else NEUTRAL
        locations.append(
            {
                "index": spot,
                "tokens": list(tokens),
                "top_owner": None if top == NEUTRAL else top,
                "tiles_left": len(stack),
                "top_tile": TILES[stack[-1]].key if stack else None,
                "harubang": spot == state.harubang,
            }
        )
    players = []
    for s in range(state.seats):
        parts = scoring.breakdown(state, s)
        waive = rules.waivers(state.owned[s])
        players.append(
            {
                "seat": s,
                "tiles": tile_dict(state.hands[s]),
                "tile_count": sum(state.hands[s]),
                "cards": [_card(c) for c in state.owned[s]],
                "card_points": parts["cards"],
                "tile_points": parts["tiles"],
                "score": parts["cards"] + parts["tiles"],
                "everlasting": [TILES[t].key for t in range(len(TILES)) if waive[t]],
            }
        )
    pending = None
    if state.phase == PAY:
        pending = {"seat": actor, "card": _card(state.pending_card)}
    elif state.phase == HARUBANG:
        pending = {"seat": state.bonus_seat, "reason": state.bonus_reason}
    last = None
    if state.last_travel:
        mover, spot, step, count = state.last_travel
        path = [(spot + step * n) % LOCATIONS for n in range(1, count + 1)]
        last = {"seat": mover, "from": spot, "direction": "right" if step > 0 else "left", "path": path}
    data = {
        "game": "jeju",
        "phase": state.phase,
        "to_act": [] if actor < 0 else [actor],
        "seats": state.seats,
        "current": state.current,
        "turn": state.turn,
        "locations": locations,
        "harubang": None if state.harubang < 0 else state.harubang,
        "tile_types": [dict(t) for t in _TILE_TYPES],
        "display": [_card(c) for c in state.display],
        "deck_size": len(state.deck),
        "discarded": len(state.discard),
        "removed": [_card(c) for c in state.discard],
        "tiles_on_board": sum(len(s) for s in state.stacks),
        "tiles_spent": tile_dict(state.spent),
        "players": players,
        "last_travel": last,
        "pending": pending,
        "end_reason": state.end_reason or None,
    }
    if state.phase == FINISHED:
        data["result"] = scoring.result(state).to_dict()
    if seat is not None:
        data["you"] = seat
        playing = 0 <= seat < state.seats and state.phase != FINISHED
        data["affordable"] = rules.affordable_cards(state, seat) if playing else []
        if state.phase == PAY and seat == actor:
            data["payments"] = [tile_dict(p) for p in rules.seat_payments(state, seat, state.pending_card)]
    return data
