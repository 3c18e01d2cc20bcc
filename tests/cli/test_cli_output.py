"""What the command line prints: strict JSON in every output, argument errors before
the seed notice, one HAND in the usage, help text as written, Chinese fan names on consoles that
cannot show them and aligned where they can, progress options before the subcommand, the partial
table on Ctrl-C, net points in American tables, one validation of --min-fan; and the library
displays the command line prints (show_config, DealStats.table, the progress bar's first frame)."""
from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys

import pytest

import _proc
import _strict_json
import mjfast
from mjfast import cli
from mjfast._display import text_width
from mjfast.cli._common import dump_json

MJFAST = [sys.executable, "-m", "mjfast"]


def _env(**extra) -> dict:
    env = dict(os.environ)
    env.pop("MJFAST_PROGRESS", None)
    env.update(extra)
    return env


def _subparsers() -> dict:
    parser = cli.build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


# ------------------------------------------------------------------ strict JSON

#: runs whose statistics include values that have no number (NaN before): one game (no standard
#: error), the Charleston effect of one game, Chinese Official play where nobody reaches the
#: minimum (no mean fan), one wall set, one deal, odds tables of one game
NAN_PRONE = {
    "simulate one game": ["simulate", "-n", "1", "--seed", "1"],
    "simulate american one game": ["simulate", "--rules", "american", "-n", "1", "--seed", "1"],
    "charleston effect one game": ["simulate", "--rules", "american", "-n", "1", "--seed", "1", "--charleston-effect"],
    "mcr nobody wins": ["simulate", "--rules", "mcr", "-n", "1", "--seed", "1", "--min-fan", "88"],
    "compare one wall set": ["compare", "greedy", "random", "-n", "1", "--seed", "1"],
    "deal-stats one deal": ["deal-stats", "-n", "1", "--seed", "1"],
    "odds-table win-rate one game": ["odds-table", "win-rate", "-n", "1", "--seed", "1"],
    "odds-table mcr-fans one game": ["odds-table", "mcr-fans", "-n", "1", "--seed", "1", "--rules", "mcr"],
}


