"""Three-Thirteen: scenarios per rule id (RULES.md §3), options, illegal actions, records."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from remikit.actions import Action, Discard, Draw, Play, parse_action
from remikit.cards import JOKER, NATURALS, Card, parse_cards
from remikit.engine import Game, OptionError, OptionText
from remikit.errors import IllegalAction
from remikit.i18n import t
from remikit.records import load_record, replay
from remikit.shuffle import shuffled
from remikit.variants import find_variant
from remikit.variants.three_thirteen import scoring
from remikit.variants.three_thirteen.rules import (
    JOKER_CHOICES,
    ThreeThirteenDeal,
    ThreeThirteenGame,
    ThreeThirteenOptions,
    reshuffle_seed,
)
from remikit.variants.three_thirteen.state import ThreeThirteenViewPart
from tests.random_play import play
from tests.stacked import Stacked, act, deal_stacked, snapshot, stack_deck

WILD_RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


# -- helpers ------------------------------------------------------------------


def options(**values: object) -> ThreeThirteenOptions:
    return ThreeThirteenOptions.from_mapping(values)


def new_game(
    stacked: Stacked,
    hands: list[str],
    *,
    up: str,
    stock: str = "",
    dealer: int | None = None,
    **values: object,
) -> ThreeThirteenGame:
    """Round 1 of a game whose deck deals ``hands`` (by seat), then ``up``, then ``stock``."""
    opts = options(players=len(hands), **values)
    dealer = opts.players - 1 if dealer is None else dealer
    return deal_stacked(
        ThreeThirteenGame(opts, auto_deal=False), stacked, hands, dealer=dealer, up=up, stock=stock
    )


def deal_of(game: ThreeThirteenGame) -> ThreeThirteenDeal:
    deal = game.deal
    assert isinstance(deal, ThreeThirteenDeal)
    return deal


HEARTS = [Card.parse(f"{r}h") for r in "A23456789TJQK"]
SPADES = [Card.parse(f"{r}s") for r in "A23456789TJQK"]
DIAMONDS = [Card.parse(f"{r}d") for r in "A23456789TJQK"]


def run_of(suit: list[Card], size: int) -> str:
    return " ".join(str(c) for c in suit[:size])


def play_round_first_goes_out(game: ThreeThirteenGame, hands: dict[int, str]) -> None:
    """Deal the next round so that ``hands`` are as given, then :func:`finish_round`."""
    size = len(game.deals) + 3
    game.start_deal(
        stack_deck(
            game.full_deck(), hands, players=game.players, dealer=game.next_dealer(), size=size
        )
    )
    finish_round(game)


def finish_round(game: ThreeThirteenGame) -> None:
    """Each player in turn draws the top stock card and discards it (so the first
    player goes out if dealt a complete hand) until the round ends."""
    deal = deal_of(game)
    while not deal.is_over:
        seat = deal.to_play
        assert seat is not None
        card = deal.stock[-1]
        game.apply(seat, Draw("stock"))
        game.apply(seat, Discard(card))


# -- R3-1 … R3-8 ----------------------------------------------------------------


def test_R3_1_two_decks_of_52_plus_0_2_or_4_jokers() -> None:
    for jokers in (0, 2, 4):
        game = ThreeThirteenGame(options(jokers=jokers), rng=random.Random(jokers))
        deck = game.full_deck()
        assert len(deck) == 104 + jokers
        assert Counter(deck) == Counter(list(NATURALS) * 2 + [JOKER] * jokers)
        deal = deal_of(game)
        assert Counter(deal.cards_in_play()) == Counter(deck)
        assert len(deal.stock) == 104 + jokers - 4 * 3 - 1
    default = ThreeThirteenOptions()
    assert (default.players, default.jokers, default.ace) == (4, 0, "low")
    assert default.discard_taken_card is False
    for jokers in (1, 3, 6, -2):
        with pytest.raises(OptionError, match="jokers"):
            options(jokers=jokers)
    for players in (2, 3, 7):
        assert ThreeThirteenGame(options(players=players), rng=random.Random(0)).players == players
    for players in (0, 1, 9):
        with pytest.raises(OptionError, match="players"):
            options(players=players)
    game = ThreeThirteenGame(options(), auto_deal=False)
    wrong = game.full_deck()
    wrong[wrong.index(Card.parse("7c"))] = Card.parse("8c")
    with pytest.raises(ValueError, match="7c"):
        game.start_deal(wrong)


def test_R3_2_eleven_rounds_of_3_to_13_cards_and_the_deal_passes_on() -> None:
    game = ThreeThirteenGame(options(players=3), auto_deal=False)
    seen = []
    for round_no in range(1, 12):
        size = round_no + 2
        dealer = (2 + round_no - 1) % 3  # seat 2 deals round 1, so seat 0 plays first
        first = (dealer + 1) % 3
        deck = stack_deck(
            game.full_deck(),
            {first: run_of(HEARTS, size)},
            players=3,
            dealer=dealer,
            size=size,
            up="5c",
            stock="Kc",
        )
        deal = game.start_deal(deck)
        seen.append((deal.number, deal.dealer, deal.first))
        assert [len(h) for h in deal.hands] == [size] * 3
        assert deal.hands[first] == HEARTS[:size]
        assert deal.discard_pile == [Card.parse("5c")]  # the card after the deal is turned up
        assert deal.stock[-1] == Card.parse("Kc")
        assert len(deal.stock) == 104 - 3 * size - 1
        assert deal.to_play == first
        assert game.view(0).deal_number == round_no
        act(game, f"p{first} draw stock", f"p{first} discard Kc")
        assert deal_of(game).went_out == first
        finish_round(game)
        assert game.over == (round_no == 11)
    assert seen == [(r, (1 + r) % 3, (2 + r) % 3) for r in range(1, 12)]
    assert len(game.deals) == 11
    with pytest.raises(ValueError, match="over"):
        game.start_deal()


def test_R3_2_first_dealer_from_a_record_then_the_next_seat_deals() -> None:
    game = ThreeThirteenGame(options(players=4), auto_deal=False)
    game.start_deal(
        stack_deck(game.full_deck(), {2: run_of(HEARTS, 3)}, players=4, dealer=1, size=3), dealer=1
    )
    assert (game.deals[0].dealer, game.to_play) == (1, 2)
    finish_round(game)
    assert deal_of(game).went_out == 2
    assert game.next_dealer() == 2
    with pytest.raises(ValueError, match="dealer"):
        game.start_deal(dealer=1)
    assert game.start_deal().dealer == 2


def test_R3_3_wild_rank_is_the_hand_size_and_jokers_are_always_wild(stacked: Stacked) -> None:
    _, wilds = _full_game(2)
    assert wilds == WILD_RANKS

    # Round 1 (threes wild): a three completes a set, three threes are a meld of wild
    # cards only, a joker fills a run; an unused joker is 20 (R3-7).
    game = new_game(
        stacked,
        ["9h 9d Kc", "3c 3d 3h", "Jk 5c 7c", "Jk Kd 9s"],
        up="Ts",
        stock="3s 8d 8h 8c",
        jokers=2,
    )
    assert ThreeThirteenViewPart.of(game.view(2)).wild_rank == "3"
    act(game, "p0 draw stock", "p0 discard Kc")  # 9h 9d 3s: out
    assert deal_of(game).went_out == 0
    act(
        game,
        "p1 draw stock",
        "p1 discard 8d",
        "p2 draw stock",
        "p2 discard 8h",
        "p3 draw stock",
        "p3 discard 8c",
    )
    summary = game.view(None).finished_deals[0]
    assert summary.points == (0, 0, 0, 39)
    assert summary.results[0].melds == (("9d", "9h", "3s=9s"),)
    assert summary.results[1].melds == (("3c", "3d", "3h"),)
    assert summary.results[2].melds == (("5c", "Jk=6c", "7c"),)


def test_R3_4_sets_may_repeat_suits_runs_take_the_ace_by_option_never_wrapping(
    stacked: Stacked,
) -> None:
    # a set of two decks: 9h 9h 9d is a meld
    game = new_game(stacked, ["9h 9h 9d", "2c 5d Jh"], up="Ts", stock="7c")
    act(game, "p0 draw stock", "p0 discard 7c")
    assert deal_of(game).went_out == 0

    for ace, out, wrap in (("high", 0, 10 + 15 + 2), ("low", None, 10 + 1 + 2)):
        game = new_game(
            stacked,
            ["Qh Kh Ah", "Kd Ad 2d", "4c 8s Jh"],
            up="Ts",
            stock="7c 6s 6d 6h 6c 5s 5d",
            ace=ace,
        )
        act(game, "p0 draw stock", "p0 discard 7c")
        assert deal_of(game).went_out == out
        if out is None:  # Q K A is no run with the ace low: play on
            act(
                game,
                "p1 draw stock",
                "p1 discard 6s",
                "p2 draw stock",
                "p2 discard 6d",
                "p0 draw stock",
                "p0 discard 6h",
            )
            assert not deal_of(game).is_over
            assert deal_of(game).deadwood_points(parse_cards("Kd Ad 2d")) == wrap
            continue
        act(game, "p1 draw stock", "p1 discard 6s", "p2 draw stock", "p2 discard 6d")
        summary = game.view(None).finished_deals[0]
        assert summary.points == (0, wrap, 4 + 8 + 10)  # K A 2 never wraps


def test_R3_5_draw_stock_or_discard_then_discard_one(stacked: Stacked) -> None:
    game = new_game(stacked, ["2c 5d 9h", "4s 7h Jd"], up="Ts", stock="Kc 8d")
    assert game.legal_actions(0) == [Draw("stock"), Draw("discard")]
    act(game, "p0 draw discard")
    deal = deal_of(game)
    assert Card.parse("Ts") in deal.hands[0] and deal.discard_pile == []
    assert set(game.legal_actions(0)) == {Discard(c) for c in parse_cards("2c 5d 9h")}
    act(game, "p0 discard 5d", "p1 draw stock")
    assert Card.parse("Kc") in deal.hands[1]
    act(game, "p1 discard Kc")  # a card drawn from the stock may go straight back
    assert deal.discard_pile == parse_cards("5d Kc") and deal.to_play == 0


def test_R3_5_a_player_dealt_a_complete_hand_must_still_draw_and_discard(stacked: Stacked) -> None:
    game = new_game(stacked, ["9h 9h 9d", "2c 5d Jh", "4s 7h Jd"], up="Ts", stock="7c 6s")
    deal = deal_of(game)
    assert not deal.is_over and deal.went_out is None
    with pytest.raises(IllegalAction) as info:
        act(game, "p0 discard 9d")
    assert info.value.key == "draw_first"
    act(game, "p0 draw stock")
    assert deal.went_out is None  # going out happens after the discard, not at the draw
    act(game, "p0 discard 7c")
    assert deal.went_out == 0 and deal.to_play == 1


def test_R3_5_an_empty_stock_is_refilled_from_the_discard_pile_reproducibly(
    stacked: Stacked,
) -> None:
    game = new_game(stacked, ["2c 5d 9h", "4s 7h Jd"], up="Ts")
    deal = deal_of(game)
    assert len(deal.stock) == 97
    turns = 0
    while deal.stock:
        seat = deal.to_play
        assert seat is not None
        card = deal.stock[-1]
        pile_before = list(deal.discard_pile)
        game.apply(seat, Draw("stock"))
        game.apply(seat, Discard(card))
        turns += 1
        if turns == 97:
            break
        assert deal.discard_pile == [*pile_before, card]
    # The 97th turn emptied the stock: the next turn starts with a new stock made
    # of the discard pile except its top card, shuffled from the deck's hash.
    assert turns == 97 and deal.reshuffles == 1
    assert len(deal.discard_pile) == 1 and len(deal.stock) == 97
    discards = [p.action.card for p in deal.log if isinstance(p.action, Discard)]
    expected = [Card.parse("Ts"), *discards]
    top = expected.pop()
    assert deal.discard_pile == [top]
    assert deal.stock == shuffled(expected, reshuffle_seed(deal.deck, 1))
    assert Counter(deal.cards_in_play()) == Counter(game.full_deck())
    assert game.view(0).stock_size == 97
    assert game.legal_actions(1) == [Draw("stock"), Draw("discard")]
    replayed = replay(game.record())
    assert replayed.ok and replayed.game is not None
    again = replayed.game.deal
    assert again is not None
    assert (again.stock, again.discard_pile) == (deal.stock, deal.discard_pile)


def test_R3_6_going_out_gives_each_other_player_one_final_turn(stacked: Stacked) -> None:
    game = new_game(
        stacked,
        ["Th Js 5d", "9c 9d Kd", "4h 5h 8s", "Ac 2c Qh"],
        up="7c",
        stock="9h 6h 3c Qs 2s",
        dealer=0,
    )
    deal = deal_of(game)
    act(game, "p1 draw stock", "p1 discard Kd")
    assert deal.went_out == 1 and not deal.is_over
    for seat in (None, 0, 2):  # the hand is shown to everyone
        view = game.view(seat)
        part = ThreeThirteenViewPart.of(view)
        assert part.went_out == 1 and [sorted(m) for m in part.shown_melds] == [["9c", "9d", "9h"]]
    order = []
    for seat, card in ((2, "8s"), (3, "Qh"), (0, "5d")):
        assert deal.to_play == seat
        for other in range(4):
            if other != seat:
                with pytest.raises(IllegalAction, match="not your turn"):
                    game.apply(other, Draw("stock"))
        act(game, f"p{seat} draw stock", f"p{seat} discard {card}")
        order.append(seat)
    assert order == [2, 3, 0]
    assert deal.is_over and deal.to_play is None
    assert game.totals == [30, 0, 0, 0]
    summary = deal.summary
    assert summary is not None
    assert (summary.ended_by, summary.by_seat) == ("out", 1)
    assert [r.went_out for r in summary.results] == [False, True, False, False]
    with pytest.raises(IllegalAction, match="no deal"):
        act(game, "p2 draw stock")


def test_R3_6_final_turns_go_round_the_table_from_the_player_who_went_out(stacked: Stacked) -> None:
    game = new_game(
        stacked, ["Kd 8s 2c", "9h 9d 4c", "Qs Qc 7d", "5h 5s 6c"], up="Ts", stock="9c Qh 7c 8c"
    )
    deal = deal_of(game)
    act(
        game,
        "p0 draw stock",
        "p0 discard 2c",  # Kd 8s 9c
        "p1 draw discard",
        "p1 discard 4c",
    )  # 9h 9d 2c
    assert deal.went_out is None
    act(game, "p2 draw stock", "p2 discard 7d")  # Qs Qc Qh: out
    assert deal.went_out == 2
    order = []
    for seat, line in ((3, "draw stock"), (0, "draw stock"), (1, "draw discard")):
        assert deal.to_play == seat and not deal.is_over
        act(game, f"p{seat} {line}")
        if seat == 1:  # the Kd just taken may not go straight back
            with pytest.raises(IllegalAction, match="just taken"):
                act(game, "p1 discard Kd")
        act(game, {3: "p3 discard 6c", 0: "p0 discard Kd", 1: "p1 discard 2c"}[seat])
        order.append(seat)
    assert order == [3, 0, 1] and deal.is_over
    summary = deal.summary
    assert summary is not None
    assert summary.points == (8 + 9 + 8, 9 + 9 + 10, 0, 5 + 5 + 7)
    assert [r.went_out for r in summary.results] == [False, False, True, False]


def test_R3_6_a_player_completing_during_the_final_turns_scores_zero(stacked: Stacked) -> None:
    game = new_game(stacked, ["9h 9d Kc", "4h 5h 8s", "Ac 2c Qh"], up="Ts", stock="9c 6h 3c")
    act(game, "p0 draw stock", "p0 discard Kc")  # out with 9h 9d 9c
    act(game, "p1 draw stock", "p1 discard 8s")  # 4h 5h 6h: complete in a final turn
    act(game, "p2 draw stock", "p2 discard Qh")  # Ac 2c 3c (a three is wild): complete
    summary = deal_of(game).summary
    assert summary is not None
    assert summary.points == (0, 0, 0)
    assert [r.went_out for r in summary.results] == [True, False, False]
    assert summary.by_seat == 0


def test_R3_7_deadwood_of_each_seat_with_its_best_arrangement(stacked: Stacked) -> None:
    game = new_game(
        stacked,
        ["9h 9d Ts", "3h 9c Kd", "Jk 9s Kc", "Ah 5d Qs"],
        up="2s",
        stock="9c 4d 4c 4s",
        jokers=2,
    )
    act(
        game,
        "p0 draw stock",
        "p0 discard Ts",
        "p1 draw stock",
        "p1 discard 4d",
        "p2 draw stock",
        "p2 discard 4c",
        "p3 draw stock",
        "p3 discard 4s",
    )
    summary = deal_of(game).summary
    assert summary is not None
    assert (summary.ended_by, summary.by_seat) == ("out", 0)
    # an unused wild three 15, J/Q/K 10, an unused joker 20, an ace 1 (ace=low)
    assert summary.points == (0, 15 + 9 + 10, 20 + 9 + 10, 1 + 5 + 10)
    assert game.totals == list(summary.points)
    res = summary.results
    assert res[0].melds == (("9c", "9d", "9h"),) and res[0].dead == () and res[0].went_out
    assert Counter(res[1].dead) == Counter(parse_cards("3h 9c Kd")) and res[1].melds == ()
    assert Counter(res[2].dead) == Counter(parse_cards("Jk 9s Kc"))
    assert not any(r.went_out for r in res[1:])
    # everyone's arrangement is public once the round is scored
    for seat in range(4):
        assert game.view(seat).finished_deals == (summary,)


def test_R3_7_ace_is_15_with_ace_high(stacked: Stacked) -> None:
    game = new_game(stacked, ["9h 9d Ts", "Ah 5d Qs"], up="2s", stock="9c 4d", ace="high")
    act(game, "p0 draw stock", "p0 discard Ts", "p1 draw stock", "p1 discard 4d")
    assert game.totals == [0, 15 + 5 + 10]


def _full_game(
    players: int, junk_last_round: dict[int, str] | None = None, **values: object
) -> tuple[ThreeThirteenGame, list[str | None]]:
    """Eleven scripted rounds: the first player holds a heart run and goes out at
    once, every other seat a spade run (or its ``junk_last_round`` hand in round 11)."""
    game = ThreeThirteenGame(options(players=players, **values), auto_deal=False)
    wilds: list[str | None] = []
    for round_no in range(1, 12):
        size = round_no + 2
        first = (game.next_dealer() + 1) % players
        hands = {first: run_of(HEARTS, size)}
        if players <= 3:  # the others hold complete hands too
            hands[(first + 1) % players] = run_of(SPADES, size)
            hands[(first + 2) % players] = run_of(DIAMONDS, size)
        if round_no == 11 and junk_last_round:
            hands.update(junk_last_round)
        play_round_first_goes_out(game, hands)
        wilds.append(ThreeThirteenViewPart.of(game.view(0)).wild_rank)
    return game, wilds


def test_R3_8_after_eleven_rounds_the_lowest_total_wins() -> None:
    # Round 11: seat 1 deals, seat 0 goes out; seat 1 keeps a dead 9d
    game, _ = _full_game(2, {1: "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs 9d"})
    assert game.over and len(game.deals) == 11
    assert game.totals == [0, 9]
    assert game.winner == 0
    assert game.view(1).game_over and game.view(1).winner == 0
    result = replay(game.record()).as_json()
    assert result == {
        "ok": True,
        "finished": True,
        "hand_scores": [[0, 0]] * 10 + [[0, 9]],
        "totals": [0, 9],
        "winner": 0,
    }


def test_R3_8_a_tie_for_lowest_total_has_no_winner() -> None:
    game, _ = _full_game(3)
    assert game.over and game.totals == [0, 0, 0]
    assert game.winner is None
    game.totals = [5, 5, 9]
    assert game.decide_winner() is None
    game.totals = [9, 5, 7]
    assert game.decide_winner() == 1


def test_R3_8_game_ends_after_round_eleven_and_no_action_is_taken_after() -> None:
    game, _ = _full_game(2)
    before = snapshot(game)
    for seat in range(2):
        assert game.legal_actions(seat) == []
        for action in (Draw("stock"), Draw("discard"), Discard(Card.parse("Ah"))):
            with pytest.raises(IllegalAction) as info:
                game.apply(seat, action)
            assert info.value.key == "game_over"
            assert not game.can(seat, action)
    assert snapshot(game) == before


# -- options --------------------------------------------------------------------


def test_options_from_record_names_and_text() -> None:
    typed = {"players": "2", "jokers": "4", "ace": "high", "discard_taken_card": "true"}
    opts = ThreeThirteenOptions.from_mapping({k: OptionText(v) for k, v in typed.items()})
    assert (opts.players, opts.jokers, opts.ace, opts.discard_taken_card) == (2, 4, "high", True)
    assert opts.as_dict() == {"discard_taken_card": True, "players": 2, "jokers": 4, "ace": "high"}
    assert options(players=2, jokers=4, ace="high", discard_taken_card=True) == opts
    with pytest.raises(OptionError, match="ace"):
        options(ace="both")
    with pytest.raises(OptionError, match="unknown option"):
        options(games=3)
    with pytest.raises(OptionError, match="whole number"):
        ThreeThirteenOptions.from_mapping({"jokers": OptionText("many")})


@pytest.mark.parametrize(
    "value",
    [2.5, 2.0, True, "2", OptionText("2.0"), OptionText("²"), OptionText("1e3"), OptionText("two")],
)
def test_R3_1_jokers_is_a_whole_number_taken_exactly(value: object) -> None:
    """CONTRACT.md "Table options": Three-Thirteen's ``jokers`` is 0, 2 or 4, never rounded."""
    with pytest.raises(OptionError, match="option jokers takes a whole number"):
        ThreeThirteenOptions.from_mapping({"jokers": value})


