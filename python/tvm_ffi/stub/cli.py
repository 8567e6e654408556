"""``tvm-ffi-stubgen``: fills ``tvm-ffi-stubgen`` blocks of Python files from a library's metadata.

Loads the given libraries and modules, reads the registered global functions (their
``type_schema`` metadata) and reflected object types (fields, methods, constructors), and
rewrites every marked block of the given files in place; ``--check`` only reports stale files.
With ``--init-pypkg/--init-lib/--init-prefix`` it first scaffolds ``_ffi_api.py`` and
``__init__.py`` for each prefix of the library; ``--coverage-out`` writes a report of which
object types' native layout the reflection fully describes. Blocks, directives and generated
text follow the reference tool, so files either tool generated are kept up to date by the other.
"""

from __future__ import annotations

import argparse
import ctypes
import difflib
import importlib
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from . import _markers
from ._annotate import OUTPUT_NAMES
from ._generate import StubgenError, regenerate
from ._init_pkg import InitConfig, plan, scaffold
from ._model import FuncInfo, collect_global_funcs, collect_type_keys, object_info
from ._prefix import owners, roll_out
from .layout import classify, write_coverage_report

__all__ = ["StubgenError", "__main__", "main", "module_name_of"]

_SOURCE_EXTS = (".py", ".pyi")
TARGETS = ("python",)


def _split(arg: str) -> list[str]:
    return [item.strip() for item in arg.split(";") if item.strip()]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tvm-ffi-stubgen",
        description=(
            "Generate type stubs for TVM FFI libraries. Normal mode rewrites the lines between "
            "'# tvm-ffi-stubgen(begin): <kind>/<arg>' and '# tvm-ffi-stubgen(end)' markers of the "
            "given files from the registered global functions and reflected object types (block "
            "kinds: global/<prefix>[@<module with init_ffi_api>], object/<type key>, import-section, "
            "export/<submodule>, __all__). With --init-* it first writes missing _ffi_api.py and "
            "__init__.py files for every prefix of the loaded libraries."
        ),
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("files", nargs="*", metavar="PATH",
                        help="files or directories (searched recursively for .py and .pyi files)")
    parser.add_argument("--imports", default="", metavar="IMPORTS",
                        help="Python modules to import first, separated by ';' (e.g. 'pkg;pkg.sub')")
    parser.add_argument("--dlls", default="", metavar="LIBS",
                        help="shared libraries to load first (their globals and types), separated by ';'")
    parser.add_argument("--init-pypkg", default="", metavar="INIT_PYPKG",
                        help="distribution name the generated loader searches (e.g. my-ext); "
                             "needs --init-lib and --init-prefix")
    parser.add_argument("--init-lib", default="", metavar="INIT_LIB",
                        help="CMake target of the shared library (lib<INIT_LIB>.so); "
                             "needs --init-pypkg and --init-prefix")
    parser.add_argument("--init-prefix", default="", metavar="INIT_PREFIX",
                        help="only functions and types under this prefix get files (e.g. my_ext.); "
                             "needs --init-pypkg and --init-lib")
    parser.add_argument("--indent", type=int, default=4,
                        help="spaces per nesting level inside a generated block")
    parser.add_argument("--target", default="python", choices=TARGETS, help="language of the generated code")
    parser.add_argument("--verbose", action="store_true", help="print a unified diff of each change")
    parser.add_argument("--dry-run", action="store_true", help="do not write any file")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit with status 1 when a file's blocks are out of date "
                             "(cannot be combined with --init-*)")
    parser.add_argument("--coverage-out", default=None, metavar="JSON",
                        help="write a JSON report classifying every registered object type as 'complete' "
                             "(its reflected fields describe its native layout) or 'opaque'; works "
                             "without PATH")
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
    """Name the module a source file is, walking up through package ``__init__.py`` files.

    Parameters
    ----------
    path : str
        A ``.py`` or ``.pyi`` file.

    Returns
    -------
    str
        The dotted module name (``pkg.sub`` for ``pkg/sub/__init__.py``).

    Examples
    --------
    >>> import os, tvm_ffi
    >>> from tvm_ffi.stub.cli import module_name_of
    >>> module_name_of(os.path.join(os.path.dirname(tvm_ffi.__file__), "stub", "cli.py"))
    'tvm_ffi.stub.cli'
    """
    path = os.path.abspath(path)
    directory, file_name = os.path.split(path)
    parts = [os.path.splitext(file_name)[0]]
    if parts[0] == "__init__":
        parts = []
    while os.path.isfile(os.path.join(directory, "__init__.py")):
        directory, package = os.path.split(directory)
        parts.insert(0, package)
    return ".".join(parts)


def _read(path: str | Path) -> _markers.SourceFile:
    with open(path, encoding="utf-8") as f:
        return _markers.parse(str(path), f.read())


def _read_if_exists(path: Path) -> _markers.SourceFile | None:
    return _read(path) if path.exists() else None


