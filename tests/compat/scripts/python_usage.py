"""Typical uses of the `tvm_ffi` Python package, printed as one JSON object of observations.

tests/compat/test_python_usage.py runs this script under our package and under the reference and
compares the outputs: tensors with NumPy and PyTorch, dtypes and devices, containers, global
functions, objects, errors, streams, modules, serialization and structural comparison. Each
entry is what a user would see: a value and its printed form, or an exception's type and text.
"""

from __future__ import annotations

import copy
import json
import pickle
import re
import sys
from typing import Callable

import numpy as np
import torch
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import Array, Dict, List, Map

seen: dict[str, object] = {}
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def describe(value: object) -> object:
    """A JSON-able, address-free account of a value: its type name, repr and str."""
    if isinstance(value, (bool, int, float, type(None))):
        return [type(value).__name__, value]
    if isinstance(value, (list, tuple)) and all(isinstance(v, (bool, int, float, str, type(None))) for v in value):
        return [type(value).__name__, list(value)]
    return [type(value).__name__, ADDRESS.sub("0x?", repr(value)), ADDRESS.sub("0x?", str(value))]


def observe(name: str, thunk: Callable[[], object]) -> None:
    """Records what thunk() returns, or the type and message of what it raises."""
    try:
        seen[name] = describe(thunk())
    except Exception as err:  # noqa: BLE001 - the exception is the observation
        seen[name] = ["raises", type(err).__name__, ADDRESS.sub("0x?", str(err))]


