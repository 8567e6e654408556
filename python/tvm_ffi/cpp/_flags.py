"""The flags of a build, one definition for both ways of running it.

The compilers driven directly take them as argument lists; ``build.ninja`` takes them as shell
text in its variables (``cxxflags``, ``cflags``, ``cuda_cflags``, ``ldflags``), where the
caller's entries go in as written (an entry may hold several flags, as in the reference's
file) and the paths we add are quoted. So each list keeps three parts apart: our defaults, the
caller's extras, and the ``-I`` flags, in that order on the command line.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

__all__ = ["BuildFlags", "FlagList", "Site", "build_flags", "quote"]


class FlagList(NamedTuple):
    """One command line's flags: ours, then the caller's, then the include directories."""

    defaults: tuple[str, ...]
    extra: tuple[str, ...]
    includes: tuple[str, ...] = ()

    def argv(self) -> list[str]:
        """The flags as arguments (the caller's entries one argument each)."""
        return [*self.defaults, *self.extra, *self.includes]

    def shell_text(self, windows: bool) -> str:
        """The flags as a command-line fragment: the caller's entries verbatim, ours quoted."""
        return " ".join([*(quote(f, windows) for f in self.defaults), *self.extra,
                         *(quote(f, windows) for f in self.includes)])


class BuildFlags(NamedTuple):
    """Every flag list of a build (those of languages it does not compile go unused)."""

    cflags: FlagList
    cxxflags: FlagList
    cuda_cflags: FlagList
    ldflags: FlagList


class Site(NamedTuple):
    """Where a build's inputs live: what the flags point at."""

    windows: bool
    library: str  # libtvm_ffi
    include_paths: Sequence[str]  # our headers (tvm/ffi, dlpack)
    gpu_home: str | None = None  # CUDA or ROCm root, for GPU sources
    gpu_target: Sequence[str] = ()  # architecture flags


def quote(arg: str, windows: bool) -> str:
    """One argument as shell text: POSIX quoting, or Windows' (paths with spaces in quotes)."""
    if not windows:
        return shlex.quote(arg)
    import subprocess  # noqa: PLC0415  (only Windows text needs it; cache hits stay import-free)

    return subprocess.list2cmdline([arg])


# MSVC: /MD (the DLL C++ runtime) everywhere, nvcc's host compiler included, so C++ and CUDA
# objects link together; /EHsc for C++ exceptions.
_MSVC_C = ("/O2", "/MD")
_MSVC_CXX = ("/std:c++17", "/O2", "/MD", "/EHsc")


def build_flags(site: Site, backend: str | None, extra_cflags: Sequence[str] = (),
                extra_cuda_cflags: Sequence[str] = (), extra_ldflags: Sequence[str] = (),
                extra_include_paths: Sequence[str] = ()) -> BuildFlags:
    """The flags of a build at ``site``; ``backend`` ("cuda"/"hip") when it has GPU sources."""
    lib = Path(site.library)
    includes = [*site.include_paths, *extra_include_paths]
    home = Path(site.gpu_home) if site.gpu_home is not None else None
    if site.windows:
        cflags, cxxflags = list(_MSVC_C), list(_MSVC_CXX)
        # nvcc takes host-compiler flags only behind -Xcompiler.
        gpu = ["-Xcompiler", "/MD", "-std=c++17", "-O2"]
        ldflags = ["/DLL", f"/LIBPATH:{lib.parent}", f"{lib.stem}.lib"]
        if backend == "cuda" and home is not None:
            gpu += site.gpu_target
            ldflags += [f"/LIBPATH:{home / 'lib' / 'x64'}", "cudart.lib"]
    else:
        cflags, cxxflags = ["-fPIC", "-O2"], ["-std=c++17", "-fPIC", "-O2"]
        gpu = ["-std=c++17", "-O2"]
        ldflags = ["-shared", f"-L{lib.parent}", "-ltvm_ffi"]
        if backend == "cuda" and home is not None:
            gpu = ["-Xcompiler", "-fPIC", *gpu, *site.gpu_target]
            ldflags += [f"-L{home / 'lib64'}", "-lcudart"]
        elif backend == "hip" and home is not None:
            gpu += ["-fPIC", "-D__HIP_PLATFORM_AMD__=1", "-fno-gpu-rdc", *site.gpu_target]
            includes.append(str(home / "include"))
            ldflags += [f"-L{home / 'lib'}", "-lamdhip64"]
    include_flags = tuple(f"-I{path}" for path in includes)
    return BuildFlags(
        cflags=FlagList(tuple(cflags), tuple(extra_cflags), include_flags),
        cxxflags=FlagList(tuple(cxxflags), tuple(extra_cflags), include_flags),
        cuda_cflags=FlagList(tuple(gpu), tuple(extra_cuda_cflags), include_flags),
        ldflags=FlagList(tuple(ldflags), tuple(extra_ldflags)),
    )
