"""The Python target's type names: defaults for ``ty-map`` and the module renames of imports.

Results and fields are annotated with the read-only or mutable collection protocols
(``Array`` -> ``Sequence``, ``List`` -> ``MutableSequence``, ``Map`` -> ``Mapping``, ``Dict`` ->
``MutableMapping``); parameters take the read-only ones, since a ``list`` converts to any of them.
"""

from __future__ import annotations

from ..consts import TY_MAP_DEFAULTS, TY_MAP_INPUT_DEFAULTS

__all__ = ["MOD_MAP", "TY_MAP_DEFAULTS", "TY_MAP_INPUT_DEFAULTS"]

# Module prefixes spelled differently in Python: type keys ``ffi.X`` live in ``tvm_ffi``.
MOD_MAP = {"testing": "tvm_ffi.testing", "ffi": "tvm_ffi"}