def test_R3_1_a_huge_jokers_text_is_out_of_the_choices() -> None:
    with pytest.raises(OptionError, match="option jokers must be one of 0, 2, 4"):
        ThreeThirteenOptions.from_mapping({"jokers": OptionText("4" * 5000)})


def test_R3_1_two_to_seven_players_without_jokers_two_to_eight_with_them() -> None:
    assert ThreeThirteenOptions(jokers=0).max_players == 7  # 8 × 13 + 1 = 105 > 104
    assert ThreeThirteenOptions(jokers=2).max_players == 8
    assert ThreeThirteenOptions(jokers=4).max_players == 8
    for jokers in JOKER_CHOICES:
        for players in range(2, 8 if jokers == 0 else 9):
            assert options(players=players, jokers=jokers).players == players
    for players, jokers in ((9, 0), (9, 2), (1, 4), (0, 0)):  # beyond every table
        with pytest.raises(OptionError, match="option players must be from 2 to 8"):
            options(players=players, jokers=jokers)
    for players, jokers in ((8, 0),):
        with pytest.raises(OptionError) as info:
            options(players=players, jokers=jokers)
        english, indonesian = str(info.value), info.value.text("id")
        assert "2 to 7 players without jokers and 2 to 8 with jokers=2 or jokers=4" in english
        assert f"option players cannot be {players} with jokers={jokers}" in english
        assert "2 sampai 7 pemain tanpa joker dan 2 sampai 8 pemain dengan jokers=2" in indonesian
        assert f"opsi players tidak bisa {players} dengan jokers={jokers}" in indonesian
    with pytest.raises(OptionError, match="jokers"):  # a bad jokers value is named first
        options(players=8, jokers=3)
    with pytest.raises(OptionError, match="jokers=2 or jokers=4"):
        ThreeThirteenGame(ThreeThirteenOptions(players=8, jokers=0))


