"""Python imports and declarations: annotations, function signatures, fields and methods.

Every renderer takes ``ty_map``, a callable that spells a schema origin (``int``, ``Array``, a
type key) as a Python name and may record the import that name needs; parameters are spelled
by ``input_ty_map`` when given (so they can take read-only collections), else by ``ty_map``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

from ..._core import _lookup_type_attr
from ..._type_schema import TypeSchema
from ..utils import FuncInfo, InitFieldInfo, ObjectInfo
from .consts import MOD_MAP

__all__ = [
    "ImportItem",
    "PythonImports",
    "annotation",
    "render_func_signature",
    "render_object_ffi_init",
    "render_object_fields",
    "render_object_init",
    "render_object_methods",
]

TyMap = Callable[[str], str]
_UNKNOWN_INDEX = -3
_OBJECT_INDEX_BEGIN = 64


@dataclasses.dataclass(frozen=True, init=False)
class ImportItem:
    """One imported name: ``from <mod> import <name> [as <alias>]``, maybe for type checking only.

    Parameters
    ----------
    full_name : str
        ``module.name``; the module's first parts are renamed by ``MOD_MAP`` (``ffi`` ->
        ``tvm_ffi``). A name without a dot is a plain ``import <name>``.
    type_checking_only : bool, optional
        Import it under ``if TYPE_CHECKING:`` only.
    alias : str, optional
        The local name.

    Examples
    --------
    >>> from tvm_ffi.stub.python_generator.utils import ImportItem
    >>> item = ImportItem("ffi.Object", type_checking_only=True)
    >>> item.mod, item.name, item.full_name
    ('tvm_ffi', 'Object', 'tvm_ffi.Object')
    """

    mod: str
    name: str
    type_checking_only: bool = False
    alias: str | None = None

    def __init__(self, full_name: str, type_checking_only: bool = False, alias: str | None = None) -> None:
        mod, _, name = full_name.rpartition(".")
        for short, long in MOD_MAP.items():
            if mod == short or mod.startswith(short + "."):
                mod = long + mod[len(short):]
                break
        object.__setattr__(self, "mod", mod)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "type_checking_only", type_checking_only)
        object.__setattr__(self, "alias", alias)

    @property
    def full_name(self) -> str:
        """``mod.name`` after the module renames."""
        return f"{self.mod}.{self.name}" if self.mod else self.name

    @property
    def name_with_alias(self) -> str:
        """``name`` or ``name as alias``, as the import statement spells it."""
        return f"{self.name} as {self.alias}" if self.alias else self.name

    def __repr__(self) -> str:
        return f"from {self.mod} import {self.name_with_alias}" if self.mod else f"import {self.name_with_alias}"


@dataclasses.dataclass
class PythonImports:
    """What one file's blocks import, and whether it loads its library (it then exports ``LIB``).

    Parameters
    ----------
    items : list of ImportItem
        The imports, in the order they were asked for (duplicates allowed).
    has_lib_load : bool
        Whether an ``import-object`` directive imports the library loader.
    """

    items: list[ImportItem] = dataclasses.field(default_factory=list)
    has_lib_load: bool = False


def _convert_schema(schema: TypeSchema) -> TypeSchema | None:
    """The schema an object type also accepts (its ``__ffi_convert_type_schema__``), if any."""
    try:
        raw = _lookup_type_attr(schema.origin_type_index, "__ffi_convert_type_schema__")
    except (TypeError, ValueError):
        return None
    if isinstance(raw, str):
        return TypeSchema.from_json_obj(json.loads(raw))
    if isinstance(raw, dict):
        return TypeSchema.from_json_obj(raw)
    return None


def annotation(schema: TypeSchema, ty_map: TyMap, as_input: bool, _expanded: frozenset[int] = frozenset()) -> str:
    """The Python annotation of a type schema.

    Parameters
    ----------
    schema : TypeSchema
        The type.
    ty_map : callable
        Spells an origin (and may record its import).
    as_input : bool
        Annotate a parameter: an object type that converts from another type accepts that too.

    Returns
    -------
    str
        The annotation, e.g. ``"Mapping[str, Sequence[int]]"``.

    Examples
    --------
    >>> from tvm_ffi.core import TypeSchema
    >>> from tvm_ffi.stub.python_generator.utils import annotation
    >>> annotation(TypeSchema("Optional", (TypeSchema("int"),)), str, as_input=False)
    'int | None'
    """
    fallback: Any = schema.fallback
    if isinstance(fallback, TypeSchema) and schema.origin_type_index == _UNKNOWN_INDEX \
            and schema.origin not in ("tuple", "list", "dict"):
        return annotation(fallback, ty_map, as_input, _expanded)
    index = schema.origin_type_index
    if as_input and index >= _OBJECT_INDEX_BEGIN and index not in _expanded:
        accepted = _convert_schema(schema)
        if accepted is not None:
            return annotation(accepted, ty_map, True, _expanded | {index})
    origin = ty_map(schema.origin)

    def sub(s: TypeSchema) -> str:
        return annotation(s, ty_map, as_input, _expanded)

    if origin == "Callable":
        named = schema.named_args
        if not named:
            return "Callable[..., Any]"
        result = sub(named["return"][0])
        if "params" not in named:
            return f"Callable[..., {result}]"
        return f"Callable[[{', '.join(sub(p) for p in named['params'])}], {result}]"
    args = [sub(a) for a in schema.args or ()]
    if origin == "Union":
        return " | ".join(args)
    if origin == "Optional":
        return f"{args[0]} | None"
    if origin == "tuple" and schema.args == ():
        return "tuple[()]"
    return f"{origin}[{', '.join(args)}]" if args else origin


def _short_name(func: FuncInfo) -> str:
    return func.schema.name.rsplit(".", 1)[-1]


def render_func_signature(func: FuncInfo, ty_map: TyMap, indent: int, input_ty_map: TyMap | None = None) -> str:
    """One ``def`` line declaring a function or method (``self`` first for a member).

    Parameters
    ----------
    func : FuncInfo
        The function and its ``Callable`` schema.
    ty_map : callable
        Spells result types.
    indent : int
        Spaces before ``def``.
    input_ty_map : callable, optional
        Spells parameter types (``ty_map`` when not given).

    Returns
    -------
    str
        The declaration, ending in ``: ...``; ``*args: Any`` when the schema lists no parameters.

    Raises
    ------
    ValueError
        When the schema is not a ``Callable``.

    Examples
    --------
    >>> from tvm_ffi.core import TypeSchema
    >>> from tvm_ffi.stub.utils import FuncInfo
    >>> from tvm_ffi.stub.python_generator.utils import render_func_signature
    >>> func = FuncInfo.from_schema("demo.add_one", TypeSchema("Callable", (TypeSchema("int"),) * 2))
    >>> render_func_signature(func, str, indent=0)
    'def add_one(_0: int, /) -> int: ...'
    """
    schema = func.schema
    if schema.origin != "Callable":
        raise ValueError(f"{schema.name}: expected a Callable type schema, got {schema}")
    in_map = input_ty_map or ty_map
    head = f"{' ' * indent}def {_short_name(func)}("
    named = schema.named_args
    if not named:
        ty_map("Any")
        return head + "*args: Any) -> Any: ..."
    result = annotation(named["return"][0], ty_map, as_input=False)
    if "params" not in named:
        ty_map("Any")
        return head + f"*args: Any) -> {result}: ..."
    params = named["params"]
    parts = ["self" if func.is_member and i == 0 else f"_{i}: {annotation(p, in_map, as_input=True)}"
             for i, p in enumerate(params)]
    if params:
        parts.append("/")
    return head + ", ".join(parts) + f") -> {result}: ..."


def render_object_fields(info: ObjectInfo, ty_map: TyMap, indent: int) -> list[str]:
    """One annotated line per own field of the type.

    Parameters
    ----------
    info : ObjectInfo
        The type.
    ty_map : callable
        Spells the fields' types.
    indent : int
        Spaces before each line.

    Returns
    -------
    list of str
        ``name: annotation`` lines.
    """
    return [f"{' ' * indent}{f.name}: {annotation(f, ty_map, as_input=False)}" for f in info.fields]


def _ffi_init_from_method(method: FuncInfo, ty_map: TyMap, indent: int, input_ty_map: TyMap) -> str:
    """A reflected ``__ffi_init__`` as Python sees it: an instance method returning None."""
    named = method.schema.named_args
    pad = " " * indent
    if method.schema.origin != "Callable" or not named or "params" not in named:
        ty_map("Any")
        return f"{pad}def __ffi_init__(self, *args: Any) -> None: ..."
    params = [f"_{i}: {annotation(p, input_ty_map, as_input=True)}" for i, p in enumerate(named["params"])]
    if params:
        return f"{pad}def __ffi_init__(self, {', '.join(params)}, /) -> None: ..."
    return f"{pad}def __ffi_init__(self) -> None: ..."


def render_object_methods(info: ObjectInfo, ty_map: TyMap, indent: int,
                          input_ty_map: TyMap | None = None) -> list[str]:
    """The declarations of the type's own methods, ``@overload``-ed where a name repeats.

    Parameters
    ----------
    info : ObjectInfo
        The type.
    ty_map : callable
        Spells result types.
    indent : int
        Spaces before each line.
    input_ty_map : callable, optional
        Spells parameter types (``ty_map`` when not given).

    Returns
    -------
    list of str
        The lines, decorators included; a reflected ``__ffi_init__`` takes ``self``.
    """
    in_map = input_ty_map or ty_map
    groups: dict[tuple[str, bool], list[FuncInfo]] = {}
    for method in info.methods:
        groups.setdefault((method.schema.name, method.is_member), []).append(method)
    pad = " " * indent
    lines: list[str] = []
    for group in groups.values():
        for method in group:
            if len(group) > 1:
                lines.append(f"{pad}@overload")
            if _short_name(method) == "__ffi_init__":
                lines.append(_ffi_init_from_method(method, ty_map, indent, in_map))
                continue
            if not method.is_member:
                lines.append(f"{pad}@staticmethod")
            lines.append(render_func_signature(method, ty_map, indent, in_map))
    return lines


def _init_params(fields: list[InitFieldInfo], input_ty_map: TyMap) -> str:
    """Constructor parameters: required, then defaulted, then ``*`` and the keyword-only ones."""
    def param(f: InitFieldInfo) -> str:
        text = f"{f.name}: {annotation(f.schema, input_ty_map, as_input=True)}"
        return text + (" = ..." if f.has_default else "")

    positional = [f for f in fields if not f.kw_only]
    keyword = [f for f in fields if f.kw_only]
    parts = [param(f) for f in positional if not f.has_default] + [param(f) for f in positional if f.has_default]
    if keyword:
        parts += ["*", *(param(f) for f in keyword if not f.has_default),
                  *(param(f) for f in keyword if f.has_default)]
    return "".join(", " + p for p in parts)


def render_object_init(info: ObjectInfo, ty_map: TyMap, indent: int, input_ty_map: TyMap | None = None) -> list[str]:
    """The ``__init__`` declaration of a type with a reflected constructor.

    Parameters
    ----------
    info : ObjectInfo
        The type.
    ty_map : callable
        Spells types when ``input_ty_map`` is not given.
    indent : int
        Spaces before the line.
    input_ty_map : callable, optional
        Spells the parameters' types.

    Returns
    -------
    list of str
        One line, or none when the type has no constructor.
    """
    if not info.has_init:
        return []
    params = _init_params(info.init_fields, input_ty_map or ty_map)
    return [f"{' ' * indent}def __init__(self{params}) -> None: ..."]


def render_object_ffi_init(info: ObjectInfo, ty_map: TyMap, indent: int,
                           input_ty_map: TyMap | None = None) -> list[str]:
    """The ``__ffi_init__`` declaration made from the constructor's fields.

    Parameters
    ----------
    info : ObjectInfo
        The type.
    ty_map : callable
        Spells types when ``input_ty_map`` is not given.
    indent : int
        Spaces before the line.
    input_ty_map : callable, optional
        Spells the parameters' types.

    Returns
    -------
    list of str
        One line; none when the type has no constructor or reflects ``__ffi_init__`` as a method
        (:func:`render_object_methods` declares that one).
    """
    if not info.has_init or any(_short_name(m) == "__ffi_init__" for m in info.methods):
        return []
    params = _init_params(info.init_fields, input_ty_map or ty_map)
    return [f"{' ' * indent}def __ffi_init__(self{params}) -> None: ..."]
