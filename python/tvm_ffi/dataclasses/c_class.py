"""``@c_class``: a type registered by C/C++ code bound as a dataclass (fields and ``__init__``
from its reflection)."""

from __future__ import annotations

from typing import Any, TypeVar

from .. import _core
from .._annotations import type_hints
from .._class_binding import _find_init, make_no_init
from .._reflection import _type_info_of_index
from ..registry import _warn_missing_field_annotations, register_object
from ._dunder import install_dunders
from ._enum_fields import install_enum_field_normalizers
from ._transform import dataclass_transform, note_field_converter
from .field import MISSING, Field, _identity, field
from .py_class import _PY_KEYS

_T = TypeVar("_T", bound=type)


def _resolved_hints(cls: type) -> dict[str, Any]:
    """The class's annotations evaluated (string annotations included); {} when they cannot be."""
    try:
        return type_hints(cls)
    except Exception:  # an undefined name, a bad forward reference: no types rather than an error
        return {}


def _attach_field_objects(cls: type, type_info: Any, *, frozen: bool = False) -> None:
    """Give every own reflected field of ``type_info`` a :class:`Field` (``fields()`` reads it).

    ``Field.type`` is the class's resolved annotation of the field, None when it has none. Fields
    of parent types belong to the parents' type infos. ``frozen`` marks every field read-only.
    """
    hints = _resolved_hints(cls)
    for tf in type_info.fields or ():
        if frozen:
            tf.frozen = True
        f = Field(tf.name, tf.ty, default=tf.c_default, default_factory=tf.c_default_factory,
                  frozen=tf.frozen, init=tf.c_init, repr=tf.c_repr, hash=tf.c_hash, compare=tf.c_compare,
                  kw_only=tf.c_kw_only, structural_eq=tf.c_structural_eq, doc=tf.doc)
        f.type = hints.get(tf.name)
        tf.dataclass_field = f


def _synthesise_fields(cls: type, type_key: str) -> None:
    info = cls.__tvm_ffi_type_info__  # type: ignore[attr-defined]
    _warn_missing_field_annotations(cls, info, stacklevel=3)
    # A py_class's own fields keep the Fields its class declared.
    kept = {tf.name: tf.dataclass_field for tf in info.fields or ()
            if type_key in _PY_KEYS and tf.dataclass_field is not None}
    _attach_field_objects(cls, info)
    for tf in info.fields or ():
        if tf.name in kept:
            tf.dataclass_field = kept[tf.name]


@dataclass_transform(eq_default=False, order_default=False, field_specifiers=(Field, field))
def c_class(type_key: str, *, frozen: bool = False, init: bool = True, repr: bool = True,  # noqa: A002
            eq: bool = False, order: bool = False, unsafe_hash: bool = False, match_args: bool = True) -> Any:
    """Bind a C/C++-registered object type to the decorated class as a dataclass.

    The class gets the type's reflected fields, its ``__init__`` from ``__ffi_init__`` and
    dataclass helpers (``fields``, ``replace``, ``asdict`` ...).

    Parameters
    ----------
    type_key : str
        The registered type key.
    frozen : bool, optional
        Accepted for compatibility: C++ fields keep their own writability.
    init : bool, optional
        Generate ``__init__`` from the type's constructor (default True).
    repr : bool, optional
        Accepted for compatibility: the runtime's repr is used.
    eq : bool, optional
        Generate ``__eq__`` over the compared fields (default False).
    order : bool, optional
        Generate ordering methods; needs ``eq`` (default False).
    unsafe_hash : bool, optional
        Generate ``__hash__`` (default False).
    match_args : bool, optional
        Set ``__match_args__`` (default True).

    Returns
    -------
    Callable[[type], type]
        The class decorator.

    Raises
    ------
    ValueError
        When ``order`` is set without ``eq``, or (when decorating) no type is registered under
        ``type_key``.

    Examples
    --------
    >>> from tvm_ffi.dataclasses import c_class
    >>> @c_class("testing.TestIntPair", eq=True)
    ... class Pair(tvm_ffi.Object):
    ...     a: int
    ...     b: int
    >>> Pair(1, 2) == Pair(1, 2)
    True
    """
    del frozen, repr  # accepted like the reference: C++ fields keep their own writability
    if order and not eq:
        raise ValueError("order=True requires eq=True")
    options = {"eq": eq, "order": order, "unsafe_hash": unsafe_hash, "match_args": match_args}

    def decorator(cls: _T) -> _T:
        if _core._object_type_key_to_index(type_key) is None:
            raise ValueError(f"Cannot find object type index for {type_key}")
        for name, value in list(cls.__dict__.items()):
            if isinstance(value, Field):
                delattr(cls, name)
        # `__init__ = Object.__init__` in a body asks for the reflected constructor back.
        own_init = cls.__dict__.get("__init__", _core.Object.__init__) is not _core.Object.__init__ or (
            "__signature__" in cls.__dict__)
        cls = register_object(type_key, init=init)(cls)
        info = _type_info_of_index(cls.__tvm_ffi_type_index__)  # type: ignore[attr-defined]
        _synthesise_fields(cls, type_key)
        install_dunders(cls, info, options)
        # The reflected constructor (bound with its signature) or the body's own __init__ stays.
        if not own_init and not (init and _find_init(info) is not None):
            cls.__init__ = make_no_init(cls)  # type: ignore[misc]
        # Last: the init wrapper maps positional arguments to fields by the __init__ signature.
        install_enum_field_normalizers(cls, info)
        return cls

    return decorator


note_field_converter(c_class, _identity)

__all__ = ["MISSING", "c_class"]
