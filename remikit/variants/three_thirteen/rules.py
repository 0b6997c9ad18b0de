"""Three-Thirteen: eleven rounds of 3 … 13 cards with a wild rank per round (RULES.md §3).

A round (:class:`ThreeThirteenDeal`) deals ``r + 2`` cards, turns up one card
to start the discard pile and plays draw-then-discard turns. A player whose
hand is entirely in melds after a discard goes out (R3-6); every other player
then takes exactly one final turn and the round is scored by minimum deadwood
(R3-7). The game (:class:`ThreeThirteenGame`) plays 11 rounds; the lowest
total wins, a tie for lowest has no winner (R3-8).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

from remikit.actions import Action, Draw
from remikit.cards import Card, make_deck
from remikit.deal import Deal, Phase
from remikit.engine import Game, OptionRefused, Options, option
from remikit.errors import IllegalAction
from remikit.i18n import N_
from remikit.melds import AceMode
from remikit.shuffle import shuffled
from remikit.variants.three_thirteen import scoring
from remikit.variants.three_thirteen.state import ThreeThirteenEnding, ThreeThirteenViewPart
from remikit.views import DealEnding, DealSummary, EndedBy, PlayerView, SeatResult

DECKS = 2  # R3-1: two decks of 52
JOKER_CHOICES = (0, 2, 4)  # R3-1
MIN_PLAYERS, MAX_PLAYERS = 2, 8  # R3-1
DEFAULT_PLAYERS = 4  # R3-1: one person against three bots


@dataclass(frozen=True, kw_only=True)
class ThreeThirteenOptions(Options):
    """Table options: ``players`` 2–8 (R3-1: 2–7 without jokers), ``jokers`` 0/2/4,
    ``ace`` low/high.

    Every round must be dealable: ``players × 13`` cards for round 11 plus
    the turned-up card must fit in the deck. Eight players with no jokers
    need 105 cards of 104, so that table is refused (it could only be dealt
    by leaving the stock and the discard pile empty, which the rules do not
    foresee); eight players with 2 or 4 jokers are fine.
    """

    players: int = option(
        DEFAULT_PLAYERS, label=N_("opt.players"), low=MIN_PLAYERS, high=MAX_PLAYERS
    )
    jokers: int = option(0, label=N_("opt.jokers"), choices=JOKER_CHOICES)
    ace: str = option(  # R3-4
        "low", label=N_("opt.ace"), choices={"low": N_("optval.low"), "high": N_("optval.high")}
    )

    def check(self) -> None:
        """R3-1: a player count the jokers allow, said in both languages."""
        super().check()
        if not MIN_PLAYERS <= self.players <= self.max_players:
            raise OptionRefused("option.t13_players", players=self.players, jokers=self.jokers)

    @property
    def max_players(self) -> int:
        """R3-1: as many as round 11 can deal 13 cards each, plus the turned-up card (7 from
        104 cards, 8 with jokers)."""
        return min(MAX_PLAYERS, (self.deck_size - 1) // scoring.hand_size(scoring.ROUNDS))

    @property
    def deck_size(self) -> int:
        return DECKS * 52 + self.jokers

    @property
    def ace_mode(self) -> AceMode:
        return cast(AceMode, self.ace)


def options_of(view: PlayerView) -> ThreeThirteenOptions:
    """The table options of a Three-Thirteen view."""
    assert isinstance(view.options, ThreeThirteenOptions)
    return view.options


class ThreeThirteenDeal(Deal):
    """One round: ``number`` is the round (1 … 11).

    Stock running out (R3-5 [interp]): when a turn starts with an empty
    stock, the discard pile except its top card becomes the new stock, in the
    order :mod:`remikit.shuffle` gives it for the seed :func:`reshuffle_seed`:
    a SHA-256 of the round's deck text and the number of reshuffles so far.
    The deck itself came from the game's RNG (a seed in simulations, the
    system's cryptographic RNG at a real table), so a seeded game stays
    reproducible, and a record, which stores only the deck and the actions,
    replays to the very same stock on any Python. At a real table nobody but
    the engine knows the deck, so the new order is as unknown to the players
    as a fresh shuffle.
    """

    options: ThreeThirteenOptions
    refills_stock: ClassVar[bool] = True  # R3-5

    def __init__(
        self, *, number: int, players: int, dealer: int, first: int, options: ThreeThirteenOptions
    ) -> None:
        super().__init__(
            number=number, players=players, dealer=dealer, first=first, options=options
        )
        self.round_no = number
        self.wild_rank = scoring.wild_rank(number)  # R3-3
        self.went_out: int | None = None
        self.final_turns_left = 0
        self.reshuffles = 0

    # -- hooks --------------------------------------------------------------

    def hand_size(self) -> int:
        return scoring.hand_size(self.round_no)  # R3-2

    def begin(self) -> None:
        self._begin_turn()

    def exhaust(self) -> None:
        self.score(EndedBy.LIMIT)

    def variant_actions(self, seat: int) -> list[Action]:
        return []

    def verify_variant(self, seat: int, action: Action) -> None:
        raise AssertionError("Three-Thirteen has only draws and discards")

    def apply_variant(self, seat: int, action: Action) -> None:
        raise AssertionError("Three-Thirteen has only draws and discards")

    def verify_draw(self, seat: int, action: Draw) -> None:
        super().verify_draw(seat, action)
        if action.source == "discard" and not self.options.discard_taken_card:
            top = self.discard_pile[-1]
            if all(c is top for c in self.hands[seat]):
                # Only possible with four jokers in round 1: three jokers in
                # hand and the fourth on the pile would leave nothing to discard.
                raise IllegalAction("taken_card_only", card=top)

    def after_discard(self, seat: int) -> None:
        if self.went_out is None:
            if self.is_complete(self.hands[seat]):  # R3-6: goes out, the others take one turn each
                self.went_out = seat
                self.final_turns_left = self.players - 1
        else:
            self.final_turns_left -= 1
        if self.went_out is not None and self.final_turns_left == 0:
            self.score(ThreeThirteenEnding.OUT)
            return
        self.to_play = (seat + 1) % self.players
        self.phase = Phase.DRAW
        self._begin_turn()

    def resume_variant(self, view: PlayerView) -> None:
        """Who went out, and how many final turns are left (R3-6)."""
        self.went_out = ThreeThirteenViewPart.of(view).went_out
        if self.went_out is not None and view.to_play is not None:
            done = (view.to_play - self.went_out - 1) % self.players
            self.final_turns_left = self.players - 1 - done

    # -- the round ------------------------------------------------------------

    def is_complete(self, hand: Sequence[Card]) -> bool:
        """Whether every card of ``hand`` is in a meld (deadwood 0)."""
        return self.deadwood_points(hand) == 0

    def deadwood_points(self, hand: Sequence[Card]) -> int:
        return scoring.deadwood_points(hand, round_no=self.round_no, ace=self.options.ace_mode)

    def _begin_turn(self) -> None:
        """R3-5 [interp]: a turn never starts with an empty stock."""
        if self.stock:
            return
        if len(self.discard_pile) < 2:
            # Nothing to turn into a stock. Unreachable with the dealable
            # tables of ThreeThirteenOptions (at least two cards are always
            # outside the hands at a draw); kept so the engine cannot stall.
            out = self.went_out is not None
            self.score(ThreeThirteenEnding.OUT if out else ThreeThirteenEnding.STOCK)
            return
        self.reshuffle()

    def reshuffle(self) -> None:
        """The discard pile except its top card becomes the new stock (see the class docstring)."""
        self.reshuffles += 1
        cards = shuffled(self.discard_pile[:-1], reshuffle_seed(self.deck, self.reshuffles))
        del self.discard_pile[:-1]
        self.stock = cards

    def score(self, ended_by: DealEnding) -> None:
        """R3-7: every seat's deadwood with its best arrangement."""
        results = []
        for seat, hand in enumerate(self.hands):
            found = scoring.deadwood(hand, round_no=self.round_no, ace=self.options.ace_mode)
            results.append(
                SeatResult(
                    points=found.points,
                    melds=tuple(tuple(m.tokens()) for m in found.melds),
                    dead=found.dead,
                    went_out=seat == self.went_out,
                )
            )
        self.finish(DealSummary(self.number, ended_by, self.went_out, tuple(results)))


