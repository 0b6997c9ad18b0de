"""Rummy 500: scenarios per rule id (RULES.md §2), options, illegal actions, views, records."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from remikit.actions import Discard, Draw, Pass, parse_action
from remikit.cards import JOKER, NATURALS, Card, parse_cards
from remikit.engine import Game, OptionError, OptionText
from remikit.errors import IllegalAction
from remikit.records import load_record, replay
from remikit.variants import find_variant
from remikit.variants.rummy500.actions import CallRummy, Decline
from remikit.variants.rummy500.game import Rummy500Game
from remikit.variants.rummy500.melds import PlacedMeld, hand_points
from remikit.variants.rummy500.new_melds import resolve_meld
from remikit.variants.rummy500.options import Rummy500Options
from remikit.variants.rummy500.rules import Rummy500Deal
from remikit.variants.rummy500.state import Rummy500ViewPart
from remikit.views import Laid, TableMeld
from tests.random_play import play
from tests.stacked import Stacked, act, deal_stacked, snapshot, stack_deck

__all__ = ["Stacked", "act", "check_table", "new_game"]

# -- helpers -----------------------------------------------------------------------------


def C(text: str) -> Card:
    return Card.parse(text)


def options(**values: object) -> Rummy500Options:
    return Rummy500Options.from_mapping(values)


def new_game(
    stacked: Stacked,
    hands: list[str],
    *,
    up: str,
    stock: str = "",
    dealer: int | None = None,
    **values: object,
) -> Rummy500Game:
    """Hand 1 of a game whose deck deals ``hands`` (by seat), then ``up``, then ``stock``."""
    opts = options(players=len(hands), **values)
    dealer = opts.players - 1 if dealer is None else dealer
    return deal_stacked(
        Rummy500Game(opts, auto_deal=False), stacked, hands, dealer=dealer, up=up, stock=stock
    )


def deal_of(game: Rummy500Game) -> Rummy500Deal:
    deal = game.deal
    assert isinstance(deal, Rummy500Deal)
    return deal


def refused(game: Rummy500Game, line: str, key: str) -> IllegalAction:
    """``line`` is illegal for the reason ``key`` and changes nothing."""
    before = snapshot(game)
    seat, text = line.split(maxsplit=1)
    with pytest.raises(IllegalAction) as info:
        game.apply(int(seat[1:]), parse_action(text))
    assert info.value.key == key, str(info.value)
    assert str(info.value) and info.value.text("id") != str(info.value)
    assert snapshot(game) == before
    assert parse_action(text) not in game.legal_actions(int(seat[1:]))
    return info.value


def texts(actions: Sequence[object]) -> list[str]:
    return [str(a) for a in actions]


def points(game: Rummy500Game) -> tuple[int, ...]:
    summary = deal_of(game).summary
    assert summary is not None
    return summary.points


# A three-player table (seat 2 deals, seat 0 plays first) used by several tests.
P0 = "5h 6h 7h Kc Ks Kd 2c"
P1 = "8h 8c 8d 4s Jc Qd 3s"
P2 = "4c 9d Td 6c Qs 5s Jd"
P1_OUT = "2h 8c 8d 4s Jc Qd 3s"  # P1 without the 8h of OUT_HAND


# -- R5-1: players and decks -------------------------------------------------------------


def test_R5_1_two_to_eight_players_one_deck_with_jokers_to_four_then_two() -> None:
    for players, size in ((2, 54), (3, 54), (4, 54), (5, 108), (8, 108)):
        game = Rummy500Game(options(players=players), rng=random.Random(players))
        deck = game.full_deck()
        decks = size // 54
        assert Counter(deck) == Counter(list(NATURALS) * decks + [JOKER] * (2 * decks))
        deal = deal_of(game)
        assert Counter(deal.cards_in_play()) == Counter(deck)
        hand = 13 if players == 2 else 7
        assert len(deal.stock) == size - players * hand - 1
    default = Rummy500Options()
    assert (default.players, default.jokers, default.target, default.scoring) == (
        3,
        True,
        500,
        "standard",
    )
    assert (
        default.rummy_calls,
        default.floating,
        default.unplayable_last_discard,
        default.discard_taken_card,
    ) == (True, False, False, False)
    for bad in (
        {"players": 1},
        {"players": 9},
        {"target": 0},
        {"scoring": "5/10/15"},
        {"jokers": "maybe"},
        {"wild": 2},
    ):
        with pytest.raises(OptionError):
            options(**bad)
    typed = {
        "players": "5",
        "jokers": "false",
        "target": "150",
        "scoring": "5-10-15",
        "rummy_calls": "false",
        "floating": "true",
        "unplayable_last_discard": "true",
    }
    parsed = Rummy500Options.from_mapping({k: OptionText(v) for k, v in typed.items()})
    assert (
        parsed.players,
        parsed.jokers,
        parsed.target,
        parsed.scoring,
        parsed.rummy_calls,
        parsed.floating,
        parsed.unplayable_last_discard,
    ) == (5, False, 150, "5-10-15", False, True, True)
    for alias in ("rummy500", "500", "rummy-500", "R500"):
        assert find_variant(alias).game is Rummy500Game
    with pytest.raises(OptionError):
        Rummy500Game(Rummy500Options(players=12))


@pytest.mark.parametrize(
    "value",
    [1, 0, "true", None, OptionText("yes"), OptionText("1"), OptionText("True"), OptionText("on")],
)
def test_R5_1_jokers_is_a_boolean_taken_exactly(value: object) -> None:
    """CONTRACT.md "Table options": Rummy 500's ``jokers`` is ``true`` or ``false``."""
    with pytest.raises(OptionError, match="option jokers takes true or false"):
        Rummy500Options.from_mapping({"jokers": value})
    assert options(jokers=False).jokers is False
    assert Rummy500Options.from_mapping({"jokers": OptionText("false")}).jokers is False


def test_option_jokers_off_plays_without_jokers() -> None:
    for players, size in ((3, 52), (6, 104)):
        game = Rummy500Game(options(players=players, jokers=False), rng=random.Random(1))
        assert len(game.full_deck()) == size and JOKER not in game.full_deck()
        assert JOKER not in deal_of(game).cards_in_play()


# -- R5-2: the deal ----------------------------------------------------------------------


OUT_HAND = "7h 8h 9h Kc Ks Kd Kh"  # with a 2c drawn: two melds and a discard go out


