"""Modules: shared libraries of exported FFI functions, and the system library.

A kernel library exports each function ``f`` as the C symbol ``__tvm_ffi_f``;
``load_module(path)`` opens it and ``mod.f`` / ``mod["f"]`` / ``mod.get_function("f")`` return it
as a :class:`tvm_ffi.Function`. A function keeps its library loaded while it is alive, even
after the module object is gone.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from enum import IntEnum
from typing import Any, ClassVar

from . import _core, _ffi_api
from ._class_binding import refresh_bound_classes
from ._reflection import _type_info_of_index
from .registry import array_to_list, register_object

__all__ = ["Module", "ModulePropertyMask", "load_module", "system_lib"]


class ModulePropertyMask(IntEnum):
    """Bits of :meth:`Module.get_property_mask`."""

    BINARY_SERIALIZABLE = 0b001
    RUNNABLE = 0b010
    COMPILATION_EXPORTABLE = 0b100


@register_object("ffi.Module")
class Module(_core.Object):
    """A loaded module (runtime type ``ffi.Module``): functions by name, plus imported modules.

    >>> mod = tvm_ffi.load_module("build/add_one_cpu.so")  # doctest: +SKIP
    >>> mod.add_one_cpu(x, y)  # same as mod["add_one_cpu"](x, y)  # doctest: +SKIP
    >>> mod.get_function_metadata("add_one_cpu")  # None without exported metadata  # doctest: +SKIP

    Objects returned by a library's functions may need its code to be destroyed: keep the module
    (or a function of it) alive until they are gone, or load with ``keep_module_alive=True``.
    """

    # Functions found by attribute are cached in the instance dict (see __getattr__).
    __slots__ = ("__dict__",)

    entry_name: ClassVar[str] = "main"
    """Name of the function :meth:`__call__` runs."""

    def __init__(self) -> None:
        raise TypeError("Module cannot be constructed directly: use tvm_ffi.load_module() or tvm_ffi.system_lib()")

    @property
    def kind(self) -> str:
        """What made the module, e.g. ``"library"`` for shared libraries and the system library."""
        return str(_ffi_api.ModuleGetKind(self))

    @property
    def imports(self) -> list[Module]:
        """Modules imported by this one, in import order (the runtime's reflected ``imports_``)."""
        return array_to_list(_read_imports(self))

    def implements_function(self, name: str, query_imports: bool = False) -> bool:
        """Tell whether the module exports a function named ``name``.

        Parameters
        ----------
        name : str
            The function name, without the ``__tvm_ffi_`` symbol prefix.
        query_imports : bool, optional
            Also look in the modules this one imports (default ``False``).

        Returns
        -------
        bool
            True when the function exists.

        Examples
        --------
        >>> tvm_ffi.system_lib().implements_function("no_such_function")
        False
        """
        return bool(_ffi_api.ModuleImplementsFunction(self, name, query_imports))

    def get_function(self, name: str, query_imports: bool = False) -> _core.Function:
        """Fetch the exported function ``name``.

        Parameters
        ----------
        name : str
            The function name, without the ``__tvm_ffi_`` symbol prefix.
        query_imports : bool, optional
            Also look in the modules this one imports (default ``False``).

        Returns
        -------
        Function
            The callable FFI function; it keeps the module loaded while it lives.

        Raises
        ------
        AttributeError
            When neither the module (nor, with ``query_imports``, its imports) exports ``name``.

        Examples
        --------
        >>> tvm_ffi.system_lib().get_function("no_such_function")
        Traceback (most recent call last):
          ...
        AttributeError: Module has no function 'no_such_function' (...)
        """
        func = _ffi_api.ModuleGetFunction(self, name, query_imports)
        if func is None:
            raise AttributeError(f"Module has no function '{name}' ({self._describe_lookup(name, query_imports)})")
        found: _core.Function = func
        return found

    def get_function_metadata(self, name: str, query_imports: bool = False) -> dict[str, Any] | None:
        """Read the metadata a library exported for function ``name``.

        Parameters
        ----------
        name : str
            The function name.
        query_imports : bool, optional
            Also look in the modules this one imports (default ``False``).

        Returns
        -------
        dict or None
            The parsed metadata (``type_schema``, ...), or None when the library exported none.

        Examples
        --------
        >>> print(tvm_ffi.system_lib().get_function_metadata("no_such_function"))
        None
        """
        text = _ffi_api.ModuleGetFunctionMetadata(self, name, query_imports)
        return None if text is None else json.loads(text)

    def get_function_doc(self, name: str, query_imports: bool = False) -> str | None:
        """Read the docstring a library exported for function ``name``.

        Parameters
        ----------
        name : str
            The function name.
        query_imports : bool, optional
            Also look in the modules this one imports (default ``False``).

        Returns
        -------
        str or None
            The docstring, or None when the library exported none.

        Examples
        --------
        >>> print(tvm_ffi.system_lib().get_function_doc("no_such_function"))
        None
        """
        text = _ffi_api.ModuleGetFunctionDoc(self, name, query_imports)
        return str(text) if text else None

    def import_module(self, module: Module) -> None:
        """Append ``module`` to this module's imports.

        Functions of imported modules are found by lookups with ``query_imports=True``.

        Parameters
        ----------
        module : Module
            The module to import.

        Raises
        ------
        RuntimeError
            When the import would make a module import itself, directly or not.
        """
        if not isinstance(module, Module):
            raise TypeError(f"Module.import_module: expected a Module, got {type(module).__name__}")
        _ffi_api.ModuleImportModule(self, module)

    def clear_imports(self) -> None:
        """Remove every imported module.

        Examples
        --------
        >>> lib = tvm_ffi.system_lib("doc_clear_imports_")
        >>> lib.clear_imports()
        >>> lib.imports
        []
        """
        _ffi_api.ModuleClearImports(self)

    def get_property_mask(self) -> int:
        """Report what the module supports, as a bit mask.

        Returns
        -------
        int
            Bitwise OR of :class:`ModulePropertyMask` values.

        Examples
        --------
        >>> mask = tvm_ffi.system_lib().get_property_mask()
        >>> bool(mask & tvm_ffi.ModulePropertyMask.RUNNABLE)
        True
        """
        return int(_ffi_api.ModuleGetPropertyMask(self))

    def is_binary_serializable(self) -> bool:
        """Tell whether the module can be saved as bytes.

        Returns
        -------
        bool
            True when the ``BINARY_SERIALIZABLE`` property bit is set.
        """
        return bool(self.get_property_mask() & ModulePropertyMask.BINARY_SERIALIZABLE)

    def is_runnable(self) -> bool:
        """Tell whether functions can be fetched from the module.

        Returns
        -------
        bool
            True when the ``RUNNABLE`` property bit is set.

        Examples
        --------
        >>> tvm_ffi.system_lib().is_runnable()
        True
        """
        return bool(self.get_property_mask() & ModulePropertyMask.RUNNABLE)

    def is_compilation_exportable(self) -> bool:
        """Tell whether the module can be written out as source or object code.

        Returns
        -------
        bool
            True when the ``COMPILATION_EXPORTABLE`` property bit is set.
        """
        return bool(self.get_property_mask() & ModulePropertyMask.COMPILATION_EXPORTABLE)

    def get_write_formats(self) -> Sequence[str]:
        """List the formats :meth:`write_to_file` accepts.

        Returns
        -------
        Sequence[str]
            The format names; empty for module kinds that cannot be written.

        Examples
        --------
        >>> list(tvm_ffi.system_lib().get_write_formats())
        []
        """
        return [str(x) for x in array_to_list(_ffi_api.ModuleGetWriteFormats(self))]

    def inspect_source(self, fmt: str = "") -> str:
        """Return the module's source code, when it has any.

        Parameters
        ----------
        fmt : str, optional
            The source format to return (default: the module's own).

        Returns
        -------
        str
            The source text, or ``""`` for modules without source (shared libraries).

        Examples
        --------
        >>> tvm_ffi.system_lib().inspect_source()
        ''
        """
        return str(_ffi_api.ModuleInspectSource(self, fmt))

    def write_to_file(self, file_name: str | os.PathLike[str], fmt: str = "") -> None:
        """Write the module to a file, for module kinds that support it.

        Parameters
        ----------
        file_name : str or os.PathLike
            The destination path.
        fmt : str, optional
            One of :meth:`get_write_formats` (default: chosen from the file name).

        Raises
        ------
        RuntimeError
            When the module kind cannot be written in ``fmt``.
        """
        _ffi_api.ModuleWriteToFile(self, os.fspath(file_name), fmt)

    def __getattr__(self, name: str) -> _core.Function:
        # Only called when normal lookup fails; dunder probes (copy, pickle, numpy...) are not
        # function lookups.
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        func = self.get_function(name)
        # Cache on the instance: the next access is a plain attribute read.
        self.__dict__[name] = func
        return func

    def __getitem__(self, name: str) -> _core.Function:
        if not isinstance(name, str):
            raise ValueError(f"Module[...] takes a function name (str), got {type(name).__name__}")
        return self.get_function(name)

    def __call__(self, *args: Any) -> Any:
        """Runs the module's entry function ``main``."""
        return self.get_function(self.entry_name)(*args)

    def _describe_lookup(self, name: str, query_imports: bool) -> str:
        where = "this module or its imports" if query_imports else "this module"
        kind = self.kind
        if kind == "library":  # the modules the runtime loads (and the system library) look up symbols
            prefix = _SYSTEM_LIB_PREFIXES.get(self.__chandle__())
            symbols = f"__tvm_ffi_{prefix}{name} or __tvm_ffi_{name}" if prefix else f"__tvm_ffi_{name}"
            return f"{kind} module; no symbol {symbols} in {where}"
        return f"{kind} module; {where} does not provide it"


def system_lib(symbol_prefix: str = "") -> Module:
    """Return the system library: functions of statically linked code, registered by symbol name.

    Code registers ``__tvm_ffi_<name>`` with ``TVMFFIEnvModRegisterSystemLibSymbol``;
    ``system_lib(prefix)[name]`` finds ``__tvm_ffi_<prefix><name>`` first, then
    ``__tvm_ffi_<name>``. There is one module per prefix, alive for the whole process.

    Parameters
    ----------
    symbol_prefix : str, optional
        Prefix tried first when looking symbols up (default ``""``).

    Returns
    -------
    Module
        The system-library module of that prefix.

    Raises
    ------
    TypeError
        When ``symbol_prefix`` is not a str.

    Examples
    --------
    >>> lib = tvm_ffi.system_lib()
    >>> lib.kind
    'library'
    >>> lib is not None and lib.same_as(tvm_ffi.system_lib())
    True
    """
    if not isinstance(symbol_prefix, str):
        raise TypeError(f"system_lib: symbol_prefix must be a str, got {type(symbol_prefix).__name__}")
    lib: Module = _ffi_api.SystemLib(symbol_prefix)
    _SYSTEM_LIB_PREFIXES[lib.__chandle__()] = symbol_prefix
    return lib


# The symbol prefix of each system library handed out, by handle (they live for the process), so
# a failed lookup names the symbols it tried.
_SYSTEM_LIB_PREFIXES: dict[int, str] = {}


# The runtime reflects ffi.Module's `imports_`; its descriptor is built once, at import.
_read_imports = next(
    f for f in _type_info_of_index(Module.__tvm_ffi_type_index__).fields or () if f.name == "imports_"  # type: ignore[attr-defined]
).as_property(Module).__get__


def load_module(path: str | os.PathLike[str], keep_module_alive: bool = True) -> Module:
    """Load the shared library at ``path`` (``.so``, ``.dll``, ``.dylib``) as a :class:`Module`.

    Parameters
    ----------
    path : str or os.PathLike
        The library file, typically built with :func:`tvm_ffi.cpp.build`.
    keep_module_alive : bool, optional
        Keep the library loaded for the rest of the process (the default), so objects its
        functions return can always be destroyed; with False it is unloaded once the module and
        every function taken from it are gone.

    Returns
    -------
    Module
        The loaded module; its exported functions are its attributes.

    Raises
    ------
    RuntimeError
        When the file is missing or cannot be loaded (the message names the path).

    Examples
    --------
    >>> mod = tvm_ffi.load_module("build/add_one_cpu.so")  # doctest: +SKIP
    >>> mod.add_one_cpu(x, y)  # doctest: +SKIP
    """
    mod: Module = _ffi_api.ModuleLoadFromFile(os.fspath(path))
    if keep_module_alive:
        _ffi_api.ModuleGlobalsAdd(mod)
    refresh_bound_classes()  # the library may have added reflection to types bound already
    return mod
