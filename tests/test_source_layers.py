"""Source files depend on each other one way: no two files need each other.

src/python/README.md's table is the map of the extension (a file, its floor, what it owns, what
it uses). These tests read the real ``#include "..."`` lines and keep the map and the code in
step: a new file without a row, an include that runs up (two files that need each other), a
"uses" column that no longer matches, or a header that declares another file's functions all
fail here. For src/runtime, whose files share the umbrella internal.h, the core files include
only their concepts' ``*_internal.h`` headers, and the includes of the whole folder form no circle.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "src" / "python"
RUNTIME = ROOT / "src" / "runtime"
# The runtime's bottom floors, each with a header `<name>_internal.h` of its own.
RUNTIME_CORE = ("object", "error", "object_api", "str_map", "string", "type_registry", "builtin_args", "function")

ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*(\w+\.[ch])\s*\|[^|]*\|([^|]*)\|$")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)
# A declaration of a function or variable at the start of a line of a header.
DECLARED = re.compile(
    r"^(?!static\b|typedef\b|#|\s|/|\*|}|extern \"C\")"
    r"(?:extern\s+)?[A-Za-z_][\w\s\*]*?\b(\w+)\s*(?:\(|;)",
    re.MULTILINE,
)
# The common start, included by every file: it stands on the ground floor and uses nothing.
COMMON = "base"


def read_floors(readme: Path) -> dict[str, tuple[int, set[str]]]:
    """Concept (file stem) -> (floor, the concepts its "uses" column names)."""
    floors: dict[str, tuple[int, set[str]]] = {}
    for line in readme.read_text().splitlines():
        match = ROW.match(line.strip())
        if match is None:
            continue
        floor, name, uses = match.groups()
        names = {u.strip() for u in uses.split(",") if u.strip()}
        floors[Path(name).stem] = (int(floor), names)
    return floors


def local_includes(path: Path) -> set[str]:
    """Stems of the headers of this folder that `path` includes (base.h and its own left out)."""
    stems = set()
    for target in INCLUDE.findall(path.read_text()):
        header = (path.parent / target).resolve()
        if header.parent == path.parent.resolve() and header.exists():
            stems.add(header.stem)
    return stems - {COMMON, path.stem}


FLOORS = read_floors(EXTENSION / "README.md")
CONCEPTS = sorted({p.stem for p in EXTENSION.glob("*.[ch]")})


def test_every_file_has_a_row() -> None:
    assert sorted(FLOORS) == CONCEPTS


@pytest.mark.parametrize("concept", CONCEPTS)
def test_includes_run_down_and_match_the_row(concept: str) -> None:
    floor, declared_uses = FLOORS[concept]
    used: set[str] = set()
    for path in EXTENSION.glob(f"{concept}.[ch]"):
        used |= local_includes(path)
    upward = sorted(u for u in used if FLOORS[u][0] >= floor)
    assert not upward, f"{concept} (floor {floor}) includes a file on its floor or above: {upward}"
    if concept != "extension":  # the init file's row says "every file's header"
        assert used == declared_uses


@pytest.mark.parametrize(
    "header", sorted(p.name for p in EXTENSION.glob("*.h") if (EXTENSION / f"{Path(p).stem}.c").exists())
)
def test_header_declares_only_its_own_file(header: str) -> None:
    source = (EXTENSION / header).with_suffix(".c").read_text()
    for name in DECLARED.findall((EXTENSION / header).read_text()):
        defined = re.search(rf"^[A-Za-z_][^;\n]*\b{name}\b(?:\s*\(|\s*=|\s*;|\s*\[)", source, re.MULTILINE)
        assert defined is not None, f"{header} declares `{name}`, which {Path(header).stem}.c does not define"


def runtime_room(path: Path) -> str:
    """A runtime file's room: its path without suffix, `x_internal.h` belonging to `x.c`."""
    stem = path.relative_to(RUNTIME).with_suffix("").as_posix()
    return stem.removesuffix("_internal")


def runtime_include_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in RUNTIME.rglob("*.[ch]"):
        targets = graph.setdefault(runtime_room(path), set())
        for target in INCLUDE.findall(path.read_text()):
            header = (path.parent / target).resolve()
            if header.is_relative_to(RUNTIME.resolve()) and header.exists():
                targets.add(runtime_room(header))
        targets.discard(runtime_room(path))
    return graph


def find_circle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of the graph as a path that returns to its start, or [] when there is none."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_find_circle_reports_a_loop() -> None:
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b"}, "b": set()}) == []


def test_runtime_includes_form_no_circle() -> None:
    assert find_circle(runtime_include_graph()) == []


@pytest.mark.parametrize("concept", RUNTIME_CORE)
def test_runtime_core_header_declares_only_its_own_file(concept: str) -> None:
    source = (RUNTIME / f"{concept}.c").read_text()
    for name in DECLARED.findall((RUNTIME / f"{concept}_internal.h").read_text()):
        defined = re.search(rf"^[A-Za-z_][^;\n]*\b{name}\b\s*\(", source, re.MULTILINE)
        assert defined is not None, f"{concept}_internal.h declares `{name}`, which {concept}.c does not define"
