"""What users of ``tvm_ffi.dataclasses`` enums observe, printed as one JSON object.

tests/compat/test_enum_behaviour.py runs this script with our ``tvm_ffi`` and with the
reference's and requires equal outputs: the same declarations must give the same members,
lookups, reprs, attribute maps, payload normalisation, serialisation and exact error messages.
"""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any, ClassVar

import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import serialization
from tvm_ffi.dataclasses import Enum, IntEnum, StrEnum, auto, entry, py_class

seen: dict[str, object] = {}


def observe(name: str, thunk: Any) -> None:
    """Records thunk()'s result (as text), or the exception type and message it raises."""
    try:
        seen[name] = repr(thunk())
    except Exception as err:  # noqa: BLE001 -- the exception is the observation
        seen[name] = f"raises {type(err).__name__}: {err}"


def declare(body: Any) -> Any:
    """Runs a class declaration; its exception (if any) is the observation."""
    try:
        return repr(body())
    except Exception as err:  # noqa: BLE001
        return f"raises {type(err).__name__}: {err}"


class Kind(Enum, type_key="en.Kind"):
    alpha = auto()
    beta = entry()
    gamma: ClassVar[Kind]


class Color(IntEnum, type_key="en.Color"):
    red = 1
    green = entry(value=2)
    crimson = 1  # a repeated payload: an alias of red


class Op(StrEnum, type_key="en.Op"):
    add = "+"
    sub = entry(value="-")


class Labeled(Enum, type_key="en.Labeled"):
    label: str
    weight: int
    first = entry(label="one", weight=1)
    second = entry(label="two", weight=2)


class Variant(Enum, type_key="testing.TestEnumVariant"):
    Alpha: ClassVar[Variant]
    Beta: ClassVar[Variant]


@py_class("en.Holder")
class Holder(tvm_ffi.Object):
    color: Color
    op: Op
    kind: Kind


rp = tvm_ffi.get_global_func("ffi.ReprPrint")
deep_copy = tvm_ffi.get_global_func("ffi.DeepCopy")
json_round = serialization.from_json_graph_str

# 6.1 declaration and registration
observe("Kind entries", lambda: list(Kind))
observe("Kind state", lambda: tvm_ffi.core._lookup_type_attr(Kind.__tvm_ffi_type_info__.type_index, "__ffi_enum__"))
observe("Color state", lambda: tvm_ffi.core._lookup_type_attr(Color.__tvm_ffi_type_info__.type_index, "__ffi_enum__"))
observe("Op state", lambda: tvm_ffi.core._lookup_type_attr(Op.__tvm_ffi_type_info__.type_index, "__ffi_enum__"))
observe("alias is same member", lambda: Color.crimson.same_as(Color.red))
observe("Color len", lambda: len(Color))
observe("Labeled fields", lambda: (Labeled.first.label, Labeled.second.weight, Labeled.first._int_index))
labeled_info = Labeled.__tvm_ffi_type_info__
observe("Labeled layout", lambda: [(f.name, f.offset, f.size, f.frozen) for f in labeled_info.fields])
observe("Labeled frozen", lambda: setattr(Labeled.first, "label", "x"))
observe("Labeled parent", lambda: labeled_info.type_ancestors[-1] == Enum.__tvm_ffi_type_info__.type_index)
observe("abstract base keeps markers", lambda: repr(type("Abstract", (Enum,), {"x": entry(1)}).__dict__["x"]))
observe("entry repr", lambda: entry(1, "a", label="x"))

