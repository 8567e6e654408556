"""Uses kernels/dataclass_ops_lib.cc (built against either header set) through whichever
`tvm_ffi` this interpreter imports, printing one JSON object of observations.

Usage: python dataclass_ops_observations.py <path of the built library>
"""

from __future__ import annotations

import json
import sys
from typing import Callable

import tvm_ffi

seen: dict[str, object] = {}


def observe(name: str, thunk: Callable[[], object]) -> None:
    """Records repr(thunk()), or the type and message of what it raises."""
    try:
        seen[name] = repr(thunk())
    except Exception as err:  # noqa: BLE001 - the exception is the observation
        seen[name] = ["raises", type(err).__name__, str(err)]


def main(lib_path: str) -> None:
    tvm_ffi.load_module(lib_path)

    @tvm_ffi.register_object("dc.Pair")
    class Pair(tvm_ffi.Object):
        """Two fields."""

    def op(name: str) -> tvm_ffi.Function:
        return tvm_ffi.get_global_func(f"dc.{name}")

    a, b = Pair(1, "x"), Pair(2, "x")
    nested = tvm_ffi.convert([a, {"k": b}])
    observe("repr pair", lambda: op("repr")(a))
    observe("repr nested", lambda: op("repr")(nested))
    observe("repr int", lambda: op("repr")(5))
    observe("deep copy is new", lambda: (lambda c: (c.same_as(a), c.first, c.second))(op("deep_copy")(a)))
    observe("deep copy nested", lambda: (lambda c: (c[0].same_as(a), c[0].first, c[1]["k"].first))(
        op("deep_copy")(nested)))
    observe("deep copy int", lambda: op("deep_copy")(7))
    observe("hash", lambda: op("hash_is_int")(a))
    observe("compare a b", lambda: list(op("compare")(a, b)))
    observe("compare a copy", lambda: list(op("compare")(a, Pair(1, "x"))))
    observe("compare b a", lambda: list(op("compare")(b, a)))
    observe("compare ints", lambda: list(op("compare")(1, 2)))
    observe("stream int", lambda: op("stream")(4))
    observe("stream pair", lambda: op("stream")(a))
    observe("hook names", lambda: list(op("hook_names")()))
    print(json.dumps(seen, indent=1, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1])
