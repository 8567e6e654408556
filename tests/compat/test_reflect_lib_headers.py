"""kernels/ref_reflect_lib.cc (object types registered with refl::ObjectDef: explicit and
runtime-generated constructors, refl::init(false), refl::kw_only, defaults, static methods) built
against OUR headers must be observed exactly like the build against the REFERENCE headers, under
our package and under the reference (scripts/reflect_lib_observations.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import INCLUDE_DIR, Runtime

from .conftest import COMPAT_DIR, KERNELS_DIR, Reference, build_kernel, our_package_env, run_json_script

SCRIPT = COMPAT_DIR / "scripts" / "reflect_lib_observations.py"


@pytest.fixture(scope="module")
def lib_dirs(reference: Reference, plain_runtime: Runtime, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A directory holding libdemo_reflect.so per header set."""
    dirs = {}
    for headers, include_dir, link_dir in [("reference", reference.include_dir, reference.lib_dir),
                                           ("ours", INCLUDE_DIR, plain_runtime.libdir)]:
        out = tmp_path_factory.mktemp(f"reflect_{headers}")
        build_kernel(KERNELS_DIR / "ref_reflect_lib.cc", out / "libdemo_reflect.so", include_dir=include_dir,
                     link_dir=link_dir)
        dirs[headers] = out
    return dirs


def observe(lib_dir: Path, env: dict[str, str]) -> dict[str, object]:
    observed: dict[str, object] = run_json_script(SCRIPT, [str(lib_dir)], env)
    return observed


@pytest.mark.parametrize("runtime", ["ours", "reference"])
def test_our_headers_register_the_same_types(runtime: str, lib_dirs: dict[str, Path], reference: Reference) -> None:
    if runtime == "reference":
        env = reference.env()
    else:
        env = our_package_env()
    ours, ref = observe(lib_dirs["ours"], env), observe(lib_dirs["reference"], env)
    differences = {name: {"our headers": ours[name], "reference headers": ref.get(name)}
                   for name in ours if ours[name] != ref.get(name)}
    assert ours.keys() == ref.keys() and not differences, json.dumps(differences, indent=1)
