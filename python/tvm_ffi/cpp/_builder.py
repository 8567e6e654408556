"""One build request: its flags, compilers and cache key, and the lock-free cache-hit check.

A hit needs only this module (and _cache, _toolchain, _request, _plan's flag type): the compile machinery
in _compile loads on a miss, so the first ``load_inline`` of a cached kernel in a new process
stays cheap.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from .. import __version__, libinfo
from . import _cache, _toolchain
from ._plan import CUDA_EXTS, Flags
from ._request import BuildRequest

__all__ = ["run_build"]


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
    from ._compile import build_locked  # noqa: PLC0415  (the build machinery: only a miss pays its import)

    build_dir.mkdir(parents=True, exist_ok=True)
    build_locked(req, flags, key, build_dir, expected)
    return expected


def _output_name(req: BuildRequest) -> str:
    return Path(req.output).name if req.output is not None else f"{req.name}.so"
