"""The stub generator's building blocks, used the way a backend or a tool built on them would.

Files are read into code blocks, blocks are filled by a target's generator, and the command's
stages tie them together: ``_stage_2`` scaffolds packages, ``_stage_3`` fills one file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tvm_ffi.core import TypeSchema
from tvm_ffi.stub import consts as C
from tvm_ffi.stub import generator as stub_generator
from tvm_ffi.stub.cli import _stage_1, _stage_2, _stage_3
from tvm_ffi.stub.file_utils import CodeBlock, FileInfo, collect_files, syntax_for
from tvm_ffi.stub.generator import generator_names, get_generator, register_generator
from tvm_ffi.stub.lib_state import collect_global_funcs, object_info_from_type_key, toposort_objects
from tvm_ffi.stub.python_generator import PythonGenerator
from tvm_ffi.stub.python_generator.codegen import generate_python_global_funcs, generate_python_object
from tvm_ffi.stub.python_generator.utils import ImportItem, render_func_signature, render_object_methods
from tvm_ffi.stub.utils import DirectiveError, FuncInfo, InitConfig, NamedTypeSchema, ObjectInfo, Options

PY = C.PYTHON_SYNTAX
INT = TypeSchema("int")


def _callable(*types: str) -> TypeSchema:
    """A ``Callable`` schema: the return type first, then the parameters."""
    return TypeSchema("Callable", tuple(TypeSchema(t) for t in types))


def _short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


# --- markers and code blocks ---------------------------------------------------------------


def test_marker_texts_per_language() -> None:
    assert (PY.begin, PY.end) == ("# tvm-ffi-stubgen(begin):", "# tvm-ffi-stubgen(end)")
    assert C.RUST_SYNTAX.ty_map == "// tvm-ffi-stubgen(ty-map):"
    assert C.RUST_SYNTAX.directive("opaque") == "// tvm-ffi-stubgen(opaque):"
    assert syntax_for(Path("lib.rs")) is C.RUST_SYNTAX and syntax_for(Path("api.PYI")) is PY


def test_a_begin_line_opens_a_block_and_a_directive_is_one_line() -> None:
    opened = CodeBlock.from_begin_line(7, f"{PY.begin} global/mylib@mylib.base", PY)
    assert (opened.kind, opened.param, opened.lineno_start, opened.lineno_end) == (
        "global", ("mylib", "mylib.base"), 7, None)
    assert CodeBlock.from_begin_line(1, f"{PY.begin} object/mylib.Point", PY).param == "mylib.Point"
    directive = CodeBlock.from_begin_line(3, f"{PY.ty_map} mylib.Point -> geo.Point", PY)
    assert (directive.kind, directive.lineno_end) == ("directive", 3)
    assert directive.param == ("ty-map", "mylib.Point -> geo.Point")


@pytest.mark.parametrize(("line", "message"), [
    (f"{PY.begin} helpers", "Unknown stub type `helpers` at line 4"),
    (f"{PY.begin} object", "Unknown stub type `object` at line 4"),
    ("x = 1", "Unknown stub type at line 4: x = 1"),
])
def test_a_bad_begin_line_names_its_line(line: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CodeBlock.from_begin_line(4, line, PY)


def test_a_block_knows_its_indentation() -> None:
    block = CodeBlock("object", "mylib.Point", 1, 2, [f"    {PY.begin} object/mylib.Point", f"    {PY.end}"])
    assert block.indent == 4


# --- files ---------------------------------------------------------------------------------


def test_a_file_is_cut_into_lines_blocks_and_directives(tmp_path: Path) -> None:
    path = tmp_path / "api.py"
    path.write_text(f"import os\n    {PY.begin} object/mylib.Point\n    x: int\n    {PY.end}\n"
                    f"{PY.directive('skip')} a.B\n")
    info = FileInfo.from_file(path)
    assert info is not None and info.path == path.resolve()
    assert [(b.kind, b.lineno_start, b.lineno_end) for b in info.code_blocks] == [
        (None, 1, 1), ("object", 2, 4), ("directive", 5, 5)]
    assert info.code_blocks[1].lines[1] == "    x: int"


def test_files_without_markers_or_with_skip_file_are_not_read(tmp_path: Path) -> None:
    plain, skipped = tmp_path / "plain.py", tmp_path / "skipped.py"
    plain.write_text("x = 1\n")
    skipped.write_text(f"{PY.skip_file}\n{PY.begin} global/testing\n{PY.end}\n")
    assert FileInfo.from_file(plain) is None and FileInfo.from_file(skipped) is None
    kept = FileInfo.from_file(plain, include_empty=True)
    assert kept is not None and kept.lines == ("x = 1",)


@pytest.mark.parametrize(("text", "message"), [
    (f"{PY.begin} global/a\n{PY.begin} global/b\n", "Nested stub not permitted at line 2"),
    (f"x\n{PY.end}\n", "Unmatched `# tvm-ffi-stubgen(end)` found at line 2"),
    (f"{PY.begin} global/a\n", "Unclosed stub block at end of file"),
])
def test_malformed_files_are_refused(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.py"
    path.write_text(text)
    with pytest.raises(ValueError, match=re.escape(message)):
        FileInfo.from_file(path)


def test_update_writes_only_a_change_and_reload_reads_the_disk(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "api.py"
    path.write_text(f"{PY.begin} global/testing\n{PY.end}")
    info = FileInfo.from_file(path)
    assert info is not None and not info.update(verbose=False, dry_run=False)
    info.code_blocks[0].lines.insert(1, "x = 1")
    assert info.update(verbose=True, dry_run=True) and "+x = 1" in capsys.readouterr().out
    assert "x = 1" not in path.read_text()  # a dry run
    info.reload()
    info.code_blocks[0].lines.insert(1, "x = 1")
    assert info.update(verbose=False, dry_run=False)
    assert path.read_text() == f"{PY.begin} global/testing\nx = 1\n{PY.end}\n"
    path.write_text(f"y = 2\n{PY.begin} global/testing\n{PY.end}\n")
    info.reload()
    assert info.code_blocks[0].lines == ["y = 2"]


def test_collect_files_walks_directories_for_the_targets_extensions(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    marked = f"{PY.begin} global/testing\n{PY.end}\n"
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.py").write_text(marked)
    (tmp_path / "sub" / "b.pyi").write_text(marked)
    (tmp_path / "notes.txt").write_text(marked)
    (tmp_path / "bad.py").write_text(f"{PY.begin} global/testing\n")
    found = collect_files([tmp_path, tmp_path / "missing.py"], {".py", ".pyi"})
    assert [f.path.name for f in found] == ["a.py", "b.pyi"]
    assert "Unclosed stub block" in capsys.readouterr().out  # reported, then left out


# --- records and rendering -----------------------------------------------------------------


def test_named_schemas_carry_names_and_layout() -> None:
    field = NamedTypeSchema("count", INT, size=8, alignment=8, offset=24)
    assert (field.name, field.repr(), field.offset) == ("count", "int", 24)
    func = FuncInfo.from_schema("mylib.scale", _callable("float", "float", "int"))
    assert func.schema.name == "mylib.scale" and not func.is_member


def test_signatures_render_positional_only_parameters() -> None:
    scale = FuncInfo.from_schema("mylib.scale", _callable("float", "float", "int"))
    assert render_func_signature(scale, _short, indent=4) == "    def scale(_0: float, _1: int, /) -> float: ..."
    method = FuncInfo.from_schema("norm", _callable("float", "mylib.Vec"), is_member=True)
    assert render_func_signature(method, _short, indent=0) == "def norm(self, /) -> float: ..."
    unknown = FuncInfo.from_schema("mylib.anything", TypeSchema("Callable"))
    assert render_func_signature(unknown, _short, indent=0) == "def anything(*args: Any) -> Any: ..."
    with pytest.raises(ValueError, match="expected a Callable"):
        render_func_signature(FuncInfo.from_schema("mylib.x", INT), _short, indent=0)


def test_parameters_take_read_only_collections() -> None:
    echo = FuncInfo.from_schema("mylib.echo", _callable("List", "List"))
    input_names = {"List": "Sequence"}.get
    assert render_func_signature(echo, lambda o: {"List": "MutableSequence"}.get(o, o), 0,
                                 lambda o: input_names(o, o)) == \
        "def echo(_0: Sequence[Any], /) -> MutableSequence[Any]: ..."


def test_overloaded_methods_are_marked() -> None:
    info = ObjectInfo(fields=[], methods=[
        FuncInfo.from_schema("at", _callable("int", "mylib.Vec", "int"), is_member=True),
        FuncInfo.from_schema("at", _callable("int", "mylib.Vec", "str"), is_member=True),
        FuncInfo.from_schema("zero", _callable("mylib.Vec")),
    ])
    assert info.has_overloaded_methods()
    assert render_object_methods(info, _short, indent=0) == [
        "@overload", "def at(self, _1: int, /) -> int: ...",
        "@overload", "def at(self, _1: str, /) -> int: ...",
        "@staticmethod", "def zero(*args: Any) -> Vec: ...",
    ]


def test_global_block_records_the_imports_it_needs() -> None:
    code = CodeBlock("global", ("mylib", ""), 1, 2, [f"{PY.begin} global/mylib", PY.end])
    imports: list[ImportItem] = []
    funcs = [FuncInfo.from_schema("mylib.make", _callable("mylib.Point", "int"))]
    generate_python_global_funcs(code, funcs, {}, imports, Options())
    assert code.lines[1:-1] == ["# fmt: off", '_FFI_INIT_FUNC("mylib", __name__)', "if TYPE_CHECKING:",
                                "    def make(_0: int, /) -> Point: ...", "# fmt: on"]
    assert ImportItem("tvm_ffi.init_ffi_api", alias="_FFI_INIT_FUNC") in imports
    assert ImportItem("mylib.Point", type_checking_only=True) in imports


def test_object_block_from_a_registered_type() -> None:
    info = object_info_from_type_key("testing.TestIntPair")
    assert info.parent_type_key == "ffi.Object" and [f.name for f in info.fields] == ["a", "b"]
    code = CodeBlock("object", info.type_key or "", 1, 2, [f"    {PY.begin} object/testing.TestIntPair",
                                                           f"    {PY.end}"])
    imports: list[ImportItem] = []
    generate_python_object(code, {}, imports, Options(), info)
    assert code.lines[1:4] == ["    # fmt: off", "    a: int", "    b: int"]
    assert "        def sum(self, /) -> int: ..." in code.lines
    assert imports == [ImportItem("typing.TYPE_CHECKING")]


def test_parents_come_before_children() -> None:
    ordered = [i.type_key for i in toposort_objects(["testing.TestCxxClassDerived", "testing.TestCxxClassBase"])]
    assert ordered == ["testing.TestCxxClassBase", "testing.TestCxxClassDerived"]


# --- generators ----------------------------------------------------------------------------


def test_the_registry_makes_one_generator_per_target() -> None:
    python = get_generator("python")
    assert isinstance(python, PythonGenerator) and python is get_generator("python")
    assert "python" in generator_names()
    assert (python.syntax, python.api_filename(), python.init_filename()) == (PY, "_ffi_api.py", "__init__.py")
    assert python.canonical_type_name("testing.TestIntPair") == "tvm_ffi.testing.TestIntPair"
    assert python.is_builtin("ffi.String") and not python.is_builtin("testing.TestIntPair")
    with pytest.raises(ValueError, match="Unknown stubgen generator: 'cobol'"):
        get_generator("cobol")


def test_a_backend_can_be_registered_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    class Quiet(PythonGenerator):
        name = "quiet"

    # The registry is process-wide: register into copies that are put back afterwards.
    monkeypatch.setattr(stub_generator, "_FACTORIES", dict(stub_generator._FACTORIES))
    monkeypatch.setattr(stub_generator, "_GENERATORS", dict(stub_generator._GENERATORS))

    register_generator("quiet", Quiet)
    assert "quiet" in generator_names() and isinstance(get_generator("quiet"), Quiet)


def test_the_python_generator_reads_import_object_directives() -> None:
    python = get_generator("python")
    imports = python.new_imports()
    python.add_directive(imports, "import-object", "tvm_ffi.libinfo.load_lib_module;False;_FFI_LOAD_LIB", 3)
    assert python.extra_export_names(imports) == {"LIB"}
    with pytest.raises(DirectiveError, match="Unknown directive `opaque` at line 9"):
        python.add_directive(imports, "opaque", "x", 9)


# --- stages --------------------------------------------------------------------------------


def test_stage_1_collects_type_maps_and_refuses_a_bad_one(tmp_path: Path) -> None:
    path = tmp_path / "api.py"
    path.write_text(f"{PY.ty_map} mylib.Point -> geo.Point\n{PY.ty_map} broken\n")
    info = FileInfo.from_file(path)
    assert info is not None
    ty_map: dict[str, str] = {}
    with pytest.raises(DirectiveError, match="ty-map directive at line 2 must read"):
        _stage_1(info, ty_map)
    assert ty_map == {"mylib.Point": "geo.Point"}


def test_stage_2_scaffolds_a_package_per_prefix(tmp_path: Path) -> None:
    files: list[FileInfo] = []
    funcs = {"testing": collect_global_funcs()["testing"]}
    generated = _stage_2(files, get_generator("python").default_ty_map(), InitConfig("my-pkg", "my_lib", "testing."),
                         tmp_path, funcs, get_generator("python"))
    assert "testing" in generated  # and any testing.* prefix other tests registered
    api = (tmp_path / "testing" / "_ffi_api.py").read_text()
    assert 'LIB = _FFI_LOAD_LIB("my-pkg", "my_lib")' in api and f"{PY.begin} object/testing.TestIntPair" in api
    scaffolded = {(tmp_path / "testing" / name).resolve() for name in ("_ffi_api.py", "__init__.py")}
    assert scaffolded <= {f.path for f in files}  # read into the run


def test_stage_3_fills_a_file_and_reports_what_changed(tmp_path: Path) -> None:
    path = tmp_path / "api.py"
    path.write_text(f"{PY.begin} import-section\n{PY.end}\n{PY.begin} global/testing\n{PY.end}\n"
                    f"__all__ = [\n    {PY.begin} __all__\n    {PY.end}\n]\n")
    info = FileInfo.from_file(path)
    assert info is not None
    python = get_generator("python")
    funcs = {"testing": [FuncInfo.from_schema("testing.add_one", _callable("int", "int"))]}
    assert _stage_3(info, Options(), python.default_ty_map(), funcs, python)
    text = path.read_text()
    assert "    def add_one(_0: int, /) -> int: ..." in text and '    "add_one",' in text
    assert "from tvm_ffi import init_ffi_api as _FFI_INIT_FUNC" in text
    assert not _stage_3(info, Options(), python.default_ty_map(), funcs, python)  # up to date


def test_stage_3_writes_the_file_then_reports_unregistered_types(tmp_path: Path) -> None:
    path = tmp_path / "api.py"
    path.write_text(f"class Gone:\n    {PY.begin} object/mylib.Gone\n    {PY.end}\n")
    info = FileInfo.from_file(path)
    assert info is not None
    python = get_generator("python")
    with pytest.raises(ValueError, match=r"object type 'mylib.Gone' is not registered \(line 2\)"):
        _stage_3(info, Options(), python.default_ty_map(), {}, python)
