"""``tvm-ffi-stubgen``: fills the ``tvm-ffi-stubgen`` blocks of source files from a library's metadata.

Loads the given libraries and modules, reads the registered global functions (their
``type_schema`` metadata) and reflected object types (fields, methods, constructors), and
rewrites every marked block of the given files in place; ``--check`` only reports stale files.
With ``--init-pypkg/--init-lib/--init-prefix`` it first scaffolds an API file and a package
entry for each prefix of the library; ``--coverage-out`` writes a report of which object
types' native layout the reflection fully describes. ``--target`` picks the language.

The run goes in stages: (1) collect the ``ty-map`` directives of every file, (2) scaffold the
``--init`` packages, then add the ``object/`` blocks ``prefix`` directives ask for, (3) fill
each file's blocks and write it back, (4) let the generator wire the scaffolded tree together.
"""

from __future__ import annotations

import argparse
import ctypes
import importlib
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from .._core import _object_type_key_to_index
from . import consts as C
from .file_utils import CodeBlock, FileInfo, collect_files
from .generator import Generator, generator_names, get_generator
from .layout import classify, write_coverage_report
from .lib_state import collect_global_funcs, collect_type_keys, object_info_from_type_key, toposort_objects
from .utils import DirectiveError, FuncInfo, InitConfig, Options

__all__ = ["StubgenError", "__main__", "main", "module_name_of"]


class StubgenError(ValueError):
    """A file, a path or the registry cannot be turned into stubs (the message says where and why)."""


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
                        help="files or directories (searched recursively for the target's source files)")
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
    parser.add_argument("--target", default="python", choices=generator_names(),
                        help="language of the generated code")
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


def _parse_args(argv: Sequence[str] | None = None) -> Options:
    """Parse and check the command line; print the help and exit when there is nothing to do."""
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
    return Options(
        imports=_split(args.imports), dlls=_split(args.dlls),
        init=InitConfig(args.init_pypkg, args.init_lib, args.init_prefix) if all(init_flags) else None,
        indent=args.indent, files=list(args.files), verbose=args.verbose, dry_run=args.dry_run,
        check=args.check, target=args.target, coverage_out=args.coverage_out,
    )


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


def _error(message: str) -> None:
    print(f"tvm-ffi-stubgen: error: {message}", file=sys.stderr)


def _load(opt: Options) -> list[ctypes.CDLL]:
    """Load ``--dlls`` (globally, so their symbols resolve) and import ``--imports``."""
    dlls = []
    for lib in opt.dlls:
        try:
            dlls.append(ctypes.CDLL(lib, mode=ctypes.RTLD_GLOBAL))
        except OSError as err:
            raise StubgenError(f"cannot load --dlls library {lib}: {err}") from err
    for name in opt.imports:
        importlib.import_module(name)
    return dlls


def _collect(paths: list[str], source_exts: frozenset[str]) -> tuple[list[FileInfo], int]:
    """The files with markers among ``paths``, and how many could not be parsed (reported)."""
    for name in paths:
        if not os.path.exists(name):
            raise StubgenError(f"{name}: no such file or directory")
    failures: list[Path] = []

    def report(file: Path, err: ValueError) -> None:
        _error(f"{file}: {err}")
        failures.append(file)

    files = collect_files([Path(name) for name in paths], source_exts, on_error=report)
    return files, len(failures)


def _directives(file: FileInfo, name: str) -> list[CodeBlock]:
    """The file's one-line directives called ``name``."""
    return [b for b in file.code_blocks if b.kind == "directive" and b.param[0] == name]


def _stage_1(file: FileInfo, ty_map: dict[str, str]) -> None:
    """Add the file's ``ty-map`` directives (``<type key> -> <target name>``) to ``ty_map``.

    Raises ``DirectiveError`` for a directive without the arrow.
    """
    for block in _directives(file, "ty-map"):
        source, arrow, target = block.param[1].partition("->")
        if not arrow or not source.strip() or not target.strip():
            raise DirectiveError(f"ty-map directive at line {block.lineno_start} must read "
                                 "'ty-map): <type key> -> <module.Class>'")
        ty_map[source.strip()] = target.strip()


def _new_blocks(syntax: C.MarkerSyntax, lineno: int, stub: str) -> list[CodeBlock]:
    """A blank line and an empty ``stub`` block (``object/<key>``, ``import-section``), to insert."""
    begin = f"{syntax.begin} {stub}"
    block = CodeBlock.from_begin_line(lineno, begin, syntax)
    block.lines, block.lineno_end = [begin, syntax.end], lineno
    return [CodeBlock(None, "", lineno, lineno, [""]), block]


def _remove_unregistered_blocks(file: FileInfo, prefix: str, registered: list[str]) -> None:
    """Drop the file's ``object/`` blocks of types under ``prefix`` that are no longer registered."""
    kept: list[CodeBlock] = []
    for block in file.code_blocks:
        if block.kind == "object" and isinstance(block.param, str) \
                and block.param.rpartition(".")[0] == prefix and block.param not in registered:
            if kept and kept[-1].kind is None and kept[-1].lines == [""]:
                kept.pop()  # the blank line inserted before it
            continue
        kept.append(block)
    file.code_blocks[:] = kept


