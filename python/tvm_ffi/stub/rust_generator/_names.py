"""How one ``object/`` block names the types it refers to, and who provides each of them.

A type key is provided by the crate (``ffi.*``), by a hand-written binding a ``ty-map``
names (its object struct is ``<Name>Obj``), or by an ``object/`` block somewhere in the
run. A generated type is spelled from the module of the file its block is in: its bare
name in that same module, a ``crate::`` path anywhere else. A key nobody provides is
collected, so the caller can refuse the block naming all of them at once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping

from ..utils import ObjectInfo
from . import consts as C
from .utils import RustImports, is_crate_type_key

#: Who provides a type key's binding.
CRATE, MAPPED, GENERATED = "crate", "mapped", "generated"


@dataclasses.dataclass
class Naming:
    """The naming context of one object block.

    Attributes
    ----------
    info : ObjectInfo
        The object the block binds.
    imports : RustImports
        The file's collector.
    ty_map : dict of str to str
        FFI origin or type key -> Rust type, defaults and ``ty-map`` directives.
    module : tuple of str
        The module of the block's file (``("crate", "tirx")``).
    declared : mapping of str to tuple of str
        Type keys with an ``object/`` block in the run -> the module of that block's file.
    lookup : callable
        Type key -> its reflection (parents, for allocators and classification).
    missing : set of str
        Type keys referred to that nobody provides.
    """

    info: ObjectInfo
    imports: RustImports
    ty_map: dict[str, str]
    module: tuple[str, ...]
    declared: Mapping[str, tuple[str, ...]]
    lookup: Callable[[str], ObjectInfo]
    missing: set[str] = dataclasses.field(default_factory=set)

    @property
    def type_key(self) -> str:
        """The bound object's type key."""
        assert self.info.type_key is not None
        return self.info.type_key

    @property
    def leaf(self) -> str:
        """The reference wrapper's name (``IterVar`` for ``tirx.IterVar``)."""
        return self.type_key.rpartition(".")[2]

    @property
    def obj_struct(self) -> str:
        """The object struct's name (``IterVarObj``)."""
        return f"{self.leaf}Obj"

    def provider(self, type_key: str) -> str | None:
        """Who provides ``type_key``: :data:`CRATE`, :data:`MAPPED` or :data:`GENERATED`.

        Parameters
        ----------
        type_key : str
            A referenced type key.

        Returns
        -------
        str or None
            The provider, or None (and the key is noted in :attr:`missing`).
        """
        if is_crate_type_key(type_key):
            return CRATE
        if type_key in self.ty_map:
            return MAPPED
        if type_key in self.declared:
            return GENERATED
        self.missing.add(type_key)
        return None

    def generated_path(self, type_key: str) -> str:
        """How this file spells a type the run generates (or the crate binds).

        Parameters
        ----------
        type_key : str
            The type key.

        Returns
        -------
        str
            The bare leaf in the same module (or when the key is missing: the block is refused
            anyway), the ``crate::`` path of its module elsewhere, the dotted key for ``ffi.*``.
        """
        if type_key.partition(".")[0] in C.RUST_MOD_MAP:
            return type_key
        leaf = type_key.rpartition(".")[2]
        module = self.declared[type_key] if type_key in self.declared else None
        if module is None or module == self.module:
            return leaf
        return "::".join((*module, leaf))

    def record_mapped(self, path: str, imports: RustImports) -> str:
        """Bring a ``ty-map`` target into scope.

        Parameters
        ----------
        path : str
            The Rust path a ``ty-map`` gives.
        imports : RustImports
            The collector to record into.

        Returns
        -------
        str
            Its bare name when it is in this file's own module (a binding must not import
            itself), else what :meth:`RustImports.record` says.
        """
        module, _, name = path.rpartition("::")
        if module == "::".join(self.module):
            return name
        return imports.record(path)

    def resolve(self, origin: str, imports: RustImports, type_key: str | None = None) -> str | None:
        """Name a leaf type, recording what it needs into ``imports``.

        Parameters
        ----------
        origin : str
            The schema's origin.
        imports : RustImports
            The collector to record into.
        type_key : str, optional
            The type key the schema was read from; its ``ty-map`` entry wins over the origin's.

        Returns
        -------
        str or None
            The Rust name, or None when there is none (a non-object origin the map lacks,
            ``ctypes.*``, an ``ffi.*`` key the map lacks).
        """
        key = type_key if type_key in self.ty_map else origin
        mapped = self.ty_map.get(key)
        if mapped is not None:
            return self.record_mapped(mapped, imports)
        if "." not in origin or origin.startswith("ctypes."):
            return None
        if self.provider(origin) == CRATE:
            return None
        return imports.record(self.generated_path(origin))

    def render_in(self, imports: RustImports) -> Callable[[str, str | None], str | None]:
        """A ``ty_render`` for :func:`~.utils.render_rust_type` that records into ``imports``.

        Parameters
        ----------
        imports : RustImports
            The collector to record into.

        Returns
        -------
        callable
            ``(origin, type_key) -> Rust name or None``.
        """
        return lambda origin, type_key: self.resolve(origin, imports, type_key)

    def base_type(self) -> tuple[str, bool]:
        """The struct the object embeds as ``base``.

        Returns
        -------
        tuple of (str, bool)
            The struct's name, and whether it is a real parent (generated or hand-written,
            which gets ``Deref``) rather than the header or a builtin stand-in.
        """
        parent = self.info.parent_type_key
        if parent is not None:
            provider = self.provider(parent)
            if provider == MAPPED:
                return self.record_mapped(self.ty_map[parent] + "Obj", self.imports), True
            if provider != CRATE:
                return self.imports.record(self.generated_path(parent) + "Obj"), True
        # Below `ffi.Object` only builtins: embed a chain of header-only stand-ins.
        chain = [key for key in self.info.ancestors if key != C.RUST_ROOT_TYPE_KEY]
        if parent not in (None, C.RUST_ROOT_TYPE_KEY, *chain):
            chain.append(parent)  # type: ignore[arg-type]
        return self.imports.record_builtin_base(chain), False

    def upcast_targets(self) -> list[str]:
        """The wrappers ``impl_object_upcast!`` converts to: ancestors, then ``upcast`` views.

        Returns
        -------
        list of str
            The in-scope names, root side first.
        """
        targets = []
        for key in self.info.ancestors:
            provider = self.provider(key)
            if provider == MAPPED:
                targets.append(self.record_mapped(self.ty_map[key], self.imports))
            elif provider != CRATE:
                targets.append(self.imports.record(self.generated_path(key)))
        for view in self.imports.directives.upcasts.get(self.type_key, []):
            targets.append(self.imports.record(view) if "::" in view else view)
        return targets

    def own_type(self, rust_type: str) -> str:
        """Spell a type a directive names: a ``::`` path is imported, a bare name kept.

        Parameters
        ----------
        rust_type : str
            The directive's Rust type.

        Returns
        -------
        str
            How to spell it here.
        """
        return self.imports.record(rust_type) if "::" in rust_type else rust_type
