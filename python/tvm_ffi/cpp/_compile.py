"""A cache miss: lock, compile and link, atomic publication, manifest.

The order keeps every reader safe: a build directory's library is replaced only by rename, the
manifest is written after it, and a cache hit needs the manifest plus unchanged inputs. The
lock is held only while building, never while loading or importing anything.
"""

from __future__ import annotations

import functools
import logging
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from ..utils.lockfile import FileLock
from . import _cache, _pch, _toolchain
from ._direct import run_direct
from ._errors import BuildError
from ._ninja import run_ninja
from ._plan import BuildPlan, Flags, plan_build
from ._request import BuildRequest

__all__ = ["build_locked"]

_LOCK_NAME = "lock"
_log = logging.getLogger("tvm_ffi.cpp")


def _jobs() -> int:
    value = os.environ.get("MAX_JOBS", "")
    if value.isdigit() and int(value) > 0:
        return int(value)
    return os.cpu_count() or 1


def _run_plan(name: str, build_dir: Path, plan: BuildPlan, ninja_text: Callable[[], str]) -> str:
    tool = os.environ.get("TVM_FFI_CPP_BUILD_TOOL", "").lower()
    if tool not in ("", "ninja", "direct"):
        raise ValueError(f"TVM_FFI_CPP_BUILD_TOOL must be 'ninja' or 'direct', got {tool!r}")
    ninja = None if tool == "direct" else _toolchain.find_ninja()
    if ninja is None and tool == "ninja":
        raise RuntimeError("TVM_FFI_CPP_BUILD_TOOL=ninja but ninja is not installed (pip install ninja)")
    if ninja is not None:
        return run_ninja(ninja, name, build_dir, ninja_text(), plan, _jobs())
    return run_direct(name, build_dir, plan, _jobs())


def _inputs_of(build_dir: Path, plan: BuildPlan) -> list[str]:
    inputs: list[str] = []
    for step in plan.steps:
        inputs += step.inputs
        if step.depfile is not None:
            try:
                inputs += _cache.parse_depfile((build_dir / step.depfile).read_text())
            except OSError:
                pass
    produced = {step.output for step in plan.steps}
    return [p for p in inputs if p not in produced]


# Temporaries of the direct runner and of write_atomic: "x.o.<pid>.<tag>.tmp", ".x.<pid>.tmp";
# ninja's rules write "<output>.tmp".
@functools.lru_cache(maxsize=1)
def _leftover_pattern() -> re.Pattern[str]:
    return re.compile(r"\.\d+\.\w+\.tmp$|^\..*\.\d+\.tmp$")


def _remove_leftovers(build_dir: Path, plan: BuildPlan) -> None:
    """Deletes the temporaries of a builder that died mid-build (we hold the lock now)."""
    ninja_temporaries = {f"{step.output}.tmp" for step in plan.steps}
    for entry in os.scandir(build_dir):
        leftover = entry.name in ninja_temporaries or _leftover_pattern().search(entry.name)
        if leftover and entry.is_file(follow_symlinks=False):
            try:
                os.unlink(entry.path)
            except OSError:
                pass


def _plan_and_run(req: BuildRequest, flags: Flags, pch: list[str], build_dir: Path, sources: list[str],
                  cubin_files: dict[str, str],
                  ninja_text: Callable[[BuildRequest, Sequence[str]], str]) -> tuple[BuildPlan, str]:
    """Plans the build (C++ compiles with the ``pch`` flags) and runs it; the plan and the output."""
    if pch:
        req = req._replace(extra_cflags=[*req.extra_cflags, *pch])
        flags = flags._replace(cxxflags=[*flags.cxxflags, *pch])
    plan = plan_build(req.name, sources, flags, req.output, cubin_files)
    _remove_leftovers(build_dir, plan)
    return plan, _run_plan(req.name, build_dir, plan, lambda: ninja_text(req, sources))


class _locked:
    """The build directory's lock; says who we wait for when another builder holds it."""

    def __init__(self, build_dir: Path) -> None:
        self._build_dir = build_dir
        self._lock = FileLock(build_dir / _LOCK_NAME)

    def __enter__(self) -> None:
        if not self._lock.acquire():
            holder = self._lock.holder_pid() or "unknown"
            _log.info("waiting for process %s, which is building in %s", holder, self._build_dir)
            self._lock.blocking_acquire()

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


def build_locked(req: BuildRequest, flags: Flags, key: str, build_dir: Path, expected: Path,
                 ninja_text: Callable[[BuildRequest, Sequence[str]], str]) -> None:
    """Builds ``req`` into ``build_dir`` under its lock, unless a finished build appears meanwhile;
    with ninja, the file is ``ninja_text(req, sources)``."""
    with _locked(build_dir):
        # Another process may have built it meanwhile; a reinstall may have touched our headers.
        if _cache.read_valid_manifest(build_dir, key, compare_content=True) == expected:
            return
        if req.inline_sources is not None:
            for file_name, text in req.inline_sources.items():
                _cache.write_atomic(build_dir / file_name, text.encode())
        cubin_files = {}
        for cubin_name, blob in req.cubins.items():
            cubin_files[cubin_name] = f"{cubin_name}.cubin"
            _cache.write_atomic(build_dir / cubin_files[cubin_name], bytes(blob))
        sources = [str(build_dir / f) for f in req.inline_sources or ()] + req.sources
        # Not part of the key: a precompiled header changes how fast the objects are made, not them.
        pch = _pch.pch_include_flags(req, flags)
        try:
            plan, output = _plan_and_run(req, flags, pch, build_dir, sources, cubin_files, ninja_text)
        except BuildError as err:
            if not pch or not _pch.unreadable(err.output):
                raise
            _pch.give_up(pch)  # an unreadable precompiled header: build as without one
            plan, output = _plan_and_run(req, flags, [], build_dir, sources, cubin_files, ninja_text)
        # As with the reference: TVM_FFI_CPP_EXTENSION_LOG_BUILD=1 logs the commands and their output.
        if os.environ.get("TVM_FFI_CPP_EXTENSION_LOG_BUILD", "0") in ("1", "stdout", "stderr"):
            _log.info("build of '%s' in %s:\n%s", req.name, build_dir, output)
        _cache.write_manifest(build_dir, key, expected, _inputs_of(build_dir, plan))
