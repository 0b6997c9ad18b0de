"""Greedy Rummy 500 (RULES.md §2): lay down what scores, take from the pile when it pays.

Each turn follows the turn plan of :mod:`remikit.variants.rummy500.plan`: the
melds and lay-offs that score most, going out whenever it can.

The discard is chosen among the cards the plan leaves: the one that goes
out; else a card nobody can lay off on the table or call Rummy on (R5-10);
then a card without a partner in hand (same rank, or same suit within two
ranks); then the highest value. With ``unplayable_last_discard`` a last card
that can still be laid off is laid off instead.

Draws compare plans: the stock is worth the plan of the hand as it is (the
unknown card drawn is the one thrown away); taking ``K`` cards from the
pile, by a draw or a Rummy call, is worth the plan with those cards that
melds the deepest of them. The bot takes (or calls) when the take goes out
where the stock would not, or when the points it lets the turn lay exceed
the values of the taken cards it keeps; so a single top discard is taken
only to meld it. The next player takes by a Rummy call where one is legal
and another seat could call too (the nearest caller wins, a draw does not).
At an empty stock it declines unless a take beats the hand as it stands
(R5-9). Out of turn it calls Rummy on the same comparison as a take.
"""

from __future__ import annotations

from remikit.actions import Action, Discard, Draw, LayOff, MeldCards
from remikit.cards import Card
from remikit.variants.rummy500.actions import CallRummy
from remikit.variants.rummy500.hints import (
    best_draw,
    best_take,
    choose_discard,
    next_to_draw,
    stock_plan,
    turn_plan,
)
from remikit.variants.rummy500.plan import (
    Rules,
    table_of,
)
from remikit.variants.rummy500.state import Rummy500ViewPart
from remikit.views import PlayerView

# -- the strategy ---------------------------------------------------------------------------


class Rummy500Strategy:
    """Greedy Rummy 500 (see the module docstring)."""

    def __init__(self) -> None:
        self._draw: tuple[object, Action] | None = None
        self._plan: tuple[object, list[Action]] | None = None

    # -- drawing and calling -------------------------------------------------------

    @staticmethod
    def _key(view: PlayerView) -> object:
        return (view.deal_number, len(view.log), view.hand, view.seat)

    def draw(self, view: PlayerView) -> Action:
        key = self._key(view)
        if self._draw is not None and self._draw[0] == key:
            return self._draw[1]
        choice = best_draw(view)
        self._draw = (key, choice)
        return choice

    def call(self, view: PlayerView) -> CallRummy | None:
        """The answer in a call window (R5-10): a call when its melds are worth more than
        the cards it takes. The next player, who may draw instead, calls where the call
        beats its best take from the pile (a draw at any depth no one can call); with two
        players it never needs to call."""
        calls = [a for a in view.legal_actions if isinstance(a, CallRummy)]
        if not calls:
            return None
        options: list[Draw | CallRummy] = list(calls)
        if view.seat == next_to_draw(view):
            if view.players == 2:
                return None
            callable_depths = {c.depth for c in calls}
            options += [
                Draw("discard", k)
                for k in range(1, len(view.discard_pile) + 1)
                if k not in callable_depths
            ]
            options.sort(key=lambda a: a.depth)
        take = best_take(view, options, stock_plan(view))
        return take.action if take is not None and isinstance(take.action, CallRummy) else None

    # -- melding and discarding ------------------------------------------------------

    def discard(self, view: PlayerView) -> Action:
        """The next action of the turn plan (made once per turn, followed while it holds)."""
        legal = view.legal_actions
        if self._plan is not None and self._plan[0] == self._key(view):
            rest = self._plan[1]
            if rest and rest[0] in legal:
                return self._next(view, rest)
        plan = turn_plan(view)
        actions = plan.actions() if plan is not None else []
        if actions and actions[0] in legal:
            return self._next(view, actions)
        self._plan = None
        return self._fallback(view)

    def _next(self, view: PlayerView, actions: list[Action]) -> Action:
        """The first of ``actions``; the rest is kept for the position it leads to."""
        action, rest = actions[0], actions[1:]
        self._plan = None
        if rest and not isinstance(action, Discard):
            hand = list(view.hand)
            for card in action_cards(action):
                hand.remove(card)
            after = (view.deal_number, len(view.log) + 1, tuple(hand), view.seat)
            self._plan = (after, rest)
        return action

    def _fallback(self, view: PlayerView) -> Action:
        """A legal action when the plan's is not: the owed card's play, else a discard."""
        legal = view.legal_actions
        owed = Rummy500ViewPart.of(view).must_meld
        if owed is not None:
            for action in legal:
                if owed in action_cards(action):
                    return action
        discards = [a.card for a in legal if isinstance(a, Discard)]
        if discards:
            rules = Rules.of(view)
            table = table_of(view)
            card = choose_discard(
                discards, banned=None, pile=view.discard_pile, table=table, rules=rules
            )
            if card is not None:
                return Discard(card)
        plays = [a for a in legal if isinstance(a, MeldCards | LayOff)]
        return plays[0] if plays else legal[0]


def action_cards(action: Action) -> tuple[Card, ...]:
    """The cards an action takes from the hand (a meld, a lay-off, a discard)."""
    if isinstance(action, MeldCards):
        return action.cards
    if isinstance(action, LayOff | Discard):
        return (action.card,)
    return ()
