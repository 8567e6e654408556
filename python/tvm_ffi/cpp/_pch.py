"""Precompiled tvm_ffi headers for inline JIT builds with GCC.

Parsing ``<tvm/ffi/tvm_ffi.h>`` (about 78,000 lines with the standard headers it needs) is most of
a cold ``load_inline`` of a small kernel. The second cold build with one compiler and one set of
C++ flags therefore compiles that header once into a GCC precompiled header under
``<cache root>/pch/<key>/``; that build and every later one with the same flags read it through
``-include`` (a one-function kernel: about 1.5 s -> 0.5 s). The first build with a set of flags
only records that the flags were seen, so a script that compiles one kernel never pays for the
precompilation.

Safety: GCC checks a precompiled header before using it (same options, same definitions of the
macros it depends on) and otherwise reads the header itself, so a mismatch costs time, never
correctness. Only inline sources take part: their first line already includes the same header,
so including it earlier changes nothing (a user's own file might define configuration macros
before its first include). Not used with C sources (``extra_cflags`` reach the C compiler too),
with compilers other than GCC or behind a wrapper (ccache caches no build that reads a
precompiled header), nor with ``TVM_FFI_JIT_PCH=0``. At most ``_KEEP`` precompiled headers are
kept; older ones lose their ``.gch`` (tens of MB each) and fall back to plain parsing.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import subprocess
from pathlib import Path

from .. import __version__, libinfo
from ..utils.lockfile import FileLock
from . import _cache, _toolchain
from ._inline import PRELUDE_HEADER
from ._plan import Flags
from ._request import BuildRequest

__all__ = ["give_up", "pch_include_flags", "unreadable"]

_HEADER = "tvm_ffi_pch.h"
_SEEN = "seen"
_FAILED = "failed"
_KEEP = 4
_log = logging.getLogger("tvm_ffi.cpp")


def _enabled() -> bool:
    return os.environ.get("TVM_FFI_JIT_PCH", "1").strip().lower() not in ("0", "false", "off", "no")


@functools.lru_cache(maxsize=8)
def _is_plain_gcc(program: str) -> bool:
    """Whether ``program`` is GCC's C++ driver (``--version`` names the Free Software Foundation)."""
    try:
        proc = subprocess.run([program, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return proc.returncode == 0 and "Free Software Foundation" in proc.stdout and "clang" not in proc.stdout


def _eligible(req: BuildRequest, flags: Flags) -> bool:
    if not _enabled() or req.inline_sources is None or req.sources or os.name == "nt":
        return False
    names = [Path(name).suffix.lower() for name in req.inline_sources]
    if ".c" in names or not any(ext in (".cpp", ".cc", ".cxx") for ext in names):
        return False
    return len(flags.cxx) == 1 and _is_plain_gcc(flags.cxx[0])


def _pch_dir(flags: Flags) -> Path:
    include_dir = libinfo.find_include_path()
    key = _cache.cache_key({
        "cxx": _toolchain.cxx_compiler().identity,
        "cxxflags": list(flags.cxxflags),
        "headers": _cache.headers_digest(include_dir),
        "package_version": __version__,
    })
    return _cache.cache_root() / "pch" / key


def _precompile(directory: Path, flags: Flags) -> bool:
    """Compiles the header into ``<directory>/tvm_ffi_pch.h.gch``; False (and a marker) on failure."""
    header = directory / _HEADER
    gch = directory / f"{_HEADER}.gch"
    _cache.write_atomic(header, f"#include <{PRELUDE_HEADER}>\n".encode())
    tmp = directory / f".{_HEADER}.{os.getpid()}.gch.tmp"
    command = [*flags.cxx, *flags.cxxflags, "-x", "c++-header", str(header), "-o", str(tmp)]
    _log.info("precompiling <%s> for these C++ flags (once): %s", PRELUDE_HEADER, " ".join(command))
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        tmp.unlink(missing_ok=True)
        (directory / _FAILED).write_text(proc.stdout + proc.stderr)
        _log.info("precompiling <%s> failed; builds read the header instead:\n%s", PRELUDE_HEADER, proc.stderr)
        return False
    try:
        os.replace(tmp, gch)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
    _prune(directory.parent)
    return True


def _prune(root: Path) -> None:
    """Keeps the ``_KEEP`` most recently used precompiled headers; drops the others' ``.gch``."""
    found = []
    for entry in root.glob(f"*/{_HEADER}.gch"):
        try:
            found.append((entry.stat().st_mtime, entry))
        except OSError:
            pass
    found.sort(reverse=True)
    for _, stale in found[_KEEP:]:
        # The small header stays: a build that named it with -include still compiles (by parsing).
        stale.unlink(missing_ok=True)


def pch_include_flags(req: BuildRequest, flags: Flags) -> list[str]:
    """The flags that make the C++ compiles of ``req`` read a precompiled tvm_ffi header
    (``["-include", <header>]``), building it on the second cold build with these flags; empty
    when the build does not take part (see the module docstring)."""
    if not _eligible(req, flags):
        return []
    try:
        return _include_flags(_pch_dir(flags), flags)
    except OSError as err:  # a cache the PCH cannot live in slows builds down, never fails them
        _log.info("no precompiled header for this build: %s", err)
        return []


def _include_flags(directory: Path, flags: Flags) -> list[str]:
    """pch_include_flags for the precompiled header kept in ``directory``."""
    gch = directory / f"{_HEADER}.gch"
    include = ["-include", str(directory / _HEADER)]
    if gch.is_file():
        with contextlib.suppress(OSError):  # a read-only cache still serves it
            os.utime(gch)  # recently used: kept by _prune
        return include
    directory.mkdir(parents=True, exist_ok=True)
    if (directory / _FAILED).exists():
        return []
    seen = directory / _SEEN
    if not seen.exists():
        seen.touch()
        return []
    with FileLock(directory / "lock"):
        if gch.is_file() or _precompile(directory, flags):
            return include
    return []


def give_up(include_flags: list[str]) -> None:
    """Stops using the precompiled header named by ``include_flags`` (GCC could not read it)."""
    directory = Path(include_flags[-1]).parent
    with contextlib.suppress(OSError):  # the rebuild without it goes ahead either way
        (directory / f"{_HEADER}.gch").unlink(missing_ok=True)
        (directory / _FAILED).write_text("GCC could not read the precompiled header\n")


def unreadable(build_output: str) -> bool:
    """Whether a failed build's output says GCC could not read a precompiled header."""
    return "PCH file" in build_output or "precompiled header" in build_output
