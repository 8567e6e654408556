"""``--init-*``: scaffold ``_ffi_api.py`` and ``__init__.py`` for every prefix of a library.

For each prefix under ``--init-prefix`` that has registered functions or object types not yet
declared by a block of the run, the directory ``<root>/<prefix as path>`` gets (or has appended)
an ``_ffi_api.py`` with an import section, the library loader (root prefix only), a
``global/<prefix>`` block, one ``@register_object`` class with an ``object/<key>`` block per
type (parents first) and an ``__all__``; and an ``__init__.py`` re-exporting it. The normal
pass then fills the blocks. The text is the reference tool's, so both tools agree on it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from ._markers import BEGIN, END, PREFIX, SourceFile
from ._model import BUILTIN_TYPE_KEYS, FuncInfo, ObjectInfo, collect_type_keys, toposort


@dataclasses.dataclass
class InitConfig:
    """The three ``--init-*`` flags.

    Attributes
    ----------
    pkg : str
        The distribution name (``pip install`` name) the loader searches.
    lib : str
        The CMake target of the shared library (``lib<lib>.so``).
    prefix : str
        Only functions and types under this prefix get files, e.g. ``my_ext.``.
    """

    pkg: str
    lib: str
    prefix: str


def _import_object(full_name: str, alias: str) -> str:
    return f"{PREFIX}import-object): {full_name};False;{alias}\n"


def _class_text(info: ObjectInfo, parent_name: str) -> str:
    name = info.type_key.rsplit(".", 1)[-1]
    return (f'@_FFI_REG_OBJ("{info.type_key}")\nclass {name}({parent_name}):\n'
            f'    """FFI binding for `{info.type_key}`."""\n\n'
            f"    {BEGIN} object/{info.type_key}\n    {END}\n\n")


def api_text(existing: SourceFile | None, prefix: str, objects: list[ObjectInfo], cfg: InitConfig,
             is_root: bool, ty_map: dict[str, str]) -> str:
    """The text to append to a prefix's ``_ffi_api.py``.

    Parameters
    ----------
    existing : SourceFile or None
        The file as it is (None when it does not exist yet).
    prefix : str
        The prefix the file is for.
    objects : list of ObjectInfo
        The types that need a class, parents first.
    cfg : InitConfig
        The ``--init-*`` flags.
    is_root : bool
        Whether this is the ``--init-prefix`` package itself (it loads the library).
    ty_map : dict
        Type key -> dotted name.

    Returns
    -------
    str
        The text to append.
    """
    kinds = {s.kind for s in existing.segments} if existing else set()
    text = "" if existing and existing.original else f'"""FFI API bindings for {prefix}."""\n'
    if "import-section" not in kinds:
        text += f"\n{BEGIN} import-section\n{END}\n"
    if is_root:
        text += _import_object("tvm_ffi.libinfo.load_lib_module", "_FFI_LOAD_LIB")
        text += f'LIB = _FFI_LOAD_LIB("{cfg.pkg}", "{cfg.lib}")\n'
    if "global" not in kinds:
        text += f"{BEGIN} global/{prefix}\n{END}\n"
    if objects:
        text += _import_object("tvm_ffi.register_object", "_FFI_REG_OBJ")
    defined = {ty_map.get(o.type_key, o.type_key) for o in objects}
    for info in objects:
        parent = info.parent_type_key
        parent = ty_map.get(parent, parent) if parent else None
        parent_name = parent.rsplit(".", 1)[-1] if parent else "Object"
        if parent and parent not in defined:
            parent_name = "_" + parent.replace(".", "_")
            text += _import_object(parent, parent_name)
        text += _class_text(info, parent_name)
    if "__all__" not in kinds:
        text += f"\n__all__ = [\n    {BEGIN} __all__\n    {END}\n]\n"
    return text


def init_text(existing: SourceFile | None, prefix: str, submodule: str) -> str:
    """The text to append to a prefix's ``__init__.py`` (empty when it re-exports already).

    Parameters
    ----------
    existing : SourceFile or None
        The file as it is (None when it does not exist yet).
    prefix : str
        The prefix (package) name.
    submodule : str
        The API module to re-export, ``_ffi_api``.

    Returns
    -------
    str
        The text to append.
    """
    block = f"\n{BEGIN} export/{submodule}\n{END}\n"
    if existing is None or not existing.original:
        return f'"""Package {prefix}."""\n' + block
    return "" if any(s.kind == "export" for s in existing.segments) else block


def plan(cfg: InitConfig, funcs: dict[str, list[FuncInfo]],
         sources: list[SourceFile]) -> list[tuple[str, list[ObjectInfo]]]:
    """The prefixes that get files, with the types each must define.

    Parameters
    ----------
    cfg : InitConfig
        The ``--init-*`` flags.
    funcs : dict
        Registered global functions by prefix.
    sources : list of SourceFile
        The run's files: prefixes and types their blocks declare already are left out.

    Returns
    -------
    list of (str, list of ObjectInfo)
        Prefix and its new types, for each prefix with something new.
    """
    declared_prefixes = {s.arg.partition("@")[0] for src in sources for s in src.blocks("global")}
    declared_types = {s.arg for src in sources for s in src.blocks("object")}
    skipped = {s.payload for src in sources for s in src.directives("skip")}
    wanted = cfg.prefix.strip()
    if wanted and not wanted.endswith("."):
        wanted += "."
    root = wanted.rstrip(".")
    prefixes = collect_type_keys()
    for prefix in funcs:
        prefixes.setdefault(prefix, [])
    result = []
    for prefix, keys in sorted(prefixes.items()):
        if prefix != root and not prefix.startswith(wanted):
            continue
        new_funcs = [] if prefix in declared_prefixes else funcs.get(prefix, [])
        new_keys = sorted(k for k in set(keys) - declared_types - skipped if k not in BUILTIN_TYPE_KEYS)
        if new_funcs or new_keys:
            result.append((prefix, toposort(new_keys)))
    return result


def scaffold(root_dir: Path, prefix: str, objects: list[ObjectInfo], cfg: InitConfig,
             ty_map: dict[str, str], parse: Callable[[Path], SourceFile | None]) -> list[Path]:
    """Write (append to) the two files of ``prefix`` under ``root_dir``.

    Parameters
    ----------
    root_dir : Path
        The directory the package tree starts at.
    prefix : str
        The prefix; ``a.b`` goes to ``root_dir/a/b``.
    objects : list of ObjectInfo
        The types that need a class.
    cfg : InitConfig
        The ``--init-*`` flags.
    ty_map : dict
        Type key -> dotted name.
    parse : Callable[[Path], SourceFile or None]
        Reads an existing file.

    Returns
    -------
    list of Path
        The two files.
    """
    directory = root_dir / prefix.replace(".", "/")
    directory.mkdir(parents=True, exist_ok=True)
    api, init = directory / "_ffi_api.py", directory / "__init__.py"
    is_root = prefix == cfg.prefix.strip().rstrip(".")
    with api.open("a", encoding="utf-8") as f:
        f.write(api_text(parse(api), prefix, objects, cfg, is_root, ty_map))
    with init.open("a", encoding="utf-8") as f:
        f.write(init_text(parse(init), prefix, "_ffi_api"))
    return [api, init]
