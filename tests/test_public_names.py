"""Public names the reference has beside tvm_ffi.__all__: CAny/CContainerBase at the top level,
core.ObjectConvertible and core.object_repr, libinfo.find_windows_implib, config.__main__, the
submodules reachable after a bare `import tvm_ffi`."""

from __future__ import annotations

import subprocess
import sys

import pytest
import tvm_ffi
import tvm_ffi.config
import tvm_ffi.libinfo
from tvm_ffi import core


def test_cany_and_container_base_are_importable_but_not_in_all() -> None:
    assert tvm_ffi.CAny is core.CAny and tvm_ffi.CContainerBase is core.CContainerBase
    assert "CAny" not in tvm_ffi.__all__ and "CContainerBase" not in tvm_ffi.__all__
    for container in (tvm_ffi.Array([1]), tvm_ffi.List([1]), tvm_ffi.Map({1: 2}), tvm_ffi.Dict({1: 2})):
        assert isinstance(container, tvm_ffi.CContainerBase) and isinstance(container, tvm_ffi.Object)
    assert not isinstance(tvm_ffi.convert(lambda: None), tvm_ffi.CContainerBase)


def test_containers_take_the_references_keywords() -> None:
    assert list(tvm_ffi.Array(input_list=[1, 2])) == [1, 2]
    assert dict(tvm_ffi.Map(input_dict={"a": 1})) == {"a": 1}
    assert tvm_ffi.Shape(content=[2, 3]) == (2, 3) and tvm_ffi.dtype(content="int8") == "int8"


def test_core_object_repr_and_object_convertible() -> None:
    assert core.ObjectConvertible is tvm_ffi.ObjectConvertible
    assert core.object_repr(tvm_ffi.Array([1, "a"])) == '(1, "a")'


def test_find_windows_implib_raises_where_there_is_none() -> None:
    with pytest.raises(RuntimeError, match="cannot find the import library tvm_ffi.lib"):
        tvm_ffi.libinfo.find_windows_implib()


def test_config_main_entry_point(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.argv", ["tvm-ffi-config", "--libs"])
    with pytest.raises(SystemExit) as done:
        tvm_ffi.config.__main__()
    assert done.value.code == 0 and capsys.readouterr().out.strip() == "-ltvm_ffi"


def test_submodules_are_attributes_after_a_bare_import() -> None:
    # A fresh interpreter: in this one, other tests have imported the submodules already.
    code = (
        "import tvm_ffi\n"
        "print(tvm_ffi.utils.FileLock.__name__, tvm_ffi.utils.kwargs_wrapper.__name__,"
        " tvm_ffi.cpp.__name__, tvm_ffi.dataclasses.__name__, tvm_ffi.structural.__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["FileLock", "tvm_ffi.utils.kwargs_wrapper", "tvm_ffi.cpp", "tvm_ffi.dataclasses",
                           "tvm_ffi.structural"]
