"""One table as a PettingZoo AEC environment, :class:`MahjongAEC` (needs ``pettingzoo``: ``pip install
mjfast[env]``); PettingZoo's factories are in :mod:`mjfast.env.aec`."""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .. import _core, tiles
from .. import rules as _rules
from .._runtime.seeding import root_key
from ..game import encodings
from ..game.batch import EXTERNAL, ST, core_class, encoding_name
from ..game.policy import IllegalActionError
from ._spaces import scalar_bounds
from ._vec import action_ids


class MahjongAEC(AECEnv):
    """A four-player mahjong table as a PettingZoo AEC environment, for every rule set.

    Agents ``player_0`` .. ``player_3`` are the players (player 0 deals the first hand; the
    deal passes after every hand). One agent acts at a time: after a discard every player
    with a legal claim is asked in turn, and the answers stay hidden until all have answered.
    Questions with one legal action are answered by the environment (``skip_forced``).

    ``observe(agent)`` returns ``{"observation": (C, K) uint8, "scalars": (S,) float32,
    "action_mask": (A,) int8}`` (the mask is all zeros for an agent that is not acting);
    ``action_space(agent)`` is ``Discrete(A)``. Rewards are each player's score change
    (zero-sum). An episode is one hand (``episode="hand"``; the next ``reset()`` deals the
    game's next hand) or one game. An illegal action raises
    :class:`~mjfast.IllegalActionError` naming the agent and the action.

    Parameters
    ----------
    rules : str or RuleSet
    episode : {"hand", "game"}
    skip_forced, derived, privileged : bool
        As for :class:`~mjfast.env.VecTables`.
    render_mode : None, "ansi" or "human"
        "ansi": :meth:`render` returns the acting player's hand and legal actions as text;
        "human": the same text is printed at every reset and step (and by :meth:`render`,
        which then returns None).

    :func:`raw_env` builds this class, :func:`env` the same wrapped in PettingZoo's
    ``OrderEnforcingWrapper`` (PettingZoo's convention), :func:`parallel_env` the parallel
    API (:class:`~mjfast.env.parallel.MahjongParallel`).

    Examples
    --------
    >>> from mjfast.env import MahjongAEC
    >>> env = MahjongAEC(rules="classical")
    >>> env.reset(seed=1)
    >>> total = 0.0
    >>> for agent in env.agent_iter():
    ...     obs, reward, termination, truncation, info = env.last()
    ...     total += reward                     # each agent's rewards since it last acted
    ...     action = None if termination or truncation else int(obs["action_mask"].argmax())
    ...     env.step(action)
    >>> total                                   # zero-sum
    0.0
    """

    metadata = {"name": "mjfast_mahjong_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, rules: str | _rules.RuleSet = "classical", *, episode: str = "hand", skip_forced: bool = True,
                 derived: bool = False, privileged: bool = False, render_mode: str | None = None, **rule_options):
        super().__init__()
        self.rules = _rules.get(rules, **rule_options)
        if episode not in ("hand", "game"):
            raise ValueError(f"episode must be 'hand' or 'game'; got {episode!r}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human'; got {render_mode!r}")
        self.render_mode = render_mode
        self.episode = episode
        self.encoding = encodings.get(encoding_name(self.rules.family))
        _core.ensure_tables()
        self.core = core_class(self.rules.family)(self.rules.kernel(), 1, bool(skip_forced), bool(derived),
                                                  bool(privileged))
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self.agents: list[str] = []
        c, k, a = self.core.n_planes, self.encoding.kinds, self.encoding.n_actions
        lo, hi = scalar_bounds(self.rules, self.core.n_scalars)
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0, 255, (c, k), np.uint8),
            "scalars": spaces.Box(lo, hi, (self.core.n_scalars,), np.float32),
            "action_mask": spaces.Box(0, 1, (a,), np.int8),
        })
        self._act_space = spaces.Discrete(a)
        self._obs = np.zeros((1, c, k), np.uint8)
        self._scal = np.zeros((1, self.core.n_scalars), np.float32)
        self._mask = np.zeros((1, a), np.uint8)
        self._seat = np.zeros(1, np.int8)
        self._rew = np.zeros((1, 4), np.float32)
        self._status = np.full(1, ST["idle"], np.uint8)
        self._key: Any = None
        self._game_no = 0
        self._policies = np.full((1, 4), EXTERNAL, np.intc)

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal the next episode: with ``seed``, game 0 of that seed; without, the game's next
        hand (``episode="hand"``) or the next game."""
        if seed is not None or self._key is None:
            self._key = root_key(seed)
            self._game_no = 0
            self._start()
        elif self._status[0] != ST["hand_end"]:
            self._game_no += 1
            self._start()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._run(-1)
        while self._status[0] != ST["decide"]:      # an episode over before anyone decides
            if self._status[0] == ST["game_end"]:
                self._game_no += 1
                self._start()
            self._run(-1)
        self.agent_selection = self.possible_agents[int(self._seat[0])]
        if self.render_mode == "human":
            self.render()

    def _start(self) -> None:
        self.core.start(np.zeros(1, np.int64), np.array([self._game_no], np.uint64), self._key.k0, self._key.k1,
                        self._policies, self.episode == "hand")

    def _run(self, action: int) -> None:
        self.core.step(np.array([action], np.int64), self._obs, self._scal, self._mask, self._seat, self._rew,
                       self._status, 1)

    def observe(self, agent: str) -> dict:
        seat = self.possible_agents.index(agent)
        obs = np.zeros((self.core.n_planes, self.encoding.kinds), np.uint8)
        scal = np.zeros(self.core.n_scalars, np.float32)
        self.core.observe(0, seat, obs, scal)
        acting = self._status[0] == ST["decide"] and seat == int(self._seat[0]) and not self.terminations.get(agent)
        mask = self._mask[0].astype(np.int8) if acting else np.zeros(self.encoding.n_actions, np.int8)
        return {"observation": obs, "scalars": scal, "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = int(action_ids(action, ()))            # an integer (numpy's too); 5.9 or "5" raise TypeError
        if not 0 <= a < self.encoding.n_actions or not self._mask[0, a]:
            legal = ", ".join(f"{i} ({self.encoding.action_names[i]})" for i in np.flatnonzero(self._mask[0]))
            what = self.encoding.action_names[a] if 0 <= a < self.encoding.n_actions else "not an action id"
            raise IllegalActionError(f"{agent} (seat {int(self._seat[0])}): action {a} ({what}) is not legal now; "
                                     f"legal: {legal}")
        self._cumulative_rewards[agent] = 0.0
        self._run(a)
        for i, ag in enumerate(self.possible_agents):
            self.rewards[ag] = float(self._rew[0, i])
        if self._status[0] != ST["decide"]:
            for ag in self.agents:
                self.terminations[ag] = True
        else:
            self.agent_selection = self.possible_agents[int(self._seat[0])]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The acting player's hand and legal actions as text ("ansi": returned; "human":
        printed, None returned; no render mode: None)."""
        if self.render_mode not in ("ansi", "human"):
            return None

        seat = int(self._seat[0])
        names = tuple(tiles.KIND_NAMES) + ("flower", "joker")
        counts = self.core.view(0, seat)["hand"]
        hand = " ".join(names[k] for k in range(len(counts)) for _ in range(int(counts[k])))
        if self._status[0] == ST["decide"]:
            text = (f"player_{seat} to act; hand {hand}; "
                    f"legal: {[self.encoding.action_names[i] for i in np.flatnonzero(self._mask[0])]}")
        else:
            scores = [int(x) for x in self.core.view(0, 0)["scores"]]
            text = f"the episode is over; scores by player {scores}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
