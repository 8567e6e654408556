"""Helpers of the Rust backend: ``use`` paths, the per-file collector, type and name spelling."""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from . import consts as C
from .directives import Directives

if TYPE_CHECKING:
    from tvm_ffi.core import TypeSchema


@dataclasses.dataclass(frozen=True)
class RustUse:
    """One item a Rust file may bring into scope with ``use <path>;``.

    A dotted FFI name is turned into a path, its first segment through
    :data:`~.consts.RUST_MOD_MAP` (``ffi.String`` is ``tvm_ffi::String``); a path is kept.

    Parameters
    ----------
    name : str
        A Rust path (``tvm_ffi::Array``), a dotted FFI name (``my_pkg.sub.Foo``) or a bare
        name (``i64``).
    """

    path: str

    def __init__(self, name: str) -> None:
        if "." in name and "::" not in name:
            head, _, rest = name.partition(".")
            name = f"{C.RUST_MOD_MAP.get(head, head)}.{rest}"
        object.__setattr__(self, "path", name.replace(".", "::"))

    @property
    def leaf(self) -> str:
        """The name the item is spelled by once imported (``Array`` for ``tvm_ffi::Array``)."""
        return self.path.rpartition("::")[2]

    def as_use_line(self) -> str:
        """The ``use`` statement of the item.

        Returns
        -------
        str
            ``use <path>;``, or ``""`` for a bare name, which needs none.
        """
        return f"use {self.path};" if "::" in self.path else ""


def is_crate_type_key(type_key: str) -> bool:
    """Whether the ``tvm_ffi`` crate binds ``type_key`` itself.

    Parameters
    ----------
    type_key : str
        A registered type key.

    Returns
    -------
    bool
        True for every key under a crate-owned namespace (``ffi.*``).
    """
    return type_key.partition(".")[0] in C.RUST_MOD_MAP


@functools.cache
def rust_module_path(path: Path) -> tuple[str, ...]:
    """The module a ``.rs`` file is, from where it sits under its crate's ``src/``.

    The crate is the nearest directory above the file that holds a ``Cargo.toml``.
    ``src/lib.rs`` and ``src/main.rs`` are the crate root; ``src/ir.rs`` and
    ``src/ir/mod.rs`` are both ``crate::ir``; a keyword segment is a raw identifier.

    Parameters
    ----------
    path : Path
        A Rust source file.

    Returns
    -------
    tuple of str
        The module's path segments, ``("crate", "ir")`` for ``crate::ir``.

    Raises
    ------
    ValueError
        When no ``Cargo.toml`` is above the file, or the file is not under that crate's ``src/``.
    """
    path = path.resolve()
    crate = next((folder for folder in path.parents if (folder / "Cargo.toml").is_file()), None)
    if crate is None:
        raise ValueError(f"{path} is in no Cargo crate: no `Cargo.toml` above it")
    src = crate / "src"
    if src not in path.parents:
        raise ValueError(f"{path} is not under `{src}`, so it is in no module of the crate")
    parts = list(path.relative_to(src).with_suffix("").parts)
    # `mod.rs` is its folder's module; `lib.rs` / `main.rs` directly in `src/` is the crate root.
    if parts[-1] == "mod" or parts in (["lib"], ["main"]):
        parts.pop()
    return ("crate", *(f"r#{part}" if part in C.RUST_KEYWORDS else part for part in parts))


def builtin_mirror_name(type_key: str) -> str:
    """The name of the header-only stand-in the backend defines for a builtin type.

    ``derive(Object)`` derives a type's depth in the hierarchy from its ``base``; the crate
    has no struct for a builtin such as ``ffi.IntEnum``, so a file defines a stand-in.

    Parameters
    ----------
    type_key : str
        A builtin type key (``ffi.IntEnum``).

    Returns
    -------
    str
        The stand-in's struct name (``FfiIntEnumObj``).
    """
    namespace, _, leaf = type_key.rpartition(".")
    return f"{namespace.replace('.', '_').capitalize()}{leaf}Obj"


