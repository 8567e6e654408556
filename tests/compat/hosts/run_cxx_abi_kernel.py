"""Calls every function of kernels/cxx_abi_kernel.cc through whichever `tvm_ffi` this interpreter
imports (ours, or the reference with PYTHONPATH set), printing "ok <check>" lines.

Usage: python run_cxx_abi_kernel.py <cxx_abi_kernel.so> <another kernel.so> <a function only it has>

The same expectations hold for every combination of headers (ours / reference) and runtime
(ours / reference); test_cxx_abi_kernel.py runs all four.
"""

from __future__ import annotations

import sys

import tvm_ffi
import tvm_ffi.testing

PARSE_ERROR = "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"


def check_structural(mod: tvm_ffi.Module) -> None:
    a = tvm_ffi.convert({"x": [1, 2, 3]})
    same = tvm_ffi.convert({"x": [1, 2, 3]})
    b = tvm_ffi.convert({"x": [1, 2, 4]})
    assert mod.structural_equal(a, same, False) and not mod.structural_equal(a, b, False)
    assert mod.first_mismatch(a, same) == "equal"
    assert mod.first_mismatch([1, 2], [1, 2, 3]) == "<root>[2?] vs <root>[2]"
    assert mod.first_mismatch([1, [5]], [1, [6]]) == "<root>[1][0] vs <root>[1][0]"
    assert mod.structural_hash(a, False) == mod.structural_hash(same, False)
    assert mod.structural_hash(a, False) != mod.structural_hash(b, False)
    assert mod.structural_hash(a, False) == tvm_ffi.get_global_func("ffi.StructuralHash")(a, False, False)
    assert mod.distinct_structural_keys([a, b, same, b]) == 2
    print("ok structural equal, mismatch, hash, key")


def check_dataclass_functions(mod: tvm_ffi.Module) -> None:
    assert list(mod.recursive_compare([1, 2], [1, 3])) == [False, True, True, False, False]
    assert list(mod.recursive_compare([1, 2], [1, 2])) == [True, False, True, False, True]
    assert mod.recursive_hash([1, 2]) == mod.recursive_hash(tvm_ffi.convert([1, 2]))
    value = tvm_ffi.convert({"x": [1, 2]})
    copied = mod.deep_copy(value)
    assert not copied.same_as(value) and mod.structural_equal(copied, value, False)
    assert mod.repr_print(value) == '{"x": (1, 2)}'
    print("ok deep copy, repr, recursive compare/hash")


def check_json(mod: tvm_ffi.Module) -> None:
    parsed = mod.json_parse('{"a": [1, 2.5, null, true, "s"]}')
    assert list(parsed["a"]) == [1, 2.5, None, True, "s"]
    assert mod.json_parse_error("{bad") == PARSE_ERROR
    assert mod.json_parse_error("[1]") == ""
    assert mod.json_parse_caught_kind("{bad") == "ValueError"
    try:
        mod.json_parse("{bad")
    except ValueError as err:
        assert PARSE_ERROR in str(err), err
    else:
        raise AssertionError("json::Parse did not raise")
    value = tvm_ffi.convert({"a": [1, {}], "b": []})
    assert mod.json_stringify(value, None) == '{"a":[1,{}],"b":[]}'
    assert mod.json_stringify(value, 0) == '{"a":[1,{}],"b":[]}'
    assert mod.json_stringify(value, 2) == '{\n  "a": [\n    1,\n    {\n    }\n  ],\n  "b": [\n  ]\n}'
    print("ok json parse, stringify, errors")


def check_json_graph(mod: tvm_ffi.Module) -> None:
    shared = tvm_ffi.convert([1, 2])
    value = tvm_ffi.convert({"x": shared, "y": shared})
    graph = mod.to_json_graph(value, None)
    assert graph["root_index"] == len(graph["nodes"]) - 1
    back = mod.from_json_graph(graph)
    assert mod.structural_equal(back, value, False) and back["x"].same_as(back["y"])
    with_metadata = mod.to_json_graph(1, {"version": "1"})
    assert with_metadata["metadata"]["version"] == "1"
    print("ok json graph")


def check_modules(mod: tvm_ffi.Module, path: str, other: str, other_function: str) -> None:
    assert list(mod.module_query(path, "add_one")) == ["library", True, True, True, False, False, 21]
    assert list(mod.module_query(path, "missing")) == ["library", False, False, False, False, False, None]
    assert list(mod.module_imports(path, other, other_function)) == [False, True, True, False]
    assert mod.context_symbols("cxx_abi_kernel.marker") == 1
    print("ok modules, imports, context symbols")


def check_visit_error_context(mod: tvm_ffi.Module) -> None:
    make = tvm_ffi.testing.TestObjectDerived
    leaf = make(v_map={}, v_array=[], v_i64=1)
    mid = make(v_map={"k": leaf}, v_array=[leaf], v_i64=2)
    root = make(v_map={}, v_array=[1, mid], v_i64=3)
    to_leaf = ["<root>.v_array[1].v_map{2}", "<root>.v_array[1].v_array[0]"]  # {2}: a map item step
    assert list(mod.visit_error_paths(root, [root, mid, leaf], False)) == to_leaf
    assert list(mod.visit_error_paths(root, [mid, leaf], False)) == to_leaf  # records may skip levels
    try:
        mod.visit_error_paths(root, [root, mid, leaf], True)
    except ValueError as err:
        assert "bad node at depth 2" in str(err), err
    else:
        raise AssertionError("the visit error did not reach the caller")
    find = mod.find_access_paths
    assert list(find(root, [mid, root], False)) == ["<root>.v_array[1]"]
    assert list(find(root, [root], False)) == ["<root>"]
    stranger = make(v_map={}, v_array=[], v_i64=9)
    assert list(find(root, [stranger, mid, root], False)) == []
    assert list(find(root, [stranger, mid, root], True)) == to_leaf  # the dead ends below `mid`
    assert list(find(tvm_ffi.convert([mid]), [leaf], False)) == []  # a container root is not searched
    print("ok visit error context")


def main(path: str, other: str, other_function: str) -> None:
    mod = tvm_ffi.load_module(path)
    check_structural(mod)
    check_dataclass_functions(mod)
    check_json(mod)
    check_json_graph(mod)
    check_modules(mod, path, other, other_function)
    check_visit_error_context(mod)


if __name__ == "__main__":
    main(*sys.argv[1:4])
