"""Remi 13 D knowledge for the strong bot: candidates, a fast rollout policy, estimates.

What matters at this table (RULES.md §1):

* A deal is won by closing (R13-7): 13 cards in melds with a pure run of 4+,
  plus an ace (bonus 50) or a joker (75) as the closing card. So a hand keeps
  one closing card even when it is dead (at -15 a lone ace is the costliest dead
  card); jokers are never thrown away. One card from a close, the hand's closing
  card (:func:`~remikit.variants.remi13d.hints.closing_card`, as the greedy bot
  and the hints find it) is no card to meld: :func:`shortfall` sets it aside.
* The next player may take the discard (R13-5): a card that completes or
  extends a meld of theirs is fed to them. The search sees that in its
  rollouts, where the next player's sampled hand takes what helps it.
* What a pure run is follows the table's ``pure_run`` option (R13-6): the close
  tests below take it, read from the view or the sampled deal's options.
* When nobody closes, R13-12 scores the hands as they are. That is rare, and the
  closer's bonus outweighs any points held, so a deal is a race to close: a hand
  is rated by how far it is from a close (:func:`shortfall`), what the next
  stock card promises it (the chance to close, and the shortfall it is expected
  to save: :func:`draw_gain`), and not by the points it holds.
* Thinking time beyond the rollouts' cap (:attr:`Remi13DTactics.max_rollouts`)
  looks further: over futures sampled from the unseen cards, the seat draws its
  next :data:`FUTURE_STEPS` stock cards, discarding as the fast policy does, and
  a close at a later draw counts as a close at the next one discounted by
  :data:`LATER` a turn (the others may close first): :func:`later_close`.

The fast policy works on card bit masks (:mod:`remikit.variants.remi13d.lite`);
the solver scores the hands at the horizon.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from remikit.actions import Action, Discard, Draw
from remikit.bots.strong.determinize import Determinization, Knowledge, knowledge, own_draws
from remikit.bots.strong.refine import refine_world
from remikit.bots.strong.search import QUICK, Plan, forced_draw, including
from remikit.cards import JOKER, Card
from remikit.deal import Deal, Phase
from remikit.melds import PureRun, Scoring
from remikit.solver import Solver
from remikit.variants.remi13d import scoring
from remikit.variants.remi13d.actions import Close
from remikit.variants.remi13d.hints import closing_card, without
from remikit.variants.remi13d.lite import (
    JOKER_INDEX,
    MELDED,
    best_close,
    is_closer,
    lite_discard,
    masks,
    usefulness,
)
from remikit.variants.remi13d.rules import Remi13DOptions, pure_rule_of
from remikit.views import PlayerView

TOP_DISCARDS = 4  # discards the search compares
DRAW_DISCARDS = 2  # discards after taking the top discard whose outlook is rated


SHORTFALL = Solver(scoring.RULES, Scoring(dead=(-1,) * 52, dead_joker=0))
"""Counts the cards no meld takes (a joker left over costs nothing)."""
SHORTFALL_WILDS = 3
SHORTFALL_POINTS = 5.0  # points of deal score per card of shortfall
NO_CLOSER = 3  # shortfall of a hand with no ace or joker to close with
GAIN_WILDS = 1  # extra jokers in the shortfall that :func:`draw_gain` follows
DRAW_GAIN = 5.0  # points of deal score per card of shortfall the next stock card saves
CLOSE_CHANCE = 200.0  # points of deal score per unit of chance to close at the next draw
FUTURE_STEPS = 4  # own stock draws a sampled future follows
LATER = 0.7  # a close one turn later is worth this much of a close now
SIMS_PER_FUTURE = 4  # effort per sampled future: 225 at 1 s
MAX_FUTURES = 600  # the most a decision samples (600 played no better than 225)


def shortfall(
    hand: Sequence[Card], wilds: int = SHORTFALL_WILDS, closing: Card | None = None
) -> int:
    """How far a hand is from closing: the cards left out of melds with 0, 1, 2, 3 extra
    jokers, summed (a pair or a two-card run counts as nearly a meld), plus the cards a pure
    run of four still lacks and a charge for holding no closing card. A ``closing`` card
    kept for the close is set aside: it is no card to meld."""
    total = 0
    cards = list(hand) if closing is None else without(hand, closing)
    for _ in range(wilds + 1):
        total -= SHORTFALL.value(cards)
        cards.append(JOKER)
    if closing is None and not any(is_closer(c) for c in hand):
        total += NO_CLOSER
    return total + pure_run_lack(hand)


def shortfall14(hand14: Sequence[Card], wilds: int) -> int:
    """:func:`shortfall` of the best 13 of 14 cards: at each joker count, a card left out
    of melds is discarded (the one discard that helps most)."""
    total = 0
    cards = list(hand14)
    for _ in range(wilds + 1):
        total += max(0, -SHORTFALL.value(cards) - 1)
        cards.append(JOKER)
    if not any(is_closer(c) for c in hand14):
        total += NO_CLOSER
    return total + pure_run_lack(hand14)


def draw_gain(hand: Sequence[Card], unseen: Counter[Card]) -> float:
    """The expected fall of the hand's :func:`shortfall` (with one extra joker) at the next
    stock card, over the unseen cards: how many cards would bring the hand nearer a close,
    and by how much ("ukeire"). A card that joins nothing and neither closes nor starts a
    pure run cannot help and is not tried."""
    now = shortfall(hand, GAIN_WILDS)
    rows, ranks, _ = masks(hand)
    needs_closer = not any(is_closer(c) for c in hand)
    far_from_run = pure_run_lack(hand) > 2
    gain = 0
    cards = list(hand)
    for card, n in unseen.items():
        i = card.index
        if (
            i != JOKER_INDEX
            and usefulness(i, rows, ranks) == 0
            and not far_from_run
            and not (needs_closer and i % 13 == 0)
        ):
            continue
        cards.append(card)
        gain += n * max(0, now - shortfall14(cards, GAIN_WILDS))
        cards.pop()
    total = sum(unseen.values())
    return gain / total if total else 0.0


def later_close(
    hand: Sequence[Card], futures: Sequence[Sequence[Card]], pure_run: PureRun = "strict"
) -> float:
    """The chance to close at a later draw than the next, each turn later discounted by
    :data:`LATER`, over sampled futures (the seat's next stock cards; it discards as
    :func:`lite_discard` between them)."""
    if not futures:
        return 0.0
    total = 0.0
    for future in futures:
        cards = list(hand)
        for turn, card in enumerate(future):
            cards.append(card)
            if best_close(cards, pure_run) is not None:
                total += LATER**turn if turn else 0.0
                break
            cards.remove(lite_discard(cards, None))
    return total / len(futures)


def pure_run_lack(hand: Sequence[Card]) -> int:
    """Natural cards a pure run of four still lacks (0: the hand holds one)."""
    rows, _, _ = masks(hand)
    best = 4
    for row in rows:
        for low in range(11):
            window = row >> low & 15
            best = min(
                best, 4 - ((window & 1) + (window >> 1 & 1) + (window >> 2 & 1) + (window >> 3 & 1))
            )
    return best


def close_chance(
    hand: Sequence[Card], unseen: Counter[Card], pure_run: PureRun = "strict"
) -> float:
    """The chance that the next stock card lets the hand close, over the unseen cards."""
    hits = 0
    cards = list(hand)
    for card, n in unseen.items():
        cards.append(card)
        if best_close(cards, pure_run) is not None:
            hits += n
        cards.pop()
    total = sum(unseen.values())
    return hits / total if total else 0.0


class Remi13DTactics:
    """The strong bot's Remi 13 D: see the module docstring."""

    horizon = 4  # through the seat's next turn
    # rollouts run at about 6000 a second; rating the candidates (draw gains, chances
    # to close) takes a fixed share of a decision, so at 0.1 s the decision's CPU p95
    # stays in budget with 100 rollouts. More rollouts do not help: at 1 s (4600) strong
    # won 33.0% of 200 games [26.9%, 39.8%], against 41.5% at 0.1 s, probably as the
    # rollouts' short view overrules the closing-speed rating more often. The effort
    # beyond them goes to sampled futures (:func:`later_close`). With the compiled
    # solver a decision's CPU p95 at 0.1 s and 1000 a second was 0.072 s: 1400.
    sims_per_second = 1400
    max_rollouts: int | None = 100
    reads_play = True
    effort = 0

    # -- the real decision ------------------------------------------------------

    def prior(self, hand: Sequence[Card], pure_run: PureRun) -> float:
        """A 13-card hand's worth: how close it is to closing (the deal is a race to close;
        the points it holds barely matter), its closing card set aside when it has one."""
        wilds = SHORTFALL_WILDS if self.effort >= QUICK else 1
        short = shortfall(hand, wilds)
        closing = closing_card(hand, pure_run=pure_run)
        if closing is not None:
            short = min(short, shortfall(hand, wilds, closing))
        return -SHORTFALL_POINTS * short

    @staticmethod
    def outlook(
        hand: Sequence[Card],
        unseen: Counter[Card],
        futures: Sequence[Sequence[Card]] = (),
        pure_run: PureRun = "strict",
    ) -> float:
        """What the next stock card promises a 13-card hand: a close, or a shorter way to one;
        and with sampled ``futures``, a close at a later draw."""
        close = close_chance(hand, unseen, pure_run) + later_close(hand, futures, pure_run)
        return CLOSE_CHANCE * close + DRAW_GAIN * draw_gain(hand, unseen)

    def futures(
        self, view: PlayerView, steps: int, known: Knowledge | None = None
    ) -> list[list[Card]]:
        """The seat's next ``steps`` stock cards, sampled from the unseen cards: as many
        samples as the effort beyond the rollouts buys (none at 100 or less, at most
        :data:`MAX_FUTURES`), the same ones for every candidate."""
        count = min(
            MAX_FUTURES, (self.effort - (self.max_rollouts or self.effort)) // SIMS_PER_FUTURE
        )
        return own_draws(view, steps, count, known) if count > 0 else []

    def candidates(
        self, view: PlayerView, include: Action | None = None
    ) -> list[tuple[Plan, float]]:
        legal = view.legal_actions
        if view.phase == "draw":
            return including([((self.draw(view),), 0.0)], include)
        rule = pure_rule_of(view)
        kept = include.card if isinstance(include, Discard) else None
        closes = [a for a in legal if isinstance(a, Close)]
        if closes:
            found = scoring.best_close(view.hand, pure_run=rule)
            if found is not None and found.closing is not None and Close(found.closing) in closes:
                close = Close(found.closing)
            else:
                close = closes[0]
            if kept is None:
                return including([((close,), 0.0)], include)
            return [
                ((close,), 0.0),
                *(pc for pc in self.discards(view, rule, kept) if pc[0][0] == include),
            ]
        return self.discards(view, rule, kept)

    def discards(
        self, view: PlayerView, rule: PureRun, kept: Card | None
    ) -> list[tuple[Plan, float]]:
        """The discards worth trying (``kept`` among them), with their priors, best first."""
        discards = [a.card for a in view.legal_actions if isinstance(a, Discard)]
        rated = sorted(
            ((self.prior(without(view.hand, c), rule), c) for c in discards),
            key=lambda pc: pc[0],
            reverse=True,
        )
        top = 2 if self.effort < QUICK else TOP_DISCARDS
        rated = [pc for i, pc in enumerate(rated) if i < top or pc[1] is kept]
        if self.effort < QUICK:
            return [((Discard(c),), p) for p, c in rated]
        known = knowledge(view)
        unseen = Counter(known.unseen)
        futures = self.futures(view, FUTURE_STEPS, known)
        rated = sorted(
            ((p + self.outlook(without(view.hand, c), unseen, futures, rule), c) for p, c in rated),
            key=lambda pc: pc[0],
            reverse=True,
        )
        return [((Discard(c),), p) for p, c in rated]

    def draw(self, view: PlayerView) -> Action:
        """Take the discard when it closes, or when the best hand after it, with what its
        next stock cards promise (:meth:`outlook`), beats the hand held with the promise of
        this stock card and the next ones; otherwise the stock."""
        forced = forced_draw(view)
        if forced is not None:
            return forced
        top = view.top_discard
        assert top is not None
        rule = pure_rule_of(view)
        with_top = [*view.hand, top]
        if best_close(with_top, rule) is not None:
            return Draw("discard")
        rows, ranks, _ = masks(view.hand)
        if top.index != JOKER_INDEX and usefulness(top.index, rows, ranks) < 4:
            return Draw("stock")
        kept = None if view.options.discard_taken_card else top
        rated = sorted(
            (
                (self.prior(without(with_top, c), rule), c)
                for c in dict.fromkeys(with_top)
                if c is not kept
            ),
            key=lambda pc: pc[0],
            reverse=True,
        )
        known = knowledge(view)
        unseen = Counter(known.unseen)
        futures = self.futures(view, FUTURE_STEPS + 1, known)
        after = max(
            p + self.outlook(without(with_top, c), unseen, [f[:-1] for f in futures], rule)
            for p, c in rated[:DRAW_DISCARDS]
        )
        # the stock card now: the outlook of the hand held (:meth:`outlook`, each part worked
        # out once), then the next card's draw gain and, unless the futures sample it among
        # the later draws, its chance to close
        hand = view.hand
        chance = close_chance(hand, unseen, rule)
        gain = DRAW_GAIN * draw_gain(hand, unseen)
        held = CLOSE_CHANCE * (chance + later_close(hand, futures, rule)) + gain
        now = self.prior(hand, rule) + held + (gain if futures else CLOSE_CHANCE * chance + gain)
        return Draw("discard") if after > now else Draw("stock")

    # -- sampled worlds ---------------------------------------------------------

    def refine(
        self, view: PlayerView, world: Determinization, known: Knowledge, rng: random.Random
    ) -> Determinization:
        """Make the other hands look played (:func:`~remikit.bots.strong.refine.refine_world`
        with :func:`lite_discard`), so sampled opponents hold melds and pairs as real
        ones do."""
        return refine_world(
            view, world, known, rng, lambda hand, among: lite_discard(hand, None, among=among)
        )

    # -- rollouts -------------------------------------------------------------

    def policy(self, deal: Deal, seat: int, rng: random.Random) -> Action:
        hand = deal.hands[seat]
        options = deal.options
        assert isinstance(options, Remi13DOptions)
        rule = options.pure_rule
        if deal.phase is Phase.DRAW:
            pile = deal.discard_pile
            if pile:
                top = pile[-1]
                if top.index == JOKER_INDEX:
                    return Draw("discard")
                rows, ranks, _ = masks(hand)
                if (
                    usefulness(top.index, rows, ranks) >= MELDED
                    or best_close([*hand, top], rule) is not None
                ):
                    return Draw("discard")
            return Draw("stock")
        close = best_close(hand, rule)
        if close is not None:
            return close
        kept = None if deal.options.discard_taken_card else deal.just_taken
        return Discard(lite_discard(hand, kept))

    def estimate(self, deal: Deal, seat: int) -> list[float]:
        """Nobody closed within the horizon: the candidates' priors tell them apart."""
        return [0.0] * deal.players

    def objective(self, scores: Sequence[float], seat: int) -> float:
        return scores[seat] - max(s for i, s in enumerate(scores) if i != seat)
