"""``python -m mjfast.botzone``: mjfast's policies as a Botzone Chinese-Standard-Mahjong bot.

Reads the protocol on standard input in every form the platform uses and answers in the same
form: the simple interaction (a line with the turn number ``n``, then the requests and the
bot's earlier responses, one a line), the JSON interaction (one line
``{"requests": [...], "responses": [...]}``), and in keep-running mode a single request per
turn (the bare request line, or a JSON string literal in JSON mode). With ``--keep-running``
(the default) it prints the keep-running marker after every answer and waits for the next
request; ``--no-keep-running`` answers one turn and exits.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import sys
import time

MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def load_policy(spec: str):
    """A policy from the command line: a built-in name ("greedy"), ``module:Name`` or
    ``path/to/file.py:Name`` where Name is a Policy or BatchPolicy class (made with no
    arguments) or instance."""
    from ..game import chinese
    from ..game.policy import BatchPolicy, Policy

    if spec in chinese.BUILTIN:
        return spec
    if ":" not in spec:
        raise ValueError(f"--policy {spec!r}: a built-in policy ({', '.join(chinese.BUILTIN)}) or MODULE:CLASS "
                         "(a module name or a .py file, and a Policy or BatchPolicy class in it)")
    where, name = spec.rsplit(":", 1)
    if where.endswith(".py"):
        path = os.path.abspath(where)
        if not os.path.isfile(path):
            raise ValueError(f"--policy {spec!r}: no file {where}")
        mod_spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
        if mod_spec is None or mod_spec.loader is None:
            raise ValueError(f"--policy {spec!r}: cannot load {where}")
        module = importlib.util.module_from_spec(mod_spec)
        sys.modules[mod_spec.name] = module
        mod_spec.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    obj = module
    for part in name.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"--policy {spec!r}: {where} has no {name!r}")
        obj = getattr(obj, part)
    if isinstance(obj, type) and issubclass(obj, (Policy, BatchPolicy)):
        obj = obj()
    if not isinstance(obj, (Policy, BatchPolicy)):
        raise ValueError(f"--policy {spec!r}: {name} is not a mjfast.Policy or mjfast.BatchPolicy (class or instance)")
    return obj


class Session:
    """One bot run: the history of the current match and the answers."""

    def __init__(self, bot, keep_running: bool, out=None):
        self.bot = bot
        self.keep_running = keep_running
        self.out = out if out is not None else sys.stdout
        self.requests: list = []
        self.responses: list = []
        self.json = False
        self.times: list = []           # seconds per answer (the --timing report)

    def answer(self) -> str:
        t = time.perf_counter()
        r = self.bot.respond(self.requests, self.responses)
        self.times.append(time.perf_counter() - t)
        self.responses.append(r)
        return r

    def write(self, response: str) -> None:
        text = json.dumps({"response": response}, separators=(",", ":")) if self.json else response
        self.out.write(text + "\n")
        if self.keep_running:
            self.out.write("\n" + MARKER + "\n")
        self.out.flush()

    def turn(self, first: str, readline) -> bool:
        """Read one turn's input, its first line ``first``; answer it. False at the end of input."""
        line = first.rstrip("\r\n")
        if not line.strip():
            return True
        s = line.lstrip()
        if s.startswith("{"):
            obj = json.loads(s)
            if not isinstance(obj, dict) or not isinstance(obj.get("requests"), list) or not isinstance(
                    obj.get("responses", []), list):
                raise ValueError("a JSON input is an object with 'requests' (and 'responses') lists")
            self.json = True
            self.requests = [_text(x) for x in obj["requests"]]
            self.responses = [_text(x) for x in obj.get("responses", [])][:len(self.requests) - 1]
        elif s.startswith('"'):
            req = json.loads(s)
            if not isinstance(req, str):
                raise ValueError("a JSON keep-running input is one request, a JSON string")
            self.json = True
            self._one(req)
        elif s.isdigit():
            n = int(s)
            if n < 1:
                raise ValueError(f"the turn number must be at least 1, got {n}")
            lines = []
            for _ in range(2 * n - 1):
                x = readline()
                if not x:
                    raise ValueError(f"the input ends before its {2 * n - 1} request and response lines")
                lines.append(x.rstrip("\r\n"))
            self.json = False
            self.requests = lines[0::2]
            self.responses = lines[1::2]
        else:
            self.json = False
            self._one(line)
        self.write(self.answer())
        return True

    def _one(self, request: str) -> None:
        if request.startswith("0 "):              # a new match
            self.requests, self.responses = [], []
        if not self.requests and not request.startswith("0 "):
            raise ValueError(f"a single request {request!r} with no history (keep-running input before any turn)")
        self.requests.append(request)


def _text(x) -> str:
    if not isinstance(x, str):
        raise ValueError(f"requests and responses are strings in this game, got {type(x).__name__}")
    return x


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m mjfast.botzone",
                                 description="An mjfast policy as a Botzone Chinese-Standard-Mahjong bot.")
    ap.add_argument("--policy", default="greedy",
                    help="a built-in policy (greedy, defensive, random, greedy_blind) or MODULE:CLASS / FILE.py:CLASS "
                         "naming a mjfast.Policy or mjfast.BatchPolicy (default: greedy)")
    ap.add_argument("--keep-running", dest="keep_running", action="store_true", default=True,
                    help="stay running between turns (the platform's long-running mode; the default)")
    ap.add_argument("--no-keep-running", dest="keep_running", action="store_false",
                    help="answer one turn and exit (the platform starts the bot again with the whole history)")
    ap.add_argument("--timing", action="store_true", help="print each answer's time on standard error")
    args = ap.parse_args(argv)
    try:
        from ._bot import Bot
        bot = Bot(load_policy(args.policy))
    except (ValueError, TypeError, ImportError) as exc:
        print(f"python -m mjfast.botzone: {exc}", file=sys.stderr)
        return 2
    session = Session(bot, args.keep_running)
    readline = sys.stdin.readline
    while True:
        first = readline()
        if not first:
            return 0
        try:
            session.turn(first, readline)
        except Exception as exc:            # the platform counts a crash (RE) against the bot: say why
            print(f"python -m mjfast.botzone: {type(exc).__name__}: {exc}", file=sys.stderr)
            return 1
        if args.timing:
            print(f"answer {len(session.requests)}: {session.times[-1] * 1e3:.2f} ms", file=sys.stderr)
        if not args.keep_running:
            return 0