def test_R3_1_eight_players_play_every_round_with_jokers() -> None:
    for jokers in (2, 4):
        game, wilds = _full_game(8, jokers=jokers)
        assert game.over and wilds == WILD_RANKS
        last = game.deals[-1]
        assert [len(h) for h in last.hands] == [13] * 8
        assert Counter(last.cards_in_play()) == Counter(game.full_deck())


def test_options_two_players() -> None:
    game = ThreeThirteenGame(options(players=2), rng=random.Random(5))
    deal = deal_of(game)
    assert [len(h) for h in deal.hands] == [3, 3] and len(deal.stock) == 104 - 7
    assert (deal.dealer, deal.to_play) == (1, 0)


@pytest.mark.parametrize("allowed", [False, True])
def test_options_discard_taken_card(stacked: Stacked, allowed: bool) -> None:
    game = new_game(stacked, ["2c 5d 9h", "4s 7h Jd"], up="Ts", discard_taken_card=allowed)
    act(game, "p0 draw discard")
    assert (Discard(Card.parse("Ts")) in game.legal_actions(0)) is allowed
    if allowed:
        act(game, "p0 discard Ts")
        assert deal_of(game).discard_pile == parse_cards("Ts")
    else:
        before = snapshot(game)
        with pytest.raises(IllegalAction) as info:
            act(game, "p0 discard Ts")
        assert info.value.key == "taken_card"
        assert snapshot(game) == before


