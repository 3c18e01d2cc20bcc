"""Rule families as records: one typed :class:`Family` per family, in one registry
(:data:`FAMILIES`).

A rule set names the family that plays it (``RuleSet.family``); the family's record says what
the rest of the library needs of it. Its plain facts are fields of the record (the hand model,
the action and observation encoding, the result extensions, whether hands use dice, ...). What
its engine provides (the kernel's table class, the output columns, the built-in policies, the
bridge to Python policies, the log reader, the counters that build the result extensions) is
written by the family's engine adapter (``mjfast.game.chinese``, ``mjfast.game.american``) as
one :class:`EngineParts` value named ``ENGINE``; the record names the adapter by its import
path and reads that value the first time one of those parts is asked for. The rules therefore
import nothing above them (the engines build on the rules), and nothing registers itself at
import time: the record is the whole contract, and a test checks that every adapter fulfils it.

Examples
--------
>>> from mjfast import rules
>>> fam = rules.family("mcr")
>>> fam.name, fam.hand_model, fam.encoding, fam.extensions
('chinese', 'standard', 'cn-v0', ('fans',))
>>> sorted(fam.builtin)
['defensive', 'greedy', 'greedy_blind', 'humanlike', 'random']
>>> rules.family(rules.get("american")).engine.__name__
'AmericanTable'
>>> rules.family("riichi")
Traceback (most recent call last):
...
ValueError: unknown rules 'riichi'; choose one of ('classical', 'basic', 'mcr', 'mcr-botzone', 'american')
"""
from __future__ import annotations

import dataclasses
import functools
import importlib
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any


@dataclasses.dataclass(frozen=True)
class EngineParts:
    """What a rule family's engine adapter provides (its module's ``ENGINE``).

    Attributes
    ----------
    engine : type
        The kernel's table class (one resumable game: ``ChineseTable``, ``AmericanTable``).
    table : callable (kernel rules, bridge or None, log capacity=0) -> table
        A table of ``engine`` for a rule set's ``kernel()`` dict.
    play_batch : callable
        The kernel's batch entry for built-in policies: ``(kernel rules, game indices, k0, k1,
        policy codes, out, threads)``.
    out_width : callable (kernel rules) -> int
        Columns of a game's output row.
    vec : type
        The batched tables of environments and BatchPolicy play (``ChineseVec``, ``AmericanVec``).
    builtin : mapping of str -> int
        The built-in policies by name, and their engine codes.
    out : mapping of str -> int
        The output row's columns by name.
    counters : mjfast.game.accumulate.Counters
        Where the counters are in the rows, and the result extensions they build.
    bridge : callable (policies, rules) -> mjfast.game.policy.Bridge
        The bridge that asks Python policies the engine's questions.
    event_fields : callable (event name, seat, a, b) -> dict
        The fields of one logged event.
    named_out : callable (output row) -> dict, or None
        A game's counters by name, for logs (None: the family's logs carry none).
    log_defaults : callable (log version, base rule set, header options) -> dict
        Options an older log's games were played with that its header does not say.
    log_reader : callable
        The decision a logged game shows a seat took (in the family's encoding), for
        :func:`mjfast.env.decisions` on logs.
    """

    engine: type
    table: Callable[..., Any]
    play_batch: Callable[..., Any]
    out_width: Callable[[dict], int]
    vec: type
    builtin: Mapping[str, int]
    out: Mapping[str, int]
    counters: Any
    bridge: Callable[..., Any]
    event_fields: Callable[[str, int, int, int], dict]
    named_out: Callable[[Any], dict] | None
    log_defaults: Callable[[int, Any, dict], dict]
    log_reader: Callable[..., tuple]


