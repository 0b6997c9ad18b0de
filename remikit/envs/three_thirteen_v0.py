"""Three-Thirteen as a PettingZoo environment: ``env()``, ``raw_env()``, ``parallel_env()``
(keywords and table options: :class:`remikit.envs.aec.RemiEnv`)."""

from remikit.envs.aec import constructors

env, raw_env, parallel_env = constructors("three-thirteen")

__all__ = ["env", "parallel_env", "raw_env"]
