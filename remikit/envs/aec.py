"""A variant as a PettingZoo AEC environment: one agent per seat.

The agent selected is the seat the engine asks (the seat to play, or in a Rummy call
window the seat whose answer is awaited). Its observation is its own view only
(:mod:`remikit.envs.planes`) with the mask of the tokens it may choose
(:mod:`remikit.envs.tokens`); ``infos[agent]["view"]`` is the same view, typed.

Rewards (``reward``), so that more reward is always better:

- ``"deal"``: every seat's points of each finished deal, as the variant scores them, and
  at the end of the game any bonuses it adds (Gin Rummy's, G-10), negated where the
  lowest total wins (Three-Thirteen's penalty points): a seat's rewards add up to its
  total;
- ``"margin"``: the same less the mean of the other seats' (zero-sum: in Gin Rummy, where
  only the hand's winner scores, the loser's reward is minus the winner's points);
- ``"game"``: when the episode ends, +1 to the winner (the seat with the best total), -1
  to the others, 0 to all on a tie.

An episode is a game (``deals=N``: its first N deals). A token the mask does not allow
changes nothing: the agent is asked again, with ``infos[agent]["refused"]`` saying why
and ``illegal_reward`` as its reward. ``max_cycles=N``: an agent that has taken N steps
is truncated and its seat is played on by the random bot, until every agent is done.
``reset(seed=s)`` plays the game ``Game(options, rng=random.Random(s))`` plays.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel_wrapper
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from remikit.actions import Action
from remikit.bots.random_bot import RandomBot
from remikit.cli.arena_results import unique_best
from remikit.engine import Game
from remikit.envs.planes import Layout
from remikit.envs.render import render_text
from remikit.envs.tokens import ActionCodec, Tree
from remikit.errors import IllegalAction
from remikit.i18n import default_lang
from remikit.variants import VariantSpec, find_playable
from remikit.views import PlayerView

Observation = dict[str, NDArray[Any]]
Reward = Literal["deal", "margin", "game"]
REWARDS: tuple[Reward, ...] = ("deal", "margin", "game")
RENDER_MODES = ("ansi", "human")


class RemiEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """One variant's game as an AEC environment (module docstring)."""

    def __init__(
        self,
        variant: str,
        *,
        render_mode: str | None = None,
        reward: Reward = "deal",
        deals: int | None = None,
        max_cycles: int | None = None,
        illegal_reward: float = 0.0,
        lang: str | None = None,
        **options: object,
    ) -> None:
        super().__init__()
        self.variant: VariantSpec = find_playable(variant)
        self.game_type: type[Game] = self.variant.game_class()
        self.options = self.game_type.options_type.from_mapping(options)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode is one of {', '.join(RENDER_MODES)}, not {render_mode!r}"
            )
        if reward not in REWARDS:
            raise ValueError(f"reward is one of {', '.join(REWARDS)}, not {reward!r}")
        for name, value in (("deals", deals), ("max_cycles", max_cycles)):
            if value is not None and (not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} is a whole number from 1, not {value!r}")
        self.render_mode = render_mode
        self.reward_kind = reward
        self.deal_limit = deals
        self.max_cycles = max_cycles
        self.illegal_reward = float(illegal_reward)
        self.lang = lang or default_lang()
        self.codec = ActionCodec.for_variant(self.variant, self.options)
        melds = self.codec.section("layoff").size if self.codec.has("layoff") else 0
        self.layout = Layout(
            players=self.options.players, melds=melds, phase_slots=self.variant.phase_slots
        )
        self.metadata = {
            "name": self.variant.env_module or self.variant.name,
            "render_modes": list(RENDER_MODES),
            "is_parallelizable": True,
        }
        self.possible_agents = [f"player_{s}" for s in range(self.options.players)]
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (self.layout.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.codec.size,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(self.codec.size)
        self._seeder = random.Random()
        self._paid: list[int] = []
        self._finished = 0
        self.game: Game = self.game_type(self.options, rng=random.Random(0))
        self._view: PlayerView = self.game.view(0)
        self._tree: Tree = {}
        self._node: Tree = {}
        self._pending: list[int] = []

    # -- the spaces -------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    # -- an episode -------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeder = random.Random(seed)
        game_seed = seed if seed is not None else self._seeder.getrandbits(63)
        self.game = self.game_type(self.options, rng=random.Random(game_seed), auto_deal=False)
        self._finished = 0
        self._fallback = [
            RandomBot(seed=random.Random(f"{game_seed}|{s}").getrandbits(63))
            for s in range(self.options.players)
        ]
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.steps = dict.fromkeys(self.agents, 0)
        self._paid = [0] * self.options.players
        self._skip_agent_selection = None
        self.agent_selection = self.agents[0]
        self._advance()

    def seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        token = _token(action, self.codec.size)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.steps[agent] += 1
        self.infos[agent] = {"view": self._view}
        child = self._node.get(token) if token is not None else None
        if child is None:
            self.rewards[agent] = self.illegal_reward
            self.infos[agent]["refused"] = self._refusal(action, token)
        elif isinstance(child, dict):
            self._pending.append(token)  # type: ignore[arg-type]
            self._node = child
        else:
            self.play(self.seat(agent), child)
        cycles = self.max_cycles
        if cycles is not None and self.steps[agent] >= cycles and not self.terminations[agent]:
            self.truncations[agent] = True
        if self.agent_selection == agent and self.truncations[agent]:
            self._advance()  # its seat goes on without it
        self._accumulate_rewards()
        self._deads_step_first()

    def play(self, seat: int, action: Action) -> None:
        """Carry out a legal ``action`` of ``seat``, then ask the next agent."""
        self._apply(seat, action)
        self._advance()

    def _apply(self, seat: int, action: Action) -> None:
        deal = self.game.current()
        self.game.apply(seat, action)
        self._finished += deal.summary is not None
        if self.reward_kind == "game":
            return
        gained = [now - paid for now, paid in zip(self.game.totals, self._paid, strict=True)]
        if not any(gained):
            return
        self._paid = list(self.game.totals)
        sign = -1 if self.game_type.lower_is_better else 1
        values: list[float] = [sign * g for g in gained]
        if self.reward_kind == "margin":
            total, others = sum(values), len(values) - 1
            values = [v - (total - v) / others for v in values]
        for s, value in enumerate(values):
            agent = self.possible_agents[s]
            if agent in self.rewards:
                self.rewards[agent] += value

    def _advance(self) -> None:
        """Select the agent the engine asks; seats whose agent is truncated are played by
        the random bot; the episode ends with the game or the deals asked for."""
        game = self.game
        while True:
            done = self.finished_deals()
            if game.over or (self.deal_limit is not None and done >= self.deal_limit):
                self._end()
                return
            if game.needs_deal:
                game.start_deal()
            seat = game.to_play
            assert seat is not None, "a running deal asks some seat"
            agent = self.possible_agents[seat]
            if agent in self.agents and not self.truncations[agent]:
                break
            if all(self.truncations[a] or self.terminations[a] for a in self.agents):
                return  # every agent is done: the seats left stop here
            self._apply(seat, self._fallback[seat].choose(game.view(seat)))
        self.agent_selection = agent
        self._view = game.view(seat)
        self._tree = self.codec.tree(self._view.legal_actions)
        self._node = self._tree
        self._pending = []
        self.infos[agent] = {"view": self._view}

    def _end(self) -> None:
        if self.reward_kind == "game":
            best = self._best_seat()
            for s, agent in enumerate(self.possible_agents):
                if agent in self.rewards:
                    self.rewards[agent] += 0 if best is None else (1 if s == best else -1)
        for agent in self.agents:
            if not self.truncations[agent]:
                self.terminations[agent] = True
            self.infos[agent] = {"view": self.game.view(self.seat(agent))}  # with the scores

    def finished_deals(self) -> int:
        """How many deals of the episode are over."""
        return self._finished

    def _best_seat(self) -> int | None:
        if self.game.over:
            return self.game.winner
        return unique_best(self.game.totals, self.game_type.lower_is_better)

    # -- what an agent sees -----------------------------------------------------

    def observe(self, agent: str) -> Observation:
        mask = np.zeros(self.codec.size, dtype=np.int8)
        live = agent == self.agent_selection and not (
            self.terminations.get(agent, True) or self.truncations.get(agent, True)
        )
        if live:
            view, pending = self._view, self._pending
            mask[list(self._node)] = 1
        else:
            view, pending = self.game.view(self.seat(agent)), []
        return {"observation": self.layout.encode(view, self.codec, pending), "action_mask": mask}

    def view(self, agent: str) -> PlayerView:
        """The typed view of ``agent``'s seat now."""
        return self.game.view(self.seat(agent))

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        seat = self.seat(self.agent_selection)
        text = render_text(self.game.view(seat), self.variant, self._pending_text(), self.lang)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _pending_text(self) -> list[str]:
        return [self.codec.describe(t) for t in self._pending]

    def close(self) -> None:
        """Nothing to release."""

    def _refusal(self, action: object, token: int | None) -> str:
        """Why a token is refused, in the environment's language."""
        if token is None:
            return f"{action!r} is not a token from 0 to {self.codec.size - 1}"
        text = self.codec.describe(token)
        action_of = self.codec.action(token)
        if action_of is not None and not self._pending:
            try:
                self.game.verify(self.seat(self.agent_selection), action_of)
            except IllegalAction as exc:
                return f"{text}: {exc.text(self.lang)}"
        return f"{text} does not begin or continue a legal action now"


def _token(action: object, size: int) -> int | None:
    """The token an agent gave (a Python or NumPy whole number), or None for another value."""
    if isinstance(action, bool) or not isinstance(action, int | np.integer):
        return None
    token = int(action)
    return token if 0 <= token < size else None


class TurnParallelEnv(turn_based_aec_to_parallel_wrapper[str, Observation, int]):  # type: ignore[misc]
    """The parallel API of a turn-based game: every agent gives an action each step and
    the one asked is played. ``max_cycles``: truncate every agent after that many steps."""

    def __init__(self, aec: RemiEnv, max_cycles: int | None) -> None:
        super().__init__(aec)
        self.max_cycles = max_cycles
        self.cycles = 0

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        self.cycles = 0
        return super().reset(seed=seed, options=options)  # type: ignore[no-any-return]

    def step(self, actions: dict[str, int | None]) -> Any:
        observations, rewards, terminations, truncations, infos = super().step(actions)
        self.cycles += 1
        if self.max_cycles is not None and self.cycles >= self.max_cycles:
            truncations = {a: not terminations.get(a, False) for a in truncations}
            self.agents: list[str] = []
        return observations, rewards, terminations, truncations, infos


Constructor = Callable[..., Any]


def constructors(variant: str) -> tuple[Constructor, Constructor, Constructor]:
    """``env``, ``raw_env`` and ``parallel_env`` of a variant, as PettingZoo modules have."""

    def raw_env(**kwargs: Any) -> RemiEnv:
        return RemiEnv(variant, **kwargs)

    def env(**kwargs: Any) -> OrderEnforcingWrapper[str, Observation, int]:
        return OrderEnforcingWrapper(raw_env(**kwargs))

    def parallel_env(**kwargs: Any) -> TurnParallelEnv:
        max_cycles = kwargs.pop("max_cycles", None)
        return TurnParallelEnv(raw_env(**kwargs), max_cycles)

    name = find_playable(variant).title("en")
    for f, what in ((raw_env, "unwrapped"), (env, "AEC"), (parallel_env, "parallel")):
        f.__doc__ = f"{name} as a PettingZoo {what} environment (remikit.envs.aec.RemiEnv)."
    return env, raw_env, parallel_env
