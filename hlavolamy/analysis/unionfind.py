"""Union-find in numpy: merge many pairs of nodes at once.

Orbits and block systems are both "the finest partition where these pairs
are together", on thousands of nodes. A Python union-find would loop per
pair; here each round hooks every root to the smallest root it touches and
then flattens by pointer jumping, so a round is a handful of array
operations and rounds shrink the number of roots geometrically.

>>> merge_pairs(np.arange(5), np.array([0, 3]), np.array([1, 4])).tolist()
[0, 0, 2, 3, 3]
"""

from __future__ import annotations

import numpy as np


def flatten(labels: np.ndarray) -> np.ndarray:
    """Point every node straight at its root (``labels[labels] == labels`` afterwards)."""
    while True:
        jumped = labels[labels]
        if np.array_equal(jumped, labels):
            return labels
        labels = jumped


def merge_pairs(labels: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Labels after merging the classes of ``u[i]`` and ``v[i]`` for every ``i``.

    ``labels`` must be flat (each label a root, every root its own label, a
    root the smallest node of its class); the result is flat in the same
    sense, so the label of a class is its smallest node.
    """
    labels = labels.copy()
    while True:
        ru, rv = labels[u], labels[v]
        differ = ru != rv
        if not differ.any():
            return labels
        lo = np.minimum(ru[differ], rv[differ])
        hi = np.maximum(ru[differ], rv[differ])
        np.minimum.at(labels, hi, lo)
        labels = flatten(labels)
