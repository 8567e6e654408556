"""The global function registry from Python: register, look up, call back, list, remove, metadata,
and init_ffi_api populating a module."""

from __future__ import annotations

import sys
import types
import uuid
from collections.abc import Iterator

import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import registry


@pytest.fixture
def name() -> Iterator[str]:
    """A fresh global-function name, removed again after the test."""
    fname = f"testing.pylayer.{uuid.uuid4().hex[:12]}"
    yield fname
    tvm_ffi.remove_global_func(fname)


def test_register_and_call_back(name: str) -> None:
    def add(a: int, b: int) -> int:
        return a + b

    registered = tvm_ffi.register_global_func(name, add)
    assert isinstance(registered, tvm_ffi.Function)
    f = tvm_ffi.get_global_func(name)
    assert isinstance(f, tvm_ffi.Function)
    assert f(1, 2) == 3
    assert f("a", "b") == "ab"
    # the registry holds the function: lookups return the same FFI object
    assert f.same_as(tvm_ffi.get_global_func(name))


def test_register_as_decorator(name: str) -> None:
    @tvm_ffi.register_global_func(name)
    def twice(x: int) -> int:
        return 2 * x

    assert isinstance(twice, tvm_ffi.Function)
    assert twice(4) == 8
    assert tvm_ffi.get_global_func(name)(5) == 10


def test_register_bare_decorator_uses_function_name() -> None:
    @tvm_ffi.register_global_func
    def pylayer_bare_decorated(x: int) -> int:
        return x - 1

    try:
        assert tvm_ffi.get_global_func("pylayer_bare_decorated")(10) == 9
        assert isinstance(pylayer_bare_decorated, tvm_ffi.Function)
    finally:
        tvm_ffi.remove_global_func("pylayer_bare_decorated")


def test_register_existing_name_needs_override(name: str) -> None:
    tvm_ffi.register_global_func(name, lambda: 1)
    with pytest.raises(RuntimeError, match=f"Global Function `{name}` is already registered"):
        tvm_ffi.register_global_func(name, lambda: 2)
    assert tvm_ffi.get_global_func(name)() == 1
    tvm_ffi.register_global_func(name, lambda: 3, override=True)
    assert tvm_ffi.get_global_func(name)() == 3


