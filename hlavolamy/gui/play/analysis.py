"""Side-panel page "Analysis": run the structure analysis, read its report, explore orbits and 3-cycles.

Selecting an orbit or a block highlights its cells on the drawing; each
3-cycle has a Play button.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PyQt6.QtCore import Qt, pyqtSignal
from PyQt6.QtGui import QFontDatabase, QShowEvent
from PyQt6.QtWidgets import (
    QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QSplitter, QToolButton, QTreeWidget, QTreeWidgetItem,
    QVBoxLayout, QWidget,
)

from hlavolamy.core.progress import CancelToken, ProgressCallback
from hlavolamy.core.puzzle import Puzzle
from hlavolamy.errors import HlavolamyError
from hlavolamy.gui.sequences import compact_text

if TYPE_CHECKING:
    from hlavolamy.gui.window import MainWindow

CELLS_ROLE = Qt.ItemDataRole.UserRole
MAX_INFO_COLUMN = 72
"""Widest a Length, Cells or Kind column of the macro list gets (pixels) in the narrow side panel."""


@dataclass
class PlayCache:
    """What the Play tab computed for a puzzle (``puzzle.layer_cache(PlayCache)``)."""

    independent: list[dict[str, Any]] | None = None
    """:func:`independent_macros`."""


ANALYSIS_SHARE = 0.8
"""Part of the progress bar the structure analysis fills; independent moves fill the rest."""


@dataclass
class AnalysisResult:
    """What the page shows: the analysis, its JSON summary, 3-cycles and independent moves."""

    analysis: Any
    summary: dict[str, Any]
    independent: list[dict[str, Any]]

    @property
    def macros(self) -> list[dict[str, Any]]:
        """3-cycles and independent moves as ``{"moves", "cells", "kind", "orbit", "length"}``."""
        return list(self.summary.get("three_cycles") or []) + self.independent


def independent_macros(puzzle: Puzzle, cancel: CancelToken) -> list[dict[str, Any]]:
    """Independent moves in the 3-cycle list's shape (cached on the puzzle like the analysis)."""
    from hlavolamy.analysis.independent import independent_moves

    cache = puzzle.layer_cache(PlayCache)
    if cache.independent is None:
        cache.independent = [
            {"moves": puzzle.format(m.turns), "cells": list(m.cells), "kind": "independent move",
             "orbit": ", ".join(map(str, m.orbits)), "length": puzzle.length(m.turns)}
            for m in independent_moves(puzzle, cancel=cancel)
        ]
    return cache.independent


def run_analysis(puzzle: Puzzle, progress: ProgressCallback, cancel: CancelToken) -> AnalysisResult:
    """The background job: the analysis with its 3-cycle library, then independent moves."""
    from hlavolamy.analysis import analyse

    analysis = analyse(puzzle, progress=lambda f, m: progress(f * ANALYSIS_SHARE, m), cancel=cancel)
    progress(ANALYSIS_SHARE, "independent moves")
    independent = independent_macros(puzzle, cancel)
    return AnalysisResult(analysis, analysis.to_json(), independent)


def _preview(cells: list[int], limit: int = 8) -> str:
    return ", ".join(map(str, cells[:limit])) + (", …" if len(cells) > limit else "")


def block_systems(summary: dict[str, Any]) -> list[list[list[int]]]:
    """Per orbit, its blocks as lists of cells (empty when the orbit has no non-trivial blocks)."""
    out: list[list[list[int]]] = []
    for entry in summary.get("blocks", []):
        blocks = entry.get("blocks", []) if isinstance(entry, dict) else entry
        out.append([list(b) for b in blocks])
    return out


