"""A jumbling design as a permutation puzzle: the closure's regions are the cells, drawn pieces are fused sets.

Two kinds of pieces (the design's ``jumble`` key):

- ``"cut"``: every turn cuts whatever it crosses (a Gizmo Gears-style
  deep-cut puzzle). The pieces are the closure's regions; every turn is
  always legal.
- ``"block"``: the pieces are the regions as drawn (coloured regions of the
  design). A turn that would cut a piece is blocked: the piece straddles the
  rim. The closure's regions are the cells, each drawn piece the fused set
  of the cells it consists of, so the blocking solver and the Play tab's
  legality apply unchanged.

A cell takes the colour of the drawn region its interior point lies in;
regions of the closure in uncoloured space are no cells.

The closure and its regions depend only on the circles (not on colours or
names), take seconds for a big design, and are asked for again by every
view of the same design (the designer, the Play tab, undo): :func:`close`
keeps the last few, keyed by the circles, so a design computed once (for
instance off the GUI thread) is never closed again, and :func:`closed`
tells without computing whether one is known.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from hlavolamy.core.progress import CancelToken, ProgressCallback, interruptible, report
from hlavolamy.errors import PuzzleError

from .arrangement import Arrangement, Region
from .jumble import MAX_CIRCLES, Closure, closure_of
from .symmetry import JamError, turn_map

if TYPE_CHECKING:
    from .design import CircleMove, Design, DesignCircle

CUT_ALL, BLOCK = "cut", "block"
JUMBLE_MODES = (CUT_ALL, BLOCK)
MAX_BUILD_CIRCLES = 400
"""A closure with more cut circles than this is not cut into regions (thousands of cells, minutes of work)."""
KEPT = 16
"""Closures :func:`close` keeps (a design being edited, its undo steps, the puzzles open)."""

ClosureKey = tuple[tuple[object, ...], ...]
Closed = tuple[Closure, Arrangement] | PuzzleError
"""A closure and its regions, or why there are none (:class:`.jumble.JumbleLimit` keeps the partial closure)."""
_kept: OrderedDict[ClosureKey, Closed] = OrderedDict()
_kept_lock = threading.Lock()


def closure_key(circles: Sequence[DesignCircle], max_circles: int = MAX_CIRCLES) -> ClosureKey:
    """What a closure depends on: every circle's id, place, size, kind, steps and hole, and the limit."""
    return (*((c.id, c.x, c.y, c.r, c.kind, c.steps, c.inner) for c in circles), (max_circles,))


def without_steps(circles: Sequence[DesignCircle]) -> DesignCircle | None:
    """A turning circle with no explicit steps: a jumbling design refuses it at once (nothing to close)."""
    return next((c for c in circles if c.kind == "turn" and c.steps is None), None)


def closed(circles: Sequence[DesignCircle], max_circles: int = MAX_CIRCLES) -> Closed | None:
    """The kept closure of these circles, or None when it was not computed yet (never computes)."""
    key = closure_key(circles, max_circles)
    with _kept_lock:
        if key in _kept:
            _kept.move_to_end(key)
        return _kept.get(key)


def close(circles: Sequence[DesignCircle], *, max_circles: int = MAX_CIRCLES, progress: ProgressCallback | None = None,
          cancel: CancelToken | None = None) -> Closed:
    """The closure of these circles and its regions, computed once and kept; Cancelled through ``cancel``.

    Safe in a worker thread: it reads only ``circles`` (frozen) and writes only the kept results.
    """
    known = closed(circles, max_circles)
    if known is not None:
        return known
    missing = without_steps(circles)
    if missing is not None:
        raise PuzzleError(f"circle {missing.id!r}: a jumbling design needs explicit steps (a turn angle) on every "
                          "turning circle")
    result: Closed
    try:
        closure = closure_of(circles, lambda c: c.steps, max_circles=max_circles, progress=progress, cancel=cancel)
        if len(closure.circles) > MAX_BUILD_CIRCLES:
            raise PuzzleError(
                f"the turns close up, but only after {len(closure.circles)} cut circles: more than {MAX_BUILD_CIRCLES} "
                "make thousands of pieces, too many to build here; make the disks overlap less"
            )
        report(progress, 1.0, f"cutting the plane along {len(closure.circles)} cut circles")
        with interruptible(cancel):  # the arrangement never looks at the token
            arrangement = Arrangement([c.shape for c in closure.circles], closure.arcs)
        result = (closure, arrangement)
    except PuzzleError as exc:  # JumbleLimit too: a design past the limit is not closed again at every look
        result = exc
    with _kept_lock:
        _kept[closure_key(circles, max_circles)] = result
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return result


