"""``gen_abi_cpp``: the C++ declaration of Python-defined types, so C++ code can use them.

One struct per type (``<Name>Obj`` in the namespace of the key's prefix) with the fields at the
offsets the runtime gave them, ``TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP`` (the type index is looked
up by key at run time) and ``static_assert``s that pin size, alignment and every offset.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence

from .. import _core
from .._reflection import TypeField, TypeInfo, _type_info_of_index
from .._type_schema import TypeSchema

_SCALARS = {"int": "int64_t", "float": "double", "bool": "bool", "ctypes.c_void_p": "void*",
            "dtype": "DLDataType", "Device": "DLDevice", "str": "::tvm::ffi::String",
            "bytes": "::tvm::ffi::Bytes", "Any": "::tvm::ffi::Any", "Optional": "::tvm::ffi::Any",
            "Union": "::tvm::ffi::Any", "None": "::tvm::ffi::Any", "Tensor": "::tvm::ffi::Tensor",
            "Callable": "::tvm::ffi::Function", "Object": "::tvm::ffi::ObjectRef",
            "tuple": "::tvm::ffi::Array<::tvm::ffi::Any>"}
_GENERIC = {"Array": "::tvm::ffi::Array", "List": "::tvm::ffi::List", "Map": "::tvm::ffi::Map",
            "Dict": "::tvm::ffi::Dict"}


def _cpp_type(schema: TypeSchema | None) -> str:
    if schema is None:
        return "::tvm::ffi::Any"
    if schema.origin in _SCALARS:
        return _SCALARS[schema.origin]
    if schema.origin in _GENERIC:
        args = ", ".join(_cpp_type(a) for a in schema.args or ())
        return f"{_GENERIC[schema.origin]}<{args}>"
    return "::tvm::ffi::ObjectRef"


def _split(type_key: str) -> tuple[str, str]:
    namespace, _, name = type_key.rpartition(".")
    return namespace.replace(".", "::"), f"{name}Obj"


_OBJECT_INDEX = 64
_DYNAMIC_BEGIN = 128  # indices below are the runtime's static types, declared by its headers


def _select(selectors: Sequence[str]) -> list[TypeInfo]:
    """The object types matching any selector (``fnmatch`` over every registered key), with
    their dynamic ancestors, parents first."""
    from ..registry import get_registered_type_keys

    registered = sorted(set(get_registered_type_keys()))
    chosen: dict[int, TypeInfo] = {}
    for selector in selectors:
        matched = [k for k in registered if fnmatch.fnmatchcase(k, selector)]
        if not matched:
            raise ValueError(f"Type-key selector {selector!r} did not match any registered type")
        indices = [_core._object_type_key_to_index(k) for k in matched]
        infos = [_type_info_of_index(index) for index in indices if index is not None]
        objects = [i for i in infos if i.type_index >= _OBJECT_INDEX]
        if not objects:
            raise ValueError(f"Type-key selector {selector!r} did not match any registered object type")
        for info in objects:
            lineage: TypeInfo | None = info
            while lineage is not None and lineage.type_index >= _DYNAMIC_BEGIN:
                chosen[lineage.type_index] = lineage
                lineage = lineage.parent_type_info
    return sorted(chosen.values(), key=lambda i: (len(i.type_ancestors), i.type_key))


def _struct(info: TypeInfo, generated: set[int]) -> list[str]:
    name = _split(info.type_key)[1]
    parent = info.parent_type_info
    if parent is None or parent.type_index == 64:
        base = "::tvm::ffi::Object"
    else:
        parent_ns, parent_name = _split(parent.type_key)
        base = f"::{parent_ns}::{parent_name}" if parent_ns else f"::{parent_name}"
        if parent.type_index not in generated:
            base += "  /* declared elsewhere */"
    fields: list[TypeField] = list(info.fields or ())
    lines = [f"struct alignas(8) {name} : public {base} {{",
             f'  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("{info.type_key}", {len(info.type_ancestors)});', ""]
    for f in fields:
        lines.append(f"  {_cpp_type(f.ty)} {f.name};  // offset={f.offset}, size={f.size}, align={f.alignment}")
    lines += ["};", "", f"static_assert(sizeof({name}) == {info.total_size});",
              f"static_assert(alignof({name}) == 8);"]
    for f in fields:
        lines += [f"static_assert(sizeof(decltype({name}::{f.name})) == {f.size});",
                  f"static_assert(alignof(decltype({name}::{f.name})) == {f.alignment});",
                  f"static_assert(offsetof({name}, {f.name}) == {f.offset});"]
    return lines


def _by_namespace(infos: list[TypeInfo]) -> list[tuple[str, list[TypeInfo]]]:
    """Runs of consecutive types sharing a namespace (one namespace block each)."""
    groups: list[tuple[str, list[TypeInfo]]] = []
    for info in infos:
        namespace = _split(info.type_key)[0]
        if groups and groups[-1][0] == namespace:
            groups[-1][1].append(info)
        else:
            groups.append((namespace, [info]))
    return groups


def gen_abi_cpp(type_keys: str | Sequence[str]) -> str:
    """Generate a C++ header that declares object types and checks their layout.

    The header declares one struct per selected type, with its reflected fields at their
    offsets, and ``static_assert``s that the C++ compiler agrees with the runtime's layout.

    Parameters
    ----------
    type_keys : str or Sequence[str]
        Type keys or ``fnmatch`` patterns (``"testing.TestIntPair"``, ``"mylib.*"``).

    Returns
    -------
    str
        The header text.

    Examples
    --------
    >>> from tvm_ffi.dataclasses import gen_abi_cpp
    >>> header = gen_abi_cpp("testing.TestIntPair")
    >>> header.splitlines()[0]
    '#pragma once'
    """
    infos = _select([type_keys] if isinstance(type_keys, str) else list(type_keys))
    out = ["#pragma once", "", "#include <tvm/ffi/tvm_ffi.h>", ""]
    for namespace, group in _by_namespace(infos):
        out += [f"namespace {namespace} {{", ""]
        for info in group:
            out += [f"struct {_split(info.type_key)[1]};", ""]
        out += [f"}}  // namespace {namespace}", ""]
    for info in infos:
        namespace, name = _split(info.type_key)
        out += ["template <>", f"inline constexpr bool tvm::ffi::is_object_subclass_v<::{namespace}::{name}> = true;"]
    out += ["", "static_assert(sizeof(::tvm::ffi::Object) == 24);", "static_assert(alignof(::tvm::ffi::Object) == 8);",
            "", "#if defined(__clang__) || defined(__GNUC__)", "#pragma GCC diagnostic push",
            '#pragma GCC diagnostic ignored "-Winvalid-offsetof"', "#elif defined(_MSC_VER)",
            "#pragma warning(push)", "#pragma warning(disable : 4749)", "#endif", ""]
    generated: set[int] = set()
    for namespace, group in _by_namespace(infos):
        out += [f"namespace {namespace} {{", ""]
        for info in group:
            out += [*_struct(info, generated), ""]
            generated.add(info.type_index)
        out += [f"}}  // namespace {namespace}", ""]
    out += ["#if defined(__clang__) || defined(__GNUC__)", "#pragma GCC diagnostic pop", "#elif defined(_MSC_VER)",
            "#pragma warning(pop)", "#endif", ""]
    return "\n".join(out)
