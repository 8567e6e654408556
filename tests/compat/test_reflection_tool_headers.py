"""Libraries using the C++ reflection tools, built against OUR headers, must be observed exactly
like their builds against the REFERENCE headers, under our package and under the reference:

- kernels/reflection_tools_lib.cc: field getters/setters, method lookup, type attributes,
  ObjectCreator, NativeFunction hooks, OverloadObjectDef, TypeAttrDef, overload_cast
  (scripts/reflection_tools_observations.py);
- kernels/dataclass_ops_lib.cc: DeepCopy, ReprPrint, RecursiveHash/Eq/Lt/..., operator<<
  (scripts/dataclass_ops_observations.py). Its reference-headers build calls C++ functions the
  reference runtime exports, so it runs under the reference only.

The four libraries are built in parallel, and the observing processes run in parallel, once per
module.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import INCLUDE_DIR, Runtime

from .conftest import COMPAT_DIR, KERNELS_DIR, Reference, build_kernel, our_package_env

TOOLS_SCRIPT = COMPAT_DIR / "scripts" / "reflection_tools_observations.py"
DATACLASS_SCRIPT = COMPAT_DIR / "scripts" / "dataclass_ops_observations.py"
Observations = dict[tuple[str, str, str], dict[str, object]]  # (library, runtime, headers) -> seen


@pytest.fixture(scope="module")
def observations(reference: Reference, plain_runtime: Runtime,
                 tmp_path_factory: pytest.TempPathFactory) -> Observations:
    out = tmp_path_factory.mktemp("reflection_tools")
    header_sets = {"ours": (INCLUDE_DIR, plain_runtime.libdir),
                   "reference": (reference.include_dir, reference.lib_dir)}
    sources = {"tools": KERNELS_DIR / "reflection_tools_lib.cc", "dataclass": KERNELS_DIR / "dataclass_ops_lib.cc"}
    builds = [(library, headers) for library in sources for headers in header_sets]
    with ThreadPoolExecutor(max_workers=len(builds)) as pool:
        libs = dict(zip(builds, pool.map(
            lambda b: build_kernel(sources[b[0]], out / f"lib{b[0]}_{b[1]}.so", include_dir=header_sets[b[1]][0],
                                   link_dir=header_sets[b[1]][1]), builds)))

    envs = {"ours": our_package_env(),
            "reference": reference.env()}
    scripts = {"tools": TOOLS_SCRIPT, "dataclass": DATACLASS_SCRIPT}
    runs = [(library, runtime, headers) for (library, headers) in libs for runtime in envs
            if not (library == "dataclass" and headers == "reference" and runtime == "ours")]
    procs = {run: subprocess.Popen([sys.executable, str(scripts[run[0]]), str(libs[(run[0], run[2])])],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=envs[run[1]])
             for run in runs}
    seen = {}
    for run, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=300)
        assert proc.returncode == 0, f"{run}: {stderr[-4000:]}"
        seen[run] = json.loads(stdout)
    return seen


def differences(ours: dict[str, object], ref: dict[str, object]) -> dict[str, object]:
    return {name: {"our headers": ours.get(name), "reference headers": ref.get(name)}
            for name in ours.keys() | ref.keys() if ours.get(name) != ref.get(name)}


@pytest.mark.parametrize("runtime", ["ours", "reference"])
def test_our_reflection_tools_behave_like_the_reference_headers(runtime: str, observations: Observations) -> None:
    diff = differences(observations[("tools", runtime, "ours")], observations[("tools", runtime, "reference")])
    assert not diff, json.dumps(diff, indent=1)


@pytest.mark.parametrize("runtime", ["ours", "reference"])
def test_dataclass_ops_behave_like_the_reference(runtime: str, observations: Observations) -> None:
    diff = differences(observations[("dataclass", runtime, "ours")],
                       observations[("dataclass", "reference", "reference")])
    assert not diff, json.dumps(diff, indent=1)


def test_overloads_dispatch_on_argument_types(observations: Observations) -> None:
    seen = observations[("tools", "ours", "ours")]
    assert seen["vec one arg"] == "[3, 3]" and seen["vec two args"] == "[3, 4]"
    assert seen["describe int"] == "'int 3'" and seen["describe str"] == "'str s'"
    assert seen["describe pair"] == "12" and seen["vec total scaled"] == "30"
    assert seen["pick int"] == "4" and seen["pick str"] == "'first'" and seen["pick fallback"] == "9"
    kind, message = seen["describe float"][1:]  # type: ignore[index]
    assert kind == "TypeError" and message.startswith("No matching overload found when calling: "
                                                      "`tools.Vec.describe` with 1 arguments:\nOverload #0: ")


def test_accessors_creator_and_type_attrs(observations: Observations) -> None:
    seen = observations[("tools", "ours", "ours")]
    assert seen["field names"] == "['x', 'y', 'label', 'z']"
    assert seen["create"] == "[1, 7, 'origin', 2.5]"
    assert seen["create missing"][1:] == ["TypeError",  # type: ignore[index]
                                          "Required field `x` not set in type `tools.Point`"]
    assert seen["native hooks"] == "[10, 105, 10, 105, 105, 10, 10]"
    assert seen["native hook raises"][1:] == ["ValueError", "negative input -1"]  # type: ignore[index]
    assert seen["attr kind"] == "('point', 'vec')" and seen["attr final"] == "[False, True, True]"
    assert seen["native any hash"] == "7000" and seen["convert vec"] == "'Vec'"
