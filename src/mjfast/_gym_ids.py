"""The Gymnasium ids of mjfast's environments and their registration, kept out of
:mod:`mjfast.env` so that ``import mjfast`` can register them without importing Gymnasium.

Three ways register the ids (each is idempotent):

- ``import mjfast`` when Gymnasium is already imported: :func:`register` at once;
- ``import mjfast`` first: it puts a one-shot finder on ``sys.meta_path`` (``mjfast._GymIdsHook``,
  defined in ``mjfast/__init__.py`` so that this module is imported only with Gymnasium) that
  registers the ids right after ``import gymnasium`` finishes (and removes itself);
- Gymnasium's plugin entry point (group ``gymnasium.envs``, name ``mjfast``, pyproject.toml):
  :func:`register` as a plugin function, for the Gymnasium versions that load plugins.

The registered entry points are strings (``"mjfast.env.gym:MahjongEnv"``): registering imports
nothing of mjfast's environments; ``gymnasium.make`` imports them on first use.
"""
from __future__ import annotations

import sys
import warnings
from typing import Any

#: the rule set of each id
ENV_IDS = {"classical": "mjfast/Classical-v0", "basic": "mjfast/Basic-v0", "mcr": "mjfast/MCR-v0",
           "american": "mjfast/American-v0"}


def register() -> None:
    """Register one id per rule set in Gymnasium's registry (ids already there are kept)."""
    # (the registration module, not gymnasium's namespace: a Gymnasium that loads plugins calls
    # this while `import gymnasium` is still running, before gymnasium.registry exists)
    from gymnasium.envs import registration

    for rules, env_id in ENV_IDS.items():
        if env_id not in registration.registry:
            registration.register(id=env_id, entry_point="mjfast.env.gym:MahjongEnv",
                                  vector_entry_point="mjfast.env.gym:MahjongVectorEnv", kwargs={"rules": rules})


class _Then:
    """Gymnasium's own loader, then :func:`register`; the module keeps the real loader."""

    def __init__(self, loader: Any):
        self.loader = loader

    def __getattr__(self, name: str) -> Any:      # get_data, is_package, resource readers...
        return getattr(self.loader, name)

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module) -> None:
        module.__loader__ = self.loader
        if module.__spec__ is not None:
            module.__spec__.loader = self.loader
        self.loader.exec_module(module)
        try:
            register()
        except Exception as exc:  # pragma: no cover - a Gymnasium without register(): never break its import
            warnings.warn(f"mjfast could not register its Gymnasium ids: {exc!r}", RuntimeWarning, stacklevel=2)


def gymnasium_spec(name: str, path=None, target=None):
    """The import hook's work (``mjfast._GymIdsHook``) at ``import gymnasium``: leave
    ``sys.meta_path`` (one shot), find Gymnasium as the other finders would, and have its
    loader call :func:`register` once the module has run."""
    remove_hook()
    for finder in sys.meta_path:
        find = getattr(finder, "find_spec", None)
        spec = find(name, path, target) if find is not None else None
        if spec is not None:
            if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                spec.loader = _Then(spec.loader)
            return spec
    return None


def remove_hook() -> None:
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_GymIdsHook"]
