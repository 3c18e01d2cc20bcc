"""The tsumogiri bot in Botzone's keep-running mode: the first turn reads the whole history
(simple interaction), every later turn one request line; each answer is followed by the
keep-running marker line."""
import sys

MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def answer(request):
    words = request.split(" ")
    return f"PLAY {words[1]}" if words[0] == "2" else "PASS"


n = int(sys.stdin.readline())
lines = [sys.stdin.readline().rstrip("\n") for _ in range(2 * n - 1)]
request = lines[-1]
while True:
    print(answer(request))
    print()
    print(MARKER, flush=True)
    request = sys.stdin.readline()
    if not request:
        break
    request = request.rstrip("\n")
