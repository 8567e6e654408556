"""The PyTorch DLPack exchange addon: built by ``utils/_build_optional_torch_c_dlpack.py`` and
loaded for PyTorch releases without their own ``__dlpack_c_exchange_api__`` table.

The installed PyTorch has its own table, so the addon's is checked against it: the same calls
with the one table and then the other must give the same results and the same refusals. A
PyTorch without a table is simulated by deleting the attribute (in a subprocess).
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (registers testing.echo)
from test_tensor import ENV_KERNELS_SOURCE, _c_kernels
from tvm_ffi import _optional_torch_c_dlpack as loader
from tvm_ffi.utils import _build_optional_torch_c_dlpack as builder

torch = pytest.importorskip("torch")

BUILD_SCRIPT = Path(tvm_ffi.__file__).parent / "utils" / "_build_optional_torch_c_dlpack.py"
LIBNAME = "libtorch_c_dlpack_addon_test.so"
echo = tvm_ffi.get_global_func("testing.echo")


@pytest.fixture(scope="module")
def addon_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three concurrent builds of one library: the lock lets one compile, the others find it."""
    out = tmp_path_factory.mktemp("addon")
    command = [sys.executable, str(BUILD_SCRIPT), "--output-dir", str(out), "--libname", LIBNAME]
    builds = [subprocess.Popen(command, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    for build in builds:
        _, err = build.communicate(timeout=600)
        assert build.returncode == 0, err
    return out


@pytest.fixture(scope="module")
def addon_table(addon_dir: Path) -> Any:
    """The addon's exchange table, as the capsule published on torch.Tensor."""
    lib = ctypes.CDLL(str(addon_dir / LIBNAME))
    lib.TorchDLPackExchangeAPIPtr.restype = ctypes.c_int64
    address = lib.TorchDLPackExchangeAPIPtr()
    assert address != 0
    return loader._create_dlpack_exchange_api_capsule(address)


@pytest.fixture(scope="module")
def env_kernels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    yield from _c_kernels(tmp_path_factory, "addon_env_kernels", ENV_KERNELS_SOURCE,
                          ["alloc_like", "env_allocator", "env_stream"])


def test_concurrent_builds_leave_one_complete_library(addon_dir: Path) -> None:
    assert sorted(p.name for p in addon_dir.iterdir()) == [LIBNAME, f"{LIBNAME}.lock"]


def test_the_default_name_follows_the_torch_version() -> None:
    major, minor = torch.__version__.split(".")[:2]
    assert builder.default_libname(torch, "cpu") == f"libtorch_c_dlpack_addon_torch{major}{minor}-cpu.so"
    cached = loader._addon_libname(torch, "cpu")  # the loader's cache name adds an ABI tag
    assert cached.startswith(f"libtorch_c_dlpack_addon_torch{major}{minor}-cpu-") and cached.endswith(".so")


def _cases() -> Iterator[tuple[str, Any]]:
    yield "float32", torch.arange(6, dtype=torch.float32)
    yield "strided", torch.arange(12.0).reshape(3, 4)[:, ::2]
    yield "offset", torch.arange(10.0)[3:]
    yield "0-d", torch.tensor(3.5)
    yield "empty", torch.empty(0, 3)
    yield "bool", torch.tensor([True, False])
    yield "complex64", torch.tensor([1 + 2j])
    yield "bfloat16", torch.ones(2, dtype=torch.bfloat16)
    yield "float8", torch.ones(2).to(torch.float8_e4m3fn)
    yield "uint16", torch.ones(2, dtype=torch.uint16)
    yield "requires_grad", torch.ones(3, requires_grad=True)
    yield "expanded", torch.ones(1, 3).expand(4, 3)
    yield "meta", torch.empty(2, device="meta")
    yield "sparse", torch.eye(2).to_sparse()


def _outcomes(tensor: Any) -> list[tuple[Any, ...]]:
    """What echo, from_dlpack and a list argument make of `tensor` (or the exception type)."""
    seen: list[tuple[Any, ...]] = []
    for use in (echo, tvm_ffi.from_dlpack, lambda t: echo([t])[0]):
        try:
            r = use(tensor)
        except Exception as err:  # noqa: BLE001 - the refusal itself is compared
            seen.append((type(err).__name__,))
            continue
        shares = tensor.layout == torch.strided and tensor.device.type != "meta"
        same_memory = r.data_ptr() == tensor.data_ptr() if shares else None
        if isinstance(r, torch.Tensor):
            seen.append(("torch", r.dtype, tuple(r.shape), r.stride(), same_memory))
        else:
            seen.append(("ffi", repr(r), tuple(r.shape), tuple(r.strides), same_memory))
    return seen


@pytest.mark.parametrize(("name", "tensor"), list(_cases()), ids=[n for n, _ in _cases()])
def test_the_addon_table_converts_like_torch_own(name: str, tensor: Any, addon_table: Any,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    if not hasattr(torch.Tensor, "__dlpack_c_exchange_api__"):
        pytest.skip("this torch has no table of its own to compare with")
    own = _outcomes(tensor)
    monkeypatch.setattr(torch.Tensor, "__dlpack_c_exchange_api__", addon_table, raising=False)
    assert _outcomes(tensor) == own


def test_the_addon_allocates_torch_tensors_for_kernels(addon_table: Any, env_kernels: Any,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.Tensor, "__dlpack_c_exchange_api__", addon_table, raising=False)
    x = torch.ones(4, 2, dtype=torch.float64)
    y = env_kernels.alloc_like(x)
    assert type(y) is torch.Tensor and y.shape == (4, 2) and y.dtype == torch.float64
    assert y.stride() == (2, 1)
    y.fill_(3.0)
    assert float(y.sum()) == 24.0
    assert env_kernels.env_stream(x) == 0  # a CPU build names no stream


def test_a_result_tensor_outlives_the_call(addon_table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.Tensor, "__dlpack_c_exchange_api__", addon_table, raising=False)
    source = tvm_ffi.from_dlpack(torch.arange(5, dtype=torch.int32))
    pair = echo([source, torch.zeros(1)])  # a torch tensor in the call: results come back as torch
    as_torch = pair[0]  # made by the addon's managed_tensor_to_py_object_no_sync
    assert type(as_torch) is torch.Tensor
    del source, pair
    assert as_torch.tolist() == [0, 1, 2, 3, 4]


class _Device(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _Device), ("ndim", ctypes.c_int32),
                ("dtype", _DataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _Versioned(ctypes.Structure):
    pass


_Deleter = ctypes.CFUNCTYPE(None, ctypes.POINTER(_Versioned))
_Versioned._fields_ = [("version", ctypes.c_uint32 * 2), ("manager_ctx", ctypes.c_void_p),
                       ("deleter", _Deleter), ("flags", ctypes.c_uint64), ("dl_tensor", _DLTensor)]


def test_to_py_object_honours_byte_offset_and_frees_once(addon_table: Any) -> None:
    """A producer's byte_offset (which ATen's legacy import ignores before 2.13) is applied."""
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    table = get(addon_table, b"dlpack_exchange_api")
    to_py = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.POINTER(_Versioned), ctypes.POINTER(ctypes.py_object))(
        ctypes.c_void_p.from_address(table + 32).value)  # managed_tensor_to_py_object_no_sync
    data = (ctypes.c_float * 8)(*range(8))
    shape = (ctypes.c_int64 * 1)(4)
    freed: list[int] = []
    deleter = _Deleter(lambda _: freed.append(1))
    managed = _Versioned(deleter=deleter)
    managed.version[0] = 1
    managed.dl_tensor = _DLTensor(ctypes.addressof(data), _Device(1, 0), 1, _DataType(2, 32, 1),
                                  shape, None, 8)  # two floats in
    out = ctypes.py_object()
    assert to_py(ctypes.byref(managed), ctypes.byref(out)) == 0
    result = out.value
    ctypes.pythonapi.Py_DecRef.argtypes = [ctypes.py_object]
    ctypes.pythonapi.Py_DecRef(result)  # the new reference the table wrote into `out`
    assert result.tolist() == [2.0, 3.0, 4.0, 5.0]
    assert freed == []
    del result, out
    assert freed == [1]


def _run_without_torch_table(code: str, cache: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Runs `code` after deleting torch's own table, as on PyTorch before 2.10."""
    prelude = ("import torch\nif hasattr(torch.Tensor, '__dlpack_c_exchange_api__'):\n"
               "    del torch.Tensor.__dlpack_c_exchange_api__\nimport tvm_ffi\n")
    full_env = {**os.environ, "TVM_FFI_CACHE_DIR": str(cache), **env}
    full_env.pop("TVM_FFI_DISABLE_TORCH_C_DLPACK", None)
    full_env.update(env)
    return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], env=full_env,
                          capture_output=True, text=True, timeout=600, check=False)


def _cache_with_addon(addon_dir: Path, tmp_path: Path) -> Path:
    """A cache directory holding the built addon under the name the loader looks for."""
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / loader._addon_libname(torch, "cpu")).write_bytes((addon_dir / LIBNAME).read_bytes())
    return cache


def test_the_first_torch_call_loads_the_cached_addon(addon_dir: Path, tmp_path: Path) -> None:
    done = _run_without_torch_table("""
        import ctypes
        from tvm_ffi import _optional_torch_c_dlpack as loader
        x = torch.arange(4)
        assert not hasattr(torch.Tensor, "__dlpack_c_exchange_api__")
        y = tvm_ffi.get_global_func("testing.echo")(x)  # the first call meets torch.Tensor
        assert type(y) is torch.Tensor and y.data_ptr() == x.data_ptr()
        get = ctypes.pythonapi.PyCapsule_GetPointer
        get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
        published = get(torch.Tensor.__dlpack_c_exchange_api__, b"dlpack_exchange_api")
        assert published == loader._LIB.TorchDLPackExchangeAPIPtr()
        print("ok")
    """, _cache_with_addon(addon_dir, tmp_path))
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_loading_can_be_turned_off(tmp_path: Path) -> None:
    done = _run_without_torch_table("""
        y = tvm_ffi.get_global_func("testing.echo")(torch.arange(3))  # through __dlpack__
        assert isinstance(y, tvm_ffi.Tensor)  # no table: results are FFI tensors
        assert not hasattr(torch.Tensor, "__dlpack_c_exchange_api__")
        print("ok")
    """, tmp_path, TVM_FFI_DISABLE_TORCH_C_DLPACK="1")
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
    assert list(tmp_path.iterdir()) == []  # nothing was built


def test_a_failed_build_is_a_warning_and_calls_still_work(tmp_path: Path) -> None:
    done = _run_without_torch_table("""
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = tvm_ffi.get_global_func("testing.echo")(torch.arange(3))
        assert y.shape == (3,)
        assert any("could not build the PyTorch DLPack exchange addon" in str(w.message)
                   for w in caught), [str(w.message) for w in caught]
        print("ok")
    """, tmp_path, CXX="false")  # a compiler that always fails
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_build_script_rejects_two_gpu_backends() -> None:
    done = subprocess.run([sys.executable, str(BUILD_SCRIPT), "--build-with-cuda", "--build-with-rocm"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "exclude each other" in done.stderr


def test_extension_device_follows_the_toolkit() -> None:
    from types import SimpleNamespace

    def fake(gpu: bool, **version: Any) -> Any:
        return SimpleNamespace(cuda=SimpleNamespace(is_available=lambda: gpu),
                               version=SimpleNamespace(**version))

    assert loader._torch_extension_device(fake(False)) == "cpu"
    assert loader._torch_extension_device(fake(True, cuda="12.8", hip=None)) == "cuda"
    assert loader._torch_extension_device(fake(True, cuda=None, hip="7.2")) == "rocm"
    with pytest.raises(ValueError, match="Cannot determine whether to build with CUDA or ROCm"):
        loader._torch_extension_device(fake(True))


def test_stream_protocol_patch_is_a_no_op_without_cuda() -> None:
    if torch.cuda.is_available():
        pytest.skip("checks the CPU-only case")
    before = vars(torch.cuda.Stream).get("__cuda_stream__")
    loader.patch_torch_cuda_stream_protocol()
    assert vars(torch.cuda.Stream).get("__cuda_stream__") is before
