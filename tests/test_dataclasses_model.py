"""Model tests: py_class behaves as Python's ``dataclasses`` for the same declarations.

Each case declares the same fields both ways and compares signatures (names and kinds),
``__match_args__``, ``fields()`` order, which calls construct and what they hold, and ``==``.
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
from typing import Any

import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi.dataclasses import KW_ONLY, field, fields, py_class

if sys.version_info < (3, 10):  # the stdlib model needs kw_only and KW_ONLY (3.10)
    pytest.skip("dataclasses.KW_ONLY is new in Python 3.10", allow_module_level=True)


@dataclasses.dataclass(eq=True)
class StdPlain:
    a: int
    b: int = 2
    c: str = dataclasses.field(default="c", kw_only=True)


@py_class("dc_model.Plain", eq=True)
class FfiPlain(tvm_ffi.Object):
    a: int
    b: int = 2
    c: str = field(default="c", kw_only=True)


@dataclasses.dataclass(eq=True)
class StdMarker:
    a: int
    _: dataclasses.KW_ONLY
    b: float
    d: bool = True


@py_class("dc_model.Marker", eq=True)
class FfiMarker(tvm_ffi.Object):
    a: int
    _: KW_ONLY
    b: float
    d: bool = True


@dataclasses.dataclass(eq=True, kw_only=True)
class StdKw:
    a: int
    b: int = 1


@py_class("dc_model.Kw", eq=True, kw_only=True)
class FfiKw(tvm_ffi.Object):
    a: int
    b: int = 1


@dataclasses.dataclass(eq=True)
class StdNoInit:
    a: int
    hidden: int = dataclasses.field(default=9, init=False)


@py_class("dc_model.NoInit", eq=True)
class FfiNoInit(tvm_ffi.Object):
    a: int
    hidden: int = field(default=9, init=False)


PAIRS = [(StdPlain, FfiPlain), (StdMarker, FfiMarker), (StdKw, FfiKw), (StdNoInit, FfiNoInit)]
CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((), {}), ((1,), {}), ((1, 3), {}), ((1,), {"c": "z"}), ((1,), {"b": 2}), ((), {"a": 1}),
    ((), {"a": 1, "b": 5}), ((1,), {"hidden": 3}), ((1, 2, 3), {}), ((1,), {"nope": 1}),
]


def _shape(sig: inspect.Signature) -> list[tuple[str, Any, bool]]:
    return [(p.name, p.kind, p.default is not inspect.Parameter.empty) for p in sig.parameters.values()]


@pytest.mark.parametrize(("std", "ffi"), PAIRS, ids=[s.__name__ for s, _ in PAIRS])
def test_signature_match_args_and_fields(std: type, ffi: type) -> None:
    assert _shape(inspect.signature(ffi)) == _shape(inspect.signature(std))
    assert ffi.__match_args__ == std.__match_args__
    assert [f.name for f in fields(ffi)] == [f.name for f in dataclasses.fields(std)]


@pytest.mark.parametrize(("std", "ffi"), PAIRS, ids=[s.__name__ for s, _ in PAIRS])
@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_same_calls_construct(std: type, ffi: type, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    try:
        expected = std(*args, **kwargs)
    except TypeError:
        with pytest.raises(TypeError):
            ffi(*args, **kwargs)
        return
    got = ffi(*args, **kwargs)
    for f in dataclasses.fields(std):
        assert getattr(got, f.name) == getattr(expected, f.name)
    assert got == ffi(*args, **kwargs)
