"""Plots (compatibility module): they live in :mod:`mjfast.analysis.plot`."""
from .analysis.plot import *  # noqa: F401,F403
from .analysis.plot import __all__  # noqa: F401