def test_R5_2_seven_cards_with_three_or_more_up_card_and_the_deal_passes_on() -> None:
    game = Rummy500Game(options(players=3), auto_deal=False)
    for number in range(1, 5):
        dealer = (2 + number - 1) % 3
        first = (dealer + 1) % 3
        assert game.next_dealer() == dealer
        deal = game.start_deal(
            stack_deck(
                game.full_deck(),
                {first: OUT_HAND},
                players=3,
                dealer=dealer,
                size=7,
                up="5c",
                stock="2c",
            )
        )
        assert (deal.number, deal.dealer, deal.first) == (number, dealer, first)
        assert deal.to_play == first
        assert [len(h) for h in deal.hands] == [7, 7, 7]
        assert deal.hands[first] == parse_cards(OUT_HAND)
        assert deal.discard_pile == [C("5c")] and deal.stock[-1] == C("2c")
        act(
            game,
            f"p{first} draw stock",
            f"p{first} meld 7h 8h 9h",
            f"p{first} meld Kc Ks Kd Kh",
            f"p{first} discard 2c",
        )
        assert deal.is_over and deal_of(game).went_out == first
        if game.over:
            break
    assert game.deals[0].dealer == 2


def test_R5_2_thirteen_cards_with_two_players_and_a_record_may_name_the_first_dealer() -> None:
    game = Rummy500Game(options(players=2), auto_deal=False)
    hand = OUT_HAND + " 2s 3s 4s 5s 6s 7s"
    deal = game.start_deal(
        stack_deck(game.full_deck(), {1: hand}, players=2, dealer=0, size=13, up="Qd", stock="2c"),
        dealer=0,
    )
    assert [len(h) for h in deal.hands] == [13, 13] and deal.to_play == 1
    assert len(deal.stock) == 54 - 26 - 1
    act(
        game,
        "p1 draw stock",
        "p1 meld 7h 8h 9h",
        "p1 meld Kc Ks Kd Kh",
        "p1 meld 2s 3s 4s 5s 6s 7s",
        "p1 discard 2c",
    )
    assert deal.is_over and game.next_dealer() == 1
    with pytest.raises(ValueError, match="dealer"):
        game.start_deal(dealer=0)
    assert game.start_deal().dealer == 1


# -- R5-3: drawing -----------------------------------------------------------------------


def test_R5_3_top_stock_or_top_discard_freely(stacked: Stacked) -> None:
    game = new_game(stacked, [P0, P1, P2], up="Ah", stock="9c 2d")
    assert texts(game.legal_actions(0)) == ["draw stock", "draw discard"]
    act(game, "p0 draw discard")  # the Ah melds with nothing: no condition on the top card
    assert C("Ah") in deal_of(game).hands[0] and deal_of(game).must_meld is None
    refused(game, "p0 discard Ah", "taken_card")
    act(game, "p0 discard 2c", "p1 draw stock")
    assert C("9c") in deal_of(game).hands[1]


def test_R5_3_a_deeper_discard_only_if_it_can_be_melded_this_turn(stacked: Stacked) -> None:
    # p0 melds 5h 6h 7h; the up-card 8h can then be laid off by whoever takes it
    game = new_game(stacked, [P0, "9c 9s 4s Jc Qd 3s 2d", P2], up="8h", stock="Ah 7s Kh")
    act(game, "p0 draw stock", "p0 meld 5h 6h 7h", "p0 discard 2c")
    deal = deal_of(game)
    assert deal.discard_pile == parse_cards("8h 2c")
    assert texts(game.legal_actions(1)) == ["rummy 2", "pass"]  # R5-10 first
    act(game, "p1 pass", "p2 pass")
    assert "draw discard 2" in texts(game.legal_actions(1))
    act(game, "p1 draw discard 2")
    assert deal.must_meld == C("8h") and Rummy500ViewPart.of(game.view(2)).must_meld == C("8h")
    assert not any(isinstance(a, Discard) for a in game.legal_actions(1))
    refused(game, "p1 discard 2c", "must_meld_first")
    act(game, "p1 layoff 8h to 1")
    assert deal.must_meld is None
    act(game, "p1 discard 2c")  # one of several taken cards may go back (R5-7)
    assert deal.to_play == 2


def test_R5_3_an_unmeldable_deeper_discard_is_refused(stacked: Stacked) -> None:
    game = new_game(stacked, [P0, "9c 9s 4s Jc Qd 3s 2d", P2], up="8h", stock="Ah 7s")
    act(game, "p0 draw stock", "p0 discard 2c")  # no meld on the table
    error = refused(game, "p1 draw discard 2", "deep_draw_unmeldable")
    assert str(error) == (
        "8♥ (discard 2 from the top) may be taken only if you can meld it this turn"
    )
    refused(game, "p1 draw discard 3", "discard_too_deep")
    assert texts(game.legal_actions(1)) == ["draw stock", "draw discard"]


def test_R5_3_the_owed_card_may_need_lay_offs_first_and_may_not_be_stranded(
    stacked: Stacked,
) -> None:
    # the 9h is owed: it fits meld 1 only after the 8h; melding the 8h in a set would strand it
    game = new_game(stacked, [P0, "8h 8c 8d 4s Jc Qd 3s", P2], up="9h", stock="Ah 7s")
    act(game, "p0 draw stock", "p0 meld 5h 6h 7h", "p0 discard 2c", "p1 draw discard 2")
    deal = deal_of(game)
    legal = texts(game.legal_actions(1))
    assert "layoff 8h to 1" in legal and "meld 8c 8d 8h" not in legal
    assert not any(t.startswith("discard") for t in legal)
    refused(game, "p1 meld 8h 8c 8d", "would_strand_owed")
    act(game, "p1 layoff 8h to 1")
    assert deal.must_meld == C("9h")
    act(game, "p1 layoff 9h to 1", "p1 discard 2c")
    assert deal.table[0].cards() == parse_cards("5h 6h 7h 8h 9h")


def test_R5_3_with_two_decks_melding_an_identical_card_pays_the_debt(stacked: Stacked) -> None:
    hands = [
        "2c 3d 4s 5c Jd Qs Kh",
        "9h 9c 9d 2s 3s 7d 7c",
        "4c 4d 6s 6d 8s 8d Tc",
        "2h 3h 4h Js Qc 5d 5s",
        "6c 6h 8c 8h Th Ts Jc",
    ]
    game = new_game(stacked, hands, up="9h", stock="Kd 2d")
    act(game, "p0 draw stock", "p0 discard Kd", "p1 draw discard 2")
    deal = deal_of(game)
    assert deal.must_meld == C("9h") and deal.hands[1].count(C("9h")) == 2
    act(game, "p1 meld 9h 9c 9d")
    assert deal.must_meld is None
    act(game, "p1 discard 9h")  # the other 9h, one of two cards taken


# -- R5-4: melds -------------------------------------------------------------------------


