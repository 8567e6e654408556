"""``@py_class``: a new runtime object type defined from a Python class with annotated fields.

The decorator registers the type key under the nearest registered base, lays the fields out in
the object (offsets, sizes, flags, defaults, the type schema as metadata) through the C API's
reflection registration, and registers the runtime's generated ``__ffi_new__``, ``__ffi_init__``
and ``__ffi_shallow_copy__``. Instances live in runtime memory: C/C++ code reads their fields by
reflection, and they cross the ABI and come back as the same Python class.
"""

from __future__ import annotations

import sys
import typing
from typing import Any, Callable

from .. import _core
from .._annotations import eval_annotation, resolve_nested
from .._class_binding import bind_reflection, forget_fallback, rebuild_fallbacks_under
from .._reflection import _TYPE_INFOS, TypeInfo, _type_info_of_index
from . import _c_registry
from ._c_registry import _PY_KEYS as _PY_KEYS  # re-exported: c_class.py and _enum.py read it here
from ._converter import as_ffi_converter
from ._dunder import install_dunders, make_init
from ._enum_fields import install_enum_field_normalizers
from ._hooks import collect_py_methods as _collect_py_methods  # (also the reference's private name)
from ._hooks import register_body_members
from ._schema import from_annotation, storage_of
from ._transform import dataclass_transform, note_field_converter
from .field import KW_ONLY, MISSING, Field, _identity, field, init_property

# TVMFFIFieldFlagBitMask
_WRITABLE, _HAS_DEFAULT, _SEQ_IGNORE, _DEF_PATTERN, _FROM_FACTORY = 1, 2, 8, 16, 32
_REPR_OFF, _COMPARE_OFF, _HASH_OFF, _INIT_OFF, _KW_ONLY, _SETTER_FUNC, _DEF_SIMPLE = (
    64, 128, 256, 512, 1024, 2048, 4096)
_FIELD_SEQ = {None: 0, "ignore": _SEQ_IGNORE, "def": _DEF_PATTERN, "def-pattern": _DEF_PATTERN,
              "def-simple": _DEF_SIMPLE}
_KINDS = {"tree": 1, "var": 2, "dag": 3, "const-tree": 4, "singleton": 5}


@dataclass_transform(eq_default=False, order_default=False, field_specifiers=(Field, field))
def py_class(cls_or_type_key: Any = None, /, *, type_key: str | None = None, frozen: bool = False,
             init: bool = True, repr: bool = True, eq: bool = False, order: bool = False,  # noqa: A002
             unsafe_hash: bool = False, match_args: bool = True, kw_only: bool = False,
             structural_eq: str | None = "tree", slots: bool = True) -> Any:
    """Define a new FFI object type from the decorated class, as ``dataclasses.dataclass`` does.

    Annotated class attributes become reflected fields; the runtime gets a type of that key, so
    the objects cross into C++ and come back as the class.

    Parameters
    ----------
    cls_or_type_key : type or str, optional
        The type key (``@py_class("pkg.Point")``), or the class when used bare (the key is then
        the class's qualified name).
    type_key : str, optional
        The type key, as a keyword.
    frozen : bool, optional
        Make every field read-only (default False).
    init : bool, optional
        Generate ``__init__`` (default True).
    repr : bool, optional
        Generate ``__repr__`` (default True).
    eq : bool, optional
        Generate ``__eq__`` over the compared fields (default False).
    order : bool, optional
        Generate ordering methods; needs ``eq`` (default False).
    unsafe_hash : bool, optional
        Generate ``__hash__`` even for mutable instances (default False).
    match_args : bool, optional
        Set ``__match_args__`` (default True).
    kw_only : bool, optional
        Make every field keyword-only in ``__init__`` (default False).
    structural_eq : str or None, optional
        The type's structural kind: ``"tree"`` (default), ``"var"``, ``"dag"``, ``"const-tree"``,
        ``"singleton"``, or None.
    slots : bool, optional
        Accepted for compatibility: instances never have a ``__dict__`` unless the class asks.

    Returns
    -------
    type or Callable[[type], type]
        The defined class, or a decorator that defines the class it decorates.

    Raises
    ------
    ValueError
        When ``order`` is set without ``eq`` or ``structural_eq`` is unknown.
    TypeError
        When ``cls_or_type_key`` is neither a str nor a class.

    Examples
    --------
    >>> from tvm_ffi.dataclasses import py_class
    >>> @py_class("doc.Point")
    ... class Point(tvm_ffi.Object):
    ...     x: int
    ...     y: int = 0
    >>> p = Point(1)
    >>> (p.x, p.y)
    (1, 0)
    """
    del slots  # instances never have a __dict__ unless the class asks for one
    if order and not eq:
        raise ValueError("order=True requires eq=True")
    if structural_eq is not None and structural_eq not in _KINDS:
        raise ValueError(f"structural_eq must be one of {sorted(_KINDS)} or None, got {structural_eq!r}")
    options = {"frozen": frozen, "init": init, "repr": repr, "eq": eq, "order": order,
               "unsafe_hash": unsafe_hash, "match_args": match_args, "kw_only": kw_only,
               "structural_eq": structural_eq}
    if isinstance(cls_or_type_key, type):
        return _define(cls_or_type_key, type_key, options)
    if cls_or_type_key is not None and not isinstance(cls_or_type_key, str):
        raise TypeError(f"py_class: expected str or type, got {type(cls_or_type_key)!r}")
    key = cls_or_type_key if cls_or_type_key is not None else type_key

    def decorator(cls: type) -> type:
        return _define(cls, key, options)

    return decorator


