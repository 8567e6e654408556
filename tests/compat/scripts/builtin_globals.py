"""The runtime's built-in global functions (`ffi.*`) as users and binding generators see them,
printed as one JSON object: each name's metadata and the signature its argument errors show.

tests/compat/test_builtin_globals.py runs this script with our package and with the reference
and requires every reference entry to be ours too, equal.
"""

from __future__ import annotations

import json
import re

import tvm_ffi
from tvm_ffi.registry import get_global_func_metadata, list_global_func_names

SIGNATURE = re.compile(r"when calling: `(.*)`\. Expected")


def error_signature(name: str) -> str | None:
    """The signature a call with too many arguments names (None: the function takes any count)."""
    try:
        tvm_ffi.get_global_func(name)(*([None] * 9))
    except Exception as err:  # noqa: BLE001  -- the message is the observation
        found = SIGNATURE.search(str(err))
        return found.group(1) if found else f"{type(err).__name__}: {err}"
    return None


PACKED = {"ffi.Array", "ffi.Dict", "ffi.List", "ffi.Map", "ffi.Shape", "ffi.SystemLib", "ffi.MakeObjectFromPackedArgs"}
seen = {}
for name in sorted(n for n in list_global_func_names() if n.startswith("ffi.")):
    seen[name] = {
        "metadata": get_global_func_metadata(name),
        "signature": None if name in PACKED else error_signature(name),
    }
print(json.dumps(seen, sort_keys=True))
