"""The "multiphase" strategy: a chain of subgroups found from the moves, Thistlethwaite-style but generic.

Where one subgroup cannot split a big group into two searchable halves
(:mod:`~hlavolamy.solve.strategies.phases` needs ``|G| <= 10^22``), a *chain*
``G = G0 > G1 > ... > Gk`` does it in smaller steps. Each ``G(i+1)`` keeps
some of ``Gi``'s generators whole and squares the others (squares stay
squares further down). A step is worth taking only if ``G(i+1)`` splits the
cells into more orbits than ``Gi``: the colouring by ``G(i+1)``'s orbits is
then what phase ``i`` solves with ``Gi``'s moves. Of the smallest such sets
of squared moves the one of the smallest index ``[Gi:G(i+1)]`` (orders by
Schreier-Sims, within a budget) is taken, until the group is at most
:data:`FINAL_ORDER`, whose last phase solves the pieces exactly.

The colouring may not tell every coset apart (a parity, a turn of the
whole puzzle): counting the colourings the pieces can show bounds how many
cosets look alike, and a step hiding more than :data:`HIDDEN` is not taken.
A phase's search therefore ends only where the colouring is solved *and*
the position lies in the next group (membership by a stabiliser chain).

Phases need not be optimal: each runs IDA* on pattern databases of its
colouring within a node budget, and where that is too deep a beam
(:func:`beam_path`) scored by those databases and the wrong cells. Of the
shortest endings of a phase, the one the next phase's databases rate
closest to done goes on. Where a phase finds nothing, insertion finishes
from there. The chain and its tables are built once per set of moves and
kept on disk.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from hlavolamy.analysis.blocks import pieces
from hlavolamy.analysis.membership import StabiliserChain, group_order, stabiliser_chain
from hlavolamy.analysis.memo import memo, on_disk
from hlavolamy.analysis.orbits import (
    distinct_generators,
    move_matrix,
    orbit_labels,
    restrict,
)
from hlavolamy.core.progress import CancelToken, report
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Context, Strategy
from hlavolamy.solve.strategies.insertion import solve_by_insertion
from hlavolamy.solve.strategies.optimal import shortest_paths
from hlavolamy.solve.strategies.phases import (
    PhasesFailed,
    Subgroup,
    inner_puzzle,
    outer_turn,
    piece_patterns,
    subgroup_order,
)
from hlavolamy.solve.strategies.search import SearchFailed
from hlavolamy.solve.tables import pdb
from hlavolamy.solve.tables.pdb import Pattern, PatternTooBig
from hlavolamy.solve.tables.steps import Steps, step_automaton, step_path

FINAL_ORDER = 10**13
"""The chain ends at a group this small: its phase solves the pieces exactly."""
MERGE_INDEX = 10**9
"""Consecutive steps whose indices multiply to at most this are one phase."""
MAX_STATES = 3_000_000
"""Most states of one of the chain's pattern databases (a 4x4x4's wings split in two: 2.7 million)."""
ORDERS_PER_STEP = 12
"""Most candidate subgroups whose order is computed (a Schreier-Sims each) per step of the chain..."""
MAX_ORDERS = 60
"""...and in all, backtracking included."""
HIDDEN = 8
"""A step's colouring may show up to this many of its cosets as one (what it cannot see is left for the
last phase or the strategy that finishes)."""
MAX_SUBSETS = 5_000
"""Most sets of squared moves whose orbits are looked at per step."""
IDA_NODES = 400_000
"""Nodes a phase's IDA* may generate before the beam takes over."""
ENDINGS = 16
"""Shortest endings of a phase tested for the next group and compared by its pattern databases."""
WIDTH = 2_000
"""Positions the beam keeps per level."""
MAX_DEPTH = 60
"""Longest phase the beam looks for."""
MEMBERSHIP_TESTS = 64
"""Positions showing a phase's goal tested for membership in the next group per level of a search."""


class MultiphaseFailed(PhasesFailed):
    """No chain fits this puzzle, or a phase found nothing."""


@dataclass(frozen=True)
class Chain:
    """The groups of the chain (``groups[0]`` is the whole group: every move kept)."""

    groups: tuple[Subgroup, ...]


@dataclass
class _Phase:
    """One phase: the moves it turns, what it solves (a colouring of labels; exact labels for the last)."""

    inner: Puzzle
    colouring: np.ndarray | None
    patterns: list[Pattern]


def chain(puzzle: Puzzle) -> Chain | None:
    """The chain of subgroups (None when none fits); cached per moves, also on disk."""
    return memo(puzzle, "solve.multiphase.chain",
                lambda: on_disk(puzzle, "solve.multiphase.chain", lambda: _choose(puzzle) or False,
                                allowed=(Chain, Subgroup), expect=object) or None)


