"""Python-level helpers of :mod:`tvm_ffi.testing` that wrap fixture globals."""

from __future__ import annotations

from ..registry import get_global_func

__all__ = ["add_one"]


def add_one(x: int) -> int:
    """Returns ``x + 1`` computed by the native ``testing.add_one`` (C ``int`` arithmetic)."""
    return get_global_func("testing.add_one")(x)
