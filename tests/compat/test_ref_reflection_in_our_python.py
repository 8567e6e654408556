"""An extension library built against the REFERENCE's C++ headers, whose object types are
registered with refl::ObjectDef (kernels/ref_reflect_lib.cc), used fully from OUR Python package:
loaded with ``libinfo.load_lib_module``, its types bound with ``register_object`` get fields,
methods, static methods and constructors (explicit ``init<...>`` and the auto-generated KWARGS
init the runtime makes through ``ffi._RegisterFFIInit``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tvm_ffi
from leakcheck import no_ffi_leaks  # noqa: F401
from tvm_ffi import core

from .conftest import KERNELS_DIR, Reference, build_kernel


@pytest.fixture(scope="module")
def lib_dir(reference: Reference, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ref_reflect_lib")
    build_kernel(KERNELS_DIR / "ref_reflect_lib.cc", out / "libdemo_reflect.so",
                 include_dir=reference.include_dir, link_dir=reference.lib_dir)
    return out


@pytest.fixture(scope="module")
def demo(lib_dir: Path) -> Any:
    """The library loaded as its package would, and its classes bound."""
    tvm_ffi.libinfo.load_lib_module("demo-reflect", "demo_reflect", extra_lib_paths=[lib_dir])

    @tvm_ffi.register_object("demo.Grammar")
    class Grammar(tvm_ffi.Object):
        __slots__ = ()

    @tvm_ffi.register_object("demo.TokenizerInfo")
    class TokenizerInfo(tvm_ffi.Object):
        __slots__ = ()

    @tvm_ffi.register_object("demo.Config")
    class Config(tvm_ffi.Object):
        __slots__ = ()

    return type("Demo", (), {"Grammar": Grammar, "TokenizerInfo": TokenizerInfo, "Config": Config})


def test_static_factory_fields_and_methods(demo: Any) -> None:
    grammar = demo.Grammar.from_ebnf("expr", 3)
    assert type(grammar) is demo.Grammar
    assert (grammar.root, grammar.num_rules, grammar.to_string()) == ("expr", 3, "root ::= expr")
    assert demo.Grammar.to_string.__doc__ == "the grammar as EBNF"
    assert demo.Grammar.root.__doc__ == "root rule text"
    with pytest.raises(ValueError, match="from_ebnf: empty grammar text"):
        demo.Grammar.from_ebnf("", 1)
    with pytest.raises(TypeError, match="`Grammar` cannot be constructed directly"):
        demo.Grammar()  # registered with refl::init(false): no __ffi_init__


def test_explicit_init_constructs_from_python(demo: Any) -> None:
    info = demo.TokenizerInfo(["a", "b", "c"], True)
    assert (info.vocab_size, list(info.vocab), info.add_prefix_space) == (3, ["a", "b", "c"], True)
    assert info.token_id("b") == 1
    info.add_prefix_space = False
    assert info.add_prefix_space is False
    with pytest.raises(KeyError, match="unknown token zz"):
        info.token_id("zz")
    read_only = "property of 'demo.<locals>.TokenizerInfo' object has no setter|can't set attribute"  # 3.11 | 3.9, 3.10
    with pytest.raises(AttributeError, match=read_only):
        info.vocab_size = 1
    with pytest.raises(TypeError, match=r"demo.TokenizerInfo.__ffi_init__.* Expected 2 but got 1 arguments"):
        demo.TokenizerInfo(["a"])
    with pytest.raises(TypeError, match="Mismatched number of arguments"):
        info.token_id()


def test_auto_init_from_field_defaults(demo: Any) -> None:
    config = demo.Config(name="x")
    assert (config.depth, config.temperature, config.name, config.grammar) == (3, 1.0, "x", None)
    config = demo.Config("y", 5, 0.5)  # required fields first, then the defaulted ones
    assert (config.depth, config.temperature) == (5, 0.5)
    grammar = demo.Grammar.from_ebnf("g", 1)
    config.grammar = grammar
    assert config.grammar.same_as(grammar)
    with pytest.raises(TypeError, match="Cannot convert from type `ffi.SmallStr` to `int`"):
        config.depth = "deep"
    with pytest.raises(TypeError, match="demo.Grammar"):
        config.grammar = demo.TokenizerInfo([], False)
    with pytest.raises(TypeError, match=r"demo.Config.__ffi_init__\(\) missing required argument: 'name'"):
        demo.Config()
    with pytest.raises(TypeError, match=r"field 'depth':\n  Cannot convert from type `float` to `int`"):
        demo.Config(depth=1.5, name="z")


def test_unbound_child_type_gets_a_class_with_its_own_fields(demo: Any) -> None:
    special = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")("demo.SpecialConfig", "name", "n")
    cls = type(special)
    assert issubclass(cls, demo.Config) and cls.__name__ == "SpecialConfig"
    assert (special.level, special.depth, special.name) == (7, 3, "n")
    made = cls(name="q", level=2)  # kw_only field through the generated init
    assert (made.level, made.name) == (2, "q")


def test_type_info_and_schemas_of_the_library(demo: Any) -> None:
    info = core._lookup_or_register_type_info_from_type_key("demo.TokenizerInfo")
    assert info.type_cls is demo.TokenizerInfo
    assert [(f.name, f.frozen, str(f.ty)) for f in info.fields] == [
        ("vocab", True, "Array[str]"), ("vocab_size", True, "int"), ("add_prefix_space", False, "bool")]
    methods = {m.name: m for m in info.methods}
    assert methods["__ffi_init__"].is_static and not methods["token_id"].is_static
    schema = core.TypeSchema.from_json_str(methods["token_id"].metadata["type_schema"])
    assert str(schema) == "Callable[[demo.TokenizerInfo, str], int]"
    config = core._lookup_or_register_type_info_from_type_key("demo.Config")
    assert [str(f.ty) for f in config.fields] == ["int", "float", "str", "demo.Grammar | None"]
    assert [f.c_default for f in config.fields[:2]] == [3, 1.0]


def test_missing_library_lists_where_it_looked(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match=r"Cannot find library libno_such_target.so .*\n.*" + str(tmp_path)):
        tvm_ffi.libinfo.load_lib_module("demo-reflect", "no_such_target", extra_lib_paths=[tmp_path])
    with pytest.raises(TypeError, match=r"extra_lib_paths\[0\] must be a pathlib.Path"):
        tvm_ffi.libinfo.load_lib_module("demo-reflect", "demo_reflect", extra_lib_paths=[str(tmp_path)])  # type: ignore[list-item]


def test_load_lib_ctypes_finds_the_package_libraries(lib_dir: Path) -> None:
    lib = tvm_ffi.libinfo.load_lib_ctypes("demo-reflect", "demo_reflect", "RTLD_LOCAL", extra_lib_paths=[lib_dir])
    assert Path(lib._name).parent == lib_dir.resolve()
    runtime = tvm_ffi.libinfo.load_lib_ctypes("tvm_ffi", "tvm_ffi", "RTLD_GLOBAL")  # next to the package
    assert Path(runtime._name).name == "libtvm_ffi.so" and hasattr(runtime, "TVMFFIGetTypeInfo")
    with pytest.raises(ValueError, match="mode must be 'RTLD_LOCAL' or 'RTLD_GLOBAL'"):
        tvm_ffi.libinfo.load_lib_ctypes("tvm_ffi", "tvm_ffi", "LAZY")
