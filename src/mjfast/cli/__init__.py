"""The ``mjfast`` command line.

``mjfast simulate``   win rates of simulated games (the README's first command)
``mjfast compare A B`` policy A against policy B on the same walls (paired differences)
``mjfast replay``     the event log of one simulated game, as JSON lines
``mjfast deal-stats`` odds of dealt hands
``mjfast demo``       classify a batch of random hands and report how fast
``mjfast shanten H``  shanten, waits and effective tiles of one hand
``mjfast analyze H``  one hand as a table: shanten per form, waits, each discard's effective tiles
                     (--rules mcr: the fans of each wait, on a discard and self-drawn)
``mjfast fan H``      the Chinese Official fans of a winning hand
``mjfast card F H``   an American hand against a card of hands: the nearest lines
``mjfast odds-table`` deal odds, win-by-turn curves, win rates, MCR ready deals and fans, American
                     card lines as a table (and a plot)
``mjfast config``     how mjfast was built (OpenMP or not) and what it will use
``mjfast botzone``    Botzone match logs: judge them again on the engine, or make training arrays
``mjfast calibration`` simulated Chinese Official play beside people's (draw rate, self-drawn share)

One vocabulary across the subcommands (see :data:`VOCABULARY`): ``-n`` is the size of a run,
spelled out as ``--games`` (simulate, compare, odds-table win-rate and mcr-fans), ``--deals``
(deal-stats, odds-table deal, mcr-ready and american-lines), ``--samples`` (odds-table win-by-turn) or
``--hands`` (demo); ``--policies`` the four seats' policies (one name or four comma-separated),
``--draw-policy`` the drawing policy of win-by-turn odds; ``--seed``, ``--threads``,
``--format``, ``--rules``, ``--backend``; ``--progress``/``--no-progress``. Earlier spellings
(``--policy``) still work, with a one-line note on stderr. An option that does not apply to
the subcommand, the rule set or the odds-table kind is an error that names it.

Every subcommand takes ``--format json`` (``replay`` prints JSON lines by default): strict JSON,
a value that is not a number (the standard error of one game) written as null
(:func:`mjfast.cli._common.dump_json`).
``mjfast --version`` prints the version; ``mjfast --progress`` / ``--no-progress`` before the
subcommand set its progress bars. Output into a pipe that closes early (``mjfast simulate |
head``) ends the command quietly with status 141 (128 + SIGPIPE), as other Unix tools end; a
fresh seed is announced on stderr only once the arguments have been checked (run sizes are
checked as they are parsed); Ctrl-C ends a run with status 130, after the table of what
``simulate`` or ``deal-stats`` finished. On a stdout that cannot write Chinese (cp1252) the fan
tables leave the Chinese names out and nothing fails on a character the console lacks.
The subcommands and their examples: docs/cli.md.

Layout: this face builds the parser and runs a subcommand; each subcommand is a private module
(``mjfast odds-table``: ``_odds_table``) with its ``add_parser`` and its ``run``; ``_options`` holds
the options they share (the game-rule flags among them), ``_common`` what they share while running.
Each imports the library modules it runs inside ``run``, so that ``mjfast fan`` starts quickly.
"""
from __future__ import annotations

import argparse
import sys

from .._version import __version__
from . import (
    _advise,
    _analyze,
    _botzone,
    _calibration,
    _card,
    _compare,
    _config,
    _deal_stats,
    _demo,
    _fan,
    _odds_table,
    _replay,
    _shanten,
    _simulate,
)
from ._common import notes, quiet_broken_pipe, seed_note, unencodable_escaped
from ._options import Formatter
from ._run import run_parsed

__all__ = ["EXIT_BROKEN_PIPE", "VOCABULARY", "build_parser", "main"]

#: exit status after the reader of stdout (or stderr) went away: 128 + SIGPIPE, as a shell
#: reports a tool that SIGPIPE ended (``yes | head``)
EXIT_BROKEN_PIPE = 141

#: the words of the command line (old spelling -> new one); the old ones keep working, with a
#: note on stderr
VOCABULARY = {"simulate --policy": "--policies", "replay --policy": "--policies",
              "odds-table --policy": "--draw-policy"}

#: the subcommands, in the order ``mjfast --help`` lists them
_SUBCOMMANDS = (_simulate, _compare, _replay, _deal_stats, _demo, _shanten, _analyze, _fan, _card, _odds_table,
                _config, _botzone, _calibration, _advise)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mjfast", description="Very fast mahjong hands, deals and simulations.",
        epilog="The same words everywhere: -n N is the size of a run (--games, --deals, --samples or --hands, as "
               "the subcommand counts), --policies the four seats' policies, --draw-policy the drawing policy of "
               "win-by-turn odds; --seed, --threads, --format, --rules, --backend, --progress/--no-progress. "
               "An option that does not apply is an error. mjfast SUBCOMMAND --help for the details.")
    p.add_argument("--version", action="version", version=f"mjfast {__version__}",
                   help="print the version and exit")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--progress", dest="global_progress", action="store_true", default=None,
                       help="progress bars even when stderr is not a terminal, for the subcommand that follows "
                            "(the same as its own --progress)")
    group.add_argument("--no-progress", dest="global_progress", action="store_false",
                       help="no progress bars for the subcommand that follows")
    sub = p.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND",
                           help="what to do (mjfast SUBCOMMAND --help lists its options)")
    for command in _SUBCOMMANDS:
        command.add_parser(sub)
    for parser in sub.choices.values():
        parser.formatter_class = Formatter
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``mjfast`` command; returns the exit status.

    When the reader of the output goes away (``mjfast simulate | head -1``), the command stops
    quietly with status 141 (128 + SIGPIPE, what a shell reports for ``yes | head``): no
    traceback, and no "Exception ignored" message when the interpreter flushes stdout on exit.
    """
    seed_note.clear()
    notes.clear()
    try:
        try:
            with unencodable_escaped():
                return _main(argv)
        finally:        # a closed pipe shows here at the latest (--help, --version: SystemExit), not at exit
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:
                    stream.flush()
    except BrokenPipeError:
        quiet_broken_pipe()
        return EXIT_BROKEN_PIPE


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    return run_parsed(parser, parser.parse_args(argv))
