"""The exact solver: RULES.md §5 worked examples, arrangement validity, optimality,
each with the compiled search and the pure-Python one.

The meld rules, point values and the brute force below are written from
RULES.md again, independently of :mod:`remikit.solver`, so they check it.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from remikit.cards import JOKER, Card, Rank, make_deck, parse_cards
from remikit.melds import AceMode, Arrangement, Deadwood, Meld, card_at
from remikit.solver import NEG, Goal
from remikit.variants.remi13d import scoring as remi13d
from remikit.variants.three_thirteen import scoring as three_thirteen

pytestmark = pytest.mark.usefixtures("search")  # every test, with each search

IMPOSSIBLE = None
ACES: list[AceMode] = ["low", "high"]
ROYAL = Counter(parse_cards("Ts Js Qs Ks As"))
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- the rules again, independently ------------------------------------------


def positions(card: Card) -> tuple[int, ...]:
    """Run positions a natural card may take: 0 (ace low) … 12 (king), 13 (ace high)."""
    return (0, 13) if card.rank == Rank.ACE else (int(card.rank) - 1,)


def remi_run_value(position: int) -> int:
    """R13-9 in a run: ace low 5, 2–10 5, J Q K 10, ace high 15."""
    if position == 13:
        return 15
    return 10 if position >= 10 else 5


def remi_set_value(rank: Rank) -> int:
    """R13-9 in a triple or four: the ace 15 [interp]."""
    if rank == Rank.ACE:
        return 15
    return 10 if rank >= Rank.JACK else 5


def remi_dead(card: Card) -> int:
    """R13-10."""
    if card.is_joker:
        return -25
    if card.rank == Rank.ACE:
        return -15
    return -10 if card.rank >= Rank.JACK else -5


def remi_meld(cards: Sequence[Card]) -> tuple[int, bool] | None:
    """The best value of ``cards`` as one Remi 13 D meld (R13-6, R13-9) and whether it is pure."""
    naturals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    if len(cards) < 3 or not naturals:
        return None
    options: list[tuple[int, bool]] = []
    if jokers == 0 and Counter(cards) == ROYAL:
        options.append((75, True))
    suits = [c.suit for c in naturals]
    if len({c.rank for c in naturals}) == 1 and len(set(suits)) == len(suits) <= len(cards) <= 4:
        options.append((len(cards) * remi_set_value(naturals[0].rank), False))
    if len(set(suits)) == 1 and len({c.rank for c in naturals}) == len(naturals):
        n = len(cards)
        for lo in range(14 - n + 1):
            hi = lo + n - 1
            if lo == 0 and hi == 13:
                continue
            if all(any(lo <= p <= hi for p in positions(c)) for c in naturals):
                value = sum(remi_run_value(p) for p in range(lo, hi + 1))
                options.append((value, jokers == 0 and n >= 4))
    return max(options) if options else None


def t13_wild(card: Card, wild_rank: Rank) -> bool:
    return card.is_joker or card.rank == wild_rank


def t13_dead(card: Card, wild_rank: Rank, ace: AceMode) -> int:
    """R3-7 deadwood of one card left out of the melds."""
    if card.is_joker:
        return 20
    if card.rank == wild_rank:
        return 15
    if card.rank == Rank.ACE:
        return 1 if ace == "low" else 15
    return min(int(card.rank), 10)


def t13_is_meld(cards: Sequence[Card], wild_rank: Rank, ace: AceMode) -> bool:
    """R3-3, R3-4: a set, a run, or wild cards only; 3 cards or more."""
    naturals = [c for c in cards if not t13_wild(c, wild_rank)]
    if len(cards) < 3:
        return False
    if not naturals or len({c.rank for c in naturals}) == 1:
        return True
    if len({c.suit for c in naturals}) != 1:
        return False
    ace_at = 0 if ace == "low" else 13
    places = [ace_at if c.rank == Rank.ACE else int(c.rank) - 1 for c in naturals]
    if len(set(places)) != len(places):
        return False
    return max(places) - min(places) + 1 <= len(cards) <= 13


# -- brute force over every partition into melds and dead cards --------------


def brute_force(
    hand: Sequence[Card],
    meld: Callable[[list[Card]], tuple[int, bool] | None],
    dead: Callable[[Card], int],
    *,
    all_melded: bool,
    need_pure: bool,
) -> int | None:
    """The best total of meld values plus dead values over every partition of ``hand``."""
    cards = list(hand)

    @cache
    def best(left: frozenset[int]) -> dict[bool, int]:
        """Best value of the cards ``left`` by whether a pure meld is among them."""
        if not left:
            return {False: 0}
        first, rest = min(left), left - {min(left)}
        out: dict[bool, int] = {}

        def offer(pure: bool, value: int) -> None:
            out[pure] = max(out.get(pure, NEG), value)

        if not all_melded:
            for pure, value in best(rest).items():
                offer(pure, value + dead(cards[first]))
        for k in range(2, len(rest) + 1):
            for others in combinations(sorted(rest), k):
                found = meld([cards[first]] + [cards[i] for i in others])
                if found is not None:
                    for pure, value in best(rest - set(others)).items():
                        offer(pure or found[1], value + found[0])
        return out

    results = best(frozenset(range(len(cards))))
    if need_pure:
        return results.get(True)
    return max(results.values()) if results else None


def t13_brute_force(
    hand: Sequence[Card],
    round_no: int,
    ace: AceMode,
    *,
    discard: bool = False,
    keep: Card | None = None,
) -> int:
    """Minimum deadwood (R3-7); with ``discard``, after the best discard other than ``keep``."""
    wild = three_thirteen.wild_rank(round_no)

    def meld(cards: list[Card]) -> tuple[int, bool] | None:
        return (0, False) if t13_is_meld(cards, wild, ace) else None

    def points(cards: Sequence[Card]) -> int:
        found = brute_force(
            cards, meld, lambda c: -t13_dead(c, wild, ace), all_melded=False, need_pure=False
        )
        assert found is not None
        return -found

    if not discard:
        return points(hand)
    best = None
    for i, card in enumerate(hand):
        if card is not keep:
            value = points([*hand[:i], *hand[i + 1 :]])
            best = value if best is None else min(best, value)
    assert best is not None
    return best


# -- validating an arrangement ------------------------------------------------


def stands(meld: Meld) -> list[Card]:
    """The cards a meld shows, each wild replaced by the card it stands for."""
    return [s if s is not None else c for c, s in zip(meld.cards, meld.stands_for, strict=True)]


def consecutive(cards: Sequence[Card], aces: Sequence[int]) -> bool:
    """One suit, consecutive positions with the ace at one of ``aces``, no wrap."""
    if len({c.suit for c in cards}) != 1:
        return False
    for ace_at in aces:
        places = sorted(ace_at if c.rank == Rank.ACE else int(c.rank) - 1 for c in cards)
        if places == list(range(places[0], places[0] + len(places))):
            return True
    return False


def remi_meld_points(meld: Meld) -> int:
    """Check one Remi 13 D meld as arranged (R13-6, R13-8) and give its points (R13-9)."""
    for card, as_ in zip(meld.cards, meld.stands_for, strict=True):
        assert (as_ is not None and not as_.is_joker) if card.is_joker else as_ in (None, card)
    shown = stands(meld)
    assert len(meld) >= 3 and any(not c.is_joker for c in meld.cards)
    if meld.kind == "royal":
        assert Counter(meld.cards) == ROYAL
        return 75
    if meld.kind == "set":
        assert len(meld) <= 4 and len({c.rank for c in shown}) == 1
        assert len({c.suit for c in shown}) == len(shown)
        return len(meld) * remi_set_value(shown[0].rank)
    assert meld.kind == "run" and consecutive(shown, (0, 13))
    high = any(c.rank == Rank.KING for c in shown)
    return sum(
        remi_run_value(13 if high and c.rank == Rank.ACE else positions(c)[0]) for c in shown
    )


def is_pure(meld: Meld) -> bool:
    return meld.kind == "royal" or (
        meld.kind == "run" and len(meld) >= 4 and not any(c.is_joker for c in meld.cards)
    )


def check_remi(
    hand: Sequence[Card],
    melds: Sequence[Meld],
    dead: Sequence[Card],
    claimed: int,
    *,
    bonus: int = 0,
) -> None:
    """Every card once, every meld legal, points as claimed (R13-11, R13-12)."""
    assert Counter(hand) == Counter([c for m in melds for c in m.cards] + list(dead))
    meld_points = 0
    for meld in melds:
        points = remi_meld_points(meld)
        assert meld.points == points, meld
        meld_points += points
    if melds:
        assert any(is_pure(m) for m in melds)
    assert claimed == bonus + meld_points + sum(remi_dead(c) for c in dead)


def check_t13(hand: Sequence[Card], found: Deadwood, round_no: int, ace: AceMode) -> None:
    """Every card once, every meld legal (R3-3, R3-4), deadwood as claimed (R3-7)."""
    wild = three_thirteen.wild_rank(round_no)
    discard = [found.discard] if found.discard is not None else []
    assert Counter(hand) == Counter(
        [c for m in found.melds for c in m.cards] + list(found.dead) + discard
    )
    for meld in found.melds:
        assert len(meld) >= 3
        for card, as_ in zip(meld.cards, meld.stands_for, strict=True):
            assert as_ in (None, card) or t13_wild(card, wild)
        shown = stands(meld)
        if meld.kind == "wild":
            assert all(t13_wild(c, wild) for c in meld.cards)
        elif meld.kind == "set":
            assert len({c.rank for c in shown}) == 1
        else:
            assert meld.kind == "run"
            assert consecutive(shown, (0,) if ace == "low" else (13,))
    assert found.points == sum(t13_dead(c, wild, ace) for c in found.dead)


# -- RULES.md §5 worked examples ----------------------------------------------


def test_r13_7_r13_11_close_with_ace_scores_135() -> None:
    """R13-7/R13-11: closing card Ah; meld points 85 + Remi As bonus 50."""
    hand = parse_cards("3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk")
    got = remi13d.close_score(hand, Card.parse("Ah"))
    assert (got.points, got.bonus, got.dead) == (135, 50, ())
    check_remi(hand, got.melds, got.dead, got.points, bonus=50)


def test_r13_11_close_with_joker_scores_bonus_75() -> None:
    hand = parse_cards("3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk")
    assert remi13d.close_score(hand, JOKER).points == 85 + 75


def test_r13_12_ace_low_run_beats_dead_ace() -> None:
    """R13-12: Ah 2h 3h 4h 5h (25) + Kc Kd Jk (30) − 30 dead = 25, not 5."""
    hand = parse_cards("2h 3h 4h 5h Kc Kd 9s 9c Jk Ah 7d 8c Qs")
    got = remi13d.hand_score(hand)
    assert got.points == 25
    check_remi(hand, got.melds, got.dead, got.points)
    assert remi13d.hand_value(hand) == 25


def test_r13_12_no_pure_four_every_card_dead() -> None:
    """R13-12: no pure run of 4+, so all 13 cards are dead: −105."""
    hand = parse_cards("2h 3h Jk 9s 9c 9d Kd Kc Ks 5c 6c 7c Qd")
    got = remi13d.hand_score(hand)
    assert (got.points, got.melds, Counter(got.dead)) == (-105, (), Counter(hand))
    assert remi13d.hand_value(hand) == -105


def test_r13_9_royal_flush_is_75_and_pure() -> None:
    """R13-6/R13-9: Ts Js Qs Ks As is a meld of its own worth 75 and counts as pure."""
    hand = parse_cards("Ts Js Qs Ks As 2h 3h 4h 5h 7c 7d 7h 7s")
    got = remi13d.close_score(hand, Card.parse("Ad"))
    assert got.points == 50 + 75 + 20 + 20
    assert any(m.kind == "royal" for m in got.melds)
    check_remi(hand, got.melds, got.dead, got.points, bonus=50)


@pytest.mark.parametrize(
    ("hand", "closing", "why"),
    [
        ("3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk", "Kh", "ace or a joker"),
        ("3s 4s Jk 6s 9h Th Jh 7c 7d 7s Kd Kc Ks", "Ah", "pure run"),
        ("3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc 2d", "Ah", "dead"),
    ],
)
def test_r13_7_refused_closes_say_why(hand: str, closing: str, why: str) -> None:
    with pytest.raises(remi13d.CloseRefused, match=why):
        remi13d.close_score(parse_cards(hand), Card.parse(closing))


def test_r13_7_best_close_picks_the_best_closing_card() -> None:
    """R13-7/R13-11: with Ah and Jk both able to close, the joker's bonus wins."""
    hand14 = parse_cards("3s 4s 5s 6s 9h Th Jh 7c 7d 7s Ad Ac Jk Ah")
    best = remi13d.best_close(hand14)
    assert best is not None and best.closing is JOKER and best.points == 75 + 20 + 20 + 15 + 45
    best = remi13d.best_close(parse_cards("3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk Ah"))
    assert best is not None and best.closing is Card.parse("Ah") and best.points == 135
    assert remi13d.best_close(parse_cards("2h 3h 4h 5h Kc Kd 9s 9c Jk Ah 7d 8c Qs 2d")) is None


