"""The same Python script (scripts/python_behaviour.py) observes container equality, hashing and
`in`, convert, the __cuda_stream__ protocol, constructor exceptions, class hooks and imported
names under our package and under the reference; the observations must be identical."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .conftest import COMPAT_DIR, Reference, our_package_env

SCRIPT = COMPAT_DIR / "scripts" / "python_behaviour.py"


def observe(env: dict[str, str], cwd: Path) -> dict[str, object]:
    proc = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, env=env,
                          cwd=str(cwd), timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def test_python_behaviour_matches_the_reference(reference: Reference, tmp_path: Path) -> None:
    ours_env = our_package_env()
    ours, ref = observe(ours_env, tmp_path), observe(reference.env(), tmp_path)
    assert ours.keys() == ref.keys()
    differences = {name: {"ours": ours[name], "reference": ref[name]} for name in ours if ours[name] != ref[name]}
    assert not differences, json.dumps(differences, indent=1)
