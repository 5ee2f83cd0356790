"""Shortening passes run on every answer: "windows" (exact products) and "shortcuts" (what the cells show).

*windows*: every short stretch of an answer replaced by a shortest word for its product.

The permutation of a window of ``k`` consecutive steps is looked up in the
ball of permutations within a few steps of the identity (the beam's
:func:`~hlavolamy.solve.strategies.beam.ball`, built once per set of moves); when the
ball knows a shorter word for it, the window can be replaced without
changing the answer's product (exact equivalence, so the answer still
solves whatever it solved, wildcards or not). Window products are computed
for many windows at once (one gather per step for a block of starting
points), the best non-overlapping replacements are made, the answer is
simplified (cancellations, merges across commuting moves) and the pass
repeats until nothing shortens or :data:`SECONDS` run out.

*shortcuts*: a stretch between two positions along the answer that show the
same labels, or are one short word apart, is cut (:func:`shortcut`); for a
colour problem that removes stretches that only swap identical pieces.
"""

from __future__ import annotations

import time

import numpy as np

from hlavolamy.core.puzzle import Puzzle
from hlavolamy.core.turns import Turn, expand
from hlavolamy.solve.passes.simplify import simplify
from hlavolamy.solve.problem import Problem
from hlavolamy.solve.registry import Context, Pass
from hlavolamy.solve.strategies.beam import Ball, ball, row_hashes
from hlavolamy.solve.tables.steps import Steps, step_automaton

SECONDS = 2.0
"""Most time the pass spends on one answer (the ball is built before, once per set of moves)."""
BALL_STATES = 200_000
"""Most permutations in the ball of short words..."""
BALL_CELLS = 10_000_000
"""...and most of them times cells (its build costs about that; a big cube gets a small ball)."""
MAX_WINDOW = 16
"""Longest window looked up."""
SHORTCUT_WORD = 2
"""Longest word a shortcut may take (the ball's words up to this length are tried at every position)."""
SHORTCUT_CELLS = 30_000_000
"""Largest answer (steps x cells) whose positions the shortcut pass holds."""
_BLOCK_CELLS = 4_000_000
"""Window products held at once (starting points x cells)."""


def shorten(puzzle: Puzzle, turns: list[Turn], *, seconds: float = SECONDS,
            context: Context | None = None) -> list[Turn]:
    """``turns`` with windows replaced by shorter words of the same permutation, simplified; never longer."""
    known = _short_words(puzzle)
    deadline = time.monotonic() + seconds
    window = min(MAX_WINDOW, 2 * int(known.dist.max()) + 2)
    steps = step_automaton(puzzle)
    best = simplify(puzzle, turns)
    while time.monotonic() < deadline:
        seq = _step_indices(puzzle, best)
        swaps = _replacements(known, steps.turns, steps.perms, seq, window, deadline, context)
        if not swaps:
            break
        out: list[Turn] = []
        at = 0
        for start, length, word in swaps:
            out.extend(steps.turns[g] for g in seq[at:start])
            out.extend(word)
            at = start + length
        out.extend(steps.turns[g] for g in seq[at:])
        shorter = simplify(puzzle, out)
        if puzzle.length(shorter) >= puzzle.length(best):
            break
        best = shorter
    return best


