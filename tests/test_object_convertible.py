"""ObjectConvertible: a Python wrapper passed where an FFI object is expected."""

from __future__ import annotations

import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401


class Wrapper(tvm_ffi.ObjectConvertible):
    def __init__(self, obj: tvm_ffi.Object) -> None:
        self.obj = obj

    def asobject(self) -> tvm_ffi.Object:
        return self.obj


def test_wrapper_passes_its_object() -> None:
    arr = tvm_ffi.Array([1, 2])
    echoed = tvm_ffi.get_global_func("ffi.Array")(Wrapper(arr))
    assert echoed[0].same_as(arr)


def test_missing_asobject_is_a_clear_error() -> None:
    class Broken(tvm_ffi.ObjectConvertible):
        pass

    with pytest.raises(NotImplementedError, match="Broken must implement asobject"):
        tvm_ffi.get_global_func("ffi.Array")(Broken())
