"""The Rust backend's one-line directives: what each payload says, kept per file.

A directive addresses one reflected field as ``<type_key>.<field>`` or one type as
``<type_key>``::

    // tvm-ffi-stubgen(field): tirx.Add.a -> PrimExpr
    // tvm-ffi-stubgen(nullable): ir.Expr.span
    // tvm-ffi-stubgen(enum): tirx.For.kind -> ForKind(i32) { Serial=0, Parallel=1 }
    // tvm-ffi-stubgen(opaque): ir.SourceName
    // tvm-ffi-stubgen(upcast): tirx.Add -> PrimExpr
    // tvm-ffi-stubgen(custom-new): tirx.Add

- ``field`` gives the field a Rust type (a name in scope, or a ``::`` path that is imported);
  naming a field of an ancestor narrows that parameter of the generated allocator.
- ``nullable`` reads the field as ``Option<T>``.
- ``enum`` declares an open integer newtype with named constants and types the field with it.
- ``opaque`` keeps a type opaque even when its byte layout is proven.
- ``upcast`` adds an ``impl_object_upcast!`` view besides the ancestors'.
- ``custom-new`` leaves the wrapper's ``new`` to hand-written code; the generated one is
  named ``from_fields``.
"""

from __future__ import annotations

import dataclasses
import re

from ..utils import DirectiveError

#: ``<target> -> Name(i32)`` with an optional ``{ A=0, B=1 }`` member list.
_ENUM = re.compile(
    r"(?P<target>\S+)\s*->\s*(?P<name>[A-Za-z_]\w*)\((?P<repr>[iu](?:8|16|32|64))\)"
    r"\s*(?:\{(?P<members>[^{}]*)\})?"
)
_ENUM_MEMBER = re.compile(r"(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>-?\d+)")

_FIELD_FORM = "<type_key>.<field>"
_TYPE_FORM = "<type_key>"
_ENUM_FORM = "<type_key>.<field> -> Name(i32) { A=0, B=1 }"


@dataclasses.dataclass(frozen=True)
class EnumSpec:
    """What an ``enum`` directive declares: a newtype over an integer, with named values.

    Attributes
    ----------
    name : str
        The newtype's name (``ForKind``).
    repr : str
        The integer it wraps (``i32``).
    members : tuple of (str, int)
        The named constants, in the order written.
    """

    name: str
    repr: str
    members: tuple[tuple[str, int], ...]


@dataclasses.dataclass
class Directives:
    """The Rust directives of one file.

    Attributes
    ----------
    field_types : dict of str to str
        ``<type_key>.<field>`` -> the Rust type a ``field`` directive gives it.
    nullable : set of str
        ``<type_key>.<field>`` read as ``Option<T>``.
    enums : dict of str to EnumSpec
        ``<type_key>.<field>`` -> the newtype an ``enum`` directive declares for it.
    opaque : set of str
        Type keys kept opaque.
    upcasts : dict of str to list of str
        Type key -> the extra upcast targets, in the order written.
    custom_new : set of str
        Type keys whose wrapper ``new`` is hand-written.
    """

    field_types: dict[str, str] = dataclasses.field(default_factory=dict)
    nullable: set[str] = dataclasses.field(default_factory=set)
    enums: dict[str, EnumSpec] = dataclasses.field(default_factory=dict)
    opaque: set[str] = dataclasses.field(default_factory=set)
    upcasts: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    custom_new: set[str] = dataclasses.field(default_factory=set)

    def add(self, name: str, payload: str, lineno: int) -> None:
        """Read one directive into this collection.

        Parameters
        ----------
        name : str
            The directive's name (``field``, ``enum``, ...).
        payload : str
            The text after the marker.
        lineno : int
            Its line in the file, for the error message.

        Raises
        ------
        DirectiveError
            For a name the Rust backend does not know, or a payload not of its form
            (the message names the line and the expected form).
        """
        if name == "field":
            target, rust_type = _arrow(name, payload, lineno, f"{_FIELD_FORM} -> <RustType>")
            self.field_types[_field_ref(name, target, lineno)] = rust_type
        elif name == "nullable":
            self.nullable.add(_field_ref(name, payload, lineno))
        elif name == "enum":
            target, spec = _enum(payload, lineno)
            self.enums[target] = spec
        elif name == "opaque":
            self.opaque.add(_type_ref(name, payload, lineno))
        elif name == "upcast":
            target, rust_type = _arrow(name, payload, lineno, f"{_TYPE_FORM} -> <RustType>")
            self.upcasts.setdefault(_type_ref(name, target, lineno), []).append(rust_type)
        elif name == "custom-new":
            self.custom_new.add(_type_ref(name, payload, lineno))
        else:
            raise DirectiveError(f"Unknown directive `{name}` at line {lineno}")


def _malformed(name: str, lineno: int, form: str) -> DirectiveError:
    return DirectiveError(f"Invalid `{name}` directive at line {lineno}. Expected `{form}`")


def _type_ref(name: str, text: str, lineno: int) -> str:
    """One type key: a single word."""
    target = text.strip()
    if not target or " " in target:
        raise _malformed(name, lineno, _TYPE_FORM)
    return target


def _field_ref(name: str, text: str, lineno: int) -> str:
    """A ``<type_key>.<field>``: a single word with a dot inside it."""
    target = text.strip()
    if not target or " " in target or "." not in target.strip("."):
        raise _malformed(name, lineno, _FIELD_FORM)
    return target


def _arrow(name: str, payload: str, lineno: int, form: str) -> tuple[str, str]:
    """``<target> -> <RustType>``: the raw target (checked by the caller) and the type."""
    target, arrow, rust_type = payload.partition("->")
    if not arrow or not rust_type.strip():
        raise _malformed(name, lineno, form)
    return target, rust_type.strip()


def _enum(payload: str, lineno: int) -> tuple[str, EnumSpec]:
    """``<type_key>.<field> -> Name(i32) { A=0, B=1 }``; the member list may be left out."""
    match = _ENUM.fullmatch(payload.strip())
    if match is None:
        raise _malformed("enum", lineno, _ENUM_FORM)
    members = []
    for item in (match["members"] or "").split(","):
        if item.strip():
            member = _ENUM_MEMBER.fullmatch(item.strip())
            if member is None:
                raise _malformed("enum", lineno, _ENUM_FORM)
            members.append((member["name"], int(member["value"])))
    target = _field_ref("enum", match["target"], lineno)
    return target, EnumSpec(match["name"], match["repr"], tuple(members))