# ---- dtype ------------------------------------------------------------------------------------
f32 = tvm_ffi.dtype("float32")
observe("dtype", lambda: f32)
observe("dtype fields", lambda: (f32.type_code, f32.bits, f32.lanes, f32.itemsize))
observe("dtype vector", lambda: tvm_ffi.dtype("int8x4"))
observe("dtype vector fields", lambda: (lambda d: (d.bits, d.lanes, d.itemsize))(tvm_ffi.dtype("int8x4")))
observe("dtype with_lanes", lambda: f32.with_lanes(4))
observe("dtype == str", lambda: f32 == "float32")
observe("dtype hash", lambda: hash(f32) == hash(tvm_ffi.dtype("float32")))
observe("dtype literal", lambda: tvm_ffi.float8_e4m3fn)
observe("dtype from torch", lambda: tvm_ffi.dtype(torch.bfloat16))
observe("dtype from numpy", lambda: tvm_ffi.dtype(np.dtype("int16")))
observe("dtype bad", lambda: tvm_ffi.dtype("notatype"))
observe("dtype to torch", lambda: f32.to_torch_dtype() if hasattr(f32, "to_torch_dtype") else "none")
observe("dtype echo", lambda: tvm_ffi.testing.echo(f32))
# ---- device -----------------------------------------------------------------------------------
cuda1 = tvm_ffi.device("cuda:1")
observe("device", lambda: cuda1)
observe("device fields", lambda: (cuda1.type, cuda1.index, cuda1.dlpack_device_type()))
observe("device two args", lambda: tvm_ffi.device("cuda", 2))
observe("device cpu", lambda: tvm_ffi.device("cpu"))
observe("device eq", lambda: tvm_ffi.device("cuda", 1) == cuda1)
observe("device hash", lambda: hash(tvm_ffi.device("cuda", 1)) == hash(cuda1))
observe("device bad", lambda: tvm_ffi.device("nodev"))
observe("device int type", lambda: tvm_ffi.device(2, 0))
observe("device enum", lambda: tvm_ffi.DLDeviceType.kDLCUDA)
observe("device enum int", lambda: int(tvm_ffi.DLDeviceType.kDLROCM))
observe("device echo", lambda: tvm_ffi.testing.echo(cuda1))
observe("device from torch", lambda: tvm_ffi.testing.echo(torch.device("cpu")))
# ---- tensors ----------------------------------------------------------------------------------
host = np.arange(12, dtype=np.float32).reshape(3, 4)
t = tvm_ffi.from_dlpack(host)
observe("tensor", lambda: t)
observe("tensor facts", lambda: (tuple(t.shape), str(t.dtype), str(t.device), t.strides, t.ndim))
observe("tensor shape type", lambda: t.shape)
observe("tensor dlpack device", lambda: t.__dlpack_device__())
observe("tensor to numpy", lambda: np.from_dlpack(t).tolist())
observe("tensor to torch", lambda: torch.from_dlpack(t).tolist())
observe("tensor from torch", lambda: tvm_ffi.from_dlpack(torch.ones(2, dtype=torch.int64)))
observe("tensor non-contiguous", lambda: tvm_ffi.from_dlpack(host[:, ::2]).strides)
observe("tensor require contiguous", lambda: tvm_ffi.from_dlpack(host[:, ::2], require_contiguous=True))
observe("tensor require alignment", lambda: tvm_ffi.from_dlpack(host.reshape(-1)[1:], require_alignment=64))
observe("tensor from list", lambda: tvm_ffi.from_dlpack([1, 2]))
observe("tensor echo keeps numpy", lambda: type(tvm_ffi.testing.echo(host)).__name__)
observe("tensor echo keeps torch", lambda: type(tvm_ffi.testing.echo(torch.zeros(1))).__name__)
observe("tensor echo ffi", lambda: type(tvm_ffi.testing.echo(t)).__name__)
observe("tensor 0-d", lambda: tvm_ffi.from_dlpack(np.array(3.0)).shape)
observe("tensor bool", lambda: str(tvm_ffi.from_dlpack(np.zeros(2, dtype=bool)).dtype))
observe("tensor in Array", lambda: type(Array([host])[0]).__name__)
observe("torch in Array", lambda: type(Array([torch.zeros(1)])[0]).__name__)
# ---- containers -------------------------------------------------------------------------------
arr = Array([1, "two", 3.0, None, [4, 5], {"k": "v"}])
observe("Array", lambda: arr)
observe("Array item types", lambda: [type(x).__name__ for x in arr])
observe("Array index -1", lambda: arr[-1])
observe("Array slice", lambda: arr[1:3])
observe("Array index error", lambda: arr[10])
observe("Array index str", lambda: arr["a"])  # type: ignore[call-overload]
observe("Array + list", lambda: Array([1]) + [2])
observe("list + Array", lambda: [0] + Array([1]))
observe("Array count/index", lambda: (Array([1, 2, 1]).count(1), Array([1, 2, 1]).index(2)))
observe("Array reversed", lambda: list(reversed(Array([1, 2, 3]))))
observe("Array bool", lambda: (bool(Array([])), bool(Array([0]))))
observe("Array setitem", lambda: Array([1]).__setitem__(0, 2))
observe("empty Array", lambda: Array([]))
lst = List([1, 2])
observe("List", lambda: lst)
observe("List append/extend/insert", lambda: (lst.append(3), lst.extend([4, 5]), lst.insert(0, 0), list(lst))[-1])
observe("List pop", lambda: (lst.pop(), lst.pop(0), list(lst)))
observe("List setitem/delitem", lambda: (lst.__setitem__(0, 9), lst.__delitem__(1), list(lst))[-1])
observe("List slice assign", lambda: (lst.__setitem__(slice(0, 1), [7, 8]), list(lst))[-1])
observe("List remove missing", lambda: lst.remove(100))
observe("List pop empty", lambda: List([]).pop())
observe("List clear", lambda: (lst.clear(), len(lst))[-1])
m = Map({"b": 2, "a": 1, "c": [3]})
observe("Map", lambda: m)
observe("Map keys", lambda: list(m.keys()))
observe("Map values", lambda: list(m.values())[:2])
observe("Map items", lambda: [(k, v) for k, v in m.items()][:2])
observe("Map get", lambda: (m.get("a"), m.get("zz"), m.get("zz", 5)))
observe("Map missing", lambda: m["zz"])
observe("Map len/in", lambda: (len(m), "a" in m, "zz" in m))
observe("Map int keys", lambda: Map({1: "a", 2: "b"}))
observe("Map setitem", lambda: m.__setitem__("d", 1))
d = Dict({"x": 1})
observe("Dict", lambda: d)
observe("Dict set/del", lambda: (d.__setitem__("y", 2), d.__delitem__("x"), dict(d.items()))[-1])
observe("Dict pop", lambda: (d.pop("y"), d.pop("nope", "default"), len(d)))
observe("Dict pop missing", lambda: d.pop("nope"))
observe("Dict setdefault", lambda: (d.setdefault("k", 3), d.setdefault("k", 4)))
observe("Dict update", lambda: (d.update({"u": 1}), sorted(d.keys()))[-1])
observe("Dict clear", lambda: (d.clear(), len(d))[-1])
observe("Shape", lambda: tvm_ffi.Shape((2, 3)))
observe("Shape ops", lambda: (tvm_ffi.Shape((2, 3)) == (2, 3), tvm_ffi.Shape((2, 3))[1], len(tvm_ffi.Shape(()))))
observe("nested repr", lambda: Array([Map({"a": List([1, Dict({"b": None})])})]))
observe("convert list", lambda: tvm_ffi.convert([1, 2]))
observe("convert dict", lambda: tvm_ffi.convert({"a": 1}))
observe("convert tuple", lambda: tvm_ffi.convert((1, "a")))
observe("convert str", lambda: tvm_ffi.convert("hello world, long"))
observe("convert bytes", lambda: tvm_ffi.convert(b"by"))
observe("convert int", lambda: tvm_ffi.convert(5))
observe("convert callable", lambda: type(tvm_ffi.convert(lambda: 1)).__name__)
observe("Array copy", lambda: copy.copy(Array([1, [2]])))
observe("Array deepcopy", lambda: copy.deepcopy(Array([1, [2]])))
observe("Map pickle", lambda: pickle.loads(pickle.dumps(Map({"a": [1]}))))
observe("Array pickle", lambda: pickle.loads(pickle.dumps(Array([1, "x"]))))
# ---- global functions -------------------------------------------------------------------------


