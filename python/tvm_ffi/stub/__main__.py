"""``python -m tvm_ffi.stub``: the same as the ``tvm-ffi-stubgen`` console script."""

from __future__ import annotations

import sys

from .cli import main

sys.exit(main())
