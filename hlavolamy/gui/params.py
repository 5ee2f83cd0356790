"""Editors for a geometry's :class:`Parameter` list (New dialog, Fields tab)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PyQt6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QLineEdit, QSpinBox, QWidget

from hlavolamy.plugins.hookspecs import Parameter

INT_LIMIT = 2**31 - 1


def parameter_editor(p: Parameter, value: Any) -> tuple[QWidget, Callable[[], Any]]:
    """A widget for one parameter, set to ``value``, and a getter for its current value."""
    if p.choices:
        combo = QComboBox()
        for choice in p.choices:
            combo.addItem(str(choice), choice)
        combo.setCurrentIndex(max(0, combo.findData(value)))
        return combo, combo.currentData
    if p.kind is bool:
        box = QCheckBox()
        box.setChecked(bool(value))
        return box, box.isChecked
    if p.kind is int:
        spin = QSpinBox()
        spin.setRange(int(p.minimum if p.minimum is not None else -INT_LIMIT),
                      int(p.maximum if p.maximum is not None else INT_LIMIT))
        spin.setValue(int(value if value is not None else spin.minimum()))
        return spin, spin.value
    if p.kind is float:
        dspin = QDoubleSpinBox()
        dspin.setDecimals(3)
        dspin.setRange(p.minimum if p.minimum is not None else -1e9, p.maximum if p.maximum is not None else 1e9)
        dspin.setValue(float(value if value is not None else 0.0))
        return dspin, dspin.value
    line = QLineEdit("" if value is None else str(value))
    return line, line.text


class ParameterForm(QWidget):
    """A form with one row per parameter; :meth:`values` reads them back."""

    def __init__(self, parameters: Sequence[Parameter], values: Mapping[str, Any] | None = None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self._getters: dict[str, Callable[[], Any]] = {}
        self.editors: dict[str, QWidget] = {}
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        for p in parameters:
            widget, getter = parameter_editor(p, (values or {}).get(p.name, p.default))
            widget.setToolTip(p.help)
            form.addRow(p.name.replace("_", " ").capitalize(), widget)
            self._getters[p.name] = getter
            self.editors[p.name] = widget

    def values(self) -> dict[str, Any]:
        return {name: getter() for name, getter in self._getters.items()}
