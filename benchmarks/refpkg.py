"""The reference package, isolated in its own directory, and the environments of the two workers.

The reference (PyPI apache-tvm-ffi, pinned) is installed with `pip install --target` into
`build/refpkg`, the directory the compatibility tests (tests/compat/conftest.py) use, and never
into the environment that holds our package. Putting that directory first on PYTHONPATH makes
`import tvm_ffi` find the reference; leaving it out finds ours.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tools"))
from reference_package import REFPKG_DIR, install_reference  # noqa: E402

__all__ = ["REFPKG_DIR", "install_reference", "is_reference_module", "ours_env", "reference_env"]


def _path_list(value: str | None, drop: Path) -> list[str]:
    """Entries of a PATH-like variable, without those inside `drop`."""
    entries = [entry for entry in (value or "").split(os.pathsep) if entry]
    return [entry for entry in entries if not _is_within(Path(entry), drop)]


def _is_within(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def ours_env(base: Mapping[str, str], refpkg: Path = REFPKG_DIR) -> dict[str, str]:
    """Environment of the worker that imports our package: no trace of the reference."""
    env = dict(base)
    for name in ("PYTHONPATH", "LD_LIBRARY_PATH"):
        entries = _path_list(env.get(name), refpkg)
        if entries:
            env[name] = os.pathsep.join(entries)
        else:
            env.pop(name, None)
    return env


def reference_env(base: Mapping[str, str], refpkg: Path = REFPKG_DIR) -> dict[str, str]:
    """Environment of the worker that imports the reference package.

    Its directory goes first on PYTHONPATH, and its library directory first on LD_LIBRARY_PATH
    (as in the compatibility tests), so nothing of ours can be picked up instead.
    """
    env = dict(base)
    lib_dir = refpkg / "tvm_ffi" / "lib"
    env["PYTHONPATH"] = os.pathsep.join([str(refpkg), *_path_list(env.get("PYTHONPATH"), refpkg)])
    env["LD_LIBRARY_PATH"] = os.pathsep.join([str(lib_dir), *_path_list(env.get("LD_LIBRARY_PATH"), refpkg)])
    env.pop("TVM_FFI_TEST_LIB", None)
    return env


def is_reference_module(module_file: str | None, refpkg: Path = REFPKG_DIR) -> bool:
    """True when `module_file` (a `tvm_ffi.__file__`) belongs to the isolated reference."""
    return module_file is not None and _is_within(Path(module_file), refpkg)