@dataclasses.dataclass(frozen=True)
class Family:
    """A rule family: what the library needs of the engine that plays its rule sets.

    Attributes
    ----------
    name : str
        The family (``RuleSet.family``).
    hand_model : str
        How its hands are read: ``"standard"`` (34 kinds, sets and a pair) or ``"american"``
        (jokers; the flowers one kind).
    encoding : str
        The action and observation encoding of its environments (:mod:`mjfast.game.encodings`).
    extensions : tuple of str
        The statistics its results may carry (``SimResult.stats`` keys), in order.
    where : str
        What qualifies an "unknown policy" message ("" or " for rules='american'").
    dice : bool
        Hands break the wall with dice (logs and scripted walls carry them).
    scripted_seed : int or None
        The seed of the built-in policies in games on scripted walls (None: the key (0, 0)).
    named_out_in_scripted_logs : bool
        :func:`~mjfast.play_walls` logs carry the game's counters by name in their header.
    adapter : str
        The import path of the engine adapter whose ``ENGINE`` (:class:`EngineParts`) gives
        the parts below.

    The engine's parts (read from the adapter on first use): ``engine`` (the kernel's table
    class), ``table``, ``play_batch``, ``out_width``, ``vec``, ``builtin`` (the built-in
    policies), ``out`` (the output columns), ``counters`` (and through them the result
    extensions), ``bridge``, ``event_fields``, ``named_out``, ``log_defaults``, ``log_reader``.
    """

    name: str
    hand_model: str
    encoding: str
    extensions: tuple[str, ...]
    where: str
    dice: bool
    scripted_seed: int | None
    named_out_in_scripted_logs: bool
    adapter: str

    def __repr__(self) -> str:
        return f"<rule family {self.name!r}: hand model {self.hand_model!r}, encoding {self.encoding!r}>"

    @property
    def parts(self) -> EngineParts:
        """The engine adapter's parts (imported on first use)."""
        return _parts(self.adapter)

    # the parts, by name
    @property
    def engine(self) -> type:
        return self.parts.engine

    @property
    def table(self) -> Callable[..., Any]:
        return self.parts.table

    @property
    def play_batch(self) -> Callable[..., Any]:
        return self.parts.play_batch

    @property
    def out_width(self) -> Callable[[dict], int]:
        return self.parts.out_width

    @property
    def vec(self) -> type:
        return self.parts.vec

    @property
    def builtin(self) -> Mapping[str, int]:
        return self.parts.builtin

    @property
    def out(self) -> Mapping[str, int]:
        return self.parts.out

    @property
    def counters(self) -> Any:
        return self.parts.counters

    @property
    def bridge(self) -> Callable[..., Any]:
        return self.parts.bridge

    @property
    def event_fields(self) -> Callable[[str, int, int, int], dict]:
        return self.parts.event_fields

    @property
    def named_out(self) -> Callable[[Any], dict] | None:
        return self.parts.named_out

    @property
    def log_defaults(self) -> Callable[[int, Any, dict], dict]:
        return self.parts.log_defaults

    @property
    def log_reader(self) -> Callable[..., tuple]:
        return self.parts.log_reader

    # The command line reads these two until it reads .name and .builtin (remove them then).
    @property
    def NAME(self) -> str:  # noqa: N802
        return self.name

    @property
    def BUILTIN(self) -> Mapping[str, int]:  # noqa: N802
        return self.builtin


@functools.cache
def _parts(adapter: str) -> EngineParts:
    parts = importlib.import_module(adapter).ENGINE
    if not isinstance(parts, EngineParts):
        raise TypeError(f"{adapter}.ENGINE must be a mjfast.rules.EngineParts, not {type(parts).__name__}")
    return dataclasses.replace(
        parts, builtin=MappingProxyType(dict(parts.builtin)), out=MappingProxyType(dict(parts.out)))


CHINESE = Family(name="chinese", hand_model="standard", encoding="cn-v0", extensions=("fans",), where="",
                 dice=True, scripted_seed=None, named_out_in_scripted_logs=False, adapter="mjfast.game.chinese")
AMERICAN = Family(name="american", hand_model="american", encoding="am-v0", extensions=("american", "lines"),
                  where=" for rules='american'", dice=False, scripted_seed=0, named_out_in_scripted_logs=True,
                  adapter="mjfast.game.american")

#: every rule family by name
FAMILIES: Mapping[str, Family] = MappingProxyType({f.name: f for f in (CHINESE, AMERICAN)})
