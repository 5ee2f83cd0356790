"""Permutations as numpy integer arrays, with one convention everywhere.

A permutation ``p`` of ``n`` cells is a 0-based array. Applying a move ``m`` to
a state ``s`` gives ``new[i] = s[m[i]]``: ``m[destination] = source``. So
applying ``a`` then ``b`` is the single permutation ``a[b]``, written
``compose(a, b)``.

>>> a = as_perm([1, 2, 0])
>>> apply(as_perm([0, 1, 2]), a).tolist()
[1, 2, 0]
>>> compose(a, inverse(a)).tolist()
[0, 1, 2]
>>> cycles(a)
[[0, 1, 2]]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import reduce
from math import lcm

import numpy as np

from hlavolamy.errors import PermutationError, quoted

DTYPE = np.int32
Perm = np.ndarray


def as_perm(values: Sequence[int] | np.ndarray, name: str = "permutation", n: int | None = None) -> Perm:
    """Validate ``values`` as a permutation of ``0..n-1`` and return a read-only array.

    The error names ``name`` and the problem: wrong length, a non-integer,
    an index out of range or a duplicate (with the positions involved).
    """
    try:
        arr = np.asarray(values)
    except (TypeError, ValueError) as exc:
        raise PermutationError(f"{name}: not a list of integers ({exc})") from None
    if arr.ndim != 1:
        raise PermutationError(f"{name}: expected a flat list of integers, got shape {arr.shape}")
    if n is not None and arr.size != n:
        raise PermutationError(f"{name}: has {arr.size} entries, expected {n}")
    size = arr.size
    if size and not np.issubdtype(arr.dtype, np.integer):
        if arr.dtype.kind != "f" or not np.all(np.equal(np.mod(arr, 1), 0)):  # strings, bools, objects
            bad = next((i for i, v in enumerate(values) if not _is_int(v)), None)
            if bad is not None:
                raise PermutationError(f"{name}: entry {bad} is {quoted(values[bad], 30)}, not an integer")
            # integers beyond 64 bits (numpy keeps them as objects): surely out of range
            i = next(i for i, v in enumerate(values) if not 0 <= v < size)
            raise PermutationError(f"{name}: entry {i} is {quoted(values[i], 30)}, out of range 0..{size - 1}")
    arr = arr.astype(np.int64)
    out_of_range = np.flatnonzero((arr < 0) | (arr >= size))
    if out_of_range.size:
        i = int(out_of_range[0])
        raise PermutationError(f"{name}: entry {i} is {int(arr[i])}, out of range 0..{size - 1}")
    counts = np.bincount(arr, minlength=size)
    if np.any(counts != 1):
        dup = int(np.flatnonzero(counts > 1)[0])
        where = np.flatnonzero(arr == dup).tolist()
        raise PermutationError(f"{name}: value {dup} appears at entries {where}; a permutation has each value once")
    out = arr.astype(DTYPE)
    out.flags.writeable = False
    return out
def _is_int(v: object) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def identity(n: int) -> Perm:
    """The permutation that moves nothing."""
    out = np.arange(n, dtype=DTYPE)
    out.flags.writeable = False
    return out


def apply(state: np.ndarray, move: Perm) -> np.ndarray:
    """``new[i] = state[move[i]]``; works for any array indexed by cell (labels, colours)."""
    return state[move]


def compose(*perms: Perm) -> Perm:
    """The permutation of applying ``perms`` left to right."""
    if not perms:
        raise ValueError("compose() needs at least one permutation")
    return reduce(lambda a, b: a[b], perms)


def inverse(p: Perm) -> Perm:
    """The permutation undoing ``p``."""
    inv = np.empty_like(p)
    inv[p] = np.arange(p.size, dtype=p.dtype)
    return inv


def power(p: Perm, k: int) -> Perm:
    """``p`` applied ``k`` times (``k`` may be negative), by repeated squaring."""
    if k < 0:
        p, k = inverse(p), -k
    result = np.arange(p.size, dtype=p.dtype)
    base = p
    while k:
        if k & 1:
            result = result[base]
        base = base[base]
        k >>= 1
    return result


def is_identity(p: Perm) -> bool:
    return bool(np.array_equal(p, np.arange(p.size)))


def support(p: Perm) -> np.ndarray:
    """Cells that ``p`` moves, ascending."""
    return np.flatnonzero(p != np.arange(p.size))


def cycles(p: Perm, include_fixed: bool = False) -> list[list[int]]:
    """Disjoint cycles ``[c0, c1, ...]``: the piece at ``c1`` moves to ``c0``... in state terms.

    With ``new[i] = s[p[i]]`` the content of cell ``p[i]`` arrives at ``i``; a
    cycle lists ``i, p[i], p[p[i]], ...``.
    """
    images = np.asarray(p).tolist()  # Python ints: a numpy scalar per step was half a 5x5x5's independent moves
    seen = bytearray(len(images))
    out: list[list[int]] = []
    for start in range(len(images)):
        if seen[start]:
            continue
        cyc = [start]
        seen[start] = 1
        j = images[start]
        while j != start:
            cyc.append(j)
            seen[j] = 1
            j = images[j]
        if len(cyc) > 1 or include_fixed:
            out.append(cyc)
    return out


def cycle_labels(p: Perm) -> np.ndarray:
    """For each cell the smallest cell of its cycle, by pointer doubling (no Python loop over cells)."""
    label = np.arange(p.size)
    jump = np.asarray(p, dtype=np.int64)
    span = 1
    while span < p.size:
        label = np.minimum(label, label[jump])
        jump = jump[jump]
        span *= 2
    return label


def cycle_type(p: Perm) -> dict[int, int]:
    """Cycle length -> count, fixed points left out (e.g. ``{4: 5}`` for a face turn)."""
    sizes = np.bincount(cycle_labels(p), minlength=p.size)
    lengths, counts = np.unique(sizes[sizes > 1], return_counts=True)
    return {int(k): int(c) for k, c in zip(lengths, counts)}


def order(p: Perm) -> int:
    """The least ``k > 0`` with ``p**k`` the identity."""
    return reduce(lcm, cycle_type(p), 1)


def parity(p: Perm) -> int:
    """0 for an even permutation, 1 for an odd one: (cells - cycles) mod 2."""
    n_cycles = int(np.count_nonzero(cycle_labels(p) == np.arange(p.size)))
    return (p.size - n_cycles) % 2


def parity_on(p: Perm, cells: Iterable[int]) -> int:
    """Parity of ``p`` restricted to ``cells`` (which ``p`` must map onto themselves)."""
    cells = np.fromiter(cells, dtype=np.int64)
    index = np.full(p.size, -1, dtype=np.int64)
    index[cells] = np.arange(cells.size)
    local = index[p[cells]]
    if np.any(local < 0):
        raise ValueError("parity_on: the cells are not closed under the permutation")
    return parity(local.astype(DTYPE))


def from_cycles(n: int, cyc: Iterable[Sequence[int]]) -> Perm:
    """Build a permutation from disjoint cycles in the :func:`cycles` convention."""
    p = np.arange(n, dtype=DTYPE)
    for c in cyc:
        for a, b in zip(c, list(c[1:]) + [c[0]]):
            p[a] = b
    return as_perm(p, "cycles", n)


def format_cycles(p: Perm) -> str:
    """``(0 1 2)(3 4)``; ``()`` for the identity."""
    return "".join("(" + " ".join(map(str, c)) + ")" for c in cycles(p)) or "()"
