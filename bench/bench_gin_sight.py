"""Gin Rummy: which part of the strong bot would gain from seeing the other hand.

The arena-only cheater sees every hand in its rollouts and sampled worlds; the
outlook that rates its draws and discards (``remikit/variants/gin/tactics.py``)
reads the other hand from the seat's view, as strong's does. Here each part of
the outlook may also be handed the true hand (from the game the cheater holds),
and the cheater plays arena games against the greedy bot:

* ``danger``: a discard's danger is whether the other seat truly holds two
  cards that meld with it;
* ``futures``: the seat's own future draws come from the true stock;
* ``knock``: the chance that the other seat knocks at its next turn is the
  share of the stock that would let its true hand knock (later turns: the
  model's);
* ``view``: the whole outlook's knowledge of the hidden cards is the truth
  (danger, futures and the draw's rating);
* ``all``: ``view`` and ``knock``;
* ``none``: the cheater as it is.

A measurement only: no level plays so. Run:
``python bench/bench_gin_sight.py danger --games 100 --seed 7``.

``reading`` instead measures how well the danger strong reads tells the
discards the other seat can meld: over the discard decisions of single hands of
greedy bots (``--games`` hands, seeds from ``--seed``), every card a seat may
throw is an option, and the truth is whether the other hand holds two cards that
meld with it. It prints the share of such options, and for the danger with the
reading of play and without it (every unseen card alike) the area under the ROC
curve (1: the exact danger) and the log-likelihood per option; the same for
a logistic regression of the truth on every public signal of :func:`signals`,
fitted on as many other hands; and for the danger over sampled hands of the
other seat weighed by how well each explains its play together
(:func:`followed`).
"""

from __future__ import annotations

import argparse
import bisect
import dataclasses
import math
import random
import sys
from collections.abc import Mapping, Sequence

import numpy as np
from fit_knock import fit

from remikit.actions import Action, Discard
from remikit.bots import make_bot
from remikit.bots.cheater import CheaterBot
from remikit.bots.strong import StrongBot
from remikit.bots.strong.determinize import (
    Knowledge,
    determinize,
    hand_chances,
    knowledge,
    own_draws,
    reading_weights,
)
from remikit.cards import Card, Suit
from remikit.cli.main import main as remi
from remikit.engine import Game
from remikit.variants.gin import greedy, race, tactics
from remikit.variants.gin.game import GinGame
from remikit.variants.gin.options import GinOptions
from remikit.variants.gin.state import view_limit
from remikit.views import PlayerView

PARTS = ("none", "danger", "futures", "knock", "view", "all", "reading")
TABLE: list[Game] = []  # the game the cheater last decided in (one per process)


def true_knowledge(view: PlayerView) -> Knowledge:
    """The view's knowledge with the other hand known and out of the unseen cards."""
    found = knowledge(view)
    deal = TABLE[0].deal
    assert deal is not None and view.seat is not None
    other = 1 - view.seat
    theirs = tuple(deal.hands[other])
    known = list(found.known)
    known[other] = theirs
    unseen = tuple(c for c in found.unseen if c not in set(theirs))
    return dataclasses.replace(found, known=tuple(known), unseen=unseen)


def true_danger(
    card: Card, view: PlayerView, known: Knowledge, chances: Mapping[Card, float] | None
) -> float:
    return DANGER(card, view, true_knowledge(view), None)


def true_futures(
    view: PlayerView, steps: int, count: int, known: Knowledge | None = None
) -> list[list[Card]]:
    return own_draws(view, steps, count, true_knowledge(view))


def true_risks(view: PlayerView, turns: int) -> list[float]:
    model = RISKS(view, turns)
    deal = TABLE[0].deal
    assert deal is not None and view.seat is not None
    hand = list(deal.hands[1 - view.seat])
    stock = list(deal.stock)
    if len(hand) != 10 or not stock:
        return model
    limit = view_limit(view, 10)
    knocks = sum(greedy.best_after_discard([*hand, c]) <= limit for c in stock)
    return [knocks / len(stock), *model[1:]]


DANGER = tactics.danger
RISKS = race.risks
CHOOSE = CheaterBot.choose


