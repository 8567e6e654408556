"""Build the DLPack exchange addon for a PyTorch release that publishes no exchange table.

Run as a script (``python _build_optional_torch_c_dlpack.py --output-dir DIR``): it compiles
``torch_c_dlpack_addon.cc`` against the installed PyTorch into ``DIR/<libname>``, whose
``TorchDLPackExchangeAPIPtr()`` returns the address of a ``DLPackExchangeAPI``. Concurrent builds
of one library wait on a file lock; the first one builds, the rest find the result. The library
appears under its final name only when complete (built under a temporary name, then renamed).

Environment: ``CXX`` (the compiler, default ``c++``); ``TVM_FFI_JIT_EXTRA_CFLAGS`` and
``TVM_FFI_JIT_EXTRA_LDFLAGS`` (extra flags, split like a shell would).
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

SOURCE = Path(__file__).with_name("torch_c_dlpack_addon.cc")


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Compile the PyTorch DLPack exchange addon into a shared library.")
    parser.add_argument("--build-dir", default=None,
                        help="scratch directory for the build (default: a new temporary one)")
    parser.add_argument("--output-dir",
                        default=os.environ.get("TVM_FFI_CACHE_DIR") or "~/.cache/tvm-ffi",
                        help="where the library goes (default: $TVM_FFI_CACHE_DIR or ~/.cache/tvm-ffi)")
    parser.add_argument("--build-with-cuda", action="store_true",
                        help="publish PyTorch's current CUDA stream as the work stream")
    parser.add_argument("--build-with-rocm", action="store_true",
                        help="publish PyTorch's current HIP stream as the work stream")
    parser.add_argument("--libname", default="auto",
                        help="file name of the library; 'auto' names it after the PyTorch "
                             "version and device, libtorch_c_dlpack_addon_torch<MAJOR><MINOR>-<device>.so")
    args = parser.parse_args(argv)
    if args.build_with_cuda and args.build_with_rocm:
        parser.error("--build-with-cuda and --build-with-rocm exclude each other")
    return args


def _device(args: argparse.Namespace) -> str:
    return "cuda" if args.build_with_cuda else "rocm" if args.build_with_rocm else "cpu"


def default_libname(torch: Any, device: str) -> str:
    """``libtorch_c_dlpack_addon_torch<MAJOR><MINOR>-<device>.so`` for the installed PyTorch."""
    major, minor = torch.__version__.split(".")[:2]
    return f"libtorch_c_dlpack_addon_torch{major}{minor}-{device}.so"


def _cxx_standard(torch: Any) -> str:
    # PyTorch 2.13's public headers use C++20 constructs; older releases build with C++17.
    from torch.torch_version import TorchVersion  # noqa: PLC0415

    return "c++20" if TorchVersion(torch.__version__) >= TorchVersion("2.13.0") else "c++17"


def _torch_include_paths(torch: Any, gpu: bool) -> list[str]:
    from torch.torch_version import TorchVersion  # noqa: PLC0415
    from torch.utils import cpp_extension  # noqa: PLC0415

    include_paths: Any = cpp_extension.include_paths  # its keyword changed in PyTorch 2.6
    if TorchVersion(torch.__version__) >= TorchVersion("2.6.0"):
        return list(include_paths(device_type="cuda" if gpu else "cpu"))
    return list(include_paths(cuda=gpu))


def compile_command(torch: Any, device: str, output: Path) -> list[str]:
    """The one compile-and-link command that builds the addon into ``output``."""
    from torch.utils import cpp_extension  # noqa: PLC0415

    from tvm_ffi import libinfo  # noqa: PLC0415

    abi = int(torch.compiled_with_cxx11_abi())
    cflags = [f"-std={_cxx_standard(torch)}", "-O2", "-fPIC", "-fvisibility=hidden",
              f"-D_GLIBCXX_USE_CXX11_ABI={abi}"]
    if device == "cuda":
        cflags.append("-DBUILD_WITH_CUDA")
    elif device == "rocm":
        cflags += [*cpp_extension.COMMON_HIP_FLAGS, "-DBUILD_WITH_ROCM"]
    # Our dlpack.h first: ATen's copy shares its include guard and is then skipped.
    includes = [libinfo.find_dlpack_include_path(), sysconfig.get_paths()["include"],
                *_torch_include_paths(torch, device != "cpu")]
    ldflags = ["-shared"]
    for lib_dir in cpp_extension.library_paths():
        ldflags += [f"-L{lib_dir}", f"-Wl,-rpath,{lib_dir}"]
    ldflags += ["-lc10", "-ltorch", "-ltorch_cpu", "-ltorch_python"]
    if device == "cuda":
        ldflags += ["-ltorch_cuda", "-lc10_cuda"]
    elif device == "rocm":
        ldflags += ["-ltorch_hip", "-lc10_hip"]
    cflags += shlex.split(os.environ.get("TVM_FFI_JIT_EXTRA_CFLAGS", ""))
    ldflags += shlex.split(os.environ.get("TVM_FFI_JIT_EXTRA_LDFLAGS", ""))
    cxx = shlex.split(os.environ.get("CXX") or "c++")
    return [*cxx, *cflags, *(f"-I{path}" for path in includes), str(SOURCE), *ldflags,
            "-o", str(output)]


def build(output_dir: Path, libname: str, device: str, build_dir: Path | None = None) -> Path:
    """Build ``output_dir/libname`` unless it exists; returns its path. Safe to run concurrently."""
    import torch  # noqa: PLC0415

    from tvm_ffi.utils.lockfile import FileLock  # noqa: PLC0415

    output_dir.mkdir(parents=True, exist_ok=True)
    target = output_dir / libname
    with FileLock(str(output_dir / f"{libname}.lock")):
        if target.exists():
            return target
        scratch = Path(tempfile.mkdtemp(prefix="tvm-ffi-torch-c-dlpack-", dir=build_dir))
        try:
            partial = scratch / f"{libname}.tmp"
            done = subprocess.run(compile_command(torch, device, partial), capture_output=True,
                                  text=True, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"building the PyTorch DLPack addon failed "
                                   f"(exit {done.returncode}):\n{done.stdout}{done.stderr}")
            # Same file system as the target: a rename is atomic, so no reader sees half a file.
            staged = output_dir / f".{libname}.{os.getpid()}.tmp"
            shutil.copy(partial, staged)
            os.replace(staged, target)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    return target


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    # The addon is being built: tvm_ffi must not try to load (or build) it while importing.
    os.environ["TVM_FFI_DISABLE_TORCH_C_DLPACK"] = "1"
    args = _parse_args(argv)
    import torch  # noqa: PLC0415

    device = _device(args)
    libname = default_libname(torch, device) if args.libname == "auto" else args.libname
    build_dir = None
    if args.build_dir is not None:
        build_dir = Path(args.build_dir).expanduser().resolve()
        build_dir.mkdir(parents=True, exist_ok=True)
    try:
        build(Path(args.output_dir).expanduser(), libname, device, build_dir)
    except RuntimeError as err:
        print(err, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
