"""Broken: the hook forgets to return its geometries."""

from hlavolamy.plugins.hookspecs import hookimpl


@hookimpl
def hlavolamy_geometries():
    pass