@dataclass
class Jumbled:
    """The closure of a design and the cells, colours, pieces and moves it gives."""

    design: Design
    closure: Closure
    arrangement: Arrangement
    """The regions of the closed cuts."""

    @classmethod
    def of(cls, design: Design, *, max_circles: int = MAX_CIRCLES, progress: ProgressCallback | None = None,
           cancel: CancelToken | None = None) -> Jumbled:
        """Close the design's cuts (JumbleLimit when they never close, PuzzleError without explicit steps)."""
        result = close(design.circles, max_circles=max_circles, progress=progress, cancel=cancel)
        if isinstance(result, PuzzleError):
            raise result.with_traceback(None)  # the kept one: no traceback piling up over the raises
        return cls(design, *result)

    @cached_property
    def _parents(self) -> list[tuple[Region, Region]]:
        """(closure region, drawn coloured region containing it) for every closure region that is a cell."""
        drawn = self.design.arrangement
        coloured = self.design.colours
        out = []
        for region in self.arrangement.regions:
            parent = drawn.region_at(*region.point)
            if parent is not None and parent.id in coloured:
                out.append((region, parent))
        order = {rid: i for i, rid in enumerate(coloured)}
        out.sort(key=lambda p: (order[p[1].id], round(p[0].point[1], 6), round(p[0].point[0], 6)))
        return out

    @cached_property
    def cells(self) -> list[Region]:
        return [region for region, _ in self._parents]

    @cached_property
    def cell_index(self) -> dict[str, int]:
        return {r.id: i for i, r in enumerate(self.cells)}

    @cached_property
    def labels(self) -> list[str]:
        return [self.design.colours[parent.id] for _, parent in self._parents]

    @cached_property
    def pieces(self) -> list[list[int]]:
        """The physical pieces as lists of cells: each drawn region (``block``) or each cell (``cut``)."""
        if self.design.jumble != BLOCK:
            return [[i] for i in range(len(self.cells))]
        groups: dict[str, list[int]] = {}
        for i, (_, parent) in enumerate(self._parents):
            groups.setdefault(parent.id, []).append(i)
        return list(groups.values())

    def turned_regions(self, circle: DesignCircle) -> list[Region]:
        hole = circle.hole
        return [r for r in self.arrangement.regions if circle.id in r.inside and (hole is None or hole.id not in r.inside)]

    def moves(self, names: dict[str, str]) -> list[CircleMove]:
        """Each turning circle's move on the cells; JamError if the closure is inconsistent (a bug, never expected)."""
        from .design import CircleMove

        out = []
        for c in self.design.circles:
            if c.kind != "turn" or c.steps is None:
                continue
            regions = self.turned_regions(c)
            try:
                mapping = turn_map(self.arrangement, c.shape, regions, c.steps, self.cell_index, names[c.id], turns=c.turns or 1)
            except JamError as exc:
                raise JamError(f"the jumbling closure is inconsistent ({exc}); please report this design", exc.circle, exc.clashes) from exc
            perm = list(range(len(self.cells)))
            for source, dest in mapping.items():
                perm[dest] = source
            turned = frozenset(self.cell_index[r.id] for r in regions if r.id in self.cell_index)
            out.append(CircleMove(names[c.id], c.id, c.steps, perm, turned))
        return out


def straddling(jumbled: Jumbled, cells: Iterable[int]) -> list[int]:
    """The pieces (indexes into ``pieces``) the given cells belong to."""
    where = {cell: k for k, piece in enumerate(jumbled.pieces) for cell in piece}
    return sorted({where[c] for c in cells})
