"""kernels/typed_echo_kernel.cc -- a typed echo function per common parameter type, called with
about 50 Python values (scripts/typed_echo_observations.py) -- built against the reference's
headers and against ours. On either runtime both builds must convert every value the same way:
the same result, or the same TypeError text, whose header wrote it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import INCLUDE_DIR, Runtime

from .conftest import COMPAT_DIR, KERNELS_DIR, Reference, build_kernel, our_package_env, run_json_script

SCRIPT = COMPAT_DIR / "scripts" / "typed_echo_observations.py"

# Observation -> why our headers deliberately differ there.
_OWN_WORDING = ("the out-of-range check of a uint64_t result reads in our own words after the "
                "shared 'Integer value ... is too large to fit in int64_t.'")
KNOWN_DIFFERENCES = {f"e_u64 {label}": _OWN_WORDING for label in ("-1", "-129")}


@pytest.fixture(scope="module")
def builds(reference: Reference, plain_runtime: Runtime, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("typed_echo")
    source = KERNELS_DIR / "typed_echo_kernel.cc"
    return {
        "reference": build_kernel(source, out / "echo_reference.so", include_dir=reference.include_dir,
                                  link_dir=reference.lib_dir),
        "ours": build_kernel(source, out / "echo_ours.so", include_dir=INCLUDE_DIR, link_dir=plain_runtime.libdir),
    }


@pytest.mark.parametrize("runtime", ["reference", "ours"])
def test_both_header_sets_convert_every_value_alike(runtime: str, builds: dict[str, Path],
                                                    reference: Reference) -> None:
    env = reference.env() if runtime == "reference" else our_package_env()
    ours = run_json_script(SCRIPT, [str(builds["ours"])], env)
    ref = run_json_script(SCRIPT, [str(builds["reference"])], env)
    assert ours.keys() == ref.keys()
    found = {key: {"ours": ours[key], "reference": ref[key]} for key in ours if ours[key] != ref[key]}
    assert sorted(found) == sorted(KNOWN_DIFFERENCES), json.dumps(found, indent=1)
    # The grid reaches every kind of outcome: conversions, refusals and arity errors.
    assert ref["e_vptr c_void_p(None)"] == "OK c_void_p c_void_p(None)"
    assert ref["e_arr_i [1, 'a']"].startswith("TypeError: Mismatched type on argument #0 when calling: `e_arr_i(")
    assert ref["e_two (1.5, None)"].startswith("TypeError: Mismatched type on argument #1")