def test_r3_7_unused_wild_costs_15() -> None:
    """R3-7: round 1 (wild 3s): 3h cannot meld with 9c Kd: 15 + 9 + 10 = 34."""
    hand = parse_cards("3h 9c Kd")
    got = three_thirteen.deadwood(hand, round_no=1)
    assert got.points == 34
    check_t13(hand, got, 1, "low")


def test_r3_7_wild_completes_a_set() -> None:
    """R3-7: round 1, 3h 9c 9d is a set of nines: deadwood 0."""
    hand = parse_cards("3h 9c 9d")
    got = three_thirteen.deadwood(hand, round_no=1)
    assert got.points == 0 and got.dead == ()
    check_t13(hand, got, 1, "low")


def test_r3_7_ace_low_or_high_and_unused_joker() -> None:
    assert three_thirteen.deadwood_points(parse_cards("Ac 5d Jk"), round_no=1) == 1 + 5 + 20
    assert (
        three_thirteen.deadwood_points(parse_cards("Ac 5d Jk"), round_no=1, ace="high")
        == 15 + 5 + 20
    )
    assert three_thirteen.deadwood_points(parse_cards("Qc Kc Ac"), round_no=1, ace="high") == 0
    assert three_thirteen.deadwood_points(parse_cards("Qc Kc Ac"), round_no=1) == 21


