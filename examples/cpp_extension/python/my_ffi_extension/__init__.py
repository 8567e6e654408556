"""my_ffi_extension: Python names for the functions and types its C++ library registers."""

from __future__ import annotations

from pathlib import Path

import tvm_ffi

# Loading the library runs its static initializers, which register the global functions and
# the IntPair type with the runtime; the module object keeps the library loaded.
_LIB = tvm_ffi.load_module(str(Path(__file__).resolve().parent / "libmy_ffi_extension.so"))

add_one = tvm_ffi.get_global_func("my_ffi_extension.add_one")
greet = tvm_ffi.get_global_func("my_ffi_extension.greet")
raise_error = tvm_ffi.get_global_func("my_ffi_extension.raise_error")
swap = tvm_ffi.get_global_func("my_ffi_extension.swap")
pair_sum = tvm_ffi.get_global_func("my_ffi_extension.pair_sum")
_make_pair = tvm_ffi.get_global_func("my_ffi_extension.make_pair")


@tvm_ffi.register_object("my_ffi_extension.IntPair")
class IntPair(tvm_ffi.Object):
    """A pair of integers made in C++; fields `a` (read-only) and `b`, method `sum()`."""

    def __init__(self, a: int, b: int) -> None:
        self.__init_handle_by_constructor__(_make_pair, a, b)


__all__ = ["IntPair", "add_one", "greet", "pair_sum", "raise_error", "swap"]
