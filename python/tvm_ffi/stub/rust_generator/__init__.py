"""The Rust backend of ``tvm-ffi-stubgen``: bindings of reflected objects for the ``tvm_ffi`` crate."""

from __future__ import annotations

from .generator import RustGenerator

__all__ = ["RustGenerator"]
