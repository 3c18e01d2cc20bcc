"""One table as a PettingZoo parallel environment (needs ``pettingzoo``: ``pip install mjfast[env]``)."""
from __future__ import annotations

from typing import Any

from pettingzoo import ParallelEnv

from ._aec import MahjongAEC


class MahjongParallel(ParallelEnv):
    """A four-player mahjong table with PettingZoo's parallel API, for every rule set.

    Mahjong is turn-based: at each step one agent acts (the one whose ``action_mask`` has
    legal actions, also :attr:`agent_selection`); ``step(actions)`` plays the acting agent's
    action and ignores the others' (they may be left out of the dict, or be anything, as
    PettingZoo's tests sample them). Every step returns every live agent's observation
    (``{"observation", "scalars", "action_mask"}``: the mask is all zeros for the agents not
    acting), reward (its score change during the step, zero-sum), termination (all True at
    the end of the episode, after which ``agents`` is empty) and info (``{"acting": bool}``).
    The game, the encodings and the keywords are :class:`~mjfast.env.MahjongAEC`'s; the same
    seed plays the same game.

    Examples
    --------
    >>> from mjfast.env.parallel import MahjongParallel
    >>> env = MahjongParallel(rules="classical")
    >>> obs, infos = env.reset(seed=1)
    >>> total = 0.0
    >>> while env.agents:
    ...     actor = env.agent_selection
    ...     action = int(obs[actor]["action_mask"].argmax())
    ...     obs, rewards, terminations, truncations, infos = env.step({actor: action})
    ...     total += sum(rewards.values())
    >>> total                                   # zero-sum
    0.0
    """

    metadata = {"name": "mjfast_mahjong_v0", "render_modes": ["ansi", "human"]}

    def __init__(self, rules="classical", **kwargs: Any):
        self.aec = MahjongAEC(rules, **kwargs)
        self.render_mode = self.aec.render_mode
        self.possible_agents = self.aec.possible_agents[:]
        self.agents: list[str] = []

    def observation_space(self, agent: str):
        return self.aec.observation_space(agent)

    def action_space(self, agent: str):
        return self.aec.action_space(agent)

    @property
    def agent_selection(self) -> str:
        """The agent acting at this step."""
        return self.aec.agent_selection

    @property
    def rules(self):
        return self.aec.rules

    def reset(self, seed: int | None = None, options: dict | None = None):
        """Deal the next episode (as :meth:`MahjongAEC.reset`); returns ``(observations, infos)``."""
        self.aec.reset(seed=seed, options=options)
        self.agents = self.aec.agents[:]
        return self._observations(), self._infos()

    def step(self, actions: dict):
        """Play the acting agent's action ``actions[agent_selection]``; returns
        ``(observations, rewards, terminations, truncations, infos)`` of every live agent."""
        if not self.agents:
            raise RuntimeError("the episode is over: call reset()")
        if not isinstance(actions, dict):
            raise TypeError(f"actions must be a dict of agent -> action, not {type(actions).__name__}")
        actor = self.aec.agent_selection
        if actor not in actions:
            raise ValueError(f"actions has no action for {actor}, the agent acting now")
        self.aec.step(actions[actor])
        rewards = {a: float(self.aec.rewards[a]) for a in self.agents}
        terminations = {a: bool(self.aec.terminations[a]) for a in self.agents}
        truncations = {a: bool(self.aec.truncations[a]) for a in self.agents}
        observations, infos = self._observations(), self._infos()
        if all(terminations.values()):
            for _ in list(self.aec.agents):       # the AEC's dead steps: every agent leaves
                self.aec.step(None)
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict:
        return {a: self.aec.observe(a) for a in self.agents}

    def _infos(self) -> dict:
        acting = self.aec.agent_selection if self.aec.agents and not any(self.aec.terminations.values()) else None
        return {a: {"acting": a == acting} for a in self.agents}

    def render(self):
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
