"""Who keeps what alive across DLPack exchanges, and that everything is released exactly once.

Complements tests/test_tensor.py: failed imports (the refused capsule stays with its producer,
whose destructor frees it), capsules consumed once, refcounts that balance after thousands of
conversions, 8 threads sharing arrays and tensors, read-only arrays,
0-d tensors, strides and byte offsets through every route (NumPy, PyTorch, kernels).
"""

from __future__ import annotations

import ctypes
import gc
import subprocess
import sys
import threading
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (registers testing.echo)
from _numpy_dlpack import needs_numpy_dlpack_v1
from leakcheck import live_objects, no_ffi_leaks  # noqa: F401
from test_tensor import DLDevice, LegacyProducer, VersionedProducer

# ---- producers ----


class KeepsEveryCapsule:
    """Mixin for the ctypes producers of test_tensor.py: the memory behind every capsule made stays
    valid for the producer's life (their make_capsule replaces the previous one's structures).

    Their capsules have no destructor, so `deleted` counts only the consumer's deleter calls.
    """

    def make_capsule(self) -> Any:
        capsule = super().make_capsule()  # type: ignore[misc]
        self.__dict__.setdefault("kept", []).append((self.managed, self._deleter))  # type: ignore[attr-defined]
        return capsule


class OwningVersioned(KeepsEveryCapsule, VersionedProducer):
    pass


class OwningLegacy(KeepsEveryCapsule, LegacyProducer):
    pass


def owning_producer(kind: str, values: list[float], **kwargs: Any) -> Any:
    if kind == "versioned":
        return OwningVersioned(values, versioned=True, **kwargs)
    return OwningLegacy(values, versioned=False, **kwargs)


class NumpyVersioned:
    """NumPy's own versioned capsule, whose destructor frees the export when nobody consumed it."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = array

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.array.__dlpack__(max_version=(1, 0))


class NumpyLegacy:
    """NumPy's legacy ("dltensor") capsule, behind a pre-1.0 signature without max_version."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = array

    def __dlpack__(self) -> Any:
        return self.array.__dlpack__()


NUMPY_PRODUCERS = {"versioned": NumpyVersioned, "legacy": NumpyLegacy}


class StridedVersioned(OwningVersioned):
    """Every second element of its buffer: a non-contiguous 1-D tensor."""

    def _fill(self, t: Any) -> None:
        super()._fill(t)
        self.shape[0] = len(self.buffer) // 2
        self.strides[0] = 2


class FutureVersion(OwningVersioned):
    """Claims DLPack 2.0, a major version no consumer of 1.x may read."""

    def make_capsule(self) -> Any:
        capsule = super().make_capsule()
        self.managed.major = 2
        return capsule


class OnDevice(OwningVersioned):
    """Describes memory on cuda:0 (never touched here: only the metadata travels)."""

    def _fill(self, t: Any) -> None:
        super()._fill(t)
        t.device = DLDevice(2, 0)


