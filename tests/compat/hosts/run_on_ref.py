"""Runs a kernel built against OUR headers through the REFERENCE Python package.

Usage: python run_on_ref.py <our_c_kernel.so> <reference package dir>

Run with PYTHONPATH pointing at the reference package's install directory; exits non-zero (via an
uncaught AssertionError) on the first failed expectation and prints "ok <check>" per passed check.
"""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

import numpy as np
import tvm_ffi


def loaded_runtimes() -> list[str]:
    """Paths of every libtvm_ffi*.so mapped into this process (the testing helper aside)."""
    paths = set()
    for line in Path("/proc/self/maps").read_text().splitlines():
        path = line.split()[-1]
        name = Path(path).name
        if name.startswith("libtvm_ffi") and "testing" not in name:
            paths.add(str(Path(path).resolve()))
    return sorted(paths)


def expect_raises(exc_type: type[BaseException], needle: str, fn, *args) -> BaseException:
    """Calls fn(*args), checks it raises exactly exc_type with needle in the message, returns it."""
    try:
        fn(*args)
    except BaseException as err:  # noqa: BLE001 - we check the type ourselves
        assert type(err) is exc_type, f"expected {exc_type.__name__}, got {type(err).__name__}: {err}"
        assert needle in str(err), f"{needle!r} not in {str(err)!r}"
        return err
    raise AssertionError(f"expected {exc_type.__name__} from {fn}")


def main(kernel: str, reference_dir: str) -> None:
    assert Path(tvm_ffi.__file__).resolve().is_relative_to(Path(reference_dir).resolve()), tvm_ffi.__file__
    mod = tvm_ffi.load_module(kernel)
    runtimes = loaded_runtimes()
    assert len(runtimes) == 1 and Path(runtimes[0]).is_relative_to(Path(reference_dir).resolve()), runtimes
    print("ok loaded on the reference runtime", runtimes[0])

    x = np.arange(5, dtype="float32")
    y = np.zeros(5, dtype="float32")
    assert mod.add_one(x, y) is None
    np.testing.assert_array_equal(y, x + 1)
    print("ok add_one with numpy arrays")

    assert mod.check_positive(7) == 7
    print("ok check_positive returns an int")

    expect_raises(ValueError, "check_positive: expected a positive value but got -2", mod.check_positive, -2)
    expect_raises(ValueError, "add_one: shape mismatch, x has 5 elements but y has 3", mod.add_one, x,
                  np.zeros(3, dtype="float32"))
    expect_raises(ValueError, "expected contiguous 1-D float32 CPU tensors", mod.add_one,
                  np.zeros(2, dtype="float64"), np.zeros(2, dtype="float64"))
    strided = np.zeros(10, dtype="float32")[::2]  # a view with stride 2 arrives as-is
    expect_raises(ValueError, "expected contiguous 1-D float32 CPU tensors", mod.add_one, x, strided)
    print("ok ValueError")

    # The kernel names the actual type with the reference runtime's type keys ("int", "float").
    expect_raises(TypeError, "add_one: argument #1 expected `DLTensor*` but got `int`", mod.add_one, x, 3)
    expect_raises(TypeError, "add_one: expected 2 arguments but got 1", mod.add_one, x)
    err = expect_raises(TypeError, "check_positive: argument #0 expected `int` but got `float`",
                        mod.check_positive, 1.5)
    # The Python traceback names the kernel's exported symbol as the frame that raised.
    assert "__tvm_ffi_check_positive" in "".join(traceback.format_exception(type(err), err, err.__traceback__))
    print("ok TypeError")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
