"""Build and load C++/CUDA kernels from Python: ``load_inline`` for source strings, ``load`` for files.

>>> import tvm_ffi.cpp
>>> mod = tvm_ffi.cpp.load_inline(
...     "add", cpp_sources="int64_t add(int64_t a, int64_t b) { return a + b; }", functions="add")
>>> mod.add(1, 2)
3

Importing this package builds nothing, takes no lock and imports no framework.
"""

from ._errors import BuildError
from .dtype import to_cpp_dtype
from .extension import build, build_inline, load, load_inline

__all__ = ["BuildError", "build", "build_inline", "load", "load_inline", "to_cpp_dtype"]
