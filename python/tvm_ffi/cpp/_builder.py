"""One build request: its flags, compilers and cache key, and the lock-free cache-hit check.

A hit needs only this module (and _cache, _flags, _toolchain, _request, _plan's flag type): the
compile machinery in _compile loads on a miss, so the first ``load_inline`` of a cached kernel in
a new process stays cheap.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from .. import __version__, libinfo
from . import _cache, _flags, _toolchain
from ._plan import CUDA_EXTS, Flags
from ._request import BuildRequest

__all__ = ["NinjaText", "run_build", "site"]


def site(backend: str | None) -> _flags.Site:
    """Where this process's build inputs are: our library and headers, the GPU toolkit."""
    home: str | None = None
    target: list[str] = []
    if backend == "cuda":
        home, target = str(_toolchain.cuda_home()), _toolchain.cuda_arch_flags()
    elif backend == "hip":
        home, target = str(_toolchain.rocm_home()), _toolchain.rocm_arch_flags()
    return _flags.Site(False, libinfo.find_libtvm_ffi(), libinfo.include_paths(), home, target)


def _flags_and_identity(req: BuildRequest) -> tuple[Flags, dict[str, str]]:
    exts = {Path(s).suffix.lower() for s in req.source_names()}
    backend = (req.backend or "cuda") if exts & CUDA_EXTS else None
    lists = _flags.build_flags(site(backend), backend, req.extra_cflags, req.extra_cuda_cflags,
                               req.extra_ldflags, req.extra_include_paths)
    identity: dict[str, str] = {}
    cxx = _toolchain.cxx_compiler()
    identity["cxx"] = cxx.identity
    cc: Sequence[str] = ()
    if ".c" in exts:
        cc_tool = _toolchain.c_compiler()
        cc, identity["cc"] = cc_tool.argv, cc_tool.identity
    gpu: Sequence[str] = ()
    if backend is not None:
        gpu_tool = _toolchain.gpu_compiler(backend)
        gpu, identity["gpu"] = gpu_tool.argv, gpu_tool.identity
    flags = Flags(
        cxx=cxx.argv,
        cxxflags=lists.cxxflags.argv(),
        cc=cc,
        cflags=lists.cflags.argv(),
        gpu=gpu,
        gpu_flags=lists.cuda_cflags.argv() if backend is not None else [],
        ldflags=lists.ldflags.argv(),
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


NinjaText = Callable[[BuildRequest, Sequence[str]], str]
"""The text of ``build.ninja`` for a request and its source paths."""


def run_build(req: BuildRequest, build_directory: str | os.PathLike[str] | None, ninja_text: NinjaText) -> Path:
    """Builds ``req`` (or finds it built) and returns the absolute path of the output; a build with
    ninja runs the file that ``ninja_text`` returns."""
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
    build_locked(req, flags, key, build_dir, expected, ninja_text)
    return expected


def _output_name(req: BuildRequest) -> str:
    return Path(req.output).name if req.output is not None else f"{req.name}.so"
