"""The Remi 13 D table option ``pure_run`` (R13-6 [interp]): ``strict`` (a pure run holds
no joker) or ``natural4`` (a run holding 4+ natural cards in a row is pure even when a
joker extends it), in closing (R13-7), the others' score (R13-12), the legal closes, the
bots, the terminal's hints and ``remi score``.

The natural4 meld values and the brute force are written from RULES.md again (reusing
the strict ones of tests/test_solver.py), independently of :mod:`remikit.solver`.
"""

from __future__ import annotations

import io
import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from remikit.actions import Discard, Draw
from remikit.bots.greedy import GreedyBot
from remikit.cards import JOKER, Card, parse_cards
from remikit.cli.main import main
from remikit.engine import OptionError
from remikit.errors import IllegalAction
from remikit.melds import Arrangement, Meld, card_at, is_pure_run
from remikit.solver import NEG, Goal
from remikit.variants.remi13d import scoring
from remikit.variants.remi13d.actions import Close
from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions
from remikit.variants.remi13d.tactics import Remi13DTactics
from remikit.variants.remi13d.tui import Remi13DUI
from tests.stacked import Stacked, act, deal_stacked
from tests.test_solver import (
    DENSE,
    REMI_DECK,
    ROYAL,
    brute_force,
    hands,
    positions,
    remi_dead,
    remi_meld_points,
    remi_set_value,
    with_pure_run,
)

if TYPE_CHECKING:
    from remikit.cli.tui.session import Session

AH = Card.parse("Ah")
# R13-6's example run 3s 4s 5s 6s Jk=7s: the joker has no other place (two fours)
NATURAL4_CLOSER = "3s 4s 5s 6s Jk 9c 9d 9h 9s Kc Kd Kh Ks"
# the same run and eight cards that meld with nothing
NATURAL4_HAND = "3s 4s 5s 6s Jk 9h Jc 2d Qd 8c Kh 7d 5h"
OTHERS = [
    "2h 3h 4h 5h Kc Kd 9s 9c Jk Ah 7d 8c Qs",
    "2d 3d 4d 5d 6d 8h 8s Qc Qd 4c 4s Jk Tc",
    "2c 3c 5c 6h 7h 8s Jd Jc Qh Td 9d 2s 3s",
]
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- natural4 again, independently --------------------------------------------


def natural4_run_value(position: int) -> int:
    """R13-9 in a run: ace low 5, 2–10 5, J Q K 10, ace high 15."""
    if position == 13:
        return 15
    return 10 if position >= 10 else 5


def natural4_meld(cards: list[Card]) -> tuple[int, bool] | None:
    """The best (value, pure) of ``cards`` as one meld, a run being pure under natural4
    when 4 of its positions in a row hold natural cards (R13-6, R13-9)."""
    naturals = [c for c in cards if not c.is_joker]
    if len(cards) < 3 or not naturals:
        return None
    options: list[tuple[int, bool]] = []
    if Counter(cards) == ROYAL:
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
            placed = [next((p for p in positions(c) if lo <= p <= hi), None) for c in naturals]
            if None in placed:
                continue
            held = set(placed)
            pure = any(all(p + k in held for k in range(4)) for p in range(lo, hi - 2))
            options.append((sum(natural4_run_value(p) for p in range(lo, hi + 1)), pure))
    return max(options) if options else None


def is_natural4_pure(meld: Meld) -> bool:
    """R13-6 natural4: the royal flush, or a run with 4 natural cards in a row."""
    if meld.kind == "royal":
        return True
    if meld.kind != "run":
        return False
    row = [c.is_joker for c in meld.cards]
    return any(not any(row[i : i + 4]) for i in range(len(row) - 3))


def check_natural4(
    hand: Sequence[Card], found: Arrangement | scoring.Score, claimed: int, bonus: int = 0
) -> None:
    """Every card once, every meld legal with its points, a natural4 pure run among the
    melds, the pure flags right, the total as claimed (R13-11, R13-12)."""
    assert Counter(hand) == Counter([c for m in found.melds for c in m.cards] + list(found.dead))
    for meld in found.melds:
        assert meld.points == remi_meld_points(meld), meld
        assert meld.pure == is_natural4_pure(meld), meld
    if found.melds:
        assert any(is_natural4_pure(m) for m in found.melds)
    assert claimed == bonus + sum(m.points for m in found.melds) + sum(
        remi_dead(c) for c in found.dead
    )


def rules_game(stacked: Stacked, hand: str, pure_run: str, stock: str = "Ah") -> Remi13DGame:
    game = Remi13DGame(
        Remi13DOptions.from_mapping({"games": 1, "pure_run": pure_run}), auto_deal=False
    )
    return deal_stacked(game, stacked, [hand, *OTHERS], dealer=3, stock=stock)


