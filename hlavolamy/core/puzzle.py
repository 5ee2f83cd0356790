"""A puzzle: cells, their solved colours, and named moves (the generators).

The puzzle is data only. It knows nothing of geometry beyond an opaque
``plugin`` record the geometry plugin can read back, so a file opens, plays
and solves even where its plugin is missing.

>>> p = Puzzle(colours=["A", "A", "B", "B"], moves={"L": [1, 0, 2, 3], "R": [0, 2, 3, 1]})
>>> p.n_cells, list(p.moves), p.move_order("R")
(4, ['L', 'R'], 3)
>>> p.perm_of(p.parse("R L'")).tolist()
[2, 0, 3, 1]
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

import numpy as np

from hlavolamy.core import perm as P
from hlavolamy.core.turns import Turn, reduce_power
from hlavolamy.errors import HlavolamyError, PuzzleError, quoted

T = TypeVar("T")


@dataclass
class CoreTables:
    """What the core computes once per puzzle from its moves, each field filled on first use.

    The layers above keep theirs in their own typed objects (:meth:`Puzzle.layer_cache`).
    """

    move_orders: dict[str, int] = field(default_factory=dict)
    """Move -> its order (:meth:`Puzzle.move_order`)."""
    move_powers: dict[tuple[str, int], np.ndarray] = field(default_factory=dict)
    """(move, power modulo its order) -> the permutation (:meth:`Puzzle.turn_perm`)."""
    fused: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    """All fused cells, the blocking each belongs to, each blocking's size (:mod:`~hlavolamy.core.state`)."""
    turned_masks: dict[str, np.ndarray] = field(default_factory=dict)
    """Move -> boolean mask of the positions it turns (:mod:`~hlavolamy.core.state`)."""
    scramble_commutes: dict[tuple[str, str], bool] = field(default_factory=dict)
    """Pairs of moves -> whether they commute (:class:`~hlavolamy.core.scramble.Scrambler`)."""
    scramble_powers: dict[str, list[int]] | None = None
    """Move -> the powers a scramble plays (:class:`~hlavolamy.core.scramble.Scrambler`)."""


@dataclass(frozen=True)
class PluginRecord:
    """Which geometry plugin made the puzzle, and its own (JSON-able) geometry data."""

    name: str
    data: Mapping[str, Any] = field(default_factory=dict)


