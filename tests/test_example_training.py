"""The training example (examples/train_three_thirteen.py) learns and evaluates."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_three_thirteen.py"


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_three_thirteen", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_training_changes_the_agent() -> None:
    example = load_example()
    torch.manual_seed(0)
    env = example.make_env()
    agent = example.Agent(env.observation_space["observation"].shape[0], env.action_space.n)
    before = [p.detach().clone() for p in agent.parameters()]
    losses = example.train(env, agent, 2 * example.ROLLOUT, seed=0)
    assert len(losses) == 2
    assert all(math.isfinite(loss) for loss in losses)
    changed = [not torch.equal(a, b) for a, b in zip(before, agent.parameters(), strict=True)]
    assert all(changed)


def test_main_evaluates_before_and_after(capsys: pytest.CaptureFixture[str]) -> None:
    scores = load_example().main(["--steps", "300", "--eval-games", "8", "--seed", "3"])
    assert set(scores) == {"random", "before", "after"}
    for score in scores.values():
        assert score.games == 8
        assert 0 <= score.wins <= 8
        assert score.points >= 0
    out = capsys.readouterr().out
    assert "agent trained:" in out and "random player:" in out
