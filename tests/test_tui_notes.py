"""The terminal table's notes after a turn come from views and the deal's summary alone:
going out in Rummy 500 (R5-8) and Three-Thirteen (R3-6), said once."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import cast

from remikit.cli.tui.session import Session
from remikit.engine import Game
from remikit.i18n import t
from remikit.variants.rummy500.game import Rummy500Game
from remikit.variants.rummy500.options import Rummy500Options
from remikit.variants.rummy500.state import Rummy500Ending
from remikit.variants.rummy500.tui import Rummy500UI
from remikit.variants.three_thirteen.rules import ThreeThirteenGame, ThreeThirteenOptions
from remikit.variants.three_thirteen.state import ThreeThirteenViewPart
from remikit.variants.three_thirteen.tui import ThreeThirteenUI

SESSION = cast(Session, SimpleNamespace(lang="en"))


def step(game: Game, rng: random.Random) -> int:
    """One random legal action; the seat that played it."""
    seat = game.to_play
    assert seat is not None
    game.apply(seat, rng.choice(game.view(seat).legal_actions))
    return seat


def test_R5_8_going_out_is_noted_from_the_summary() -> None:
    rng = random.Random(3)
    game = Rummy500Game(Rummy500Options(players=2), rng=random.Random(3))
    ui = Rummy500UI()
    while True:
        deal = game.deal
        assert deal is not None
        seat = step(game, rng)
        if deal.summary is not None and deal.summary.ended_by is Rummy500Ending.OUT:
            break
    summary = deal.summary
    view = game.view(0)  # already the next deal's
    assert summary.by_seat == seat
    assert ui.turn_note(SESSION, seat, view, summary) == t("play.r5_went_out", "en")
    assert ui.turn_note(SESSION, 1 - seat, view, summary) == ""


def test_R3_6_going_out_is_noted_once_from_the_view() -> None:
    rng = random.Random(5)
    game = ThreeThirteenGame(ThreeThirteenOptions(players=3), rng=random.Random(5))
    ui = ThreeThirteenUI()
    while ThreeThirteenViewPart.of(game.view(None)).went_out is None:
        seat = step(game, rng)
    view = game.view(0)
    assert ThreeThirteenViewPart.of(view).went_out == seat
    assert ui.turn_note(SESSION, seat, view, None) == t("play.went_out", "en")
    assert ui.turn_note(SESSION, seat, view, None) == ""  # said once a round
    assert ui.turn_note(SESSION, (seat + 1) % 3, view, None) == ""


def test_R3_6_the_help_says_a_discard_at_deadwood_0_goes_out() -> None:
    entries = dict(ThreeThirteenUI().help_entries())
    discard = entries["b 7h, b 3"]
    assert "deadwood 0" in t(discard, "en") and "goes out" in t(discard, "en")
    assert "keluar" in t(discard, "id")
