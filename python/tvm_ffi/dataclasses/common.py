"""``tvm_ffi.dataclasses.common``: the dataclass helpers under the reference package's module name.

``fields``, ``replace``, ``asdict``, ``astuple``, ``is_dataclass`` and ``Field`` are defined in
:mod:`tvm_ffi.dataclasses`; code written for the reference imports them from here too.
"""

from __future__ import annotations

from .._core import TypeSchema
from ..container import Array, Dict, List, Map
from . import Field, asdict, astuple, fields, is_dataclass, replace

__all__ = ["Array", "Dict", "Field", "List", "Map", "TypeSchema", "asdict", "astuple", "fields", "is_dataclass",
           "replace"]
