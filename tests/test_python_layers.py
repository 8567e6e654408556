"""The modules of ``python/tvm_ffi`` import one another one way: no circle of imports.

Every import counts, also one written inside a function: a lazy import hides a circle from the
interpreter, not from a reader. Packages' ``__init__.py`` files are not nodes: they hand the
package's names on, and ``from .. import _core`` names the module ``_core``, not the package.
Where a lower module needs a higher one's work (``TypeSchema.convert`` builds containers), the
higher module hands it in when it loads (``install_schema_converter``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from tvm_ffi.core import TypeSchema, _to_py_class_value

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "tvm_ffi"


def _modules(package: Path) -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (file, is a package's ``__init__.py``)."""
    found: dict[str, tuple[Path, bool]] = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        is_init = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_init else parts)] = (path, is_init)
    return found


def _imported(name: str, path: Path, is_init: bool, modules: dict[str, tuple[Path, bool]]) -> set[str]:
    """The modules of this package that the file imports anywhere in its text."""
    package = name if is_init else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            targets.update(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names)
        elif isinstance(node, ast.Import):
            targets.update(a.name for a in node.names)
    return {t for t in targets if t in modules and not modules[t][1] and t != name}


def import_circles(package: Path) -> list[list[str]]:
    """Groups of modules that import each other in a loop (strongly connected, more than one)."""
    modules = _modules(package)
    edges = {name: _imported(name, path, is_init, modules) for name, (path, is_init) in modules.items()}
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for target in sorted(edges[node]):
            if target not in order:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], order[target])
        if low[node] == order[node]:
            group = [stack.pop()]
            while group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                circles.append(sorted(group))

    for node in sorted(edges):
        if node not in order:
            visit(node)
    return circles


def test_package_modules_form_no_import_circle() -> None:
    assert import_circles(PACKAGE) == []


def test_a_circle_is_found(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from . import low\n")
    (pkg / "low.py").write_text("def f():\n    from .high import g\n    return g\n")
    (pkg / "high.py").write_text("from .low import f\n\ndef g():\n    return f\n")
    (pkg / "apart.py").write_text("import pkg\n")
    assert import_circles(pkg) == [["pkg.high", "pkg.low"]]


def test_type_schema_converts_through_the_installed_converter() -> None:
    schema = TypeSchema.from_annotation(list[int])
    assert list(_to_py_class_value(schema.convert((1, 2)))) == [1, 2]
    with pytest.raises(TypeError, match=r"^type check failed for List\[int\]: "):
        schema.check_value(["x"])
