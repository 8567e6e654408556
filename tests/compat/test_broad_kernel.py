"""kernels/broad_kernel.cc -- a kernel library using most of the C++ header API (every argument
kind, env/NDAlloc tensor allocation, streams, errors of every kind, callbacks, global functions,
reflected objects, calls through module imports) -- built against the REFERENCE headers and
against OURS, each build driven by scripts/broad_kernel_observations.py under our package and
under the reference package.

* The reference build must behave on our runtime as on the reference runtime, apart from the
  differences listed in KNOWN_DIFFERENCES (each a deliberate choice, with its reason).
* Our build must behave exactly like the reference build, on either runtime.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import INCLUDE_DIR, Runtime

from .conftest import (
    COMPAT_DIR,
    KERNELS_DIR,
    Reference,
    build_kernel,
    expect_binds_to_loading_runtime,
    our_package_env,
)

SCRIPT = COMPAT_DIR / "scripts" / "broad_kernel_observations.py"
pytest.importorskip("torch", reason="the observations pass torch tensors to the kernel")

# Observation -> why our runtime/package deliberately differs from the reference there.
_SAME_EXCEPTION = ("an exception raised in a Python callback comes back to Python as the very same "
                   "object (the reference makes a new exception of the kind's class from the message)")
KNOWN_DIFFERENCES = {
    **{f"callback raises {name}": _SAME_EXCEPTION
       for name in ("NotImplementedError", "OSError", "ZeroDivisionError", "KeyError")},
    "dtype_name numpy": "TVMFFIDataTypeToString returns short names in the small-string form "
                        "(spec/ABI.md section 6); the reference allocates a Str object",
    "dtype_name torch": "as 'dtype_name numpy'",
    "module [] missing": "our AttributeError adds where the lookup went (the symbol name it missed)",
    "module get_function missing": "as 'module [] missing'",
    "module getattr missing": "as 'module [] missing'",
    "system_lib prefix missing": "as 'module [] missing'",
    "scale numpy": "our runtime has a default CPU allocator behind TVMFFIEnvTensorAlloc; the "
                   "reference raises unless a framework installed one",
}


@pytest.fixture(scope="module")
def builds(reference: Reference, plain_runtime: Runtime, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The broad kernel built against each header set, and a second module to import."""
    out = tmp_path_factory.mktemp("broad_kernel")
    source = KERNELS_DIR / "broad_kernel.cc"
    built = {
        "reference": build_kernel(source, out / "broad_reference.so", include_dir=reference.include_dir,
                                  link_dir=reference.lib_dir),
        "ours": build_kernel(source, out / "broad_ours.so", include_dir=INCLUDE_DIR, link_dir=plain_runtime.libdir),
        "other": build_kernel(KERNELS_DIR / "ref_cpp_kernel.cc", out / "other.so",
                              include_dir=reference.include_dir, link_dir=reference.lib_dir),
    }
    for kernel in built.values():
        expect_binds_to_loading_runtime(kernel)
    return built


_observed: dict[tuple[str, str], dict[str, object]] = {}


def observations(headers: str, runtime: str, builds: dict[str, Path], reference: Reference) -> dict[str, object]:
    """What the build against `headers` does under the `runtime` package (cached per pair)."""
    key = (headers, runtime)
    if key not in _observed:
        if runtime == "reference":
            env = reference.env()
        else:
            env = our_package_env()
        proc = subprocess.run([sys.executable, str(SCRIPT), str(builds[headers]), str(builds["other"])],
                              capture_output=True, text=True, env=env, timeout=300)
        assert proc.returncode == 0, proc.stderr[-4000:]
        _observed[key] = json.loads(proc.stdout)
    return _observed[key]


def differences(ours: dict[str, object], ref: dict[str, object]) -> dict[str, object]:
    assert ours.keys() == ref.keys()
    return {name: {"ours": ours[name], "reference": ref[name]} for name in ours if ours[name] != ref[name]}


@pytest.mark.parametrize("headers", ["reference", "ours"])
def test_kernel_behaves_on_our_runtime_as_on_the_reference(headers: str, builds: dict[str, Path],
                                                          reference: Reference) -> None:
    found = differences(observations(headers, "ours", builds, reference),
                        observations(headers, "reference", builds, reference))
    unexpected = {name: diff for name, diff in found.items() if name not in KNOWN_DIFFERENCES}
    assert not unexpected, json.dumps(unexpected, indent=1)


@pytest.mark.parametrize("runtime", ["reference", "ours"])
def test_our_headers_build_the_same_kernel_as_the_reference_headers(runtime: str, builds: dict[str, Path],
                                                                     reference: Reference) -> None:
    found = differences(observations("ours", runtime, builds, reference),
                        observations("reference", runtime, builds, reference))
    assert not found, json.dumps(found, indent=1)


def test_known_differences_are_still_there(builds: dict[str, Path], reference: Reference) -> None:
    """An entry of KNOWN_DIFFERENCES that no longer differs is stale: delete it."""
    found = differences(observations("reference", "ours", builds, reference),
                        observations("reference", "reference", builds, reference))
    assert sorted(set(KNOWN_DIFFERENCES) - set(found)) == []
