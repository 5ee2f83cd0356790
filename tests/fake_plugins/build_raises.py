"""Broken at work: loads fine, but ``build`` raises an error that is not a ValueError."""

from hlavolamy.plugins.hookspecs import Geometry, Parameter, hookimpl


class BuildRaises(Geometry):
    name = "build_raises"
    parameters = (Parameter("n", int, 3),)

    def build(self, **params):
        return {}["no such key"]

    def moves(self, data):
        return {}


@hookimpl
def hlavolamy_geometries():
    return [BuildRaises()]
