"""The generated lines of each block kind, from the runtime's registry and reflection."""

from __future__ import annotations

import keyword
from typing import Any

from .._type_schema import TypeSchema
from .annotate import Annotator, function_schema

_FMT_OFF = "# fmt: off"
_FMT_ON = "# fmt: on"
INIT_FUNC_ALIAS = "_FFI_INIT_FUNC"


def is_name(text: str) -> bool:
    """True when ``text`` can be a Python identifier of a generated definition."""
    return text.isidentifier() and not keyword.iskeyword(text)


def signature(schema: TypeSchema | None, annot: Annotator, *, method: bool) -> str:
    """``(params) -> result`` of a function (``method``: the first parameter is ``self``)."""
    named = schema.named_args if schema is not None else None
    if named is None or "params" not in named:
        annot.imports.add(("typing", "Any"))
        prefix = "self, " if method else ""
        return f"({prefix}*args: Any) -> Any"
    params = list(named["params"])
    texts = ["self"] if method else []
    first = 1 if method else 0
    if method and params:
        params = params[1:]
    texts += [f"_{first + i}: {annot.schema(p, param=True)}" for i, p in enumerate(params)]
    returns = named.get("return") or [None]
    result = annot.schema(returns[0], param=False)
    if texts:
        texts.append("/")
    return f"({', '.join(texts)}) -> {result}"


def _guarded(indent: str, unit: str, defs: list[str], stub: bool) -> list[str]:
    """``defs`` under ``if TYPE_CHECKING:`` (plain in ``.pyi`` files, which are never run)."""
    if not defs:
        return []
    if stub:
        return [indent + d for d in defs]
    return [f"{indent}if TYPE_CHECKING:"] + [indent + unit + d for d in defs]


def global_block(
    prefix: str,
    functions: dict[str, dict[str, Any]],
    annot: Annotator,
    indent: str,
    unit: str,
    stub: bool,
) -> tuple[list[str], list[str]]:
    """Lines of a ``global/<prefix>`` block and the names it defines.

    ``functions`` maps the full names of registered functions to their metadata; the block
    covers the direct members of ``prefix`` (``prefix.f``, not ``prefix.sub.f``).
    """
    defs: list[str] = []
    names: list[str] = []
    for full_name in sorted(functions):
        head, dot, short = full_name.rpartition(".")
        if not dot or head != prefix or not is_name(short):
            continue
        schema = function_schema(functions[full_name])
        defs.append(f"def {short}{signature(schema, annot, method=False)}: ...")
        names.append(short)
    body = [indent + _FMT_OFF]
    if not stub:
        body.append(f'{indent}{INIT_FUNC_ALIAS}("{prefix}", __name__)')
        annot.imports.add(("typing", "TYPE_CHECKING"))
    body += _guarded(indent, unit, defs, stub)
    body.append(indent + _FMT_ON)
    return body, names


def _init_params(info: Any, annot: Annotator) -> str | None:
    """Keyword-capable ``__init__`` parameters from the fields of an auto-initialised type."""
    required: list[str] = []
    optional: list[str] = []
    kw_only: list[str] = []
    for field in info.all_fields():
        if not field.c_init:
            continue
        text = f"{field.name}: {annot.schema(field.ty, param=True)}"
        if field.c_has_default:
            text += " = ..."
        if field.c_kw_only:
            kw_only.append(text)
        elif field.c_has_default:
            optional.append(text)
        else:
            required.append(text)
    params = ["self", *required, *optional]
    if kw_only:
        params += ["*", *kw_only]
    return ", ".join(params)


def object_block(
    info: Any,
    has_auto_init: bool,
    annot: Annotator,
    indent: str,
    unit: str,
    stub: bool,
) -> list[str]:
    """Lines of an ``object/<type key>`` block: own fields, ``__init__`` and methods."""
    body = [indent + _FMT_OFF]
    for field in info.fields or ():
        if is_name(field.name):
            body.append(f"{indent}{field.name}: {annot.schema(field.ty, param=False)}")
    defs: list[str] = []
    own = {m.name: m for m in info.methods}
    init = own.get("__ffi_init__")
    if init is not None:
        schema = function_schema(init.metadata)
        named = schema.named_args if schema is not None else None
        if named is not None and "params" in named:
            params = [annot.schema(p, param=True) for p in named["params"]]
            texts = ["self", *(f"_{i}: {t}" for i, t in enumerate(params))]
            if params:
                texts.append("/")
            defs.append(f"def __init__({', '.join(texts)}) -> None: ...")
        else:
            annot.imports.add(("typing", "Any"))
            defs.append("def __init__(self, *args: Any) -> None: ...")
    elif has_auto_init:
        defs.append(f"def __init__({_init_params(info, annot)}) -> None: ...")
    for method in sorted(info.methods, key=lambda m: m.name):
        if method.name == "__ffi_init__" or not is_name(method.name):
            continue
        schema = function_schema(method.metadata)
        if method.is_static:
            defs += ["@staticmethod", f"def {method.name}{signature(schema, annot, method=False)}: ..."]
        else:
            defs.append(f"def {method.name}{signature(schema, annot, method=True)}: ...")
    body += _guarded(indent, unit, defs, stub)
    body.append(indent + _FMT_ON)
    return body


def import_block(
    imports: set[tuple[str, str]],
    init_func_module: str | None,
    local_names: set[str],
    indent: str,
    unit: str,
    stub: bool,
) -> list[str]:
    """Lines of the ``import-section`` block: what the file's other blocks refer to."""
    by_module: dict[str, set[str]] = {}
    for module, name in imports:
        if name in local_names or name == "TYPE_CHECKING":
            continue
        by_module.setdefault(module, set()).add(name)
    body = [indent + _FMT_OFF, indent + "# isort: off", indent + "from __future__ import annotations"]
    if init_func_module is not None and not stub:
        body.append(f"{indent}from {init_func_module} import init_ffi_api as {INIT_FUNC_ALIAS}")
    lines = [f"from {m} import {', '.join(sorted(by_module[m]))}" for m in sorted(by_module)]
    if stub:
        body += [indent + line for line in lines]
    else:
        body.append(f"{indent}from typing import TYPE_CHECKING")
        body += _guarded(indent, unit, lines, stub)
    body += [indent + "# isort: on", indent + _FMT_ON]
    return body


def all_block(names: list[str], indent: str, unit: str) -> list[str]:
    """Lines of an ``__all__`` block listing the names the file's blocks define."""
    items = [f'{indent}{unit}"{name}",' for name in sorted(set(names))]
    return [indent + _FMT_OFF, f"{indent}__all__ = [", *items, f"{indent}]", indent + _FMT_ON]
