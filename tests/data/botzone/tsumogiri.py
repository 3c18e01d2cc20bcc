"""A tiny Botzone Chinese-Standard-Mahjong bot (simple interaction): it passes every request
and discards the tile it has just drawn. Input: the turn number n, then the requests and its
earlier responses (2n - 1 lines); output: one response line."""
import sys

n = int(sys.stdin.readline())
lines = [sys.stdin.readline().rstrip("\n") for _ in range(2 * n - 1)]
last = lines[-1].split(" ")
print(f"PLAY {last[1]}" if last[0] == "2" else "PASS")
