"""The long fuzz run of issue 13: thousands of cases per entry point, with counts.

    nice -n 5 /work/venv/bin/python tests/fuzz/run_fuzz.py --cases 3000 [--only cli-solve,notation]

For each entry point (``tests/fuzz/cases.py``) prints the cases tried, how
many were accepted, how many were refused with a clean project error, and
anything else (an uncaught exception, a traceback, a wrong exit status):
that last count must be 0, and the first few such cases are printed. Exit
status 1 when any entry point has one.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fuzz.cases import ENTRY_POINTS, Workspace  # noqa: E402


def fuzz(name: str, cases: int, ws: Workspace) -> tuple[Counter, list[str]]:
    """Run ``cases`` generated inputs through one entry point; outcome counts and the first failures."""
    entry = ENTRY_POINTS[name]
    counts: Counter = Counter()
    failures: list[str] = []

    @settings(max_examples=cases, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def run(data):
        try:
            counts[entry.run(ws, data.draw)] += 1
        except Exception:  # noqa: BLE001 - counted and shown, the point of the run
            counts["other"] += 1
            if len(failures) < 5:
                failures.append(traceback.format_exc(limit=-3))

    run()
    return counts, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=3000, help="cases per entry point (default 3000)")
    parser.add_argument("--only", help="comma-separated entry points (default: all)")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(ENTRY_POINTS)
    ws = Workspace()
    bad = 0
    print(f"{'entry point':<16}{'cases':>7}{'accepted':>10}{'clean errors':>14}{'other':>7}{'seconds':>9}")
    try:
        for name in names:
            started = time.perf_counter()
            counts, failures = fuzz(name, args.cases, ws)
            total = sum(counts.values())
            print(f"{name:<16}{total:>7}{counts['ok']:>10}{counts['clean']:>14}{counts['other']:>7}"
                  f"{time.perf_counter() - started:>9.1f}", flush=True)
            for failure in failures:
                print("    " + failure.replace("\n", "\n    "))
            bad += counts["other"]
    finally:
        ws.close()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
