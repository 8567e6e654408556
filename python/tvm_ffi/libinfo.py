"""Locate the native pieces of the installed package: runtime library, headers, CMake package.

Everything here is path arithmetic, so it works without the runtime being loadable and imports
nothing beyond the standard library. The ``find_*`` functions have the reference package's names
and behaviour: each returns the first existing candidate as a string or raises RuntimeError.

Candidates come from the ``tvm_ffi`` package directories: one for a normal install; two for an
editable install (``pip install -e .``), whose Python files stay in the source tree while the
built files (``lib/``, ``include/``, ``_core``) go to site-packages. A source checkout is the
last resort for headers, the CMake package and the sources.
"""

from __future__ import annotations

import ctypes
import importlib.util
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ._lib_search import find_library

if TYPE_CHECKING:
    from .module import Module

__all__ = [
    "find_cmake_path",
    "find_cython_lib",
    "find_dlpack_include_path",
    "find_include_path",
    "find_libtvm_ffi",
    "find_python_helper_include_path",
    "find_source_path",
    "find_windows_implib",
    "include_paths",
    "load_lib_ctypes",
    "load_lib_module",
]

_LIB_NAME = "libtvm_ffi.so"
_INSTALL_HINT = "reinstall the package from a source checkout with `pip install .`"


def _package_dirs_at_import() -> list[Path]:
    """Directories of the ``tvm_ffi`` package, this file's own first."""
    dirs = [Path(__file__).resolve().parent]
    package = sys.modules.get(__name__.rpartition(".")[0])
    for location in getattr(package, "__path__", None) or []:
        path = Path(location).resolve()
        if path not in dirs:
            dirs.append(path)
    return dirs


_PACKAGE_DIRS: list[Path] = _package_dirs_at_import()
# The repository root when the package runs from a source checkout (python/tvm_ffi/).
_SOURCE_TREE: Path = _PACKAGE_DIRS[0].parent.parent


def _first(what: str, candidates: list[Path], accept: Callable[[Path], bool]) -> str:
    """The first candidate ``accept`` holds for; RuntimeError listing every place looked at."""
    for path in candidates:
        try:
            if accept(path):
                return str(path)
        except OSError:
            continue
    places = ", ".join(str(p) for p in candidates)
    raise RuntimeError(f"cannot find {what}: looked in {places}; {_INSTALL_HINT}")


def _resolve_and_validate(paths: list[Path], cond: Callable[[Path], bool | Path]) -> str | None:
    """The first of ``paths`` (resolved) that ``cond`` accepts, as a string; None when none is.

    ``cond`` returns True to take the resolved path, False to go on, or a Path to return in its
    place. A candidate whose resolution or check raises OSError or AssertionError is skipped.
    The reference package has this helper under this name, and projects built on it (TVM's RPC
    server) call it, so it is kept with the same contract.
    """
    for path in paths:
        try:
            resolved = path.resolve()
            verdict = cond(resolved)
        except (OSError, AssertionError):
            continue
        if isinstance(verdict, Path):
            return str(verdict)
        if verdict is True:
            return str(resolved)
    return None


def _in_package(*parts: str) -> list[Path]:
    return [directory.joinpath(*parts) for directory in _PACKAGE_DIRS]


def find_libtvm_ffi() -> str:
    """Locate the runtime library ``libtvm_ffi.so`` shipped in ``tvm_ffi/lib``.

    Returns
    -------
    str
        Its absolute path.

    Raises
    ------
    RuntimeError
        When the package was installed without it (the message says where it looked).

    Examples
    --------
    >>> import os
    >>> os.path.basename(tvm_ffi.libinfo.find_libtvm_ffi())
    'libtvm_ffi.so'
    """
    return _first(_LIB_NAME, _in_package("lib", _LIB_NAME), Path.is_file)


