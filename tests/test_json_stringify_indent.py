"""ffi.json.Stringify's `indent`: None or 0 give the compact text, n > 0 one item per line with
n spaces per level, `": "` after keys and empty containers as "[\\n]" (the reference's layout;
json::Stringify in tvm/ffi/extra/json.h forwards here)."""

from __future__ import annotations

import pytest
import tvm_ffi

stringify = tvm_ffi.get_global_func("ffi.json.Stringify")


def test_compact_without_indent() -> None:
    value = tvm_ffi.convert({"a": [1, 2.5, None], "b": {}})
    assert stringify(value) == stringify(value, None) == stringify(value, 0) == '{"a":[1,2.5,null],"b":{}}'


def test_indented_layout() -> None:
    value = tvm_ffi.convert({"a": [1, {"b": True}], "c": [], "d": "x,y:[z]"})
    assert stringify(value, 2) == (
        '{\n  "a": [\n    1,\n    {\n      "b": true\n    }\n  ],\n  "c": [\n  ],\n  "d": "x,y:[z]"\n}')
    assert stringify(tvm_ffi.convert([]), 4) == "[\n]"
    assert stringify(tvm_ffi.convert(['q"[', 1]), 1) == '[\n "q\\"[",\n 1\n]'


def test_bad_indent_raises() -> None:
    with pytest.raises(TypeError):
        stringify(tvm_ffi.convert([1]), "2")
    with pytest.raises(ValueError, match="indent 100000 is too large"):
        stringify(tvm_ffi.convert([1]), 100000)