@dataclasses.dataclass
class RustImports:
    """What the blocks of one file need at its top: ``use`` items, directives, stand-ins.

    Attributes
    ----------
    items : list of RustUse
        The ``use`` items, each path once, in the order first asked for.
    directives : Directives
        The Rust directives of the file.
    builtin_mirrors : dict of str to str
        Builtin ancestor -> the ``base`` its stand-in embeds, root side first.
    reserved : set of str
        Names the file's ``object/`` blocks define, which no import may take.
    """

    items: list[RustUse] = dataclasses.field(default_factory=list)
    directives: Directives = dataclasses.field(default_factory=Directives)
    builtin_mirrors: dict[str, str] = dataclasses.field(default_factory=dict)
    reserved: set[str] = dataclasses.field(default_factory=set)

    def record(self, name: str) -> str:
        """Ask for ``name`` to be in scope.

        Parameters
        ----------
        name : str
            A path, dotted FFI name or bare name (see :class:`RustUse`).

        Returns
        -------
        str
            How to spell it in code: its leaf when the leaf is free or already this item's,
            else (the leaf is taken by another path or a type of the file) its full path,
            which is then not imported.
        """
        wanted = RustUse(name)
        if not wanted.as_use_line():
            return wanted.leaf
        if wanted in self.items:
            return wanted.leaf
        if wanted.leaf in self.reserved or any(item.leaf == wanted.leaf for item in self.items):
            return wanted.path
        self.items.append(wanted)
        return wanted.leaf

    def record_builtin_base(self, chain: list[str]) -> str:
        """Ask for the stand-ins of a chain of builtin ancestors below ``ffi.Object``.

        Parameters
        ----------
        chain : list of str
            The builtin type keys, root side first; empty when the parent is ``ffi.Object``.

        Returns
        -------
        str
            The struct to embed as ``base``: the last stand-in, or the crate's ``Object``.
        """
        base = self.record("tvm_ffi::Object")
        for type_key in chain:
            self.builtin_mirrors.setdefault(type_key, base)
            base = builtin_mirror_name(type_key)
        return base


def render_rust_type(
    schema: TypeSchema, ty_render: Callable[[str, str | None], str | None]
) -> str | None:
    """Spell a type schema as a Rust value type.

    Parameters
    ----------
    schema : TypeSchema
        The type.
    ty_render : callable
        Names a leaf type: called with its origin and the type key the schema was read from
        (None when that is the origin; the schema folds ``ffi.BigInt`` into ``int``), it
        returns the Rust name, or None when there is none.

    Returns
    -------
    str or None
        The Rust type, or None when some part of it has no Rust counterpart.
    """
    origin, args = schema.origin, schema.args or ()
    if origin in C.RUST_UNSUPPORTED_ORIGINS:
        return None
    if origin in ("Array", "List"):
        return _generic(ty_render(origin, None), [render_rust_type(args[0], ty_render)])
    if origin == "Map":
        params = [render_rust_type(arg, ty_render) for arg in args[:2]]
        return _generic(ty_render("Map", None), params)
    if origin == "Optional":
        return _generic("Option", [render_rust_type(args[0], ty_render)])
    if origin == "Callable":
        # The crate's `Function` does not carry a signature.
        return ty_render("Callable", None)
    return ty_render(origin, schema.type_key)


def _generic(base: str | None, params: list[str | None]) -> str | None:
    if base is None or None in params:
        return None
    return f"{base}<{', '.join(p for p in params if p is not None)}>"


#: A module qualifier in front of a name (``crate::ir::``, ``super::``, ``::core::mem::``).
_QUALIFIER = re.compile(r"(?<![\w:])(?:::)?(?:[a-z_][a-z0-9_]*::)+(?=[A-Za-z_])")
_TOKEN = re.compile(r"\w+|\S")


def check_tokens(lines: Iterable[str]) -> tuple[str, ...]:
    """The tokens of generated Rust that ``--check`` compares.

    ``use`` lines, comment lines and module qualifiers are left out, and so is a comma
    before a closing bracket, so neither where a path is imported from nor how a long
    line is wrapped makes a file stale.

    Parameters
    ----------
    lines : iterable of str
        The lines of a generated block.

    Returns
    -------
    tuple of str
        Its tokens, in order.
    """
    kept = (line.strip() for line in lines)
    text = " ".join(line for line in kept if not line.startswith(("use ", "//")))
    tokens = _TOKEN.findall(_QUALIFIER.sub("", text))
    following = [*tokens[1:], ""]
    return tuple(
        token
        for token, after in zip(tokens, following)
        if token != "," or after not in (")", "]", "}")
    )


def rust_ident(name: str) -> str:
    """Spell a reflected field name as a Rust identifier.

    Two C++ naming conventions are undone and nothing else is renamed: one trailing
    underscore of a member (``value_``) and the double underscores of a dunder
    (``__dict__``). A keyword becomes a raw identifier; ``self``, ``Self``, ``super``,
    ``crate`` (which cannot be raw) and ``base`` (the generated parent slot) get a
    trailing underscore.

    Parameters
    ----------
    name : str
        The reflected name.

    Returns
    -------
    str
        The Rust identifier.
    """
    is_dunder = len(name) > 4 and name[:2] == name[-2:] == "__"
    has_member_suffix = len(name) > 1 and name[-1] == "_" and name[-2] != "_"
    core = name[2:-2] if is_dunder else name[:-1] if has_member_suffix else name
    if core in C.RUST_NOT_RAW_IDENTIFIERS | C.RUST_RESERVED_MEMBERS:
        return core + "_"
    return "r#" + core if core in C.RUST_KEYWORDS else core
