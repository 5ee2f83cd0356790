"""Cheap commutators across all groups first: short ``[a, b]`` and ``[a, b c]`` moving cells of several orbits.

On a big cube the commutator of two slices (4 turns) or of a slice and two
parallel slices (6 turns) moves centres of several orbits at once; a group's
own 3-cycles cost 8-10 turns each. While much is still wrong such a
commutator, inserted where the solution so far sets it up best
(:func:`~hlavolamy.solve.macros.insert.insert_group` on the union of the groups),
makes cells right more cheaply per turn than the groups' own macros. It is
played until about half the wrong cells are right (on puzzles whose answers
are long, of more than :data:`~hlavolamy.solve.macros.insert.BIG_CELLS` moved
cells, for as long as it pays); then each group is finished by its own
macros as before. Commutators leave every invariant
(parity, twist sums) alone, and none moves a frozen cell, so phase 0's work
stays done.
"""

from __future__ import annotations

import numpy as np

from hlavolamy.analysis.commutators import remember_recent
from hlavolamy.analysis.independent import generators
from hlavolamy.analysis.memo import from_disk, moves_key, to_disk
from hlavolamy.core.progress import CancelToken
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn, invert
from hlavolamy.solve.macros.decompose import Plan
from hlavolamy.solve.macros.greedy import GroupTable, build_table
from hlavolamy.solve.passes.simplify import commuting_moves

MAX_WORDS = 400
"""Commutators kept for the table (smallest support first); each is conjugated by set-ups."""
MAX_SUPPORT = 48
"""Commutators moving more cells are left out (the table's width: memory and scoring time)."""
TRIED_TRIPLES = 20_000
"""Most ``[a, b c]`` tried (a sample when there are more: a 33x33x33 has millions)."""
TABLE_CANDIDATES = 100_000
"""Most conjugates in the opening table."""
SHARE = 0.5
"""Share of the wrong cells the opening makes right before the groups' own macros take over, on puzzles of at most
:data:`~hlavolamy.solve.macros.insert.BIG_CELLS` moved cells; above, only its rate stops it. Measured on Santa cases by
colours, without the share: globe_3/33 (264 cells) 5,060 -> 4,986 moves over its six (four shorter, none longer),
globe_8/25 and cube_7/8 within 2 moves; globe_6/10 (140 cells) 1,277 -> 1,300 over its five (two shorter, three
longer), globe_3/4, globe_6/4, cube_4 within 2 moves per type."""

_KEY = "solve.opening"
_BY_MOVES: dict[str, GroupTable | None] = {}


def opening_table(puzzle: Puzzle, base: Plan, *, cancel: CancelToken | None = None) -> GroupTable | None:
    """The conjugate table of the cheap commutators over the cells of every group with a table (cached)."""
    key = moves_key(puzzle)
    if key in _BY_MOVES:
        return _BY_MOVES[key]
    stored = from_disk(puzzle, _KEY, allowed=(GroupTable, Turn, _Empty), expect=object)
    if stored is None:
        table = _build(puzzle, base, cancel)
        to_disk(puzzle, _KEY, table if table is not None else _Empty())
    else:
        table = None if isinstance(stored, _Empty) else stored
    remember_recent(_BY_MOVES, key, table, keep=2)
    return table


class _Empty:
    """Stored when a puzzle has no cheap commutator (so the search is not repeated)."""


def _build(puzzle: Puzzle, base: Plan, cancel: CancelToken | None) -> GroupTable | None:
    cells = np.concatenate([g for g, t in zip(base.groups, base.tables) if t is not None] or [np.zeros(0, np.int64)])
    if cells.size == 0:
        return None
    words = cheap_commutators(puzzle, cells, cancel=cancel)
    if not words:
        return None
    return build_table(puzzle, np.sort(cells), words, max_candidates=TABLE_CANDIDATES, cancel=cancel)


def cheap_commutators(puzzle: Puzzle, inside: np.ndarray, *, cancel: CancelToken | None = None,
                      seed: int = 0) -> list[list[Turn]]:
    """``[a, b]`` and ``[a, b c]`` (``b``, ``c`` commuting) moving only ``inside``, one per action, smallest support first.

    Commutators moving more than a third of ``inside`` (or :data:`MAX_SUPPORT`
    cells) are dropped: they break nearly as much as they fix.
    """
    gens = generators(puzzle)
    perms = np.array([puzzle.turn_perm(g) for g in gens], dtype=np.int64)
    n = puzzle.n_cells
    ident = np.arange(n)
    allowed = np.zeros(n, dtype=bool)
    allowed[inside] = True
    inverse = np.empty_like(perms)
    for k, p in enumerate(perms):
        inverse[k][p] = ident
    moved = perms != ident
    found: dict[bytes, tuple[int, list[Turn]]] = {}

    def offer(word: list[Turn], perm: np.ndarray) -> None:
        support = perm != ident
        size = int(support.sum())
        if size == 0 or size > MAX_SUPPORT or size * 3 > inside.size or np.any(support & ~allowed):
            return
        key = perm.tobytes()
        if key not in found or len(found[key][1]) > len(word):
            found[key] = (size, word)

    g = len(gens)
    meets = (moved.astype(np.int32) @ moved.T.astype(np.int32)) > 0
    commute = commuting_moves(puzzle)
    commuting = np.array([[x.move == y.move or y.move in commute[x.move] for y in gens] for x in gens])
    for a in range(g):
        if cancel is not None:
            cancel.check()
        for b in range(a + 1, g):
            if meets[a, b] and not commuting[a, b]:
                offer(_commutator([gens[a]], [gens[b]]), perms[a][perms[b]][inverse[a]][inverse[b]])
    pairs = [(b, c) for b in range(g) for c in range(b + 1, g) if commuting[b, c] and gens[b].move != gens[c].move]
    if not pairs:
        return _ranked(found)
    rng = np.random.default_rng(seed)
    total = len(pairs) * g
    picks = (rng.choice(total, size=TRIED_TRIPLES, replace=False) if total > TRIED_TRIPLES else np.arange(total))
    for k in picks:
        if cancel is not None and k % 1000 == 0:
            cancel.check()
        a, (b, c) = int(k) // len(pairs), pairs[int(k) % len(pairs)]
        if commuting[a, b] and commuting[a, c]:
            continue
        offer(_commutator([gens[a]], [gens[b], gens[c]]),
              perms[a][perms[b]][perms[c]][inverse[a]][inverse[c]][inverse[b]])
    return _ranked(found)


def _commutator(x: list[Turn], y: list[Turn]) -> list[Turn]:
    return x + y + invert(x) + invert(y)


def _ranked(found: dict[bytes, tuple[int, list[Turn]]]) -> list[list[Turn]]:
    ranked = sorted(found.values(), key=lambda sw: (sw[0], len(sw[1])))
    return [w for _, w in ranked[:MAX_WORDS]]
