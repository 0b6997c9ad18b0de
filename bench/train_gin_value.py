"""Train the Gin Rummy leaf value (remikit.variants.gin.value) and measure it.

Plays seeded hands of bots against each other (``greedy`` by default) through
remikit's PettingZoo environment (``remikit.envs``: one agent per seat, each
seat's view only). After every discard that is not a knock it records the
discarding seat's features (:func:`remikit.variants.gin.value.features`) and, when
the race ends, what it came to in the outlook's own terms
(:mod:`remikit.variants.gin.tactics`): for the seat that knocked first, ``WIN``
less its deadwood (and the gin bonus on gin); for the other, minus the deadwood
it held then; 0 for a hand nobody knocked. A network of one hidden layer is
fitted to that (numpy, Adam, squared error) and written to
``remikit/variants/gin/value.json`` with how it was made. The mean squared error
on hands of another seed is printed beside the outlook's old rule (a running hand
pays its deadwood) and a linear fit.

    python bench/train_gin_value.py --hands 20000 --seed 1 --out remikit/variants/gin/value.json

Needs numpy and PettingZoo (``pip install 'remikit[rl]'``).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

from remikit.actions import Discard
from remikit.bots import make_bot
from remikit.bots.strong.determinize import knowledge
from remikit.envs import gin_v0
from remikit.variants.gin import race, value
from remikit.variants.gin.actions import Knock
from remikit.variants.gin.rules import min_deadwood
from remikit.variants.gin.scoring import SOLVER
from remikit.variants.gin.tactics import GIN, WIN
from remikit.views import PlayerView

OUT = Path(__file__).resolve().parent.parent / "remikit" / "variants" / "gin" / value.FILE


def record(view: PlayerView, card: object) -> list[float]:
    """The features of the discarding seat's hand of ten once ``card`` is thrown."""
    assert view.seat is not None
    hand = list(view.hand)
    hand.remove(card)  # type: ignore[arg-type]
    best = SOLVER.solve(hand)
    assert best is not None
    draws, last, previous, took = race.signs([(p.seat, p.action) for p in view.log], 1 - view.seat)
    return value.features(best, set(knowledge(view).unseen), draws, last, previous, took)


def hands(count: int, seed: int, bots: str) -> tuple[np.ndarray, np.ndarray]:
    """Features and race outcomes of every recorded position of ``count`` seeded hands."""
    env = gin_v0.raw_env(reward="margin", deals=1)
    rows: list[list[float]] = []
    points: list[float] = []
    for h in range(count):
        env.reset(seed=seed * 1_000_003 + h)
        players = [make_bot(bots, seed=seed * 7_919 + h * 2 + s) for s in range(2)]
        mine: list[int] = []  # the seat of each row of this hand
        race_end = [0.0, 0.0]
        for agent in env.agent_iter():
            _, _, done, cut, info = env.last()
            if done or cut:
                env.step(None)
                continue
            view = info["view"]
            seat = env.seat(agent)
            action = players[seat].choose(view)
            if isinstance(action, Discard):
                mine.append(seat)
                rows.append(record(view, action.card))
            env.play(seat, action)
            if isinstance(action, Knock):
                held = [min_deadwood(h) for h in env.game.current().hands]
                race_end[seat] = WIN - held[seat] + (GIN if held[seat] == 0 else 0.0)
                race_end[1 - seat] = -float(held[1 - seat])
        points.extend(race_end[seat] for seat in mine)
    return np.array(rows), np.array(points)


def fit(
    x: np.ndarray, y: np.ndarray, hidden: int, epochs: int, seed: int
) -> dict[str, list[float] | list[list[float]] | float]:
    """One hidden layer of ``hidden`` rectified units, Adam on the squared error."""
    rng = np.random.default_rng(seed)
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    z = (x - mean) / scale
    w1 = rng.normal(0, 1 / np.sqrt(z.shape[1]), (hidden, z.shape[1]))
    b1 = np.zeros(hidden)
    w2 = rng.normal(0, 1 / np.sqrt(hidden), hidden)
    b2 = np.array(y.mean())
    params = [w1, b1, w2, b2]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    step = 0
    for _ in range(epochs):
        order = rng.permutation(len(z))
        for start in range(0, len(z), 256):
            idx = order[start : start + 256]
            xb, yb = z[idx], y[idx]
            pre = xb @ w1.T + b1
            h = np.maximum(pre, 0)
            err = h @ w2 + b2 - yb
            g2 = h.T @ err / len(idx)
            gb2 = err.mean()
            back = np.outer(err, w2) * (pre > 0)
            grads = [back.T @ xb / len(idx), back.mean(axis=0), g2, np.array(gb2)]
            step += 1
            for p, g, (m, v) in zip(params, grads, moments, strict=True):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                p -= 1e-3 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return {
        "mean": mean.tolist(),
        "scale": scale.tolist(),
        "w1": w1.tolist(),
        "b1": b1.tolist(),
        "w2": w2.tolist(),
        "b2": float(b2),
    }


def mse(predicted: np.ndarray, y: np.ndarray) -> float:
    return float(np.mean((predicted - y) ** 2))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--test-hands", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--hidden", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    x, y = hands(args.hands, args.seed, args.bots)
    tx, ty = hands(args.test_hands, args.seed + 1, args.bots)
    played = time.perf_counter() - started
    weights = fit(x, y, args.hidden, args.epochs, args.seed)
    net = value.Value({"features": list(value.FEATURES), **weights})
    trained = time.perf_counter() - started - played
    ones = np.hstack([np.ones((len(x), 1)), x])
    beta = np.linalg.lstsq(ones, y, rcond=None)[0]
    print(f"{len(y)} positions from {args.hands} hands ({played:.0f} s)")
    print(f"trained in {trained:.0f} s")
    print(f"test positions ({args.test_hands} hands of seed {args.seed + 1}): {len(ty)}")
    print(f"  mean outcome {ty.mean():+.2f}, variance {ty.var():.1f}")
    print(f"  deadwood paid, MSE {mse(-10 * tx[:, 0], ty):.1f}")
    print(f"  linear fit,    MSE {mse(np.hstack([np.ones((len(tx), 1)), tx]) @ beta, ty):.1f}")
    print(f"  network,       MSE {mse(np.array([net(row) for row in tx]), ty):.1f}")
    made = {
        "command": "python bench/train_gin_value.py " + " ".join(argv or sys.argv[1:]),
        "hands": args.hands,
        "positions": len(y),
        "bots": args.bots,
        "seed": args.seed,
        "seconds": round(played + trained),
        "machine": f"{platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, one process",
    }
    args.out.write_text(
        json.dumps({"made": made, "features": list(value.FEATURES), **weights}, indent=1) + "\n",
        encoding="utf-8",
    )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
