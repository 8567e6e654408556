"""``tvm_ffi.dataclasses.enum``: the FFI enum classes under the reference package's module name.

The classes are defined in ``tvm_ffi.dataclasses._enum`` (see there); code written for the
reference imports ``Enum``, ``IntEnum``, ``StrEnum``, ``entry``, ``auto``, ``EnumAttrMap``,
``EnumState`` and ``ENUM_STATE_ATTR`` from here.
"""

from __future__ import annotations

from .. import core
from .._core import Object
from ._enum import ENUM_STATE_ATTR, Enum, EnumAttrMap, EnumState, IntEnum, StrEnum, auto, entry
from ._enum_declare import EnumEntry as _EnumEntry  # noqa: F401  (the marker class, by the reference's name)
from .c_class import c_class
from .py_class import py_class

__all__ = ["ENUM_STATE_ATTR", "Enum", "EnumAttrMap", "EnumState", "IntEnum", "Object", "StrEnum", "auto",
           "c_class", "core", "entry", "py_class"]