def find_windows_implib() -> str:
    """Locate ``tvm_ffi.lib``, the import library Windows linkers need next to the DLL.

    Returns
    -------
    str
        The path of the import library.

    Raises
    ------
    RuntimeError
        When there is none (the package ships one only in Windows builds); the message names
        the places looked at.
    """
    return _first("the import library tvm_ffi.lib", _in_package("lib", "tvm_ffi.lib"), Path.is_file)


def find_include_path() -> str:
    """Locate the directory to pass as ``-I`` so that ``#include <tvm/ffi/c_api.h>`` works.

    Returns
    -------
    str
        The include directory (in the package, else in the source checkout).

    Raises
    ------
    RuntimeError
        When the headers are not found.

    Examples
    --------
    >>> import os
    >>> os.path.isfile(os.path.join(tvm_ffi.libinfo.find_include_path(), "tvm", "ffi", "c_api.h"))
    True
    """
    candidates = [*_in_package("include"), _SOURCE_TREE / "include"]
    return _first("the TVM-FFI headers (tvm/ffi/c_api.h)", candidates,
                  lambda p: (p / "tvm" / "ffi" / "c_api.h").is_file())


def find_dlpack_include_path() -> str:
    """Locate the directory to pass as ``-I`` so that ``#include <dlpack/dlpack.h>`` works.

    Returns
    -------
    str
        The include directory.

    Raises
    ------
    RuntimeError
        When the header is not found.
    """
    candidates = [*_in_package("include"), _SOURCE_TREE / "include"]
    return _first("the DLPack header (dlpack/dlpack.h)", candidates,
                  lambda p: (p / "dlpack" / "dlpack.h").is_file())


def find_cmake_path() -> str:
    """Locate the CMake package directory (``tvm_ffi-config.cmake``), for ``-Dtvm_ffi_DIR=``.

    Returns
    -------
    str
        The directory.

    Raises
    ------
    RuntimeError
        When it is not found.
    """
    candidates = [*_in_package("share", "cmake", "tvm_ffi"), _SOURCE_TREE / "cmake"]
    return _first("the CMake package (tvm_ffi-config.cmake)", candidates, Path.is_dir)


def find_source_path() -> str:
    """Locate the top directory of the C sources (the one holding ``src/``).

    Returns
    -------
    str
        The package directory, or the source checkout it was built from.

    Raises
    ------
    RuntimeError
        When neither holds ``src/``.
    """
    return _first("the TVM-FFI sources (src/)", [*_PACKAGE_DIRS, _SOURCE_TREE], lambda p: (p / "src").is_dir())


def find_python_helper_include_path() -> str:
    """Locate the directory holding ``tvm_ffi_python_helpers.h``, the reference's CPython helper header.

    Our extension is written in C directly and ships no such header, so this raises unless a
    package next to ours provides one.

    Returns
    -------
    str
        The directory.

    Raises
    ------
    RuntimeError
        When no such header is installed.
    """
    return _first("tvm_ffi_python_helpers.h", _in_package("include"),
                  lambda p: (p / "tvm_ffi_python_helpers.h").is_file())


def find_cython_lib() -> str:
    """Locate the compiled extension module (``tvm_ffi._core``) without importing it.

    Returns
    -------
    str
        The absolute path of the extension's shared object.

    Raises
    ------
    RuntimeError
        When the extension is not installed.

    Examples
    --------
    >>> tvm_ffi.libinfo.find_cython_lib().endswith(".so")
    True
    """
    spec = importlib.util.find_spec("tvm_ffi._core")
    if spec is None or spec.origin is None or not Path(spec.origin).is_file():
        raise RuntimeError(f"cannot find the extension module tvm_ffi._core; {_INSTALL_HINT}")
    return str(Path(spec.origin).resolve())


def include_paths() -> list[str]:
    """List the include directories a kernel needs, without duplicates, in search order.

    Returns
    -------
    list of str
        The TVM-FFI header directory, then the DLPack one when it differs.

    Examples
    --------
    >>> tvm_ffi.libinfo.include_paths()[0] == tvm_ffi.libinfo.find_include_path()
    True
    """
    paths: list[str] = []
    for path in (find_include_path(), find_dlpack_include_path()):
        if path not in paths:
            paths.append(path)
    return paths


