"""kernels/reflection_tools_lib.cc (field getters/setters, method lookup, ObjectCreator,
NativeFunction hooks, OverloadObjectDef) built against OUR headers must be observed exactly like
the build against the REFERENCE headers, under our package and under the reference
(scripts/reflection_tools_observations.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import INCLUDE_DIR, Runtime

from .conftest import COMPAT_DIR, KERNELS_DIR, Reference, build_kernel

SCRIPT = COMPAT_DIR / "scripts" / "reflection_tools_observations.py"


@pytest.fixture(scope="module")
def libs(reference: Reference, plain_runtime: Runtime, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """libreflection_tools.so per header set."""
    out = tmp_path_factory.mktemp("reflection_tools")
    built = {}
    for headers, include_dir, link_dir in [("reference", reference.include_dir, reference.lib_dir),
                                           ("ours", INCLUDE_DIR, plain_runtime.libdir)]:
        built[headers] = build_kernel(KERNELS_DIR / "reflection_tools_lib.cc",
                                      out / f"libreflection_tools_{headers}.so", include_dir=include_dir,
                                      link_dir=link_dir)
    return built


def observe(lib: Path, env: dict[str, str]) -> dict[str, object]:
    proc = subprocess.run([sys.executable, str(SCRIPT), str(lib)], capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def observations(libs: dict[str, Path], reference: Reference) -> dict[tuple[str, str], dict[str, object]]:
    """(runtime, headers) -> observations."""
    ours_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}
    envs = {"ours": ours_env, "reference": reference.env()}
    return {(runtime, headers): observe(lib, envs[runtime]) for runtime in envs for headers, lib in libs.items()}


@pytest.mark.parametrize("runtime", ["ours", "reference"])
def test_our_reflection_tools_behave_like_the_reference_headers(
        runtime: str, observations: dict[tuple[str, str], dict[str, object]]) -> None:
    ours, ref = observations[(runtime, "ours")], observations[(runtime, "reference")]
    differences = {name: {"our headers": ours.get(name), "reference headers": ref.get(name)}
                   for name in ours.keys() | ref.keys() if ours.get(name) != ref.get(name)}
    assert not differences, json.dumps(differences, indent=1)


def test_overloads_dispatch_on_argument_types(observations: dict[tuple[str, str], dict[str, object]]) -> None:
    seen = observations[("ours", "ours")]
    assert seen["vec one arg"] == "[3, 3]" and seen["vec two args"] == "[3, 4]"
    assert seen["describe int"] == "'int 3'" and seen["describe str"] == "'str s'"
    assert seen["describe pair"] == "12" and seen["vec total scaled"] == "30"
    kind, message = seen["describe float"][1:]  # type: ignore[index]
    assert kind == "TypeError" and message.startswith("No matching overload found when calling: "
                                                      "`tools.Vec.describe` with 1 arguments:\nOverload #0: ")


def test_accessors_and_creator(observations: dict[tuple[str, str], dict[str, object]]) -> None:
    seen = observations[("ours", "ours")]
    assert seen["field names"] == "['x', 'y', 'label', 'z']"
    assert seen["create"] == "[1, 7, 'origin', 2.5]"
    assert seen["create missing"][1:] == ["TypeError",  # type: ignore[index]
                                          "Required field `x` not set in type `tools.Point`"]
    assert seen["native hooks"] == "[10, 105, 10, 105, 105, 10, 10]"
    assert seen["native hook raises"][1:] == ["ValueError", "negative input -1"]  # type: ignore[index]


DATACLASS_SCRIPT = COMPAT_DIR / "scripts" / "dataclass_ops_observations.py"


@pytest.fixture(scope="module")
def dataclass_observations(reference: Reference, plain_runtime: Runtime,
                           tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], dict[str, object]]:
    """(runtime, headers) -> observations of kernels/dataclass_ops_lib.cc. The reference-headers
    build needs the reference runtime's exported C++ functions, so it runs under the reference only."""
    out = tmp_path_factory.mktemp("dataclass_ops")
    ours = build_kernel(KERNELS_DIR / "dataclass_ops_lib.cc", out / "libdc_ours.so", include_dir=INCLUDE_DIR,
                        link_dir=plain_runtime.libdir)
    ref = build_kernel(KERNELS_DIR / "dataclass_ops_lib.cc", out / "libdc_ref.so",
                       include_dir=reference.include_dir, link_dir=reference.lib_dir)
    ours_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}

    def run(lib: Path, env: dict[str, str]) -> dict[str, object]:
        proc = subprocess.run([sys.executable, str(DATACLASS_SCRIPT), str(lib)], capture_output=True,
                              text=True, env=env, timeout=300)
        assert proc.returncode == 0, proc.stderr[-4000:]
        return json.loads(proc.stdout)  # type: ignore[no-any-return]

    return {("ours", "ours"): run(ours, ours_env), ("reference", "ours"): run(ours, reference.env()),
            ("reference", "reference"): run(ref, reference.env())}


@pytest.mark.parametrize("runtime", ["ours", "reference"])
def test_dataclass_ops_behave_like_the_reference(
        runtime: str, dataclass_observations: dict[tuple[str, str], dict[str, object]]) -> None:
    ours, ref = dataclass_observations[(runtime, "ours")], dataclass_observations[("reference", "reference")]
    differences = {name: {"our headers": ours.get(name), "reference headers": ref.get(name)}
                   for name in ours.keys() | ref.keys() if ours.get(name) != ref.get(name)}
    assert not differences, json.dumps(differences, indent=1)