def _short_words(puzzle: Puzzle) -> Ball:
    """The ball of permutations around the identity: a shortest word for each, by hash."""
    states = max(1, min(BALL_STATES, BALL_CELLS // max(1, puzzle.n_cells)))
    return ball(puzzle, np.arange(puzzle.n_cells), np.uint8 if puzzle.n_cells < 256 else np.int32, states)


def _step_indices(puzzle: Puzzle, turns: list[Turn]) -> np.ndarray:
    """``turns`` as indices of single steps (:func:`~hlavolamy.solve.tables.pdb.step_perms`); identity steps dropped."""
    steps = step_automaton(puzzle)
    index = {p.tobytes(): g for g, p in enumerate(steps.perms)}
    out = []
    for t in expand(turns):
        g = index.get(np.asarray(puzzle.turn_perm(t), dtype=steps.perms.dtype).tobytes())
        if g is not None:
            out.append(g)
    return np.array(out, dtype=np.intp)


def _replacements(known: Ball, turns: list[Turn], perms: np.ndarray, seq: np.ndarray, window: int,
                  deadline: float, context: Context | None) -> list[tuple[int, int, list[Turn]]]:
    """Non-overlapping (start, length, shorter word) replacements, the biggest savings first."""
    n = perms.shape[1]
    inverse = _inverses(perms)
    dtype = np.uint8 if n < 256 else np.int32
    block = max(1, _BLOCK_CELLS // n)
    found: list[tuple[int, int, int, int]] = []  # (saving, start, length, ball entry)
    for lo in range(0, seq.size - 1, block):
        if time.monotonic() > deadline:
            break
        if context is not None:
            context.cancel.check()
        starts = np.arange(lo, min(lo + block, seq.size - 1))
        rows = np.broadcast_to(np.arange(n, dtype=dtype), (starts.size, n)).copy()
        for k in range(1, window + 1):
            alive = starts + k - 1 < seq.size
            if not alive.any():
                break
            starts, rows = starts[alive], rows[alive]
            rows = np.take_along_axis(rows, perms[seq[starts + k - 1]], axis=1)
            if k < 2:
                continue
            entry = known.find(row_hashes(rows))
            hit = np.flatnonzero((entry >= 0) & (known.dist[np.maximum(entry, 0)] < k))
            found.extend((k - int(known.dist[entry[h]]), int(starts[h]), k, int(entry[h])) for h in hit)
    chosen, used = [], np.zeros(seq.size, dtype=bool)
    for saving, start, length, entry in sorted(found, key=lambda f: (-f[0], f[1])):
        if used[start:start + length].any():
            continue
        word = [inverse[g] for g in reversed(known.home(entry))]  # the way home, undone
        if not _same(perms, seq[start:start + length], word):
            continue  # two permutations shared a hash
        used[start:start + length] = True
        chosen.append((start, length, [turns[g] for g in word]))
    return sorted(chosen)


def _same(perms: np.ndarray, first: np.ndarray, second: list[int]) -> bool:
    """Whether two sequences of step indices have one permutation."""
    a = np.arange(perms.shape[1])
    for g in first:
        a = a[perms[g]]
    b = np.arange(perms.shape[1])
    for g in second:
        b = b[perms[g]]
    return bool(np.array_equal(a, b))


def shortcut(problem: Problem, turns: list[Turn], *, seconds: float = SECONDS,
             context: Context | None = None) -> list[Turn]:
    """``turns`` with stretches between two positions ``u`` steps apart (showing the same labels) cut to those steps.

    Along the answer the positions ``A_0 .. A_m`` are compared as labels (for
    a colour problem: colours, so a stretch that only swaps identical pieces
    goes). For every short word ``u`` of the ball (up to :data:`SHORTCUT_WORD`
    steps, the empty word included) and every ``i``, when ``A_i`` then ``u``
    shows what some later ``A_j`` shows, steps ``i..j`` become ``u``. The end
    position is unchanged as labels, so the answer solves what it solved.
    """
    puzzle = problem.puzzle
    best = simplify(puzzle, turns)
    if (len(best) + 1) * puzzle.n_cells > SHORTCUT_CELLS:
        return best
    known = _short_words(puzzle)
    steps = step_automaton(puzzle)
    words = np.flatnonzero(known.dist <= SHORTCUT_WORD)
    inverse = _inverses(steps.perms)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seq = _step_indices(puzzle, best)
        rows = _positions(problem.labels, steps.perms, seq)
        hashes = row_hashes(rows)
        order = np.lexsort((-np.arange(hashes.size), hashes))  # by hash, the latest first
        keys, first = np.unique(hashes[order], return_index=True)
        latest = order[first]
        found: list[tuple[int, int, int, int]] = []
        for entry in words:
            if context is not None:
                context.cancel.check()
            if time.monotonic() > deadline:
                break
            word = [inverse[g] for g in reversed(known.home(int(entry)))]  # the way home, undone
            ahead = rows
            for g in word:
                ahead = ahead[:, steps.perms[g]]
            ahead_hashes = row_hashes(ahead)
            at = np.minimum(np.searchsorted(keys, ahead_hashes), keys.size - 1)
            j = np.where(keys[at] == ahead_hashes, latest[at], -1)
            gain = j - np.arange(j.size) - len(word)
            for i in np.flatnonzero(gain > 0):
                found.append((int(gain[i]), int(i), int(j[i]), int(entry)))
        cut = _apply_shortcuts(puzzle, problem.labels, steps, inverse, seq, known, found)
        if cut is None or puzzle.length(cut) >= puzzle.length(best):
            break
        best = cut
    return best


def _inverses(perms: np.ndarray) -> list[int]:
    """Per step, the index of the step undoing it (the steps are closed under inverses)."""
    index = {p.tobytes(): k for k, p in enumerate(perms)}
    return [index[np.argsort(p).tobytes()] for p in perms]


def _positions(labels: np.ndarray, perms: np.ndarray, seq: np.ndarray) -> np.ndarray:
    """The labels after each prefix of ``seq`` (row 0: the start)."""
    dtype = np.uint8 if labels.max() < 256 else np.int32
    rows = np.empty((seq.size + 1, labels.size), dtype=dtype)
    rows[0] = labels
    for k, g in enumerate(seq):
        rows[k + 1] = rows[k][perms[g]]
    return rows


def _apply_shortcuts(puzzle: Puzzle, labels: np.ndarray, steps: Steps, inverse: list[int], seq: np.ndarray,
                     known: Ball, found: list[tuple[int, int, int, int]]) -> list[Turn] | None:
    """The answer with the biggest non-overlapping shortcuts taken (each checked on the labels), simplified."""
    if not found:
        return None
    rows = _positions(labels, steps.perms, seq)
    used = np.zeros(seq.size, dtype=bool)
    cuts = []
    for _, i, j, entry in sorted(found, key=lambda f: (-f[0], f[1])):
        if used[i:j].any():
            continue
        word = [inverse[g] for g in reversed(known.home(entry))]
        row = rows[i]
        for g in word:
            row = row[steps.perms[g]]
        if not np.array_equal(row, rows[j]):
            continue  # two positions shared a hash
        used[i:j] = True
        cuts.append((i, j, word))
    out: list[Turn] = []
    at = 0
    for i, j, word in sorted(cuts):
        out.extend(steps.turns[g] for g in seq[at:i])
        out.extend(steps.turns[g] for g in word)
        at = j
    out.extend(steps.turns[g] for g in seq[at:])
    return simplify(puzzle, out)


def _improve(problem: Problem, turns: list[Turn], context: Context) -> list[Turn]:
    return shorten(problem.puzzle, turns, context=context)


def _shortcut(problem: Problem, turns: list[Turn], context: Context) -> list[Turn]:
    return shortcut(problem, turns, context=context)


WINDOWS = Pass("windows", _improve)
SHORTCUTS = Pass("shortcuts", _shortcut)
