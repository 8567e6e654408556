"""Test helpers backed by the native fixture library ``libtvm_ffi_testing.so``.

Importing this package loads the library (``import tvm_ffi`` alone does not) and exposes every
``testing.<name>`` global function as ``tvm_ffi.testing.<name>``, plus a few Python helpers.
"""

from __future__ import annotations

from ._ffi_api import *  # noqa: F403
from ._helpers import add_one as add_one
from ._locking import run_with_gpu_lock as run_with_gpu_lock
