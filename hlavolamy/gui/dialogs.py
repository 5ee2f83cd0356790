"""The New puzzle dialog: choose a plugin geometry and its parameters."""

from __future__ import annotations

from typing import Any

from PyQt6.QtWidgets import (
    QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QVBoxLayout, QWidget,
)

from hlavolamy.gui.params import ParameterForm
from hlavolamy.plugins.hookspecs import Geometry


def has_designer(geometry: Geometry) -> bool:
    """The geometry offers an interactive designer (it overrides :meth:`Geometry.designer`)."""
    return type(geometry).designer is not Geometry.designer


class NewPuzzleDialog(QDialog):
    """Geometry combo, its description and parameter form; optionally an empty design."""

    def __init__(self, parent: QWidget | None = None):
        from hlavolamy.plugins.manager import get_plugin_host

        super().__init__(parent)
        self.setWindowTitle("New puzzle")
        host = get_plugin_host()
        self.geometries = [host.geometries[name] for name in sorted(host.geometries)]
        self.combo = QComboBox()
        for geometry in self.geometries:
            self.combo.addItem(geometry.title or geometry.name, geometry.name)
        self.description = QLabel()
        self.description.setWordWrap(True)
        self.empty = QCheckBox("Start with an empty design (draw it in the Fields tab)")
        self.form_holder = QVBoxLayout()
        self.form: ParameterForm | None = None
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        top = QFormLayout()
        top.addRow("Geometry", self.combo)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.description)
        layout.addLayout(self.form_holder)
        layout.addWidget(self.empty)
        layout.addWidget(self.buttons)
        if not self.geometries:
            self.description.setText("No geometry plugin is loaded (see `hlavolamy plugins`).")
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(False)
        self.combo.currentIndexChanged.connect(self._geometry_changed)
        self._geometry_changed()

    def geometry(self) -> Geometry:
        return self.geometries[self.combo.currentIndex()]

    def _geometry_changed(self) -> None:
        if not self.geometries:
            return
        geometry = self.geometry()
        self.description.setText(geometry.description)
        if self.form is not None:
            self.form.deleteLater()
        self.form = ParameterForm(geometry.parameters)
        self.form_holder.addWidget(self.form)
        self.empty.setVisible(has_designer(geometry))
        self.empty.setChecked(False)

    def choice(self) -> tuple[Geometry, dict[str, Any], bool]:
        """The chosen geometry, parameter values and whether to start an empty design."""
        return self.geometry(), self.form.values() if self.form else {}, self.empty.isChecked() and not self.empty.isHidden()
