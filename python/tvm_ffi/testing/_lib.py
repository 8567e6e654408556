"""The fixture library handle (loaded by ``import tvm_ffi``; see :mod:`tvm_ffi._testing_lib`)."""

from __future__ import annotations

from .._testing_lib import LIB, find_libtvm_ffi_testing

__all__ = ["LIB", "find_libtvm_ffi_testing"]
