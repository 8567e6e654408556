"""What a benchmark case is, and the list of modules that define them.

A case is data: a name, setup code and one statement. The same strings run unchanged in the
worker that imports our `tvm_ffi` and in the one that imports the reference package, so cases may
use only the public API the two packages share. Setup runs once per timed round, outside the
timer; the statement runs in the timed loop. Names bound by the setup are local variables of the
timing function, so looking them up costs the same in every case and in the floor.

To add cases (tensors, containers, ...), write a module `cases_<topic>.py` with a `CASES` list
and add its name to `CASE_MODULES`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

CASE_MODULES = (
    "cases_call",
    "cases_container",
    "cases_tensor",
    "cases_reflection",
    "cases_jit",
    "cases_overload",
    "cases_structural",
    "cases_dataclasses",
    "cases_enum",
    "cases_values",
)

# Default target of a case: ours takes at most this fraction of the reference's time per call
# (the call-path issue); container and tensor cases set their own, stricter one.
REF_RATIO_TARGET = 0.6


@dataclass(frozen=True)
class Case:
    """One benchmark: `stmt` timed in a loop after `setup` ran."""

    name: str
    setup: str
    stmt: str
    # Largest allowed ours/floor ratio, for the cases that have such a target.
    floor_target: float | None = None
    # Largest allowed ours/reference ratio.
    ref_target: float = REF_RATIO_TARGET


# The floor: a bare call of a C-extension function with one argument, in the same loop shape.
FLOOR = Case("floor: id(None)", "fn = id", "fn(None)")


def all_cases() -> list[Case]:
    """The cases of every module in `CASE_MODULES`, in order; names are unique."""
    cases: list[Case] = []
    for module_name in CASE_MODULES:
        cases.extend(importlib.import_module(module_name).CASES)
    names = [case.name for case in cases]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates or FLOOR.name in names:
        raise ValueError(f"benchmark case names must be unique: {duplicates or [FLOOR.name]}")
    return cases


def find_case(name: str) -> Case:
    """The case (or the floor) called `name`; KeyError when there is none."""
    if name == FLOOR.name:
        return FLOOR
    for case in all_cases():
        if case.name == name:
            return case
    raise KeyError(f"no benchmark case named {name!r}")
