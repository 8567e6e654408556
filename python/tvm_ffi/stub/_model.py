"""What the stubs are made from: registered global functions and reflected object types."""

from __future__ import annotations

import dataclasses
import heapq
import json
from typing import Any

from .._type_schema import TypeSchema

# Types the tvm_ffi package binds itself: never given a class by ``--init``.
BUILTIN_TYPE_KEYS = frozenset({
    "ffi.BigInt", "ffi.Bytes", "ffi.Error", "ffi.Function", "ffi.Object", "ffi.OpaquePyObject",
    "ffi.SmallBytes", "ffi.SmallStr", "ffi.String", "ffi.Tensor",
})


@dataclasses.dataclass
class FuncInfo:
    """A function or method: its full name, its ``Callable`` schema, and whether it takes ``self``.

    Parameters
    ----------
    name : str
        The full name (``testing.add_one``, or the method's name).
    schema : TypeSchema
        Its ``Callable`` schema.
    is_member : bool
        Whether it takes the object as its first argument.
    """

    name: str
    schema: TypeSchema
    is_member: bool = False

    @property
    def short_name(self) -> str:
        """The name after the last dot."""
        return self.name.rsplit(".", 1)[-1]


@dataclasses.dataclass
class FieldInfo:
    """A reflected field: name, type, the ``__init__`` options and the native layout facts.

    Parameters
    ----------
    name : str
        The field's name.
    schema : TypeSchema
        Its type.
    kw_only : bool
        Whether ``__init__`` takes it by keyword only.
    has_default : bool
        Whether ``__init__`` may leave it out.
    size, alignment, offset : int, optional
        Its bytes in the object (None when the library did not say).
    """

    name: str
    schema: TypeSchema
    kw_only: bool = False
    has_default: bool = False
    size: int | None = None
    alignment: int | None = None
    offset: int | None = None


@dataclasses.dataclass
class ObjectInfo:
    """A reflected object type: own fields and methods, constructor, ancestry, native size.

    Parameters
    ----------
    type_key : str
        The type's key.
    fields : list of FieldInfo
        Its own fields.
    methods : list of FuncInfo
        Its own methods.
    parent_type_key : str, optional
        The parent's key (None for the root).
    ancestors : list of str
        Every ancestor's key, root first.
    has_init : bool
        Whether it has a constructor (``__ffi_init__``).
    init_fields : list of FieldInfo
        The constructor's fields, ancestors' first.
    total_size : int, optional
        Its registered size in bytes.
    is_final : bool, optional
        Its ``__ffi_type_final__`` (None when not registered).
    """

    type_key: str
    fields: list[FieldInfo]
    methods: list[FuncInfo]
    parent_type_key: str | None
    ancestors: list[str]
    has_init: bool = False
    init_fields: list[FieldInfo] = dataclasses.field(default_factory=list)
    total_size: int | None = None
    is_final: bool | None = None


def _schema(metadata: dict[str, Any]) -> TypeSchema:
    """The ``type_schema`` of ``metadata`` (``Any`` when the library recorded none)."""
    raw = metadata.get("type_schema")
    if isinstance(raw, str):
        return TypeSchema.from_json_obj(json.loads(raw))
    if isinstance(raw, dict):
        return TypeSchema.from_json_obj(raw)
    return TypeSchema("Any")


def collect_global_funcs() -> dict[str, list[FuncInfo]]:
    """Registered global functions with a readable type schema, by prefix, sorted by name.

    Returns
    -------
    dict
        Prefix (``"testing"`` for ``testing.add_one``) -> its functions.
    """
    from ..registry import get_global_func_metadata, list_global_func_names

    found: dict[str, list[FuncInfo]] = {}
    for name in list_global_func_names():
        prefix, dot, _ = name.rpartition(".")
        if not dot:
            continue
        metadata = get_global_func_metadata(name)
        try:
            schema = TypeSchema.from_json_obj(json.loads(metadata["type_schema"]))
        except (KeyError, TypeError, ValueError):
            continue  # no schema: nothing typed to declare
        found.setdefault(prefix, []).append(FuncInfo(name, schema))
    for funcs in found.values():
        funcs.sort(key=lambda f: f.name)
    return found


def collect_type_keys() -> dict[str, list[str]]:
    """Registered object type keys by prefix (``"testing"`` for ``testing.TestIntPair``), sorted.

    Returns
    -------
    dict
        Prefix -> its type keys.
    """
    from ..registry import get_registered_type_keys

    found: dict[str, list[str]] = {}
    for key in get_registered_type_keys():
        prefix, dot, _ = key.rpartition(".")
        if dot:
            found.setdefault(prefix, []).append(key)
    for keys in found.values():
        keys.sort()
    return found


def is_registered(type_key: str) -> bool:
    """Whether an object type of that key is registered in the runtime."""
    from .. import _core

    return _core._object_type_key_to_index(type_key) is not None


def _field(field: Any) -> FieldInfo:
    return FieldInfo(field.name, _schema(field.metadata), field.c_kw_only, field.c_has_default,
                     field.size, field.alignment, field.offset)


def object_info(type_key: str) -> ObjectInfo:
    """Read the reflection of ``type_key``.

    Parameters
    ----------
    type_key : str
        A registered type key.

    Returns
    -------
    ObjectInfo
        Its fields, methods, constructor and ancestry.

    Raises
    ------
    ValueError
        When no type of that key is registered.
    """
    from .. import _core

    info = _core._lookup_or_register_type_info_from_type_key(type_key)
    chain = []
    parent = info.parent_type_info
    while parent is not None:
        chain.append(parent)
        parent = parent.parent_type_info
    chain.reverse()
    has_init = any(m.name == "__ffi_init__" for m in info.methods) or \
        _core._lookup_type_attr(info.type_index, "__ffi_init__") is not None
    init_fields = [_field(f) for i in [*chain, info] for f in i.fields or () if f.c_init] if has_init else []
    own_size = (info.metadata or {}).get("total_size") if info.metadata is not None else None
    final = _core._lookup_type_attr(info.type_index, "__ffi_type_final__")
    return ObjectInfo(
        type_key=info.type_key,
        fields=[_field(f) for f in info.fields or ()],
        methods=[FuncInfo(m.name, _schema(m.metadata), not m.is_static) for m in info.methods],
        parent_type_key=chain[-1].type_key if chain else None,
        ancestors=[i.type_key for i in chain],
        has_init=has_init,
        init_fields=init_fields,
        total_size=int(own_size) if own_size is not None else None,
        is_final=None if final is None else bool(final),
    )


def toposort(type_keys: list[str]) -> list[ObjectInfo]:
    """The types of ``type_keys``, each parent before its children, otherwise by key.

    Parameters
    ----------
    type_keys : list of str
        Registered type keys (duplicates are dropped).

    Returns
    -------
    list of ObjectInfo
        Their reflection, in an order a Python file can define classes in.
    """
    infos = {key: object_info(key) for key in dict.fromkeys(type_keys)}
    children: dict[str, list[str]] = {}
    waiting: dict[str, int] = {}
    for key, info in infos.items():
        waiting.setdefault(key, 0)
        if info.parent_type_key in infos:
            children.setdefault(info.parent_type_key, []).append(key)
            waiting[key] += 1
    ready = [key for key, count in waiting.items() if count == 0]
    heapq.heapify(ready)
    ordered: list[ObjectInfo] = []
    while ready:
        key = heapq.heappop(ready)
        ordered.append(infos[key])
        for child in sorted(children.get(key, ())):
            waiting[child] -= 1
            if waiting[child] == 0:
                heapq.heappush(ready, child)
    return ordered
