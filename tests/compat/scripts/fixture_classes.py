"""Prints, as JSON, how ``tvm_ffi.testing`` binds each fixture class as a dataclass: its
``inspect.signature``, ``is_dataclass``, ``fields()`` options and ``__match_args__``.

tests/compat/test_fixture_reflection.py runs it under our package and the reference.
"""

from __future__ import annotations

import inspect
import json
from typing import Any, Callable

import tvm_ffi.testing as t
from tvm_ffi import dataclasses as dc

NAMES = ["TestIntPair", "TestObjectBase", "TestObjectDerived", "TestObjectPtrHolder", "TestNonCopyable",
         "TestCompare", "TestHash", "TestCustomHash", "TestCustomCompare", "TestEqWithoutHash",
         "_TestCxxClassBase", "_TestCxxClassDerived", "_TestCxxClassDerivedDerived", "_TestCxxInitSubset",
         "_TestCxxKwOnly", "_TestCxxAutoInit", "_TestCxxAutoInitSimple", "_TestCxxAutoInitAllInitOff",
         "_TestCxxAutoInitKwOnlyDefaults", "_TestCxxNoAutoInit", "_TestCxxAutoInitParent",
         "_TestCxxAutoInitChild", "_SchemaAllTypes"]


def attempt(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception as err:  # noqa: BLE001 -- the observation is the error itself
        return f"{type(err).__name__}: {err}"


def describe(cls: type) -> dict[str, Any]:
    return {
        "signature": attempt(lambda: str(inspect.signature(cls))),
        "is_dataclass": attempt(lambda: dc.is_dataclass(cls)),
        "fields": attempt(lambda: [(f.name, f.init, f.kw_only, f.repr, f.compare, f.hash, f.frozen, repr(f.default))
                                   for f in dc.fields(cls)]),
        "match_args": attempt(lambda: list(cls.__match_args__)),  # type: ignore[attr-defined]
        "content_eq": attempt(lambda: sorted(n for n in ("__eq__", "__hash__", "__lt__") if n in vars(cls))),
    }


def main() -> None:
    print(json.dumps({name: describe(getattr(t, name)) for name in NAMES}, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
