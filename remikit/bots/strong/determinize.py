"""Sampling the cards a seat cannot see, consistently with everything it has seen.

:func:`determinize` is the only way the strong bot learns anything about
hidden cards (DESIGN.md decision 5): it reads one :class:`PlayerView` and
deals the cards the seat has not seen at random to the other hands and the
stock, keeping

* the seat's own hand, the discard pile and the table melds where they are;
* every card a player took from the discard pile and has not discarded or
  melded since in that player's hand (:func:`knowledge` follows every card the
  view's public log moves, by each kind of action's
  :meth:`~remikit.actions.Action.moves`, the cards taken from the pile from
  ``view.taken_from_discard``);
* every hand's size and the stock's size;
* after a Three-Thirteen reshuffle (R3-5), the stock within the cards that
  were reshuffled into it.

>>> import random
>>> from remikit.variants.remi13d.rules import Remi13DGame, Remi13DOptions
>>> game = Remi13DGame(Remi13DOptions(games=1), rng=random.Random(1))
>>> world = determinize(game.view(0), random.Random(2))
>>> [len(h) for h in world.hands], len(world.stock)
([13, 13, 13, 13], 56)
>>> world.hands[0] == game.view(0).hand
True
"""

from __future__ import annotations

import heapq
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import islice

from remikit.bots.strong.inference import Tell, reading_for
from remikit.cards import Card
from remikit.deal import Deal
from remikit.engine import Game, Options
from remikit.kinds import Move, Place
from remikit.variants import find_variant
from remikit.views import PlayerView

HAND, STOCK, PILE, OUT = Place.HAND, Place.STOCK, Place.PILE, Place.OUT
STOCK_FLOOR = 0.02
"""The least weight a card keeps of lying in the stock, however surely the reading puts it
in a hand."""


@dataclass(frozen=True)
class Determinization:
    """One sampled position: every seat's hand and the stock (top last, as the engine
    keeps it)."""

    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]


@dataclass(frozen=True)
class Knowledge:
    """What a seat knows about the hidden cards.

    ``known[s]``: cards known to be in seat ``s``'s hand (the seat's own hand
    for itself). ``unseen``: every card whose place the seat does not know; they
    fill the other hands' unknown places and the stock. ``stock_pool``: when
    the stock was refilled from the discard pile, the cards it was refilled with
    that are still unseen (the stock holds only such cards), else None;
    ``pool_unknown`` of the refilled cards had an identity the log does not
    show (the turned-up card of the deal, never taken). ``tells[s]``: what seat
    ``s`` did with face-up cards, in order (:mod:`~remikit.bots.strong.inference`).
    """

    known: tuple[tuple[Card, ...], ...]
    unseen: tuple[Card, ...]
    stock_pool: tuple[Card, ...] | None = None
    pool_unknown: int = 0
    tells: tuple[tuple[Tell, ...], ...] = ()


@cache
def _game(variant: str, options: Options) -> Game:
    """A game of the variant with these options, dealt nothing: a factory of deals."""
    game = find_variant(variant).game_class()
    return game(options, rng=random.Random(0), auto_deal=False)


@cache
def _full_deck(variant: str, options: Options) -> tuple[Card, ...]:
    return tuple(_game(variant, options).full_deck())


def deal_type(view: PlayerView) -> type[Deal]:
    """The view's kind of deal: its public facts about the piles."""
    game = find_variant(view.variant).game_class()
    return game.deal_type


def table_game(view: PlayerView) -> Game:
    """An undealt game with the view's variant and options (the sampled deals' factory)."""
    return _game(view.variant, view.options)


def full_deck(view: PlayerView) -> tuple[Card, ...]:
    """Every card of a deal at this table."""
    return _full_deck(view.variant, view.options)


def _minus(cards: list[Card] | tuple[Card, ...], away: Counter[Card]) -> list[Card]:
    """``cards`` in their order without ``away`` (a multiset)."""
    left = Counter(away)
    out = []
    for card in cards:
        if left[card] > 0:
            left[card] -= 1
        else:
            out.append(card)
    return out


