"""Global options: :func:`mjfast.set_options` and :func:`mjfast.get_options`."""
from __future__ import annotations

from . import progress as _progress

_UNSET = object()


class set_options:  # noqa: N801 - a function to the user; a class so that it also works in a with block
    """Set mjfast's global options, for the session or (as a context manager) for a block.

    Parameters
    ----------
    progress : {"auto", "always", "never"}, bool or None
        Progress bars on stderr of long runs (:func:`mjfast.simulate`, :func:`mjfast.deal_stats`,
        :func:`mjfast.win_by_turn`, exact odds, ...), for every call that does not pass
        ``progress=False``. "auto": a bar when stderr is a terminal or a Jupyter notebook (the
        default); "always": into files and pipes too; "never" (or False): no bar anywhere.
        True means "always". None: back to the environment variable ``MJFAST_PROGRESS``
        (auto, always or 1, never or 0), else "auto". A bar shows only on runs longer than
        half a second. Options not given keep their value.

    Examples
    --------
    >>> import mjfast
    >>> with mjfast.set_options(progress=False):     # for a block
    ...     mjfast.get_options()
    {'progress': 'never'}
    >>> _ = mjfast.set_options(progress="never")       # for the session
    >>> _ = mjfast.set_options(progress=None)          # back to MJFAST_PROGRESS, else "auto"
    """

    def __init__(self, *, progress=_UNSET):
        self._old = _progress.option()
        if progress is not _UNSET:
            _progress.set_mode(progress)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        _progress.set_mode(self._old)

    def __repr__(self) -> str:
        return f"mjfast.set_options({get_options()})"


def get_options() -> dict:
    """The global options in force, as set by :func:`set_options` (or ``MJFAST_PROGRESS``).

    Examples
    --------
    >>> import mjfast
    >>> mjfast.get_options()["progress"] in ("auto", "always", "never")
    True
    """
    return {"progress": _progress.mode()}