note_field_converter(py_class, _identity)

def _parent_info(cls: type) -> TypeInfo:
    for base in cls.__mro__[1:]:
        if base is _core.Object:
            return _type_info_of_index(64)
        info = base.__dict__.get("__tvm_ffi_type_info__")
        if isinstance(info, TypeInfo):
            return info
    raise TypeError(f"{cls.__name__} must inherit from a registered FFI Object type (e.g. tvm_ffi.Object)")


class _Unresolved(TypeError):
    """Annotations naming classes not defined yet: the class completes when they are."""

    def __init__(self, names: list[str]) -> None:
        super().__init__(names)
        self.names = names


def _resolve_annotations(cls: type) -> dict[str, Any]:
    own = cls.__dict__.get("__annotations__", {})
    module = sys.modules.get(cls.__module__)
    # A class being decorated is not yet bound to its name in its module: the classes defined
    # here fill names the module does not have.
    globalns = {**_DEFINED_BY_NAME, **(vars(module) if module is not None else {})}
    localns = {cls.__name__: cls, **dict(vars(cls))}
    hints, unresolved = {}, []
    for name, ann in own.items():
        try:
            while isinstance(ann, str):  # a quoted annotation under `from __future__ import annotations`
                ann = eval_annotation(ann, globalns, localns)
            ann = resolve_nested(ann, globalns, localns)
        except Exception as err:  # noqa: BLE001 -- a name defined later, or an annotation that fails: both reported
            unresolved.append(f"{name}: {own[name]} ({err})")
            continue
        hints[name] = ann
    if unresolved:
        raise _Unresolved(unresolved)
    return hints


def _declared_fields(cls: type, body: dict[str, Any], parent: TypeInfo | None) -> list[tuple[str, Any, dict[str, Any]]]:
    """(name, annotation, where its default is) of the fields ``cls`` declares: its own and those
    of plain (unregistered) classes it inherits beside its registered parent, bases first. A name
    declared again keeps its first position and takes the later declaration."""
    parent_cls = getattr(parent, "type_cls", None)
    inherited = {f.name for f in parent.all_fields()} if parent is not None else set()
    declared: dict[str, tuple[Any, dict[str, Any]]] = {}
    for klass in reversed(cls.__mro__):
        plain = (klass is not cls and isinstance(parent_cls, type) and klass not in parent_cls.__mro__
                 and "__tvm_ffi_type_info__" not in klass.__dict__)  # mixins too
        if klass is cls or plain:
            where = body if klass is cls else dict(vars(klass))
            for name, ann in _resolve_annotations(klass).items():
                if klass is cls or name not in inherited:
                    declared[name] = (ann, where)
    return [(name, ann, where) for name, (ann, where) in declared.items()]


def _is_classvar(ann: Any) -> bool:
    return ann is typing.ClassVar or typing.get_origin(ann) is typing.ClassVar


def _field_marker_types(cls: type) -> tuple[type, ...]:
    """``__ffi_field_markers__``: annotation types that mark a position instead of a field."""
    markers = getattr(cls, "__ffi_field_markers__", ())
    if not isinstance(markers, (tuple, list)) or not all(isinstance(m, type) for m in markers):
        raise TypeError("__ffi_field_markers__ must be a tuple or list of types")
    return tuple(markers)


