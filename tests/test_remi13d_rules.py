"""Remi 13 D scenarios, one or more per rule id (RULES.md §1)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from remikit.actions import Action, Discard, Draw, parse_action
from remikit.cards import JOKER, Card, make_deck, parse_cards
from remikit.engine import OptionError
from remikit.errors import IllegalAction
from remikit.records import load_record, replay
from remikit.variants import find_variant
from remikit.variants.remi13d import scoring
from remikit.variants.remi13d.actions import Close
from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions
from remikit.variants.remi13d.state import Remi13DEnding
from remikit.views import DealSummary, SeatResult
from tests.stacked import Stacked, act, deal_stacked, snapshot

FULL = make_deck(decks=2, jokers=4)
CLOSER = "3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kh Ks Jk"  # R13-7 example, K set with the joker
SEAT1 = "2h 3h 4h 5h Kc Kd 9s 9c Jk Ah 7d 8c Qs"  # R13-12 example: 25
SEAT2 = "2d 3d 4d 5d 6d 8h 8s Qc Qd 4c 4s Jk Tc"
SEAT3 = "2c 3c 5c 6h 7h 8s Jd Jc Qh Td 9d 2s 3s"


def new_game(
    stacked: Stacked,
    hands: list[str],
    *,
    stock: str = "",
    games: int = 1,
    dealer: int = 3,
    **options: object,
) -> Remi13DGame:
    game = Remi13DGame(Remi13DOptions.from_mapping({"games": games, **options}), auto_deal=False)
    return deal_stacked(game, stacked, hands, dealer=dealer, stock=stock)


def test_R13_1_two_decks_with_jokers_and_exactly_four_players() -> None:
    game = Remi13DGame(Remi13DOptions(), rng=random.Random(1))
    assert len(game.full_deck()) == 108
    assert game.full_deck().count(JOKER) == 4
    assert game.players == 4
    with pytest.raises(OptionError, match="players"):
        Remi13DOptions.from_mapping({"players": 5})


def test_R13_4_thirteen_cards_each_no_up_card_56_in_stock(stacked: Stacked) -> None:
    game = new_game(stacked, [CLOSER, SEAT1, SEAT2, SEAT3])
    deal = game.current()
    assert [len(h) for h in deal.hands] == [13, 13, 13, 13]
    assert deal.discard_pile == []
    assert len(deal.stock) == 56
    assert sorted(deal.hands[0]) == sorted(parse_cards(CLOSER))


def test_R13_5_first_player_has_no_discard_to_take(stacked: Stacked) -> None:
    game = new_game(stacked, [CLOSER, SEAT1, SEAT2, SEAT3])
    with pytest.raises(IllegalAction, match="no discard"):
        game.apply(0, Draw("discard"))
    assert game.legal_actions(0) == [Draw("stock")]


def test_R13_5_take_only_the_previous_players_last_discard(stacked: Stacked) -> None:
    game = new_game(stacked, [CLOSER, SEAT1, SEAT2, SEAT3], stock="2h 5s")
    act(game, "p0 draw stock", "p0 discard 2h")
    with pytest.raises(IllegalAction, match="only the top discard"):
        game.apply(1, Draw("discard", 2))
    act(game, "p1 draw discard")
    assert game.current().hands[1].count(Card.parse("2h")) == 2
    act(game, "p1 discard 9s")
    # the 2h is gone from the pile: p2 may take only p1's 9s
    act(game, "p2 draw discard")
    assert Card.parse("9s") in game.current().hands[2]
    assert game.current().discard_pile == []


def test_R13_5_card_taken_from_the_discard_may_not_be_discarded(stacked: Stacked) -> None:
    game = new_game(stacked, [CLOSER, SEAT1, SEAT2, SEAT3], stock="Qh")
    act(game, "p0 draw stock", "p0 discard Qh", "p1 draw discard")
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="just taken") as err:
        game.apply(1, Discard(Card.parse("Qh")))
    assert "baru diambil" in err.value.text("id")
    assert snapshot(game) == before
    assert Discard(Card.parse("Qh")) not in game.legal_actions(1)


def test_R13_5_option_discard_taken_card(stacked: Stacked) -> None:
    game = new_game(stacked, [CLOSER, SEAT1, SEAT2, SEAT3], stock="Qh", discard_taken_card=True)
    act(game, "p0 draw stock", "p0 discard Qh", "p1 draw discard", "p1 discard Qh")
    assert game.current().discard_pile == [Card.parse("Qh")]


def test_R13_6_set_needs_different_suits_and_royal_flush_is_spades_only() -> None:
    # 7h 7h 7s is no triple: the two decks' identical cards cannot share a set
    hand = parse_cards("2c 3c 4c 5c 7h 7h 7s 9d Td Jd Kh Kd Ks")
    score = scoring.hand_score(hand)
    assert ("7h", "7h", "7s") not in [tuple(m.tokens()) for m in score.melds]
    assert score.points == 20 + 20 + 30 - 15
    spades = scoring.close_score(parse_cards("Ts Js Qs Ks As 2c 3c 4c 5c 7h 7d 7s 6c"), JOKER)
    hearts = scoring.close_score(parse_cards("Th Jh Qh Kh Ah 2c 3c 4c 5c 7h 7d 7s 6c"), JOKER)
    assert spades.points - hearts.points == 75 - 50


def test_R13_6_a_meld_needs_a_natural_card() -> None:
    # four jokers cannot form a meld on their own: 3 join melds, but never all 4 alone
    score = scoring.hand_score(parse_cards("2c 3c 4c 5c 9h 9d 9s Kd Kc Jk Jk Jk Jk"))
    assert all(any(not c.startswith("Jk") for c in m.tokens()) for m in score.melds)


def test_R13_7_close_with_an_ace_scores_bonus_and_melds(stacked: Stacked) -> None:
    game = new_game(stacked, [CLOSER, SEAT1, SEAT2, SEAT3], stock="Ah")
    act(game, "p0 draw stock")
    assert Close(Card.parse("Ah")) in game.legal_actions(0)
    act(game, "p0 close Ah")
    summary = game.deals[0].summary
    assert summary is not None and summary.ended_by == "close" and summary.by_seat == 0
    assert summary.results[0].points == 135  # RULES.md §5
    assert summary.results[0].closing == Card.parse("Ah") and summary.results[0].bonus == 50
    assert summary.results[1].points == 25
    assert game.over and game.totals[0] == 135


def test_R13_7_refused_close_explains_and_changes_nothing(stacked: Stacked) -> None:
    hand = "3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kh Qd Jk"  # Kh Qd Jk is no meld
    game = new_game(stacked, [hand, SEAT1, SEAT2, SEAT3], stock="Ah")
    act(game, "p0 draw stock")
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="not every card is in a meld") as err:
        game.apply(0, Close(Card.parse("Ah")))
    assert "kartu mati" in err.value.text("id")
    with pytest.raises(IllegalAction, match="ace or a joker"):
        game.apply(0, Close(Card.parse("Qd")))
    assert snapshot(game) == before


def test_R13_7_close_needs_a_pure_run_of_four(stacked: Stacked) -> None:
    hand = "3s 4s 5s Jk 9h Th Jh 7c 7d 7s Kh Ks Kd"  # the only 4-run holds the joker
    game = new_game(stacked, [hand, SEAT1, SEAT2, SEAT3], stock="Ah")
    act(game, "p0 draw stock")
    with pytest.raises(IllegalAction, match="pure run"):
        game.apply(0, Close(Card.parse("Ah")))


def test_R13_7_close_only_after_drawing(stacked: Stacked) -> None:
    hand = "3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kh Ks Ah"
    game = new_game(stacked, [hand, SEAT1, SEAT2, SEAT3])
    with pytest.raises(IllegalAction, match="draw a card first"):
        game.apply(0, Close(Card.parse("Ah")))


def test_R13_8_and_R13_11_joker_close_bonus_and_joker_value(stacked: Stacked) -> None:
    hand = "3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kh Ks Kd"
    game = new_game(stacked, [hand, SEAT1, SEAT2, SEAT3], stock="Jk")
    act(game, "p0 draw stock", "p0 close Jk")
    result = game.deals[0].summary.results[0]  # type: ignore[union-attr]
    assert result.bonus == 75 and result.points == 75 + 20 + 20 + 15 + 30


def test_R13_9_ace_low_five_ace_high_fifteen() -> None:
    low = scoring.close_score(parse_cards("Ah 2h 3h 4h 9c 9d 9s Kd Kc Ks 5d 6d 7d"), JOKER)
    high = scoring.close_score(parse_cards("Jh Qh Kh Ah 9c 9d 9s Kd Kc Ks 5d 6d 7d"), JOKER)
    assert low.points == 75 + 20 + 15 + 30 + 15
    assert high.points == 75 + 45 + 15 + 30 + 15


def test_R13_10_and_R13_12_no_pure_run_every_card_dead() -> None:
    assert scoring.hand_score(parse_cards("2h 3h Jk 9s 9c 9d Kd Kc Ks 5c 6c 7c Qd")).points == -105


def test_R13_12_optimal_arrangement_for_the_holder() -> None:
    assert scoring.hand_score(parse_cards(SEAT1)).points == 25


def test_R13_13_stock_exhausted_ends_the_game_everyone_scored(data: Path) -> None:
    record = load_record(data / "records" / "r13-stock-runs-out.json")
    result = replay(record)
    assert result.as_json() == json.loads(
        (data / "records" / "r13-stock-runs-out.expect.json").read_text()
    )
    assert result.game is not None
    summary = result.game.deals[0].summary
    assert summary is not None and summary.ended_by == "stock"
    assert all(r.bonus == 0 for r in summary.results)
    assert result.game.deals[0].stock == []


def test_R13_13_last_stock_card_then_discard_ends(stacked: Stacked) -> None:
    game = new_game(stacked, [CLOSER, SEAT1, SEAT2, SEAT3])
    deal = game.current()
    deal.stock[:] = deal.stock[-1:]  # one card left
    act(game, "p0 draw stock")
    game.apply(0, Discard(deal.hands[0][0]))
    assert deal.is_over and deal.summary is not None and deal.summary.ended_by == "stock"


def test_R13_14_every_arrangement_is_shown(stacked: Stacked) -> None:
    game = new_game(stacked, [CLOSER, SEAT1, SEAT2, SEAT3], stock="Ah")
    act(game, "p0 draw stock", "p0 close Ah")
    summary = game.deals[0].summary
    assert summary is not None
    for seat, result in enumerate(summary.results):
        shown = [t.split("=")[0] for m in result.melds for t in m] + [str(c) for c in result.dead]
        held = parse_cards([CLOSER, SEAT1, SEAT2, SEAT3][seat])
        assert sorted(parse_cards(shown)) == sorted(held)
    view = game.view(2)
    assert view.finished_deals[0].results[0].melds == summary.results[0].melds


def test_R13_3_loser_deals_the_next_game_and_the_next_seat_plays_first(stacked: Stacked) -> None:
    game = new_game(stacked, [CLOSER, SEAT1, SEAT2, SEAT3], stock="Ah", games=2)
    act(game, "p0 draw stock", "p0 close Ah")
    points = game.deals[0].summary.points  # type: ignore[union-attr]
    loser = points.index(min(points))
    assert game.next_dealer() == loser
    deck = stacked(FULL, [SEAT1, SEAT2, SEAT3, CLOSER], dealer=loser)
    with pytest.raises(ValueError, match="dealer"):
        game.start_deal(deck, dealer=(loser + 1) % 4)
    deal = game.start_deal(deck)
    assert deal.dealer == loser and deal.to_play == (loser + 1) % 4
    assert not game.over and game.totals == list(points)


def test_R13_3_tie_for_lowest_goes_to_first_after_previous_dealer() -> None:
    game = Remi13DGame(Remi13DOptions(games=2), rng=random.Random(3))
    deal = game.current()
    results = tuple(SeatResult(p, (), ()) for p in (-50, 10, -50, 0))
    deal.finish(DealSummary(1, Remi13DEnding.STOCK, None, results))
    assert deal.dealer == 3
    assert game.next_dealer() == 0  # seats 0 and 2 tie; 0 comes first after dealer 3


def test_R13_15_match_of_n_games_highest_total_wins() -> None:
    game = Remi13DGame(Remi13DOptions(games=3), rng=random.Random(7))
    rng = random.Random(8)
    while not game.over:
        seat = game.to_play
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert len(game.deals) == 3
    summaries = [d.summary for d in game.deals if d.summary is not None]
    assert game.totals == [sum(s.points[seat] for s in summaries) for seat in range(4)]
    best = max(game.totals)
    assert game.winner == (game.totals.index(best) if game.totals.count(best) == 1 else None)
    with pytest.raises(IllegalAction, match="over"):
        game.apply(0, Draw("stock"))


def test_illegal_actions_leave_the_state_unchanged(stacked: Stacked) -> None:
    game = new_game(stacked, [CLOSER, SEAT1, SEAT2, SEAT3], stock="Ah")
    before = snapshot(game)
    refused: list[tuple[int, Action]] = [
        (1, Draw("stock")),
        (0, Discard(Card.parse("3s"))),
        (7, Draw("stock")),
        (0, parse_action("meld 3s 4s 5s")),
        (0, Draw("discard")),
    ]
    for seat, action in refused:
        with pytest.raises(IllegalAction):
            game.apply(seat, action)
        assert snapshot(game) == before
    act(game, "p0 draw stock")
    before = snapshot(game)
    wrong: list[tuple[int, Action]] = [
        (0, Draw("stock")),
        (0, Discard(Card.parse("Qd"))),
        (2, Discard(Card.parse("2d"))),
    ]
    for seat, action in wrong:
        with pytest.raises(IllegalAction):
            game.apply(seat, action)
        assert snapshot(game) == before


def test_registry_finds_remi13d_by_alias() -> None:
    assert find_variant("13D").game is Remi13DGame
    with pytest.raises(ValueError, match="unknown variant"):
        find_variant("poker")


def test_shared_close_record_replays(data: Path) -> None:
    result = replay(load_record(data / "records" / "r13-close-with-ace.json"))
    assert result.as_json() == json.loads(
        (data / "records" / "r13-close-with-ace.expect.json").read_text()
    )


def test_record_round_trip() -> None:
    game = Remi13DGame(Remi13DOptions(games=2), rng=random.Random(11))
    rng = random.Random(12)
    while not game.over:
        seat = game.to_play
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    again = replay(json.loads(json.dumps(game.record())))
    assert again.ok and again.finished and again.game is not None
    assert again.game.totals == game.totals


def test_record_with_a_wrong_deck_names_the_card(data: Path) -> None:
    record = load_record(data / "records" / "r13-close-with-ace.json")
    record["hands"][0]["deck"][0] = "3h"
    result = replay(record)
    assert not result.ok and "2h" in (result.reason or "") and "3h" in (result.reason or "")


def test_replay_reports_the_first_illegal_action(data: Path) -> None:
    record = load_record(data / "records" / "r13-close-with-ace.json")
    record["hands"][0]["actions"][3] = "p3 discard Ks"
    out = replay(record).as_json()
    assert out["ok"] is False and out["index"] == 3 and out["action"] == "p3 discard Ks"
    assert "K♠" in out["reason"]  # the record keeps Ks; the reason shows the card
