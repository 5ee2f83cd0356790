"""Pairs of groups solved together, joined by macros that move both and are cheaper than either's own.

On a big cube a 4-turn commutator of two slices, ``[x_i, y_j]``, moves a few
centre cells of two orbits at once; each orbit alone only has 3-cycles of
8-10 turns. Such macros belong to no single group, so
:func:`~hlavolamy.solve.macros.decompose.plan` leaves them out. This plan pairs
groups greedily, cheapest joining macro first (each group in at most one
pair), and gives each pair one conjugate table with the joining macros and
both groups' own. Solved pair by pair, a pair's cells still move only among
themselves, so solved groups stay solved.
"""

from __future__ import annotations

import numpy as np

from hlavolamy.analysis.commutators import remember_recent, small_support_macros
from hlavolamy.analysis.independent import cell_groups
from hlavolamy.analysis.memo import from_disk, moves_key, to_disk
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn
from hlavolamy.solve.caches import solve_cache
from hlavolamy.solve.macros.decompose import Plan, plan
from hlavolamy.solve.macros.greedy import (
    ALL_CANDIDATES,
    MAX_CANDIDATES,
    GroupTable,
    build_table,
)

_KEY = "solve.paired_plan"
_BY_MOVES: dict[str, Plan] = {}
"""Paired plans of recent puzzles by their moves alone (recoloured Santa cases share them)."""


def paired_plan(puzzle: Puzzle, *, cancel: CancelToken | None = None, progress: object = None) -> Plan:
    """:func:`~hlavolamy.solve.macros.decompose.plan` with groups joined in pairs where a joining macro is cheaper."""
    if solve_cache(puzzle).paired_plan is not None:
        return solve_cache(puzzle).paired_plan
    found = _BY_MOVES.get(moves_key(puzzle)) or from_disk(puzzle, _KEY, allowed=(Plan, GroupTable, Turn), expect=Plan)
    if found is None:
        found = _pair(puzzle, plan(puzzle, cancel=cancel), cancel)
        to_disk(puzzle, _KEY, found)
    solve_cache(puzzle).paired_plan = found
    remember_recent(_BY_MOVES, moves_key(puzzle), found, keep=2)
    return found


def joining_macros(puzzle: Puzzle, base: Plan, cancel: CancelToken | None = None) -> dict[tuple[int, int], list[list[Turn]]]:
    """Per pair of groups with tables, the macros moving exactly those two, if shorter than both groups' own."""
    group_of, _ = cell_groups(puzzle)
    own = {g: min(len(w) for w in t.macro_words) for g, t in enumerate(base.tables) if t is not None}
    links: dict[tuple[int, int], list[list[Turn]]] = {}
    for m in small_support_macros(puzzle, complete=True, cancel=cancel):
        groups = tuple(sorted({int(group_of[c]) for c in m.cells}))
        if len(groups) == 2 and all(g in own for g in groups) and len(m.turns) < min(own[g] for g in groups):
            links.setdefault(groups, []).append(m.turns)
    return links


def _pair(puzzle: Puzzle, base: Plan, cancel: CancelToken | None) -> Plan:
    links = joining_macros(puzzle, base, cancel)
    partner: dict[int, int] = {}
    for a, b in sorted(links, key=lambda ab: (min(len(w) for w in links[ab]), ab)):
        if a not in partner and b not in partner:
            partner[a], partner[b] = b, a
    if not partner:
        return base
    per_group = max(2_000, min(MAX_CANDIDATES, ALL_CANDIDATES // max(1, len(base.groups))))
    groups, tables = [], []
    for g, (cells, table) in enumerate(zip(base.groups, base.tables)):
        h = partner.get(g)
        if h is None:
            groups.append(cells)
            tables.append(table)
        elif g < h:
            if cancel is not None:
                cancel.check()
            words = links[(g, h)] + table.macro_words + base.tables[h].macro_words
            both = np.concatenate([cells, base.groups[h]])
            groups.append(both)
            tables.append(build_table(puzzle, both, words, max_candidates=per_group, cancel=cancel))
    return Plan(groups, tables, base.frozen)
