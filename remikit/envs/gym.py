"""One seat against remikit's bots as a Gymnasium environment.

>>> env = make("three-thirteen", opponents="random", players=2, deals=1)
>>> observation, info = env.reset(seed=7)
>>> bool(observation["action_mask"].any()), sorted(info)
(True, ['action_mask', 'view'])

The agent's observations, action tokens and rewards are those of the PettingZoo
environment (:mod:`remikit.envs.aec`); the other seats are played by bots of the levels
given (``random``, ``greedy``, ``strong@0.1``…), each seeing only its own seat. A step's
reward is everything the agent's seat earned since its last step; the episode ends with
the game (or with the deals asked for). Importing this module registers each variant's id
(:attr:`~remikit.variants.spec.VariantSpec.gym_id`) with :func:`gymnasium.make`:

>>> IDS["gin"], "remikit/Gin-v0" in gymnasium.registry
('remikit/Gin-v0', True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium

from remikit.bots import Bot, check_bot, make_bot
from remikit.envs.aec import Observation, RemiEnv, Reward
from remikit.variants import find_playable, playable

IDS = {spec.name: spec.gym_id for spec in playable() if spec.gym_id}
"""The Gymnasium id of each variant, by the variant's name."""


class RemiGymEnv(gymnasium.Env[Observation, int]):
    """``seat`` (None: a seat drawn at each reset) played by the agent, the others by
    ``opponents``: one bot level for all, or one per other seat in seat order."""

    def __init__(
        self,
        variant: str,
        *,
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        render_mode: str | None = None,
        reward: Reward = "deal",
        deals: int | None = None,
        illegal_reward: float = 0.0,
        lang: str | None = None,
        **options: Any,
    ) -> None:
        self.aec = RemiEnv(
            variant,
            render_mode=render_mode,
            reward=reward,
            deals=deals,
            illegal_reward=illegal_reward,
            lang=lang,
            **options,
        )
        players = self.aec.options.players
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ValueError(f"{players - 1} opponents are needed, not {len(names)}")
        for name in names:
            check_bot(name, self.aec.variant.name)
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"there is no seat {seat}: the seats are 0 to {players - 1}")
        self.metadata = {"render_modes": ["ansi", "human"]}
        self.opponents = names
        self.fixed_seat = seat
        self.seat = seat or 0
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space("player_0")
        self.action_space = self.aec.action_space("player_0")
        self.bots: dict[int, Bot] = {}

    @property
    def agent(self) -> str:
        return self.aec.possible_agents[self.seat]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**63)) if seed is None else seed
        players = self.aec.options.players
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(players))
        others = [s for s in range(players) if s != self.seat]
        self.bots = {
            s: make_bot(name, seed=random.Random(f"{game_seed}|bot|{s}").getrandbits(63))
            for s, name in zip(others, self.opponents, strict=True)
        }
        self.aec.reset(seed=game_seed)
        self._play_others()
        observation, _, _, _, info = self._last()
        return observation, info

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self.aec.agent_selection != self.agent or self.aec.terminations[self.agent]:
            raise RuntimeError("the episode is over: reset the environment")
        self.aec.step(action)
        self._play_others()
        return self._last()

    def _play_others(self) -> None:
        """Let the bots play, and the other agents take their last steps, until the
        agent's seat is asked or the episode is over."""
        aec = self.aec
        while aec.agent_selection != self.agent:
            other = aec.agent_selection
            if aec.terminations[other] or aec.truncations[other]:
                aec.step(None)
                continue
            seat = aec.seat(other)
            for token in aec.codec.encode(self.bots[seat].choose(aec.infos[other]["view"])):
                aec.step(token)

    def _last(self) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        observation, reward, terminated, truncated, info = self.aec.last()
        info = {**info, "action_mask": observation["action_mask"]}
        return observation, float(reward), terminated, truncated, info

    def render(self) -> str | None:
        return self.aec.render()


def make(variant: str, **kwargs: Any) -> gymnasium.Env[Observation, int]:
    """The Gymnasium environment of ``variant`` (any of its names), keywords as
    :class:`RemiGymEnv` takes them, table options included."""
    name = find_playable(variant).name
    if name not in IDS:
        raise ValueError(f"{name} has no Gymnasium environment")
    return gymnasium.make(IDS[name], **kwargs)


for _variant, _id in IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(_id, entry_point=f"{__name__}:RemiGymEnv", kwargs={"variant": _variant})
