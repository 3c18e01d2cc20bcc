"""``mjfast config``: how mjfast was built (OpenMP or not) and what it will use."""
from __future__ import annotations

from .._runtime.threads import config, show_config
from ._common import dump_json
from ._options import add_format


def add_parser(sub) -> None:
    """Add ``mjfast config`` to the subcommands."""
    c = sub.add_parser("config", help="show build configuration (OpenMP, threads)")
    add_format(c, ["table", "json"],
                extra="json: one object with the same facts (mjfast, python, numpy, openmp, "
                      "openmp_max_threads, available_cpus, default_threads, tables_built)")
    c.set_defaults(func=run)


def run(args) -> int:
    """Run ``mjfast config``; the exit status."""
    if args.format == "json":
        print(dump_json(config()))
    else:
        print(show_config())
    return 0
