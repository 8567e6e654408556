"""Enum cases: looking a member up by payload, reading a member's value, and writing a payload
to an enum-typed field (normalised to the member before the reflected setter runs).

Both packages bind the testing fixtures' enums (``tvm_ffi.testing._TestCxxIntEnum`` and the
holder ``_TestCxxEnumHolder``), so no type key is registered by the benchmark itself.
"""

from __future__ import annotations

from cases import Case

_SETUP = (
    "import tvm_ffi.testing as t\n"
    "Level, Holder = t._TestCxxIntEnum, t._TestCxxEnumHolder\n"
    "high = Level.high\n"
    "h = Holder(priority=Level.low, opcode=t._TestCxxStrEnum.add)\n"
)

CASES = [
    Case("Level(20)", _SETUP, "Level(20)"),
    Case("Level.get('high')", _SETUP, "Level.get('high')"),
    Case("member.value", _SETUP, "high.value"),
    Case("holder.priority = 20", _SETUP, "h.priority = 20"),
    Case("holder.priority = member", _SETUP, "h.priority = high"),
    Case("holder.priority", _SETUP, "h.priority"),
]
