"""The web table's hints (remikit.server.advice): closing, going out, the meld counter,
the discard warnings and the best arrangement, each from the seat's own view only."""

from __future__ import annotations

import random

import pytest

from remikit.bots import make_bot
from remikit.engine import Game
from remikit.server.advice import Advisor, best_arrangement, state_advice, state_key
from remikit.variants import playable
from remikit.variants.gin.advice import GinAdvice
from remikit.variants.gin.game import GinGame
from remikit.variants.remi13d.advice import Remi13DAdvice
from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions
from remikit.variants.rummy500.advice import Rummy500Advice
from remikit.variants.rummy500.game import Rummy500Game
from remikit.variants.rummy500.options import Rummy500Options
from remikit.variants.three_thirteen.advice import ThreeThirteenAdvice
from remikit.variants.three_thirteen.rules import ThreeThirteenGame, ThreeThirteenOptions
from tests.hidden import blind_view
from tests.stacked import Stacked, act, deal_stacked

# -- Remi 13 D ------------------------------------------------------------------------------

CLOSER = "3s 4s 5s 6s 9h Th Jh 7c 7d 7s Kd Kc Jk"  # docs/rules.md §5, R13-7/11
NO_PURE = "2h 3h Jk 9s 9c 9d Kd Kc Ks 5c 6c 7c Qd"  # §5, R13-12: every card dead


def remi13d(stacked: Stacked, hand: str, *, stock: str = "", **values: object) -> Remi13DGame:
    game = Remi13DGame(Remi13DOptions.from_mapping(values), auto_deal=False)
    deck = stacked(game.full_deck(), {0: hand}, dealer=3, stock=stock, players=4, size=13)
    game.start_deal(deck, dealer=3)
    return game


def test_R13_7_R13_11_the_seat_that_can_close_is_told_with_the_best_close(
    stacked: Stacked,
) -> None:
    game = remi13d(stacked, CLOSER, stock="Ah")
    before = state_advice(game.view(0))
    assert before is not None and before["can_close"] is False
    assert before["counter"] == {"dead_points": 0, "to_meld": 0, "pure_run": True}
    act(game, "s0 draw stock")
    advice = state_advice(game.view(0))
    assert advice is not None
    assert advice["can_close"] is True and advice["close_card"] == "Ah"
    best = best_arrangement(game.view(0))
    assert best is not None
    assert best["close"] == "Ah" and best["points"] == 135 and best["dead"] == []
    assert sorted(len(m["cards"]) for m in best["melds"]) == [3, 3, 3, 4]


def test_R13_7_no_close_without_an_ace_or_joker_to_close_with(stacked: Stacked) -> None:
    game = remi13d(stacked, CLOSER, stock="2d")
    act(game, "s0 draw stock")
    advice = state_advice(game.view(0))
    assert advice is not None and advice["can_close"] is False
    best = best_arrangement(game.view(0))
    assert best is not None and best["close"] is None and best["discard"] == "2d"


def test_R13_10_R13_12_the_counter_and_a_hand_without_a_pure_run(stacked: Stacked) -> None:
    game = remi13d(stacked, NO_PURE)
    advice = state_advice(game.view(0))
    assert advice is not None
    # the melds it could make leave the Qd dead, but without a pure run of 4 (R13-12)...
    assert advice["counter"] == {"dead_points": -10, "to_meld": 1, "pure_run": False}
    best = best_arrangement(game.view(0))
    assert best is not None and best["points"] == -105  # ... every card counts dead


def test_R13_6_natural4_counts_a_joker_extended_run_as_pure(stacked: Stacked) -> None:
    fours = "3s 4s 5s 6s Jk 9c 9d 9h 9s Kc Kd Kh Ks"
    strict = remi13d(stacked, fours, stock="Ah")
    natural = remi13d(stacked, fours, stock="Ah", pure_run="natural4")
    for game in (strict, natural):
        act(game, "s0 draw stock")
    assert state_advice(strict.view(0))["can_close"] is False  # type: ignore[index]
    assert state_advice(natural.view(0))["can_close"] is True  # type: ignore[index]


# -- Three-Thirteen -------------------------------------------------------------------------


