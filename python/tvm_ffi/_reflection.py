"""Reflection of FFI object types: ``TypeInfo``, ``TypeField``, ``TypeMethod``.

The runtime's type table (``TVMFFIGetTypeInfo``) describes each type registered by C/C++ code:
its ancestors, fields (name, offset, getter/setter, flags, default, doc, metadata JSON) and
methods (FFI functions, static or not). ``_core._type_info_raw`` hands those over as plain
values; this module turns them into the reference package's dataclasses, available as
``tvm_ffi.core.TypeInfo`` and so on, and caches one ``TypeInfo`` per type index.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from . import _core
from ._field_accessors import FieldGetter, FieldSetter
from ._type_schema import TypeSchema

__all__ = ["TypeField", "TypeInfo", "TypeMethod", "_lookup_or_register_type_info_from_type_key",
           "_type_info_of_index"]

_MISSING = _core.MISSING

# TVMFFIFieldFlagBitMask
_WRITABLE = 1 << 0
_HAS_DEFAULT = 1 << 1
_STATIC_METHOD = 1 << 2
_SEQ_HASH_IGNORE = 1 << 3
_DEF_PATTERN = 1 << 4
_DEFAULT_FROM_FACTORY = 1 << 5
_REPR_OFF = 1 << 6
_COMPARE_OFF = 1 << 7
_HASH_OFF = 1 << 8
_INIT_OFF = 1 << 9
_KW_ONLY = 1 << 10
_SETTER_IS_FUNC = 1 << 11
_DEF_SIMPLE = 1 << 12


def _parse_metadata(text: str) -> dict[str, Any]:
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _schema_of(metadata: dict[str, Any]) -> TypeSchema | None:
    text = metadata.get("type_schema")
    if not isinstance(text, str):
        return None
    try:
        return TypeSchema.from_json_str(text)
    except (TypeError, ValueError):
        return None


@dataclasses.dataclass(eq=False)
class TypeField:
    """One reflected field of an object type (own fields only; ancestors have their own).

    Attributes
    ----------
    name, doc : str, str or None
        The field name and its documentation.
    size, alignment, offset : int
        Native layout: bytes, alignment and offset from the object header.
    field_static_type_index : int
        Type index of the field's C++ type (``kTVMFFIAny`` when dynamic).
    frozen : bool
        True when the field is read-only.
    metadata : dict
        The parsed metadata JSON (``type_schema``, ...).
    getter, setter : int
        Addresses of the C accessor functions (0 when absent).
    ty : TypeSchema or None
        The field's type, from its ``type_schema`` metadata.
    c_init, c_kw_only, c_has_default, c_default, c_default_factory : bool or Any
        How the runtime's ``__ffi_init__`` takes the field.
    c_repr, c_compare, c_hash, c_structural_eq : bool or str or None
        Whether repr, comparison and hashing include the field; its structural-equality kind.
    dataclass_field : Any
        The Python ``Field`` that declared it, for classes defined in Python.
    setter_is_func : bool
        True when ``setter`` is an FFI function rather than a C function pointer.

    Examples
    --------
    >>> from tvm_ffi.core import _lookup_or_register_type_info_from_type_key as type_info
    >>> [(f.name, f.offset, f.size) for f in type_info("testing.TestIntPair").fields]
    [('a', 24, 8), ('b', 32, 8)]
    """

    name: str
    doc: str | None
    size: int
    alignment: int
    offset: int
    field_static_type_index: int
    frozen: bool
    metadata: dict[str, Any]
    getter: FieldGetter
    setter: FieldSetter
    ty: TypeSchema | None = None
    c_init: bool = True
    c_kw_only: bool = False
    c_has_default: bool = False
    c_default: Any = _MISSING
    c_default_factory: Any = _MISSING
    c_repr: bool = True
    c_compare: bool = True
    c_hash: bool = True
    c_structural_eq: str | None = None
    dataclass_field: Any = None
    setter_is_func: bool = dataclasses.field(default=False, repr=False)

    def __post_init__(self) -> None:
        # The addresses stay ints, and are callable as in the reference: field.getter(obj).
        self.getter = FieldGetter(self.getter).bind(self)  # type: ignore[assignment]
        self.setter = FieldSetter(self.setter).bind(self)  # type: ignore[assignment]

    @staticmethod
    def _from_raw(raw: tuple[Any, ...]) -> TypeField:
        name, doc, metadata_text, flags, size, alignment, offset, getter, setter, dflt, static = raw
        metadata = _parse_metadata(metadata_text)
        has_default = bool(flags & _HAS_DEFAULT)
        from_factory = bool(flags & _DEFAULT_FROM_FACTORY)
        structural = None
        if flags & _SEQ_HASH_IGNORE:
            structural = "ignore"
        elif flags & _DEF_PATTERN:
            structural = "def-pattern"
        elif flags & _DEF_SIMPLE:
            structural = "def-simple"
        return TypeField(
            name=name, doc=doc, size=size, alignment=alignment, offset=offset,
            field_static_type_index=static, frozen=not (flags & _WRITABLE), metadata=metadata,
            getter=getter, setter=setter, ty=_schema_of(metadata), c_init=not (flags & _INIT_OFF),
            c_kw_only=bool(flags & _KW_ONLY), c_has_default=has_default,
            c_default=dflt if has_default and not from_factory else _MISSING,
            c_default_factory=dflt if has_default and from_factory else _MISSING,
            c_repr=not (flags & _REPR_OFF), c_compare=not (flags & _COMPARE_OFF),
            c_hash=not (flags & _HASH_OFF), c_structural_eq=structural,
            setter_is_func=bool(flags & _SETTER_IS_FUNC),
        )

    def as_property(self, cls: type) -> Any:
        """Make the data descriptor through which ``cls`` exposes this field.

        Parameters
        ----------
        cls : type
            The class that gets the descriptor.

        Returns
        -------
        FieldProperty
            A descriptor reading and writing the field at its offset.
        """
        return _core.FieldProperty(self.name, self.doc, self.offset, self.getter, self.setter,
                                   self.setter_is_func, self.frozen, self.field_static_type_index, self.size)


@dataclasses.dataclass(eq=False)
class TypeMethod:
    """One reflected method: an FFI function taking the object first unless ``is_static``.

    Attributes
    ----------
    name, doc : str, str or None
        The method name and its documentation.
    func : Function
        The FFI function implementing it.
    metadata : dict
        The parsed metadata JSON.
    is_static : bool
        True for static methods (no object argument).
    """

    name: str
    doc: str | None
    func: Any
    metadata: dict[str, Any]
    is_static: bool

    @staticmethod
    def _from_raw(raw: tuple[Any, ...]) -> TypeMethod:
        name, doc, metadata_text, flags, func = raw
        return TypeMethod(name, doc, func, _parse_metadata(metadata_text), bool(flags & _STATIC_METHOD))

    def as_callable(self, cls: type) -> Any:
        """Make what ``cls`` exposes for this method.

        Parameters
        ----------
        cls : type
            The class that gets the method.

        Returns
        -------
        staticmethod or InstanceMethod
            For static methods, a ``staticmethod`` of the ``Function`` itself, named after the
            class (as in the reference, ``Cls.method`` is that ``Function``); else a
            ``core.InstanceMethod`` bound on access.
        """
        if self.is_static:
            func = self.func
            func.__module__ = cls.__module__
            func.__name__ = self.name
            func.__qualname__ = f"{cls.__qualname__}.{self.name}"
            if self.doc:
                func.__doc__ = self.doc
            func._tvm_ffi_generated = True  # bound by reflection, not written by the user
            return staticmethod(func)
        return _core.InstanceMethod(self.func, self.name, self.doc, f"{cls.__qualname__}.{self.name}")


@dataclasses.dataclass(eq=False)
class TypeInfo:
    """What the runtime knows about one object type.

    Attributes
    ----------
    type_cls : type or None
        The Python class bound to the type, if any.
    type_index : int
        The runtime type index.
    type_key : str
        The registered name, e.g. ``"testing.TestIntPair"``.
    type_ancestors : list of int
        Type indices of the ancestors, root first.
    fields : list of TypeField or None
        The type's own reflected fields.
    methods : list of TypeMethod
        The type's own reflected methods.
    parent_type_info : TypeInfo or None
        The parent's info (None for the root ``ffi.Object``).
    type_depth : int
        Number of ancestors.
    metadata : dict or None
        The type metadata (``total_size``, ``doc``, ...), when registered.

    Examples
    --------
    >>> from tvm_ffi.core import _lookup_or_register_type_info_from_type_key as type_info
    >>> info = type_info("testing.TestIntPair")
    >>> info.type_key, info.parent_type_info.type_key
    ('testing.TestIntPair', 'ffi.Object')
    """

    type_cls: type | None
    type_index: int
    type_key: str
    type_ancestors: list[int]
    fields: list[TypeField] | None
    methods: list[TypeMethod]
    parent_type_info: TypeInfo | None
    type_depth: int = 0
    metadata: dict[str, Any] | None = None

    @property
    def total_size(self) -> int:
        """Bytes of an instance (header included): the metadata value, else from the fields."""
        size = (self.metadata or {}).get("total_size", 0)
        if size:
            return int(size)
        ends = [f.offset + f.size for info in self._chain() for f in info.fields or ()]
        return max(ends, default=24)

    def _chain(self) -> list[TypeInfo]:
        chain: list[TypeInfo] = []
        info: TypeInfo | None = self
        while info is not None:
            chain.append(info)
            info = info.parent_type_info
        return chain[::-1]

    def all_fields(self) -> list[TypeField]:
        """List every field of an instance: the ancestors' first, then this type's own.

        Returns
        -------
        list of TypeField
            The fields, in layout order of the chain.
        """
        # One walk up the parents, each one's fields put in front (chains are short), without
        # _chain's list or a nested comprehension (a function call of its own in 3.11):
        # dataclasses.fields() asks for this on every call, asdict once per object.
        found: list[TypeField] = []
        info: TypeInfo | None = self
        while info is not None:
            if info.fields:
                found[:0] = info.fields
            info = info.parent_type_info
        return found

    def find_method(self, name: str) -> TypeMethod | None:
        """Find a method of this type or of its nearest ancestor that has one.

        Parameters
        ----------
        name : str
            The method name, e.g. ``"__ffi_init__"``.

        Returns
        -------
        TypeMethod or None
            The method, or None when no type in the chain defines it.
        """
        for info in reversed(self._chain()):
            for method in info.methods:
                if method.name == name:
                    return method
        return None

    def _refresh(self) -> bool:
        """Re-reads fields and methods from the runtime; True when they changed."""
        # The runtime only ever adds fields and methods (and sets metadata once), so an unchanged
        # shape means nothing to re-read: every library load refreshes every bound class, and
        # re-reading and re-parsing their schemas made load_module of a loaded library ~1 ms.
        (shape,) = _core._type_info_shapes((self.type_index,))
        if self.fields is not None and self.__dict__.get("_refreshed_shape") == shape:
            return False
        _, depth, _, ancestors, fields, methods, meta = _core._type_info_raw(self.type_index)
        changed = len(fields) != len(self.fields or ()) or len(methods) != len(self.methods)
        self._refreshed_shape = shape
        self.type_depth, self.type_ancestors = depth, list(ancestors)
        previous = {f.name: f for f in self.fields or ()}
        self.fields = [TypeField._from_raw(f) for f in fields]
        for field in self.fields:  # what Python added (dataclass fields) outlives a re-read
            known = previous.get(field.name)
            if known is not None and known.dataclass_field is not None:
                field.frozen, field.ty, field.dataclass_field = known.frozen, known.ty, known.dataclass_field
        self.methods = [TypeMethod._from_raw(m) for m in methods]
        if meta is not None:
            doc, total_size, has_creator = meta
            self.metadata = {"doc": doc, "total_size": total_size, "has_creator": has_creator}
        return changed


_TYPE_INFOS: dict[int, TypeInfo] = {}


def _type_info_of_index(type_index: int) -> TypeInfo:
    """The cached ``TypeInfo`` of a registered type index (parents made on the way)."""
    info = _TYPE_INFOS.get(type_index)
    if info is not None:
        return info
    _, depth, key, ancestors, _, _, _ = _core._type_info_raw(type_index)
    parent = _type_info_of_index(ancestors[-1]) if ancestors else None
    info = TypeInfo(type_cls=None, type_index=type_index, type_key=key, type_ancestors=list(ancestors),
                    fields=None, methods=[], parent_type_info=parent, type_depth=depth)
    info._refresh()
    return _TYPE_INFOS.setdefault(type_index, info)


def _lookup_or_register_type_info_from_type_key(type_key: str) -> TypeInfo:
    """The ``TypeInfo`` of ``type_key``; ``ValueError`` when the runtime has no such type."""
    if not isinstance(type_key, str):
        raise TypeError(f"type key must be a str, got {type(type_key).__name__}")
    index = _core._object_type_key_to_index(type_key)
    if index is None:
        raise ValueError(f"Cannot find type `{type_key}`: no object type of that key is registered")
    return _type_info_of_index(int(index))


# The runtime's own types name the classes their values come to Python as (ffi.Tensor's and
# ffi.Shape's are set where those classes are registered).
_type_info_of_index(64).type_cls = _core.Object
for _index in (65, 66, 67, 68):  # static indices of ffi.String, ffi.Bytes, ffi.Error, ffi.Function
    _type_info_of_index(_index).type_cls = _core._class_for_type_index(_index)

# Reachable under the reference's names: tvm_ffi.core.TypeInfo, ... (core is _core).
for _name, _value in [("TypeInfo", TypeInfo), ("TypeField", TypeField), ("TypeMethod", TypeMethod),
                      ("TypeSchema", TypeSchema),
                      ("_lookup_or_register_type_info_from_type_key", _lookup_or_register_type_info_from_type_key)]:
    setattr(_core, _name, _value)
