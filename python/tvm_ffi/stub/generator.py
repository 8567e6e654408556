"""The interface a target language's generator implements, and the registry of generators.

The command (:mod:`tvm_ffi.stub.cli`) owns the pipeline: it parses files, collects ``ty-map``
directives, scaffolds packages for ``--init-*`` and walks each file's blocks. Whatever is
language-specific it asks of a :class:`Generator`: the marker syntax and file extensions, the
default type names, the imports a file needs, and the text of every block kind.

A backend is a package whose generator class (a :class:`Generator` subclass, so its methods
share these docs) takes no arguments. It is found by target name and imported the first time
that target is asked for, so a target whose package is absent simply is not offered.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from . import consts as C
from .file_utils import CodeBlock
from .utils import FuncInfo, InitConfig, ObjectInfo, Options

__all__ = ["Generator", "generator_names", "get_generator", "register_generator"]


class Generator(Protocol):
    """What the command needs from a target language's generator.

    Attributes
    ----------
    name : str
        The target's name (``--target``).
    syntax : MarkerSyntax
        The marker syntax of the target's source files.
    source_exts : frozenset of str
        Extensions (with the dot) of the files searched for in directories.
    directive_kinds : frozenset of str
        One-line directives the generator reads (``add_directive``); the command reads
        ``ty-map``, ``prefix`` and ``skip`` itself, and any other directive is an error.
    """

    name: str
    syntax: C.MarkerSyntax
    source_exts: frozenset[str]
    directive_kinds: frozenset[str]

    def default_ty_map(self) -> dict[str, str]:
        """The target's names of schema origins and type keys, before ``ty-map`` directives.

        Returns
        -------
        dict of str to str
            A fresh map the command may extend.
        """
        ...

    def new_imports(self) -> Any:
        """An empty record of what one file must import.

        Returns
        -------
        Any
            The generator's own record; the command passes it back to the other methods.
        """
        ...

    def add_directive(self, imports: Any, name: str, payload: str, lineno: int) -> None:
        """Take in one of the file's directives.

        Parameters
        ----------
        imports : Any
            The file's record from :meth:`new_imports`.
        name : str
            The directive's name (one of ``directive_kinds``).
        payload : str
            What follows its colon, stripped.
        lineno : int
            Its line, for error messages.
        """
        ...

    def canonical_type_name(self, type_key: str) -> str:
        """The name a file that defines the type exports it under.

        Parameters
        ----------
        type_key : str
            A type key, or what ``ty-map`` maps it to.

        Returns
        -------
        str
            The name ``__all__`` and ``import-section`` compare with.
        """
        ...

    def extra_export_names(self, imports: Any) -> set[str]:
        """Names the ``__all__`` block lists beyond the file's functions and types.

        Parameters
        ----------
        imports : Any
            The file's record from :meth:`new_imports`.

        Returns
        -------
        set of str
            The extra names.
        """
        ...

    def is_builtin(self, type_key: str) -> bool:
        """Whether the target's runtime binds the type itself (no class is generated for it).

        Parameters
        ----------
        type_key : str
            A type key.

        Returns
        -------
        bool
            True for a built-in type.
        """
        ...

    def check_view(self, code_blocks: list[CodeBlock]) -> object:
        """What ``--check`` compares before and after a run.

        Parameters
        ----------
        code_blocks : list of CodeBlock
            A file's pieces.

        Returns
        -------
        object
            A comparable value; equal before and after means the file is up to date.
        """
        ...

    def generate_global_funcs_block(self, code: CodeBlock, global_funcs: list[FuncInfo], ty_map: dict[str, str],
                                    imports: Any, opt: Options) -> None:
        """Rewrite a ``global/<prefix>`` block's lines to declare the prefix's functions.

        Parameters
        ----------
        code : CodeBlock
            The block.
        global_funcs : list of FuncInfo
            The registered functions of the prefix.
        ty_map : dict of str to str
            Origin or type key -> the target's name.
        imports : Any
            The file's record from :meth:`new_imports`.
        opt : Options
            The command's options.
        """
        ...

    def generate_object_block(self, code: CodeBlock, ty_map: dict[str, str], imports: Any, opt: Options,
                              obj_info: ObjectInfo, declared: Mapping[str, Path]) -> None:
        """Rewrite an ``object/<type key>`` block's lines to declare the type.

        Parameters
        ----------
        code : CodeBlock
            The block.
        ty_map : dict of str to str
            Origin or type key -> the target's name.
        imports : Any
            The file's record from :meth:`new_imports`.
        opt : Options
            The command's options.
        obj_info : ObjectInfo
            The type's reflection.
        declared : Mapping of str to Path
            Every ``object/`` block of the run: type key -> its file.
        """
        ...

    def generate_import_section_block(self, code: CodeBlock, imports: Any, opt: Options,
                                      defined_types: set[str]) -> None:
        """Rewrite the ``import-section`` block from what the other blocks recorded.

        Parameters
        ----------
        code : CodeBlock
            The block.
        imports : Any
            The file's record from :meth:`new_imports`.
        opt : Options
            The command's options.
        defined_types : set of str
            Canonical names of the types the file defines itself (not imported).
        """
        ...

    def generate_all_block(self, code: CodeBlock, names: set[str], opt: Options) -> None:
        """Rewrite the ``__all__`` block to list ``names``.

        Parameters
        ----------
        code : CodeBlock
            The block.
        names : set of str
            The file's functions, types and extra names.
        opt : Options
            The command's options.
        """
        ...

    def generate_export_block(self, code: CodeBlock) -> None:
        """Rewrite an ``export/<submodule>`` block to re-export the submodule.

        Parameters
        ----------
        code : CodeBlock
            The block.
        """
        ...

    def generate_helpers_block(self, code: CodeBlock, opt: Options) -> None:
        """Rewrite a block of the target's helper code (nothing where the target has none).

        Parameters
        ----------
        code : CodeBlock
            The block.
        opt : Options
            The command's options.
        """
        ...

    def api_filename(self) -> str:
        """The file ``--init`` writes a prefix's declarations to.

        Returns
        -------
        str
            A file name (``_ffi_api.py`` for Python).
        """
        ...

    def init_filename(self) -> str:
        """The file ``--init`` writes a package's entry to.

        Returns
        -------
        str
            A file name (``__init__.py`` for Python).
        """
        ...

    def generate_api_file(self, code_blocks: list[CodeBlock], ty_map: dict[str, str], module_name: str,
                          object_infos: list[ObjectInfo], init_cfg: InitConfig, is_root: bool) -> str:
        """The text ``--init`` appends to a prefix's API file.

        Parameters
        ----------
        code_blocks : list of CodeBlock
            The file's pieces as it is (empty for a new file).
        ty_map : dict of str to str
            Type key -> the target's name.
        module_name : str
            The prefix.
        object_infos : list of ObjectInfo
            The types that need a declaration, parents first.
        init_cfg : InitConfig
            The ``--init-*`` flags.
        is_root : bool
            Whether the prefix is ``--init-prefix`` itself (it loads the library).

        Returns
        -------
        str
            The text to append (``""`` when nothing is missing).
        """
        ...

    def generate_init_file(self, code_blocks: list[CodeBlock], module_name: str, submodule: str) -> str:
        """The text ``--init`` appends to a package's entry file.

        Parameters
        ----------
        code_blocks : list of CodeBlock
            The file's pieces as it is (empty for a new file).
        module_name : str
            The package.
        submodule : str
            The API module, named after :meth:`api_filename`.

        Returns
        -------
        str
            The text to append (``""`` when nothing is missing).
        """
        ...

    def finalize_init(self, init_path: Path, generated_prefixes: set[str]) -> None:
        """Wire the scaffolded tree together once every file is written.

        Parameters
        ----------
        init_path : Path
            The root of the scaffolded tree.
        generated_prefixes : set of str
            The prefixes that got files.
        """
        ...


# Target name -> (backend module, generator class), imported on first use.
_BACKENDS: dict[str, tuple[str, str]] = {
    "python": ("tvm_ffi.stub.python_generator", "PythonGenerator"),
    "rust": ("tvm_ffi.stub.rust_generator", "RustGenerator"),
}
# Generators made so far (one per target) and factories registered at run time.
_GENERATORS: dict[str, Generator] = {}
_FACTORIES: dict[str, Callable[[], Generator]] = {}


def register_generator(name: str, factory: Callable[[], Generator]) -> None:
    """Offer a target beyond the built-in ones (or replace one).

    Parameters
    ----------
    name : str
        The target's name, as ``--target`` takes it.
    factory : callable
        Makes the generator; called once, on first use.
    """
    _FACTORIES[name] = factory
    _GENERATORS.pop(name, None)


def _available(name: str) -> bool:
    """Whether the target's backend is registered or its package is installed."""
    if name in _FACTORIES or name in _GENERATORS:
        return True
    module = _BACKENDS[name][0]
    return importlib.util.find_spec(module) is not None


def generator_names() -> list[str]:
    """The targets whose generator can be made, sorted.

    Returns
    -------
    list of str
        Target names (``python`` always).
    """
    return sorted(name for name in {*_BACKENDS, *_FACTORIES} if _available(name))


def get_generator(target: str) -> Generator:
    """The generator of a target language (made once, then shared).

    Parameters
    ----------
    target : str
        The target's name (``python``, ``rust``).

    Returns
    -------
    Generator
        Its generator.

    Raises
    ------
    ValueError
        When no backend of that name is registered or installed.
    """
    if target in _GENERATORS:
        return _GENERATORS[target]
    if target not in _FACTORIES and not (target in _BACKENDS and _available(target)):
        raise ValueError(f"Unknown stubgen generator: {target!r}. Known generators: {', '.join(generator_names())}")
    if target in _FACTORIES:
        generator = _FACTORIES[target]()
    else:
        module, cls = _BACKENDS[target]
        generator = getattr(importlib.import_module(module), cls)()
    _GENERATORS[target] = generator
    return generator