def test_r3_4_no_wrapping_run() -> None:
    for ace in ("low", "high"):
        assert three_thirteen.deadwood_points(parse_cards("Kh Ah 2h"), round_no=2, ace=ace) > 0


def test_r3_3_wild_cards_only_meld() -> None:
    """R3-3: a meld may be made of wild cards only."""
    hand = parse_cards("Jk 3h 3d")
    got = three_thirteen.deadwood(hand, round_no=1)
    assert got.points == 0 and [m.kind for m in got.melds] == ["wild"]
    check_t13(hand, got, 1, "low")


def test_three_thirteen_discard_may_not_be_the_kept_card() -> None:
    """R3-5: a card just taken from the discard pile stays; a kept wild too."""
    hand = parse_cards("2c 5c 9d Jk")
    assert three_thirteen.deadwood_points(hand, round_no=2, discard=True) == 16
    kept = three_thirteen.deadwood(hand, round_no=2, discard=True, keep=JOKER)
    assert (kept.points, kept.discard) == (2 + 5 + 20, Card.parse("9d"))
    kept = three_thirteen.deadwood(hand, round_no=2, discard=True, keep=Card.parse("9d"))
    assert (kept.points, kept.discard) == (2 + 5 + 9, JOKER)


# -- properties on random hands ----------------------------------------------

