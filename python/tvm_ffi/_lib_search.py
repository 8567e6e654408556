"""Finding the shared library of a CMake target that a Python package ships or builds.

Used by :func:`tvm_ffi.libinfo.load_lib_module` and :func:`tvm_ffi.libinfo.load_lib_ctypes`:
extension libraries call them to load ``lib<target>.so`` from wherever their package put it.
Search order: files the package's installed distribution records, then ``extra_lib_paths``,
then the directories next to the package (``<pkg>``, ``<pkg>/lib``, ``<pkg>/../build``,
``<pkg>/../build/lib``) and next to ``tvm_ffi`` itself, then ``LD_LIBRARY_PATH`` and ``PATH``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

__all__ = ["find_library"]


def _library_names(target_name: str) -> tuple[str, ...]:
    if sys.platform.startswith("win32"):
        return (f"{target_name}.dll",)
    if sys.platform.startswith("darwin"):
        return (f"lib{target_name}.dylib", f"lib{target_name}.so")
    return (f"lib{target_name}.so",)


def _recorded(package: str, names: tuple[str, ...]) -> Path | None:
    """The library among the files the installed distribution ``package`` lists, if any."""
    import importlib.metadata  # noqa: PLC0415 - 30 ms to import; only extension loaders need it

    try:
        dist = importlib.metadata.distribution(package)
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return None
    for file in dist.files or ():
        if file.name in names:
            path = Path(str(dist.locate_file(file))).resolve()
            if path.is_file():
                return path
    return None


def _package_dirs(package: str) -> list[Path]:
    """Directories next to the importable package ``package`` (dashes read as underscores)."""
    try:
        spec = importlib.util.find_spec(package.replace("-", "_"))
    except (ImportError, ValueError):
        spec = None
    roots = list(spec.submodule_search_locations or ()) if spec is not None else []
    if spec is not None and not roots and spec.origin:
        roots = [str(Path(spec.origin).parent)]
    dirs: list[Path] = []
    for root in map(Path, roots):
        dirs += [root, root / "lib", root.parent / "build", root.parent / "build" / "lib", root.parent / "lib"]
    return dirs


def _env_dirs() -> list[Path]:
    dirs: list[Path] = []
    for var in ("LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "PATH"):
        dirs += [Path(p) for p in os.environ.get(var, "").split(os.pathsep) if p]
    return dirs


def find_library(package: str, target_name: str, extra_lib_paths: list[Path] | None = None, *,
                 use_fallback_build_path: bool = True, use_env_path: bool = True) -> Path:
    """Resolved path of ``lib<target_name>.so`` for ``package``; ``RuntimeError`` lists where it looked.

    The distribution's own files come first, then ``extra_lib_paths``, then the directories next
    to the package (``use_fallback_build_path``), then ``LD_LIBRARY_PATH``/``PATH`` (``use_env_path``).
    """
    if not isinstance(package, str) or not isinstance(target_name, str) or not target_name:
        raise TypeError(f"package and target_name must be strings, got {package!r} and {target_name!r}")
    for i, path in enumerate(extra_lib_paths or ()):
        if not isinstance(path, Path):
            raise TypeError(f"extra_lib_paths[{i}] must be a pathlib.Path, got {type(path).__name__}: {path!r}")
    names = _library_names(target_name)
    found = _recorded(package, names)
    if found is not None:
        return found
    searched: list[Path] = []
    # Next to `tvm_ffi` as well, for any `package`: a caller naming a distribution this package
    # does not belong to (`apache-tvm-ffi`, the reference's) still finds the libraries shipped here.
    fallback = [*_package_dirs(package), *_package_dirs("tvm_ffi")] if use_fallback_build_path else []
    for directory in [*(extra_lib_paths or ()), *fallback, *(_env_dirs() if use_env_path else [])]:
        if directory in searched:
            continue
        searched.append(directory)
        for name in names:
            candidate = directory / name
            if candidate.is_file():
                resolved: Path = candidate.resolve()
                return resolved
    where = "\n  ".join(str(d) for d in searched) or "(no directories)"
    raise RuntimeError(
        f"Cannot find library {' or '.join(names)} of target `{target_name}` for package `{package}`; "
        f"searched the files of distribution `{package}` and:\n  {where}"
    )
