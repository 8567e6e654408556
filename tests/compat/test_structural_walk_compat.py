"""Structural visiting under our package and under the reference, on the same inputs
(scripts/structural_walk_behaviour.py): walk orders, type selection, def regions of the visit
fixtures, interrupts and errors, plus a C++ library built against the REFERENCE headers
(kernels/ref_visit_lib.cc) whose native `__s_visit__` hook and header-only walk engine run on
each runtime. The printed observations must be identical. The same source also builds against
OUR headers (the reference's spellings: WalkResult::Advance(), Expected callbacks, VisitExpected,
native_fn_attr with type_attr::kStructuralVisit) and observes the same, on our runtime and on
the reference's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import Runtime

from .conftest import (
    COMPAT_DIR,
    KERNELS_DIR,
    Reference,
    build_kernel,
    observe_built_with_our_headers,
    run_behaviour_script,
)

SCRIPT = COMPAT_DIR / "scripts" / "structural_walk_behaviour.py"


@pytest.fixture(scope="module")
def visit_lib(reference: Reference, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ref_visit_lib")
    return build_kernel(KERNELS_DIR / "ref_visit_lib.cc", out / "libref_visit.so",
                        include_dir=reference.include_dir, link_dir=reference.lib_dir)


def observe(env: dict[str, str], lib: Path, cwd: Path) -> list[str]:
    return run_behaviour_script(SCRIPT, lib, env, cwd)


def test_structural_visiting_matches_the_reference(reference: Reference, visit_lib: Path,
                                                   tmp_path: Path) -> None:
    ours_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}
    ours, ref = observe(ours_env, visit_lib, tmp_path), observe(reference.env(), visit_lib, tmp_path)
    assert len(ours) == len(ref) > 40
    differences = [f"ours:      {a}\nreference: {b}" for a, b in zip(ours, ref) if a != b]
    assert not differences, "\n".join(differences)
    # The observations are real walks, not empty results.
    assert "cxx walk interrupt: ffi.VisitInterrupt(value=30)" in ours
    assert any(line.startswith("hook cxx walk: [") and "('4', 0)" in line for line in ours)


def test_reference_style_visit_code_builds_against_our_headers(reference: Reference, visit_lib: Path,
                                                               plain_runtime: Runtime,
                                                               tmp_path: Path) -> None:
    built_with_ours = observe_built_with_our_headers(SCRIPT, KERNELS_DIR / "ref_visit_lib.cc", visit_lib,
                                                     plain_runtime.libdir, reference, tmp_path)
    assert "cxx walk interrupt: ffi.VisitInterrupt(value=30)" in built_with_ours
