"""How results show themselves (private; beside the results, which all derive from
:class:`Displayed`): aligned text (``repr``), HTML (Jupyter's ``_repr_html_``) and
pandas frames (``to_pandas``), from one description of their tables.

A result class derives from :class:`Displayed` and builds a :class:`Display` (a title, tables
of rows, notes) in ``_display()``; the text and the HTML are rendered from it with the same
rounding (:func:`fmt`: about four significant digits, never a 17-digit float). Its
``to_pandas()`` passes tidy rows to :func:`frame`, which gives every column a proper dtype
(int64, float64, bool, a string dtype; the nullable Int64 / boolean where a value is missing)
and imports pandas only then (an optional extra: ``pip install "mjfast[pandas]"``).

Examples
--------
>>> d = Display("deal odds", [Table(("shanten", "p", "count"), [(0, 0.0212345678, 2123), (1, 0.2, 20000)])],
...             notes=["n = 100,000"])
>>> print(render_text(d))
deal odds
  shanten        p   count
        0  0.02123   2,123
        1      0.2  20,000
n = 100,000
>>> fmt(1234.5678), fmt(0.000012345), fmt(float("nan")), fmt(None), fmt(True)
('1,235', '1.234e-05', 'nan', '', 'yes')
"""
from __future__ import annotations

import dataclasses
import html
import math
import numbers
import unicodedata
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

#: significant digits of floats in reprs and HTML tables
DIGITS = 4
#: tables longer than this show their first and last rows around an ellipsis
MAX_ROWS = 40


@dataclasses.dataclass
class Table:
    """One table of a display: column names and rows of cell values (numbers, text, None)."""

    columns: Sequence[str]
    rows: list
    title: str = ""


@dataclasses.dataclass
class Display:
    """What a result shows: a title line, its tables, then notes (one line each)."""

    title: str
    tables: list = dataclasses.field(default_factory=list)
    notes: list = dataclasses.field(default_factory=list)


def fmt(v: Any, digits: int = DIGITS) -> str:
    """One cell as text: ints with thousands separators, floats to ``digits`` significant digits
    (no exponent from 1e-4 to 1e15), None as an empty cell, bools as yes / no."""
    if v is None:
        return ""
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, numbers.Integral):
        return f"{int(v):,}"
    if isinstance(v, (numbers.Real, Fraction)):
        x = float(v)
        if not math.isfinite(x):
            return str(x)
        if x == 0:
            return "0"
        mag = math.floor(math.log10(abs(x)))
        if mag >= digits - 1 and abs(x) < 1e15:
            return f"{x:,.0f}"
        if 1e-4 <= abs(x):
            decimals = max(digits - 1 - mag, 0)
            text = f"{x:.{decimals}f}"
            return text.rstrip("0").rstrip(".") if "." in text else text
        return f"{x:.{digits}g}"
    return str(v)


def interval(low: float, high: float, digits: int = DIGITS) -> str:
    """A 95% interval as ``[low, high]``."""
    return f"[{fmt(low, digits)}, {fmt(high, digits)}]"


def pm(mean: float, half: float, digits: int = DIGITS) -> str:
    """``mean ± half`` (half-width of a 95% interval), e.g. ``12.3 ± 0.41``."""
    return f"{fmt(mean, digits)} ± {fmt(half, 2)}"


def _numeric(v: Any) -> bool:
    return isinstance(v, (numbers.Real, Fraction)) and not isinstance(v, (bool, np.bool_))


def _clip(rows: list, max_rows: int) -> tuple:
    """The rows to show and the index where an ellipsis row goes (None: all rows)."""
    if len(rows) <= max_rows:
        return rows, None
    head = max_rows - 5
    return rows[:head] + rows[-5:], head