def knowledge(view: PlayerView) -> Knowledge:
    """Walk the public log of the deal, moving cards as each action moves them, and work
    out what the seat knows."""
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator has no hand to sample around")
    rules = deal_type(view)
    players = view.players
    plays: list[tuple[int, tuple[Move, ...]]] = []
    previous = None
    start_size = list(view.hand_sizes)  # each seat's at the deal: the sizes now, moves undone
    for play in view.log:
        moves = play.action.moves(previous)
        plays.append((play.seat, moves))
        previous = play
        for source, to, shown, top in moves:
            if source is HAND:
                start_size[play.seat] += len(shown) or top
            elif to is HAND:
                start_size[play.seat] -= len(shown) or top
    pile: list[Card | None] = [None] if rules.opens_pile else []
    stock = len(full_deck(view)) - sum(start_size) - len(pile)
    held: list[Counter[Card]] = [Counter() for _ in range(players)]
    out: list[Card] = []  # face up outside the pile and the table (a closing card)
    taken = iter(view.taken_from_discard)
    refill: list[Card | None] | None = None
    tells: list[list[Tell]] = [[] for _ in range(players)]
    for who, moves in plays:
        for move in moves:
            source, to, shown, top = move
            size = len(shown) or top
            cards: Sequence[Card | None] = shown or (None,) * size
            if source is PILE:
                cards = pile[len(pile) - size :]
                del pile[len(pile) - size :]
                if to is HAND:  # the view names the cards taken
                    took = [card for _, card in islice(taken, size)]
                    tells[who].extend(("took", card) for card in took)
                    cards = took
            elif source is STOCK:
                stock -= size
                if to is HAND and pile and pile[-1] is not None:
                    tells[who].append(("passed", pile[-1]))
            elif source is HAND:
                for card in shown:
                    if held[who][card] > 0:
                        held[who][card] -= 1
                if to is PILE:
                    tells[who].extend(("threw", card) for card in shown)
            if to is HAND and move.public:  # every seat saw them go into that hand
                held[who].update(c for c in cards if c is not None)
            if to is PILE:
                pile.extend(cards)
                if rules.refills_stock and stock == 0 and len(pile) >= 2:
                    refill = pile[:-1]  # the next turn starts with the pile but its top
                    pile = pile[-1:]
                    stock = len(refill)
            elif to is STOCK:
                stock += size
            elif to is OUT:
                out.extend(c for c in cards if c is not None)
    seen: Counter[Card] = Counter(view.hand) + Counter(view.discard_pile) + Counter(out)
    for meld in view.table:
        seen.update(meld.cards)
    known: list[tuple[Card, ...]] = []
    for s in range(players):
        if s == seat:
            known.append(tuple(view.hand))
            continue
        kept = list(held[s].elements())[: view.hand_sizes[s]]
        seen.update(kept)
        known.append(tuple(kept))
    unseen_cards = tuple(_minus(full_deck(view), seen))
    pool: tuple[Card, ...] | None = None
    pool_unknown = 0
    if refill is not None:
        have = Counter(unseen_cards)
        named = Counter(c for c in refill if c is not None)
        pool = tuple((have & named).elements())
        pool_unknown = sum(1 for c in refill if c is None)
    return Knowledge(tuple(known), unseen_cards, pool, pool_unknown, tuple(tuple(t) for t in tells))


def determinize(
    view: PlayerView,
    rng: random.Random,
    *,
    known: Knowledge | None = None,
    weights: Sequence[Mapping[Card, float]] | None = None,
) -> Determinization:
    """A random position consistent with everything ``view``'s seat has seen.

    ``known`` (from :func:`knowledge`) may be given to save the walk through
    the log when sampling the same view many times. ``weights[s]``: how much
    likelier than the plain chance each unseen card is to be in seat ``s``'s hand
    (:class:`~remikit.bots.strong.inference.Reading`); without them every unseen
    card is as likely anywhere.
    """
    info = known if known is not None else knowledge(view)
    unseen = list(info.unseen)
    rng.shuffle(unseen)
    stock_size = view.stock_size
    stock: list[Card]
    if info.stock_pool is not None:
        pool = list(info.stock_pool)
        rng.shuffle(pool)
        stock = pool[:stock_size]
        unseen = _minus(unseen, Counter(stock))
        missing = stock_size - len(stock)
        if missing > 0:  # the turned-up card went into the stock; any unseen card stands for it
            stock += unseen[:missing]
            unseen = unseen[missing:]
    elif weights is None:
        stock = unseen[:stock_size]
        unseen = unseen[stock_size:]
    else:
        stock = []  # what the hands leave
    needs = [size - len(info.known[s]) for s, size in enumerate(view.hand_sizes)]
    drawn = _plain(unseen, needs) if weights is None else _weighted(unseen, needs, weights, rng)
    hands: list[tuple[Card, ...]] = []
    for s, extra in enumerate(drawn):
        cards = [*info.known[s], *extra]
        if s != view.seat:
            rng.shuffle(cards)
        hands.append(tuple(cards))
    if weights is not None and info.stock_pool is None:
        stock = unseen
    rng.shuffle(stock)
    return Determinization(tuple(hands), tuple(stock))


