"""``TypeSchema``: the type of a reflected field, method or function, parsed from its JSON.

C/C++ libraries describe types in metadata as ``{"type": "<origin>", "args": [...]}`` (functions
as ``{"type": "ffi.Function", "named_args": {"return": [...], "params": [...]}}``). ``TypeSchema``
folds the runtime's names into short ones (``ffi.Array`` -> ``Array``, ``ffi.String`` -> ``str``)
and prints the Python-style annotation: ``Array[int]``, ``str | None``, ``Callable[[int], int]``.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Callable

__all__ = ["TypeSchema"]

# Runtime / C++ spellings -> the origin TypeSchema keeps.
_ORIGIN_ALIASES = {
    "ffi.Array": "Array", "ffi.List": "List", "ffi.Map": "Map", "ffi.Dict": "Dict",
    "ffi.Function": "Callable", "ffi.Object": "Object", "ffi.Tensor": "Tensor", "Variant": "Union",
    "ffi.String": "str", "ffi.SmallStr": "str", "const char*": "str", "std::string": "str",
    "ffi.Bytes": "bytes", "ffi.SmallBytes": "bytes", "TVMFFIByteArray*": "bytes",
    "DataType": "dtype", "DLTensor*": "Tensor", "void*": "ctypes.c_void_p",
    "ffi.OpaquePyObject": "Any", "ObjectRValueRef": "Object", "std::vector": "Array",
    "std::optional": "Optional", "std::variant": "Union", "std::tuple": "tuple", "Tuple": "tuple",
    "std::map": "Map", "std::unordered_map": "Map", "std::function": "Callable",
}

# Origin -> FFI type index; -1 Any, -2 Optional/Union, -3 unknown (and tuple).
_ORIGIN_INDEX = {
    "Any": -1, "Optional": -2, "Union": -2, "tuple": -3, "None": 0, "int": 1, "bool": 2,
    "float": 3, "ctypes.c_void_p": 4, "dtype": 5, "Device": 6, "Object": 64, "str": 65,
    "bytes": 66, "Callable": 68, "Shape": 69, "Tensor": 70, "Array": 71, "Map": 72, "Module": 73,
    "ffi.Shape": 69, "ffi.Module": 73,  # origins that keep their type key, as the reference's
    "List": 75, "Dict": 76,
}

# Index -> origin for the view-only and inline kinds, which read as the values they carry.
_VIEW_INDEX_ORIGINS = {-1: "Any", 7: "Tensor", 8: "str", 9: "bytes", 10: "Object", 11: "str", 12: "bytes"}

# The registered container classes (tvm_ffi.Array, ...) by the type key they are registered for.
_CONTAINER_TYPE_KEYS = {"ffi.Array": "Array", "ffi.List": "List", "ffi.Map": "Map", "ffi.Dict": "Dict"}


@dataclasses.dataclass(repr=False)
class TypeSchema:
    """A parsed type schema; ``repr``/``str`` give the Python-style annotation.

    Attributes
    ----------
    origin : str
        The type's name: ``int``, ``Array``, ``Optional``, a type key, ...
    args : tuple of TypeSchema
        Type arguments (``Array[int]`` has one); None only for a bare ``tuple`` (any length).
    origin_type_index : int
        The FFI type index of ``origin`` (computed when not given).
    fallback : Any
        Reserved for schemas the parser cannot represent.
    named_args : dict or None
        ``Callable`` parameters and return type, as ``{"params": (...), "return": (...)}``.
    type_key : str or None
        The original type key when ``origin`` is an alias of it.

    Examples
    --------
    >>> from tvm_ffi.core import TypeSchema
    >>> str(TypeSchema.from_json_str('{"type": "ffi.Array", "args": [{"type": "int"}]}'))
    'Array[int]'
    """

    origin: str
    args: tuple[TypeSchema, ...] | None = None
    origin_type_index: int = -3
    fallback: Any = None
    named_args: dict[str, Any] | None = None
    type_key: str | None = dataclasses.field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.origin, str) or not self.origin:
            raise ValueError("schema type must be a nonempty string")
        if self.args is not None:
            self.args = tuple(self.args)
        elif self.origin != "tuple":
            self.args = ()
        if self.named_args is not None:
            self.named_args = {name: tuple(group) for name, group in self.named_args.items()}
        n = len(self.args or ())
        if self.origin == "Union" and n < 2:
            raise ValueError("Union must have at least two arguments")
        if self.origin == "Optional" and n != 1:
            raise ValueError("Optional must have exactly one argument")
        if self.origin in ("Array", "List", "list"):
            if n > 1:
                raise ValueError(f"{self.origin} must have 0 or 1 argument")
            self.args = self.args or (TypeSchema("Any"),)  # bare: of Any
        if self.origin in ("Map", "Dict", "dict"):
            if n not in (0, 2):
                raise ValueError(f"{self.origin} must have 0 or 2 arguments")
            self.args = self.args or (TypeSchema("Any"), TypeSchema("Any"))
        if self.origin == "Callable" and self.args and self.named_args is None:
            ret, *params = self.args  # positional (ret, p...) form; no params: any parameters
            self.named_args = {"return": (ret,), "params": tuple(params)} if params else {"return": (ret,)}
            self.args = ()
        if self.origin_type_index == -3:
            self.origin_type_index = _origin_index(self.origin)

    # ---- parsing ----

    @staticmethod
    def from_json_str(s: str) -> TypeSchema:
        """Parse schema JSON text, as stored in ``type_schema`` metadata.

        Parameters
        ----------
        s : str
            The JSON text.

        Returns
        -------
        TypeSchema
            The parsed schema.

        Raises
        ------
        TypeError
            When the JSON is not a schema object.
        """
        return TypeSchema.from_json_obj(json.loads(s))

    @staticmethod
    def from_json_obj(obj: dict[str, Any]) -> TypeSchema:
        """Parse an already decoded schema object.

        Parameters
        ----------
        obj : dict
            A mapping with a string ``type`` and optional ``args``/``named_args``.

        Returns
        -------
        TypeSchema
            The parsed schema.

        Raises
        ------
        TypeError
            When ``obj`` has no string ``type``.
        """
        if not isinstance(obj, dict) or "type" not in obj:
            raise TypeError(f"expected schema dict with 'type' key, got {type(obj).__name__}")
        if not isinstance(obj["type"], str):
            raise TypeError("schema type must be a string")
        raw: str = obj["type"]
        origin: str = _ORIGIN_ALIASES.get(raw, raw)
        type_key: str | None = None
        if raw == "ffi.BigInt":
            origin, type_key = "int", raw
        # Entries that are not schemas (std::array's length) are skipped; a malformed list is none.
        raw_args = obj.get("args", ())
        raw_args = raw_args if isinstance(raw_args, (list, tuple)) else ()
        args = [TypeSchema.from_json_obj(a) for a in raw_args if isinstance(a, dict)] or None
        named = obj.get("named_args")
        if origin == "Callable" and named is not None:
            named = {k: [TypeSchema.from_json_obj(a) for a in v] for k, v in named.items()}
            args = None
        return TypeSchema(origin, tuple(args) if args else None, named_args=named, type_key=type_key)

    @staticmethod
    def from_annotation(annotation: Any) -> TypeSchema:
        """Make the schema of a Python annotation.

        Parameters
        ----------
        annotation : Any
            ``int``, ``list[int]``, ``Optional[str]``, ``Array[int]``, ``Callable[[int], str]``, a
            registered object class, ...

        Returns
        -------
        TypeSchema
            The equivalent schema.

        Examples
        --------
        >>> from typing import Optional
        >>> from tvm_ffi.core import TypeSchema
        >>> str(TypeSchema.from_annotation(Optional[int]))
        'int | None'
        """
        return _from_annotation(annotation)

    @staticmethod
    def from_type_index(type_index: int, args: tuple[TypeSchema, ...] = ()) -> TypeSchema:
        """Make the schema of an FFI type index (objects by their type key).

        Parameters
        ----------
        type_index : int
            The runtime type index.
        args : tuple of TypeSchema, optional
            Type arguments.

        Returns
        -------
        TypeSchema
            The schema.
        """
        if type_index in _VIEW_INDEX_ORIGINS:
            return TypeSchema(_VIEW_INDEX_ORIGINS[type_index], tuple(args))
        for origin, index in _ORIGIN_INDEX.items():
            if index == type_index and index >= 0:
                return TypeSchema(origin, tuple(args) or None)
        from . import _core

        return TypeSchema(_core._type_index_to_key(type_index), tuple(args) or None)

    def to_json(self) -> dict[str, Any]:
        """Render the schema as a JSON-ready object (short origins).

        Returns
        -------
        dict
            ``{"type": ..., "args": [...]}`` as stored in ``type_schema`` metadata.
        """
        out: dict[str, Any] = {"type": self.type_key or self.origin}
        if self.args or (self.args is not None and self.origin == "tuple"):
            out["args"] = [a.to_json() for a in self.args]
        if self.named_args is not None:
            out["named_args"] = {k: [a.to_json() for a in v] for k, v in self.named_args.items()}
        return out

    # ---- printing ----

    def repr(self, ty_map: Any = None) -> str:
        """Render the annotation text.

        Parameters
        ----------
        ty_map : Callable[[str], str], optional
            Renames origins (e.g. ``Array`` -> ``Sequence``).

        Returns
        -------
        str
            The annotation, e.g. ``"Map[str, int | None]"``.
        """
        origin = ty_map(self.origin) if ty_map is not None else self.origin
        args = self.args or ()
        if self.origin == "Optional":
            return f"{args[0].repr(ty_map)} | None"
        if self.origin == "Union":
            return " | ".join(a.repr(ty_map) for a in args)
        if self.origin == "Callable":
            named = self.named_args
            if named is None or "params" not in named:
                ret = named["return"][0].repr(ty_map) if named and named.get("return") else "Any"
                return f"{origin}[..., {ret}]"
            params = ", ".join(p.repr(ty_map) for p in named["params"])
            ret = named["return"][0].repr(ty_map) if named.get("return") else "Any"
            return f"{origin}[[{params}], {ret}]"
        if self.origin == "tuple" and self.args is not None:
            return f"tuple[{', '.join(a.repr(ty_map) for a in args) or '()'}]"
        if args:
            return f"{origin}[{', '.join(a.repr(ty_map) for a in args)}]"
        return origin

    output_repr = repr  # the annotation of produced values is what repr() renders

    def input_repr(self, ty_map: Any = None) -> str:
        """Render the annotation of the values this schema accepts.

        An object type that registers ``__ffi_convert_type_schema__`` (the values its converter
        takes) reads as that wider schema; everything else as in :meth:`repr`.

        Parameters
        ----------
        ty_map : Callable[[str], str], optional
            Renames origins.

        Returns
        -------
        str
            The annotation.
        """
        return self._widened(set()).repr(ty_map)

    def _widened(self, seen: set[int]) -> TypeSchema:
        index = self.origin_type_index
        if index >= _OBJECT_INDEX and index not in seen:
            from . import _core

            text = _core._lookup_type_attr(index, "__ffi_convert_type_schema__")
            if isinstance(text, str):
                return TypeSchema.from_json_str(text)._widened(seen | {index})
        if not self.args and not self.named_args:
            return self
        named = None if self.named_args is None else {
            k: tuple(a._widened(seen) for a in v) for k, v in self.named_args.items()}
        args = None if self.args is None else tuple(a._widened(seen) for a in self.args)
        return TypeSchema(self.origin, args, self.origin_type_index, self.fallback, named, self.type_key)

    def __repr__(self) -> str:
        return self.repr()

    __str__ = __repr__

    def is_subtype_of(self, target_cls: Any) -> bool:
        """Tell whether values of this schema are instances of ``target_cls`` (objects by ancestry).

        Parameters
        ----------
        target_cls : type, TypeSchema or str
            The candidate supertype: an FFI object class, a schema, or an origin name.

        Returns
        -------
        bool
            True when every value of this schema is also one of ``target_cls``.
        """
        if isinstance(target_cls, type):
            info = getattr(target_cls, "__tvm_ffi_type_info__", None)
            if info is None:
                try:
                    index = TypeSchema.from_annotation(target_cls).origin_type_index
                except TypeError:
                    return False
                return index == _OBJECT_INDEX and self.origin_type_index >= _OBJECT_INDEX
            target_cls = info.type_key
        target = target_cls.origin if isinstance(target_cls, TypeSchema) else target_cls
        if self.origin == target or target == "Any":
            return True
        if target != "Object" and not target.count("."):
            return False
        mine, theirs = self.origin_type_index, _origin_index(target)
        if mine < _OBJECT_INDEX or theirs < _OBJECT_INDEX:
            return False
        from . import _core

        return theirs == mine or theirs in _core._type_index_ancestors(mine)

    # ---- converting ----

    def convert(self, value: object) -> Any:
        """Convert ``value`` to this schema's type, as a field assignment would.

        Parameters
        ----------
        value : object
            The Python value to convert.

        Returns
        -------
        core.CAny
            The converted value, owned (``core._to_py_class_value`` gives the Python value back).

        Raises
        ------
        TypeError
            When ``value`` does not convert; the message names the expected type.
        """
        from . import _core

        return _core.CAny(self._convert_or_raise(value, "type conversion failed"))

    def check_value(self, value: object) -> None:
        """Check that ``value`` converts to this schema's type.

        Parameters
        ----------
        value : object
            The Python value to check.

        Raises
        ------
        TypeError
            When ``value`` does not convert; the message names the expected type.
        """
        self._convert_or_raise(value, "type check failed")

    def _convert_or_raise(self, value: object, what: str) -> Any:
        if _schema_converter is None:
            raise RuntimeError("TypeSchema conversion needs tvm_ffi.dataclasses, which is not loaded yet")
        return _schema_converter(self, value, what)


# ``(schema, value, what) -> converted value``, raising TypeError. Installed by
# dataclasses/_converter.py when it loads: converting builds containers, which sit above this module.
_schema_converter: Callable[[TypeSchema, object, str], Any] | None = None


def install_schema_converter(convert: Callable[[TypeSchema, object, str], Any]) -> None:
    """Set what ``TypeSchema.convert`` and ``check_value`` run (called once by the converter module).

    Parameters
    ----------
    convert : Callable[[TypeSchema, object, str], Any]
        Converts a value to a schema's type; raises TypeError whose message starts with the given text.
    """
    global _schema_converter
    _schema_converter = convert


_OBJECT_INDEX = 64
_SIMPLE = {int: "int", float: "float", bool: "bool", str: "str", bytes: "bytes", type(None): "None"}
_ARITY = {"List": (0, 1), "Array": (0, 1), "Dict": (0, 2), "Map": (0, 2)}


def _unsupported(annotation: Any) -> TypeError:
    return TypeError(f"Cannot convert {annotation!r} to TypeSchema")


def _container(origin: str, args: tuple[Any, ...], name: str) -> TypeSchema:
    """``name[args]`` as ``origin`` (bare: of Any)."""
    n, arity = len(args), _ARITY[origin][1]
    if n and n != arity:
        if name == "list":
            raise TypeError(f"list takes at most 1 type argument, got {n}")
        if name == "dict":
            raise TypeError(f"dict requires 0 or 2 type arguments, got {n}")
        raise TypeError(f"{name} requires {arity} type argument{'s' if arity > 1 else ''}, got {n}")
    return TypeSchema(origin, tuple(_from_annotation(a) for a in args))


def _from_annotation(annotation: Any) -> TypeSchema:  # noqa: PLR0911, PLR0912
    import collections.abc
    import ctypes
    import types
    import typing

    from . import _core

    if annotation is None or annotation in _SIMPLE:
        return TypeSchema(_SIMPLE[type(None) if annotation is None else annotation])
    if annotation is typing.Any:
        return TypeSchema("Any")
    if annotation is ctypes.c_void_p:
        return TypeSchema("ctypes.c_void_p")
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Union or origin is getattr(types, "UnionType", typing.Union):
        members = [a for a in args if a is not type(None)]
        inner = (_from_annotation(members[0]) if len(members) == 1
                 else TypeSchema("Union", tuple(_from_annotation(m) for m in members)))
        return TypeSchema("Optional", (inner,)) if len(members) < len(args) else inner
    if annotation is collections.abc.Callable or origin is collections.abc.Callable:
        if not args:
            return TypeSchema("Callable")
        params, ret = args
        named: dict[str, Any] = {"return": [_from_annotation(ret)]}
        if params is not Ellipsis:
            named["params"] = [_from_annotation(p) for p in params]
        return TypeSchema("Callable", named_args=named)
    if annotation is list or origin is list:
        return _container("List", args, "list")
    if annotation is dict or origin is dict:
        return _container("Dict", args, "dict")
    if annotation is tuple or origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return TypeSchema("Array", (_from_annotation(args[0]),))
        return TypeSchema("tuple", None if annotation is tuple else tuple(_from_annotation(a) for a in args))
    klass = origin if isinstance(origin, type) else annotation
    if isinstance(klass, type):
        info = getattr(klass, "__tvm_ffi_type_info__", None)
        # The container classes are known by the type they were registered for, so this
        # module needs no import of container.py (which sits above it).
        name = _CONTAINER_TYPE_KEYS.get(info.type_key) if info is not None and info.type_cls is klass else None
        if name is not None:
            return _container(name, args, name)
        if klass is _core.Function:
            return TypeSchema("Callable")
        if klass is _core.Error:
            return TypeSchema("ffi.Error")
        if klass.__name__ in ("Device", "dtype", "DataType") and klass.__module__.startswith("tvm_ffi"):
            return TypeSchema("Device" if klass.__name__ == "Device" else "dtype")
        if issubclass(klass, str):
            return TypeSchema("str")
        if issubclass(klass, bytes):
            return TypeSchema("bytes")
        if hasattr(klass, "__dlpack__") and not issubclass(klass, _core.CObject) or klass.__name__ == "Tensor":
            return TypeSchema("Tensor")
        if klass is _core.Object:
            return TypeSchema("Object")
        # A class bound to a key itself (a plain subclass only inherits the attribute); the
        # key may since have been re-bound to another class.
        info = klass.__dict__.get("__tvm_ffi_type_info__")
        if issubclass(klass, _core.CObject):
            if info is not None:
                return TypeSchema(info.type_key)
            raise TypeError(  # the reference's wording, which names its class registry
                f"CObject subclass {klass!r} is not registered in TYPE_CLS_TO_INFO; "
                "use @register_object to register it")
    raise _unsupported(annotation)


def _origin_index(origin: str) -> int:
    index = _ORIGIN_INDEX.get(origin)
    if index is not None:
        return index
    from . import _core

    found = _core._object_type_key_to_index(origin)
    return -3 if found is None else int(found)
