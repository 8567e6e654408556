"""Python -> kernel -> Python callback -> kernel -> ... nesting is bounded by the C stack: with
``sys.setrecursionlimit`` raised high, deep nesting raises RecursionError well before the stack
ends instead of overflowing it (a segfault), on the main thread and on C threads alike."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import tvm_ffi  # noqa: F401
from _kernel_lib import build_kernel, load_kernel
from _thread_kernel import build_thread_kernel
from leakcheck import no_ffi_leaks  # noqa: F401


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_kernel(tmp_path_factory.mktemp("kernel"))


@pytest.fixture(scope="module")
def thread_kernel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_thread_kernel(tmp_path_factory.mktemp("thread_kernel"))


@pytest.fixture(scope="module")
def call(kernel: Path) -> Any:
    """The kernel's call(f, *args): calls the FFI function f from C."""
    return load_kernel(kernel).call


def test_moderate_nesting_works(call: Any) -> None:
    def down(n: int) -> int:
        return call(down, n - 1) + 1 if n else 0

    assert down(200) == 200


DEEP_NESTING = """
import sys, tvm_ffi
sys.setrecursionlimit(10**7)
call = tvm_ffi.load_module(sys.argv[1]).call
threads = tvm_ffi.load_module(sys.argv[2])
depth = 0

def down(n):
    global depth
    depth += 1
    return call(down, n - 1) + 1 if n else 0

for where in ("main", "c thread"):
    depth = 0
    try:
        down(10**7) if where == "main" else threads.call_in_c_thread(down, 10**7)
    except RecursionError as err:
        print(where, "RecursionError", depth > 200, "C stack" in str(err))
    assert down(100) == 100  # the thread is fine afterwards
"""


def small_stack() -> None:
    """Runs in the child before exec: a 1 MiB stack for its main thread and, as glibc sizes them
    from the same limit, for the threads it starts (the guard scales its reserve to the stack;
    a small one keeps the nesting, and the unwinding of the error through it, short)."""
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_STACK)
    resource.setrlimit(resource.RLIMIT_STACK, (1 << 20, hard))


def test_deep_nesting_raises_recursion_error_instead_of_overflowing(kernel: Path, thread_kernel: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", DEEP_NESTING, str(kernel), str(thread_kernel)],
                          capture_output=True, text=True, timeout=300, preexec_fn=small_stack)
    assert proc.returncode == 0, f"exit status {proc.returncode}: {proc.stderr[-2000:]}"
    assert proc.stdout.splitlines() == ["main RecursionError True True", "c thread RecursionError True True"]


DEEP_CONTAINERS = """
import sys, tvm_ffi, tvm_ffi.testing
sys.setrecursionlimit(10**7)
echo = tvm_ffi.get_global_func("testing.echo")

class Forward:  # converts as whatever it forwards to: itself, forever
    def __tvm_ffi_value__(self):
        return self

loop = []
loop.append(loop)
cycle = {}
cycle["self"] = cycle
for value in (loop, cycle, Forward()):
    try:
        echo(value)
    except RecursionError as err:
        # Containers hit our C stack bound; a Python protocol call may hit Python's own first.
        print(type(value).__name__, "RecursionError", "C stack" in str(err) or type(value) is Forward)
assert list(echo([[1], [2, [3]]])[1][1]) == [3]  # the thread is fine afterwards
"""


def test_self_containing_arguments_raise_recursion_error_with_a_high_recursion_limit() -> None:
    # From Python 3.12 Python's own C recursion bound allows about 10,000 levels, and a
    # conversion level takes more stack than 8 MiB / 10,000: only the C stack bounds it.
    proc = subprocess.run([sys.executable, "-c", DEEP_CONTAINERS], capture_output=True, text=True,
                          timeout=300, preexec_fn=small_stack)
    assert proc.returncode == 0, f"exit status {proc.returncode}: {proc.stderr[-2000:]}"
    assert proc.stdout.splitlines() == ["list RecursionError True", "dict RecursionError True",
                                        "Forward RecursionError True"]
