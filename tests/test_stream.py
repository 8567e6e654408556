"""Per-thread current streams: use_raw_stream, get_raw_stream, StreamContext, use_torch_stream."""

from __future__ import annotations

import ctypes
import importlib.util
import threading

import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401

CUDA0 = tvm_ffi.device("cuda:0")


def test_use_raw_stream_sets_and_restores() -> None:
    assert tvm_ffi.get_raw_stream(CUDA0) == 0
    with tvm_ffi.use_raw_stream(CUDA0, 0x1000) as ctx:
        assert isinstance(ctx, tvm_ffi.StreamContext)
        assert tvm_ffi.get_raw_stream(CUDA0) == 0x1000
        assert tvm_ffi.get_raw_stream(tvm_ffi.device("cuda:1")) == 0  # per device
    assert tvm_ffi.get_raw_stream(CUDA0) == 0


def test_streams_nest() -> None:
    outer = tvm_ffi.use_raw_stream(CUDA0, 0x10)
    with outer:
        with tvm_ffi.use_raw_stream(CUDA0, ctypes.c_void_p(0x20)):
            assert tvm_ffi.get_raw_stream(CUDA0) == 0x20
            with outer:  # re-entering the same context
                assert tvm_ffi.get_raw_stream(CUDA0) == 0x10
            assert tvm_ffi.get_raw_stream(CUDA0) == 0x20
        assert tvm_ffi.get_raw_stream(CUDA0) == 0x10
    assert tvm_ffi.get_raw_stream(CUDA0) == 0


def test_stream_is_restored_when_the_block_raises() -> None:
    with pytest.raises(KeyError), tvm_ffi.use_raw_stream(CUDA0, 0x30):
        raise KeyError("boom")
    assert tvm_ffi.get_raw_stream(CUDA0) == 0


def test_exiting_a_stream_context_twice_is_a_clear_error() -> None:
    ctx = tvm_ffi.use_raw_stream(CUDA0, 0x30)
    with ctx:
        pass
    with pytest.raises(RuntimeError, match="exited more times than it was entered"):
        ctx.__exit__(None, None, None)
    assert tvm_ffi.get_raw_stream(CUDA0) == 0  # nothing was changed by the extra exit


def test_streams_are_per_thread() -> None:
    seen: dict[int, int] = {}
    barrier = threading.Barrier(8)

    def work(i: int) -> None:
        with tvm_ffi.use_raw_stream(CUDA0, 0x100 + i):
            barrier.wait()
            seen[i] = tvm_ffi.get_raw_stream(CUDA0)

    with tvm_ffi.use_raw_stream(CUDA0, 0x999):
        threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert tvm_ffi.get_raw_stream(CUDA0) == 0x999
    assert seen == {i: 0x100 + i for i in range(8)}


def test_stream_context_accepts_addresses() -> None:
    with tvm_ffi.StreamContext(tvm_ffi.device("cpu"), None):
        assert tvm_ffi.get_raw_stream(tvm_ffi.device("cpu")) == 0
    with tvm_ffi.stream.StreamContext(CUDA0, ctypes.c_void_p(None)):
        assert tvm_ffi.get_raw_stream(CUDA0) == 0


def test_bad_stream_arguments() -> None:
    with pytest.raises(ValueError, match="int or c_void_p"):
        tvm_ffi.use_raw_stream(CUDA0, "stream")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Device"):
        tvm_ffi.get_raw_stream("cuda:0")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Device"):
        tvm_ffi.use_raw_stream("cuda:0", 0)  # type: ignore[arg-type]


@pytest.mark.skipif(importlib.util.find_spec("torch") is not None, reason="torch is installed")
def test_use_torch_stream_needs_torch() -> None:
    with pytest.raises(ImportError, match="PyTorch"):
        tvm_ffi.use_torch_stream()


def test_use_torch_stream_mirrors_the_torch_stream() -> None:
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("needs CUDA")
    stream = torch.cuda.Stream()
    with tvm_ffi.use_torch_stream(torch.cuda.stream(stream)):
        assert tvm_ffi.get_raw_stream(CUDA0) == stream.cuda_stream
    assert tvm_ffi.get_raw_stream(CUDA0) == 0
