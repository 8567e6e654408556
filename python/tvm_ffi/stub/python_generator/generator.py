"""``PythonGenerator``: the Python target the ``tvm-ffi-stubgen`` command drives.

It implements the generator interface of :mod:`tvm_ffi.stub.generator` (structurally: this
module does not import it) by handing each block to :mod:`.codegen`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from .. import consts as C
from ..file_utils import CodeBlock
from ..generator import Generator
from ..utils import DirectiveError, FuncInfo, InitConfig, ObjectInfo, Options
from .codegen import (
    generate_python_all,
    generate_python_export,
    generate_python_ffi_api,
    generate_python_global_funcs,
    generate_python_import_section,
    generate_python_init,
    generate_python_object,
)
from .consts import TY_MAP_DEFAULTS
from .utils import ImportItem, PythonImports

__all__ = ["PythonGenerator"]

_LOAD_LIB = "tvm_ffi.libinfo.load_lib_module"
_LOAD_LIB_ALIAS = "_FFI_LOAD_LIB"


class PythonGenerator(Generator):
    """Generates typed Python declarations inside ``.py`` and ``.pyi`` files.

    Attributes
    ----------
    name : str
        ``"python"``.
    syntax : MarkerSyntax
        ``#`` comments.
    source_exts : frozenset of str
        ``.py`` and ``.pyi``.
    directive_kinds : frozenset of str
        ``import-object``: ``<module.name>;<type-checking only>;<alias>``.
    """

    name = "python"
    syntax = C.PYTHON_SYNTAX
    source_exts = frozenset({".py", ".pyi"})
    directive_kinds = frozenset({"import-object"})

    def default_ty_map(self) -> dict[str, str]:
        # A fresh copy of the default type names.
        return dict(TY_MAP_DEFAULTS)

    def new_imports(self) -> PythonImports:
        # An empty record of one file's imports.
        return PythonImports()

    def add_directive(self, imports: PythonImports, name: str, payload: str, lineno: int) -> None:
        # Take in an ``import-object`` directive: ``<module.name>[;<bool>[;<alias>]]``.
        if name not in self.directive_kinds:
            raise DirectiveError(f"Unknown directive `{name}` at line {lineno}")
        full_name, type_checking_only, alias = ([part.strip() for part in payload.split(";")] + ["", ""])[:3]
        if not full_name:
            raise DirectiveError(f"import-object directive at line {lineno} must read "
                                 "'import-object): <module.name>;<bool>;<alias>'")
        imports.items.append(ImportItem(full_name, type_checking_only.lower() == "true", alias or None))
        if alias == _LOAD_LIB_ALIAS or full_name == _LOAD_LIB:
            imports.has_lib_load = True

    def canonical_type_name(self, type_key: str) -> str:
        # The dotted name a type is defined under (module renames applied).
        return ImportItem(type_key).full_name

    def extra_export_names(self, imports: PythonImports) -> set[str]:
        # ``LIB`` when the file loads its library.
        return {"LIB"} if imports.has_lib_load else set()

    def is_builtin(self, type_key: str) -> bool:
        # Whether ``tvm_ffi`` binds the type itself.
        return type_key in C.BUILTIN_TYPE_KEYS

    def check_view(self, code_blocks: list[CodeBlock]) -> tuple[str, ...]:
        # The whole text, as ``--check`` compares it.
        return tuple(line for block in code_blocks for line in block.lines)

    def generate_global_funcs_block(self, code: CodeBlock, global_funcs: list[FuncInfo], ty_map: dict[str, str],
                                    imports: PythonImports, opt: Options) -> None:
        # Fill a ``global/`` block (see :func:`.codegen.generate_python_global_funcs`).
        generate_python_global_funcs(code, global_funcs, ty_map, imports.items, opt)

    def generate_object_block(self, code: CodeBlock, ty_map: dict[str, str], imports: PythonImports, opt: Options,
                              obj_info: ObjectInfo, declared: Mapping[str, Path]) -> None:
        # Fill an ``object/`` block (see :func:`.codegen.generate_python_object`).
        generate_python_object(code, ty_map, imports.items, opt, obj_info)

    def generate_import_section_block(self, code: CodeBlock, imports: PythonImports, opt: Options,
                                      defined_types: set[str]) -> None:
        # Fill the ``import-section`` block, leaving out the file's own types.
        items = [item for item in imports.items if item.full_name not in defined_types]
        generate_python_import_section(code, items, opt)

    def generate_all_block(self, code: CodeBlock, names: set[str], opt: Options) -> None:
        # Fill the ``__all__`` block (see :func:`.codegen.generate_python_all`).
        generate_python_all(code, names, opt)

    def generate_export_block(self, code: CodeBlock) -> None:
        # Fill an ``export/`` block (see :func:`.codegen.generate_python_export`).
        generate_python_export(code)

    def generate_helpers_block(self, code: CodeBlock, opt: Options) -> None:
        # Leave the block as it is: Python stubs need no helper code.
        return None

    def api_filename(self) -> str:
        # The file a prefix's declarations are scaffolded in.
        return "_ffi_api.py"

    def init_filename(self) -> str:
        # The package entry file ``--init`` scaffolds.
        return "__init__.py"

    def generate_api_file(self, code_blocks: list[CodeBlock], ty_map: dict[str, str], module_name: str,
                          object_infos: list[ObjectInfo], init_cfg: InitConfig, is_root: bool) -> str:
        # The text to append to a prefix's ``_ffi_api.py`` (see :func:`.codegen.generate_python_ffi_api`).
        return generate_python_ffi_api(code_blocks, ty_map, module_name, object_infos, init_cfg, is_root,
                                       self.syntax)

    def generate_init_file(self, code_blocks: list[CodeBlock], module_name: str, submodule: str) -> str:
        # The text to append to a package's ``__init__.py`` (see :func:`.codegen.generate_python_init`).
        return generate_python_init(code_blocks, module_name, submodule, self.syntax)

    def finalize_init(self, init_path: Path, generated_prefixes: set[str]) -> None:
        # Do nothing: each scaffolded Python package is complete on its own.
        return None
