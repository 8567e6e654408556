"""Containers returned by calls that took torch tensors hand out torch tensors.

A kernel called with torch tensors may return them inside an Array, List, Map or Dict. Those
containers stay FFI containers (they can be passed back as they are), but reading a tensor
element, at any depth, gives a ``torch.Tensor`` sharing memory with the input. Without a
framework argument the elements read back as ``tvm_ffi.Tensor``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import tvm_ffi
import tvm_ffi.testing
from leakcheck import no_ffi_leaks  # noqa: F401


@pytest.fixture
def torch() -> Any:
    torch = pytest.importorskip("torch")
    if not hasattr(torch.Tensor, "__dlpack_c_exchange_api__"):
        pytest.skip("this torch has no C exchange API")
    return torch


def echo(value: Any) -> Any:
    return tvm_ffi.get_global_func("testing.echo")(value)


def test_array_result_holds_torch_tensors(torch: Any) -> None:
    x = torch.arange(4, dtype=torch.float32)
    arr = tvm_ffi.testing.make_array_with_tensor(x)
    assert isinstance(arr, tvm_ffi.Array)
    (item,) = arr
    assert type(item) is torch.Tensor and item.data_ptr() == x.data_ptr()
    assert type(arr[0]) is torch.Tensor and type(arr[-1]) is torch.Tensor
    assert type(arr[0:1][0]) is torch.Tensor
    item[0] = 42.0  # shares memory with the input
    assert float(x[0]) == 42.0


def test_mixed_and_nested_arrays_convert_tensors_at_every_depth(torch: Any) -> None:
    x = torch.ones(3)
    mixed = tvm_ffi.testing.make_array_with_mixed(x, 7)
    assert type(mixed[0]) is torch.Tensor and mixed[1] == 7 and mixed[2] == "hello"
    nested = tvm_ffi.testing.make_nested_array_with_tensor(x)
    inner = nested[0]
    assert isinstance(inner, tvm_ffi.Array)
    assert type(inner[0]) is torch.Tensor and inner[1] == 42
    assert type(nested[1]) is torch.Tensor
    assert inner[0].data_ptr() == nested[1].data_ptr() == x.data_ptr()


def test_torch_tensors_inside_list_arguments_count_for_the_call(torch: Any) -> None:
    x = torch.zeros(2)
    arr = echo([x, [x, 1]])
    assert type(arr[0]) is torch.Tensor and type(arr[1][0]) is torch.Tensor
    assert arr[1][1] == 1


def test_map_result_holds_torch_tensors(torch: Any) -> None:
    x = torch.arange(3)
    m = echo({"t": x, "n": 5, "inner": {"u": x}})
    assert isinstance(m, tvm_ffi.Map)
    assert type(m["t"]) is torch.Tensor and m["t"].data_ptr() == x.data_ptr()
    assert m["n"] == 5
    assert type(m["inner"]["u"]) is torch.Tensor
    values = dict(m.items())
    assert type(values["t"]) is torch.Tensor and type(values["inner"]["u"]) is torch.Tensor
    assert [type(v) for v in m.values()][0] is torch.Tensor


def test_returned_container_passes_back_unchanged(torch: Any) -> None:
    x = torch.ones(2)
    arr = tvm_ffi.testing.make_array_with_tensor(x)
    again = echo(arr)
    assert isinstance(again, tvm_ffi.Array) and again.same_as(arr)
    assert type(arr[0]) is torch.Tensor


def test_without_a_framework_argument_elements_are_ffi_tensors() -> None:
    a = np.arange(4, dtype="float32")
    arr = tvm_ffi.testing.make_array_with_tensor(a)
    assert isinstance(arr[0], tvm_ffi.Tensor)
    assert arr[0].data_ptr() == a.ctypes.data
    m = echo({"t": a})
    assert isinstance(m["t"], tvm_ffi.Tensor)


def test_numpy_call_result_does_not_turn_torch(torch: Any) -> None:
    t = tvm_ffi.from_dlpack(torch.zeros(2))
    arr = tvm_ffi.testing.make_array_with_tensor(t)  # a tvm_ffi.Tensor argument: no framework
    assert isinstance(arr[0], tvm_ffi.Tensor)



def test_list_map_and_dict_fixtures_hand_out_torch_tensors(torch: Any) -> None:
    x = torch.arange(3, dtype=torch.int32)
    lst = tvm_ffi.testing.make_list_with_tensor(x, 7)
    assert isinstance(lst, tvm_ffi.List) and type(lst[0]) is torch.Tensor and lst[1] == 7
    m = tvm_ffi.testing.make_map_with_tensor(x)
    assert list(m) == ["tensor", "value", "name"]
    assert type(m["tensor"]) is torch.Tensor and m["value"] == 42 and m["name"] == "test"
    d = tvm_ffi.testing.make_dict_with_tensor(x)
    assert isinstance(d, tvm_ffi.Dict) and type(d["tensor"]) is torch.Tensor
    y = torch.ones(2)
    nested = tvm_ffi.testing.make_nested_map_with_tensor(x, y)
    assert [type(t) for t in nested["array"]] == [torch.Tensor, torch.Tensor]
    assert nested["array"][1].data_ptr() == y.data_ptr()
    assert type(nested["map"]["t"]) is torch.Tensor and nested["scalar"] == 99


def test_containers_keep_their_framework_through_round_trips(torch: Any) -> None:
    x = torch.arange(3, dtype=torch.float32)
    arr = tvm_ffi.testing.make_array_with_tensor(x)
    # passed back into calls, the container brings its framework along: results stay torch
    once, twice = echo(arr), echo(echo(arr))
    assert type(once[0]) is torch.Tensor and type(twice[0]) is torch.Tensor
    assert twice[0].data_ptr() == x.data_ptr()
    assert type(echo([arr])[0][0]) is torch.Tensor  # also when nested in a Python list
    mapping = tvm_ffi.testing.make_map_with_tensor(x)
    assert type(echo(mapping)["tensor"]) is torch.Tensor
    apply = tvm_ffi.get_global_func("testing.apply")
    assert type(apply(tvm_ffi.get_global_func("testing.echo"), arr)[0]) is torch.Tensor


def test_containers_without_a_framework_still_give_ffi_tensors(torch: Any) -> None:
    t = tvm_ffi.from_dlpack(torch.zeros(2))
    plain = tvm_ffi.Array([t])  # built by our constructor, not returned by a framework's call
    assert type(echo(plain)[0]) is tvm_ffi.Tensor and type(echo(echo(plain))[0]) is tvm_ffi.Tensor
    assert type(echo(tvm_ffi.convert([np.zeros(2, dtype="float32")]))[0]) is tvm_ffi.Tensor