def test_R5_4_any_number_of_melds_per_turn_sets_and_runs(stacked: Stacked) -> None:
    game = new_game(
        stacked,
        ["Ah 2h 3h Qs Ks As 9c", "2c 8c 8d 4s Jc Qd 3s", "4c 9h Td 6c 7s 5s Jd"],
        up="Th",
        stock="9d 9s 5c",
    )
    act(game, "p0 draw stock")
    refused(game, "p0 meld Ks As 2h", "meld_invalid")  # K A 2 never wraps
    refused(game, "p0 meld 9c 9d", "meld_too_short")
    refused(game, "p0 meld 9c 9d Ah", "meld_invalid")
    act(game, "p0 meld Ah 2h 3h", "p0 meld Qs Ks As")
    legal = texts(game.legal_actions(0))
    assert "discard 9c" in legal and "layoff 9c to 1" not in legal
    act(game, "p0 discard 9c")
    deal = deal_of(game)
    assert [m.number for m in deal.table] == [1, 2]
    assert [m.kind for m in deal.table] == ["run", "run"]
    assert game.view(1).table[1] == TableMeld(
        2, tuple(parse_cards("Qs Ks As")), (None, None, None), (0, 0, 0)
    )
    assert deal.table_points(0) == 1 + 2 + 3 + 10 + 10 + 15


def test_R5_4_two_decks_a_set_has_all_suits_different(stacked: Stacked) -> None:
    hands = [
        "5h 5h 5d 5c 2s 3s 7d",
        "9h 9c 9d 2d 3d 7s 7c",
        "4c 4d 6s 6d 8s 8d Tc",
        "2h 3h 4h Js Qc Jk Jk",
        "6c 6h 8c 8h Th Ts Jc",
    ]
    game = new_game(stacked, hands, up="9s", stock="Kd Qd Kc Kh")
    act(game, "p0 draw stock")
    refused(game, "p0 meld 5h 5h 5d", "meld_invalid")
    refused(game, "p0 meld 5h 5h 5d 5c", "meld_invalid")
    assert "meld 5c 5d 5h" in texts(game.legal_actions(0))
    act(
        game,
        "p0 meld 5h 5d 5c",
        "p0 discard 2s",
        "p1 draw stock",
        "p1 discard 2d",
        "p2 draw stock",
        "p2 discard Tc",
        "p3 draw stock",
    )
    assert deal_of(game).hands[3][-1] == C("Kh")
    refused(game, "p3 meld Jk Jk Jk=Qh", "not_in_hand")
    refused(game, "p3 meld Jk=2c Jk=3c 4h", "meld_invalid")
    refused(game, "p3 meld Jk=Jh Jk=Jd", "meld_too_short")
    refused(game, "p3 layoff Jk=5s to 1", "joker_layoff_runs")  # R5-6: runs only, by default


# -- R5-5: lay-offs ----------------------------------------------------------------------


def test_R5_5_lay_off_on_any_meld_credited_to_who_laid_it(stacked: Stacked) -> None:
    game = new_game(stacked, [P0, P1, "4c 9d Td 6c Qs 5s Kh"], up="Ah", stock="3c 4h 9h 2s")
    act(
        game,
        "p0 draw stock",
        "p0 meld 5h 6h 7h",
        "p0 meld Kc Ks Kd",
        "p0 discard 2c",
        "p1 draw stock",
    )
    refused(game, "p1 layoff 8c to 1", "layoff_invalid")
    refused(game, "p1 layoff 8h to 3", "no_such_meld")
    refused(game, "p1 layoff 9h to 1", "not_in_hand")
    act(
        game,
        "p1 layoff 8h to 1",
        "p1 layoff 4h to 1",
        "p1 discard 3s",
        "p2 draw stock",
        "p2 layoff 9h to 1",
        "p2 layoff Kh to 2",
    )
    deal = deal_of(game)
    meld1 = game.view(2).table[0]
    assert meld1.cards == tuple(parse_cards("4h 5h 6h 7h 8h 9h"))
    assert meld1.laid_by == (1, 0, 0, 0, 1, 2)
    assert game.view(0).table[1].laid_by == (0, 0, 0, 2)
    assert [deal.table_points(s) for s in range(3)] == [18 + 30, 12, 19]
    assert deal.table_points() == 18 + 30 + 12 + 19


# -- R5-6: jokers ------------------------------------------------------------------------


def test_R5_6_jokers_declare_an_identity_that_never_changes(stacked: Stacked) -> None:
    game = new_game(
        stacked,
        ["5h 6h 7h Kc Ks Jk Jk", "8h 9h 4d 3c 2s Qd Td", "4c 9d Tc 6c Qs 5s Jd"],
        up="Ac",
        stock="2c 7s 6s 5c",
    )
    act(game, "p0 draw stock")
    error = refused(game, "p0 meld Kc Ks Jk", "joker_ambiguous")
    assert str(error) == "say what the joker stands for: Jk=Kd / Jk=Kh"
    act(game, "p0 meld 5h 6h 7h")
    refused(game, "p0 layoff Jk to 1", "joker_ambiguous")
    refused(game, "p0 layoff Jk=9h to 1", "layoff_invalid")
    legal = texts(game.legal_actions(0))
    assert "layoff Jk=4h to 1" in legal and "layoff Jk=8h to 1" in legal
    act(game, "p0 layoff Jk=8h to 1", "p0 discard 2c", "p1 draw stock")
    assert game.view(1).table[0].stands_for == (None, None, None, C("8h"))
    refused(game, "p1 layoff 8h to 1", "layoff_invalid")  # the joker holds 8h for good
    act(
        game,
        "p1 layoff 9h to 1",
        "p1 discard 7s",
        "p2 draw stock",
        "p2 discard 6s",
        "p0 draw stock",
    )
    act(game, "p0 meld Kc Ks Jk=Kd")
    assert game.view(2).table[1].stands_for == (None, None, C("Kd"))
    assert deal_of(game).table_points(0) == 5 + 6 + 7 + 15 + 10 + 10 + 15


JOKER_HANDS = ["Kc Ks Kd 2c 3d 9s 7h", "Jk 4s 6d 8c Qh 2h 9d", "4c 5d 7s Td Jc 3h 6h"]


def test_R5_6_option_joker_layoff_runs_by_default_or_any() -> None:
    assert Rummy500Options().joker_layoff == "runs"
    assert options(joker_layoff="any").joker_layoff == "any"
    with pytest.raises(OptionError, match="joker_layoff"):
        options(joker_layoff="sets")
    described = {o.name: o for o in Rummy500Options.describe()}
    assert described["joker_layoff"].choices == ("runs", "any")


