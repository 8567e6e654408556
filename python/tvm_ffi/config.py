"""``tvm-ffi-config``: print the compiler and linker flags for building against TVM-FFI.

Example::

    cc -shared -fPIC $(tvm-ffi-config --cflags) kernel.c -o kernel.so \\
        $(tvm-ffi-config --ldflags) $(tvm-ffi-config --libs)

``--ldflags`` carries no rpath, so the kernel stays relocatable and binds to the runtime that
loads it (``import tvm_ffi`` loads it first). Executables that link the runtime add ``--rpath``.

Also runs as ``python -m tvm_ffi.config``. Only the standard library is imported.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Callable

from . import libinfo


def _libdir() -> str:
    return os.path.dirname(libinfo.find_libtvm_ffi())


def _include_flags() -> str:
    # Always both directories, even when they are one (the reference's output shape).
    return f"-I{libinfo.find_include_path()} -I{libinfo.find_dlpack_include_path()}"


# (flag, help, producer) in the order answers are printed (the reference's order).
_QUERIES: list[tuple[str, str, Callable[[], str]]] = [
    ("--includedir", "directory holding tvm/ffi/c_api.h", libinfo.find_include_path),
    ("--dlpack-includedir", "directory holding dlpack/dlpack.h", libinfo.find_dlpack_include_path),
    ("--cmakedir", "directory of the CMake package (tvm_ffi-config.cmake)", libinfo.find_cmake_path),
    ("--libdir", "directory holding libtvm_ffi.so", _libdir),
    ("--libfiles", "path of libtvm_ffi.so", libinfo.find_libtvm_ffi),
    ("--sourcedir", "top directory of the C sources", libinfo.find_source_path),
    ("--cython-lib-path", "path of the compiled extension module tvm_ffi._core", libinfo.find_cython_lib),
    ("--cxxflags", "C++ compiler flags (include directories, -std=c++17)",
     lambda: f"{_include_flags()} -std=c++17"),
    ("--cflags", "C compiler flags (include directories)", _include_flags),
    ("--libs", "libraries to link", lambda: "-ltvm_ffi"),
    # No rpath: a kernel binds to the runtime its loader already has (relocatable).
    ("--ldflags", "linker flags (library directory)", lambda: f"-L{_libdir()}"),
    ("--rpath", "linker flag embedding the library directory, for executables",
     lambda: f"-Wl,-rpath,{_libdir()}"),
]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tvm-ffi-config",
        description="Print the paths and flags needed to build C/C++ code against TVM-FFI.",
    )
    for flag, help_text, _ in _QUERIES:
        parser.add_argument(flag, action="store_true", help=help_text)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``tvm-ffi-config`` command: print one line per requested flag.

    Parameters
    ----------
    argv : list of str, optional
        The command-line arguments (default: ``sys.argv[1:]``); without any flag the help is
        printed.

    Returns
    -------
    int
        The exit status: 0 ok, 1 when a requested path cannot be found.

    Examples
    --------
    >>> from tvm_ffi.config import main
    >>> main(["--libs"])
    -ltvm_ffi
    0
    """
    parser = _parser()
    args = vars(parser.parse_args(argv))
    wanted = [(flag, produce) for flag, _, produce in _QUERIES if args[flag[2:].replace("-", "_")]]
    if not wanted:
        parser.print_help()
        return 0
    try:
        lines = [produce() for _, produce in wanted]
    except RuntimeError as err:
        print(f"tvm-ffi-config: error: {err}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


def __main__() -> None:
    """The command under the reference's entry-point name (``tvm_ffi.config:__main__``)."""
    sys.exit(main())


if __name__ == "__main__":
    sys.exit(main())
