"""Fit the Gin Rummy knock model (remikit.variants.gin.race) and measure it.

Plays seeded games of bots against each other (``greedy`` by default) and, at
every draw, reads the drawing seat's public play before it
(:func:`remikit.variants.gin.race.signs`) and whether it knocks in that turn.
A logistic regression of that gives the coefficients to put in ``race.MODEL``;
the log-likelihood per turn on games of another seed is printed beside a model
that knows only the draw number.

    python bench/fit_knock.py --games 400 --seed 1

Needs numpy (``pip install 'remikit[rl]'``).
"""

from __future__ import annotations

import argparse
import random
import sys

import numpy as np

from remikit.actions import Draw
from remikit.bots import make_bot
from remikit.bots.runner import play_game
from remikit.variants import find_variant
from remikit.variants.gin import race
from remikit.variants.gin.actions import Knock


def turns(games: int, seed: int, bots: str) -> tuple[np.ndarray, np.ndarray]:
    """Per draw of every hand: the model's features, and 1 if the seat knocked then."""
    cls = find_variant("gin").game_class()
    rows: list[tuple[float, ...]] = []
    labels: list[int] = []
    for g in range(games):
        game = cls(cls.options_type.from_mapping({}), rng=random.Random(seed * 100_003 + g))
        play_game(game, [make_bot(bots, seed=seed * 1_000 + g * 10 + s) for s in range(2)])
        for deal in game.deals:
            log = [(p.seat, p.action) for p in deal.log]
            for i, (seat, action) in enumerate(log):
                if not isinstance(action, Draw):
                    continue
                rows.append(race.features(*race.signs(log[:i], seat)))
                knocked = 0
                for who, later in log[i + 1 :]:
                    if isinstance(later, Draw):
                        break
                    knocked |= who == seat and isinstance(later, Knock)
                labels.append(knocked)
    return np.array(rows), np.array(labels, dtype=float)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 0.1) -> np.ndarray:
    x = np.hstack([np.ones((len(x), 1)), x])
    beta = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ beta)))
        grad = x.T @ (y - p) - ridge * beta
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.abs(step).max() < 1e-9:
            break
    return beta


def mean_log_likelihood(x: np.ndarray, y: np.ndarray, beta: np.ndarray) -> float:
    p = 1 / (1 + np.exp(-(np.hstack([np.ones((len(x), 1)), x]) @ beta)))
    return float(np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--test-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="greedy")
    args = parser.parse_args(argv)
    x, y = turns(args.games, args.seed, args.bots)
    beta = fit(x, y)
    print(f"{len(y)} turns, {int(y.sum())} knocks")
    print("MODEL = (" + ", ".join(f"{b:.4f}" for b in beta) + ")")
    tx, ty = turns(args.test_games, args.seed + 7919, args.bots)
    draws_only = fit(x[:, :2], y)
    print(
        f"log-likelihood per turn on {len(ty)} other turns: "
        f"{mean_log_likelihood(tx, ty, beta):.4f} with the signs, "
        f"{mean_log_likelihood(tx[:, :2], ty, draws_only):.4f} with the draw number alone, "
        f"{mean_log_likelihood(tx, ty, np.array(race.MODEL)):.4f} with race.MODEL"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
