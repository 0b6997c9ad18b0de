"""The shared engine: dealing, one place for turn and phase checks, the typed log, the
action limit (RULES.md §0), and the Rummy call window as a phase (R5-10)."""

from __future__ import annotations

import json
import random

import pytest

from remikit.actions import Discard, Draw, Pass, Play, parse_action
from remikit.deal import MAX_ACTIONS_PER_DEAL, Deal, DealPhase, Phase
from remikit.errors import IllegalAction
from remikit.records import replay
from remikit.server.serialize import view_json
from remikit.variants import VariantSpec, playable
from remikit.variants.remi13d.rules import Remi13DDeal, Remi13DGame, Remi13DOptions
from remikit.variants.rummy500.actions import CallRummy
from remikit.variants.rummy500.game import Rummy500Game
from remikit.variants.rummy500.options import Rummy500Options
from remikit.variants.rummy500.state import Rummy500Phase
from remikit.views import EndedBy, PlayLog
from tests.stacked import Stacked, act, deal_stacked


def test_a_deal_is_made_empty_and_dealt_apart() -> None:
    deal = Remi13DDeal(number=1, players=4, dealer=3, first=0, options=Remi13DOptions())
    assert deal.hands == [[], [], [], []] and deal.stock == [] and deal.deck == ()
    deck = Remi13DGame(Remi13DOptions(), auto_deal=False).full_deck()
    deal.deal(deck)
    assert [len(h) for h in deal.hands] == [13] * 4  # R13-4
    assert deal.hands[0][0] == deck[0] and deal.hands[1][0] == deck[1]  # from the seat after
    assert deal.discard_pile == [] and len(deal.stock) == 108 - 52
    assert deal.stock[-1] == deck[52]  # the top of the stock is the next card


@pytest.mark.parametrize("spec", playable(), ids=lambda s: s.name)
def test_every_action_kind_names_its_phases(spec: VariantSpec) -> None:
    game = spec.game_class()(spec.game_class().options_type(), rng=random.Random(3))
    deal = game.deal
    assert deal is not None
    assert Phase.DRAW in deal.phases[Draw] and deal.phases[Discard] == {Phase.DISCARD}
    seat = deal.to_play
    assert seat is not None
    other = (seat + 1) % game.players
    with pytest.raises(IllegalAction) as refused:
        game.verify(other, Draw("stock"))
    assert refused.value.key == "not_your_turn"
    with pytest.raises(IllegalAction) as refused:
        game.verify(seat, Discard(deal.hands[seat][0]))
    assert refused.value.key == "draw_first"
    assert game.legal_actions(other) == []


def test_the_log_is_typed_and_its_text_is_made_once() -> None:
    game = Remi13DGame(Remi13DOptions(), rng=random.Random(1))
    game.apply(0, Draw("stock"))
    view = game.view(1)
    assert view.log == (Play(0, Draw("stock")),) and view.phase is Phase.DISCARD
    assert game.record()["hands"][0]["actions"] == ["p0 draw stock"]
    data = view_json(game.view(0))
    assert data["plays"] == [
        {
            "seat": 0,
            "text": "p0 draw stock",
            "action": {"type": "draw", "source": "stock", "depth": 1, "text": "draw stock"},
        }
    ]
    assert all(a["text"] == t for a, t in zip(data["legal"], data["legal_actions"], strict=True))


OWN_KEYS = {
    "remi13d": set(),
    "three-thirteen": {"wild_rank", "went_out", "shown_melds"},
    "rummy500": {"must_meld"},
    "gin": {"knock_limit", "game_bonuses"},
}
"""The view keys of one variant's own (docs/protocol.md §5.2)."""


@pytest.mark.parametrize("spec", playable(), ids=lambda s: s.name)
def test_a_view_carries_its_own_variants_keys_only(spec: VariantSpec) -> None:
    """Protocol 3: a variant's own fields travel in its views alone, before its first
    deal too, with the values protocol 2 gave them."""
    game_type = spec.game_class()
    own = OWN_KEYS.get(spec.name, set())  # a variant made in tests/ has none of these
    others = set().union(*OWN_KEYS.values()) - own
    for dealt in (False, True):
        game = game_type(game_type.options_type(), rng=random.Random(2), auto_deal=dealt)
        for seat in (None, 0):
            data = view_json(game.view(seat))
            assert own <= data.keys() and not others & data.keys()
            if spec.name == "three-thirteen":
                assert data["wild_rank"] == ("3" if dealt else None)  # R3-3
                assert data["went_out"] is None and data["shown_melds"] == []
            if spec.name == "gin":
                assert data["knock_limit"] == (10 if dealt else None)  # G-5
                assert data["game_bonuses"] == []
            if spec.name == "rummy500":
                assert data["must_meld"] is None


def test_a_view_holds_the_log_as_it_was_without_copying_it() -> None:
    """Views share the deal's log (a view costs the same at any point of a deal) and
    keep showing the plays made up to it while the deal goes on."""
    game = Remi13DGame(Remi13DOptions(), rng=random.Random(1))
    game.apply(0, Draw("stock"))
    early = game.view(1)
    deal = game.deal
    assert deal is not None
    game.apply(0, Discard(deal.hands[0][0]))
    later = game.view(1)
    assert isinstance(early.log, PlayLog) and isinstance(later.log, PlayLog)
    assert early.log._plays is later.log._plays is deal.log  # one list, not copies
    assert early.log == (Play(0, Draw("stock")),) and len(early.log) == 1
    assert list(later.log) == deal.log and later.log[-1] == deal.log[-1]
    assert later.log[:1] == early.log and list(reversed(later.log)) == deal.log[::-1]
    with pytest.raises(IndexError):
        early.log[1]


