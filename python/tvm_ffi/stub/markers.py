"""Finding and rewriting ``tvm-ffi-stubgen`` marked blocks in Python sources.

A block is every line between a begin marker and the next end marker::

    # tvm-ffi-stubgen(begin): object/testing.TestIntPair
    ...generated lines, replaced on every run...
    # tvm-ffi-stubgen(end)

One-line directives sit on their own line: ``# tvm-ffi-stubgen(ty-map): A -> B`` maps a type key
to a Python class path, ``# tvm-ffi-stubgen(skip-file)`` leaves the whole file alone.
"""

from __future__ import annotations

import dataclasses

PREFIX = "# tvm-ffi-stubgen("
BEGIN = PREFIX + "begin):"
END = PREFIX + "end)"
SKIP_FILE = PREFIX + "skip-file)"
TY_MAP = PREFIX + "ty-map):"


class MarkerError(ValueError):
    """A malformed marker: unclosed or nested block, or an unknown block kind."""


@dataclasses.dataclass
class Block:
    """One marked block: ``kind``/``arg`` from ``begin): kind/arg``, line numbers 0-based."""

    kind: str
    arg: str
    indent: str
    begin: int
    end: int

    def body(self, lines: list[str]) -> list[str]:
        """The lines now between the markers."""
        return lines[self.begin + 1 : self.end]


KINDS = ("global", "object", "import-section", "__all__")


@dataclasses.dataclass
class SourceFile:
    """A source file's lines, its blocks and its directives."""

    path: str
    lines: list[str]
    blocks: list[Block]
    ty_map: dict[str, str]
    skip: bool

    @property
    def is_stub(self) -> bool:
        """True for ``.pyi`` files, where generated definitions need no ``TYPE_CHECKING`` guard."""
        return self.path.endswith(".pyi")


def parse(path: str, text: str) -> SourceFile:
    """Parses ``text`` (the content of ``path``); ``MarkerError`` names the line of a bad marker."""
    lines = text.splitlines()
    blocks: list[Block] = []
    ty_map: dict[str, str] = {}
    skip = False
    open_block: Block | None = None
    for number, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith(PREFIX):
            continue
        where = f"{path}:{number + 1}"
        if stripped.startswith(BEGIN):
            if open_block is not None:
                raise MarkerError(f"{where}: block begins inside the block opened at line {open_block.begin + 1}")
            spec = stripped[len(BEGIN) :].strip()
            kind, _, arg = spec.partition("/")
            if kind not in KINDS:
                raise MarkerError(f"{where}: unknown block kind {kind!r} (expected one of {', '.join(KINDS)})")
            if kind in ("global", "object") and not arg:
                raise MarkerError(f"{where}: block {kind!r} needs an argument: {kind}/<name>")
            indent = line[: len(line) - len(line.lstrip())]
            open_block = Block(kind, arg, indent, number, -1)
        elif stripped == END:
            if open_block is None:
                raise MarkerError(f"{where}: end marker without a begin marker")
            open_block.end = number
            blocks.append(open_block)
            open_block = None
        elif stripped == SKIP_FILE:
            skip = True
        elif stripped.startswith(TY_MAP):
            source, arrow, target = stripped[len(TY_MAP) :].partition("->")
            if not arrow or not source.strip() or not target.strip():
                raise MarkerError(f"{where}: ty-map directive must read 'ty-map): <type key> -> <module.Class>'")
            ty_map[source.strip()] = target.strip()
    if open_block is not None:
        raise MarkerError(f"{path}:{open_block.begin + 1}: block is never closed by {END!r}")
    return SourceFile(path, lines, blocks, ty_map, skip)


def replace_bodies(source: SourceFile, bodies: dict[int, list[str]]) -> str:
    """The file text with the body of block ``i`` replaced by ``bodies[i]`` (others unchanged)."""
    lines = list(source.lines)
    for i in sorted(bodies, key=lambda i: source.blocks[i].begin, reverse=True):
        block = source.blocks[i]
        lines[block.begin + 1 : block.end] = bodies[i]
    return "\n".join(lines) + "\n"
