"""Rust text of the marked blocks: objects, the import section, file scaffolds, the module tree.

Each reflected object becomes a ``#[repr(C)]`` object struct ``<Leaf>Obj``, a reference
wrapper ``<Leaf>`` (``ObjectArc<<Leaf>Obj>``) that dereferences to it, and upcasts to
the wrappers of its ancestors. What the object struct holds depends on whether the
reflected byte facts prove its C++ layout (see :mod:`._layout`):

- *complete*: every field is a public member at its real offset and width, the size and
  alignment are asserted at compile time, and allocators build the object from its fields;
- *opaque*: only the parent is embedded, and each field has a getter going through the
  C ABI (``FieldGetter``); nothing allocates it.

A builtin parent (``ffi.IntEnum``) has no struct in the crate: the import section defines
a header-only stand-in per builtin ancestor so ``derive(Object)`` computes the registry's
depth, and a type under one stays opaque. Every type key a block refers to must be
provided by the crate, a ``ty-map``, or an ``object/`` block of the run; else the block
is refused with the list of missing keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from .. import consts as C
from ..file_utils import CodeBlock
from ..layout import Verdict, classify
from ..lib_state import object_info_from_type_key
from ..utils import InitConfig, NamedTypeSchema, ObjectInfo, Options
from . import consts as C_RUST
from ._allocators import allocator_sections, subtype_support_sections
from ._fields import accessor_lines, allow_non_snake_case, enum_lines, field_mirror
from ._names import CRATE, Naming
from .utils import RustImports, builtin_mirror_name, rust_ident


def _lookup(type_key: str) -> ObjectInfo:
    # Read the module global at call time, so a replaced registry lookup is honoured.
    return object_info_from_type_key(type_key)


def _verdict(naming: Naming) -> Verdict:
    """Judge the object's layout together with its ancestors, under the file's directives."""
    info = naming.info
    infos = {key: _lookup(key) for key in info.ancestors}
    infos[naming.type_key] = info
    scratch = RustImports()  # what mirrors would import is recorded for real later
    # A field's mirror depends on its owner (directives name `<type_key>.<field>`).
    owner_of = {id(field): key for key, each in infos.items() for field in each.fields}

    def renderable(field: NamedTypeSchema) -> bool:
        return field_mirror(naming, owner_of[id(field)], field, scratch) is not None

    # Builtin ancestors are the crate's own types: their bytes are never mirrored here.
    builtins = {
        key
        for key in info.ancestors
        if key != C_RUST.RUST_ROOT_TYPE_KEY and naming.provider(key) == CRATE
    }
    verdicts = classify(
        infos,
        forced_opaque=naming.imports.directives.opaque,
        unmirrored=builtins,
        field_renderable=renderable,
    )
    return verdicts[naming.type_key]


def _struct_lines(naming: Naming, verdict: Verdict, base: str) -> list[str]:
    """The object struct: all members when complete, the parent alone when opaque."""
    info = naming.info
    header = [
        "#[repr(C)]",
        "#[derive(tvm_ffi::derive::Object)]",
        f'#[type_key = "{naming.type_key}"]',
        *(["#[type_final]"] if info.is_final else []),
        f"pub struct {naming.obj_struct} {{",
        f"    base: {base},",
    ]
    if not verdict.is_complete:
        doc = f"/// Opaque: {verdict.detail}. Fields are read through the C ABI getters."
        return [doc, *header, "}"]
    members = []
    for field in sorted(info.fields, key=lambda f: f.offset or 0):
        mirror = field_mirror(naming, naming.type_key, field, naming.imports)
        assert mirror is not None, "the verdict already asked for every mirror"
        members.append(f"    pub {rust_ident(field.name)}: {mirror},")
    struct = naming.obj_struct
    return [
        f"/// Complete: {verdict.detail}.",
        *allow_non_snake_case(rust_ident(f.name) for f in info.fields),
        *header,
        *members,
        "}",
        "",
        "const _: () = {",
        f"    assert!(::core::mem::size_of::<{struct}>() == {verdict.total_size});",
        f"    assert!(::core::mem::align_of::<{struct}>() == {verdict.alignment});",
        "};",
    ]


def _deref_lines(source: str, target: str) -> list[str]:
    return [
        f"impl Deref for {source} {{",
        f"    type Target = {target};",
        f"    fn deref(&self) -> &{target} {{",
        "        &self.base",
        "    }",
        "}",
    ]


def _object_sections(naming: Naming) -> list[list[str]]:
    """The sections of an object block, in order; the order of recording imports matters
    (the first path to claim a leaf keeps it), so it follows the order of the text."""
    imports, info = naming.imports, naming.info
    imports.reserved.update((naming.leaf, naming.obj_struct))
    verdict = _verdict(naming)
    imports.record("std::ops::Deref")
    imports.record("tvm_ffi::ObjectArc")
    base, has_parent = naming.base_type()
    getters = bool(info.fields) and not verdict.is_complete
    if getters:
        imports.record("tvm_ffi::ObjectCore")  # `Self::type_index()`
        imports.record("tvm_ffi::FieldGetter")
        imports.record("tvm_ffi::Result")
    enums = imports.directives.enums
    sections = [
        enum_lines(naming, enums[f"{naming.type_key}.{f.name}"])
        for f in info.fields
        if f"{naming.type_key}.{f.name}" in enums
    ]
    sections.append(_struct_lines(naming, verdict, base))
    sections.append(
        [
            "#[repr(C)]",
            # Derive macros are spelled by full path: their leaves collide with the crate's types.
            "#[derive(tvm_ffi::derive::ObjectRef, Clone)]",
            f"pub struct {naming.leaf} {{",
            f"    base: ObjectArc<{naming.obj_struct}>,",
            "}",
        ]
    )
    sections.append(_deref_lines(naming.leaf, naming.obj_struct))
    if has_parent:
        sections.append(_deref_lines(naming.obj_struct, base))
    if getters:
        body: list[str] = []
        for i, field in enumerate(info.fields):
            body += [""] if i else []
            body += accessor_lines(naming, field)
        indented = [f"    {line}" if line else "" for line in body]
        sections.append([f"impl {naming.obj_struct} {{", *indented, "}"])
    elif verdict.is_complete:
        sections += allocator_sections(naming, base, has_parent)
        sections += subtype_support_sections(naming)
    targets = naming.upcast_targets()
    if targets:
        pairs = ", ".join(f"{naming.leaf} => {target}" for target in targets)
        sections.append([f"tvm_ffi::impl_object_upcast!({pairs});"])
    return sections


def _fill_block(code: CodeBlock, body: list[str]) -> None:
    """Put ``body`` between the block's markers, at the begin marker's indentation."""
    indent = " " * code.indent
    code.lines = [code.lines[0], *(indent + line if line else "" for line in body), code.lines[-1]]


def generate_rust_object(
    code: CodeBlock,
    ty_map: dict[str, str],
    imports: RustImports,
    opt: Options,
    obj_info: ObjectInfo,
    declared: Mapping[str, tuple[str, ...]],
) -> None:
    """Fill an ``object/<type_key>`` block with the Rust binding of ``obj_info``.

    Parameters
    ----------
    code : CodeBlock
        The block; its lines are replaced between the markers.
    ty_map : dict of str to str
        FFI origin or type key -> Rust type (defaults and ``ty-map`` directives).
    imports : RustImports
        The file's collector: its directives are applied, what the text needs is recorded.
    opt : Options
        The run's options (accepted for the generator protocol).
    obj_info : ObjectInfo
        The object to bind.
    declared : mapping of str to tuple of str
        Each type key with an ``object/`` block in the run, ``obj_info``'s among them, ->
        the module of the file that block is in.

    Raises
    ------
    ValueError
        When the binding refers to type keys the run does not provide, or a directive
        disagrees with the reflected bytes (:class:`~tvm_ffi.stub.utils.DirectiveError`).
    """
    del opt
    assert obj_info.type_key is not None and len(code.lines) >= 2
    naming = Naming(
        info=obj_info,
        imports=imports,
        ty_map=ty_map,
        module=declared[obj_info.type_key],
        declared=declared,
        lookup=_lookup,
    )
    sections = _object_sections(naming)
    if naming.missing:
        keys = ", ".join(f"`{key}`" for key in sorted(naming.missing))
        raise ValueError(
            f"`{obj_info.type_key}` (line {code.lineno_start}) depends on {keys}, which this run "
            "does not ask for: add an `object/<key>` block or a `ty-map` directive for each"
        )
    body: list[str] = []
    for i, section in enumerate(sections):
        body += [""] if i else []
        body += section
    _fill_block(code, body)


def _builtin_mirror_lines(type_key: str, base: str) -> list[str]:
    return [
        f"/// Header-only stand-in for the builtin `{type_key}`; it only carries the ancestor depth.",
        "#[allow(dead_code)]",
        "#[repr(C)]",
        "#[derive(tvm_ffi::derive::Object)]",
        f'#[type_key = "{type_key}"]',
        f"struct {builtin_mirror_name(type_key)} {{",
        f"    base: {base},",
        "}",
    ]


def generate_rust_import_section(
    code: CodeBlock, imports: RustImports, opt: Options, defined_types: set[str]
) -> None:
    """Fill an ``import-section`` block: the ``use`` lines, then the builtin stand-ins.

    Parameters
    ----------
    code : CodeBlock
        The block; its lines are replaced between the markers.
    imports : RustImports
        The file's collector, after its other blocks were generated.
    opt : Options
        The run's options (accepted for the generator protocol).
    defined_types : set of str
        Paths the file defines itself: never imported.
    """
    del opt
    assert len(code.lines) >= 2
    uses = {item.as_use_line() for item in imports.items if item.path not in defined_types}
    body = sorted(uses)
    for type_key, base in imports.builtin_mirrors.items():
        body += ["", *_builtin_mirror_lines(type_key, base)]
    _fill_block(code, body)


def generate_rust_api_file(
    code_blocks: list[CodeBlock],
    ty_map: dict[str, str],
    module_name: str,
    object_infos: list[ObjectInfo],
    init_cfg: InitConfig,
    is_root: bool,
    syntax: C.MarkerSyntax,
) -> str:
    """The text ``--init`` appends to a module's Rust file: header, import section, object blocks.

    Parameters
    ----------
    code_blocks : list of CodeBlock
        The file's blocks so far (empty for a new file, which also gets the header).
    ty_map : dict of str to str
        The type map (unused: every module is one file).
    module_name : str
        The module's prefix (``testing``).
    object_infos : list of ObjectInfo
        The module's objects, parents first.
    init_cfg : InitConfig
        The ``--init-*`` flags (unused).
    is_root : bool
        Whether it is the top module (unused).
    syntax : MarkerSyntax
        The marker texts.

    Returns
    -------
    str
        The text to append: what the file lacks, empty blocks to be filled by the run.
    """
    del ty_map, init_cfg, is_root
    text = ""
    if not code_blocks:
        text += "#![allow(dead_code, unused_imports)]\n"
        text += f"\n//! FFI bindings for `{module_name}` (generated by tvm-ffi-stubgen).\n\n"
    if all(block.kind != "import-section" for block in code_blocks):
        text += f"{syntax.begin} import-section\n{syntax.end}\n\n"
    present = {block.param for block in code_blocks if block.kind == "object"}
    for info in object_infos:
        if info.type_key is not None and info.type_key not in present:
            text += f"{syntax.begin} object/{info.type_key}\n{syntax.end}\n\n"
    return text


def finalize_rust_module_tree(init_path: Path, prefixes: set[str]) -> None:
    """Declare each generated module with ``pub mod`` in its parent's ``mod.rs``.

    A missing ``mod.rs`` is created, an existing one only gets the lines it lacks; the
    user mounts ``init_path`` itself with one ``mod`` line.

    Parameters
    ----------
    init_path : Path
        The folder the modules were generated under.
    prefixes : set of str
        The generated prefixes (``tirx.transform`` is ``tirx/transform/mod.rs``).
    """
    children: dict[Path, set[str]] = {}
    for prefix in prefixes:
        segments = [segment for segment in prefix.split(".") if segment]
        for depth, segment in enumerate(segments):
            children.setdefault(init_path.joinpath(*segments[:depth]), set()).add(segment)
    for folder, names in children.items():
        folder.mkdir(parents=True, exist_ok=True)
        mod_rs = folder / "mod.rs"
        text = mod_rs.read_text(encoding="utf-8") if mod_rs.exists() else ""
        lines = [f"pub mod {name};" for name in sorted(names)]
        new = [line for line in lines if line not in text]
        if not new:
            continue
        if text and not text.endswith("\n"):
            text += "\n"
        if text.strip():
            text += "\n"  # a blank line between hand-written text and the declarations
        mod_rs.write_text(text + "\n".join(new) + "\n", encoding="utf-8")
