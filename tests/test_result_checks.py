"""Results a kernel should never return are refused with an exception, never a crash: borrowed
C strings and byte arrays (their memory belongs to the callee's frame), and objects whose type
index is unregistered or disagrees with the index their Any carries."""

from __future__ import annotations

from typing import Any

import pytest
import tvm_ffi  # noqa: F401
from _hostile_kernel import load_hostile_kernel
from leakcheck import no_ffi_leaks  # noqa: F401

OBJECT_INDEX = 64  # kTVMFFIStaticObjectBegin: ffi.Object
UNREGISTERED = 99_999


@pytest.fixture(scope="module")
def mod(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load_hostile_kernel(tmp_path_factory.mktemp("hostile"))


@pytest.mark.parametrize("null", [False, True])
def test_raw_string_results_are_refused(mod: Any, null: bool) -> None:
    with pytest.raises(ValueError, match="Return value cannot be RawStr"):
        mod.return_view(0, null)


@pytest.mark.parametrize("null", [False, True])
def test_byte_array_pointer_results_are_refused(mod: Any, null: bool) -> None:
    with pytest.raises(ValueError, match="Return value cannot be ByteArrayPtr"):
        mod.return_view(1, null)


def test_object_of_an_unregistered_type_index(mod: Any) -> None:
    with pytest.raises(TypeError, match=f"unregistered type index {UNREGISTERED}"):
        mod.lying_object(UNREGISTERED, UNREGISTERED)
    assert mod.live_blobs() == 0  # the refused object was released


@pytest.mark.parametrize(("any_index", "header_index"), [(OBJECT_INDEX, UNREGISTERED), (UNREGISTERED, OBJECT_INDEX),
                                                         (OBJECT_INDEX, 2**31 - 1)])
def test_object_whose_header_disagrees_with_its_any(mod: Any, any_index: int, header_index: int) -> None:
    with pytest.raises(TypeError, match=f"type index {any_index} but the object's header says {header_index}"):
        mod.lying_object(any_index, header_index)
    assert mod.live_blobs() == 0


def test_honest_objects_still_pass(mod: Any) -> None:
    obj = mod.lying_object(OBJECT_INDEX, OBJECT_INDEX)
    assert isinstance(obj, tvm_ffi.Object) and obj.type_key == "ffi.Object"
    del obj
    assert mod.live_blobs() == 0
