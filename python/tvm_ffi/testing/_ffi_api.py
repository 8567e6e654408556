"""The ``testing.*`` global functions as module attributes (``_ffi_api.add_one`` calls ``testing.add_one``)."""

from __future__ import annotations

from ..registry import init_ffi_api, list_global_func_names
from . import _lib  # noqa: F401  (the library is loaded; its globals are registered)

_PREFIX = "testing."

init_ffi_api("testing", __name__)

__all__ = sorted(
    name[len(_PREFIX) :]
    for name in list_global_func_names()
    if name.startswith(_PREFIX) and "." not in name[len(_PREFIX) :]
)
