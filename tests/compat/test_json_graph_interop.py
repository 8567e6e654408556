"""JSON object graphs written by the reference package load in ours and the other way round,
and both write byte-identical documents for the same values."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import tvm_ffi
from tvm_ffi.access_path import AccessPath
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str

from .conftest import Reference

# Values both packages construct the same way (Python source, evaluated on each side).
EXPRESSIONS = [
    "None", "True", "0", "-5", "-2**63", "2**63 - 1", "2**70", "-(2**70)", "1.5", "-0.0", "1e300",
    "float('nan')", "float('-inf')", "2.0**53", "0.1", "'abc'", "'a long string, past seven'",
    "'esc \"\\\\/\\n\\t\\x01\\x7f é€😀'", "b''", "b'ab'", "bytes(range(256))",
    "tvm_ffi.dtype('float32')", "tvm_ffi.dtype('int8x4')", "tvm_ffi.dtype('bfloat16')",
    "tvm_ffi.Device('cuda', 1)", "tvm_ffi.Device('cpu', 0)", "[1, 2, 3]", "[]", "{}",
    "{'a': 1, 'b': [1, {'z': None}]}", "tvm_ffi.List([1, 'x', tvm_ffi.List()])",
    "tvm_ffi.Dict({'k': [1.5, None], 2: 'v'})", "tvm_ffi.Shape((2, 3))",
    "['1', 1, '1', 1.0, 1, True, 1]", "(lambda a: [a, a, tvm_ffi.convert([1, 2])])(tvm_ffi.convert([1, 2]))",
    "{True: 1, 1: 2, 1.0: 3, None: 4}", "AccessPath.root().attr('a').array_item(2).map_item('k')",
]

REFERENCE_SCRIPT = r"""
import json, sys
import tvm_ffi
from tvm_ffi.access_path import AccessPath
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str
data = json.load(sys.stdin)
written = [to_json_graph_str(eval(e)) for e in data["expressions"]]
rewritten = [to_json_graph_str(from_json_graph_str(d)) for d in data["documents"]]
print(json.dumps({"written": written, "rewritten": rewritten}))
"""


def run_reference(reference: Reference, documents: list[str]) -> dict[str, Any]:
    request = json.dumps({"expressions": EXPRESSIONS, "documents": documents})
    proc = subprocess.run([sys.executable, "-c", REFERENCE_SCRIPT], input=request, capture_output=True,
                          text=True, env=reference.env(), timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_documents_are_identical_and_load_both_ways(reference: Reference) -> None:
    ours = [to_json_graph_str(eval(e)) for e in EXPRESSIONS]
    result = run_reference(reference, ours)
    for expression, mine, theirs in zip(EXPRESSIONS, ours, result["written"]):
        assert mine == theirs, expression
    # The reference loads our documents and writes them back unchanged...
    assert result["rewritten"] == ours
    # ...and we load the reference's documents and write them back unchanged.
    assert [to_json_graph_str(from_json_graph_str(d)) for d in result["written"]] == result["written"]


def test_pickled_containers_and_paths_keep_values() -> None:
    for expression in EXPRESSIONS:
        value = eval(expression)
        back = from_json_graph_str(to_json_graph_str(value))
        assert tvm_ffi.structural_equal(back, tvm_ffi.convert(value)) or value != value, expression


PICKLE_SCRIPT = r"""
import pickle, sys
import tvm_ffi
from tvm_ffi.access_path import AccessPath
theirs = pickle.loads(sys.stdin.buffer.read())
assert str(theirs) == '<root>.a[2]["k"]', str(theirs)
sys.stdout.buffer.write(pickle.dumps(AccessPath.root().attr("b").array_item_missing(1)))
"""


def test_object_pickles_load_in_both_packages(reference: Reference) -> None:
    import pickle

    path = AccessPath.root().attr("a").array_item(2).map_item("k")
    proc = subprocess.run([sys.executable, "-c", PICKLE_SCRIPT], input=pickle.dumps(path), capture_output=True,
                          env=reference.env(), timeout=300)
    assert proc.returncode == 0, proc.stderr.decode()
    theirs = pickle.loads(proc.stdout)
    assert isinstance(theirs, AccessPath) and str(theirs) == "<root>.b[<missing:1>]"
