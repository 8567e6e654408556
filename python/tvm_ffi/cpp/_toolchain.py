"""The compilers a build uses, where they are, and a cheap identity for the cache key.

Nothing here runs at import. Identities come from the resolved compiler binaries' paths and
file stats (no subprocess), so computing a cache key for a cache hit costs microseconds; a
compiler upgrade replaces the binary and so changes the key.
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import re

__all__ = [
    "Tool",
    "c_compiler",
    "cuda_arch_flags",
    "cuda_home",
    "cuda_home_variable",
    "cxx_compiler",
    "find_ninja",
    "gpu_compiler",
    "rocm_arch_flags",
    "rocm_home",
]


class Tool(NamedTuple):
    """A command (program plus fixed leading arguments, as in ``CXX="ccache g++"``) and its identity."""

    argv: tuple[str, ...]
    identity: str


def _identity(argv: tuple[str, ...]) -> str:
    path = shutil.which(argv[0])
    if path is None:
        return f"{shlex.join(argv)} (not found)"
    real = os.path.realpath(path)
    st = os.stat(real)
    return f"{shlex.join(argv)} -> {real} size={st.st_size} mtime_ns={st.st_mtime_ns}"


def _tool(command: str, what: str, env_var: str) -> Tool:
    argv = tuple(shlex.split(command))
    if not argv:
        raise RuntimeError(f"${env_var} is set but empty: it must name the {what}")
    return Tool(argv, _identity(argv))


def cxx_compiler() -> Tool:
    """The C++ compiler: ``$CXX``, else ``c++``."""
    return _tool(os.environ.get("CXX") or "c++", "C++ compiler", "CXX")


def c_compiler() -> Tool:
    """The C compiler: ``$CC``, else ``cc``."""
    return _tool(os.environ.get("CC") or "cc", "C compiler", "CC")


def find_ninja() -> str | None:
    """Path of a ninja executable: on PATH, next to this Python, or from the ``ninja`` wheel."""
    found = shutil.which("ninja")
    if found:
        return found
    import sys  # noqa: PLC0415

    beside = Path(sys.executable).parent / "ninja"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    try:
        import ninja  # noqa: PLC0415
    except ImportError:
        return None
    candidate = Path(getattr(ninja, "BIN_DIR", "")) / "ninja"
    return str(candidate) if candidate.is_file() else None


# --------------------------------------------------------------------------------------------
# CUDA
# --------------------------------------------------------------------------------------------

_CUDA_HINT = "install the CUDA toolkit or set CUDA_HOME to its root (the directory that holds bin/nvcc)"


def _is_cuda_root(path: Path) -> bool:
    return (path / "bin" / "nvcc").is_file() and (path / "include" / "cuda_runtime.h").is_file()


def cuda_home_variable() -> tuple[str, str] | None:
    """``(name, value)`` of the first of ``$CUDA_HOME`` / ``$CUDA_PATH`` that is set, or None."""
    for var in ("CUDA_HOME", "CUDA_PATH"):
        value = os.environ.get(var)
        if value:
            return var, value
    return None


def cuda_home() -> Path:
    """Root of the CUDA toolkit: ``$CUDA_HOME`` / ``$CUDA_PATH`` when set, else found from ``nvcc``.

    ``RuntimeError`` when there is none. An explicitly set variable that does not hold
    ``bin/nvcc`` is an error too, rather than silently using another toolkit.
    """
    variable = cuda_home_variable()
    if variable is not None:
        var, value = variable
        if not (Path(value) / "bin" / "nvcc").is_file():
            raise RuntimeError(
                f"CUDA sources need nvcc, but {var}={value} has no bin/nvcc; "
                f"set {var} to the CUDA toolkit root or unset it to search PATH"
            )
        return Path(value)
    on_path = shutil.which("nvcc")
    if on_path is not None:
        root = Path(os.path.realpath(on_path)).parent.parent
        if _is_cuda_root(root):
            return root
    default = Path("/usr/local/cuda")
    if _is_cuda_root(default):
        return default
    raise RuntimeError(f"CUDA sources need nvcc, which was not found (CUDA_HOME unset, no nvcc on PATH); {_CUDA_HINT}")


@functools.lru_cache(maxsize=1)
def _cuda_arch_pattern() -> re.Pattern[str]:
    import re  # noqa: PLC0415

    return re.compile(r"^(\d+)\.(\d+)([af]?)$")


def _parse_cuda_arch(entry: str) -> list[str]:
    """``8.9`` -> sm_89 code; ``9.0a`` -> sm_90a; ``8.0+PTX`` also embeds compute_80 PTX."""
    ptx = entry.upper().endswith("+PTX")
    match = _cuda_arch_pattern().match(entry[: -len("+PTX")] if ptx else entry)
    if match is None:
        raise ValueError(
            f"Invalid CUDA architecture {entry!r} in TVM_FFI_CUDA_ARCH_LIST: "
            "expected entries like '8.9', '9.0a' or '8.0+PTX'"
        )
    num = "".join(match.groups())
    flags = [f"-gencode=arch=compute_{num},code=sm_{num}"]
    if ptx:
        flags.append(f"-gencode=arch=compute_{num},code=compute_{num}")
    return flags


@functools.lru_cache(maxsize=1)
def _detected_compute_capability() -> str:
    import subprocess  # noqa: PLC0415  (only GPU builds without TVM_FFI_CUDA_ARCH_LIST need it)

    try:
        proc = subprocess.run(
            ["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=30, check=True,
        )
    except (OSError, subprocess.SubprocessError) as err:
        raise RuntimeError(
            "Could not detect the GPU architecture for CUDA sources (nvidia-smi failed: "
            f"{err}); set TVM_FFI_CUDA_ARCH_LIST, e.g. TVM_FFI_CUDA_ARCH_LIST='8.0 9.0'"
        ) from None
    first = proc.stdout.strip().splitlines()[0].strip() if proc.stdout.strip() else ""
    if not first:
        raise RuntimeError("nvidia-smi reported no GPU; set TVM_FFI_CUDA_ARCH_LIST, e.g. '8.0 9.0'")
    return first


def cuda_arch_flags() -> list[str]:
    """``-gencode`` flags from ``TVM_FFI_CUDA_ARCH_LIST`` (``"8.9 9.0a"``), else the local GPU."""
    value = os.environ.get("TVM_FFI_CUDA_ARCH_LIST", "").replace(";", " ").replace(",", " ").split()
    if not value:
        value = [_detected_compute_capability()]
    flags: list[str] = []
    for entry in value:
        flags += [f for f in _parse_cuda_arch(entry) if f not in flags]
    return flags


# --------------------------------------------------------------------------------------------
# ROCm (HIP)
# --------------------------------------------------------------------------------------------


def rocm_home() -> Path:
    """Root of ROCm: ``$ROCM_HOME`` / ``$ROCM_PATH``, else from ``hipcc`` on PATH, else /opt/rocm."""
    for var in ("ROCM_HOME", "ROCM_PATH"):
        value = os.environ.get(var)
        if value:
            return Path(value)
    on_path = shutil.which("hipcc")
    if on_path is not None:
        root = Path(os.path.realpath(on_path)).parent.parent
        return root.parent if root.name == "hip" else root
    if Path("/opt/rocm/bin/hipcc").is_file():
        return Path("/opt/rocm")
    raise RuntimeError("HIP sources need hipcc, which was not found; install ROCm or set ROCM_HOME")


def rocm_arch_flags() -> list[str]:
    """``--offload-arch`` flags from ``TVM_FFI_ROCM_ARCH_LIST`` (``"gfx90a gfx942"``)."""
    archs = os.environ.get("TVM_FFI_ROCM_ARCH_LIST", "").replace(";", " ").split()
    if not archs:
        raise RuntimeError("Set TVM_FFI_ROCM_ARCH_LIST (e.g. 'gfx90a gfx942') to build HIP sources")
    return [f"--offload-arch={arch}" for arch in archs]


def gpu_compiler(backend: str) -> Tool:
    """``nvcc`` of :func:`cuda_home` for ``"cuda"``, ``hipcc`` of :func:`rocm_home` for ``"hip"``."""
    exe = cuda_home() / "bin" / "nvcc" if backend == "cuda" else rocm_home() / "bin" / "hipcc"
    if not exe.is_file():
        raise RuntimeError(f"{exe.name} not found at {exe}")
    argv = (str(exe),)
    return Tool(argv, _identity(argv))
