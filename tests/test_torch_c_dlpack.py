"""``tvm_ffi._optional_torch_c_dlpack``, and the older name under which PyTorch's addon publishes
its DLPack exchange table (``__c_dlpack_exchange_api__``), which calls read as well."""

from __future__ import annotations

import ctypes
import sys
from typing import Any

import pytest
import tvm_ffi
from tvm_ffi._optional_torch_c_dlpack import _publish_current_name, load_torch_c_dlpack_extension
from tvm_ffi.core import DLTensorTestWrapper

_ECHO = tvm_ffi.get_global_func("testing.echo")


def _address_of(capsule: Any) -> int:
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return int(get_pointer(capsule, b"dlpack_exchange_api"))


def test_a_table_under_the_older_name_is_read() -> None:
    class Legacy:
        __c_dlpack_exchange_api__ = "not a table"

        def __dlpack__(self, **kwargs: Any) -> Any:
            raise AssertionError("the exchange table is read first")

    with pytest.raises(TypeError, match=r"`Legacy.__c_dlpack_exchange_api__` must be a PyCapsule or an int "
                                        r"address, got `str`"):
        _ECHO(Legacy())


def test_an_older_address_is_republished_as_a_capsule() -> None:
    address = _address_of(DLTensorTestWrapper.__dlpack_c_exchange_api__)

    class Legacy:
        __c_dlpack_exchange_api__ = address

    class Plain:
        pass

    assert _publish_current_name(Legacy)
    assert _address_of(Legacy.__dlpack_c_exchange_api__) == address  # type: ignore[attr-defined]
    assert not _publish_current_name(Plain) and not hasattr(Plain, "__dlpack_c_exchange_api__")


def test_load_is_a_no_op_without_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` raises ImportError
    assert load_torch_c_dlpack_extension() is None


def test_load_leaves_torch_publishing_its_table() -> None:
    torch = pytest.importorskip("torch")
    if not hasattr(torch.Tensor, "__dlpack_c_exchange_api__"):
        pytest.skip("a torch before 2.10: loading builds the addon (test_torch_c_dlpack_addon.py)")
    assert load_torch_c_dlpack_extension() is None
    if hasattr(torch.Tensor, "__dlpack_c_exchange_api__"):
        x = torch.arange(3)
        assert _ECHO(x).data_ptr() == x.data_ptr()


def test_the_module_comes_with_the_package_without_its_build_imports() -> None:
    import subprocess

    # Imported with the package, as in the reference, but what only the addon build needs
    # (subprocess, hashlib, logging) is not paid for by `import tvm_ffi`.
    code = ("import sys, tvm_ffi\n"
            "print('tvm_ffi._optional_torch_c_dlpack' in sys.modules)\n"
            "print(tvm_ffi._optional_torch_c_dlpack.load_torch_c_dlpack_extension.__name__)\n"
            "print([m for m in ('subprocess', 'hashlib', 'logging') if m in sys.modules])\n"
            "try:\n    tvm_ffi.no_such_name\nexcept AttributeError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["True", "load_torch_c_dlpack_extension", "[]",
                                "module 'tvm_ffi' has no attribute 'no_such_name'"]


def test_package_attribute_reads_stay_specialisable() -> None:
    # CPython specialises `module.name` reads only on modules without a module-level
    # __getattr__; with one, `tvm_ffi.from_dlpack` and the containers' `_ffi_api.<Name>` calls
    # paid ~15 ns more each.
    import tvm_ffi._ffi_api

    assert "__getattr__" not in vars(tvm_ffi)
    assert "__getattr__" not in vars(tvm_ffi._ffi_api)