class ForwardsDLPack:
    """A producer that forwards to another object's __dlpack__ (forces the capsule route)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.inner.__dlpack__(**kwargs)


class HandsOut:
    """A producer that hands out one capsule made beforehand, however often it is asked."""

    def __init__(self, capsule: Any) -> None:
        self.capsule = capsule

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.capsule


# ---- the deleter runs exactly once, whatever happens to the import ----


@pytest.mark.parametrize("kind", ["versioned", "legacy"])
def test_deleter_once_after_a_successful_import(kind: str) -> None:
    producer = owning_producer(kind, [1.0, 2.0, 3.0])
    t = tvm_ffi.from_dlpack(producer)
    gc.collect()
    assert producer.deleted == 0  # the tensor holds it
    del t
    assert producer.deleted == 1


@needs_numpy_dlpack_v1
@pytest.mark.parametrize("kind", ["versioned", "legacy"])
def test_failed_imports_release_the_producer_exactly_once(kind: str) -> None:
    """A refused capsule stays unconsumed, so NumPy's capsule destructor frees it: the array's
    refcount comes back exactly (a missed release would leak it, a second one would crash)."""
    strided = np.zeros(16, dtype=np.float32)[::2]
    base = np.zeros(32, dtype=np.float32)
    start = (-base.ctypes.data) % 64 // 4
    misaligned = base[start + 1 : start + 5]  # 4 bytes past a 64-byte boundary
    producer = NUMPY_PRODUCERS[kind]
    alive = weakref.ref(strided)
    before = (sys.getrefcount(strided), sys.getrefcount(misaligned))
    for _ in range(100):
        with pytest.raises(RuntimeError, match=r"not contiguous: shape \[8\], strides \[2\]"):
            tvm_ffi.from_dlpack(producer(strided), require_contiguous=True)
        with pytest.raises(RuntimeError, match="not aligned to 64 bytes"):
            tvm_ffi.from_dlpack(producer(misaligned), require_alignment=64)
    gc.collect()
    assert (sys.getrefcount(strided), sys.getrefcount(misaligned)) == before
    t = tvm_ffi.from_dlpack(producer(strided))  # accepted without the requirement
    assert t.strides == (2,) and not t.is_contiguous()
    del strided, t
    assert alive() is None


def test_a_refused_capsule_is_left_unconsumed() -> None:
    """The consumer neither renames nor frees what it refuses: that stays the capsule's job."""
    for producer, match, kwargs in [
        (FutureVersion([1.0], versioned=True), r"unsupported DLPack version 2\.0", {}),
        (StridedVersioned([1.0, 2.0, 3.0, 4.0], versioned=True), "not contiguous", {"require_contiguous": True}),
        (OwningLegacy([1.0, 2.0], versioned=False, byte_offset=8), "not aligned to 4096 bytes",
         {"require_alignment": 4096}),
    ]:
        capsule = producer.make_capsule()
        with pytest.raises((BufferError, RuntimeError), match=match):
            tvm_ffi.from_dlpack(HandsOut(capsule), **kwargs)
        assert "used_" not in repr(capsule) and producer.deleted == 0


def test_strided_foreign_tensor_is_accepted_without_requirements() -> None:
    producer = StridedVersioned([1.0, 2.0, 3.0, 4.0], versioned=True)
    t = tvm_ffi.from_dlpack(producer)
    assert t.strides == (2,) and not t.is_contiguous()
    np.testing.assert_array_equal(np.from_dlpack(t), [1.0, 3.0])
    del t
    assert producer.deleted == 1


@pytest.mark.parametrize("kind", ["versioned", "legacy"])
def test_deleter_once_after_a_call(kind: str) -> None:
    echo = tvm_ffi.get_global_func("testing.echo")
    producer = owning_producer(kind, [1.0, 2.0])
    echo(producer)  # converted for the call, the result dropped at once
    assert producer.deleted == 1
    kept = echo(owning_producer(kind, [5.0]))
    assert isinstance(kept, tvm_ffi.Tensor) and np.from_dlpack(kept)[0] == 5.0
    del echo, kept


def test_deleter_once_through_three_frameworks() -> None:
    torch = pytest.importorskip("torch")
    producer = OwningVersioned([1.0, 2.0, 3.0], versioned=True)
    as_torch = torch.from_dlpack(tvm_ffi.from_dlpack(producer))
    as_numpy = np.from_dlpack(tvm_ffi.from_dlpack(as_torch))
    as_numpy[2] = 30.0
    assert producer.buffer[2] == 30.0 and as_torch[2].item() == 30.0
    del as_torch
    assert producer.deleted == 0  # the NumPy view at the end of the chain still holds it
    del as_numpy
    gc.collect()
    assert producer.deleted == 1


def test_foreign_device_metadata_travels_untouched() -> None:
    producer = OnDevice([1.0, 2.0], versioned=True)
    t = tvm_ffi.from_dlpack(producer)
    assert t.device == tvm_ffi.device("cuda", 0) and t.__dlpack_device__() == (2, 0)
    with pytest.raises(BufferError, match="device"):
        t.__dlpack__(dl_device=(1, 0))  # no cross-device copies
    with pytest.raises((RuntimeError, BufferError)):  # BufferError from NumPy 2.5
        np.from_dlpack(t)  # NumPy refuses a CUDA tensor; nothing was read
    del t
    assert producer.deleted == 1


