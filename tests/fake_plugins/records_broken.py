"""Every solver and format hook broken in its own way: each is skipped with its reason."""

from hlavolamy.plugins.hookspecs import hookimpl


@hookimpl
def hlavolamy_strategies():
    raise RuntimeError("strategy table is corrupt")


@hookimpl
def hlavolamy_passes():
    return "shorter please"


@hookimpl
def hlavolamy_formats():
    from hlavolamy.formats import Format

    return [42, Format("halfway", "neither reads nor writes", (), None, None)]

