"""Temporaries and objects released while a Python exception is pending: their deleters may run
Python code (a DLPack producer written with ctypes), which must neither see nor clobber the
pending exception. A failing call then raises its real error and frees every temporary."""

from __future__ import annotations

from typing import Any

import pytest
import tvm_ffi
from _kernel_lib import build_kernel, load_kernel
from leakcheck import no_ffi_leaks  # noqa: F401
from test_tensor import VersionedProducer
from test_tensor_lifetime import OwningLegacy


@pytest.fixture(scope="module")
def mod(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_kernel(build_kernel(tmp_path_factory.mktemp("kernel")))


@pytest.mark.parametrize("versioned", [True, False])
def test_failed_call_frees_python_deleted_tensors_and_keeps_its_error(mod: Any, versioned: bool) -> None:
    producers = [VersionedProducer([1.0, 2.0], versioned=True) if versioned else OwningLegacy([1.0], versioned=False)
                 for _ in range(200)]
    for producer in producers:
        with pytest.raises(TypeError, match="add_one expects one int"):
            mod.add_one(producer)  # the kernel fails; the tensor temporary is released after it
    assert sum(p.deleted for p in producers) == 200


def test_conversion_error_after_a_tensor_argument_frees_it() -> None:
    echo = tvm_ffi.get_global_func("testing.echo")
    producer = VersionedProducer([1.0], versioned=True)

    class Unconvertible:
        def __tvm_ffi_int__(self) -> int:
            raise ArithmeticError("no int today")

    with pytest.raises(ArithmeticError, match="no int today"):
        echo(producer, Unconvertible())
    assert producer.deleted == 1


def test_object_released_while_its_frame_unwinds_with_an_exception() -> None:
    producer = VersionedProducer([1.0], versioned=True)

    def fails_holding_a_tensor() -> None:
        tensor = tvm_ffi.from_dlpack(producer)  # noqa: F841  (released as the frame unwinds)
        raise KeyError("pending")

    for _ in range(50):
        with pytest.raises(KeyError, match="pending"):
            fails_holding_a_tensor()
    assert producer.deleted == 50
