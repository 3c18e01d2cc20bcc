"""Look-ahead at engine speed (issue 27): table states, worlds sampled from one seat's view,
rollouts, action values, a search bot and position advice.

- :class:`TableStates` (from :meth:`mjfast.env.VecTables.save`): the engine state of many tables;
- :func:`sample_worlds`: the hidden tiles redrawn consistently with what a seat has seen
  (uniformly, or weighted by a belief such as :func:`belief`);
- :func:`rollout`: play states to the end of the hand or game with built-in policies;
- :func:`evaluate`: every legal action's expected score change, P(win), P(deal-in);
- :func:`advise`: every legal action of a seat at one event of a game log (:class:`Advice`).
"""
from ._advise import Advice, advise
from ._evaluate import ActionValues, evaluate
from ._policy import SearchPolicy
from ._rollout import RolloutResult, rollout
from ._states import TableStates
from ._worlds import belief, sample_worlds

__all__ = ["ActionValues", "Advice", "RolloutResult", "SearchPolicy", "TableStates", "advise", "belief", "evaluate",
           "rollout", "sample_worlds"]