def test_four_jokers_three_in_hand_and_the_fourth_up_cannot_be_taken(stacked: Stacked) -> None:
    game = new_game(stacked, ["Jk Jk Jk", "4s 7h Jd"], up="Jk", jokers=4)
    assert game.legal_actions(0) == [Draw("stock")]
    with pytest.raises(IllegalAction) as info:
        act(game, "p0 draw discard")
    assert info.value.key == "taken_card_only"
    assert "Jk" in info.value.text("en") and "Jk" in info.value.text("id")
    allowed = new_game(
        stacked, ["Jk Jk Jk", "4s 7h Jd"], up="Jk", jokers=4, discard_taken_card=True
    )
    act(allowed, "p0 draw discard", "p0 discard Jk")
    assert deal_of(allowed).went_out == 0


def test_variant_is_registered_with_its_aliases() -> None:
    for name in (
        "three-thirteen",
        "3-13",
        "313",
        "three_thirteen",
        "threethirteen",
        "t13",
        "Three-Thirteen",
        " T13 ",
    ):
        info = find_variant(name)
        assert info.game is ThreeThirteenGame and info.name == "three-thirteen"
    assert ThreeThirteenGame.options_type is ThreeThirteenOptions


# -- illegal actions leave everything as it was --------------------------------


ILLEGAL: list[tuple[str, list[str], str, str]] = [
    ("out of turn", [], "p1 draw stock", "not_your_turn"),
    ("discard before drawing", [], "p0 discard 2c", "draw_first"),
    ("draw twice", ["p0 draw stock"], "p0 draw discard", "already_drawn"),
    ("draw stock twice", ["p0 draw stock"], "p0 draw stock", "already_drawn"),
    ("card not held", ["p0 draw stock"], "p0 discard Ah", "not_in_hand"),
    ("just-taken card", ["p0 draw discard"], "p0 discard Ts", "taken_card"),
    ("deeper discard", [], "p0 draw discard 2", "discard_depth"),
    ("other seat discards", ["p0 draw stock"], "p1 discard 4s", "not_your_turn"),
    ("no such seat", [], "p7 draw stock", "no_such_seat"),
    ("not a Three-Thirteen action", ["p0 draw stock"], "p0 close 2c", "not_in_variant"),
    (
        "out-player acts in a final turn",
        ["p0 draw stock", "p0 discard 7c"],
        "p0 draw stock",
        "not_your_turn",
    ),
]


