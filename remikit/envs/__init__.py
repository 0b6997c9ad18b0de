"""Research interfaces: every variant as a PettingZoo AEC environment, and one seat against
remikit's bots as a Gymnasium environment (``pip install remikit[rl]``).

Each playable variant's module is made here from the registry, named by the variant's
:attr:`~remikit.variants.spec.VariantSpec.env_module`, and imports as any module does
(``from remikit.envs import gin_v0``, ``import remikit.envs.gin_v0``):

>>> ENVIRONMENTS["three-thirteen"]
'remikit.envs.three_thirteen_v0'
>>> from remikit.envs import gin_v0
>>> gin_v0.env().metadata["name"]
'gin_v0'

Each module has ``env()``, ``raw_env()`` and ``parallel_env()``, as PettingZoo's own
environments do; :func:`remikit.envs.gym.make` gives the Gymnasium one
(``gymnasium.make("remikit/Gin-v0")`` once :mod:`remikit.envs.gym` is imported).
docs/envs.md describes the observations, the action tokens and the rewards.
"""

import sys
from importlib import import_module
from importlib.util import find_spec
from types import ModuleType

MISSING = [name for name in ("pettingzoo", "gymnasium", "numpy") if find_spec(name) is None]
if MISSING:
    raise ImportError(
        f"remikit.envs needs {', '.join(MISSING)}: pip install 'remikit[rl]'", name=MISSING[0]
    )

from remikit.envs.aec import constructors  # noqa: E402 (only once the extra is known there)
from remikit.variants import VariantSpec, playable  # noqa: E402

SUBMODULES = frozenset({"aec", "gym", "planes", "render", "tokens"})


def _environment(spec: VariantSpec, name: str) -> ModuleType:
    """The PettingZoo module ``name`` of ``spec``'s variant, importable by that name."""
    module = ModuleType(
        name,
        f"{spec.title('en')} as a PettingZoo environment: ``env()``, ``raw_env()``, "
        "``parallel_env()`` (keywords and table options: :class:`remikit.envs.aec.RemiEnv`).",
    )
    env, raw_env, parallel_env = constructors(spec.name)
    module.__dict__.update(
        env=env,
        raw_env=raw_env,
        parallel_env=parallel_env,
        __all__=["env", "parallel_env", "raw_env"],
    )
    sys.modules[name] = module
    return module


ENVIRONMENTS = {
    spec.name: f"{__name__}.{spec.env_module}" for spec in playable() if spec.env_module
}
"""The PettingZoo module of each variant, by the variant's name."""
_MODULES = {
    name.rsplit(".", 1)[1]: _environment(spec, name)
    for spec in playable()
    if (name := ENVIRONMENTS.get(spec.name))
}


def __getattr__(name: str) -> ModuleType:
    """The variants' modules, and ``remikit.envs.gym`` without importing it first."""
    if name in _MODULES:
        return _MODULES[name]
    if name in SUBMODULES:
        return import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
