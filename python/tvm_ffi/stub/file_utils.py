"""Source files as the stub generator sees them: runs of plain lines, marked blocks and directives.

A file is cut into :class:`CodeBlock` pieces that, joined in order, give back its lines:

* a block, from its ``begin`` marker to its ``end`` marker, both included (``kind`` is
  ``global``, ``object``, ``import-section``, ``export`` or ``__all__``);
* a one-line directive such as ``ty-map`` (``kind == "directive"``);
* one plain source line (``kind is None``).

Generators replace the lines of blocks; :meth:`FileInfo.update` writes the result back.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import sys
import typing
from collections.abc import Callable, Collection, Iterable
from pathlib import Path

from . import consts as C

__all__ = ["CodeBlock", "FileInfo", "collect_files", "path_walk", "syntax_for"]

_KINDS = typing.get_args(C.STUB_BLOCK_KINDS)
# Block kinds that stand alone, and those written ``<kind>/<argument>``.
_BARE_KINDS = ("import-section", "__all__")
_ARG_KINDS = ("global", "object", "export")
# Marker names that are not one-line directives.
_NOT_DIRECTIVES = ("begin", "end", "skip-file")


def syntax_for(path: Path) -> C.MarkerSyntax:
    """The marker syntax of a source file, by its extension (Python's when unknown).

    Parameters
    ----------
    path : Path
        The file.

    Returns
    -------
    MarkerSyntax
        ``RUST_SYNTAX`` for ``.rs`` files, ``PYTHON_SYNTAX`` otherwise.
    """
    return C.SYNTAX_BY_EXT.get(path.suffix.lower(), C.PYTHON_SYNTAX)


def _global_param(arg: str) -> tuple[str, ...]:
    """``prefix[@module]`` -> ``(prefix, module)``; the module is ``""`` when not given."""
    parts = tuple(part.strip() for part in arg.split("@"))
    return parts if len(parts) > 1 else (parts[0], "")


@dataclasses.dataclass
class CodeBlock:
    """A piece of a source file: a marked block, a one-line directive or a plain line.

    Parameters
    ----------
    kind : str or None
        ``global``, ``object``, ``import-section``, ``export``, ``__all__``, ``directive``, or
        None for a plain line.
    param : str or tuple of str
        What the marker names: ``(prefix, module)`` for ``global`` (``module`` is ``""`` when
        the block has no ``@module``), the type key for ``object``, the submodule for
        ``export``, ``(name, payload)`` for a directive, ``""`` otherwise.
    lineno_start : int
        The 1-based line of the first line.
    lineno_end : int or None
        The 1-based line of the last line (None while a block is still open).
    lines : list of str
        The lines, markers included; generators rewrite those of blocks.

    Examples
    --------
    >>> from tvm_ffi.stub import consts as C
    >>> from tvm_ffi.stub.file_utils import CodeBlock
    >>> block = CodeBlock.from_begin_line(3, f"{C.PYTHON_SYNTAX.begin} global/demo@mypkg", C.PYTHON_SYNTAX)
    >>> block.kind, block.param
    ('global', ('demo', 'mypkg'))
    """

    kind: C.STUB_BLOCK_KINDS
    param: str | tuple[str, ...]
    lineno_start: int
    lineno_end: int | None
    lines: list[str]

    def __post_init__(self) -> None:
        # The parser never makes another kind: one is a caller's bug, not bad input.
        if self.kind not in _KINDS:
            raise AssertionError(f"unknown block kind {self.kind!r}; expected one of {_KINDS}")

    @property
    def indent(self) -> int:
        """The spaces before the first line (0 for an empty block)."""
        first = self.lines[0] if self.lines else ""
        return len(first) - len(first.lstrip(" "))

    @staticmethod
    def from_begin_line(lineno: int, line: str, syntax: C.MarkerSyntax) -> CodeBlock:
        """Read a ``begin`` marker or a one-line directive (without leading spaces).

        Parameters
        ----------
        lineno : int
            The 1-based line number of ``line``.
        line : str
            The marker line, stripped.
        syntax : MarkerSyntax
            The file's marker syntax.

        Returns
        -------
        CodeBlock
            For a ``begin`` marker, an open block (``lineno_end`` None); for a directive, a
            closed one-line block of kind ``directive``. ``lines`` is empty: the caller adds them.

        Raises
        ------
        ValueError
            When the line is neither, or names an unknown block kind.
        """
        if line.startswith(syntax.begin):
            spec = line[len(syntax.begin):].strip()
            if spec in _BARE_KINDS:
                return CodeBlock(spec, "", lineno, None, [])  # type: ignore[arg-type]
            kind, slash, arg = spec.partition("/")
            if slash and kind in _ARG_KINDS:
                param = _global_param(arg) if kind == "global" else arg.strip()
                return CodeBlock(kind, param, lineno, None, [])  # type: ignore[arg-type]
            raise ValueError(f"Unknown stub type `{spec}` at line {lineno}")
        if line.startswith(syntax.prefix):
            name, closing, payload = line[len(syntax.prefix):].partition("):")
            if closing and name and name not in _NOT_DIRECTIVES:
                return CodeBlock("directive", (name, payload.strip()), lineno, lineno, [])
        raise ValueError(f"Unknown stub type at line {lineno}: {line}")


@dataclasses.dataclass
class FileInfo:
    """A parsed source file: its path, its lines as read, and its pieces.

    Parameters
    ----------
    path : Path
        The file (resolved).
    lines : tuple of str
        The lines as last read or written, without line ends.
    code_blocks : list of CodeBlock
        The pieces; joined in order they give the file's current lines.
    syntax : MarkerSyntax
        The file's marker syntax.
    """

    path: Path
    lines: tuple[str, ...]
    code_blocks: list[CodeBlock]
    syntax: C.MarkerSyntax

    def text(self) -> str:
        """The file's current text.

        Returns
        -------
        str
            The pieces' lines, each ended by a newline.
        """
        return "".join(line + "\n" for block in self.code_blocks for line in block.lines)

    def update(self, verbose: bool, dry_run: bool) -> bool:
        """Write the pieces' lines back when they differ from the lines last read or written.

        Parameters
        ----------
        verbose : bool
            Print a unified diff of the change to stdout.
        dry_run : bool
            Leave the file on disk as it is.

        Returns
        -------
        bool
            Whether the content changed.
        """
        new = tuple(line for block in self.code_blocks for line in block.lines)
        if new == self.lines:
            return False
        if verbose:
            name = str(self.path)
            sys.stdout.writelines(difflib.unified_diff(
                [line + "\n" for line in self.lines], [line + "\n" for line in new], name, name))
        if not dry_run:
            self.path.write_text(self.text(), encoding="utf-8")
        self.lines = new
        _renumber(self.code_blocks)
        return True

    @staticmethod
    def from_file(file: Path, include_empty: bool = False, syntax: C.MarkerSyntax | None = None) -> FileInfo | None:
        """Read and parse a source file.

        Parameters
        ----------
        file : Path
            The file.
        include_empty : bool, optional
            Also return a file without any marker (by default such a file gives None).
        syntax : MarkerSyntax, optional
            The marker syntax (by default chosen from the extension).

        Returns
        -------
        FileInfo or None
            The parsed file; None when it carries a ``skip-file`` marker, or no marker at all
            (unless ``include_empty``).

        Raises
        ------
        ValueError
            For a nested, unmatched, unclosed or unknown marker (the message names the line).
        """
        path = file.resolve()
        syntax = syntax or syntax_for(path)
        lines = tuple(path.read_text(encoding="utf-8").splitlines())
        if any(line.strip().startswith(syntax.skip_file) for line in lines):
            return None
        blocks = _parse(lines, syntax)
        if not include_empty and all(block.kind is None for block in blocks):
            return None
        return FileInfo(path, lines, blocks, syntax)

    def reload(self) -> None:
        """Read the file again from disk (after something else rewrote it).

        Raises
        ------
        ValueError
            When the file is gone, skipped, or no longer has a marker.
        """
        if not self.path.is_file():
            raise ValueError(f"{self.path}: the file no longer exists")
        fresh = FileInfo.from_file(self.path, syntax=self.syntax)
        if fresh is None:
            raise ValueError(f"{self.path}: the file no longer has stub markers")
        self.lines, self.code_blocks = fresh.lines, fresh.code_blocks


def _parse(lines: tuple[str, ...], syntax: C.MarkerSyntax) -> list[CodeBlock]:
    """Cut ``lines`` into pieces (see the module docstring)."""
    blocks: list[CodeBlock] = []
    block: CodeBlock | None = None
    for number, line in enumerate(lines, 1):
        marker = line.strip()
        if block is not None:
            if marker.startswith(syntax.begin):
                raise ValueError(f"Nested stub not permitted at line {number}")
            block.lines.append(line)
            if marker.startswith(syntax.end):
                block.lineno_end = number
                blocks.append(block)
                block = None
        elif marker.startswith(syntax.end):
            raise ValueError(f"Unmatched `{syntax.end}` found at line {number}")
        elif marker.startswith(syntax.prefix):
            piece = CodeBlock.from_begin_line(number, marker, syntax)
            piece.lines.append(line)
            if piece.lineno_end is None:
                block = piece
            else:
                blocks.append(piece)
        else:
            blocks.append(CodeBlock(None, "", number, number, [line]))
    if block is not None:
        raise ValueError("Unclosed stub block at end of file")
    return blocks


def _renumber(blocks: list[CodeBlock]) -> None:
    """Set each piece's line numbers from the lengths of the pieces before it."""
    number = 1
    for block in blocks:
        block.lineno_start = number
        number += len(block.lines)
        block.lineno_end = number - 1


def _report(file: Path, err: ValueError) -> None:
    print(f"{C.TERM_RED}[Error] {file}: {err}{C.TERM_RESET}")


def collect_files(paths: list[Path], source_exts: Collection[str], *,
                  on_error: Callable[[Path, ValueError], None] = _report) -> list[FileInfo]:
    """Parse the files with markers among ``paths``, sorted by path.

    A path that is a file is read whatever its extension; a directory is searched
    recursively for files whose lower-cased extension is in ``source_exts``; a path that does
    not exist is passed over. A file whose markers are malformed is handed to ``on_error``
    (by default reported on stdout) and left out.

    Parameters
    ----------
    paths : list of Path
        Files and directories.
    source_exts : Collection of str
        Extensions (with the dot) of the files searched for in directories.
    on_error : callable, optional
        Called with a malformed file and its error.

    Returns
    -------
    list of FileInfo
        The parsed files that carry markers, each once.
    """
    exts = {ext.lower() for ext in source_exts}
    found: set[Path] = set()
    for path in paths:
        if path.is_file():
            found.add(path.resolve())
        elif path.is_dir():
            for root, _, names in path_walk(path):
                found.update((root / name).resolve() for name in names if Path(name).suffix.lower() in exts)
    infos: list[FileInfo] = []
    for file in sorted(found):
        try:
            info = FileInfo.from_file(file)
        except ValueError as err:
            on_error(file, err)
            continue
        if info is not None:
            infos.append(info)
    return infos


def path_walk(p: Path, *, top_down: bool = True, on_error: Callable[[Exception], None] | None = None,
              follow_symlinks: bool = False) -> Iterable[tuple[Path, list[str], list[str]]]:
    """Walk a directory tree like :meth:`pathlib.Path.walk` (which needs Python 3.12).

    Parameters
    ----------
    p : Path
        The top directory.
    top_down : bool, optional
        Yield a directory before its subdirectories.
    on_error : callable, optional
        Called with the ``OSError`` of a directory that cannot be listed.
    follow_symlinks : bool, optional
        Descend into symbolic links to directories.

    Returns
    -------
    Iterable of (Path, list of str, list of str)
        Each directory with the names of its subdirectories and files.
    """
    for root, dirs, files in os.walk(p, topdown=top_down, onerror=on_error, followlinks=follow_symlinks):
        yield Path(root), dirs, files