def multiphase_feasible(puzzle: Puzzle) -> bool:
    """Is the group's order known and does a chain of at least two groups fit? Costly the first time."""
    order = group_order(puzzle)
    return order.exact and chain(puzzle) is not None


def _choose(puzzle: Puzzle) -> Chain | None:
    """A chain found depth first: at each step the candidates by increasing index, backtracking from
    dead ends, within :data:`MAX_ORDERS` Schreier-Sims orders in all."""
    order = group_order(puzzle)
    if not order.exact:
        return None
    found = _extend(puzzle, [Subgroup(tuple(puzzle.moves), (), order.value, 1)], _Orders(puzzle))
    return Chain(tuple(found)) if found is not None and len(found) > 1 else None


class _Orders:
    """Orders of the subgroups tried (each a Schreier-Sims), within a budget, shared by the whole search."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        self.known: dict[frozenset[str], int] = {}
        self.left = MAX_ORDERS

    def __call__(self, group: Subgroup) -> int | None:
        key = frozenset(group.squared)
        if key not in self.known:
            if self.left <= 0:
                return None
            self.left -= 1
            self.known[key] = subgroup_order(inner_puzzle(self.puzzle, group))
        return self.known[key]


def _extend(puzzle: Puzzle, groups: list[Subgroup], orders: _Orders) -> list[Subgroup] | None:
    """``groups`` continued down to :data:`FINAL_ORDER`, or None."""
    last = groups[-1]
    if last.order <= FINAL_ORDER:
        return groups
    for step in _steps(puzzle, last, orders):
        if len(groups) > 1 and last.index * step.index <= MERGE_INDEX and _tells(puzzle, groups[-2], step):
            # a small step joins the one before: fewer phases, each still searchable
            longer = groups[:-1] + [Subgroup(step.kept, step.squared, step.order, groups[-2].order // step.order)]
        else:
            longer = groups + [step]
        found = _extend(puzzle, longer, orders)
        if found is not None:
            return found
    return None


def _steps(puzzle: Puzzle, group: Subgroup, orders: _Orders) -> list[Subgroup]:
    """Subgroups of the minimal squarings that split an orbit and whose colouring tells the cosets, by index."""
    even = [m for m in group.kept if puzzle.move_order(m) % 2 == 0 and puzzle.move_order(m) > 2]
    count = _orbit_count(puzzle, group)
    minimal: list[tuple[str, ...]] = []
    looked = 0
    for size in range(1, len(even) + 1):
        for squared in itertools.combinations(even, size):
            if any(set(m) <= set(squared) for m in minimal):
                continue
            looked += 1
            if looked > MAX_SUBSETS:
                break
            if _orbit_count(puzzle, _squaring(group, squared)) > count:
                minimal.append(squared)
    out = []
    for squared in minimal[:ORDERS_PER_STEP]:
        candidate = _squaring(group, squared)
        h = orders(candidate)
        if h is None:
            break
        step = Subgroup(candidate.kept, candidate.squared, h, group.order // h)
        if _tells(puzzle, group, step):
            out.append(step)
    return sorted(out, key=lambda g: g.index)


def _tells(puzzle: Puzzle, group: Subgroup, smaller: Subgroup) -> bool:
    """Can the colouring by ``smaller``'s orbits tell its cosets in ``group`` apart (as far as counting shows)?"""
    index = group.order // smaller.order
    return _colourings(inner_puzzle(puzzle, group), orbit_labels(inner_puzzle(puzzle, smaller))) * HIDDEN >= index


def _colourings(inner: Puzzle, colouring: np.ndarray) -> int:
    """At least as many colourings as ``inner``'s moves reach: fewer than the index cannot tell the cosets.

    Per piece orbit, the pieces' colour tuples placed on its slots (times the piece's turns).
    """
    out = 1
    for po in pieces(inner).piece_orbits:
        turns = np.array(po.orientation_group, dtype=np.intp)
        shown = colouring[po.cells][:, turns]  # (piece, turn, cell of the piece)
        kinds = [sorted({tuple(row) for row in piece}) for piece in shown.tolist()]
        _, counts = np.unique([k[0] for k in kinds], axis=0, return_counts=True)
        out *= pdb.colourings(po.n_pieces, counts[:-1]) * math.prod(len(k) for k in kinds)
    return out


def _squaring(group: Subgroup, squared: tuple[str, ...]) -> Subgroup:
    return Subgroup(tuple(m for m in group.kept if m not in squared), group.squared + squared, 0, 0)


def _orbit_count(puzzle: Puzzle, group: Subgroup) -> int:
    return int(np.unique(orbit_labels(inner_puzzle(puzzle, group))).size)


