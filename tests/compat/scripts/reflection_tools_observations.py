"""Uses kernels/reflection_tools_lib.cc (built against either header set) through whichever
`tvm_ffi` this interpreter imports, printing one JSON object of observations.

Usage: python reflection_tools_observations.py <path of the built library>

tests/compat/test_reflection_tool_headers.py requires the build against our headers to be
observed exactly like the build against the reference headers, under either package.
"""

from __future__ import annotations

import json
import sys
from typing import Callable

import tvm_ffi

seen: dict[str, object] = {}


def observe(name: str, thunk: Callable[[], object]) -> None:
    """Records repr(thunk()), or the type and message of what it raises."""
    try:
        seen[name] = repr(thunk())
    except Exception as err:  # noqa: BLE001 - the exception is the observation
        seen[name] = ["raises", type(err).__name__, str(err)]


def main(lib_path: str) -> None:
    tvm_ffi.load_module(lib_path)

    @tvm_ffi.register_object("tools.Point")
    class Point(tvm_ffi.Object):
        """Fields with defaults."""

    @tvm_ffi.register_object("tools.Point3")
    class Point3(Point):
        """Inherits Point's fields."""

    @tvm_ffi.register_object("tools.Vec")
    class Vec(tvm_ffi.Object):
        """Overloaded constructors and methods."""

    def tool(name: str) -> tvm_ffi.Function:
        return tvm_ffi.get_global_func(f"tools.{name}")

    def fields(obj: object, names: list[str]) -> list[object]:
        return [getattr(obj, n) for n in names]

    p = Point(1, 2, "a")
    observe("get x", lambda: tool("get_field")(p, "tools.Point", "x"))
    observe("get label", lambda: tool("get_field")(p, "tools.Point", "label"))
    observe("get unknown", lambda: tool("get_field")(p, "tools.Point", "w"))
    observe("get unknown type", lambda: tool("get_field")(p, "tools.Nope", "x"))
    observe("set y", lambda: tool("set_field")(p, "tools.Point", "y", 9).y)
    observe("set y converts bool", lambda: tool("set_field")(p, "tools.Point", "y", True).y)
    observe("set y wrong type", lambda: tool("set_field")(p, "tools.Point", "y", "text"))
    observe("field doc", lambda: tool("field_doc")("tools.Point", "x"))
    observe("inherited field is not the child's own", lambda: tool("field_doc")("tools.Point3", "x"))
    observe("reset y", lambda: tool("reset_field")(Point(1, 2, "b"), "tools.Point", "y").y)
    observe("reset x (no default)", lambda: tool("set_raw")(Point(1, 2, "b"), "tools.Point", "x", 3))
    observe("set raw wrong type", lambda: tool("set_raw")(Point(1, 2, "b"), "tools.Point", "y", "no"))
    observe("set raw then default", lambda: tool("set_raw")(Point(1, 2, "b"), "tools.Point", "label", "c"))
    observe("field names", lambda: list(tool("field_names")("tools.Point3")))
    observe("first default", lambda: tool("first_field_with_default")("tools.Point3"))
    observe("first default none", lambda: tool("first_field_with_default")("tools.Vec"))
    observe("method doc", lambda: tool("method_doc")("tools.Point", "norm1"))
    observe("method unknown", lambda: tool("method_doc")("tools.Point", "norm2"))
    observe("call method", lambda: tool("call_method")("tools.Point", "norm1", Point(3, 4, "")))
    observe("create", lambda: fields(tool("create")("tools.Point3", {"x": 1, "z": 2.5}), ["x", "y", "label", "z"]))
    observe("create all", lambda: fields(tool("create")("tools.Point", {"x": 1, "y": 2, "label": "q"}),
                                         ["x", "y", "label"]))
    observe("create missing", lambda: tool("create")("tools.Point", {"y": 1}))
    observe("create unknown field", lambda: tool("create")("tools.Point", {"x": 1, "w": 2}))
    observe("create wrong type", lambda: tool("create")("tools.Point", {"x": "one"}))
    observe("create class", lambda: type(tool("create")("tools.Point3", {"x": 1})).__name__)
    observe("create no creator", lambda: tool("create")("tools.Vec", {"a": 1}))
    observe("create empty", lambda: fields(tool("create_empty")("tools.Point"), ["x", "y", "label"]))
    observe("type attrs point", lambda: list(tool("type_attrs")("tools.Point")))
    observe("type attrs vec", lambda: list(tool("type_attrs")("tools.Vec")))
    observe("attr keys", lambda: list(tool("attr_keys")()))
    observe("to point", lambda: tool("to_point")(Point3(1, 2, "", 0.5)).z)
    observe("to point none", lambda: tool("to_point")(None))
    observe("to point wrong", lambda: tool("to_point")(Vec(1)))
    observe("native hooks", lambda: list(tool("native_hooks")(5)))
    observe("native hook ok", lambda: tool("native_refuse")(4))
    observe("native hook raises", lambda: tool("native_refuse")(-1))

    observe("vec one arg", lambda: fields(Vec(3), ["a", "b"]))
    observe("vec two args", lambda: fields(Vec(3, 4), ["a", "b"]))
    observe("vec bad args", lambda: Vec("x"))
    observe("vec no args", lambda: Vec())
    observe("vec total", lambda: Vec(1, 2).total())
    observe("vec total scaled", lambda: Vec(1, 2).total(10))
    observe("vec total bad", lambda: Vec(1, 2).total("x"))
    observe("vec scaled (one signature)", lambda: Vec(1, 2).scaled(0.5))
    observe("vec scaled bad", lambda: Vec(1, 2).scaled("x"))
    observe("describe int", lambda: Vec.describe(3))
    observe("describe str", lambda: Vec.describe("s"))
    observe("describe pair", lambda: Vec.describe(3, 4))
    observe("describe float", lambda: Vec.describe(1.5))
    observe("describe three", lambda: Vec.describe(1, 2, 3))
    observe("pick int", lambda: Vec(3, 4).pick(1))
    observe("pick str", lambda: Vec(3, 4).pick("a"))
    observe("pick fallback", lambda: Vec(3, 4).pick(-1, 9))
    observe("pick bad", lambda: Vec(3, 4).pick(1.5))

    def attr(type_key: str, name: str) -> object:
        return tool("type_attr")(type_key, name)

    observe("attr kind", lambda: (attr("tools.Point", "tools.kind"), attr("tools.Vec", "tools.kind")))
    observe("attr function", lambda: attr("tools.Point", "tools.norm_attr")(Point(3, 4, "")))
    observe("attr function name check", lambda: attr("tools.Point", "tools.norm_attr")(Vec(1)))
    observe("attr first", lambda: attr("tools.Vec", "tools.first")(Vec(5, 6)))
    observe("attr rank", lambda: (attr("tools.Vec", "tools.rank"), attr("tools.Point", "tools.rank")))
    observe("attr convert schema", lambda: attr("tools.Vec", "__ffi_convert_type_schema__"))
    observe("attr never set", lambda: (attr("tools.Vec", "tools.never_set"),
                                       attr("tools.Vec", "tools.never_set_typed")))
    observe("attr missing column", lambda: attr("tools.Vec", "tools.no_such_column"))
    observe("attr final", lambda: [attr(k, "__ffi_type_final__") for k in ("tools.Point", "tools.Point3", "tools.Vec")])
    observe("convert point", lambda: type(attr("tools.Point", "__ffi_convert__")(Point3(1, 2, "", 0.0))).__name__)
    observe("convert point wrong", lambda: attr("tools.Point", "__ffi_convert__")(Vec(1)))
    observe("convert vec", lambda: type(attr("tools.Vec", "__ffi_convert__")(Vec(1))).__name__)
    observe("native any hash", lambda: tool("any_hash_hook")(Vec(7)))
    observe("native any hash missing", lambda: tool("any_hash_hook")(Point(1, 2, "")))
    info = tvm_ffi.core._lookup_or_register_type_info_from_type_key("tools.Vec")
    observe("vec methods", lambda: sorted(m.name for m in info.methods))
    print(json.dumps(seen, indent=1, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1])
