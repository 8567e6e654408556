"""``tvm-ffi-stubgen --target rust``: Rust bindings of reflected objects, by example.

Each test shows one thing the Rust backend does with a small made-up type (or a ``testing.*``
fixture type): when the byte layout is proven the object struct mirrors every field; when it
is not, the fields are read through getters; directives adjust types; blocks that refer to
types nobody provides are refused; ``--init`` lays out a module tree of ``mod.rs`` files.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import tvm_ffi.stub.cli as stub_cli
import tvm_ffi.testing  # noqa: F401  (registers the `testing.*` types)
from tvm_ffi.core import TypeSchema
from tvm_ffi.stub import consts as C
from tvm_ffi.stub.file_utils import CodeBlock
from tvm_ffi.stub.generator import get_generator
from tvm_ffi.stub.lib_state import object_info_from_type_key
from tvm_ffi.stub.rust_generator import codegen
from tvm_ffi.stub.rust_generator.codegen import (
    finalize_rust_module_tree,
    generate_rust_import_section,
    generate_rust_object,
)
from tvm_ffi.stub.rust_generator.directives import Directives, EnumSpec
from tvm_ffi.stub.rust_generator.utils import RustImports, rust_ident, rust_module_path
from tvm_ffi.stub.utils import DirectiveError, NamedTypeSchema, ObjectInfo, Options

RUST = get_generator("rust")
BEGIN, END = C.RUST_SYNTAX.begin, C.RUST_SYNTAX.end

#: Made-up ancestors a test defines, found by the generator's registry lookup.
_TYPES: dict[str, ObjectInfo] = {}


@pytest.fixture(autouse=True)
def _registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def lookup(type_key: str) -> ObjectInfo:
        return _TYPES[type_key] if type_key in _TYPES else object_info_from_type_key(type_key)

    monkeypatch.setattr(codegen, "object_info_from_type_key", lookup)
    yield
    _TYPES.clear()


def field(name: str, schema: str | TypeSchema, offset: int | None = None, size: int | None = None) -> NamedTypeSchema:
    """A reflected field; with an offset and size it also carries its bytes (aligned to its size)."""
    schema = TypeSchema(schema) if isinstance(schema, str) else schema
    alignment = None if size is None else min(size, 8)
    return NamedTypeSchema(name, schema, offset=offset, size=size, alignment=alignment)


def obj(type_key: str, *fields: NamedTypeSchema, parent: str = "ffi.Object", size: int | None = None,
        final: bool | None = None) -> ObjectInfo:
    """A reflected object type whose ancestors are ``ffi.Object`` and (when not it) ``parent``."""
    ancestors = ["ffi.Object"] if parent == "ffi.Object" else ["ffi.Object", parent]
    return ObjectInfo(fields=list(fields), methods=[], type_key=type_key, parent_type_key=parent,
                      ancestors=ancestors, total_size=size, is_final=final)


def render(info: ObjectInfo, imports: RustImports | None = None,
           modules: dict[str, tuple[str, ...]] | None = None) -> tuple[str, RustImports]:
    """Generate the object block of ``info`` in a file of module ``crate::demo``."""
    imports = imports or RustImports()
    assert info.type_key is not None
    declared = {info.type_key: ("crate", "demo"), **(modules or {})}
    block = CodeBlock(kind="object", param=info.type_key, lineno_start=5, lineno_end=6,
                      lines=[f"{BEGIN} object/{info.type_key}", END])
    generate_rust_object(block, RUST.default_ty_map(), imports, Options(), info, declared)
    return "\n".join(block.lines[1:-1]), imports


def with_directives(*lines: tuple[str, str]) -> RustImports:
    """A file's collector after reading the given ``(name, payload)`` directives."""
    imports = RUST.new_imports()
    for lineno, (name, payload) in enumerate(lines, start=1):
        RUST.add_directive(imports, name, payload, lineno)
    return imports


def uses(imports: RustImports) -> set[str]:
    return {item.path for item in imports.items}


# A 40-byte point: header [0, 24), x at 24, y at 32.
POINT = obj("demo.Point", field("x", "float", 24, 8), field("y", "float", 32, 8), size=40, final=True)


