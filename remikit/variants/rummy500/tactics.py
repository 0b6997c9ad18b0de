"""Rummy 500 knowledge for the strong bot: candidate plans, a fast rollout policy, estimates.

A Rummy 500 turn is several actions (a draw, any melds and lay-offs, a
discard), so the search compares whole turn plans. What matters here
(RULES.md §2):

* Lay-off timing. Melding at once scores the cards for sure, but shows them
  and opens the table for the others' lay-offs; holding a meld keeps it
  private, at the risk of being caught with it when someone goes out (its
  cards then count against the holder, R5-12). The search compares the
  greedy plan (lay everything) with holding the new melds back.
* Deep pick-ups (R5-3) and Rummy calls (R5-10): the cards taken count
  against the taker unless melded; the candidates are the greedy bot's
  choice, the stock, the top card and the most profitable deep take.
* When to go out: going out ends the hand with every other hand counting
  against its holder; the plans that go out are always among the candidates.

The sampled worlds are refined: the other players lay every meld and lay-off
they can, so their sampled hands hold nothing that would have been laid. The
rollouts and their estimate are :mod:`remikit.variants.rummy500.rollouts`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from remikit.actions import Action, Discard, Draw, LayOff, Pass
from remikit.bots.strong.determinize import Determinization, Knowledge
from remikit.bots.strong.search import QUICK, Plan, including
from remikit.cards import Card
from remikit.deal import Phase
from remikit.variants.rummy500.actions import CallRummy, Decline
from remikit.variants.rummy500.greedy import Rummy500Strategy, action_cards
from remikit.variants.rummy500.hints import (
    assess_take,
    best_take,
    choose_discard,
    just_taken,
    next_to_draw,
    opens_call,
    stock_plan,
    takes,
    turn_plan,
)
from remikit.variants.rummy500.melds import PlacedMeld, hand_points, playable
from remikit.variants.rummy500.new_melds import candidate_melds
from remikit.variants.rummy500.plan import Rules, table_after, table_of
from remikit.variants.rummy500.rollouts import Rummy500Rollouts, may_meld
from remikit.variants.rummy500.state import Rummy500Phase, Rummy500ViewPart
from remikit.views import PlayerView

OTHER_DISCARDS = 2  # discards besides the greedy plan's that the search compares
REFINE_SWAPS = 12  # swaps per other seat when a sampled hand is made to look played


class Rummy500Tactics(Rummy500Rollouts):
    """The strong bot's Rummy 500: see the module docstring."""

    horizon = 8  # two rounds of four seats (the estimate follows)
    sims_per_second = 500
    max_rollouts: int | None = None
    reads_play = False  # read worlds won 32.3% of 303 hands, plain ones 35.5% of 301
    effort = 0

    def __init__(self) -> None:
        super().__init__()
        self.greedy = Rummy500Strategy()
        self._table_view: PlayerView | None = None
        self._table_melds: list[PlacedMeld] = []

    # -- the real decision ------------------------------------------------------

    def candidates(
        self, view: PlayerView, include: Action | None = None
    ) -> list[tuple[Plan, float]]:
        self._plans.clear()  # a new search
        if view.phase is Rummy500Phase.CALL:
            return including([((a,), 0.0) for a in self.answers(view)], include)
        if view.phase is Phase.DRAW:
            return including([((a,), 0.0) for a in self.draws(view)], include)
        return including([(plan, 0.0) for plan in self.plans(view)], include)

    def draws(self, view: PlayerView) -> list[Action]:
        """The greedy choice first, then the stock, the top card, the best deep take."""
        legal = view.legal_actions
        found: list[Action] = [self.greedy.draw(view)]
        if Draw("stock") in legal:
            found.append(Draw("stock"))
        options = takes(view)
        if options and self.effort >= QUICK:
            found.append(options[0])
            base = stock_plan(view)
            deep = [t for t in (assess_take(view, a, base) for a in options[1:]) if t is not None]
            if deep:
                found.append(max(deep, key=lambda t: t.key).action)
        if not found[1:] and Decline() in legal:
            found.append(Decline())
        return [a for a in dict.fromkeys(found) if a in legal]

    def plans(self, view: PlayerView) -> list[Plan]:
        """The greedy plan, the same plays with other discards, and holding new melds."""
        legal = view.legal_actions
        greedy = turn_plan(view)
        first = self.greedy.discard(view)
        if greedy is None or not greedy.actions() or greedy.actions()[0] != first:
            return [(first,)]
        actions = greedy.actions()
        out: list[Plan] = [tuple(actions)]
        if greedy.ends_hand:
            return out
        plays = [a for a in actions if not isinstance(a, Discard)]
        if greedy.discard is not None and self.effort >= QUICK:
            # the rollouts play no Rummy calls: a discard that opens one is no candidate
            rules = Rules.of(view)
            after = (
                table_after(self._table(view), greedy.plays, view.seat or 0, rules.joker_layoff)
                or []
            )
            others = [
                c
                for c in dict.fromkeys(greedy.left)
                if c is not greedy.discard
                and c is not just_taken(view)
                and not opens_call(c, view.discard_pile, after, rules.joker_layoff)
            ]
            others.sort(key=lambda c: -hand_points([c], rules.scoring))
            out += [(*plays, Discard(c)) for c in others[:OTHER_DISCARDS]]
        held = self.holding(view, plays)
        if held is not None:
            out.append(held)
        return [p for p in dict.fromkeys(out) if p[0] in legal]

    def holding(self, view: PlayerView, plays: Sequence[Action]) -> Plan | None:
        """Lay-offs and the owed card's meld only; new melds stay in hand."""
        owed = Rummy500ViewPart.of(view).must_meld
        kept = [
            a
            for a in plays
            if isinstance(a, LayOff) or (owed is not None and owed in action_cards(a))
        ]
        if len(kept) == len(plays):
            return None
        hand = list(view.hand)
        for action in kept:
            for card in action_cards(action):
                hand.remove(card)
        if not hand:
            return None
        rules = Rules.of(view)
        banned = just_taken(view)
        discard = choose_discard(
            hand, banned=banned, pile=view.discard_pile, table=self._table(view), rules=rules
        )
        if discard is None:
            return None
        return (*kept, Discard(discard))

    def answers(self, view: PlayerView) -> list[Action]:
        """In a call window, the greedy bot's answer; the next player, who may draw
        instead, also weighs passing against the best call."""
        first: Action = self.greedy.call(view) or Pass()
        if view.seat != next_to_draw(view) or self.effort < QUICK:
            return [first]
        calls = [a for a in view.legal_actions if isinstance(a, CallRummy)]
        best = best_take(view, calls, stock_plan(view))
        found = [first, Pass(), best.action if best is not None else calls[0]]
        return [a for a in dict.fromkeys(found) if a in view.legal_actions]

    def refine(
        self, view: PlayerView, world: Determinization, known: Knowledge, rng: random.Random
    ) -> Determinization:
        """Make the other hands look like a Rummy 500 hand after its turn: a player lays
        every meld and lay-off it has, so a sampled card that would meld with the hand or
        lay off on the table goes back to the stock for another (a few swaps per seat;
        the cards known to be in a hand stay)."""
        table = self._table(view)
        joker_layoff = Rules.of(view).joker_layoff
        hands = [list(h) for h in world.hands]
        stock = list(world.stock)
        for s, hand in enumerate(hands):
            if s == view.seat or not stock:
                continue
            free = list(hand)
            for card in known.known[s]:
                free.remove(card)
            for _ in range(REFINE_SWAPS):
                out = self._misfit(hand, free, table, joker_layoff)
                if out is None:
                    break
                pick = rng.randrange(len(stock))
                card = stock[pick]
                stock[pick] = out
                free[free.index(out)] = card
                hand[hand.index(out)] = card
        return Determinization(tuple(tuple(h) for h in hands), tuple(stock))

    def _table(self, view: PlayerView) -> list[PlacedMeld]:
        """The view's table melds (made once for the many worlds of one search)."""
        if self._table_view is not view:
            self._table_view, self._table_melds = view, table_of(view)
        return self._table_melds

    @staticmethod
    def _misfit(
        hand: Sequence[Card], free: Sequence[Card], table: Sequence[PlacedMeld], joker_layoff: str
    ) -> Card | None:
        """A card of ``free`` that the hand would have played: on the table, or in a meld."""
        for card in free:
            if playable(card, table, joker_layoff=joker_layoff):
                return card
        if not may_meld(hand):
            return None
        for meld in candidate_melds(hand):
            for card in meld.cards:
                if card in free:
                    return card
        return None
