"""``tvm_ffi.core``: the C extension ``tvm_ffi._core`` under the reference package's module name.

Code written for the reference uses ``tvm_ffi.core.String``, ``tvm_ffi.core.Object``,
``tvm_ffi.core.ERROR_NAME_TO_TYPE`` and so on; importing this module makes ``tvm_ffi.core`` the
very same module object as ``tvm_ffi._core``, so every name (and every change to one) is shared.
"""

from __future__ import annotations

import sys

from . import _core

sys.modules[__name__] = _core