def _load(args: argparse.Namespace) -> None:
    for lib in _split(args.dlls):
        try:
            ctypes.CDLL(lib, mode=ctypes.RTLD_GLOBAL)
        except OSError as err:
            raise StubgenError(f"cannot load --dlls library {lib}: {err}") from err
    import tvm_ffi  # noqa: F401  (the runtime is loaded before the registry is read)

    for name in _split(args.imports):
        importlib.import_module(name)


def _initialize(args: argparse.Namespace, sources: list[_markers.SourceFile], ty_map: dict[str, str],
                funcs: dict[str, list[FuncInfo]]) -> list[_markers.SourceFile]:
    """Scaffold the ``--init-*`` files; returns the sources with the new and grown files read anew."""
    cfg = InitConfig(args.init_pypkg, args.init_lib, args.init_prefix)
    root = Path(args.files[0]).resolve()
    root = root.parent if root.is_file() else root
    written: list[Path] = []
    for prefix, objects in plan(cfg, funcs, sources):
        written += scaffold(root, prefix, objects, cfg, ty_map, _read_if_exists)
    fresh = {str(p.resolve()) for p in written}
    kept = [s for s in sources if str(Path(s.path).resolve()) not in fresh]
    return kept + [_read(p) for p in written]


def run(args: argparse.Namespace) -> int:
    """Process the files of ``args``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    int
        The exit status: 0 done, 1 ``--check`` found stale files, 2 a file failed.
    """
    _load(args)
    if args.init_pypkg and not os.path.exists(args.files[0]):
        os.makedirs(args.files[0])  # the package tree's root, written by --init
    # Files without a marker are not ours to touch.
    sources = [s for s in (_read(p) for p in _source_files(args.files))
               if not s.skip and any(seg.kind is not None for seg in s.segments)]
    ty_map = dict(OUTPUT_NAMES)
    for source in sources:
        ty_map.update(_markers.ty_map_of(source))
    funcs = collect_global_funcs()
    if args.init_pypkg:
        sources = _initialize(args, sources, ty_map, funcs)
    owners(sources)
    declared = {seg.arg for source in sources for seg in source.blocks("object")}
    failed = stale = 0
    for source in sources:
        old = source.text() if source.original else ""
        try:
            roll_out(source, declared)
            regenerate(source, funcs, ty_map, args.indent)
        except StubgenError as err:
            print(f"tvm-ffi-stubgen: error: {err}", file=sys.stderr)
            failed += 1
        new = source.text()
        if new == old:
            continue
        if args.verbose or args.check:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True), source.path, source.path))
        stale += 1
        if args.check:
            print(f"out of date: {source.path}", file=sys.stderr)
        elif not args.dry_run:
            with open(source.path, "w", encoding="utf-8") as f:
                f.write(new)
    if args.coverage_out is not None:
        infos = {key: object_info(key) for keys in collect_type_keys().values() for key in keys}
        write_coverage_report(Path(args.coverage_out), classify(infos))
    return 2 if failed else 1 if args.check and stale else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``tvm-ffi-stubgen`` command.

    Parameters
    ----------
    argv : sequence of str, optional
        The command-line arguments (default: ``sys.argv[1:]``); ``--help`` lists them.

    Returns
    -------
    int
        0 on success, 1 when ``--check`` finds stale blocks, 2 on bad markers, unregistered
        types or missing paths (the error is printed to stderr).

    Raises
    ------
    SystemExit
        For bad arguments (status 2) or when no PATH is given (status 1, after the help).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from tvm_ffi.stub import main
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "api.py"
    >>> _ = path.write_text("# tvm-ffi-stubgen(begin): global/testing\\n# tvm-ffi-stubgen(end)\\n")
    >>> main([str(path)])
    0
    >>> print(path.read_text().splitlines()[5])
        def add_one(_0: int, /) -> int: ...
    >>> main(["--check", str(path)])
    0
    """
    parser = _parser()
    args = parser.parse_args(argv)
    init_flags = [args.init_pypkg, args.init_lib, args.init_prefix]
    if any(init_flags) and not all(init_flags):
        parser.error("--init-pypkg, --init-lib and --init-prefix must be given together")
    if args.check and any(init_flags):
        parser.error("--check cannot be combined with --init-* flags")
    if any(init_flags) and not args.files:
        parser.error("--init-* needs a PATH: the directory the package tree is written to")
    if not args.files and args.coverage_out is None:
        parser.print_help()
        sys.exit(1)  # as an argument error: SystemExit from main() too, as in the reference
    try:
        return run(args)
    except (StubgenError, _markers.MarkerError, OSError) as err:
        print(f"tvm-ffi-stubgen: error: {err}", file=sys.stderr)
        return 2


def __main__() -> int:
    """Run ``tvm-ffi-stubgen`` on ``sys.argv``: the console-script entry point.

    Returns
    -------
    int
        The exit status, as :func:`main` returns it.
    """
    return main()


if __name__ == "__main__":
    sys.exit(main())