# ---- a capsule is consumed once ----


@pytest.mark.parametrize("export", ["_to_dlpack", "_to_dlpack_versioned"])
def test_our_capsules_are_consumed_once(export: str) -> None:
    before = live_objects()
    source = tvm_ffi.from_dlpack(np.arange(3.0))
    capsule = getattr(source, export)()
    name = "dltensor_versioned" if export.endswith("versioned") else "dltensor"
    first = tvm_ffi.from_dlpack(HandsOut(capsule))
    assert f'"used_{name}"' in repr(capsule)
    with pytest.raises(ValueError, match=f"used_{name}.*consumed only once"):
        tvm_ffi.from_dlpack(HandsOut(capsule))
    assert first.data_ptr() == source.data_ptr()
    del source, first
    assert live_objects() == before  # the used capsule owns nothing any more...
    del capsule
    assert live_objects() == before  # ...and freeing it releases nothing a second time


def test_legacy_foreign_capsule_is_consumed_once() -> None:
    producer = OwningLegacy([4.0], versioned=False)
    capsule = producer.make_capsule()
    t = tvm_ffi.from_dlpack(HandsOut(capsule))
    with pytest.raises(ValueError, match="used_dltensor"):
        tvm_ffi.from_dlpack(HandsOut(capsule))
    del capsule
    gc.collect()
    assert producer.deleted == 0  # the first tensor still holds it
    del t
    assert producer.deleted == 1


def test_a_consumed_capsule_hands_its_memory_to_the_tensor() -> None:
    array = np.arange(4, dtype="float64")
    capsule = tvm_ffi.from_dlpack(array).__dlpack__()
    t = tvm_ffi.from_dlpack(capsule)  # consumed, as the reference does
    assert '"used_dltensor"' in repr(capsule)
    del capsule, array  # the tensor owns the export now: the memory stays
    gc.collect()
    assert np.from_dlpack(t).tolist() == [0.0, 1.0, 2.0, 3.0]
    del t


# ---- refcounts balance ----


def repeat_and_measure(target: object, action: Callable[[], None], times: int = 500) -> int:
    """The change in target's refcount after running action `times` times."""
    action()  # warm up any caches first
    gc.collect()
    before = sys.getrefcount(target)
    for _ in range(times):
        action()
    gc.collect()
    return sys.getrefcount(target) - before


def test_numpy_refcount_balances() -> None:
    a = np.arange(8, dtype=np.float32)
    strided = a[::2]
    echo = tvm_ffi.get_global_func("testing.echo")

    def failing_import() -> None:
        with pytest.raises(RuntimeError):
            tvm_ffi.from_dlpack(strided, require_contiguous=True)

    before = live_objects()
    assert repeat_and_measure(a, lambda: np.from_dlpack(tvm_ffi.from_dlpack(a))) == 0
    assert repeat_and_measure(a, lambda: tvm_ffi.from_dlpack(ForwardsDLPack(a))) == 0
    assert repeat_and_measure(a, lambda: echo(a)) == 0
    assert repeat_and_measure(strided, failing_import) == 0
    assert repeat_and_measure(strided, lambda: tvm_ffi.from_dlpack(ForwardsDLPack(strided)).is_contiguous()) == 0
    assert live_objects() == before


def test_tensor_refcount_balances() -> None:
    t = tvm_ffi.from_dlpack(np.arange(4.0))
    assert repeat_and_measure(t, lambda: t.__dlpack__()) == 0
    assert repeat_and_measure(t, lambda: np.from_dlpack(t)) == 0
    assert repeat_and_measure(t, lambda: tvm_ffi.from_dlpack(t)) == 0
    assert repeat_and_measure(t, lambda: (t.shape, t.strides, t.dtype, t.device)) == 0


