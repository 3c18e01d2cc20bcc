"""Strict JSON for the tests: what a strict reader (JavaScript's ``JSON.parse``) accepts.

Python's ``json.loads`` reads the bare tokens ``NaN``, ``Infinity`` and ``-Infinity``, which are
not JSON; :func:`loads` refuses them, so a test that parses the command line's JSON with it
fails on output that a strict parser would reject."""
from __future__ import annotations

import json
from typing import Any


def _refuse(token: str) -> Any:
    raise ValueError(f"{token} is not JSON (strict parsers refuse it)")


def loads(text: str | bytes) -> Any:
    """``json.loads`` that refuses NaN, Infinity and -Infinity."""
    return json.loads(text, parse_constant=_refuse)
