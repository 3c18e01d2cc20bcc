"""A fingerprint of the MCR fan kernel's results: sha256 of fan_batch's totals and counts over
generated hands of every kind (tests/oracles/mcr_hands.py), to show that a change of the kernel
changes no result.

    PYTHONPATH=src python bench/mcr_fan_hash.py [hands-per-generator] [--cache PATH]

Default 200,000 hands per generator (about 2 minutes to generate; ``--cache`` keeps the arrays
in an .npz file so a second build is checked on the very same input). One line per generator
(its hash and how many hands are wins) and the hash of all of them together.
"""
from __future__ import annotations

import argparse
import hashlib
import os

import numpy as np

from _mcr import mcr_hands, to_arrays  # bench/ is the script's directory (on sys.path)

SEED = 20240601


def generate(n: int, cache: str | None) -> dict[str, dict[str, np.ndarray]]:
    if cache and os.path.exists(cache):
        with np.load(cache) as z:
            out: dict = {}
            for key in z.files:
                gen, field = key.split("/")
                out.setdefault(gen, {})[field] = z[key]
        if all(len(v["hands"]) == n for v in out.values()) and set(out) == set(mcr_hands.GENERATORS):
            return out
    out = {name: to_arrays(gen(n, SEED)) for name, gen in mcr_hands.GENERATORS.items()}
    if cache:
        np.savez_compressed(cache, **{f"{g}/{f}": a for g, d in out.items() for f, a in d.items()})
    return out


def run(kernel, data: dict[str, np.ndarray], threads: int = 1) -> tuple[np.ndarray, np.ndarray]:
    n = len(data["hands"])
    total = np.zeros(n, np.int32)
    counts = np.zeros((n, 82), np.int8)
    kernel.fan_batch(data["hands"], data["melds"], data["flags"], total, counts, threads)
    return total, counts


def main(argv=None) -> str:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("n", nargs="?", type=int, default=200_000, help="hands per generator")
    p.add_argument("--cache", default=None, help="an .npz file to keep (or reuse) the generated hands")
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args(argv)

    from mjfast import _core
    from mjfast._kernels import mcr_fan

    _core.ensure_tables()
    sets = generate(args.n, args.cache)
    whole = hashlib.sha256()
    for name in sorted(sets):
        total, counts = run(mcr_fan, sets[name], args.threads)
        h = hashlib.sha256(total.astype("<i4").tobytes() + counts.tobytes()).hexdigest()
        whole.update(h.encode())
        print(f"{name:<16} {len(total):>9,} hands {int((total > 0).sum()):>9,} wins  {h[:16]}")
    digest = whole.hexdigest()
    print(f"{'all':<16} {sum(len(s['hands']) for s in sets.values()):>9,} hands  {digest}")
    print(f"kernel: {mcr_fan.__file__}")
    return digest


if __name__ == "__main__":
    main()
