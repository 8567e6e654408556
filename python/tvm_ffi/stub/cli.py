"""``tvm-ffi-stubgen``: fills ``tvm-ffi-stubgen`` blocks of Python files from a library's metadata.

Loads the given libraries and modules, reads the registered global functions (their
``type_schema`` metadata) and reflected object types (fields, methods, constructors), and
rewrites every marked block of the given files in place; ``--check`` only reports stale files.
"""

from __future__ import annotations

import argparse
import ctypes
import difflib
import importlib
import os
import re
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from . import markers, render
from .annotate import Annotator, class_path

_SOURCE_EXTS = (".py", ".pyi")
_CLASS_LINE = re.compile(r"^\s*class\s+(\w+)")


class StubgenError(Exception):
    """A file or the registry cannot be turned into stubs (the message says where and why)."""


def _split(arg: str) -> list[str]:
    return [item.strip() for item in arg.split(";") if item.strip()]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tvm-ffi-stubgen",
        description=(
            "Generate type stubs for TVM FFI libraries: rewrites the lines between "
            "'# tvm-ffi-stubgen(begin): <kind>/<arg>' and '# tvm-ffi-stubgen(end)' markers of the "
            "given files from the registered global functions and reflected object types. "
            "Block kinds: global/<prefix>[@<module with init_ffi_api>], object/<type key>, "
            "import-section, __all__."
        ),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("files", nargs="*", metavar="PATH",
                        help="files or directories (searched recursively for .py and .pyi files)")
    parser.add_argument("--imports", default="", metavar="IMPORTS",
                        help="Python modules to import first, separated by ';' (e.g. 'pkg;pkg.sub')")
    parser.add_argument("--dlls", default="", metavar="LIBS",
                        help="shared libraries to load first (their globals and types), separated by ';'")
    parser.add_argument("--indent", type=int, default=4,
                        help="spaces per nesting level inside a generated block")
    parser.add_argument("--verbose", action="store_true", help="print a unified diff of each change")
    parser.add_argument("--dry-run", action="store_true", help="do not write any file")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit with status 1 when a file's blocks are out of date")
    return parser


def _source_files(paths: Sequence[str]) -> Iterator[str]:
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if name.endswith(_SOURCE_EXTS):
                        yield os.path.join(root, name)
        elif os.path.isfile(path):
            yield path
        else:
            raise StubgenError(f"{path}: no such file or directory")


def module_name_of(path: str) -> str:
    """Dotted module name of a source file, walking up through package ``__init__.py`` files."""
    path = os.path.abspath(path)
    directory, file_name = os.path.split(path)
    parts = [os.path.splitext(file_name)[0]]
    if parts[0] == "__init__":
        parts = []
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        directory, package = os.path.split(directory)
        parts.insert(0, package)
    return ".".join(parts)


class Registry:
    """Snapshot of the global functions and object types the stubs are made from."""

    def __init__(self) -> None:
        from .. import _core
        from ..registry import get_global_func_metadata, get_registered_type_keys, list_global_func_names

        self.functions: dict[str, dict[str, Any]] = {
            name: get_global_func_metadata(name) for name in list_global_func_names()
        }
        self.known: dict[str, str] = {}
        for key in get_registered_type_keys():
            index = _core._object_type_key_to_index(key)
            if index is None:
                continue
            path = class_path(_core._class_for_type_index(index))
            if path is not None:
                self.known[key] = path

    def type_info(self, type_key: str) -> tuple[Any, bool]:
        """The ``TypeInfo`` of ``type_key`` and whether it has a runtime-made keyword ``__init__``."""
        from .. import _core

        try:
            info = _core._lookup_or_register_type_info_from_type_key(type_key)
        except ValueError:
            raise StubgenError(f"object type {type_key!r} is not registered (load its library "
                               "with --dlls or --imports, or delete the block)") from None
        own_init = any(m.name == "__ffi_init__" for m in info.methods)
        auto_init = not own_init and _core._lookup_type_attr(info.type_index, "__ffi_init__") is not None
        return info, auto_init


