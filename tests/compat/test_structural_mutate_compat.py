"""Structural mutation under our package and under the reference, on the same inputs
(scripts/structural_mutate_behaviour.py): map orders, copy-on-write and in-place rebuilds,
def regions and variable remapping, hooks, mutator methods, fields and errors, plus a C++ library
built against the REFERENCE headers (kernels/ref_mutate_lib.cc) whose native `__s_mutate__` hook
and header-only map/mutate engines run on each runtime. The printed observations must be
identical. The same source also builds against OUR headers (UnchangedOr, MutateExpected,
DefaultMutateExpected, TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN, type_attr::kStructuralMutate) and
observes the same, on our runtime and on the reference's."""

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

SCRIPT = COMPAT_DIR / "scripts" / "structural_mutate_behaviour.py"


@pytest.fixture(scope="module")
def mutate_lib(reference: Reference, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ref_mutate_lib")
    return build_kernel(KERNELS_DIR / "ref_mutate_lib.cc", out / "libref_mutate.so",
                        include_dir=reference.include_dir, link_dir=reference.lib_dir)


def test_structural_mutation_matches_the_reference(reference: Reference, mutate_lib: Path,
                                                  tmp_path: Path) -> None:
    ours = observe_on_both_runtimes(SCRIPT, mutate_lib, reference, tmp_path, min_lines=50)
    # The observations are real mutations, not errors.
    assert "fold: compat.mutate.Int(value=6)" in ours
    assert any(line.startswith("list moved: '[2, 3] in_place=True") for line in ours)
    assert "cxx mutate: ((-1, (-2, (-3,)), {\"k\": -4}), (0, 0, 0))" in ours
    assert any(line.startswith("hook: (demo.MutPair(first=11,") for line in ours)


def test_reference_style_mutate_code_builds_against_our_headers(reference: Reference, mutate_lib: Path,
                                                               plain_runtime: Runtime,
                                                                tmp_path: Path) -> None:
    built_with_ours = observe_built_with_our_headers(SCRIPT, KERNELS_DIR / "ref_mutate_lib.cc", mutate_lib,
                                                     plain_runtime.libdir, reference, tmp_path)
    assert any(line.startswith("hook: (demo.MutPair(first=11,") for line in built_with_ours)