def _plain(unseen: list[Card], needs: Sequence[int]) -> list[list[Card]]:
    """Each seat's unknown cards, in seat order from the shuffled ``unseen``."""
    drawn: list[list[Card]] = []
    pos = 0
    for need in needs:
        drawn.append(unseen[pos : pos + max(0, need)])
        pos += max(0, need)
    return drawn


def _weighted(
    unseen: list[Card],
    needs: Sequence[int],
    weights: Sequence[Mapping[Card, float]],
    rng: random.Random,
) -> list[list[Card]]:
    """Each seat's unknown cards drawn from ``unseen`` (which keeps the rest) with chances
    in proportion to the seat's weights, seats in a random order (weighted sampling
    without replacement by exponential keys)."""
    drawn: list[list[Card]] = [[] for _ in needs]
    order = [s for s, need in enumerate(needs) if need > 0]
    rng.shuffle(order)
    for s in order:
        weight = weights[s]
        keys = [
            (math.log(1.0 - rng.random()) / weight.get(card, 1.0), i)
            for i, card in enumerate(unseen)
        ]
        chosen = sorted(i for _, i in heapq.nlargest(needs[s], keys))
        drawn[s] = [unseen[i] for i in chosen]
        for i in reversed(chosen):
            del unseen[i]
    return drawn


def reading_weights(view: PlayerView, known: Knowledge) -> list[dict[Card, float]] | None:
    """Per seat, the weights the variant's fitted reading of play gives the unseen cards
    (the seat's own: none), or None where the variant ships no reading or no other seat
    has played a face-up card yet (nothing to read: every card alike)."""
    reading = reading_for(find_variant(view.variant).package)
    if reading is None or not any(t for s, t in enumerate(known.tells) if s != view.seat):
        return None
    unseen = set(known.unseen)
    return [
        {} if s == view.seat else reading.weights(known.tells[s], unseen)
        for s in range(view.players)
    ]


def hand_chances(view: PlayerView, known: Knowledge) -> list[dict[Card, float]] | None:
    """Per seat, each unseen card's chance (a copy's) of being in that seat's hand as the
    variant's reading of play weighs it (the seat's own: none), or None without a reading."""
    weights = reading_weights(view, known)
    if weights is None:
        return None
    chances: list[dict[Card, float]] = []
    for s, weight in enumerate(weights):
        need = view.hand_sizes[s] - len(known.known[s])
        total = sum(weight.get(card, 1.0) for card in known.unseen)
        if s == view.seat or need <= 0 or total <= 0:
            chances.append({})
            continue
        chances.append({card: min(1.0, need * w / total) for card, w in weight.items()})
    return chances


def own_draws(
    view: PlayerView, steps: int, count: int, known: Knowledge | None = None
) -> list[list[Card]]:
    """``count`` sampled futures of the seat's next ``steps`` stock cards (at most as many as
    it has not seen), drawn from the cards it has not seen, each as likely as the
    variant's reading of play makes it to lie in the stock; the same for the same view.
    ``known``: the view's :func:`knowledge`, where the caller has it."""
    known = known if known is not None else knowledge(view)
    unseen = list(known.unseen)
    rng = random.Random(hash((view.deal_number, len(view.log), tuple(c.index for c in view.hand))))
    steps = min(steps, len(unseen))
    chances = hand_chances(view, known)
    if chances is None:
        return [rng.sample(unseen, steps) for _ in range(count)]
    stock = [max(STOCK_FLOOR, 1.0 - sum(c.get(card, 0.0) for c in chances)) for card in unseen]
    futures = []
    for _ in range(count):
        keys = [(math.log(1.0 - rng.random()) / w, i) for i, w in enumerate(stock)]
        futures.append([unseen[i] for _, i in heapq.nlargest(steps, keys)])
    return futures
