"""Half broken: returns a valid geometry, a number and a geometry whose name is taken."""

from hlavolamy.plugins.hookspecs import Geometry, hookimpl


class Spare(Geometry):
    name = "spare"

    def build(self, **params):
        raise NotImplementedError

    def moves(self, data):
        return {}


class Clash(Spare):
    name = "toy"


@hookimpl
def hlavolamy_geometries():
    return [Spare(), 42, Clash()]