def _roll_out_prefixes(files: list[FileInfo], generator: Generator) -> int:
    """Give each ``prefix`` file an ``object/`` block per registered type of its prefix.

    A type that a block of the run declares, that a ``skip`` directive names or that the
    target binds itself gets none; blocks of types no longer registered are dropped. Returns
    the number of files that failed (two ``prefix`` directives, or a prefix another file claims).
    """
    declared = set(_declared_objects(files))
    owners: dict[str, Path] = {}
    failed = 0
    for file in files:
        heads = _directives(file, "prefix")
        if not heads:
            continue
        prefix = heads[0].param[1].rstrip(".")
        if len(heads) > 1:
            _error(f"{file.path}: more than one prefix directive (line {heads[1].lineno_start})")
            failed += 1
            continue
        if owners.setdefault(prefix, file.path) != file.path:
            _error(f"{file.path}: prefix {prefix!r} is already declared by {owners[prefix]}")
            failed += 1
            continue
        registered = collect_type_keys().get(prefix, [])
        _remove_unregistered_blocks(file, prefix, registered)
        skipped = {block.param[1].strip() for block in _directives(file, "skip")}
        keys = [k for k in registered if k not in declared and k not in skipped and not generator.is_builtin(k)]
        if not keys:
            continue
        blocks, head = file.code_blocks, heads[0]
        if not any(block.kind == "import-section" for block in blocks):
            at = blocks.index(head) + 1
            blocks[at:at] = _new_blocks(file.syntax, head.lineno_start, "import-section")
        at = max(i for i, b in enumerate(blocks) if b.kind in ("object", "import-section")) + 1
        blocks[at:at] = [new for info in toposort_objects(keys)
                         for new in _new_blocks(file.syntax, head.lineno_start, f"object/{info.type_key}")]
        declared.update(keys)
    return failed


def _read(path: Path, include_empty: bool) -> FileInfo | None:
    try:
        return FileInfo.from_file(path, include_empty=include_empty)
    except ValueError as err:
        raise StubgenError(f"{path}: {err}") from err


def _append(path: Path, text: str) -> None:
    if text:
        with path.open("a", encoding="utf-8") as f:
            f.write(text)


def _stage_2(files: list[FileInfo], ty_map: dict[str, str], init_cfg: InitConfig, init_path: Path,
             global_funcs: dict[str, list[FuncInfo]], generator: Generator) -> set[str]:
    """Scaffold an API file and a package entry for each prefix under ``init_cfg.prefix``.

    A prefix gets them when it has functions no ``global/`` block of the run declares, or
    types no ``object/`` block declares (nor a ``skip`` directive names). The files go to
    ``init_path/<prefix as path>``; existing ones are appended to. ``files`` is updated with
    the written files, read anew. Returns the prefixes that got files.
    """
    declared_prefixes = {b.param[0] for f in files for b in f.code_blocks if b.kind == "global"}
    declared_types = {b.param for f in files for b in f.code_blocks if b.kind == "object"}
    skipped = {b.param[1].strip() for f in files for b in _directives(f, "skip")}
    wanted = init_cfg.prefix.strip()
    if wanted and not wanted.endswith("."):
        wanted += "."
    root = wanted.rstrip(".")
    prefixes = {prefix: list(keys) for prefix, keys in collect_type_keys().items()}
    for prefix in global_funcs:
        prefixes.setdefault(prefix, [])
    generated: set[str] = set()
    for prefix, keys in sorted(prefixes.items()):
        if prefix != root and not prefix.startswith(wanted):
            continue
        new_funcs = [] if prefix in declared_prefixes else global_funcs.get(prefix, [])
        new_keys = sorted(k for k in set(keys) - declared_types - skipped if not generator.is_builtin(k))
        if not new_funcs and not new_keys:
            continue
        directory = init_path / prefix.replace(".", "/")
        directory.mkdir(parents=True, exist_ok=True)
        api, init = directory / generator.api_filename(), directory / generator.init_filename()
        existing = _read(api, include_empty=True) if api.exists() else None
        _append(api, generator.generate_api_file(existing.code_blocks if existing else [], ty_map, prefix,
                                                 toposort_objects(new_keys), init_cfg, prefix == root))
        existing = _read(init, include_empty=True) if init.exists() else None
        submodule = generator.api_filename().rsplit(".", 1)[0]
        _append(init, generator.generate_init_file(existing.code_blocks if existing else [], prefix, submodule))
        for path in (api, init):
            _refresh(files, path)
        generated.add(prefix)
    return generated


def _refresh(files: list[FileInfo], path: Path) -> None:
    """Read a rewritten file anew into ``files`` (added when it was not there)."""
    path = path.resolve()
    fresh = _read(path, include_empty=False)
    for i, file in enumerate(files):
        if file.path == path:
            if fresh is None:
                del files[i]
            else:
                files[i] = fresh
            return
    if fresh is not None:
        files.append(fresh)


