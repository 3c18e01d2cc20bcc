"""Running one parsed ``mjfast`` command: the checks across options, the progress mode, and the
exit status and message of each way a run can end (for :func:`mjfast.cli.main`)."""
from __future__ import annotations

import argparse
import sys

from .._runtime import progress as _progress_mod
from ._common import announce_seed, seed_note, user_words


def run_parsed(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run the subcommand that ``parser`` parsed into ``args``; returns the exit status.

    Checks the options that depend on each other, sets the progress mode the flags ask for (the
    subcommand's own flag over the one before it) for the run only, and turns the errors a user
    can cause into a one-line message and a status: 2 for a bad argument, 130 for Ctrl-C, 1 for
    a run too large for the memory. The seed of a run that started is announced even if it broke
    off.
    """
    if getattr(args, "scheduler", None) and args.backend != "dask":
        parser.error("--scheduler needs --backend dask")
    if getattr(args, "connect_timeout", None) is not None and not args.scheduler:
        parser.error("--connect-timeout needs --backend dask with --scheduler ADDRESS")
    old_mode = _progress_mod.option()
    # --progress: a bar even into a file or a pipe; --no-progress: none. The subcommand's own
    # flag wins over the one before it (mjfast --progress simulate --no-progress: no bar).
    flag = getattr(args, "progress", None)
    if flag is None:
        flag = args.global_progress
    if flag is not None:
        _progress_mod.set_mode("always" if flag else "never")
    try:
        return args.func(args)
    except (ValueError, TypeError, NotImplementedError, ImportError) as exc:
        seed_note.clear()    # an argument error: no run to repeat
        print(f"mjfast: error: {user_words(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        announce_seed()
        print("mjfast: interrupted", file=sys.stderr)
        return 130
    except MemoryError as exc:     # a run too large for this machine: a message, not a traceback
        detail = str(exc) or type(exc).__name__
        print(f"mjfast: error: not enough memory ({detail}); a smaller -n needs less", file=sys.stderr)
        return 1
    finally:
        _progress_mod.set_mode(old_mode)
        announce_seed()      # a run that started names its seed, even if it broke off; the notes
