"""``tvm-ffi-config``: print the compiler and linker flags for building against TVM-FFI.

Example::

    cc -shared -fPIC $(tvm-ffi-config --cflags) kernel.c -o kernel.so \\
        $(tvm-ffi-config --ldflags) $(tvm-ffi-config --libs)

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


def _cmakedir() -> str:
    # The wheel installs tvm_ffi-config.cmake next to the package's include/ and lib/.
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "share", "cmake", "tvm_ffi")


def _include_flags() -> list[str]:
    return [f"-I{path}" for path in libinfo.include_paths()]


# (flag, help, producer) in the order answers are printed.
_QUERIES: list[tuple[str, str, Callable[[], str]]] = [
    ("--includedir", "directory holding tvm/ffi/c_api.h", libinfo.find_include_path),
    ("--dlpack-includedir", "directory holding dlpack/dlpack.h", libinfo.find_dlpack_include_path),
    ("--cmakedir", "directory holding tvm_ffi-config.cmake (for find_package)", _cmakedir),
    ("--libdir", "directory holding libtvm_ffi.so", _libdir),
    ("--libfiles", "path of libtvm_ffi.so", libinfo.find_libtvm_ffi),
    ("--cflags", "C compiler flags (include directories)", lambda: " ".join(_include_flags())),
    ("--cxxflags", "C++ compiler flags (include directories, -std=c++17)",
     lambda: " ".join([*_include_flags(), "-std=c++17"])),
    ("--ldflags", "linker flags (library directory and rpath)",
     lambda: f"-L{_libdir()} -Wl,-rpath,{_libdir()}"),
    ("--libs", "libraries to link", lambda: "-ltvm_ffi"),
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
    """Entry point of the ``tvm-ffi-config`` command; prints one line per requested flag."""
    parser = _parser()
    args = vars(parser.parse_args(argv))
    wanted = [(flag, produce) for flag, _, produce in _QUERIES if args[flag[2:].replace("-", "_")]]
    if not wanted:
        parser.print_help()
        return 1
    try:
        lines = [produce() for _, produce in wanted]
    except RuntimeError as err:
        print(f"tvm-ffi-config: error: {err}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