REMI_DECK = make_deck(decks=2, jokers=4)
T13_DECK = make_deck(decks=2, jokers=4)
# few ranks and suits, so that small hands hold melds often
DENSE = [
    c
    for c in make_deck(decks=2, jokers=0)
    if c.suit >= 2 and c.rank in (1, 2, 3, 4, 5, 6, 10, 11, 12, 13)
] + [JOKER] * 4


def hands(deck: Sequence[Card], min_size: int, max_size: int) -> st.SearchStrategy[list[Card]]:
    """Hands dealt from ``deck`` (a multiset): no card more often than the deck holds it."""
    picks = st.lists(
        st.sampled_from(range(len(deck))), unique=True, min_size=min_size, max_size=max_size
    )
    return picks.map(lambda ix: [deck[i] for i in ix])


@st.composite
def with_pure_run(draw: st.DrawFn) -> list[Card]:
    """A pure run of four (spades or hearts) and up to four more cards, melds likely."""
    suit = draw(st.sampled_from([3, 2]))
    low = draw(st.integers(0, 10))
    run = [card_at(suit, p) for p in range(low, low + 4)]
    rest = list(DENSE)
    for card in run:
        if card in rest:
            rest.remove(card)
    return run + draw(hands(rest, 0, 4))


@SETTINGS
@given(st.one_of(hands(REMI_DECK, 13, 13), hands(DENSE, 13, 13)))
def test_remi13d_hand_score_arrangement_is_valid(hand: list[Card]) -> None:
    """R13-12 on random 13-card hands: the arrangement accounts for its points."""
    got = remi13d.hand_score(hand)
    check_remi(hand, got.melds, got.dead, got.points)
    assert remi13d.hand_value(hand) == got.points


