"""Pickles made by the reference package load in ours and the other way round: devices, dtypes,
shapes, strings, containers and registered objects name classes and rebuild functions that both
packages provide (``tvm_ffi.core._create_device_from_tuple``, ``tvm_ffi._tensor.Shape``, ...)."""

from __future__ import annotations

import base64
import json
import pickle
import subprocess
import sys

import tvm_ffi
import tvm_ffi.testing

from .conftest import Reference

# Values both packages construct the same way (Python source, evaluated on each side).
EXPRESSIONS = [
    "tvm_ffi.device('cuda', 1)", "tvm_ffi.device('cpu', 0)", "tvm_ffi.dtype('float32')",
    "tvm_ffi.dtype('int8x4')", "tvm_ffi.Shape((1, 2, 3))", "tvm_ffi.convert('hello')",
    "tvm_ffi.convert(b'ab')", "tvm_ffi.convert([1, 'a', 2.5])", "tvm_ffi.convert({'a': 1, 'b': [2]})",
    "tvm_ffi.List([1, tvm_ffi.List([2])])", "tvm_ffi.Dict({'k': 2, 3: 'v'})",
    "tvm_ffi.testing.TestIntPair(1, 2)", "tvm_ffi.Array([tvm_ffi.testing.TestIntPair(1, 2)] * 2)",
    "tvm_ffi.Map({'x': tvm_ffi.testing.TestIntPair(3, 4), 1: True})",
]
# Values both packages pickle through the JSON object graph (containers and reflected objects).
GRAPH_PICKLED = [i for i, e in enumerate(EXPRESSIONS) if "TestIntPair" in e or e.startswith(
    ("tvm_ffi.convert([", "tvm_ffi.convert({", "tvm_ffi.List", "tvm_ffi.Dict"))]

# Each side pickles every value, and loads the other side's pickles: a value comes back as its
# repr (equal on both sides for these values) or as the error that stopped it.
SCRIPT = r"""
import base64, json, pickle, sys
import tvm_ffi, tvm_ffi.testing
data = json.load(sys.stdin)
made = [base64.b64encode(pickle.dumps(eval(e))).decode() for e in data["expressions"]]
def load(blob):
    try:
        return repr(pickle.loads(base64.b64decode(blob)))
    except Exception as err:
        return f"{type(err).__name__}: {err}"
print(json.dumps({"made": made, "loaded": [load(b) for b in data["pickles"]]}))
"""


def run(env: dict[str, str] | None, pickles: list[str]) -> dict[str, list[str]]:
    request = json.dumps({"expressions": EXPRESSIONS, "pickles": pickles})
    proc = subprocess.run([sys.executable, "-c", SCRIPT], input=request, capture_output=True, text=True,
                          env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_pickles_load_both_ways(reference: Reference) -> None:
    ours = [base64.b64encode(pickle.dumps(eval(e))).decode() for e in EXPRESSIONS]
    theirs = run(reference.env(), ours)
    expected = [repr(eval(e)) for e in EXPRESSIONS]
    assert theirs["loaded"] == expected  # the reference loads ours...
    loaded_here = [repr(pickle.loads(base64.b64decode(b))) for b in theirs["made"]]
    assert loaded_here == expected  # ...and we load the reference's


def test_classes_are_named_where_the_reference_keeps_them() -> None:
    assert (tvm_ffi.Device.__module__, tvm_ffi.core.DataType.__module__) == ("tvm_ffi.core", "tvm_ffi.core")
    assert tvm_ffi.Shape.__module__ == "tvm_ffi._tensor"
    assert tvm_ffi._tensor.Shape is tvm_ffi.Shape
    assert tvm_ffi.core._create_device_from_tuple(tvm_ffi.Device, 2, 1) == tvm_ffi.device("cuda:1")
    assert tvm_ffi.core._create_cdtype_from_tuple(tvm_ffi.dtype, 2, 16, 1) == "float16"


def test_containers_and_objects_pickle_to_the_reference_bytes(reference: Reference) -> None:
    theirs = run(reference.env(), [])["made"]
    ours = [base64.b64encode(pickle.dumps(eval(EXPRESSIONS[i]))).decode() for i in GRAPH_PICKLED]
    assert ours == [theirs[i] for i in GRAPH_PICKLED]
