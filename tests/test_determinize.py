"""Determinization by card movement (:mod:`remikit.bots.strong.determinize`): in every
playable variant, at thousands of positions of seeded random games, each sampled world
puts every card in one place, agrees with all the seat's view shows, and is drawn from
the view alone, whether the unseen cards are dealt alike or weighted by the variant's
reading of play (:mod:`remikit.bots.strong.inference`).

What every seat knows is followed here from the true deal, not from the kinds' declared
card movements: a card that leaves the discard pile for a hand is known to be there
until it leaves that hand; so is a deal's refilled stock (R3-5).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from remikit.actions import Action, Discard, Draw, Pass
from remikit.bots import make_bot
from remikit.bots.strong.determinize import (
    determinize,
    full_deck,
    knowledge,
    own_draws,
    reading_weights,
)
from remikit.cards import Card
from remikit.deal import Deal
from remikit.engine import Game, OptionError, Options
from remikit.variants import VariantSpec, playable
from tests.hidden import blind_view

POSITIONS = 600
"""Positions checked per variant and table size: the seat to play's world and another
seat's at each."""
CHECKED = 0.25
"""The share of the positions played that are checked (long deals are worth reaching)."""
DEALS = 3
"""The deals played of each game (then the next seed)."""
DEAL_ACTIONS = 1200
"""A deal still running after this many actions is left for the next seed."""


def tables(spec: VariantSpec) -> list[Options]:
    """The variant's table with its default options, the fewest and the most players."""
    options = spec.game_class().options_type
    players = next(o for o in options.describe() if o.name == "players")
    out = []
    for count in sorted({players.low, players.default, players.high} - {None}):
        try:
            out.append(options.from_mapping({"players": count}))
        except OptionError:  # too many for the default deck
            continue
    return out


def pick(rng: random.Random, actions: tuple[Action, ...]) -> Action:
    """A random legal action, half the time one beyond a draw, a discard or a pass where
    there is one (a knock, a close, a meld, a lay-off, a call)."""
    special = [a for a in actions if not isinstance(a, Draw | Discard | Pass)]
    return rng.choice(special if special and rng.random() < 0.5 else actions)


class Watcher:
    """What every seat knows of the hidden cards of the deal being played, from the true
    deal before and after each action: the cards each hand took from the discard pile and
    still holds, and the cards of a refilled stock."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.known: list[Counter[Card]] = [Counter() for _ in range(deal.players)]
        self.refilled: Counter[Card] | None = None

    def apply(self, game: Game, seat: int, action: Action) -> None:
        deal = self.deal
        hand, pile, stock = Counter(deal.hands[seat]), Counter(deal.discard_pile), len(deal.stock)
        game.apply(seat, action)
        gained, lost = Counter(deal.hands[seat]) - hand, hand - Counter(deal.hands[seat])
        self.known[seat] = self.known[seat] - lost + (gained & (pile - Counter(deal.discard_pile)))
        if len(deal.stock) > stock:  # the pile but its top became the stock
            self.refilled = Counter(deal.stock)


def check_world(game: Game, seat: int, watcher: Watcher, seed: int) -> None:
    """Sample a world for ``seat``, plain and weighted by the variant's reading of play,
    and check each (module docstring)."""
    view = game.view(seat)
    blind = blind_view(game, seat)
    sampled = knowledge(view)
    weights = reading_weights(view, sampled)
    assert weights == reading_weights(blind, knowledge(blind))
    for weighed in (None, weights):
        world = determinize(view, random.Random(seed), known=sampled, weights=weighed)
        # every card in one place
        table = [c for meld in view.table for c in meld.cards]
        hidden = [c for hand in world.hands for c in hand] + list(world.stock)
        assert Counter(hidden + list(view.discard_pile) + table) == Counter(full_deck(view))
        # what the view shows
        assert world.hands[seat] == view.hand
        assert tuple(len(hand) for hand in world.hands) == view.hand_sizes
        assert len(world.stock) == view.stock_size
        for other, known in enumerate(watcher.known):
            assert not known - Counter(world.hands[other]), f"seat {other}'s known cards moved"
            assert not known - Counter(sampled.known[other])
        if watcher.refilled is not None:  # at most the turned-up card's place is a guess
            assert sum((Counter(world.stock) - watcher.refilled).values()) <= 1
        # the view alone
        assert determinize(blind, random.Random(seed), weights=weighed) == world
    assert own_draws(view, 4, 3) == own_draws(blind, 4, 3)


def play_and_check(spec: VariantSpec, options: Options) -> int:
    """Seeded games until :data:`POSITIONS` positions are checked, with random play
    (:func:`pick`), in every other game with the greedy bot in every other seat (so that
    deals go where the rules lead, a knock or a close; random play alone makes long deals,
    where a stock runs out); how many of the positions had a card known to be in another
    seat's hand."""
    game_type = spec.game_class()
    greedy = make_bot("greedy", seed=0)
    checked = known = seed = 0
    while checked < POSITIONS:
        seed += 1
        rng = random.Random(seed)
        game = game_type(options, rng=random.Random(seed))
        watcher = Watcher(game.current())
        while not game.over and checked < POSITIONS:
            deal = game.current()
            if deal is not watcher.deal:
                watcher = Watcher(deal)
            if len(deal.log) >= DEAL_ACTIONS or deal.number > DEALS:
                break
            seat = deal.to_play
            assert seat is not None
            if rng.random() < CHECKED:
                other = (seat + rng.randrange(1, game.players)) % game.players
                for looking in (seat, other):
                    check_world(game, looking, watcher, rng.randrange(1 << 30))
                checked += 1
                known += any(watcher.known[s] for s in range(game.players) if s != seat)
            view = game.view(seat)
            greedy_plays = seed % 2 == 0 and seat % 2 == 1
            action = greedy.choose(view) if greedy_plays else pick(rng, view.legal_actions)
            watcher.apply(game, seat, action)
    return known


@pytest.mark.parametrize(
    ("spec", "options"),
    [(spec, options) for spec in playable() for options in tables(spec)],
    ids=lambda value: value.name if isinstance(value, VariantSpec) else f"{value.players}p",
)
def test_sampled_worlds_are_worlds_the_seat_cannot_tell_apart(
    spec: VariantSpec, options: Options
) -> None:
    assert play_and_check(spec, options) > POSITIONS // 10  # known cards were checked
