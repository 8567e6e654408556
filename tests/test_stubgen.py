"""tvm-ffi-stubgen: marked blocks filled from the testing library's functions and types."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tvm_ffi._type_schema import TypeSchema
from tvm_ffi.stub import main
from tvm_ffi.stub.cli import module_name_of
from tvm_ffi.stub.python_generator.codegen import _make_input_ty_map, _type_suffix_and_record
from tvm_ffi.stub.python_generator.consts import TY_MAP_DEFAULTS
from tvm_ffi.stub.python_generator.utils import ImportItem, annotation

FFI_API_TEMPLATE = '''\
"""The testing.* functions."""

# tvm-ffi-stubgen(begin): import-section
# tvm-ffi-stubgen(end)

# tvm-ffi-stubgen(begin): global/testing
# tvm-ffi-stubgen(end)

__all__ = [
    # tvm-ffi-stubgen(begin): __all__
    # tvm-ffi-stubgen(end)
]
'''

OBJECTS_TEMPLATE = '''\
"""Typed views of testing object types."""

# tvm-ffi-stubgen(begin): import-section
# tvm-ffi-stubgen(end)
from tvm_ffi import Object


class TestIntPair(Object):
    """A pair."""

    # tvm-ffi-stubgen(begin): object/testing.TestIntPair
    # tvm-ffi-stubgen(end)


class SchemaAllTypes(Object):
    """Every field kind."""

    # tvm-ffi-stubgen(begin): object/testing.SchemaAllTypes
    # tvm-ffi-stubgen(end)


class KwOnly(Object):
    """Keyword-only constructor arguments."""

    # tvm-ffi-stubgen(begin): object/testing.TestCxxAutoInitKwOnlyDefaults
    # tvm-ffi-stubgen(end)
'''


def make_package(root: Path, name: str = "genpkg") -> Path:
    """A package holding the two templates (not yet generated)."""
    package = root / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "_ffi_api.py").write_text(FFI_API_TEMPLATE)
    (package / "objects.py").write_text(OBJECTS_TEMPLATE)
    return package


@pytest.fixture
def package(tmp_path: Path) -> Path:
    package = make_package(tmp_path)
    assert main([str(package)]) == 0
    return package


def test_global_block_declares_each_testing_function(package: Path) -> None:
    text = (package / "_ffi_api.py").read_text()
    assert '_FFI_INIT_FUNC("testing", __name__)\nif TYPE_CHECKING:\n' in text
    assert "    def add_one(_0: int, /) -> int: ...\n" in text
    assert "    def echo(*args: Any) -> Any: ...\n" in text  # no parameter schema
    # Results are the collection protocols, parameters the read-only ones.
    assert "    def schema_id_arr_int(_0: Sequence[int], /) -> Sequence[int]: ...\n" in text
    assert "    def schema_id_list_int(_0: Sequence[int], /) -> MutableSequence[int]: ...\n" in text
    assert "    def schema_id_dict_str_int(_0: Mapping[str, int], /) -> MutableMapping[str, int]: ...\n" in text
    assert ("    def schema_arr_map_opt(_0: Sequence[int | None], _1: Mapping[str, Sequence[int]], "
            "_2: str | None, /) -> Mapping[str, Sequence[int]]: ...\n") in text
    assert "    def schema_id_func_typed(_0: Callable[[int, float, Callable[..., Any]], None], /)" in text
    assert "from tvm_ffi import init_ffi_api as _FFI_INIT_FUNC\n" in text
    assert "    from tvm_ffi import Device, Object, Tensor, dtype\n" in text
    assert "    from typing import Any, Callable\n" in text
    assert '__all__ = [\n    # tvm-ffi-stubgen(begin): __all__\n    "TestIntPairSum",\n    "add_one",\n' in text


def test_runtime_builtins_are_declared_from_their_type_schemas(tmp_path: Path) -> None:
    api = tmp_path / "ffi_api.py"
    api.write_text("# tvm-ffi-stubgen(begin): import-section\n# tvm-ffi-stubgen(end)\n"
                   "# tvm-ffi-stubgen(begin): global/ffi\n# tvm-ffi-stubgen(end)\n")
    assert main([str(api)]) == 0
    text = api.read_text()
    assert "    def ModuleGetFunction(_0: Module, _1: str, _2: bool, /) -> Callable[..., Any] | None: ...\n" in text
    assert "    def ListAppend(_0: Sequence[Any], _1: Any, /) -> None: ...\n" in text
    assert "    def Array(*args: Any) -> Any: ...\n" in text  # a packed constructor


def test_object_blocks_declare_fields_constructors_and_methods(package: Path) -> None:
    text = (package / "objects.py").read_text()
    assert ("    a: int\n    b: int\n    if TYPE_CHECKING:\n"
            "        def __init__(self, a: int, b: int) -> None: ...\n"
            "        def __ffi_init__(self, _0: int, _1: int, /) -> None: ...\n"
            "        def sum(self, /) -> int: ...\n") in text
    assert "    v_opt_arr_variant: Sequence[int | str] | None\n" in text
    assert ("        @staticmethod\n"
            "        def make_with(_0: int, _1: float, _2: str, /) -> SchemaAllTypes: ...\n") in text
    assert "        def append_int(self, _1: Sequence[int], _2: int, /) -> Sequence[int]: ...\n" in text
    assert ("        def __init__(self, p_required: int, p_default: int = ..., *, k_required: int, "
            "k_default: int = ...) -> None: ...\n") in text
    assert "hidden: int\n" in text  # a field, though not an __init__ parameter
    assert "import SchemaAllTypes" not in text  # defined in this file


def test_generated_module_runs(package: Path) -> None:
    code = "import genpkg._ffi_api as api; print(api.add_one(41), len(api.__all__) > 30)"
    out = subprocess.run([sys.executable, "-c", code], cwd=package.parent, capture_output=True, text=True)
    assert out.stdout.split() == ["42", "True"], out.stderr


def test_second_run_changes_nothing_and_check_passes(package: Path) -> None:
    before = (package / "objects.py").read_text()
    assert main([str(package)]) == 0
    assert (package / "objects.py").read_text() == before
    assert main(["--check", str(package)]) == 0


def test_check_reports_stale_blocks_without_writing(package: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = package / "_ffi_api.py"
    stale = path.read_text().replace("def add_one(_0: int, /) -> int: ...", "def add_one(_0: str, /) -> str: ...")
    path.write_text(stale)
    assert main(["--check", str(package)]) == 1
    assert path.read_text() == stale
    captured = capsys.readouterr()
    assert "+    def add_one(_0: int, /) -> int: ..." in captured.out  # the diff
    assert f"out of date: {path}" in captured.err


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    package = make_package(tmp_path)
    assert main(["--dry-run", str(package)]) == 0
    assert (package / "_ffi_api.py").read_text() == FFI_API_TEMPLATE


def test_files_without_markers_are_left_alone(tmp_path: Path) -> None:
    package = make_package(tmp_path)
    (package / "plain.py").write_text("x = 1")  # no trailing newline: a rewrite would add one
    assert main(["--check", str(package / "plain.py")]) == 0
    assert (package / "plain.py").read_text() == "x = 1"


def test_ty_map_import_object_and_skip_file_directives(tmp_path: Path) -> None:
    mapped = tmp_path / "mapped.py"
    mapped.write_text("# tvm-ffi-stubgen(ty-map): testing.SchemaAllTypes -> mylib.types.AllTypes\n"
                      "# tvm-ffi-stubgen(import-object): mylib.helpers.load;False;_load\n"
                      "# tvm-ffi-stubgen(begin): import-section\n# tvm-ffi-stubgen(end)\n"
                      "class Local:\n"
                      "    # tvm-ffi-stubgen(begin): object/testing.TestIntPair\n    # tvm-ffi-stubgen(end)\n"
                      "class Other:\n"
                      "    # tvm-ffi-stubgen(begin): object/testing.TestCompare\n    # tvm-ffi-stubgen(end)\n")
    user = tmp_path / "user.py"
    user.write_text("# tvm-ffi-stubgen(begin): import-section\n# tvm-ffi-stubgen(end)\n"
                    "class All:\n"
                    "    # tvm-ffi-stubgen(begin): object/testing.SchemaAllTypes\n    # tvm-ffi-stubgen(end)\n")
    skipped = tmp_path / "skipped.py"
    skipped.write_text("# tvm-ffi-stubgen(skip-file)\n"
                       "# tvm-ffi-stubgen(begin): global/testing\n# tvm-ffi-stubgen(end)\n")
    assert main([str(tmp_path)]) == 0
    text = user.read_text()
    assert "def make_with(_0: int, _1: float, _2: str, /) -> AllTypes: ..." in text
    assert "from mylib.types import AllTypes" not in text  # a block of this file defines it
    assert "from mylib.helpers import load as _load\n" in mapped.read_text()
    assert skipped.read_text().count("\n") == 3


def test_unknown_type_key_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.py"
    path.write_text("class X:\n    # tvm-ffi-stubgen(begin): object/no.such.Type\n    # tvm-ffi-stubgen(end)\n")
    assert main([str(path)]) == 2
    assert "object type 'no.such.Type' is not registered (line 2)" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("# tvm-ffi-stubgen(begin): global/x\n", "Unclosed stub block at end of file"),
        ("# tvm-ffi-stubgen(end)\n", "Unmatched `# tvm-ffi-stubgen(end)` found at line 1"),
        ("# tvm-ffi-stubgen(begin): global/x\n# tvm-ffi-stubgen(begin): global/y\n",
         "Nested stub not permitted at line 2"),
        ("# tvm-ffi-stubgen(begin): bogus/x\n# tvm-ffi-stubgen(end)\n", "Unknown stub type `bogus/x` at line 1"),
        ("# tvm-ffi-stubgen(begin): object\n# tvm-ffi-stubgen(end)\n", "Unknown stub type `object` at line 1"),
        ("# tvm-ffi-stubgen(begin): __all__/x\n# tvm-ffi-stubgen(end)\n", "Unknown stub type `__all__/x` at line 1"),
        ("# tvm-ffi-stubgen(ty-map): nothing here\n", "ty-map directive at line 1 must read"),
        ("# tvm-ffi-stubgen(frobnicate): x\n", "Unknown directive `frobnicate` at line 1"),
    ],
)
def test_malformed_markers_name_the_file_and_line(tmp_path: Path, text: str, message: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "f.py"
    path.write_text(text)
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert f"tvm-ffi-stubgen: error: {path}: " in err and message in err
    assert path.read_text() == text


def test_missing_path_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "nope.py")]) == 2
    assert "no such file or directory" in capsys.readouterr().err


def test_module_name_of_walks_up_packages(package: Path) -> None:
    assert module_name_of(str(package / "objects.py")) == "genpkg.objects"
    assert module_name_of(str(package / "__init__.py")) == "genpkg"


def test_console_script_and_module_entry_points() -> None:
    script = Path(sys.executable).parent / "tvm-ffi-stubgen"
    assert script.is_file() and "tvm_ffi.stub.cli import __main__" in script.read_text()
    out = subprocess.run([str(script), "--help"], capture_output=True, text=True)
    assert out.returncode == 0
    for flag in ("--check", "--dlls", "--init-pypkg", "--init-lib", "--init-prefix", "--coverage-out", "--target"):
        assert flag in out.stdout
    out = subprocess.run([sys.executable, "-m", "tvm_ffi.stub"], capture_output=True, text=True)
    assert out.returncode == 1 and "usage: tvm-ffi-stubgen" in out.stdout


def test_no_path_exits_after_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([])
    assert exit_info.value.code == 1 and "usage: tvm-ffi-stubgen" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--init-pypkg", "p", "x"], "must be given together"),
        (["--check", "--init-pypkg", "p", "--init-lib", "l", "--init-prefix", "testing", "x"], "cannot be combined"),
        (["--target", "cobol", "x"], "invalid choice"),
    ],
)
def test_bad_flag_combinations_are_usage_errors(argv: list[str], message: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2 and message in capsys.readouterr().err


def test_init_scaffolds_a_package_for_a_prefix(tmp_path: Path) -> None:
    root = tmp_path / "out"
    argv = ["--init-pypkg", "my-pkg", "--init-lib", "my_lib", "--init-prefix", "testing.", str(root)]
    assert main(argv) == 0
    api = (root / "testing" / "_ffi_api.py").read_text()
    assert api.startswith('"""FFI API bindings for testing."""\n')
    assert ('# tvm-ffi-stubgen(import-object): tvm_ffi.libinfo.load_lib_module;False;_FFI_LOAD_LIB\n'
            'LIB = _FFI_LOAD_LIB("my-pkg", "my_lib")\n') in api
    assert "    def add_one(_0: int, /) -> int: ...\n" in api
    assert ('@_FFI_REG_OBJ("testing.TestIntPair")\nclass TestIntPair(_ffi_Object):\n'
            '    """FFI binding for `testing.TestIntPair`."""\n') in api
    # A parent defined in the same file is used by name, and comes first.
    assert api.index("class TestCxxClassBase(") < api.index("class TestCxxClassDerived(TestCxxClassBase):")
    assert '__all__ = [\n    # tvm-ffi-stubgen(begin): __all__\n    "LIB",\n' in api
    init = (root / "testing" / "__init__.py").read_text()
    assert init.startswith('"""Package testing."""\n') and "from ._ffi_api import *  # noqa: F403\n" in init
    # What --init wrote is up to date, and a second --init adds nothing.
    assert main(["--check", str(root)]) == 0
    assert main(argv) == 0
    assert (root / "testing" / "_ffi_api.py").read_text() == api


def test_coverage_report_classifies_native_layouts(tmp_path: Path) -> None:
    report_path = tmp_path / "coverage.json"
    assert main(["--coverage-out", str(report_path)]) == 0
    report = json.loads(report_path.read_text())
    pair = report["testing.TestIntPair"]
    assert pair["verdict"] == "complete" and pair["reason"] is None
    assert pair["own_bytes"] == [24, 40] and pair["parent"] == "ffi.Object"
    assert [f["name"] for f in pair["fields"]] == ["a", "b"]
    assert report["ffi.Object"]["verdict"] == "complete"
    assert {entry["verdict"] for entry in report.values()} <= {"complete", "opaque"}
    opaque = [e for e in report.values() if e["verdict"] == "opaque"]
    assert opaque and all(e["reason"] in ("layout-unknown", "parent-opaque", "field-overlap", "uncovered-bytes")
                          for e in opaque)


def test_layout_verdicts_of_hand_made_types() -> None:
    from tvm_ffi.stub.layout import ByteRange, FieldBytes, classify, coverage_report
    from tvm_ffi.stub.utils import NamedTypeSchema, ObjectInfo

    def field(name: str, offset: int, size: int) -> NamedTypeSchema:
        return NamedTypeSchema(name, TypeSchema("int"), size=size, alignment=size, offset=offset)

    root = ObjectInfo([], [], "ffi.Object", total_size=24)
    pair = ObjectInfo([field("b", 32, 4), field("a", 24, 8)], [], "t.Pair", "ffi.Object", ancestors=["ffi.Object"],
                      total_size=40, is_final=True)
    holed = ObjectInfo([field("a", 24, 8)], [], "t.Holed", "ffi.Object", ancestors=["ffi.Object"], total_size=40)
    child = ObjectInfo([field("c", 40, 8)], [], "t.Child", "t.Pair", ancestors=["ffi.Object", "t.Pair"],
                       total_size=48)
    infos = {"t.Child": child, "t.Holed": holed, "t.Pair": pair, "ffi.Object": root}
    verdicts = classify(infos)
    assert verdicts["t.Pair"].is_complete and verdicts["t.Pair"].is_final is True
    assert verdicts["t.Pair"].fields == [FieldBytes("a", 24, 8, 8), FieldBytes("b", 32, 4, 4)]
    assert verdicts["t.Pair"].own_bytes == ByteRange(24, 40) and verdicts["t.Pair"].padding == [ByteRange(36, 40)]
    assert verdicts["t.Holed"].reason == "uncovered-bytes" and verdicts["t.Holed"].uncovered == [ByteRange(32, 40)]
    assert verdicts["t.Child"].is_complete
    # The caller may keep a covered type opaque, or refuse one of its fields; children follow.
    kept = classify(infos, forced_opaque={"t.Pair"})
    assert kept["t.Pair"].reason == "by-directive" and kept["t.Child"].reason == "parent-opaque"
    refused = classify(infos, field_renderable=lambda f: f.name != "b")
    assert refused["t.Pair"].reason == "unrenderable-field" and "'b'" in refused["t.Pair"].detail
    assert list(coverage_report(verdicts)) == ["ffi.Object", "t.Child", "t.Holed", "t.Pair"]
    with pytest.raises(KeyError, match="t.Pair"):
        classify({"t.Child": child})


def test_registered_finality_reaches_the_layout_report() -> None:
    from tvm_ffi.stub.lib_state import collect_type_keys, object_info_from_type_key

    keys = [key for group in collect_type_keys().values() for key in group]
    infos = {key: object_info_from_type_key(key) for key in keys}
    assert infos["testing.TestIntPair"].is_final is True
    assert infos["testing.TestObjectBase"].is_final is False
    assert infos["ffi.Module"].is_final is True


def test_annotations_import_only_what_they_name() -> None:
    imports: list[ImportItem] = []
    out = _type_suffix_and_record({**TY_MAP_DEFAULTS, "mylib.Point": "mylib.geometry.Point"}, imports)
    optional = TypeSchema.from_json_str('{"type":"Optional","args":[{"type":"int"}]}')
    assert annotation(optional, out, as_input=True) == "int | None"
    assert imports == []
    variant = TypeSchema.from_json_str('{"type":"Variant","args":[{"type":"mylib.Point"},{"type":"ffi.List"}]}')
    assert annotation(variant, out, as_input=False) == "Point | MutableSequence[Any]"
    assert {i.full_name for i in imports} == {"mylib.geometry.Point", "collections.abc.MutableSequence",
                                               "typing.Any"}
    inp = _type_suffix_and_record(_make_input_ty_map(TY_MAP_DEFAULTS), [])
    assert annotation(TypeSchema.from_json_str('{"type":"ffi.Dict"}'), inp, as_input=True) == "Mapping[Any, Any]"
    # A type that is also a function name of the block is imported under an alias.
    clash = _type_suffix_and_record(TY_MAP_DEFAULTS, [], func_names={"Point"})
    assert annotation(TypeSchema.from_json_str('{"type":"geo.Point"}'), clash, as_input=False) == "_Point"


def test_prefix_directive_rolls_out_every_type_of_the_prefix(tmp_path: Path) -> None:
    path = tmp_path / "types.pyi"
    path.write_text('"""Every testing type."""\n# tvm-ffi-stubgen(prefix): testing\n'
                    "# tvm-ffi-stubgen(skip): testing.SchemaAllTypes\n"
                    "# tvm-ffi-stubgen(begin): object/testing.NoLongerRegistered\n# tvm-ffi-stubgen(end)\n")
    assert main([str(path)]) == 0
    text = path.read_text()
    assert "# tvm-ffi-stubgen(begin): import-section\n" in text
    assert "# tvm-ffi-stubgen(begin): object/testing.TestIntPair\n# fmt: off\na: int\nb: int\n" in text
    assert text.index("object/testing.TestCxxClassBase") < text.index("object/testing.TestCxxClassDerived")
    assert "object/testing.SchemaAllTypes" not in text  # skipped
    assert "NoLongerRegistered" not in text  # removed
    assert main(["--check", str(path)]) == 0


def test_two_files_cannot_claim_one_prefix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text("# tvm-ffi-stubgen(prefix): testing\n")
    assert main([str(tmp_path)]) == 2
    assert "prefix 'testing' is already declared by" in capsys.readouterr().err