# -- R13-6: what a pure run is ---------------------------------------------------


def test_R13_6_is_pure_run_by_rule() -> None:
    # positions 2 … 6 are 3s … 7s
    assert is_pure_run(2, 5, (), "strict") and is_pure_run(2, 5, (), "natural4")
    assert not is_pure_run(2, 6, (6,), "strict") and is_pure_run(2, 6, (6,), "natural4")
    assert is_pure_run(1, 7, (1, 6), "natural4")  # Jk 3s 4s 5s 6s Jk 8s
    assert not is_pure_run(2, 6, (4,), "natural4")  # 3s 4s Jk 6s 7s
    assert not is_pure_run(2, 4, (), "natural4")  # three cards are never pure


def test_R13_6_option_pure_run_is_strict_by_default_and_checked() -> None:
    assert Remi13DOptions().pure_run == "strict"
    assert Remi13DOptions.from_mapping({"pure_run": "natural4"}).pure_rule == "natural4"
    with pytest.raises(OptionError, match="pure_run"):
        Remi13DOptions.from_mapping({"pure_run": "loose"})
    info = {i.name: i for i in Remi13DOptions.describe()}["pure_run"]
    assert (info.kind, info.default, info.choices) == ("string", "strict", ("strict", "natural4"))


# -- R13-7 and R13-12: worked examples -------------------------------------------


def test_R13_7_a_joker_extending_the_pure_run_closes_only_under_natural4() -> None:
    """R13-6's ``3s 4s 5s 6s Jk=7s``: with two fours beside it, the joker has no other
    place; the run (25) + 9s (20) + Ks (40) + Remi As (50) = 135."""
    hand = parse_cards(NATURAL4_CLOSER)
    assert not scoring.can_close(hand, AH)
    with pytest.raises(scoring.CloseRefused, match="pure run of 4 or more cards"):
        scoring.close_score(hand, AH)
    assert scoring.can_close(hand, AH, pure_run="natural4")
    got = scoring.close_score(hand, AH, pure_run="natural4")
    assert (got.points, got.bonus, got.dead) == (135, 50, ())
    (run,) = [m for m in got.melds if m.kind == "run"]
    assert run.pure and JOKER in run.cards and len(run) == 5
    check_natural4(hand, got, got.points, bonus=50)
    assert scoring.close_score(hand, JOKER, pure_run="natural4").points == 160


@pytest.mark.parametrize(
    ("hand", "closes"),
    [
        ("3s 4s 5s 6s Jk 8s 9c 9d 9h Kc Kd Kh Ks", True),  # Jk=7s between 4 naturals and 8s
        ("3s 4s Jk 6s 7s 9c 9d 9h 9s Kc Kd Kh Ks", False),  # no 4 naturals in a row
        ("3s 4s 5s Jk 9h Th Jh 7c 7d 7s Kh Ks Kd", False),
    ],  # 3 naturals and a joker
)
def test_R13_7_natural4_needs_four_natural_cards_in_a_row(hand: str, closes: bool) -> None:
    cards = parse_cards(hand)
    assert not scoring.can_close(cards, AH)
    assert scoring.can_close(cards, AH, pure_run="natural4") is closes
    if not closes:
        why = scoring.refusal(cards, AH, pure_run="natural4")
        assert why is not None and "4 or more natural cards in a row" in why.en
        assert "4 kartu asli berurutan" in why.text("id")


def test_R13_12_natural4_lets_the_joker_score_in_the_pure_run() -> None:
    """R13-12: strict: 3s-6s (20), the joker dead (−25), eight dead (−55): −60;
    natural4: 3s 4s 5s 6s Jk (25) − 55 = −30."""
    hand = parse_cards(NATURAL4_HAND)
    assert scoring.hand_score(hand).points == scoring.hand_value(hand) == -60
    got = scoring.hand_score(hand, pure_run="natural4")
    assert got.points == scoring.hand_value(hand, pure_run="natural4") == -30
    check_natural4(hand, got, got.points)
    # RULES.md §5: no four natural cards in a row, so every card is dead either way
    dead = parse_cards("2h 3h Jk 9s 9c 9d Kd Kc Ks 5c 6c 7c Qd")
    assert scoring.hand_score(dead, pure_run="natural4").points == -105


# -- strict ⊆ natural4, and the brute force ---------------------------------------


@st.composite
def natural4_prone(draw: st.DrawFn, size: int) -> list[Card]:
    """``size`` cards: a pure run of four natural cards, one or two jokers, the rest dense."""
    suit = draw(st.sampled_from([3, 2]))
    low = draw(st.integers(0, 10))
    cards = [card_at(suit, p) for p in range(low, low + 4)]
    cards += [JOKER] * draw(st.integers(1, 2))
    rest = list(DENSE)
    for card in cards:
        if card in rest:
            rest.remove(card)
    extra = size - len(cards)
    return cards + draw(hands(rest, extra, extra))