@pytest.mark.parametrize("name", sorted(NAN_PRONE))
def test_json_output_is_strict_json(name, capsys):
    assert cli.main(NAN_PRONE[name] + ["--format", "json", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "NaN" not in text and "Infinity" not in text
    assert isinstance(_strict_json.loads(text), dict)


def test_simulate_one_game_writes_null_for_what_has_no_value(capsys):
    assert cli.main(["simulate", "-n", "1", "--seed", "1", "--format", "json", "--no-progress"]) == 0
    data = _strict_json.loads(capsys.readouterr().out)
    assert data["mean_turns_se"] is None                       # one game: no standard error
    assert data["seats"][0]["mean_points"]["se"] is None
    assert isinstance(data["mean_turns"], float)


def test_the_json_writer_never_writes_nan():
    assert dump_json({"a": float("nan"), "b": [float("inf"), -float("inf"), 1.5], "c": {"d": float("nan")}},
                     indent=None) == '{"a": null, "b": [null, null, 1.5], "c": {"d": null}}'


def test_replay_jsonl_is_the_logs_own_text(capsys):
    assert cli.main(["replay", "--seed", "4", "--game", "1", "--rules", "mcr"]) == 0
    out = capsys.readouterr().out
    assert out == mjfast.replay(4, 1, rules="mcr").to_jsonl()
    for line in out.splitlines():
        _strict_json.loads(line)


def test_odds_table_json_is_strict():
    t = mjfast.odds_table("win_rate", games=1, seed=1, progress=False)
    assert any(r["mean_points_se"] != r["mean_points_se"] for r in t.rows)     # NaN in the rows
    data = _strict_json.loads(t.to_json())
    assert data["rows"][0]["mean_points_se"] is None


# ------------------------------------------------------------------ 15: the seed notice after argument checks

@pytest.mark.parametrize("argv", [
    ["simulate", "-n", "99999999999999999999"],
    ["simulate", "--rules", "american", "--charleston-effect", "-n", "99999999999999999999"],
    ["compare", "greedy", "random", "-n", "99999999999999999999"],
    ["deal-stats", "-n", "99999999999999999999"],
    ["demo", "-n", "1000000000000"],
], ids=lambda a: " ".join(a))
def test_a_run_size_too_large_is_an_argument_error_before_any_seed(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "no --seed given" not in err and "at most" in err, err


def test_out_of_memory_is_a_message_not_a_traceback(monkeypatch, capsys):
    import mjfast.hands._random as random_hands

    def no_memory(*args, **kwargs):
        raise MemoryError("Unable to allocate 3.02 PiB for an array")

    monkeypatch.setattr(random_hands, "random_hands", no_memory)
    assert cli.main(["demo", "-n", "1000"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mjfast: error: not enough memory (Unable to allocate 3.02 PiB") and "Traceback" not in err


def test_the_largest_run_size_is_accepted_by_the_parser():
    args = cli.build_parser().parse_args(["simulate", "-n", str(2**40 - 1)])
    assert args.games == 2**40 - 1


# ------------------------------------------------------------------ 15: usage and help text

@pytest.mark.parametrize("name", ["shanten", "analyze", "fan", "card"])
def test_usage_names_one_hand(name):
    sub = _subparsers()[name]
    usage, text = sub.format_usage(), sub.format_help()
    assert re.search(r"\bHAND\s*$", usage.strip()), usage
    assert "[HAND ...]" not in text and "hand [hand" not in text.lower(), text
    assert "one hand" in text


def test_a_hand_in_several_words_is_one_hand(capsys):
    assert cli.main(["shanten", "123m", "456p", "789s", "1122z"]) == 0
    joined = capsys.readouterr().out
    assert cli.main(["shanten", "123m456p789s1122z"]) == 0
    assert capsys.readouterr().out == joined.replace("123m 456p 789s 1122z", "123m456p789s1122z")


def test_help_text_shows_what_is_written():
    for name, sub in _subparsers().items():
        assert "%%" not in sub.format_help(), name
    assert "95% intervals" in _subparsers()["simulate"].format_help()
    assert "%%" not in cli.build_parser().format_help()


# ------------------------------------------------------------------ 15: non-UTF-8 stdout, CJK columns

def _cp1252(argv):
    return _proc.run(MJFAST + argv, capture_output=True, timeout=180, env=_env(PYTHONIOENCODING="cp1252"))


def test_fan_on_a_cp1252_console():
    out = _cp1252(["fan", "123456789m123p55p", "--win", "5p"])
    assert out.returncode == 0, out.stderr
    text = out.stdout.decode("cp1252")
    assert "Pure Straight" in text and "23 fan without flowers: a valid win" in text
    rows = [line for line in text.splitlines() if line and not line.startswith("23 fan")]
    assert len({len(r) for r in rows}) == 1, rows              # still a table: columns aligned
    js = _cp1252(["fan", "123456789m123p55p", "--win", "5p", "--format", "json"])
    assert js.returncode == 0, js.stderr
    data = _strict_json.loads(js.stdout.decode("cp1252"))
    assert data["fans"][0]["chinese"] == "清龙"                 # the names survive as \\u escapes
    assert data == _strict_json.loads(_proc.run(MJFAST + ["fan", "123456789m123p55p", "--win", "5p", "--format",
                                                          "json"], capture_output=True, timeout=180,
                                                         env=_env(PYTHONIOENCODING="utf-8")).stdout)


def test_odds_table_mcr_fans_on_a_cp1252_console():
    for fmt in ("table", "csv"):
        out = _cp1252(["odds-table", "mcr-fans", "-n", "20", "--seed", "1", "--format", fmt])
        assert out.returncode == 0, out.stderr
        text = out.stdout.decode("cp1252")
        assert "Flower Tiles" in text and "chinese" not in text, text[:400]
        assert b"the chinese column is left out" in out.stderr


def test_fan_table_aligns_chinese_names_by_display_width(capsys):
    assert cli.main(["fan", "123456789m123p55p", "--win", "5p"]) == 0
    rows = capsys.readouterr().out.splitlines()[:-1]           # the fan rows and the total
    assert any("独听・单钓" in r for r in rows)
    assert len({text_width(r) for r in rows}) == 1, rows


def test_odds_table_aligns_chinese_names_by_display_width():
    t = mjfast.odds_table("mcr_fans", games=20, seed=1, progress=False)
    lines = t.table().splitlines()[1:]
    assert any(re.search("[\u4e00-\u9fff]", line) for line in lines)
    assert len({text_width(line) for line in lines}) == 1         # every column right-aligned on the terminal
    col = lines[0].index("chinese") + len("chinese")             # the header is ASCII: columns = characters
    for row, line in zip(t.rows, lines[1:]):                     # the column ends at the same terminal column
        if row["chinese"]:
            end = line.index(row["chinese"]) + len(row["chinese"])
            assert text_width(line[:end]) == col, line


# ------------------------------------------------------------------ 15: mjfast --progress SUBCOMMAND

def test_progress_before_the_subcommand_draws_the_bar():
    out = _proc.run(MJFAST + ["--progress", "deal-stats", "-n", "6000000", "--seed", "1", "--threads", "1"],
                    capture_output=True, text=True, timeout=240, env=_env())
    assert out.returncode == 0, out.stderr
    assert "deal-stats classical:" in out.stderr            # the bar, although stderr is a pipe


def test_no_progress_before_the_subcommand_draws_none():
    out = _proc.run(MJFAST + ["--no-progress", "deal-stats", "-n", "6000000", "--seed", "1", "--threads", "1"],
                    capture_output=True, text=True, timeout=240, env=_env(MJFAST_PROGRESS="always"))
    assert out.returncode == 0, out.stderr
    assert "deal-stats classical:" not in out.stderr


def test_progress_before_a_subcommand_without_a_bar_is_harmless(capsys):
    assert cli.main(["--progress", "shanten", "123m456p789s1122z"]) == 0
    assert cli.main(["--no-progress", "config", "--format", "json"]) == 0


# ------------------------------------------------------------------ 15: Ctrl-C prints the partial table

@pytest.mark.parametrize("argv,unit,fmt", [
    (["simulate", "-n", str(10**9), "--seed", "1", "--threads", "1"], "games", "table"),
    (["deal-stats", "-n", str(10**12), "--seed", "1", "--threads", "1"], "deals", "json"),
], ids=["simulate", "deal-stats"])
def test_ctrl_c_prints_the_table_of_what_was_done(argv, unit, fmt):
    label = f"{argv[0]} classical:"
    with _proc.start(MJFAST + argv + ["--progress", "--format", fmt], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True, env=_env()) as p:
        seen = _proc.read_until(p.stderr, label, timeout=120)     # the bar shows: the run is going
        assert seen.endswith(label), seen
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    m = re.search(rf"mjfast: interrupted after ([\d,]+) {unit} \(the table above covers them\)", err)
    assert m, err
    done = int(m.group(1).replace(",", ""))
    assert done > 0
    if fmt == "json":
        assert _strict_json.loads(out)["n"] == done
    else:
        assert f"games={done:,} " in out and "seat 0 greedy" in out, out


# ------------------------------------------------------------------ 15: the progress bar starts after the tables

PROBE = """
import mjfast
from mjfast._runtime import progress
built = []
real = progress.Progress.__init__
def spy(self, *a, **k):
    built.append(mjfast.show_config()["tables_built"])
    real(self, *a, **k)
progress.Progress.__init__ = spy
{call}
print(built)
"""


@pytest.mark.parametrize("call", ["mjfast.simulate(4, seed=1, progress=False)",
                                  "mjfast.deal_stats(1000, seed=1, progress=False)"])
def test_the_progress_bar_starts_once_the_tables_are_built(call):
    """A bar's first frame (and its ETA) must not count the one-time table build: the tables are
    built before the bar starts its clock."""
    out = _proc.run([sys.executable, "-c", PROBE.format(call=call)], capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[True]", out.stdout


# ------------------------------------------------------------------ 15: American tables in net points

def test_american_tables_show_net_points(capsys):
    res = mjfast.simulate(80, rules="american", seed=3, progress=False)
    net = [res.mean_points(s).mean - 650 for s in range(4)]
    assert abs(sum(net)) < 1e-9 and any(abs(x) > 1 for x in net)      # zero-sum, like the other rule sets
    table = res.table()
    for s in range(4):
        row = next(line for line in table.splitlines() if line.startswith(f"seat {s} "))
        assert f"{net[s]:.2f} ±" in row and f"{net[s] + 650:.2f}" not in row, row
    assert "each player starts at 650" in table
    shown = repr(res)
    for s in range(4):
        row = next(line for line in shown.splitlines() if line.strip().startswith(f"seat {s}"))
        assert re.search(rf"\s{re.escape(mjfast._display.fmt(net[s]))}\s", row), row
    rows = mjfast.odds_table("win_rate", rules="american", games=80, seed=3, progress=False).rows
    assert [r["mean_points"] for r in rows] == pytest.approx(net)
    assert res.to_dict()["seats"][0]["mean_points"]["mean"] == pytest.approx(net[0] + 650)   # the data: final scores


def test_compare_table_shows_net_points(capsys):
    assert cli.main(["compare", "greedy", "random", "--rules", "american", "-n", "20", "--seed", "1",
                     "--no-progress"]) == 0
    out = capsys.readouterr().out
    c = mjfast.compare("greedy", "random", 20, rules="american", seed=1, progress=False)
    for label, res, pol in (("A greedy", c.a, "greedy"), ("B random", c.b, "random")):
        row = next(line for line in out.splitlines() if line.startswith(label))
        assert row.split()[-1] == f"{res.mean_points(policy=pol).mean - 650:+.2f}", row


def test_second_charleston_share_is_a_percentage():
    always = mjfast.simulate(20, rules="american", seed=1, second_charleston=True, progress=False)
    never = mjfast.simulate(20, rules="american", seed=1, second_charleston=False, progress=False)
    assert "second Charleston danced in 100% of hands" in always.table()
    assert "second Charleston danced in 100% of hands" in repr(always)
    assert "second Charleston danced in 0% of hands" in never.table()
    assert "of hands" in never.table() and "in 1.000 of hands" not in always.table()


# ------------------------------------------------------------------ one validation of min_fan

def test_fan_min_fan_is_checked_as_everywhere(capsys):
    assert cli.main(["fan", "123456789m123p55p", "--win", "5p", "--min-fan", "-3"]) == 2
    assert "--min-fan must be between 0 and" in capsys.readouterr().err
    r = mjfast.mcr.fan("123456789m123p55p", win_tile="5p")
    with pytest.raises(ValueError, match="min_fan"):
        r.reaches(-3)
    with pytest.raises(ValueError, match="min_fan"):
        mjfast.simulate(1, rules="mcr", min_fan=-1, progress=False)
    assert cli.main(["fan", "123456789m123p55p", "--win", "5p", "--min-fan", "24"]) == 0
    assert "not a valid win at a minimum of 24" in capsys.readouterr().out


# ------------------------------------------------------------------ 16: show_config, DealStats.table

def test_show_config_returns_and_does_not_print(capsys):
    cfg = mjfast.show_config()
    assert capsys.readouterr().out == ""                 # a REPL shows the returned value once
    assert isinstance(cfg, dict) and isinstance(cfg["openmp"], bool)
    text = repr(cfg)
    assert text == str(cfg) and text.splitlines()[0].startswith("mjfast ") and "openmp" in text
    assert json.loads(json.dumps(cfg)) == dict(cfg)
    assert cli.main(["config"]) == 0
    assert capsys.readouterr().out == text + "\n"


def test_deal_stats_table_uses_the_repr_number_format():
    st = mjfast.deal_stats(100_000, seed=1, progress=False)
    table, shown = st.table(), repr(st)

    def rows(text):
        out = {}
        seat = None
        for line in text.splitlines():
            if line.startswith(("dealer", "non-dealer")):
                seat = line.split()[0]
            m = re.match(r"\s+(-?\d+)\s+(\S+)\s+(\[[^\]]+\])\s+(\S+)\s+(\S+)$", line)
            if m and seat:
                out[(seat, m.group(1))] = m.groups()[1:]
        return out

    a, b = rows(table), rows(shown)
    assert len(a) >= 16 and a == b                      # p, interval, 1 in N and count, cell for cell
    assert "1,667" in table and "1667 " not in table


# ------------------------------------------------------------------ 3: odds_table names its sizes as the CLI does

def test_odds_table_deals_is_the_cli_word():
    a = mjfast.odds_table("mcr_ready", deals=3000, seed=2, progress=False)
    b = mjfast.odds_table("mcr_ready", samples=3000, seed=2, progress=False)     # the earlier spelling
    assert a.to_json() == b.to_json()
    with pytest.raises(ValueError, match="deals does not apply to kind 'win_by_turn': it counts samples"):
        mjfast.odds_table("win_by_turn", deals=10, progress=False)
    with pytest.raises(ValueError, match="samples does not apply to kind 'win_rate': it counts games"):
        mjfast.odds_table("win_rate", samples=10, progress=False)
    with pytest.raises(ValueError, match="give deals= only"):
        mjfast.odds_table("mcr_ready", deals=10, samples=10, progress=False)
    with pytest.raises(ValueError, match="exact odds use no random deals"):
        mjfast.odds_table("deal", deals=10)


def test_odds_table_cli_deals_reaches_python(capsys, tmp_path):
    card = mjfast.card.toy_card()
    path = tmp_path / "toy.json"
    path.write_text(json.dumps(card.to_dict()), encoding="utf-8")
    assert cli.main(["odds-table", "american-lines", "--card", str(path), "--deals", "500", "--seed", "4",
                     "--format", "json"]) == 0
    data = _strict_json.loads(capsys.readouterr().out)
    assert {r["n"] for r in data["rows"]} == {500}
    assert data["rows"] == _strict_json.loads(mjfast.odds_table("american_lines", card=card, deals=500, seed=4,
                                                                 progress=False).to_json())["rows"]

