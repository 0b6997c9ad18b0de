"""Gin Rummy's hints at the web table (remikit.variants.gin.advice) on stacked decks: the
deadwood, the knock and gin (G-5, G-8), the lay-down and the defender's lay-offs (G-6),
and the warning before a discard that feeds the other player (G-4), from the seat's own
view only."""

from __future__ import annotations

import random
from typing import Any

from remikit.actions import Discard, Draw
from remikit.cards import make_deck, parse_cards
from remikit.deal import Phase
from remikit.server.advice import best_arrangement, state_advice
from remikit.variants.gin.advice import _mask, _may_meld
from remikit.variants.gin.game import GinGame
from remikit.variants.gin.melds import is_meld
from remikit.variants.gin.options import GinOptions
from remikit.variants.gin.state import GinPhase
from tests.stacked import Stacked, act, deal_stacked

# seat 0: runs 2-3-4 of spades, 7-8-9 of hearts, the set of kings, and 5c (5 deadwood)
KNOCKER = "2s 3s 4s 7h 8h 9h Ks Kh Kd 5c"
# 5s 6s (lay off on the spades), 6h (on the hearts), Kc (on the kings), a set of queens
DEFENDER = "5s 6s 6h Kc Qs Qh Qd 9c 8d 2d"  # 46 deadwood


def gin(stacked: Stacked, hands: list[str], *, up: str, stock: str = "", **options: Any) -> GinGame:
    game = GinGame(GinOptions(**options), auto_deal=False)
    return deal_stacked(game, stacked, hands, dealer=1, up=up, stock=stock)


def state(game: GinGame, seat: int) -> dict[str, Any]:
    advice = state_advice(game.view(seat))
    assert advice is not None
    return dict(advice)


def best(game: GinGame, seat: int) -> dict[str, Any]:
    found = best_arrangement(game.view(seat))
    assert found is not None
    return dict(found)


def meld_cards(found: dict[str, Any]) -> list[list[str]]:
    return sorted(m["cards"] for m in found["melds"])


# -- deadwood and the knock ----------------------------------------------------------------


def test_G2_the_counter_is_the_deadwood_of_the_best_arrangement(stacked: Stacked) -> None:
    game = gin(stacked, [KNOCKER, DEFENDER], up="Ac")
    advice = state(game, 0)
    assert advice["counter"] == {"deadwood": 5}  # the 5c
    assert advice["knock"] is None and advice["lay_off"] is None and advice["warnings"] == []
    assert advice["can_go_out"] is False and advice["go_out_discard"] is None
    assert state(game, 1)["counter"] == {"deadwood": 46}
    found = best(game, 0)
    assert meld_cards(found) == [["2s", "3s", "4s"], ["7h", "8h", "9h"], ["Kd", "Kh", "Ks"]]
    assert found["dead"] == ["5c"] and found["points"] == 5
    assert found["discard"] is None and found["knock"] is None and found["goes_out"] is False


def test_G5_the_seat_is_told_it_can_knock_and_with_which_card(stacked: Stacked) -> None:
    game = gin(stacked, [KNOCKER, DEFENDER], up="Ac")
    act(game, "s0 draw discard")  # the Ac: no run with the spades
    advice = state(game, 0)
    knock = {"card": "5c", "deadwood": 1}  # the Ac left: 1
    assert advice["knock"] == knock and advice["counter"] == {"deadwood": 1}
    assert advice["can_go_out"] is True and advice["go_out_discard"] == "5c"
    found = best(game, 0)
    assert found["knock"] == knock and found["discard"] == "5c" and found["goes_out"] is True
    assert found["dead"] == ["Ac"] and found["points"] == 1
    assert state(game, 1)["knock"] is None  # not its turn


def test_G5_gin_is_a_knock_with_no_deadwood(stacked: Stacked) -> None:
    game = gin(stacked, [KNOCKER, DEFENDER], up="As")
    act(game, "s0 draw discard")
    advice = state(game, 0)
    assert advice["knock"] == {"card": "5c", "deadwood": 0}
    found = best(game, 0)
    assert ["As", "2s", "3s", "4s"] in meld_cards(found) and found["dead"] == []


def test_G5_no_knock_over_the_limit(stacked: Stacked) -> None:
    game = gin(stacked, [KNOCKER, DEFENDER], up="Ac", knock=0)
    act(game, "s0 draw discard")
    advice = state(game, 0)
    assert advice["knock"] is None and advice["can_go_out"] is False
    assert advice["counter"] == {"deadwood": 1}  # after the best discard, the 5c
    found = best(game, 0)
    assert found["discard"] == "5c" and found["knock"] is None and found["goes_out"] is False


def test_G4_G5_the_card_just_taken_stays_when_it_may_not_go_back(stacked: Stacked) -> None:
    free = gin(stacked, [KNOCKER, DEFENDER], up="Qc")
    act(free, "s0 draw discard")
    assert state(free, 0)["knock"] == {"card": "Qc", "deadwood": 5}
    kept = gin(stacked, [KNOCKER, DEFENDER], up="Qc", discard_taken_card=False)
    act(kept, "s0 draw discard")
    assert state(kept, 0)["knock"] == {"card": "5c", "deadwood": 10}
    assert best(kept, 0)["dead"] == ["Qc"]


