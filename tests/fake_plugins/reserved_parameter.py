"""Broken: a parameter named ``output`` would clash with ``hlavolamy new ... -o FILE``; one of ``help`` with --help."""

from hlavolamy.plugins.hookspecs import Geometry, Parameter, hookimpl


class Clash(Geometry):
    def __init__(self, name, parameter):
        self.name = name
        self.parameters = (Parameter(parameter, str, "x"),)

    def build(self, **params):
        raise AssertionError("never built: the host refuses the geometry at load")

    def moves(self, data):
        return {}


@hookimpl
def hlavolamy_geometries():
    return [Clash("clash_output", "output"), Clash("clash_help", "help")]
