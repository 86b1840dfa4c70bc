"""Engine benchmark: legal-play enumeration against GNU Backgammon's own
generator (gnubg-nn), and the time of one judgement.

    python bench/engine.py [--n 4000] [--seed 1] [--repeat 5]

Figures, each a ratio against gnubg-nn timed in the same run:
1. whole processes: ``nardref legal --batch --count`` over N random positions
   against the same loop in Python over gnubg-nn's C generator (decode the ID,
   generate, count); goal: ours at least half as fast (ratio >= 0.5);
2. in-process enumerations per second, resulting boards included;
3. median and worst time of one judgement (legal and illegal moves), each
   the fastest of three runs; goal: worst under 5 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.dice import Dice  # noqa: E402
from engine.judge import judge  # noqa: E402
from engine.legal import legal_plays  # noqa: E402
from engine.position import Position  # noqa: E402
from tests.engine.randpos import random_position  # noqa: E402

GNUBG_LOOP = """
import json, sys
import gnubg_nn
for line in sys.stdin:
    pid, dice = line.split()
    board = gnubg_nn.board_from_position_id(pid)
    n = len(gnubg_nn.moves(board, int(dice[0]), int(dice[1])))
    sys.stdout.write(json.dumps({"count": max(n, 1)}) + "\\n")
"""


def cases(n: int, seed: int) -> list[tuple[Position, Dice]]:
    rng = random.Random(seed)
    return [(random_position(rng), Dice(rng.randint(1, 6), rng.randint(1, 6))) for _ in range(n)]


def run_process(argv: list[str], text: str) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(argv, input=text, capture_output=True, text=True, check=True, cwd=ROOT)
    return time.perf_counter() - start, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=4000, help="random positions (default 4000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="runs of each process; the fastest counts")
    args = parser.parse_args()
    import gnubg_nn

    data = cases(args.n, args.seed)
    text = "".join(f"{p.position_id()} {d}\n" for p, d in data)
    ours_argv = [sys.executable, "-m", "firmware.cli", "legal", "--batch", "--count"]
    theirs_argv = [sys.executable, "-c", GNUBG_LOOP]
    ours_t, theirs_t = [], []
    for _ in range(args.repeat):
        t, ours_out = run_process(ours_argv, text)
        ours_t.append(t)
        t, theirs_out = run_process(theirs_argv, text)
        theirs_t.append(t)
    agree = ours_out == theirs_out
    print(f"1. whole process over {args.n} positions, fastest of {args.repeat}:")
    print(f"   nardref legal --batch --count  {min(ours_t) * 1000:8.1f} ms")
    print(f"   python loop over gnubg-nn      {min(theirs_t) * 1000:8.1f} ms")
    print(f"   speed ratio (gnubg time / ours) {min(theirs_t) / min(ours_t):.2f}   goal >= 0.50; counts agree: {agree}")

    boards = [[list(p.them[1:26]), list(p.me[1:26])] for p, _ in data]
    start = time.perf_counter()
    for p, d in data:
        legal_plays(p, d)
    ours_s = time.perf_counter() - start
    start = time.perf_counter()
    for board, (_, d) in zip(boards, data, strict=True):
        gnubg_nn.moves(board, d.first, d.second)
    theirs_s = time.perf_counter() - start
    print("2. in process, resulting boards included:")
    print(f"   ours    {args.n / ours_s:9.0f} enumerations/s (with notation and positions)")
    print(f"   gnubg   {args.n / theirs_s:9.0f} enumerations/s")
    print(f"   ratio   {theirs_s / ours_s:.3f}")

    rng = random.Random(args.seed + 1)
    times: list[float] = []
    for p, d in data[: min(args.n, 2000)]:
        plays = legal_plays(p, d)
        seen = rng.choice(plays).after
        if rng.random() < 0.5:  # an illegal variant: one checker moved a pip further or back
            me = list(seen.me)
            points = [i for i in range(1, 25) if me[i]]
            if points:
                src = rng.choice(points)
                me[src] -= 1
                me[max(src - rng.randint(1, 3), 0)] += 1
                seen = Position(tuple(me), seen.them)
        best = float("inf")
        for _ in range(3):  # the fastest of three: a shared machine's pauses are not the judge's
            start = time.perf_counter()
            judge(p, d, seen)
            best = min(best, time.perf_counter() - start)
        times.append(best)
    print(f"3. one judgement over {len(times)} moves (half of them illegal), fastest of 3 runs each:")
    print(f"   median {statistics.median(times) * 1000:.2f} ms, worst {max(times) * 1000:.2f} ms   goal: worst < 5 ms")


if __name__ == "__main__":
    main()
