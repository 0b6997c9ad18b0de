"""Gin Rummy's rules (docs/rules.md §4, G-1 … G-10) on stacked decks."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from remikit.actions import Discard, Draw, LayOff, Pass, parse_action
from remikit.bots.strong.determinize import determinize, knowledge
from remikit.cards import parse_cards
from remikit.deal import DealPhase, Phase
from remikit.engine import Game
from remikit.errors import IllegalAction
from remikit.kinds import Move, Place
from remikit.records import replay
from remikit.variants import find_variant
from remikit.variants.gin import melds
from remikit.variants.gin.actions import Knock
from remikit.variants.gin.game import GinGame
from remikit.variants.gin.options import GinOptions
from remikit.variants.gin.rules import GinDeal, hand_points
from remikit.variants.gin.state import GinEnding, GinPhase, GinViewPart
from remikit.views import EndedBy
from tests.random_play import play
from tests.stacked import Stacked, act, deal_stacked, snapshot

# seat 0: runs 2-3-4 of spades, 7-8-9 of hearts, the set of kings, and 5c (5 deadwood)
KNOCKER = "2s 3s 4s 7h 8h 9h Ks Kh Kd 5c"
# seat 1: 5s 6s (lay off on the spades), 6h (on the hearts), Kc (on the kings), a set of queens
DEFENDER = "5s 6s 6h Kc Qs Qh Qd 9c 8d 2d"


def game_of(stacked: Stacked, *, up: str = "Ac", stock: str = "", **options: Any) -> GinGame:
    game = GinGame(GinOptions(**options), auto_deal=False)
    return deal_stacked(game, stacked, [KNOCKER, DEFENDER], dealer=1, up=up, stock=stock)


def deal_of(game: GinGame) -> GinDeal:
    deal = game.deals[-1]
    assert isinstance(deal, GinDeal)
    return deal


def phase(game: GinGame) -> DealPhase:
    """The phase now (read afresh each time)."""
    return deal_of(game).phase


def refused(game: GinGame, line: str, reason: str) -> None:
    seat, text = line.split(maxsplit=1)
    before = snapshot(game)
    with pytest.raises(IllegalAction) as caught:
        game.apply(int(seat[1:]), parse_action(text))
    assert caught.value.key == reason
    assert snapshot(game) == before, "a refused action changes nothing"


def test_deal_and_first_upcard_offer(stacked: Stacked) -> None:
    """G-1: ten cards each, seat 0 first; G-3: the upcard is offered, then drawn from stock."""
    game = game_of(stacked)
    deal = deal_of(game)
    assert [len(h) for h in deal.hands] == [10, 10] and len(deal.stock) == 31
    assert deal.dealer == 1 and deal.to_play == 0 and phase(game) is GinPhase.OFFER
    assert set(game.legal_actions(0)) == {Draw("discard"), Pass()}
    refused(game, "p0 draw stock", "offer_take_or_pass")
    act(game, "p0 pass")
    assert deal.to_play == 1 and phase(game) is GinPhase.OFFER
    act(game, "p1 pass")
    assert deal.to_play == 0 and phase(game) is Phase.DRAW
    assert game.legal_actions(0) == [Draw("stock")]
    refused(game, "p0 draw discard", "upcard_declined")


def test_taking_the_first_upcard(stacked: Stacked) -> None:
    """G-3, G-4: the dealer takes the passed upcard and may discard it at once."""
    game = game_of(stacked)
    act(game, "p0 pass", "p1 draw discard")
    deal = deal_of(game)
    assert phase(game) is Phase.DISCARD and parse_cards("Ac")[0] in deal.hands[1]
    act(game, "p1 discard Ac")
    assert deal.to_play == 0 and phase(game) is Phase.DRAW


def test_discarding_the_taken_card_can_be_refused(stacked: Stacked) -> None:
    """G-4: option discard_taken_card false forbids it."""
    game = game_of(stacked, discard_taken_card=False)
    act(game, "p0 draw discard")
    refused(game, "p0 discard Ac", "taken_card")


def knock_position(stacked: Stacked, **options: Any) -> GinGame:
    """Seat 0 takes the Ac upcard and knocks with 5c (deadwood 1)."""
    game = game_of(stacked, **options)
    act(game, "p0 draw discard")
    return game


def test_knock_limit(stacked: Stacked) -> None:
    """G-5: a knock leaves at most the limit; the ten cards left count."""
    game = knock_position(stacked, knock=0)
    refused(game, "p0 knock 5c", "knock_over_limit")
    game = knock_position(stacked)
    assert Knock(parse_cards("5c")[0]) in game.legal_actions(0)
    assert Knock(parse_cards("Ks")[0]) not in game.legal_actions(0)


def test_oklahoma_takes_the_limit_from_the_first_upcard(stacked: Stacked) -> None:
    """G-5: with oklahoma the first upcard's value is the limit, an ace meaning gin only."""
    assert deal_of(game_of(stacked, oklahoma=True)).limit == 0
    assert deal_of(game_of(stacked, up="Tc", oklahoma=True)).limit == 10
    assert deal_of(game_of(stacked, up="3c", oklahoma=True)).limit == 3
    assert GinViewPart.of(game_of(stacked, up="3c", oklahoma=True).view(0)).knock_limit == 3


