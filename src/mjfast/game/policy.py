"""Python policies: what a seat sees (SeatView, AmericanView), the base classes a bot
subclasses (Policy, AmericanPolicy), and the error an illegal choice raises."""
from __future__ import annotations

import dataclasses
import importlib
import numbers
from collections.abc import Sequence

import numpy as np

from .. import tiles
from ..hands._american import american_distance


class IllegalActionError(ValueError):
    """A policy chose an action the rules do not allow (names the seat, turn and action)."""


# ---------------------------------------------------------------------------------------------
# the Chinese family

@dataclasses.dataclass(frozen=True)
class SeatView:
    """What one seat can see when it decides (all copies; changing them changes nothing).

    Attributes
    ----------
    seat : int
        This player (0-3; player 0 deals the first hand).
    dealer, hand_number, turn : int
    hand : ndarray (34,) uint8
        This player's concealed tiles.
    melds : tuple of 4 tuples
        Every player's exposed sets and declared kongs, as (kind, first tile name), kind in
        "chow", "pung", "kong", "concealed_kong", "added_kong".
    discards : tuple of 4 tuples of str
        Every player's discards in order (claimed ones included).
    visible : ndarray (34,) uint8
        Tiles seen by everyone: discards still on the table and exposed sets.
    ready : tuple of 4 bool
        Declared ready hands (``ready_declaration`` rule).
    bonus : tuple of 4 int
        Bonus tiles set aside.
    wall_left : int
        Live tiles left to draw.
    drawn : str or None
        The tile just drawn by this player (None after a claim).
    scores : tuple of 4 int
        Every player's running score in the game.
    hands_per_game : int
    """

    seat: int
    dealer: int
    hand_number: int
    turn: int
    hand: np.ndarray
    melds: tuple
    discards: tuple
    visible: np.ndarray
    ready: tuple
    bonus: tuple
    wall_left: int
    drawn: str | None
    scores: tuple = (0, 0, 0, 0)
    hands_per_game: int = 4

    def unseen(self) -> np.ndarray:
        """Copies of each kind this seat has not seen (4 - own - visible)."""
        return 4 - self.hand.astype(np.int64) - self.visible


class Policy:
    """Base class for a Python bot. Subclass it and override :meth:`discard` (at least).

    The engine calls the methods with a :class:`SeatView`; tiles are names such as ``"5p"``.
    Returning anything not offered raises :class:`IllegalActionError` naming the seat, turn
    and action, and the simulation stops (no partial game is counted).

    Examples
    --------
    >>> import mjfast
    >>> class Tsumogiri(mjfast.Policy):
    ...     name = "tsumogiri"
    ...     def discard(self, view):
    ...         return view.drawn or next(t for t in mjfast.tiles.KIND_NAMES if view.hand[mjfast.tiles.tile_index(t)])
    >>> res = mjfast.simulate(4, policies=[Tsumogiri(), "greedy", "greedy", "greedy"], seed=1, progress=False)
    >>> res.games
    4
    """

    name = "python"

    def discard(self, view: SeatView) -> str:
        """The tile to discard (name or kind index); it must be in ``view.hand``."""
        raise NotImplementedError("a Policy must implement discard(view)")

    def claim(self, view: SeatView, tile: str, options: Sequence[str]) -> str | None:
        """Claim the discard ``tile``: one of ``options`` ("win", "kong", "pung", "chow:345m"), or None."""
        return "win" if "win" in options else None

    def own_turn(self, view: SeatView, options: Sequence[str]) -> str | None:
        """After a draw: "win", "concealed_kong:5p", "added_kong:7z" from ``options``, or None to discard."""
        return "win" if "win" in options else None

    def declare_ready(self, view: SeatView) -> bool:
        """Declare a ready hand (only asked under the ``ready_declaration`` rule, when tenpai)."""
        return True


# ---------------------------------------------------------------------------------------------
# the American family