def _collect_fields(cls: type, options: dict[str, Any], body: dict[str, Any], info: TypeInfo) -> list[Field]:
    fields: list[Field] = []
    kw_only_mode = bool(options["kw_only"])
    marker_types = _field_marker_types(cls)
    parent = info.parent_type_info
    # (marker type, owner class, name, index among all fields): the parent's first.
    markers = list(getattr(parent, "_decorator_args", {}).get("field_markers", ()))
    inherited_count = len(parent.all_fields()) if parent is not None else 0
    for name, ann, where in _declared_fields(cls, body, parent):
        if ann is KW_ONLY:
            kw_only_mode = True
            continue
        if _is_classvar(ann):
            if name in where:  # a class attribute, not a field: it stays on the class
                setattr(cls, name, where[name])
            continue
        if any(ann is marker for marker in marker_types):
            markers.append((ann, cls, name, inherited_count + len(fields)))
            if name in where:  # the extension interprets the declared value: it stays
                setattr(cls, name, where[name])
            continue
        value = where.get(name, MISSING)
        f = value.__copy__() if isinstance(value, Field) else field(default=value)
        f.name, f.type, f._ty_schema = name, ann, from_annotation(ann)
        if f.kw_only is None:
            f.kw_only = kw_only_mode
        if f.hash is None:
            f.hash = f.compare
        f.frozen = bool(f.frozen or options["frozen"])
        fields.append(f)
    overridden = {name for klass in cls.__mro__[1:] for name, _ in _init_properties(klass)}
    for name, prop in _init_properties(cls):
        if name in overridden:
            continue  # a new computation for an ancestor's init_property: its field stays
        ann = _resolve_return(cls, prop.func)
        f = field(init=False, repr=False, compare=False, hash=False, structural_eq="ignore", doc=prop.__doc__)
        f.name, f.type, f._ty_schema, f.kw_only = name, ann, from_annotation(ann), False
        f.frozen = bool(options["frozen"])
        fields.append(f)
    info._decorator_args["field_markers"] = tuple(markers)  # type: ignore[attr-defined]
    return fields


def _forget_fields(info: TypeInfo) -> None:
    """``fields`` reads None until the own fields are registered (as hooks see it)."""
    info.fields = None


def _run_field_hooks(cls: type, info: TypeInfo, fields: list[Field]) -> None:
    """Calls every ``__ffi_on_fields_resolved__``-marked callable of the MRO (bases first) with
    the type info and the own fields, before they reach the runtime; then rejects the
    ``field()`` options no hook consumed."""
    for base in reversed(cls.__mro__):
        for hook in list(base.__dict__.values()):
            if callable(hook) and getattr(hook, "__ffi_on_fields_resolved__", False) is True:
                hook(info, fields)
    for f in fields:
        if f.extra_kwargs:
            options = ", ".join(sorted(f.extra_kwargs))
            raise TypeError(f"{cls.__name__}.{f.name}: unrecognized field options: {options}")


def _init_properties(cls: type) -> tuple[tuple[str, init_property], ...]:
    props: tuple[tuple[str, init_property], ...] = cls.__dict__.get("__tvm_ffi_init_properties__", ())
    return props


def _resolve_return(cls: type, func: Any) -> Any:
    """The return annotation of an ``init_property`` function (``Any`` when absent)."""
    ann = getattr(func, "__annotations__", {}).get("return", Any)
    module = sys.modules.get(cls.__module__)
    globalns = {**_DEFINED_BY_NAME, **(vars(module) if module is not None else {})}
    localns = {cls.__name__: cls, **dict(vars(cls))}
    try:
        while isinstance(ann, str):
            ann = eval_annotation(ann, globalns, localns)
        ann = resolve_nested(ann, globalns, localns)
    except NameError as err:
        raise _Unresolved([f"{func.__name__}: {ann} ({err})"]) from None
    return ann


def _flags(f: Field) -> int:
    flags = _WRITABLE | _SETTER_FUNC | _FIELD_SEQ[f.structural_eq]
    if f.has_default:
        flags |= _HAS_DEFAULT
    if f.default_factory is not MISSING:
        flags |= _FROM_FACTORY
    flags |= 0 if f.init else _INIT_OFF
    flags |= 0 if f.repr else _REPR_OFF
    flags |= 0 if f.compare else _COMPARE_OFF
    flags |= 0 if f.hash else _HASH_OFF
    flags |= _KW_ONLY if f.kw_only else 0
    return flags


def _exact_index(schema: Any) -> int:
    """A type index whose values the setter stores without calling the converter (-2: strings)."""
    if schema.origin == "str":
        return -2
    return schema.origin_type_index if schema.origin_type_index >= 64 and "." in schema.origin else -1


