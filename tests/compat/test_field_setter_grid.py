"""kernels/field_setter_kernel.cc -- an object type with a read-write field per common field type,
registered with refl::ObjectDef -- built against the reference's headers and against ours. On
either runtime both builds must store every value of a grid (scripts/field_setter_observations.py)
the same way: the same value read back, or the same TypeError text, whose header wrote it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import INCLUDE_DIR, Runtime

from .conftest import COMPAT_DIR, KERNELS_DIR, Reference, build_kernel, our_package_env, run_json_script

SCRIPT = COMPAT_DIR / "scripts" / "field_setter_observations.py"


@pytest.fixture(scope="module")
def builds(reference: Reference, plain_runtime: Runtime, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("field_setters")
    source = KERNELS_DIR / "field_setter_kernel.cc"
    return {
        "reference": build_kernel(source, out / "setters_reference.so", include_dir=reference.include_dir,
                                  link_dir=reference.lib_dir),
        "ours": build_kernel(source, out / "setters_ours.so", include_dir=INCLUDE_DIR, link_dir=plain_runtime.libdir),
    }


@pytest.mark.parametrize("runtime", ["reference", "ours"])
def test_both_header_sets_store_every_value_alike(runtime: str, builds: dict[str, Path],
                                                  reference: Reference) -> None:
    env = reference.env() if runtime == "reference" else our_package_env()
    ours = run_json_script(SCRIPT, [str(builds["ours"])], env)
    ref = run_json_script(SCRIPT, [str(builds["reference"])], env)
    assert ours.keys() == ref.keys()
    found = {key: {"ours": ours[key], "reference": ref[key]} for key in ours if ours[key] != ref[key]}
    assert not found, json.dumps(found, indent=1)
    # The grid reaches conversions, refusals and typed schemas.
    assert ref["schema msi"] == "Map[str, int]"
    assert ref["ai [1, 2]"] == "OK Array (1, 2)"
    assert ref["i64 'abc'"].startswith("TypeError: ")
