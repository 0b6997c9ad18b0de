"""remikit.envs: PettingZoo's and Gymnasium's own checks for every variant; random play
through the environment is random play through the engine; the action tokens reach
every legal action and only legal ones; observations hold no hidden card."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from collections import Counter
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test

import remikit.envs
from remikit.actions import Action, LayOff, MeldCards
from remikit.deal import DealPhase, Phase
from remikit.engine import OptionError
from remikit.envs import ENVIRONMENTS, gin_v0, remi13d_v0, rummy500_v0, three_thirteen_v0
from remikit.envs.aec import RemiEnv, Reward
from remikit.envs.gym import IDS, RemiGymEnv, make
from remikit.envs.planes import Layout
from remikit.variants import find_playable, playable
from remikit.variants.gin.actions import Knock
from remikit.variants.remi13d.actions import Close
from tests.hidden import blind_observation

MODULES: dict[str, ModuleType] = {
    "remi13d": remi13d_v0,
    "three-thirteen": three_thirteen_v0,
    "rummy500": rummy500_v0,
    "gin": gin_v0,
}
TABLES: list[tuple[str, dict[str, Any]]] = [
    ("remi13d", {}),
    ("three-thirteen", {}),
    ("three-thirteen", {"players": 2}),
    ("rummy500", {}),
    ("rummy500", {"players": 5, "target": 150}),
    ("gin", {}),
    ("gin", {"undercut_bonus": 10, "target": 50}),
]
GAMES = {"remi13d": 6, "three-thirteen": 3, "rummy500": 4, "gin": 8}
"""Games per table in the random-play tests."""
DEALS = {"remi13d": None, "three-thirteen": 3, "rummy500": None, "gin": 4}
"""Their first deals only, where random play makes long deals (None: whole games)."""

FINISHING = (Knock, Close, MeldCards, LayOff)


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the checks' advice on spaces
        yield


# -- PettingZoo's and Gymnasium's own checks --------------------------------------------


@pytest.mark.parametrize("name", MODULES)
def test_pettingzoo_api_test(name: str) -> None:
    api_test(MODULES[name].env(), num_cycles=1000)


@pytest.mark.parametrize("name", MODULES)
def test_pettingzoo_seed_test(name: str) -> None:
    seed_test(MODULES[name].env, num_cycles=300)


@pytest.mark.parametrize("name", MODULES)
def test_pettingzoo_max_cycles_test(name: str) -> None:
    max_cycles_test(MODULES[name])


@pytest.mark.parametrize("name", MODULES)
def test_pettingzoo_parallel_api_test(name: str) -> None:
    parallel_api_test(MODULES[name].parallel_env(), num_cycles=300)


@pytest.mark.parametrize("name", MODULES)
def test_gymnasium_check_env(name: str) -> None:
    check_env(make(name, opponents="greedy").unwrapped, skip_render_check=False)


# -- random play: the environment against the engine ------------------------------------


def chooser_pick(rng: random.Random, actions: tuple[Action, ...]) -> Action:
    """A random legal action, half the time one that ends or shapes the deal (a knock, a
    close, a meld or a lay-off) where there is one, so that every kind of action is seen."""
    finishing = [a for a in actions if isinstance(a, FINISHING)]
    return rng.choice(finishing if finishing and rng.random() < 0.5 else actions)


@pytest.mark.parametrize(("name", "options"), TABLES)
def test_random_play_through_the_environment_is_play_through_the_engine(
    name: str, options: dict[str, Any]
) -> None:
    """Same seed, same choices: the same game, the same views, the deal points as rewards;
    every token of the action chosen is in the mask when given; no observation changes
    when hidden cards do."""
    game_type = find_playable(name).game_class()
    kinds: Counter[str] = Counter()
    deals = DEALS[name]
    for seed in range(GAMES[name]):
        game = game_type(game_type.options_type.from_mapping(options), rng=random.Random(seed))
        env = RemiEnv(name, deals=deals, **options)
        env.reset(seed=seed)
        rng = random.Random(seed)
        rewards = Counter[str]()
        while not game.over and (deals is None or env.finished_deals() < deals):
            if game.needs_deal:
                game.start_deal()
            seat = game.to_play
            assert seat is not None
            agent = env.agent_selection
            assert agent == f"player_{seat}"
            view = game.view(seat)
            assert env.infos[agent]["view"] == view
            action = chooser_pick(rng, view.legal_actions)
            kinds[type(action).__name__] += 1
            game.apply(seat, action)
            for token in env.codec.encode(action):
                observation = env.observe(agent)
                assert observation["action_mask"][token] == 1, env.codec.describe(token)
                assert np.array_equal(observation["observation"], blind_observation(env, agent))
                env.step(token)
                assert "refused" not in env.infos.get(agent, {})
                rewards.update(env.rewards)
        record = game.record()  # the engine deals on after the deals asked for: not the env
        assert env.game.record() == {**record, "hands": record["hands"][: len(env.game.deals)]}
        assert all(env.terminations.values()) and not any(env.truncations.values())
        sign = -1 if game_type.lower_is_better else 1
        seats = range(game.players)
        assert [rewards[f"player_{s}"] for s in seats] == [sign * p for p in game.totals]
    if name in ("rummy500", "gin"):
        assert kinds["MeldCards"] and kinds["LayOff"], kinds


@pytest.mark.parametrize(("name", "options"), TABLES)
def test_tokens_reach_every_legal_action_and_only_legal_ones(
    name: str, options: dict[str, Any]
) -> None:
    """Random play by tokens, uniform over the mask (half the time over the tokens of
    melds, lay-offs, knocks and closes): the mask is exactly the first tokens of the legal
    actions, every legal action's tokens lead to it, and every token chosen from the mask
    ends in an action the engine accepts (it would refuse an illegal one)."""
    env = RemiEnv(name, deals=2, **options)
    special = [s for s in env.codec.sections if s.name in ("knock", "close", "meld_card", "layoff")]
    checked = multi = 0
    for seed in range(GAMES[name] * 2):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while not all(env.terminations.values()):
            agent = env.agent_selection
            mask = env.observe(agent)["action_mask"]
            allowed = [int(t) for t in np.flatnonzero(mask)]
            if not env._pending:
                legal = env.infos[agent]["view"].legal_actions
                assert set(allowed) == {env.codec.encode(a)[0] for a in legal}
                tree = env.codec.tree(legal)
                for action in legal:
                    node: Any = tree
                    for token in env.codec.encode(action):
                        node = node[token]
                    assert node == action
                    checked += 1
            shaping = [t for t in allowed if any(t in s for s in special)]
            pool = shaping if shaping and rng.random() < 0.5 else allowed
            token = rng.choice(pool)
            multi += bool(env._pending)
            env.step(token)
            assert "refused" not in env.infos.get(agent, {})
    assert checked > 1000
    if env.codec.has("meld_end"):
        assert multi > 0, "no meld or lay-off was chosen token by token"


# -- what the agent gives and sees -------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    ["discard 7h", 10**30, -1, 3.0, None, True, np.int64(10**6)],
)
def test_a_token_the_mask_does_not_allow_changes_nothing(action: object) -> None:
    env = RemiEnv("gin", illegal_reward=-1.0)
    env.reset(seed=5)
    agent = env.agent_selection
    before = (env.game.record(), env.observe(agent)["observation"].copy())
    env.step(action)  # type: ignore[arg-type]
    assert env.agent_selection == agent
    assert env.rewards[agent] == -1.0
    assert "not" in env.infos[agent]["refused"]
    assert env.game.record() == before[0]
    assert np.array_equal(env.observe(agent)["observation"], before[1])


def test_a_refused_token_says_why_in_the_engines_words() -> None:
    env = RemiEnv("remi13d", lang="id")
    env.reset(seed=1)
    agent = env.agent_selection
    held = set(env.infos[agent]["view"].hand)
    card = next(c for c in env.codec.sections if c.name == "discard")
    missing = next(i for i in range(52) if all(h.index != i for h in held))
    env.step(card.start + missing)
    refused = env.infos[agent]["refused"]
    assert refused.startswith("discard ") and ":" in refused, refused


def test_table_options_and_keywords_are_checked() -> None:
    assert RemiEnv("three-thirteen", players=2).possible_agents == ["player_0", "player_1"]
    with pytest.raises(OptionError, match="players"):
        RemiEnv("gin", players=3)
    with pytest.raises(OptionError, match="colour"):
        RemiEnv("gin", colour="red")
    for keyword in ({"reward": "money"}, {"deals": 0}, {"render_mode": "rgb_array"}):
        with pytest.raises(ValueError):
            RemiEnv("gin", **keyword)


def test_the_observation_holds_the_seats_view() -> None:
    env = RemiEnv("three-thirteen", players=2)
    env.reset(seed=3)
    agent = env.agent_selection
    view = env.infos[agent]["view"]
    observation = env.observe(agent)["observation"]
    layout = env.layout
    hand = observation[layout["hand"]]
    assert hand.sum() == len(view.hand) == 3
    assert all(hand[c.index] >= 1 for c in view.hand)
    assert observation[layout["wild"]].sum() == 4  # round 1: threes are wild (R3-3)
    assert observation[layout["discard_top"]][view.discard_pile[-1].index] == 1
    assert observation[layout["hand_sizes"]].tolist() == [3, 3]


V0_PHASES = ("draw", "discard", "call", "offer", "wall", "lay_down", "lay_off", "defend", "over")
"""The phase one-hot of the v0 environments, slot by slot (docs/envs.md)."""


@pytest.mark.parametrize("name", MODULES)
def test_each_phase_of_the_variant_has_its_v0_slot(name: str) -> None:
    """The variant gives its own phases their slots (``phase_slots``); every phase its deal
    can be in has one, where the v0 observation has always had it."""
    env = RemiEnv(name)
    phases = {p for allowed in env.game_type.deal_type.phases.values() for p in allowed}
    for phase in phases | {Phase.OVER}:
        assert V0_PHASES[env.layout.phase_slots[phase]] == phase


def test_a_variant_phase_needs_a_slot_of_its_own() -> None:
    class Odd(DealPhase):
        ODD = "odd"

    assert Layout(players=2, melds=0, phase_slots={Odd.ODD: 7}).phase_slots[Odd.ODD] == 7
    for slot in (0, 1, 8, 9):
        with pytest.raises(ValueError, match="slots"):
            Layout(players=2, melds=0, phase_slots={Odd.ODD: slot})


@pytest.mark.parametrize("reward", ["deal", "margin", "game"])
def test_rewards(reward: Reward) -> None:
    """Gin Rummy's hand points and bonuses go to the winner (G-7, G-10): ``deal`` adds up
    to the totals, ``margin`` makes them zero-sum and ``game`` gives +1 and -1 at the end."""
    env = RemiEnv("gin", reward=reward)
    env.reset(seed=11)
    totals = Counter[str]()
    rng = random.Random(0)
    while not all(env.terminations.values()):
        agent = env.agent_selection
        action = chooser_pick(rng, env.infos[agent]["view"].legal_actions)
        for token in env.codec.encode(action):
            env.step(token)
            totals.update(env.rewards)
    game = env.game
    points = game.totals
    assert points != [sum(d.summary.points[s] for d in game.deals if d.summary) for s in range(2)]
    expected = {
        "deal": points,
        "margin": [points[0] - points[1], points[1] - points[0]],
        "game": [1, -1] if game.winner == 0 else [-1, 1],
    }[reward]
    assert [totals["player_0"], totals["player_1"]] == expected


def test_deals_ends_the_episode_after_that_many_deals() -> None:
    env = RemiEnv("three-thirteen", deals=2)
    env.reset(seed=2)
    rng = random.Random(2)
    while not all(env.terminations.values()):
        env.step(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))
    assert env.finished_deals() == 2 and not env.game.over


def test_max_cycles_truncates_each_agent_and_the_random_bot_plays_on() -> None:
    env = RemiEnv("remi13d", max_cycles=3)
    env.reset(seed=4)
    steps = Counter[str]()
    for agent in env.agent_iter():
        steps[agent] += 1
        _, _, terminated, truncated, _ = env.last()
        mask = env.observe(agent)["action_mask"]
        env.step(None if terminated or truncated else int(np.flatnonzero(mask)[0]))
    assert set(steps.values()) == {4}  # three steps and the last one of a truncated agent
    assert len(env.game.deals[-1].log) > 12  # the bot played on for the truncated seats


def test_render_is_text_in_either_language() -> None:
    english = RemiEnv("gin", render_mode="ansi", lang="en")
    english.reset(seed=1)
    indonesian = RemiEnv("gin", render_mode="ansi", lang="id")
    indonesian.reset(seed=1)
    assert "Hand of p0 (10)" in str(english.render())
    assert "Kartu di tangan p0 (10)" in str(indonesian.render())
    assert RemiEnv("gin").render() is None


# -- the Gymnasium wrapper --------------------------------------------------------------


def test_gym_plays_one_seat_against_bots() -> None:
    env = make("three-thirteen", opponents=["greedy"], players=2, deals=3, seat=1)
    _, info = env.reset(seed=9)
    inner = env.unwrapped
    assert isinstance(inner, RemiGymEnv)
    rng = np.random.default_rng(0)
    total, done = 0.0, False
    while not done:
        assert inner.aec.agent_selection == "player_1"
        _, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        total += float(reward)
        done = terminated or truncated
    game = inner.aec.game
    assert inner.aec.finished_deals() == 3
    assert len(info["view"].finished_deals) == 3  # the last view shows the scores
    assert total == -sum(d.summary.points[1] for d in game.deals if d.summary)


def test_gym_refuses_a_token_and_changes_nothing() -> None:
    env = make("gin", opponents="random", illegal_reward=-5.0)
    observation, info = env.reset(seed=3)
    token = int(np.flatnonzero(info["action_mask"] == 0)[0])
    again, reward, terminated, _truncated, info = env.step(token)
    assert reward == -5.0 and not terminated and "refused" in info
    assert np.array_equal(again["observation"], observation["observation"])


def test_gym_seeds_repeat_and_seats_can_be_drawn() -> None:
    def episode(seed: int) -> tuple[int, list[str]]:
        env = make("gin", opponents="greedy", seat=None, deals=1)
        _, info = env.reset(seed=seed)
        inner = env.unwrapped
        assert isinstance(inner, RemiGymEnv)
        done = False
        while not done:
            token = int(np.flatnonzero(info["action_mask"])[-1])
            _, _, terminated, truncated, info = env.step(token)
            done = terminated or truncated
        return inner.seat, inner.aec.game.record()["hands"][0]["actions"]

    assert episode(1) == episode(1)
    assert len({episode(seed)[0] for seed in range(8)}) == 2


def test_gym_opponents_are_checked() -> None:
    with pytest.raises(ValueError, match="3 opponents"):
        make("remi13d", opponents=["greedy"])
    with pytest.raises(ValueError, match="clever"):
        make("gin", opponents="clever")
    with pytest.raises(ValueError, match="seat 4"):
        make("gin", seat=4)


# -- the modules and ids, from the registry ----------------------------------------------


def test_the_modules_and_ids_are_the_registrys() -> None:
    """Each variant's module and Gymnasium id are named by its spec (remikit/variants) and
    made from it: ``remikit/envs`` holds no module of its own per variant."""
    for spec in playable():
        assert spec.env_module is not None and spec.gym_id is not None, spec.name
        module = import_module(f"remikit.envs.{spec.env_module}")
        assert module is getattr(remikit.envs, spec.env_module)
        assert module.raw_env().metadata["name"] == spec.env_module
        assert ENVIRONMENTS[spec.name] == module.__name__
        assert IDS[spec.name] == spec.gym_id and spec.gym_id in gymnasium.registry
    assert not list(Path(remikit.envs.__file__).parent.glob("*_v0.py"))


def test_a_variants_module_imports_by_its_name_alone() -> None:
    code = (
        "import remikit.envs.three_thirteen_v0 as m\n"
        "from remikit.envs.gin_v0 import parallel_env\n"
        "print(m.__name__, type(m.env(players=2).unwrapped).__name__, callable(parallel_env))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["remikit.envs.three_thirteen_v0", "RemiEnv", "True"]
