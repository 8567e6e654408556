"""Eight Python threads for a bounded time, each mixing calls, Python callbacks (also from C
threads), errors, containers and tensors, with release_gil on and off: no failure, and every
FFI object made during the run is gone at the end (live-object counts back to their start)."""

from __future__ import annotations

import threading
import time
from typing import Any

import numpy as np
import pytest
import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (registers testing.echo)
from _kernel_lib import build_kernel, load_kernel
from _thread_kernel import build_thread_kernel, load_thread_kernel
from leakcheck import live_objects

NUM_THREADS = 8
SECONDS = 3.0


class StressError(Exception):
    """Raised on purpose by callbacks."""


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any]:
    return (load_kernel(build_kernel(tmp_path_factory.mktemp("kernel"))),
            load_thread_kernel(build_thread_kernel(tmp_path_factory.mktemp("thread_kernel"))))


def worker(seed: int, kernels: tuple[Any, Any], deadline: float, errors: list[BaseException],
           counts: list[int]) -> None:
    mod, threads = kernels
    echo = tvm_ffi.get_global_func("testing.echo")
    call, raise_error = mod.call, mod.raise_error
    fill, in_c_thread = threads.fill, threads.call_in_c_thread
    # echo is this thread's own Function object; call is shared by all threads, so its
    # release_gil flips while the others are calling it.
    call.release_gil = echo.release_gil = seed % 2 == 0
    done = 0
    try:
        while time.perf_counter() < deadline:
            op = done % 6
            if op == 0:
                assert call(lambda x: x + seed, done) == done + seed
            elif op == 1:
                with pytest.raises(StressError):
                    call(lambda: (_ for _ in ()).throw(StressError(seed)))
            elif op == 2:
                with pytest.raises(ValueError, match=f"stress {seed}"):
                    raise_error("ValueError", f"stress {seed}")
            elif op == 3:
                arr = echo([seed, "x", {"k": done}])
                assert len(arr) == 3 and arr[2]["k"] == done
            elif op == 4:
                a = np.zeros(16, dtype="float32")
                fill(a, float(seed))
                assert a[7] == seed and echo(a).shape == (16,)
            else:
                assert in_c_thread(lambda v: v * 2, seed) == 2 * seed
            done += 1
    except BaseException as exc:  # reported by the main thread
        errors.append(exc)
    finally:
        counts[seed] = done


def test_eight_threads_for_a_bounded_time(kernels: tuple[Any, Any]) -> None:
    before = live_objects()
    errors: list[BaseException] = []
    counts = [0] * NUM_THREADS
    deadline = time.perf_counter() + SECONDS
    pool = [threading.Thread(target=worker, args=(seed, kernels, deadline, errors, counts))
            for seed in range(NUM_THREADS)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join(timeout=SECONDS + 60)
    assert not any(thread.is_alive() for thread in pool), "a worker hung"
    assert not errors, errors[0]
    assert min(counts) > 0, counts
    assert live_objects() == before, f"live FFI objects {before} -> {live_objects()}"


def test_stress_kernels_are_real(kernels: tuple[Any, Any]) -> None:
    """The kernels the stress test leans on behave as it assumes."""
    mod, threads = kernels
    assert mod.call(lambda: 5) == 5
    assert threads.call_in_c_thread(lambda: 6) == 6