@pytest.mark.parametrize("joker_layoff", ["runs", "any"])
def test_R5_6_a_joker_laid_off_onto_a_set_only_with_joker_layoff_any(
    stacked: Stacked, joker_layoff: str
) -> None:
    game = new_game(stacked, JOKER_HANDS, up="Ah", stock="5s Ad", joker_layoff=joker_layoff)
    act(game, "p0 draw stock", "p0 meld Kc Ks Kd", "p0 discard 2c", "p1 draw stock")
    legal = texts(game.legal_actions(1))
    if joker_layoff == "runs":
        assert not any(a.startswith("layoff") for a in legal)
        error = refused(game, "p1 layoff Jk=Kh to 1", "joker_layoff_runs")
        assert "only onto a run" in str(error) and "hanya boleh ditempel" in error.text("id")
        refused(game, "p1 layoff Jk to 1", "joker_layoff_runs")
    else:
        assert [a for a in legal if a.startswith("layoff")] == ["layoff Jk=Kh to 1"]
        act(game, "p1 layoff Jk to 1")  # only the Kh is missing
        meld = game.view(2).table[0]
        assert meld.stands_for == (None, None, None, C("Kh")) and meld.laid_by == (0, 0, 0, 1)


@pytest.mark.parametrize("joker_layoff", ["runs", "any"])
def test_R5_6_R5_10_a_discarded_joker_may_be_called_only_where_it_may_be_laid_off(
    stacked: Stacked, joker_layoff: str
) -> None:
    hands = ["Kc Ks Kd Jk 3d 9s 7h", "2c 4s 6d 8c Qh 2h 9d", "4c 5d 7s Td Jc 3h 6h"]
    game = new_game(stacked, hands, up="Ah", stock="5s", joker_layoff=joker_layoff)
    act(game, "p0 draw stock", "p0 meld Kc Ks Kd", "p0 discard Jk")
    if joker_layoff == "runs":  # nowhere to go: not a card anyone can call
        assert deal_of(game).callable_depths() == frozenset()
        refused(game, "p2 rummy 1", "rummy_not_playable")
    else:
        assert deal_of(game).callable_depths() == {1}
        assert CallRummy(1) in game.legal_actions(1)  # the next player is asked first
        act(game, "p2 rummy 1", "p2 layoff Jk=Kh to 1")
        assert game.view(0).table[0].laid_by == (0, 0, 0, 2)


# -- R5-7: discarding --------------------------------------------------------------------


def test_R5_7_one_taken_card_may_not_go_back_several_may(stacked: Stacked) -> None:
    game = new_game(stacked, [P0, P1, P2], up="Ah", stock="9c 2d 3d")
    act(game, "p0 draw discard")
    error = refused(game, "p0 discard Ah", "taken_card")
    assert "A♥" in str(error)
    assert "discard Ah" not in texts(game.legal_actions(0))
    act(game, "p0 meld 5h 6h 7h", "p0 discard 2c")
    assert deal_of(game).hands[0] == parse_cards("Kc Ks Kd Ah")


def test_option_discard_taken_card(stacked: Stacked) -> None:
    for allowed in (False, True):
        game = new_game(stacked, [P0, P1, P2], up="9s", stock="2d", discard_taken_card=allowed)
        act(game, "p0 draw discard")
        assert ("discard 9s" in texts(game.legal_actions(0))) == allowed
        if allowed:
            act(game, "p0 discard 9s")
        else:
            refused(game, "p0 discard 9s", "taken_card")


def test_R5_7_the_several_taken_cards_may_all_be_discarded_again(stacked: Stacked) -> None:
    game = new_game(stacked, [P0, "9c 9s 4s Jc Qd 3s 2d", P2], up="8h", stock="Ah 7s")
    act(
        game,
        "p0 draw stock",
        "p0 meld 5h 6h 7h",
        "p0 discard 2c",
        "p1 draw discard 2",
        "p1 layoff 8h to 1",
    )
    assert "discard 2c" in texts(game.legal_actions(1))


# -- R5-8: going out ---------------------------------------------------------------------


def test_R5_8_out_by_discarding_the_last_card(stacked: Stacked) -> None:
    game = new_game(stacked, [OUT_HAND, P1_OUT, P2], up="Ac", stock="2c")
    act(game, "p0 draw stock", "p0 meld 7h 8h 9h", "p0 meld Kc Ks Kd Kh", "p0 discard 2c")
    deal = deal_of(game)
    assert deal.is_over and deal.summary is not None
    assert (deal.summary.ended_by, deal.summary.by_seat) == ("out", 0)
    assert [r.went_out for r in deal.summary.results] == [True, False, False]
    p1 = 2 + 8 + 8 + 4 + 10 + 10 + 3
    p2 = 4 + 9 + 10 + 6 + 10 + 5 + 10
    assert points(game) == (24 + 40, -p1, -p2)
    assert game.totals == [64, -p1, -p2] and not game.over
    assert game.needs_deal


def test_R5_8_out_by_melding_everything_needs_no_discard(stacked: Stacked) -> None:
    game = new_game(stacked, ["7h 8h 9h Th Kc Ks Kd", P1_OUT, P2], up="Ac", stock="Kh")
    act(game, "p0 draw stock", "p0 meld 7h 8h 9h Th", "p0 meld Kc Ks Kd Kh")
    deal = deal_of(game)
    assert deal.is_over and deal.went_out == 0 and deal.discard_pile == [C("Ac")]
    assert points(game)[0] == 34 + 40
    assert game.legal_actions(1) == [] and game.legal_actions(0) == []


# -- R5-9: the stock runs out ------------------------------------------------------------


def exhaust_stock(game: Rummy500Game) -> None:
    """Every player in turn draws the top stock card and discards it, until the stock is empty."""
    deal = deal_of(game)
    while deal.stock:
        seat = deal.to_play
        assert seat is not None
        card = deal.stock[-1]
        game.apply(seat, Draw("stock"))
        game.apply(seat, Discard(card))
        no_calls(game)


def test_R5_9_at_an_empty_stock_take_discards_or_decline(stacked: Stacked) -> None:
    hands = [
        "2c 3d 4s 5c 7d 9s Jh",
        "2d 3s 4c 5d 7s 9c Jd",
        "2s 3c 4d 5s 7c 9d Js",
        "2h 3h 4h 6c 8d Tc Qs",
    ]
    game = new_game(stacked, hands, up="Kd")
    deal = deal_of(game)
    refused(game, "p0 decline", "decline_stock_left")
    exhaust_stock(game)
    seat = deal.to_play
    assert seat is not None
    refused(game, f"p{seat} draw stock", "stock_empty")
    legal = game.legal_actions(seat)
    assert Decline() in legal and Draw("stock") not in legal and Draw("discard") in legal
    top = deal.discard_pile[-1]
    keep = deal.hands[seat][0]
    act(game, f"p{seat} draw discard", f"p{seat} discard {keep}")
    assert top in deal.hands[seat]
    nxt = (seat + 1) % 4
    refused(game, f"p{seat} decline", "not_your_turn")
    act(game, f"p{nxt} decline")
    assert deal.is_over and deal.summary is not None
    assert (deal.summary.ended_by, deal.summary.by_seat) == ("declined", None)
    assert all(not r.went_out for r in deal.summary.results)
    assert deal.summary.points == tuple(-hand_points(hand) for hand in deal.hands)
    assert deal.summary.results[0].dead == tuple(deal.hands[0])


