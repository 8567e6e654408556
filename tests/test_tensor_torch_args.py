"""Torch tensors passed directly to FFI functions: every shape and type reaches the kernel intact.

After the first torch tensor, later instances of the same type skip classification and go
straight through torch's C exchange API into a recycled view block. These tests pin what that
shortcut must keep: layouts beyond the recycled block's room, subclasses mixed with other
producers in one call, failures inside torch, and classes that die while remembered.
"""

from __future__ import annotations

import gc
from typing import Any

import numpy as np
import pytest
import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (registers testing.echo / testing.apply)
from leakcheck import live_objects, no_ffi_leaks  # noqa: F401

torch = pytest.importorskip("torch")
if not hasattr(torch.Tensor, "__dlpack_c_exchange_api__"):
    pytest.skip("this torch has no C exchange API", allow_module_level=True)

echo = tvm_ffi.get_global_func("testing.echo")
apply = tvm_ffi.get_global_func("testing.apply")


def assert_same_tensor(result: Any, expected: Any) -> None:
    """`result` (what a kernel saw, back as a torch tensor) describes exactly `expected`'s memory."""
    assert isinstance(result, torch.Tensor)
    assert tuple(result.shape) == tuple(expected.shape)
    assert result.stride() == expected.stride()
    assert result.dtype == expected.dtype
    assert result.data_ptr() == expected.data_ptr()


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.zeros(()),
        lambda: torch.arange(6.0),
        lambda: torch.arange(24.0).reshape(2, 3, 4)[:, ::2, 1:],
        lambda: torch.zeros(2, 3, 4, 5),
        lambda: torch.zeros(2, 3, 4, 5, 6).permute(4, 3, 2, 1, 0),  # more dims than a pooled block
        lambda: torch.zeros(1, 1, 1, 1, 1, 1, 1, 2, dtype=torch.int8),
        lambda: torch.ones(5, dtype=torch.bool)[::2],
        lambda: torch.arange(10, dtype=torch.int64)[3:],  # storage offset
    ],
)
def test_layouts_reach_the_kernel_unchanged(make: Any) -> None:
    x = make()
    for _ in range(3):  # the first call classifies torch.Tensor, the next ones take the shortcut
        assert_same_tensor(echo(x), x)


def test_high_rank_then_low_rank_tensors_reuse_blocks_correctly() -> None:
    big = torch.zeros(2, 2, 2, 2, 2, 2)
    small = torch.arange(3.0)
    for _ in range(5):
        assert_same_tensor(echo(big), big)
        assert_same_tensor(echo(small), small)


def test_subclasses_and_other_producers_mix_in_one_call() -> None:
    class Tagged(torch.Tensor):
        pass

    plain = torch.arange(4.0)
    param = torch.nn.Parameter(torch.ones(2, 2))
    tagged = torch.zeros(3).as_subclass(Tagged)
    array = np.arange(5, dtype=np.int32)
    ffi_tensor = tvm_ffi.from_dlpack(np.zeros(2))
    seen: list[tuple[tuple[int, ...], int]] = []

    def record(*tensors: Any) -> None:
        seen.extend((tuple(t.shape), t.data_ptr()) for t in tensors)

    values = [plain, param, tagged, array, ffi_tensor, plain, tagged]
    for _ in range(2):
        seen.clear()
        apply(record, *values)
        expected = [(tuple(v.shape), v.data_ptr() if hasattr(v, "data_ptr") else v.ctypes.data) for v in values]
        assert seen == expected


def test_a_tensor_torch_cannot_describe_raises_instead_of_crashing() -> None:
    dense = torch.zeros(2)
    echo(dense)  # torch.Tensor is now the remembered type
    sparse = torch.sparse_coo_tensor([[0]], [1.0], (2,), check_invariants=False)
    with pytest.raises(RuntimeError, match="storage"):
        echo(sparse)
    assert_same_tensor(echo(dense), dense)


def test_kernels_see_writes_through_the_shortcut(add_one_cpu: Any) -> None:
    x = torch.arange(4, dtype=torch.float32)
    y = torch.zeros(4)
    for _ in range(3):
        add_one_cpu(x, y)
        assert y.tolist() == (x + 1).tolist()
        x.mul_(2)


def test_a_class_made_where_a_dead_tensor_class_lived_is_not_a_tensor() -> None:
    # Each round remembers a fresh subclass, lets it die, then makes a plain class that CPython
    # may well put at the same address: its instances must still travel as opaque objects.
    for i in range(20):
        sub = type(f"Short{i}", (torch.Tensor,), {})
        x = torch.zeros(2).as_subclass(sub)
        assert_same_tensor(echo(x), x)
        del x, sub
        gc.collect()
        plain = type(f"Plain{i}", (), {})
        obj = plain()
        assert echo(obj) is obj


def test_a_class_changed_after_use_still_converts() -> None:
    class Mutable(torch.Tensor):
        pass

    x = torch.arange(3.0).as_subclass(Mutable)
    assert_same_tensor(echo(x), x)
    Mutable.note = "changed"  # invalidates the type's version tag
    assert_same_tensor(echo(x), x)
    assert_same_tensor(echo(x), x)


def test_many_calls_leave_no_views_behind() -> None:
    before = tvm_ffi._core._live_tensor_views()
    x = torch.zeros(3)
    for _ in range(1000):
        echo(x)
    assert tvm_ffi._core._live_tensor_views() == before


def test_from_dlpack_of_a_remembered_type_keeps_layout_and_options() -> None:
    echo(torch.zeros(1))  # torch.Tensor is now the remembered type
    x = torch.arange(24.0).reshape(2, 3, 4).permute(2, 0, 1)
    for _ in range(2):
        t = tvm_ffi.from_dlpack(x)
        assert t.shape == (4, 2, 3) and t.strides == x.stride() and t.data_ptr() == x.data_ptr()
    # Options still apply: they take the general path.
    with pytest.raises(RuntimeError, match="not contiguous"):
        tvm_ffi.from_dlpack(x, require_contiguous=True)
    assert tvm_ffi.from_dlpack(x.contiguous(), require_contiguous=True).is_contiguous()
