"""``mjfast shanten H``: shanten, waits and effective tiles of one hand."""
from __future__ import annotations

from typing import Any

from .. import rules as _rules
from ._common import dump_json
from ._options import add_format, add_hand, rules_arg


def add_parser(sub) -> None:
    """Add ``mjfast shanten`` to the subcommands."""
    s = sub.add_parser("shanten", help="shanten, waits and effective tiles of one hand")
    add_hand(s, 'e.g. "123m456p789s1122z"')
    s.add_argument("--form", default="all",
                   help="the winning shape: all (default: the best of the rule set's forms), standard, "
                        "seven_pairs, thirteen_orphans, honors_knitted, knitted_straight (mcr) or beginner "
                        "(american)")
    s.add_argument("--rules", type=rules_arg, default=None, help="none (default), classical, basic, mcr or american")
    s.add_argument("--visible", default=None, help="tiles seen elsewhere, e.g. 1z5p")
    add_format(s, ["table", "json"],
                extra="json: one object with hand, shanten, form, rules, visible; for 3k+1 "
                      "tiles waits (empty unless tenpai) and effective_tiles {count, tiles}; for 3k+2 tiles "
                      "discards [{discard, shanten, count, tiles}] (empty for a complete hand) and, except "
                      "under rules american, decompositions (lists of sets; empty unless complete). tiles "
                      "maps each tile to its unseen copies")
    s.set_defaults(func=run)


def run(args) -> int:
    """Run ``mjfast shanten``; the exit status."""
    from .. import hands
    from ..hands._american import SIZES_SHANTEN
    from ..hands._input import AMERICAN, as_batch

    text = " ".join(args.hand)
    s = hands.shanten(text, form=args.form, rules=args.rules)
    american = _rules.hand_facts(args.rules).model == "american"
    if american:  # 13 tiles: waiting hand; 14: one row per discard
        n = 13 if int(as_batch(text, SIZES_SHANTEN, layout=AMERICAN).data.sum()) == 13 else 14
    else:
        n = int(as_batch(text).data.sum())
    # the facts of the table, in the JSON shape --format json prints (see its help)
    data: dict[str, Any] = {"hand": text, "shanten": s, "form": args.form, "rules": args.rules,
                            "visible": args.visible}
    if n % 3 == 1:
        data["waits"] = hands.waits(text, form=args.form, rules=args.rules) if s == 0 else []
        imp = hands.effective_tiles(text, args.visible, form=args.form, rules=args.rules)
        data["effective_tiles"] = {"count": imp.count, "tiles": dict(imp.tiles)}
    else:
        if not american:
            data["decompositions"] = [list(d) for d in hands.decompose(text)] if s == -1 else []
        data["discards"] = [{"discard": imp.discard, "shanten": imp.shanten, "count": imp.count,
                             "tiles": dict(imp.tiles)}
                            for imp in (hands.effective_tiles(text, args.visible, form=args.form, rules=args.rules)
                                        if s >= 0 else ())]
    if args.format == "json":
        print(dump_json(data))
        return 0
    print(f"hand      {text}")
    print(f"shanten   {s}  (form={args.form}, rules={args.rules})")
    for d in data.get("decompositions", ()):
        print("decomp    " + " ".join(d))
    if n % 3 == 1:
        if s == 0:
            print("waits     " + " ".join(data["waits"]))
        imp = data["effective_tiles"]
        print(f"improve   {imp['count']} unseen tiles: " + " ".join(f"{k}x{v}" for k, v in imp["tiles"].items()))
    elif s >= 0:
        print("discard   shanten  unseen  tiles")
        for row in data["discards"]:
            print(f"  {row['discard']:<8}{row['shanten']:>6}{row['count']:>8}  "
                  + " ".join(f"{k}x{v}" for k, v in row["tiles"].items()))
    return 0
