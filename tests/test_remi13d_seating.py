"""R13-2, the Remi 13 D seat draw: stacked draws for each case, then thousands of seeded ones."""

from __future__ import annotations

import random
from collections import Counter

from remikit.cards import JOKER, Card, make_deck, parse_cards
from remikit.cards import seat_draw_strength as strength
from remikit.shuffle import draw_seed, shuffled
from remikit.variants.remi13d.seating import SeatDraw, draw_seats

FULL = Counter(make_deck(decks=2, jokers=4))


class Stacked:
    """A seat draw's ``shuffle``: its first puts ``order`` on top of the deck, drawn in
    the order listed; later ones (a fresh deck) are random."""

    def __init__(self, order: str) -> None:
        self.order: list[Card] | None = parse_cards(order)
        self.rng = random.Random(0)

    def __call__(self, deck: list[Card]) -> list[Card]:
        if self.order is None:
            return shuffled(deck, draw_seed(self.rng))
        rest = list(deck)
        for card in self.order:
            rest.remove(card)
        top, self.order = self.order, None
        return rest + top[::-1]  # the draw takes from the end


def draw_stacked(order: str) -> SeatDraw:
    return draw_seats(random.Random(0), 4, shuffle=Stacked(order))


def drawn(draw: SeatDraw) -> list[str]:
    return [" ".join(str(c) for c in cards) for cards in draw.draws]


def test_R13_2_highest_plays_first_lowest_deals_one_card_each() -> None:
    draw = draw_stacked("7h As 2c Kd")
    assert drawn(draw) == ["7h", "As", "2c", "Kd"]
    assert draw.seats == (2, 0, 3, 1)
    assert draw.order == (1, 3, 0, 2)


def test_R13_2_equal_ranks_go_by_suit_spade_heart_diamond_club() -> None:
    draw = draw_stacked("Kh Kd Ks Kc")
    assert drawn(draw) == ["Kh", "Kd", "Ks", "Kc"]  # no redraw: the cards differ
    assert draw.order == (2, 0, 1, 3)


def test_R13_2_a_redraw_orders_only_the_tied_players() -> None:
    # players 0 and 1 tie on 8h below player 2's Kd; player 0's redraw (As) beats every
    # card drawn, yet player 0 stays below Kd, and player 1's 2c does not make them deal
    draw = draw_stacked("8h 8h Kd 5c As 2c")
    assert drawn(draw) == ["8h As", "8h 2c", "Kd", "5c"]
    assert draw.order == (2, 0, 1, 3)


def test_R13_2_a_tie_on_the_lowest_card_decides_only_who_deals() -> None:
    draw = draw_stacked("Qs 3d 9h 3d Kh Ac")
    assert drawn(draw) == ["Qs", "3d Kh", "9h", "3d Ac"]
    assert draw.order == (0, 2, 3, 1)  # Ac beats Kh, but both stay below 9h; 1 deals


def test_R13_2_a_tie_on_the_highest_card_decides_only_who_plays_first() -> None:
    draw = draw_stacked("As 2c As 7d 3c 4c")
    assert drawn(draw) == ["As 3c", "2c", "As 4c", "7d"]
    assert draw.order == (2, 0, 3, 1)  # 3c and 4c are low cards, still above 7d and 2c


def test_R13_2_two_ties_at_once_redraw_in_their_own_places_the_higher_first() -> None:
    draw = draw_stacked("Th 4s Th 4s 5d 6d Jc 2h")
    assert drawn(draw) == ["Th 5d", "4s Jc", "Th 6d", "4s 2h"]
    assert draw.order == (2, 0, 1, 3)


def test_R13_2_a_tie_that_ties_again_draws_a_third_time() -> None:
    draw = draw_stacked("9s 9s Ah 3c Kc Kc 2d Qd")
    assert drawn(draw) == ["9s Kc 2d", "9s Kc Qd", "Ah", "3c"]
    assert draw.order == (2, 1, 0, 3)


def test_R13_2_a_joker_draws_again_and_that_card_counts_against_everyone() -> None:
    draw = draw_stacked("Jk 8c Qh 5s Ks")
    assert drawn(draw) == ["Jk Ks", "8c", "Qh", "5s"]
    assert draw.order == (0, 2, 1, 3)


def test_R13_2_three_jokers_at_once_and_a_joker_again() -> None:
    # only two copies of a card exist, so no tie is three players; three jokers is the
    # largest group that draws again, and one of them draws the fourth joker
    draw = draw_stacked("Jk Jk Jk 6h 4c Jk Td 5c")
    assert drawn(draw) == ["Jk 4c", "Jk Jk 5c", "Jk Td", "6h"]
    assert draw.order == (2, 3, 1, 0)


def test_R13_2_a_joker_in_a_redraw_is_drawn_again_within_the_tie() -> None:
    draw = draw_stacked("Ad 7h 7h 6c Jk 2s 3s")
    assert drawn(draw) == ["Ad", "7h Jk 3s", "7h 2s", "6c"]
    assert draw.order == (0, 1, 2, 3)


def test_R13_2_players_who_did_not_tie_draw_exactly_once() -> None:
    draw = draw_stacked("Js 9d Js Qc 8s 7s 6s 5s")
    assert drawn(draw) == ["Js 8s", "9d", "Js 7s", "Qc"]  # 6s and 5s stay in the deck
    assert draw.order == (3, 0, 2, 1)


class Pairs:
    """A seat draw's ``shuffle``: its first lays out the deck in identical pairs, so two
    tied players tie again and again until the deck runs out."""

    def __init__(self) -> None:
        self.first = True
        self.rng = random.Random(7)

    def __call__(self, deck: list[Card]) -> list[Card]:
        if self.first:
            self.first = False
            return sorted(deck, key=lambda c: c.index)
        return shuffled(deck, draw_seed(self.rng))


def test_R13_2_a_draw_that_empties_the_deck_goes_on_with_a_fresh_one() -> None:
    draw = draw_seats(random.Random(7), 4, shuffle=Pairs())
    assert sum(len(d) for d in draw.draws) > sum(FULL.values())
    check_draw(draw)


def check_draw(draw: SeatDraw) -> None:
    """The seat order is each player's first natural card, high to low; players only draw
    again while tied, and a tie is ordered by the next cards of its players alone."""
    players = len(draw.draws)
    assert sorted(draw.seats) == list(range(players))
    naturals = [tuple(strength(c) for c in d if c is not JOKER) for d in draw.draws]
    for cards in draw.draws:
        assert cards[-1] is not JOKER  # a joker is always drawn again
    first = [n[0] for n in naturals]
    for p in range(players):
        for q in range(players):
            if first[p] > first[q]:
                assert draw.seats[p] < draw.seats[q], "a tie moved past another card"
        if first.count(first[p]) == 1:
            assert len(naturals[p]) == 1, "a player who did not tie drew again"
        for k in range(1, len(naturals[p])):
            assert any(naturals[q][:k] == naturals[p][:k] for q in range(players) if q != p)
    # within a tie, the next cards decide, and so on: the order is lexicographic
    assert [naturals[p] for p in draw.order] == sorted(naturals, reverse=True)
    assert len(set(naturals)) == players


def test_R13_2_thousands_of_draws_rank_by_first_card_and_reorder_ties_among_themselves() -> None:
    ties = 0
    for seed in range(5000):
        draw = draw_seats(random.Random(seed), 4)
        check_draw(draw)
        assert Counter(c for d in draw.draws for c in d) <= FULL
        ties += any(len([c for c in d if c is not JOKER]) > 1 for d in draw.draws)
    assert ties > 100  # the ties really were exercised
