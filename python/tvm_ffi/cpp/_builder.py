"""One build: cache lookup, lock, compile and link, atomic publication, manifest.

The order keeps every reader safe: a build directory's library is replaced only by rename, the
manifest is written after it, and a cache hit needs the manifest plus unchanged inputs. The
lock is held only while building, never while loading or importing anything.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import __version__, libinfo
from ..utils.lockfile import FileLock
from . import _cache, _toolchain
from ._direct import run_direct
from ._ninja import run_ninja
from ._plan import CUDA_EXTS, OBJECT_EXTS, BuildPlan, Flags, plan_build

__all__ = ["BuildRequest", "run_build"]

_LOCK_NAME = "lock"
_log = logging.getLogger("tvm_ffi.cpp")


@dataclass
class BuildRequest:
    """Everything that decides a build's output (normalised by the public functions)."""

    name: str
    sources: list[str]  # absolute paths (empty for inline builds)
    extra_cflags: list[str]
    extra_cuda_cflags: list[str]
    extra_ldflags: list[str]
    extra_include_paths: list[str]  # absolute paths
    backend: str | None  # "cuda" / "hip" when there are GPU sources
    output: str | None
    cubins: Mapping[str, bytes]
    # Inline builds: file name -> text, written into the build directory and compiled from there.
    inline_sources: Mapping[str, str] | None = None

    def source_names(self) -> list[str]:
        """The source names, for picking compilers by extension."""
        return list(self.inline_sources or ()) + self.sources


def _gpu_flags(backend: str, includes: list[str], extra: list[str]) -> tuple[Sequence[str], list[str], list[str]]:
    tool = _toolchain.gpu_compiler(backend)
    if backend == "cuda":
        flags = ["-Xcompiler", "-fPIC", "-std=c++17", "-O2", *_toolchain.cuda_arch_flags()]
        ldflags = [f"-L{_toolchain.cuda_home() / 'lib64'}", "-lcudart"]
    else:
        root = _toolchain.rocm_home()
        flags = ["-fPIC", "-std=c++17", "-O2", "-D__HIP_PLATFORM_AMD__=1", "-fno-gpu-rdc"]
        flags += _toolchain.rocm_arch_flags()
        includes = [*includes, str(root / "include")]
        ldflags = [f"-L{root / 'lib'}", "-lamdhip64"]
    return tool.argv, [*flags, *extra, *(f"-I{p}" for p in includes)], ldflags


def _flags_and_identity(req: BuildRequest) -> tuple[Flags, dict[str, str]]:
    exts = {Path(s).suffix.lower() for s in req.source_names()}
    includes = [*libinfo.include_paths(), *req.extra_include_paths]
    include_flags = [f"-I{p}" for p in includes]
    lib = Path(libinfo.find_libtvm_ffi())
    ldflags = ["-shared", f"-L{lib.parent}", "-ltvm_ffi"]
    identity: dict[str, str] = {}
    cxx = _toolchain.cxx_compiler()
    identity["cxx"] = cxx.identity
    cc: Sequence[str] = ()
    if ".c" in exts:
        cc_tool = _toolchain.c_compiler()
        cc, identity["cc"] = cc_tool.argv, cc_tool.identity
    gpu: Sequence[str] = ()
    gpu_flags: list[str] = []
    if exts & CUDA_EXTS:
        backend = req.backend or "cuda"
        gpu, gpu_flags, gpu_ldflags = _gpu_flags(backend, includes, req.extra_cuda_cflags)
        ldflags += gpu_ldflags
        identity["gpu"] = _toolchain.gpu_compiler(backend).identity
    flags = Flags(
        cxx=cxx.argv,
        cxxflags=["-std=c++17", "-fPIC", "-O2", *req.extra_cflags, *include_flags],
        cc=cc,
        cflags=["-fPIC", "-O2", *req.extra_cflags, *include_flags],
        gpu=gpu,
        gpu_flags=gpu_flags,
        ldflags=[*ldflags, *req.extra_ldflags],
    )
    return flags, identity


def _abi_version() -> str:
    from .. import __version_tuple__  # noqa: PLC0415

    return ".".join(map(str, __version_tuple__))