@pytest.mark.parametrize(("name", "before", "action", "key"), ILLEGAL, ids=[i[0] for i in ILLEGAL])
def test_illegal_action_is_refused_with_a_reason_and_changes_nothing(
    stacked: Stacked, name: str, before: list[str], action: str, key: str
) -> None:
    hands = ["2c 5d 9h", "4s 7h Jd", "8c 8d Kh"]
    if "final turn" in name:
        hands[0] = "9h 9d 9c"
    game = new_game(stacked, hands, up="Ts", stock="7c 6s 6d")
    act(game, *before)
    state = snapshot(game)
    seat, parsed = int(action.split()[0][1:]), parse_action(action.split(maxsplit=1)[1])
    assert not game.can(seat, parsed)
    assert parsed not in (game.legal_actions(seat) if 0 <= seat < 3 else [])
    with pytest.raises(IllegalAction) as info:
        game.apply(seat, parsed)
    assert info.value.key == key
    assert str(info.value) and info.value.text("id") != info.value.text("en")
    assert snapshot(game) == state


def test_new_reason_has_both_languages() -> None:
    assert t("taken_card_only", "id", card="Q♥") != t("taken_card_only", "en", card="Q♥")


# -- views ------------------------------------------------------------------------


def test_view_shows_own_hand_counts_and_the_wild_rank(stacked: Stacked) -> None:
    game = new_game(stacked, ["2c 5d 9h", "4s 7h Jd", "8c 8d Kh"], up="Ts", stock="7c")
    act(game, "p0 draw stock")
    for seat in range(3):
        view = game.view(seat)
        assert view.variant == "three-thirteen"
        assert view.hand == tuple(deal_of(game).hands[seat])
        assert view.hand_sizes == (4, 3, 3)
        assert ThreeThirteenViewPart.of(view).wild_rank == "3"
        assert view.stock_size == 104 - 10 - 1
        assert view.discard_pile == (Card.parse("Ts"),)
        assert view.log == (Play(0, Draw("stock")),)
        assert view.legal_actions == tuple(game.legal_actions(seat))
    assert game.view(None).hand == ()
    assert all(isinstance(a, Discard) for a in game.view(0).legal_actions)
    assert game.view(1).legal_actions == ()


