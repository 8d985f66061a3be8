# gen.py GAMES SEED - write the crafty workload's xboard command script for
# sjeng (stdout).  Each game starts from a generated opening position: one
# of our own list of legal opening lines, cut after 2-8 plies chosen by a
# 64-bit LCG; then sjeng searches to the fixed depth 6 (`sd 6`) and plays
# four plies, alternating sides (`go` makes it play the side to move).
# Deterministic: no Python hashing, no clock.
import sys

games, seed = int(sys.argv[1]), int(sys.argv[2])
M64 = 2**64 - 1
state = (seed * 6364136223846793005 + 1442695040888963407) & M64


def rnd(k):
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) & M64
    return (state >> 33) % k


LINES = [
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6",
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6",
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7",
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6",
    "c2c4 e7e5 b1c3 g8f6 g2g3 d7d5 c4d5 f6d5",
    "g1f3 d7d5 g2g3 g8f6 f1g2 e7e6 e1g1 f8e7",
    "e2e4 e7e6 d2d4 d7d5 b1c3 f8b4 e4e5 c7c5",
    "e2e4 c7c6 d2d4 d7d5 e4e5 c8f5 g1f3 e7e6",
    "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6",
    "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6 g2g3 c8b7",
    "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6 f2f4 f8g7",
    "d2d4 f7f5 g2g3 g8f6 f1g2 g7g6 g1f3 f8g7",
]

print("xboard")
print("easy")                  # no pondering (thinking on the opponent's time)
for g in range(games):
    moves = LINES[rnd(len(LINES))].split()[:2 + rnd(7)]
    print("new")
    print("force")
    for m in moves:
        print(m)
    print("sd 6")
    for k in range(4):
        print("go")
print("quit")
