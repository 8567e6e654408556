"""Grids of the C++ header API, each a kernel built against the reference's headers and against
ours and driven over a grid of Python values by an observation script:

* typed_echo -- kernels/typed_echo_kernel.cc: a typed echo function per common parameter type
  (scripts/typed_echo_observations.py calls each with about 50 values);
* field_setter -- kernels/field_setter_kernel.cc: an object with a read-write field per common
  field type (scripts/field_setter_observations.py assigns 28 values to each).

On either runtime both builds must behave alike: the same result, or the same TypeError text,
whose header wrote it, apart from KNOWN_DIFFERENCES.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import INCLUDE_DIR, Runtime

from .conftest import COMPAT_DIR, KERNELS_DIR, Reference, build_kernel, our_package_env, run_json_script

GRIDS = {
    "typed_echo": ("typed_echo_kernel.cc", "typed_echo_observations.py"),
    "field_setter": ("field_setter_kernel.cc", "field_setter_observations.py"),
}
# (grid, observation) -> why our headers deliberately differ there.
_OWN_WORDING = ("the out-of-range check of a uint64_t result reads in our own words after the "
                "shared 'Integer value ... is too large to fit in int64_t.'")
KNOWN_DIFFERENCES = {("typed_echo", f"e_u64 {label}"): _OWN_WORDING for label in ("-1", "-129")}
# Observations each grid must make (so a grid that stopped reaching its cases fails).
EXPECTED = {
    "typed_echo": {
        "e_vptr c_void_p(None)": "OK c_void_p c_void_p(None)",
        "e_two (1.5, None)": "TypeError: Mismatched type on argument #1 when calling: `e_two(0: int, 1: str) -> int`. "
                             "Expected `str` but got `None`",
    },
    "field_setter": {"schema msi": "Map[str, int]", "ai [1, 2]": "OK Array (1, 2)"},
}


@pytest.fixture(scope="module")
def builds(reference: Reference, plain_runtime: Runtime,
           tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    """(grid, header set) -> the grid's kernel built against that header set."""
    out = tmp_path_factory.mktemp("header_grids")
    built = {}
    for grid, (source, _) in GRIDS.items():
        built[grid, "reference"] = build_kernel(KERNELS_DIR / source, out / f"{grid}_reference.so",
                                                include_dir=reference.include_dir, link_dir=reference.lib_dir)
        built[grid, "ours"] = build_kernel(KERNELS_DIR / source, out / f"{grid}_ours.so", include_dir=INCLUDE_DIR,
                                           link_dir=plain_runtime.libdir)
    return built


@pytest.mark.parametrize("runtime", ["reference", "ours"])
@pytest.mark.parametrize("grid", sorted(GRIDS))
def test_both_header_sets_behave_alike(grid: str, runtime: str, builds: dict[tuple[str, str], Path],
                                       reference: Reference) -> None:
    script = COMPAT_DIR / "scripts" / GRIDS[grid][1]
    env = reference.env() if runtime == "reference" else our_package_env()
    ours = run_json_script(script, [str(builds[grid, "ours"])], env)
    ref = run_json_script(script, [str(builds[grid, "reference"])], env)
    assert ours.keys() == ref.keys()
    found = {key: {"ours": ours[key], "reference": ref[key]} for key in ours if ours[key] != ref[key]}
    known = sorted(key for g, key in KNOWN_DIFFERENCES if g == grid)
    assert sorted(found) == known, json.dumps(found, indent=1)
    assert {key: ref[key] for key in EXPECTED[grid]} == EXPECTED[grid]