# -- R5-10: Rummy calls ------------------------------------------------------------------


RUMMY_HANDS = [P0, "9c 9d 4s 8h Qd 3s 2d", "4c 9h Td 6c Qs 5s Jd"]


def test_R5_10_rummy_call_priority_and_play_continues_after_caller(stacked: Stacked) -> None:
    game = new_game(stacked, RUMMY_HANDS, up="Js", stock="Ah 7s Kh 3c")
    refused(game, "p1 rummy 1", "rummy_closed")  # no discard yet
    act(
        game, "p0 draw stock", "p0 meld 5h 6h 7h", "p0 discard 2c", "p1 draw stock", "p1 discard 8h"
    )
    deal = deal_of(game)
    assert deal.phase == "call" and deal.awaiting() == [2, 0] and deal.to_play == 2
    assert deal.call_order(1) == [2, 0] and deal.call_order(2) == [0, 1]
    assert game.legal_actions(2) == [CallRummy(1), Pass()]  # the nearest seat first
    assert game.legal_actions(0) == [] and game.legal_actions(1) == []
    refused(game, "p1 rummy 1", "rummy_own_discard")
    refused(game, "p0 rummy 1", "rummy_not_asked")
    refused(game, "p2 draw stock", "rummy_answer_first")
    error = refused(game, "p2 rummy 2", "rummy_not_playable")
    assert str(error) == "the card at position 2 cannot be melded at once"
    refused(game, "p2 rummy 5", "discard_too_deep")
    act(game, "p2 pass")
    assert deal.to_play == 0 and game.legal_actions(0) == [CallRummy(1), Pass()]
    act(game, "p0 rummy 1")
    assert deal.to_play == 0 and deal.must_meld == C("8h")
    assert Rummy500ViewPart.of(game.view(1)).must_meld == C("8h")
    refused(game, "p0 discard Ks", "must_meld_first")
    refused(game, "p2 draw stock", "not_your_turn")
    act(game, "p0 layoff 8h to 1", "p0 discard Ks")
    assert deal.to_play == 1 and deal.phase == "draw"  # p2 lost the turn; Ks has no call
    assert deal.table[0].table_meld.laid_by == (0, 0, 0, 0)


def test_R5_10_a_call_may_take_a_card_meldable_with_the_cards_above_it(stacked: Stacked) -> None:
    game = new_game(
        stacked,
        ["Tc 2h 3d 4s 6d 8s Qh", "Jc 2s 3c 4d 6h 8d Qs", "4h 9d Td 6c 7s 5s Jd"],
        up="9c",
        stock="Kh Kd 5c 7c",
    )
    act(game, "p0 draw stock", "p0 discard Tc", "p1 draw stock", "p1 discard Jc")
    assert game.legal_actions(2) == [CallRummy(3), Pass()]
    act(game, "p0 rummy 3")  # as a record may write it: p2's pass left out
    deal = deal_of(game)
    assert deal.must_meld == C("9c") and deal.discard_pile == []
    legal = texts(game.legal_actions(0))
    assert legal == ["meld 9c Tc Jc"]
    act(game, "p0 meld 9c Tc Jc", "p0 discard 2h")
    assert deal.to_play == 1


def test_R5_10_no_call_after_the_next_draw_or_after_the_hand_ended(stacked: Stacked) -> None:
    game = new_game(stacked, RUMMY_HANDS, up="Js", stock="Ah 7s Kh 3c")
    act(
        game,
        "p0 draw stock",
        "p0 meld 5h 6h 7h",
        "p0 discard 2c",
        "p1 draw stock",
        "p1 discard 8h",
        "p2 draw stock",
    )
    refused(game, "p0 rummy 1", "rummy_closed")
    assert game.legal_actions(0) == []
    game = new_game(stacked, [OUT_HAND, P1_OUT, P2], up="Ac", stock="2c")
    act(game, "p0 draw stock", "p0 meld 7h 8h 9h", "p0 meld Kc Ks Kd Kh", "p0 discard 2c")
    with pytest.raises(IllegalAction) as info:
        deal_of(game).verify(1, CallRummy(1))
    assert info.value.key == "game_over"
    with pytest.raises(IllegalAction):
        act(game, "p1 rummy 1")


def test_option_rummy_calls_off(stacked: Stacked) -> None:
    game = new_game(stacked, RUMMY_HANDS, up="Js", stock="Ah 7s Kh 3c", rummy_calls=False)
    act(
        game, "p0 draw stock", "p0 meld 5h 6h 7h", "p0 discard 2c", "p1 draw stock", "p1 discard 8h"
    )
    assert game.legal_actions(0) == []
    assert CallRummy(1) not in game.legal_actions(2)
    refused(game, "p0 rummy 1", "rummy_off")
    assert deal_of(game).phase == "draw"


# -- R5-11, R5-12: values and hand scores ------------------------------------------------


SCORE_HANDS = ["Ah 2h 3h Qs Ks As Jk", "Ac Jk 8d 4s Jc Qd 3s", "4c 9d Td 6c 7s 5s 5h"]


