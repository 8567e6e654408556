"""Optional faster DLPack exchange for PyTorch tensors.

PyTorch 2.10 and newer publish a C table of DLPack conversions (``DLPackExchangeAPI``) on
``torch.Tensor`` as ``__dlpack_c_exchange_api__``; calls read it and convert torch arguments
without Python's ``__dlpack__``. For older releases, :func:`load_torch_c_dlpack_extension` gets
such a table, in this order:

1. from the ``torch-c-dlpack-ext`` package, if installed (it publishes the table under the older
   name ``__c_dlpack_exchange_api__``, which is mirrored under the current one);
2. from our addon (``utils/torch_c_dlpack_addon.cc``), compiled once per PyTorch build into
   ``$TVM_FFI_CACHE_DIR`` (default ``~/.cache/tvm-ffi``) and loaded from there afterwards.

The first compile takes half a minute. It happens when ``tvm_ffi`` is imported after ``torch``,
or on the first call that sees a torch tensor; ``TVM_FFI_DISABLE_TORCH_C_DLPACK=1`` turns it off.
Without a table, torch tensors travel through ``__dlpack__`` as every other framework's do.
"""

from __future__ import annotations

import ctypes
import importlib
import os
import sys
import warnings
from pathlib import Path
from typing import Any

__all__ = ["load_torch_c_dlpack_extension", "patch_torch_cuda_stream_protocol"]

# The package imports this module (as the reference does), so what only the addon build needs
# (hashlib, logging, subprocess: ~15 ms together) is imported inside the functions that build.

_CAPSULE_NAME = b"dlpack_exchange_api"
_DISABLE_ENV = "TVM_FFI_DISABLE_TORCH_C_DLPACK"

_LIB: ctypes.CDLL | None = None
"""The loaded addon, kept so that the table it published stays mapped."""


def _capsule_of_address(address: int) -> Any:
    """A PyCapsule named ``dlpack_exchange_api`` holding ``address`` (no destructor)."""
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new_capsule(ctypes.c_void_p(address), _CAPSULE_NAME, None)


_create_dlpack_exchange_api_capsule = _capsule_of_address  # the reference package's name


def _publish_current_name(tensor_cls: type) -> bool:
    """Tell whether ``tensor_cls`` publishes an exchange table, copying the older name to the new."""
    if hasattr(tensor_cls, "__dlpack_c_exchange_api__"):
        return True
    legacy = getattr(tensor_cls, "__c_dlpack_exchange_api__", None)
    if legacy is None:
        return False
    table = _capsule_of_address(legacy) if isinstance(legacy, int) else legacy
    tensor_cls.__dlpack_c_exchange_api__ = table  # type: ignore[attr-defined]
    return True


_check_and_update_dlpack_c_exchange_api = _publish_current_name  # the reference package's name


def _torch_extension_device(torch_module: Any) -> str:
    """The backend the addon is built for: ``"cpu"``, ``"cuda"`` or ``"rocm"``.

    A GPU PyTorch names its toolkit in ``torch.version.cuda`` or ``torch.version.hip``; a
    PyTorch that sees a GPU but says neither cannot be built for.
    """
    if not torch_module.cuda.is_available():
        return "cpu"
    version = torch_module.version
    if getattr(version, "cuda", None) is not None:
        return "cuda"
    if getattr(version, "hip", None) is not None:
        return "rocm"
    raise ValueError("Cannot determine whether to build with CUDA or ROCm: torch sees a GPU but "
                     "torch.version names neither toolkit")


def _addon_libname(torch: Any, device: str) -> str:
    """The cached library's name: it changes with anything that changes PyTorch's C++ ABI."""
    major, minor = torch.__version__.split(".")[:2]
    import hashlib  # noqa: PLC0415 (see the imports above)

    identity = f"{torch.__version__}|cxx11abi={int(torch.compiled_with_cxx11_abi())}"
    tag = hashlib.sha256(identity.encode()).hexdigest()[:8]
    return f"libtorch_c_dlpack_addon_torch{major}{minor}-{device}-{tag}.so"


