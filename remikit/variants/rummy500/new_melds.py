"""New Rummy 500 melds (R5-4, R5-6): a meld as its cards and joker declarations make it,
and the new melds a hand can lay.

>>> from remikit.cards import parse_cards
>>> from remikit.variants.rummy500.melds import layoff_options
>>> m = resolve_meld(parse_cards("5h Jk 7h"), (None, None, None), seat=0, number=1)
>>> [str(s.identity) for s in m.slots]
['5h', '6h', '7h']
>>> [str(i) for i, _ in layoff_options(m, JOKER, joker_layoff="runs")]
['4h', '8h']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from remikit.actions import MeldCards
from remikit.cards import JOKER, Card, Suit
from remikit.errors import IllegalAction
from remikit.melds import card_at
from remikit.variants.rummy500.melds import (
    ACE_HIGH,
    ACE_LOW,
    CARD_AT,
    MeldKind,
    PlacedMeld,
    Slot,
    card_points,
    low_ace_points,
    position_choices,
    rank_of,
    suit_of,
    window_ok,
)

SUITS = tuple(Suit)


# -- new melds (R5-4, R5-6) ---------------------------------------------------------


_Found = tuple[MeldKind, tuple[tuple[Card, int | None], ...], tuple[tuple[Card, int | None], ...]]
"""A reading of a meld: its kind, (identity, position) of each natural or
declared joker in card order, and of each undeclared joker."""


def resolve_meld(
    cards: Sequence[Card], stands_for: Sequence[Card | None], *, seat: int, number: int
) -> PlacedMeld:
    """The meld ``cards`` make with the jokers' declarations, or :class:`IllegalAction`.

    A joker left undeclared is accepted only when what it stands for follows
    from the other cards (``5h Jk 7h``); otherwise the reason asks for
    ``Jk=…``. When only an ace's end is open (``A 2 … K``), it is placed where
    it is worth more to its holder: high.
    """
    if len(cards) != len(stands_for):
        raise IllegalAction("meld_invalid", cards=_text(cards))
    for card, declared in zip(cards, stands_for, strict=True):
        if declared is not None and (not card.is_joker or declared.is_joker):
            raise IllegalAction("declare_only_joker", card=card)
    if len(cards) < 3:
        raise IllegalAction("meld_too_short")
    if all(c.is_joker for c in cards):
        raise IllegalAction("meld_no_natural")
    fixed = [c if not c.is_joker else s for c, s in zip(cards, stands_for, strict=True)]
    known = [c for c in fixed if c is not None]
    free = len(fixed) - len(known)
    layouts = _set_layouts(known, free) + _run_layouts(known, free)
    if not layouts:
        raise IllegalAction("meld_invalid", cards=_text(cards))
    choices: dict[tuple[Card, ...], _Found] = {}
    for found in layouts:
        key = tuple(sorted(i for i, _ in found[2]))
        best = choices.get(key)
        if best is None or _layout_points(found) > _layout_points(best):
            choices[key] = found
    if len(choices) > 1:
        options = " / ".join(" ".join(f"Jk={c}" for c in key) for key in sorted(choices))
        raise IllegalAction("joker_ambiguous", choices=options)
    kind, placed, jokers = next(iter(choices.values()))
    # Naturals and declared jokers come in card order in `placed`; undeclared
    # jokers take the identities left, in order.
    known_left, free_left = iter(placed), iter(jokers)
    out: list[Slot] = []
    for card, identity in zip(cards, fixed, strict=True):
        found_identity, position = next(known_left if identity is not None else free_left)
        out.append(Slot(card, found_identity, position, seat))
    if kind == "run":
        out.sort(key=lambda s: -1 if s.position is None else s.position)
    return PlacedMeld(number, kind, tuple(out))


def _layout_points(found: _Found) -> int:
    return sum(low_ace_points() if p == ACE_LOW else card_points(i) for i, p in found[1] + found[2])


def _set_layouts(known: list[Card], free: int) -> list[_Found]:
    size = len(known) + free
    if not 3 <= size <= 4:
        return []
    ranks = {c.rank for c in known}
    suits = [c.suit for c in known]
    if len(ranks) != 1 or len(set(suits)) != len(suits):
        return []
    rank = next(iter(ranks))
    missing = [s for s in SUITS if s not in suits]
    placed = tuple((c, None) for c in known)
    return [
        ("set", placed, tuple((Card.of(rank, s), None) for s in chosen))
        for chosen in combinations(missing, free)
    ]


def _run_layouts(known: list[Card], free: int) -> list[_Found]:
    size = len(known) + free
    if not 3 <= size <= 13 or len({c.suit for c in known}) != 1:
        return []
    suit = known[0].suit
    found: list[_Found] = []
    for low in range(0, ACE_HIGH - size + 2):
        high = low + size - 1
        if not window_ok(low, high):
            continue
        taken: set[int] = set()
        placed: list[tuple[Card, int | None]] = []
        for card in known:
            spots = [p for p in position_choices(card) if low <= p <= high and p not in taken]
            if not spots:
                break
            taken.add(spots[0])
            placed.append((card, spots[0]))
        else:
            jokers = tuple((card_at(suit, p), p) for p in range(low, high + 1) if p not in taken)
            found.append(("run", tuple(placed), jokers))
    return found


def _text(cards: Sequence[Card]) -> str:
    """Cards as a refusal shows them to a person: with suit symbols."""
    return " ".join(c.symbol() for c in cards)


# -- the new melds a hand can lay (legal actions) ----------------------------------------


def run_windows(present: list[bool], jokers: int) -> Iterator[tuple[int, int]]:
    """Run windows (3+ positions) with at least one natural and at most ``jokers`` gaps."""
    for low in range(ACE_HIGH + 1):
        gaps = 0
        for high in range(low, ACE_HIGH + 1):
            if not present[high]:
                gaps += 1
                if gaps > jokers:
                    break
            if high - low >= 2 and gaps < high - low + 1 and window_ok(low, high):
                yield low, high


def candidate_melds(hand: Sequence[Card]) -> list[MeldCards]:
    """New melds the hand can lay, for legal-action lists.

    Not every way to write a meld is listed: jokers only fill positions the
    hand has no natural card for (in a run, the gaps and ends of a window;
    in a set, suits the hand lacks, declared in suit order, one declaration
    per choice of natural suits). Every meld the hand can make has a listed
    form with the same natural cards in the same positions or fewer jokers.
    """
    jokers = sum(1 for c in hand if c.is_joker)
    naturals = {c for c in hand if not c.is_joker}
    out: list[MeldCards] = []
    by_rank: dict[int, list[int]] = {}
    for card in sorted(naturals):
        by_rank.setdefault(rank_of(card), []).append(suit_of(card))
    for rank, suits in by_rank.items():
        if len(suits) + jokers < 3:
            continue
        missing = [s for s in range(4) if s not in suits]
        for k in range(1, len(suits) + 1):
            for chosen in combinations(suits, k):
                for extra in range(max(0, 3 - k), min(jokers, len(missing), 4 - k) + 1):
                    cards = [CARD_AT[s][rank - 1] for s in chosen] + [JOKER] * extra
                    stands: list[Card | None] = [None] * k
                    stands += [CARD_AT[s][rank - 1] for s in missing[:extra]]
                    out.append(MeldCards(tuple(cards), tuple(stands)))
    for suit in {suit_of(c) for c in naturals}:
        row = CARD_AT[suit]
        present = [c in naturals for c in row]
        for low, high in run_windows(present, jokers):
            cards, stands = [], []
            for p in range(low, high + 1):
                cards.append(row[p] if present[p] else JOKER)
                stands.append(None if present[p] else row[p])
            out.append(MeldCards(tuple(cards), tuple(stands)))
    return out