seen["E1 value not int"] = declare(lambda: type("E1", (IntEnum,), {"a": "x"}, type_key="en.E1"))
seen["E2 no value"] = declare(lambda: type("E2", (IntEnum,), {"a": entry()}, type_key="en.E2"))
seen["E4 value not str"] = declare(lambda: type("E4", (StrEnum,), {"a": 1}, type_key="en.E4"))
seen["E5 value field"] = declare(lambda: type("E5", (IntEnum,), {"__annotations__": {"value": int}}, type_key="en.E5"))
seen["E5s value field"] = declare(lambda: type("E5s", (StrEnum,), {"value": 3}, type_key="en.E5s"))
seen["E6 explicit index"] = declare(lambda: type("E6", (Enum,), {"a": entry(_int_index=3)}, type_key="en.E6"))
seen["E7 overflow"] = declare(lambda: type("E7", (IntEnum,), {"a": 2**64}, type_key="en.E7"))
seen["E8 IntEnum binder"] = declare(
    lambda: type("E8", (IntEnum,), {"__annotations__": {"a": "ClassVar[E8]"}}, type_key="en.E8"))
seen["E9 missing C++ entry"] = declare(
    lambda: type("V2", (Enum,), {"__annotations__": {"Missing": "ClassVar[V2]"}}, type_key="testing.TestEnumVariant"))
seen["E10 unknown field"] = declare(lambda: type("E10", (Enum,), {"a": entry(nope=1)}, type_key="en.E10"))

# 6.2 members
for label, member in [("Kind.gamma", Kind.gamma), ("Color.red", Color.red), ("Op.add", Op.add),
                      ("Variant.Alpha", Variant.Alpha), ("Labeled.first", Labeled.first)]:
    observe(f"repr {label}", lambda m=member: repr(m))
    observe(f"str {label}", lambda m=member: str(m))
    observe(f"ReprPrint {label}", lambda m=member: rp(m))
    observe(f"ReprPrint in Array {label}", lambda m=member: rp(tvm_ffi.Array([m])))
    observe(f"name/value {label}", lambda m=member: (getattr(m, "name", None), getattr(m, "value", None)))
    observe(f"ordering {label}", lambda m=member: m < m)
    observe(f"copy {label}", lambda m=member: copy.copy(m).same_as(m))
    observe(f"deepcopy {label}", lambda m=member: copy.deepcopy(m).same_as(m))
    observe(f"pickle {label}", lambda m=member: pickle.loads(pickle.dumps(m)).same_as(m))
    observe(f"ffi.DeepCopy {label}", lambda m=member: deep_copy(m).same_as(m))
    observe(f"json {label}", lambda m=member: serialization.to_json_graph_str(m))
    observe(f"json back {label}", lambda m=member: json_round(serialization.to_json_graph_str(m)).same_as(m))
    observe(f"is {label}", lambda m=member: type(m).get(m._str_index) is m)
    observe(f"same_as {label}", lambda m=member: type(m).get(m._str_index).same_as(m))
    observe(f"structural_equal {label}", lambda m=member: tvm_ffi.structural.structural_equal(m, m))
observe("Color.red == 1", lambda: (Color.red == 1, Color.red == 1.0, Color.red == "red", Color.red != 2))
observe("Op.add == '+'", lambda: (Op.add == "+", Op.add == "add", Op.add == Op.sub))
observe("hash Color.red", lambda: hash(Color.red) == hash(1))
observe("Kind identity eq", lambda: (Kind.alpha == Kind.alpha, Kind.alpha == Kind.beta, Kind.alpha == 0))
observe("Color(1)", lambda: Color(1))
observe("Color(True)", lambda: Color(True))
observe("Color('red')", lambda: Color("red"))
observe("Color(3)", lambda: Color(3))
observe("Op('+')", lambda: Op("+"))
observe("Op('add')", lambda: Op("add"))
observe("Kind(member)", lambda: Kind(Kind.beta).same_as(Kind.beta))
observe("Kind(1)", lambda: Kind(1))
observe("Color unregistered", lambda: Color(_int_index=9, _str_index="x"))
observe("Color.get(2)", lambda: Color.get(2))
observe("Color.get(9)", lambda: Color.get(9))
observe("Color.get(1.5)", lambda: Color.get(1.5))
observe("Kind.get(True)", lambda: Kind.get(True))
observe("Kind.get(2**70)", lambda: Kind.get(2**70))
observe("all_entries", lambda: list(Op.all_entries()))
observe("Variant entries", lambda: list(Variant))
observe("Variant get", lambda: (Variant.get(0).same_as(Variant.Alpha), Variant.get("Beta").same_as(Variant.Beta)))
observe("enum_variant_get", lambda: tvm_ffi.testing.enum_variant_get("Alpha").same_as(Variant.Alpha))
observe("enum_variant_get missing", lambda: tvm_ffi.testing.enum_variant_get("missing"))
observe("Variant attr_dict", lambda: Variant.attr_dict)
observe("Variant code", lambda: (Variant.attr_dict["code"][Variant.Alpha], Variant.def_attr("code")[Variant.Beta]))

