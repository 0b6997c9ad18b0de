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
they can, so their sampled hands hold nothing that would have been laid.

The rollout policy plays every seat like the greedy bot: it takes from the
pile at any depth when the melds the take allows beat the values of the taken
cards kept (deep takes are frequent and decide many hands), else draws from
the stock, lays by the turn plan of :mod:`remikit.variants.rummy500.plan`
(remembered across the worlds of one search) and discards as the greedy bot
does (a card nobody can call Rummy on, without a partner, the highest; ties
may go another way). The rollouts play no Rummy calls, so no candidate
discard opens one unless the greedy bot's own choice does.
A rollout plays two rounds (every seat two turns); the estimate of the hand
then is each seat's hand score if the hand ended there (points laid minus
points held), fair to all as each seat has just laid what it could.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from weakref import WeakKeyDictionary

from remikit.actions import Action, Discard, Draw, LayOff, Pass
from remikit.bots.strong.determinize import Determinization, Knowledge
from remikit.bots.strong.search import QUICK, Plan, including
from remikit.cards import Card
from remikit.engine import Deal, Options, Phase
from remikit.variants.rummy500.actions import CallRummy, Decline
from remikit.variants.rummy500.greedy import Rummy500Strategy, action_cards
from remikit.variants.rummy500.hints import (
    NEAR,
    assess_take,
    best_take,
    choose_discard,
    just_taken,
    laid,
    next_to_draw,
    opens_call,
    stock_plan,
    takes,
    turn_plan,
    with_discard,
)
from remikit.variants.rummy500.melds import (
    PlacedMeld,
    can_place,
    candidate_layoffs,
    candidate_melds,
    card_points,
    hand_points,
    playable,
)
from remikit.variants.rummy500.plan import Plan as TurnPlan
from remikit.variants.rummy500.plan import Rules, plan_turn, table_after, table_of
from remikit.variants.rummy500.rules import Rummy500Deal
from remikit.variants.rummy500.state import Rummy500Phase, Rummy500ViewPart
from remikit.views import PlayerView

OTHER_DISCARDS = 2  # discards besides the greedy plan's that the search compares
REFINE_SWAPS = 12  # swaps per other seat when a sampled hand is made to look played
MAX_WEIGHT = 0.5  # the best opponent's share (the rest: their mean) in the objective


def _rules(deal: Deal) -> Rules:
    return _rules_of(deal.options)


@cache
def _rules_of(options: Options) -> Rules:
    return Rules(
        scoring=str(getattr(options, "scoring", "standard")),
        floating=bool(getattr(options, "floating", False)),
        unplayable_last_discard=bool(getattr(options, "unplayable_last_discard", False)),
        discard_taken_card=options.discard_taken_card,
        joker_layoff=str(getattr(options, "joker_layoff", "runs")),
    )


def may_meld(hand: Sequence[Card]) -> bool:
    """Whether the hand might hold a new meld (a quick test: three of a rank, or three
    places of a run within a window of three, jokers filling in; never a false no)."""
    jokers = 0
    ranks = [0] * 13
    runs = [0] * 4  # per suit, a bit per run position (0: ace low … 13: ace high)
    for card in hand:
        index = card.index
        if index == 52:
            jokers += 1
            continue
        rank, suit = index % 13, index // 13
        ranks[rank] += 1
        runs[suit] |= 1 << rank | (1 << 13 if rank == 0 else 0)
    need = 3 - jokers
    if need <= 0 or max(ranks) >= need:
        return True
    for bits in runs:  # positions low … low + 2 of a window, ``need`` of them held
        if need == 1 and bits:
            return True
        if need == 2 and bits & (bits >> 1 | bits >> 2):
            return True
        if bits & bits >> 1 & bits >> 2:
            return True
    return False