def _register_layout(type_index: int, parent: TypeInfo, fields: list[Field], structural_eq: str | None) -> None:
    """Registers the own fields, the generated constructors of that layout and the structural
    kind (``structural_eq``, one of ``_KINDS`` or None)."""
    total_size = _register_fields(type_index, parent, fields)
    _core._get_global_func("ffi._PyClassRegisterTypeAttrColumns", False)(type_index, total_size)
    kind = _KINDS.get(structural_eq or "", 0)
    if kind:
        _c_registry.register_metadata(type_index, total_size, kind)


def _attach_declared_fields(info: TypeInfo, fields: list[Field]) -> None:
    """Reads the registered fields back into ``info``, each carrying the Field it was declared by."""
    info._refresh()
    for tf, f in zip(info.fields or (), fields):
        tf.frozen, tf.ty, tf.dataclass_field = f.frozen, f._ty_schema, f


def _register_fields(type_index: int, parent: TypeInfo, fields: list[Field]) -> int:
    """Lays out and registers own fields; returns the instance's total size."""
    make_getter = _core._get_global_func("ffi.MakeFieldGetter", False)
    make_setter = _core._get_global_func("ffi.MakeFieldSetter", False)
    cursor = max([24] + [f.offset + f.size for f in parent.all_fields()])
    for f in fields:
        assert f.name is not None  # _collect_fields named every field
        size, align, fsti = storage_of(f._ty_schema)
        offset = (cursor + align - 1) // align * align
        cursor = offset + size
        default = f.default_factory if f.default_factory is not MISSING else f.default
        if f.default_factory is not MISSING:  # any callable, classes such as `list` included
            default = _core._convert_to_ffi_func(f.default_factory)
        _c_registry.register_field(
            type_index, name=f.name, doc=f.doc, metadata={"type_schema": f._ty_schema.to_json()},
            flags=_flags(f), size=size, alignment=align, offset=offset, getter=int(make_getter(fsti)),
            setter=make_setter(fsti, as_ffi_converter(f._ty_schema), _exact_index(f._ty_schema)), default=default,
            has_default=f.has_default, static_type_index=fsti)
    return max(24, (cursor + 7) // 8 * 8)


class _Pending:
    """A class whose fields wait for annotations that do not resolve yet."""

    def __init__(self, cls: type, parent: TypeInfo, info: TypeInfo, options: dict[str, Any],
                 body: dict[str, Any]) -> None:
        self.cls, self.parent, self.info, self.options, self.body = cls, parent, info, options, body
        self.user_init: Any = None  # the class's own __init__, set aside while it waits


_PENDING: list[_Pending] = []
_DEFINED_BY_NAME: dict[str, type] = {}


def _define(cls: type, type_key: str | None, options: dict[str, Any]) -> type:
    parent = _parent_info(cls)
    key = type_key if type_key is not None else f"{cls.__module__}.{cls.__qualname__}"
    existing = _core._object_type_key_to_index(key)
    bound = None if existing is None else getattr(_TYPE_INFOS.get(int(existing)), "type_cls", None)
    if key in _PY_KEYS or bound is not None:
        raise ValueError(f"Type key {key!r} is already registered")
    _collect_py_methods(cls)  # a misdeclared method (under @classmethod) fails before registration
    # The index and class binding exist before annotations are read, so a field may name its
    # own class. Body values of annotated names are defaults: they leave the class.
    type_index = _c_registry.alloc_type_index(key, parent.type_index, parent.type_depth + 1)
    info = _type_info_of_index(type_index)
    annotations = cls.__dict__.get("__annotations__", {})
    body = {name: cls.__dict__[name] for name in annotations if name in cls.__dict__}
    for name in body:
        delattr(cls, name)
    props = tuple((n, v) for n, v in cls.__dict__.items() if isinstance(v, init_property))
    for name, _ in props:
        delattr(cls, name)
    cls.__tvm_ffi_init_properties__ = props  # type: ignore[attr-defined]
    cls.__tvm_ffi_type_info__, info.type_cls = info, cls  # type: ignore[attr-defined]
    info._decorator_args = dict(options)  # type: ignore[attr-defined]
    cls.__tvm_ffi_type_key__, cls.__tvm_ffi_type_index__ = key, type_index  # type: ignore[attr-defined]
    _core._register_object_class(type_index, cls)
    forget_fallback(type_index)
    _PY_KEYS.add(key)
    pending = _Pending(cls, parent, info, options, body)
    # Known by name while it waits, so classes defined after it may refer to it (mutual references).
    _DEFINED_BY_NAME[cls.__name__] = cls
    try:
        _complete(pending)
    except _Unresolved:
        info.fields = None
        _PENDING.append(pending)
        pending.user_init = cls.__dict__.get("__init__")
        cls.__init__ = _pending_init(cls)  # type: ignore[misc]
        return cls
    except BaseException:
        _PY_KEYS.discard(key)  # the runtime index stays; a retry gets it again
        info.type_cls = None
        if _DEFINED_BY_NAME.get(cls.__name__) is cls:
            del _DEFINED_BY_NAME[cls.__name__]
        raise
    _retry_pending()
    return cls


def _retry_pending() -> None:
    """Completes the waiting classes whose annotations resolve now."""
    progress = True
    while progress:
        progress = False
        for pending in list(_PENDING):
            try:
                _complete(pending)
            except _Unresolved:
                continue
            _PENDING.remove(pending)
            progress = True


def _pending_init(cls: type) -> Callable[..., None]:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        _retry_pending()
        waiting = next((p for p in _PENDING if p.cls is cls), None)
        if waiting is not None:
            try:
                _resolve_annotations(cls)
            except _Unresolved as err:
                raise TypeError(f"Cannot instantiate {cls.__name__}: unresolved forward references: "
                                f"{err.names}") from None
        cls.__init__(self, *args, **kwargs)  # type: ignore[misc]

    __init__._tvm_ffi_pending = True  # type: ignore[attr-defined]
    return __init__


def _complete(pending: _Pending) -> None:
    """Phase 2: fields laid out and registered, members and dunders installed."""
    cls, parent, info, options = pending.cls, pending.parent, pending.info, pending.options
    fields = _collect_fields(cls, options, pending.body, info)
    _forget_fields(info)
    _run_field_hooks(cls, info, fields)
    key, type_index = info.type_key, info.type_index
    inherited = {f.name: parent_info for parent_info in parent._chain() for f in parent_info.fields or ()}
    for f in fields:
        if f.name in inherited:
            print(f'[WARNING] Field "{f.name}" in type "{key}" duplicates an ancestor field in '
                  f'"{inherited[f.name].type_key}". Child types should not re-register inherited fields.',
                  file=sys.stderr)
            raise ValueError(f"duplicate parameter name: {f.name!r}")
    _register_layout(type_index, parent, fields, options["structural_eq"])
    register_body_members(cls, type_index)
    _attach_declared_fields(info, fields)
    own_init = cls.__dict__.get("__init__")
    if own_init is not None and getattr(own_init, "_tvm_ffi_pending", False):
        if pending.user_init is not None:
            cls.__init__ = pending.user_init  # type: ignore[misc]
        else:
            del cls.__init__  # type: ignore[misc]
    bind_reflection(cls, info, init=False)
    _shadow_plain_base_defaults(cls, info)
    make_init(cls, info, options["init"])
    install_dunders(cls, info, options)
    install_enum_field_normalizers(cls, info)
    rebuild_fallbacks_under(type_index)


def _shadow_plain_base_defaults(cls: type, info: TypeInfo) -> None:
    """A field declared in a plain (unregistered) base keeps its default or ``field(...)`` there
    as a class attribute; the field's accessor goes on ``cls`` so instances read their value."""
    bases = [klass for klass in cls.__mro__[1:] if "__tvm_ffi_type_info__" not in klass.__dict__]
    for tf in info.fields or ():
        if tf.name not in cls.__dict__ and any(tf.name in klass.__dict__ for klass in bases):
            setattr(cls, tf.name, tf.as_property(cls))


def method(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a method of a ``py_class`` for registration as a reflected FFI method.

    Parameters
    ----------
    fn : Callable
        An instance method or a ``staticmethod``.

    Returns
    -------
    Callable
        ``fn`` itself, marked.

    Raises
    ------
    TypeError
        For a ``classmethod`` or a non-callable.

    Examples
    --------
    >>> from tvm_ffi.dataclasses import py_class
    >>> @py_class("doc.Counter")
    ... class Counter(tvm_ffi.Object):
    ...     n: int
    ...     @tvm_ffi.method
    ...     def twice(self) -> int:
    ...         return 2 * self.n
    >>> Counter(21).twice()
    42
    """
    if isinstance(fn, classmethod):
        raise TypeError("@tvm_ffi.method: @classmethod is not supported for FFI TypeMethod registration — "
                        "the classmethod's ``cls`` first arg does not match the packed-call convention. "
                        "Use @staticmethod or a plain instance method instead.")
    target = fn.__func__ if isinstance(fn, staticmethod) else fn
    if not callable(target):
        raise TypeError(f"@tvm_ffi.method: expected a callable, got {type(fn).__name__}.")
    # The marker attribute is the reference's name for it.
    target.__ffi_method__ = True  # type: ignore[attr-defined]
    return fn
