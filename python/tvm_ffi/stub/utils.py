"""The stub generator's records: options, and what the libraries registered.

``NamedTypeSchema`` (a type schema with a name: a field, or a function with its ``Callable``
schema), ``FuncInfo`` (a global function or method), ``InitFieldInfo`` (a constructor
parameter), ``ObjectInfo`` (a reflected object type), ``InitConfig`` (the ``--init-*`` flags)
and ``Options`` (the whole command line). Every target's generator reads these.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from .._core import MISSING, _lookup_type_attr
from .._reflection import TypeField, TypeInfo
from .._type_schema import TypeSchema

__all__ = [
    "MISSING",
    "DirectiveError",
    "FuncInfo",
    "InitConfig",
    "InitFieldInfo",
    "NamedTypeSchema",
    "ObjectInfo",
    "Options",
]


class DirectiveError(ValueError):
    """A one-line directive that is unknown to the target or whose payload is malformed."""


def _parse_type_schema(raw: str | dict[str, Any]) -> TypeSchema:
    """A ``type_schema`` metadata entry (JSON text or its object) as a :class:`TypeSchema`."""
    return TypeSchema.from_json_obj(json.loads(raw) if isinstance(raw, str) else raw)


def _schema_of(metadata: dict[str, Any] | None) -> TypeSchema:
    """The ``type_schema`` of a metadata dict; ``Any`` when the library recorded none."""
    raw = (metadata or {}).get("type_schema")
    return _parse_type_schema(raw) if isinstance(raw, (str, dict)) else TypeSchema("Any")


@dataclasses.dataclass
class InitConfig:
    """The ``--init-*`` flags: what a scaffolded package loads and which names it covers.

    Parameters
    ----------
    pkg : str
        The distribution whose shared library the generated loader finds (``--init-pypkg``).
    shared_target : str
        The shared library's CMake target, ``lib<shared_target>.so`` (``--init-lib``).
    prefix : str
        Only global functions and types under this prefix get files (``--init-prefix``).
    """

    pkg: str
    shared_target: str
    prefix: str


@dataclasses.dataclass
class Options:
    """The parsed command line.

    Parameters
    ----------
    imports : list of str
        Python modules to import first.
    dlls : list of str
        Shared libraries to load first.
    init : InitConfig, optional
        The ``--init-*`` flags, when given.
    indent : int
        Spaces per nesting level inside a generated block.
    files : list of str
        The files and directories to process.
    verbose : bool
        Print a diff of every change.
    dry_run : bool
        Write nothing.
    check : bool
        Write nothing; report out-of-date files.
    target : str
        The generator's target language (``python``, ``rust``).
    coverage_out : str, optional
        Where to write the native-layout coverage report.
    """

    imports: list[str] = dataclasses.field(default_factory=list)
    dlls: list[str] = dataclasses.field(default_factory=list)
    init: InitConfig | None = None
    indent: int = 4
    files: list[str] = dataclasses.field(default_factory=list)
    verbose: bool = False
    dry_run: bool = False
    check: bool = False
    target: str = "python"
    coverage_out: str | None = None


@dataclasses.dataclass(init=False, repr=False, eq=False)
class NamedTypeSchema(TypeSchema):
    """A type schema with a name and, for a field, its native layout and ``__init__`` facts.

    Parameters
    ----------
    name : str
        The field's name, or the function's full name (``demo.add_one``).
    schema : TypeSchema
        Its type (a function's is a ``Callable``).
    size, alignment, offset : int, optional
        The field's bytes in the object (None when not registered).
    default : Any, optional
        The field's default value (``MISSING`` when none).
    default_is_factory : bool, optional
        Whether ``default`` is a factory called for every new object.
    structural_eq : str, optional
        The field's structural-equality flag, as registered.
    frozen : bool, optional
        Whether the field is read-only.

    Examples
    --------
    >>> from tvm_ffi.core import TypeSchema
    >>> from tvm_ffi.stub.utils import NamedTypeSchema
    >>> field = NamedTypeSchema("count", TypeSchema("int"), size=8, offset=24)
    >>> field.name, field.repr(), field.offset
    ('count', 'int', 24)
    """

    name: str = ""
    size: int | None = None
    alignment: int | None = None
    offset: int | None = None
    default: Any = MISSING
    default_is_factory: bool = False
    structural_eq: str | None = None
    frozen: bool = False

    def __init__(self, name: str, schema: TypeSchema, *, size: int | None = None, alignment: int | None = None,
                 offset: int | None = None, default: Any = MISSING, default_is_factory: bool = False,
                 structural_eq: str | None = None, frozen: bool = False) -> None:
        super().__init__(schema.origin, schema.args, schema.origin_type_index, schema.fallback,
                         schema.named_args, schema.type_key)
        self.name = name
        self.size, self.alignment, self.offset = size, alignment, offset
        self.default, self.default_is_factory = default, default_is_factory
        self.structural_eq, self.frozen = structural_eq, frozen

    @staticmethod
    def from_type_field(field: TypeField) -> NamedTypeSchema:
        """The schema of a reflected field, with its layout and default.

        Parameters
        ----------
        field : TypeField
            A field of a registered type.

        Returns
        -------
        NamedTypeSchema
            Its name, type, bytes and default.
        """
        factory = field.c_default_factory is not MISSING
        return NamedTypeSchema(
            field.name, _schema_of(field.metadata), size=field.size, alignment=field.alignment,
            offset=field.offset, default=field.c_default_factory if factory else field.c_default,
            default_is_factory=factory, structural_eq=field.c_structural_eq, frozen=bool(field.frozen))


@dataclasses.dataclass
class FuncInfo:
    """A global function or a method: its named ``Callable`` schema, and whether it takes ``self``.

    Parameters
    ----------
    schema : NamedTypeSchema
        The function's full name and ``Callable`` schema (return type first).
    is_member : bool
        Whether its first parameter is the object.

    Examples
    --------
    >>> from tvm_ffi.core import TypeSchema
    >>> from tvm_ffi.stub.utils import FuncInfo
    >>> func = FuncInfo.from_schema("demo.add_one", TypeSchema("Callable", (TypeSchema("int"),) * 2))
    >>> func.schema.name, func.is_member
    ('demo.add_one', False)
    """

    schema: NamedTypeSchema
    is_member: bool

    @staticmethod
    def from_schema(name: str, schema: TypeSchema, *, is_member: bool = False) -> FuncInfo:
        """Make the record of a function from its name and ``Callable`` schema.

        Parameters
        ----------
        name : str
            Its full name.
        schema : TypeSchema
            Its ``Callable`` schema.
        is_member : bool, optional
            Whether it takes the object first.

        Returns
        -------
        FuncInfo
            The record.
        """
        return FuncInfo(NamedTypeSchema(name, schema), is_member)


@dataclasses.dataclass
class InitFieldInfo:
    """A parameter of a reflected constructor: a field ``__init__`` takes.

    Parameters
    ----------
    name : str
        The field's name.
    schema : NamedTypeSchema
        The field's type.
    kw_only : bool
        Whether it is passed by keyword only.
    has_default : bool
        Whether it may be left out.
    """

    name: str
    schema: NamedTypeSchema
    kw_only: bool
    has_default: bool


@dataclasses.dataclass
class ObjectInfo:
    """A reflected object type: own fields and methods, constructor, ancestry, native size.

    Parameters
    ----------
    fields : list of NamedTypeSchema
        Its own fields (not its ancestors').
    methods : list of FuncInfo
        Its own methods.
    type_key : str, optional
        Its type key.
    parent_type_key : str, optional
        Its parent's type key (None for the root).
    init_fields : list of InitFieldInfo
        The constructor's parameters, ancestors' fields first.
    has_init : bool
        Whether the type has a reflected constructor.
    ancestors : list of str
        Every ancestor's type key, root first.
    total_size : int, optional
        Its registered size in bytes.
    is_final : bool, optional
        Whether it is registered final (None when not registered).
    """

    fields: list[NamedTypeSchema]
    methods: list[FuncInfo]
    type_key: str | None = None
    parent_type_key: str | None = None
    init_fields: list[InitFieldInfo] = dataclasses.field(default_factory=list)
    has_init: bool = False
    ancestors: list[str] = dataclasses.field(default_factory=list)
    total_size: int | None = None
    is_final: bool | None = None

    def has_overloaded_methods(self) -> bool:
        """Whether two methods share a name (their declarations need ``@overload``).

        Returns
        -------
        bool
            True when a method name repeats.
        """
        names = [method.schema.name for method in self.methods]
        return len(names) != len(set(names))

    @staticmethod
    def from_type_info(type_info: TypeInfo) -> ObjectInfo:
        """Read a registered type's reflection.

        Parameters
        ----------
        type_info : TypeInfo
            The type's runtime record.

        Returns
        -------
        ObjectInfo
            Its fields, methods, constructor and ancestry.
        """
        chain: list[TypeInfo] = []
        parent = type_info.parent_type_info
        while parent is not None:
            chain.append(parent)
            parent = parent.parent_type_info
        chain.reverse()
        has_init = any(m.name == "__ffi_init__" for m in type_info.methods) or \
            _lookup_type_attr(type_info.type_index, "__ffi_init__") is not None
        init_fields = [
            InitFieldInfo(f.name, NamedTypeSchema.from_type_field(f), bool(f.c_kw_only), bool(f.c_has_default))
            for info in [*chain, type_info] for f in info.fields or () if f.c_init
        ] if has_init else []
        metadata = type_info.metadata or {}
        total_size = metadata.get("total_size")
        final = _lookup_type_attr(type_info.type_index, "__ffi_type_final__")
        return ObjectInfo(
            fields=[NamedTypeSchema.from_type_field(f) for f in type_info.fields or ()],
            methods=[FuncInfo(NamedTypeSchema(m.name, _schema_of(m.metadata)), not m.is_static)
                     for m in type_info.methods],
            type_key=type_info.type_key,
            parent_type_key=chain[-1].type_key if chain else None,
            init_fields=init_fields,
            has_init=has_init,
            ancestors=[info.type_key for info in chain],
            total_size=int(total_size) if total_size is not None else None,
            is_final=None if final is None else bool(final),
        )