def test_knock_lay_down_lay_off_and_score(stacked: Stacked) -> None:
    """G-6, G-7: the knocker lays down, the defender lays off then melds, each side's
    unmelded cards count."""
    game = knock_position(stacked)
    deal = deal_of(game)
    act(game, "p0 knock 5c")
    assert phase(game) is GinPhase.LAY_DOWN and deal.knocker == 0
    refused(game, "p0 pass", "lay_down_more")
    refused(game, "p0 meld Ks Kh", "gin_meld_invalid")
    act(game, "p0 meld 2s 3s 4s", "p0 meld 7h 8h 9h", "p0 meld Ks Kh Kd", "p0 pass")
    assert phase(game) is GinPhase.LAY_OFF and deal.to_play == 1
    refused(game, "p1 layoff Kc to 1", "layoff_no_fit")
    refused(game, "p1 layoff 6s to 4", "layoff_not_knocker")
    act(game, "p1 layoff 5s to 1", "p1 layoff 6s to 1")  # a run grows as it is laid off on
    act(game, "p1 layoff 6h to 2", "p1 layoff Kc to 3", "p1 pass")
    assert phase(game) is GinPhase.DEFEND
    act(game, "p1 meld Qs Qh Qd", "p1 pass")
    summary = deal.summary
    assert summary is not None and summary.ended_by is GinEnding.KNOCK and summary.by_seat == 0
    # the knocker keeps Ac (1); the defender 9c 8d 2d (19): 18 points to the knocker
    assert summary.points == (18, 0) and deal.returns() == (18, -18)
    assert summary.results[0].melds == (
        ("2s", "3s", "4s", "5s", "6s"),
        ("6h", "7h", "8h", "9h"),
        ("Ks", "Kh", "Kd", "Kc"),
    )
    assert game.totals == [18, 0]


def test_each_meld_must_keep_the_knock_possible(stacked: Stacked) -> None:
    """G-6: a meld is refused when the cards left could no longer come within the limit
    (laying 8s 8c 8d strands the sixes and sevens)."""
    game = GinGame(GinOptions(), auto_deal=False)
    hand = "6s 7s 8s 6c 7c 8c 8d Ah 2h 3h"
    deal_stacked(game, stacked, [hand, "Qs Qh Qd 9c Jd 2d Jc Tc 4h 4d"], dealer=1, up="Kc")
    act(game, "p0 draw discard", "p0 knock Kc")
    refused(game, "p0 meld 8s 8c 8d", "meld_over_limit")
    act(game, "p0 meld 6s 7s 8s", "p0 meld 6c 7c 8c", "p0 meld Ah 2h 3h", "p0 pass")
    assert phase(game) is GinPhase.LAY_OFF  # 8d left: 8, within 10


def test_gin_allows_no_lay_offs(stacked: Stacked) -> None:
    """G-6: after gin the defender goes straight to its own melds; G-7: the gin bonus."""
    game = GinGame(GinOptions(), auto_deal=False)
    defender = "Qs Qh Qd 9c 8d 2d Jc Tc 3h 4d"
    deal_stacked(game, stacked, [KNOCKER, defender], dealer=1, up="As")
    act(game, "p0 draw discard", "p0 knock 5c")
    act(game, "p0 meld As 2s 3s 4s", "p0 meld 7h 8h 9h", "p0 meld Ks Kh Kd", "p0 pass")
    deal = deal_of(game)
    assert phase(game) is GinPhase.DEFEND and deal.to_play == 1
    assert not any(isinstance(a, LayOff) for a in game.legal_actions(1))
    act(game, "p1 meld Qs Qh Qd", "p1 pass")
    assert deal.summary is not None
    # the defender keeps 9c 8d 2d Jc Tc 3h 4d: 46, plus the gin bonus of 25
    assert deal.summary.points == (71, 0) and deal.summary.results[0].bonus == 25