def test_complete_type_mirrors_every_field_and_gets_allocators() -> None:
    text, imports = render(POINT)
    assert text.startswith("/// Complete: reflected fields fill [24, 40) exactly.\n")
    assert "pub struct PointObj {\n    base: Object,\n    pub x: f64,\n    pub y: f64,\n}" in text
    assert "assert!(::core::mem::size_of::<PointObj>() == 40);" in text
    # The object struct's allocator is crate-private for a final type; the wrapper's is public.
    assert "    pub(crate) fn new(x: f64, y: f64) -> Self {" in text
    assert "impl Point {\n    /// Lossless complete-field allocation.\n    pub fn new(x: f64, y: f64) -> Self {" in text
    assert "FieldGetter" not in text
    assert uses(imports) == {"std::ops::Deref", "tvm_ffi::Object", "tvm_ffi::ObjectArc"}


def test_type_without_byte_facts_is_opaque_with_getters() -> None:
    text, imports = render(obj("demo.Named", field("name", "str"), field("value", "Any")))
    assert text.startswith("/// Opaque: no metadata of its own: total_size is unknown.")
    assert "pub struct NamedObj {\n    base: Object,\n}" in text
    getter = 'FieldGetter::new(Self::type_index(), "name")?.get(self)'
    assert f"pub fn name(&self) -> Result<String> {{\n        {getter}" in text
    assert "pub fn value(&self) -> Result<Any> {" in text and "get_any(self)" in text
    assert "fn new(" not in text  # nothing allocates an opaque type
    assert {"tvm_ffi::FieldGetter", "tvm_ffi::ObjectCore", "tvm_ffi::String", "tvm_ffi::Any"} <= uses(imports)


def test_a_hole_in_the_bytes_keeps_the_type_opaque() -> None:
    text, _ = render(obj("demo.Gappy", field("a", "int", 24, 8), size=40))
    assert "/// Opaque: bytes [32, 40) of [24, 40) are not accounted for by reflected fields." in text


def test_the_opaque_directive_vetoes_a_proven_layout() -> None:
    text, _ = render(POINT, with_directives(("opaque", "demo.Point")))
    assert "/// Opaque: vetoed by directive although the layout is reproducible." in text
    assert "pub fn x(&self) -> Result<f64> {" in text


def test_a_child_embeds_its_generated_parent_and_upcasts_to_it() -> None:
    _TYPES["geo.Shape"] = obj("geo.Shape", field("area", "float", 24, 8), size=32)
    circle = obj("demo.Circle", field("radius", "float", 32, 8), parent="geo.Shape", size=40, final=True)
    text, imports = render(circle, modules={"geo.Shape": ("crate", "geo")})
    assert "pub struct CircleObj {\n    base: ShapeObj,\n    pub radius: f64,\n}" in text
    assert "impl Deref for CircleObj {\n    type Target = ShapeObj;" in text
    # The allocator takes the parent's fields first and builds the parent part with its `new`.
    assert "        let base = ShapeObj::new(area);\n        Self { base, radius }" in text
    assert text.endswith("tvm_ffi::impl_object_upcast!(Circle => Shape);")
    # The parent lives in another module of the crate: it is imported by its `crate::` path.
    assert {"crate::geo::ShapeObj", "crate::geo::Shape"} <= uses(imports)


def test_a_block_referring_to_types_nobody_provides_is_refused() -> None:
    _TYPES["graph.Base"] = obj("graph.Base")  # registered, but no block of the run binds it
    info = obj("demo.Edge", field("head", "graph.Node"), parent="graph.Base")
    with pytest.raises(ValueError, match=r"`demo.Edge` \(line 5\) depends on `graph.Base`, `graph.Node`"):
        render(info)


def test_field_nullable_and_upcast_directives() -> None:
    imports = with_directives(
        ("field", "demo.Link.target -> crate::typed::Target"),
        ("nullable", "demo.Link.next"),
        ("upcast", "demo.Link -> crate::typed::Edge"),
    )
    link = obj("demo.Link", field("target", "demo.Point"), field("next", "demo.Point"))
    text, imports = render(link, imports, modules={"demo.Point": ("crate", "demo")})
    assert "pub fn target(&self) -> Result<Target> {" in text
    assert "pub fn next(&self) -> Result<Option<Point>> {" in text
    assert text.endswith("tvm_ffi::impl_object_upcast!(Link => Edge);")
    assert {"crate::typed::Target", "crate::typed::Edge"} <= uses(imports)


