"""The examples in the docstrings run as written: each module's own doctests (the GUI's aside: it needs Qt; the
``__main__`` modules aside: importing one runs the command line)."""

import doctest
import importlib
import pkgutil

import pytest

import hlavolamy

MODULES = sorted(m.name for m in pkgutil.walk_packages(hlavolamy.__path__, "hlavolamy.")
                 if not m.name.startswith("hlavolamy.gui") and not m.name.endswith(".__main__"))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} docstring examples of {name} failed"
