"""Train a PPO agent for a Three-Thirteen deal against remikit's random bot.

One file, PyTorch on the CPU: a small actor-critic network whose policy gives
the illegal actions no chance (the observation's action mask), trained with
PPO on ``remikit.envs.gym`` in seat 0 of two, an episode being one deal (the
first round: three cards, threes wild) and the reward minus the deal's points
(fewer points are better). Before and after training the agent plays
``--eval-games`` seeded deals against the random bot, taking its likeliest
legal action, and the script prints its wins (the fewest points of the table,
alone) and mean points beside a uniformly random player's on the same seeds.

Run: ``python examples/train_three_thirteen.py [--steps N] [--seed S]
[--eval-games N] [--threads N]``. PyTorch gets one thread by default, leaving a
core free; ``--threads 2`` gives it both cores of a two-core machine, though
with a network this small most of the time is the environment's, in this
process: two runs with different ``--seed`` use two cores better.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from torch import nn

from remikit.envs import gym as remigym

VARIANT = "three-thirteen"
TABLE: dict[str, Any] = {"opponents": "random", "seat": 0, "deals": 1, "players": 2}
REWARD_SCALE = 0.1  # a deal's points are tens: rewards of about one
ROLLOUT = 1024  # steps of play between updates
EPOCHS = 4
MINIBATCH = 256
GAMMA, LAMBDA = 0.99, 0.95
CLIP = 0.2
VALUE_COEF, ENTROPY_COEF = 0.5, 0.01
LEARNING_RATE = 1e-3

Observation = dict[str, np.ndarray]
Policy = Callable[[Observation], int]


def make_env() -> Any:
    return remigym.make(VARIANT, **TABLE)


class Agent(nn.Module):
    """An actor-critic MLP: the policy's logits over every action, and a value."""

    def __init__(self, observations: int, actions: int, hidden: int = 128) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(observations, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh()
        )
        self.policy = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.policy.weight, 0.01)  # near-uniform at first
        nn.init.zeros_(self.policy.bias)

    def forward(
        self, obs: torch.Tensor, mask: torch.Tensor
    ) -> tuple[torch.distributions.Categorical, torch.Tensor]:
        body = self.body(obs.sign() * obs.abs().log1p())  # counts and totals, squashed
        logits = self.policy(body).masked_fill(~mask, -1e9)
        return torch.distributions.Categorical(logits=logits), self.value(body).squeeze(-1)

    def greedy(self, observation: Observation) -> int:
        """The likeliest legal action."""
        with torch.no_grad():
            dist, _ = self(*tensors(observation))
        return int(dist.probs.argmax())


def tensors(observation: Observation) -> tuple[torch.Tensor, torch.Tensor]:
    obs = torch.as_tensor(observation["observation"], dtype=torch.float32)
    return obs, torch.as_tensor(observation["action_mask"], dtype=torch.bool)


@dataclass
class Rollout:
    """``ROLLOUT`` steps of play: what PPO learns from."""

    obs: torch.Tensor
    masks: torch.Tensor
    actions: torch.Tensor
    logprobs: torch.Tensor
    advantages: torch.Tensor
    returns: torch.Tensor


class Trainer:
    """PPO on one environment, the episodes running on from rollout to rollout."""

    def __init__(self, env: Any, agent: Agent, seed: int) -> None:
        self.env, self.agent = env, agent
        self.optimizer = torch.optim.Adam(agent.parameters(), lr=LEARNING_RATE, eps=1e-5)
        self.observation, _ = env.reset(seed=seed)
        self.episode_return = 0.0
        self.returns: list[float] = []  # each finished episode's points, negated

    def collect(self) -> Rollout:
        steps: list[tuple[torch.Tensor, torch.Tensor, int, float, float, bool]] = []
        values = []
        for _ in range(ROLLOUT):
            obs, mask = tensors(self.observation)
            with torch.no_grad():
                dist, value = self.agent(obs, mask)
                action = dist.sample()
            self.observation, reward, terminated, truncated, _ = self.env.step(int(action))
            self.episode_return += float(reward)
            done = bool(terminated or truncated)
            steps.append(
                (obs, mask, int(action), float(dist.log_prob(action)), reward * REWARD_SCALE, done)
            )
            values.append(float(value))
            if done:
                self.returns.append(self.episode_return)
                self.episode_return = 0.0
                self.observation, _ = self.env.reset()
        with torch.no_grad():
            _, last = self.agent(*tensors(self.observation))
        advantages = gae([s[4] for s in steps], values, [s[5] for s in steps], float(last))
        return Rollout(
            obs=torch.stack([s[0] for s in steps]),
            masks=torch.stack([s[1] for s in steps]),
            actions=torch.tensor([s[2] for s in steps]),
            logprobs=torch.tensor([s[3] for s in steps]),
            advantages=advantages,
            returns=advantages + torch.tensor(values),
        )

    def update(self, rollout: Rollout) -> float:
        """``EPOCHS`` passes of clipped PPO over the rollout; the mean loss."""
        losses = []
        for _ in range(EPOCHS):
            for batch in torch.split(torch.randperm(ROLLOUT), MINIBATCH):
                dist, value = self.agent(rollout.obs[batch], rollout.masks[batch])
                advantage = rollout.advantages[batch]
                advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
                ratio = (dist.log_prob(rollout.actions[batch]) - rollout.logprobs[batch]).exp()
                clipped = ratio.clamp(1 - CLIP, 1 + CLIP)
                policy_loss = -torch.min(ratio * advantage, clipped * advantage).mean()
                value_loss = (value - rollout.returns[batch]).pow(2).mean()
                loss = policy_loss + VALUE_COEF * value_loss - ENTROPY_COEF * dist.entropy().mean()
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.agent.parameters(), 0.5)
                self.optimizer.step()
                losses.append(float(loss.detach()))
        return sum(losses) / len(losses)


