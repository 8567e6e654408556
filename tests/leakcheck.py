"""Leak check for the _core tests: no FFI object may outlive the test that made it.

Test modules opt in with ``from leakcheck import no_ffi_leaks  # noqa: F401``; the autouse
fixture then compares the live FFI objects before and after every test, after a full garbage
collection: the runtime's count (global ``ffi.LiveObjectCount``) plus the tensors ``_core`` makes
itself over NumPy arrays and framework tensors (``_core._live_tensor_views``) and the function
objects it makes around Python callables (``_core._live_callbacks``).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
import tvm_ffi  # noqa: F401  (loads the runtime before _core)
from tvm_ffi import _core

_live_object_count = _core._get_global_func("ffi.LiveObjectCount", False)


def live_objects() -> int:
    """FFI objects that are still alive, after collecting Python garbage."""
    gc.collect()
    gc.collect()
    return int(_live_object_count()) + _core._live_tensor_views() + _core._live_callbacks()


@pytest.fixture(autouse=True)
def no_ffi_leaks() -> Iterator[None]:
    """Fails the test when it leaves more live FFI objects than it found."""
    before = live_objects()
    # Everything alive now predates the test: frozen, it is skipped by the collections above,
    # which then cost time in proportion to what the test made, not to all of torch and JAX.
    gc.freeze()
    yield
    after = live_objects()
    if after > before:
        pytest.fail(f"FFI objects leaked: {after - before} more live objects after the test ({before} -> {after})")
