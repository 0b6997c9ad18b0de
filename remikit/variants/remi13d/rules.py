"""Remi 13 D: the four-player, 108-card competition game (RULES.md §1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, cast

from remikit.actions import Action
from remikit.cards import Card, make_deck
from remikit.deal import Deal, DealPhase, Phase
from remikit.engine import Game, Options, option
from remikit.errors import IllegalAction, Reason
from remikit.i18n import N_
from remikit.melds import PureRun
from remikit.variants.remi13d import scoring
from remikit.variants.remi13d.actions import Close
from remikit.variants.remi13d.state import Remi13DEnding
from remikit.views import DealEnding, DealSummary, EndedBy, PlayerView, SeatResult

PLAYERS = 4  # R13-1
DEFAULT_GAMES = 4  # R13-15 [interp]


@dataclass(frozen=True, kw_only=True)
class Remi13DOptions(Options):
    """Table options: ``games`` (R13-15), ``pure_run`` ``strict``/``natural4`` (R13-6)."""

    players: int = option(PLAYERS, label=N_("opt.players"), low=PLAYERS, high=PLAYERS)
    games: int = option(DEFAULT_GAMES, label=N_("opt.games"), low=1, high=100)
    pure_run: str = option(
        "strict",
        label=N_("opt.pure_run"),
        choices={"strict": N_("optval.strict"), "natural4": N_("optval.natural4")},
    )

    @property
    def pure_rule(self) -> PureRun:
        """``pure_run`` as the solver's type (checked against its choices)."""
        return cast(PureRun, self.pure_run)


def pure_rule_of(view: PlayerView) -> PureRun:
    """The table's pure-run rule (R13-6) of a Remi 13 D view."""
    assert isinstance(view.options, Remi13DOptions)
    return view.options.pure_rule


class Remi13DDeal(Deal):
    """One game of a match: deal 13 each, play until a close or the stock runs out."""

    options: Remi13DOptions
    opens_pile: ClassVar[bool] = False  # R13-4: no initial face-up card
    phases: ClassVar[Mapping[type[Action], frozenset[DealPhase]]] = {
        **Deal.phases,
        Close: frozenset({Phase.DISCARD}),  # R13-7: after drawing
    }
    closing_card: Card | None = None

    def hand_size(self) -> int:
        return scoring.HAND_SIZE  # R13-4

    def after_draw_hint(self) -> Reason:
        return Reason("reason.or_close")

    def variant_actions(self, seat: int) -> list[Action]:
        if self.phase is not Phase.DISCARD:
            return []
        return [Close(c) for c in scoring.closing_candidates(self.hands[seat])]

    def verify_variant(self, seat: int, action: Action) -> None:
        assert isinstance(action, Close)
        hand = self.hands[seat]
        if action.card not in hand:
            raise IllegalAction("not_in_hand", card=action.card)
        rest = list(hand)
        rest.remove(action.card)
        rule = self.options.pure_rule
        if not scoring.can_close(rest, action.card, pure_run=rule):
            why = Reason(
                explain=lambda: scoring.refusal(rest, action.card, pure_run=rule) or Reason()
            )
            raise IllegalAction("close_refused", why=why)

    def apply_variant(self, seat: int, action: Action) -> None:
        assert isinstance(action, Close)
        self.hands[seat].remove(action.card)
        self.closing_card = action.card
        rule = self.options.pure_rule
        results = []
        for s, hand in enumerate(self.hands):
            if s == seat:
                score = scoring.close_score(hand, action.card, pure_run=rule)  # R13-7, R13-11
            else:
                score = scoring.hand_score(hand, pure_run=rule)  # R13-12
            results.append(_result(score))
        self.finish(DealSummary(self.number, Remi13DEnding.CLOSE, seat, tuple(results)))

    def after_discard(self, seat: int) -> None:
        if not self.stock:  # R13-13: the last stock card was drawn and no one closed
            self.score_unclosed(Remi13DEnding.STOCK)
            return
        self.to_play = (seat + 1) % self.players
        self.phase = Phase.DRAW

    def exhaust(self) -> None:
        self.score_unclosed(EndedBy.LIMIT)

    def score_unclosed(self, ended_by: DealEnding) -> None:
        """R13-13: every seat scored by R13-12, nobody with a closing bonus."""
        rule = self.options.pure_rule
        results = tuple(_result(scoring.hand_score(h, pure_run=rule)) for h in self.hands)
        self.finish(DealSummary(self.number, ended_by, None, results))

    def cards_in_play(self) -> list[Card]:
        closing = [self.closing_card] if self.closing_card is not None else []
        return super().cards_in_play() + closing


def _result(score: scoring.Score) -> SeatResult:
    return SeatResult(
        points=score.points,
        melds=tuple(tuple(m.tokens()) for m in score.melds),
        dead=score.dead,
        closing=score.closing,
        bonus=score.bonus,
    )


class Remi13DGame(Game):
    """A match of ``games`` games (R13-15); the highest total wins."""

    name: ClassVar[str] = "remi13d"
    options_type: ClassVar[type[Options]] = Remi13DOptions
    deal_type: ClassVar[type[Deal]] = Remi13DDeal
    options: Remi13DOptions

    def full_deck(self) -> list[Card]:
        return make_deck(decks=2, jokers=4)  # R13-1

    def next_dealer(self) -> int:
        """R13-2: the lowest seat-draw card (seat 3) deals first; R13-3: then the loser deals."""
        if not self.deals:
            return PLAYERS - 1
        last = self.deals[-1]
        assert last.summary is not None
        points = last.summary.points
        lowest = min(points)
        for i in range(1, PLAYERS + 1):
            seat = (last.dealer + i) % PLAYERS
            if points[seat] == lowest:
                return seat
        raise AssertionError("unreachable")

    def is_finished(self) -> bool:
        return len(self.deals) >= self.options.games and self.deals[-1].is_over

    def decide_winner(self) -> int | None:
        best = max(self.totals)
        leaders = [s for s, t in enumerate(self.totals) if t == best]
        return leaders[0] if len(leaders) == 1 else None
