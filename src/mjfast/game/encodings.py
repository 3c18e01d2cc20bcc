"""The environments' encodings: action ids, observation planes and scalars, by version.

An encoding is named (``"cn-v0"`` for the Chinese rule sets, ``"am-v0"`` for American) and
never changes once released; a new layout gets a new name. :data:`ENCODINGS` maps each name
to an :class:`Encoding` that says what every action id, plane and scalar means.

Examples
--------
>>> from mjfast.game import encodings
>>> cn = encodings.get("cn-v0")
>>> cn.n_actions, cn.planes, cn.scalars
(76, 48, 28)
>>> cn.action_name(13), cn.action_name(35), cn.action_name(39 + 31)
('discard 5p', 'chow (claimed tile middle)', 'kong 5z')
>>> am = encodings.get("am-v0")
>>> am.n_actions, am.planes, am.kinds, am.action_name(46)
(83, 28, 36, 'Mahjong')
"""
from __future__ import annotations

import dataclasses

from .. import tiles
from .._kernels import american_env as _am
from .._kernels import chinese_env as _cn


@dataclasses.dataclass(frozen=True)
class Encoding:
    """One versioned encoding of a rule family's decisions and observations.

    Attributes
    ----------
    name : str
        ``"cn-v0"`` or ``"am-v0"``.
    family : str
        The rule family it encodes (``"chinese"`` or ``"american"``).
    n_actions : int
        Size of the action space (ids ``0 .. n_actions - 1``).
    action_names : tuple of str
        What each id does.
    planes : int
        Tile planes of the default observation (each over the kinds of the family).
    plane_names : tuple of str
        What each plane holds.
    scalars : int
        Entries of the scalar vector.
    scalar_names : tuple of str
    kinds : int
        Width of a plane (34 Chinese kinds; 36 American: flower and joker added).
    extra_planes : dict
        Optional planes (``derived``, ``privileged``) and their names.
    """

    name: str
    family: str
    n_actions: int
    action_names: tuple
    planes: int
    plane_names: tuple
    scalars: int
    scalar_names: tuple
    kinds: int
    extra_planes: dict

    def action_name(self, action: int) -> str:
        """The meaning of action id ``action``."""
        if not 0 <= int(action) < self.n_actions:
            raise ValueError(f"{self.name} action ids are 0-{self.n_actions - 1}; got {action}")
        return self.action_names[int(action)]


def _thermo(what: str) -> list:
    return [f"{what} >= {c}" for c in range(1, 5)]


_REL = ("self", "next", "opposite", "previous")


def _cn_v0() -> Encoding:
    k = tiles.KIND_NAMES
    acts = [f"discard {k[i]}" for i in range(34)]
    acts += ["chow (claimed tile lowest)", "chow (claimed tile middle)", "chow (claimed tile highest)", "pung",
             "exposed kong"]
    acts += [f"kong {k[i]}" for i in range(34)]
    acts += ["win", "pass", "declare ready"]
    planes = _thermo("own concealed tiles") + ["tile just drawn", "discard offered"]
    for r in _REL:
        planes += _thermo(f"{r}: tiles in exposed sets and declared kongs")
    for r in _REL:
        planes += _thermo(f"{r}: discards")
    planes += [f"{r}: latest discard" for r in _REL]
    planes += _thermo("unseen copies") + ["seat wind", "prevalent wind"]
    scal = ["live tiles left", "turn"] + [f"dealer is {r}" for r in _REL] + [f"score of {r}" for r in _REL]
    scal += [f"bonus tiles of {r}" for r in _REL] + [f"concealed kongs of {r}" for r in _REL]
    scal += [f"ready hand of {r}" for r in _REL] + ["hand number"]
    scal += [f"decision: {c.replace('_', ' ')}" for c in _cn.CONTEXTS] + ["hands per game"]
    assert len(acts) == _cn.ACTIONS and len(planes) == _cn.PLANES and len(scal) == _cn.SCALARS
    extra = {
        "derived": ("shanten after discarding the kind, plus one (0: not held; own turn)",
                    "unseen tiles lowering the shanten after discarding the kind (best discards; own turn)",
                    "kinds completing the hand (claim window, ready declaration)"),
        "derived_scalars": ("own shanten",),
        "privileged": tuple(n for r in _REL[1:] for n in _thermo(f"{r}: concealed tiles")),
    }
    return Encoding("cn-v0", "chinese", len(acts), tuple(acts), len(planes), tuple(planes), len(scal), tuple(scal),
                    34, extra)


def _am_v0() -> Encoding:
    k = tuple(tiles.KIND_NAMES) + ("flower", "joker")
    acts = [f"tile {k[i]} (discard or pass)" for i in range(36)]
    acts += [f"pass {i} blind" for i in range(4)] + [f"offer {i} (courtesy)" for i in range(4)]
    acts += ["vote for the second Charleston", "call for a set of four", "Mahjong", "pass"]
    acts += [f"joker exchange {k[i]}" for i in range(35)]
    planes = [f"own concealed tiles >= {c}" for c in range(1, 9)]
    planes += ["tile just drawn", "discard that may be called", "tiles chosen for this pass (count)"]
    planes += [f"{r}: natural tiles in exposed sets (count)" for r in _REL]
    planes += [f"{r}: jokers in exposed sets (count)" for r in _REL]
    planes += [f"{r}: discards (count)" for r in _REL] + [f"{r}: latest discard" for r in _REL]
    planes += ["unseen copies (count)"]
    scal = ["wall tiles left", "turn"] + [f"dealer is {r}" for r in _REL] + [f"score of {r}" for r in _REL]
    scal += [f"dead hand of {r}" for r in _REL] + ["hand number", "hands per game"]
    scal += [f"Charleston pass {i}" for i in range(6)] + ["courtesy pass", "tiles still to choose",
                                                           "tiles passed blind", "blind pass allowed"]
    scal += [f"decision: {c.replace('_', ' ')}" for c in _am.CONTEXTS] + ["jokers in the set"]
    assert len(acts) == _am.ACTIONS and len(planes) == _am.PLANES and len(scal) == _am.SCALARS
    extra = {
        "derived": ("distance after discarding the kind, plus one (0: not held; own turn)",
                    "kinds completing the hand (call context)"),
        "derived_scalars": ("own distance to Mahjong",),
        "privileged": tuple(f"{r}: concealed tiles (count)" for r in _REL[1:]),
    }
    return Encoding("am-v0", "american", len(acts), tuple(acts), len(planes), tuple(planes), len(scal),
                    tuple(scal), 36, extra)


ENCODINGS: dict = {"cn-v0": _cn_v0(), "am-v0": _am_v0()}


def get(name: str) -> Encoding:
    """The encoding called ``name``.

    Examples
    --------
    >>> get("cn-v0").family
    'chinese'
    """
    try:
        return ENCODINGS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown encoding {name!r}; known: {', '.join(ENCODINGS)}") from None
