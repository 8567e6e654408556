"""Saving and loading FFI values as JSON object graphs.

The document lists every distinct value once as a node (children before parents) and refers to
nodes by index, so shared sub-objects stay shared after loading. It is the reference package's
format: documents written by either load in the other.

>>> from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str
>>> text = to_json_graph_str([1, "a"])
>>> text
'{"root_index":2,"nodes":[{"type":"int","data":1},{"type":"ffi.String","data":"a"},{"type":"ffi.Array","data":[0,1]}]}'
>>> from_json_graph_str(text)
(1, "a")
"""

from __future__ import annotations

from typing import Any, TypeVar

from . import _core, _ffi_api

__all__ = ["from_json_graph_str", "to_json_graph_str"]

_T = TypeVar("_T")


def _new_object(cls: type[_T]) -> _T:
    """An empty instance of ``cls``: the first step of unpickling an FFI object."""
    return cls.__new__(cls)


# Pickles name it `tvm_ffi.core._new_object`, as the reference's do, so either package loads
# pickles made by the other (Object.__reduce__ in _core looks it up there).
_new_object.__module__ = "tvm_ffi.core"
_core._new_object = _new_object


def to_json_graph_str(obj: Any, metadata: dict[str, Any] | None = None) -> str:
    """Serialize a value to JSON graph text.

    Shared objects are written once and referenced by index, so the graph (not just the tree)
    survives a round trip through :func:`from_json_graph_str`.

    Parameters
    ----------
    obj : Any
        The value: primitives, strings, containers and reflected objects with a creator.
    metadata : dict, optional
        Any JSON-able value stored alongside the graph.

    Returns
    -------
    str
        The JSON document.

    Raises
    ------
    TypeError
        For values that cannot be rebuilt (tensors, functions, types without a creator).
    ValueError
        For cycles through lists or dicts.

    Examples
    --------
    >>> from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str
    >>> text = to_json_graph_str([1, "two", {"k": 2.5}])
    >>> from_json_graph_str(text)
    (1, "two", {"k": 2.5})
    """
    # As the runtime returns it: a `String` (a str) for all but the shortest documents, as there.
    text: str = _ffi_api.ToJSONGraphString(obj, metadata)
    return text


def from_json_graph_str(json_str: str) -> Any:
    """Rebuild the value stored in JSON graph text (its metadata is ignored).

    Parameters
    ----------
    json_str : str
        A document written by :func:`to_json_graph_str` (by either package).

    Returns
    -------
    Any
        The value, with FFI containers for lists and dicts.

    Raises
    ------
    ValueError, TypeError, KeyError, RuntimeError
        For malformed documents; the message names the problem.

    Examples
    --------
    >>> from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str
    >>> from_json_graph_str(to_json_graph_str(42))
    42
    """
    return _ffi_api.FromJSONGraphString(json_str)
