"""A Botzone bot that misbehaves on purpose, for tests: it plays as tsumogiri.py (simple
interaction) until its turn number reaches AT (argv[2], default 5), then, by MODE (argv[1]):
crash (exits with status 3), sleep (never answers), silent (prints nothing), garbage (prints
bytes that are not UTF-8), claim (answers "PENG W1" to whatever it is asked), lower ("pass"),
hu ("HU" to every request from then on), hu-pung ("HU" to another player's discard of a kind
it was dealt twice or more: a false win where mjfast offers it a pung), json (answers in
JSON instead of lines)."""
import sys
import time

mode = sys.argv[1]
at = int(sys.argv[2]) if len(sys.argv) > 2 else 5
n = int(sys.stdin.readline())
lines = [sys.stdin.readline().rstrip("\n") for _ in range(2 * n - 1)]
last = lines[-1].split(" ")
normal = f"PLAY {last[1]}" if last[0] == "2" else "PASS"
if n < at:
    print(normal)
elif mode == "crash":
    sys.stderr.write("misbehave: crashing on purpose\n")
    sys.exit(3)
elif mode == "sleep":
    time.sleep(600)
elif mode == "silent":
    pass
elif mode == "garbage":
    sys.stdout.buffer.write(b"\xff\xfe PLAY\n")
elif mode == "claim":
    print("PENG W1")
elif mode == "lower":
    print(normal.lower())
elif mode == "hu":
    print("HU")
elif mode == "hu-pung":
    me = lines[0].split(" ")[1]
    dealt = lines[2].split(" ")[5:18]
    discard = last[-1] if last[0] == "3" and last[1] != me and last[2] in ("PLAY", "PENG", "CHI") else None
    print("HU" if discard is not None and dealt.count(discard) >= 2 else normal)
else:
    print(normal)
