"""Gymnasium front of the environments (needs ``gymnasium``: ``pip install mjfast[env]``).

- :class:`MahjongVectorEnv`: a :class:`gymnasium.vector.VectorEnv` over :class:`VecTables`
  (the native batched implementation: no sub-processes, no Python loop over tables).
- :class:`MahjongEnv`: one table as a :class:`gymnasium.Env` (one learner seat against
  built-in opponents), for tools that want a single environment.

``import mjfast`` registers one id per rule set (at once when Gymnasium is imported, else when
it is), so that
``gymnasium.make_vec("mjfast/Classical-v0", num_envs=N)`` builds a MahjongVectorEnv and
``gymnasium.make("mjfast/Classical-v0")`` a MahjongEnv:

============================  =============
id                            rules
============================  =============
``mjfast/Classical-v0``       classical
``mjfast/Basic-v0``           basic
``mjfast/MCR-v0``             mcr
``mjfast/American-v0``        american
============================  =============

Rewards: with one learner seat (the default, seat 0 against greedy opponents) the reward is
that seat's score change, shape (N,); with several learners, all four seats' changes, shape
(N, 4), and ``info["seat"]`` names the seat acting in each table.
"""
from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .. import _gym_ids
from ._spaces import scalar_bounds
from ._vec import VecTables, action_ids

ENV_IDS = _gym_ids.ENV_IDS
_MODES = {"same_step": AutoresetMode.SAME_STEP, "next_step": AutoresetMode.NEXT_STEP,
          "disabled": AutoresetMode.DISABLED}


def single_spaces(tables: VecTables, mask_dtype=np.bool_) -> tuple:
    """(observation space, action space) of one table of ``tables``: planes 0-255, every
    scalar between the bounds its rules guarantee (:mod:`mjfast.env._spaces`), the mask of
    ``mask_dtype`` (bool for the vector environment, int8 for the single one)."""
    c, k = tables.observation_shape
    lo, hi = scalar_bounds(tables.rules, tables.scalars_shape[0])
    obs = spaces.Dict({
        "observation": spaces.Box(0, 255, (c, k), tables.dtype),
        "scalars": spaces.Box(lo, hi, tables.scalars_shape, np.float32),
        "action_mask": spaces.Box(0, 1, (tables.n_actions,), mask_dtype),  # type: ignore[arg-type]
    })
    return obs, spaces.Discrete(tables.n_actions)


class MahjongVectorEnv(VectorEnv):
    """N mahjong tables as a Gymnasium vector environment (see :class:`VecTables` for the
    parameters; ``num_envs`` is ``n_tables``; ``learners`` defaults to seat 0 alone).

    Examples
    --------
    >>> import gymnasium, mjfast.env
    >>> env = gymnasium.make_vec("mjfast/Classical-v0", num_envs=4)
    >>> obs, info = env.reset(seed=1)
    >>> obs["observation"].shape, env.single_action_space
    ((4, 48, 34), Discrete(76))
    """

    def __init__(self, num_envs: int = 1, *, rules: str = "classical", learners=(0,), **kwargs: Any):
        self.tables = VecTables(num_envs, rules=rules, learners=learners, **kwargs)
        self.num_envs = num_envs
        self.metadata = {"autoreset_mode": _MODES[self.tables.autoreset]}
        self.single_observation_space, self.single_action_space = single_spaces(self.tables)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._one = self.tables.learners[0] if len(self.tables.learners) == 1 else None

    def reset(self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed if not isinstance(seed, list) else None)
        return self.tables.reset(seed=seed, options=options)

    def step(self, actions):
        obs, rew, term, trunc, info = self.tables.step(actions)
        if self._one is not None:
            rew = rew[:, self._one]
        return obs, rew, term, trunc, info

    def close_extras(self, **kwargs: Any) -> None:
        self.tables.close()


class MahjongEnv(gymnasium.Env):
    """One table as a Gymnasium environment: one learner seat (default 0) against built-in
    opponents; ``reset`` starts the next episode (the game's next hand with
    ``episode="hand"``). Other parameters as :class:`VecTables`.

    Gymnasium's contract is that any action of the action space may be stepped (generic agents
    and ``gymnasium.utils.env_checker.check_env`` do so): ``illegal="penalty"`` (default)
    refuses an action the mask does not allow, the state unchanged and the reward
    ``illegal_penalty``; ``illegal="raise"`` raises :class:`~mjfast.IllegalActionError`
    instead. The observation's ``action_mask`` is int8, so that
    ``env.action_space.sample(mask=obs["action_mask"])`` draws a legal action. An action is an
    integer (numpy's too); 5.9 or "5" raise TypeError.

    Examples
    --------
    >>> from mjfast.env.gym import MahjongEnv
    >>> env = MahjongEnv(rules="basic")
    >>> obs, info = env.reset(seed=0)
    >>> obs["observation"].shape, int(info["seat"]), obs["action_mask"].dtype
    ((48, 34), 0, dtype('int8'))
    >>> a = env.action_space.sample(mask=obs["action_mask"])
    >>> bool(obs["action_mask"][a])
    True
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, *, rules: str = "classical", learner: int = 0, illegal: str = "penalty",
                 illegal_penalty: float = -1.0, **kwargs: Any):
        kwargs.pop("autoreset", None)
        if illegal not in ("raise", "penalty"):
            raise ValueError(f"illegal must be 'raise' or 'penalty'; got {illegal!r}")
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.tables = VecTables(1, rules=rules, learners=(learner,), autoreset="disabled", copy=True, **kwargs)
        self.learner = self.tables.learners[0]
        self.observation_space, self.action_space = single_spaces(self.tables, np.int8)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        obs, info = self.tables.reset(seed=seed, options=options)
        return self._one(obs), self._one_info(info)

    def step(self, action):
        a = int(action_ids(action, ()))            # an integer (numpy's too); 5.9 or "5" raise TypeError
        if self.illegal == "penalty" and not (0 <= a < self.tables.n_actions and self.tables._mask[0, a]):
            obs, info = self.tables._obs_dict(fresh=True), self.tables._info()
            return self._one(obs), self.illegal_penalty, False, False, self._one_info(info)
        obs, rew, term, trunc, info = self.tables.step(np.array([a]))
        return self._one(obs), float(rew[0, self.learner]), bool(term[0]), bool(trunc[0]), self._one_info(info)

    @staticmethod
    def _one(obs: dict) -> dict:
        one = {k: v[0].copy() for k, v in obs.items()}
        one["action_mask"] = one["action_mask"].astype(np.int8)    # (Discrete.sample(mask=...) takes int8)
        return one

    @staticmethod
    def _one_info(info: dict) -> dict:
        return {k: v[0] for k, v in info.items() if isinstance(v, np.ndarray)}


def register_envs() -> None:
    """Register one id per rule set (skipped for ids already registered)."""
    _gym_ids.register()
