"""Cards, notation, decks and names (RULES.md §0)."""

from __future__ import annotations

from collections import Counter

import pytest

from remikit.cards import (
    JOKER,
    NATURALS,
    Card,
    CardError,
    Rank,
    Suit,
    display_order,
    format_cards,
    make_deck,
    parse_cards,
)


def test_every_card_round_trips_through_its_text() -> None:
    for index in range(53):
        card = Card(index)
        assert Card.parse(str(card)) is card


@pytest.mark.parametrize(
    ("token", "text"),
    [
        ("As", "As"),
        ("10h", "Th"),
        ("Th", "Th"),
        ("th", "Th"),
        ("TH", "Th"),
        ("10H", "Th"),
        ("qD", "Qd"),
        ("2c", "2c"),
        (" 7s ", "7s"),
        ("Jk", "Jk"),
        ("JK", "Jk"),
        ("jk", "Jk"),
        ("*", "Jk"),
    ],
)
def test_parse_accepts_the_notation_and_its_variants(token: str, text: str) -> None:
    assert str(Card.parse(token)) == text


@pytest.mark.parametrize("token", ["", "A", "1s", "11h", "Ax", "Zs", "10", "Jkk", "As2", "♠A"])
def test_malformed_token_raises_card_error_naming_it(token: str) -> None:
    with pytest.raises(CardError) as err:
        Card.parse(token)
    assert repr(token) in str(err.value)
    assert isinstance(err.value, ValueError)


def test_parse_cards_reads_strings_lists_and_commas() -> None:
    want = ["As", "Th", "Jk", "2c"]
    assert [str(c) for c in parse_cards("As 10h Jk 2c")] == want
    assert [str(c) for c in parse_cards("As,10h, Jk  2c")] == want
    assert [str(c) for c in parse_cards(["As", "10h", "*", "2c"])] == want
    assert [str(c) for c in parse_cards(["As 10h", "Jk 2c"])] == want
    assert parse_cards("") == []


def test_parse_cards_names_the_bad_token() -> None:
    with pytest.raises(CardError, match="'Xq'"):
        parse_cards("As Xq Kd")


def test_cards_are_interned_and_immutable() -> None:
    assert Card.parse("Kd") is Card.of(Rank.KING, Suit.DIAMOND) is Card(Card.parse("Kd").index)
    assert Card.parse("Kd") == Card.parse("kd")
    assert Card.parse("Kd") != Card.parse("Kh")
    with pytest.raises(AttributeError):
        Card.parse("Kd").index = 3


def test_rank_and_suit() -> None:
    card = Card.parse("Qh")
    assert card.rank == Rank.QUEEN and card.suit == Suit.HEART
    assert not card.is_joker and JOKER.is_joker
    with pytest.raises(CardError):
        _ = JOKER.rank
    with pytest.raises(CardError):
        _ = JOKER.suit


def test_suit_order_for_seating_is_spade_heart_diamond_club() -> None:
    assert Suit.SPADE > Suit.HEART > Suit.DIAMOND > Suit.CLUB


def test_display_symbols() -> None:
    assert [c.symbol() for c in parse_cards("As 10h Td Qc Jk")] == ["A♠", "10♥", "10♦", "Q♣", "Jk"]
    assert format_cards(parse_cards("as 10h *")) == "As Th Jk"


def test_names_in_indonesian_and_english() -> None:
    assert Card.parse("As").name_in("id") == "As Sekop"
    assert Card.parse("As").name_in("en") == "Ace of Spades"
    assert Card.parse("Th").name_in("id") == "10 Hati"
    assert Card.parse("Qd").name_in("en") == "Queen of Diamonds"
    assert Card.parse("7c").name_in("id") == "7 Keriting"
    assert Card.parse("Kd").name_in("id") == "King Wajik"
    assert JOKER.name_in("id") == JOKER.name_in("en") == "Joker"
    assert [s.name_in("id") for s in Suit] == ["Keriting", "Wajik", "Hati", "Sekop"]


@pytest.mark.parametrize(("decks", "jokers"), [(1, 0), (1, 2), (2, 0), (2, 4), (3, 1)])
def test_deck_holds_each_natural_card_once_per_deck(decks: int, jokers: int) -> None:
    deck = make_deck(decks=decks, jokers=jokers)
    assert len(deck) == 52 * decks + jokers
    counts = Counter(deck)
    assert all(counts[c] == decks for c in NATURALS)
    assert counts[JOKER] == jokers


def test_remi13d_deck_is_108_cards() -> None:
    """R13-1: two full decks with jokers."""
    assert len(make_deck(decks=2, jokers=4)) == 108


def test_display_order_sorts_spades_first_and_jokers_last() -> None:
    hand = parse_cards("Jk 2c Ah Ks 3s")
    assert format_cards(sorted(hand, key=display_order)) == "3s Ks Ah 2c Jk"
