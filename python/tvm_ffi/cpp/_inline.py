"""Inline sources: the C++ text ``load_inline`` compiles around the user's code.

The user's code gets our umbrella header in front and one ``TVM_FFI_DLL_EXPORT_TYPED_FUNC`` per
exported function behind. A ``#line`` directive after the prelude makes compiler messages
point at the line numbers of the user's own string.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

__all__ = ["PRELUDE_HEADER", "decorate", "function_map", "join_sources"]

PRELUDE_HEADER = "tvm/ffi/tvm_ffi.h"

_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\0": "\\0"})


def function_map(functions: Mapping[str, str | None] | Sequence[str] | str | None) -> dict[str, str]:
    """``functions`` as name -> docstring (names alone, or mapped to None, get empty docstrings)."""
    if functions is None:
        return {}
    if isinstance(functions, str):
        items: list[tuple[object, object]] = [(functions, "")]
    elif isinstance(functions, Mapping):
        items = list(functions.items())
    elif isinstance(functions, (set, frozenset)):  # sorted: a set's order changes between processes
        items = [(name, "") for name in sorted(functions, key=str)]
    elif isinstance(functions, Iterable):
        items = [(name, "") for name in functions]
    else:
        raise TypeError(
            f"functions must be a name, a list of names or a name -> docstring mapping, got {type(functions).__name__}"
        )
    result: dict[str, str] = {}
    for name, doc in items:
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"functions: {name!r} is not a C++ function name")
        if doc is None:  # no docstring, as with an empty one
            doc = ""
        if not isinstance(doc, str):
            raise TypeError(f"functions: the docstring of {name!r} must be a str or None, got {type(doc).__name__}")
        result[name] = doc
    return result


def join_sources(sources: Sequence[str] | str | None, what: str) -> str | None:
    """One source text from a string or a list of strings; None when there is none."""
    if sources is None:
        return None
    if isinstance(sources, str):
        return sources
    parts = list(sources)
    for part in parts:
        if not isinstance(part, str):
            raise TypeError(f"{what} must be a str or a list of str, got an element of type {type(part).__name__}")
    return "\n".join(parts) if parts else None


def decorate(source: str, functions: Mapping[str, str], file_name: str | None) -> str:
    """``source`` with the prelude in front and the exports of ``functions`` behind.

    With a ``file_name``, a ``#line`` directive makes compiler messages name that file and the
    lines of ``source`` as written.
    """
    lines = [f"#include <{PRELUDE_HEADER}>  // added by tvm_ffi.cpp"]
    if file_name is not None:
        lines.append(f'#line 1 "{file_name.translate(_ESCAPES)}"')
    lines += [source, ""]
    for name, doc in functions.items():
        lines.append(f"TVM_FFI_DLL_EXPORT_TYPED_FUNC({name}, {name});")
        if doc:
            lines.append(f'TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC({name}, "{doc.translate(_ESCAPES)}");')
    lines.append("")
    return "\n".join(lines)
