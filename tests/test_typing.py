"""Static types: the ``_core`` stubs cover the extension, type checkers see precise types,
``inspect.signature`` works on the C classes and functions, and containers are generic."""

from __future__ import annotations

import ast
import inspect
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tvm_ffi
from test_stubgen import make_package
from tvm_ffi import _core
from tvm_ffi.stub import main as stubgen_main

PACKAGE_DIR = Path(tvm_ffi.__file__).resolve().parent
SOURCE_DIR = Path(__file__).resolve().parent.parent / "python"


def _stub_names(path: Path) -> set[str]:
    """Top-level names a stub file declares (classes, functions, variables, imports)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def test_core_stub_declares_every_name_of_the_extension() -> None:
    declared = _stub_names(PACKAGE_DIR / "_core.pyi")
    actual = {name for name in dir(_core) if not name.startswith("__")}
    assert actual - declared == set()


def test_core_alias_stub_reexports_every_name_of_the_extension() -> None:
    # tvm_ffi.core is the same module object as tvm_ffi._core; its stub re-exports everything.
    actual = {name for name in dir(_core) if not name.startswith("__")}
    assert actual - _stub_names(PACKAGE_DIR / "core.pyi") == set()


def test_stubs_ship_with_the_package() -> None:
    for name in ("_core.pyi", "core.pyi", "py.typed"):
        assert (PACKAGE_DIR / name).is_file(), name


@pytest.mark.parametrize(
    ("obj", "expected"),
    [
        (tvm_ffi.Array, "(input_list=())"),
        (tvm_ffi.List, "(input_list=())"),
        (tvm_ffi.Map, "(input_dict=())"),
        (tvm_ffi.Dict, "(input_dict=())"),
        (tvm_ffi.Device, "(device_type, index=None)"),
        (tvm_ffi.Function, "()"),
        (tvm_ffi.Object, "()"),
        (tvm_ffi.Tensor, "()"),
        (tvm_ffi.from_dlpack, "(ext_tensor, require_alignment=0, require_contiguous=False)"),
        (_core.DataType, "(dtype_str)"),
        (_core.Error, "(kind, message, backtrace)"),
        (tvm_ffi.Tensor.__dlpack__, "(self, /, *, stream=None, max_version=None, dl_device=None, copy=None)"),
    ],
)
def test_inspect_signature_of_c_classes_and_functions(obj: object, expected: str) -> None:
    assert str(inspect.signature(obj)) == expected  # type: ignore[arg-type]


def test_signature_names_bind_like_the_call() -> None:
    sig = inspect.signature(tvm_ffi.from_dlpack)
    bound = sig.bind(object(), require_contiguous=True)
    assert bound.arguments["require_contiguous"] is True
    assert tvm_ffi.Device("cuda", 1) == tvm_ffi.Device(*inspect.signature(tvm_ffi.Device).bind("cuda", 1).args)


def test_help_text_shows_the_signature() -> None:
    assert tvm_ffi.from_dlpack.__doc__ is not None
    text = tvm_ffi.from_dlpack.__text_signature__  # type: ignore[attr-defined]
    assert text == "($module, /, ext_tensor, require_alignment=0, require_contiguous=False)"
    assert tvm_ffi.Device.__doc__.startswith("A DLPack device")  # type: ignore[union-attr]


def test_generic_containers_subscript_at_run_time() -> None:
    arr = tvm_ffi.Array[int]([1, 2])
    assert type(arr) is tvm_ffi.Array and list(arr) == [1, 2]
    m = tvm_ffi.Map[str, int]({"a": 1})
    assert type(m) is tvm_ffi.Map and m["a"] == 1
    assert type(tvm_ffi.List[str](["x"])) is tvm_ffi.List
    assert type(tvm_ffi.Dict[str, float]()) is tvm_ffi.Dict


_REVEAL_SNIPPET = """
import tvm_ffi

f = tvm_ffi.get_global_func("testing.add_one")
reveal_type(f)
maybe = tvm_ffi.get_global_func("nope", allow_missing=True)
reveal_type(maybe)
t = tvm_ffi.from_dlpack(object())
reveal_type(t)
reveal_type(t.shape)
reveal_type(t.dtype)
reveal_type(t.device)
reveal_type(tvm_ffi.Array[int]()[0])
reveal_type(tvm_ffi.Map[str, tvm_ffi.Tensor]()["a"])
reveal_type(tvm_ffi.List[str]().pop())
reveal_type(tvm_ffi.Dict[str, int]().items())
reveal_type(tvm_ffi.device("cuda:0").index)
"""

# Module prefixes of builtins/typing differ between mypy versions; the names are what matters.
_EXPECTED_REVEALS = [
    "tvm_ffi._core.Function",
    "tvm_ffi._core.Function | None",
    "tvm_ffi._core.Tensor",
    "tvm_ffi.container.Shape",
    "tvm_ffi._dtype.dtype",
    "tvm_ffi._core.Device",
    "int",
    "tvm_ffi._core.Tensor",
    "str",
    "tvm_ffi._container_views.ItemsView[str, int]",  # tvm_ffi.container.ItemsView
    "int",
]

_BAD_SNIPPET = """
import tvm_ffi
a: tvm_ffi.Array[int] = tvm_ffi.Array([1])
s: str = a[0]
tvm_ffi.from_dlpack(1, require_alignment="x")
"""


@pytest.fixture(scope="module")
def mypy_output(tmp_path_factory: pytest.TempPathFactory) -> str:
    """mypy --strict over both snippets and a stubgen-made package, run once (it takes a while)."""
    if shutil.which("mypy", path=str(Path(sys.executable).parent)) is None:
        pytest.skip("mypy is not installed (make test installs it)")
    tmp_path = tmp_path_factory.mktemp("mypy")
    (tmp_path / "snippet.py").write_text(_REVEAL_SNIPPET)
    (tmp_path / "bad.py").write_text(_BAD_SNIPPET)
    assert stubgen_main([str(make_package(tmp_path))]) == 0
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--ignore-missing-imports", "--no-incremental",
         "--cache-dir", "/dev/null", "snippet.py", "bad.py", "genpkg"],
        capture_output=True, text=True, cwd=tmp_path, timeout=600,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr  # bad.py has errors
    return proc.stdout


def test_reveal_type_is_precise(mypy_output: str) -> None:
    revealed = re.findall(r'snippet.py:\d+: note: Revealed type is "([^"]*)"', mypy_output)
    normalized = [re.sub(r"\b(builtins|typing|collections\.abc)\.", "", t) for t in revealed]
    assert normalized == _EXPECTED_REVEALS, mypy_output
    assert not re.search(r"snippet.py:\d+: error", mypy_output), mypy_output


def test_generated_stubs_pass_strict_checking(mypy_output: str) -> None:
    assert "(checked 5 source files)" in mypy_output  # the snippets and genpkg's three modules
    assert "genpkg" not in mypy_output


def test_type_errors_are_reported(mypy_output: str) -> None:
    assert 'bad.py:4: error: Incompatible types in assignment (expression has type "int"' in mypy_output
    assert 'bad.py:5: error: Argument "require_alignment" has incompatible type "str"; expected "int"' in mypy_output
