"""Structural visiting under our package and under the reference, on the same inputs
(scripts/structural_walk_behaviour.py): walk orders, type selection, def regions of the visit
fixtures, interrupts and errors, plus a C++ library built against the REFERENCE headers
(kernels/ref_visit_lib.cc) whose native `__s_visit__` hook and header-only walk engine run on
each runtime. The printed observations must be identical. The same source also builds against
OUR headers (the reference's spellings: WalkResult::Advance(), Expected callbacks, VisitExpected,
native_fn_attr with type_attr::kStructuralVisit) and observes the same, on our runtime and on
the reference's."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Runtime

from .conftest import (
    COMPAT_DIR,
    KERNELS_DIR,
    Reference,
    build_kernel,
    observe_built_with_our_headers,
    observe_on_both_runtimes,
)

SCRIPT = COMPAT_DIR / "scripts" / "structural_walk_behaviour.py"


@pytest.fixture(scope="module")
def visit_lib(reference: Reference, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ref_visit_lib")
    return build_kernel(KERNELS_DIR / "ref_visit_lib.cc", out / "libref_visit.so",
                        include_dir=reference.include_dir, link_dir=reference.lib_dir)


def test_structural_visiting_matches_the_reference(reference: Reference, visit_lib: Path,
                                                   tmp_path: Path) -> None:
    ours = observe_on_both_runtimes(SCRIPT, visit_lib, reference, tmp_path, min_lines=40)
    # The observations are real walks, not empty results.
    assert "cxx walk interrupt: ffi.VisitInterrupt(value=30)" in ours
    assert any(line.startswith("hook cxx walk: [") and "('4', 0)" in line for line in ours)


def test_reference_style_visit_code_builds_against_our_headers(reference: Reference, visit_lib: Path,
                                                               plain_runtime: Runtime,
                                                               tmp_path: Path) -> None:
    built_with_ours = observe_built_with_our_headers(SCRIPT, KERNELS_DIR / "ref_visit_lib.cc", visit_lib,
                                                     plain_runtime.libdir, reference, tmp_path)
    assert "cxx walk interrupt: ffi.VisitInterrupt(value=30)" in built_with_ours