class AnalysisPage(QWidget):
    """Report text, orbit/block tree, 3-cycle list."""

    orbits_found = pyqtSignal(list)
    """Orbits (lists of cells) once an analysis finished: the Solve page offers them."""

    def __init__(self, app: MainWindow):
        super().__init__()
        self.app = app
        self.result: AnalysisResult | None = None
        self.analyse_button = QPushButton("Analyse")
        self.analyse_button.setToolTip("Find orbits, blocks, parities, reachability and 3-cycles (in the background)")
        self.analyse_button.clicked.connect(self.analyse)
        self.summary = QLabel("Not analysed yet.")
        self.summary.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.analyse_button)
        top.addWidget(self.summary, 1)

        self.report = QPlainTextEdit()
        self.report.setReadOnly(True)
        self.report.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.report.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)  # the side panel is narrow
        self.report.setPlaceholderText("The analysis report appears here")
        self.structure = QTreeWidget()
        self.structure.setHeaderLabels(["Orbit / block", "Cells"])
        self.structure.setToolTip("Select an orbit or a block to highlight its cells")
        self.structure.itemSelectionChanged.connect(self._highlight_selection)
        self.structure.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.cycles = QTreeWidget()
        self.cycles.setHeaderLabels(["", "Length", "Cells", "Kind", "Sequence"])
        self.cycles.setRootIsDecorated(False)
        self.cycles.setToolTip("3-cycles move only three cells or pieces; independent moves act on one orbit "
                               "alone. Play plays one")
        self.cycles.itemSelectionChanged.connect(self._highlight_selection)
        # long sequences are elided to the panel's width (the tooltip has them in full), never scrolled sideways
        self.cycles.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.cycles.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.cycles.header().setStretchLastSection(True)

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.report)
        splitter.addWidget(self.structure)
        splitter.addWidget(self.cycles)
        for index, stretch in enumerate((4, 2, 3)):
            splitter.setStretchFactor(index, stretch)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(splitter, 1)

    def puzzle_changed(self) -> None:
        self.result = None
        self.report.clear()
        self.structure.clear()
        self.cycles.clear()
        self.summary.setText("Not analysed yet.")
        self.app.set_highlight(frozenset())

    def analyse(self) -> None:
        puzzle = self.app.document.puzzle
        if puzzle is None:
            return
        self.summary.setText("Analysing…")
        self.app.run_task("Analysing", lambda progress, cancel: run_analysis(puzzle, progress, cancel),
                          lambda result: self.show_result(puzzle, result),
                          on_cancel=lambda: self.summary.setText("Analysis cancelled."),
                          on_failure=lambda message: self.summary.setText(f"Analysis failed: {message}"))

    def show_cached(self) -> bool:
        """Show an analysis another job (a solve) already left on the puzzle, without a new press.

        True when a result is on the page afterwards.
        """
        from hlavolamy.analysis import cached_analysis

        puzzle = self.app.document.puzzle
        if self.result is not None or puzzle is None:
            return self.result is not None
        analysis = cached_analysis(puzzle)
        if analysis is None:
            return False
        self.show_result(puzzle, AnalysisResult(analysis, analysis.to_json(), puzzle.layer_cache(PlayCache).independent or []),
                         "Analysis shown from the solver's results")
        if analysis.three_cycles is None or puzzle.layer_cache(PlayCache).independent is None:
            self.summary.setText(f"{self.summary.text()} (Analyse lists all 3-cycles and independent moves)")
        return True

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.show_cached()

    def show_result(self, puzzle: Puzzle, result: AnalysisResult, status: str = "Analysis finished") -> None:
        if puzzle is not self.app.document.puzzle:
            return  # the puzzle was edited meanwhile: the result is for another puzzle
        self.result = result
        self.report.setPlainText(result.analysis.report())
        orbits = [list(o) for o in result.summary.get("orbits", [])]
        self._fill_structure(orbits, block_systems(result.summary))
        self._fill_cycles(puzzle, result.macros)
        order = str(result.summary.get("order", ""))
        exact = "" if result.summary.get("order_exact", True) else " (estimate)"
        cycles = len(result.macros) - len(result.independent)
        self.summary.setText(f"{len(orbits)} orbits, {cycles} 3-cycles, {len(result.independent)} independent moves"
                             + (f", {int(order):,} positions{exact}" if order.isdigit() else ""))
        self.orbits_found.emit(orbits)
        self.app.status(status)

    def _fill_structure(self, orbits: list[list[int]], blocks: list[list[list[int]]]) -> None:
        self.structure.clear()
        for k, cells in enumerate(orbits):
            item = QTreeWidgetItem([f"Orbit {k} ({len(cells)} cells)", _preview(cells)])
            item.setData(0, CELLS_ROLE, cells)
            item.setToolTip(1, ", ".join(map(str, cells)))
            system = blocks[k] if k < len(blocks) else []
            if system and len(system[0]) > 1:
                item.setText(0, f"Orbit {k} ({len(cells)} cells, {len(system)} blocks of {len(system[0])})")
                for j, block in enumerate(system):
                    child = QTreeWidgetItem([f"Block {j}", _preview(block)])
                    child.setData(0, CELLS_ROLE, block)
                    item.addChild(child)
            self.structure.addTopLevelItem(item)
        self.structure.resizeColumnToContents(0)
        for item in (self.structure.topLevelItem(k) for k in range(self.structure.topLevelItemCount())):
            if item is not None:
                item.setToolTip(0, item.text(0))  # the column may be elided in a narrow panel

    def _fill_cycles(self, puzzle: Puzzle, macros: list[dict[str, Any]]) -> None:
        self.cycles.clear()
        for macro in macros:
            cells = [int(c) for c in macro["cells"]]
            text = str(macro["moves"])
            shown = compact_text(puzzle, puzzle.parse(text))
            item = QTreeWidgetItem(["", str(macro.get("length", "")), _preview(cells, 4), str(macro.get("kind", "")), shown])
            item.setData(0, CELLS_ROLE, cells)
            about = f"{macro.get('length', '?')} moves, orbit {macro.get('orbit', '?')}, cells {', '.join(map(str, cells))}"
            for column in range(1, 5):
                item.setToolTip(column, f"{shown}\n{text}\n{about}" if shown != text else f"{text}\n{about}")
            self.cycles.addTopLevelItem(item)
            button = QToolButton()
            button.setText("Play")
            button.setToolTip("Play this 3-cycle on the puzzle")
            button.clicked.connect(lambda _=False, t=text: self.play_macro(t))
            self.cycles.setItemWidget(item, 0, button)
        for column in range(1, 4):  # narrow info columns (elided, full text in tooltips): the sequence needs the room
            self.cycles.resizeColumnToContents(column)
            self.cycles.setColumnWidth(column, min(self.cycles.columnWidth(column), MAX_INFO_COLUMN))
        self.cycles.setColumnWidth(0, 56)

    def play_macro(self, text: str) -> None:
        puzzle = self.app.document.require_puzzle()
        self.app.play(puzzle.parse(text), f"3-cycle {text}")

    def select_orbit(self, index: int) -> None:
        """Select an orbit in the tree (its cells light up on the drawing)."""
        item = self.structure.topLevelItem(index)
        if item is None:
            raise HlavolamyError(f"there is no orbit {index}: the puzzle has {self.structure.topLevelItemCount()}")
        self.structure.setCurrentItem(item)

    def _highlight_selection(self) -> None:
        tree = self.sender()
        items = tree.selectedItems() if isinstance(tree, QTreeWidget) else []
        cells: set[int] = set()
        for item in items:
            cells.update(item.data(0, CELLS_ROLE) or [])
        self.app.set_highlight(frozenset(cells))
