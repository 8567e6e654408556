"""Python annotations for FFI type schemas, with the imports they need.

Parameters take the abstract collection protocols (a ``list`` converts to an ``Array``), while
results and fields are the concrete generic containers ``tvm_ffi`` hands back::

    def f(_0: Sequence[int], /) -> Array[int]: ...
"""

from __future__ import annotations

import json
import sys
from typing import Any

from .._type_schema import TypeSchema

# Origins that are Python builtins, and the unions TypeSchema spells with ``|`` itself.
_BUILTINS = frozenset({"None", "int", "bool", "float", "str", "bytes", "tuple", "Optional", "Union"})
# Origins spelled by a class of the tvm_ffi package.
_TVM_FFI_NAMES = frozenset({"dtype", "Device", "Tensor", "Object", "Shape", "Module"})
# Containers: the name a parameter takes (collections.abc) and the one a result has (tvm_ffi).
_CONTAINERS = {
    "Array": "Sequence",
    "List": "MutableSequence",
    "Map": "Mapping",
    "Dict": "MutableMapping",
}


class Annotator:
    """Turns schemas into annotation text and remembers ``(module, name)`` imports used.

    ``known`` maps object type keys to ``"module.Class"``; keys without an entry are written
    ``Object``, so the stub stays valid even when a type has no Python class.
    """

    def __init__(self, known: dict[str, str]) -> None:
        self.known = known
        self.imports: set[tuple[str, str]] = set()

    def schema(self, schema: TypeSchema | None, *, param: bool) -> str:
        """The annotation of ``schema`` (``Any`` when there is none)."""
        if schema is None:
            self.imports.add(("typing", "Any"))
            return "Any"
        return schema.repr(lambda origin: self._name(origin, param))

    def _name(self, origin: str, param: bool) -> str:
        if origin in _BUILTINS:
            return origin
        if origin == "Any":
            self.imports.add(("typing", "Any"))
            return "Any"
        if origin == "Callable":
            # ``Callable[..., Any]`` spells Any itself.
            self.imports.update({("collections.abc", "Callable"), ("typing", "Any")})
            return "Callable"
        if origin == "ctypes.c_void_p":
            self.imports.add(("ctypes", "c_void_p"))
            return "c_void_p"
        if origin in _CONTAINERS:
            if param:
                self.imports.add(("collections.abc", _CONTAINERS[origin]))
                return _CONTAINERS[origin]
            self.imports.add(("tvm_ffi", origin))
            return origin
        if origin in _TVM_FFI_NAMES:
            self.imports.add(("tvm_ffi", origin))
            return origin
        target = self.known.get(origin)
        if target is None:
            self.imports.add(("tvm_ffi", "Object"))
            return "Object"
        module, _, name = target.rpartition(".")
        self.imports.add((module, name))
        return name


def function_schema(metadata: dict[str, Any]) -> TypeSchema | None:
    """The ``Callable`` schema in a function's metadata, or None when absent or unreadable."""
    text = metadata.get("type_schema")
    if not isinstance(text, str):
        return None
    try:
        schema = TypeSchema.from_json_obj(json.loads(text))
    except (ValueError, TypeError):
        return None
    return schema if schema.origin == "Callable" else None


def class_path(cls: type) -> str | None:
    """``module.Class`` under which ``cls`` can be imported, or None (a made-up class)."""
    module = sys.modules.get(cls.__module__)
    if module is None or getattr(module, cls.__qualname__, None) is not cls:
        return None
    return f"{cls.__module__}.{cls.__qualname__}"