class Rummy500Tactics:
    """The strong bot's Rummy 500: see the module docstring."""

    horizon = 8  # two rounds of four seats (the estimate follows)
    sims_per_second = 500
    max_rollouts: int | None = None
    reads_play = False  # read worlds won 32.3% of 303 hands, plain ones 35.5% of 301
    effort = 0

    def __init__(self) -> None:
        self.greedy = Rummy500Strategy()
        # the rest of a rollout turn's plan, by deal: ((seat, log length), actions)
        self._queue: WeakKeyDictionary[Deal, tuple[tuple[int, int], tuple[Action, ...]]] = (
            WeakKeyDictionary()
        )
        self._table_view: PlayerView | None = None
        self._plans: dict[object, TurnPlan | None] = {}
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

    # -- rollouts -------------------------------------------------------------

    def policy(self, deal: Deal, seat: int, rng: random.Random) -> Action:
        assert isinstance(deal, Rummy500Deal)
        hand = deal.hands[seat]
        rules = _rules(deal)
        if deal.phase is Rummy500Phase.CALL:
            return Pass()  # the rollouts play no Rummy calls
        if deal.phase is Phase.DRAW:
            take = self._take(deal, seat, rules)
            if take is not None:
                return take
            return Draw("stock") if deal.stock else Decline()
        queued = self._queue.get(deal)
        if queued is not None and queued[0] == (seat, len(deal.log)) and queued[1]:
            action, rest = queued[1][0], queued[1][1:]
            self._queue[deal] = ((seat, len(deal.log) + 1), rest)
            return action
        banned = None if rules.discard_taken_card else deal.just_taken
        if (
            deal.must_meld is None
            and not may_meld(hand)
            and not candidate_layoffs(hand, deal.table, joker_layoff=rules.joker_layoff)
        ):
            card = choose_discard(
                hand, banned=banned, pile=deal.discard_pile, table=deal.table, rules=rules
            )
            return Discard(card) if card is not None else deal.legal_actions(seat)[0]
        plan = self._plan(hand, deal.table, rules, deal.must_meld, banned)
        if plan is not None:
            plan = with_discard(plan, deal.table, deal.discard_pile, seat, rules, banned)
        actions = tuple(plan.actions()) if plan is not None else ()
        if actions:
            self._queue[deal] = ((seat, len(deal.log) + 1), actions[1:])
            return actions[0]
        return deal.legal_actions(seat)[0]

    def _take(self, deal: Rummy500Deal, seat: int, rules: Rules) -> Draw | None:
        """The greedy bot's take from the pile, at any depth (R5-3): the one whose melds
        beat the values of the taken cards kept by most, or that goes out."""
        hand = deal.hands[seat]
        pile = deal.discard_pile
        table = deal.table
        base = 0
        if may_meld(hand) or candidate_layoffs(hand, table, joker_layoff=rules.joker_layoff):
            found = self._plan(hand, table, rules, None, None, discard_done=True)
            base = laid(found) if found is not None else 0
        best: Draw | None = None
        best_key = (False, 0)
        near = 0  # the cards that could share a meld with the hand or the cards above
        for card in hand:
            near |= NEAR[card.index]
        held = Counter(hand)  # the hand and the cards taken
        for depth in range(1, len(pile) + 1):
            deep = pile[-depth]
            held[deep] += 1
            close = near >> deep.index & 1
            near |= NEAR[deep.index]
            if not close and not playable(deep, table, joker_layoff=rules.joker_layoff):
                continue
            if not can_place(deep, held, table, joker_layoff=rules.joker_layoff):
                continue
            taken = pile[-depth:]
            plan = self._plan([*hand, *taken], table, rules, deep, deep if depth == 1 else None)
            if plan is None:
                continue
            kept = Counter(plan.left)
            if plan.discard is not None:
                kept[plan.discard] -= 1
            cost = sum(
                card_points(c, rules.scoring) * n for c, n in (Counter(taken) & kept).items()
            )
            key = (plan.ends_hand, laid(plan) - base - cost)
            if key > best_key:
                action = Draw("discard", depth)
                if deal.can(seat, action):
                    best, best_key = action, key
        return best

    def _plan(
        self,
        hand: Sequence[Card],
        table: Sequence[PlacedMeld],
        rules: Rules,
        owed: Card | None,
        banned: Card | None,
        *,
        discard_done: bool = False,
    ) -> TurnPlan | None:
        """:func:`plan_turn`, remembered for the search: the worlds of one search meet the
        same hand on the same table again and again."""
        key = (
            tuple(sorted(c.index for c in hand)),
            tuple(m.key for m in table),
            owed,
            banned,
            discard_done,
        )
        if key in self._plans:
            return self._plans[key]
        found = self._plans[key] = plan_turn(
            hand, table, rules, owed=owed, banned=banned, discard_done=discard_done
        )
        return found

    def estimate(self, deal: Deal, seat: int) -> list[float]:
        """Each hand's score if the hand ended now: points laid minus points held."""
        assert isinstance(deal, Rummy500Deal)
        scoring = deal.options.scoring
        return [
            float(deal.table_points(s) - hand_points(h, scoring)) for s, h in enumerate(deal.hands)
        ]

    def objective(self, scores: Sequence[float], seat: int) -> float:
        others = [x for i, x in enumerate(scores) if i != seat]
        return (
            scores[seat] - MAX_WEIGHT * max(others) - (1 - MAX_WEIGHT) * sum(others) / len(others)
        )
