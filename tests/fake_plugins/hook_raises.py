"""Broken: the hook itself raises."""

from hlavolamy.plugins.hookspecs import hookimpl


@hookimpl
def hlavolamy_geometries():
    raise RuntimeError("geometry table is corrupt")
