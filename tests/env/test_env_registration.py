"""The Gymnasium ids are registered by ``import mjfast``, whichever of mjfast and Gymnasium is
imported first, and through Gymnasium's plugin entry point. Each case runs
in a fresh interpreter (tests/_proc.py): registration is a property of a new process."""
from __future__ import annotations

import importlib.metadata
import json
import os
import sys
from pathlib import Path

import pytest

import _proc
import mjfast

pytest.importorskip("gymnasium")

ROOT = Path(__file__).resolve().parents[2]
IDS = ["mjfast/Classical-v0", "mjfast/Basic-v0", "mjfast/MCR-v0", "mjfast/American-v0"]


def _python(code: str) -> str:
    """Run ``code`` in a fresh interpreter that imports this same mjfast; its stdout."""
    env = dict(os.environ)
    here = str(Path(mjfast.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH")) if p)
    out = _proc.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180, env=env)
    assert out.returncode == 0, f"the child exited with {out.returncode}:\n{out.stderr[-4000:]}"
    return out.stdout


MAKE_ALL = f"""
for i in {IDS!r}:
    v = gym.make_vec(i, num_envs=2)
    obs, info = v.reset(seed=1)
    assert obs["action_mask"].shape[0] == 2
    e = gym.make(i)
    e.reset(seed=1)
print("made")
"""


@pytest.mark.parametrize("imports", ["import gymnasium as gym, mjfast", "import mjfast, gymnasium as gym",
                                     "import mjfast\nimport gymnasium.spaces\nimport gymnasium as gym"],
                         ids=["gymnasium-first", "mjfast-first", "gymnasium-submodule-first"])
def test_import_mjfast_registers_the_ids(imports):
    """Failed before: NamespaceNotFound unless mjfast.env had been imported."""
    assert _python(imports + "\n" + MAKE_ALL).strip() == "made"


def test_import_mjfast_does_not_import_gymnasium():
    out = _python("import sys, mjfast\nprint('gymnasium' in sys.modules, 'mjfast.env' in sys.modules)\n"
                  "import mjfast.env\nprint('gymnasium' in sys.modules)")
    assert out.split() == ["False", "False", "False"]


def test_the_module_prefix_form_needs_no_import():
    """Gymnasium's own "module:id" form imports mjfast, which registers the ids."""
    assert _python("import gymnasium as gym\ne = gym.make('mjfast:mjfast/Basic-v0')\nprint(type(e.unwrapped).__name__)"
                   ).strip() == "MahjongEnv"


def test_the_hook_leaves_the_gymnasium_module_as_gymnasium_left_it():
    out = _python("import sys, mjfast\nimport gymnasium\nprint(type(gymnasium.__loader__).__name__, "
                  "type(gymnasium.__spec__.loader).__name__, "
                  "any(type(f).__name__ == '_GymIdsHook' for f in sys.meta_path))")
    assert out.split() == ["SourceFileLoader", "SourceFileLoader", "False"]


def _this_checkout_metadata():
    """The installed distribution of mjfast when it describes this checkout; skips otherwise."""
    try:
        dist = importlib.metadata.distribution("mjfast")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("mjfast's package metadata is not installed (the entry point lives there): "
                    "pip install -e . to test it")
    url = dist.read_text("direct_url.json")
    if url is not None:
        info = json.loads(url)
        if info.get("dir_info", {}).get("editable") and Path(info["url"].removeprefix("file://")).resolve() != ROOT:
            pytest.skip(f"mjfast's installed metadata is another checkout's ({info['url']}): pip install -e . here "
                        "to test the entry point")
    return dist


def test_gymnasium_plugin_entry_point():
    """pyproject's gymnasium.envs entry point registers the ids in a process that never imports
    mjfast itself: Gymnasium 0.26-0.29 call it at ``import gymnasium``; Gymnasium 1.x no longer
    loads plugins, so the child calls it as their loader did."""
    dist = _this_checkout_metadata()
    eps = [ep for ep in dist.entry_points if ep.group == "gymnasium.envs"]
    assert [(ep.name, ep.value) for ep in eps] == [("mjfast", "mjfast._gym_ids:register")], (
        "the installed metadata lacks pyproject's gymnasium.envs entry point: reinstall (pip install -e .)")
    code = ("import sys, importlib.metadata as md\nimport gymnasium as gym\n"
            "from gymnasium.envs import registration\n"
            "loads_plugins = hasattr(registration, 'load_plugin_envs')\n"
            "assert loads_plugins or 'mjfast' not in sys.modules\n"
            "if not loads_plugins:\n"
            "    for ep in md.entry_points(group='gymnasium.envs'):\n"
            "        if ep.name == 'mjfast':\n"
            "            ep.load()()\n" + MAKE_ALL)
    assert _python(code).strip() == "made"