def t13(stacked: Stacked, hands: list[str], *, up: str, stock: str = "") -> ThreeThirteenGame:
    game = ThreeThirteenGame(ThreeThirteenOptions(players=len(hands)), auto_deal=False)
    return deal_stacked(game, stacked, hands, dealer=len(hands) - 1, up=up, stock=stock)


def test_R3_7_the_counter_is_the_least_deadwood(stacked: Stacked) -> None:
    game = t13(stacked, ["3h 9c Kd", "2c 5d 8s"], up="Qs", stock="4d")
    advice = state_advice(game.view(0))
    assert advice is not None and advice["counter"] == {"deadwood": 34}  # §5: 15 + 9 + 10
    assert advice["can_go_out"] is False


def test_R3_6_a_discard_that_leaves_only_melds_goes_out(stacked: Stacked) -> None:
    game = t13(stacked, ["9c 9d Kd", "2c 5d 8s"], up="9h", stock="4d")
    act(game, "s0 draw discard")
    advice = state_advice(game.view(0))
    assert advice is not None
    assert advice["can_go_out"] is True and advice["go_out_discard"] == "Kd"
    assert advice["counter"] == {"deadwood": 0}
    best = best_arrangement(game.view(0))
    assert best is not None and best["discard"] == "Kd" and best["points"] == 0
    assert [m["cards"] for m in best["melds"]] == [["9c", "9d", "9h"]]


def test_R3_5_the_card_just_taken_is_not_the_discard_that_goes_out(stacked: Stacked) -> None:
    game = t13(stacked, ["9c 9d 9s", "2c 5d 8s"], up="Kd", stock="4d")
    act(game, "s0 draw discard")  # the Kd may not go back (R3-5): a nine goes instead
    advice = state_advice(game.view(0))
    assert advice is not None and advice["can_go_out"] is False
    assert advice["counter"] == {"deadwood": 9 + 9 + 10}


# -- Rummy 500 ------------------------------------------------------------------------------

RUMMY_HANDS = ["5h 6h 7h Kc Ks Kd 2c", "9c 9d 4s 8h Qd 3s 2d", "4c 9h Td 6c Qs 5s Jd"]
OUT_HAND = "7h 8h 9h Kc Ks Kd Kh"


def r5(stacked: Stacked, hands: list[str], *, up: str, stock: str, **values: object) -> Game:
    options = Rummy500Options.from_mapping({"players": len(hands), **values})
    game = Rummy500Game(options, auto_deal=False)
    return deal_stacked(game, stacked, hands, dealer=len(hands) - 1, up=up, stock=stock)


def test_R5_5_R5_10_a_discard_that_can_be_laid_off_is_flagged(stacked: Stacked) -> None:
    game = r5(stacked, RUMMY_HANDS, up="Js", stock="Ah 7s Kh 3c")
    act(game, "p0 draw stock", "p0 meld 5h 6h 7h", "p0 discard 2c", "p1 draw stock")
    advice = state_advice(game.view(1))
    assert advice is not None
    assert advice["warnings"] == [{"card": "8h", "layoff": [1], "call": True}]
    assert advice["counter"] == {"table_points": 0, "hand_points": 9 + 9 + 4 + 8 + 10 + 3 + 2 + 7}
    mine = state_advice(game.view(0))
    assert mine is not None and mine["counter"]["table_points"] == 18  # R5-5, R5-11
    assert mine["warnings"] == []  # not its discard


def test_R5_10_a_discard_that_completes_a_meld_in_the_pile_gives_a_call(
    stacked: Stacked,
) -> None:
    hands = ["Tc 2h 3d 4s 6d 8s Qh", "Jc 2s 3c 4d 6h 8d Qs", "4h 9d Td 6c 7s 5s Jd"]
    game = r5(stacked, hands, up="9c", stock="Kh Kd 5c 7c")
    act(game, "p0 draw stock", "p0 discard Tc", "p1 draw stock")
    advice = state_advice(game.view(1))
    assert advice is not None
    assert advice["warnings"] == [{"card": "Jc", "layoff": [], "call": True}]


def test_R5_10_without_calls_only_the_layoff_is_flagged(stacked: Stacked) -> None:
    game = r5(stacked, RUMMY_HANDS, up="Js", stock="Ah 7s Kh 3c", rummy_calls=False)
    act(game, "p0 draw stock", "p0 meld 5h 6h 7h", "p0 discard 2c", "p1 draw stock")
    advice = state_advice(game.view(1))
    assert advice is not None
    assert advice["warnings"] == [{"card": "8h", "layoff": [1], "call": False}]


