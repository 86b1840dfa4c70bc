"""Match-record benchmark: replaying real ``.mat`` records through the referee.

    python bench/replay.py [--dir /work/shared/matches/human] [--repeat 3]

Figures:
1. in-process: parse and replay every record (best of ``--repeat``), with the
   time per play, against a reference timed in the same run: only
   enumerating the legal plays of the same positions (what any replay must
   do at least); the ratio says what the match state machine, the written-play
   matching and the score checks add;
2. whole processes: ``nardref replay FILE`` once per record, as a person
   would run it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.legal import legal_plays  # noqa: E402
from engine.mat import parse, replay  # noqa: E402
from engine.match import MatchState, Played, apply, new_match  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default="/work/shared/matches/human")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    files = sorted(p for p in Path(args.dir).glob("*") if p.suffix in (".txt", ".mat"))
    texts = [p.read_text() for p in files]
    if not texts:
        print(f"no records in {args.dir}")
        return 2

    best = float("inf")
    plays = 0
    for _ in range(args.repeat):
        start = time.perf_counter()
        replays = [replay(parse(text)) for text in texts]
        best = min(best, time.perf_counter() - start)
    positions = []
    for text, replayed in zip(texts, replays, strict=True):
        state: MatchState = new_match(parse(text).settings())
        for game in replayed.events:
            for event in game:
                if isinstance(event, Played):
                    assert state.dice is not None
                    positions.append((state.position, state.dice, state.settings.rules))
                    plays += 1
                state = apply(state, event)
    reference = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        for position, dice, rules in positions:
            legal_plays(position, dice, rules)
        reference = min(reference, time.perf_counter() - start)
    print(f"{len(files)} records, {plays} plays: parse + replay {best:.3f} s ({best / plays * 1e6:.0f} us per play)")
    print(f"reference, legal plays of the same positions only: {reference:.3f} s; ratio {best / reference:.2f}")

    start = time.perf_counter()
    failures = 0
    for path in files:
        result = subprocess.run(
            [sys.executable, "-m", "firmware.cli", "replay", str(path)], cwd=ROOT, capture_output=True, check=False
        )
        failures += result.returncode != 0
    total = time.perf_counter() - start
    print(
        f"`nardref replay FILE` for each record: {total:.2f} s in all, {total / len(files) * 1000:.0f} ms "
        f"per record, {failures} not consistent"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
