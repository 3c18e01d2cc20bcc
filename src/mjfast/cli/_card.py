"""``mjfast card F H``: an American hand against a card of hands, the nearest lines."""
from __future__ import annotations

from ._common import dump_json, load_card_file
from ._options import add_format, add_hand, whole_number


def add_parser(sub) -> None:
    """Add ``mjfast card`` to the subcommands."""
    cd = sub.add_parser("card", help="an American hand against a card of hands: the nearest lines",
                        description="The lines of an American card (an mjfast-card/1 file you own; see "
                                    "docs/american-cards.md) nearest to a hand: tiles still needed, the tiles "
                                    "missing, jokers used, dead lines; a complete hand's Mahjong line.")
    cd.add_argument("file", metavar="FILE", help="the card file (.json, .toml, .yaml)")
    add_hand(cd, 'the concealed tiles, e.g. "111m 444p 777s 4z jj 5z 9p" (f1-f8, j)')
    cd.add_argument("--exposures", nargs="*", default=None, metavar="SET",
                    help="exposed sets, e.g. 4444p 777sj (a j is a joker in the set)")
    cd.add_argument("--visible", default=None, metavar="TILES",
                    help="tiles seen outside the hand and its exposures (discards, other exposures): lines "
                         "they make impossible are dead")
    cd.add_argument("--top", type=whole_number, default=None, metavar="K", help="the K nearest lines (default 5)")
    cd.add_argument("--all", action="store_true", help="every line of the card")
    cd.add_argument("--jokers", type=whole_number, default=None, metavar="J", help="jokers in the set (default 8)")
    add_format(cd, ["table", "json"])
    cd.set_defaults(func=run)


def run(args) -> int:
    """Run ``mjfast card``; the exit status."""
    card = load_card_file(args.file, args.jokers)
    hand = " ".join(args.hand)
    exposures = args.exposures or None
    if args.top is not None and args.top < 1:
        raise ValueError(f"--top must be at least 1, got {args.top}")
    rows = card.best(hand, None if args.all else (args.top or 5), exposures=exposures, visible=args.visible,
                     jokers=args.jokers)
    match = None
    counted, _single, exps, _n, _j, _u = card._prepare(hand, exposures, None, args.jokers, "hand")
    n_tiles = int(counted[0, :36].sum()) + int(exps[0, 1::2].sum())
    if n_tiles == 14:
        match = card.match(hand, exposures)
    if args.format == "json":
        print(dump_json({"card": card.name, "hand": hand, "exposures": list(args.exposures or []),
                     "visible": args.visible, "lines": [r.to_dict() for r in rows],
                     "match": None if match is None else match.to_dict()}))
        return 0
    print(f"card: {card.name or args.file} ({len(card.ids)} lines, {len(card.variations)} variations)")
    head = f"{'line':<14} {'section':<14} {'points':>6} {'distance':>8} {'jokers':>6}  missing / nearest variation"
    print(head)
    for r in rows:
        dist = "dead" if r.dead else str(r.distance)
        extra = "" if r.dead else f"{r.missing or '-'}   [{r.variation}]"
        flag = " (concealed)" if r.concealed else ""
        print(f"{r.id:<14} {r.section[:14]:<14} {r.points:>6} {dist:>8} {r.jokers_used:>6}  {extra}{flag}")
    if match is not None:
        print(f"Mahjong: {match.id} for {match.points} points"
              + (", jokerless: worth " + str(match.value) if match.jokerless and match.value != match.points else "")
              + f"  [{match.variation}]")
    return 0
