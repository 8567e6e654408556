"""Python annotations for FFI type schemas, and the imports they need.

Names follow the reference tool, so both tools write the same text: results and fields use
the read-only or mutable collection protocols (``Array`` -> ``Sequence``, ``List`` ->
``MutableSequence``, ``Map`` -> ``Mapping``, ``Dict`` -> ``MutableMapping``); parameters take
the read-only ones (a ``list`` converts to any of them). Every dotted name is imported under
``TYPE_CHECKING``; an object type key ``a.b.C`` is imported as ``from a.b import C`` unless a
``ty-map`` directive or a block of the same run says otherwise.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from .._type_schema import TypeSchema

# Module prefixes spelled differently in Python: type keys ``ffi.X`` live in ``tvm_ffi``.
MOD_MAP = {"testing": "tvm_ffi.testing", "ffi": "tvm_ffi"}
# Origin -> the dotted name results and fields are annotated with.
OUTPUT_NAMES = {
    "Any": "typing.Any",
    "Callable": "typing.Callable",
    "Array": "collections.abc.Sequence",
    "List": "collections.abc.MutableSequence",
    "Map": "collections.abc.Mapping",
    "Dict": "collections.abc.MutableMapping",
    "Object": "ffi.Object",
    "Tensor": "ffi.Tensor",
    "dtype": "ffi.dtype",
    "Device": "ffi.Device",
    "ffi.Enum": "tvm_ffi.dataclasses.Enum",
}
# Parameters accept any sequence or mapping, mutable or not.
INPUT_NAMES = {
    "Array": "collections.abc.Sequence",
    "List": "collections.abc.Sequence",
    "Map": "collections.abc.Mapping",
    "Dict": "collections.abc.Mapping",
}
_UNKNOWN_INDEX = -3
_OBJECT_INDEX_BEGIN = 64


@dataclasses.dataclass(frozen=True)
class Import:
    """One imported name: ``from <module> import <name> [as <alias>]``."""

    module: str
    name: str
    type_checking_only: bool = False
    alias: str | None = None

    @staticmethod
    def of(full_name: str, type_checking_only: bool = False, alias: str | None = None) -> Import:
        """Make the import of a dotted name, with ``MOD_MAP`` applied to its module.

        Parameters
        ----------
        full_name : str
            ``module.name`` (a bare name imports nothing from a module).
        type_checking_only : bool, optional
            Import it under ``if TYPE_CHECKING:`` only.
        alias : str, optional
            The local name.

        Returns
        -------
        Import
            The import.
        """
        module, _, name = full_name.rpartition(".")
        for short, long in MOD_MAP.items():
            if module == short or module.startswith(short + "."):
                module = long + module[len(short):]
                break
        return Import(module, name, type_checking_only, alias)

    @property
    def full_name(self) -> str:
        """``module.name`` after the module mapping."""
        return f"{self.module}.{self.name}" if self.module else self.name

    @property
    def spelled(self) -> str:
        """``name`` or ``name as alias``."""
        return f"{self.name} as {self.alias}" if self.alias else self.name


@dataclasses.dataclass
class Imports:
    """The imports a file's blocks need, in the order they were asked for."""

    items: list[Import] = dataclasses.field(default_factory=list)
    has_lib_load: bool = False


def input_ty_map(ty_map: dict[str, str]) -> dict[str, str]:
    """The names parameters use: ``ty_map`` with the read-only collections for containers.

    An explicit ``ty-map`` entry for a container wins over the default.

    Parameters
    ----------
    ty_map : dict
        Origin or type key -> dotted name, for results.

    Returns
    -------
    dict
        The same map for parameters.
    """
    mapped = dict(ty_map)
    for origin, name in INPUT_NAMES.items():
        if ty_map.get(origin, OUTPUT_NAMES.get(origin)) == OUTPUT_NAMES.get(origin):
            mapped[origin] = name
    return mapped


class Namer:
    """Spells origins as local names, recording the import each one needs.

    Parameters
    ----------
    ty_map : dict
        Origin or type key -> dotted name.
    imports : Imports
        Receives the imports.
    clashes : set of str, optional
        Names the block defines itself (functions, methods): a type of the same name is
        imported as ``_<name>``.
    """

    def __init__(self, ty_map: dict[str, str], imports: Imports, clashes: set[str] | None = None) -> None:
        self.ty_map = ty_map
        self.imports = imports
        self.clashes = clashes or set()

    def __call__(self, origin: str) -> str:
        """Spell ``origin``; a dotted target is imported (type-checking only)."""
        target = self.ty_map.get(origin, origin)
        short = target.rsplit(".", 1)[-1]
        if "." not in target:
            return short
        alias = f"_{short}" if short in self.clashes else None
        self.imports.items.append(Import.of(target, True, alias))
        return alias or short


def _convert_schema(schema: TypeSchema) -> TypeSchema | None:
    """The schema an object type accepts as input (its ``__ffi_convert_type_schema__``), if any."""
    from .. import _core

    try:
        raw = _core._lookup_type_attr(schema.origin_type_index, "__ffi_convert_type_schema__")
    except (TypeError, ValueError):
        return None
    if isinstance(raw, str):
        return TypeSchema.from_json_obj(json.loads(raw))
    if isinstance(raw, dict):
        return TypeSchema.from_json_obj(raw)
    return None


def annotation(schema: TypeSchema, name: Namer, as_input: bool, _expanded: frozenset[int] = frozenset()) -> str:
    """The annotation text of ``schema``.

    Parameters
    ----------
    schema : TypeSchema
        The type.
    name : Namer
        Spells origins (and records imports).
    as_input : bool
        Annotate a parameter (objects may accept what they convert from) rather than a result.

    Returns
    -------
    str
        The annotation, e.g. ``"Mapping[str, Sequence[int]]"``.
    """
    fallback: Any = schema.fallback
    if isinstance(fallback, TypeSchema) and schema.origin_type_index == _UNKNOWN_INDEX \
            and schema.origin not in ("tuple", "list", "dict"):
        return annotation(fallback, name, as_input, _expanded)
    index = schema.origin_type_index
    if as_input and index >= _OBJECT_INDEX_BEGIN and index not in _expanded:
        accepted = _convert_schema(schema)
        if accepted is not None:
            return annotation(accepted, name, True, _expanded | {index})
    origin = name(schema.origin)

    def sub(s: TypeSchema) -> str:
        return annotation(s, name, as_input, _expanded)

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
