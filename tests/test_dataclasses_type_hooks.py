"""Class-level hooks of py_class bodies: __ffi_inherit_type_attrs__ (parent type attributes a
child gets), __ffi_field_markers__ (annotations that mark positions, not fields) and
__ffi_on_fields_resolved__ callables (see the own fields before the runtime does)."""

from __future__ import annotations

from typing import Any, Callable

import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import core
from tvm_ffi.dataclasses import Field, field, fields, py_class


class Marker:
    """An extension's position marker: `m: Marker` declares no field."""


SEEN: list[tuple[str, list[str], Any]] = []


def tag_fields(info: Any, own_fields: list[Field]) -> None:
    """Consumes the extension's `tag=` field option: tagged fields are structurally ignored."""
    SEEN.append((info.type_key, [f.name for f in own_fields], info.fields))
    for f in own_fields:
        if f.extra_kwargs.pop("tag", None) is not None:
            f.structural_eq = "ignore"


tag_fields.__ffi_on_fields_resolved__ = True  # type: ignore[attr-defined]


@py_class("dc_type_hooks.Base")
class Base(tvm_ffi.Object):
    __ffi_type_attr_names__ = ("__my_attr__",)
    __ffi_inherit_type_attrs__ = ("__my_attr__", "__data_to_json__")
    __ffi_field_markers__ = (Marker,)
    _on_fields = tag_fields
    a: int
    m: Marker = 3  # type: ignore[assignment]
    b: int = field(default=1, tag="x")

    def __my_attr__(self) -> int:
        return 1


@py_class("dc_type_hooks.Child")
class Child(Base):
    c: int
    n: Marker


@py_class("dc_type_hooks.Quiet")
class Quiet(Base):
    __my_attr__ = None  # a body value, None too, wins over the parent's
    d: int


def _attr(cls: type, name: str) -> Any:
    return core._lookup_type_attr(cls.__tvm_ffi_type_info__.type_index, name)  # type: ignore[attr-defined]


def test_inherited_type_attributes() -> None:
    assert _attr(Base, "__my_attr__") is not None
    assert _attr(Child, "__my_attr__") is not None  # copied from Base
    assert _attr(Quiet, "__my_attr__") is None


def test_field_markers_are_positions_not_fields() -> None:
    assert [f.name for f in fields(Child)] == ["a", "b", "c"]
    assert Base.m == 3  # type: ignore[comparison-overlap]  # the declared value stays for the extension
    markers = Child.__tvm_ffi_type_info__._decorator_args["field_markers"]  # type: ignore[attr-defined]
    assert markers == ((Marker, Base, "m", 1), (Marker, Child, "n", 3))  # parent's first; index among fields
    assert repr(Child(a=1, c=2)) == "dc_type_hooks.Child(a=1, b=1, c=2)"


def test_on_fields_resolved_hooks_see_own_fields_before_registration() -> None:
    assert [entry[:2] for entry in SEEN[:3]] == [("dc_type_hooks.Base", ["a", "b"]), ("dc_type_hooks.Child", ["c"]),
                                                ("dc_type_hooks.Quiet", ["d"])]
    assert all(entry[2] is None for entry in SEEN[:3])  # nothing registered yet
    assert [(f.name, f.c_structural_eq) for f in Base.__tvm_ffi_type_info__.fields] == [("a", None), ("b", "ignore")]


def _definition_error(define: Callable[[], object]) -> Exception:
    try:
        define()
    except Exception as err:  # noqa: BLE001 -- the error is what the test looks at
        return err
    raise AssertionError("the definition was accepted")


def _unknown_option() -> object:
    @py_class("dc_type_hooks.Bad")
    class Bad(tvm_ffi.Object):
        a: int = field(foo=1)

    return Bad


def _bad_markers() -> object:
    @py_class("dc_type_hooks.Bad2")
    class Bad2(tvm_ffi.Object):
        __ffi_field_markers__ = ("x",)
        a: int

    return Bad2


def _bad_inherit_list() -> object:
    @py_class("dc_type_hooks.Bad3")
    class Bad3(tvm_ffi.Object):
        __ffi_inherit_type_attrs__ = [1]
        a: int

    return Bad3


# Rejected definitions still allocate their type index for the process: made at import, not
# inside a test (the leak check counts what a test leaves behind).
ERRORS = [_definition_error(define) for define in (_unknown_option, _bad_markers, _bad_inherit_list)]


def test_malformed_hook_lists() -> None:
    assert [(type(e), str(e)) for e in ERRORS] == [
        (TypeError, "Bad.a: unrecognized field options: foo"),
        (TypeError, "__ffi_field_markers__ must be a tuple or list of types"),
        (TypeError, "TypeAttr registration lists must be tuples or lists of strings"),
    ]
