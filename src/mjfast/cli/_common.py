"""What the subcommands share while they run: the notes and the fresh-seed line printed on
stderr, strict JSON, option errors in the command line's words, the ``--policies`` and
``--threads`` checks, the Dask client of ``--backend dask`` and card files.

The game engine and the card reader are imported inside the functions that need them, so
that a one-hand command (``mjfast fan``) starts without loading them.
"""
from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import sys

from .._runtime.threads import resolve_threads

#: one-line notes of this run (deprecated spellings), printed once the arguments are checked
notes: list[str] = []


def note(text: str) -> None:
    if text not in notes:
        notes.append(text)


#: the pending "no --seed given" line of this run (see seed_or_fresh and announce_seed)
seed_note: list[str] = []


def seed_or_fresh(seed):
    """The --seed given, or fresh entropy, to be announced on stderr so the run can be repeated.

    The announcement waits for :func:`announce_seed`, which a command calls once its arguments
    are checked (before the long work, so the line precedes the progress bar); :func:`main`
    drops it on an argument error and prints it otherwise (a result, Ctrl-C, a closed pipe).
    """
    if seed is None:
        from .._runtime.seeding import root_key

        seed = root_key(None).entropy
        seed_note[:] = [f"mjfast: no --seed given; using --seed {seed}"]
    return seed


def announce_notes() -> None:
    """Print the pending notes (deprecated spellings), once."""
    while notes:
        print(notes.pop(0), file=sys.stderr)


def announce_seed() -> None:
    """Print the pending notes and "no --seed given" line, once."""
    announce_notes()
    while seed_note:
        print(seed_note.pop(), file=sys.stderr)


def parse_policies(text: str, rules=None, option: str = "--policies"):
    """The policies of ``--policies``: one built-in name for every seat, or four comma-separated
    names (seat 0 to 3), checked against the rule set's built-in policies."""
    from ..game.runner import FAMILIES

    names = [p.strip() for p in text.split(",")]
    if len(names) not in (1, 4) or not all(names):
        raise ValueError(f"{option} takes one policy name for every seat or four comma-separated names "
                         f"(seats 0 to 3); got {text!r}")
    fam = FAMILIES[getattr(rules, "family", None) or ("american" if rules == "american" else "chinese")]
    for name in names:
        if name not in fam.BUILTIN and name != "search":          # "search": mjfast.search.SearchPolicy
            where = f" with --rules {getattr(rules, 'name', rules)}" if fam.NAME == "american" else ""
            raise ValueError(f"{option}: unknown policy {name!r}{where}; choose from {', '.join(fam.BUILTIN)}, "
                             "search")
    return names[0] if len(names) == 1 else names


def check_run_args(args, rules=None, policies=None) -> None:
    """Raise now, before the seed is announced and the work (or a Dask cluster) starts, the
    errors for bad ``--policies`` (for ``rules``) or ``--threads``."""
    if rules is not None:
        from ..game.runner import family, resolve

        resolve(family(rules), policies)
    if args.threads == 0:
        raise ValueError("--threads takes a positive number of threads, or a negative one to count back from all "
                         "CPUs (-1 = all); got 0")
    if getattr(args, "backend", "local") == "local" or args.threads is not None:  # dask: None = 1 per task
        resolve_threads(args.threads)


def finite(obj):
    """The data with every non-finite float as None: JSON has no NaN or Infinity (strict parsers,
    such as JavaScript's ``JSON.parse``, refuse the bare tokens), and a statistic with no value (the
    standard error of one game, the mean fan of a run without wins) is null."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite(v) for v in obj]
    return obj


def dump_json(obj, indent: int | None = 2, ensure_ascii: bool | None = None) -> str:
    """Strict JSON text of ``obj`` (every JSON output of the command line goes through here):
    non-finite floats become null, and ``allow_nan=False`` makes any that slipped through an
    error rather than a bare ``NaN`` token. Text that stdout cannot encode (the Chinese fan names
    on a cp1252 console) is written as ``\\u`` escapes, which every JSON reader decodes."""
    if ensure_ascii is None:
        ensure_ascii = not stdout_takes_unicode()
    return json.dumps(finite(obj), indent=indent, allow_nan=False, ensure_ascii=ensure_ascii)


def stdout_takes_unicode() -> bool:
    """Whether stdout's encoding can write Chinese characters (UTF-8 can; cp1252 cannot)."""
    return encodable("\u4e2d\u6587")


def encodable(text: str) -> bool:
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def inapplicable(option: str, where: str, why: str):
    """The error of an option that does not apply: it names the option, where it does not
    apply, and why."""
    return ValueError(f"{option} does not apply to {where}: {why}")


def progress_arg(args) -> bool:
    """The ``progress`` argument of the library call: False with --no-progress. --progress
    (a bar even into a file or pipe) is set for the run by :func:`mjfast.cli.main`."""
    return getattr(args, "progress", None) is not False


