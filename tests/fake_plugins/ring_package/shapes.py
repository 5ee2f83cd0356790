"""The package plugin's geometry: a ring of three cells."""

from hlavolamy.core.puzzle import PluginRecord, Puzzle
from hlavolamy.plugins.hookspecs import Geometry


class Ring(Geometry):
    name = "ring"
    description = "three cells turned by r"

    def build(self, **params):
        return Puzzle(["A", "B", "C"], self.moves({}), plugin=PluginRecord(self.name, {}))

    def moves(self, data):
        return {"r": [1, 2, 0]}