THIRTEEN = st.one_of(natural4_prone(13), hands(DENSE, 13, 13), hands(REMI_DECK, 13, 13))


@SETTINGS
@given(THIRTEEN)
def test_R13_12_natural4_never_scores_less_than_strict(hand: list[Card]) -> None:
    """R13-6/R13-12: every strict pure run is natural4 pure, so no hand loses points."""
    strict = scoring.hand_value(hand)
    natural4 = scoring.hand_score(hand, pure_run="natural4")
    assert natural4.points >= strict
    assert scoring.hand_value(hand, pure_run="natural4") == natural4.points
    check_natural4(hand, natural4, natural4.points)


@SETTINGS
@given(THIRTEEN, st.sampled_from([AH, JOKER]))
def test_R13_7_whatever_closes_strict_closes_natural4_for_as_much_or_more(
    hand: list[Card], closing: Card
) -> None:
    strict = scoring.can_close(hand, closing)
    natural4 = scoring.can_close(hand, closing, pure_run="natural4")
    assert natural4 or not strict
    if natural4:
        got = scoring.close_score(hand, closing, pure_run="natural4")
        check_natural4(hand, got, got.points, bonus=got.bonus)
        assert not strict or got.points >= scoring.close_score(hand, closing).points


@pytest.mark.parametrize(
    ("all_melded", "need_pure"), [(False, False), (False, True), (True, False), (True, True)]
)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand=st.one_of(hands(DENSE, 1, 8), natural4_prone(7), natural4_prone(8), with_pure_run()))
def test_R13_6_natural4_solver_is_the_brute_force_optimum(
    hand: list[Card], all_melded: bool, need_pure: bool
) -> None:
    """R13-6/R13-8/R13-12 under natural4: no partition of the hand scores more than the
    solver finds, and its arrangement is valid."""
    goal = Goal(all_melded=all_melded, need_pure=need_pure)
    want = brute_force(hand, natural4_meld, remi_dead, all_melded=all_melded, need_pure=need_pure)
    solver = scoring.solver("natural4")
    value = solver.value(hand, goal=goal)
    assert (value if value > NEG // 2 else None) == want
    found = solver.solve(hand, goal=goal)
    assert (found is None) == (want is None)
    if found is not None:
        assert found.value == want
        assert not all_melded or found.dead == ()
        for meld in found.melds:
            assert meld.points == remi_meld_points(meld) and meld.pure == is_natural4_pure(meld)
        assert not need_pure or any(m.pure for m in found.melds)
        assert Counter(hand) == Counter(found.cards())


# -- the table: legal closes, the deal's scores ------------------------------------


def test_R13_7_a_natural4_table_lists_and_takes_the_close(stacked: Stacked) -> None:
    strict = rules_game(stacked, NATURAL4_CLOSER, "strict")
    act(strict, "p0 draw stock")
    assert Close(AH) not in strict.legal_actions(0)
    with pytest.raises(IllegalAction, match="pure run"):
        strict.apply(0, Close(AH))
    game = rules_game(stacked, NATURAL4_CLOSER, "natural4")
    act(game, "p0 draw stock")
    assert Close(AH) in game.legal_actions(0)
    act(game, "p0 close Ah")
    summary = game.deals[0].summary
    assert summary is not None and summary.ended_by == "close"
    assert summary.results[0].points == 135  # R13-11
    for seat, hand in enumerate(OTHERS, 1):  # R13-12 under the table's option
        want = scoring.hand_score(parse_cards(hand), pure_run="natural4").points
        assert summary.results[seat].points == want


def test_R13_13_stock_out_scores_by_the_tables_option(stacked: Stacked) -> None:
    game = rules_game(stacked, NATURAL4_HAND, "natural4", stock="")
    deal = game.current()
    deal.stock[:] = deal.stock[-1:]
    act(game, "p0 draw stock")
    drawn = deal.hands[0][-1]
    game.apply(0, Discard(drawn))
    assert deal.summary is not None and deal.summary.ended_by == "stock"
    assert deal.summary.results[0].points == -30


# -- the bots and the terminal ---------------------------------------------------


def test_R13_7_greedy_and_strong_close_under_natural4(stacked: Stacked) -> None:
    for pure_run, closes in (("strict", False), ("natural4", True)):
        game = rules_game(stacked, NATURAL4_CLOSER, pure_run)
        act(game, "p0 draw stock")
        view = game.view(0)
        assert (GreedyBot().choose(view) == Close(AH)) is closes
        tactics = Remi13DTactics()
        plans = [plan for plan, _ in tactics.candidates(view)]
        assert (plans == [(Close(AH),)]) is closes
        policy = tactics.policy(game.current(), 0, random.Random(1))
        assert (policy == Close(AH)) is closes


def test_R13_7_bots_take_the_discard_that_closes_under_natural4(stacked: Stacked) -> None:
    """The previous player discards Ah: with it the hand closes (natural4), so both
    bots take it."""
    game = rules_game(stacked, NATURAL4_CLOSER, "natural4", stock="Td 8d Qh Ah")
    for seat, card in enumerate(["Td", "8d", "Qh", "Ah"]):
        act(game, f"p{seat} draw stock", f"p{seat} discard {card}")
    view = game.view(0)
    assert view.top_discard == AH
    assert GreedyBot().choose(view) == Draw("discard")
    assert Remi13DTactics().draw(view) == Draw("discard")


def test_R13_7_the_terminal_hint_follows_the_tables_option(stacked: Stacked) -> None:
    session = cast("Session", SimpleNamespace(lang="en"))
    for pure_run, hint in (("strict", "Best discard"), ("natural4", "for 135 points")):
        game = rules_game(stacked, NATURAL4_CLOSER, pure_run)
        act(game, "p0 draw stock")
        shown = Remi13DUI().melds(session, game.view(0))
        assert hint in str(shown[0])


# -- remi score --pure-run --------------------------------------------------------


def score(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["score", *args, "--lang", "en"])
    out, err = capsys.readouterr()
    return status, out, err


def test_R13_7_remi_score_pure_run_natural4(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = score(capsys, "remi13d", NATURAL4_CLOSER, "--closing", "Ah", "--json")
    assert status == 1 and "pure run" in json.loads(out)["reason"]
    status, out, _ = score(
        capsys, "remi13d", NATURAL4_CLOSER, "--closing", "Ah", "--json", "--pure-run", "natural4"
    )
    got = json.loads(out)
    assert (status, got["points"], got["can_close"], got["dead"]) == (0, 135, True, [])
    assert any(any(t.startswith("Jk=") for t in m) and "3s" in m for m in got["melds"])
    status, out, _ = score(
        capsys, "remi13d", NATURAL4_CLOSER, "--closing", "Ah", "--pure-run", "natural4"
    )
    assert status == 0 and "Points: 135" in out and "pure_run=natural4" in out
    assert "Jk(7♠)" in out or "Jk(2♠)" in out


def test_R13_12_remi_score_pure_run_natural4(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = score(capsys, "remi13d", NATURAL4_HAND, "--json")
    assert status == 0 and json.loads(out)["points"] == -60
    status, out, _ = score(capsys, "remi13d", NATURAL4_HAND, "--json", "--pure-run", "natural4")
    got = json.loads(out)
    assert (got["points"], got["can_close"]) == (-30, False)
    status, out, _ = score(capsys, "remi13d", NATURAL4_CLOSER, "--json", "--pure-run", "natural4")
    assert json.loads(out)["can_close"] is True
    status, out, _ = score(capsys, "remi13d", NATURAL4_HAND, "--pure-run", "strict")
    assert status == 0 and "pure_run" not in out and "Points: -60" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["3-13", "3h 9c Kd", "--round", "1", "--pure-run", "natural4"], "remi13d only"),
        (["gin", "As 2s 3s 7h 7d 7c Kd Kc Ks 9h", "--pure-run", "strict"], "--pure-run"),
        (["remi13d", NATURAL4_CLOSER, "--pure-run", "loose"], "invalid choice"),
        (["--batch", "-", "--pure-run", "natural4"], "--batch takes no"),
    ],
)
def test_remi_score_pure_run_is_for_remi13d_only(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, out, err = score(capsys, *args)
    assert (status, out) == (2, "")
    assert message in err


def test_R13_6_remi_score_batch_lines_take_pure_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [
        json.dumps({"variant": "remi13d", "hand": NATURAL4_CLOSER, "closing": "Ah"}),
        json.dumps(
            {"variant": "remi13d", "hand": NATURAL4_CLOSER, "closing": "Ah", "pure_run": "natural4"}
        ),
        json.dumps({"variant": "remi13d", "hand": NATURAL4_HAND, "pure_run": "natural4"}),
        json.dumps({"variant": "remi13d", "hand": NATURAL4_HAND, "pure_run": "loose"}),
        json.dumps({"variant": "3-13", "hand": "3h 9c Kd", "round": 1, "pure_run": "strict"}),
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    status, out, _ = score(capsys, "--batch", "-")
    results = [json.loads(line) for line in out.splitlines()]
    assert status == 1 and len(results) == 5
    assert (results[0]["points"], results[1]["points"], results[2]["points"]) == (None, 135, -30)
    assert "pure_run must be strict or natural4, not loose" in results[3]["error"]
    assert "pure_run is for remi13d only" in results[4]["error"]