@tvm_ffi.register_global_func("usage_test.add")
def add(a: int, b: int) -> int:
    return a + b


tvm_ffi.register_global_func("usage_test.mul", lambda a, b: a * b)
observe("call registered", lambda: tvm_ffi.get_global_func("usage_test.add")(2, 3))
observe("decorator returns", lambda: type(add).__name__)
observe("call lambda global", lambda: tvm_ffi.get_global_func("usage_test.mul")("ab", 2))
observe("register twice", lambda: tvm_ffi.register_global_func("usage_test.add", lambda: 0))
observe("register override", lambda: tvm_ffi.register_global_func("usage_test.add", lambda: 7, override=True))
observe("call overridden", lambda: tvm_ffi.get_global_func("usage_test.add")())
observe("get missing", lambda: tvm_ffi.get_global_func("usage_test.nope"))
observe("get missing allowed", lambda: tvm_ffi.get_global_func("usage_test.nope", allow_missing=True))
observe("listed", lambda: "usage_test.mul" in tvm_ffi.registry.list_global_func_names())
observe("remove", lambda: tvm_ffi.remove_global_func("usage_test.mul"))
observe("removed", lambda: tvm_ffi.get_global_func("usage_test.mul", allow_missing=True))
observe("function repr", lambda: tvm_ffi.get_global_func("testing.echo"))
observe("function kwargs", lambda: tvm_ffi.get_global_func("testing.echo")(x=1))
observe("metadata", lambda: sorted(tvm_ffi.get_global_func_metadata("testing.add_one")))
observe("metadata schema", lambda: tvm_ffi.get_global_func_metadata("testing.add_one")["type_schema"])
observe("python exception through C", lambda: tvm_ffi.testing.apply(lambda: 1 / 0))
observe("wrong arg type", lambda: tvm_ffi.testing.add_one("x"))
observe("wrong arg count", lambda: tvm_ffi.testing.add_one())
observe("unconvertible arg", lambda: tvm_ffi.testing.echo(object()) is not None)
observe("set arg", lambda: tvm_ffi.testing.echo({1, 2}))
observe("huge int", lambda: tvm_ffi.testing.echo(2**70))
observe("nan", lambda: tvm_ffi.testing.echo(float("inf")))
observe("numpy scalar", lambda: tvm_ffi.testing.echo(np.int32(3)))
observe("numpy float scalar", lambda: tvm_ffi.testing.echo(np.float32(1.5)))
observe("torch scalar int", lambda: tvm_ffi.testing.add_one(np.int64(4)))
# ---- objects ----------------------------------------------------------------------------------
pair = tvm_ffi.testing.TestIntPair(1, 2)
observe("object", lambda: pair)
observe("object fields", lambda: (pair.a, pair.b, pair.sum()))
observe("object same_as", lambda: (pair.same_as(pair), pair.same_as(tvm_ffi.testing.TestIntPair(1, 2))))
observe("object eq", lambda: pair == tvm_ffi.testing.TestIntPair(1, 2))
observe("object hash stable", lambda: hash(pair) == hash(pair))
observe("object type key", lambda: type(pair).__tvm_ffi_type_info__.type_key)
observe("object copy", lambda: copy.copy(pair))
observe("object deepcopy", lambda: copy.deepcopy(pair))
observe("object pickle", lambda: pickle.loads(pickle.dumps(pair)))
observe("object missing attr", lambda: pair.nope)  # type: ignore[attr-defined]
observe("object bad init", lambda: tvm_ffi.testing.TestIntPair(1))
observe("object unregistered", lambda: tvm_ffi.testing.make_unregistered_object())
observe("object base", lambda: tvm_ffi.testing.create_object("testing.TestObjectBase", v_i64=3))
observe("object derived", lambda: tvm_ffi.testing.create_object("testing.TestObjectDerived", v_i64=1,
                                                                v_map=Map({"a": 1}), v_array=Array([1])))