class Puzzle:
    """Cells ``0..n-1``, a solved colour label per cell and named generator moves.

    ``aliases`` are named sequences of generators (a cube's wide turns and
    whole-cube rotations): notation accepts them, solutions never use them.
    ``palette`` maps colour labels to ``#rrggbb`` for drawing.
    ``blockings`` are sets of fused cells (bandaged puzzles); ``turned_parts``
    says, per move, which cells it turns (default: the cells it moves), which
    decides whether a fused set is torn apart.
    """

    def __init__(
        self,
        colours: Sequence[str],
        moves: Mapping[str, Sequence[int] | np.ndarray],
        *,
        name: str = "",
        description: str = "",
        aliases: Mapping[str, str] | None = None,
        palette: Mapping[str, str] | None = None,
        blockings: Iterable[Iterable[int]] = (),
        turned_parts: Mapping[str, Iterable[int]] | None = None,
        plugin: PluginRecord | None = None,
        cell_data: Sequence[Mapping[str, Any]] | None = None,
    ):
        self.tables = CoreTables()
        """What the core computes from the moves (move orders and powers, blocking masks, scramble tables)."""
        self._layer_caches: dict[type, object] = {}
        self.name = name
        self.description = description
        self.colours: tuple[str, ...] = tuple(str(c) for c in colours)
        n = len(self.colours)
        if n == 0:
            raise PuzzleError("a puzzle needs at least one cell (colours is empty)")
        if not moves:
            raise PuzzleError("a puzzle needs at least one move")
        self.moves: dict[str, P.Perm] = {}
        for move_name, values in moves.items():
            _check_move_name(move_name, "moves")
            self.moves[move_name] = P.as_perm(values, f"move {quoted(move_name)}", n)
        self.palette: dict[str, str] = dict(palette or {})
        if cell_data is not None and len(cell_data) != n:
            raise PuzzleError(f"cell_data has {len(cell_data)} entries for {n} cells")
        self.cell_data: tuple[dict[str, Any], ...] | None = (
            tuple(dict(d) for d in cell_data) if cell_data is not None else None
        )
        """Optional drawing hints per cell (``x``, ``y``, ``label``) for puzzles without a plugin."""
        self.plugin = plugin
        self.blockings: tuple[frozenset[int], ...] = _check_blockings(blockings, n)
        self.turned_parts: dict[str, frozenset[int]] = _check_turned_parts(turned_parts or {}, self.moves, n)
        self.aliases: dict[str, str] = {}
        self._alias_turns: dict[str, list[Turn]] = {}
        for alias, text in (aliases or {}).items():
            _check_move_name(alias, "aliases")
            if alias in self.moves:
                raise PuzzleError(f"alias {quoted(alias)} has the name of a move", ("aliases", alias))
            if not isinstance(text, str):
                detail = f"an alias is notation text, not {type(text).__name__}"
                raise PuzzleError(f"alias {quoted(alias)}: {detail}", ("aliases", alias), detail)
            self.aliases[alias] = text
        for alias, text in self.aliases.items():
            try:
                self._alias_turns[alias] = self.parse(text, allow_aliases=False)
            except HlavolamyError as exc:
                raise PuzzleError(f"alias {quoted(alias)}: {exc}", ("aliases", alias), str(exc)) from None

    # -- derived data --------------------------------------------------------
    @property
    def n_cells(self) -> int:
        return len(self.colours)

    @cached_property
    def colour_labels(self) -> tuple[str, ...]:
        """Distinct colour labels in order of first appearance."""
        return tuple(dict.fromkeys(self.colours))

    @cached_property
    def colour_ids(self) -> np.ndarray:
        """The solved colouring as small integers indexing :attr:`colour_labels`."""
        index = {c: i for i, c in enumerate(self.colour_labels)}
        out = np.array([index[c] for c in self.colours], dtype=np.int32)
        out.flags.writeable = False
        return out

    @cached_property
    def fingerprint(self) -> str:
        """A hash of cells, colours and moves: the key for cached analysis."""
        h = hashlib.sha1()
        h.update(repr(self.colours).encode())
        for move_name, m in self.moves.items():
            h.update(move_name.encode() + b"\0" + m.tobytes())
        for b in sorted(sorted(b) for b in self.blockings):
            h.update(repr(b).encode())
        return h.hexdigest()

    def move_order(self, name: str) -> int:
        """Order of a generator (cached: hot in scrambles, costs and simplification)."""
        orders = self.tables.move_orders
        if name not in orders:
            orders[name] = P.order(self.move(name))
        return orders[name]

    def move(self, name: str) -> P.Perm:
        """The permutation of a generator; a clear error for an unknown name."""
        try:
            return self.moves[name]
        except KeyError:
            raise PuzzleError(f"unknown move {quoted(name)}; the moves are {', '.join(self.moves)}") from None

    def layer_cache(self, kind: type[T]) -> T:
        """The object of class ``kind`` in which a layer keeps what it computed for this puzzle.

        Made by ``kind()`` on first use and kept as long as the puzzle. Each
        layer above the core owns one such typed object with a named field per
        result (:class:`hlavolamy.analysis.memo.AnalysisCache`,
        :class:`hlavolamy.solve.caches.SolveCache`, the GUI's play cache), so
        the core never needs to know their types.
        """
        found = self._layer_caches.get(kind)
        if found is None:
            found = self._layer_caches.setdefault(kind, kind())
        return found  # type: ignore[return-value]

    def forget_tables(self) -> None:
        """Drop everything computed for this puzzle (the core's tables and every layer's cache)."""
        self.tables = CoreTables()
        self._layer_caches = {}

    # -- sequences -----------------------------------------------------------
    def turn_perm(self, turn: Turn) -> P.Perm:
        """The permutation of one turn; powers are cached by their residue modulo the move's order."""
        k = turn.power % self.move_order(turn.move)
        if k == 1:
            return self.moves[turn.move]
        powers = self.tables.move_powers
        key = (turn.move, k)
        if key not in powers:
            powers[key] = P.power(self.moves[turn.move], k)
            powers[key].flags.writeable = False
        return powers[key]

    def perm_of(self, turns: Sequence[Turn]) -> P.Perm:
        """The permutation of playing ``turns`` left to right."""
        result = P.identity(self.n_cells)
        for t in turns:
            result = result[self.turn_perm(t)]
        return result

    def parse(self, text: str, allow_aliases: bool = True) -> list[Turn]:
        """Parse notation into generator turns (aliases expanded)."""
        from hlavolamy.core.notation import parse

        return parse(text, self.moves.keys(), self._alias_turns if allow_aliases else {})

    def format(self, turns: Sequence[Turn]) -> str:
        from hlavolamy.core.notation import format_turns

        return format_turns(turns, self.moves.keys(), self.aliases.keys())

    def turn_cost(self, turn: Turn) -> int:
        """Quarter-turn cost: ``R2`` is 2, ``R'`` is 1, ``R3`` on an order-4 move is 1."""
        return abs(reduce_power(self, turn.move, turn.power))

    def length(self, turns: Sequence[Turn]) -> int:
        """Length in the metric of the Santa benchmark: each generator or inverse counts 1."""
        return sum(self.turn_cost(t) for t in turns)

    def turned_part(self, name: str) -> frozenset[int]:
        """Cells the move turns (for blockings); defaults to the cells it moves."""
        part = self.turned_parts.get(name)
        return part if part is not None else frozenset(P.support(self.move(name)).tolist())

    def __repr__(self) -> str:
        label = f" {self.name!r}" if self.name else ""
        return f"<Puzzle{label}: {self.n_cells} cells, {len(self.moves)} moves>"