def test_undercut(stacked: Stacked) -> None:
    """G-7: a defender with less deadwood than the knocker scores the difference and the
    undercut bonus."""
    game = GinGame(GinOptions(), auto_deal=False)
    knocker = "2s 3s 4s 7h 8h 9h Ks Kh 5d 4c"  # Ks Kh 5d 4c: 29 before the draw
    defender = "Qs Qh Qd Jc Jd Js 9c 9d 9s Ac"
    deal_stacked(game, stacked, [knocker, defender], dealer=1, up="Kd")
    act(game, "p0 draw discard", "p0 knock 5d")  # 4c left: 4
    act(game, "p0 meld 2s 3s 4s", "p0 meld 7h 8h 9h", "p0 meld Ks Kh Kd", "p0 pass")
    act(game, "p1 pass", "p1 meld Qs Qh Qd", "p1 meld Jc Jd Js", "p1 meld 9c 9d 9s", "p1 pass")
    deal = deal_of(game)
    assert deal.summary is not None and deal.summary.points == (0, 28)  # 4 - 1 + 25
    assert deal.returns() == (-28, 28)


def test_hand_points() -> None:
    """G-7: knock, gin and undercut, and equal deadwood scoring nothing."""
    options = GinOptions()
    assert hand_points(0, [5, 20], options) == 15
    assert hand_points(0, [0, 20], options) == 45
    assert hand_points(1, [3, 8], options) == -30
    assert hand_points(0, [7, 7], options) == 0


def test_the_wall(stacked: Stacked) -> None:
    """G-8: two cards left in the stock: the next player knocks or passes; a pass ends the
    hand drawn."""
    game = game_of(stacked)
    deal = deal_of(game)
    act(game, "p0 pass", "p1 pass", "p0 draw stock")
    while len(deal.stock) > 2 or deal.phase is not GinPhase.WALL:
        seat = deal.to_play
        assert seat is not None
        if phase(game) is Phase.DRAW:
            game.apply(seat, Draw("stock"))
        else:
            game.apply(seat, parse_action(f"discard {deal.hands[seat][-1]}"))
    assert phase(game) is GinPhase.WALL and len(deal.stock) == 2
    assert Draw("stock") not in game.legal_actions(deal.to_play or 0)
    assert Pass() in game.legal_actions(deal.to_play or 0)
    game.apply(deal.to_play or 0, Pass())
    assert deal.summary is not None and deal.summary.ended_by is GinEnding.WALL
    assert deal.summary.points == (0, 0) and game.needs_deal


def test_a_knock_moves_its_card_onto_the_pile_and_at_the_wall_the_upcard_first(
    stacked: Stacked,
) -> None:
    """G-5, G-8: the knock card goes onto the pile; at the wall the knocker takes the
    upcard first. The other seat's sampled worlds put both where they went."""
    game = knock_position(stacked)
    act(game, "p0 knock Ac")  # the upcard it took
    ace = parse_cards("Ac")[0]
    assert ace not in knowledge(game.view(1)).known[0]
    world = determinize(game.view(1), random.Random(1))
    assert not any(ace in hand for hand in world.hands) and ace not in world.stock

    game = game_of(stacked)
    deal = deal_of(game)
    act(game, "p0 pass", "p1 pass", "p0 draw stock", "p0 discard 5c", "p1 draw discard")
    act(game, "p1 discard 5c")
    while deal.phase is not GinPhase.WALL:
        seat = deal.to_play
        assert seat is not None
        card = deal.hands[seat][-1]
        game.apply(seat, Draw("stock") if phase(game) is Phase.DRAW else Discard(card))
    upcard, knock = deal.discard_pile[-1], parse_cards("2c")[0]
    assert deal.to_play == 0 and Knock(knock) in game.legal_actions(0)
    assert Knock(knock).moves(deal.log[-1]) == (
        Move(Place.PILE, Place.HAND, top=1),
        Move(Place.HAND, Place.PILE, (knock,)),
    )
    act(game, "p0 knock 2c")
    view = game.view(1)
    assert list(knowledge(view).known[0]) == [upcard]
    world = determinize(view, random.Random(1))
    assert upcard in world.hands[0] and knock not in world.hands[0]