def generate(source: markers.SourceFile, registry: Registry, known: dict[str, str], unit: str) -> str:
    """The new text of ``source`` with every block regenerated."""
    annot = Annotator(known)
    local = {m.group(1) for m in map(_CLASS_LINE.match, source.lines) if m}
    bodies: dict[int, list[str]] = {}
    names: list[str] = []
    init_module: str | None = None
    for i, block in enumerate(source.blocks):
        if block.kind == "global":
            prefix, _, module = block.arg.partition("@")
            init_module = init_module or module or "tvm_ffi"
            bodies[i], defined = render.global_block(
                prefix, registry.functions, annot, block.indent, unit, source.is_stub
            )
            names += defined
        elif block.kind == "object":
            info, auto_init = registry.type_info(block.arg)
            bodies[i] = render.object_block(info, auto_init, annot, block.indent, unit, source.is_stub)
            names.append(block.arg.rpartition(".")[2])
    for i, block in enumerate(source.blocks):
        if block.kind == "import-section":
            bodies[i] = render.import_block(annot.imports, init_module, local, block.indent, unit, source.is_stub)
        elif block.kind == "__all__":
            bodies[i] = render.all_block(names, block.indent, unit)
    return markers.replace_bodies(source, bodies)


def _known_classes(sources: list[markers.SourceFile], registry: Registry) -> dict[str, str]:
    """Type key -> ``module.Class``: registered classes, then classes of the files' object blocks,
    then ``ty-map`` directives (each overriding the former)."""
    known = dict(registry.known)
    for source in sources:
        module = module_name_of(source.path)
        for block in source.blocks:
            if block.kind != "object":
                continue
            owner = next((m.group(1) for line in reversed(source.lines[: block.begin])
                          if (m := _CLASS_LINE.match(line))), None)
            if owner is not None:
                known[block.arg] = f"{module}.{owner}"
    for source in sources:
        known.update(source.ty_map)
    return known


def run(args: argparse.Namespace) -> int:
    """Processes the files of ``args``; the process exit status."""
    for lib in _split(args.dlls):
        ctypes.CDLL(lib, mode=ctypes.RTLD_GLOBAL)
    import tvm_ffi  # noqa: F401  (the runtime is loaded before the registry is read)

    for name in _split(args.imports):
        importlib.import_module(name)
    sources = []
    for path in _source_files(args.files):
        with open(path, encoding="utf-8") as f:
            source = markers.parse(path, f.read())
        if source.blocks and not source.skip:
            sources.append(source)
    registry = Registry()
    known = _known_classes(sources, registry)
    stale: list[str] = []
    for source in sources:
        old = "\n".join(source.lines) + "\n"
        new = generate(source, registry, known, " " * args.indent)
        if new == old:
            continue
        stale.append(source.path)
        if args.verbose or args.check:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True), source.path, source.path))
        if not (args.check or args.dry_run):
            with open(source.path, "w", encoding="utf-8") as f:
                f.write(new)
    verb = "out of date" if args.check else ("would change" if args.dry_run else "updated")
    for path in stale:
        print(f"{verb}: {path}", file=sys.stderr)
    return 1 if args.check and stale else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tvm-ffi-stubgen`` console script.

    Parameters
    ----------
    argv : sequence of str, optional
        The command-line arguments (default: ``sys.argv[1:]``); ``--help`` lists them.

    Returns
    -------
    int
        0 on success, 1 when ``--check`` finds stale blocks, 2 on bad markers, unregistered
        types or missing paths (the error is printed to stderr).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from tvm_ffi.stub import main
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "api.pyi"
    >>> _ = path.write_text("# tvm-ffi-stubgen(begin): global/testing\\n# tvm-ffi-stubgen(end)\\n")
    >>> main([str(path)])
    0
    >>> print(path.read_text().splitlines()[2])
    def add_one(_0: int, /) -> int: ...
    >>> main(["--check", str(path)])
    0
    """
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.files:
        parser.print_help()
        return 2
    try:
        return run(args)
    except (StubgenError, markers.MarkerError, OSError) as err:
        print(f"tvm-ffi-stubgen: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