def choose(bot: StrongBot, view: PlayerView) -> Action:
    assert isinstance(bot, CheaterBot)
    TABLE[:] = [bot._game]
    return CHOOSE(bot, view)


def show(part: str) -> None:
    """Hand the true other hand to ``part`` of the outlook (in this process and the
    workers it forks)."""
    CheaterBot.choose = choose  # type: ignore[method-assign,assignment]
    names = vars(tactics)
    if part == "danger":
        names["danger"] = true_danger
    if part == "futures":
        names["own_draws"] = true_futures
    if part in ("view", "all"):
        names["knowledge"] = true_knowledge
    if part in ("knock", "all"):
        vars(race)["risks"] = true_risks


def meldable(card: Card, hand: Sequence[Card]) -> bool:
    """Whether ``hand`` holds two cards that meld with ``card`` (a set or a run)."""
    held = set(hand)
    rank = int(card.rank)
    if sum(Card.of(rank, s) in held for s in Suit if s != card.suit) >= 2:
        return True
    run = [
        Card.of(r, card.suit) in held if 1 <= r <= 13 else False for r in range(rank - 2, rank + 3)
    ]
    return (run[0] and run[1]) or (run[1] and run[3]) or (run[3] and run[4])


def area(scores: Sequence[float], truths: Sequence[bool]) -> float:
    """The area under the ROC curve: the chance that a true option scores above a false one."""
    false = sorted(s for s, t in zip(scores, truths, strict=True) if not t)
    above = [
        bisect.bisect_left(false, s)
        + (bisect.bisect_right(false, s) - bisect.bisect_left(false, s)) / 2
        for s, t in zip(scores, truths, strict=True)
        if t
    ]
    return sum(above) / (len(above) * len(false))


def signals(card: Card, view: PlayerView, known: Knowledge, read: float) -> list[float]:
    """What public play says of ``card``'s danger: the read danger's log-odds, then the
    partners known in the other hand, those unseen (of its rank, of its suit), the other
    seat's race signs (:func:`~remikit.variants.gin.race.signs`) and the card's rank."""
    assert view.seat is not None
    other = 1 - view.seat
    held, unseen = set(known.known[other]), set(known.unseen)
    rank = int(card.rank)
    same = [Card.of(rank, s) for s in Suit if s != card.suit]
    suit = [Card.of(r, card.suit) for r in (rank - 2, rank - 1, rank + 1, rank + 2) if 1 <= r <= 13]
    draws, last, previous, took = race.signs([(p.seat, p.action) for p in view.log], other)
    odds = math.log(max(1e-4, read) / max(1e-4, 1 - read))
    return [
        odds,
        sum(c in held for c in same + suit),
        sum(c in unseen for c in same),
        sum(c in unseen for c in suit),
        draws / 10,
        last / 10,
        previous / 10,
        took,
        rank / 13,
    ]


SAMPLED = 150  # hands of the other seat sampled per decision by :func:`followed`
MISPLAYED = 1.0  # log-odds a hand loses per point its last discard left above its best
PASSED_LAST = 0.3  # the weight of a hand that could meld the top card it last passed up
PASSED = 0.5  # ... each earlier top card it passed up
THREW = 0.5  # ... each earlier card it threw


def followed(cards: Sequence[Card], view: PlayerView, known: Knowledge) -> list[float]:
    """Each of ``cards``' danger over :data:`SAMPLED` hands of the other seat, sampled as
    strong samples them (with the reading of play) and each weighed by how well it
    explains that seat's play together: its last discard against the best it had, and
    the cards it passed up and threw that the hand could meld."""
    assert view.seat is not None
    other = 1 - view.seat
    tells = known.tells[other]
    threw = [c for kind, c in tells if kind == "threw"]
    passed = [c for kind, c in tells if kind == "passed"]
    rng = random.Random(hash((view.deal_number, len(view.log))))
    read = reading_weights(view, known)
    weights, melds = [], []
    for _ in range(SAMPLED):
        hand = list(determinize(view, rng, known=known, weights=read).hands[other])
        weight = 1.0
        if threw and len(hand) == 10:
            before = [*hand, threw[-1]]
            left = greedy.after_discard(before, threw[-1]) - greedy.best_after_discard(before)
            weight *= math.exp(-MISPLAYED * left)
        if passed and meldable(passed[-1], hand):
            weight *= PASSED_LAST
        weight *= PASSED ** sum(meldable(c, hand) for c in passed[:-1])
        weight *= THREW ** sum(meldable(c, hand) for c in threw[:-1])
        weights.append(weight)
        melds.append([meldable(c, hand) for c in cards])
    total = sum(weights)
    return [
        sum(w for w, m in zip(weights, melds, strict=True) if m[i]) / total
        for i in range(len(cards))
    ]


