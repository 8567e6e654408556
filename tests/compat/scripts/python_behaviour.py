"""Behaviours code written for the reference package relies on, printed as one JSON object.

tests/compat/test_python_behaviour.py runs this script once with our `tvm_ffi` and once with the
reference's and requires the two outputs to be equal. Each entry is what a user would observe.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import Array, Dict, List, Map, core

echo = tvm_ffi.get_global_func("testing.echo")
seen: dict[str, object] = {}


def observe(name: str, thunk: object) -> None:
    """Records the value of thunk(), or the first of these exception types that it raises."""
    try:
        seen[name] = thunk()  # type: ignore[operator]
    except Exception as err:  # noqa: BLE001  -- the exception is the observation
        kinds = (AttributeError, ValueError, KeyError, TypeError)
        seen[name] = "raises " + next((k.__name__ for k in kinds if isinstance(err, k)), type(err).__name__)


# 1. equal containers hash equal
observe("set of two equal Arrays", lambda: len({Array([1, 2, 3]), Array([1, 2, 3])}))
observe("equal Lists hash equal", lambda: hash(List([1, "a"])) == hash(List([1, "a"])))
observe("equal Maps hash equal", lambda: hash(Map({"a": 1, "b": [2]})) == hash(Map({"b": [2], "a": 1})))
observe("equal Dicts hash equal", lambda: hash(Dict({"a": 1})) == hash(Dict({"a": 1})))
observe("Array as dict key", lambda: {Array([1, 2]): "v"}[Array([1, 2])])
# 2. `in`
observe("tuple in Array of tuples", lambda: ("B", 128) in Array([("B", 128)]))
observe("item == tuple", lambda: Array([(1, 2)])[0] == (1, 2))
observe("1.0 in Array([1])", lambda: 1.0 in Array([1]))
observe("True in Array([1])", lambda: True in Array([1]))
observe("str in Array", lambda: "x" in Array(["x", 1]))
observe("list in List of Arrays", lambda: [1, 2] in List([Array([1, 2])]))
# 3. against Python dicts, lists, tuples
observe("Map.__eq__(dict) is NotImplemented", lambda: Map({"x": 1}).__eq__({"x": 1}) is NotImplemented)
observe("Map == dict", lambda: Map({"x": 1}) == {"x": 1})
observe("Map != dict", lambda: Map({"x": 1}) != {"x": 1})
observe("Map == Map", lambda: Map({"x": [1]}) == Map({"x": [1]}))
observe("Dict == Dict", lambda: Dict({"x": 1}) == Dict({"x": 1}))
observe("Map == Dict", lambda: Map({"x": 1}) == Dict({"x": 1}))
observe("Array == list", lambda: Array([1, 2, 3]) == [1, 2, 3])
observe("Array == tuple", lambda: Array([1, 2, 3]) == (1, 2, 3))
observe("list == Array", lambda: [1, 2, 3] == Array([1, 2, 3]))
observe("Array == shorter list", lambda: Array([1, 2, 3]) == [1, 2])
observe("Array.__eq__(str) is NotImplemented", lambda: Array([1]).__eq__("1") is NotImplemented)
observe("Array.__eq__(int) is NotImplemented", lambda: Array([1]).__eq__(1) is NotImplemented)
observe("Array == List", lambda: Array([1]) == List([1]))
observe("Array([1]) == [1.0]", lambda: Array([1]) == [1.0])
observe("Array([1]) == [True]", lambda: Array([1]) == [True])
observe("NaN items equal", lambda: Array([float("nan")]) == Array([float("nan")]))
observe("-0.0 equals 0.0", lambda: Array([-0.0]) == Array([0.0]))
observe("nested equal", lambda: Array([[1, "s"], {"k": 2}]) == Array([[1, "s"], {"k": 2}]))
# 7. __cuda_stream__ with a (tag, address) tuple


class Stream:
    def __init__(self, result: object) -> None:
        self.result = result

    def __cuda_stream__(self) -> object:
        return self.result


observe("__cuda_stream__ ('cuda', 1)", lambda: echo(Stream(("cuda", 1))).value)
observe("__cuda_stream__ (0, 5)", lambda: echo(Stream((0, 5))).value)
# 8. convert of an arbitrary object


class Payload:
    pass


payload = Payload()
observe("convert(object) type", lambda: type(tvm_ffi.convert(payload)).__name__)
observe("convert(object).pyobject() is it", lambda: tvm_ffi.convert(payload).pyobject() is payload)
observe("echo(object) is it", lambda: echo(payload) is payload)
observe("Array([object]) == [object]", lambda: Array([payload]) == [payload])
observe("Array([object]) == Array([object])", lambda: Array([payload]) == Array([payload]))
# 9. constructor exceptions
observe("Map(1)", lambda: tvm_ffi.Map(1))
observe("Map([1, 2])", lambda: tvm_ffi.Map([1, 2]))
observe("Dict(1)", lambda: tvm_ffi.Dict(1))
observe("Array(1)", lambda: tvm_ffi.Array(1))
observe("List(None)", lambda: tvm_ffi.List(None))
observe("Shape(['a'])", lambda: tvm_ffi.Shape(["a"]))
observe("Shape([1.5])", lambda: tvm_ffi.Shape([1.5]))
observe("Map missing key", lambda: Map({"a": 1})["b"])
# 11. names other code imports
observe("container.MISSING is core.MISSING", lambda: tvm_ffi.container.MISSING is core.MISSING)
observe("run_with_gpu_lock", lambda: tvm_ffi.testing.run_with_gpu_lock(sum, [1, 2, 3]))


class FrameworkDevice(core.Device):
    pass


def device_hooks() -> list[object]:
    core._set_class_device(FrameworkDevice)
    try:
        dev = tvm_ffi.device("cuda", 1)
        return [type(dev).__name__, type(echo(dev)).__name__, core._CLASS_DEVICE is FrameworkDevice]
    finally:
        core._set_class_device(core.Device)


observe("Device subclass hook", device_hooks)


class FrameworkTensor(core.Tensor):
    pass


def tensor_hooks() -> list[object]:
    import numpy as np

    core._set_class_tensor(FrameworkTensor)
    try:
        t = tvm_ffi.from_dlpack(np.zeros(2, dtype="float32"))
        return [type(t).__name__, type(echo(t)).__name__, type(echo([t])[0]).__name__]
    finally:
        core._set_class_tensor(core.Tensor)


observe("Tensor subclass hook", tensor_hooks)
observe("_CLASS_TENSOR restored", lambda: core._CLASS_TENSOR is core.Tensor)


# 6. tensors keep their framework through round trips
def torch_round_trips() -> object:
    try:
        import torch
    except ImportError:
        return "no torch"
    x = torch.zeros(3)
    arr = tvm_ffi.testing.make_array_with_tensor(x)
    return [type(arr[0]).__module__, type(echo(arr)[0]).__module__, type(echo(echo(arr))[0]).__module__,
            type(echo([arr])[0][0]).__module__]


observe("framework through round trips", torch_round_trips)



# 7. the class tree: which wrappers are Objects (reflected and container types) and which are
# only CObjects (functions, tensors, errors, opaque Python objects); the classes' printed names
def class_tree() -> object:
    import numpy as np

    values = {"Array": Array([1]), "Map": Map({"a": 1}), "TestIntPair": tvm_ffi.testing.TestIntPair(1, 2),
              "Function": echo, "Tensor": tvm_ffi.from_dlpack(np.zeros(2)), "Error": core.Error("ValueError", "m", ""),
              "Opaque": echo(object())}
    return {name: [isinstance(v, tvm_ffi.Object), isinstance(v, core.CObject)] for name, v in values.items()}


observe("Object or only CObject", class_tree)
observe("class names", lambda: [repr(c) for c in (core.CObject, core.Object, core.Function, core.Tensor, core.Error,
                                                   core.String, core.Bytes, core.OpaquePyObject)])
observe("CObject is not Object", lambda: core.CObject is not core.Object and issubclass(core.Object, core.CObject))
def copies_of_wrappers() -> object:
    import copy

    import numpy as np

    def outcome(copier: Any, value: Any) -> object:
        try:
            made = copier(value)
        except Exception as err:  # noqa: BLE001 (the kind of failure is the observation)
            return type(err).__name__
        return [type(made).__name__, made.same_as(value)]

    values = {"Function": echo, "Tensor": tvm_ffi.from_dlpack(np.zeros(2)), "Error": core.Error("ValueError", "m", "")}
    return {name: [outcome(copy.copy, v), outcome(copy.deepcopy, v)] for name, v in values.items()}


observe("copies of functions, tensors and errors", copies_of_wrappers)
def schema_fixture_conversions() -> object:
    # Each typed testing.schema_* fixture over values that convert, convert with a copy (bools in
    # int containers, a List for an Array), are null, or mismatch: the result kind or the error.
    names = sorted(n for n in tvm_ffi.registry.list_global_func_names()
                   if n.startswith("testing.schema_id") and n != "testing.schema_id_dltensor") + [
        "testing.schema_variant_mix"]
    values = [None, True, 1.5, "s", "float32", b"int8", [1, True], [1, "a"], Array([1]), List([1, 2]),
              Dict({"a": True}), Map({"a": 1}), {"a": [1, True]}, {"a": 1.5}, echo]

    def outcome(fn: Any, value: Any) -> object:
        try:
            made = fn(value)
        except Exception as err:  # noqa: BLE001 (the kind of failure is the observation)
            return f"{type(err).__name__}: {err}"
        text = repr(made) if not callable(made) else "<function>"
        return [type(made).__name__, text, bool(getattr(made, "same_as", lambda _: False)(value))]

    return {name: [outcome(tvm_ffi.get_global_func(name), v) for v in values] for name in names}


observe("schema fixtures convert like typed C++ functions", schema_fixture_conversions)
observe("wrapper classes declare empty slots", lambda: {c.__name__: c.__dict__.get("__slots__") for c in (
    core.CObject, core.Object, core.Tensor, core.Error, core.OpaquePyObject)})
observe("Shape, String and Bytes are PyNativeObjects", lambda: [
    isinstance(v, core.PyNativeObject) for v in (tvm_ffi.Shape((1, 2)), core.String("a"), core.Bytes(b"a"), (1, 2))])
json.dump(seen, sys.stdout, indent=1, sort_keys=True)