def reshuffle_seed(deck: Sequence[Card], reshuffles: int) -> bytes:
    """The shuffle seed of a round's ``reshuffles``-th new stock: the 32-byte SHA-256 of
    the deck's record text (cards separated by single spaces, top first), ``|`` and the
    count in decimal, as ASCII: ``SHA-256("Ac 7h … Jk|1")``."""
    text = " ".join(str(c) for c in deck) + f"|{reshuffles}"
    return hashlib.sha256(text.encode("ascii")).digest()


class ThreeThirteenGame(Game):
    """Eleven rounds (R3-2); the lowest deadwood total wins (R3-8)."""

    name: ClassVar[str] = "three-thirteen"
    options_type: ClassVar[type[Options]] = ThreeThirteenOptions
    deal_type: ClassVar[type[Deal]] = ThreeThirteenDeal
    lower_is_better: ClassVar[bool] = True  # deadwood (R3-7)
    options: ThreeThirteenOptions

    def full_deck(self) -> list[Card]:
        return make_deck(decks=DECKS, jokers=self.options.jokers)  # R3-1

    def next_dealer(self) -> int:
        """R3-2: the last seat deals round 1 (seat 0 plays first); then the deal passes on."""
        if not self.deals:
            return self.players - 1
        return (self.deals[-1].dealer + 1) % self.players

    def is_finished(self) -> bool:
        return len(self.deals) >= scoring.ROUNDS and self.deals[-1].is_over

    def decide_winner(self) -> int | None:
        best = min(self.totals)
        leaders = [s for s, t in enumerate(self.totals) if t == best]
        return leaders[0] if len(leaders) == 1 else None

    def view_part(self, deal: Deal | None) -> ThreeThirteenViewPart:
        if not isinstance(deal, ThreeThirteenDeal):
            return ThreeThirteenViewPart()
        wild = scoring.wild_rank(deal.number).label
        if deal.went_out is None or deal.is_over:
            return ThreeThirteenViewPart(wild_rank=wild)
        shown = scoring.deadwood(  # R3-6: the hand is shown
            deal.hands[deal.went_out], round_no=deal.number, ace=self.options.ace_mode
        )
        melds = tuple(tuple(m.tokens()) for m in shown.melds)
        return ThreeThirteenViewPart(wild_rank=wild, went_out=deal.went_out, shown_melds=melds)
