"""The Rust target of ``tvm-ffi-stubgen`` (``--target rust``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .. import consts as C
from ..file_utils import CodeBlock
from ..generator import Generator
from ..utils import FuncInfo, InitConfig, ObjectInfo, Options
from . import consts as C_RUST
from .codegen import (
    finalize_rust_module_tree,
    generate_rust_api_file,
    generate_rust_import_section,
    generate_rust_object,
)
from .utils import RustImports, RustUse, check_tokens, is_crate_type_key, rust_module_path


class _ModulesOfFiles(Mapping[str, tuple[str, ...]]):
    """Type key -> the Rust module of the file its ``object/`` block is in.

    Worked out on first use and remembered: a file outside any crate only fails the run when a
    type that file declares is actually referred to.
    """

    def __init__(self, files: Mapping[str, Path]) -> None:
        self._file_of = files
        self._module_of: dict[str, tuple[str, ...]] = {}

    def __getitem__(self, type_key: str) -> tuple[str, ...]:
        if type_key not in self._module_of:
            self._module_of[type_key] = rust_module_path(self._file_of[type_key])
        return self._module_of[type_key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._file_of)

    def __len__(self) -> int:
        return len(self._file_of)


class RustGenerator(Generator):
    """Writes Rust bindings of reflected objects for the ``tvm_ffi`` crate (see :mod:`.codegen`).

    Global functions are not bound: Rust code reaches them through ``cached_global_func!``.
    """

    name = "rust"
    syntax = C.RUST_SYNTAX
    source_exts = frozenset({".rs"})
    directive_kinds = C_RUST.RUST_DIRECTIVE_KINDS

    def default_ty_map(self) -> dict[str, str]:
        # The default FFI origin -> Rust type map (a fresh copy).
        return dict(C_RUST.RUST_TY_MAP_DEFAULTS)

    def new_imports(self) -> RustImports:
        # An empty collector for one file.
        return RustImports()

    def add_directive(self, imports: RustImports, name: str, payload: str, lineno: int) -> None:
        # Record one directive of the file.
        if name != "import-object":
            imports.directives.add(name, payload, lineno)
            return
        path, _, _ = payload.partition(";")  # `path;is_type;alias`: Rust needs the path alone
        imports.record(path.strip())

    def canonical_type_name(self, type_key: str) -> str:
        # The path a type key defined in a file is compared by (as :attr:`RustUse.path`).
        return RustUse(type_key).path

    def extra_export_names(self, imports: RustImports) -> set[str]:
        # No export list is generated for Rust.
        return set()

    def is_builtin(self, type_key: str) -> bool:
        # Whether the crate binds ``type_key`` (every ``ffi.*`` key): it gets no block.
        return is_crate_type_key(type_key)

    def check_view(self, code_blocks: list[CodeBlock]) -> dict[tuple[str, Any], tuple[str, ...]]:
        # What ``--check`` compares: the definitions of the object blocks and import section.
        view: dict[tuple[str, Any], tuple[str, ...]] = {}
        for code in code_blocks:
            if code.kind in ("object", "import-section"):
                tokens = check_tokens(code.lines[1:-1])
                if tokens:  # `use` lines alone define nothing
                    view[code.kind, code.param] = tokens
        return view

    def generate_global_funcs_block(
        self,
        code: CodeBlock,
        global_funcs: list[FuncInfo],
        ty_map: dict[str, str],
        imports: RustImports,
        opt: Options,
    ) -> None:
        # Leave a ``global/`` block as it is: global functions get no Rust bindings.
        return None

    def generate_object_block(
        self,
        code: CodeBlock,
        ty_map: dict[str, str],
        imports: RustImports,
        opt: Options,
        obj_info: ObjectInfo,
        declared: Mapping[str, Path],
    ) -> None:
        # Fill an ``object/`` block (see :func:`~.codegen.generate_rust_object`).
        generate_rust_object(code, ty_map, imports, opt, obj_info, _ModulesOfFiles(declared))

    def generate_import_section_block(
        self, code: CodeBlock, imports: RustImports, opt: Options, defined_types: set[str]
    ) -> None:
        # Fill the ``import-section`` block (see :func:`~.codegen.generate_rust_import_section`).
        generate_rust_import_section(code, imports, opt, defined_types)

    def generate_all_block(self, code: CodeBlock, names: set[str], opt: Options) -> None:
        # Leave an ``__all__`` block as it is: Rust has no export list.
        return None

    def generate_export_block(self, code: CodeBlock) -> None:
        # Leave an ``export/`` block as it is: re-exports are not generated.
        return None

    def generate_helpers_block(self, code: CodeBlock, opt: Options) -> None:
        # Nothing to do: the bindings need no per-file helpers.
        return None

    def api_filename(self) -> str:
        # The file ``--init`` writes per module prefix.
        return "mod.rs"

    def init_filename(self) -> str:
        # The module entry file, the same as the API file for Rust.
        return "mod.rs"

    def generate_api_file(
        self,
        code_blocks: list[CodeBlock],
        ty_map: dict[str, str],
        module_name: str,
        object_infos: list[ObjectInfo],
        init_cfg: InitConfig,
        is_root: bool,
    ) -> str:
        # The scaffold ``--init`` appends to a module's file (see :func:`~.codegen.generate_rust_api_file`).
        return generate_rust_api_file(
            code_blocks, ty_map, module_name, object_infos, init_cfg, is_root, self.syntax
        )

    def generate_init_file(
        self, code_blocks: list[CodeBlock], module_name: str, submodule: str
    ) -> str:
        # Nothing: the API file is the module's entry.
        return ""

    def finalize_init(self, init_path: Path, generated_prefixes: set[str]) -> None:
        # Declare the generated modules with ``pub mod`` lines (see :func:`~.codegen.finalize_rust_module_tree`).
        finalize_rust_module_tree(init_path, generated_prefixes)
