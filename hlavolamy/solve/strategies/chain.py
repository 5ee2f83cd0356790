"""The "chain" strategy: sift the position through the stabiliser chain (:mod:`~hlavolamy.solve.tables.chain`).

Complete for any group the chain can hold, so it is also the fall-back when
conjugated macros get stuck.
"""

from __future__ import annotations

from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Context, Strategy
from hlavolamy.solve.tables.chain import chain_solve


def _solve_by_chain(problem: Problem, context: Context) -> None:
    """Sift from where ``problem`` stands (colours: via a reachable exact position showing them)."""
    if not problem.exact:
        problem.to_exact()
    problem.play(chain_solve(problem.puzzle, problem.labels, cancel=context.cancel, progress=context.progress))


STRATEGY = Strategy("chain", "a stabiliser chain with short words (Minkwitz): complete for groups it can hold",
                    _solve_by_chain)
