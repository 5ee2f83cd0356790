"""The editing tabs: Fields, Colouring, Moves and Blockings."""

from __future__ import annotations

from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import QSplitter, QVBoxLayout, QWidget


def side_by_side(owner: QWidget, controls: QWidget, canvas: QWidget) -> QSplitter:
    """Fill ``owner`` with ``controls`` on the left and ``canvas`` taking the spare width (every editing tab)."""
    splitter = QSplitter(Qt.Orientation.Horizontal)
    splitter.addWidget(controls)
    splitter.addWidget(canvas)
    splitter.setStretchFactor(1, 1)
    QVBoxLayout(owner).addWidget(splitter)
    return splitter
