"""``mjfast fan H``: the Chinese Official fans of a winning hand."""
from __future__ import annotations

from ._common import dump_json, encodable
from ._options import add_format, add_hand, whole_number


def add_parser(sub) -> None:
    """Add ``mjfast fan`` to the subcommands."""
    fa = sub.add_parser("fan", help="Chinese Official (MCR) fans of a winning hand")
    add_hand(fa, 'e.g. "123456789m123p55p" or "11m99p [234p] (7777z) f1"')
    fa.add_argument("--win", required=True, help="the winning tile, e.g. 5p")
    fa.add_argument("--melds", nargs="*", default=None, help="more sets, e.g. [456p] (2222z)")
    fa.add_argument("--self-drawn", action="store_true", help="won on a tile from the wall (default: on a discard)")
    fa.add_argument("--fourth-tile", action="store_true", help="the winning tile is the last copy (Last Tile)")
    fa.add_argument("--kong", action="store_true",
                    help="self-drawn: a kong's replacement tile; on a discard: robbing a kong")
    fa.add_argument("--last-of-wall", action="store_true", help="the last tile of the live wall")
    fa.add_argument("--seat-wind", default="E", choices=["E", "S", "W", "N"], help="the winner's seat wind (default E)")
    fa.add_argument("--prevalent-wind", default="E", choices=["E", "S", "W", "N"],
                    help="the prevalent (round) wind (default E)")
    fa.add_argument("--flowers", type=whole_number, default=None, metavar="K",
                    help="flower tiles (default: those in the hand text)")
    fa.add_argument("--min-fan", type=whole_number, default=8, metavar="F", help="the minimum for a valid win (default 8)")
    add_format(fa, ["table", "json"])
    fa.set_defaults(func=run)


def run(args) -> int:
    """Run ``mjfast fan``; the exit status."""
    from .. import mcr, tiles
    from .._display import text_width
    from ..mcr._input import check_min_fan

    min_fan = check_min_fan(args.min_fan)     # the check of every min_fan of the fan functions
    melds: list = []
    for text in args.melds or ():
        parsed = tiles.parse_tiles(text, max_tiles=None)
        if not parsed.melds or parsed.concealed.any():
            raise ValueError(f"--melds takes sets in brackets or parentheses, e.g. [456p] or (2222z); got {text!r}")
        melds.extend(parsed.melds)
    res = mcr.fan(" ".join(args.hand), melds=melds, win_tile=args.win, self_drawn=args.self_drawn,
                  fourth_tile=args.fourth_tile, kong=args.kong, last_of_wall=args.last_of_wall,
                  seat_wind=args.seat_wind, prevalent_wind=args.prevalent_wind, flowers=args.flowers)
    if args.format == "json":
        print(dump_json(dict(res.to_dict(), reaches_min_fan=res.reaches(min_fan), min_fan=min_fan)))
        return 0
    if not res.is_win:
        print("not a win: the winning tile does not complete the hand")
        return 0
    # the Chinese names where stdout can write them (a cp1252 console cannot), aligned by the
    # columns they take (two per character)
    chinese = encodable("".join(f.chinese for f in res.fans))
    cwidth = max([text_width(f.chinese) for f in res.fans] + [0]) if chinese else 0

    def cells(name: str, zh: str, value: str, times: str, fans: str) -> str:
        zh_col = f"  {zh}{' ' * (cwidth - text_width(zh))}" if chinese else ""
        return f"{name:<{width}}{zh_col}  {value:>2}{times:>4}  {fans:>3}"

    width = max(len(f.name) for f in res.fans)
    for f in res.fans:
        print(cells(f.name, f.chinese, str(f.value), f" x{f.count}" if f.count > 1 else "", str(f.fans)))
    print(cells("total", "", "", "", str(res.total)))
    valid = "a valid win" if res.reaches(min_fan) else "not a valid win"
    print(f"{res.total_without_flowers} fan without flowers: {valid} at a minimum of {min_fan}")
    return 0
