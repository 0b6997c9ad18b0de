"""Research interfaces: every variant as a PettingZoo AEC environment, and one seat
against remikit's bots as a Gymnasium environment (``pip install remikit[rl]``).

=================== ============================================
module              variant
=================== ============================================
``remi13d_v0``      Remi 13 D
``three_thirteen_v0`` Three-Thirteen
``rummy500_v0``     Rummy 500
``gin_v0``          Gin Rummy
=================== ============================================

Each module has ``env()``, ``raw_env()`` and ``parallel_env()``, as PettingZoo's own
environments do; :func:`remikit.envs.gym.make` gives the Gymnasium one
(``gymnasium.make("remikit/Gin-v0")`` once :mod:`remikit.envs.gym` is imported).
docs/envs.md describes the observations, the action tokens and the rewards.
"""

from importlib import import_module
from importlib.util import find_spec
from types import ModuleType

MISSING = [name for name in ("pettingzoo", "gymnasium", "numpy") if find_spec(name) is None]
if MISSING:
    raise ImportError(
        f"remikit.envs needs {', '.join(MISSING)}: pip install 'remikit[rl]'", name=MISSING[0]
    )

ENVIRONMENTS = {
    "remi13d": "remikit.envs.remi13d_v0",
    "three-thirteen": "remikit.envs.three_thirteen_v0",
    "rummy500": "remikit.envs.rummy500_v0",
    "gin": "remikit.envs.gin_v0",
}
"""The PettingZoo module of each variant, by the variant's name."""

SUBMODULES = frozenset({"aec", "gym", "planes", "render", "tokens"}) | {
    module.rsplit(".", 1)[1] for module in ENVIRONMENTS.values()
}


def __getattr__(name: str) -> ModuleType:
    """``remikit.envs.gym`` and the variants' modules without importing each first."""
    if name in SUBMODULES:
        return import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
