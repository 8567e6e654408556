"""Fields typed with an IntEnum/StrEnum accept the member's payload: ``holder.priority = 20``.

Assignment and ``__init__`` map a payload (an int for IntEnum types, a str for StrEnum types)
to the registered member through the type's ``__ffi_enum__`` state before the reflected setter
runs; members pass unchanged. Anything else gets ``TypeError: type conversion failed for <key>:
expected <key>, got <kind>``, with the type's ``__ffi_convert__`` error appended when it has one.
Fields of plain ``Enum`` types take members only (the ordinary object check).
"""

from __future__ import annotations

import inspect
import numbers
from typing import Any, Callable

from .. import _core
from ._converter import _Mismatch as Mismatch
from ._converter import describe, register_object_converter

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1

Normalizer = Callable[[Any], Any]

# The dict on an enum class from canonical index (payload) to member, for the indices looked up
# so far: a member's index never changes once registered, and misses are not kept, so members
# registered later still show up. Shared by Level(20)/Level.get (_enum.py) and field writes.
MEMBER_CACHE = "_ffi_enum_members"


def member_cache(cls: type) -> dict[Any, Any]:
    """The index -> member cache of enum class ``cls`` (made on first use)."""
    cache: dict[Any, Any] | None = cls.__dict__.get(MEMBER_CACHE)
    if cache is None:
        cache = {}
        type.__setattr__(cls, MEMBER_CACHE, cache)
    return cache


def _payload_of(cls: Any) -> type | None:
    payload = getattr(cls, "_ffi_enum_payload", None) if isinstance(cls, type) else None
    return payload if payload in (int, str) else None


def _as_int_payload(value: Any) -> int | None:
    """The int an int-like value stands for (bool and Integral included), else None."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, numbers.Integral):
        number = int(value)
        if not _INT64_MIN <= number <= _INT64_MAX:
            raise TypeError(f"integer {number} out of int64 range [{_INT64_MIN}, {_INT64_MAX}]")
        return number
    return None


def _convert_detail(type_index: int, value: Any) -> str:
    """The type's ``__ffi_convert__`` error for ``value``, indented under a heading ("" if none)."""
    convert = _core._lookup_type_attr(type_index, "__ffi_convert__")
    if convert is None:
        return ""
    try:
        convert(value)
    except Exception as err:  # noqa: BLE001 -- its message is the detail
        text = "\n".join("    " + line for line in str(err).splitlines())
        return f"\n  __ffi_convert__ failed:\n{text}"
    return ""


def make_normalizer(cls: type, type_key: str, type_index: int,
                    fail: Callable[[str], Exception] | None = None) -> Normalizer | None:
    """Payload-to-member mapping for fields of enum class ``cls`` (None: not a payload enum).

    A value naming no member raises ``fail(detail)``; by default a TypeError
    ``type conversion failed for <type_key>: <detail>``.
    """
    payload = _payload_of(cls)
    if payload is None:
        return None

    states: list[Any] = []  # the type's EnumState once it exists (it never changes after)
    members = member_cache(cls)

    def normalize(value: Any) -> Any:
        if type(value) is payload:
            member = members.get(value)
            if member is not None:
                return member
        if isinstance(value, cls):
            return value
        key = _as_int_payload(value) if payload is int else (value if isinstance(value, str) else None)
        if key is not None:
            if not states:
                state = _core._lookup_type_attr(type_index, "__ffi_enum__")
                if state is not None:
                    states.append(state)
            if states:
                try:
                    member = states[0].indexes[key]
                except KeyError:
                    pass
                else:
                    members[key] = member
                    return member
        detail = f"expected {type_key}, got {describe(value)}{_convert_detail(type_index, value)}"
        raise fail(detail) if fail is not None else TypeError(f"type conversion failed for {type_key}: {detail}")

    return normalize


def _payload_converter(cls: Any, schema: Any) -> Normalizer | None:
    """TypeSchema conversion to a payload enum: its members, or a payload naming one."""
    normalize = make_normalizer(cls, schema.origin, schema.origin_type_index, Mismatch) if cls is not None else None
    if normalize is None:
        return None

    def convert(value: Any) -> Any:
        try:
            return normalize(value)
        except Mismatch:
            raise
        except TypeError as err:  # a payload out of int64 range
            raise Mismatch(str(err)) from None

    return convert


register_object_converter(_payload_converter)


def _field_normalizer(field: Any) -> Normalizer | None:
    schema = getattr(field, "ty", None)
    index = getattr(schema, "origin_type_index", -1)
    if schema is None or index < 64:
        return None
    cls = _core._class_for_type_index(index)
    return make_normalizer(cls, schema.origin, index)


def install_enum_field_normalizers(cls: type, info: Any) -> None:
    """Makes ``cls``'s enum-typed fields (own and inherited) normalise payloads on assignment
    and in ``__init__``. Reads stay on the reflected descriptors (C); writes pass through a
    ``__setattr__`` that maps payloads of those fields first."""
    normalizers: dict[str, Normalizer] = {}
    for klass in reversed(cls.__mro__[1:]):
        normalizers.update(klass.__dict__.get("__tvm_ffi_enum_normalizers__", {}))
    for field in info.fields or ():
        normalize = _field_normalizer(field)
        if normalize is not None:
            normalizers[field.name] = normalize
    if not normalizers:
        return
    cls.__tvm_ffi_enum_normalizers__ = normalizers  # type: ignore[attr-defined]
    if "__setattr__" not in cls.__dict__:
        cls.__setattr__ = _make_setattr(cls, normalizers)  # type: ignore[method-assign, assignment]
    if "__init__" in cls.__dict__:
        _wrap_init(cls, normalizers)


def _make_setattr(cls: type, normalizers: dict[str, Normalizer]) -> Callable[[Any, str, Any], None]:
    # The __setattr__ the class had before (the nearest base's), called unbound.
    base_setattr: Any = next(k.__dict__["__setattr__"] for k in cls.__mro__[1:] if "__setattr__" in k.__dict__)

    def __setattr__(self: Any, name: str, value: Any) -> None:
        normalize = normalizers.get(name)
        base_setattr(self, name, value if normalize is None else normalize(value))

    __setattr__.__qualname__ = f"{cls.__qualname__}.__setattr__"
    return __setattr__


def _wrap_init(cls: type, normalizers: dict[str, Normalizer]) -> None:
    original = cls.__dict__["__init__"]
    signature = _signature_or_none(original)
    # After `self`: the names positional arguments bind to.
    positional = [p.name for p in signature.parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][1:] if signature else []

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        fixed = list(args)
        for i, name in enumerate(positional[:len(fixed)]):
            if name in normalizers:
                fixed[i] = normalizers[name](fixed[i])
        for name, value in kwargs.items():
            if name in normalizers:
                kwargs[name] = normalizers[name](value)
        original(self, *fixed, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__wrapped__ = original  # type: ignore[attr-defined]
    __init__._tvm_ffi_generated = True  # type: ignore[attr-defined]
    if signature is not None:
        __init__.__signature__ = signature  # type: ignore[attr-defined]
    cls.__init__ = __init__  # type: ignore[misc]


def _signature_or_none(init: Callable[..., Any]) -> inspect.Signature | None:
    """The signature of an ``__init__`` (``self`` first), or None for one that has none."""
    try:
        return inspect.signature(init)
    except (TypeError, ValueError):
        return None


__all__ = ["install_enum_field_normalizers", "make_normalizer"]
