"""Calls every function of kernels/cpp_api_kernel.cc through whichever `tvm_ffi` this
interpreter imports (ours, or the reference with PYTHONPATH set), printing "ok <check>" lines.

Usage: python run_cpp_api_kernel.py <cpp_api_kernel.so>

The same expectations hold for every combination of headers (ours / reference) and runtime
(ours / reference); test_cpp_api_both_ways.py runs all four, the reference pair included, so the
expectations are the reference's own behaviour.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import tvm_ffi


def expect_raises(exc_type: type[BaseException], needle: str, fn, *args) -> None:  # noqa: ANN001
    """fn(*args) raises exc_type (or, for kinds without a builtin class, a subclass of it)."""
    try:
        fn(*args)
    except BaseException as err:  # noqa: BLE001 - the type is checked here
        assert isinstance(err, exc_type), f"expected {exc_type.__name__}, got {type(err).__name__}: {err}"
        assert needle in str(err), f"{needle!r} not in {str(err)!r}"
        return
    raise AssertionError(f"expected {exc_type.__name__} from {fn}")


def main(path: str) -> None:
    mod = tvm_ffi.load_module(path)
    x = np.arange(6, dtype=np.float32)
    y = np.zeros(6, dtype=np.float32)
    mod.my_kernel(x, y)
    assert y.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    print("ok my_kernel")
    expect_raises(TypeError, "Expect float32 input, but got int32", mod.my_kernel, x.astype(np.int32), y)
    expect_raises(RuntimeError, "Check failed: input.numel() == output.numel() (6 vs. 2) : size mismatch",
                  mod.my_kernel, x, np.zeros(2, dtype=np.float32))
    expect_raises(TypeError, "Mismatched type on argument #1 when calling: "
                  "`my_kernel(0: DLTensor*, 1: DLTensor*) -> void`. Expected `DLTensor*` but got `int`",
                  mod.my_kernel, x, 3)
    expect_raises(TypeError, "Mismatched number of arguments when calling: "
                  "`my_kernel(0: DLTensor*, 1: DLTensor*) -> void`. Expected 2 but got 1 arguments",
                  mod.my_kernel, x)
    print("ok errors")

    try:
        import torch
    except ImportError:
        print("skip ones_like (torch is not installed)")
    else:
        ones = mod.ones_like(torch.zeros(2, 3))
        assert isinstance(ones, torch.Tensor) and ones.shape == (2, 3) and float(ones.sum()) == 6
        print("ok ones_like (torch's allocator)")
    assert mod.stream_of(x) == 0
    print("ok stream_of")
    z = np.zeros((3, 4), dtype=np.float32)[:, ::2]
    assert list(mod.layout(z)) == [2, 3, 2, 4, 2, 0]
    print("ok layout")
    assert mod.join(["a", "bb", "a long string part"], None) == "a,bb,a long string part"
    assert mod.join(["a", "b"], "--") == "a--b"
    assert mod.mean([1, 2.5, True]) == 1.5
    expect_raises(ValueError, "mean of an empty list", mod.mean, [])
    expect_raises(TypeError, "Expected `Array<float>` but got `Array[index 1: ffi.SmallStr]`",
                  mod.mean, [1.0, "x"])
    assert mod.lookup({"k": 7, "other": 1}, "k") == 7
    big = {f"key{i}": i for i in range(30)}  # the dense layout, walked by the kernel
    assert mod.lookup(big, "key29") == 29 and mod.lookup(big, "key0") == 0
    expect_raises(KeyError, "no key q", mod.lookup, {"k": 7}, "q")
    print("ok containers")
    assert mod.call_twice(lambda v: v * 3, 2) == 18
    assert mod.describe(5) == "int 5" and mod.describe("hi") == "str hi"
    assert mod.describe(None) == "none" and mod.describe(x) == "tensor"
    assert mod.describe(1.5) == "other float"
    assert list(mod.pair(12)) == [12, "12"]
    assert mod.width(7) == 7 and mod.width("four") == 4
    print("ok any, tuple, variant, callbacks")

    assert list(mod.swap((3, "three"))) == ["three", 3]
    counter = mod.make_counter(100)
    assert counter(1, 2) == 103 and counter(7) == 110
    assert mod.box_add(40, 2) == 42
    scaled_meta = tvm_ffi.get_global_func_metadata("cpp_api.scaled")
    assert (scaled_meta["unit"], scaled_meta["pure"], scaled_meta["version"]) == ("px", True, 2), scaled_meta
    assert json.loads(scaled_meta["type_schema"])["type"] == "ffi.Function"
    assert tvm_ffi.get_global_func("cpp_api.scaled")(1.5) == 3.0
    print("ok tuple moves, in-place functions, get_mutable, user metadata")

    meta = mod.get_function_metadata("my_kernel")
    meta = json.loads(meta) if isinstance(meta, str) else meta  # a dict in the reference
    assert json.loads(meta["type_schema"]) == {
        "type": "ffi.Function",
        "named_args": {"return": [{"type": "None"}], "params": [{"type": "DLTensor*"}, {"type": "DLTensor*"}]},
    }, meta
    assert mod.get_function_doc("my_kernel") == "Doubles a float32 CPU tensor into output."
    print("ok metadata and doc")


if __name__ == "__main__":
    main(sys.argv[1])
