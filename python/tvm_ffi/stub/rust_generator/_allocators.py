"""What a complete object gets besides its struct: allocators, ``ShallowCopy``, ``UnsafeInit``.

``<Leaf>Obj::new`` takes every field root to leaf, each as its own type, and builds the
parent's object with the parent's ``new``; the wrapper's ``new`` (``from_fields`` under
``custom-new``) takes a scalar as itself and anything else as ``impl Into``, the way
``#[rs_class]``'s ``new`` does. A type that is not final may be the parent of a type
written in Rust, which needs its parent's ``ShallowCopy`` and ``UnsafeInit``: they are
emitted when every ancestor below ``ffi.Object`` is generated too (a hand-written one
may lack them).
"""

from __future__ import annotations

from ..utils import ObjectInfo
from . import consts as C
from ._fields import allow_non_snake_case, field_mirror
from ._names import CRATE, GENERATED, Naming
from .utils import rust_ident


def call_lines(open_: str, items: list[str], close: str) -> list[str]:
    """``open_ item, item close`` on one line, or wrapped as rustfmt wraps it when too long.

    A ``let`` binding first moves its right-hand side to the next line; when that is
    not enough, or for anything else, each item takes a line of its own.

    Parameters
    ----------
    open_ : str
        The text up to the first item, with its indentation.
    items : list of str
        The comma-separated items.
    close : str
        The text after the last item.

    Returns
    -------
    list of str
        The lines.
    """
    line = f"{open_}{', '.join(items)}{close}"
    if len(line) <= C.RUST_MAX_WIDTH:
        return [line]
    indent = open_[: len(open_) - len(open_.lstrip())]
    binding, eq, rhs = open_.partition(" = ")
    moved = f"{indent}    {rhs}{', '.join(items)}{close}"
    if eq and len(moved) <= C.RUST_MAX_WIDTH:
        return [f"{binding} =", moved]
    return [open_.rstrip(), *(f"{indent}    {item}," for item in items), f"{indent}{close.lstrip()}"]


def _by_offset(info: ObjectInfo) -> list:  # type: ignore[type-arg]
    return sorted(info.fields, key=lambda f: f.offset or 0)


def allocator_params(naming: Naming, key: str, info: ObjectInfo) -> list[tuple[str, str]]:
    """``(field name, Rust type)`` of every field of ``key`` and its ancestors, root first.

    Parameters
    ----------
    naming : Naming
        The naming context of the block being generated.
    key : str
        The type whose ``<Leaf>Obj::new`` is meant (the block's object or an ancestor).
    info : ObjectInfo
        Its reflection.

    Returns
    -------
    list of tuple of (str, str)
        The parameters as that ``new`` takes them, narrowed by this file's directives.
    """
    parent = info.parent_type_key
    inherited: list[tuple[str, str]] = []
    if parent is not None and naming.provider(parent) != CRATE:
        inherited = allocator_params(naming, parent, naming.lookup(parent))
    return _extend(naming, key, info, inherited)


def _extend(
    naming: Naming, key: str, info: ObjectInfo, inherited: list[tuple[str, str]]
) -> list[tuple[str, str]]:
    """The parent's parameters (a ``field`` directive on ``key`` narrows one), then own fields."""
    directives = naming.imports.directives
    params = []
    for name, rust_type in inherited:
        given = directives.field_types.get(f"{key}.{name}")
        params.append((name, rust_type if given is None else naming.own_type(given)))
    for field in _by_offset(info):
        mirror = field_mirror(naming, key, field, naming.imports)
        assert mirror is not None, "a complete chain has a mirror for every field"
        params.append((field.name, mirror))
    return params


def _fn_lines(
    head: str,
    params: list[tuple[str, str]],
    let: tuple[str, list[str]],
    init: list[str],
    *,
    into_params: bool = False,
) -> list[str]:
    """``<head>(<params>) -> Self { let <binding>(<args>); Self { <init> } }``, indented once."""

    def param_type(rust_type: str) -> str:
        if into_params and rust_type not in C.RUST_EXACT_PARAMS:
            return f"impl Into<{rust_type}>"
        return rust_type

    binding, args = let
    plist = [f"{rust_ident(name)}: {param_type(rust_type)}" for name, rust_type in params]
    return [
        *(f"    {line}" for line in allow_non_snake_case(rust_ident(n) for n, _ in params)),
        *call_lines(f"    {head}(", plist, ") -> Self {"),
        *call_lines(f"        let {binding}(", args, ");"),
        *call_lines("        Self { ", init, " }"),
        "    }",
    ]


