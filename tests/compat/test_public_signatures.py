"""Every public name of ABI.md section 9 exists in our package, and where the reference's has
an inspectable signature, ours accepts every call it accepts: the same parameters in the same
order and kinds, a default wherever the reference has one; extra parameters only with defaults
(scripts/public_signatures.py lists them under both packages)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from .conftest import COMPAT_DIR, Reference, our_package_env

SCRIPT = COMPAT_DIR / "scripts" / "public_signatures.py"
# Known, accepted differences (each with why it cannot matter to callers).
ACCEPTED = {
    # Cython's positional `self`; ours is positional-only `value`: nobody passes it by keyword.
    "tvm_ffi.core._to_py_class_value",
    # bytes subclass made at start-up; it takes (value) but shows no text signature.
    "tvm_ffi.core.Bytes",
    # Internals of the reference's py_class machinery, not an API: ours registers through
    # tvm_ffi.dataclasses.py_class directly.
    "tvm_ffi.core.TypeInfo._register_fields",
    "tvm_ffi.core.TypeInfo._register_py_methods",
}
_WIDER = {"POSITIONAL_ONLY": {"POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD"},
          "KEYWORD_ONLY": {"KEYWORD_ONLY", "POSITIONAL_OR_KEYWORD"}}


def observe(env: dict[str, str], cwd: Path) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, env=env,
                          cwd=str(cwd), timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def incompatibility(ours: Any, ref: Any) -> str | None:
    """Why a call valid for the reference's ``ref`` may fail for ``ours`` (None: compatible)."""
    if ref == "<missing>":
        return None
    if ours == "<missing>":
        return "missing"
    if ours["kind"] != ref["kind"]:
        return f"is a {ours['kind']}, the reference's a {ref['kind']}"
    if ref["params"] is None or all(kind.startswith("VAR_") for _, kind, _ in ref["params"]):
        return None  # nothing to compare against (the reference takes anything)
    if ours["params"] is None:
        return f"no signature; the reference's takes {ref['params']}"
    for i, (name, kind, default) in enumerate(ref["params"]):
        if i >= len(ours["params"]):
            return f"lacks parameter {name!r}"
        our_name, our_kind, our_default = ours["params"][i]
        if our_name != name or our_kind not in _WIDER.get(kind, {kind}):
            return f"parameter {i} is {our_name!r} ({our_kind}), the reference's {name!r} ({kind})"
        if default is not None and our_default is None:
            return f"parameter {name!r} needs the default {default}"
    for name, kind, default in ours["params"][len(ref["params"]):]:
        if default is None and kind not in ("VAR_POSITIONAL", "VAR_KEYWORD"):
            return f"extra parameter {name!r} has no default"
    return None


def test_public_names_accept_the_references_calls(reference: Reference, tmp_path: Path) -> None:
    ours_env = our_package_env()
    ours, ref = observe(ours_env, tmp_path), observe(reference.env(), tmp_path)
    problems = {name: why for name in ref if name not in ACCEPTED
                and (why := incompatibility(ours.get(name, "<missing>"), ref[name]))}
    assert not problems, json.dumps(problems, indent=1)
