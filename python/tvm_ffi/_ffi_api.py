"""Every global function ``ffi.<Name>`` of the runtime, as attribute ``<Name>`` of this module.

Filled at import time from the global registry (``ffi.ModuleGetKind`` -> ``_ffi_api.ModuleGetKind``).
"""

from __future__ import annotations

from typing import Any

from .registry import init_ffi_api

init_ffi_api("ffi", __name__)


def __getattr__(name: str) -> Any:
    """Names registered after import are looked up on first use."""
    from .registry import get_global_func

    func = get_global_func(f"ffi.{name}", allow_missing=True)
    if func is None:
        raise AttributeError(f"the runtime has no global function `ffi.{name}`")
    globals()[name] = func
    return func