def _declared_objects(files: list[FileInfo]) -> dict[str, Path]:
    """Type key -> the file of the first ``object/`` block of the run declaring it."""
    declared: dict[str, Path] = {}
    for file in files:
        for block in file.code_blocks:
            if block.kind == "object" and isinstance(block.param, str):
                declared.setdefault(block.param, file.path)
    return declared


def _stage_3(file: FileInfo, opt: Options, ty_map: dict[str, str], global_funcs: dict[str, list[FuncInfo]],
             generator: Generator, declared: Mapping[str, Path] | None = None) -> bool:
    """Fill every block of one file and write it back; return whether its content changed.

    With ``opt.check`` or ``opt.dry_run`` nothing is written; with ``opt.check`` or
    ``opt.verbose`` the change is printed as a diff. An ``object/`` block whose type is not
    registered is left as it is, and reported (``StubgenError``) once the file is written.
    """
    if declared is None:
        declared = _declared_objects([file])
    imports = generator.new_imports()
    for block in file.code_blocks:
        if block.kind == "directive" and block.param[0] not in C.PIPELINE_DIRECTIVE_KINDS:
            name, payload = block.param[0], block.param[1]
            if name not in generator.directive_kinds:
                raise DirectiveError(f"Unknown directive `{name}` at line {block.lineno_start}")
            generator.add_directive(imports, name, payload, block.lineno_start)
    defined_funcs: set[str] = set()
    for block in file.code_blocks:
        if block.kind == "global":
            funcs = global_funcs.get(block.param[0], [])
            defined_funcs.update(func.schema.name for func in funcs)
            generator.generate_global_funcs_block(block, funcs, ty_map, imports, opt)
    defined_types: set[str] = set()
    unregistered: list[str] = []
    for block in file.code_blocks:
        if block.kind == "object" and isinstance(block.param, str):
            if _object_type_key_to_index(block.param) is None:
                unregistered.append(f"object type {block.param!r} is not registered (line {block.lineno_start})")
                continue
            info = object_info_from_type_key(block.param)
            defined_types.add(generator.canonical_type_name(ty_map.get(block.param, block.param)))
            generator.generate_object_block(block, ty_map, imports, opt, info, declared)
    for block in file.code_blocks:
        if block.kind == "import-section":
            generator.generate_import_section_block(block, imports, opt, defined_types)
            break  # one import section per file
    for block in file.code_blocks:
        if block.kind == "__all__":
            generator.generate_all_block(block, defined_funcs | defined_types | generator.extra_export_names(imports),
                                         opt)
            break  # one __all__ per file
    for block in file.code_blocks:
        if block.kind == "export":
            generator.generate_export_block(block)
    changed = file.update(verbose=opt.verbose or opt.check, dry_run=opt.dry_run or opt.check)
    if unregistered:
        raise StubgenError(f"{file.path}: {'; '.join(unregistered)}; load the libraries with --dlls or "
                           "--imports, or delete the blocks")
    return changed


def _run(opt: Options) -> int:
    """Run the stages over ``opt.files``; the exit status (0, 1 stale under ``--check``, 2 failed)."""
    generator = get_generator(opt.target)
    dlls = _load(opt)
    init_path: Path | None = None
    if opt.files:
        if opt.init and not os.path.exists(opt.files[0]):
            os.makedirs(opt.files[0])  # the package tree's root, written by --init
        init_path = Path(opt.files[0]).resolve()
        init_path = init_path.parent if init_path.is_file() else init_path
    files, failed = _collect(opt.files, generator.source_exts)
    global_funcs = collect_global_funcs()
    ty_map = generator.default_ty_map()
    for file in files:
        try:
            _stage_1(file, ty_map)
        except ValueError as err:
            _error(f"{file.path}: {err}")
            failed += 1
    generated: set[str] = set()
    if opt.init and init_path is not None:
        generated = _stage_2(files, ty_map, opt.init, init_path, global_funcs, generator)
    before = {file.path: generator.check_view(file.code_blocks) for file in files} if opt.check else {}
    failed += _roll_out_prefixes(files, generator)
    declared = _declared_objects(files)
    stale = 0
    for file in files:
        try:
            changed = _stage_3(file, opt, ty_map, global_funcs, generator, declared)
        except ValueError as err:
            _error(str(err) if isinstance(err, StubgenError) else f"{file.path}: {err}")
            failed += 1
            continue
        if changed and opt.check and generator.check_view(file.code_blocks) != before[file.path]:
            stale += 1
            print(f"[Stale] {file.path}")  # the reference tool's line, which its users' tests look for
            print(f"out of date: {file.path}", file=sys.stderr)
    if opt.init and generated and init_path is not None:
        generator.finalize_init(init_path, generated)
    if opt.coverage_out is not None:
        infos = {key: object_info_from_type_key(key) for keys in collect_type_keys().values() for key in keys}
        write_coverage_report(Path(opt.coverage_out), classify(infos))
    del dlls
    return 2 if failed else 1 if stale else 0


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
    opt = _parse_args(argv)
    try:
        return _run(opt)
    except (ValueError, OSError) as err:
        _error(str(err))
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
