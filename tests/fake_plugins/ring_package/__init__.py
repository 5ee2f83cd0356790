"""A well-formed package plugin whose geometry lives in a submodule (relative import)."""

from hlavolamy.plugins.hookspecs import hookimpl

from .shapes import Ring


@hookimpl
def hlavolamy_geometries():
    yield Ring()
