"""Game Setup (rulebook steps 4-8): tile stacks, neutral tokens, the point card display.

Token and Harubang placement (steps 6-7) are played by the seats as actions (see
`engine.jeju.rules`). All randomness comes from ``random.Random(f"{seed}:...")``.
"""

from __future__ import annotations

import random

from engine.jeju.components import BOARD, CARD_IDS, JOKER, LOCATIONS, NEUTRAL, NTYPES, TILES
from engine.jeju.state import SETUP_TOKENS, JejuState


def shuffle(rng: random.Random, items: list) -> None:
    """``rng.shuffle(items)``, the same draws and the same order, without a method call per item.

    Random play deals a new game every 80 moves or so, and the stdlib's shuffle of the 80
    tiles was a tenth of its time. This is its Fisher-Yates with `_randbelow`'s rejection
    sampling written out (tests/engine/test_jeju_rules.py checks it against ``rng.shuffle``).
    """
    getrandbits = rng.getrandbits
    sizes = _BITS if len(items) <= len(_BITS) else tuple((i + 1).bit_length() for i in range(len(items)))
    for i in range(len(items) - 1, 0, -1):
        bits = sizes[i]  # (i + 1).bit_length(): the bits `_randbelow` draws for i + 1 choices
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


#: ``(i + 1).bit_length()`` per index, for lists up to 128 long (a deal shuffles 80 tiles at most).
_BITS = tuple((i + 1).bit_length() for i in range(128))


def deal_stacks(rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """Shuffle the 80 tiles and deal them one at a time around the ring, starting at location 1.

    80 tiles do not split evenly over 6 locations, so locations 1 and 2 get 14 tiles
    and the others 13. A Haenyeo tile on top of a stack swaps places with a random
    other tile lower in that stack ("shuffle it lower in that stack").
    """
    pile = list(_PILE)
    shuffle(rng, pile)
    stacks = [pile[start::LOCATIONS] for start in range(LOCATIONS)]  # one at a time around the ring
    for index, stack in enumerate(stacks):
        if stack[-1] == JOKER:
            lower = [i for i, tile in enumerate(stack) if tile != JOKER]
            if not lower:
                # A stack of nothing but Haenyeo tiles: trade its top with a lower
                # non-Haenyeo tile of the next stack that has one.
                for step in range(1, LOCATIONS):
                    other = stacks[(index + step) % LOCATIONS]
                    spare = [i for i, tile in enumerate(other[:-1]) if tile != JOKER]
                    if spare:
                        pick = rng.choice(spare)
                        other[pick], stack[-1] = stack[-1], other[pick]
                        break
                continue
            pick = rng.choice(lower)
            stack[pick], stack[-1] = stack[-1], stack[pick]
    return tuple(tuple(stack) for stack in stacks)


#: The 80 tiles before shuffling, in tile order.
_PILE = tuple(t.index for t in TILES for _ in range(t.count))


def new_state(seats: int, seed: int) -> JejuState:
    """The board after steps 1-5 and 8: stacks dealt, neutral tokens out, five cards face up."""
    tiles_rng = random.Random(f"{seed}:jeju:tiles")
    cards_rng = random.Random(f"{seed}:jeju:cards")
    deck = list(CARD_IDS)
    shuffle(cards_rng, deck)
    shown = BOARD["display_size"]
    return JejuState(
        seats=seats,
        seed=seed,
        phase=SETUP_TOKENS,
        current=0,
        turn=0,
        tokens=tuple((NEUTRAL,) for _ in range(LOCATIONS)),
        stacks=deal_stacks(tiles_rng),
        harubang=-1,
        hands=tuple((0,) * NTYPES for _ in range(seats)),
        owned=tuple(() for _ in range(seats)),
        display=tuple(deck[:shown]),
        deck=tuple(deck[shown:]),
        discard=(),
        spent=(0,) * NTYPES,
    )