def _phases(puzzle: Puzzle, found: Chain, cancel: CancelToken) -> list[_Phase]:
    """The phases' moves and pattern databases, built once per set of moves and kept on disk."""
    inners = [inner_puzzle(puzzle, g) for g in found.groups]

    def build() -> list[tuple[np.ndarray | None, list[Pattern]]]:
        out = []
        for i, inner in enumerate(inners):
            if i + 1 < len(inners):
                colouring = orbit_labels(inners[i + 1])
                out.append((colouring, _colouring_patterns(inner, colouring, cancel)))
            else:
                out.append((None, piece_patterns(inner, cancel)))
        for _, patterns in out:
            for pattern in patterns:
                pattern.distances()
        return out

    def decode(stored: list) -> list:
        if len(stored) != len(inners) or not all(isinstance(p, Pattern) for _, ps in stored for p in ps):
            raise TypeError("not the chain's pattern databases")
        return stored

    tables = memo(puzzle, "solve.multiphase.tables", lambda: on_disk(
        puzzle, "solve.multiphase.tables", build, allowed=(Pattern, pdb.Form), expect=list, decode=decode))
    return [_Phase(inner, colouring, patterns) for inner, (colouring, patterns) in zip(inners, tables)]


def _colouring_patterns(inner: Puzzle, colouring: np.ndarray, cancel: CancelToken) -> list[Pattern]:
    """Per orbit of the phase's cells that the colouring splits: all its classes if they fit, else each apart."""
    perms = step_automaton(inner).perms
    out = []
    for orbit in pieces(inner).orbits:
        cells = np.array(orbit)
        shown, counts = np.unique(colouring[cells], return_counts=True)
        if shown.size < 2:
            continue
        groups = [shown] if pdb.colourings(cells.size, counts[:-1]) <= MAX_STATES else \
            [[k] for k in shown[np.argsort(counts)]]
        for group in groups:
            classes = np.zeros(inner.n_cells, dtype=np.int64)
            classes[group] = np.arange(1, len(group) + 1)
            try:
                out.append(pdb.projection(f"chain: {len(group)} kinds of {cells.size} cells", inner, cells, classes,
                                          colouring, perms, cancel=cancel, max_states=MAX_STATES))
            except PatternTooBig:
                continue
    return out


def solve_multiphase(problem: Problem, context: Context) -> None:
    """Play the phases one after the other, then finish by insertion what they left (a coset the
    colourings could not see, or a phase that found nothing); raises :class:`MultiphaseFailed`."""
    cancel = context.cancel
    if problem.care is not None:
        raise MultiphaseFailed("the multiphase strategy solves whole puzzles only")
    if problem.is_solved():
        return
    puzzle = problem.puzzle
    report(context.progress, 0.0, "multiphase: the chain of subgroups and its pattern databases")
    found = chain(puzzle) if group_order(puzzle).exact else None
    if found is None:
        raise MultiphaseFailed("no chain of subgroups fits this puzzle's moves")
    phases = _phases(puzzle, found, cancel)
    exact = problem.fork()
    if not exact.exact:
        exact.to_exact()
    for i, phase in enumerate(phases):
        report(context.progress, 0.1 + 0.8 * i / len(phases), f"multiphase: phase {i + 1} of {len(phases)}")
        after = phases[i + 1] if i + 1 < len(phases) else None
        try:
            exact.play(_phase_turns(exact.labels, phase, after, cancel))
        except SearchFailed:
            break
    problem.play(exact.turns)
    if not problem.is_solved():
        report(context.progress, 0.9, "multiphase: insertion finishes")
        solve_by_insertion(problem, context)


def _goal(phase: _Phase, n_cells: int) -> np.ndarray:
    return np.arange(n_cells) if phase.colouring is None else phase.colouring


def _shown(labels: np.ndarray, phase: _Phase) -> np.ndarray:
    return labels if phase.colouring is None else phase.colouring[labels]


def _phase_turns(labels: np.ndarray, phase: _Phase, after: _Phase | None, cancel: CancelToken) -> list[Turn]:
    """The turns of one phase: IDA* within its budget (endings showing the goal and inside the next group),
    else the beam; of several endings, the one the next phase's pattern databases rate closest to done."""
    steps = step_automaton(phase.inner)
    goal = _goal(phase, phase.inner.n_cells)
    if np.array_equal(_shown(labels, phase), goal) and _inside(labels, after):
        return []
    patterns = phase.patterns
    if phase.colouring is not None:  # the same projections read from the labels: the search keeps them
        patterns = [replace(p, classes=p.classes[phase.colouring], _distances=p._distances) for p in patterns]

    def accept(rows: np.ndarray) -> np.ndarray:
        ok = np.all(_shown(rows, phase) == goal, axis=1)
        for k in np.flatnonzero(ok)[MEMBERSHIP_TESTS:]:
            ok[k] = False
        for k in np.flatnonzero(ok):
            ok[k] = _inside(rows[k], after)
        return ok

    try:
        paths = shortest_paths(labels, np.arange(labels.size), patterns, steps, nodes=IDA_NODES, cancel=cancel,
                               limit=ENDINGS if after is not None else 1, accept=accept)
    except SearchFailed:
        paths = [beam_path(labels, phase, steps, lambda row: _inside(row, after), cancel=cancel)]
    if after is not None and len(paths) > 1:
        paths.sort(key=lambda p: _estimate(labels[_perm(steps, p)], after))
    return [outer_turn(steps.turns[g]) for g in paths[0]]