def copy_puzzle(puzzle: Puzzle, **changes: Any) -> Puzzle:
    """A new puzzle like ``puzzle`` with some constructor arguments changed (validated again)."""
    args: dict[str, Any] = dict(
        colours=puzzle.colours, moves=puzzle.moves, name=puzzle.name, description=puzzle.description,
        aliases=puzzle.aliases, palette=puzzle.palette, blockings=puzzle.blockings,
        turned_parts=puzzle.turned_parts, plugin=puzzle.plugin, cell_data=puzzle.cell_data,
    )
    args.update(changes)
    args["turned_parts"] = {m: c for m, c in args["turned_parts"].items() if m in args["moves"]}
    return Puzzle(**args)


def _check_move_name(name: object, key: str) -> None:
    """Names of moves and aliases (``key``): letters, digits and ``_``, not only digits."""
    kind = "move" if key == "moves" else "alias"
    if not isinstance(name, str) or not name or not all(ch.isalnum() or ch == "_" for ch in name):
        rule = "use letters, digits and '_' only"
    elif name.isdigit():
        rule = "must contain a letter, not only digits"
    else:
        return
    raise PuzzleError(f"{kind} name {quoted(name)}: {rule}", (key, str(name)), f"bad name {quoted(name)}: {rule}")


def _check_cell_list(cells: list[int], n: int, subject: str, location: tuple[str | int, ...], out_of_range: str) -> None:
    """Every entry a cell index in ``0..n-1``, none twice; ``subject`` names the list in messages.

    ``out_of_range`` words a bad index: a format string of ``c`` (the entry) and ``top`` (``n - 1``).
    """
    for i, c in enumerate(cells):
        if not isinstance(c, (int, np.integer)) or isinstance(c, bool) or not 0 <= c < n:
            raise PuzzleError(
                f"{subject}: {out_of_range.format(c=c, top=n - 1)}",
                (*location, i),
                f"{quoted(c)} is out of range: cells are 0..{n - 1}",
            )
        if c in cells[:i]:
            raise PuzzleError(f"{subject}: cell {c} is listed twice", (*location, i), f"cell {c} is listed twice")


def _check_blockings(blockings: Iterable[Iterable[int]], n: int) -> tuple[frozenset[int], ...]:
    out: list[frozenset[int]] = []
    owner: dict[int, int] = {}
    for k, raw in enumerate(blockings):
        cells = list(raw)
        if len(cells) < 2:
            detail = f"fuses {len(cells)} cell(s); a blocking needs at least two"
            raise PuzzleError(f"blocking {k}: {detail}", ("blockings", k), detail)
        _check_cell_list(cells, n, f"blocking {k}", ("blockings", k), "cell {c!r} is not in 0..{top}")
        for i, c in enumerate(cells):
            if c in owner:
                detail = f"cell {c} is already fused in blocking {owner[c]}; merge the two"
                raise PuzzleError(f"blocking {k}: {detail}", ("blockings", k, i), detail)
            owner[int(c)] = k
        out.append(frozenset(int(c) for c in cells))
    return tuple(out)


def _check_turned_parts(parts: Mapping[str, Iterable[int]], moves: Mapping[str, P.Perm], n: int) -> dict[str, frozenset[int]]:
    out: dict[str, frozenset[int]] = {}
    for move_name, raw in parts.items():
        if move_name not in moves:
            raise PuzzleError(
                f"turned part given for unknown move {quoted(move_name)}",
                ("turned_parts", move_name),
                f"a turned part for {quoted(move_name)}, which is not a move",
            )
        cells = list(raw)
        subject = f"turned part of move {quoted(move_name)}"
        _check_cell_list(cells, n, subject, ("turned_parts", move_name), "cells must be in 0..{top}, not {c!r}")
        part = frozenset(int(c) for c in cells)
        left_out = sorted(set(P.support(moves[move_name]).tolist()) - part)
        if left_out:
            detail = f"leaves out cells the move moves: {left_out[:10]}"
            raise PuzzleError(f"turned part of move {quoted(move_name)} {detail}", ("turned_parts", move_name), detail)
        out[move_name] = part
    return out