#: library parameter names -> the options that set them (for messages the library words)
OPTION_OF = {"min_fan": "--min-fan", "base_points": "--base-points", "game_index": "--game", "samples": "-n",
             "games": "-n", "draws": "--draws", "jokers": "--jokers", "rounds": "--rounds", "threads": "--threads",
             "seed": "--seed", "flowers": "--flowers", "seat_wind": "--seat-wind",
             "prevalent_wind": "--prevalent-wind", "policies": "--policies", "visible": "--visible",
             "form": "--form", "method": "--method", "rules": "--rules", "win_tile": "--win", "payment": "--payment",
             "added_kong": "--added-kong", "scoring": "--scoring", "false_win": "--false-win",
             "second_charleston": "--second-charleston", "n": "-n"}


def user_words(message: str) -> str:
    """A library error message in the words of the command line: parameter names become the
    options that set them (``min_fan`` -> ``--min-fan``, ``rules='mcr'`` -> ``--rules mcr``),
    Python tuples and lists of names become plain lists, ``10**6`` becomes 1,000,000."""
    def opt(name: str) -> str:
        return OPTION_OF.get(name, name)

    def assign(m):
        name, value = m.group(1), m.group(3)
        if name not in OPTION_OF:
            return m.group(0)
        return f"{opt(name)} {'none' if value == 'None' else value}"

    msg = re.sub(r"\b([a-z_]+)=(['\"]?)([^,;:)'\" ]*)\2", assign, message)
    msg = re.sub(r"^([a-z_]+)(?= must | is an option | applies to | is more than )",
                 lambda m: opt(m.group(1)), msg)
    msg = re.sub(r"\bkind '([a-z_]+)'", lambda m: "odds-table " + m.group(1).replace("_", "-"), msg)
    msg = re.sub(r"[(\[]((?:'[^']*'(?:, )?)+),?[)\]]", lambda m: ", ".join(re.findall(r"'([^']*)'", m.group(1))), msg)
    msg = msg.replace(", or pass a mjfast.Policy instance", "")
    msg = re.sub(r"\ban int\b", "a whole number", msg)
    msg = re.sub(r"\bNone\b", "none", msg)
    msg = re.sub(r"\b(10|2)\*\*(\d+)\b", lambda m: f"{int(m.group(1)) ** int(m.group(2)):,}", msg)
    return msg


@contextlib.contextmanager
def backend_client(args):
    """The Dask client for ``--backend dask`` (None for the local backend), closed afterwards.

    ``--scheduler ADDRESS`` connects to a running cluster. Without it, ``distributed.Client()``
    decides: the scheduler named by Dask's configuration (``DASK_SCHEDULER_ADDRESS``) if any,
    else a LocalCluster of worker processes on this machine, started for the run.
    """
    if args.backend != "dask":
        yield None
        return
    from .._runtime.dask import import_distributed

    distributed = import_distributed()
    timeout = 5.0 if args.connect_timeout is None else args.connect_timeout
    try:
        client = (distributed.Client(args.scheduler, timeout=timeout) if args.scheduler
                  else distributed.Client())
    except OSError as exc:
        raise ValueError(f"cannot connect to the Dask scheduler {args.scheduler or ''} within "
                         f"{timeout:g} s (--connect-timeout): {exc}") from exc
    if not args.scheduler:
        print(f"mjfast: no --scheduler given; using Dask scheduler {client.scheduler.address}", file=sys.stderr)
    try:
        yield client
    finally:
        client.close()


def load_card_file(path: str, jokers: int | None = None):
    """A card file as the command line names it (errors in the user's words)."""
    from ..card import load_card

    try:
        return load_card(path, jokers=8 if jokers is None else jokers)
    except FileNotFoundError:
        raise ValueError(f"--card: no such file: {path}") from None
    except IsADirectoryError:
        raise ValueError(f"--card: {path} is a directory, not a card file") from None


# ---------------------------------------------------------------- stdout and stderr

@contextlib.contextmanager
def unencodable_escaped():
    """On a stdout whose encoding cannot write every character (a cp1252 console), characters it
    cannot write come out as backslash escapes for the command, never as an error. (The
    commands that print Chinese fan names leave them out there, or escape them in JSON.)"""
    out = sys.stdout
    if (not isinstance(out, io.TextIOWrapper) or out.errors != "strict" or stdout_takes_unicode()):
        yield
        return
    out.reconfigure(errors="backslashreplace")
    try:
        yield
    finally:
        with contextlib.suppress(ValueError, OSError):     # a stream closed meanwhile
            out.reconfigure(errors="strict")


def quiet_broken_pipe() -> None:
    """After a BrokenPipeError: point the closed stream(s) at /dev/null, so that the flush of
    the data still buffered when the interpreter exits cannot fail (Python's own recipe)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        for stream in (sys.stdout, sys.stderr):
            try:
                fd = stream.fileno()
            except (AttributeError, ValueError, OSError):   # replaced by a non-file (tests' capture)
                continue
            try:
                stream.flush()   # an open stream keeps what it holds (stdout to a file, stderr to a terminal)
            except OSError:
                os.dup2(devnull, fd)
                continue
            if stream is sys.stdout:   # nothing more is printed there
                os.dup2(devnull, fd)
    finally:
        os.close(devnull)
