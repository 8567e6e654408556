"""tvm-ffi-stubgen: marked blocks filled from the testing library's functions and types."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from tvm_ffi._type_schema import TypeSchema
from tvm_ffi.stub import main
from tvm_ffi.stub.annotate import Annotator
from tvm_ffi.stub.cli import module_name_of
from tvm_ffi.stub.markers import MarkerError, parse

FFI_API_TEMPLATE = '''\
"""The testing.* functions."""

# tvm-ffi-stubgen(begin): import-section
# tvm-ffi-stubgen(end)

# tvm-ffi-stubgen(begin): global/testing
# tvm-ffi-stubgen(end)

# tvm-ffi-stubgen(begin): __all__
# tvm-ffi-stubgen(end)
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
    assert "    def echo(*args: Any) -> Any: ...\n" in text  # no type schema
    assert "    def schema_id_arr_int(_0: Sequence[int], /) -> Array[int]: ...\n" in text
    assert ("    def schema_arr_map_opt(_0: Sequence[int | None], _1: Mapping[str, Sequence[int]], "
            "_2: str | None, /) -> Map[str, Array[int]]: ...\n") in text
    assert "    def schema_id_func_typed(_0: Callable[[int, float, Callable[..., Any]], None], /)" in text
    assert "from tvm_ffi import init_ffi_api as _FFI_INIT_FUNC\n" in text
    assert "    from tvm_ffi import Array, Device, Dict, List, Map, Object, Tensor, dtype\n" in text
    assert '__all__ = [\n    "add_one",\n' in text


def test_object_blocks_declare_fields_constructors_and_methods(package: Path) -> None:
    text = (package / "objects.py").read_text()
    assert ("    a: int\n    b: int\n    if TYPE_CHECKING:\n"
            "        def __init__(self, _0: int, _1: int, /) -> None: ...\n") in text
    assert "        def sum(self, /) -> int: ...\n" in text
    assert "    v_opt_arr_variant: Array[int | str] | None\n" in text
    assert ("        @staticmethod\n"
            "        def make_with(_0: int, _1: float, _2: str, /) -> SchemaAllTypes: ...\n") in text
    assert "        def append_int(self, _1: Sequence[int], _2: int, /) -> Array[int]: ...\n" in text
    assert ("        def __init__(self, p_required: int, p_default: int = ..., *, k_required: int, "
            "k_default: int = ...) -> None: ...\n") in text
    assert "hidden: int\n" in text  # a field, though not an __init__ parameter


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


def test_pyi_files_get_plain_declarations(tmp_path: Path) -> None:
    stub = tmp_path / "api.pyi"
    stub.write_text("# tvm-ffi-stubgen(begin): import-section\n# tvm-ffi-stubgen(end)\n"
                    "# tvm-ffi-stubgen(begin): global/testing\n# tvm-ffi-stubgen(end)\n")
    assert main([str(stub)]) == 0
    text = stub.read_text()
    assert "\ndef add_one(_0: int, /) -> int: ...\n" in text
    assert "TYPE_CHECKING" not in text and "_FFI_INIT_FUNC" not in text


def test_ty_map_and_skip_file_directives(tmp_path: Path) -> None:
    mapped = tmp_path / "mapped.py"
    mapped.write_text("# tvm-ffi-stubgen(ty-map): testing.SchemaAllTypes -> mylib.types.AllTypes\n"
                      "# tvm-ffi-stubgen(begin): import-section\n# tvm-ffi-stubgen(end)\n"
                      "class Local:\n"
                      "    # tvm-ffi-stubgen(begin): object/testing.SchemaAllTypes\n    # tvm-ffi-stubgen(end)\n")
    skipped = tmp_path / "skipped.py"
    skipped.write_text("# tvm-ffi-stubgen(skip-file)\n"
                       "# tvm-ffi-stubgen(begin): global/testing\n# tvm-ffi-stubgen(end)\n")
    assert main([str(tmp_path)]) == 0
    text = mapped.read_text()
    assert "def make_with(_0: int, _1: float, _2: str, /) -> AllTypes: ..." in text
    assert "    from mylib.types import AllTypes\n" in text
    assert skipped.read_text().count("\n") == 3


def test_unknown_type_key_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.py"
    path.write_text("class X:\n    # tvm-ffi-stubgen(begin): object/no.such.Type\n    # tvm-ffi-stubgen(end)\n")
    assert main([str(path)]) == 2
    assert "object type 'no.such.Type' is not registered" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("# tvm-ffi-stubgen(begin): global/x\n", "is never closed"),
        ("# tvm-ffi-stubgen(end)\n", "end marker without a begin marker"),
        ("# tvm-ffi-stubgen(begin): global/x\n# tvm-ffi-stubgen(begin): global/y\n", "begins inside the block"),
        ("# tvm-ffi-stubgen(begin): bogus/x\n# tvm-ffi-stubgen(end)\n", "unknown block kind 'bogus'"),
        ("# tvm-ffi-stubgen(begin): object\n# tvm-ffi-stubgen(end)\n", "needs an argument"),
        ("# tvm-ffi-stubgen(ty-map): nothing here\n", "ty-map directive must read"),
    ],
)
def test_malformed_markers_name_the_line(text: str, message: str) -> None:
    with pytest.raises(MarkerError, match=message) as info:
        parse("f.py", text)
    assert str(info.value).startswith("f.py:")


def test_missing_path_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "nope.py")]) == 2
    assert "no such file or directory" in capsys.readouterr().err


def test_module_name_of_walks_up_packages(package: Path) -> None:
    assert module_name_of(str(package / "objects.py")) == "genpkg.objects"
    assert module_name_of(str(package / "__init__.py")) == "genpkg"


def test_console_script_and_module_entry_points() -> None:
    script = Path(sys.executable).parent / "tvm-ffi-stubgen"
    assert script.is_file()
    out = subprocess.run([str(script), "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "--check" in out.stdout and "--dlls" in out.stdout
    out = subprocess.run([sys.executable, "-m", "tvm_ffi.stub"], capture_output=True, text=True)
    assert out.returncode == 2 and "usage: tvm-ffi-stubgen" in out.stdout


def test_annotations_import_only_what_they_name() -> None:
    annot = Annotator({"mylib.Point": "mylib.geometry.Point"})
    optional = TypeSchema.from_json_str('{"type":"Optional","args":[{"type":"int"}]}')
    assert annot.schema(optional, param=True) == "int | None"
    assert annot.imports == set()
    variant = TypeSchema.from_json_str('{"type":"Variant","args":[{"type":"mylib.Point"},{"type":"ffi.Array"}]}')
    assert annot.schema(variant, param=False) == "Point | Array[Any]"
    assert annot.imports == {("mylib.geometry", "Point"), ("tvm_ffi", "Array"), ("typing", "Any")}
    assert Annotator({}).schema(TypeSchema.from_json_str('{"type":"unknown.Type"}'), param=True) == "Object"
