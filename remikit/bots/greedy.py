"""The ``greedy`` level: the best immediate arrangement, one variant strategy each.

The greedy bot looks one action ahead. It draws the discard when that makes
its best arrangement after the best discard better than the hand it holds,
otherwise the stock (whose card it cannot know); it discards the card whose
removal leaves the best arrangement; in Remi 13 D it closes whenever a close
is legal, with the closing card that scores most. Rummy 500 has its own
module (:mod:`remikit.bots.greedy_rummy500`): melds and lay-offs on a
shared table, deep draws and Rummy calls.

Which arrangement is "best" depends on the variant, so the bot keeps a small
strategy object per variant name (made from :data:`STRATEGIES`, one set per
bot, so a bot's decisions depend only on its own views), looked up from
``view.variant``. Every search goes through the shared exact solver, whose
memo outlives a call, so similar hands in consecutive turns are cheap.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, cast, runtime_checkable

from remikit.actions import Action, CallRummy, Close, Discard, Draw
from remikit.bots.base import Bot, check_view
from remikit.bots.greedy_rummy500 import Rummy500Strategy
from remikit.cards import Card
from remikit.melds import AceMode
from remikit.scoring import remi13d, three_thirteen
from remikit.solver import NEG, Goal
from remikit.views import PlayerView

Rating = tuple[int, int]
"""How good a hand is for a strategy; a greater rating is better."""


class Strategy(Protocol):
    """How the greedy bot plays one variant."""

    def draw(self, view: PlayerView) -> Action:
        """The choice in the draw phase."""

    def discard(self, view: PlayerView) -> Action:
        """The choice after drawing: a discard (or a close, a meld, a lay-off)."""


@runtime_checkable
class CallingStrategy(Protocol):
    """A strategy for a variant with Rummy calls (R5-10)."""

    def call(self, view: PlayerView) -> CallRummy | None:
        """A call to make now, or None."""


def legal_discards(view: PlayerView) -> list[Card]:
    return [a.card for a in view.legal_actions if isinstance(a, Discard)]


def kept_card(view: PlayerView) -> Card | None:
    """The card in hand that may not be discarded (just taken from the discard), if any."""
    allowed = set(legal_discards(view))
    for card in view.hand:
        if card not in allowed:
            return card
    return None


def _draw(view: PlayerView, take_discard: bool) -> Action:
    choice = Draw("discard") if take_discard else Draw("stock")
    if choice in view.legal_actions:
        return choice
    other = Draw("stock") if take_discard else Draw("discard")
    if other in view.legal_actions:
        return other
    return view.legal_actions[0]


def _best_single_discard(view: PlayerView, found: Card | None,
                         rate: Callable[[list[Card]], Rating]) -> Action:
    """``Discard(found)`` when legal, else the legal discard whose rest scores best.

    The solver's ``keep`` cannot forbid one joker among several, so its
    choice is checked against the legal actions.
    """
    allowed = legal_discards(view)
    if not allowed:
        return view.legal_actions[0]
    if found is not None and found in allowed:
        return Discard(found)
    best_key: Rating | None = None
    best: Card = allowed[0]
    for card in allowed:
        rest = list(view.hand)
        rest.remove(card)
        key = rate(rest)
        if best_key is None or key > best_key:
            best_key, best = key, card
    return Discard(best)


# -- Remi 13 D ------------------------------------------------------------------


def may_hold_pure_run(hand: Sequence[Card]) -> bool:
    """Whether ``hand`` has four natural cards in a row of one suit (R13-7's pure run).

    A cheap test that spares the solver a search that cannot succeed; the
    royal flush holds such a row too.
    """
    rows = [0, 0, 0, 0]
    for card in hand:
        if not card.is_joker:
            position = int(card.rank) - 1
            rows[card.suit] |= 1 << position
            if position == 0:
                rows[card.suit] |= 1 << 13  # the ace high
    return any(row & row >> 1 & row >> 2 & row >> 3 for row in rows)


PLAN_LIMIT = 4096


def _hand_key(hand: Sequence[Card]) -> tuple[int, ...]:
    return tuple(sorted(c.index for c in hand))


class Remi13DStrategy:
    """Greedy Remi 13 D.

    A 13-card hand is rated by ``(has a pure run, points)``: with a pure run
    of 4+ (or the royal flush) the points are the R13-12 score; without one
    R13-12 makes every card dead, which would only say "throw away the
    jokers and aces" (the closing cards), so such hands are rated by the
    melds they hold, as if the pure run were already there, and rank below
    every hand that has one.
    """

    def __init__(self) -> None:
        # best discards found while deciding to take a discard, by the hand
        self._plans: dict[tuple[int, ...], Card | None] = {}

    def rate(self, hand: Sequence[Card]) -> Rating:
        if may_hold_pure_run(hand):
            value = remi13d.SOLVER.value(hand, goal=Goal(need_pure=True))
            if value > NEG // 2:
                return (1, value)
        return (0, remi13d.SOLVER.value(hand))

    def best_discard(self, hand14: Sequence[Card], keep: Card | None
                     ) -> tuple[Rating, Card | None]:
        """The rating after the best discard, and that discard (None: the solver left a joker)."""
        if may_hold_pure_run(hand14):
            goal = Goal(discard=True, need_pure=True, keep=keep)
            found = remi13d.SOLVER.solve(hand14, goal=goal)
            if found is not None:
                return (1, found.value), found.discard
        found = remi13d.SOLVER.solve(hand14, goal=Goal(discard=True, keep=keep))
        assert found is not None
        return (0, found.value), found.discard

    def rate_after_discard(self, hand14: Sequence[Card]) -> Rating:
        """The rating after the best discard of any card (the value of :meth:`best_discard`)."""
        if may_hold_pure_run(hand14):
            value = remi13d.SOLVER.value(hand14, goal=Goal(discard=True, need_pure=True))
            if value > NEG // 2:
                return (1, value)
        return (0, remi13d.SOLVER.value(hand14, goal=Goal(discard=True)))

    def draw(self, view: PlayerView) -> Action:
        top = view.top_discard
        if top is None or Draw("discard") not in view.legal_actions:
            return _draw(view, False)
        with_top = [*view.hand, top]
        if may_hold_pure_run(with_top) and remi13d.best_close(with_top) is not None:
            return _draw(view, True)
        # Rating the best discard of any card (the taken one too) gives the same
        # answer as forbidding the taken card, and shares the solver's memo
        # across turns: discarding it again leaves the hand as it is, so any
        # strictly better discard is another card, which the discard phase
        # then finds in the plan instead of searching again.
        after, discard = self.best_discard(with_top, None)
        take = after > self.rate(view.hand)
        if take:
            self._plan(with_top, discard)
        return _draw(view, take)

    def _plan(self, hand14: Sequence[Card], discard: Card | None) -> None:
        if len(self._plans) >= PLAN_LIMIT:
            self._plans.clear()
        self._plans[_hand_key(hand14)] = discard

    def discard(self, view: PlayerView) -> Action:
        closes = [a for a in view.legal_actions if isinstance(a, Close)]
        if closes:
            best = remi13d.best_close(view.hand)
            if best is not None and best.closing is not None and Close(best.closing) in closes:
                return Close(best.closing)
            return closes[0]
        key = _hand_key(view.hand)
        if key in self._plans:
            found = self._plans.pop(key)
        else:
            _, found = self.best_discard(view.hand, kept_card(view))
        return _best_single_discard(view, found, self.rate)


# -- Three-Thirteen -----------------------------------------------------------------


class ThreeThirteenStrategy:
    """Greedy Three-Thirteen: keep the deadwood (R3-7) as low as it can be.

    It takes the discard when the deadwood after the best discard goes down,
    and discards to leave the least deadwood; going out (R3-6) happens by
    itself once a discard leaves none.
    """

    @staticmethod
    def _table(view: PlayerView) -> tuple[int, AceMode]:
        ace = cast(AceMode, view.options.get("ace", "low"))
        return view.deal_number, ace

    def rate(self, view: PlayerView, hand: Sequence[Card]) -> Rating:
        round_no, ace = self._table(view)
        return (-three_thirteen.deadwood_points(hand, round_no=round_no, ace=ace), 0)

    def draw(self, view: PlayerView) -> Action:
        top = view.top_discard
        if top is None or Draw("discard") not in view.legal_actions:
            return _draw(view, False)
        round_no, ace = self._table(view)
        # As in Remi 13 D, the best discard of any card decides: discarding the
        # taken card again only gives back the hand as it is.
        after = three_thirteen.deadwood_points([*view.hand, top], round_no=round_no, ace=ace,
                                               discard=True)
        now = three_thirteen.deadwood_points(view.hand, round_no=round_no, ace=ace)
        return _draw(view, after < now)

    def discard(self, view: PlayerView) -> Action:
        round_no, ace = self._table(view)
        found = three_thirteen.deadwood(view.hand, round_no=round_no, ace=ace, discard=True,
                                        keep=kept_card(view))
        return _best_single_discard(view, found.discard, lambda rest: self.rate(view, rest))


STRATEGIES: dict[str, Callable[[], Strategy]] = {
    "remi13d": Remi13DStrategy,
    "three-thirteen": ThreeThirteenStrategy,
    "rummy500": Rummy500Strategy,
}
"""The greedy strategy of each variant, by the variant's name (``view.variant``)."""


class GreedyBot(Bot):
    """Plays the best immediate arrangement (see the module docstring).

    It makes no random choices; ``seed`` is kept so that every level is made
    the same way, and ``budget`` (``greedy@0.1``) is accepted and ignored.
    """

    def __init__(self, *, seed: int | None = None, budget: float | None = None,
                 name: str = "greedy") -> None:
        self.name = name
        self.rng = random.Random(seed)
        self.budget = budget
        self.strategies: dict[str, Strategy] = {}

    def plays(self, variant: str) -> bool:
        return variant in STRATEGIES

    def strategy(self, variant: str) -> Strategy:
        """This bot's strategy for ``variant`` (made on first use)."""
        strategy = self.strategies.get(variant)
        if strategy is None and variant in STRATEGIES:
            strategy = self.strategies[variant] = STRATEGIES[variant]()
        if strategy is None:
            raise ValueError(f"the greedy bot does not play {variant}; "
                             f"it plays {', '.join(sorted(STRATEGIES))}")
        return strategy

    def choose(self, view: PlayerView) -> Action:
        check_view(view)
        strategy = self.strategy(view.variant)
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        if view.phase == "draw":
            return strategy.draw(view)
        return strategy.discard(view)

    def call(self, view: PlayerView) -> CallRummy | None:
        if not any(isinstance(a, CallRummy) for a in view.legal_actions):
            return None
        strategy = self.strategy(view.variant)
        return strategy.call(view) if isinstance(strategy, CallingStrategy) else None