def test_G8_at_the_wall_the_knock_takes_the_upcard(stacked: Stacked) -> None:
    """Both seats draw from the stock and discard the card drawn until two cards are left;
    seat 1 then holds the knocker's hand and seat 0's last discard, the As, is the upcard."""
    used = set(parse_cards(f"{KNOCKER} {DEFENDER} Ac As"))
    filler = [c for c in make_deck() if c not in used][:28]
    stock = " ".join(map(str, filler)) + " As"
    game = gin(stacked, [DEFENDER, KNOCKER], up="Ac", stock=stock)
    act(game, "s0 pass", "s1 pass")
    deal = game.deals[-1]
    while deal.phase is not GinPhase.WALL:
        seat = deal.to_play
        assert seat is not None
        if deal.phase is Phase.DRAW:
            game.apply(seat, Draw("stock"))
        else:
            game.apply(seat, Discard(deal.hands[seat][-1]))
    assert deal.to_play == 1 and game.view(1).top_discard == parse_cards("As")[0]
    advice = state(game, 1)
    assert advice["knock"] == {"card": "5c", "deadwood": 0}
    assert advice["counter"] == {"deadwood": 5}  # the hand as it is, before the upcard
    assert best(game, 1)["knock"] == advice["knock"]
    assert state(game, 0)["knock"] is None


# -- laying down and laying off ------------------------------------------------------------

KNOCKED = ["s0 draw discard", "s0 knock 5c"]
LAID = ["s0 meld 2s 3s 4s", "s0 meld 7h 8h 9h", "s0 meld Ks Kh Kd", "s0 pass"]


def test_G6_the_knocker_is_shown_its_best_lay_down(stacked: Stacked) -> None:
    game = gin(stacked, [KNOCKER, DEFENDER], up="Ac")
    act(game, *KNOCKED)
    advice = state(game, 0)
    assert advice["counter"] == {"deadwood": 1} and advice["knock"] is None
    found = best(game, 0)
    assert meld_cards(found) == [["2s", "3s", "4s"], ["7h", "8h", "9h"], ["Kd", "Kh", "Ks"]]
    assert found["dead"] == ["Ac"] and found["points"] == 1 and found["plays"] == []


def test_G6_the_defender_is_shown_the_lay_offs_and_its_deadwood_after(stacked: Stacked) -> None:
    game = gin(stacked, [KNOCKER, DEFENDER], up="Ac")
    act(game, *KNOCKED, *LAID)
    advice = state(game, 1)
    assert advice["counter"] == {"deadwood": 46}
    lay_off = advice["lay_off"]
    assert [p["text"] for p in lay_off["plays"]] == [
        "layoff 5s to 1",
        "layoff 6s to 1",  # the 6s only once the 5s is on the run
        "layoff 6h to 2",
        "layoff Kc to 3",
    ]
    assert lay_off["deadwood"] == 9 + 8 + 2  # the queens melded
    assert state(game, 0)["lay_off"] is None  # the knocker lays nothing off
    found = best(game, 1)
    assert found["plays"] == lay_off["plays"] and meld_cards(found) == [["Qd", "Qh", "Qs"]]
    assert sorted(found["dead"]) == ["2d", "8d", "9c"] and found["points"] == 19
    act(game, "s1 layoff 5s to 1", "s1 layoff 6s to 1", "s1 layoff 6h to 2", "s1 layoff Kc to 3")
    assert state(game, 1)["lay_off"] == {"plays": [], "deadwood": 19}


# -- feeding the other player --------------------------------------------------------------

TAKER = "2s 3s 4s 7h 8h 9h Ks Kh Kd Jd"


def test_G4_a_discard_that_joins_a_card_the_other_player_took_is_flagged(
    stacked: Stacked,
) -> None:
    game = gin(stacked, [TAKER, "5s 6s 6h Kc Qs Qh Qd 9c 2c 2d"], up="Ac", stock="Td")
    act(game, "s0 draw discard", "s0 discard Jd", "s1 draw stock")
    warnings = state(game, 1)["warnings"]
    # 2c: Ac 2c 3c, the 3c unseen; no other card melds with the Ac
    assert warnings == [{"card": "2c", "layoff": [], "call": False, "joins": ["Ac"]}]
    assert state(game, 0)["warnings"] == []  # not its turn to discard


def test_G4_no_warning_once_the_meld_cannot_be_made(stacked: Stacked) -> None:
    """The seat holds the 3c, the third card of the Ac 2c run; the set of aces needs two
    more and the seat holds one: Ad joins Ac (with Ah or As), the 2c joins nothing."""
    game = gin(stacked, [TAKER, "5s 6s 6h Kc Qs Qh Qd Ad 2c 3c"], up="Ac", stock="Td")
    act(game, "s0 draw discard", "s0 discard Jd", "s1 draw stock")
    assert state(game, 1)["warnings"] == [
        {"card": "Ad", "layoff": [], "call": False, "joins": ["Ac"]}
    ]


def test_G4_a_card_the_other_player_put_back_warns_of_nothing(stacked: Stacked) -> None:
    game = gin(stacked, [TAKER, "5s 6s 6h Kc Qs Qh Qd 9c 2c 2d"], up="Ac", stock="Td")
    act(game, "s0 draw discard", "s0 discard Ac", "s1 draw stock")
    assert state(game, 1)["warnings"] == []


def test_G2_G4_a_warning_joins_exactly_the_cards_a_third_card_makes_a_meld_with() -> None:
    """The warning's quick test (bits by card index) against the rules' own meld test, for
    every pair of cards and sampled sets of cards the other player may still draw."""
    deck = make_deck()
    rng = random.Random(4)
    for size in (0, 3, 12, 25, 40, 50):
        free = set(rng.sample(deck, size))
        bits = _mask(free)
        for card in deck:
            for taken in deck:
                if card is not taken:
                    expected = any(is_meld([card, taken, third]) for third in free - {card, taken})
                    assert _may_meld(card, taken, bits) == expected, (card, taken)
