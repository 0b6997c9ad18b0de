"""remikit's PettingZoo environments beside PettingZoo's and RLCard's Gin Rummy, in one run.

Every engine plays the same policy, a uniformly random legal action each turn
(from the observation's action mask; RLCard: from its state's legal actions),
seeded, through its environment's public interface:

1. each remikit variant's AEC environment (``remikit.envs.ENVIRONMENTS``' ``env``,
   default table options), episodes of one deal (``deals=1``), and full games
   (``deals=None``) in a second table;
2. PettingZoo 1.26's ``classic.gin_rummy_v4`` (an episode is one hand), which
   PettingZoo 1.27 no longer has: it runs in a separate venv, made once under
   ``build/pz126/`` with ``pettingzoo==1.26.0`` and this venv's versions of
   RLCard, NumPy and Gymnasium; a child process there (this script with
   ``--pz126``) answers each line it reads with a run's figures as JSON;
3. RLCard's ``gin-rummy`` environment (``rlcard.make``, ``reset``, ``step``),
   in this process.

An AEC episode is ``env.last()`` and ``env.step()`` for each agent PettingZoo
selects, the terminated agents' final ``None`` steps included; *actions* count
the decisions only (remikit's are tokens: a Rummy 500 meld takes several), the
figure compared across engines. The seed is given to
the first ``reset`` of a run only (PettingZoo 1.26 remakes its RLCard
environment on a seeded reset). Times are the CPU time of the thread; every
figure is the median of ``--repeats`` runs, the child's runs taking turns with
this process's so that the machine's load weighs on all alike.

Needs the ``rl`` and ``openspiel`` extras (the first run also pip). Run:
``python bench/bench_envs.py [--quick] [--episodes N] [--games N] [--repeats N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from importlib import import_module
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np
from report import combine, ratio, table

Results = dict[str, Any]


VENV = Path(__file__).resolve().parent.parent / "build" / "pz126"
PZ126 = "pettingzoo==1.26.0"


# -- the episodes -------------------------------------------------------------------


def aec_episodes(env: Any, episodes: int, seed: int) -> Results:
    """``episodes`` episodes of the AEC environment ``env``, a uniformly random legal
    action each turn; episodes, actions and steps per second, and actions per episode."""
    rng = np.random.default_rng(seed)
    actions = steps = 0
    start = time.thread_time()
    for episode in range(episodes):
        env.reset(seed=seed if episode == 0 else None)
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.integers(len(legal))])
                actions += 1
            env.step(action)
            steps += 1
    took = time.thread_time() - start
    seats = len(env.possible_agents)
    return rates(episodes, actions, took, seats=seats, steps=steps)


def rlcard_episodes(episodes: int, seed: int) -> Results:
    """``episodes`` hands of RLCard's ``gin-rummy`` environment, as :func:`aec_episodes`."""
    import rlcard

    rng = np.random.default_rng(seed)
    env = rlcard.make("gin-rummy", config={"seed": seed})
    actions = 0
    start = time.thread_time()
    for _ in range(episodes):
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.integers(len(legal))])
            actions += 1
    return rates(episodes, actions, time.thread_time() - start, seats=env.num_players)


def rates(episodes: int, actions: int, took: float, **counts: int) -> Results:
    """Per second and per episode figures; ``counts``: ``seats``, and for an AEC
    environment ``steps``."""
    out: Results = {
        "seats": counts["seats"],
        "episodes_s": episodes / took,
        "actions_s": actions / took,
        "actions_per_episode": actions / episodes,
    }
    if "steps" in counts:
        out["steps_s"] = counts["steps"] / took
    return out


def remikit_env(variant: str, deals: int | None) -> Any:
    from remikit.envs import ENVIRONMENTS

    return import_module(ENVIRONMENTS[variant]).env(deals=deals)


def pz126_env() -> Any:
    from pettingzoo.classic import gin_rummy_v4

    return gin_rummy_v4.env()


# -- the runs -----------------------------------------------------------------------


def measure(args: argparse.Namespace) -> Results:
    """One run in this process: every remikit variant, one deal and full games an
    episode, and RLCard's environment."""
    from remikit.envs import ENVIRONMENTS

    return {
        "deal": {
            v: aec_episodes(remikit_env(v, 1), args.episodes, args.seed) for v in ENVIRONMENTS
        },
        "game": {
            v: aec_episodes(remikit_env(v, None), args.games, args.seed) for v in ENVIRONMENTS
        },
        "RLCard": rlcard_episodes(args.episodes, args.seed),
    }


