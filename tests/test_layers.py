"""The package's layers import only downwards: core -> analysis -> solve -> plugins/formats -> batch -> gui/cli.

Checked on the source (every ``import`` statement, also inside functions and
``TYPE_CHECKING`` blocks that would hide a cycle until run time), so a
violation fails here before it becomes an import cycle or a core needing Qt.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "hlavolamy"

FORBIDDEN = {
    "core": ("hlavolamy.analysis", "hlavolamy.solve", "hlavolamy.plugins", "hlavolamy.formats", "hlavolamy.batch",
             "hlavolamy.gui", "hlavolamy.cli", "PyQt6"),
    "analysis": ("hlavolamy.solve", "hlavolamy.plugins", "hlavolamy.formats", "hlavolamy.batch", "hlavolamy.gui",
                 "hlavolamy.cli", "PyQt6"),
    "solve": ("hlavolamy.plugins", "hlavolamy.formats", "hlavolamy.batch", "hlavolamy.gui", "hlavolamy.cli", "PyQt6"),
    "formats": ("hlavolamy.batch", "hlavolamy.gui", "hlavolamy.cli", "PyQt6"),
    "batch": ("hlavolamy.gui", "hlavolamy.cli", "PyQt6"),
}
"""Per layer, the modules it must not import. (``plugins/hookspecs.py`` names Qt types for annotations only.)"""


def imported_modules(path: Path, root: Path = PACKAGE.parent) -> list[tuple[int, str]]:
    """``(line, module)`` of every import in a file under ``root``; relative imports resolved."""
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            out += [(node.lineno, f"{module}.{alias.name}" if node.module is None else module) for alias in node.names]
    return out


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_each_layer_imports_only_downwards(layer):
    violations = [
        f"{path.relative_to(PACKAGE.parent)}:{line} imports {module}"
        for path in sorted((PACKAGE / layer).rglob("*.py"))
        for line, module in imported_modules(path)
        if any(module == bad or module.startswith(bad + ".") for bad in FORBIDDEN[layer])
    ]
    assert not violations, "\n".join(violations)


def test_the_checker_sees_relative_and_function_level_imports(tmp_path):
    module = tmp_path / "hlavolamy" / "analysis" / "x.py"
    module.parent.mkdir(parents=True)
    module.write_text("from . import orbits\n\ndef f():\n    from ..solve.simplify import simplify\n    import PyQt6.QtCore\n")
    assert imported_modules(module, tmp_path) == [
        (1, "hlavolamy.analysis.orbits"), (4, "hlavolamy.solve.simplify"), (5, "PyQt6.QtCore"),
    ]
