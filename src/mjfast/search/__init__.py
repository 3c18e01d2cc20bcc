"""Look-ahead at engine speed: table states, worlds sampled from one seat's view, rollouts,
action values, a search bot and position advice (issue 27).

- :class:`TableStates` (from :meth:`mjfast.env.VecTables.save`): the engine state of many tables.
"""
from ._states import TableStates

__all__ = ["TableStates"]
