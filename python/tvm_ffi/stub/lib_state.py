"""What the loaded libraries registered: global functions and reflected object types.

``collect_global_funcs()`` and ``collect_type_keys()`` group them by prefix (``testing`` for
``testing.add_one``); ``object_info_from_type_key(key)`` reads one type's reflection and
``toposort_objects(keys)`` orders types so that parents come before their children.
"""

from __future__ import annotations

import heapq

from .._core import _lookup_or_register_type_info_from_type_key
from ..registry import get_global_func, get_global_func_metadata, list_global_func_names
from .utils import FuncInfo, NamedTypeSchema, ObjectInfo, _parse_type_schema

__all__ = [
    "GetRegisteredTypeKeys",
    "collect_global_funcs",
    "collect_type_keys",
    "object_info_from_type_key",
    "toposort_objects",
]

# The runtime's list of registered type keys.
GetRegisteredTypeKeys = get_global_func("ffi.GetRegisteredTypeKeys")


def _func_info_from_global_name(name: str) -> FuncInfo:
    """The record of a registered global function, from its ``type_schema`` metadata.

    Raises ``KeyError``, ``TypeError`` or ``ValueError`` when the function has no readable schema.
    """
    schema = _parse_type_schema(get_global_func_metadata(name)["type_schema"])
    return FuncInfo(NamedTypeSchema(name, schema), is_member=False)


def collect_global_funcs() -> dict[str, list[FuncInfo]]:
    """Registered global functions with a readable type schema, by prefix, sorted by name.

    Returns
    -------
    dict of str to list of FuncInfo
        Prefix (``testing`` for ``testing.add_one``) -> its functions.
    """
    found: dict[str, list[FuncInfo]] = {}
    for name in list_global_func_names():
        prefix, dot, _ = name.rpartition(".")
        if not dot:
            continue
        try:
            func = _func_info_from_global_name(name)
        except (KeyError, TypeError, ValueError):
            continue  # no schema: nothing typed to declare
        found.setdefault(prefix, []).append(func)
    for funcs in found.values():
        funcs.sort(key=lambda f: f.schema.name)
    return found


def collect_type_keys() -> dict[str, list[str]]:
    """Registered object type keys by prefix (``testing`` for ``testing.TestIntPair``), sorted.

    Returns
    -------
    dict of str to list of str
        Prefix -> its type keys.
    """
    found: dict[str, list[str]] = {}
    for key in GetRegisteredTypeKeys():
        prefix, dot, _ = str(key).rpartition(".")
        if dot:
            found.setdefault(prefix, []).append(str(key))
    for keys in found.values():
        keys.sort()
    return found


def object_info_from_type_key(type_key: str) -> ObjectInfo:
    """Read the reflection of a registered type.

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
    return ObjectInfo.from_type_info(_lookup_or_register_type_info_from_type_key(type_key))


def toposort_objects(type_keys: list[str]) -> list[ObjectInfo]:
    """The types of ``type_keys``, each parent before its children, otherwise by key.

    Parameters
    ----------
    type_keys : list of str
        Registered type keys (duplicates are dropped).

    Returns
    -------
    list of ObjectInfo
        Their reflection, in an order a source file can define classes in.
    """
    infos = {key: object_info_from_type_key(key) for key in dict.fromkeys(type_keys)}
    children: dict[str, list[str]] = {}
    waiting = dict.fromkeys(infos, 0)
    for key, info in infos.items():
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
