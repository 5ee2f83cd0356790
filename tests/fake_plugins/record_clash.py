"""Strategies and formats, some of names already taken: the taken ones are refused, the rest kept."""

from hlavolamy.plugins.hookspecs import hookimpl


@hookimpl
def hlavolamy_strategies():
    from hlavolamy.solve.registry import Strategy

    return [Strategy("chain", "a second chain", lambda problem, context: None),
            Strategy("idle", "plays nothing", lambda problem, context: None)]


@hookimpl
def hlavolamy_formats():
    from hlavolamy.formats import Format

    return [Format("gap", "a second GAP reader", (".g",), lambda path: None, None)]