def test_torch_refcount_balances() -> None:
    torch = pytest.importorskip("torch")
    x = torch.arange(6, dtype=torch.float32)
    echo = tvm_ffi.get_global_func("testing.echo")

    def failing_import() -> None:
        with pytest.raises(RuntimeError):
            tvm_ffi.from_dlpack(x[::2], require_contiguous=True)

    assert repeat_and_measure(x, lambda: torch.from_dlpack(tvm_ffi.from_dlpack(x))) == 0
    assert repeat_and_measure(x, lambda: echo(x)) == 0  # the result comes back as a torch tensor
    assert repeat_and_measure(x, failing_import) == 0


# ---- 8 threads ----


def run_in_threads(work: Callable[[int], None], count: int = 8) -> None:
    """Runs work(i) in `count` threads started together; re-raises the first failure here."""
    barrier = threading.Barrier(count)
    errors: list[BaseException] = []

    def body(i: int) -> None:
        try:
            barrier.wait()
            work(i)
        except BaseException as err:
            errors.append(err)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def test_eight_threads_share_one_array_and_one_tensor() -> None:
    a = np.arange(64, dtype=np.int64)
    shared = tvm_ffi.from_dlpack(a)
    before_objects = live_objects()
    before_refs = (sys.getrefcount(a), sys.getrefcount(shared))

    def work(i: int) -> None:
        for _ in range(300):
            mine = tvm_ffi.from_dlpack(a)  # the same array imported by all threads at once
            assert mine.data_ptr() == a.ctypes.data
            view = np.from_dlpack(shared)  # the same tensor exported by all threads at once
            assert view[i] == i
            capsule = shared.__dlpack__(max_version=(1, 0))
            assert tvm_ffi.from_dlpack(HandsOut(capsule)).shape == (64,)

    run_in_threads(work)
    gc.collect()
    assert (sys.getrefcount(a), sys.getrefcount(shared)) == before_refs
    assert live_objects() == before_objects


@needs_numpy_dlpack_v1
def test_eight_threads_with_foreign_producers() -> None:
    producers = [OwningVersioned([float(i)] * 4, versioned=True) for i in range(8)]
    strided = np.zeros(8)[::2]
    before = sys.getrefcount(strided)

    def work(i: int) -> None:
        for _ in range(50):
            t = tvm_ffi.from_dlpack(producers[i])
            assert np.from_dlpack(t)[0] == i
            with pytest.raises(RuntimeError):
                tvm_ffi.from_dlpack(NumpyVersioned(strided), require_contiguous=True)

    run_in_threads(work)
    gc.collect()
    assert [p.deleted for p in producers] == [50] * 8  # every consumed capsule released once
    assert sys.getrefcount(strided) == before  # every refused one freed by NumPy, once


def test_eight_threads_with_torch() -> None:
    torch = pytest.importorskip("torch")
    x = torch.zeros(8, 16)

    def work(i: int) -> None:
        row = x[i]
        for _ in range(200):
            t = tvm_ffi.from_dlpack(row)
            torch.from_dlpack(t).add_(1.0)  # each thread writes its own row through the tensor

    before = sys.getrefcount(x)
    run_in_threads(work)
    gc.collect()
    assert torch.equal(x, torch.full((8, 16), 200.0))
    assert sys.getrefcount(x) == before


# ---- read-only arrays ----


@needs_numpy_dlpack_v1
@pytest.mark.parametrize("route", ["direct", "versioned capsule"])
def test_read_only_memory_never_comes_back_writable(route: str) -> None:
    """Either refused up front (the reference raises NumPy's BufferError) or kept read-only."""
    a = np.arange(4.0)
    a.flags.writeable = False
    try:
        t = tvm_ffi.from_dlpack(a if route == "direct" else NumpyVersioned(a))
    except BufferError:
        return
    writable = np.from_dlpack(t).flags.writeable  # only looked at: writing could crash
    del t  # a failing assert would keep the frame, and t, alive (leak check)
    assert not writable


# ---- 0-d, strides, byte offsets through every route ----


