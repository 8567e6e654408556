"""Many Python threads calling FFI functions, Python callbacks and raising errors at once."""

from __future__ import annotations

import threading
import time

import tvm_ffi  # noqa: F401
from _core_plugin import plugin
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import _core

P = plugin()
NUM_THREADS = 8
OPS_PER_THREAD = 10_000


class WorkerError(Exception):
    """Raised on purpose by the callbacks below."""


def _worker(seed: int, errors: list[BaseException]) -> None:
    ffi_string = _core._get_global_func("ffi.String", False)
    echo, call_n, raise_error = P.fn("echo"), P.fn("call_n"), P.fn("raise")
    marker = object()

    def callback(x: int) -> int:
        return x + seed

    def failing(x: int) -> None:
        raise WorkerError(x)

    try:
        for i in range(OPS_PER_THREAD):
            op = i % 5
            if op == 0:
                text = f"thread {seed} op {i}"
                assert ffi_string(text) == text
            elif op == 1:
                assert call_n(callback, 2, i) == i + seed
            elif op == 2:
                try:
                    call_n(failing, 1, i)
                except WorkerError as exc:
                    assert exc.args == (i,)
                else:
                    raise AssertionError("callback error was lost")
            elif op == 3:
                try:
                    raise_error("IndexError", f"bad {i}")
                except IndexError as exc:
                    assert str(exc) == f"bad {i}"
            else:
                assert echo(marker) is marker
                assert echo([i, "x"]).type_key == "ffi.Array"
    except BaseException as exc:  # reported by the main thread
        errors.append(exc)


def test_threads_mix_calls_callbacks_and_errors() -> None:
    errors: list[BaseException] = []
    threads = [threading.Thread(target=_worker, args=(seed, errors)) for seed in range(NUM_THREADS)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    assert not errors, errors[0]
    assert elapsed < 30, f"took {elapsed:.1f} s"


def test_callbacks_from_c_threads_while_python_threads_run() -> None:
    """C pthreads re-enter Python while other Python threads keep calling into C."""
    call_in_thread = _core.Function.__from_extern_c__(P.address("core_test_call_in_thread"))
    call_in_thread.release_gil = True
    errors: list[BaseException] = []

    def run(seed: int) -> None:
        try:
            for _ in range(50):
                assert call_in_thread(lambda i: i + seed, 100) == sum(range(100)) + 100 * seed
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(seed,)) for seed in range(NUM_THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[0]
