"""The Rust type of one reflected field: as a ``#[repr(C)]`` member, or read through a getter."""

from __future__ import annotations

from collections.abc import Iterable

from tvm_ffi.core import TypeSchema

from ..utils import DirectiveError, NamedTypeSchema
from . import consts as C
from ._names import Naming
from .directives import EnumSpec
from .utils import RustImports, render_rust_type, rust_ident


def allow_non_snake_case(idents: Iterable[str]) -> list[str]:
    """The ``#[allow(non_snake_case)]`` line when rustc would warn about one of ``idents``.

    Parameters
    ----------
    idents : iterable of str
        Rust identifiers (raw ones included).

    Returns
    -------
    list of str
        The attribute line, or nothing.
    """
    bare = [ident.removeprefix("r#") for ident in idents]
    return ["#[allow(non_snake_case)]"] if any(ident != ident.lower() for ident in bare) else []


def _check_width(target: str, field: NamedTypeSchema, rust_type: str, width: int) -> None:
    """A directive's scalar must be as wide as the reflected field."""
    if field.size is not None and field.size != width:
        raise DirectiveError(
            f"Directive on `{target}` maps a {field.size}-byte field to `{rust_type}` "
            f"({width} bytes)"
        )


def field_mirror(
    naming: Naming, owner: str, field: NamedTypeSchema, imports: RustImports
) -> str | None:
    """The type of ``field`` as a member of a ``#[repr(C)]`` mirror.

    Directives decide first; then an ``int`` / ``float`` takes the scalar of its reflected
    width, an ``Optional`` its C++ representation, anything else its schema's type.

    Parameters
    ----------
    naming : Naming
        The block's naming context (its directives, its type map).
    owner : str
        The type key that declares the field (the object or one of its ancestors).
    field : NamedTypeSchema
        The field.
    imports : RustImports
        Where to record what the type needs (a scratch collector while classifying).

    Returns
    -------
    str or None
        The Rust type, or None when the field has no mirror.

    Raises
    ------
    DirectiveError
        When a directive's scalar or ``nullable`` disagrees with the field's size.
    """
    directives = naming.imports.directives
    target = f"{owner}.{field.name}"
    enum = directives.enums.get(target)
    if enum is not None:
        _check_width(target, field, enum.repr, C.RUST_SCALAR_WIDTHS[enum.repr])
        return enum.name
    given = directives.field_types.get(target)
    mirror: str | None
    if given is not None:
        if given in C.RUST_SCALAR_WIDTHS:
            _check_width(target, field, given, C.RUST_SCALAR_WIDTHS[given])
        mirror = imports.record(given) if "::" in given else given
    elif field.origin == "Optional":
        mirror = _optional_mirror(naming, field, imports)
    else:
        scalar = None if field.size is None else C.RUST_SCALAR_BY_SIZE.get((field.origin, field.size))
        mirror = scalar or render_rust_type(field, naming.render_in(imports))
    if mirror is None:
        return None
    if target in directives.nullable and not mirror.startswith("Option<"):
        if field.size not in (None, C.RUST_POINTER_SIZE):
            raise DirectiveError(
                f"`nullable` directive on `{target}`: the field is {field.size} bytes, "
                "not a pointer-sized object reference"
            )
        mirror = f"Option<{mirror}>"
    return mirror


def _optional_mirror(naming: Naming, field: NamedTypeSchema, imports: RustImports) -> str | None:
    """An ``Optional<T>`` member: ``Option<T>`` over a pointer, else the crate's 16-byte cell.

    ``Optional<Any>`` has no mirror, and neither has a field whose size is not the one
    its representation takes.
    """
    payload = (field.args or (TypeSchema("Any"),))[0]
    if payload.origin == "Any":
        return None
    inner = render_rust_type(payload, naming.render_in(imports))
    if inner is None:
        return None
    in_cell = payload.origin in C.RUST_ANY_BACKED_OPTIONAL_PAYLOADS or payload.origin == "Optional"
    size = C.RUST_OPTIONAL_FIELD_SIZE if in_cell else C.RUST_OBJECT_OPTIONAL_FIELD_SIZE
    if field.size is not None and field.size != size:
        return None
    if in_cell:
        return f"{imports.record(C.RUST_OPTIONAL_PATH)}<{inner}>"
    return f"Option<{inner}>"


