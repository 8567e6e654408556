"""The floors of src/python/README.md hold: every #include points to a lower floor.

The README's table is the map of the extension (a file, its floor, what it owns, what it uses).
These tests read the real ``#include "..."`` lines and keep the map and the code in step: a new
file without a row, an include that runs up (two files that need each other), a "uses" column
that no longer matches, or a header that declares another file's functions all fail here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "src" / "python"

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
