"""Prints, as JSON, the public names of every module of the installed ``tvm_ffi`` package.

For each module (``tvm_ffi`` and every submodule whose path has no ``_``-prefixed part), each
name not starting with ``_`` maps to where its value comes from: ``"module"`` for a module,
the ``__module__`` of a class or function, ``"instance of M"`` for other values (M: the module
of their type: ``typing`` for a TypeVar, ``builtins`` for an int, ...), or ``"<import error: ...>"`` for a module that
fails to import. tests/compat/test_public_module_names.py runs it under both packages.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import types
from typing import Any

import tvm_ffi


def origin(value: Any) -> str:
    if isinstance(value, types.ModuleType):
        return "module"
    if inspect.isclass(value) or inspect.isroutine(value):
        return str(getattr(value, "__module__", None))
    return f"instance of {type(value).__module__}"


def public_modules() -> list[str]:
    names = ["tvm_ffi"]
    for info in pkgutil.walk_packages(tvm_ffi.__path__, "tvm_ffi."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            names.append(info.name)
    return names


def main() -> None:
    found: dict[str, Any] = {}
    for name in public_modules():
        try:
            module = importlib.import_module(name)
        except Exception as err:  # noqa: BLE001 - reported, not raised
            found[name] = f"<import error: {type(err).__name__}>"
            continue
        found[name] = {key: origin(getattr(module, key)) for key in dir(module) if not key.startswith("_")}
    print(json.dumps(found, sort_keys=True))


if __name__ == "__main__":
    main()
