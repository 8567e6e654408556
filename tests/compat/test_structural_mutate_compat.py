"""Structural mutation under our package and under the reference, on the same inputs
(scripts/structural_mutate_behaviour.py): map orders, copy-on-write and in-place rebuilds,
def regions and variable remapping, hooks, mutator methods, fields and errors. The printed
observations must be identical."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .conftest import COMPAT_DIR, Reference

SCRIPT = COMPAT_DIR / "scripts" / "structural_mutate_behaviour.py"


def observe(env: dict[str, str], cwd: Path) -> list[str]:
    proc = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, env=env,
                          cwd=str(cwd), timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.splitlines()


def test_structural_mutation_matches_the_reference(reference: Reference, tmp_path: Path) -> None:
    ours_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH")}
    ours, ref = observe(ours_env, tmp_path), observe(reference.env(), tmp_path)
    assert len(ours) == len(ref) > 50
    differences = [f"ours:      {a}\nreference: {b}" for a, b in zip(ours, ref) if a != b]
    assert not differences, "\n".join(differences)
    # The observations are real mutations, not errors.
    assert "fold: compat.mutate.Int(value=6)" in ours
    assert any(line.startswith("list moved: '[2, 3] in_place=True") for line in ours)