observe("object dir", lambda: [n for n in dir(pair) if not n.startswith("_")])
# ---- errors -----------------------------------------------------------------------------------


@tvm_ffi.register_error("UsageError")
class UsageError(RuntimeError):
    pass


observe("registered kind", lambda: tvm_ffi.testing.test_raise_error("UsageError", "boom"))
observe("ValueError kind", lambda: tvm_ffi.testing.test_raise_error("ValueError", "v"))
observe("KeyError kind", lambda: tvm_ffi.testing.test_raise_error("KeyError", "k"))
observe("AssertionError kind", lambda: tvm_ffi.testing.test_raise_error("AssertionError", "a"))
observe("MemoryError kind", lambda: tvm_ffi.testing.test_raise_error("MemoryError", "m"))
observe("registered Python raise", lambda: tvm_ffi.testing.apply(lambda: (_ for _ in ()).throw(UsageError("u"))))
observe("error tables", lambda: sorted(k for k in tvm_ffi.core.ERROR_NAME_TO_TYPE if k != "UsageError"))
# ---- streams ----------------------------------------------------------------------------------
gpu = tvm_ffi.device("cuda", 0)
observe("raw stream default", lambda: tvm_ffi.get_raw_stream(gpu))
with tvm_ffi.use_raw_stream(gpu, 77):
    observe("raw stream set", lambda: tvm_ffi.get_raw_stream(gpu))
    with tvm_ffi.use_raw_stream(gpu, 78):
        observe("raw stream nested", lambda: tvm_ffi.get_raw_stream(gpu))
    observe("raw stream restored", lambda: tvm_ffi.get_raw_stream(gpu))
observe("raw stream bad", lambda: tvm_ffi.use_raw_stream(gpu, "s"))
observe("StreamContext type", lambda: type(tvm_ffi.use_raw_stream(gpu, 1)).__name__)
# ---- modules ----------------------------------------------------------------------------------
observe("system_lib", lambda: tvm_ffi.system_lib().kind)
observe("system_lib missing fn", lambda: tvm_ffi.system_lib().get_function("nope", query_imports=False))
observe("load missing file", lambda: tvm_ffi.load_module("/nonexistent/lib.so"))
observe("load no suffix", lambda: tvm_ffi.load_module("/nonexistent/lib"))
observe("ModulePropertyMask", lambda: [(m.name, int(m)) for m in tvm_ffi.module.ModulePropertyMask])
# ---- serialization, structural, access paths --------------------------------------------------
value = Array([1, "s", Map({"k": [2.5, None]}), pair])
observe("json graph", lambda: tvm_ffi.serialization.to_json_graph_str(value))
observe("json graph round trip",
        lambda: tvm_ffi.structural_equal(tvm_ffi.serialization.from_json_graph_str(
            tvm_ffi.serialization.to_json_graph_str(value)), value))
observe("json graph bad", lambda: tvm_ffi.serialization.from_json_graph_str("{"))
observe("structural_equal", lambda: tvm_ffi.structural_equal(Array([1, {"a": 2}]), Array([1, {"a": 2}])))
observe("structural_equal differs", lambda: tvm_ffi.structural_equal(Array([1]), Array([2])))
observe("structural_hash eq", lambda: tvm_ffi.structural_hash(Array([1])) == tvm_ffi.structural_hash(Array([1])))
observe("first mismatch", lambda: tvm_ffi.get_first_structural_mismatch(Array([1, 2]), Array([1, 3])))
observe("first mismatch none", lambda: tvm_ffi.get_first_structural_mismatch(Array([1]), Array([1])))
AccessPath = tvm_ffi.access_path.AccessPath
observe("access path", lambda: AccessPath.root().attr("x").array_item(2).map_item("k"))
observe("access path eq", lambda: AccessPath.root().attr("x") == AccessPath.root().attr("x"))
observe("version", lambda: isinstance(tvm_ffi.__version__, str))

json.dump(seen, sys.stdout, indent=1, sort_keys=True)