def test_R5_8_the_seat_that_can_go_out_is_told_and_shown_how(stacked: Stacked) -> None:
    hands = [OUT_HAND, "2h 8c 8d 4s Jc Qd 3s", "4c 9d Td 6c Qs 5s Jd"]
    game = r5(stacked, hands, up="Ac", stock="2c")
    assert state_advice(game.view(0))["can_go_out"] is False  # type: ignore[index]
    act(game, "p0 draw stock")
    advice = state_advice(game.view(0))
    assert advice is not None and advice["can_go_out"] is True
    best = best_arrangement(game.view(0))
    assert best is not None and best["goes_out"] is True and best["discard"] == "2c"
    assert {p["type"] for p in best["plays"]} == {"meld"} and len(best["plays"]) == 2
    assert best["dead"] == [] and best["points"] == 24 + 40


# -- hidden information -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_class", "values"),
    [
        (Remi13DGame, {}),
        (Rummy500Game, {"players": 3}),
        (ThreeThirteenGame, {"players": 3}),
        (GinGame, {}),
    ],
)
def test_advice_depends_only_on_the_seats_own_view(
    game_class: type[Game], values: dict[str, object]
) -> None:
    """Replacing every card the seat cannot see (other hands, the stock) changes nothing."""
    game = game_class(game_class.options_type.from_mapping(values), rng=random.Random(5))
    bots = [make_bot("greedy", seed=s) for s in range(game.players)]
    checked = 0
    for _ in range(120):
        if game.over:
            break
        seat = game.to_play
        assert seat is not None
        for s in range(game.players):
            assert state_advice(game.view(s)) == state_advice(blind_view(game, s))
            if s == seat:
                assert best_arrangement(game.view(s)) == best_arrangement(blind_view(game, s))
                checked += 1
        game.apply(seat, bots[seat].choose(game.view(seat)))
        if game.needs_deal:
            game.start_deal(game.new_deck(bytes([checked % 256])))
    assert checked >= 60


@pytest.mark.parametrize(
    ("game_class", "values"),
    [(Remi13DGame, {}), (ThreeThirteenGame, {"players": 3}), (Rummy500Game, {"players": 3})],
)
def test_a_seat_whose_advice_key_stays_the_same_gets_the_same_advice(
    game_class: type[Game], values: dict[str, object]
) -> None:
    """The web table makes a seat's advice again only when its key changes: so over
    random play, after every action, an unchanged key means unchanged advice."""
    game = game_class(game_class.options_type.from_mapping(values), rng=random.Random(7))
    bots = [make_bot("random", seed=s) for s in range(game.players)]
    last: dict[int, tuple[object, object]] = {}
    kept = remade = 0
    for _ in range(400):
        if game.over:
            break
        for s in range(game.players):
            view = game.view(s)
            key, advice = state_key(view), state_advice(view)
            if key is None:
                continue
            if s in last and last[s][0] == key:
                assert last[s][1] == advice, f"seat {s}: the same key, other advice"
                kept += 1
            else:
                remade += 1
            last[s] = (key, advice)
        seat = game.to_play
        assert seat is not None
        game.apply(seat, bots[seat].choose(game.view(seat)))
        if game.needs_deal:
            game.start_deal(game.new_deck(bytes([remade % 256])))
    assert kept > remade > 20


ADVISORS: tuple[Advisor, ...] = (
    Remi13DAdvice(),
    ThreeThirteenAdvice(),
    Rummy500Advice(),
    GinAdvice(),
)
"""Every variant's ``advice`` part, checked against the interface by the type checker."""


def test_every_playable_variant_names_its_advice_part() -> None:
    parts = {type(spec.part("advice")()) for spec in playable()}
    assert {type(a) for a in ADVISORS} <= parts  # and those of variants made in tests/


def test_a_spectator_gets_no_advice() -> None:
    game = Remi13DGame(Remi13DOptions(), rng=random.Random(1))
    assert state_advice(game.view(None)) is None and best_arrangement(game.view(None)) is None