def build_key(req: BuildRequest, flags: Flags, identity: Mapping[str, str]) -> str:
    """The cache key: it covers every input that decides the output (file contents via the manifest)."""
    include_dir = libinfo.find_include_path()
    parts = {
        "name": req.name,
        "sources": req.sources if req.inline_sources is None else sorted(req.inline_sources.items()),
        "flags": [flags.cxxflags, flags.cflags, flags.gpu_flags, flags.ldflags],
        "backend": req.backend,
        "output": req.output,
        "cubins": {k: bytes(v) for k, v in req.cubins.items()},
        "toolchain": dict(identity),
        "package_version": __version__,
        "abi_version": _abi_version(),
        "headers": _cache.headers_digest(include_dir),
        "platform": sys.platform,
    }
    return _cache.cache_key(parts)


def _jobs() -> int:
    value = os.environ.get("MAX_JOBS", "")
    if value.isdigit() and int(value) > 0:
        return int(value)
    return os.cpu_count() or 1


def _run_plan(name: str, build_dir: Path, plan: BuildPlan) -> str:
    tool = os.environ.get("TVM_FFI_CPP_BUILD_TOOL", "").lower()
    if tool not in ("", "ninja", "direct"):
        raise ValueError(f"TVM_FFI_CPP_BUILD_TOOL must be 'ninja' or 'direct', got {tool!r}")
    ninja = None if tool == "direct" else _toolchain.find_ninja()
    if ninja is None and tool == "ninja":
        raise RuntimeError("TVM_FFI_CPP_BUILD_TOOL=ninja but ninja is not installed (pip install ninja)")
    if ninja is not None:
        return run_ninja(ninja, name, build_dir, plan, _jobs())
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


# Temporaries of the step runners and of write_atomic: "x.o.tmp<pid>" (ninja's shell),
# "x.o.<pid>.<tag>.tmp" (direct runner), ".x.<pid>.tmp" (atomic writes).
_LEFTOVER = re.compile(r"\.tmp\d+$|\.\d+\.\w+\.tmp$|^\..*\.\d+\.tmp$")


def _remove_leftovers(build_dir: Path) -> None:
    """Deletes the temporaries of a builder that died mid-build (we hold the lock now)."""
    for entry in os.scandir(build_dir):
        if _LEFTOVER.search(entry.name) and entry.is_file(follow_symlinks=False):
            try:
                os.unlink(entry.path)
            except OSError:
                pass


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


def run_build(req: BuildRequest, build_directory: str | os.PathLike[str] | None) -> Path:
    """Builds ``req`` (or finds it built) and returns the absolute path of the output."""
    flags, identity = _flags_and_identity(req)
    key = build_key(req, flags, identity)
    if build_directory is None:
        build_dir = _cache.cache_root() / f"{req.name}_{key}"
    else:
        build_dir = Path(build_directory).expanduser().resolve()
    hit = _cache.read_valid_manifest(build_dir, key)
    expected = build_dir / _output_name(req)
    if hit == expected:
        return hit
    build_dir.mkdir(parents=True, exist_ok=True)
    with _locked(build_dir):
        # Another process may have built it meanwhile; a reinstall may have touched our headers.
        hit = _cache.read_valid_manifest(build_dir, key, compare_content=True)
        if hit == expected:
            return hit
        _remove_leftovers(build_dir)
        if req.inline_sources is not None:
            for file_name, text in req.inline_sources.items():
                _cache.write_atomic(build_dir / file_name, text.encode())
        cubin_files = {}
        for cubin_name, blob in req.cubins.items():
            cubin_files[cubin_name] = f"{cubin_name}.cubin"
            _cache.write_atomic(build_dir / cubin_files[cubin_name], bytes(blob))
        sources = [str(build_dir / f) for f in req.inline_sources or ()] + req.sources
        plan = plan_build(req.name, sources, flags, req.output, cubin_files)
        output = _run_plan(req.name, build_dir, plan)
        # As with the reference: TVM_FFI_CPP_EXTENSION_LOG_BUILD=1 logs the commands and their output.
        if os.environ.get("TVM_FFI_CPP_EXTENSION_LOG_BUILD", "0") in ("1", "stdout", "stderr"):
            _log.info("build of '%s' in %s:\n%s", req.name, build_dir, output)
        _cache.write_manifest(build_dir, key, expected, _inputs_of(build_dir, plan))
    return expected


def _output_name(req: BuildRequest) -> str:
    return Path(req.output).name if req.output is not None else f"{req.name}.so"


def is_object_output(output: str | None) -> bool:
    """True when ``output`` names an object file (no link)."""
    return output is not None and Path(output).suffix.lower() in OBJECT_EXTS