def test_R5_11_R5_12_melded_minus_held_aces_low_and_jokers_flat(stacked: Stacked) -> None:
    game = new_game(stacked, SCORE_HANDS, up="Th", stock="2c 9c 5c")
    act(
        game,
        "p0 draw stock",
        "p0 meld Ah 2h 3h",
        "p0 meld Qs Ks As",
        "p0 discard 2c",
        "p1 draw stock",
        "p1 discard 9c",
        "p2 draw stock",
        "p2 discard 5h",
        "p0 draw discard",
        "p0 layoff Jk=4h to 1",
    )
    # p0 holds only the 5h it just took: it may not discard it, but may lay it off
    assert deal_of(game).hands[0] == [C("5h")]
    refused(game, "p0 discard 5h", "taken_card")
    assert texts(game.legal_actions(0)) == ["layoff 5h to 1"]
    act(game, "p0 layoff 5h to 1")
    deal = deal_of(game)
    assert deal.is_over and deal.summary is not None and deal.went_out == 0
    results = deal.summary.results
    assert results[0].points == (1 + 2 + 3 + 15 + 5) + (10 + 10 + 15)
    assert results[0].melds == (("Ah", "2h", "3h", "Jk=4h", "5h"), ("Qs", "Ks", "As"))
    assert results[0].dead == () and results[0].went_out
    assert results[1].points == -(15 + 15 + 8 + 4 + 10 + 10 + 3)  # negative scores stand
    assert results[1].dead == tuple(parse_cards("Ac Jk 8d 4s Jc Qd 3s"))
    assert results[1].melds == ()
    assert results[2].points == -(4 + 9 + 10 + 6 + 7 + 5 + 5)
    assert game.totals == list(deal.summary.points)
    # the breakdown: each meld and the lay-offs, with their points; what is held goes off
    assert results[0].laid == (
        Laid(1, 0, ("Ah", "2h", "3h"), 1 + 2 + 3, layoff=False),
        Laid(2, 0, ("Qs", "Ks", "As"), 10 + 10 + 15, layoff=False),
        Laid(1, 0, ("Jk=4h", "5h"), 15 + 5, layoff=True),
    )
    assert (results[0].held, results[1].held, results[1].laid) == (0, -results[1].points, ())
    assert sum(e.points for e in results[0].laid) - (results[0].held or 0) == results[0].points


def test_R5_5_the_breakdown_credits_a_lay_off_onto_another_seats_meld(stacked: Stacked) -> None:
    game = new_game(stacked, SCORE_HANDS, up="Th", stock="2c 9c 5c")
    act(
        game,
        "p0 draw stock",
        "p0 meld Ah 2h 3h",
        "p0 discard 2c",
        "p1 draw stock",
        "p1 layoff Jk=4h to 1",
        "p1 discard 9c",
        "p2 draw stock",
        "p2 layoff 5h to 1",
    )
    laid = deal_of(game).laid("standard")
    assert laid[0] == (Laid(1, 0, ("Ah", "2h", "3h"), 6, layoff=False),)
    assert laid[1] == (Laid(1, 0, ("Jk=4h",), 15, layoff=True),)
    assert laid[2] == (Laid(1, 0, ("5h",), 5, layoff=True),)


def test_R5_7_a_meld_may_not_leave_only_the_taken_card_when_it_cannot_be_laid_off(
    stacked: Stacked,
) -> None:
    game = new_game(stacked, SCORE_HANDS, up="Th", stock="2c 9c 5c")
    act(
        game,
        "p0 draw stock",
        "p0 meld Ah 2h 3h",
        "p0 meld Qs Ks As",
        "p0 discard 2c",
        "p1 draw stock",
        "p1 discard 9c",
        "p2 draw stock",
        "p2 discard 5c",
        "p0 draw discard",
    )
    refused(game, "p0 layoff Jk=4h to 1", "taken_card_left")
    assert texts(game.legal_actions(0)) == ["discard Jk"]


def test_option_5_10_15_scoring(data: Path) -> None:
    record = load_record(data / "records" / "r500-basic-going-out.json")
    record["options"] = {"players": 3, "scoring": "5-10-15"}
    result = replay(record).as_json()
    # p0: 8c 9c Tc (20) + Ah 2h 3h (5 + 5 + 5) − 6s 6d 4s (15); p1: 7h 8h 9h (15) + Kc Ks Kd
    # (30) + Jh (10); p2: 5c 5d 5s (15) + Th (10) − Qd Js 3c (25)
    assert result["hand_scores"] == [[20, 55, 0]]


# -- R5-13: the game ---------------------------------------------------------------------


def out_turn(game: Rummy500Game, seat: int) -> None:
    act(
        game,
        f"p{seat} draw stock",
        f"p{seat} meld 7h 8h 9h",
        f"p{seat} meld Kc Ks Kd Kh",
        f"p{seat} discard 2c",
    )


def test_R5_13_totals_accumulate_to_the_target_and_the_highest_wins() -> None:
    game = Rummy500Game(options(players=3, target=100), auto_deal=False)
    game.start_deal(
        stack_deck(
            game.full_deck(), {0: OUT_HAND}, players=3, dealer=2, size=7, up="5c", stock="2c"
        )
    )
    out_turn(game, 0)
    first = points(game)
    assert first[0] == 64 and not game.over and game.totals == list(first)
    # hand 2: seat 0 deals, seat 1 plays first; seat 0 melds all eight cards (79 points)
    game.start_deal(
        stack_deck(
            game.full_deck(),
            {0: "7h 8h 9h Th Jh Qh Kh"},
            players=3,
            dealer=0,
            size=7,
            up="5c",
            stock="2c 3c Ah",
        )
    )
    act(
        game,
        "p1 draw stock",
        "p1 discard 2c",
        "p2 draw stock",
        "p2 discard 3c",
        "p0 draw stock",
        "p0 meld 7h 8h 9h Th Jh Qh Kh Ah",
    )
    second = points(game)
    assert second[0] == 79
    assert game.totals == [a + b for a, b in zip(first, second, strict=True)]
    assert game.over and game.winner == 0 and game.totals[0] == 143
    assert game.legal_actions(0) == [] and game.view(None).game_over


def test_R5_13_a_tie_at_the_top_plays_another_hand() -> None:
    game = Rummy500Game(options(players=3, target=50), auto_deal=False)
    game.start_deal(
        stack_deck(
            game.full_deck(), {0: OUT_HAND}, players=3, dealer=2, size=7, up="5c", stock="2c"
        )
    )
    act(game, "p0 draw stock", "p0 meld 7h 8h 9h", "p0 meld Kc Ks Kd Kh")
    # seat 1 comes into this hand with exactly what it takes to tie seat 0 at 64
    game.totals[1] = 64 + hand_points(deal_of(game).hands[1])
    act(game, "p0 discard 2c")
    assert game.totals[0] == game.totals[1] == 64
    assert not game.over and game.winner is None and game.needs_deal
    game.start_deal(
        stack_deck(
            game.full_deck(), {1: OUT_HAND}, players=3, dealer=0, size=7, up="5c", stock="2c"
        )
    )
    out_turn(game, 1)
    assert game.over and game.winner == 1 and not game.needs_deal
    with pytest.raises(ValueError, match="over"):
        game.start_deal()


def test_option_target() -> None:
    for target, over in ((64, True), (65, False)):
        game = Rummy500Game(options(players=3, target=target), auto_deal=False)
        game.start_deal(
            stack_deck(
                game.full_deck(), {0: OUT_HAND}, players=3, dealer=2, size=7, up="5c", stock="2c"
            )
        )
        out_turn(game, 0)
        assert game.over == over
        assert game.winner == (0 if over else None)


# -- R5-14: floating and the unplayable last discard -------------------------------------