def _inside(labels: np.ndarray, phase: _Phase | None) -> bool:
    """Is the position in the phase's group (the colouring alone may not tell)?"""
    return phase is None or _members(phase.inner).contains(np.asarray(labels, dtype=np.int64))


def _members(inner: Puzzle) -> StabiliserChain:
    """A proven stabiliser chain of the phase's group (deterministic Schreier-Sims: the subgroups are
    smaller than their structure says, which a randomized chain cannot prove); cached per moves."""
    def build() -> StabiliserChain:
        from sympy.combinatorics import Permutation, PermutationGroup

        cells = [c for o in pieces(inner).orbits for c in o]
        gens = distinct_generators(restrict(move_matrix(inner), cells, inner.n_cells))
        group = PermutationGroup([Permutation(row.tolist()) for row in gens] or [Permutation(len(cells) - 1)])
        group.schreier_sims()
        return stabiliser_chain(cells, group.base, group.strong_gens)

    return memo(inner, "solve.multiphase.members", build)


def _perm(steps: Steps, path: list[int]) -> np.ndarray:
    perm = np.arange(steps.perms.shape[1])
    for g in path:
        perm = perm[steps.perms[g]]
    return perm


def _estimate(labels: np.ndarray, phase: _Phase) -> int:
    shown = _shown(labels, phase)
    return max((int(p.distances()[max(0, int(p.ranks(shown)[0]))]) for p in phase.patterns), default=0)


def beam_path(labels: np.ndarray, phase: _Phase, steps: Steps, done: Callable[[np.ndarray], bool], *,
              width: int = WIDTH, cancel: CancelToken | None = None) -> list[int]:
    """Indices into ``steps.turns`` of a way from ``labels`` to the phase's goal (and ``done``) found by a beam.

    Positions are scored by the largest pattern distance, then the sum of
    the distances, then the number of wrong cells; the ``width`` best
    positions of distinct colourings go on to the next level.
    """
    cancel = cancel or CancelToken()
    patterns = phase.patterns
    dist = [p.distances() for p in patterns]
    goal = _goal(phase, labels.size)
    rows = labels.astype(np.uint8 if labels.size <= 256 else np.int32)[None, :]
    ranks = np.array([p.ranks(_shown(rows, phase)) for p in patterns], dtype=np.int32).reshape(len(patterns), 1)
    if np.any(ranks < 0):
        raise MultiphaseFailed("the position is outside a pattern the phase's moves reach")
    state = np.zeros(1, dtype=np.int32)
    parents: list[tuple[np.ndarray, np.ndarray]] = []
    for _ in range(MAX_DEPTH):
        cancel.check()
        after = steps.after[state]
        node, g = np.nonzero(after >= 0)
        children = rows[node[:, None], steps.perms[g]]
        shown = _shown(children, phase)
        child_ranks = np.array([p.table[r[node], g] for p, r in zip(patterns, ranks)], dtype=np.int32)
        child_ranks = child_ranks.reshape(len(patterns), -1)
        wrong = np.count_nonzero(shown != goal, axis=1)
        parents.append((node, g.astype(np.int32)))
        for k in np.flatnonzero(wrong == 0)[:ENDINGS * 4]:
            if done(children[k]):
                return step_path(parents, int(k))
        h = [d[r] for d, r in zip(dist, child_ranks)]
        score = wrong.astype(np.int64)
        if h:
            score += (np.max(h, axis=0).astype(np.int64) * 1_000 + np.sum(h, axis=0, dtype=np.int64)) * (goal.size + 1)
        # positions showing the goal but outside the next group are told apart by their labels
        told = np.where((wrong == 0)[:, None], children.astype(np.int64) + goal.size, shown)
        _, unique = np.unique(told, axis=0, return_index=True)
        keep = unique[np.argsort(score[unique], kind="stable")[:width]]
        rows, ranks, state = children[keep], child_ranks[:, keep], after[node, g][keep]
        parents[-1] = (node[keep], g[keep].astype(np.int32))
    raise MultiphaseFailed(f"the beam found no way within {MAX_DEPTH} steps")


STRATEGY = Strategy(
    "multiphase", "a chain of subgroups found from the moves (squares of some), one search per step",
    solve_multiphase,
    applies=lambda problem, context: problem.care is None and multiphase_feasible(problem.puzzle))
