"""The environments' memory: an estimate before anything is allocated, refused when the machine
cannot hold it, and a message for any allocation that fails all the same."""
from __future__ import annotations

import contextlib
import importlib
import os
from collections.abc import Iterator

# VecTables' own numpy arrays per table beyond the observation, scalars and mask (seat, rewards,
# status, actions, rows, flags, game keys and numbers, rotation, policies) and the step's
# temporaries (rewards copy, terminated, truncated, masks of the finished tables): a bound
PER_TABLE_ARRAYS = 256


def physical_memory() -> int | None:
    """Bytes of physical memory of this machine (None where the system does not say)."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):  # pragma: no cover - non-POSIX
        return None


def table_bytes(core_class, kernel_rules: dict, n_planes: int, kinds: int, n_scalars: int, n_actions: int,
                float_planes: bool) -> int:
    """Bytes one table of VecTables takes: the engine's state (game, output row, step state) and
    the arrays a step writes (the planes twice with dtype float32)."""
    engine = importlib.import_module(core_class.__module__).table_bytes(kernel_rules)
    planes = n_planes * kinds * (5 if float_planes else 1)
    return int(engine) + planes + 4 * n_scalars + n_actions + PER_TABLE_ARRAYS


def _fmt(b: int) -> str:
    return f"{b / 2**30:.1f} GiB" if b >= 2**30 else f"{b / 2**20:.1f} MiB"


def check(what: str, n: int, per_table: int, hint: str) -> int:
    """Refuse (ValueError) when ``n`` tables of ``per_table`` bytes exceed the machine's
    physical memory; returns the bytes needed."""
    need = n * per_table
    have = physical_memory()
    if have is not None and need > have:
        raise ValueError(f"{what} would need about {_fmt(need)} ({need:,} bytes: {per_table:,} per table, "
                         f"{n:,} tables); this machine has {_fmt(have)}. {hint}")
    return need


@contextlib.contextmanager
def explained(what: str, need: int) -> Iterator[None]:
    """A MemoryError inside says what was being allocated and how much."""
    try:
        yield
    except MemoryError as exc:
        raise MemoryError(f"{what}: out of memory allocating about {_fmt(need)} ({need:,} bytes)"
                          + (f" ({exc})" if str(exc) else "")) from exc