def floating_game(
    stacked: Stacked, *, p2_last: str, p2_discard: str, next_card: str
) -> Rummy500Game:
    """Seat 0 melds all eight cards on its first turn and floats; seats 1 and 2 discard
    2c and ``p2_discard``, so the pile is 6h 2c ``p2_discard``; seat 0 will draw ``next_card``."""
    hands = ["7h 8h 9h Th Kc Ks Kd", "2c 2s 4d 4c 9s Qd 5c", f"3d 5h 8d Td Qc 3s {p2_last}"]
    game = new_game(stacked, hands, up="6h", stock=f"Kh 5d 7c {next_card}", floating=True)
    act(game, "p0 draw stock", "p0 meld 7h 8h 9h Th", "p0 meld Kc Ks Kd Kh")
    deal = deal_of(game)
    assert not deal.is_over and deal.hands[0] == [] and deal.to_play == 1
    assert game.view(1).hand_sizes == (0, 7, 7) and deal.phase == "draw"
    act(game, "p1 draw stock", "p1 discard 2c", "p2 draw stock", f"p2 discard {p2_discard}")
    no_calls(game)
    return game


def no_calls(game: Rummy500Game) -> None:
    """Every seat a call window asks passes (R5-10)."""
    deal = deal_of(game)
    while deal.phase == "call":
        assert deal.to_play is not None
        game.apply(deal.to_play, Pass())


def test_R5_14_floating_draw_and_discard_to_go_out(stacked: Stacked) -> None:
    game = floating_game(stacked, p2_last="Jc", p2_discard="3d", next_card="2h")
    refused(game, "p0 draw discard", "taken_card_alone")  # 3d: nowhere to lay it off
    act(game, "p0 draw stock", "p0 discard 2h")
    deal = deal_of(game)
    assert deal.is_over and deal.went_out == 0 and points(game)[0] == 34 + 40


def test_R5_14_floating_take_discards_meld_them_and_discard_to_go_out(stacked: Stacked) -> None:
    game = floating_game(stacked, p2_last="Jc", p2_discard="5h", next_card="2h")
    refused(game, "p0 draw discard", "taken_card_alone")  # 5h fits only after the 6h
    act(game, "p0 draw discard 3", "p0 layoff 6h to 1", "p0 layoff 5h to 1", "p0 discard 2c")
    assert deal_of(game).is_over and points(game)[0] == 34 + 40 + 6 + 5


def test_R5_14_floating_meld_the_drawn_card_and_float_again(stacked: Stacked) -> None:
    game = floating_game(stacked, p2_last="Jc", p2_discard="3d", next_card="Jh")
    act(game, "p0 draw stock", "p0 layoff Jh to 1")
    deal = deal_of(game)
    assert not deal.is_over and deal.hands[0] == [] and deal.to_play == 1
    assert deal.phase == "draw"
    # a floater may take the top discard alone when it can lay it off at once
    game = floating_game(stacked, p2_last="Jh", p2_discard="Jh", next_card="2h")
    act(game, "p0 draw discard")
    refused(game, "p0 discard Jh", "taken_card")
    assert texts(game.legal_actions(0)) == ["layoff Jh to 1"]
    act(game, "p0 layoff Jh to 1")
    assert not deal_of(game).is_over and deal_of(game).to_play == 1


def test_R5_14_floating_take_several_meld_some_discard_and_carry_on(stacked: Stacked) -> None:
    game = floating_game(stacked, p2_last="Jc", p2_discard="3d", next_card="2h")
    act(game, "p0 draw discard 3", "p0 layoff 6h to 1", "p0 discard 2c")
    deal = deal_of(game)
    assert not deal.is_over and deal.hands[0] == [C("3d")] and deal.to_play == 1
    assert deal.phase == "draw"  # nothing on the pile can be called


def test_option_unplayable_last_discard(stacked: Stacked) -> None:
    hands = [OUT_HAND, P1_OUT, P2]
    for on in (False, True):
        game = new_game(stacked, hands, up="Ac", stock="Th", unplayable_last_discard=on)
        act(game, "p0 draw stock", "p0 meld 7h 8h 9h", "p0 meld Kc Ks Kd Kh")
        if not on:
            act(game, "p0 discard Th")
            assert deal_of(game).went_out == 0
            continue
        error = refused(game, "p0 discard Th", "last_discard_playable")
        assert "10♥" in str(error)
        assert texts(game.legal_actions(0)) == ["layoff Th to 1"]
        act(game, "p0 layoff Th to 1")  # out by melding instead
        assert deal_of(game).went_out == 0 and points(game)[0] == 74
    game = new_game(stacked, hands, up="Ac", stock="2c", unplayable_last_discard=True)
    out_turn(game, 0)  # the 2c fits nowhere: a fine last discard
    assert deal_of(game).went_out == 0


def test_R5_7_a_single_top_discard_is_refused_when_it_would_be_the_whole_hand(
    stacked: Stacked,
) -> None:
    hands = [
        "5h 6h 7h 9c 9d 9s Qc",
        "2h 3h 4h Js Qs 5d 5s",
        "4c 4d 6s 6d 8s 8d Tc",
        "9h 9c 2d 3d 7s 7c 8h",
        "6c 6h 8c Qc Th Ts Jc",
    ]
    game = new_game(stacked, hands, up="Kd", stock="2c Ad Ac As Ah")
    act(game, "p0 draw stock", "p0 meld 5h 6h 7h", "p0 meld 9c 9d 9s", "p0 discard 2c")
    for seat, card in ((1, "Ad"), (2, "Ac"), (3, "As")):
        act(game, f"p{seat} draw stock", f"p{seat} discard {card}")
    act(game, "p4 draw stock", "p4 discard Qc")
    no_calls(game)
    assert deal_of(game).hands[0] == [C("Qc")]
    error = refused(game, "p0 draw discard", "taken_card_only")
    assert "Q♣" in str(error)
    assert "draw discard" not in texts(game.legal_actions(0))


# -- illegal actions change nothing ------------------------------------------------------


OPENING = [
    "p0 draw stock",
    "p0 meld 5h 6h 7h",
    "p0 discard 2c",
    "p1 draw stock",
    "p1 discard 8h",
    "p2 pass",
    "p0 pass",
]


