"""Argument conversion follows a class when it changes: the per-type conversion cache is dropped
when a class gains (or loses) a protocol after one of its instances was converted."""

from __future__ import annotations

import tvm_ffi
import tvm_ffi.testing  # noqa: F401  (registers testing.echo)
from leakcheck import no_ffi_leaks  # noqa: F401


def test_protocol_added_after_a_conversion_is_used() -> None:
    echo = tvm_ffi.get_global_func("testing.echo")

    class Meters:
        pass

    first = Meters()
    assert echo(first) is first  # an opaque Python object, as the class has no protocol yet
    Meters.__tvm_ffi_int__ = lambda self: 42  # type: ignore[attr-defined]
    assert echo(Meters()) == 42
    del Meters.__tvm_ffi_int__  # type: ignore[attr-defined]
    second = Meters()
    assert echo(second) is second
    del echo


def test_protocol_added_to_a_base_class_reaches_subclasses() -> None:
    echo = tvm_ffi.get_global_func("testing.echo")

    class Base:
        pass

    class Derived(Base):
        pass

    d = Derived()
    assert echo(d) is d
    Base.__tvm_ffi_float__ = lambda self: 1.5  # type: ignore[attr-defined]
    assert echo(Derived()) == 1.5
    del echo
