"""Every public module of the reference package exists in ours and has the names it defines.

scripts/module_names.py lists, under each package, the public names of every public module and
where each value comes from. A name the reference's module defines itself (a class or function
of that module, or a constant) must exist in ours; imports are left out (modules, classes and
functions of other modules, typing constructs), as are the gaps below, each with its reason.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from .conftest import COMPAT_DIR, Reference, our_package_env

SCRIPT = COMPAT_DIR / "scripts" / "module_names.py"

# Values whose type comes from these modules are imported constructs, not the module's own.
_IMPORTED_KINDS = {"instance of typing", "instance of typing_extensions", "instance of __future__",
                   "instance of dataclasses"}
_LOOP_LEFTOVER = "a loop variable the reference's dtype table setup leaves in core, not an API"
_BUILD_INTERNALS = "the reference's build logger; ours logs to logging.getLogger('tvm_ffi.cpp')"
ACCEPTED_MODULES: dict[str, str] = {}
ACCEPTED_NAMES = {
    "tvm_ffi.core.ByteArrayArg": "the reference's C-level holder of a bytes argument; it has no Python API",
    "tvm_ffi.core.attr_name": _LOOP_LEFTOVER,
    "tvm_ffi.core.dl_dtype": _LOOP_LEFTOVER,
    "tvm_ffi.core.extra_types": _LOOP_LEFTOVER,
    "tvm_ffi.core.cuda_driver": "the reference's handle of the optional cuda-python module (None without it)",
    # Imported at start-up there (a module, so left out above, or None when not installed); ours
    # imports torch only when a torch tensor first comes along.
    "tvm_ffi.core.torch": "the reference's handle of the optional torch module (None without it)",
    "tvm_ffi.core.numpy": "the reference's handle of the optional numpy module (None without it)",
    "tvm_ffi.core.ml_dtypes": "the reference's handle of the optional ml_dtypes module (None without it)",
    "tvm_ffi.cpp.extension.logger": _BUILD_INTERNALS,
    "tvm_ffi.dataclasses.py_class.on_fields_resolved": "a step of the reference's py_class machinery, not an API",
}


def observe(env: dict[str, str], cwd: Path) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, env=env,
                          cwd=str(cwd), timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def own_names(module: str, names: dict[str, str]) -> set[str]:
    """The names ``module`` defines itself (not imports)."""
    return {name for name, origin in names.items()
            if name != "TYPE_CHECKING" and origin != "module" and origin not in _IMPORTED_KINDS
            and (origin == module or origin.startswith("instance of "))}


def missing(ours: dict[str, Any], ref: dict[str, Any]) -> dict[str, str]:
    """``module`` or ``module.name`` -> what is wrong, for everything not accepted above."""
    problems = {}
    for module, names in ref.items():
        if module in ACCEPTED_MODULES or isinstance(names, str):
            continue
        if not isinstance(ours.get(module), dict):
            problems[module] = f"module missing or broken: {ours.get(module)}"
            continue
        for name in sorted(own_names(module, names) - set(ours[module])):
            if f"{module}.{name}" not in ACCEPTED_NAMES:
                problems[f"{module}.{name}"] = f"missing (the reference's is {names[name]})"
    return problems


def test_public_modules_have_the_references_names(reference: Reference, tmp_path: Path) -> None:
    ours_env = our_package_env()
    ours, ref = observe(ours_env, tmp_path), observe(reference.env(), tmp_path)
    assert not (problems := missing(ours, ref)), json.dumps(problems, indent=1)
    # An accepted gap that is gone is stale: delete its entry.
    stale = [name for name in ACCEPTED_NAMES
             if (module := name.rpartition(".")[0]) in ours and isinstance(ours[module], dict)
             and name.rpartition(".")[2] in ours[module]]
    stale += [module for module in ACCEPTED_MODULES if module in ours]
    assert not stale, stale
