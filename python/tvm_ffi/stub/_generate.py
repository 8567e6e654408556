"""Regenerating the blocks of one source file from the registry."""

from __future__ import annotations

from ._annotate import Import, Imports
from ._markers import SourceFile
from ._model import FuncInfo, is_registered, object_info
from ._render import all_block, export_block, global_block, import_block, object_block


class StubgenError(Exception):
    """A file or the registry cannot be turned into stubs (the message says where and why)."""


def _indented(lines: list[str], indent: int) -> list[str]:
    return [" " * indent + line for line in lines]


def _import_object(source: SourceFile, imports: Imports) -> None:
    """Adds the imports ``import-object`` directives ask for (``name;type-checking only;alias``)."""
    for seg in source.directives("import-object"):
        full_name, tco, alias = ([p.strip() for p in seg.payload.split(";")] + ["", ""])[:3]
        imports.items.append(Import.of(full_name, tco.lower() == "true", alias or None))
        if alias == "_FFI_LOAD_LIB" or full_name.endswith("libinfo.load_lib_module"):
            imports.has_lib_load = True


def regenerate(source: SourceFile, funcs: dict[str, list[FuncInfo]], ty_map: dict[str, str], unit: int) -> None:
    """Rewrite every block of ``source`` in place.

    Parameters
    ----------
    source : SourceFile
        The parsed file; its segments are updated.
    funcs : dict
        Registered global functions by prefix.
    ty_map : dict
        Origin or type key -> dotted name (defaults plus the run's ``ty-map`` directives).
    unit : int
        Spaces per nesting level inside a block.

    Raises
    ------
    StubgenError
        When an ``object/`` block names a type that is not registered (the other blocks are
        regenerated first).
    """
    imports = Imports()
    _import_object(source, imports)
    defined_funcs: set[str] = set()
    defined_types: set[str] = set()
    for block in source.blocks("global"):
        prefix, _, module = block.arg.partition("@")
        found = funcs.get(prefix, [])
        defined_funcs.update(f.name for f in found)
        if found:
            body = global_block(prefix, found, ty_map, imports, module or "tvm_ffi", unit)
            block.replace_body(_indented(body, block.indent))
    unregistered = []
    for block in source.blocks("object"):
        if not is_registered(block.arg):
            unregistered.append(f"object type {block.arg!r} is not registered (line {block.lineno})")
            continue
        defined_types.add(Import.of(ty_map.get(block.arg, block.arg)).full_name)
        body = object_block(object_info(block.arg), ty_map, imports, unit)
        block.replace_body(_indented(body, block.indent))
    for block in source.blocks("import-section")[:1]:
        lines = import_block([i for i in imports.items if i.full_name not in defined_types], unit)
        if lines:
            block.replace_body(lines)
    for block in source.blocks("__all__")[:1]:
        names = defined_funcs | defined_types | ({"LIB"} if imports.has_lib_load else set())
        if names:
            block.replace_body(all_block(names, block.indent))
    for block in source.blocks("export"):
        block.replace_body(export_block(block.arg))
    if unregistered:
        raise StubgenError(f"{source.path}: {'; '.join(unregistered)}; load the libraries with --dlls or "
                           "--imports, or delete the blocks")