# attribute maps
doc = Kind.def_attr("doc")
doc[Kind.alpha] = "first"
observe("attr get", lambda: (doc[Kind.alpha], Kind.alpha in doc, Kind.beta in doc, doc.get(Kind.beta, "-"), doc.name))
observe("attr missing", lambda: doc[Kind.beta])
observe("attr default", lambda: Kind.def_attr("doc", default="?")[Kind.beta])
observe("attr wrong type", lambda: doc[Color.red])
observe("attr wrong type set", lambda: doc.__setitem__(Color.red, 1))
observe("attr in other", lambda: Color.red in doc)
observe("attr_dict live", lambda: Kind.attr_dict)
observe("attr_dict empty", lambda: Op.attr_dict)

# 6.3 enum-typed fields
holder = Holder(color=1, op="+", kind=Kind.beta)
observe("holder init payload", lambda: holder)
observe("holder set int", lambda: (setattr(holder, "color", 2), holder.color)[1])
observe("holder set bool", lambda: (setattr(holder, "color", True), holder.color)[1])
observe("holder set 3", lambda: setattr(holder, "color", 3))
observe("holder set 'red'", lambda: setattr(holder, "color", "red"))
observe("holder set other enum", lambda: setattr(holder, "color", Op.add))
observe("holder kept", lambda: holder.color)
observe("holder set '-'", lambda: (setattr(holder, "op", "-"), holder.op)[1])
observe("holder set 'add'", lambda: setattr(holder, "op", "add"))
observe("holder kind int", lambda: setattr(holder, "kind", 1))
observe("holder init bad", lambda: Holder(color=7, op="+", kind=Kind.beta))
observe("holder json", lambda: json_round(serialization.to_json_graph_str(holder)))
cxx_int, cxx_str = tvm_ffi.testing._TestCxxIntEnum, tvm_ffi.testing._TestCxxStrEnum
cxx = tvm_ffi.testing._TestCxxEnumHolder(priority=20, opcode="*")
observe("cxx holder", lambda: cxx)
observe("cxx holder positional", lambda: tvm_ffi.testing._TestCxxEnumHolder(10, "+"))
observe("cxx holder set", lambda: (setattr(cxx, "priority", 10), cxx.priority)[1])
observe("cxx holder set bad", lambda: setattr(cxx, "priority", 99))
observe("cxx holder set bad str", lambda: setattr(cxx, "opcode", "/"))
observe("cxx holder init bad", lambda: tvm_ffi.testing._TestCxxEnumHolder(priority=99, opcode="*"))
observe("cxx holder kept", lambda: cxx)
observe("cxx json", lambda: serialization.to_json_graph_str(cxx))
observe("cxx json back", lambda: json_round(serialization.to_json_graph_str(cxx)).priority.same_as(cxx.priority))
observe("cxx members", lambda: (tvm_ffi.testing._TestCxxIntEnum.high.value, tvm_ffi.testing._TestCxxIntEnum.high.name,
                                tvm_ffi.testing._TestCxxStrEnum.mul.name, tvm_ffi.testing._TestCxxIntEnum(20),
                                tvm_ffi.testing._TestCxxStrEnum("*")))
observe("cxx reprs", lambda: rp(tvm_ffi.Array([cxx_int.low, cxx_str.mul])))

print(json.dumps(seen, indent=1, sort_keys=True))