def accessor_lines(naming: Naming, field: NamedTypeSchema) -> list[str]:
    """A getter ``pub fn <field>(&self) -> Result<T>`` reading the field through the C ABI.

    Parameters
    ----------
    naming : Naming
        The block's naming context.
    field : NamedTypeSchema
        One of the object's own fields.

    Returns
    -------
    list of str
        The method's lines, unindented. ``T`` comes from the directives, else the schema;
        a field without a Rust type is read as ``Any``.
    """
    directives = naming.imports.directives
    target = f"{naming.type_key}.{field.name}"
    name = rust_ident(field.name)
    getter = f'FieldGetter::new(Self::type_index(), "{field.name}")?'
    head = allow_non_snake_case([name])
    enum = directives.enums.get(target)
    if enum is not None:
        # The getter reads an `i64`; the newtype checks that it fits its repr.
        return [
            *head,
            f"pub fn {name}(&self) -> Result<{enum.name}> {{",
            f"    let raw: i64 = {getter}.get(self)?;",
            f"    {enum.name}::try_from(raw)",
            "}",
        ]
    given = directives.field_types.get(target)
    rust_type: str | None
    if given is not None:
        rust_type = naming.own_type(given)
    elif field.origin == "Any":
        rust_type = None  # `get` does not convert to `Any`; `get_any` reads it as is
    else:
        rust_type = render_rust_type(field, naming.render_in(naming.imports))
    if rust_type is None:
        any_type = naming.imports.record("tvm_ffi::Any")
        return [*head, f"pub fn {name}(&self) -> Result<{any_type}> {{", f"    {getter}.get_any(self)", "}"]
    if target in directives.nullable and not rust_type.startswith("Option<"):
        rust_type = f"Option<{rust_type}>"
    return [*head, f"pub fn {name}(&self) -> Result<{rust_type}> {{", f"    {getter}.get(self)", "}"]


def enum_lines(naming: Naming, spec: EnumSpec) -> list[str]:
    """The open integer newtype an ``enum`` directive declares.

    Parameters
    ----------
    naming : Naming
        The block's naming context (to import the error types).
    spec : EnumSpec
        The directive.

    Returns
    -------
    list of str
        The newtype, its constants and accessors, and ``TryFrom<i64>``.
    """
    error = naming.imports.record("tvm_ffi::Error")
    value_error = naming.imports.record("tvm_ffi::VALUE_ERROR")
    result = naming.imports.record("tvm_ffi::Result")
    name, raw = spec.name, spec.repr
    message = f'&format!("{name} value {{value}} does not fit {raw}"), ""'
    return [
        "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]",
        "#[repr(transparent)]",
        f"pub struct {name}({raw});",
        "",
        "#[allow(non_upper_case_globals)]",
        f"impl {name} {{",
        *(f"    pub const {member}: Self = Self({value});" for member, value in spec.members),
        f"    pub const fn from_raw(value: {raw}) -> Self {{",
        "        Self(value)",
        "    }",
        f"    pub const fn as_raw(self) -> {raw} {{",
        "        self.0",
        "    }",
        "}",
        "",
        f"impl TryFrom<i64> for {name} {{",
        f"    type Error = {error};",
        f"    fn try_from(value: i64) -> {result}<Self> {{",
        f"        {raw}::try_from(value).map(Self).map_err(|_| {{",
        f"            {error}::new({value_error}, {message})",
        "        })",
        "    }",
        "}",
    ]