def test_custom_new_renames_the_generated_wrapper_allocator() -> None:
    text, _ = render(POINT, with_directives(("custom-new", "demo.Point")))
    assert "pub fn from_fields(x: f64, y: f64) -> Self {" in text
    assert "    pub fn new(" not in text


def test_enum_directive_declares_an_open_newtype() -> None:
    info = obj("demo.Light", field("color", "int", 24, 4), size=32, final=True)
    text, imports = render(info, with_directives(("enum", "demo.Light.color -> Color(i32) { Red=0, Green=1 }")))
    assert "pub struct Color(i32);" in text
    assert "    pub const Red: Self = Self(0);\n    pub const Green: Self = Self(1);" in text
    assert "impl TryFrom<i64> for Color {" in text
    assert "    pub color: Color,\n" in text
    assert {"tvm_ffi::Error", "tvm_ffi::VALUE_ERROR", "tvm_ffi::Result"} <= uses(imports)


@pytest.mark.parametrize(("name", "payload", "message"), [
    ("field", "demo.Light.color -> i64", "maps a 4-byte field to `i64` (8 bytes)"),
    ("enum", "demo.Light.color -> Color(u8)", "maps a 4-byte field to `u8` (1 bytes)"),
    ("nullable", "demo.Light.color", "the field is 4 bytes, not a pointer-sized object reference"),
])
def test_a_directive_must_agree_with_the_reflected_bytes(name: str, payload: str, message: str) -> None:
    info = obj("demo.Light", field("color", "int", 24, 4), size=32)
    with pytest.raises(DirectiveError, match=message.replace("(", r"\(").replace(")", r"\)")):
        render(info, with_directives((name, payload)))


def test_directive_payloads_are_parsed_or_rejected_with_the_expected_form() -> None:
    directives = Directives()
    directives.add("enum", "demo.Light.color -> Color(u8) { Red = 0, Off=-1 }", 1)
    directives.add("upcast", "demo.Light -> Lamp", 2)
    assert directives.enums == {"demo.Light.color": EnumSpec("Color", "u8", (("Red", 0), ("Off", -1)))}
    assert directives.upcasts == {"demo.Light": ["Lamp"]}
    with pytest.raises(DirectiveError, match=r"Invalid `field` directive at line 3\. Expected `<type_key>\.<field>"):
        directives.add("field", "Light -> Lamp", 3)
    with pytest.raises(DirectiveError, match="Unknown directive `paint` at line 4"):
        directives.add("paint", "demo.Light", 4)


def test_builtin_ancestors_get_header_only_stand_ins_in_the_import_section() -> None:
    info = ObjectInfo(fields=[], methods=[], type_key="demo.Mode", parent_type_key="ffi.IntEnum",
                      ancestors=["ffi.Object", "ffi.Enum", "ffi.IntEnum"])
    text, imports = render(info)
    assert "    base: FfiIntEnumObj," in text
    section = CodeBlock(kind="import-section", param="", lineno_start=1, lineno_end=2,
                        lines=[f"{BEGIN} import-section", END])
    generate_rust_import_section(section, imports, Options(), defined_types=set())
    body = "\n".join(section.lines)
    assert "use tvm_ffi::ObjectArc;" in body
    assert "struct FfiEnumObj {\n    base: Object,\n}" in body
    assert "struct FfiIntEnumObj {\n    base: FfiEnumObj,\n}" in body


def test_imports_dedup_and_fall_back_to_full_paths_on_a_clash() -> None:
    imports = RustImports()
    assert imports.record("tvm_ffi::Array") == "Array"
    assert imports.record("ffi.String") == "String"  # a dotted FFI name is a crate path
    assert imports.record("other::Array") == "other::Array"  # `Array` is taken: spelled in full
    assert imports.record("u32") == "u32"  # primitives need no `use`
    assert [item.as_use_line() for item in imports.items] == ["use tvm_ffi::Array;", "use tvm_ffi::String;"]


