"""A hand of Gin Rummy as OpenSpiel plays it (RULES.md §4).

A hand (:class:`GinDeal`) deals ten cards each and turns up the next (G-1).
The first upcard is offered (phase ``offer``, G-3); then every turn is a draw
and a discard or a knock (G-4, G-5). A knock starts the laying down: the
knocker lays melds (``lay_down``), the defender lays off on them (``lay_off``,
skipped after gin) and lays melds of its own (``defend``), each ending with
``pass`` (G-6); the hand is then scored (G-7). When a discard leaves two cards
in the stock the next player may only knock or pass (phase ``wall``, G-8). A
hand also ends drawn at OpenSpiel's limits (G-9). The game to 100 is
:mod:`remikit.variants.gin.game`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Self

from remikit.actions import Action, Discard, Draw, LayOff, MeldCards, Pass
from remikit.cards import Card
from remikit.deal import Deal, DealPhase, Phase
from remikit.errors import IllegalAction, Reason
from remikit.variants.gin import melds
from remikit.variants.gin.actions import Knock
from remikit.variants.gin.options import GinOptions
from remikit.variants.gin.scoring import BEST_DISCARD, SOLVER
from remikit.variants.gin.state import LAY_PHASES, GinEnding, GinPhase, GinViewPart
from remikit.views import DealEnding, DealSummary, EndedBy, Laid, PlayerView, SeatResult, TableMeld

HAND_SIZE = 10  # G-1
WALL = 2  # G-8: the cards left in the stock when the wall is reached
MAX_UPCARD_DRAWS = 50  # G-9: the upcard draw that ends the hand instead


def min_deadwood(cards: Sequence[Card]) -> int:
    """The least deadwood ``cards`` can be arranged to leave (no discard)."""
    return -SOLVER.value(cards)


def knock_limit(options: GinOptions, upcard: Card) -> int:
    """The most deadwood a knock may leave (G-5): the option, or in Oklahoma the first
    upcard's value, an ace meaning gin only."""
    if not options.oklahoma:
        return options.knock
    worth = melds.value(upcard)
    return 0 if worth == 1 else worth


def hand_points(knocker: int, deadwood: Sequence[int], options: GinOptions) -> int:
    """The knocker's result (G-7), OpenSpiel's return: the defender's deadwood less the
    knocker's, plus the gin bonus; below zero (an undercut) less the undercut bonus."""
    result = deadwood[1 - knocker] - deadwood[knocker]
    if deadwood[knocker] == 0:
        result += options.gin_bonus
    if result < 0:
        result -= options.undercut_bonus
    return result


@dataclass
class LaidMeld:
    """A meld laid down this hand: its owner and, per card, who laid it."""

    owner: int
    cards: list[Card]
    laid_by: list[int] = field(default_factory=list)

    def view(self, number: int) -> TableMeld:
        order = sorted(
            range(len(self.cards)), key=lambda i: (int(self.cards[i].rank), -self.cards[i].suit)
        )
        cards = tuple(self.cards[i] for i in order)
        return TableMeld(number, cards, (None,) * len(cards), tuple(self.laid_by[i] for i in order))


