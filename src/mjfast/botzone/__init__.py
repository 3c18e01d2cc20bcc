"""Botzone's Chinese-Standard-Mahjong: its bots as mjfast seats, mjfast as a Botzone bot, its logs.

- :class:`Program`: a bot program speaking the protocol, as a policy for :func:`mjfast.simulate`,
  :func:`mjfast.compare`, :func:`mjfast.replay` and :func:`mjfast.rerun` (``rules="mcr"``);
- ``python -m mjfast.botzone --policy NAME_OR_MODULE:CLASS``: any mjfast policy as a bot;
- :func:`read_logs` (the match-data text format and the platform's JSON match logs, streamed
  as :class:`Hand` records), :func:`write_logs` (mjfast games in the text format),
  :func:`judge` and :func:`to_gamelog` (a hand played again on mjfast's engine),
  :func:`decisions` (every decision of Botzone hands as ``cn-v0`` training arrays; also
  through :func:`mjfast.env.decisions`);
- :func:`to_botzone` and :func:`from_botzone`: the tile names (``J1`` is Red, ``7z``).

See docs/botzone.md.
"""
from ._decisions import decisions
from ._hand import Action, Hand
from ._judge import Judgement, judge, to_gamelog, unsupported
from ._logs import JUDGE_NAMES, LogError, read_logs, write_logs
from ._program import BotFailure, Program, Violation
from ._tiles import TILES, from_botzone, to_botzone

__all__ = ["Action", "BotFailure", "Hand", "JUDGE_NAMES", "Judgement", "LogError", "Program", "TILES", "Violation",
           "decisions", "from_botzone", "judge", "read_logs", "to_botzone", "to_gamelog", "unsupported", "write_logs"]