def test_field_names_become_rust_identifiers() -> None:
    assert [rust_ident(n) for n in ("data_", "__repr__", "type", "self", "base", "_")] == [
        "data", "repr", "r#type", "self_", "base_", "_"]


def test_a_files_module_comes_from_its_place_in_the_crate(tmp_path: Path) -> None:
    (tmp_path / "Cargo.toml").write_text("", encoding="utf-8")
    src = tmp_path / "src"
    assert rust_module_path(src / "lib.rs") == ("crate",)
    assert rust_module_path(src / "ir" / "mod.rs") == ("crate", "ir")
    assert rust_module_path(src / "ir" / "type.rs") == ("crate", "ir", "r#type")
    with pytest.raises(ValueError, match="so it is in no module of the crate"):
        rust_module_path(tmp_path / "build.rs")


def test_module_tree_declares_each_generated_module_once(tmp_path: Path) -> None:
    (tmp_path / "ir").mkdir()
    (tmp_path / "ir" / "mod.rs").write_text("pub struct HandWritten;\n", encoding="utf-8")
    for _ in range(2):
        finalize_rust_module_tree(tmp_path, {"ir.attrs", "tirx"})
    assert (tmp_path / "mod.rs").read_text(encoding="utf-8") == "pub mod ir;\npub mod tirx;\n"
    assert (tmp_path / "ir" / "mod.rs").read_text(encoding="utf-8") == "pub struct HandWritten;\n\npub mod attrs;\n"
    assert not (tmp_path / "tirx" / "mod.rs").exists()  # a leaf module's file is --init's to write


def _stubgen(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setattr(sys, "argv", ["tvm-ffi-stubgen", "--target", "rust", *args])
    return stub_cli.__main__()


def test_cli_generates_and_checks_a_crate_of_testing_bindings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "Cargo.toml").write_text("[package]\nname = \"demo\"\n", encoding="utf-8")
    out = tmp_path / "src" / "ffi"
    init = ["--init-pypkg", "demo", "--init-lib", "demo_shared", "--init-prefix", "testing."]
    assert _stubgen(monkeypatch, *init, str(out)) == 0
    assert (out / "mod.rs").read_text(encoding="utf-8") == "pub mod testing;\n"
    mod_rs = out / "testing" / "mod.rs"
    text = mod_rs.read_text(encoding="utf-8")
    assert text.startswith("#![allow(dead_code, unused_imports)]\n")
    # A proven chain is mirrored; each level's allocator takes the fields root first.
    assert "pub struct TestCxxClassBaseObj {\n    base: Object,\n    pub v_i64: i64,\n    pub v_i32: i32,\n}" in text
    assert "        let base = TestCxxClassDerivedObj::new(v_i64, v_i32, v_f64, v_f32);" in text
    # A type with an unreflected member stays opaque.
    assert "/// Opaque: bytes [32, 40) of [24, 48) are not accounted for by reflected fields." in text
    # The generated tree is up to date; a hand edit inside a block makes `--check` fail.
    assert _stubgen(monkeypatch, "--check", str(out)) == 0
    mod_rs.write_text(text.replace("    pub v_i32: i32,\n", "    pub v_i32: u32,\n", 1), encoding="utf-8")
    assert _stubgen(monkeypatch, "--check", str(out)) == 1
    assert _stubgen(monkeypatch, str(out)) == 0
    assert mod_rs.read_text(encoding="utf-8") == text


def test_cli_fails_on_a_directive_that_contradicts_the_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "Cargo.toml").write_text("", encoding="utf-8")
    lib_rs = tmp_path / "src" / "lib.rs"
    lib_rs.parent.mkdir()
    lib_rs.write_text(
        f"{C.RUST_SYNTAX.directive('field')} testing.TestCxxClassBase.v_i32 -> i64\n"
        f"{BEGIN} object/testing.TestCxxClassBase\n{END}\n", encoding="utf-8")
    assert _stubgen(monkeypatch, str(lib_rs)) == 2