def test_zero_dim_tensors_everywhere() -> None:
    echo = tvm_ffi.get_global_func("testing.echo")
    scalar = np.array(7, dtype=np.int32)
    for t in (tvm_ffi.from_dlpack(scalar), tvm_ffi.from_dlpack(ForwardsDLPack(scalar)), echo(scalar)):
        assert t.shape == () and t.strides == () and t.ndim == 0 and t.numel() == 1
        assert t.data_ptr() == scalar.ctypes.data and t.is_contiguous()
        assert np.from_dlpack(t) == 7
    torch = sys.modules.get("torch")
    if torch is not None:
        x = torch.tensor(2.5)
        t = tvm_ffi.from_dlpack(x)
        assert t.shape == () and t.data_ptr() == x.data_ptr()
        assert torch.from_dlpack(t).item() == 2.5
        assert echo(x).shape == ()
    del echo, t


def test_compact_strides_are_filled_in_for_null_strides() -> None:
    producer = OwningLegacy([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], versioned=False)

    def fill_2d(t: Any) -> None:
        OwningLegacy._fill(producer, t)
        t.ndim = 2
        t.shape = producer.shape2d
        t.strides = None  # DLPack's "compact row-major"

    producer.shape2d = (ctypes.c_int64 * 2)(2, 3)
    producer._fill = fill_2d
    t = tvm_ffi.from_dlpack(producer)
    assert t.shape == (2, 3) and t.strides == (3, 1) and t.is_contiguous()
    np.testing.assert_array_equal(np.from_dlpack(t), [[1, 2, 3], [4, 5, 6]])
    del t
    assert producer.deleted == 1


def test_torch_layouts_survive_the_round_trip() -> None:
    torch = pytest.importorskip("torch")
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    for view in (base.T, base[1:, ::3], base[:, 2], base.reshape(2, 2, 6).permute(2, 0, 1)):
        t = tvm_ffi.from_dlpack(view)
        assert t.shape == tuple(view.shape) and t.strides == view.stride()
        assert t.data_ptr() == view.data_ptr() and t.is_contiguous() == view.is_contiguous()
        back = torch.from_dlpack(t)
        assert back.stride() == view.stride() and torch.equal(back, view)
        via_numpy = np.from_dlpack(t)
        np.testing.assert_array_equal(via_numpy, view.numpy())


@pytest.mark.parametrize("kind", ["versioned", "legacy"])
def test_byte_offset_reaches_every_consumer(kind: str) -> None:
    producer = owning_producer(kind, [1.0, 2.0, 3.0, 4.0], byte_offset=16)
    t = tvm_ffi.from_dlpack(producer)
    assert t.byte_offset == 16 and t.data_ptr() == ctypes.addressof(producer.buffer)
    np.testing.assert_array_equal(np.from_dlpack(t), [3.0, 4.0])
    echo = tvm_ffi.get_global_func("testing.echo")
    again = echo(t)
    assert again.byte_offset == 16 and again.data_ptr() == t.data_ptr()
    torch = sys.modules.get("torch")
    if torch is not None:
        x = torch.from_dlpack(t)  # torch folds the offset into its data pointer
        assert x.tolist() == [3.0, 4.0] and x.data_ptr() == t.data_ptr() + 16
        del x
    del t, again, echo
    gc.collect()
    assert producer.deleted == 1


def test_kernel_sees_strides_and_offsets(add_one_cpu: Any) -> None:
    buffer = np.arange(20, dtype=np.float32)
    x = buffer[3:15:3]  # byte offset 12 from the buffer start, stride 3
    out = np.zeros((4, 2), dtype=np.float32)
    add_one_cpu(tvm_ffi.from_dlpack(x), out[:, 1])
    np.testing.assert_array_equal(out[:, 1], x + 1)
    np.testing.assert_array_equal(out[:, 0], 0)


# ---- the producer-type cache must not keep short-lived producer types alive ----

PRODUCER_TYPE_PROGRAM = """
import gc, weakref
import numpy as np, tvm_ffi

def import_once():
    class Producer:  # a type that exists for one call only
        def __dlpack__(self, **kwargs):
            return np.zeros(1).__dlpack__(**kwargs)
    tvm_ffi.from_dlpack(Producer())
    return weakref.ref(Producer)

alive = import_once()
gc.collect()
print("alive" if alive() is not None else "freed")
"""


def test_producer_types_are_not_kept_alive() -> None:
    proc = subprocess.run([sys.executable, "-c", PRODUCER_TYPE_PROGRAM], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "freed"
