"""``gen_abi_cpp``: C++ views of registered object types, so C++ code can read them in place.

For each selected type (and its dynamic ancestors) the header declares ``<Name>Obj`` in the
namespaces of the key's prefix, derived from its parent's view, with every reflected field at
the offset the runtime gave it and ``static_assert``s that pin size, alignment and offsets. The
type index is looked up by key at run time (``TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP``): the header
registers nothing. Object fields are typed (``Arc<DependencyObj>``, ``ObjectPtr<...>`` when
nullable); types they name but that are not selected get a lookup-only declaration. Key parts
that are not C identifiers are spelled ``__ffi_escape_<utf-8 hex>``. The text is the
reference's, byte for byte, for the same registry.

A field's C++ type (its "carrier") must have exactly the reflected size and alignment; a field
whose bytes could be read two ways (an ``Optional[int]`` of 16 bytes registered from C++) or
whose registered schema names a non-owning spelling (``DLTensor*``) is refused with ValueError.
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Sequence
from itertools import groupby
from typing import Any, NamedTuple

from .. import _core
from .._reflection import TypeField, TypeInfo, _type_info_of_index
from .._type_schema import TypeSchema

_OBJECT_INDEX = 64
_DYNAMIC_BEGIN = 128  # indices below are the runtime's static types, declared by its headers
_ESCAPE = "__ffi_escape_"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_NS = "::tvm::ffi::"


class Carrier(NamedTuple):
    """The C++ type a field is stored as, with its size and alignment."""

    cpp_type: str
    size: int
    alignment: int


_ANY = Carrier(_NS + "Any", 16, 8)
_ARC_OBJECT = Carrier(_NS + "Arc<::tvm::ffi::Object>", 8, 8)
_SCALAR_CARRIERS = {
    "int": Carrier("int64_t", 8, 8), "float": Carrier("double", 8, 8), "bool": Carrier("bool", 1, 1),
    "ctypes.c_void_p": Carrier("void*", 8, 8), "dtype": Carrier("DLDataType", 4, 2),
    "DataType": Carrier("DLDataType", 4, 2), "Device": Carrier("DLDevice", 8, 4), "Any": _ANY,
    "str": Carrier(_NS + "String", 16, 8), "bytes": Carrier(_NS + "Bytes", 16, 8),
    "Callable": Carrier(_NS + "Function", 8, 8), "Tensor": Carrier(_NS + "Tensor", 8, 8),
}
# Fields without a schema: by their static type index.
_STATIC_INDEX_CARRIERS = {-1: _ANY, 1: _SCALAR_CARRIERS["int"], 2: _SCALAR_CARRIERS["bool"],
                          3: _SCALAR_CARRIERS["float"], 4: _SCALAR_CARRIERS["ctypes.c_void_p"],
                          5: _SCALAR_CARRIERS["dtype"], 6: _SCALAR_CARRIERS["Device"]}
_CONTAINERS = {"Array": "Array", "List": "List", "Map": "Map", "Dict": "Dict", "tuple": "Tuple"}


class _Builtin(NamedTuple):
    """A static object type: its C++ object class and the owning reference C++ code holds."""

    object_cpp: str
    value: Carrier | None  # None: no public owning wrapper


_BUILTINS = {
    "ffi.Object": _Builtin(_NS + "Object", None),
    "ffi.String": _Builtin(_NS + "detail::StringObj", Carrier(_NS + "String", 16, 8)),
    "ffi.Bytes": _Builtin(_NS + "detail::BytesObj", Carrier(_NS + "Bytes", 16, 8)),
    "ffi.Error": _Builtin(_NS + "ErrorObj", Carrier(_NS + "Error", 16, 8)),
    "ffi.Function": _Builtin(_NS + "FunctionObj", Carrier(_NS + "Function", 8, 8)),
    "ffi.Shape": _Builtin(_NS + "ShapeObj", Carrier(_NS + "Shape", 8, 8)),
    "ffi.Tensor": _Builtin(_NS + "TensorObj", Carrier(_NS + "Tensor", 8, 8)),
    "ffi.Array": _Builtin(_NS + "ArrayObj", Carrier(_NS + "Array<::tvm::ffi::Any>", 8, 8)),
    "ffi.Map": _Builtin(_NS + "MapObj", Carrier(_NS + "Map<::tvm::ffi::Any, ::tvm::ffi::Any>", 8, 8)),
    "ffi.Module": _Builtin(_NS + "ModuleObj", Carrier(_NS + "Arc<::tvm::ffi::ModuleObj>", 8, 8)),
    "ffi.List": _Builtin(_NS + "ListObj", Carrier(_NS + "List<::tvm::ffi::Any>", 8, 8)),
    "ffi.Dict": _Builtin(_NS + "DictObj", Carrier(_NS + "Dict<::tvm::ffi::Any, ::tvm::ffi::Any>", 8, 8)),
    "ffi.VisitInterrupt": _Builtin(_NS + "VisitInterruptObj",
                                   Carrier(_NS + "Arc<::tvm::ffi::VisitInterruptObj>", 8, 8)),
}
# Registered schema spellings that own their value, by the origin they normalize to.
_OWNING_SPELLINGS = {
    "int": {"int"}, "float": {"float"}, "bool": {"bool"}, "ctypes.c_void_p": {"void*"},
    "dtype": {"DataType"}, "DataType": {"DataType"}, "Device": {"Device"}, "Any": {"Any"},
    "str": {"ffi.String", "ffi.SmallStr"}, "bytes": {"ffi.Bytes", "ffi.SmallBytes"},
    "Callable": {"ffi.Function"}, "Tensor": {"ffi.Tensor"},
}
_STRUCTURAL_SPELLINGS = {"Array": "ffi.Array", "List": "ffi.List", "Map": "ffi.Map", "Dict": "ffi.Dict",
                         "tuple": "Tuple", "Optional": "Optional", "Union": "Variant"}


def _identifier(text: str) -> str:
    """``text`` as a C++ identifier: itself when it is one, else its UTF-8 bytes in hex."""
    if _IDENTIFIER.fullmatch(text) and not text.startswith(_ESCAPE):
        return text
    return _ESCAPE + text.encode("utf-8").hex()


def _literal(text: str) -> str:
    """A C++ string literal of ``text``'s UTF-8 bytes (octal escapes outside printable ASCII)."""
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        out.append("\\" + char if char in '"\\' else char if 0x20 <= byte <= 0x7E else f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


class _Name(NamedTuple):
    namespaces: tuple[str, ...]
    struct: str

    @property
    def qualified(self) -> str:
        return "::" + "::".join((*self.namespaces, self.struct))


def _name(type_key: str) -> _Name:
    *prefix, last = type_key.split(".")
    return _Name(tuple(_identifier(p) for p in prefix), _identifier(last) + "Obj")


def _info_of(type_key: str) -> TypeInfo:
    """The type info of a registered key (no class is bound for it here)."""
    index = _core._object_type_key_to_index(type_key)
    if index is None:
        raise ValueError(f"Type key {type_key!r} is not registered")
    return _type_info_of_index(int(index))


def _builtins() -> dict[int, _Builtin]:
    by_index = {}
    for key, builtin in _BUILTINS.items():
        index = _core._object_type_key_to_index(key)
        if index is not None:
            by_index[int(index)] = builtin
    return by_index


def _select(selectors: Sequence[str], builtins: dict[int, _Builtin]) -> list[TypeInfo]:
    """The dynamic object types the selectors match (``fnmatch`` over every registered key) and
    their dynamic ancestors, shallowest first, then by key."""
    from ..registry import get_registered_type_keys

    registered = sorted({str(k) for k in get_registered_type_keys()})
    keys: set[str] = set()
    for selector in selectors:
        matched = [k for k in registered if fnmatch.fnmatchcase(k, selector)]
        if not matched:
            raise ValueError(f"Type-key selector {selector!r} did not match any registered type")
        objects = [k for k in matched if _info_of(k).type_index >= _OBJECT_INDEX]
        if not objects:
            raise ValueError(f"Type-key selector {selector!r} did not match any registered object type")
        keys.update(objects)
    chosen: dict[int, TypeInfo] = {}
    for key in sorted(keys):
        info = _info_of(key)
        if info.type_index < _DYNAMIC_BEGIN:
            if info.type_index not in builtins:
                raise ValueError(f"Static TVM-FFI type {info.type_key!r} is not supported")
            continue  # the runtime's own headers declare it
        for node in info._chain():
            if node.type_index >= _DYNAMIC_BEGIN:
                chosen[node.type_index] = node
    return sorted(chosen.values(), key=lambda i: (len(i.type_ancestors), i.type_key))


def _check_registered_spelling(schema: TypeSchema, raw: dict[str, Any]) -> None:
    """A C++-registered field's schema must name an owning representation: a spelling that only
    normalizes to the same origin (``DLTensor*`` for Tensor) has other bytes."""
    origin, spelled = schema.origin, raw["type"]
    owning = _OWNING_SPELLINGS.get(origin)
    if owning is not None:
        if spelled not in owning:
            raise ValueError(f"native schema origin {spelled!r} normalizes to {origin!r} but does not "
                             "have the canonical owning representation")
        return
    structural = _STRUCTURAL_SPELLINGS.get(origin)
    if structural is not None:
        if spelled != structural:
            raise ValueError(f"native schema origin {spelled!r} normalizes to {origin!r} but is not "
                             f"the canonical {structural!r} carrier")
        raw_args = raw.get("args", [])
        args = list(schema.args or ())
        if not isinstance(raw_args, list) or len(raw_args) != len(args):
            raise ValueError(f"raw schema {raw!r} does not match normalized schema {schema!r}")
        for arg, raw_arg in zip(args, raw_args):
            if not isinstance(raw_arg, dict) or not isinstance(raw_arg.get("type"), str):
                raise ValueError(f"invalid nested raw schema {raw_arg!r}")
            _check_registered_spelling(arg, raw_arg)
        return
    if schema.origin_type_index >= _OBJECT_INDEX:
        expected = str(_core._type_index_to_key(schema.origin_type_index))
        if spelled != expected:
            raise ValueError(f"native object schema origin {spelled!r} does not match {expected!r}")
        return
    raise ValueError(f"unsupported native raw schema {raw!r}")


class _Lowering:
    """Chooses carriers; remembers every dynamic type a carrier names (to be declared)."""

    def __init__(self, emitted: list[TypeInfo], builtins: dict[int, _Builtin]) -> None:
        self.builtins = builtins
        self.named: dict[int, TypeInfo] = {info.type_index: info for info in emitted}

    def _dynamic(self, schema: TypeSchema) -> str:
        if schema.origin_type_index < _DYNAMIC_BEGIN:
            raise ValueError(f"Schema {schema!r} is not a registered object type")
        info = _info_of(schema.origin)
        self.named[info.type_index] = info
        return _name(info.type_key).qualified

    def owning(self, schema: TypeSchema) -> Carrier:
        """A non-null reference to an object of ``schema``'s type."""
        if schema.origin_type_index == _OBJECT_INDEX or schema.origin == "Object":
            return _ARC_OBJECT
        builtin = self.builtins.get(schema.origin_type_index)
        if builtin is None:
            return Carrier(f"{_NS}Arc<{self._dynamic(schema)}>", 8, 8)
        if builtin.value is None:
            raise ValueError(f"Static TVM-FFI type {schema.origin!r} has no supported C++ value wrapper")
        return builtin.value

    def nullable(self, schema: TypeSchema) -> Carrier:
        """A possibly-null pointer to an object of ``schema``'s type."""
        if schema.origin_type_index == _OBJECT_INDEX or schema.origin == "Object":
            target = _NS + "Object"
        elif schema.origin_type_index in self.builtins:
            target = self.builtins[schema.origin_type_index].object_cpp
        else:
            target = self._dynamic(schema)
        return Carrier(f"{_NS}ObjectPtr<{target}>", 8, 8)

    def value(self, schema: TypeSchema, in_container: bool = False) -> Carrier:
        """The carrier of a value of ``schema`` (as a field, or as a container's element)."""
        origin, args = schema.origin, list(schema.args or ())
        if origin in _SCALAR_CARRIERS:
            return _SCALAR_CARRIERS[origin]
        if origin in ("Optional", "Union"):
            # Elements that can only be objects are one pointer; anything else is an Any.
            if in_container and origin == "Optional" and args[0].origin_type_index >= _OBJECT_INDEX:
                return self.nullable(args[0])
            if in_container and origin == "Union" and all(a.origin_type_index >= _OBJECT_INDEX for a in args):
                return _ARC_OBJECT
            return _ANY
        if origin in _CONTAINERS:
            inner = ", ".join(self.value(a, in_container=True).cpp_type for a in args)
            return Carrier(f"{_NS}{_CONTAINERS[origin]}<{inner}>", 8, 8)
        if schema.origin_type_index >= _OBJECT_INDEX:
            return self.owning(schema)
        raise ValueError(f"Unsupported TVM-FFI type schema {schema!r}")

    def field(self, field: TypeField, owner: TypeInfo) -> Carrier:
        """The carrier of one reflected field, checked against its reflected size and alignment."""
        schema: TypeSchema | None = field.ty
        from_python = hasattr(owner, "_decorator_args")  # a py_class: its layout is ours
        where = f"{owner.type_key}.{field.name}"
        layout = (field.size, field.alignment)
        if schema is not None and not from_python:
            raw = (field.metadata or {}).get("type_schema")
            if isinstance(raw, str):
                try:
                    raw = json.loads(raw)
                except json.JSONDecodeError as err:
                    raise ValueError(f"Invalid raw type schema for {where}: {raw!r}") from err
            if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
                raise ValueError(f"Missing raw type schema for native field {where}")
            _check_registered_spelling(schema, raw)
        if schema is None:
            carrier = _STATIC_INDEX_CARRIERS.get(field.field_static_type_index)
            if carrier is None and field.field_static_type_index >= _OBJECT_INDEX:
                carrier = Carrier(f"{_NS}ObjectPtr<::tvm::ffi::Object>", 8, 8)
            if carrier is None:
                raise ValueError(f"Cannot determine carrier for {where}: missing type schema and static "
                                 f"type index {field.field_static_type_index}")
        elif schema.origin in ("Optional", "Union") and from_python:
            carrier = _ANY  # py_class stores both as an Any
        elif schema.origin == "Optional":
            carrier = self._registered_optional((schema.args or ())[0], layout, where)
        elif schema.origin == "Union":
            if layout != (8, 8) or not all(a.origin_type_index >= _OBJECT_INDEX for a in schema.args or ()):
                raise ValueError(f"Ambiguous native Union carrier for {where} with layout {layout}")
            carrier = _ARC_OBJECT
        else:
            carrier = self.value(schema)
        builtin = None if schema is None else self.builtins.get(schema.origin_type_index)
        if builtin is not None and builtin.value is not None and builtin.value.cpp_type == _NS + "Error":
            carrier = Carrier(builtin.value.cpp_type, *layout)  # Error's size is a C++ library detail
        if (carrier.size, carrier.alignment) != layout and layout == (8, 8) and builtin is not None:
            carrier = Carrier(f"{_NS}Arc<{builtin.object_cpp}>", 8, 8)  # one pointer to the object
        if (carrier.size, carrier.alignment) != layout:
            raise ValueError(f"Carrier {carrier.cpp_type} for {where} has layout {(carrier.size, carrier.alignment)}, "
                             f"but reflection reports {layout} at offset {field.offset}")
        return carrier

    def _registered_optional(self, inner: TypeSchema, layout: tuple[int, int], where: str) -> Carrier:
        """A C++-registered Optional: which wrapper it is, told by its size."""
        if inner.origin in ("str", "bytes") and layout == (16, 8):
            return self.value(inner)  # Optional<String> keeps String's 16 bytes
        if inner.origin_type_index >= _OBJECT_INDEX and layout == (16, 8):
            return Carrier(f"{_NS}Optional<{self.owning(inner).cpp_type}>", 16, 8)
        if inner.origin_type_index >= _OBJECT_INDEX and layout == (8, 8):
            return self.nullable(inner)
        raise ValueError(f"Ambiguous native Optional carrier for {where} with layout {layout}")


class _Generator(_Lowering):
    """The carrier chooser under the reference's private name, as tools and tests reach for it:
    ``_Generator([])._lower_field(field, owner)``."""

    def __init__(self, emitted: list[TypeInfo]) -> None:
        super().__init__(emitted, _builtins())

    def _lower_field(self, field: TypeField, owner: TypeInfo) -> Carrier:
        return self.field(field, owner)


def _namespace_blocks(blocks: list[tuple[tuple[str, ...], list[str]]]) -> list[str]:
    """Runs of blocks in the same namespaces, each run wrapped in one set of namespace lines."""
    lines: list[str] = []
    for namespaces, run in groupby(blocks, key=lambda block: block[0]):
        if lines:
            lines.append("")
        lines += [f"namespace {ns} {{" for ns in namespaces] + ([""] if namespaces else [])
        for i, (_, body) in enumerate(run):
            lines += ([""] if i else []) + body
        lines += ([""] if namespaces else []) + [f"}}  // namespace {ns}" for ns in reversed(namespaces)]
    return [*lines, ""] if lines else lines


def _struct(info: TypeInfo, lowering: _Lowering) -> tuple[tuple[str, ...], list[str]]:
    if not hasattr(info, "_decorator_args") and not info.metadata:
        raise ValueError(f"Native type {info.type_key!r} does not expose fixed total-size metadata")
    parent = info.parent_type_info
    if parent is None:
        raise ValueError(f"Object type {info.type_key!r} does not expose its parent type")
    if parent.type_index >= _DYNAMIC_BEGIN:
        base = _name(parent.type_key).qualified
    elif parent.type_index in lowering.builtins:
        base = lowering.builtins[parent.type_index].object_cpp
    else:
        raise ValueError(f"Parent type {parent.type_key!r} of {info.type_key!r} is not supported")
    fields = sorted(info.fields or (), key=lambda f: f.offset)
    carriers = [lowering.field(f, info) for f in fields]
    align = max([8] + [f.alignment for node in info._chain() for f in node.fields or ()])
    name = _name(info.type_key)
    body = [f"struct alignas({align}) {name.struct} : public {base} {{",
            f"  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP({_literal(info.type_key)}, {len(info.type_ancestors)});"]
    body += [""] if fields else []
    for f, c in zip(fields, carriers):
        member = _identifier(f.name)
        renamed = f", reflected name={f.name!r}" if member != f.name else ""
        body.append(f"  {c.cpp_type} {member};  // offset={f.offset}, size={c.size}, align={c.alignment}{renamed}")
    body += ["};", "", f"static_assert(sizeof({name.struct}) == {int(info.total_size)});",
             f"static_assert(alignof({name.struct}) == {align});"]
    for f, c in zip(fields, carriers):
        member = _identifier(f.name)
        body += [f"static_assert(sizeof(decltype({name.struct}::{member})) == {c.size});",
                 f"static_assert(alignof(decltype({name.struct}::{member})) == {c.alignment});",
                 f"static_assert(offsetof({name.struct}, {member}) == {f.offset});"]
    return name.namespaces, body


_OFFSETOF_WARNINGS_OFF = ["#if defined(__clang__) || defined(__GNUC__)", "#pragma GCC diagnostic push",
                          '#pragma GCC diagnostic ignored "-Winvalid-offsetof"', "#elif defined(_MSC_VER)",
                          "#pragma warning(push)", "#pragma warning(disable : 4749)", "#endif", ""]
_OFFSETOF_WARNINGS_BACK = ["#if defined(__clang__) || defined(__GNUC__)", "#pragma GCC diagnostic pop",
                           "#elif defined(_MSC_VER)", "#pragma warning(pop)", "#endif", ""]


def gen_abi_cpp(type_keys: str | Sequence[str]) -> str:
    """Generate a C++ header that declares object types and checks their layout.

    The header declares one struct per selected type (and per dynamic ancestor), derived from
    its parent's, with its reflected fields at their offsets, and ``static_assert``s that the
    C++ compiler agrees with the runtime's layout. It only looks type indices up by key.

    Parameters
    ----------
    type_keys : str or Sequence[str]
        Type keys or ``fnmatch`` patterns (``"testing.TestIntPair"``, ``"mylib.*"``).

    Returns
    -------
    str
        The header text (C++17).

    Raises
    ------
    ValueError
        For a selector that matches no object type, a static type without a C++ view, or a
        field whose C++ type cannot be told from its reflection.

    Examples
    --------
    >>> from tvm_ffi.dataclasses import gen_abi_cpp
    >>> header = gen_abi_cpp("testing.TestIntPair")
    >>> header.splitlines()[0]
    '#pragma once'
    """
    builtins = _builtins()
    emitted = _select([type_keys] if isinstance(type_keys, str) else list(type_keys), builtins)
    lowering = _Lowering(emitted, builtins)
    structs = [_struct(info, lowering) for info in emitted]  # fills lowering.named
    named = sorted(lowering.named.values(), key=lambda i: (*_name(i.type_key), i.type_key))
    out = ["#pragma once", "", "#include <tvm/ffi/tvm_ffi.h>", ""]
    out += _namespace_blocks([(_name(i.type_key).namespaces, [f"struct {_name(i.type_key).struct};"])
                              for i in named])
    for info in named:
        out += ["template <>",
                f"inline constexpr bool tvm::ffi::is_object_subclass_v<{_name(info.type_key).qualified}> = true;"]
    out.append("")
    emitted_indices = {info.type_index for info in emitted}
    out += _namespace_blocks([
        (_name(i.type_key).namespaces,
         [f"struct {_name(i.type_key).struct} : public ::tvm::ffi::Object {{",
          f"  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP({_literal(i.type_key)}, {len(i.type_ancestors)});", "};"])
        for i in named if i.type_index not in emitted_indices])
    out += ["static_assert(sizeof(::tvm::ffi::Object) == 24);", "static_assert(alignof(::tvm::ffi::Object) == 8);",
            "", *_OFFSETOF_WARNINGS_OFF]
    out += _namespace_blocks(structs)
    out += _OFFSETOF_WARNINGS_BACK
    return "\n".join(out)