def test_register_rejects_bad_arguments(name: str) -> None:
    with pytest.raises(TypeError, match="expected a callable, got int"):
        tvm_ffi.register_global_func(name, 42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected a function name"):
        tvm_ffi.register_global_func(42)  # type: ignore[arg-type]
    assert tvm_ffi.get_global_func(name, allow_missing=True) is None


def test_register_an_ffi_function_under_a_second_name(name: str) -> None:
    tvm_ffi.register_global_func(name, tvm_ffi.get_global_func("ffi.String"))
    assert tvm_ffi.get_global_func(name)("abc") == "abc"


def test_get_missing_function() -> None:
    with pytest.raises(ValueError, match="Cannot find global function testing.pylayer.no_such_function"):
        tvm_ffi.get_global_func("testing.pylayer.no_such_function")
    assert tvm_ffi.get_global_func("testing.pylayer.no_such_function", allow_missing=True) is None
    with pytest.raises(TypeError, match=r"expected a function name \(str\), got NoneType"):
        tvm_ffi.get_global_func(None)  # type: ignore[arg-type]


def test_remove(name: str) -> None:
    tvm_ffi.register_global_func(name, lambda: None)
    assert tvm_ffi.remove_global_func(name) is None  # as the reference: no return value
    assert tvm_ffi.get_global_func(name, allow_missing=True) is None
    tvm_ffi.remove_global_func(name)  # removing a missing name is not an error


def test_list_global_func_names(name: str) -> None:
    before = registry.list_global_func_names()
    assert "ffi.FunctionListGlobalNamesFunctor" in before and name not in before
    assert all(isinstance(n, str) for n in before) and len(before) == len(set(before))
    tvm_ffi.register_global_func(name, lambda: None)
    assert set(registry.list_global_func_names()) == {*before, name}


def test_exceptions_in_registered_functions_reach_the_caller(name: str) -> None:
    def fails(x: int) -> int:
        raise KeyError(f"no entry {x}")

    tvm_ffi.register_global_func(name, fails)
    with pytest.raises(KeyError, match="no entry 7"):
        tvm_ffi.get_global_func(name)(7)


def test_global_func_metadata(name: str) -> None:
    tvm_ffi.register_global_func(name, lambda: None)
    # functions registered from Python carry no metadata
    assert tvm_ffi.get_global_func_metadata(name) == {}
    with pytest.raises(RuntimeError, match="Global Function is not found: testing.pylayer.nowhere"):
        tvm_ffi.get_global_func_metadata("testing.pylayer.nowhere")


def test_builtin_functions_carry_their_type_schema() -> None:
    schema = tvm_ffi.core.TypeSchema.from_json_str(
        tvm_ffi.get_global_func_metadata("ffi.ModuleGetFunction")["type_schema"])
    assert schema.repr() == "Callable[[ffi.Module, str, bool], Callable[..., Any] | None]"
    # variadic constructors are packed functions: a schema without parameters
    assert tvm_ffi.get_global_func_metadata("ffi.Array") == {"type_schema": '{"type":"ffi.Function"}'}


def test_every_builtin_of_the_reference_has_a_type_schema() -> None:
    # Ours alone (internals of this package) have none; everything else names its types.
    ours_alone = {"ffi.LiveObjectCount", "ffi._ContentEqual", "ffi._ContentHash", "ffi._PyClassRaisePending"}
    builtins = [name for name in tvm_ffi.registry.list_global_func_names()
                if name.startswith("ffi.") and name not in ours_alone]
    assert len(builtins) >= 100
    assert [name for name in builtins if "type_schema" not in tvm_ffi.get_global_func_metadata(name)] == []


def test_builtin_argument_errors_show_the_signature() -> None:
    with pytest.raises(TypeError) as err:
        tvm_ffi.get_global_func("ffi.FunctionRemoveGlobal")(tvm_ffi.dtype("int8"))
    assert str(err.value) == (
        "Mismatched type on argument #0 when calling: `ffi.FunctionRemoveGlobal(0: str) -> bool`. "
        "Expected `str` but got `DataType`")
    with pytest.raises(TypeError, match=r"`ffi.ListAppend\(0: List<Any>, 1: Any\) -> void`. Expected 2 but got 1"):
        tvm_ffi.get_global_func("ffi.ListAppend")(tvm_ffi.List([]))
    with pytest.raises(TypeError, match="Expected `List<Any>` but got `ffi.Array`"):
        tvm_ffi.get_global_func("ffi.ListAppend")(tvm_ffi.Array([]), 1)


def test_find_access_paths_is_a_global_function() -> None:
    find = tvm_ffi.get_global_func("ffi.VisitErrorContext.FindAccessPaths")
    with pytest.raises(TypeError, match="Expected `ffi.VisitErrorContext` but got `None`"):
        find(None, None, False)


def test_init_ffi_api_populates_a_module() -> None:
    namespace = f"testing.pylayer_api_{uuid.uuid4().hex[:8]}"
    target = types.ModuleType("pylayer_api_target")
    sys.modules[target.__name__] = target
    names = [f"{namespace}.alpha", f"{namespace}.beta", f"{namespace}.sub.gamma", f"{namespace}x.delta"]
    try:
        for i, fname in enumerate(names):
            tvm_ffi.register_global_func(fname, lambda i=i: i)
        tvm_ffi.init_ffi_api(namespace, target.__name__)
        assert target.alpha() == 0 and target.beta() == 1
        assert isinstance(target.alpha, tvm_ffi.Function)
        assert target.alpha.__name__ == "alpha" and target.beta.__name__ == "beta"  # named as the reference names them
        # sub-namespaces and names that merely share the prefix are not included
        assert not hasattr(target, "gamma") and not hasattr(target, "sub") and not hasattr(target, "delta")
    finally:
        del sys.modules[target.__name__]
        for fname in names:
            tvm_ffi.remove_global_func(fname)


def test_init_ffi_api_needs_an_imported_module() -> None:
    with pytest.raises(ValueError, match="module 'pylayer_not_imported' is not imported"):
        tvm_ffi.init_ffi_api("testing", "pylayer_not_imported")


def test_ffi_api_module_exposes_runtime_functions() -> None:
    from tvm_ffi import _ffi_api

    assert _ffi_api.String("hello") == "hello"
    assert isinstance(_ffi_api.ModuleGetKind, tvm_ffi.Function)
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchThing'"):
        _ffi_api.NoSuchThing  # noqa: B018


def test_get_registered_type_keys() -> None:
    keys = tvm_ffi.get_registered_type_keys()
    assert keys[:5] == ["None", "int", "bool", "float", "void*"]
    for key in ("ffi.Object", "ffi.String", "ffi.Function", "ffi.Error", "ffi.Module", "ffi.Array"):
        assert key in keys
    assert registry.get_registered_type_keys is tvm_ffi.get_registered_type_keys
