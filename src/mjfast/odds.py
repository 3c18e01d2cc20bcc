"""Odds tables (compatibility module): they live in :mod:`mjfast.analysis.odds`."""
from .analysis.odds import KINDS, OddsTable, odds_table  # noqa: F401
