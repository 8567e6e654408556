"""tvm_ffi.Shape: a tuple of ints backed by the runtime's shape object."""

from __future__ import annotations

import pickle

import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401


def test_shape_is_a_tuple_of_ints() -> None:
    s = tvm_ffi.Shape((2, 3))
    assert isinstance(s, tuple) and s == (2, 3) and s[0] == 2 and len(s) == 2
    assert repr(s) == "Shape((2, 3))"
    assert tvm_ffi.Shape() == ()
    assert tvm_ffi.Shape(range(3)) == (0, 1, 2)


def test_shape_rejects_non_int_dimensions() -> None:
    with pytest.raises(TypeError, match="#1 must be an int, got float"):
        tvm_ffi.Shape((2, 3.5))
    with pytest.raises(TypeError, match="#0 must be an int, got bool"):
        tvm_ffi.Shape((True,))


def test_shape_passes_as_the_runtime_shape_object() -> None:
    s = tvm_ffi.Shape((4, 5))
    make_array = tvm_ffi.get_global_func("ffi.Array")
    held = make_array(s)[0]
    assert isinstance(held, tvm_ffi.Shape) and held == (4, 5)
    assert make_array(held)[0] == (4, 5)  # and passes back as the same runtime object
    assert tvm_ffi.get_global_func("ffi.Shape")(7, 8) == tvm_ffi.Shape((7, 8))


def test_shape_pickles_by_value() -> None:
    s = tvm_ffi.Shape((1, 2, 3))
    copy = pickle.loads(pickle.dumps(s))
    assert isinstance(copy, tvm_ffi.Shape) and copy == s