# -- records ----------------------------------------------------------------------


def test_shared_record_replays_to_its_expectation(data: Path) -> None:
    record = data / "records" / "t13-round1-out-and-final-turns.json"
    expect = json.loads(record.with_name("t13-round1-out-and-final-turns.expect.json").read_text())
    result = replay(load_record(record))
    assert result.as_json() == expect
    assert result.game is not None
    summary = result.game.deals[0].summary
    assert summary is not None and summary.by_seat == 1 and summary.ended_by == "out"


def test_record_round_trip_of_a_seeded_game() -> None:
    def play(seed: int) -> ThreeThirteenGame:
        rng = random.Random(seed)
        game = ThreeThirteenGame(options(players=3, jokers=2), rng=random.Random(seed))
        while not game.over:
            seat = game.to_play
            assert seat is not None
            actions: list[Action] = game.legal_actions(seat)
            deal = deal_of(game)
            if isinstance(actions[0], Discard) and rng.random() < 0.8:
                actions = [_greedy_discard(deal, seat)]
            game.apply(seat, rng.choice(actions))
        return game

    game = play(11)
    record: dict[str, Any] = json.loads(json.dumps(game.record()))
    assert record["variant"] == "three-thirteen" and len(record["hands"]) == 11
    result = replay(record)
    assert result.ok and result.finished and result.game is not None
    assert result.game.totals == game.totals and result.game.winner == game.winner
    assert result.game.record() == game.record()
    assert play(11).record() == game.record()