class GinDeal(Deal):
    """One hand of Gin Rummy (module docstring)."""

    options: GinOptions
    phases: ClassVar[Mapping[type[Action], frozenset[DealPhase]]] = {
        Draw: frozenset({Phase.DRAW, GinPhase.OFFER}),
        Discard: frozenset({Phase.DISCARD}),
        Knock: frozenset({Phase.DISCARD, GinPhase.WALL}),
        MeldCards: frozenset({GinPhase.LAY_DOWN, GinPhase.DEFEND}),
        LayOff: frozenset({GinPhase.LAY_OFF}),
        Pass: frozenset({GinPhase.OFFER, GinPhase.WALL, *LAY_PHASES}),
    }

    def __init__(
        self, *, number: int, players: int, dealer: int, first: int, options: GinOptions
    ) -> None:
        super().__init__(
            number=number, players=players, dealer=dealer, first=first, options=options
        )
        self.limit = options.knock
        self.offer_passes = 0  # G-3
        self.upcard_dead = False  # G-3: both passed the first upcard
        self.upcard_draws = 0  # G-9
        self.repeated = False  # G-9: the last discard was the upcard just taken
        self.knocker: int | None = None
        self.table: list[LaidMeld] = []

    # -- hooks --------------------------------------------------------------

    def hand_size(self) -> int:
        return HAND_SIZE

    def begin(self) -> None:
        self.limit = knock_limit(self.options, self.discard_pile[-1])  # G-5
        self.phase = GinPhase.OFFER  # G-3

    def exhaust(self) -> None:
        self.drawn(EndedBy.LIMIT)

    def variant_actions(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        if self.phase is GinPhase.OFFER:
            return [Draw("discard"), Pass()]
        if self.phase is Phase.DISCARD:
            return [Knock(c) for c in hand] if self.may_knock(hand) else []
        if self.phase is GinPhase.WALL:
            cards = [*hand, self.discard_pile[-1]]
            return [Pass(), *(Knock(c) for c in cards)] if self.may_knock(cards) else [Pass()]
        if self.phase in (GinPhase.LAY_DOWN, GinPhase.DEFEND):
            return [*(MeldCards(m, (None,) * len(m)) for m in melds.melds_in(hand)), Pass()]
        if self.phase is GinPhase.LAY_OFF:
            laid = [
                LayOff(c, n)
                for n, m in self.knocker_melds()
                for c in hand
                if c in melds.layoff_cards(m.cards)
            ]
            return [*laid, Pass()]
        return []

    def may_knock(self, cards: Sequence[Card]) -> bool:
        """Whether some discard from ``cards`` leaves deadwood within the limit (G-5): one
        search for the best discard, before each knock is verified on its own."""
        return -SOLVER.value(cards, goal=BEST_DISCARD) <= self.limit

    def after_draw_hint(self) -> Reason:
        return Reason("reason.or_knock")

    def phase_refusal(self, action: Action, phases: frozenset[DealPhase]) -> IllegalAction:
        """A discard or a knock during the first-upcard offer: draw first (G-3)."""
        if self.phase is GinPhase.OFFER and Phase.DISCARD in phases:
            return IllegalAction("draw_first")
        return super().phase_refusal(action, phases)

    def verify_draw(self, seat: int, action: Draw) -> None:
        super().verify_draw(seat, action)
        if self.phase is GinPhase.OFFER and action.source == "stock":
            raise IllegalAction("offer_take_or_pass")
        if action.source == "discard" and self.upcard_dead:
            raise IllegalAction("upcard_declined")

    def verify_variant(self, seat: int, action: Action) -> None:
        hand = self.hands[seat]
        if isinstance(action, Knock):
            cards = hand if self.phase is Phase.DISCARD else [*hand, self.discard_pile[-1]]
            if action.card not in cards:
                raise IllegalAction("not_in_hand", card=action.card)
            if action.card is self.just_taken and not self.options.discard_taken_card:
                raise IllegalAction("taken_card", card=action.card)
            rest = list(cards)
            rest.remove(action.card)
            left = min_deadwood(rest)
            if left > self.limit:
                raise IllegalAction(
                    "knock_over_limit", card=action.card, deadwood=left, limit=self.limit
                )
        elif isinstance(action, MeldCards):
            self.verify_meld(seat, action.cards)
        elif isinstance(action, LayOff):
            self.verify_layoff(seat, action)
        elif isinstance(action, Pass) and self.phase is GinPhase.LAY_DOWN:
            left = melds.points(hand)
            if left > self.limit:
                raise IllegalAction("lay_down_more", deadwood=left, limit=self.limit)

    def verify_meld(self, seat: int, cards: Sequence[Card]) -> None:
        hand = self.hands[seat]
        missing = [c for c in cards if c not in hand]
        if missing or len(set(cards)) != len(cards):
            raise IllegalAction("not_in_hand", card=(missing or list(cards))[0])
        if not melds.is_meld(cards):
            raise IllegalAction("gin_meld_invalid", cards=" ".join(map(str, cards)))
        if self.phase is GinPhase.LAY_DOWN:
            left = min_deadwood([c for c in hand if c not in cards])
            if left > self.limit:
                raise IllegalAction("meld_over_limit", deadwood=left, limit=self.limit)

    def verify_layoff(self, seat: int, action: LayOff) -> None:
        if action.card not in self.hands[seat]:
            raise IllegalAction("not_in_hand", card=action.card)
        target = dict(self.knocker_melds()).get(action.meld)
        if target is None:
            raise IllegalAction("layoff_not_knocker", meld=action.meld)
        if action.card not in melds.layoff_cards(target.cards):
            raise IllegalAction("layoff_no_fit", card=action.card, meld=action.meld)

    def apply_variant(self, seat: int, action: Action) -> None:
        hand = self.hands[seat]
        if isinstance(action, Knock):
            if self.phase is GinPhase.WALL:  # G-8: the upcard comes first
                top = self.discard_pile.pop()
                hand.append(top)
                self.taken.append((seat, top))
            hand.remove(action.card)
            self.discard_pile.append(action.card)
            self.just_taken = None
            self.knocker = seat
            self.phase = GinPhase.LAY_DOWN
        elif isinstance(action, MeldCards):
            for card in action.cards:
                hand.remove(card)
            self.table.append(LaidMeld(seat, list(action.cards), [seat] * len(action.cards)))
        elif isinstance(action, LayOff):
            hand.remove(action.card)
            meld = self.table[action.meld - 1]
            meld.cards.append(action.card)
            meld.laid_by.append(seat)
        else:
            self.apply_pass(seat)

    def apply_pass(self, seat: int) -> None:
        other = 1 - seat
        if self.phase is GinPhase.OFFER:
            self.offer_passes += 1
            self.to_play = other
            if self.offer_passes == 2:  # G-3: the first player draws from the stock
                self.upcard_dead = True
                self.phase = Phase.DRAW
        elif self.phase is GinPhase.WALL:
            self.drawn(GinEnding.WALL)
        elif self.phase is GinPhase.LAY_DOWN:
            self.to_play = other
            gin = not self.hands[seat]
            self.phase = GinPhase.DEFEND if gin else GinPhase.LAY_OFF  # G-6: no lay-offs on gin
        elif self.phase is GinPhase.LAY_OFF:
            self.phase = GinPhase.DEFEND
        else:
            self.score()

    def draw(self, seat: int, action: Draw) -> None:
        if action.source == "discard" and self.phase is Phase.DRAW:
            self.upcard_draws += 1
            if self.upcard_draws == MAX_UPCARD_DRAWS:  # G-9
                self.drawn(EndedBy.LIMIT)
                return
        super().draw(seat, action)

    def after_discard(self, seat: int) -> None:
        card = self.discard_pile[-1]
        again = card is self.last_taken(seat)
        if again and self.repeated:  # G-9: both sent the same upcard back
            self.drawn(EndedBy.LIMIT)
            return
        self.repeated = again
        self.upcard_dead = False
        self.to_play = 1 - seat
        self.phase = GinPhase.WALL if len(self.stock) == WALL else Phase.DRAW  # G-8

    def last_taken(self, seat: int) -> Card | None:
        """The upcard ``seat`` took this turn, if it did (the log's last draw)."""
        for play in reversed(self.log[:-1]):
            if isinstance(play.action, Draw):
                if play.seat == seat and play.action.source == "discard" and self.taken:
                    return self.taken[-1][1]
                return None
        return None

    # -- laying down and scoring ------------------------------------------------

    def knocker_melds(self) -> list[tuple[int, LaidMeld]]:
        """The knocker's melds by number (lay-offs go only there, G-6)."""
        return [(n, m) for n, m in enumerate(self.table, 1) if m.owner == self.knocker]

    def drawn(self, ended_by: DealEnding) -> None:
        """A hand without a knock: nobody scores (G-8, G-9)."""
        results = tuple(SeatResult(points=0, melds=(), dead=tuple(h)) for h in self.hands)
        self.finish(DealSummary(self.number, ended_by, None, results))

    def score(self) -> None:
        """G-7: each side's deadwood is what it did not lay down; only the winner scores."""
        knocker = self.knocker
        assert knocker is not None
        deadwood = [melds.points(h) for h in self.hands]
        result = hand_points(knocker, deadwood, self.options)
        winner = knocker if result > 0 else (1 - knocker if result < 0 else None)
        bonus = 0
        if winner == knocker and deadwood[knocker] == 0:
            bonus = self.options.gin_bonus
        elif winner is not None and winner != knocker:
            bonus = self.options.undercut_bonus
        results = []
        for seat, hand in enumerate(self.hands):
            own = [m for m in self.table if m.owner == seat]
            results.append(
                SeatResult(
                    points=abs(result) if seat == winner else 0,
                    melds=tuple(tuple(str(c) for c in m.view(0).cards) for m in own),
                    dead=tuple(hand),
                    bonus=bonus if seat == winner else 0,
                    went_out=seat == knocker,
                    laid=self.laid_by(seat),
                )
            )
        self.finish(DealSummary(self.number, GinEnding.KNOCK, knocker, tuple(results)))

    def laid_by(self, seat: int) -> tuple[Laid, ...]:
        """What ``seat`` laid on the table this hand: its melds, then its lay-offs onto
        the knocker's melds (G-6), by meld number; deadwood counts no points here."""
        own: list[Laid] = []
        layoffs: list[Laid] = []
        for number, meld in enumerate(self.table, 1):
            cards = tuple(
                str(c) for c, by in zip(meld.cards, meld.laid_by, strict=True) if by == seat
            )
            if cards and meld.owner == seat:
                own.append(Laid(number, seat, cards, 0, layoff=False))
            elif cards:
                layoffs.append(Laid(number, meld.owner, cards, 0, layoff=True))
        return (*own, *layoffs)

    def returns(self) -> tuple[int, int]:
        """OpenSpiel's returns of the finished hand: the knocker's result and its negation,
        zero for a drawn hand."""
        if self.knocker is None or self.summary is None:
            return (0, 0)
        result = hand_points(self.knocker, [melds.points(h) for h in self.hands], self.options)
        return (result, -result) if self.knocker == 0 else (-result, result)

    def cards_in_play(self) -> list[Card]:
        return super().cards_in_play() + [c for m in self.table for c in m.cards]

    # -- a position rebuilt from a view ------------------------------------------

    def resume_variant(self, view: PlayerView) -> None:
        """The limit, the table and the state of G-3, G-6 and G-9, from the view and its log."""
        limit = GinViewPart.of(view).knock_limit
        if limit is not None:
            self.limit = limit
        taken = iter(card for _, card in view.taken_from_discard)
        lead = 0  # the passes of the first-upcard offer
        for play in view.log:
            if not isinstance(play.action, Pass) or lead == 2:
                break
            lead += 1
        self.offer_passes = lead
        self.upcard_dead = lead == 2 and len(view.log) == 2
        just: Card | None = None
        for i, play in enumerate(view.log):
            action = play.action
            if isinstance(action, Draw):
                just = next(taken, None) if action.source == "discard" else None
                if action.source == "discard" and not (i == lead and lead < 2):
                    self.upcard_draws += 1
            elif isinstance(action, Discard):
                self.repeated = action.card is just
            elif isinstance(action, Knock):
                self.knocker = play.seat
        self.table = [LaidMeld(self.owner(m), list(m.cards), list(m.laid_by)) for m in view.table]

    def fork_variant(self, deal: Self) -> None:
        deal.table = [LaidMeld(m.owner, list(m.cards), list(m.laid_by)) for m in self.table]

    def owner(self, meld: TableMeld) -> int:
        """Who laid ``meld`` down: the knocker where any card is the knocker's (only the
        defender lays off, and only on the knocker's melds)."""
        assert self.knocker is not None
        return self.knocker if self.knocker in meld.laid_by else 1 - self.knocker
