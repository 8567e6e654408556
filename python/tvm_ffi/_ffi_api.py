"""Every global function ``ffi.<Name>`` of the runtime, as attribute ``<Name>`` of this module.

Filled at import time from the global registry (``ffi.ModuleGetKind`` -> ``_ffi_api.ModuleGetKind``),
as the reference's module is. No module-level ``__getattr__`` at run time: with one, CPython does
not specialise ``_ffi_api.<Name>`` reads, which the containers make on every call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .registry import init_ffi_api

init_ffi_api("ffi", __name__)

if TYPE_CHECKING:

    def __getattr__(name: str) -> Any: ...  # for type checkers only: the names are dynamic
