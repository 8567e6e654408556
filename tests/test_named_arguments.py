"""Arguments callers name: code written for the reference passes these by keyword, with the
reference's parameter names, and reads their signatures with ``inspect``."""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import tvm_ffi
import tvm_ffi.testing as t
from tvm_ffi import core
from tvm_ffi.dataclasses import EnumAttrMap


def test_identity_checks_name_the_other_object() -> None:
    arr = tvm_ffi.convert([1, 2])
    assert arr.same_as(other=arr) and arr.is_(other=arr)
    assert not arr.same_as(other=tvm_ffi.convert([1, 2]))
    with pytest.raises(TypeError, match="unexpected keyword argument 'x'"):
        arr.same_as(x=arr)
    with pytest.raises(TypeError, match="at most 1 positional"):
        arr.is_(arr, arr)


def test_tensor_size_names_its_dimension() -> None:
    tensor = tvm_ffi.from_dlpack(np.zeros((2, 3), dtype="float32"))
    assert (tensor.size(idx=1), tensor.size(0), tensor.size(idx=-1)) == (3, 2, 3)


def test_error_backtrace_update_names_the_text() -> None:
    err = tvm_ffi.convert(ValueError("bad"))
    err.update_backtrace(backtrace='  File "a.py", line 1, in f\n')
    assert err.backtrace == '  File "a.py", line 1, in f\n'


def test_bytes_names_its_value() -> None:
    assert core.Bytes(value=b"xy") == b"xy"
    assert str(inspect.signature(core.Bytes)) == "(value)"


def test_dtype_helpers_take_the_reference_parameter_names() -> None:
    assert tvm_ffi.dtype.from_dlpack_data_type(dltype_data_type=(2, 32, 1)) == "float32"
    assert tvm_ffi.dtype.is_dtype(arg="int8") and not tvm_ffi.dtype.is_dtype(arg="no-such")


def test_dict_update_takes_other_by_name() -> None:
    d = tvm_ffi.Dict({"a": 1})
    d.update(other={"b": 2})  # merges the mapping; no key called "other"
    d.update([("c", 3)], d=4)
    assert dict(d) == {"a": 1, "b": 2, "c": 3, "d": 4}


def test_enum_attribute_lookup_names_the_variant() -> None:
    attrs = EnumAttrMap(t._TestCxxIntEnum, "label")
    member = next(iter(t._TestCxxIntEnum))
    assert attrs.get(variant=member, default="none") == attrs.get(member, "none")


def test_reflected_methods_report_a_signature() -> None:
    assert str(inspect.signature(t.TestIntPair.sum)) == "(self, *args)"
    assert str(inspect.signature(t.TestIntPair(1, 2).sum)) == "(*args)"