@SETTINGS
@given(hands(DENSE, 14, 14))
def test_remi13d_best_close_is_valid_and_best(hand14: list[Card]) -> None:
    """R13-7/R13-11: the best close is a valid close, and no other closing card does better."""
    best = remi13d.best_close(hand14)
    scores = []
    for closing in remi13d.closing_candidates(hand14):
        rest = list(hand14)
        rest.remove(closing)
        with contextlib.suppress(remi13d.CloseRefused):
            scores.append(remi13d.close_score(rest, closing).points)
    if best is None:
        assert scores == []
        return
    assert best.points == max(scores) and best.closing is not None and best.dead == ()
    rest = list(hand14)
    rest.remove(best.closing)
    check_remi(rest, best.melds, (), best.points, bonus=best.bonus)


@SETTINGS
@given(st.integers(1, 11), st.sampled_from(ACES), st.booleans(), st.data())
def test_three_thirteen_arrangement_is_valid(
    round_no: int, ace: AceMode, after_draw: bool, data: st.DataObject
) -> None:
    """R3-7 on random hands of the round's size, or one card more with the best discard."""
    size = three_thirteen.hand_size(round_no) + after_draw
    hand = data.draw(st.one_of(hands(T13_DECK, size, size), hands(DENSE, size, size)))
    got = three_thirteen.deadwood(hand, round_no=round_no, ace=ace, discard=after_draw)
    check_t13(hand, got, round_no, ace)
    assert (got.discard is not None) == after_draw


# -- optimality against the brute force ---------------------------------------


@pytest.mark.parametrize(
    ("all_melded", "need_pure"), [(False, False), (False, True), (True, False), (True, True)]
)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=st.one_of(hands(DENSE, 1, 8), hands(REMI_DECK, 1, 8), with_pure_run()))
def test_remi13d_solver_value_is_the_brute_force_optimum(
    hand: list[Card], all_melded: bool, need_pure: bool
) -> None:
    """R13-8/R13-9/R13-10/R13-12: no partition of the hand scores more than the solver finds."""
    goal = Goal(all_melded=all_melded, need_pure=need_pure)
    want = brute_force(hand, remi_meld, remi_dead, all_melded=all_melded, need_pure=need_pure)
    value = remi13d.SOLVER.value(hand, goal=goal)
    assert (value if value > NEG // 2 else IMPOSSIBLE) == want
    found = remi13d.SOLVER.solve(hand, goal=goal)
    assert (found is None) == (want is None)
    if isinstance(found, Arrangement):
        assert found.value == want
        assert not all_melded or found.dead == ()
        assert not need_pure or any(is_pure(m) for m in found.melds)
        points = [remi_meld_points(m) for m in found.melds]
        assert points == [m.points for m in found.melds]
        assert Counter(hand) == Counter(found.cards())
        assert sum(points) + sum(remi_dead(c) for c in found.dead) == want


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hand=st.one_of(hands(DENSE, 1, 8), hands(T13_DECK, 1, 8)),
    round_no=st.integers(1, 11),
    ace=st.sampled_from(ACES),
)
def test_three_thirteen_deadwood_is_the_brute_force_optimum(
    hand: list[Card], round_no: int, ace: AceMode
) -> None:
    """R3-3/R3-4/R3-7 with wild cards and both ace modes."""
    got = three_thirteen.deadwood(hand, round_no=round_no, ace=ace)
    assert got.points == t13_brute_force(hand, round_no, ace)
    check_t13(hand, got, round_no, ace)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hand=st.one_of(hands(DENSE, 2, 8), hands(T13_DECK, 2, 8)),
    round_no=st.integers(1, 11),
    ace=st.sampled_from(ACES),
    data=st.data(),
)
def test_three_thirteen_best_discard_is_the_brute_force_optimum(
    hand: list[Card], round_no: int, ace: AceMode, data: st.DataObject
) -> None:
    """R3-5/R3-7: the best discard, never the kept card (a wild one included)."""
    keep = data.draw(st.sampled_from([None, *hand]))
    if keep is not None and hand.count(keep) == len(hand):
        return  # nothing may be discarded
    got = three_thirteen.deadwood(hand, round_no=round_no, ace=ace, discard=True, keep=keep)
    assert got.points == t13_brute_force(hand, round_no, ace, discard=True, keep=keep)
    assert got.discard is not None and got.discard is not keep
    check_t13(hand, got, round_no, ace)
