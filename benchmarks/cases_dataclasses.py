"""Dataclass cases: a 3-field @py_class (construct, field read, field write with conversion).

Both packages define the same class with ``tvm_ffi.dataclasses.py_class`` in the worker.
"""

from __future__ import annotations

from cases import Case

# Setup runs once per round; a type key registers once per process, so the class is kept.
_DEFINE = (
    "import sys, tvm_ffi\n"
    "from tvm_ffi.dataclasses import py_class\n"
    "Point3 = getattr(sys, '_bench_point3', None)\n"
    "if Point3 is None:\n"
    "    @py_class('bench.Point3')\n"
    "    class Point3(tvm_ffi.Object):\n"
    "        x: int\n"
    "        y: float\n"
    "        name: str\n"
    "    sys._bench_point3 = Point3\n"
)
_POINT = _DEFINE + "p = Point3(1, 2.0, 'a')\n"

CASES = [
    # Issue 16 targets: construct <= 0.3x, field read <= 0.5x, field write with conversion <= 0.5x.
    Case("Point3(1, 2.0, 'a')", _DEFINE, "Point3(1, 2.0, 'a')", ref_target=0.3),
    Case("point.x", _POINT, "p.x", ref_target=0.5),
    Case("point.x = 5", _POINT, "p.x = 5", ref_target=0.5),
]
