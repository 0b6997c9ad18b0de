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
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Mapping, Sequence

from remikit.actions import Action
from remikit.bots.cheater import CheaterBot
from remikit.bots.strong import StrongBot
from remikit.bots.strong.determinize import Knowledge, knowledge, own_draws
from remikit.cards import Card
from remikit.cli.main import main as remi
from remikit.engine import Game
from remikit.variants.gin import greedy, race, tactics
from remikit.variants.gin.state import view_limit
from remikit.views import PlayerView

PARTS = ("none", "danger", "futures", "knock", "view", "all")
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("part", choices=PARTS)
    parser.add_argument("--games", default="100", help="arena games (100)")
    parser.add_argument("--seed", default="7", help="arena seed (7)")
    parser.add_argument("--budget", default="0.1", help="the cheater's seconds (0.1)")
    args = parser.parse_args(argv)
    show(args.part)
    bots = f"cheater@{args.budget},greedy"
    arena = ["arena", "gin", "--bots", bots, "--games", args.games, "--seed", args.seed]
    return remi([*arena, "--jobs", "2", "--deals", "--json"])


if __name__ == "__main__":
    sys.exit(main())
