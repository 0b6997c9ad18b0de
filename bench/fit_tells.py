"""Fit a variant's reading of play (remikit.bots.strong.inference) and measure it.

Plays seeded games of bots against each other (``greedy`` by default), and at a
share of the decisions takes the deciding seat's view and the true hands. For
every other seat and every card that view has not seen, a row: the features of
:mod:`remikit.bots.strong.inference` for that card and seat, the plain chance
(the seat's unknown cards over the unseen ones) and whether the card is there.
A logistic regression with the plain chance's log-odds as offset gives the
log-odds per feature, written to the variant's ``tells.json``.

It then measures, on games of another seed, how much better than the plain
chance the reading predicts the hidden hands: the mean log-likelihood per
(seat, card) row, and the hit rate of sampled worlds (the share of the cards a
sampled hand holds that the true hand holds), plain against weighted sampling.

    python bench/fit_tells.py --variant gin --games 300 --seed 1
    python bench/fit_tells.py --variant gin --measure-only

Needs numpy (``pip install 'remikit[rl]'``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from remikit.bots import make_bot
from remikit.bots.strong.determinize import determinize, knowledge, reading_weights
from remikit.bots.strong.inference import FEATURES, FILE, feature_counts, reading_for
from remikit.cards import Card
from remikit.engine import Game
from remikit.variants import find_variant
from remikit.views import PlayerView

INDEX = {name: i for i, name in enumerate(FEATURES)}


@dataclass
class Rows:
    """Binomial rows: features, offset (plain log-odds), copies, copies held."""

    x: list[list[float]] = field(default_factory=list)
    offset: list[float] = field(default_factory=list)
    n: list[int] = field(default_factory=list)
    k: list[int] = field(default_factory=list)


@dataclass
class Sample:
    view: PlayerView
    hands: list[list[Card]]


def new_game(variant: str, seed: int, players: int | None) -> Game:
    info = find_variant(variant)
    cls = info.game_class()
    mapping = {} if players is None else {"players": players}
    return cls(cls.options_type.from_mapping(mapping), rng=random.Random(seed))


def collect(
    variant: str, games: int, seed: int, bots: str, share: float, players: int | None
) -> list[Sample]:
    """Views (with the true hands) at ``share`` of the decisions of seeded games."""
    rng = random.Random(seed)
    samples: list[Sample] = []
    for g in range(games):
        game = new_game(variant, seed * 100_003 + g, players)
        seats = [make_bot(bots, seed=seed * 1_000 + g * 10 + s) for s in range(game.players)]
        while not game.over:
            if game.needs_deal:
                game.start_deal()
            seat = game.to_play
            assert seat is not None
            view = game.view(seat)
            if rng.random() < share and game.deal is not None:
                samples.append(Sample(view, [list(h) for h in game.deal.hands]))
            game.apply(seat, seats[seat].choose(view))
    return samples


def rows_of(samples: list[Sample]) -> Rows:
    rows = Rows()
    for sample in samples:
        view = sample.view
        known = knowledge(view)
        unseen = Counter(known.unseen)
        total = sum(unseen.values())
        for s in range(view.players):
            if s == view.seat:
                continue
            need = view.hand_sizes[s] - len(known.known[s])
            if need <= 0 or total == 0:
                continue
            truth = Counter(sample.hands[s]) - Counter(known.known[s])
            p = min(max(need / total, 1e-6), 1 - 1e-6)
            for card, copies in unseen.items():
                x = [0.0] * len(FEATURES)
                for name, count in feature_counts(known.tells[s], card).items():
                    x[INDEX[name]] = count
                rows.x.append(x)
                rows.offset.append(math.log(p / (1 - p)))
                rows.n.append(copies)
                rows.k.append(min(truth[card], copies))
    return rows


def fit(rows: Rows, ridge: float = 1.0) -> np.ndarray:
    """Log-odds per feature: binomial logistic regression by Newton steps."""
    x = np.array(rows.x)
    off = np.array(rows.offset)
    n = np.array(rows.n, dtype=float)
    k = np.array(rows.k, dtype=float)
    beta = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-(off + x @ beta)))
        grad = x.T @ (k - n * p) - ridge * beta
        hess = (x * (n * p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.abs(step).max() < 1e-8:
            break
    return beta


def log_likelihood(rows: Rows, beta: np.ndarray | None) -> float:
    """Mean log-likelihood per (seat, card copy) of the rows."""
    x = np.array(rows.x)
    off = np.array(rows.offset)
    n = np.array(rows.n, dtype=float)
    k = np.array(rows.k, dtype=float)
    z = off if beta is None else off + x @ beta
    p = 1 / (1 + np.exp(-z))
    ll = k * np.log(p) + (n - k) * np.log(1 - p)
    return float(ll.sum() / n.sum())


def hit_rate(samples: list[Sample], weighted: bool, worlds: int, seed: int) -> float:
    """The share of the unknown cards sampled into other hands that are truly there."""
    rng = random.Random(seed)
    hits = drawn = 0
    for sample in samples:
        view = sample.view
        known = knowledge(view)
        weights = reading_weights(view, known) if weighted else None
        for _ in range(worlds):
            world = determinize(view, rng, known=known, weights=weights)
            for s in range(view.players):
                if s == view.seat:
                    continue
                guess = Counter(world.hands[s]) - Counter(known.known[s])
                truth = Counter(sample.hands[s]) - Counter(known.known[s])
                hits += sum((guess & truth).values())
                drawn += sum(guess.values())
    return hits / drawn if drawn else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", required=True)
    parser.add_argument("--games", type=int, default=200, help="games to fit on")
    parser.add_argument("--test-games", type=int, default=60, help="games to measure on")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="greedy", help="the level of every seat")
    parser.add_argument("--players", type=int, help="seats (the variant's default if not given)")
    parser.add_argument("--share", type=float, default=0.2, help="decisions sampled")
    parser.add_argument("--worlds", type=int, default=10, help="worlds per view, hit rate")
    parser.add_argument("--measure-only", action="store_true", help="measure the shipped file")
    args = parser.parse_args(argv)
    spec = find_variant(args.variant)
    started = time.perf_counter()
    if not args.measure_only:
        train = collect(spec.name, args.games, args.seed, args.bots, args.share, args.players)
        rows = rows_of(train)
        beta = fit(rows)
        log_odds = {name: round(float(b), 4) for name, b in zip(FEATURES, beta, strict=True)}
        target = Path(str(resources.files(spec.package) / FILE))
        document = {
            "fitted_with": (
                f"python bench/fit_tells.py --variant {spec.name} --games {args.games} "
                f"--seed {args.seed} --bots {args.bots} --share {args.share}"
                + (f" --players {args.players}" if args.players else "")
            ),
            "rows": len(rows.n),
            "log_odds": log_odds,
        }
        target.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        reading_for.cache_clear()
        print(f"{spec.name}: {len(train)} views, {len(rows.n)} rows -> {target}")
        for name, value in log_odds.items():
            print(f"  {name:18} {value:+.3f}")
    reading = reading_for(spec.package)
    if reading is None:
        print(f"{spec.name} ships no {FILE}", file=sys.stderr)
        return 1
    beta = np.array([reading.log_odds[name] for name in FEATURES])
    test = collect(
        spec.name, args.test_games, args.seed + 7919, args.bots, args.share, args.players
    )
    rows = rows_of(test)
    plain, read = log_likelihood(rows, None), log_likelihood(rows, beta)
    hits_plain = hit_rate(test, False, args.worlds, args.seed)
    hits_read = hit_rate(test, True, args.worlds, args.seed)
    print(
        f"{spec.name}, {len(test)} views of {args.test_games} other games ({args.bots}): "
        f"log-likelihood per card {plain:.4f} plain, {read:.4f} read "
        f"({(read - plain) / math.log(2) * 1000:+.1f} millibits); sampled hands hold "
        f"{hits_plain:.1%} plain, {hits_read:.1%} read of their cards truly "
        f"({time.perf_counter() - started:.0f} s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
