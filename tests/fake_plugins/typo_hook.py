"""Broken: implements a hook the contract does not have (a typo)."""

from hlavolamy.plugins.hookspecs import hookimpl


@hookimpl
def hlavolamy_geometry():
    return []