def allocator_sections(naming: Naming, base: str, has_parent: bool) -> list[list[str]]:
    """The ``impl`` blocks of ``<Leaf>Obj::new`` and of the wrapper's allocator.

    Parameters
    ----------
    naming : Naming
        The block's naming context.
    base : str
        The embedded ``base`` struct (its ``new`` builds the parent part).
    has_parent : bool
        Whether ``base`` is a real parent whose ``new`` takes the inherited fields.

    Returns
    -------
    list of list of str
        Two sections.
    """
    info = naming.info
    inherited: list[tuple[str, str]] = []
    if has_parent:
        assert info.parent_type_key is not None
        parent = info.parent_type_key
        inherited = allocator_params(naming, parent, naming.lookup(parent))
    params = _extend(naming, naming.type_key, info, inherited)
    # A parameter narrowed by a directive is converted back to what the parent's `new` takes.
    to_parent = [
        rust_ident(name) if rust_type == parent_type else f"{rust_ident(name)}.into()"
        for (name, rust_type), (_, parent_type) in zip(params, inherited)
    ]
    own = [rust_ident(name) for name, _ in params[len(inherited) :]]
    forward = [
        rust_ident(name) if rust_type in C.RUST_EXACT_PARAMS else f"{rust_ident(name)}.into()"
        for name, rust_type in params
    ]
    # Public unless final: a subtype written in Rust builds its parent part with it.
    obj_new = "pub(crate) fn new" if info.is_final else "pub fn new"
    wrapper_new = "pub fn from_fields" if naming.type_key in naming.imports.directives.custom_new else "pub fn new"
    return [
        [
            f"impl {naming.obj_struct} {{",
            *_fn_lines(obj_new, params, (f"base = {base}::new", to_parent), ["base", *own]),
            "}",
        ],
        [
            f"impl {naming.leaf} {{",
            "    /// Lossless complete-field allocation.",
            *_fn_lines(
                wrapper_new,
                params,
                (f"obj = {naming.obj_struct}::new", forward),
                ["base: ObjectArc::new(obj)"],
                into_params=True,
            ),
            "}",
        ],
    ]


def _rust_parent_ready(naming: Naming) -> bool:
    """Whether a Rust subtype may derive from this type: not final, all ancestors generated."""
    if naming.info.is_final:
        return False
    ancestors = [key for key in naming.info.ancestors if key != C.RUST_ROOT_TYPE_KEY]
    return all(naming.provider(key) == GENERATED for key in ancestors)


def subtype_support_sections(naming: Naming) -> list[list[str]]:
    """``ShallowCopy`` and ``UnsafeInit`` of the object, when a Rust subtype may need them.

    Parameters
    ----------
    naming : Naming
        The block's naming context.

    Returns
    -------
    list of list of str
        The two ``impl`` sections, or none.
    """
    if not _rust_parent_ready(naming):
        return []
    return [_shallow_copy_lines(naming), _unsafe_init_lines(naming)]


def _shallow_copy_lines(naming: Naming) -> list[str]:
    """The parent's shallow copy and a clone of each own field, as ``derive(Object)`` does."""
    trait = naming.imports.record("tvm_ffi::ShallowCopy")
    own = [rust_ident(field.name) for field in _by_offset(naming.info)]
    init = [
        f"base: {trait}::shallow_copy(&self.base)",
        *(f"{name}: Clone::clone(&self.{name})" for name in own),
    ]
    return [
        f"impl {trait} for {naming.obj_struct} {{",
        "    fn shallow_copy(&self) -> Self {",
        *call_lines("        Self { ", init, " }"),
        "    }",
        "}",
    ]


def _unsafe_init_lines(naming: Naming) -> list[str]:
    """Drop the defined fields of an all-zero object, the parent part first.

    A ``TVMFFIAny`` cell (``Any``, an ``Optional`` that is not a pointer) is None when
    zeroed and drops as it is; an enum newtype holds nothing to drop; anything else goes
    through ``drop_if_defined``, which skips a zeroed (undefined) member.
    """
    imports, directives = naming.imports, naming.imports.directives
    trait = imports.record("tvm_ffi::UnsafeInit")
    addr = imports.record("std::ptr::addr_of_mut")
    drops = [f"{trait}::drop_defined_fields({addr}!((*this).base));"]
    for field in _by_offset(naming.info):
        target = f"{naming.type_key}.{field.name}"
        if target in directives.enums:
            continue
        mirror = field_mirror(naming, naming.type_key, field, imports)
        assert mirror is not None, "a complete type has a mirror for every field"
        in_cell = target not in directives.field_types and (
            field.origin == "Any" or (field.origin == "Optional" and not mirror.startswith("Option<"))
        )
        drop = imports.record(
            "std::ptr::drop_in_place" if in_cell else "tvm_ffi::reflection::drop_if_defined"
        )
        drops.append(f"{drop}({addr}!((*this).{rust_ident(field.name)}));")
    return [
        f"unsafe impl {trait} for {naming.obj_struct} {{",
        "    unsafe fn drop_defined_fields(this: *mut Self) {",
        "        unsafe {",
        *(f"            {line}" for line in drops),
        "        }",
        "    }",
        "}",
    ]