def _build_addon(torch: Any) -> Path:
    """The addon library for this PyTorch, compiled into the cache first if missing."""
    cache = Path(os.environ.get("TVM_FFI_CACHE_DIR") or "~/.cache/tvm-ffi").expanduser()
    device = _torch_extension_device(torch)
    path = cache / _addon_libname(torch, device)
    if path.exists():
        return path
    import logging  # noqa: PLC0415 (see the imports above)
    import subprocess  # noqa: PLC0415

    logging.getLogger(__name__).info("compiling the PyTorch DLPack exchange addon into %s", path)
    script = Path(__file__).parent / "utils" / "_build_optional_torch_c_dlpack.py"
    command = [sys.executable, str(script), "--output-dir", str(cache), "--libname", path.name]
    if device != "cpu":
        command.append(f"--build-with-{device}")
    # A separate process: the build imports tvm_ffi and torch afresh, with loading turned off.
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not path.exists():
        raise RuntimeError(f"exit {done.returncode}:\n{done.stdout}{done.stderr}")
    return path


def _load_addon(torch: Any) -> ctypes.CDLL:
    """Loads (building if needed) the addon and publishes its table on ``torch.Tensor``."""
    lib = ctypes.CDLL(str(_build_addon(torch)))
    table_address = lib.TorchDLPackExchangeAPIPtr
    table_address.restype = ctypes.c_int64
    table_address.argtypes = []
    torch.Tensor.__dlpack_c_exchange_api__ = _capsule_of_address(table_address())
    return lib


def load_torch_c_dlpack_extension() -> Any:
    """Make sure ``torch.Tensor`` publishes a C DLPack exchange table, when it can.

    Imports ``torch`` (the caller asks for it). When the tensor class has no table, takes one
    from the ``torch-c-dlpack-ext`` package if installed, else from our addon, compiled once
    into the cache (unless ``TVM_FFI_DISABLE_TORCH_C_DLPACK=1``). A failed build is a warning:
    torch tensors then travel through ``__dlpack__``.

    Returns
    -------
    ctypes.CDLL or None
        The addon library when this call loaded it; None otherwise (PyTorch's own table, the
        package's, no torch, or a failure).

    Examples
    --------
    >>> from tvm_ffi._optional_torch_c_dlpack import load_torch_c_dlpack_extension
    >>> load_torch_c_dlpack_extension()  # doctest: +SKIP
    """
    global _LIB
    try:
        import torch  # noqa: PLC0415
    except ImportError:
        return None
    if _publish_current_name(torch.Tensor):
        return None
    try:
        importlib.import_module("torch_c_dlpack_ext")
    except (ImportError, AttributeError):  # not installed, or built for another PyTorch
        pass
    if _publish_current_name(torch.Tensor) or os.environ.get(_DISABLE_ENV, "0") != "0":
        return None
    try:
        _LIB = _load_addon(torch)
    except Exception as err:  # noqa: BLE001 - a slower path remains; say why and go on
        warnings.warn(f"could not build the PyTorch DLPack exchange addon, so torch tensors go "
                      f"through __dlpack__ (install torch-c-dlpack-ext to avoid the build): {err}",
                      RuntimeWarning, stacklevel=2)
        return None
    return _LIB


def patch_torch_cuda_stream_protocol() -> None:
    """Give ``torch.cuda.Stream`` a ``__cuda_stream__`` where PyTorch lacks one (older releases).

    The protocol returns ``(0, stream address)``, so a torch stream passes as a stream argument.
    Nothing happens without torch or without CUDA.
    """
    try:
        import torch  # noqa: PLC0415
    except ImportError:
        return
    if not torch.cuda.is_available() or hasattr(torch.cuda.Stream, "__cuda_stream__"):
        return

    def __cuda_stream__(self: Any) -> tuple[int, int]:
        return (0, self.cuda_stream)

    setattr(torch.cuda.Stream, "__cuda_stream__", __cuda_stream__)  # noqa: B010 - a method, added late


def _on_first_torch_tensor() -> None:
    """Called once by the call path when it first meets a torch tensor class without a table."""
    if os.environ.get(_DISABLE_ENV, "0") == "0":
        load_torch_c_dlpack_extension()
