"""The Python target of ``tvm-ffi-stubgen``: typed declarations inside ``.py``/``.pyi`` files.

``consts`` holds the default type names, ``utils`` the imports and the rendering of
signatures, fields and methods, ``codegen`` the text of each block kind and of scaffolded
files, and ``generator`` the :class:`PythonGenerator` the command drives.
"""

from __future__ import annotations

from .generator import PythonGenerator

__all__ = ["PythonGenerator"]
