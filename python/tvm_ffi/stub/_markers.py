"""Reading a Python source as plain lines, ``tvm-ffi-stubgen`` blocks and one-line directives.

A block is every line between a begin marker and the next end marker, markers included::

    # tvm-ffi-stubgen(begin): object/testing.TestIntPair
    ...generated lines, replaced on every run...
    # tvm-ffi-stubgen(end)

Block kinds: ``global/<prefix>[@<module with init_ffi_api>]``, ``object/<type key>``,
``import-section``, ``export/<submodule>`` and ``__all__``. A one-line directive reads
``# tvm-ffi-stubgen(<name>): <payload>``: ``ty-map`` (``<type key> -> <module.Class>``),
``import-object`` (``<module.name>;<type-checking only>;<alias>``), ``skip`` (a type key the
``prefix`` roll-out leaves out) and ``prefix``. ``# tvm-ffi-stubgen(skip-file)`` leaves the file
alone. The grammar is the reference tool's, so either tool can update the other's files.
"""

from __future__ import annotations

import dataclasses

PREFIX = "# tvm-ffi-stubgen("
BEGIN = PREFIX + "begin):"
END = PREFIX + "end)"
SKIP_FILE = PREFIX + "skip-file)"
BLOCK_KINDS = ("global", "object", "import-section", "export", "__all__")
DIRECTIVES = ("ty-map", "import-object", "skip", "prefix")
# Kinds that need ``<kind>/<argument>``; the others stand alone.
_WITH_ARGUMENT = ("global", "object", "export")


class MarkerError(ValueError):
    """A malformed marker: unclosed or nested block, or an unknown block kind or directive."""


@dataclasses.dataclass
class Segment:
    """A run of lines: a block (``kind`` set), a directive (``kind == "directive"``) or plain text.

    For a block ``lines`` includes both markers; ``arg`` is what follows ``<kind>/``. For a
    directive ``arg`` is the directive's name and ``payload`` the text after its colon.
    """

    kind: str | None
    arg: str
    lines: list[str]
    lineno: int
    payload: str = ""

    @property
    def indent(self) -> int:
        """Spaces before the first line (the begin marker of a block)."""
        first = self.lines[0] if self.lines else ""
        return len(first) - len(first.lstrip(" "))

    def replace_body(self, body: list[str]) -> None:
        """Keeps the two markers and puts ``body`` between them."""
        self.lines = [self.lines[0], *body, self.lines[-1]]


@dataclasses.dataclass
class SourceFile:
    """A source file split into segments that, joined, give back its text."""

    path: str
    original: list[str]
    segments: list[Segment]
    skip: bool = False

    def blocks(self, kind: str) -> list[Segment]:
        """The blocks of ``kind``, in file order."""
        return [s for s in self.segments if s.kind == kind]

    def directives(self, name: str) -> list[Segment]:
        """The one-line directives called ``name``, in file order."""
        return [s for s in self.segments if s.kind == "directive" and s.arg == name]

    def text(self) -> str:
        """The file's current text."""
        return "\n".join(line for s in self.segments for line in s.lines) + "\n"


def _begin(path: str, number: int, line: str) -> Segment:
    spec = line.strip()[len(BEGIN):].strip()
    kind, slash, arg = spec.partition("/")
    where = f"{path}:{number}"
    if kind not in BLOCK_KINDS:
        raise MarkerError(f"{where}: unknown block kind {kind!r} (expected one of {', '.join(BLOCK_KINDS)})")
    if kind in _WITH_ARGUMENT and not arg.strip():
        raise MarkerError(f"{where}: block {kind!r} needs an argument: {kind}/<name>")
    if kind not in _WITH_ARGUMENT and slash:
        raise MarkerError(f"{where}: block {kind!r} takes no argument")
    return Segment(kind, arg.strip(), [line], number)


def _directive(path: str, number: int, line: str) -> Segment:
    name, colon, payload = line.strip()[len(PREFIX):].partition("):")
    where = f"{path}:{number}"
    if not colon or name not in DIRECTIVES:
        raise MarkerError(f"{where}: unknown directive {line.strip()!r} (expected begin, end, skip-file "
                          f"or one of {', '.join(DIRECTIVES)})")
    if name == "ty-map":
        source, arrow, target = payload.partition("->")
        if not arrow or not source.strip() or not target.strip():
            raise MarkerError(f"{where}: ty-map directive must read 'ty-map): <type key> -> <module.Class>'")
    return Segment("directive", name, [line], number, payload.strip())


def parse(path: str, text: str) -> SourceFile:
    """Split ``text`` (the content of ``path``) into segments.

    Parameters
    ----------
    path : str
        The file name, used in error messages.
    text : str
        The file content.

    Returns
    -------
    SourceFile
        The segments; ``skip`` is set when the file carries a ``skip-file`` directive.

    Raises
    ------
    MarkerError
        For a malformed marker; the message starts with ``path:line``.
    """
    lines = text.splitlines()
    segments: list[Segment] = []
    block: Segment | None = None
    skip = False
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith(BEGIN):
            if block is not None:
                raise MarkerError(f"{path}:{number}: block begins inside the block opened at line {block.lineno}")
            block = _begin(path, number, line)
        elif stripped.startswith(END):
            if block is None:
                raise MarkerError(f"{path}:{number}: end marker without a begin marker")
            block.lines.append(line)
            segments.append(block)
            block = None
        elif block is not None:
            block.lines.append(line)
        elif stripped.startswith(SKIP_FILE):
            skip = True
            segments.append(Segment(None, "", [line], number))
        elif stripped.startswith(PREFIX):
            segments.append(_directive(path, number, line))
        else:
            segments.append(Segment(None, "", [line], number))
    if block is not None:
        raise MarkerError(f"{path}:{block.lineno}: block is never closed by {END!r}")
    return SourceFile(path, lines, segments, skip)


def ty_map_of(source: SourceFile) -> dict[str, str]:
    """The ``ty-map`` directives of ``source``: type key -> ``module.Class``."""
    found: dict[str, str] = {}
    for seg in source.directives("ty-map"):
        key, _, target = seg.payload.partition("->")
        found[key.strip()] = target.strip()
    return found
