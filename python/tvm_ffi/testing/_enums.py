"""Python classes of the enum fixtures of ``libtvm_ffi_testing.so`` (TESTING_FIXTURES.md 3.6).

``testing.TestCxxIntEnum`` / ``testing.TestCxxStrEnum`` are registered by the library without
members: the classes below define them, as Python code does for a C++-declared enum type.
``testing.TestEnumVariant`` has its members from the library; tests bind their own class to it.
"""

from __future__ import annotations

from typing import ClassVar

from .. import _core
from ..dataclasses import IntEnum, StrEnum, c_class, entry

__all__ = ["_TestCxxEnumHolder", "_TestCxxIntEnum", "_TestCxxStrEnum"]


class _TestCxxIntEnum(IntEnum, type_key="testing.TestCxxIntEnum"):
    """Members ``low`` (10) and ``high`` (20)."""

    __test__: ClassVar[bool] = False
    low = entry(value=10)
    high = entry(value=20)


class _TestCxxStrEnum(StrEnum, type_key="testing.TestCxxStrEnum"):
    """Members ``add`` ("+") and ``mul`` ("*")."""

    __test__: ClassVar[bool] = False
    add = entry(value="+")
    mul = entry(value="*")


@c_class("testing.TestCxxEnumHolder")
class _TestCxxEnumHolder(_core.Object):
    """Fields ``priority`` and ``opcode``: members, or their payloads (``20``, ``"*"``)."""

    __test__: ClassVar[bool] = False
    __slots__ = ()
    priority: _TestCxxIntEnum
    opcode: _TestCxxStrEnum
