"""Test helpers backed by the native fixture library ``libtvm_ffi_testing.so``.

``import tvm_ffi`` loads the library; this package exposes every ``testing.<name>`` global
function as ``tvm_ffi.testing.<name>``, the Python classes of the fixture object types (their
``__all__`` lists them) and a few helpers that shadow same-named globals.
"""

from __future__ import annotations

from ._enums import *  # noqa: F403
from ._ffi_api import *  # noqa: F403
from .testing import *  # noqa: F403