def child_python() -> Path:
    """The Python of the PettingZoo 1.26 venv, made (with pip) when missing or when
    this venv's versions have changed since."""
    requirements = [PZ126, "pygame"] + [
        f"{name}=={version(name)}" for name in ("rlcard", "numpy", "gymnasium")
    ]
    python, marker = VENV / "bin" / "python", VENV / "requirements.json"
    if marker.exists() and json.loads(marker.read_text()) == requirements:
        return python
    print(f"making {VENV} ({' '.join(requirements)})…", file=sys.stderr, flush=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True)
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, *requirements], check=True)
    marker.write_text(json.dumps(requirements))
    return python


def measure_runs(args: argparse.Namespace) -> tuple[Results, Results]:
    """``--repeats`` runs in this process and as many of PettingZoo 1.26 in the child,
    taking turns; each combined."""
    argv = [str(child_python()), __file__, *sys.argv[1:], "--pz126"]
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    own, pz = [], []
    with subprocess.Popen(
        argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as child:
        assert child.stdin is not None and child.stdout is not None
        for run in range(args.repeats):
            print(f"run {run + 1} of {args.repeats}…", file=sys.stderr, flush=True)
            own.append(measure(args))
            child.stdin.write("run\n")
            child.stdin.flush()
            line = child.stdout.readline()
            if not line:
                raise RuntimeError("the PettingZoo 1.26 run stopped")
            pz.append(json.loads(line))
        child.stdin.close()
    if child.returncode:
        raise RuntimeError(f"the PettingZoo 1.26 run failed ({child.returncode})")
    return combine(own), combine(pz)


# -- the report -----------------------------------------------------------------------


def row(name: str, f: Results, baselines: Sequence[Results]) -> list[str]:
    steps = f"{f['steps_s']:,.0f}" if "steps_s" in f else ""
    return [
        name,
        str(f["seats"]),
        f"{f['episodes_s']:,.1f}",
        f"{f['actions_s']:,.0f}",
        steps,
        f"{f['actions_per_episode']:.1f}",
        *(ratio(f["actions_s"], b["actions_s"]) for b in baselines),
    ]


def report(args: argparse.Namespace, own: Results, pz: Results) -> None:
    import remikit

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"remikit {remikit.__version__} environments beside PettingZoo {pz['version']} and "
        f"RLCard {version('rlcard')} (seed {args.seed})"
    )
    print(
        f"medians of {args.repeats} runs; {args.episodes} episodes of one deal an engine, "
        f"{args.games} full games a variant; CPU time of the thread; load average {load} "
        "at the end"
    )
    baselines = (pz["gin"], own["RLCard"])
    rows = [row(f"remikit {v}", f, baselines) for v, f in own["deal"].items()]
    rows.append(row(f"PettingZoo {pz['version']} gin", pz["gin"], baselines))
    rows.append(row(f"RLCard {version('rlcard')} gin", own["RLCard"], baselines))
    table(
        "1. one deal an episode, a uniformly random legal action each turn",
        "environment:24 seats:5 episodes/s:10 actions/s:9 steps/s:8 actions/ep:10 /PZ:6 /RL:6",
        rows,
        "(actions: decisions, a token each (a Rummy 500 meld takes several); steps: AEC",
        " steps, the final None steps included; /PZ, /RL: actions/s over PettingZoo's",
        " gin_rummy_v4's, over RLCard's gin-rummy environment's, which both play RLCard's",
        " rules: the first player is dealt 11 cards)",
    )
    table(
        "2. remikit, a full game an episode (deals=None, default options)",
        "variant:16 seats:5 games/s:8 actions/s:9 steps/s:8 actions/game:12",
        [row(variant, f, baselines)[:6] for variant, f in own["game"].items()],
    )


FULL = {"episodes": 300, "games": 5, "repeats": 3}
QUICK = {"episodes": 20, "games": 1, "repeats": 1}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small counts: a smoke run")
    for name in FULL:
        parser.add_argument(f"--{name}", type=int, help=f"default {FULL[name]} ({QUICK[name]})")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--pz126", action="store_true", help="a run of PettingZoo 1.26 as JSON for each line read"
    )
    args = parser.parse_args()
    for name, value in (QUICK if args.quick else FULL).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.pz126:
        for _ in sys.stdin:
            figures = aec_episodes(pz126_env(), args.episodes, args.seed)
            print(json.dumps({"version": version("pettingzoo"), "gin": figures}), flush=True)
        return
    own, pz = measure_runs(args)
    report(args, own, pz)


if __name__ == "__main__":
    main()