def gae(rewards: list[float], values: list[float], dones: list[bool], last: float) -> torch.Tensor:
    """Generalised advantage estimates, an episode's end cutting the sums."""
    advantages = [0.0] * len(rewards)
    running = 0.0
    for t in reversed(range(len(rewards))):
        following = 0.0 if dones[t] else (values[t + 1] if t + 1 < len(values) else last)
        delta = rewards[t] + GAMMA * following - values[t]
        running = delta + (0.0 if dones[t] else GAMMA * LAMBDA * running)
        advantages[t] = running
    return torch.tensor(advantages)


@dataclass(frozen=True)
class Score:
    """A player's seeded evaluation deals against the random bot."""

    games: int
    wins: int
    points: float  # mean points a deal (fewer is better)

    def __str__(self) -> str:
        return f"wins {self.wins / self.games:6.1%}, mean points {self.points:5.2f}"


def evaluate(env: Any, policy: Policy, games: int, seed: int) -> Score:
    """``games`` deals in seat 0, the i-th from seed ``seed + i``; a win is the fewest
    points of the table, alone."""
    wins, points = 0, 0
    for game in range(games):
        observation, _ = env.reset(seed=seed + game)
        done = False
        while not done:
            observation, _, terminated, truncated, info = env.step(policy(observation))
            done = terminated or truncated
        deal = info["view"].finished_deals[-1].points  # the last view shows the deal scored
        mine, others = deal[TABLE["seat"]], [p for s, p in enumerate(deal) if s != TABLE["seat"]]
        wins += mine < min(others)
        points += mine
    return Score(games, wins, points / games)


def random_policy(seed: int) -> Policy:
    rng = np.random.default_rng(seed)

    def choose(observation: Observation) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        return int(legal[rng.integers(len(legal))])

    return choose


def train(env: Any, agent: Agent, steps: int, seed: int) -> list[float]:
    """PPO for ``steps`` steps of play (whole rollouts, at least one); each update's mean
    loss."""
    trainer = Trainer(env, agent, seed)
    losses = []
    for update in range(max(1, steps // ROLLOUT)):
        losses.append(trainer.update(trainer.collect()))
        recent = trainer.returns[-200:]
        if recent and (update + 1) % 10 == 0:
            print(
                f"  step {(update + 1) * ROLLOUT:>7,}: loss {losses[-1]:7.4f}, "
                f"mean points of the last {len(recent)} deals {-np.mean(recent):5.2f}",
                flush=True,
            )
    return losses


def main(argv: Sequence[str] | None = None) -> dict[str, Score]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--steps", type=int, default=50_000, help="steps of training play")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=500, help="deals before and after")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch's threads")
    args = parser.parse_args(argv)
    if args.eval_games < 1:
        parser.error("--eval-games is at least 1")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    env = make_env()
    agent = Agent(env.observation_space["observation"].shape[0], int(env.action_space.n))
    eval_seed = 1_000_000 + args.seed  # evaluation deals apart from the training ones
    scores = {
        "random": evaluate(env, random_policy(args.seed), args.eval_games, eval_seed),
        "before": evaluate(env, agent.greedy, args.eval_games, eval_seed),
    }
    print(f"random player:      {scores['random']}")
    print(f"agent untrained:    {scores['before']}")
    start = time.perf_counter()
    steps = len(train(env, agent, args.steps, args.seed)) * ROLLOUT
    took = time.perf_counter() - start
    scores["after"] = evaluate(env, agent.greedy, args.eval_games, eval_seed)
    print(f"agent trained:      {scores['after']}  ({steps:,} steps in {took:.0f} s)")
    return scores


if __name__ == "__main__":
    main()
