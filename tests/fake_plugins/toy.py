"""A well-formed module plugin: a ring of cells turned by ``r``, with a swap ``s``."""

from hlavolamy.core.puzzle import PluginRecord, Puzzle
from hlavolamy.plugins.hookspecs import Geometry, Parameter, hookimpl


class Toy(Geometry):
    name = "toy"
    title = "Toy ring"
    description = "n cells in a ring: r turns it, s swaps the first two"
    parameters = (
        Parameter("n", int, 4, minimum=2, maximum=50, help="cells in the ring"),
        Parameter("mirror", bool, False, help="add the reflection m"),
    )

    def build(self, **params):
        data = self.coerce(params)
        return Puzzle(["A"] + ["B"] * (data["n"] - 1), self.moves(data), name=f"toy{data['n']}",
                      plugin=PluginRecord(self.name, data))

    def moves(self, data):
        n = data["n"]
        out = {"r": [(i + 1) % n for i in range(n)], "s": [1, 0] + list(range(2, n))}
        if data.get("mirror"):
            out["m"] = [(-i) % n for i in range(n)]
        return out


@hookimpl
def hlavolamy_geometries():
    return [Toy()]