@dataclasses.dataclass(frozen=True)
class AmericanView:
    """What one seat sees in an American game (copies; changing them changes nothing).

    Attributes
    ----------
    seat, dealer, hand_number, turn : int
    hand : ndarray (36,) uint8
        Concealed tiles by kind: 0-33 standard, 34 flowers, 35 jokers.
    exposures : tuple of 4 tuples
        Every player's exposed sets of four, as (tile name, jokers in the set).
    discards : tuple of 4 tuples of str
        Every player's discards in order (called ones included; "j" = joker).
    visible : ndarray (36,) uint8
        Discards and exposed tiles seen by everyone (exposed jokers under 35).
    dead : tuple of 4 bool
    wall_left : int
    drawn : str or None
        The tile just drawn (None after a call and in the Charleston).
    scores : tuple of 4 int
        Every player's running score in the game.
    hands_per_game : int
    jokers : int
        Jokers in the tile set.
    all_joker_sets : bool
        The rules' joker reading (True: a concealed set of four may be all jokers).
    """

    seat: int
    dealer: int
    hand_number: int
    turn: int
    hand: np.ndarray
    exposures: tuple
    discards: tuple
    visible: np.ndarray
    dead: tuple
    wall_left: int
    drawn: str | None
    scores: tuple = (0, 0, 0, 0)
    hands_per_game: int = 4
    jokers: int = 8
    all_joker_sets: bool = True

    def unseen(self) -> np.ndarray:
        """Copies of each kind (0-34) this seat has not seen: 4 (8 flowers) - own - visible."""
        total = np.full(35, 4, np.int64)
        total[34] = 8
        return total - self.hand[:35].astype(np.int64) - self.visible[:35]

    def distance(self) -> int:
        """:func:`~mjfast.hands.american_distance` of this seat's hand and exposed sets (under the
        game's joker reading)."""
        return american_distance(self.hand, [(tiles.american_kind_index(t), j) for t, j in self.exposures[self.seat]],
                                 all_joker_sets=self.all_joker_sets)


class AmericanPolicy(Policy):
    """Base class for a Python bot in American games (any :class:`mjfast.Policy` works too).

    The engine calls, with an :class:`AmericanView` (tiles as names: "5p", "f", "j"):
    ``discard(view)`` (required), ``claim(view, tile, options)`` with options from
    ("win", "quad"), ``own_turn(view, options)`` with options "win" and
    "exchange:<tile>:<seat>" (swap that tile from hand for a joker in that seat's exposed set),
    and the Charleston hooks below. Returning None from a Charleston hook means "the built-in
    greedy choice". Returning "win" when it is not offered is a false Mahjong: the hand is dead.

    Examples
    --------
    >>> import mjfast, numpy as np
    >>> class FirstTile(mjfast.AmericanPolicy):
    ...     def discard(self, view):
    ...         return mjfast.tiles.american_kind_name(int(np.flatnonzero(view.hand)[0]))
    >>> res = mjfast.simulate(2, rules="american", policies=[FirstTile(), "greedy", "greedy", "greedy"],
    ...                       seed=1, progress=False)
    >>> int(res.points.sum())
    5200
    """

    name = "python-american"

    def claim(self, view, tile: str, options: Sequence[str]) -> str | None:
        """Call the discard ``tile``: "win" (Mahjong), "quad" (expose a set of four) or None."""
        return "win" if "win" in options else None

    def own_turn(self, view, options: Sequence[str]) -> str | None:
        """After a draw: "win", an "exchange:..." option, or None to go on to the discard."""
        return "win" if "win" in options else None

    def charleston(self, view, direction: str, blind: bool):
        """Tiles to pass ("right", "across" or "left"): a list of 3 tile names, or fewer when
        ``blind`` is True (the rest are blind-passed); never "j". None: built-in choice."""
        return None

    def second_charleston(self, view) -> bool | None:
        """Vote for a second Charleston (None: built-in choice)."""
        return None

    def courtesy_offer(self, view) -> int | None:
        """Tiles (0-3) to offer the opposite player in the courtesy pass (None: built-in)."""
        return None

    def courtesy(self, view, n: int):
        """The ``n`` tiles to give in the courtesy pass (None: built-in choice)."""
        return None


# ---------------------------------------------------------------------------------------------
# batch policies

class BatchPolicy:
    """Base class for a policy that decides for many tables at once (numpy code, or a neural
    network on your side). Subclass it and override :meth:`act`.

    :func:`mjfast.simulate`, :func:`mjfast.compare` and :func:`mjfast.replay` play it at
    batch speed: the engine steps every table without the GIL to the next question of a seat
    this policy plays, and asks all of them in one call. Questions and encodings are those of
    :class:`mjfast.env.VecTables` (``cn-v0``, ``am-v0``: see :mod:`mjfast.game.encodings`);
    questions with a single legal action are answered without asking.

    Attributes
    ----------
    name : str
        Shown in results.
    derived : bool
        Ask for the derived planes (shanten after each discard, effective tiles, waits) in
        the observation.

    Examples
    --------
    >>> import numpy as np, mjfast
    >>> class RandomLegal(mjfast.BatchPolicy):
    ...     name = "random-legal"
    ...     def __init__(self, seed=0):
    ...         self.rng = np.random.default_rng(seed)
    ...     def act(self, observation, action_mask, seat):
    ...         noise = self.rng.random(action_mask.shape)
    ...         return np.argmax(noise * action_mask, axis=1)
    >>> res = mjfast.simulate(20, policies=[RandomLegal(), "greedy", "greedy", "greedy"], seed=1, progress=False)
    >>> res.games
    20
    """

    name = "batch"
    derived = False

    def act(self, observation: np.ndarray, action_mask: np.ndarray, seat: np.ndarray) -> np.ndarray:
        """The action id of each of the n tables asked.

        Parameters
        ----------
        observation : ndarray (n, C, K) uint8
            The deciding seat's tile planes at each table.
        action_mask : ndarray (n, A) bool
            The legal actions.
        seat : ndarray (n,) int8
            The deciding seat.

        A subclass whose ``act`` also takes a ``scalars`` keyword receives the (n, S) float32
        scalar vectors.

        Returns
        -------
        array_like of int, shape (n,)
        """
        raise NotImplementedError("a BatchPolicy must implement act(observation, action_mask, seat)")


