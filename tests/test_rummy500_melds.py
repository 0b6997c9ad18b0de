"""Rummy 500 table-meld logic: declared melds, lay-offs, values, placement, candidates."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from remikit.actions import LayOff, MeldCards
from remikit.cards import JOKER, NATURALS, Card, parse_cards
from remikit.errors import IllegalAction
from remikit.variants.rummy500.meldable import can_place
from remikit.variants.rummy500.melds import (
    PlacedMeld,
    candidate_layoffs,
    card_points,
    hand_points,
    layoff_options,
    playable,
    resolve_layoff,
)
from remikit.variants.rummy500.new_melds import candidate_melds, resolve_meld


def C(text: str) -> Card:
    return Card.parse(text)


def meld(text: str, seat: int = 0, number: int = 1) -> PlacedMeld:
    """A meld from record notation (``5h Jk=6h 7h``)."""
    cards, stands = [], []
    for token in text.split():
        left, _, right = token.partition("=")
        cards.append(Card.parse(left))
        stands.append(Card.parse(right) if right else None)
    return resolve_meld(cards, stands, seat=seat, number=number)


def reason(text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        meld(text)
    return info.value


def identities(m: PlacedMeld) -> list[str]:
    return [str(s.identity) for s in m.slots]


# -- R5-4: sets and runs -----------------------------------------------------------------


def test_R5_4_sets_of_3_or_4_one_rank_all_suits_different() -> None:
    assert meld("Kc Ks Kd").kind == "set"
    assert meld("Kc Ks Kd Kh").kind == "set"
    assert reason("Kc Ks").key == "meld_too_short"
    assert reason("Kc Kc Kd").key == "meld_invalid"  # two decks: suits must differ
    assert reason("Kc Ks Kd Kh Kh").key == "meld_invalid"
    assert reason("Kc Ks Qd").key == "meld_invalid"
    # a joker's declared suit counts too
    assert reason("Kc Ks Jk=Ks").key == "meld_invalid"
    assert identities(meld("Kc Ks Jk=Kd")) == ["Kc", "Ks", "Kd"]


def test_R5_4_runs_ace_low_or_high_never_wrapping() -> None:
    assert identities(meld("3h Ah 2h")) == ["Ah", "2h", "3h"]  # any order, laid in order
    low = meld("Ah 2h 3h")
    assert [s.position for s in low.slots] == [0, 1, 2]
    high = meld("Qh Kh Ah")
    assert [s.position for s in high.slots] == [11, 12, 13]
    assert reason("Kh Ah 2h").key == "meld_invalid"
    assert reason("5h 6h 8h").key == "meld_invalid"
    assert reason("5h 6h 7s").key == "meld_invalid"
    assert reason("5h 5h 6h 7h").key == "meld_invalid"
    long = meld(" ".join(f"{r}d" for r in "A23456789TJQK"))
    assert len(long.slots) == 13
    # the whole suit A … K: the ace fits either end and goes high, worth more to its holder
    assert long.slots[-1].identity == C("Ad") and long.slots[-1].position == 13


def test_R5_4_at_least_one_natural_card_per_meld() -> None:
    assert reason("Jk Jk Jk").key == "meld_no_natural"
    assert reason("Jk=5h Jk=6h Jk=7h").key == "meld_no_natural"
    assert identities(meld("Jk=5h Jk=6h 7h")) == ["5h", "6h", "7h"]


# -- R5-6: jokers declare an identity ----------------------------------------------------


def test_R5_6_undeclared_joker_only_when_its_identity_is_unique() -> None:
    assert identities(meld("5h Jk 7h")) == ["5h", "6h", "7h"]
    assert identities(meld("Kc Ks Kd Jk")) == ["Kc", "Ks", "Kd", "Kh"]
    assert identities(meld("Qh Jk Ah")) == ["Qh", "Kh", "Ah"]
    assert identities(meld("Jk Jk Ah 4h")) == ["Ah", "2h", "3h", "4h"]
    ambiguous = reason("5h 6h Jk")
    assert ambiguous.key == "joker_ambiguous"
    assert str(ambiguous) == "say what the joker stands for: Jk=4h / Jk=7h"
    assert "Jk=4h" in ambiguous.text("id")
    assert reason("Kc Ks Jk").key == "joker_ambiguous"
    assert reason("Kc Jk Jk").key == "joker_ambiguous"  # a set or a run
    assert reason("5h 7h Jk=9h").key == "meld_invalid"
    with pytest.raises(IllegalAction) as info:
        resolve_meld([C("5h"), C("6h"), C("7h")], [None, C("6h"), None], seat=0, number=1)
    assert info.value.key == "declare_only_joker"


def test_R5_6_a_joker_keeps_its_identity_and_credits_its_layer() -> None:
    m = meld("5h Jk=6h 7h", seat=2)
    assert m.table_meld.stands_for == (None, C("6h"), None)
    assert m.table_meld.laid_by == (2, 2, 2)
    assert layoff_options(m, C("6h"), joker_layoff="runs") == []  # the joker holds 6h for good
    m = resolve_layoff(m, C("8h"), None, seat=1, joker_layoff="runs")
    assert m.table_meld.laid_by == (2, 2, 2, 1)
    assert m.tokens(2) == ("5h", "Jk=6h", "7h") and m.tokens(1) == ("8h",)


# -- R5-5: lay-offs ----------------------------------------------------------------------


def test_R5_5_layoffs_extend_runs_at_either_end_and_fill_sets() -> None:
    run = meld("5h 6h 7h")
    assert [str(i) for i, _ in layoff_options(run, JOKER, joker_layoff="runs")] == ["4h", "8h"]
    assert identities(resolve_layoff(run, C("4h"), None, seat=0, joker_layoff="runs")) == [
        "4h",
        "5h",
        "6h",
        "7h",
    ]
    with pytest.raises(IllegalAction) as info:
        resolve_layoff(run, C("9h"), None, seat=0, joker_layoff="runs")
    assert info.value.key == "layoff_invalid" and str(info.value) == "9♥ does not fit meld 1"
    with pytest.raises(IllegalAction) as info:
        resolve_layoff(run, JOKER, None, seat=0, joker_layoff="runs")
    assert info.value.key == "joker_ambiguous"
    with pytest.raises(IllegalAction) as info:
        resolve_layoff(run, JOKER, C("9h"), seat=0, joker_layoff="runs")
    assert info.value.key == "layoff_invalid"
    assert identities(resolve_layoff(run, JOKER, C("8h"), seat=0, joker_layoff="runs"))[-1] == "8h"
    with pytest.raises(IllegalAction) as info:
        resolve_layoff(meld("Jh Qh Kh"), JOKER, None, seat=0, joker_layoff="runs")
    assert str(info.value) == "say what the joker stands for: Jk=Ah / Jk=Th"
    low = meld("Ah 2h 3h")
    assert identities(resolve_layoff(low, JOKER, None, seat=0, joker_layoff="runs")) == [
        "Ah",
        "2h",
        "3h",
        "4h",
    ]
    three = meld("Kc Ks Kd")
    four = resolve_layoff(three, C("Kh"), None, seat=1, joker_layoff="runs")
    assert identities(four) == ["Kc", "Ks", "Kd", "Kh"]
    assert not playable(C("Kh"), [four], joker_layoff="runs")
    with pytest.raises(IllegalAction):
        resolve_layoff(three, C("Kc"), None, seat=0, joker_layoff="runs")


def test_R5_6_joker_layoff_runs_a_joker_may_extend_a_run_but_not_join_a_set() -> None:
    three, run = meld("Kc Ks Kd"), meld("5h 6h 7h", number=2)
    assert layoff_options(three, JOKER, joker_layoff="runs") == []
    assert [str(i) for i, _ in layoff_options(run, JOKER, joker_layoff="runs")] == ["4h", "8h"]
    for stands_for in (None, C("Kh")):
        with pytest.raises(IllegalAction) as info:
            resolve_layoff(three, JOKER, stands_for, seat=0, joker_layoff="runs")
        assert info.value.key == "joker_layoff_runs"
    assert "only onto a run" in str(
        info.value
    ) and "hanya boleh ditempel pada urutan" in info.value.text("id")
    assert not playable(JOKER, [three], joker_layoff="runs")
    assert playable(JOKER, [three, run], joker_layoff="runs")
    assert candidate_layoffs(parse_cards("Kh Jk"), [three], joker_layoff="runs") == [
        LayOff(C("Kh"), 1)
    ]
    assert not can_place(JOKER, Counter([JOKER]), [three], joker_layoff="runs")


def test_R5_6_joker_layoff_any_a_joker_may_join_a_set_too() -> None:
    three = meld("Kc Ks Kd")
    assert [str(i) for i, _ in layoff_options(three, JOKER, joker_layoff="any")] == ["Kh"]
    laid = resolve_layoff(three, JOKER, None, seat=1, joker_layoff="any")
    assert identities(laid) == ["Kc", "Ks", "Kd", "Kh"] and laid.tokens(1) == ("Jk=Kh",)
    assert layoff_options(laid, JOKER, joker_layoff="any") == []  # four of a rank is full
    assert playable(JOKER, [three], joker_layoff="any")
    assert candidate_layoffs(parse_cards("Kh Jk"), [three], joker_layoff="any") == [
        LayOff(C("Kh"), 1),
        LayOff(JOKER, 1, C("Kh")),
    ]
    assert can_place(JOKER, Counter([JOKER]), [three], joker_layoff="any")


def test_R5_5_an_ace_goes_high_on_two_to_king_and_a_full_run_takes_nothing() -> None:
    run = meld(" ".join(f"{r}c" for r in "23456789TJQK"))
    laid = resolve_layoff(run, C("Ac"), None, seat=1, joker_layoff="runs")
    assert laid.slots[-1].identity == C("Ac") and laid.slots[-1].position == 13
    assert laid.slots[-1].points() == 15
    assert layoff_options(laid, JOKER, joker_layoff="any") == []  # never both aces: K A 2 wraps
    low = resolve_layoff(meld("2c 3c 4c"), C("Ac"), None, seat=0, joker_layoff="runs")
    assert low.slots[0].position == 0 and low.slots[0].points() == 1


# -- R5-11, R5-14: values ----------------------------------------------------------------


def test_R5_11_standard_values() -> None:
    assert [card_points(c) for c in parse_cards("2c 9d Th Js Qc Kd Ah Jk")] == [
        2,
        9,
        10,
        10,
        10,
        10,
        15,
        15,
    ]
    assert meld("Ah 2h 3h").points() == 1 + 2 + 3
    assert meld("Qh Kh Ah").points() == 10 + 10 + 15
    assert meld("Ac As Ad").points() == 45
    assert meld("Jk=Ah 2h 3h").points() == 15 + 5  # a joker is 15 whatever it stands for
    assert hand_points(parse_cards("Ah Jk 7c")) == 37


def test_R5_14_five_ten_fifteen_values() -> None:
    values = [card_points(c, "5-10-15") for c in parse_cards("2c 9d Th Js Qc Kd Ah Jk")]
    assert values == [5, 5, 10, 10, 10, 10, 15, 15]
    assert meld("Ah 2h 3h").points("5-10-15") == 15
    assert meld("Qh Kh Ah").points("5-10-15") == 35


# -- placement: deep draws and Rummy calls -----------------------------------------------


def test_can_place_new_meld_layoff_and_chains() -> None:
    table = [meld("5h 6h 7h"), meld("Kc Ks Kd", number=2)]
    hand = Counter(parse_cards("9h 2c"))
    assert not can_place(C("9h"), hand, table, joker_layoff="runs")  # 8h is missing
    assert can_place(
        C("9h"), hand + Counter([C("8h")]), table, joker_layoff="runs"
    )  # lay off 8h, then 9h
    assert can_place(C("9h"), hand + Counter([JOKER]), table, joker_layoff="runs")  # Jk=8h, then 9h
    assert can_place(C("Kh"), Counter([C("Kh")]), table, joker_layoff="runs")
    assert can_place(C("4h"), Counter([C("4h")]), table, joker_layoff="runs")
    assert can_place(C("2d"), Counter(parse_cards("2d 2s 2c")), [], joker_layoff="runs")
    assert can_place(C("2d"), Counter(parse_cards("2d 4d Jk")), [], joker_layoff="runs")
    assert not can_place(C("2d"), Counter(parse_cards("2d 5d Jk")), [], joker_layoff="runs")
    assert can_place(C("Ad"), Counter(parse_cards("Ad Qd Kd")), [], joker_layoff="runs")
    assert not can_place(C("Ad"), Counter(parse_cards("Ad Kd 2d")), [], joker_layoff="runs")
    assert can_place(JOKER, Counter([JOKER]), table, joker_layoff="runs")
    assert not can_place(JOKER, Counter([JOKER, C("2c")]), [], joker_layoff="runs")
    assert can_place(JOKER, Counter([JOKER, C("2c"), C("4c")]), [], joker_layoff="runs")
    assert can_place(JOKER, Counter([JOKER, JOKER, C("9s")]), [], joker_layoff="runs")


def _brute_can_place(
    card: Card, cards: Counter[Card], table: list[PlacedMeld], joker_layoff: str
) -> bool:
    """Search every sequence of melds and lay-offs (small hands only)."""
    from itertools import combinations

    def search(hand: Counter[Card], tab: tuple[PlacedMeld, ...], depth: int) -> bool:
        if hand[card] < cards[card]:
            return True
        if depth == 0:
            return False
        moves: list[tuple[Counter[Card], tuple[PlacedMeld, ...]]] = []
        for m in tab:
            for c in list(hand):
                if hand[c] <= 0:
                    continue
                for identity, _ in layoff_options(m, c, joker_layoff=joker_layoff):
                    try:
                        new = resolve_layoff(
                            m,
                            c,
                            identity if c.is_joker else None,
                            seat=0,
                            joker_layoff=joker_layoff,
                        )
                    except IllegalAction:
                        continue
                    rest = hand.copy()
                    rest[c] -= 1
                    moves.append((+rest, tuple(new if x is m else x for x in tab)))
        pool = list(hand.elements())
        for size in (3, 4):
            for combo in set(combinations(sorted(pool), size)):
                for option in candidate_melds(list(combo)):
                    if Counter(option.cards) != Counter(combo):
                        continue
                    try:
                        new_meld = resolve_meld(
                            option.cards, option.stands_for, seat=0, number=len(tab) + 1
                        )
                    except IllegalAction:
                        continue
                    moves.append((hand - Counter(combo), (*tab, new_meld)))
        return any(search(h, t, depth - 1) for h, t in moves)

    return search(+cards, tuple(table), 3)


@pytest.mark.parametrize("joker_layoff", ["runs", "any"])
def test_R5_6_R5_10_can_place_agrees_with_a_brute_force_search(joker_layoff: str) -> None:
    rng = random.Random(5)
    ranks = (1, 2, 3, 4, 5, 6, 12, 13)
    pool = [c for c in NATURALS if c.suit.letter in "hs" and int(c.rank) in ranks]
    pool += [JOKER, JOKER]
    tables = [[], [meld("3h 4h 5h")], [meld("Ks Qs Jk=Js"), meld("2h 2s Jk=2c", number=2)]]
    for _ in range(1000):
        cards = Counter(rng.sample(pool, rng.randint(1, 6)))
        card = rng.choice(list(cards))
        table = rng.choice(tables)
        assert can_place(card, cards, table, joker_layoff=joker_layoff) == _brute_can_place(
            card, cards, table, joker_layoff
        ), (card, cards)


@pytest.mark.parametrize("joker_layoff", ["runs", "any"])
def test_candidates_are_valid_and_cover_every_meld_of_small_hands(joker_layoff: str) -> None:
    hand = parse_cards("5h 6h 7h 8h Kc Ks Kd Jk")
    listed = candidate_melds(hand)
    for option in listed:
        resolve_meld(option.cards, option.stands_for, seat=0, number=1)
    texts = {str(m) for m in listed}
    assert "meld 5h 6h 7h" in texts and "meld 5h 6h 7h 8h" in texts
    assert "meld Kc Kd Ks Jk=Kh" in texts and "meld Kc Kd Ks" in texts
    assert "meld Jk=4h 5h 6h 7h 8h" in texts and "meld 5h 6h 7h 8h Jk=9h" in texts
    assert "meld Kc Kd Jk=Kh" in texts
    assert MeldCards((C("5h"), C("6h"), JOKER), (None, None, C("7h"))) not in listed
    table = [meld("Ah 2h 3h"), meld("Qc Qs Qd", number=2)]
    layoffs = candidate_layoffs(parse_cards("4h Qh Jk 9c"), table, joker_layoff=joker_layoff)
    on_set = {LayOff(JOKER, 2, C("Qh"))} if joker_layoff == "any" else set()  # R5-6
    assert set(layoffs) == {
        LayOff(C("4h"), 1),
        LayOff(JOKER, 1, C("4h")),
        LayOff(C("Qh"), 2),
        *on_set,
    }