@pytest.mark.parametrize(
    ("before", "line", "key"),
    [
        (0, "p1 draw stock", "not_your_turn"),
        (0, "p0 discard 2c", "draw_first"),
        (0, "p0 meld 5h 6h 7h", "draw_first"),
        (0, "p0 decline", "decline_stock_left"),
        (0, "p1 rummy 1", "rummy_closed"),
        (0, "p0 close 2c", "not_in_variant"),
        (1, "p0 draw stock", "already_drawn"),
        (1, "p0 meld Kc Ks 2c", "meld_invalid"),
        (1, "p0 meld Kc Ks Jk", "not_in_hand"),
        (1, "p0 layoff 2c to 1", "no_such_meld"),
        (1, "p0 discard 9h", "not_in_hand"),
        (1, "p1 meld 9c 9d 9s", "not_your_turn"),
        (2, "p0 layoff 2c to 1", "layoff_invalid"),
        (5, "p1 rummy 1", "rummy_own_discard"),
        (5, "p2 rummy 2", "rummy_not_playable"),
        (5, "p0 rummy 1", "rummy_not_asked"),
        (5, "p2 discard 4c", "rummy_answer_first"),
        (5, "p2 decline", "rummy_answer_first"),
        (6, "p2 discard 4c", "not_your_turn"),
        (7, "p2 discard 4c", "draw_first"),
        (7, "p2 decline", "decline_stock_left"),
    ],
)
def test_illegal_actions_have_a_reason_and_change_nothing(
    stacked: Stacked, before: int, line: str, key: str
) -> None:
    game = new_game(stacked, RUMMY_HANDS, up="Js", stock="Ah 7s Kh 3c")
    act(game, *OPENING[:before])
    refused(game, line, key)


def test_illegal_discard_while_a_meld_is_owed_and_calls_after_the_draw(stacked: Stacked) -> None:
    game = new_game(stacked, RUMMY_HANDS, up="Js", stock="Ah 7s Kh 3c")
    act(game, *OPENING[:5], "p0 rummy 1")
    refused(game, "p0 discard Kc", "must_meld_first")
    refused(game, "p2 rummy 1", "rummy_closed")
    game = new_game(stacked, RUMMY_HANDS, up="Js", stock="Ah 7s Kh 3c")
    act(game, *OPENING[:5], "p2 draw stock")
    refused(game, "p0 rummy 1", "rummy_closed")


# -- views and records -------------------------------------------------------------------


def test_views_show_the_table_and_the_owed_card_and_hide_hands(stacked: Stacked) -> None:
    game = new_game(stacked, RUMMY_HANDS, up="Js", stock="Ah 7s Kh 3c")
    act(game, *OPENING[:5], "p0 rummy 1")
    for seat in (0, 1, 2, None):
        view = game.view(seat)
        assert view.variant == "rummy500" and Rummy500ViewPart.of(view).must_meld == C("8h")
        assert view.table == (TableMeld(1, tuple(parse_cards("5h 6h 7h")), (None,) * 3, (0, 0, 0)),)
        assert view.hand_sizes == (5, 7, 7)
        assert view.discard_pile == tuple(parse_cards("Js 2c"))
        assert view.taken_from_discard == ((0, C("8h")),)
        assert view.hand == (tuple(deal_of(game).hands[seat]) if seat is not None else ())
    assert game.view(0).legal_actions == tuple(game.legal_actions(0))
    assert game.view(1).legal_actions == ()
    options = game.view(0).options
    assert isinstance(options, Rummy500Options) and options.rummy_calls is True
    act(game, "p0 layoff 8h to 1", "p0 discard Ks")
    assert Rummy500ViewPart.of(game.view(1)).must_meld is None


def test_the_shared_record_replays_to_its_expectation(data: Path) -> None:
    folder = data / "records"
    result = replay(load_record(folder / "r500-basic-going-out.json"))
    expected = json.loads((folder / "r500-basic-going-out.expect.json").read_text())
    assert result.as_json() == expected
    game = result.game
    assert isinstance(game, Rummy500Game)
    again = replay(game.record())
    assert again.as_json() == expected


def test_a_record_with_an_illegal_action_stops_there(data: Path) -> None:
    record = load_record(data / "records" / "r500-basic-going-out.json")
    record["hands"][0]["actions"][8] = "p0 draw discard 2"  # the 4s cannot be melded
    result = replay(record).as_json()
    assert result["ok"] is False and result["index"] == 8
    assert "may be taken only if you can meld it" in result["reason"]


# -- random play: Rummy 500's own invariants (tests/random_play.py checks the rest) -------

CHECKED: set[PlacedMeld] = set()


def check_meld(meld: PlacedMeld, number: int) -> None:
    """A table meld is still a valid meld with the same declarations (R5-4, R5-6)."""
    assert meld.number == number
    if meld in CHECKED:  # melds are immutable: each one is checked once
        return
    stands = [s.identity if s.card.is_joker else None for s in meld.slots]
    again = resolve_meld(meld.cards(), stands, seat=0, number=number)
    assert again.kind == meld.kind
    assert sorted(s.identity for s in again.slots) == sorted(s.identity for s in meld.slots)
    if meld.kind == "run":
        positions = [s.position for s in meld.slots]
        assert positions == list(range(meld.low, meld.high + 1))
        assert all(s.identity.suit == meld.suit for s in meld.slots)
    else:
        assert 3 <= len(meld.slots) <= 4
        assert len({s.identity.suit for s in meld.slots}) == len(meld.slots)
    if len(CHECKED) > 100_000:
        CHECKED.clear()
    CHECKED.add(meld)


def check_table(game: Game) -> None:
    """After every action: valid table melds whose credits add up to the table (R5-11),
    a finished hand scored as its credits less the cards held (R5-12), no discard while a
    card is owed to the table (R5-3), and a call window that asks the right seats and
    takes only calls and passes (R5-10)."""
    deal = game.deals[-1]
    assert isinstance(deal, Rummy500Deal) and isinstance(game.options, Rummy500Options)
    scoring = game.options.scoring
    credits = [0] * game.players
    for number, meld in enumerate(deal.table, start=1):
        check_meld(meld, number)
        for slot in meld.slots:
            credits[slot.seat] += slot.points(scoring)
    assert sum(credits) == deal.table_points(), "table credits add up to the table"
    if deal.summary is not None:
        for seat, result in enumerate(deal.summary.results):
            assert result.points == credits[seat] - hand_points(deal.hands[seat], scoring)
        return
    assert deal.to_play is not None
    legal = game.legal_actions(deal.to_play)
    if deal.must_meld is not None:
        assert not any(isinstance(a, Discard) for a in legal)
    if deal.phase == "call":  # R5-10: the seat asked calls or passes, nothing else
        assert deal.rummy_from is not None and deal.to_play in deal.call_order(deal.rummy_from)
        assert Pass() in legal and all(isinstance(a, CallRummy | Pass) for a in legal)


@pytest.mark.parametrize(
    "seeds", [range(0, 30), pytest.param(range(30, 200), marks=pytest.mark.slow)]
)
def test_random_hands_keep_the_table_valid(seeds: range) -> None:
    spec = find_variant("rummy500")
    for seed in seeds:
        play(spec, seed, check=False, extra=check_table)
