"""Lengths and CPU of the "phases" strategy on seeded random positions (issue 21's measure).

Each position is ``random_scramble(puzzle, 200, seed)``; the tables are
loaded (or built) before the first timed solve, so the CPU per solve
(``time.process_time()``) is the search's alone; every answer is replayed.

    HLAVOLAMY_CACHE_DIR=/tmp/twophase-cache python tools/phases_lengths.py --seeds 30

``--more`` / ``--first`` set the node budgets (default: the strategy's); ``--no-views`` searches the
position and its inverse only. ``--tag`` reads and writes the
disk cache under another code version's tag: for trying search changes on tables built by code that
builds them the same (a developer's shortcut; the tag is in every cache file's header).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's hlavolamy, not an installed one

from hlavolamy.core import diskcache  # noqa: E402
from hlavolamy.core.fileformat import load_puzzle  # noqa: E402
from hlavolamy.core.scramble import random_scramble  # noqa: E402
from hlavolamy.core.state import State  # noqa: E402
from hlavolamy.solve.problem import Problem  # noqa: E402
from hlavolamy.solve.strategies import phases  # noqa: E402

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzle", default="rubik3")
    parser.add_argument("--seeds", type=int, default=30, help="seeds 0..N-1")
    parser.add_argument("--first", type=int, help="nodes for a first answer")
    parser.add_argument("--more", type=int, help="nodes after the first answer")
    parser.add_argument("--no-views", action="store_true", help="search no conjugate by a symmetry")
    parser.add_argument("--tag", help="the disk cache's code version to use (default: this code's)")
    args = parser.parse_args()
    if args.tag:
        diskcache.version_tag = lambda root=None: args.tag
    if args.first is not None:
        phases.NODES = args.first
    if args.more is not None:
        phases.MORE_NODES = args.more
    if args.no_views:
        phases._views = lambda puzzle, group: ()
    puzzle = load_puzzle(PUZZLES / f"{args.puzzle}.json").puzzle
    warm = Problem.from_input(puzzle, State.solved(puzzle).apply(random_scramble(puzzle, 200, 10**6)))
    phases.solve_phases(warm)  # tables loaded or built, outside the timed solves
    lengths, cpus = [], []
    for seed in range(args.seeds):
        state = State.solved(puzzle).apply(random_scramble(puzzle, 200, seed))
        problem = Problem.from_input(puzzle, state)
        start = time.process_time()
        phases.solve_phases(problem)
        cpu = time.process_time() - start
        turns = problem.turns
        assert np.array_equal(state.apply(turns).perm, np.arange(puzzle.n_cells)), f"seed {seed}: not solved"
        lengths.append(puzzle.length(turns))
        cpus.append(cpu)
        print(f"seed {seed:>3}  {lengths[-1]:>3} moves  {cpu:6.2f} s CPU", flush=True)
    print(f"{args.puzzle}: {len(lengths)} positions, mean {np.mean(lengths):.2f}, max {max(lengths)}, "
          f"CPU per solve mean {np.mean(cpus):.2f} s, max {max(cpus):.2f} s")


if __name__ == "__main__":
    main()
