"""Long mutation-fuzz run of every importer entry point (issue 13); prints the counts per entry point.

    PYTHONPATH=. python tests/fuzz/fuzz_importers.py --cases 3000 [--seed 1] [--entries gap,sign]

Each case is a seed file damaged by one to four edits (see ``tests/fuzzing.py``).
A case ends ``imported`` (the damaged file still reads), ``clean error`` (a
one-line :class:`HlavolamyError`) or ``other`` (anything else: another
exception, a message of several lines, or over ``--timeout`` seconds); the
inputs of ``other`` cases are saved for replay and the exit status is 1 if
there are any.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fuzzing import ENTRIES, Workspace, apply_edits, random_edits  # noqa: E402

from hlavolamy.errors import HlavolamyError  # noqa: E402


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Timeout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=3000, help="cases per entry point")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--entries", default=",".join(ENTRIES))
    parser.add_argument("--timeout", type=int, default=20, help="seconds a case may take")
    parser.add_argument("--keep", default="fuzz-failures", help="folder for the inputs of 'other' cases")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    failures = 0
    print(f"{'entry point':<18} {'cases':>6} {'imported':>9} {'clean error':>12} {'other':>6} {'max s':>6}")
    with tempfile.TemporaryDirectory() as folder:
        work = Workspace(Path(folder))
        for entry in args.entries.split(","):
            rnd = random.Random(f"{args.seed}:{entry}")
            counts = {"imported": 0, "clean": 0, "other": 0}
            slowest = 0.0
            for case in range(args.cases):
                seed = rnd.choice(work.seeds[entry])
                data = apply_edits(seed, random_edits(entry, rnd))
                started = time.perf_counter()
                outcome, detail = "imported", ""
                signal.alarm(args.timeout)
                try:
                    work.run(entry, data)
                except HlavolamyError as exc:
                    outcome = "clean" if "\n" not in str(exc) else "other"
                    detail = f"message of several lines: {exc}"
                except _Timeout:
                    outcome, detail = "other", f"over {args.timeout} s"
                except BaseException as exc:  # noqa: BLE001 - counting whatever escapes is the point
                    if isinstance(exc, KeyboardInterrupt):
                        raise
                    outcome, detail = "other", traceback.format_exc()
                finally:
                    signal.alarm(0)
                slowest = max(slowest, time.perf_counter() - started)
                counts[outcome] += 1
                if outcome == "other":
                    failures += 1
                    keep = Path(args.keep)
                    keep.mkdir(exist_ok=True)
                    (keep / f"{entry}-{case}.input").write_bytes(data)
                    print(f"  {entry} case {case}: {detail.strip().splitlines()[-1][:200]}", file=sys.stderr)
            print(f"{entry:<18} {args.cases:>6} {counts['imported']:>9} {counts['clean']:>12} {counts['other']:>6} "
                  f"{slowest:>6.2f}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
