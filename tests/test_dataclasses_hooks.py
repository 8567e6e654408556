"""py_class bodies: @tvm_ffi.dataclasses.method type methods and type-attribute hooks."""

from __future__ import annotations

import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import _core
from tvm_ffi.dataclasses import method, py_class


@py_class("dc_hooks.Counter")
class Counter(tvm_ffi.Object):
    n: int

    @method
    def add(self, k: int) -> int:
        """Adds k to n."""
        return self.n + k

    @method
    @staticmethod
    def make(n: int) -> Counter:
        return Counter(n)

    def plain(self) -> int:  # not registered
        return self.n

    def __ffi_repr__(self, fn_repr: object) -> str:
        return f"<Counter {self.n}>"


@py_class("dc_hooks.Plain")
class Plain(tvm_ffi.Object):
    x: int

    def __ffi_custom_op__(self) -> int:  # an unknown __ffi_ name stays Python-only
        return self.x


def test_methods_are_registered_in_runtime() -> None:
    info = Counter.__tvm_ffi_type_info__
    names = {m.name: m for m in info.methods}
    assert set(names) == {"add", "make"}
    assert names["make"].is_static and not names["add"].is_static
    assert names["add"].metadata == {"type_schema": {"type": "Callable", "named_args": {
        "return": [{"type": "int"}], "params": [{"type": "dc_hooks.Counter"}, {"type": "int"}]}}}
    c = Counter(2)
    assert names["add"].func(c, 3) == 5  # what a C/C++ caller reaches
    assert c.add(1) == 3 and Counter.make(4).n == 4 and c.plain() == 2


def test_repr_hook_is_a_type_attribute() -> None:
    assert _core._lookup_type_attr(Counter.__tvm_ffi_type_info__.type_index, "__ffi_repr__") is not None
    assert repr(Counter(7)) == "<Counter 7>"
    assert repr(tvm_ffi.Array([Counter(1)])) == "(<Counter 1>,)"


def test_collected_body_members_are_hooks_and_marked_methods_only() -> None:
    from tvm_ffi.dataclasses.py_class import _collect_py_methods

    collected = _collect_py_methods(Counter)
    assert collected is not None
    assert {name: is_static for name, _, is_static in collected} == {
        "add": False, "make": True, "__ffi_repr__": False}
    assert dict((name, fn) for name, fn, _ in collected)["make"] is Counter.make  # unwrapped
    assert _collect_py_methods(Plain) is None
    assert Plain.__tvm_ffi_type_info__.methods == []


def test_method_decorator_errors() -> None:
    with pytest.raises(TypeError, match="@classmethod is not supported"):
        method(classmethod(lambda cls: None))
    with pytest.raises(TypeError, match="expected a callable, got int"):
        method(5)  # type: ignore[arg-type]


def test_a_marked_method_under_classmethod_is_refused_by_the_class() -> None:
    with pytest.raises(TypeError, match="'make' is wrapped by @classmethod"):
        @py_class("testing.hooks.ClassmethodOverMethod")
        class Swapped(tvm_ffi.Object):
            @classmethod
            @method
            def make(cls) -> int:
                return 0

    def build(cls: type) -> int:
        return 0

    build.__ffi_method__ = True  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="'built' is wrapped by @classmethod"):
        @py_class("testing.hooks.ManuallyMarkedClassmethod")
        class Manual(tvm_ffi.Object):
            built = classmethod(build)


def test_package_exports() -> None:
    assert tvm_ffi.method is method
    assert "dataclasses" in tvm_ffi.__all__ and "method" in tvm_ffi.__all__