def test_a_deal_that_reaches_the_action_limit_ends_as_if_the_stock_ran_out() -> None:
    """RULES.md §0: a deal never refuses every action; it ends at the limit and is scored
    as R13-13, and the record says why."""
    game = Remi13DGame(Remi13DOptions(games=2), rng=random.Random(5))
    deal = game.deal
    assert deal is not None
    while not deal.is_over:  # take the discard back and forth: the stock never runs out
        seat = deal.to_play
        assert seat is not None
        if deal.phase is Phase.DRAW:
            game.apply(seat, Draw("discard" if deal.discard_pile else "stock"))
        else:
            keep = deal.just_taken
            card = next(c for c in deal.hands[seat] if c is not keep)
            game.apply(seat, Discard(card))
    assert len(deal.log) == MAX_ACTIONS_PER_DEAL and deal.stock
    assert deal.summary is not None and deal.summary.ended_by is EndedBy.LIMIT
    assert deal.summary.by_seat is None and not any(r.bonus for r in deal.summary.results)
    assert game.deals[-1] is not deal and not game.over  # the match goes on
    hand = game.record()["hands"][0]
    assert hand["ended_by"] == "limit"
    again = replay(json.loads(json.dumps(game.record())))
    assert again.ok and again.game is not None
    assert again.game.deals[0].summary == deal.summary


# -- the Rummy call window (R5-10) -----------------------------------------------------

HANDS = [
    "5h 6h 7h Kc Ks 9d 2c",
    "9c 8h 4s Kd Qd 3s 2d",
    "4d 9h Td 6c Qs 5s Jd",
    "3h 2h 4c 6d 8c Tc Jc",
]
OPENING = ("p0 draw stock", "p0 meld 5h 6h 7h", "p0 discard 2c", "p1 draw stock", "p1 discard 8h")


def phase(deal: Deal) -> DealPhase:
    """The deal's phase now (read afresh after actions that change it)."""
    return deal.phase


def rummy_game(stacked: Stacked) -> Rummy500Game:
    game = Rummy500Game(Rummy500Options(players=4), auto_deal=False)
    return deal_stacked(game, stacked, HANDS, dealer=3, up="Js", stock="Ah 7s Kh 3c 5c 6s")


def test_the_call_window_asks_the_seats_after_the_discarder_in_turn(stacked: Stacked) -> None:
    game = rummy_game(stacked)
    act(game, *OPENING)
    deal = game.deal
    assert deal is not None and deal.phase is Rummy500Phase.CALL and deal.awaiting() == [2, 3, 0]
    assert [game.legal_actions(s) for s in range(4)] == [[], [], [CallRummy(1), Pass()], []]
    game.apply(2, Pass())
    assert deal.awaiting() == [3, 0] and game.legal_actions(3) == [CallRummy(1), Pass()]
    game.apply(3, Pass())
    game.apply(0, Pass())
    assert phase(deal) is Phase.DRAW and deal.to_play == 2  # nobody called: the next draws
    assert [str(p) for p in deal.log[-3:]] == ["p2 pass", "p3 pass", "p0 pass"]


def test_a_record_may_leave_out_the_passes(stacked: Stacked) -> None:
    """Records written before the window was a phase list only the winning call: a call
    further down the order, or the next player's draw, stands for the passes before it."""
    game = rummy_game(stacked)
    act(game, *OPENING, "p0 rummy 1")
    deal = game.deal
    assert deal is not None and deal.to_play == 0 and deal.phase is Phase.DISCARD
    assert [str(p) for p in deal.log[5:]] == ["p2 pass", "p3 pass", "p0 rummy 1"]
    game = rummy_game(stacked)
    act(game, *OPENING, "p2 draw stock")
    assert [str(p) for p in game.deals[0].log[5:]] == [
        "p2 pass",
        "p3 pass",
        "p0 pass",
        "p2 draw stock",
    ]
    with pytest.raises(IllegalAction):  # the discarder is never asked
        act(rummy_game_after(stacked), "p1 rummy 1")


def rummy_game_after(stacked: Stacked) -> Rummy500Game:
    game = rummy_game(stacked)
    act(game, *OPENING)
    return game


def test_a_resumed_position_keeps_the_window_and_who_is_still_asked(stacked: Stacked) -> None:
    game = rummy_game(stacked)
    act(game, *OPENING, "p2 pass")
    deal = game.deal
    assert deal is not None
    view = game.view(3)
    again = game.resume_deal(view, hands=deal.hands, stock=deal.stock)
    assert again.phase is Rummy500Phase.CALL and again.awaiting() == [3, 0]
    assert again.legal_actions(3) == deal.legal_actions(3)
    again.apply(3, parse_action("rummy 1"))
    assert again.to_play == 3 and phase(again) is Phase.DISCARD