def text_width(text: str) -> int:
    """Columns ``text`` takes in a terminal (East Asian wide characters, e.g. fan names in
    Chinese, take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _line(vals: list, widths: list, num: list) -> str:
    pads = [" " * (w - text_width(v)) for v, w in zip(vals, widths)]
    return ("  " + "  ".join(pad + v if n else v + pad for v, pad, n in zip(vals, pads, num))).rstrip()


def render_text(d: Display, max_rows: int = MAX_ROWS) -> str:
    """Aligned text: numbers right-aligned, text left-aligned, two spaces between columns."""
    lines = [d.title] if d.title else []
    for t in d.tables:
        if t.title:
            lines.append(t.title)
        rows, cut = _clip(list(t.rows), max_rows)
        cells = [[fmt(v) for v in r] for r in rows]
        num = [any(_numeric(r[j]) for r in rows) for j in range(len(t.columns))]
        widths = [max([text_width(str(c))] + [text_width(r[j]) for r in cells]) for j, c in enumerate(t.columns)]

        lines.append(_line([str(c) for c in t.columns], widths, num))
        for i, r in enumerate(cells):
            if i == cut:
                lines.append(_line(["..."] * len(widths), widths, num))
            lines.append(_line(r, widths, num))
    lines.extend(d.notes)
    return "\n".join(lines)


def render_html(d: Display, max_rows: int = MAX_ROWS) -> str:
    """The same tables as HTML for Jupyter (escaped; numbers right-aligned)."""
    esc = html.escape
    out = ['<div class="mjfast-result">']
    if d.title:
        out.append(f"<p><strong>{esc(d.title)}</strong></p>")
    for t in d.tables:
        rows, cut = _clip(list(t.rows), max_rows)
        out.append("<table>")
        if t.title:
            out.append(f'<caption style="text-align:left">{esc(t.title)}</caption>')
        out.append("<thead><tr>" + "".join(f"<th>{esc(str(c))}</th>" for c in t.columns) + "</tr></thead><tbody>")
        for i, r in enumerate(rows):
            if i == cut:
                out.append("<tr>" + "<td>&hellip;</td>" * len(t.columns) + "</tr>")
            out.append("<tr>" + "".join(
                f'<td style="text-align:right">{esc(fmt(v))}</td>' if _numeric(v) else f"<td>{esc(fmt(v))}</td>"
                for v in r) + "</tr>")
        out.append("</tbody></table>")
    if d.notes:
        out.append("<p>" + "<br>".join(esc(n) for n in d.notes) + "</p>")
    out.append("</div>")
    return "\n".join(out)


class Displayed:
    """Mixin of the result classes: ``repr`` and ``_repr_html_`` render ``self._display()``.

    (Dataclasses deriving from it need ``repr=False``, or their generated repr would win.)
    """

    def _display(self) -> Display:  # pragma: no cover - every result defines it
        raise NotImplementedError

    def __repr__(self) -> str:
        return render_text(self._display())

    def _repr_html_(self) -> str:
        return render_html(self._display())

    def _repr_pretty_(self, p, cycle) -> None:     # IPython's plain-text display: the same table
        p.text(f"<{type(self).__name__}>" if cycle else repr(self))


def require_pandas(what: str):
    """Import pandas, or raise an ImportError saying how to install it."""
    try:
        import pandas as pd
    except ImportError as exc:
        raise ImportError(f'{what} needs pandas, an optional dependency of mjfast; install it with '
                          f'pip install "mjfast[pandas]" (or pip install pandas)') from exc
    return pd


def _string_dtype(pd) -> str:
    """pandas 3 infers its ``str`` dtype for text; pandas 2 needs the "string" extension dtype."""
    return "str" if int(pd.__version__.split(".")[0]) >= 3 else "string"


def column_dtype(values: list, pd) -> Any:
    """The dtype of a column from its values: int64 / float64 / bool / a string dtype, nullable
    Int64 / boolean when some value is None, object for anything else (lists, dicts)."""
    present = [v for v in values if v is not None]
    missing = len(present) < len(values)
    if not present:
        return "float64"
    if all(isinstance(v, (bool, np.bool_)) for v in present):
        return "boolean" if missing else "bool"
    if all(isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_)) for v in present):
        return "Int64" if missing else "int64"
    if all(_numeric(v) for v in present):
        return "float64"
    if all(isinstance(v, str) for v in present):
        return _string_dtype(pd)
    return object


def frame(columns: Sequence[str], rows: list, *, what: str, attrs: dict | None = None, dtypes: dict | None = None):
    """A pandas DataFrame of ``rows`` (dicts keyed by ``columns``, or sequences in their
    order), each column with the dtype of :func:`column_dtype` unless ``dtypes`` names it;
    ``attrs`` (JSON-ready facts about the result: rules, seed, n ...) go to ``df.attrs``.
    ``what`` names the method in the ImportError when pandas is missing. A ``dtypes`` value
    ``"text"`` means the string dtype of the installed pandas; naming the dtypes of columns
    that may be all missing keeps them the same whatever the data."""
    pd = require_pandas(what)
    data = {}
    for j, c in enumerate(columns):
        vals = [r[c] if isinstance(r, dict) else r[j] for r in rows]
        dt = (dtypes or {}).get(c) or column_dtype(vals, pd)
        if dt == "text":
            dt = _string_dtype(pd)
        if dt == "float64":
            vals = [math.nan if v is None else float(v) for v in vals]
        elif dt in ("int64", "bool"):
            vals = [v.item() if isinstance(v, np.generic) else v for v in vals]
        data[c] = pd.Series(vals, dtype=dt) if dt is not object else pd.Series(vals, dtype=object)
    df = pd.DataFrame(data, columns=list(columns))
    if attrs:
        df.attrs.update(plain(attrs))
    return df


def plain(x: Any) -> Any:
    """A JSON-ready copy of ``x``: numpy scalars and arrays as Python numbers and lists,
    tuples as lists, dict keys as str, Fractions as floats."""
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, Fraction):
        return float(x)
    return x