Option = tuple[float, float, float, list[float], bool]
"""A discard option: its danger read, plain and :func:`followed`, its :func:`signals`,
whether it is meldable."""


def options_of(hands: int, seed: int, follow: bool = True) -> list[Option]:
    """The discard options of ``hands`` single hands of greedy bots (``follow``: with the
    :func:`followed` danger, else NaN)."""
    found: list[Option] = []
    for n in range(hands):
        game = GinGame(GinOptions(target=1), rng=random.Random(seed + n))
        bots = [make_bot("greedy", seed=seed + 2 * n + s) for s in range(2)]
        while not game.over:
            if game.needs_deal:
                game.start_deal()
            seat = game.to_play
            assert seat is not None and game.deal is not None
            view = game.view(seat)
            cards = dict.fromkeys(a.card for a in view.legal_actions if isinstance(a, Discard))
            if len(cards) > 1:
                known = knowledge(view)
                chances = hand_chances(view, known)
                theirs = None if chances is None else chances[1 - seat]
                hand = game.deal.hands[1 - seat]
                sampled = followed(list(cards), view, known) if follow else []
                for i, card in enumerate(cards):
                    read = tactics.danger(card, view, known, theirs)
                    plain = tactics.danger(card, view, known, None)
                    whole = sampled[i] if follow else math.nan
                    truth = meldable(card, hand)
                    found.append((read, plain, whole, signals(card, view, known, read), truth))
            game.apply(seat, bots[seat].choose(view))
    return found


def reading(hands: int, seed: int) -> None:
    """How well the danger tells the meldable discards (module docstring)."""
    rows = options_of(hands, seed)
    truths = [t for *_, t in rows]
    share = sum(truths) / len(rows)
    base = sum(math.log(share if t else 1 - share) for t in truths) / len(rows)
    print(f"{hands} hands, {len(rows)} discard options, {share:.1%} meldable by the other seat")
    print(f"  log-likelihood per option at that share alone: {base:.4f}")
    fitted = options_of(hands, seed + 100_000, follow=False)
    beta = fit(np.array([r[3] for r in fitted]), np.array([float(r[4]) for r in fitted]))
    x = np.array([r[3] for r in rows])
    learned = list(1 / (1 + np.exp(-(np.hstack([np.ones((len(x), 1)), x]) @ beta))))
    named = (
        ("with the reading", [r[0] for r in rows]),
        ("every unseen card alike", [r[1] for r in rows]),
        ("fitted on all the signals", learned),
        ("over hands weighed by the whole play", [r[2] for r in rows]),
    )
    for name, scores in named:
        likelihood = sum(
            math.log(max(1e-9, p if t else 1 - p)) for p, t in zip(scores, truths, strict=True)
        )
        print(
            f"  danger {name}: mean {sum(scores) / len(rows):.3f}, "
            f"ROC area {area(scores, truths):.3f}, "
            f"log-likelihood per option {likelihood / len(rows):.4f}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "part", nargs="?", default="reading", choices=PARTS, help="what to measure (reading)"
    )
    parser.add_argument("--games", default="100", help="arena games, or hands (100)")
    parser.add_argument("--seed", default="7", help="arena seed, or the first hand's (7)")
    parser.add_argument("--budget", default="0.1", help="the cheater's seconds (0.1)")
    args = parser.parse_args(argv)
    if args.part == "reading":
        reading(int(args.games), int(args.seed))
        return 0
    show(args.part)
    bots = f"cheater@{args.budget},greedy"
    arena = ["arena", "gin", "--bots", bots, "--games", args.games, "--seed", args.seed]
    return remi([*arena, "--jobs", "2", "--deals", "--json"])


if __name__ == "__main__":
    sys.exit(main())
