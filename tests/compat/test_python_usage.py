"""Typical uses of the Python package (scripts/python_usage.py: tensors with NumPy and PyTorch,
dtypes, devices, containers, global functions, objects, errors, streams, modules, serialization,
structural comparison) observed under our package and under the reference: the observations must
be equal apart from the deliberate differences listed below, each with its reason."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import COMPAT_DIR, Reference, our_package_env

SCRIPT = COMPAT_DIR / "scripts" / "python_usage.py"

_KEEPS_KIND = ("a Python exception raised in a callback comes back as the original exception, and "
               "core.ERROR_NAME_TO_TYPE also maps NotImplementedError, OSError, OverflowError, "
               "RecursionError and ZeroDivisionError (the reference makes these RuntimeError)")
_MORE_DETAIL = "our message says more (prefix or key text the same as the reference's)"
KNOWN_DIFFERENCES = {
    "python exception through C": _KEEPS_KIND,
    "error tables": _KEEPS_KIND,
    "dtype from torch": "tvm_ffi.dtype() also accepts torch and NumPy dtypes",
    "function kwargs": "our TypeError names the function and the keyword arguments it got",
    "load missing file": "the reference prefixes its text with 'Check failed: (lib_handle_ != nullptr) is false: '",
    "load no suffix": _MORE_DETAIL,
    "object dir": "Object also exposes type_index and type_key",
    "raw stream bad": _MORE_DETAIL,
    "system_lib missing fn": _MORE_DETAIL,
    "tensor 0-d": "Tensor.shape is a tvm_ffi.Shape (a tuple subclass; the reference returns a tuple)",
    "tensor shape type": "as 'tensor 0-d'",
    "tensor from list": "our TypeError names the DLPack protocol and the type it got",
    "tensor require alignment": "our RuntimeError names the address and offset",
    "tensor require contiguous": "our RuntimeError names the shape and strides",
}


def observe(env: dict[str, str], cwd: Path) -> dict[str, object]:
    proc = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, env=env,
                          cwd=str(cwd), timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def found(reference: Reference, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Observations that differ between our package and the reference."""
    pytest.importorskip("torch")
    cwd = tmp_path_factory.mktemp("python_usage")
    ours_env = our_package_env()
    ours, ref = observe(ours_env, cwd), observe(reference.env(), cwd)
    assert ours.keys() == ref.keys()
    return {name: {"ours": ours[name], "reference": ref[name]} for name in ours if ours[name] != ref[name]}


def test_python_usage_matches_the_reference(found: dict[str, object]) -> None:
    unexpected = {name: diff for name, diff in found.items() if name not in KNOWN_DIFFERENCES}
    assert not unexpected, json.dumps(unexpected, indent=1)


def test_known_differences_are_still_there(found: dict[str, object]) -> None:
    """An entry of KNOWN_DIFFERENCES that no longer differs is stale: delete it."""
    assert sorted(set(KNOWN_DIFFERENCES) - set(found)) == []