def _greedy_discard(deal: ThreeThirteenDeal, seat: int) -> Discard:
    keep = None if deal.options.discard_taken_card else deal.just_taken
    best = scoring.deadwood(
        deal.hands[seat], round_no=deal.round_no, ace=deal.options.ace_mode, discard=True, keep=keep
    )
    assert best.discard is not None
    return Discard(best.discard)


def test_a_round_with_nothing_left_to_refill_the_stock_is_scored_as_it_stands() -> None:
    # Unreachable with a legal table (two or more cards are always outside the
    # hands at a draw); a hand-made short deck shows the engine does not stall.
    deal = ThreeThirteenDeal(
        number=1, players=2, dealer=1, first=0, options=ThreeThirteenOptions(players=2)
    )
    deal.deal(parse_cards("9h 4s 9d 7h 9c Jd Ts"))
    assert deal.is_over and deal.stock == [] and deal.discard_pile == parse_cards("Ts")
    summary = deal.summary
    assert summary is not None
    assert (summary.ended_by, summary.by_seat, summary.points) == ("stock", None, (0, 4 + 7 + 10))
    assert not any(r.went_out for r in summary.results)


# -- random play: the scores of every round (tests/random_play.py checks the rest) -------


def check_round_scores(game: Game) -> None:
    """R3-6, R3-7: once a round is over, each hand's points are its deadwood, its melds
    and dead cards are the hand, and the one who went out scores nothing."""
    deal = game.deals[-1]
    assert isinstance(deal, ThreeThirteenDeal)
    summary = deal.summary
    if summary is None:
        return
    assert len(summary.results) == deal.players
    ace = deal.options.ace_mode
    for seat, result in enumerate(summary.results):
        hand = deal.hands[seat]
        assert result.points == scoring.deadwood_points(hand, round_no=deal.round_no, ace=ace)
        melded = [Card.parse(t.split("=")[0]) for meld in result.melds for t in meld]
        assert Counter(melded + list(result.dead)) == Counter(hand)
        assert result.went_out == (seat == deal.went_out)
    if summary.ended_by == "out":
        assert deal.went_out is not None and summary.by_seat == deal.went_out
        assert summary.points[deal.went_out] == 0
        assert len(deal.log) >= 2 * deal.players  # the one going out and each final turn
    else:
        assert summary.ended_by == "stock"


@pytest.mark.parametrize(
    "seeds", [range(0, 60), pytest.param(range(60, 400), marks=pytest.mark.slow)]
)
def test_random_rounds_score_their_hands(seeds: range) -> None:
    spec = find_variant("three-thirteen")
    for seed in seeds:
        play(spec, seed, check=False, extra=check_round_scores)
