"""Broken at work: ``build`` returns a dict, not a Puzzle."""

from hlavolamy.plugins.hookspecs import Geometry, hookimpl


class BuildGarbage(Geometry):
    name = "build_garbage"

    def build(self, **params):
        return {"colours": "AB"}

    def moves(self, data):
        return {}


@hookimpl
def hlavolamy_geometries():
    return [BuildGarbage()]