def test_repeated_upcard_ends_the_hand(stacked: Stacked) -> None:
    """G-9: both players in a row discarding the upcard they just took end the hand drawn."""
    game = game_of(stacked)
    deal = deal_of(game)
    act(game, "p0 pass", "p1 pass", "p0 draw stock")
    card = deal.hands[0][-1]
    act(game, f"p0 discard {card}", "p1 draw discard", f"p1 discard {card}")
    assert not deal.is_over
    act(game, "p0 draw discard", f"p0 discard {card}")
    assert deal.summary is not None and deal.summary.ended_by is EndedBy.LIMIT


def test_game_to_100_with_bonuses() -> None:
    """G-10: the game ends at the target; game, box and shutout bonuses."""
    game = GinGame(GinOptions(target=100), auto_deal=False)
    game.totals = [90, 0]
    game.deals = []
    assert not game.is_finished()
    game.totals = [110, 0]
    assert game.is_finished()
    assert game.decide_winner() == 0
    assert game.bonuses == (310, 0)  # a shutout: (110 + 100) doubled
    assert game.totals == [420, 0]


def test_record_replays(stacked: Stacked) -> None:
    """A gin game's record replays to the same scores."""
    game = knock_position(stacked)
    act(game, "p0 knock 5c", "p0 meld 2s 3s 4s", "p0 meld 7h 8h 9h", "p0 meld Ks Kh Kd")
    act(game, "p0 pass", "p1 pass", "p1 pass")
    result = replay(game.record())
    assert result.ok and result.game is not None
    assert result.game.totals == game.totals and game.totals[0] > 0
    assert result.game.record() == game.record()


# -- random play: Gin Rummy's own invariants (tests/random_play.py checks the rest) --------


def check_gin(game: Game) -> None:
    """After every action: ten cards a hand before and between turns (G-1), the stock
    never below the wall (G-8), the knock limit in every view (G-5); a finished hand is
    scored as G-7 says; a finished game shows its bonuses (G-10)."""
    deal = game.deals[-1]
    assert isinstance(deal, GinDeal)
    sizes = [len(h) for h in deal.hands]
    if deal.phase in (GinPhase.OFFER, Phase.DRAW, GinPhase.WALL):
        assert sizes == [10, 10]
    elif deal.phase is Phase.DISCARD:
        assert sizes[deal.to_play or 0] == 11 and sum(sizes) == 21
    elif not deal.is_over:
        assert deal.knocker is not None and sizes[1 - deal.knocker] <= 10
    if not deal.is_over:
        assert len(deal.stock) >= 2, "the stock never goes below the wall (G-8)"
    for seat in (0, 1, None):
        assert GinViewPart.of(game.view(seat)).knock_limit == deal.limit
    if deal.summary is not None:
        check_hand_score(deal)
    if game.over:
        assert isinstance(game, GinGame)
        assert GinViewPart.of(game.view(0)).game_bonuses == game.bonuses
        assert sum(game.bonuses) > 0


def check_hand_score(deal: GinDeal) -> None:
    summary = deal.summary
    assert summary is not None
    if summary.ended_by is not GinEnding.KNOCK:
        assert summary.points == (0, 0) and deal.returns() == (0, 0)
        return
    knocker = deal.knocker
    assert knocker is not None and summary.by_seat == knocker
    left = [melds.points(h) for h in deal.hands]
    assert left[knocker] <= deal.limit, "a knock ends within the limit (G-5)"
    result = deal.returns()[knocker]
    assert sum(deal.returns()) == 0
    assert summary.points[knocker] == max(result, 0)
    assert summary.points[1 - knocker] == max(-result, 0)
    if left[knocker] == 0:  # gin: no lay-offs on the knocker's melds (G-6)
        assert all(m.laid_by.count(1 - knocker) == 0 for m in deal.table if m.owner == knocker)


@pytest.mark.parametrize(
    "seeds", [range(0, 150), pytest.param(range(150, 1000), marks=pytest.mark.slow)]
)
def test_random_hands_keep_gins_own_invariants(seeds: range) -> None:
    spec = find_variant("gin")
    endings: Counter[str] = Counter()
    for seed in seeds:
        game = play(spec, seed, check=False, extra=check_gin)
        endings.update(d.summary.ended_by for d in game.deals if d.summary is not None)
    assert endings[GinEnding.KNOCK] and endings[GinEnding.WALL], endings