def _load_runtime_ctypes(mode: int = ctypes.RTLD_GLOBAL) -> ctypes.CDLL:
    """Loads this package's ``libtvm_ffi.so`` with ctypes (globally by default, for kernels)."""
    path = find_libtvm_ffi()
    try:
        return ctypes.CDLL(path, mode=mode)
    except OSError as err:
        raise RuntimeError(f"cannot load {path}: {err}") from err


def _find_library_by_basename(package: str, target_name: str, extra_lib_paths: list[Path] | None = None, *,
                              use_fallback_build_path: bool = True, use_env_path: bool = True) -> Path:
    """The resolved path of ``lib<target_name>.so`` of distribution ``package``.

    Searched in order: the distribution's recorded files, ``extra_lib_paths`` (each a
    ``pathlib.Path``), the directories next to the package and to ``tvm_ffi``
    (``use_fallback_build_path``), and ``LD_LIBRARY_PATH``/``PATH`` (``use_env_path``).
    TypeError for a non-Path directory, RuntimeError (listing where it looked) when nothing is
    found.
    """
    return find_library(package, target_name, extra_lib_paths,
                        use_fallback_build_path=use_fallback_build_path, use_env_path=use_env_path)


def load_lib_ctypes(package: str, target_name: str, mode: str,
                    extra_lib_paths: list[Path] | None = None) -> ctypes.CDLL:
    """Load ``lib<target_name>.so`` of an installed package with ctypes.

    The library is searched in the distribution's files, then ``extra_lib_paths``, then next to
    the package, then on ``LD_LIBRARY_PATH``/``PATH``.

    Parameters
    ----------
    package : str
        The distribution name (as given to ``pip install``).
    target_name : str
        The library's CMake target name (the file is ``lib<target_name>.so``).
    mode : str
        ``"RTLD_LOCAL"`` or ``"RTLD_GLOBAL"``.
    extra_lib_paths : list of Path, optional
        More directories to search.

    Returns
    -------
    ctypes.CDLL
        The loaded library.

    Raises
    ------
    ValueError
        When ``mode`` is not one of the two names.
    RuntimeError
        When the library is not found (the message lists where it looked) or fails to load.

    Examples
    --------
    >>> lib = tvm_ffi.libinfo.load_lib_ctypes("my-extension", "my_extension", "RTLD_LOCAL")  # doctest: +SKIP
    """
    if mode not in ("RTLD_LOCAL", "RTLD_GLOBAL"):
        raise ValueError(f"load_lib_ctypes: mode must be 'RTLD_LOCAL' or 'RTLD_GLOBAL', got {mode!r}")
    path = find_library(package, target_name, extra_lib_paths)
    try:
        return ctypes.CDLL(str(path), mode=getattr(ctypes, mode))
    except OSError as err:
        raise RuntimeError(f"cannot load {path}: {err}") from err


def load_lib_module(package: str, target_name: str, keep_module_alive: bool = True,
                    extra_lib_paths: list[Path] | None = None) -> Module:
    """Load ``lib<target_name>.so`` of an installed package as a :class:`tvm_ffi.Module`.

    The library is found as in :func:`load_lib_ctypes`; it registers its functions and types as
    it loads.

    Parameters
    ----------
    package : str
        The distribution name.
    target_name : str
        The library's CMake target name.
    keep_module_alive : bool, optional
        Keep the library loaded for the rest of the process (default True).
    extra_lib_paths : list of Path, optional
        More directories to search.

    Returns
    -------
    Module
        The loaded module.

    Raises
    ------
    RuntimeError
        When the library is not found or fails to load.

    Examples
    --------
    >>> mod = tvm_ffi.libinfo.load_lib_module("my-extension", "my_extension")  # doctest: +SKIP
    """
    from .module import load_module

    return load_module(find_library(package, target_name, extra_lib_paths), keep_module_alive=keep_module_alive)