# ---------------------------------------------------------------------------------------------
# naming and resolving

def policy_name(p) -> str:
    return p if isinstance(p, str) else getattr(p, "name", type(p).__name__)


SEARCH = "search"        # the name of mjfast.search.SearchPolicy with its default settings


def search_layer(module: str = ""):
    """``mjfast.search`` (or one of its modules), read by name: the search layer sits above the
    game layer (it plays games forward), so the game layer reaches it only at run time, when a
    policy is named ``"search"`` or asks for the tables' states (``wants_states``)."""
    return importlib.import_module("mjfast.search" + (f".{module}" if module else ""))


def resolve_policies(policies, builtin: Sequence[str], where: str = "") -> list:
    """Four policies (one name or Policy for every seat, or a list of four), each a built-in
    name of ``builtin``, ``"search"`` (one default :class:`mjfast.search.SearchPolicy` for the
    seats so named) or a Policy; ``where`` qualifies the message."""
    builtin = tuple(builtin)
    if isinstance(policies, (str, Policy, BatchPolicy)) or not isinstance(policies, Sequence):
        policies = [policies] * 4
    policies = list(policies)
    if len(policies) != 4:
        raise ValueError(f"policies must be one policy or a list of 4 (one per seat), got {len(policies)}")
    named_search = [isinstance(p, str) and p == SEARCH for p in policies]   # (never `==` on a user's object)
    if any(named_search):       # issue 27: the search bot by name (default settings; one bot for its seats)
        bot = search_layer().SearchPolicy()
        policies = [bot if named else p for p, named in zip(policies, named_search)]
    for p in policies:
        if isinstance(p, str):
            if p not in builtin:
                raise ValueError(f"unknown policy {p!r}{where}; built-in policies are {builtin}, "
                                 f"{SEARCH!r} (mjfast.search.SearchPolicy), or pass a mjfast.Policy instance")
        elif not isinstance(p, (Policy, BatchPolicy)):
            raise TypeError(f"a policy must be a name {builtin}, a mjfast.Policy or a mjfast.BatchPolicy, "
                            f"not {type(p).__name__}")
    if any(isinstance(p, Policy) for p in policies) and any(isinstance(p, BatchPolicy) for p in policies):
        raise ValueError("a table cannot mix per-decision Policy and BatchPolicy players (a Policy is asked one "
                         "question at a time; wrap it in a BatchPolicy, or play BatchPolicy with built-in policies)")
    return policies


class Bridge:
    """Asks the Python policies of one table the engine's questions (``ask``, per family) and
    keeps the first error: an exception of a policy (``fail``) or an illegal answer the engine
    found (``illegal``); the runner raises it once the game has stopped."""

    def __init__(self, policies: list):
        self.policies = policies
        self.error: BaseException | None = None
        self.last = (0, 0)                  # (seat, hand) of the latest question

    def _raise(self, seat: int, view, action, allowed) -> None:
        raise IllegalActionError(f"seat {seat} ({policy_name(self.policies[seat])}), hand {view.hand_number}, "
                                 f"turn {view.turn}: {self._action_text(action)} is not allowed; choose {allowed}")

    def _action_text(self, action) -> str:
        """An answer as the message shows it: a kind index with its tile's name (``33 (7z)``)."""
        if isinstance(action, numbers.Integral) and not isinstance(action, (bool, np.bool_)):
            name = self._kind_name(int(action))
            if isinstance(name, str):
                return f"{int(action)} ({name})"
        return repr(action)

    def fail(self, exc: BaseException) -> None:
        if self.error is None:
            self.error = exc

    def _kind_name(self, kind: int):
        return kind

    def illegal(self, turn: int, message: str, kind: int) -> None:
        seat, hand = self.last
        self.fail(IllegalActionError(f"seat {seat} ({policy_name(self.policies[seat])}), hand {hand}, "
                                     f"turn {turn}: {message} ({self._kind_name(kind)})"))
