"""The GIL during FFI calls: loaded and user-registered functions release it by default (as the
reference does), so a kernel may wait for its own C threads calling back into Python, and long
kernels called from several Python threads run in parallel. ``TVM_FFI_RELEASE_GIL_BY_DEFAULT=0``
(read at import) keeps it by default; ``Function.release_gil`` decides per function. Runtime
builtins (container accessors and the like) never wait for other threads, so they keep it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import tvm_ffi
from _thread_kernel import build_thread_kernel, load_thread_kernel
from leakcheck import no_ffi_leaks  # noqa: F401


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_thread_kernel(tmp_path_factory.mktemp("thread_kernel"))


@pytest.fixture(scope="module")
def mod(library: Path) -> Any:
    return load_thread_kernel(library)


def run_python(code: str, *args: str, gil_default: str | None = None) -> subprocess.CompletedProcess[str]:
    """Runs code in a fresh interpreter with a deadline: a deadlock fails, it does not hang."""
    env = dict(os.environ)
    env.pop("TVM_FFI_RELEASE_GIL_BY_DEFAULT", None)
    if gil_default is not None:
        env["TVM_FFI_RELEASE_GIL_BY_DEFAULT"] = gil_default
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env,
                          timeout=120)


CALL_BACK_FROM_C_THREAD = """
import sys, threading, tvm_ffi
mod = tvm_ffi.load_module(sys.argv[1])
print(mod.call_in_c_thread.release_gil, mod.call_in_c_thread(lambda x: x + 1, 41))
"""


def test_kernel_waiting_for_its_c_thread_calling_back_does_not_deadlock(library: Path) -> None:
    # A kernel that starts a C thread which calls a Python callback, and waits for it.
    try:
        proc = run_python(CALL_BACK_FROM_C_THREAD, str(library))
    except subprocess.TimeoutExpired:
        pytest.fail("deadlock: the caller kept the GIL while its kernel waited for a C thread")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "42"]


def test_c_thread_callback_in_process(mod: Any) -> None:
    assert mod.call_in_c_thread.release_gil  # else the call below would deadlock
    assert mod.call_in_c_thread(lambda a, b: a * b, 6, 7) == 42
    with pytest.raises(ZeroDivisionError):
        mod.call_in_c_thread(lambda: 1 // 0)


def test_default_follows_the_environment_variable(library: Path) -> None:
    code = ("import sys, tvm_ffi\nmod = tvm_ffi.load_module(sys.argv[1])\nmod.register_sleep('gil_test.sleep')\n"
            "print(mod.sleep_ms.release_gil, tvm_ffi.get_global_func('gil_test.sleep').release_gil,"
            " tvm_ffi.get_global_func('ffi.ArrayGetItem').release_gil)")
    for setting, expected in ((None, "True True False"), ("1", "True True False"), ("0", "False False False")):
        proc = run_python(code, str(library), gil_default=setting)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == expected, (setting, proc.stdout)
    proc = run_python(code, str(library), gil_default="yes")
    assert proc.returncode != 0 and "TVM_FFI_RELEASE_GIL_BY_DEFAULT" in proc.stderr


def test_loaded_and_registered_functions_release_by_default(mod: Any) -> None:
    assert mod.sleep_ms.release_gil is True
    mod.register_sleep("gil_test.registered_sleep")
    try:
        assert tvm_ffi.get_global_func("gil_test.registered_sleep").release_gil is True
    finally:
        tvm_ffi.remove_global_func("gil_test.registered_sleep")


def test_runtime_builtins_keep_the_gil() -> None:
    for name in ("ffi.ArrayGetItem", "ffi.MapGetItem", "ffi.String", "ffi.Shape"):
        assert tvm_ffi.get_global_func(name).release_gil is False, name


def test_release_gil_is_per_function(mod: Any) -> None:
    sleep = tvm_ffi.load_module(mod_path(mod), keep_module_alive=False).sleep_ms
    sleep.release_gil = False
    assert sleep.release_gil is False
    assert mod.sleep_ms.release_gil is True  # another Function object keeps its own setting
    sleep.release_gil = True
    assert sleep.release_gil is True


def mod_path(mod: Any) -> str:
    """The file a loaded module came from (as /proc/self/maps shows it)."""
    for line in Path("/proc/self/maps").read_text().splitlines():
        if line.endswith("thread_kernel.so"):
            return line.split()[-1]
    raise AssertionError("thread_kernel.so is not mapped")


def test_long_kernels_from_python_threads_run_in_parallel(mod: Any) -> None:
    sleep = mod.sleep_ms
    threads = [threading.Thread(target=sleep, args=(300,)) for _ in range(4)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    assert elapsed < 0.9, f"4 kernels of 0.3 s took {elapsed:.2f} s: the GIL serialised them"


def test_python_callbacks_keep_the_gil(mod: Any) -> None:
    # A Python callback takes the GIL first thing, so its callers keep it: no release and
    # re-acquire around each call. Everything else about it stays as it was.
    cb = tvm_ffi.convert(lambda x: x + 1)
    assert cb.release_gil is False and cb(1) == 2
    tvm_ffi.register_global_func("gil_test.py_callback", lambda x: x * 2, override=True)
    try:
        assert tvm_ffi.get_global_func("gil_test.py_callback").release_gil is False
    finally:
        tvm_ffi.remove_global_func("gil_test.py_callback")
    # the kernel that waits for its own thread still releases it, and the callback runs there
    assert mod.call_in_c_thread.release_gil is True
    assert mod.call_in_c_thread(cb, 41) == 42
    cb.release_gil = True  # still decided per function object
    assert cb.release_gil is True and cb(2) == 3



def test_callbacks_in_released_calls_nest_across_threads(mod: Any) -> None:
    # A kernel that released the GIL calls back on its own thread (the callback takes the GIL
    # back with the parked thread state), that callback calls a releasing kernel again, whose
    # C thread calls back through PyGILState: every level gets the GIL and gives it back.
    apply = tvm_ffi.get_global_func("testing.apply")
    assert apply.release_gil is True
    main = threading.get_ident()
    seen: list[bool] = []

    def on_c_thread(z: int) -> int:
        seen.append(threading.get_ident() != main)
        return z * 2

    def inner(y: int) -> int:
        seen.append(threading.get_ident() == main)
        return mod.call_in_c_thread(on_c_thread, y) + 1

    assert apply(lambda x: apply(inner, x), 20) == 41
    assert seen == [True, True]
    with pytest.raises(ZeroDivisionError):
        apply(lambda x: apply(lambda y: mod.call_in_c_thread(lambda: 1 // 0), x), 1)
    # after all of that, other Python threads still run while a kernel waits
    test_long_kernels_from_python_threads_run_in_parallel(mod)
