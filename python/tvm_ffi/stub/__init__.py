"""``tvm_ffi.stub``: the ``tvm-ffi-stubgen`` stub generator (``python -m tvm_ffi.stub``).

It rewrites the ``# tvm-ffi-stubgen(begin): ...`` / ``# tvm-ffi-stubgen(end)`` blocks of Python
files with typed declarations of a library's global functions and reflected object types, and
scaffolds new packages for a library (``--init-pypkg/--init-lib/--init-prefix``).
"""

from __future__ import annotations

from .cli import main

__all__ = ["main"]
